"""Kept heads (SYS.record, SYS.dice): a log cut short or forked behind the service's back is
refused, so nobody picks a roll by deleting it and sending the command again; and no command
is decided on a fold older than the stored game."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import time

import pytest
import sqlalchemy as sa
from sqlalchemy.pool import NullPool

from ordnance.core.errors import OrdnanceError
from ordnance.game.errors import LogMismatch, RolledBack
from ordnance.game.fairdice import new_entropy
from ordnance.game.heads import OPEN_FILES, SLOT, Head, Heads, parse, record
from ordnance.game.keystore import KeyStore
from ordnance.game.logfile import verify
from ordnance.game.service import GameService

SHOT = ["fire", "pak", "--ammo", "AP", "--to-hit", "7"]


def sql(url: str, *statements: str) -> None:
    """Write into the game database behind the service's back (a player with its password)."""
    engine = sa.create_engine(url, poolclass=NullPool)
    with engine.begin() as connection:
        for statement in statements:
            connection.execute(sa.text(statement))
    engine.dispose()


def cut_last(url: str, game: str, version: int) -> None:
    """Delete the game's last entry, and its version with it."""
    sql(
        url,
        f"DELETE FROM entries WHERE game_id = '{game}' AND seq = {version - 1}",
        f"UPDATE games SET version = {version - 1} WHERE id = '{game}'",
    )


def shot_at(service: GameService, made) -> int:
    """The german pak's To Hit shot; the version after it."""
    german = made.tokens["german"]
    service.do(made.game, "german", german, ["phase", "next"])
    return service.do(made.game, "german", german, SHOT, entropy=new_entropy()).version


@pytest.mark.clause("SYS.record")
def test_a_game_with_every_entry_deleted_is_refused_in_one_line(db_url, new_game, tmp_path):
    _, made = new_game(db_url)
    sql(
        db_url,
        f"DELETE FROM entries WHERE game_id = '{made.game}'",
        f"UPDATE games SET version = 0 WHERE id = '{made.game}'",
    )
    # The key store keeps the start entry as the game's head: a rollback to nothing.
    restarted = GameService(db_url)
    try:
        with pytest.raises(
            RolledBack,
            match="rolled back or forked at entry 0: the database holds none of its entries",
        ):
            restarted.status(made.game)
    finally:
        restarted.close()
    # Without a kept head (another key store) it is still one line, never an IndexError.
    stranger = GameService(db_url, keys=tmp_path / "other-keys")
    try:
        with pytest.raises(LogMismatch, match="no entries in the database"):
            stranger.status(made.game)
    finally:
        stranger.close()


@pytest.mark.clause("SYS.record", "SYS.dice")
def test_deleting_the_last_roll_and_sending_it_again_is_refused(db_url, new_game):
    service, made = new_game(db_url)
    version = shot_at(service, made)
    rolled = service.log(made.game)[-1]
    assert rolled.rolls
    cut_last(db_url, made.game, version)
    german = made.tokens["german"]
    sentence = f"this game's log was rolled back or forked at entry {version - 1}"
    # The server that wrote it, and one started afresh on the same key store (a restart, or
    # another process), refuse the cut log: every read, not only commands.
    restarted = GameService(db_url)
    try:
        for server in (service, restarted):
            for entropy in (rolled.body["entropy"], new_entropy()):
                with pytest.raises(LogMismatch, match=sentence):
                    server.do(made.game, "german", german, SHOT, entropy=entropy)
            with pytest.raises(LogMismatch, match=sentence):
                server.status(made.game)
            with pytest.raises(LogMismatch, match=sentence):
                server.export(made.game)
    finally:
        restarted.close()
    # Nothing was rolled again: the roll's index is still missing, with no other faces.
    engine = sa.create_engine(db_url, poolclass=NullPool)
    with engine.connect() as connection:
        stored = connection.execute(
            sa.text(f"SELECT count(*) FROM entries WHERE game_id = '{made.game}'")
        ).scalar_one()
    engine.dispose()
    assert stored == version - 1
    assert service.keys.head(made.game) == Head(version - 1, rolled.hash)


