"""The fold reads the rolls and events each command entry stored (SYS.record, SYS.dice): in
the form the service writes them, in the other forms a roll record or an event reads, and never
one it cannot read."""

from __future__ import annotations

import shlex
from typing import Any

import pytest

from ordnance.core.ruleset import Event
from ordnance.game import fold
from ordnance.game.entries import Entry, make_entry
from ordnance.game.errors import LogMismatch


def _log_with_a_roll(new_game: Any, url: str) -> tuple[list[Entry], int]:
    """A demo game's log played until a command rolled, and that entry's index."""
    service, made = new_game(url)
    for _ in range(40):
        log = service.log(made.game)
        rolled = [i for i, e in enumerate(log) if e.type == "command" and e.body["rolls"]]
        if rolled:
            return log, rolled[0]
        game = service.game(made.game)
        options = [
            (side, text)
            for side in game.sides
            for text in game.rules.legal_actions(game.state, side)
        ]
        side, text = next(((s, t) for s, t in options if t.startswith("fire")), options[0])
        service.do(made.game, side, made.tokens[side], shlex.split(text))
    raise AssertionError("no command rolled")


def _with_roll(entry: Entry, roll: Any) -> Entry:
    """The entry with its first roll replaced (hashed again; the fold checks the chain, not
    the signature)."""
    body = {**entry.body, "rolls": [roll, *entry.body["rolls"][1:]]}
    return make_entry(entry.seq, entry.type, entry.side, body, entry.prev)


def _before(log: list[Entry], index: int) -> fold.Game:
    game = fold.start(log[0])
    for entry in log[1:index]:
        game = fold.apply_entry(game, entry)
    return game


@pytest.mark.clause("SYS.record", "SYS.dice")
def test_a_roll_in_another_readable_form_folds_as_the_stored_one(new_game, sqlite_url):
    log, index = _log_with_a_roll(new_game, sqlite_url)
    game = _before(log, index)
    stored = log[index]
    roll = stored.body["rolls"][0]
    assert isinstance(roll["index"], int) and all(isinstance(f, int) for f in roll["faces"])
    # The index and the faces as text: a roll record reads them all the same.
    other = {**roll, "index": str(roll["index"]), "faces": [str(f) for f in roll["faces"]]}
    expected = fold.apply_entry(game, stored)
    folded = fold.apply_entry(game, _with_roll(stored, other))
    assert folded.state == expected.state
    assert folded.dice == expected.dice
    assert folded.dice.next_roll == game.dice.next_roll + len(stored.body["rolls"])
    assert folded.undoable == () and folded.version == stored.seq + 1


@pytest.mark.clause("SYS.record", "SYS.dice")
@pytest.mark.parametrize(
    "change",
    [
        {"kind": "d6"},
        {"source": "guess"},
        {"faces": ["four"]},
        {"index": None},
        {"purpose": None, "kind": None},
    ],
    ids=["kind", "source", "faces", "index", "kind-and-purpose"],
)
def test_a_roll_the_fold_cannot_read_is_refused_naming_its_entry(new_game, sqlite_url, change):
    log, index = _log_with_a_roll(new_game, sqlite_url)
    game = _before(log, index)
    stored = log[index]
    bad = _with_roll(stored, {**stored.body["rolls"][0], **change})
    with pytest.raises(LogMismatch) as refused:
        fold.apply_entry(game, bad)
    assert refused.value.entry == stored.seq
    assert "roll" in refused.value.problem
    # Nothing changed: the game before the entry still takes the stored one.
    assert fold.apply_entry(game, stored).version == stored.seq + 1


@pytest.mark.clause("SYS.record", "SYS.dice")
def test_rolls_that_are_not_a_list_of_rolls_are_refused(new_game, sqlite_url):
    log, index = _log_with_a_roll(new_game, sqlite_url)
    game = _before(log, index)
    stored = log[index]
    for rolls in (7, ["not a roll"], [7]):
        body = {**stored.body, "rolls": rolls}
        bad = make_entry(stored.seq, stored.type, stored.side, body, stored.prev)
        with pytest.raises(LogMismatch) as refused:
            fold.apply_entry(game, bad)
        assert refused.value.entry == stored.seq


@pytest.mark.clause("SYS.record")
def test_the_rulesets_stored_event_step_folds_as_its_apply(new_game, sqlite_url):
    # The fold reads stored events through ``apply_stored`` (no Event made); folding each
    # event through ``apply`` with an Event gives equal states all the way.
    log, _ = _log_with_a_roll(new_game, sqlite_url)
    game = fold.start(log[0])
    assert getattr(game.rules, "apply_stored", None) is not None
    state = game.state
    for entry in log[1:]:
        for raw in entry.body.get("events", ()):
            state = game.rules.apply(state, Event.from_json(raw))
        game = fold.apply_entry(game, entry)
        assert game.state == state


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("event", [{"kind": 7, "data": {}}, {"kind": "phase"}, "phase", None])
def test_an_event_that_is_not_kind_and_data_is_refused_naming_its_entry(
    new_game, sqlite_url, event
):
    log, index = _log_with_a_roll(new_game, sqlite_url)
    game = _before(log, index)
    stored = log[index]
    body = {**stored.body, "events": [event]}
    bad = make_entry(stored.seq, stored.type, stored.side, body, stored.prev)
    with pytest.raises(LogMismatch) as refused:
        fold.apply_entry(game, bad)
    assert refused.value.entry == stored.seq
