"""Secrets held by the service, not the database (SYS.dice, SYS.record): a player who reads every
table of the game database, or the export, cannot compute the next roll; the key store is
private; an old database migrates its seeds out; tokens and entries cannot be forged by writing
the database."""

from __future__ import annotations

import base64
import hashlib
import json
import stat

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from ordnance.game.entries import GENESIS, make_entry
from ordnance.game.errors import LogMismatch, NotAuthorized
from ordnance.game.fairdice import faces
from ordnance.game.keystore import KeyStore, KeyStoreError
from ordnance.game.logfile import verify
from ordnance.game.service import GameService
from ordnance.game.storage import MIGRATIONS, make_engine
from ordnance.game.tokens import new_token, token_hash

SEED = bytes(range(100, 132))


def encodings(secret: bytes) -> list[bytes]:
    """Every form a seed could be stored in: raw, hex (both cases), base64 (both alphabets)."""
    forms = [secret, secret.hex().encode(), secret.hex().upper().encode()]
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        text = encode(secret)
        forms += [text, text.rstrip(b"=")]
    return forms


def every_table(url: str) -> bytes:
    """Everything a player with the database's credentials can read, as bytes."""
    engine = sa.create_engine(url)
    dump = []
    with engine.connect() as connection:
        for table in sa.inspect(connection).get_table_names():
            for row in connection.execute(sa.text(f'SELECT * FROM "{table}"')):
                for value in row:
                    dump.append(value if isinstance(value, bytes) else str(value).encode())
    engine.dispose()
    return b"\n".join(dump)


def holds(data: bytes, secret: bytes) -> bool:
    return any(form in data for form in encodings(secret))


@pytest.mark.clause("SYS.dice")
def test_no_table_and_no_export_holds_the_seed_before_its_reveal(db_url, scenario):
    service = GameService(db_url)
    try:
        made = service.create(scenario(), server_seed=SEED)
        german, russian = made.tokens["german"], made.tokens["russian"]
        service.do(made.game, "german", german, ["phase", "next"])
        shot = service.do(made.game, "german", german, ["fire", "pak", "--ammo", "AP"])
        assert shot.entries[0].rolls
        # A player reads everything: no table, no export holds the seed in any encoding...
        assert not holds(every_table(db_url), SEED)
        assert not holds(service.export(made.game).encode(), SEED)
        # ...and the next roll depends on entropy the acting client has not sent yet: with the
        # state fixed, the candidates differ (the seed alone would not settle it anyway).
        game = service.game(made.game)
        nexts = {
            faces(SEED, made.game, 0, {}, index=game.dice.next_roll, count=2, entropy=f"{k:032x}")
            for k in range(30)
        }
        assert len(nexts) > 10
        # The same search finds the seed once the reveal has published it.
        service.consent(made.game, "german", german)
        service.consent(made.game, "russian", russian)
        assert holds(every_table(db_url), SEED)
        # The next epoch's seed is nowhere in the database either.
        following = service.keys.seed(service.game(made.game).dice.commitments[1])
        assert following is not None and not holds(every_table(db_url), following)
        # After the reveal, verify recomputes every roll.
        report = verify(service.export(made.game).encode()).to_json()
        assert report["verdict"] == "verified"
        assert report["rolls"] == report["rolls_recomputed"] == 1
    finally:
        service.close()


@pytest.mark.clause("SYS.dice")
def test_the_key_store_is_private_and_refused_when_it_is_not(sqlite_url, new_game, tmp_path):
    service, made = new_game(sqlite_url)
    folder = service.keys.path
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    files = [p for p in folder.rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {"signing.key", made.commitment}
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in files)
    (folder / "signing.key").chmod(0o644)
    with pytest.raises(KeyStoreError, match="open to other users"):
        KeyStore(folder).private_key()
    (folder / "signing.key").chmod(0o600)
    # Configurable: another folder is another store, made on first use.
    other = KeyStore(tmp_path / "elsewhere")
    assert other.private_key() != KeyStore(folder).token_key()
    assert stat.S_IMODE((tmp_path / "elsewhere").stat().st_mode) == 0o700


