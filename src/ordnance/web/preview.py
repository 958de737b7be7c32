"""What the board shows once a player points: a unit's offers, and the preview of one.

Nothing here decides a rule. The offers come from the ruleset (:class:`BoardOffers`) or from
its legal actions read through its command table (:func:`offers_from_actions`); the preview's
fields from the table's parameter kinds (never from a per-game template); its odds from
``chance_outcomes`` (:class:`ChanceOutcomes`), its refusals from the ruleset's own checks, its
line of sight from the map's judge and its physical rolls from :func:`needed_rolls`.

>>> choice_labels(["fire pak --ammo AP", "fire pak --ammo APCR"], ["", ""])
['fire AP', 'fire APCR']
>>> choice_labels(["move m24"], ["3 MP"])
['move (3 MP)']
"""

from __future__ import annotations

import contextlib
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ordnance.core.command_words import CommandTable, Option, split_words
from ordnance.core.dice import SeededDice
from ordnance.core.errors import IllegalAction, OrdnanceError
from ordnance.core.maps import LosVerdict
from ordnance.core.maps.cache import BoundedCache
from ordnance.core.offers import Offer, names_unit, offers_from_actions
from ordnance.core.ruleset import Command, ProbeDice, ProbeRolled
from ordnance.game.fold import Game
from ordnance.game.legal import legal_actions
from ordnance.game.picture import game_picture
from ordnance.game.registry import judge_for, spec_of
from ordnance.game.rolls import NeededRoll, needed_rolls
from ordnance.game.state_view import state_view
from ordnance.web.charts import odds_chart, percent
from ordnance.web.views import unit_hex

CACHED = 512  # the offers of this many (game, version, side, unit) are kept
_Key = tuple[str, int, str, str]
FIELD_PREFIX = "opt-"  # a preview field's name: the option's name after this prefix
# Words for the actions that belong to no unit (the board's buttons); others are spelled out.
SIDE_ACTION_WORDS = {"phase next": "End phase", "end": "End action", "pass": "Pass"}


def table_of(game: Game) -> CommandTable | None:
    helped = spec_of(game.rules).commands(game.rules)
    return None if helped is None else helped.commands


def _declares_units(table: CommandTable) -> bool:
    """Whether the table says which words name units (a table from before kinds did not)."""
    return any(
        v.positional is not None and v.positional.kind == "unit" for v in table.verbs.values()
    )


def _words(text: str) -> list[str]:
    try:
        return split_words(text)
    except ValueError:
        return []


def _names_unit(table: CommandTable | None, words: list[str], unit: str, units: Any) -> bool:
    if table is not None and _declares_units(table):
        return names_unit(table, words, unit)
    # A table without kinds: the word after the verb names the unit(s) when they are units.
    return len(words) > 1 and unit in words[1].split(",") and isinstance(units, Mapping)


def unit_offers(game: Game, side: str, unit: str) -> tuple[str | None, tuple[Offer, ...]]:
    """The hex of ``unit`` and every action it may take now, each on its hex."""
    where = unit_hex(game, unit)
    offering = spec_of(game.rules).offers(game.rules)
    if offering is not None:
        return where, tuple(offering.offers(game.state, side, unit))
    actions = legal_actions(game, side)
    table = table_of(game)
    if table is not None and _declares_units(table):
        return where, offers_from_actions(table, actions, unit, where)
    if where is None:
        return None, ()
    units = state_view(game).get("units")
    found = [
        Offer(where, words[0], text)
        for text in actions
        if _names_unit(table, words := _words(text), unit, units)
    ]
    return where, tuple(found)


def unit_actions(game: Game, side: str) -> tuple[list[str], list[str]]:
    """The side's units that may act now (in the order their actions come) and the legal
    actions that belong to no unit (``phase next``, ``pass``, ``choose E5``...)."""
    actions = legal_actions(game, side)
    table = table_of(game)
    units = state_view(game).get("units")
    known = units if isinstance(units, Mapping) else {}
    acting: dict[str, None] = {}
    alone: list[str] = []
    for text in actions:
        words = _words(text)
        named = [u for u in (words[1].split(",") if len(words) > 1 else []) if u in known]
        if named and any(_names_unit(table, words, u, known) for u in named):
            for u in named:
                acting.setdefault(u, None)
        else:
            alone.append(text)
    return list(acting), alone


