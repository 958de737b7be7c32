"""Checked movement in the ASL game: a path hex by hex, MP by terrain, no enemy hex, no overspend.

The costs come from src/ordnance/asl/data/movement.toml (the B Terrain Chart's Fully Tracked
column; README, Games). On asl-village row 9 of board 4 is open ground; a German tank waits in
4K9.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.asl.test_asl_game_d13 import Play

from ordnance.asl.mp_costs import mp_table
from ordnance.core.maps import MapFiles


def play(mp: int = 6, hex: str = "4G9", **more: Any) -> Play:
    american = {
        "m4": {"kind": "vehicle", "notation": "s5", "hex": hex, "ca": "E", "mp": mp, **more}
    }
    german = {"pz4": {"kind": "vehicle", "notation": "s8", "hex": "4K9", "ca": "W", "mp": 12}}
    game = Play(sides={"american": {"units": american}, "german": {"units": german}})
    game.to("MPh", "american")
    return game


def mp_left(game: Play, unit: str = "m4") -> int:
    return game.afv(unit)["mp_left"]


@pytest.mark.clause("SYS.cite", "D13.2-mp")
def test_a_legal_path_pays_each_hex_and_shows_the_mp_left():
    game = play()
    moved = game.do("american", "move m4 --to 4H9 --to 4I9")
    assert moved.events[0].data["path"] == ["4H9", "4I9"] and moved.events[0].data["mp"] == 2
    assert game.view()["units"]["m4"]["hex"] == "4I9" and mp_left(game) == 4
    assert "D2" in moved.ruling["clauses"] and "B1" in moved.ruling["clauses"]
    game.do("american", "move m4 --to 4J9")  # next to the enemy: still legal
    assert mp_left(game) == 3


@pytest.mark.clause("SYS.cite")
def test_a_jump_an_enemy_hex_and_a_move_past_the_mp_are_refused():
    game = play(mp=3)
    jump = game.refused("american", "move m4 --to 4I9")
    assert jump.clause == "D2" and "not adjacent" in jump.sentence
    enemy = game.refused("american", "move m4 --to 4H9 --to 4I9 --to 4J9 --to 4K9")
    assert enemy.clause == "D7" and "pz4" in enemy.sentence
    past = game.refused("american", "move m4 --to 4H9 --to 4I9 --to 4J9 --to 4J10")
    assert past.clause == "D2" and "3 MP left" in past.sentence
    far = game.refused("american", "move m4 --dest 4Z5")
    assert far.clause == "D2" and mp_left(game) == 3  # nothing was spent
    assert game.refused("american", "move m4 --to 4H9 --mp 3").clause == "D2"


@pytest.mark.clause("SYS.cite")
def test_terrain_prices_each_hex_from_the_data_file():
    table = mp_table()
    assert "TERRAIN.HTM" in table.source and "Fully Tracked" in table.reading
    game = play(mp=20, hex="4G5")
    grain = game.do("american", "move m4 --to 4H5")  # grain: 1
    assert grain.events[0].data["mp"] == table.hex("grain").mp == 1
    game.do("american", "move m4 --to 4I5")  # road: as open ground
    smoke = game.do("american", "move m4 --to 4J5 --to 4K5")  # Dispersed SMOKE in 4K5: +1
    assert smoke.events[0].data["mp"] == 3 and "A24.7" in smoke.ruling["clauses"]
    building = game.refused("american", "move m4 --to 4L4")
    assert building.clause == "B23"


@pytest.mark.clause("SYS.cite")
def test_woods_cost_all_the_mp_and_only_a_vehicle_that_spent_none_enters():
    fresh = play(mp=16, hex="4D4")
    fresh.do("american", "move m4 --to 4C4")
    assert mp_left(fresh) == 0
    moved = play(mp=16, hex="4E4")
    moved.do("american", "move m4 --to 4D4")
    assert moved.refused("american", "move m4 --to 4C4").clause == "B13"


@pytest.mark.clause("SYS.cite")
def test_climbing_a_level_costs_four_more():
    game = play(mp=12, hex="3F3")
    up = game.do("american", "move m4 --to 3G3")  # the hill on board 3, level 1
    assert up.events[0].data["mp"] == 1 + mp_table().per_level_up


@pytest.mark.clause("SYS.cite")
def test_a_destination_takes_the_cheapest_legal_path():
    game = play(mp=6)
    moved = game.do("american", "move m4 --dest 4J10")
    data = moved.events[0].data
    assert data["hex"] == "4J10" and data["mp"] == 3 and len(data["path"]) == 3
    assert "4K9" not in data["path"]


@pytest.mark.clause("D13.2-state")
def test_an_immobile_or_abandoned_vehicle_does_not_move():
    game = play(immobile=True)
    assert game.refused("american", "move m4 --to 4H9").clause == "D2"
    assert game.view()["units"]["m4"]["afv"]["immobile"] is True
    other = play()
    other.do("american", "mark m4 --immobile")
    assert "immobile" in other.refused("american", "move m4 --to 4H9").sentence
    crew = play(abandoned=True)
    assert crew.refused("american", "move m4 --mp 1").clause == "D2"


@pytest.mark.clause("SYS.cite")
def test_a_wall_crossed_adds_its_cost(tmp_path: Path):
    walled = tmp_path / "walled.yaml"
    walled.write_text(
        "name: walled\ngame: asl\ngrid: {boards: '4'}\ndefault: open\n"
        "hexsides:\n  4H9|4I9: wall\n  4H10|4I10: bocage\n"
    )
    american = {"m4": {"kind": "vehicle", "hex": "4H9", "ca": "E", "mp": 6}}
    german = {"pz4": {"kind": "vehicle", "hex": "4K2"}}
    game = Play(  # a map file beside the scenario, as the CLI reads one
        MapFiles.folder(tmp_path),
        map=walled.name,
        sides={"american": {"units": american}, "german": {"units": german}},
    )
    game.to("MPh", "american")
    assert game.do("american", "move m4 --to 4I9").events[0].data["mp"] == 2  # 1 + COT
    game.do("american", "move m4 --to 4I10")
    assert game.refused("american", "move m4 --to 4H10").clause == "B9.5"
