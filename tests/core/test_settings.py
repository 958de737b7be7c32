"""One settings machinery for every game (core/settings.py): each game's readings are read,
refused, written and listed alike, and every refusal says why in one line (SYS.cite)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ordnance.asl.settings import Settings
from ordnance.core.errors import BadInput
from ordnance.core.settings import GameSettings
from ordnance.lnl.settings import LnlSettings
from ordnance.vv.settings import VvSettings

GAMES: list[type[GameSettings]] = [Settings, LnlSettings, VvSettings]
ROW = ["name", "default", "tag", "rule", "choices", "doc"]


@pytest.mark.clause("SYS.cite")
@pytest.mark.parametrize("kind", GAMES, ids=lambda k: k.__name__)
def test_every_game_lists_its_settings_in_one_shape(kind):
    rows = kind.describe()
    assert rows and all(list(row) == ROW for row in rows)
    assert all(row["tag"].startswith("[") and row["rule"] and row["doc"] for row in rows)
    current = kind().rows()
    assert [row["value"] for row in current] == list(kind().to_json().values())
    assert [row["default"] for row in rows] == [row["value"] for row in current]


@pytest.mark.clause("SYS.cite")
@pytest.mark.parametrize("kind", GAMES, ids=lambda k: k.__name__)
def test_an_unknown_setting_names_the_known_ones(kind):
    with pytest.raises(BadInput) as refused:
        kind().override({"no_such": "1"})
    known = sorted(row["name"] for row in kind.describe())
    assert (
        str(refused.value) == f"bad setting 'no_such': unknown setting; known: {', '.join(known)}"
    )


@pytest.mark.clause("SYS.cite")
@pytest.mark.parametrize(
    ("kind", "name", "text", "value"),
    [
        (Settings, "fire_needs_los", " Off ", False),
        (LnlSettings, "wp_leader_lm", "no", False),
        (VvSettings, "ai_moves", "YES", True),
        (Settings, "h9_he_equivalency", "8", 8),
        (LnlSettings, "passes_end_operations", "2", 2),
        (VvSettings, "ai_pin_fraction", " 3/2 ", Fraction(3, 2)),
        (LnlSettings, "parity_of", "Final", "final"),
        (VvSettings, "low_roll", "EXTEND", "extend"),
        (Settings, "theater_p", "pto, burma", "PTO,Burma"),
    ],
)
def test_a_value_reads_alike_in_every_game(kind, name, text, value):
    assert getattr(kind().override({name: text}), name) == value


@pytest.mark.clause("SYS.cite")
@pytest.mark.parametrize(
    ("kind", "name", "text", "problem"),
    [
        (Settings, "fire_needs_los", "maybe", "expected true or false"),
        (VvSettings, "ai_moves", "2", "expected true or false"),
        (Settings, "default_breakdown", "13", "expected a whole number from 2 to 12"),
        (LnlSettings, "passes_end_operations", "0", "expected a whole number from 1 to 10"),
        (VvSettings, "ai_pin_fraction", "x", "expected a number such as 1 or 3/2"),
        (VvSettings, "ai_pin_fraction", "-1", "expected a number from 0 to"),
        (LnlSettings, "parity_of", "odd", "expected one of natural, final"),
        (VvSettings, "low_roll", "sideways", "expected one of clamp, extend"),
        (Settings, "theater_e", "Mars", "Mars"),
    ],
)
def test_a_bad_value_is_refused_in_one_line_naming_it(kind, name, text, problem):
    with pytest.raises(BadInput) as refused:
        kind().override({name: text})
    message = str(refused.value)
    assert message.startswith(f"bad setting '{name}={text}': ") and problem in message
    assert "\n" not in message
