"""docs/reference/settings.md lists every reading of every registered game, with its default:
the page is checked against each game's settings as its spec gives them (GameSpec.settings),
so a setting added to a game without a line in the reference fails here."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from ordnance.game.registry import names, spec

PAGE = Path(__file__).resolve().parents[1] / "docs" / "reference" / "settings.md"
# A table row: its first cell names one or more settings (`a`, `b`), its second their defaults.
ROW = re.compile(r"^\| (`[a-z0-9_]+`(?:, `[a-z0-9_]+`)*) \| ([^|]*) \|", re.MULTILINE)


def documented(page: str) -> dict[str, str]:
    """Each setting the page's tables name, with its default as the page writes it.

    >>> documented("| `a`, `b` | 1, `x` | why |\\n| `c` | true | why |")
    {'a': '1', 'b': 'x', 'c': 'true'}
    """
    found: dict[str, str] = {}
    for first, second in ROW.findall(page):
        settings = [name.strip("`") for name in first.split(", ")]
        defaults = [d.strip().strip("`") for d in second.split(", ")]
        if len(defaults) != len(settings):  # one default of several words (a list of terms)
            defaults = [second.strip().strip("`")] * len(settings)
        found.update(zip(settings, defaults, strict=True))
    return found


def _same(shown: str, default: object) -> bool:
    if isinstance(default, bool):
        return shown == str(default).lower()
    if isinstance(default, int):
        return shown == str(default)
    if isinstance(default, str) and re.fullmatch(r"-?\d+(/\d+)?", default):
        return Fraction(shown) == Fraction(default)
    return shown == str(default)


GAMES = [name for name in names() if spec(name).settings is not None]


@pytest.mark.clause("SYS.cite")
@pytest.mark.parametrize("game", GAMES)
def test_the_reference_lists_each_setting_with_its_default(game):
    make = spec(game).settings
    assert make is not None
    page = documented(PAGE.read_text(encoding="utf-8"))
    rows = make().describe()
    assert rows
    missing = [row["name"] for row in rows if row["name"] not in page]
    assert missing == [], f"{game}: settings without a line in {PAGE.name}"
    wrong = [
        (r["name"], r["default"], page[r["name"]])
        for r in rows
        if not _same(page[r["name"]], r["default"])
    ]
    assert wrong == [], f"{game}: defaults the page gives otherwise"


def test_every_game_has_settings():
    assert list(names()) == GAMES
