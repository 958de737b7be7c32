"""Crash safety (SYS.record): a process killed (SIGKILL) in a burst of commands loses no
acknowledged command, leaves no partial entry, and the game goes on."""

from __future__ import annotations

import multiprocessing
import os
import random
import shlex
import signal
import time

import pytest

from ordnance.core.errors import OrdnanceError
from ordnance.game.logfile import verify
from ordnance.game.service import GameService

KILLS_PER_BACKEND = 8


def burst(url: str, game: str, tokens: dict[str, str], write_fd: int) -> None:
    """Send commands as fast as possible; after each commit, acknowledge its entries."""
    service = GameService(url)
    step = 0
    with os.fdopen(write_fd, "w", buffering=1) as acks:
        while True:
            state = service.game(game)
            options = [
                (side, text)
                for side in state.sides
                for text in state.rules.legal_actions(state.state, side)
            ]
            side, text = options[(step * 7) % len(options)]
            step += 1
            try:
                applied = service.do(game, side, tokens[side], shlex.split(text))
            except OrdnanceError:
                continue
            for entry in applied.entries:
                acks.write(f"{entry.seq} {entry.hash}\n")


def kill_mid_burst(url: str, game: str, tokens: dict[str, str], chooser: random.Random):
    context = multiprocessing.get_context("fork")
    read_fd, write_fd = os.pipe()
    child = context.Process(target=burst, args=(url, game, tokens, write_fd), daemon=True)
    child.start()
    os.close(write_fd)
    wanted = chooser.randint(3, 40)
    acked: list[tuple[int, str]] = []
    with os.fdopen(read_fd) as lines:
        for line in lines:
            seq, digest = line.split()
            acked.append((int(seq), digest))
            if len(acked) >= wanted:
                break
        # Land the kill anywhere in the next command: deciding, writing or committing it.
        time.sleep(chooser.random() * 0.004)
        os.kill(child.pid, signal.SIGKILL)
        child.join()
    assert child.exitcode == -signal.SIGKILL
    return acked


@pytest.mark.clause("SYS.record")
def test_a_killed_process_loses_nothing_acknowledged(db_url, new_game):
    _, made = new_game(db_url, turns=None)
    chooser = random.Random(11)
    for _ in range(KILLS_PER_BACKEND):
        acked = kill_mid_burst(db_url, made.game, dict(made.tokens), chooser)
        after = GameService(db_url)
        try:
            log = after.log(made.game)
            stored = {entry.seq: entry.hash for entry in log}
            assert all(stored.get(seq) == digest for seq, digest in acked)
            # No partial entry: the version counts exactly the entries, and all chain and replay.
            assert after.store.version(made.game) == len(log) == log[-1].seq + 1
            assert verify(after.export(made.game).encode()).ok
            # ... and the game goes on from there.
            game = after.game(made.game)
            owner = game.rules.to_move(game.state)
            applied = after.do(made.game, owner, made.tokens[owner], ["phase", "next"])
            assert applied.version == len(log) + 1
        finally:
            after.close()
