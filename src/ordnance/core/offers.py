"""What a chosen unit may do where: the hexes a board marks once a player picks a counter.

An :class:`Offer` is one legal action of one unit, placed on the hex it acts on (the hex
moved to, fired at, aimed at; the unit's own hex for an action without one), with the
command's words and a short note for the map (``"2 MP"``, ``"range 4"``). A face marks each
offered hex with the verbs it offers there and, when the player picks the hex, previews the
offers of that hex.

Rulesets whose legal actions already name their hexes (``fire a1 --at E5``) need nothing
more: :func:`offers_from_actions` reads the hex from the command table (the first option or
word of kind ``"hex"``). A ruleset whose legal actions leave the hex to the player (ASL's
``move m24``) offers its own through :class:`BoardOffers`.

>>> from ordnance.core.command_words import CommandTable, Option, Positional, Verb, label
>>> table = CommandTable({
...     "fire": Verb("", Positional("units", "UNITS", "units", kind="unit"),
...                  {"--at": Option("at", label, kind="hex")}),
...     "rally": Verb("", Positional("unit", "UNIT", "a unit", kind="unit")),
...     "phase": Verb("", Positional("step", "next", "'next'", optional=True)),
... })
>>> offers_from_actions(table, ["phase next", "fire a1,a2 --at E5", "fire b1 --at E5",
...                             "rally a1"], "a1", "C3")
(Offer(hex='E5', verb='fire', command='fire a1,a2 --at E5', note=''), Offer(hex='C3', \
verb='rally', command='rally a1', note=''))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ordnance.core.command_words import CommandTable, split_words
from ordnance.core.errors import OrdnanceError


@dataclass(frozen=True)
class Offer:
    """One legal action of a unit at one hex.

    ``verb`` is the command's verb (the word a board's ``data-action`` lists); ``command``
    its words as :meth:`~ordnance.core.ruleset.Ruleset.parse_command` reads them, complete
    except for the options the table marks ``ask`` (a To Hit number), which the board asks for.
    """

    hex: str
    verb: str
    command: str
    note: str = ""


@runtime_checkable
class BoardOffers(Protocol):
    """Optional: a ruleset that places its units' actions on hexes itself."""

    def offers(self, state: Any, side: str, unit: str) -> tuple[Offer, ...]:
        """Every action ``unit`` of ``side`` may take now, each on its hex, in the order the
        ruleset lists its legal actions; none for a unit that may do nothing."""
        ...


def names_unit(table: CommandTable, words: list[str], unit: str) -> bool:
    """Whether a command's words name ``unit`` in their unit word (alone or in a group)."""
    if len(words) < 2 or words[0] not in table.verbs:
        return False
    positional = table.verbs[words[0]].positional
    if positional is None or positional.kind != "unit":
        return False
    return unit in words[1].split(",")


def offers_from_actions(
    table: CommandTable, actions: Iterable[str], unit: str, unit_hex: str | None
) -> tuple[Offer, ...]:
    """The offers of ``unit`` read from legal action texts that name their hexes.

    An action's hex is the value of its first parameter of kind ``"hex"`` (the last hex of a
    repeated one, a path); without one, the
    unit's own hex (an action there, a rally); without either, the action is not placed.
    """
    found: list[Offer] = []
    for text in actions:
        try:
            words = split_words(text)
        except ValueError:
            continue
        if not names_unit(table, words, unit):
            continue
        try:
            verb, args = table.read(words)
        except OrdnanceError:
            continue
        spec = table.verbs[verb]
        where = None
        if spec.positional is not None and spec.positional.kind == "hex":
            where = args.get(spec.positional.arg)
        for option in spec.options.values():
            value = args.get(option.arg)
            if isinstance(value, list) and value:  # a path of hexes (LnL's --to): its end
                value = value[-1]
            if where is None and option.kind == "hex" and isinstance(value, str):
                where = value
        where = where if isinstance(where, str) else unit_hex
        if where is not None:
            found.append(Offer(where, verb, text))
    return tuple(found)
