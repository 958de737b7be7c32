"""Play by e-mail (SYS.dice, SYS.record): two databases, two key stores, files only. A full
Player Turn with dice neither side can read ahead or choose; tampered files refused, the fault
located."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ordnance.core.errors import IllegalAction
from ordnance.game import pbem_flow
from ordnance.game.entries import make_entry, signed
from ordnance.game.errors import LogMismatch, NotAuthorized
from ordnance.game.fairdice import faces
from ordnance.game.logfile import export_text, read_entries, verify
from ordnance.game.pbem import Invitation
from ordnance.game.service import Appended, GameService
from ordnance.game.signing import Signer


class Player:
    """One player's machine: a database, a key store, a token, a mail folder."""

    def __init__(self, root: Path, name: str) -> None:
        self.name, self.root = name, root
        self.service = GameService(f"sqlite:///{root / f'{name}.db'}", keys=root / f"{name}-keys")
        self.token = ""
        self.sent = 0

    def send(self, game: str) -> Path:
        """Export the game to a file, as one would attach it to an e-mail."""
        self.sent += 1
        path = self.root / f"{self.name}-{self.sent}.json"
        path.write_text(self.service.export(game), encoding="utf-8")
        return path

    def receive(self, path: Path) -> Appended:
        taken = self.service.import_log(path.read_bytes())
        assert isinstance(taken, Appended)
        return taken

    def do(self, game: str, *words: str):
        return self.service.do(game, self.name, self.token, list(words))


@pytest.fixture
def table(tmp_path, scenario):
    german, russian = Player(tmp_path, "german"), Player(tmp_path, "russian")
    made = german.service.create(scenario(), by_email="german")
    german.token = made.tokens["german"]
    assert set(made.tokens) == {"german"}  # the inviter holds no credential of the other side
    invitation = tmp_path / "invitation.json"
    invitation.write_text(made.invitations["russian"], encoding="utf-8")
    yield german, russian, made.game, invitation
    german.service.close()
    russian.service.close()


def exchange(sender: Player, receiver: Player, game: str) -> Appended:
    return receiver.receive(sender.send(game))


def roll_through(actor: Player, other: Player, game: str, *words: str):
    """A command that rolls: proposed, answered by the other side's file, resolved by ours."""
    proposed = actor.do(game, *words)
    assert proposed.entries[0].type == "propose" and proposed.ruling is None
    answered = exchange(actor, other, game)
    assert [a.entries[0].type for a in answered.then] == ["answer"]
    resolved = exchange(other, actor, game)
    (closing,) = resolved.then
    assert closing.entries[0].type == "command" and closing.ruling is not None
    return closing


@pytest.mark.clause("SYS.dice", "SYS.record")
def test_a_full_player_turn_by_e_mail_with_fair_dice(table):
    german, russian, game, invitation = table
    offer = Invitation.from_bytes(invitation.read_bytes())
    assert offer.side == "russian" and german.token not in invitation.read_text()
    joined = russian.service.join(invitation.read_bytes())
    russian.token = joined.tokens["russian"]
    assert set(joined.tokens) == {"russian"}
    assert exchange(russian, german, game).appended == 1  # the join, with russian's key

    german.do(game, "phase", "next")  # RPh -> PFPh: no roll, stored at once
    shot = roll_through(german, russian, game, "fire", "pak", "--ammo", "AP")
    entry = shot.entries[0]
    # The roll is keyed by german's committed secret and russian's fresh entropy.
    proposal = german.service.log(game)[entry.body["proposal"]]
    answer = german.service.log(game)[entry.body["proposal"] + 1]
    secret = bytes.fromhex(entry.body["secret"])
    assert proposal.body["commitment"] == __import__("hashlib").sha256(secret).hexdigest()
    assert tuple(entry.rolls[0]["faces"]) == faces(
        secret, game, 0, {}, index=0, count=2, entropy=answer.body["entropy"],
        proposal=proposal.seq,
    )  # fmt: skip
    german.do(game, "phase", "next")  # -> MPh
    german.do(game, "move", "stug")
    german.do(game, "phase", "next")  # -> DFPh: the defender's phase
    exchange(german, russian, game)
    roll_through(russian, german, game, "fire", "t34", "--ammo", "APCR", "--to-hit", "8")
    russian.do(game, "phase", "next")  # -> AFPh
    exchange(russian, german, game)
    for _ in range(4):  # AFPh, RtPh, APh, CCPh: the German Player Turn ends
        german.do(game, "phase", "next")
    state = german.service.status(game)["state"]
    assert state["player"] == "russian" and state["phase"] == "RPh"
    exchange(german, russian, game)
    assert russian.service.game(game).head == german.service.game(game).head

    report = verify(german.service.export(game).encode()).to_json()
    assert report["verdict"] == "verified", report["problem"]
    assert report["rolls"] == report["rolls_recomputed"] == 2
    assert len(report["signers"]) == 2  # each side signed its own entries
    # By e-mail every entry is a signed head of its writer; each copy keeps its MAC on all.
    assert all(e.sig is not None for e in read_entries(german.service.export(game).encode())[1])
    assert all(e.mac is not None for e in russian.service.log(game))


