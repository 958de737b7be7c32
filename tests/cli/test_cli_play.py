"""``ordnance game play``: a V&V game against the AI played to its end through a terminal.

The player's side is driven through a pseudo-terminal (pexpect) as a person would type:
the prompt's listed actions are read (``phase next`` or ``pass`` when offered, else the first
of ``actions``), the dice are typed when the game rolls physical dice (the player's and the
AI's), and the loop's own words are tried on the way: Tab completion, ``?`` odds, ``status``,
``log``, ``help``, ``undo``. The game is played from a database here (the AI plays its side in
the loop, from the token given once) and through ``ordnance serve`` (the server plays it).
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import httpx
import pexpect
import pytest

from ordnance.cli.play_words import actions_lines

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCENARIO = EXAMPLES / "vv-hedgerow-ambush.yaml"
PROMPT = "american> "
DICE = re.compile(r"roll \d+ - [^\n]*?, as (W,C|N): ")
ACTIONS = re.compile(r"You may: (.*?)(?:\r?\n(?!  ))", re.S)
MAX_PROMPTS = 400


def ordnance(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ordnance.cli.app", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "ORDNANCE_KEYS": str(tmp_path / "keys"),
        "ORDNANCE_DB": str(tmp_path / "games.db"),
        "ORDNANCE_DATA": str(tmp_path / "data"),
        "HOME": str(tmp_path),
        "COLUMNS": "80",
        "TERM": "xterm",
    }


def scenario(tmp_path: Path, dice: str) -> Path:
    # Two Game Turns of the five: the same game, played to its end in a test's time.
    text = SCENARIO.read_text(encoding="utf-8").replace("dice: fair", f"dice: {dice}")
    text = text.replace("\nturns: 5 ", "\nturns: 2 ")
    assert "\nturns: 2 " in text
    path = tmp_path / f"ambush-{dice}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def new_game(env: dict[str, str], tmp_path: Path, dice: str, *server: str) -> tuple[str, dict]:
    made = ordnance(env, "game", "new", str(scenario(tmp_path, dice)), *server, "--json")
    assert made.returncode == 0, made.stderr
    data = json.loads(made.stdout)
    for side, token in data["tokens"].items():
        path = tmp_path / f"{side}.token"
        path.write_text(token + "\n", encoding="utf-8")
        path.chmod(0o600)
    return data["game"], data


def transcript() -> TextIO | None:
    """Where the terminal's output is copied to: the file ``$PLAY_LOG`` (to read a failure)."""
    path = os.environ.get("PLAY_LOG")
    return None if not path else open(path, "a", encoding="utf-8")


def spawn(env: dict[str, str], *args: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "ordnance.cli.app", "game", "play", *args],
        env=env,
        encoding="utf-8",
        timeout=40,
        dimensions=(40, 80),
        logfile=transcript(),
    )


def choose(listing: str, child: pexpect.spawn) -> str:
    """The player's choice: 'phase next' or 'pass' when the prompt lists it, else the first
    action of 'actions' (an allocation of Casualty Points, a rally...)."""
    offered = [part.strip() for part in " ".join(listing.split()).split(",")]
    for wanted in ("phase next", "pass", "assign-cp --auto"):
        if wanted in offered:
            return wanted
    child.sendline("actions")
    child.expect_exact(PROMPT)
    listed = [line.strip() for line in child.before.splitlines()[1:] if line.startswith("  ")]
    assert listed and listed[0] != "(none)", child.before
    return listed[0]


def play_to_the_end(child: pexpect.spawn, dice: random.Random | None) -> str:
    """Answer the loop until the game ends; everything it printed."""
    said: list[str] = []
    listing = ""
    tried: set[str] = set()
    for _ in range(MAX_PROMPTS):
        found = child.expect([PROMPT, DICE, pexpect.EOF])
        said.append(child.before)
        if found == 2:
            return "".join(said)
        if found == 1:
            assert dice is not None, "a fair game asked for dice: " + child.before
            said.append(child.after)
            two = child.match.group(1) == "W,C"
            roll = [dice.randint(1, 6) for _ in range(2 if two else 1)]
            child.sendline(",".join(map(str, roll)))
            continue
        listed = ACTIONS.findall(child.before)
        if listed:
            listing = listed[-1]
        for word in ("help", "fire", "undo"):
            if word not in tried and tryout(child, word, listing, said):
                tried.add(word)
                break
        else:
            child.sendline(choose(listing, child))
    raise AssertionError("the game did not end: " + "".join(said)[-2000:])


