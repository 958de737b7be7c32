"""What a ruleset offers the game service: the protocol and the values that cross it.

A game is a ruleset, a scenario and an ordered log. The service knows a ruleset only through
:class:`Ruleset` (state, whose move it is, legal actions, resolve, apply: the shape OpenSpiel
gives research games), so a ruleset can be written, tested and replayed without the service.

Everything that crosses the boundary is a frozen value with a JSON form: :class:`Command` (what a
side asks for), :class:`Event` (a fact the fold applies), :class:`RollRecord` (one die roll as the
log keeps it) and :class:`Resolution` (the events of one command and the ruling that explains
them).

>>> command = Command("german", "fire", {"gun": "pak", "ammo": "APCR"}, "fire pak --ammo APCR")
>>> Command.from_json(command.to_json()) == command
True
>>> Event.from_json({"kind": "phase", "data": {"phase": "PFPh"}})
Event(kind='phase', data={'phase': 'PFPh'})
>>> RollRecord(0, "To Hit DR", "DR", (3, 4), "fair").to_json()["faces"]
[3, 4]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, runtime_checkable

from ordnance.core.errors import BadInput, OrdnanceError

if TYPE_CHECKING:
    # Types only: a game's commands (the CLI's ``game do``) need no map code to start.
    from ordnance.core.command_words import CommandTable
    from ordnance.core.dice import DR, DiceSource, DieRoll
    from ordnance.core.maps import CounterView, GameMap, MapFiles, TerrainChart
    from ordnance.core.odds import Distribution

JsonObject = dict[str, Any]
RollKind = Literal["DR", "dr"]
RollSource = Literal["fair", "physical"]

StateT = TypeVar("StateT")


def _object(data: object, what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise BadInput(what, str(data)[:60], "expected a JSON object")
    return data


@dataclass(frozen=True)
class Command:
    """A side's request, parsed: ``verb`` and its ``args`` (JSON values); ``text`` reads it back."""

    side: str
    verb: str
    args: Mapping[str, Any] = field(default_factory=dict)
    text: str = ""

    def to_json(self) -> JsonObject:
        # No arguments is the common case ("phase next", its mapping read-only): a new {}.
        args = dict(self.args) if self.args else {}
        return {"side": self.side, "verb": self.verb, "args": args, "text": self.text}

    @classmethod
    def from_json(cls, data: object) -> Command:
        body = _object(data, "command")
        try:
            return cls(str(body["side"]), str(body["verb"]), dict(body["args"]), str(body["text"]))
        except (KeyError, TypeError, ValueError) as error:
            raise BadInput("command", str(data)[:60], f"missing or bad field {error}") from None