@pytest.mark.clause("SYS.dice", "SYS.record")
def test_tampered_files_are_refused_and_the_fault_located(table):
    german, russian, game, invitation = table
    russian.token = russian.service.join(invitation.read_bytes()).tokens["russian"]
    exchange(russian, german, game)
    german.do(game, "phase", "next")
    german.do(game, "fire", "pak", "--ammo", "AP")  # proposed
    good = german.send(game)
    data = good.read_bytes()
    name, entries = read_entries(data)
    opening = json.loads(data.split(b"\n", 1)[0] + b"]}")["signer"]

    # One byte changed on the way: refused at that entry.
    spoiled = data.replace(b'"text":"fire pak --ammo AP"', b'"text":"fire pak --ammo AQ"')
    with pytest.raises(LogMismatch) as fault:
        russian.service.import_log(spoiled)
    assert fault.value.entry == len(entries) - 1

    # The proposal rewritten and rehashed (a man in the middle, or russian himself): the
    # signature is no longer german's.
    last = entries[-1]
    body = {**last.body, "commitment": "00" * 32}
    forged = signed(make_entry(last.seq, "propose", "german", body, last.prev), str(last.sig))
    rehashed = export_text(name, [*entries[:-1], forged], opening).encode()
    with pytest.raises(LogMismatch, match="not the german's") as fault:
        russian.service.import_log(rehashed)
    assert fault.value.entry == last.seq

    # An answer written for russian with someone else's key.
    intruder = Signer(bytes(range(32)))
    fake = make_entry(last.seq + 1, "answer", "russian", {"proposal": last.seq,
                      "entropy": "ab" * 16}, last.hash)  # fmt: skip
    with_fake = export_text(name, [*entries, signed(fake, intruder.sign(fake.hash))], opening)
    with pytest.raises(LogMismatch, match="not the russian's") as fault:
        german.service.import_log(with_fake.encode())
    assert fault.value.entry == last.seq + 1

    # The real file goes through; an older one afterwards is refused.
    assert russian.receive(good).then[0].entries[0].type == "answer"
    older = russian.root / "older.json"
    older.write_text(export_text(name, entries[:-1], opening), encoding="utf-8")
    with pytest.raises(LogMismatch, match="older file"):
        russian.receive(older)


@pytest.mark.clause("SYS.dice", "SYS.record")
def test_each_copy_acts_only_for_its_own_side_and_waits_while_a_roll_is_open(table):
    german, russian, game, invitation = table
    russian.token = russian.service.join(invitation.read_bytes()).tokens["russian"]
    with pytest.raises(NotAuthorized):
        russian.service.do(game, "german", russian.token, ["phase", "next"])
    exchange(russian, german, game)
    german.do(game, "phase", "next")
    german.do(game, "fire", "pak", "--ammo", "AP")
    with pytest.raises(IllegalAction, match="waiting for russian's file"):
        german.do(game, "phase", "next")
    # Joining twice with the same invitation, or with the inviter's own key, is refused.
    with pytest.raises(Exception, match="already exists"):
        russian.service.join(invitation.read_bytes())
    with pytest.raises(Exception, match="key store of their own"):
        GameService(f"sqlite:///{german.root / 'third.db'}", keys=german.root / "german-keys").join(
            invitation.read_bytes()
        )


@pytest.mark.clause("SYS.dice", "SYS.record")
def test_a_refusal_once_rolled_closes_the_proposal_and_a_false_one_is_caught(table, monkeypatch):
    german, russian, game, invitation = table
    russian.token = russian.service.join(invitation.read_bytes()).tokens["russian"]
    exchange(russian, german, game)
    german.do(game, "phase", "next")
    german.do(game, "fire", "pak", "--ammo", "AP")
    exchange(german, russian, game)
    # German's copy claims the rules refused the shot once its dice were known (as a
    # malfunction can): the proposal closes with a 'refused' entry revealing the secret...
    real = pbem_flow.command_body

    def refusing(game_now, command, dice, rolls):
        real(game_now, command, dice, rolls)
        raise IllegalAction("C8.9", "pretend the Gun malfunctioned")

    monkeypatch.setattr(pbem_flow, "command_body", refusing)
    (closing,) = exchange(russian, german, game).then
    monkeypatch.undo()
    assert closing.entries[0].type == "refused" and closing.entries[0].body["rolls"]
    assert german.service.game(game).pending is None
    german.do(game, "phase", "next")  # the game goes on
    # ...but the rules allow that shot with those dice: verify (and the other copy) catch it.
    failure = verify(german.service.export(game).encode()).failure
    assert failure.entry == closing.entries[0].seq and "rules allow it" in failure.problem
    with pytest.raises(LogMismatch, match="rules allow it"):
        exchange(german, russian, game)
