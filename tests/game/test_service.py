"""The game service: tokens, versions, undo, seeds and reveals, dice modes, refusals that leave
the log untouched."""

from __future__ import annotations

import hashlib
import shutil

import pytest

from ordnance.core.errors import BadInput, IllegalAction
from ordnance.game.errors import NotAuthorized, StaleState
from ordnance.game.fairdice import faces
from ordnance.game.keystore import KeyStoreError
from ordnance.game.service import GameService

SEED = bytes(range(32))


def entries_of(service, game):
    return [e.to_json() for e in service.log(game)]


def to_pfph(service, made):
    service.do(made.game, "german", made.tokens["german"], ["phase", "next"])


@pytest.mark.clause("SYS.record")
def test_a_token_of_one_side_cannot_act_for_the_other(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    before = entries_of(service, made.game)
    with pytest.raises(NotAuthorized):
        service.do(made.game, "german", made.tokens["russian"], ["phase", "next"])
    with pytest.raises(NotAuthorized):
        service.do(made.game, "german", "made-up", ["phase", "next"])
    with pytest.raises(NotAuthorized):
        service.undo(made.game, "russian", made.tokens["german"])
    with pytest.raises(NotAuthorized):
        service.add_seed(made.game, "russian", made.tokens["german"], "x")
    with pytest.raises(NotAuthorized):
        service.consent(made.game, "russian", made.tokens["german"])
    assert entries_of(service, made.game) == before


@pytest.mark.clause("SYS.record")
def test_tokens_are_stored_only_as_hashes(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    with service.store.engine.connect() as connection:
        stored = " ".join(str(row) for row in connection.exec_driver_sql("SELECT * FROM tokens"))
    assert all(token not in stored for token in made.tokens.values())
    assert made.tokens["german"] != made.tokens["russian"]


@pytest.mark.clause("SYS.record")
def test_a_command_based_on_an_old_version_is_stale(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    to_pfph(service, made)
    with pytest.raises(StaleState, match="version 2"):
        service.do(made.game, "german", made.tokens["german"], ["phase", "next"], expect_version=1)
    applied = service.do(
        made.game, "german", made.tokens["german"], ["phase", "next"], expect_version=2
    )
    assert applied.version == 3


@pytest.mark.clause("SYS.record")
def test_another_service_sees_every_appended_entry(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    other = GameService(sqlite_url)
    try:
        to_pfph(service, made)
        assert other.game(made.game).version == 2
        other.do(made.game, "german", made.tokens["german"], ["fire", "pak", "--ammo", "AP"])
        assert service.game(made.game).state == other.game(made.game).state
    finally:
        other.close()


@pytest.mark.clause("SYS.record")
def test_a_command_on_a_fold_another_service_moved_past_is_decided_on_the_stored_game(
    sqlite_url, new_game, tmp_path
):
    # The first service holds the game folded at version 1; the other (whose kept heads the
    # first does not see) moves it on to the German PFPh.
    service, made = new_game(sqlite_url)
    assert service.game(made.game).version == 1
    # A copy of the key store: the same keys, kept heads of its own.
    shutil.copytree(service.keys.path, tmp_path / "other-keys")
    other = GameService(sqlite_url, keys=tmp_path / "other-keys")
    try:
        with pytest.raises(IllegalAction):  # not in the phase the first service holds
            other.do(made.game, "german", made.tokens["german"], ["fire", "pak", "--ammo", "AP"])
        to_pfph(other, made)
        shot = ["fire", "pak", "--ammo", "AP"]
        done = service.do(made.game, "german", made.tokens["german"], shot, expect_version=2)
        assert done.version == 3
        # The same command again, legal on both folds: decided on the stored one.
        other.do(made.game, "german", made.tokens["german"], ["phase", "next"])
        again = service.do(made.game, "german", made.tokens["german"], ["phase", "next"])
        assert again.version == 5
        log = service.log(made.game)
        assert [e.prev for e in log[1:]] == [e.hash for e in log[:-1]]
        assert [e.body.get("command", {}).get("verb") for e in log[1:]] == [
            "phase", "fire", "phase", "phase"
        ]  # fmt: skip
        assert other.game(made.game).state == service.game(made.game).state
    finally:
        other.close()


@pytest.mark.clause("SYS.record")
def test_an_error_after_the_commit_is_said_and_the_command_is_not_decided_again(
    sqlite_url, new_game, monkeypatch
):
    service, made = new_game(sqlite_url)
    assert service.game(made.game).version == 1  # held

    def fails(_new):
        raise KeyStoreError(service.keys.path, "cannot drop a seed")

    monkeypatch.setattr(service.custody, "forget_revealed", fails)
    with pytest.raises(KeyStoreError):
        to_pfph(service, made)
    assert [e.type for e in service.log(made.game)] == ["start", "command"]


@pytest.mark.parametrize(
    ("words", "error"),
    [
        (["fire", "nosuch", "--ammo", "AP"], BadInput),
        (["charge", "pak"], BadInput),
        (["fire", "pak", "--ammo", "plasma"], BadInput),
        (["fire", "pak", "--ammo", "SMOKE", "--own-hex"], IllegalAction),
        (["fire", "t34", "--ammo", "AP"], IllegalAction),
    ],
)
def test_bad_input_and_refusals_leave_the_log_untouched(sqlite_url, new_game, words, error):
    service, made = new_game(sqlite_url)
    to_pfph(service, made)
    before = entries_of(service, made.game)
    with pytest.raises(error):
        service.do(made.game, "german", made.tokens["german"], words)
    assert entries_of(service, made.game) == before
    with pytest.raises(BadInput, match="no such side"):
        service.do(made.game, "italian", "x", ["phase", "next"])
    with pytest.raises(BadInput, match="no such game"):
        service.do("nosuchgame", "german", "x", ["phase", "next"])


@pytest.mark.clause("SYS.dice", "C8.1-announce")
def test_undo_goes_back_only_to_the_last_revealed_roll(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    german = made.tokens["german"]
    to_pfph(service, made)
    shot = service.do(made.game, "german", german, ["fire", "pak", "--ammo", "APCR"])
    assert shot.entries[0].rolls  # the roll is revealed with the declaration that caused it
    with pytest.raises(IllegalAction, match=r"SYS\.dice"):
        service.undo(made.game, "german", german)  # no re-declaring after seeing the roll
    service.do(made.game, "german", german, ["phase", "next"])
    service.do(made.game, "german", german, ["move", "pz4"])
    with pytest.raises(IllegalAction, match=r"SYS\.record"):
        service.undo(made.game, "russian", made.tokens["russian"])  # not russian's command
    state_before_move = service.game(made.game).undoable[-1].before
    undone = service.undo(made.game, "german", german)
    assert undone.entries[0].body == {"undone": 4}
    assert service.game(made.game).state == state_before_move
    service.undo(made.game, "german", german)  # the phase change too
    assert str(service.game(made.game).state.phase) == "PFPh"
    with pytest.raises(IllegalAction, match=r"SYS\.dice"):
        service.undo(made.game, "german", german)
    types = [e["type"] for e in entries_of(service, made.game)]
    assert types == ["start", "command", "command", "command", "command", "undo", "undo"]


@pytest.mark.clause("SYS.dice")
def test_fair_rolls_follow_the_committed_seed_and_the_side_seeds(sqlite_url, scenario):
    service = GameService(sqlite_url)
    try:
        made = service.create(scenario(), server_seed=SEED)
        assert made.commitment == hashlib.sha256(SEED).hexdigest()
        service.add_seed(made.game, "german", made.tokens["german"], "fortune")
        service.add_seed(made.game, "russian", made.tokens["russian"], "favours")
        to_pfph(service, made)
        words = ["fire", "pak", "--ammo", "AP"]
        entropy = "5a" * 16  # the acting client's fresh bytes
        shot = service.do(made.game, "german", made.tokens["german"], words, entropy=entropy)
        roll, body = shot.entries[0].rolls[0], shot.entries[0].body
        seeds = {"german": "fortune", "russian": "favours"}
        expected = faces(SEED, made.game, 0, seeds, index=0, count=2, entropy=entropy)
        assert tuple(roll["faces"]) == expected and body["entropy"] == entropy
        # The same seeds with other client entropy give other rolls: the seed alone (which
        # the server holds) does not tell the roll before the command is sent.
        others = {faces(SEED, made.game, 0, seeds, index=0, count=2, entropy=f"{k:032x}")
                  for k in range(40)}  # fmt: skip
        assert len(others) > 10
        with pytest.raises(IllegalAction, match="first roll"):
            service.add_seed(made.game, "russian", made.tokens["russian"], "late")
    finally:
        service.close()


@pytest.mark.clause("SYS.dice")
def test_fair_games_refuse_entered_dice_and_physical_games_need_them(sqlite_url, new_game):
    service, fair = new_game(sqlite_url)
    to_pfph(service, fair)
    with pytest.raises(IllegalAction, match=r"SYS\.dice"):
        service.do(
            fair.game,
            "german",
            fair.tokens["german"],
            ["fire", "pak", "--ammo", "AP", "--dice", "6,6"],
        )
    service2, table = new_game(sqlite_url, dice="physical")
    to_pfph(service2, table)
    german = table.tokens["german"]
    with pytest.raises(BadInput, match="give --dice"):
        service2.do(table.game, "german", german, ["fire", "pak", "--ammo", "AP"])
    with pytest.raises(BadInput, match="more dice"):
        service2.do(table.game, "german", german, ["phase", "next", "--dice", "1,1"])
    done = service2.do(
        table.game, "german", german, ["fire", "pak", "--ammo", "AP", "--dice", "2,5"]
    )
    assert done.entries[0].rolls == [
        {"index": 0, "purpose": "To Hit DR (AP) for pak", "kind": "DR", "faces": [2, 5],
         "source": "physical", "epoch": None}
    ]  # fmt: skip


@pytest.mark.clause("SYS.dice")
def test_both_sides_agreeing_reveals_the_seed_and_starts_a_new_epoch(sqlite_url, scenario):
    service = GameService(sqlite_url)
    try:
        made = service.create(scenario(), server_seed=SEED)
        first = service.consent(made.game, "german", made.tokens["german"])
        assert [e.type for e in first.entries] == ["consent"]
        with pytest.raises(IllegalAction, match="already agreed"):
            service.consent(made.game, "german", made.tokens["german"])
        second = service.consent(made.game, "russian", made.tokens["russian"])
        assert [e.type for e in second.entries] == ["consent", "reveal"]
        assert second.entries[1].body["seed"] == SEED.hex()
        dice = service.game(made.game).dice
        assert dice.epoch == 1 and dice.revealed == {0: SEED.hex()}
        assert dice.commitments[1] == second.entries[1].body["next_commitment"]
        assert service.keys.seed(dice.commitments[1]) is not None
        # Revealed, so no longer a secret: the key store lets it go.
        assert service.keys.seed(hashlib.sha256(SEED).hexdigest()) is None
    finally:
        service.close()


@pytest.mark.clause("SYS.dice")
def test_the_seed_is_revealed_when_the_scenario_ends(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    game = service.game(made.game)
    while not game.rules.is_over(game.state):
        owner = game.rules.to_move(game.state)
        last = service.do(made.game, owner, made.tokens[owner], ["phase", "next"])
        game = service.game(made.game)
    assert [e.type for e in last.entries] == ["command", "reveal"]
    assert game.dice.revealed.keys() == {0}
    with pytest.raises(IllegalAction, match="over"):
        service.do(made.game, "german", made.tokens["german"], ["phase", "next"])


def test_status_shows_the_record_dice_and_legal_actions(sqlite_url, new_game):
    service, made = new_game(sqlite_url)
    status = service.status(made.game)
    assert status["version"] == 1 and status["to_move"] == "german"
    assert status["legal_actions"] == {"german": ["phase next"]}
    assert status["dice"]["commitment"] == made.commitment
    assert status["state"]["units"]["pak"]["ammunition"][0]["ammo"] == "APCR"
    assert service.status(made.game, "russian")["legal_actions"] == {"russian": []}


@pytest.mark.clause("SYS.record")
def test_a_service_holds_a_bounded_number_of_folds_and_folds_the_others_again(
    sqlite_url, scenario, monkeypatch
):
    from ordnance.game import service as service_module  # noqa: PLC0415

    monkeypatch.setattr(service_module, "GAMES_HELD", 2)
    service = GameService(sqlite_url)
    made = [service.create(scenario()) for _ in range(4)]
    # By the time each game comes again, two others were used since: its fold was dropped.
    for game in made:
        to_pfph(service, game)
        assert len(service._games) <= 2
    for game in made:
        assert service.game(game.game).version == 2
        assert entries_of(service, game.game)[-1]["body"]["command"]["text"] == "phase next"
        assert len(service._games) <= 2
    service.close()
