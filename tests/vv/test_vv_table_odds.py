"""The AP Combat Table (data file) and the exact odds of an attack (VV.AP-resolve).

Golden cases are the reference's worked examples (reference/vv.md section 1); the odds are
checked against icepool, an independent dice library.
"""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.core.errors import BadInput
from ordnance.vv.combat_table import TABLE, load_table
from ordnance.vv.modifiers import hex_drms
from ordnance.vv.odds import cp_odds, expected_cp
from ordnance.vv.settings import VvSettings
from ordnance.vv.units import overrun_apfp

# The printed table, row by row (reference/vv.md section 1), columns 2..12+.
PRINTED = {
    "1-4": [5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0],
    "5-10": [6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0],
    "11-18": [7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0],
    "19-28": [8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0],
    "29-40": [9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0],
    "41+": [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
}


@pytest.mark.clause("VV.AP-resolve")
def test_the_data_file_is_the_printed_table():
    assert {row.label: list(row.cp) for row in TABLE.rows} == PRINTED
    assert [(r.low, r.high) for r in TABLE.rows] == [
        (1, 4),
        (5, 10),
        (11, 18),
        (19, 28),
        (29, 40),
        (41, None),
    ]
    assert "paulmelis.github.io" in TABLE.source


@pytest.mark.clause("VV.AP-resolve")
@pytest.mark.parametrize(
    ("apfp", "final", "cp"),
    [
        (12, 7, 2),  # APFP 12, roll 5, leader -1, building +3 = 7 (r. 14 example)
        (13, 6, 3),  # APFP 13, final 6
        (6, 8, 0),  # APFP 6, final 8: no effect
        (38, 5, 6),  # Overrun: 19 doubled, roll 2 + woods 2 + foxholes 1 = 5 (r. 19)
        (1, 2, 5),
        (4, 6, 1),
        (5, 7, 1),
        (41, 11, 1),
        (100, 12, 0),
        (100, 15, 0),  # 12 or more: no effect
    ],
)
def test_worked_examples_and_edges(apfp, final, cp):
    assert TABLE.cp(apfp, final) == cp


@pytest.mark.clause("VV.AP-resolve")
def test_the_overrun_example_end_to_end(build):
    """r. 19: an AFV's combined 19 APFP doubled to 38 into woods with foxholes, rolled 2."""
    pos = build(terrain={"E5": "woods"}, fortifications={"E5": "foxholes"})
    pos.squad("g", "de", "E5")
    sherman = pos.afv("m4", "us", "E6", "N", gun=12, turret=True, mg360=4, ffmg=3)
    board = pos.board()
    drms = hex_drms(board, pos.hex("E6"), pos.hex("E5"), ("g",))
    assert [d.value for d in drms] == [2, 1]
    apfp = overrun_apfp(sherman)
    assert apfp == 38 and TABLE.row(apfp).label == "29-40"
    assert TABLE.cp(apfp, 2 + sum(d.value for d in drms)) == 6


@pytest.mark.clause("VV.AP-resolve")
@given(st.integers(1, 80), st.integers(-6, 16))
def test_every_cell_follows_the_pattern(apfp, final):
    band = sum(apfp > limit for limit in (4, 10, 18, 28, 40))
    expected = 0 if final >= 12 else max(0, band + 7 - max(final, 2))
    assert TABLE.cp(apfp, final) == expected


@pytest.mark.clause("VV.AP-resolve")
def test_low_rolls_follow_the_setting():
    extend = VvSettings().override({"low_roll": "extend"})
    assert TABLE.cp(12, 0) == 7
    assert TABLE.cp(12, 0, extend) == 9
    assert TABLE.cp(12, 2, extend) == 7


def test_no_apfp_no_attack():
    with pytest.raises(BadInput, match="at least 1 APFP"):
        TABLE.cp(0, 7)
    assert expected_cp(0, 0) == 0


def test_a_malformed_table_is_refused():
    good = {
        "columns": [2, 3],
        "source": "x",
        "rows": [{"apfp": "1-4", "cp": [1, 0]}, {"apfp": "5+", "cp": [2, 0]}],
    }
    assert load_table(good).cp(9, 2) == 2
    with pytest.raises(ValueError, match="does not follow"):
        load_table({**good, "rows": [{"apfp": "2-4", "cp": [1, 0]}]})
    with pytest.raises(ValueError, match="fall to no effect"):
        load_table({**good, "rows": [{"apfp": "1+", "cp": [0, 1]}]})
    with pytest.raises(ValueError, match="open-ended"):
        load_table({**good, "rows": [{"apfp": "1-4", "cp": [1, 0]}]})


@pytest.mark.clause("VV.AP-resolve", "SYS.odds")
@given(st.integers(1, 60), st.integers(-6, 10), st.sampled_from(["clamp", "extend"]))
def test_odds_match_icepool(apfp, drm, low_roll):
    settings = VvSettings(low_roll=low_roll)
    band = TABLE.index(apfp)

    def cp(total: int) -> int:
        final = total + drm
        if final >= 12:
            return 0
        below = max(0, 2 - final) if low_roll == "extend" else 0
        return max(0, band + 7 - max(final, 2)) + below

    oracle = (icepool.d6 + icepool.d6).map(cp)
    ours = cp_odds(apfp, drm, settings)
    denominator = oracle.denominator()
    assert {o: Fraction(q, denominator) for o, q in oracle.items()} == dict(ours.items())
    assert expected_cp(apfp, drm, settings) == sum(o * p for o, p in ours.items())


@pytest.mark.clause("SYS.odds")
def test_the_apfp12_leader_building_example_in_odds():
    """12 APFP, leader -1, building +3: 2 CP exactly when the dice show 5 (4 of 36)."""
    odds = cp_odds(12, 2)
    assert odds[2] == Fraction(4, 36)
    assert sum(p for _, p in odds.items()) == 1
