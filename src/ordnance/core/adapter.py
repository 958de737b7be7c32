"""The part of a :class:`~ordnance.core.ruleset.Ruleset` every game writes alike.

A ruleset names its module functions once (how it reads a scenario, a command, an event) and
says which commands it would consider now (:meth:`RulesetBase.candidates`); the base keeps the
rest of the protocol: the sides, the fold step for events read from a log, the event's
sentence, and :meth:`RulesetBase.legal_actions`, the candidates that pass every check.

>>> from dataclasses import dataclass, replace
>>> from ordnance.core.errors import IllegalAction
>>> from ordnance.core.ruleset import Command, Event, Resolution
>>> @dataclass(frozen=True)
... class Toy:
...     ammo: int
...     over: bool = False
>>> def resolve(state, command, dice):
...     if command.verb == "fire" and state.ammo == 0:
...         raise IllegalAction("X1", "no ammunition left")
...     return Resolution((Event(command.verb),), {})
>>> class ToyRuleset(RulesetBase[Toy]):
...     name = "toy"
...     parse_command = staticmethod(lambda side, words: Command(side, words[0], {}, words[0]))
...     resolve = staticmethod(resolve)
...     apply_stored = staticmethod(lambda state, kind, data: replace(state, over=kind == "end"))
...     describe = staticmethod(lambda kind, data: f"The side did {kind}.")
...     def candidates(self, state, side):
...         return ["wait", "fire", "wait", "end"]
>>> toy = ToyRuleset()
>>> toy.legal_actions(Toy(1), "red"), toy.legal_actions(Toy(0), "red")
(('wait', 'fire', 'end'), ('wait', 'end'))
>>> toy.apply(Toy(1), Event("end")), toy.describe_event(Event("wait"))
(Toy(ammo=1, over=True), 'The side did wait.')
>>> toy.sides({"sides": {"red": {}, "blue": {}}}), toy.is_over(Toy(0))
(('red', 'blue'), False)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from ordnance.core.ruleset import Command, Event, JsonObject, Resolution, passes_checks

if TYPE_CHECKING:
    from ordnance.core.command_words import CommandTable
    from ordnance.core.dice import DiceSource
    from ordnance.core.maps import MapFiles


class GameState(Protocol):
    """What the base reads of a state: whether the scenario has ended."""

    @property
    def over(self) -> bool: ...


class ScenarioLoader(Protocol):
    """A ruleset's ``load_scenario`` (see :meth:`~ordnance.core.ruleset.Ruleset.load_scenario`)."""

    def __call__(self, data: Mapping[str, Any], maps: MapFiles = ...) -> JsonObject: ...


StateT = TypeVar("StateT", bound=GameState)


class RulesetBase(ABC, Generic[StateT]):
    """A ruleset's adapter: a subclass names its functions (class attributes, most of them the
    module functions themselves, so the service's calls reach them with no method between)
    and writes :meth:`candidates`."""

    name: str
    # The table the command words are read with (``game do ... --help``).
    commands: CommandTable
    load_scenario: ScenarioLoader
    initial_state: Callable[[Mapping[str, Any]], StateT]
    parse_command: Callable[[str, Sequence[str]], Command]
    to_move: Callable[[StateT], str | None]
    resolve: Callable[[StateT, Command, DiceSource], Resolution]
    # The fold step for an event as a log stores it (see core.ruleset.Ruleset): it only reads
    # ``data``, so the fold of a stored log makes no Event for each event it reads.
    apply_stored: Callable[[StateT, str, Mapping[str, Any]], StateT]
    # One plain sentence for an event's kind and data.
    describe: Callable[[str, Mapping[str, Any]], str]
    view: Callable[[StateT], JsonObject]

    @abstractmethod
    def candidates(self, state: StateT, side: str) -> Sequence[str]:
        """The command texts ``side`` might send now; :meth:`legal_actions` keeps those the
        rules accept (a ruleset lists what is worth asking, not only what is legal)."""

    def legal_actions(self, state: StateT, side: str) -> tuple[str, ...]:
        """Every candidate that passes the checks (probed up to its first roll), once each,
        as its command's canonical text."""
        legal: list[str] = []
        for text in self.candidates(state, side):
            command = self.parse_command(side, text.split())
            if self.allows(state, command):
                legal.append(command.text)
        return tuple(dict.fromkeys(legal))

    def allows(self, state: StateT, command: Command) -> bool:
        """Whether the rules accept ``command`` now: :func:`resolve` probed up to its first
        roll. A ruleset whose resolution works out more than its checks (what a step lets the
        other side do) may ask only the checks."""
        return passes_checks(self.resolve, state, command)

    def sides(self, scenario: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(scenario["sides"])

    def apply(self, state: StateT, event: Event) -> StateT:
        return self.apply_stored(state, event.kind, event.data)

    def is_over(self, state: StateT) -> bool:
        return state.over

    def describe_event(self, event: Event) -> str:
        """The event as a sentence."""
        return self.describe(event.kind, event.data)


__all__ = ["RulesetBase"]
