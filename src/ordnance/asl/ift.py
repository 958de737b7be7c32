"""The Infantry Fire Table: FP columns and results by Final DR (data in ``data/ift.toml``).

>>> IFT.column_for(Fraction(7))
6
>>> IFT.column_left_of(8)
6
>>> IFT.result(8, 4)
'2MC'
>>> IFT.result(8, -3), IFT.result(8, 16)
('3KIA', '-')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from ordnance.core.data import load_toml

_RESULT = re.compile(r"\d+KIA|K/\d+|\d+MC|NMC|PTC|-")


@dataclass(frozen=True)
class FireTable:
    """An IFT: ascending FP columns and, per Final DR 0..15, one result per column."""

    columns: tuple[int, ...]
    rows: tuple[tuple[str, ...], ...]
    source: str

    def column_for(self, fp: Fraction | int) -> int | None:
        """The column an attack of ``fp`` uses: the highest column not above it (None below 1)."""
        usable = [c for c in self.columns if c <= fp]
        return usable[-1] if usable else None

    def column_left_of(self, fp: Fraction | int) -> int | None:
        """The column one to the left of the one ``fp`` uses (None if there is none)."""
        column = self.column_for(fp)
        if column is None:
            return None
        index = self.columns.index(column)
        return self.columns[index - 1] if index > 0 else None

    def result(self, column: int, final_dr: int) -> str:
        """The result in ``column`` for a Final DR (at most 0 reads the top row; above 15, none)."""
        if final_dr > len(self.rows) - 1:
            return "-"
        return self.rows[max(final_dr, 0)][self.columns.index(column)]


@cache
def load() -> FireTable:
    data = load_toml("ordnance.asl", "ift.toml")
    columns = tuple(int(c) for c in data["columns"])
    if list(columns) != sorted(set(columns)):
        raise ValueError("ift.toml: columns must ascend without repeats")
    rows = []
    for dr in range(16):
        row = tuple(str(r) for r in data["rows"][str(dr)])
        if len(row) != len(columns) or not all(_RESULT.fullmatch(r) for r in row):
            raise ValueError(f"ift.toml: row {dr} must hold one valid result per column")
        rows.append(row)
    return FireTable(columns, tuple(rows), str(data["source"]))


IFT = load()