def places(offers: Sequence[Offer]) -> list[tuple[Offer, int]]:
    """Each offer with its index among the offers of its hex (a preview's ``pick``).

    >>> at_e5 = [Offer("E5", "fire", "fire a"), Offer("E5", "move", "move a")]
    >>> places([*at_e5, Offer("C3", "rally", "rally a")])[1]
    (Offer(hex='E5', verb='move', command='move a', note=''), 1)
    """
    seen: dict[str, int] = {}
    found = []
    for offer in offers:
        found.append((offer, seen.get(offer.hex, 0)))
        seen[offer.hex] = seen.get(offer.hex, 0) + 1
    return found


def rolls(game: Game, side: str, text: str) -> bool:
    """Whether the legal action ``text`` reaches a roll (then the board previews it first)."""
    try:
        command = game.rules.parse_command(side, _words(text))
        game.rules.resolve(game.state, command, ProbeDice())
    except ProbeRolled:
        return True
    except OrdnanceError:
        return False
    return False


def buttons(game: Game, side: str, actions: Sequence[str]) -> list[tuple[str, str, bool]]:
    """The actions of no unit as buttons: their text, their words, whether they roll."""
    return [(text, side_action_label(text), rolls(game, side, text)) for text in actions]


def side_action_label(text: str) -> str:
    """A button's words for an action of no unit.

    >>> side_action_label("phase next"), side_action_label("assign-cp --auto")
    ('End phase', 'Assign cp (auto)')
    >>> side_action_label("choose E5")
    'Choose E5'
    """
    if text in SIDE_ACTION_WORDS:
        return SIDE_ACTION_WORDS[text]
    words = _words(text) or [text]
    head = words[0].replace("-", " ").capitalize()
    rest = [w for w in words[1:] if not w.startswith("--")]
    flags = [w[2:] for w in words[1:] if w.startswith("--")]
    return " ".join([head, *rest]) + (f" ({', '.join(flags)})" if flags else "")


def choice_labels(commands: Sequence[str], notes: Sequence[str]) -> list[str]:
    """Each offer of one hex named by its verb and the words that set it apart (the note
    when the words are the same)."""
    split = [_words(c) for c in commands]
    common = set.intersection(*(set(w) for w in split)) if split else set()
    labels = []
    for words, note in zip(split, notes, strict=True):
        verb = words[0] if words else ""
        differ = [w for w in words[1:] if w not in common and not w.startswith("--")]
        text = " ".join([verb, *differ])
        labels.append(f"{text} ({note})" if note else text)
    return labels


@dataclass
class Field:
    """One thing the player still decides, as the command table describes it."""

    name: str  # the form field's name
    option: str  # the option, e.g. --to-hit
    label: str
    kind: str
    value: str = ""
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None


@dataclass
class Board:
    """One preview: the offer picked at a hex, what it needs, its odds or its refusal."""

    unit: str | None
    hex: str | None
    from_hex: str | None
    choices: list[tuple[int, str]] = field(default_factory=list)
    pick: int = 0
    note: str = ""
    command: str = ""
    fields: list[Field] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    refusal: str | None = None
    refusal_clause: str | None = None
    rolls: bool = False
    odds_svg: str | None = None
    odds_rows: list[tuple[str, str, str, str]] = field(default_factory=list)
    odds_note: str = ""
    drms: list[Mapping[str, Any]] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    los: LosVerdict | None = None  # judged once: the text here, the line on the map
    los_text: str | None = None
    los_clauses: list[str] = field(default_factory=list)
    dice: list[NeededRoll] = field(default_factory=list)
    more_dice: bool = False
    physical: bool = False
    problem: str | None = None

    @property
    def firer_hex(self) -> str | None:
        return self.from_hex

    @property
    def target_hex(self) -> str | None:
        return self.hex if self.hex != self.from_hex else None

    @property
    def ready(self) -> bool:
        return bool(self.command) and not self.missing and self.refusal is None


