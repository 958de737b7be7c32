"""The logs kept for the pages: a new version reads only its new entries, and a log that is not
the one kept (cut and written again) is read whole."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.game.kept_logs import KeptLogs
from ordnance.game.scenario import load_scenario_file
from ordnance.game.service import GameService

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def chain(tag: str, count: int, base: list[Any] | None = None) -> list[Any]:
    """``count`` entries chained by their hashes, the first ones ``base``'s."""
    log = list(base or [])
    while len(log) < count:
        prev = log[-1].hash if log else "genesis"
        log.append(SimpleNamespace(seq=len(log), prev=prev, hash=f"{tag}{len(log)}"))
    return log


@dataclass
class Store:
    """A store whose log can be swapped, noting each read's range."""

    log: list[Any]
    reads: list[tuple[int, int | None]] = field(default_factory=list)

    def entries(self, game: str, start: int = 0, stop: int | None = None) -> list[Any]:
        self.reads.append((start, stop))
        return self.log[start:stop]


def at(log: list[Any], version: int) -> Any:
    return SimpleNamespace(id="g1", version=version, head=log[version - 1].hash)


@pytest.mark.clause("SYS.record")
def test_each_new_version_reads_only_its_new_entries():
    store = Store(chain("a", 9))
    logs = KeptLogs(store)  # type: ignore[arg-type]
    for version in (1, 2, 5, 9):
        assert list(logs.upto(at(store.log, version))) == store.log[:version]
    assert store.reads == [(0, 1), (1, 2), (2, 5), (5, 9)]
    # An older version's page is told from what is kept, with no read.
    assert list(logs.upto(at(store.log, 4))) == store.log[:4]
    assert store.reads[-1] == (5, 9)


@pytest.mark.clause("SYS.record")
@given(
    kept=st.integers(1, 8),
    common=st.integers(0, 7),
    version=st.integers(1, 10),
)
def test_a_log_cut_and_written_again_is_read_whole(kept, common, version):
    first = chain("a", 10)
    store = Store(first)
    logs = KeptLogs(store)  # type: ignore[arg-type]
    logs.upto(at(first, kept))
    # The database now holds another log: the same first ``common`` entries, then others.
    store.log = chain("b", 10, first[:common])
    assert list(logs.upto(at(store.log, version))) == store.log[:version]
    # And what is kept now is that log.
    store.reads.clear()
    assert list(logs.upto(at(store.log, version))) == store.log[:version]
    assert store.reads == []


@pytest.mark.clause("SYS.record")
def test_the_kept_log_is_the_services_log_as_a_game_goes_on(tmp_path):
    service = GameService(f"sqlite:///{tmp_path}/games.db", keys=tmp_path / "keys")
    made = service.create(load_scenario_file(EXAMPLES / "vv-meeting-engagement.yaml"))
    logs = KeptLogs(service.store)
    for _ in range(6):
        game = service.game(made.game)
        assert list(logs.upto(game)) == service.log(made.game)[: game.version]
        legal = game.rules.legal_actions
        side = next(s for s in game.sides if "phase next" in legal(game.state, s))
        service.do(made.game, side, made.tokens[side], ["phase", "next"])
    service.close()


@pytest.mark.clause("SYS.record")
def test_entries_handed_over_are_kept_and_not_read_again():
    store = Store(chain("a", 6))
    logs = KeptLogs(store)  # type: ignore[arg-type]
    logs.upto(at(store.log, 2))
    logs.add(at(store.log, 4), store.log[2:4])  # read or stored by the service
    assert list(logs.upto(at(store.log, 4))) == store.log[:4]
    assert store.reads == [(0, 2)]
    # Entries that do not follow the kept log (another chain, a gap) change nothing.
    other = chain("b", 6)
    logs.add(at(other, 6), other[4:6])
    logs.add(at(store.log, 6), store.log[5:6])
    assert list(logs.upto(at(store.log, 6))) == store.log[:6]
    assert store.reads == [(0, 2), (4, 6)]


@pytest.mark.clause("SYS.record")
def test_a_service_feeds_its_logs_with_the_entries_it_stores(tmp_path: Path):
    service = GameService(f"sqlite:///{tmp_path}/g.db", keys=tmp_path / "keys")
    try:
        made = service.create(load_scenario_file(EXAMPLES / "asl-c8-demo.yaml"))
        service.logs.upto(service.game(made.game))
        read: list[tuple[int, int | None]] = []
        entries = service.store.entries

        def noted(game: str, start: int = 0, stop: int | None = None) -> list[Any]:
            read.append((start, stop))
            return entries(game, start, stop)

        service.store.entries = noted  # type: ignore[method-assign]
        service.do(made.game, "german", made.tokens["german"], ["phase", "next"])
        told = service.logs.upto(service.game(made.game))
        assert [e.type for e in told] == ["start", "command"]
        assert read == []
    finally:
        service.close()
