"""Replay (SYS.record): for random command sequences, folding the stored log gives the state the
live game has, on SQLite and on PostgreSQL."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ordnance.core.errors import OrdnanceError
from ordnance.game import fold
from ordnance.game.logfile import verify
from ordnance.game.service import GameService

UNDO = "undo"


def play(service: GameService, made, choices: list[int]) -> None:
    """Send the commands ``choices`` pick among everything legal now (and undo)."""
    for choice in choices:
        game = service.game(made.game)
        if game.rules.is_over(game.state):
            return
        options = [
            (side, text)
            for side in game.sides
            for text in game.rules.legal_actions(game.state, side)
        ]
        if game.undoable:
            options.append((game.undoable[-1].side, UNDO))
        side, text = options[choice % len(options)]
        token = made.tokens[side]
        try:
            if text == UNDO:
                service.undo(made.game, side, token)
            else:
                service.do(made.game, side, token, shlex.split(text))
        except OrdnanceError:
            # Legal actions are checked up to the roll; the dice may still make a later check
            # fail (e.g. a malfunction). A refusal must leave nothing behind.
            assert service.game(made.game).version == game.version


@pytest.mark.clause("SYS.record")
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=40))
def test_folding_the_stored_log_gives_the_live_state(db_url, scenario, choices):
    service = GameService(db_url)
    fresh = GameService(db_url)
    try:
        made = service.create(scenario())
        play(service, made, choices)
        live = service.game(made.game)
        stored = fresh.game(made.game)  # a new process's view: folded from the database
        log = service.log(made.game)
        folded = fold.start(log[0])
        for entry in log[1:]:
            folded = fold.apply_entry(folded, entry)
        assert live.state == stored.state == folded.state
        assert live.dice == stored.dice == folded.dice
        assert live.version == folded.version == len(log)
        assert verify(service.export(made.game).encode()).ok
    finally:
        service.close()
        fresh.close()