def _fields(
    table: CommandTable | None, verb: str, args: Mapping[str, Any], given: Mapping[str, str]
) -> list[Field]:
    if table is None or verb not in table.verbs:
        return []
    found = []
    for name, option in table.verbs[verb].options.items():
        if not option.ask or _set(option, args.get(option.arg)):
            continue
        found.append(_field(name, option, given))
    return found


def _set(option: Option, value: Any) -> bool:
    return bool(value) if option.read is None or option.repeats else value is not None


def _field(name: str, option: Option, given: Mapping[str, str]) -> Field:
    key = FIELD_PREFIX + name.lstrip("-")
    words = (option.help or name.lstrip("-").replace("-", " ")).rstrip(".")
    return Field(
        key,
        name,
        words,
        option.field_kind,
        str(given.get(key, "")).strip(),
        option.choices,
        option.low,
        option.high,
    )


def _compose(base: str, fields: Sequence[Field]) -> tuple[str, list[str]]:
    """The offer's words with the fields filled in, and the fields still empty."""
    words = _words(base)
    missing = []
    for f in fields:
        if f.kind == "flag":
            if f.value in ("on", "1", "true", "yes"):
                words.append(f.option)
            continue
        if not f.value:
            missing.append(f.label)
            continue
        words += [f.option, f.value]
    return shlex.join(words), missing


def build(
    game: Game,
    side: str,
    *,
    unit: str | None,
    hex: str | None,
    pick: int = 0,
    action: str | None = None,
    given: Mapping[str, str] | None = None,
    offers: tuple[str | None, tuple[Offer, ...]] | None = None,
) -> Board:
    """The preview of the offer ``pick`` of ``unit`` at ``hex`` (or of a side's ``action``,
    one that names no unit), with the values ``given`` for the fields it asks."""
    given = given or {}
    physical = game.dice.mode == "physical"
    if action is not None and (found := _offer_of(game, side, action)) is not None:
        unit, hex, pick = found  # a unit's action named by its words: that offer
        action = None
    if action is not None:
        if action not in legal_actions(game, side):
            return Board(unit, hex, None, problem=f"{action!r} is not an action you may take now")
        here: list[Offer] = [Offer(hex or "", _words(action)[0] if _words(action) else "", action)]
        board = Board(None, None, None, physical=physical)
    else:
        from_hex, placed = offers if offers is not None else unit_offers(game, side, str(unit))
        here = [o for o in placed if o.hex == hex]
        board = Board(unit, hex, from_hex, physical=physical)
        if not here:
            board.problem = f"{unit} has no action at {hex} now"
            return board
    board.pick = pick if 0 <= pick < len(here) else 0
    board.choices = list(
        enumerate(choice_labels([o.command for o in here], [o.note for o in here]))
    )
    offer = here[board.pick]
    board.note = offer.note
    table = table_of(game)
    args: dict[str, Any] = {}
    if table is not None:
        with contextlib.suppress(OrdnanceError):
            _, args = table.read(_words(offer.command))
    board.fields = _fields(table, offer.verb, args, given)
    board.command, board.missing = _compose(offer.command, board.fields)
    # Odds before every roll: with a field still empty (the To Hit number), those of the
    # action without it (depletion, breakdown); Confirm waits for it.
    _judge(game, side, board)
    _sight(game, board)
    return board


def _offer_of(game: Game, side: str, action: str) -> tuple[str, str, int] | None:
    """The unit, hex and pick of the offer whose words are ``action``, if a unit's."""
    words = _words(action)
    for unit in words[1].split(",") if len(words) > 1 else []:
        _, placed = CACHE.get(game, side, unit)
        for offer, pick in places(placed):
            if offer.command == action:
                return unit, offer.hex, pick
    return None


def _judge(game: Game, side: str, board: Board) -> None:
    """The odds, the refusal, the modifiers and the rolls of the composed command."""
    rules = game.rules
    try:
        command = rules.parse_command(side, _words(board.command))
    except OrdnanceError as error:
        board.refusal = str(error)
        return
    board.command = command.text or board.command  # the words the log will show
    try:
        rules.resolve(game.state, command, ProbeDice())
    except ProbeRolled:
        board.rolls = True
    except IllegalAction as error:
        board.refusal, board.refusal_clause = str(error), error.clause
        return
    except OrdnanceError as error:
        board.refusal = str(error)
        return
    if not board.rolls:
        board.odds_note = "This action does not roll: nothing is left to chance."
        return
    _odds(game, command, board)
    _ruling(game, command, board)
    if board.physical:
        try:
            needed = needed_rolls(rules, game.state, command, [])
        except OrdnanceError as error:
            board.refusal = str(error)
            return
        board.dice, board.more_dice = list(needed.rolls), needed.more


