"""The families of special ammunition and smoke dispensers a counter can list (C8, D13):
their symbols, the names players use, and the rule that governs each.

>>> Family("sD").ammo, Family("sD").is_dispenser, Family.from_ammo("WP").rule
('sD', True, 'C8.6')
"""

from __future__ import annotations

import enum

from ordnance.core.errors import BadInput

__all__ = ["Family"]


class Family(enum.StrEnum):
    """The kinds of special ammunition and smoke devices a counter can list."""

    APCR = "A"
    APDS = "D"
    HEAT = "H"
    CANISTER = "C"
    SMOKE = "s"
    WP = "WP"
    IR = "IR"
    AP = "AP"
    HE = "HE"
    SMOKE_DISCHARGER = "sD"
    SMOKE_MORTAR = "sM"
    SMOKE_POT = "sP"
    NAHVERTEIDIGUNGSWAFFE = "sN"

    @property
    def ammo(self) -> str:
        """The name players use: ``APCR``, ``SMOKE``, ``sD``..."""
        return _AMMO[self]

    @property
    def is_dispenser(self) -> bool:
        """Smoke dispensers (D13) carry a Usage Number, not a Depletion Number."""
        return self in _DISPENSERS

    @property
    def rule(self) -> str:
        """The rule that governs this family."""
        return _RULE[self]

    @classmethod
    def from_ammo(cls, text: str) -> Family:
        """Look a family up by its symbol (``A``) or its ammunition name (``APCR``).

        >>> Family.from_ammo("apcr"), Family.from_ammo("sD"), Family.from_ammo("SMOKE")
        (<Family.APCR: 'A'>, <Family.SMOKE_DISCHARGER: 'sD'>, <Family.SMOKE: 's'>)
        """
        found = _BY_SYMBOL.get(text)
        if found is None:
            found = _BY_AMMO.get(text.upper())
        if found is not None:
            return found
        names = ", ".join(f"{f.value} ({f.ammo})" for f in cls)
        raise BadInput("ammunition", text, f"unknown ammunition type; one of {names}")


_AMMO = {
    Family.APCR: "APCR",
    Family.APDS: "APDS",
    Family.HEAT: "HEAT",
    Family.CANISTER: "Canister",
    Family.SMOKE: "SMOKE",
    Family.WP: "WP",
    Family.IR: "IR",
    Family.AP: "AP",
    Family.HE: "HE",
    Family.SMOKE_DISCHARGER: "sD",
    Family.SMOKE_MORTAR: "sM",
    Family.SMOKE_POT: "sP",
    Family.NAHVERTEIDIGUNGSWAFFE: "sN",
}
_RULE = {
    Family.APCR: "C8.1",
    Family.APDS: "C8.1",
    Family.HEAT: "C8.3",
    Family.CANISTER: "C8.4",
    Family.SMOKE: "C8.5",
    Family.WP: "C8.6",
    Family.IR: "C8.7",
    Family.AP: "C8.8",
    Family.HE: "C8.8",
    Family.SMOKE_DISCHARGER: "D13.31",
    Family.SMOKE_MORTAR: "D13.32",
    Family.SMOKE_POT: "D13.33",
    Family.NAHVERTEIDIGUNGSWAFFE: "D13.34",
}
_DISPENSERS = frozenset(
    {
        Family.SMOKE_DISCHARGER,
        Family.SMOKE_MORTAR,
        Family.SMOKE_POT,
        Family.NAHVERTEIDIGUNGSWAFFE,
    }
)
# Family.from_ammo's tables: the symbol as written, else the ammunition name in any case.
_BY_SYMBOL = {f.value: f for f in Family}
_BY_AMMO = {name.upper(): f for f, name in reversed(_AMMO.items())}  # the first one wins