@dataclass(frozen=True)
class Event:
    """One fact a command established; the state is the fold of these."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        return {"kind": self.kind, "data": dict(self.data)}

    @classmethod
    def from_json(cls, data: object) -> Event:
        body = _object(data, "event")
        if not isinstance(body.get("kind"), str) or not isinstance(body.get("data"), Mapping):
            raise BadInput("event", str(data)[:60], "expected {kind: text, data: object}")
        return cls(body["kind"], dict(body["data"]))


@dataclass(frozen=True)
class RollRecord:
    """One roll as the log keeps it: its index in the game, purpose, kind, faces and source.

    ``epoch`` names the fair-dice seed the roll came from (None for physical dice).
    """

    index: int
    purpose: str
    kind: RollKind
    faces: tuple[int, ...]
    source: RollSource
    epoch: int | None = None

    def to_json(self) -> JsonObject:
        return {
            "index": self.index,
            "purpose": self.purpose,
            "kind": self.kind,
            "faces": list(self.faces),
            "source": self.source,
            "epoch": self.epoch,
        }

    @classmethod
    def from_json(cls, data: object) -> RollRecord:
        body = _object(data, "roll")
        try:
            kind, source = body["kind"], body["source"]
            if kind not in ("DR", "dr") or source not in ("fair", "physical"):
                raise ValueError("kind or source")
            epoch = body.get("epoch")
            return cls(
                int(body["index"]),
                str(body["purpose"]),
                kind,
                tuple(int(face) for face in body["faces"]),
                source,
                None if epoch is None else int(epoch),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise BadInput("roll", str(data)[:60], f"missing or bad field {error}") from None


@dataclass(frozen=True)
class Resolution:
    """What one command did: the events to append and the ruling (JSON) that explains them."""

    events: tuple[Event, ...]
    ruling: Mapping[str, Any]


class Ruleset(Protocol[StateT]):
    """A game's rules as the service sees them. Every method is pure given its arguments.

    Refusals raise :class:`~ordnance.core.errors.IllegalAction` (clause and sentence), malformed
    input :class:`~ordnance.core.errors.BadInput`; neither may leave anything changed.

    A ruleset may also offer ``apply_stored(state, kind, data)``: :meth:`apply` for an event
    as a stored log holds it, its kind a string and its data a dict that the method only reads
    (never keeps or changes). The fold of a stored log uses it when present, so it makes no
    :class:`Event` for each event it reads; it must give what ``apply(state, Event(kind,
    data))`` gives.
    """

    @property
    def name(self) -> str:
        """The name scenario files give in ``ruleset:``."""
        ...

    def load_scenario(self, data: Mapping[str, Any], maps: MapFiles) -> JsonObject:
        """Check a scenario file's content and return it self-contained and JSON-able.

        ``maps`` says which maps and files the scenario may name (bundled, files beside it on
        the CLI, uploads on the server); every name is read through it. Whatever the scenario
        takes from them (the map's text, counter data) is copied in, so the log alone replays.
        """
        ...

    def sides(self, scenario: Mapping[str, Any]) -> tuple[str, ...]:
        """The sides of a loaded scenario, in order; each gets its own token."""
        ...

    def initial_state(self, scenario: Mapping[str, Any]) -> StateT:
        """The state before any command, from :meth:`load_scenario`'s result."""
        ...

    def parse_command(self, side: str, words: Sequence[str]) -> Command:
        """Read a command's words (``fire pak --ammo APCR``) for ``side``."""
        ...

    def to_move(self, state: StateT) -> str | None:
        """The side expected to act next (None once the game is over)."""
        ...

    def legal_actions(self, state: StateT, side: str) -> tuple[str, ...]:
        """Command texts ``side`` may send now, each accepted by :meth:`parse_command`."""
        ...

    def resolve(self, state: StateT, command: Command, dice: DiceSource) -> Resolution:
        """Check ``command`` against ``state`` and resolve it, rolling only through ``dice``."""
        ...

    def apply(self, state: StateT, event: Event) -> StateT:
        """The state after one event (the fold step)."""
        ...

    def is_over(self, state: StateT) -> bool:
        """Whether the scenario has ended."""
        ...

    def view(self, state: StateT) -> JsonObject:
        """The state as JSON for ``status`` (the shared side record)."""
        ...


@runtime_checkable
class MapRules(Protocol):
    """Optional, beside :class:`Ruleset`: a ruleset whose games keep a map with markers on it.

    ``ordnance game render`` draws what :meth:`live_map` returns; a ruleset without it (or a
    scenario without a map, None) has nothing to draw.
    """

    def live_map(self, state: Any) -> tuple[GameMap, TerrainChart] | None:
        """The scenario's map with what the game placed on it, and the table to draw it with."""
        ...


@runtime_checkable
class CounterRules(Protocol):
    """Optional, beside :class:`MapRules`: a ruleset that shows its units on the map picture.

    Each unit is described in generic words (:class:`~ordnance.core.maps.counters.CounterView`:
    hex, side, label, notation, glyph, facing, turret, state badges) and the core renderer
    draws them all alike, for ``game render`` and any web page.
    """

    def counters(self, state: Any) -> tuple[CounterView, ...]:
        """Every unit on the map now (eliminated ones and passengers left out or shown as
        their rulesets choose), in the order a stack lists them."""
        ...


@runtime_checkable
class CommandHelp(Protocol):
    """Optional: a ruleset whose command words come from a :class:`CommandTable`, so that
    ``game do GAME ... COMMAND --help`` can show them."""

    @property
    def commands(self) -> CommandTable:
        """The table :meth:`Ruleset.parse_command` reads the words with."""
        ...


@runtime_checkable
class EventText(Protocol):
    """Optional: a ruleset that reads its events as sentences (``game do``, logs, web pages)."""

    def describe_event(self, event: Event) -> str:
        """One plain sentence for one event; never a Python value as it is."""
        ...


@runtime_checkable
class AiPlayer(Protocol):
    """Optional: a ruleset with an AI that plays a side (``game ai``, the server's AI sides).

    Whether a game has an AI is its spec's claim (``Feature.AI``), held to this protocol once
    when the spec is registered; a face asks the spec (``spec.ai(rules)``).
    """

    def ai_command(self, state: Any, side: str) -> str | None:
        """The AI's next command for ``side`` (None: nothing for it to decide now)."""
        ...

    def ai_note(self, state: Any, side: str, text: str) -> str | None:
        """A few words on the command ``text`` the AI chose at ``state``, for the players who
        watch it play (what it expects of it, in the game's terms); None: nothing to add."""
        ...


@runtime_checkable
class ChanceOutcomes(Protocol):
    """Optional: a ruleset that gives the exact odds of a command before it is rolled.

    The board's preview shows them for every action that rolls; a command that rolls nothing
    (a move, a phase change) raises :class:`~ordnance.core.errors.BadInput` or returns a
    distribution of one outcome, and one the rules refuse raises its
    :class:`~ordnance.core.errors.IllegalAction`, as :meth:`Ruleset.resolve` would.
    """

    def chance_outcomes(self, state: Any, command: Command) -> Distribution[Any]:
        """Every outcome of ``command`` in ``state`` with its exact probability (summing to 1);
        outcomes are values with a plain text form (``str(outcome)`` is what a table shows)."""
        ...


class ProbeRolled(Exception):
    """Raised by :class:`ProbeDice`: the command passed every check and reached its roll."""


class ProbeDice:
    """Dice that stop a resolution at its first roll: what passed the checks is legal.

    Rulesets check a command completely before they roll, so resolving it with these dice
    answers "would this be accepted?" without rolling or changing anything.

    >>> ProbeDice().roll_dr("To Hit DR")
    Traceback (most recent call last):
    ...
    ordnance.core.ruleset.ProbeRolled: To Hit DR
    """

    def roll_dr(self, purpose: str) -> DR:
        raise ProbeRolled(purpose)

    def roll_die(self, purpose: str) -> DieRoll:
        raise ProbeRolled(purpose)


def passes_checks(
    resolve: Callable[[StateT, Command, DiceSource], object], state: StateT, command: Command
) -> bool:
    """Whether ``resolve(state, command, dice)`` accepts ``command``, probed up to its first roll.

    A refusal (any :class:`~ordnance.core.errors.OrdnanceError`) means not legal; reaching a
    roll, or finishing without one, means legal. This is what ``legal_actions`` filters by.

    >>> from ordnance.core.errors import IllegalAction
    >>> def fire(state, command, dice):
    ...     if command.args["gun"] != "pak":
    ...         raise IllegalAction("C8", "no such gun")
    ...     return dice.roll_dr("To Hit DR")
    >>> [passes_checks(fire, None, Command("german", "fire", {"gun": g})) for g in ("pak", "mg")]
    [True, False]
    """
    try:
        resolve(state, command, ProbeDice())
    except ProbeRolled:
        pass
    except OrdnanceError:
        return False
    return True
