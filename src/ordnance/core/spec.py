"""What a game is to the program beyond its rules: one :class:`GameSpec` per game.

A spec names everything a face or the docs need of a game: how to build its ruleset, its
line-of-sight judge, the package its data (scenario schema, maps) ships in, the CLI's layout of its
``game status``, its victory words, its settings, and which optional features its ruleset
offers (:class:`Feature`: an AI, exact odds, a command table...). Each ruleset package builds
its spec in its own ``spec.py``; ``game/registry.py`` knows each game's name and the module of
its spec, and imports a spec on first use.

A spec claims its features; :func:`check` holds the ruleset to them, once, when the spec is
registered: a claimed feature the ruleset lacks, or one it offers unclaimed, is refused with a
sentence naming both. After that the spec and the ruleset agree, and a face asks the spec
only (``spec.has(Feature.AI)``, or a typed view such as :meth:`GameSpec.odds`, None where the
game lacks the feature): nothing probes a ruleset for an attribute it might happen to carry,
neither with ``getattr`` nor with ``isinstance`` against a protocol at each use.

Everything that needs a ruleset's modules is a function, called on use, so a spec is cheap to
import: the lobby can list the games' titles without loading their rules.

>>> spec = GameSpec("demo", "Demo", lambda: None, "demo", features=frozenset({Feature.AI}))
>>> spec.has(Feature.AI), spec.has(Feature.ODDS)
(True, False)
>>> GameSpec("Demo!", "Demo", lambda: None, "demo")
Traceback (most recent call last):
...
ordnance.core.spec.SpecError: game spec 'Demo!': a name is lower-case letters and digits
"""

from __future__ import annotations

import enum
import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, cast, runtime_checkable

from ordnance.core.errors import OrdnanceError
from ordnance.core.maps import LosJudge
from ordnance.core.offers import BoardOffers
from ordnance.core.ruleset import (
    AiPlayer,
    ChanceOutcomes,
    CommandHelp,
    CounterRules,
    EventText,
    MapRules,
    Ruleset,
)

__all__ = ["Feature", "GameSettings", "GameSpec", "SpecError", "StoredFold", "check", "on_use"]

_NAME = re.compile(r"[a-z][a-z0-9]*\Z")


class SpecError(OrdnanceError):
    """A game spec that cannot be registered (a programming fault, not a player's)."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"game spec {name!r}: {problem}")
        self.name = name
        self.problem = problem


@runtime_checkable
class StoredFold(Protocol):
    """Optional: a ruleset with its own fold step for an event as a stored log holds it.

    ``apply_stored(state, kind, data)`` must give what ``apply(state, Event(kind, data))``
    gives; it only reads ``data`` (a dict), so the fold of a stored log makes no
    :class:`~ordnance.core.ruleset.Event` per event it reads.
    """

    def apply_stored(self, state: Any, kind: str, data: dict[str, Any]) -> Any:
        """The state after the event ``kind`` with ``data``."""
        ...


class GameSettings(Protocol):
    """A game's settings (house rules and options) as the faces read them."""

    def override(self, values: Mapping[str, str]) -> GameSettings:
        """These settings with ``values`` (name -> text) changed, each checked."""
        ...

    @staticmethod
    def describe() -> list[dict[str, Any]]:
        """Every setting: name, default, rule and what it does."""
        ...


class Feature(enum.Enum):
    """An optional feature a ruleset may offer, with the protocol it offers it through."""

    AI = "ai"  # plays a side: AiPlayer
    ODDS = "odds"  # exact odds of a command before it rolls: ChanceOutcomes
    COMMANDS = "commands"  # its words come from a command table: CommandHelp
    EVENT_TEXT = "event text"  # reads its events as sentences: EventText
    MAP = "map"  # keeps a map with markers on it: MapRules
    COUNTERS = "counters"  # shows its units on that map: CounterRules
    OFFERS = "offers"  # says what a chosen unit may do where: BoardOffers
    STORED_FOLD = "stored fold"  # folds a stored event without making it: StoredFold

    @property
    def protocol(self) -> type:
        """The runtime-checkable protocol a ruleset offers this feature through."""
        return _PROTOCOLS[self]


_PROTOCOLS: dict[Feature, type] = {
    Feature.AI: AiPlayer,
    Feature.ODDS: ChanceOutcomes,
    Feature.COMMANDS: CommandHelp,
    Feature.EVENT_TEXT: EventText,
    Feature.MAP: MapRules,
    Feature.COUNTERS: CounterRules,
    Feature.OFFERS: BoardOffers,
    Feature.STORED_FOLD: StoredFold,
}


def _none(state: Mapping[str, Any]) -> str | None:
    return None


def on_use(target: str, *, make: bool = False) -> Callable[[], Any]:
    """A spec's part named ``module:name``, imported when the function returned is called (a
    spec stays cheap to import); with ``make``, what that name makes (a class: an instance).

    >>> on_use("fractions:Fraction", make=True)()
    Fraction(0, 1)
    >>> on_use("math:pi")()
    3.141592653589793
    """
    module, _, name = target.partition(":")

    def load() -> Any:
        found = getattr(importlib.import_module(module), name)
        return found() if make else found

    return load