@pytest.mark.clause("SYS.record")
def test_the_error_says_where_and_why_in_one_line(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    version = shot_at(service, made)
    cut_last(sqlite_url, made.game, version)
    with pytest.raises(RolledBack) as caught:
        service.game(made.game)
    text = str(caught.value)
    assert text.startswith(f"game {made.game}: this game's log was rolled back or forked at entry")
    assert "\n" not in text and "entries were deleted" in text
    assert caught.value.entry == version - 1 and caught.value.game == made.game


@pytest.mark.clause("SYS.record")
def test_a_fork_is_refused_at_the_kept_heads_entry(db_url, new_game, tmp_path):
    service, made = new_game(db_url)
    version = shot_at(service, made)
    cut_last(db_url, made.game, version)
    # Someone holding the service's keys but not its kept heads writes another entry there.
    copy = tmp_path / "keys-without-heads"
    shutil.copytree(service.keys.path, copy, ignore=shutil.ignore_patterns("heads"))
    forger = GameService(db_url, keys=copy)
    try:
        forger.do(made.game, "german", made.tokens["german"], ["phase", "next"])
    finally:
        forger.close()
    with pytest.raises(RolledBack, match=f"forked at entry {version - 1}: the database holds"):
        service.status(made.game)


@pytest.mark.clause("SYS.record")
def test_a_second_service_decides_on_the_stored_game_not_its_cache(db_url, new_game):
    first, made = new_game(db_url)
    german = made.tokens["german"]
    assert first.status(made.game)["state"]["phase"] == "RPh"  # first holds the game folded
    second = GameService(db_url)
    try:
        for _ in range(2):
            second.do(made.game, "german", german, ["phase", "next"])
        assert second.status(made.game)["state"]["phase"] == "MPh"
        # A move is legal in the MPh only; first's cache still says RPh.
        moved = first.do(made.game, "german", german, ["move", "pz4"])
        assert moved.version == 4
        assert second.do(made.game, "german", german, ["move", "stug"]).version == 5
    finally:
        second.close()


@pytest.mark.clause("SYS.record")
def test_each_write_keeps_the_head_after_it_is_stored(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    assert service.keys.head(made.game) == Head(0, service.log(made.game)[0].hash)
    done = service.do(made.game, "german", made.tokens["german"], ["phase", "next"])
    assert service.keys.head(made.game) == Head(done.version - 1, done.head)
    # A refused command keeps nothing.
    with pytest.raises(OrdnanceError):
        service.do(made.game, "russian", made.tokens["russian"], ["phase", "next"])
    assert service.keys.head(made.game) == Head(done.version - 1, done.head)


@pytest.mark.clause("SYS.record")
def test_a_game_without_a_kept_head_is_read_and_gets_one(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    done = service.do(made.game, "german", made.tokens["german"], ["phase", "next"])
    service.close()
    # A game written before heads were kept (or on a key store that lost them).
    Heads(service.keys.path / "heads").path(made.game).unlink()
    again = GameService(sqlite_url)
    try:
        assert again.keys.head(made.game) is None
        assert again.status(made.game)["version"] == done.version
        assert again.keys.head(made.game) == Head(done.version - 1, done.head)
    finally:
        again.close()


@pytest.mark.clause("SYS.record")
def test_a_torn_head_file_never_bricks_a_game(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    german = made.tokens["german"]
    service.do(made.game, "german", german, ["phase", "next"])
    done = service.do(made.game, "german", german, ["phase", "next"])
    service.close()
    path = Heads(service.keys.path / "heads").path(made.game)
    data = bytearray(path.read_bytes())
    assert len(data) == 2 * SLOT
    newer = 0 if parse(made.game, bytes(data))[0] == Head(done.version - 1, done.head) else 1
    # A crash while writing the newer slot: its checksum fails, the older one holds.
    data[newer * SLOT + 10 : newer * SLOT + 20] = b"\0" * 10
    path.write_bytes(bytes(data))
    again = GameService(sqlite_url)
    try:
        assert again.keys.head(made.game).seq == done.version - 2
        assert again.status(made.game)["version"] == done.version
        assert again.keys.head(made.game) == Head(done.version - 1, done.head)
    finally:
        again.close()
    # Both slots spoiled: no head, never a refusal of a whole log.
    path.write_bytes(b"\xff" * (2 * SLOT))
    again = GameService(sqlite_url)
    try:
        assert again.status(made.game)["version"] == done.version
    finally:
        again.close()


def _keeper(folder: str, start: int, barrier) -> None:
    heads = Heads(__import__("pathlib").Path(folder))
    barrier.wait()
    for seq in range(start, 400, 4):
        heads.keep("g1", seq, f"{seq:064x}")


@pytest.mark.clause("SYS.record")
def test_heads_never_move_backwards_with_processes_keeping_at_once(tmp_path):
    folder = tmp_path / "heads"
    folder.mkdir(mode=0o700)
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(4)
    workers = [
        context.Process(target=_keeper, args=(str(folder), start, barrier)) for start in range(4)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    assert Heads(folder).get("g1") == Head(399, f"{399:064x}")
    heads = Heads(folder)
    heads.keep("g1", 5, "ab" * 32)
    assert heads.get("g1").seq == 399


@pytest.mark.clause("SYS.record")
def test_heads_of_odd_game_ids_stay_inside_the_folder(tmp_path):
    heads = Heads(tmp_path / "heads")
    heads.keep("../evil", 3, "ab" * 32)
    assert heads.get("../evil") == Head(3, "ab" * 32)
    heads.keep("sp\u00e9cial\ud800", 4, "cd" * 32)  # any text a log's header may hold
    assert heads.get("sp\u00e9cial\ud800") == Head(4, "cd" * 32)
    assert heads.path("../evil").parent == tmp_path / "heads"
    assert not (tmp_path / "evil").exists()


@pytest.mark.clause("SYS.record")
def test_verify_and_import_refuse_a_file_that_ends_before_the_kept_head(
    sqlite_url, new_game, tmp_path
):
    service, made = new_game(sqlite_url)
    shot_at(service, made)
    early = service.export(made.game).encode()
    later = service.do(made.game, "german", made.tokens["german"], ["phase", "next"])
    kept = service.keys.head(made.game)
    assert kept == Head(later.version - 1, later.head)
    report = verify(early, kept=kept)
    assert verify(early).ok and report.verdict == "failed"
    sentence = f"this game's log was rolled back or forked at entry {later.version - 1}"
    assert sentence in report.to_json()["explanation"]
    assert verify(service.export(made.game).encode(), kept=kept).verdict == "partly verified"
    # Imported elsewhere on the same key store: refused, nothing stored.
    other_url = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    other = GameService(other_url)
    try:
        with pytest.raises(LogMismatch, match=sentence):
            other.import_log(early)
        assert not other.store.has_game(made.game)
    finally:
        other.close()
    # The key store keeps the head per game: a file of another game is not concerned.
    assert KeyStore(service.keys.path).head("no-such-game") is None


@pytest.mark.clause("SYS.record")
def test_more_games_than_files_kept_open_each_keep_their_head(tmp_path):
    heads = Heads(tmp_path / "heads")
    games = [f"g{n}" for n in range(OPEN_FILES + 10)]
    for round_ in range(2):
        for n, game in enumerate(games):
            heads.keep(game, 2 * n + round_, f"{n:064x}")
    assert len(heads._open) <= OPEN_FILES
    assert [heads.get(game) for game in games] == [
        Head(2 * n + 1, f"{n:064x}") for n in range(len(games))
    ]
    heads.close()
    assert heads.get(games[0]) == Head(1, f"{0:064x}")


@pytest.mark.clause("SYS.record")
def test_the_game_in_use_keeps_its_file_open_while_others_come_and_go(tmp_path):
    """The least recently used file is closed first: a busy game is never reopened."""
    heads = Heads(tmp_path / "heads")
    heads.keep("busy", 1, f"{1:064x}")
    kept = heads._open["busy"]
    for n in range(OPEN_FILES + 10):
        heads.keep(f"g{n}", 1, f"{n:064x}")
        assert heads.get("busy") == Head(1, f"{1:064x}")
    assert heads._open["busy"] is kept  # the same descriptor and mapping all along
    heads.close()


@pytest.mark.clause("SYS.record")
def test_a_heads_last_change_is_when_it_was_kept_not_when_an_older_one_came(tmp_path):
    """``game list``'s last change is the time the newest head was kept, held in its slot; a
    head that is not newer changes nothing, and a game never kept has none."""
    heads = Heads(tmp_path / "heads")
    assert heads.changed("g1") is None
    before = int(time.time())
    heads.keep("g1", 5, "ab" * 32)
    after = time.time()
    kept_at = heads.changed("g1")
    assert kept_at is not None and before <= kept_at <= after
    assert heads.get("g1").kept_at == kept_at
    path = heads.path("g1")
    os.utime(path, (1_000_000_000, 1_000_000_000))  # the file's own time is not read
    heads.keep("g1", 4, "cd" * 32)  # older: not kept, and no new time
    assert heads.changed("g1") == kept_at
    heads.close()
    assert Heads(tmp_path / "heads").changed("g1") == kept_at


@pytest.mark.clause("SYS.record")
def test_a_head_file_written_before_slots_held_the_time_still_reads(tmp_path):
    """Slots written without the time still hold their heads; their last change is the
    file's time, and the next keep writes the new form beside them."""
    folder = tmp_path / "heads"
    folder.mkdir()
    heads = Heads(folder)
    path = heads.path("g1")
    path.write_bytes(record("g1", 3, "ab" * 32, None) + record("g1", 2, "cd" * 32, None))
    os.utime(path, (1_700_000_000, 1_700_000_000))
    assert heads.get("g1") == Head(3, "ab" * 32)
    assert heads.changed("g1") == 1_700_000_000
    heads.keep("g1", 4, "ef" * 32)
    assert heads.get("g1") == Head(4, "ef" * 32) and heads.get("g1").kept_at is not None
    assert parse("g1", path.read_bytes()) == [Head(3, "ab" * 32), Head(4, "ef" * 32)]
    heads.close()
