"""The written side record of C8 (C8.0): per Gun, which special ammunition it may still use.

This is the record as a value; the game service (a later layer) stores it and changes it only
through the depletion outcomes of C8.9.

>>> record = SideRecord.new({"T-34/85 #1": "A5(4)/6(5) s8"})
>>> record = record.after("T-34/85 #1", Family.APCR, "used-last")
>>> record.guns["T-34/85 #1"].usable(Family.APCR)
False
>>> SideRecord.from_json(record.to_json()) == record
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ordnance.asl.notation import Family, Token, format_capabilities, parse_capabilities
from ordnance.core.errors import BadInput, IllegalAction

OUTCOMES = ("used", "used-last", "none")


@dataclass(frozen=True)
class GunRecord:
    """One Gun's entry: its counter's capabilities and what it has run out of or never had."""

    tokens: tuple[Token, ...]
    exhausted: frozenset[Family] = field(default_factory=frozenset)

    def has(self, family: Family) -> bool:
        return any(token.family is family for token in self.tokens)

    def usable(self, family: Family) -> bool:
        """Whether the Gun may still declare this ammunition (C8.9-eq, C8.9-gt)."""
        return self.has(family) and family not in self.exhausted

    def check_usable(self, name: str, family: Family) -> None:
        """Refuse a declaration the record rules out, naming the clause."""
        if not self.has(family):
            raise IllegalAction(
                "C8.0", f"{name}'s counter lists no {family.ammo} ({family.value}) capability"
            )
        if family in self.exhausted:
            raise IllegalAction(
                "C8.9-eq",
                f"{name} has run out of {family.ammo} (or found it had none) earlier in"
                " this scenario and may not use it again",
            )

    def after(self, family: Family, outcome: str) -> GunRecord:
        """The entry after one declared shot with ``family`` ended in ``outcome`` (C8.9)."""
        if outcome not in OUTCOMES:
            raise BadInput("depletion outcome", outcome, f"one of {', '.join(OUTCOMES)}")
        if outcome == "used":
            return self
        # used-last: spent the last round (C8.9-eq); none: had none at all (C8.9-gt).
        return replace(self, exhausted=self.exhausted | {family})


@dataclass(frozen=True)
class SideRecord:
    """A side's record: Gun name -> entry."""

    guns: Mapping[str, GunRecord]

    @classmethod
    def new(cls, counters: Mapping[str, str]) -> SideRecord:
        """Start a scenario: Gun name -> its counter notation."""
        return cls({name: GunRecord(parse_capabilities(text)) for name, text in counters.items()})

    def entry(self, name: str) -> GunRecord:
        if name not in self.guns:
            raise BadInput("gun", name, "no such Gun in the side record")
        return self.guns[name]

    def after(self, name: str, family: Family, outcome: str) -> SideRecord:
        """Apply one C8.9 outcome; refused if the Gun may not use that ammunition."""
        entry = self.entry(name)
        entry.check_usable(name, family)
        return SideRecord({**self.guns, name: entry.after(family, outcome)})

    def to_json(self) -> dict[str, Any]:
        return {
            name: {
                "capabilities": format_capabilities(entry.tokens),
                "exhausted": sorted(f.value for f in entry.exhausted),
            }
            for name, entry in self.guns.items()
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SideRecord:
        guns = {}
        for name, entry in data.items():
            exhausted = frozenset(Family(symbol) for symbol in entry.get("exhausted", ()))
            guns[name] = GunRecord(parse_capabilities(entry["capabilities"]), exhausted)
        return cls(guns)