@dataclass(frozen=True)
class GameSpec:
    """One game, as every face and the docs see it.

    ``name`` is what scenario files give in ``ruleset:``; ``title`` what people read (the
    lobby, the docs). ``ruleset`` builds the rules (its imports happen then). ``judge`` gives
    the game's line-of-sight judge, for the maps whose ``game:`` is ``name``. ``package`` is the
    package whose ``data/`` holds the game's scenario schema (``scenario.schema.json``) and,
    where ``maps`` is true, its bundled maps (``maps/*.yaml``). ``status`` names the CLI's
    layout of ``game status`` for this game as ``module:function`` (a face's code, named here
    and imported by the CLI only: a ruleset never imports a face); None prints the view in
    plain words. ``victory`` puts the view's victory conditions in words (None when it has
    none). ``settings`` gives the default settings. ``features`` is what the ruleset offers
    beyond :class:`~ordnance.core.ruleset.Ruleset`. ``ai_clauses`` are the clauses an AI's turn
    follows (its sequence of play), cited by ``game ai`` before those of the commands it sent.
    """

    name: str
    title: str
    ruleset: Callable[[], Ruleset[Any]]
    package: str
    judge: Callable[[], LosJudge] | None = None
    maps: bool = False
    status: str | None = None
    victory: Callable[[Mapping[str, Any]], str | None] = _none
    settings: Callable[[], GameSettings] | None = None
    features: frozenset[Feature] = field(default_factory=frozenset)
    ai_clauses: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise SpecError(self.name, "a name is lower-case letters and digits")
        if self.status is not None and not re.fullmatch(r"[\w.]+:\w+", self.status):
            raise SpecError(self.name, f"status {self.status!r} is not module:function")

    def has(self, feature: Feature) -> bool:
        """Whether the game's ruleset offers ``feature`` (checked when it was registered)."""
        return feature in self.features

    # Typed views of a ruleset of this game through its claimed features: None where the
    # spec claims none. The claim was checked against the ruleset at registration (check).

    def ai(self, rules: Ruleset[Any]) -> AiPlayer | None:
        return cast(AiPlayer, rules) if Feature.AI in self.features else None

    def odds(self, rules: Ruleset[Any]) -> ChanceOutcomes | None:
        return cast(ChanceOutcomes, rules) if Feature.ODDS in self.features else None

    def commands(self, rules: Ruleset[Any]) -> CommandHelp | None:
        return cast(CommandHelp, rules) if Feature.COMMANDS in self.features else None

    def stored_fold(self, rules: Ruleset[Any]) -> StoredFold | None:
        return cast(StoredFold, rules) if Feature.STORED_FOLD in self.features else None

    def event_text(self, rules: Ruleset[Any]) -> EventText | None:
        return cast(EventText, rules) if Feature.EVENT_TEXT in self.features else None

    def map_rules(self, rules: Ruleset[Any]) -> MapRules | None:
        return cast(MapRules, rules) if Feature.MAP in self.features else None

    def counters(self, rules: Ruleset[Any]) -> CounterRules | None:
        return cast(CounterRules, rules) if Feature.COUNTERS in self.features else None

    def offers(self, rules: Ruleset[Any]) -> BoardOffers | None:
        return cast(BoardOffers, rules) if Feature.OFFERS in self.features else None


def check(spec: GameSpec, rules: Ruleset[Any]) -> None:
    """Refuse ``spec`` unless ``rules`` (a ruleset it built) has its name and offers exactly
    the features it claims (:class:`SpecError`, one sentence naming each mismatch).

    >>> class Rules:
    ...     name = "demo"
    ...     def ai_command(self, state, side): return None
    ...     def ai_note(self, state, side, text): return None
    >>> check(GameSpec("demo", "Demo", Rules, "demo", features=frozenset({Feature.AI})), Rules())
    >>> check(GameSpec("demo", "Demo", Rules, "demo", features=frozenset({Feature.ODDS})), Rules())
    Traceback (most recent call last):
    ...
    ordnance.core.spec.SpecError: game spec 'demo': it claims odds, but its ruleset Rules lacks \
chance_outcomes (ChanceOutcomes); its ruleset Rules offers ai (AiPlayer), unclaimed
    """
    if rules.name != spec.name:
        raise SpecError(spec.name, f"its ruleset calls itself {rules.name!r}")
    kind = type(rules).__name__
    offered = {feature for feature in Feature if isinstance(rules, feature.protocol)}
    problems = [
        f"it claims {feature.value}, but its ruleset {kind} lacks"
        f" {', '.join(sorted(_members(feature.protocol)))} ({feature.protocol.__name__})"
        for feature in Feature
        if feature in spec.features - offered
    ] + [
        f"its ruleset {kind} offers {feature.value} ({feature.protocol.__name__}), unclaimed"
        for feature in Feature
        if feature in offered - spec.features
    ]
    if problems:
        raise SpecError(spec.name, "; ".join(problems))


def _members(protocol: type) -> set[str]:
    """The methods and properties a protocol asks for."""
    return {
        name
        for name, value in vars(protocol).items()
        if not name.startswith("_") and (callable(value) or isinstance(value, property))
    }
