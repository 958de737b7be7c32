"""Snapshots (SYS.record): a snapshot decodes to the very game it was taken of, for every
ruleset; a service opening a game starts from a snapshot that matches the chain and ignores one
that does not."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ordnance.core import statecodec
from ordnance.core.errors import BadInput, OrdnanceError
from ordnance.core.hexgrid.coords import Corner, Hex
from ordnance.game import fold, snapshot_table, snapshots
from ordnance.game.service import GameService
from ordnance.lnl.game.state import Phase

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAMES = ("asl-c8-demo.yaml", "asl-d13-demo.yaml", "lnl-smoke-wp.yaml", "vv-hedgerow-ambush.yaml")
UNDO = "undo"


def play(service: GameService, made, choices: list[int]) -> None:
    """Commands (and undos) that ``choices`` pick among everything legal now."""
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
        if not options:
            return
        side, text = options[choice % len(options)]
        token = made.tokens[side]
        try:
            if text == UNDO:
                service.undo(made.game, side, token)
            else:
                service.do(made.game, side, token, shlex.split(text))
        except OrdnanceError:
            pass  # the dice made a later check fail: nothing stored


def same_game(a: fold.Game, b: fold.Game) -> bool:
    return (a.state, a.dice, a.undoable, a.version, a.head) == (
        b.state,
        b.dice,
        b.undoable,
        b.version,
        b.head,
    )


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("example", GAMES)
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(choices=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=30))
def test_every_prefix_of_a_game_round_trips_through_a_snapshot(example, sqlite_url, choices):
    service = GameService(sqlite_url, snapshot_every=0)
    try:
        made = service.new_game(EXAMPLES / example)
        play(service, made, choices)
        log = service.log(made.game)
    finally:
        service.close()
    start = fold.start(log[0])
    game = start
    for entry in log[1:]:
        game = fold.apply_entry(game, entry)
        text = snapshots.encode(game)
        back = snapshots.decode(text, fold.start(log[0]))
        assert back == game  # every field of the game but its ruleset object
        assert same_game(back, game)
        # The decoded game goes on folding as the original does.
        assert snapshots.encode(back) == text


@dataclass(frozen=True)
class _Inner:
    corner: Corner | None
    odds: Fraction


@pytest.mark.clause("SYS.record")
@given(
    hexes=st.frozensets(st.builds(Hex, st.integers(-50, 50), st.integers(-50, 50)), max_size=5),
    odds=st.fractions(),
    phase=st.sampled_from(list(Phase)),
    corner=st.none() | st.sampled_from(list(Corner)),
    keyed=st.dictionaries(st.integers(-9, 9), st.tuples(st.text(max_size=3), st.booleans())),
)
def test_the_codec_round_trips_frozen_values(hexes, odds, phase, corner, keyed):
    value = (hexes, phase, keyed, odds, corner, None, [1, "a"])
    back = statecodec.loads(statecodec.dumps(value))
    assert back == value
    assert type(back[1]) is Phase  # a StrEnum member comes back as the member, not a str
    assert statecodec.dumps(back) == statecodec.dumps(value)
    # A dataclass of this test module is not one the decoder would look up.
    with pytest.raises(ValueError, match="not a dataclass or enum of the package"):
        statecodec.loads(statecodec.dumps(_Inner(corner, odds)))


@pytest.mark.clause("SYS.record")
def test_the_codec_refuses_a_kind_it_does_not_know():
    with pytest.raises(TypeError, match="cannot write a bytes"):
        statecodec.encode((b"raw",))


def _long_game(url: str, every: int) -> tuple[GameService, str]:
    """A game played past several multiples of K, then opened once by a fresh service (the
    one that writes its snapshot); the writing service is returned."""
    service = GameService(url, snapshot_every=every)
    made = service.new_game(EXAMPLES / "vv-hedgerow-ambush.yaml")
    play(service, made, list(range(0, 400, 7)))
    reader = GameService(url, snapshot_every=every)
    reader.game(made.game)
    reader.close()
    return service, made.game


def _stored_versions(url: str) -> list[int]:
    with sa.create_engine(url).connect() as connection:
        return list(connection.execute(sa.select(snapshot_table.snapshots.c.version)).scalars())


def _entries_read_from(service: GameService) -> list[tuple[int, int | None]]:
    """Record where each read of entries by ``service`` starts and stops."""
    starts: list[tuple[int, int | None]] = []
    read = service.store.entries

    def recording(game: str, start: int = 0, stop: int | None = None):
        starts.append((start, stop))
        return read(game, start, stop)

    service.store.entries = recording  # type: ignore[method-assign]
    return starts


@pytest.mark.clause("SYS.record")
def test_a_fresh_service_opens_a_game_from_its_snapshot_plus_the_tail(db_url):
    service, game_id = _long_game(db_url, every=10)
    live = service.game(game_id)
    log = service.log(game_id)
    service.close()
    assert live.version > 10
    stored = _stored_versions(db_url)
    # The fresh service that opened it folded the whole log and kept it at its version.
    assert stored == [live.version]
    fresh = GameService(db_url)
    starts = _entries_read_from(fresh)
    opened = fresh.game(game_id)
    fresh.close()
    # The start entry, then the snapshot's own last entry (checked) and the tail.
    assert starts == [(0, 1), (stored[0] - 1, None)]
    folded = fold.start(log[0])
    for entry in log[1:]:
        folded = fold.apply_entry(folded, entry)
    assert same_game(opened, folded) and same_game(opened, live)


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize(
    "damage",
    [
        {"head": "f" * 64},  # names an entry hash this log does not have
        {"digest": "0" * 64},  # its text is not the text it was written as
        {"engine": "0.0.0-other"},  # another engine version's state
        {"sig": "ab" * 64},  # not signed by this service's key
        "state",  # another state, re-digested but not re-signed
        "class",  # a class this engine does not have (digest recomputed, signed again)
    ],
)
def test_a_snapshot_that_does_not_match_is_ignored(sqlite_url, damage):
    service, game_id = _long_game(sqlite_url, every=10)
    live = service.game(game_id)
    table = snapshot_table.snapshots
    with sa.create_engine(sqlite_url).begin() as connection:
        if damage in ("state", "class"):
            kind = damage
            row = connection.execute(sa.select(table)).one()
            if kind == "state":
                body = row.body.replace('"turn":', '"turn":1', 1)  # another turn number
            else:
                body = row.body.replace("vv.game.state:VvState", "vv.game.state:Gone")
            digest = snapshots._digest(body)
            damage = {"body": body, "digest": digest}
            if kind == "class":
                seal = snapshots._seal(game_id, row.version, row.head, row.engine, digest)
                damage["sig"] = service.signer.sign(seal)
        connection.execute(table.update().values(**damage))
    service.close()
    fresh = GameService(sqlite_url)
    starts = _entries_read_from(fresh)
    opened = fresh.game(game_id)
    fresh.close()
    assert starts[-1] == (0, None)  # folded from the first entry
    assert same_game(opened, live)


@pytest.mark.clause("SYS.record")
def test_the_interval_is_a_setting(monkeypatch):
    monkeypatch.setenv(snapshots.ENVIRONMENT, "25")
    assert snapshots.every() == 25
    monkeypatch.delenv(snapshots.ENVIRONMENT)
    assert snapshots.every() == snapshots.DEFAULT_EVERY
    monkeypatch.setenv(snapshots.ENVIRONMENT, "often")
    with pytest.raises(BadInput, match="whole number"):
        snapshots.every()


@pytest.mark.clause("SYS.record")
def test_the_service_that_reads_a_game_writes_its_snapshots(sqlite_url):
    writer = GameService(sqlite_url, snapshot_every=5)
    made = writer.new_game(EXAMPLES / "asl-c8-demo.yaml")

    def next_phase() -> None:
        game = writer.game(made.game)
        owner = game.rules.to_move(game.state)
        writer.do(made.game, owner, made.tokens[owner], ["phase", "next"])

    for _ in range(6):
        next_phase()
    # The writer holds the game folded: its commands store no snapshot.
    assert _stored_versions(sqlite_url) == []

    def opened() -> fold.Game:
        reader = GameService(sqlite_url, snapshot_every=5)
        try:
            return reader.game(made.game)
        finally:
            reader.close()

    assert opened().version == 7
    assert _stored_versions(sqlite_url) == [7]  # folded past 5 since no snapshot: kept
    next_phase()
    next_phase()
    assert opened().version == 9
    assert _stored_versions(sqlite_url) == [7]  # 7 -> 9 passes no multiple of 5
    for _ in range(3):
        next_phase()
    game = opened()
    assert game.version == 12 and _stored_versions(sqlite_url) == [12]  # only the newest
    assert same_game(game, writer.game(made.game))
    writer.close()