def _odds(game: Game, command: Command, board: Board) -> None:
    rules = spec_of(game.rules).odds(game.rules)
    if rules is None:
        board.odds_note = "This action rolls, but its ruleset gives no odds for it yet."
        return
    try:
        distribution = rules.chance_outcomes(game.state, command)
    except IllegalAction as error:
        board.refusal, board.refusal_clause = str(error), error.clause
        return
    except OrdnanceError as error:
        board.odds_note = f"No odds for this action: {error}"
        return
    items = list(distribution.items())
    with contextlib.suppress(TypeError):  # outcomes without an order keep the procedure's
        items.sort(key=lambda item: item[0])
    rows = [(str(outcome), Fraction(p)) for outcome, p in items]
    board.odds_svg = odds_chart(rows, title=f"Odds of {board.command}")
    remaining = Fraction(1)
    for label, p in rows:
        board.odds_rows.append(
            (label, f"{p.numerator}/{p.denominator}", percent(p), percent(remaining))
        )
        remaining -= p


def _ruling(game: Game, command: Command, board: Board) -> None:
    """The modifiers and clauses the ruling would cite whatever the dice: those of two
    resolutions with different dice that agree (never the dice themselves)."""
    rulings = []
    for seed in (1, 2):
        try:
            rulings.append(dict(game.rules.resolve(game.state, command, SeededDice(seed)).ruling))
        except OrdnanceError:
            return
    first, second = rulings
    drms = [d for d in first.get("drms", []) if isinstance(d, Mapping)]
    board.drms = [d for d in drms if d in second.get("drms", [])]
    board.clauses = [str(c) for c in first.get("clauses", []) if c in second.get("clauses", [])]


def _sight(game: Game, board: Board) -> None:
    if not (board.firer_hex and board.target_hex):
        return
    picture = game_picture(game.rules, game.state)
    if picture is None:
        return
    game_map = picture.game_map
    try:
        verdict = judge_for(game_map).los(
            game_map, game_map.parse(board.firer_hex), game_map.parse(board.target_hex)
        )
    except (OrdnanceError, KeyError):
        return
    board.los = verdict
    board.los_text = verdict.explanation
    board.los_clauses = [str(c) for c in verdict.clauses]


def given_fields(query: Mapping[str, str]) -> dict[str, str]:
    """The preview's field values from a query or a form (only the ``opt-`` names)."""
    return {k: str(v)[:40] for k, v in query.items() if k.startswith(FIELD_PREFIX)}


def bad_pick(text: str | None) -> int:
    """The ``pick`` parameter as an index (anything else: the first offer)."""
    if text is None or not text.isdigit() or len(text) > 3:
        return 0
    return int(text)


class OfferCache:
    """The offers of recently chosen units, by game version (thread-safe, bounded)."""

    def __init__(self, size: int = CACHED) -> None:
        self._kept = BoundedCache[_Key, tuple[str | None, tuple[Offer, ...]]](size)

    def get(self, game: Game, side: str, unit: str) -> tuple[str | None, tuple[Offer, ...]]:
        key = (game.id, game.version, side, unit)
        return self._kept.get(key, lambda: unit_offers(game, side, unit))


CACHE = OfferCache()


def board_of(query: Mapping[str, str], game: Game, side: str) -> Board | None:
    """The preview the side page's query asks for (``unit`` and ``hex``, or ``action``)."""
    unit, hex, action = query.get("unit"), query.get("hex"), query.get("action")
    if not (unit and hex) and not action:
        return None
    return build(
        game,
        side,
        unit=unit if not action else None,
        hex=hex.strip().upper() if hex else None,
        pick=bad_pick(query.get("pick")),
        action=action,
        given=given_fields(query),
        offers=CACHE.get(game, side, unit) if unit and not action else None,
    )
