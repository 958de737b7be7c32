"""Concurrency (SYS.record, C8.9-eq): two processes race to spend the same last APCR round.

Each repetition starts a game whose Gun fires APCR with an Original DR equal to its Depletion
Number (C8.9-eq: used, and the last one). Two worker processes, released together by a barrier,
send that shot based on the same version: exactly one is stored, the other is refused as stale.
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

import pytest

from ordnance.core.errors import IllegalAction
from ordnance.game.errors import StaleState
from ordnance.game.scenario import scenario_from_mapping
from ordnance.game.service import GameService

REPETITIONS = int(os.environ.get("ORDNANCE_RACE_REPETITIONS", "1000"))
SHOT = ["fire", "pak", "--ammo", "APCR", "--dice", "2,3"]  # 5: the Depletion Number
SCENARIO = {
    "ruleset": "asl",
    "name": "the last round",
    "date": "1944-09",
    "dice": "physical",
    "sides": {
        "german": {"units": {"pak": {"notation": "A5", "size": "75L"}}},
        "russian": {"units": {"t34": {"kind": "vehicle", "notation": "A5(4)/6(5)"}}},
    },
}


def racer(url: str, jobs: Any, results: Any, barrier: Any, expect: bool) -> None:
    service = GameService(url)
    while (job := jobs.get()) is not None:
        game, token, version = job
        service.game(game)  # both read the state before either writes
        barrier.wait()
        try:
            service.do(game, "german", token, SHOT, expect_version=version if expect else None)
            results.put("stored")
        except StaleState:
            results.put("stale")
        except IllegalAction as refusal:
            results.put(f"refused {refusal.clause}")
    service.close()


def race(url: str, repetitions: int, expect: bool) -> list[tuple[str, str]]:
    context = multiprocessing.get_context("fork")
    jobs = [context.Queue(), context.Queue()]
    results = context.Queue()
    barrier = context.Barrier(2)
    workers = [
        context.Process(target=racer, args=(url, queue, results, barrier, expect), daemon=True)
        for queue in jobs
    ]
    for worker in workers:
        worker.start()
    service = GameService(url)
    scenario = scenario_from_mapping(SCENARIO)
    outcomes = []
    try:
        for _ in range(repetitions):
            made = service.create(scenario)
            token = made.tokens["german"]
            version = service.do(made.game, "german", token, ["phase", "next"]).version
            for queue in jobs:
                queue.put((made.game, token, version))
            pair = sorted([results.get(timeout=60), results.get(timeout=60)])
            outcomes.append(tuple(pair))
            log = service.log(made.game)
            shots = [e for e in log if e.type == "command" and e.body["command"]["verb"] == "fire"]
            assert len(shots) == 1, pair  # never a double spend
            record = service.game(made.game).state.records["german"].guns["pak"]
            assert not record.usable(record.tokens[0].family)
    finally:
        for queue in jobs:
            queue.put(None)
        for worker in workers:
            worker.join(timeout=30)
        service.close()
    return outcomes


@pytest.mark.clause("SYS.record", "C8.9-eq")
def test_two_processes_racing_for_the_last_apcr_never_both_spend_it(db_url):
    outcomes = race(db_url, REPETITIONS, expect=True)
    assert len(outcomes) == REPETITIONS
    assert set(outcomes) == {("stale", "stored")}


@pytest.mark.clause("SYS.record", "C8.9-eq")
def test_without_a_base_version_the_loser_is_stale_or_finds_it_spent(sqlite_url):
    outcomes = race(sqlite_url, 50, expect=False)
    assert set(outcomes) <= {("stale", "stored"), ("refused C8.9-eq", "stored")}