def old_database(url: str, keys_path, scenario) -> tuple[str, dict[str, str]]:
    """A database at schema 0001 holding a game as the first release stored it: the server
    seed in ``dice_seeds``, plain token hashes, unsigned entries."""
    engine = make_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        config.attributes["keystore"] = KeyStore(keys_path)
        command.upgrade(config, "0001")
    body = {
        "game": "oldgame1",
        "ruleset": "asl",
        "engine": "0.1.0",
        "scenario": scenario().to_json(),
        "commitment": hashlib.sha256(SEED).hexdigest(),
    }
    first = make_entry(0, "start", None, body, GENESIS)
    tokens = {"german": new_token(), "russian": new_token()}
    with engine.begin() as connection:
        connection.execute(sa.text("INSERT INTO games VALUES ('oldgame1', 'asl', 1)"))
        connection.execute(
            sa.text("INSERT INTO entries VALUES ('oldgame1', 0, 'start', NULL, :b, :p, :h)"),
            {"b": json.dumps(body, sort_keys=True, separators=(",", ":")), "p": GENESIS,
             "h": first.hash},
        )  # fmt: skip
        for side, token in tokens.items():
            connection.execute(
                sa.text("INSERT INTO tokens VALUES ('oldgame1', :s, :h)"),
                {"s": side, "h": token_hash(token)},
            )
        connection.execute(
            sa.text("INSERT INTO dice_seeds VALUES ('oldgame1', 0, :s)"), {"s": SEED.hex()}
        )
    engine.dispose()
    return "oldgame1", tokens


@pytest.mark.clause("SYS.dice", "SYS.record")
def test_a_migrated_old_database_holds_no_seed_and_plays_on(db_url, tmp_path, scenario):
    keys = tmp_path / "operator-keys"
    game, tokens = old_database(db_url, keys, scenario)
    assert holds(every_table(db_url), SEED)
    service = GameService(db_url, keys=keys)
    try:
        assert not holds(every_table(db_url), SEED)
        assert "dice_seeds" not in sa.inspect(service.store.engine).get_table_names()
        assert service.keys.seed(hashlib.sha256(SEED).hexdigest()) == SEED
        # The old tokens still work (their hashes became MACs), and the game rolls on the
        # migrated seed.
        service.do(game, "german", tokens["german"], ["phase", "next"])
        shot = service.do(game, "german", tokens["german"], ["fire", "pak", "--ammo", "AP"])
        entropy = shot.entries[0].body["entropy"]
        assert tuple(shot.entries[0].rolls[0]["faces"]) == faces(
            SEED, game, 0, {}, index=0, count=2, entropy=entropy
        )
        service.consent(game, "german", tokens["german"])
        service.consent(game, "russian", tokens["russian"])
        report = verify(service.export(game).encode()).to_json()
        assert report["ok"] and report["legacy_start"], report["problem"]
        assert report["rolls"] == report["rolls_recomputed"] == 1
    finally:
        service.close()
    # A fresh process reads the old entry by its signature (it has no MAC) and the new ones by
    # their MACs.
    fresh = GameService(db_url, keys=keys, snapshot_every=0)
    try:
        log = fresh.log(game)
        assert log[0].mac is None and log[0].sig is not None
        assert all(e.mac is not None for e in log[1:])
        assert fresh.status(game)["version"] == len(log)
    finally:
        fresh.close()


