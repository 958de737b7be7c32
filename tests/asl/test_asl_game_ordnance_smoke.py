"""Ordnance SMOKE and WP on the game map (C8.5, C8.51, C8.52, C8.6; life by A24.4).

On the bundled map asl-village, row 9 of board 4 is open: a German Gun in 4G9 and a Russian
tank in 4K9 see each other along 4G9 > 4H8|4H9 > 4I9 > 4J8|4J9 > 4K9, so a marker in 4I9 lies
on that line at range 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from tests.asl import test_asl_game_d13 as d13
from tests.asl.test_asl_game_d13 import Play

from ordnance.asl.game.sight import los

GERMAN = {"pak": {"notation": "s7 WP6", "size": "75L", "hex": "4G9", "ca": "E"}}
RUSSIAN = {"t34": {"kind": "vehicle", "notation": "s8", "hex": "4K9", "ca": "W"}}
SIDES = {"german": {"units": GERMAN}, "russian": {"units": RUSSIAN}}


def play(**changes: Any) -> Play:
    return Play(sides=SIDES, first="german", date="1944-09", turns=3, **changes)


def line_total(game: Play, a: str = "4G9", b: str = "4K9") -> int:
    sheet = game.state.sheet
    verdict = los(game.state, sheet.hex(a), sheet.hex(b))
    assert verdict is not None and verdict.clear
    return verdict.total


def markers(game: Play) -> list[tuple[str, str]]:
    return [(m["hex"], m["marker"]) for m in game.view()["smoke"]]


@pytest.mark.clause("C8.5-phase", "C8.51", "C8.52", "C8.5-effect")
def test_a_smoke_hit_puts_full_smoke_on_the_map_for_two_player_turns_then_dispersed():
    game = play()
    game.to("PFPh")
    assert line_total(game) == 0
    shot = game.do("german", "fire pak --ammo SMOKE --to-hit 7 --target 4I9", "2,2")
    assert shot.ruling["hit"] is True and shot.ruling["marker"]["hex"] == "4I9"
    assert "smoke" in [e.kind for e in shot.events] and "C8.52" in shot.ruling["clauses"]
    assert markers(game) == [("4I9", "smoke")] and line_total(game) == 3
    game.to("PFPh", "russian")  # the opponent's Player Turn: still full
    assert markers(game) == [("4I9", "smoke")] and line_total(game, "4K9", "4G9") == 3
    game.to("RPh", "german")
    ending = game.do("german", "phase next")  # the owner's next PFPh begins: it flips (A24.4)
    assert "Flipped to Dispersed" in ending.ruling["explanation"]
    assert markers(game) == [("4I9", "dispersed smoke")] and line_total(game) == 2
    game.to("RPh", "german")
    gone = game.do("german", "phase next")  # the PFPh after: the Dispersed SMOKE goes
    assert "Removed" in gone.ruling["explanation"]
    assert markers(game) == [] and line_total(game) == 0


@pytest.mark.clause("C8.5-phase", "C8.52")
def test_a_miss_places_nothing():
    game = play()
    game.to("PFPh")
    shot = game.do("german", "fire pak --ammo SMOKE --to-hit 3 --target 4I9", "2,3")
    assert shot.ruling["hit"] is False and shot.ruling["fired"]
    assert "smoke" not in [e.kind for e in shot.events] and markers(game) == []
    assert "Nothing is placed" in shot.ruling["explanation"]


@pytest.mark.clause("C8.9-gt")
def test_smoke_the_gun_had_none_of_places_nothing():
    game = play()
    game.to("PFPh")
    shot = game.do("german", "fire pak --ammo SMOKE --to-hit 12 --target 4I9", "5,6")
    assert shot.ruling["depletion"]["outcome"] == "none" and markers(game) == []


@pytest.mark.clause("C8.6", "C8.5-effect")
def test_wp_in_the_afph_is_dispersed_and_goes_at_the_owners_next_pfph():
    game = play()
    game.to("AFPh")
    shot = game.do("german", "fire pak --ammo WP --to-hit 7 --target 4I9", "1,2")
    assert markers(game) == [("4I9", "dispersed wp")] and line_total(game) == 1
    assert shot.ruling["marker"]["removal"] == "owner's next PFPh"
    game.to("PFPh", "german")
    assert markers(game) == []


@pytest.mark.clause("C8.6")
def test_full_wp_flips_like_smoke_unless_the_setting_removes_it():
    game = play()
    game.to("PFPh")
    game.do("german", "fire pak --ammo WP --to-hit 7 --target 4I9", "1,2")
    assert markers(game) == [("4I9", "wp")] and line_total(game) == 2
    game.to("RPh", "russian")
    game.to("PFPh", "german")
    assert markers(game) == [("4I9", "dispersed wp")]
    strict = play(settings={"ordnance_wp_flips": "false"})
    strict.to("PFPh")
    strict.do("german", "fire pak --ammo WP --to-hit 7 --target 4I9", "1,2")
    strict.to("RPh", "russian")
    strict.to("PFPh", "german")
    assert markers(strict) == []


@pytest.mark.clause("C8.51", "C8.5-phase")
def test_the_defenders_smoke_in_the_dfph_is_dispersed_and_goes_at_its_next_pfph():
    game = play()
    game.to("DFPh")
    game.do("russian", "fire t34 --ammo SMOKE --to-hit 7 --target 4I9", "1,1")
    assert markers(game) == [("4I9", "dispersed smoke")]
    game.to("PFPh", "russian")
    assert markers(game) == []


@pytest.mark.clause("C8.52")
def test_the_target_hex_is_checked_before_any_roll():
    game = play()
    game.to("PFPh")
    assert game.refused("german", "fire pak --ammo SMOKE --to-hit 7 --target 4G9").clause == (
        "C8.52"
    )
    with pytest.raises(Exception, match="needs --to-hit"):
        game.do("german", "fire pak --ammo SMOKE --target 4I9")
    with pytest.raises(Exception, match="target kind for HEAT"):
        game.do("german", "fire pak --ammo AP --target 4I9")
    blocked = game.refused("german", "fire pak --ammo SMOKE --to-hit 7 --target 4C3")
    assert blocked.clause == "A6"  # behind the woods west of the village
    assert markers(game) == []


@pytest.mark.clause("C8.52", "C8.5-effect", "SYS.record")
def test_the_cli_lists_the_marker_counts_it_on_a_los_and_refuses_a_second_shot(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    scenario = {
        "ruleset": "asl",
        "name": "SMOKE on row 9",
        "dice": "physical",
        "date": "1944-09",
        "map": "asl-village",
        "turns": 3,
        "first": "german",
        "sides": SIDES,
    }
    path = tmp_path / "smoke.yaml"
    path.write_text(yaml.safe_dump(scenario))
    db = f"sqlite:///{tmp_path / 'g.db'}"
    made = cli("game", "new", str(path), "--db", db, "--json").json
    game, token = made["game"], made["tokens"]["german"]
    monkeypatch.setenv("ORDNANCE_TOKEN", token)  # not on the command line (ps can read it)
    base = ["game", "do", game, "--side", "german", "--db", db]
    assert cli(*base, "phase", "next").code == 0  # the RPh ends: the PFPh begins
    smoke = ["fire", "pak", "--ammo", "SMOKE", "--to-hit", "7", "--dice", "2,2"]
    fired = cli(*base, *smoke, "--target", "4I9")
    assert fired.code == 0, fired.err
    status = cli("game", "status", game, "--db", db, "--json").json
    assert {"hex": "4I9", "marker": "smoke"}.items() <= status["state"]["smoke"][0].items()
    out = tmp_path / "now.svg"
    drawn = cli("game", "render", game, "--db", db, "--out", str(out), "--los", "4G9", "4K9")
    assert drawn.code == 0
    render = ["game", "render", game, "--db", db, "--out", str(out), "--los", "4G9", "4K9"]
    rendered = cli(*render, "--json", "--force").json  # the same picture again: --force
    assert rendered["los"]["total_hindrance"] == 3 and "4I9" in str(rendered["los"]["hindrances"])
    on_file = sum(len(m) for m in d13.village().markers.values())
    assert rendered["markers"] == on_file + 1  # the map file's markers and the game's SMOKE
    again = cli(*base, *smoke, "--target", "4J9")
    assert again.code == 1 and "A3" in again.err and len(again.err.strip().splitlines()) == 1