def tryout(child: pexpect.spawn, word: str, listing: str, said: list[str]) -> bool:
    """The loop's own words, once each where they fit; True when one was tried."""
    if word == "help":
        child.send("pha\t")  # Tab completes the game's command word
        child.expect_exact("phase")
        child.sendcontrol("u")
        child.send("move sher\t")  # and a unit's name
        child.expect_exact("sherman")
        child.sendcontrol("u")
        child.sendline("help")
        child.expect_exact(PROMPT)
        assert "? COMMAND" in child.before and "The game's commands: phase" in child.before
        child.sendline("? fire a1,a2,sgt --at E5")  # the command phase: refused, with its rule
        child.expect_exact(PROMPT)
        assert "refused by V&V r. 14.5 (VV.AP-phases)" in child.before
        child.sendline("log 2")
        child.expect_exact("starts: Hedgerow ambush")  # the prompt after it: the caller's
        return True
    if word == "fire" and "fire ..." in listing and "a1,a2,sgt" not in said[-1]:
        child.sendline("fire a1,a2,sgt --at E5 ?")  # the odds before any roll; nothing sent
        child.expect_exact(PROMPT)
        rows = re.findall(r"(\d+)/(\d+)\s+\d+\.\d\d%", child.before)
        assert "Odds of 'fire a1,a2,sgt --at E5'" in child.before, child.before
        assert sum(int(a) / int(b) for a, b in rows) == pytest.approx(1)
        child.sendline("status")
        child.expect_exact("Played by the AI: german")
        child.expect_exact("american may:")
        child.expect_exact(PROMPT)
        child.sendline("fire a1,a2,sgt --at E5")  # physical dice: the player's own asked next
        return True
    if word == "undo" and listing.startswith("phase next") and "fire ..." in listing:
        child.sendline("phase next")
        child.expect_exact(PROMPT)
        child.sendline("undo")
        child.expect_exact("undo: american took back entry")
        return True
    return False


def assert_over(env: dict[str, str], game: str, *server: str) -> None:
    done = ordnance(env, "game", "status", game, *server, "--json")
    status = json.loads(done.stdout)
    assert status["over"] is True
    assert status["state"]["winner"] in ("american", "german")


def local_game(env: dict[str, str], tmp_path: Path, dice: str) -> None:
    game, _ = new_game(env, tmp_path, dice)
    child = spawn(
        env,
        game,
        "--side",
        "american",
        "--token-file",
        str(tmp_path / "american.token"),
        "--ai-token-file",
        str(tmp_path / "german.token"),
    )
    said = play_to_the_end(child, random.Random(29) if dice == "physical" else None)
    child.close()
    assert child.exitstatus == 0, said[-2000:]
    assert "the game is over" in said
    assert re.search(r"\* german \S+ (fired|moved)", said), "the AI's actions are not shown"
    if dice == "physical":
        assert "The AI (german) plays" in said  # its rolls were asked of the player
        assert "roll 1 - AP attack by a1,a2,sgt at E5 (two dice), as W,C:" in said
    assert_over(env, game)


@pytest.mark.clause("SYS.odds", "SYS.dice", "SYS.record", "VV.AP-phases")
def test_a_game_against_the_ai_to_its_end_with_fair_dice(env, tmp_path):
    local_game(env, tmp_path, "fair")


@pytest.mark.clause("SYS.odds", "SYS.dice", "SYS.record", "VV.AP-phases")
def test_a_game_against_the_ai_to_its_end_with_physical_dice(env, tmp_path):
    local_game(env, tmp_path, "physical")