@pytest.mark.clause("SYS.record")
def test_a_token_hash_overwritten_in_the_database_does_not_authorize(sqlite_url, new_game):
    _, made = new_game(sqlite_url)
    mine = made.tokens["german"]
    engine = sa.create_engine(sqlite_url)
    with engine.begin() as connection:
        # The German player writes over the Russian record: the plain hash of his own token,
        # then the stored record of his own side.
        own = connection.execute(
            sa.text("SELECT token_hash FROM tokens WHERE side = 'german'")
        ).scalar_one()
        for forged in (token_hash(mine), own):
            connection.execute(
                sa.text("UPDATE tokens SET token_hash = :h WHERE side = 'russian'"), {"h": forged}
            )
            fresh = GameService(sqlite_url)
            try:
                with pytest.raises(NotAuthorized, match="side russian"):
                    fresh.do(made.game, "russian", mine, ["phase", "next"])
            finally:
                fresh.close()
    engine.dispose()


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize(
    ("sig", "mac", "problem"),
    [
        ("00" * 64, None, "its signature"),  # as an entry from before MACs
        (None, None, "it is not signed"),
        (None, "00" * 32, "its MAC is not this service's"),
        ("00" * 64, "ab" * 32, "its MAC is not this service's"),
    ],
)
def test_an_entry_written_into_the_database_directly_is_refused(
    sqlite_url, new_game, sig, mac, problem
):
    service, made = new_game(sqlite_url)
    service.do(made.game, "german", made.tokens["german"], ["phase", "next"])
    head = service.game(made.game)
    command_text = {"side": "german", "verb": "phase", "args": {}, "text": "phase next"}
    body = {"command": command_text, "rolls": [], "events": [], "ruling": {}}
    forged = make_entry(head.version, "command", "german", body, head.head)
    engine = sa.create_engine(sqlite_url)
    with engine.begin() as connection:
        connection.execute(
            sa.text("INSERT INTO entries (game_id, seq, type, side, body, prev, hash, sig, mac)"
                    " VALUES (:g, :s, 'command', 'german', :b, :p, :h, :sig, :mac)"),
            {"g": made.game, "s": forged.seq, "b": json.dumps(forged.body, sort_keys=True,
             separators=(",", ":")), "p": forged.prev, "h": forged.hash, "sig": sig, "mac": mac},
        )  # fmt: skip
        connection.execute(sa.text("UPDATE games SET version = version + 1"))
    engine.dispose()
    fresh = GameService(sqlite_url)
    try:
        with pytest.raises(LogMismatch, match=f"entry {forged.seq}: {problem}"):
            fresh.status(made.game)
        with pytest.raises(LogMismatch, match=f"entry {forged.seq}"):
            fresh.export(made.game)
    finally:
        fresh.close()


@pytest.mark.clause("SYS.record")
def test_an_entry_changed_in_the_database_is_refused_at_that_entry(sqlite_url, new_game):
    """A die changed in the database and the chain rehashed from there: every rehashed entry
    loses its MAC, so the first changed one is named (and a signature changed there too)."""
    service, made = new_game(sqlite_url)
    german = made.tokens["german"]
    for words in (["phase", "next"], ["fire", "pak", "--ammo", "AP", "--to-hit", "7"]):
        service.do(made.game, "german", german, words)
    service.do(made.game, "german", german, ["fire", "pz4", "--ammo", "AP", "--to-hit", "7"])
    log = service.log(made.game)
    service.close()
    shot = next(e for e in log if e.rolls)
    body = json.loads(json.dumps(shot.body))
    body["rolls"][0]["faces"][0] = body["rolls"][0]["faces"][0] % 6 + 1
    rewritten, prev = [], shot.prev
    for entry in log[shot.seq :]:
        again = make_entry(entry.seq, entry.type, entry.side,
                           body if entry.seq == shot.seq else entry.body, prev)  # fmt: skip
        rewritten.append(again)
        prev = again.hash
    engine = sa.create_engine(sqlite_url)
    with engine.begin() as connection:
        for entry in rewritten:
            connection.execute(
                sa.text("UPDATE entries SET body = :b, prev = :p, hash = :h WHERE seq = :s"),
                {"b": json.dumps(entry.body, sort_keys=True, separators=(",", ":")),
                 "p": entry.prev, "h": entry.hash, "s": entry.seq},
            )  # fmt: skip
    engine.dispose()
    fresh = GameService(sqlite_url)
    try:
        with pytest.raises(LogMismatch, match=f"entry {shot.seq}: its MAC is not"):
            fresh.status(made.game)
    finally:
        fresh.close()


@pytest.mark.clause("SYS.record")
def test_a_game_read_with_another_key_store_names_the_key_store_in_use(
    sqlite_url, new_game, tmp_path
):
    service, made = new_game(sqlite_url)
    other = GameService(sqlite_url, keys=tmp_path / "other-keys")
    try:
        with pytest.raises(LogMismatch) as refused:
            other.game(made.game)
    finally:
        other.close()
    assert refused.value.entry == 0
    assert f"the key store in use ({tmp_path / 'other-keys'}) is not the one" in str(refused.value)
    assert service.game(made.game).version == made.version  # its own key store still reads it
