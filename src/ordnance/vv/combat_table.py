"""The Anti-Personnel Combat Table (``data/ap_combat_table.toml``) and how a final roll is read.

The table is game data with its provenance in the file; this module loads it once, checks its
shape, and reads a cell (VV.AP-resolve): the row is the band holding the attack's total APFP,
the column the final modified roll. Rolls of 12 or more read the last column (no effect);
rolls below 2 follow the ``low_roll`` setting.

>>> TABLE.row(12).label, TABLE.cp(12, 7)
('11-18', 2)
>>> TABLE.cp(38, 5), TABLE.cp(6, 8), TABLE.cp(41, 14)
(6, 0, 0)
>>> TABLE.cp(3, -1), TABLE.cp(3, -1, VvSettings(low_roll="extend"))
(5, 8)
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from ordnance.core.data import load_toml
from ordnance.core.errors import BadInput
from ordnance.vv.settings import DEFAULT, VvSettings


@dataclass(frozen=True)
class ApRow:
    """One APFP band: ``low``..``high`` (None: no upper end) and its CP per column."""

    label: str
    low: int
    high: int | None
    cp: tuple[int, ...]

    def holds(self, apfp: int) -> bool:
        return self.low <= apfp and (self.high is None or apfp <= self.high)


@dataclass(frozen=True)
class ApCombatTable:
    """The table: its bands in order and the roll of its first and last column."""

    rows: tuple[ApRow, ...]
    first: int
    last: int
    source: str

    def index(self, apfp: int) -> int:
        """The band (0 = the lowest) that holds ``apfp``; an attack needs at least 1 APFP."""
        for number, row in enumerate(self.rows):
            if row.holds(apfp):
                return number
        raise BadInput("APFP", str(apfp), f"an AP attack has at least {self.rows[0].low} APFP")

    def row(self, apfp: int) -> ApRow:
        return self.rows[self.index(apfp)]

    def cp_by_band(self, band: int, final_roll: int, settings: VvSettings = DEFAULT) -> int:
        """The CP of band ``band`` at a final roll (see the module docstring for the ends)."""
        cells = self.rows[band].cp
        if final_roll >= self.last:
            return cells[-1]
        if final_roll < self.first:
            # The table's step is one CP per point of roll; 'extend' carries it on below 2.
            below = self.first - final_roll if settings.low_roll == "extend" else 0
            return cells[0] + below
        return cells[final_roll - self.first]

    def cp(self, apfp: int, final_roll: int, settings: VvSettings = DEFAULT) -> int:
        """Casualty Points of an attack of ``apfp`` with this final roll."""
        return self.cp_by_band(self.index(apfp), final_roll, settings)


def _band(label: str) -> tuple[int, int | None]:
    low, dash, high = label.partition("-")
    if label.endswith("+"):
        return int(label[:-1]), None
    if not dash:
        raise ValueError(f"AP table: band {label!r} is not LOW-HIGH or LOW+")
    return int(low), int(high)


def load_table(data: dict[str, Any]) -> ApCombatTable:
    """Build and check the table from its TOML (contiguous bands, one CP per column)."""
    columns = data["columns"]
    if columns != list(range(columns[0], columns[-1] + 1)):
        raise ValueError("AP table: columns must be consecutive rolls")
    rows: list[ApRow] = []
    expected_low = 1
    for entry in data["rows"]:
        low, high = _band(entry["apfp"])
        cp = tuple(int(v) for v in entry["cp"])
        if low != expected_low or len(cp) != len(columns):
            raise ValueError(f"AP table: band {entry['apfp']} does not follow on or is short")
        if any(a < b for a, b in pairwise(cp)) or cp[-1] != 0:
            raise ValueError(f"AP table: band {entry['apfp']} must fall to no effect")
        rows.append(ApRow(entry["apfp"], low, high, cp))
        expected_low = (high or 0) + 1
    if rows[-1].high is not None:
        raise ValueError("AP table: the last band must be open-ended")
    return ApCombatTable(tuple(rows), columns[0], columns[-1], str(data["source"]).strip())


TABLE = load_table(load_toml("ordnance.vv", "ap_combat_table.toml"))