@pytest.fixture
def served(env: dict[str, str], tmp_path: Path) -> Iterator[str]:
    """``ordnance serve`` on a free port, a database and AI key file in tmp_path."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = (tmp_path / "serve.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "ordnance.cli.app", "serve", "--port", str(port),
         "--db", str(tmp_path / "served.db"), "--ai-keys", str(tmp_path),
         "--limit-actions", "0"],
        env=env, stdout=log, stderr=log, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 90  # a loaded machine starts it slowly
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None, (tmp_path / "serve.log").read_text()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
        log.close()


@pytest.mark.parametrize("dice", ["fair", "physical"])
@pytest.mark.clause("SYS.odds", "SYS.dice", "SYS.record", "VV.AP-phases")
def test_a_game_against_the_servers_ai_to_its_end(env, tmp_path, served, dice):
    # The API's ai_sides asks the server's AI to play german ('game new --server' does not).
    body = {
        "scenario": scenario(tmp_path, dice).read_text(encoding="utf-8"),
        "ai_sides": ["german"],
    }
    made = httpx.post(f"{served}/api/games", json=body, timeout=30).json()
    assert set(made["tokens"]) == {"american"}  # the server keeps the AI side's token
    game = made["game"]
    (tmp_path / "american.token").write_text(made["tokens"]["american"], encoding="utf-8")
    child = spawn(
        env,
        game,
        "--side",
        "american",
        "--token-file",
        str(tmp_path / "american.token"),
        "--server",
        served,
    )
    said = play_to_the_end(child, random.Random(7) if dice == "physical" else None)
    child.close()
    assert child.exitstatus == 0, said[-2000:]
    assert "the game is over" in said
    assert re.search(r"\* german \S+ (fired|moved)", said), "the AI's actions are not shown"
    assert_over(env, game, "--server", served)


@pytest.mark.parametrize("how", ["game play", "game ai --keep"])
@pytest.mark.clause("SYS.record", "VV.AP-phases")
def test_after_the_ai_token_is_kept_game_do_lets_the_ai_answer(env, tmp_path, how):
    game, _ = new_game(env, tmp_path, "fair")
    us, de = str(tmp_path / "american.token"), str(tmp_path / "german.token")
    if how == "game play":
        child = spawn(env, game, "--side", "american", "--token-file", us, "--ai-token-file", de)
        child.expect_exact(PROMPT)
        child.sendeof()  # Ctrl-D leaves the loop as 'quit' does
        child.expect_exact("Left the game")
        child.expect(pexpect.EOF)
    else:
        kept = ordnance(env, "game", "ai", game, "--side", "german", "--token-file", de, "--keep")
        assert kept.returncode == 0, kept.stderr
    assert (tmp_path / "keys" / "ai_tokens.json").stat().st_mode & 0o777 == 0o600
    do = ("game", "do", game, "--side", "american", "--token-file", us, "--json")
    for _ in range(3):  # command, fire, then the movement phase: the AI's to answer
        done = ordnance(env, *do, "phase", "next")
        assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["ai"]["commands"], "the AI did not answer the command"
    status = json.loads(ordnance(env, "game", "status", game, "--json").stdout)
    assert status["to_move"] == "american"


@pytest.mark.clause("SYS.record")
def test_refusals_before_the_loop_are_one_line(env, tmp_path):
    game, _ = new_game(env, tmp_path, "fair")
    us, de = str(tmp_path / "american.token"), str(tmp_path / "german.token")
    base = ("game", "play", game, "--side", "american", "--token-file", us)
    cases = [
        ((*base, "--ai-token-file", us), "not the token of a side the AI plays here (german)"),
        ((*base, "--ai-token-file", de, "--server", "http://127.0.0.1:1"), "plays its AI sides"),
        (("game", "play", game, "--side", "german", "--token-file", us), "not authorized"),
        ((*base[:3], "--side", "russian", "--token-file", us), "russian"),
    ]
    for args, words in cases:
        done = ordnance(env, *args)
        assert done.returncode in (1, 2), (args, done.stdout)
        assert len(done.stderr.splitlines()) == 1 and words in done.stderr, done.stderr


def test_the_prompt_lists_the_actions_within_80_columns():
    actions = ["phase next", *(f"move a{i} --to E{i}" for i in range(30)), "pass"]
    lines = actions_lines(actions, 80)
    assert lines == ["You may: phase next, pass, move ... (30 ways)"]
    many = [f"verb{i} x" for i in range(40)]
    assert all(len(line) <= 80 for line in actions_lines(many, 80))


@pytest.mark.clause("SYS.record")
def test_the_other_sides_actions_are_shown_as_they_come_from_the_database(env, tmp_path):
    game, _ = new_game(env, tmp_path, "fair")
    us, de = str(tmp_path / "american.token"), str(tmp_path / "german.token")
    # The German player at the loop (no AI plays here): the American acts from elsewhere.
    child = spawn(env, game, "--side", "german", "--token-file", de)
    child.expect_exact("american to act. Waiting...")
    done = ordnance(
        env, "game", "do", game, "--side", "american", "--token-file", us, "phase", "next"
    )
    assert done.returncode == 0, done.stderr
    child.expect_exact("* american ended the phase")
    child.expect_exact("Waiting...")
    child.sendintr()  # Ctrl-C: the prompt, for the loop's words, while the other side acts
    child.expect_exact("german> ")
    child.sendline("fire g1 --at D8")
    child.expect_exact("Not your decision now: american is to act.")
    child.expect_exact("Waiting...")  # one line at the prompt, then the loop waits again
    child.sendintr()
    child.expect_exact("german> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
