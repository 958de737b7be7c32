"""An entry the service just wrote holds exactly what a reader of the log gets back (SYS.record):
the same values of the same plain JSON types. A command entry's body is kept as the ruleset
built it, not passed through JSON once more (game/entries.py make_entry, ``as_given``): only
the order of its keys may differ. Every other entry (the start entry's scenario among them, whose
order the game follows) is read back in the very same order."""

from __future__ import annotations

import json
import random
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from ordnance.core.errors import OrdnanceError
from ordnance.core.maps import MapFiles
from ordnance.game.entries import Entry
from ordnance.game.scenario import scenario_from_mapping
from ordnance.game.service import GameService

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def exactly(made: Any, read: Any, where: str = "body", *, ordered: bool = True) -> None:
    """``made`` and ``read`` are equal and of the same exact types all the way down (with
    ``ordered``, their keys in the same order too)."""
    assert type(made) is type(read), f"{where}: {type(made).__name__} != {type(read).__name__}"
    if type(made) is dict:
        keys = (list(made), list(read)) if ordered else (sorted(made), sorted(read))
        assert keys[0] == keys[1], f"{where}: keys {keys[0]} != {keys[1]}"
        for key in made:
            assert type(key) is str, f"{where}: key {key!r}"
            exactly(made[key], read[key], f"{where}.{key}", ordered=ordered)
    elif type(made) is list:
        assert len(made) == len(read), where
        for i, (a, b) in enumerate(zip(made, read, strict=True)):
            exactly(a, b, f"{where}[{i}]", ordered=ordered)
    else:
        assert made == read, where


def test_exactly_tells_a_tuple_or_an_enum_from_what_json_gives_back():
    from ordnance.asl.smoke import Phase  # noqa: PLC0415

    with pytest.raises(AssertionError, match=r"body\.a: tuple != list"):
        exactly({"a": (1,)}, json.loads('{"a":[1]}'))
    with pytest.raises(AssertionError, match=r"body\.p: Phase != str"):
        exactly({"p": Phase.PFPH}, json.loads(json.dumps({"p": Phase.PFPH})))
    with pytest.raises(AssertionError, match=r"body: keys \['b', 'a'\] != \['a', 'b'\]"):
        exactly({"b": 1, "a": 2}, json.loads('{"a":2,"b":1}'))
    exactly({"b": 1, "a": [{"c": None}]}, json.loads('{"a":[{"c":null}],"b":1}'), ordered=False)


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.yaml")))
def test_every_entry_written_equals_the_entry_read_back(example, sqlite_url):
    chooser = random.Random(example)
    data = yaml.safe_load((EXAMPLES / example).read_text(encoding="utf-8"))
    data["dice"] = "fair"  # every command's rolls made by the service, so any may be picked
    service = GameService(sqlite_url)
    made = service.create(scenario_from_mapping(data, MapFiles.folder(EXAMPLES)))
    written: list[Entry] = []
    try:
        for _ in range(250):
            game = service.game(made.game)
            if game.rules.is_over(game.state):
                break
            options = [(s, t) for s in game.sides for t in game.rules.legal_actions(game.state, s)]
            if game.undoable and chooser.random() < 0.05:
                side = game.undoable[-1].side
                written += service.undo(made.game, side, made.tokens[side]).entries
                continue
            side, text = chooser.choice(options)
            try:
                done = service.do(made.game, side, made.tokens[side], shlex.split(text))
            except OrdnanceError:
                continue  # a check the dice decided: nothing stored
            written += done.entries
        game = service.game(made.game)
        if not game.rules.is_over(game.state):  # the end of a scenario reveals the seed
            for side in game.sides:
                written += service.consent(made.game, side, made.tokens[side]).entries
        held = service.game(made.game)
    finally:
        service.close()
    reader = GameService(sqlite_url, snapshot_every=0)
    try:
        stored = {e.seq: e for e in reader.log(made.game)}
        read = reader.game(made.game)
    finally:
        reader.close()
    # The live game follows its scenario in the order a reader finds it (units, sides, ...):
    # the same legal actions in the same order.
    exactly(dict(held.scenario.body), dict(read.scenario.body), "scenario")
    for side in held.sides:
        actions = held.rules.legal_actions(held.state, side)
        assert actions == read.rules.legal_actions(read.state, side)
    kinds = {e.type for e in written}
    assert {"command", "reveal"} <= kinds
    assert len(written) >= 20
    for entry in written:
        back = stored[entry.seq]
        assert entry == back
        where = f"entry {entry.seq} ({entry.type}) body"
        exactly(dict(entry.body), back.body, where, ordered=entry.type != "command")
