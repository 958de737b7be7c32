"""What one LnLT command produces while it is resolved: events, clauses, sentences, detail.

Each resolver adds to an :class:`Outcome` and turns it into the service's
:class:`~ordnance.core.ruleset.Resolution` at the end, so every ruling has the same shape:
``command``, ``side``, the command's own fields, ``clauses`` (first-seen order, no repeats)
and one ``explanation``.

>>> from ordnance.core.ruleset import Command
>>> outcome = Outcome(Command("german", "pass", {}, "pass"))
>>> outcome.add(Event("impulse", {"side": "american", "passes": 1}), "SEQ", "The impulse passes.")
>>> resolution = outcome.resolution()
>>> resolution.ruling["clauses"], resolution.ruling["explanation"]
(['SEQ'], 'The impulse passes.')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ordnance.core.ruleset import Command, Event, Resolution
from ordnance.core.rulings import command_ruling

# LnLT's sequence of play (Rally, Operations in alternating impulses, Administrative): the
# rule this engine cites where the shell rules are silent (reference/lnl.md section 2).
SEQUENCE = "LnLT sequence of play"


@dataclass
class Outcome:
    """The events, clauses, sentences and ruling fields gathered for one command."""

    command: Command
    events: list[Event] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    sentences: list[str] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)

    def add(
        self,
        event: Event | None = None,
        clauses: str | Sequence[str] = (),
        sentence: str | None = None,
    ) -> None:
        if event is not None:
            self.events.append(event)
        self.clauses += [clauses] if isinstance(clauses, str) else list(clauses)
        if sentence:
            self.sentences.append(sentence)

    def resolution(self) -> Resolution:
        ruling = command_ruling(self.command, self.clauses, " ".join(self.sentences), self.detail)
        return Resolution(tuple(self.events), ruling)
