"""What happened, in words: every log entry of every bundled game as one sentence, the page's
notice after an action or a push, the log's newest item, the last action marked on the map,
and the AI's turn played without the player's clicks where the player has no choice."""

from __future__ import annotations

import random
import re
import shlex
import textwrap
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from ordnance.core.errors import OrdnanceError
from ordnance.game.entries import Entry, make_entry
from ordnance.game.news import entry_sentence, news_since, sentences
from ordnance.game.registry import ruleset
from ordnance.game.scenario import load_scenario_file
from ordnance.game.service import GameService
from ordnance.web.news import log_sentences
from ordnance.web.table import Table

from .conftest import create_game, csrf_of, version_of

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BUNDLED = sorted(p.stem for p in EXAMPLES.glob("*.yaml"))
# What a sentence never shows: a Python or JSON value as it is.
RAW = re.compile(r"[{}\[\]]|\bNone\b|\bTrue\b|\bFalse\b|'[a-z_]+':")
# The event kinds each ruleset's games reach when played (its state module lists them all);
# kinds only a ruling's rare branch makes are built below from their documented data.
REACHED = {
    "asl": {"phase", "fired", "record", "manned", "moved", "over"},
    "lnl": {"phase", "impulse", "fired", "moved", "marker-placed", "marker-removed", "pool"},
    "vv": {"phase", "fired", "attack", "casualty", "allocated", "moved", "window", "cleanup"},
}
RARE = {
    "asl": [
        ("malfunction", {"unit": "pak"}),
        ("marked", {"unit": "m10", "ce": True, "motion": False}),
        ("dispensed", {"unit": "m10", "device": "sD", "type": "sD7", "fired": True, "mp": 1}),
        ("smoke", {"unit": "m10", "side": "american", "hex": "4F5", "marker": "smoke",
                   "removal": "at the end of the Player Turn"}),
    ],
    "lnl": [
        ("acquired-removed", {"unit": "pz4"}),
        ("chosen", {"hex": "H4"}),
        ("wp-check", {"unit": "sq1", "hex": "I5", "total": 7}),
        ("marker-flipped", {"hex": "G5", "marker": "smoke 1", "to": "smoke 2"}),
        ("over", {}),
    ],
    "vv": [
        ("rally", {"unit": "a3", "rallied": True, "auto": False}),
        ("window-closed", {}),
        ("over", {"result": {"points": {"german": 4, "american": 2}, "winner": "german"}}),
    ],
}  # fmt: skip


def _play(service: GameService, example: str, seed: int, steps: int) -> list[Entry]:
    """A game of ``example`` played by a player who tries the verbs it has used least."""
    made = service.new_game(EXAMPLES / f"{example}.yaml", server_seed=bytes([seed]) * 32)
    rng = random.Random(seed)
    used: Counter[str] = Counter()
    for step in range(steps):
        status = service.status(made.game)
        side = status["to_move"]
        actions = status["legal_actions"].get(side, []) if side else []
        if side is None or status["over"] or not actions:
            break
        rng.shuffle(actions)
        action = min(actions, key=lambda a: used[a.split()[0]] + (a == "phase next") * 3)
        used[action.split()[0]] += 1
        try:
            service.do(made.game, side, made.tokens[side], shlex.split(action))
        except OrdnanceError:
            continue
        if step % 11 == 10 and service.status(made.game)["undoable"]:
            who = service.status(made.game)["undoable"]["side"]
            service.undo(made.game, who, made.tokens[who])
    return service.log(made.game)


def _command(side: str, text: str, events: list[tuple[str, dict[str, object]]]) -> Entry:
    words = text.split()
    body = {
        "command": {"side": side, "verb": words[0], "text": text, "args": {"unit": words[1]}},
        "rolls": [{"faces": [3, 4], "purpose": "a roll", "index": 0}],
        "events": [{"kind": k, "data": d} for k, d in events],
        "ruling": {},
    }
    return make_entry(9, "command", side, body, "0" * 64)


@pytest.mark.clause("SYS.record")
def test_every_event_kind_of_every_bundled_game_reads_as_a_sentence(tmp_path):
    service = GameService(f"sqlite:///{tmp_path / 'games.db'}")
    shown: list[str] = []
    kinds: dict[str, set[str]] = {}
    for example in BUNDLED:
        name = load_scenario_file(EXAMPLES / f"{example}.yaml").ruleset
        rules = ruleset(name)
        shown.append(f"== {example}")
        for seed in (1, 2):
            log = _play(service, example, seed, 90)
            for entry in log:
                said = entry_sentence(entry, rules, log)
                shown.append(f"{entry.seq:3} {said}")
                assert said and not RAW.search(said), said
                if entry.type == "command":
                    assert said.startswith(f"{entry.side} "), said
                    for roll in entry.body["rolls"]:
                        assert ",".join(map(str, roll["faces"])) in said, said
                    kinds.setdefault(name, set()).update(e["kind"] for e in entry.body["events"])
                if entry.type == "undo":
                    taken = log[entry.body["undone"]].body["command"]["text"]
                    assert said == (
                        f"undo: {entry.side} took back entry {entry.body['undone']} ({taken})"
                    )
        # A verb of this game whose event only repeats it (left out): ASL's and V&V's fire,
        # LnLT's mg.
        verb = "fire" if "fire" in rules.commands.verbs else "mg"
        fired = "pak fired" if verb == "fire" else "pak fired its MGs"
        for kind, data in RARE[name]:
            said = entry_sentence(_command("german", f"{verb} pak", [(kind, data)]), rules)
            shown.append(f"  * {said}")
            assert said.startswith(f"german {fired}: DR 3,4 = 7; ") and not RAW.search(said)
            kinds.setdefault(name, set()).add(kind)
    for name, reached in REACHED.items():
        assert reached <= kinds[name], (name, reached - kinds[name])
    # Read at 80 columns (kept beside the screenshots when ORDNANCE_ARTIFACTS is set).
    text = "\n".join(textwrap.fill(s, 80, subsequent_indent="      ") for s in shown)
    (tmp_path / "news-80.txt").write_text(text, encoding="utf-8")
    print(text)


@pytest.mark.clause("SYS.record")
def test_news_since_a_version_is_bounded_newest_last(tmp_path):
    service = GameService(f"sqlite:///{tmp_path / 'games.db'}")
    log = _play(service, "vv-meeting-engagement", 3, 30)
    rules = ruleset("vv")
    assert news_since(log, len(log), rules) == []
    last = news_since(log, len(log) - 1, rules)
    assert last == [entry_sentence(log[-1], rules, log)]
    many = news_since(log, 1, rules, limit=5)
    assert many[0] == f"({len(log) - 1 - 5} earlier entries in the log)"
    assert many[1:] == [entry_sentence(e, rules, log) for e in log[-5:]]


@pytest.mark.clause("SYS.record")
def test_the_page_log_tells_the_newest_entries_only_and_names_an_undone_command(tmp_path):
    service = GameService(f"sqlite:///{tmp_path / 'games.db'}")
    log = _play(service, "vv-meeting-engagement", 3, 30)
    taken = next(e for e in log if e.type == "command")
    undo = make_entry(len(log), "undo", taken.side, {"undone": taken.seq}, "0" * 64)
    log = [*log, undo]
    rules = ruleset("vv")
    shown = log_sentences(SimpleNamespace(rules=rules), log, 5)  # type: ignore[arg-type]
    assert shown == sentences(log, rules)[-5:][::-1]
    # The undo's command lies outside the five told, and is still named.
    assert taken not in log[-5:]
    assert shown[0] == (
        undo.seq,
        f"undo: {taken.side} took back entry {taken.seq} ({taken.body['command']['text']})",
    )


@pytest.mark.clause("SYS.record")
def test_the_notice_and_the_log_say_what_happened_and_the_map_marks_it(client):
    game, links, spectator = create_game(client, "vv-hedgerow-ambush", ai="german")
    page = client.get(links["american"])
    base = f"/games/{game}/american"
    csrf, v = csrf_of(page.text), version_of(page.text)
    client.post(f"{base}/do", data={"csrf": csrf, "version": v, "action": "phase next"})
    v = version_of(client.get(base).text)
    fired = client.post(
        f"{base}/do", data={"csrf": csrf, "version": v, "action": "fire a1,a2,sgt --at E5"}
    )
    notice = re.search(r'<div id="notice"[^>]*>(.*?)</div>', fired.text, re.S)
    assert notice is not None
    lines = re.findall(r'<p class="notice news">(.*?)</p>', notice.group(1))
    # Mine first (the dice as rolled): the answer does not wait for the AI.
    assert lines[0].startswith("american a1, a2 and sgt fired at E5: DR ")
    # Then the AI's answer, in the background, when the attack left CP for it.
    assert client.app.state.table.settle(game)
    fired = client.get(base, params={"seen": v})
    lines = re.findall(r'<p class="notice news">(.*?)</p>', fired.text)
    assert lines[0].startswith("american a1, a2 and sgt fired at E5: DR ")
    if "has no effect" not in lines[0]:
        assert lines[1].startswith("german took the Casualty Points"), lines
    newest = re.search(r'<ol reversed class="entries"[^>]*><li value="\d+">(.*?)</li>', fired.text)
    assert newest is not None and newest.group(1) == lines[-1]
    # The map marks the last action: the hexes and the units it named.
    main = re.search(r'<main id="main"([^>]*)>', fired.text)
    assert main is not None and 'data-last-hexes="' in main.group(1)
    hexes = re.search(r'data-last-hexes="([^"]*)"', main.group(1))
    assert hexes is not None and "E5" in hexes.group(1).split()
    # A spectator's page after a push: what happened since the version it showed.
    watched = client.get(spectator, params={"seen": v})
    said = re.findall(r'<p class="notice news">(.*?)</p>', watched.text)
    assert said == lines
    assert (
        client.get(spectator, params={"seen": version_of(watched.text)}).text.count(
            'class="notice news"'
        )
        == 0
    )


@pytest.mark.clause("SYS.record")
def test_the_ai_turn_asks_the_player_nothing_that_is_no_choice(tmp_path):
    """V&V against the AI: the player is never left to click 'pass' or 'phase next' as its
    only action in the AI's Player Turn; real choices (Opportunity Fire, CP) are still asked."""
    table = Table(f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "ai.json")
    scenario = load_scenario_file(EXAMPLES / "vv-hedgerow-ambush.yaml")
    made = table.create(scenario, ["german"])
    rng = random.Random(5)
    asked: list[list[str]] = []
    for _ in range(300):
        assert table.settle(made.game)  # the AI answers each command in the background
        status = table.call(lambda s: s.status(made.game, "american"))
        if status["over"]:
            break
        actions = status["legal_actions"]["american"]
        if status["state"]["player"] == "german":
            asked.append(actions)
        action = rng.choice(actions)
        table.do(made.game, "american", made.tokens["american"], shlex.split(action), expect=None)
    assert status["over"]
    assert asked, "the player was never asked anything in the AI's turns"
    assert not [a for a in asked if a in (["pass"], ["phase next"])]
    log = table.call(lambda s: s.log(made.game))
    passes = [e for e in log if e.type == "command" and e.body["command"]["text"] == "pass"]
    passes = [e for e in passes if e.side == "american"]
    assert passes, "the player's forced passes are in the log, as its own commands"


@pytest.mark.clause("SYS.record")
def test_the_map_marks_the_last_command_still_standing(tmp_path):
    from ordnance.web.news import last_action  # noqa: PLC0415

    service = GameService(f"sqlite:///{tmp_path / 'games.db'}")
    made = service.new_game(EXAMPLES / "vv-meeting-engagement.yaml", server_seed=b"m" * 32)
    token = made.tokens["american"]
    for words in (["phase", "next"], ["phase", "next"], ["move", "a1", "--to", "C9"]):
        service.do(made.game, "american", token, words)
    game, log = service.game(made.game), service.log(made.game)
    marked = last_action(game, log)
    assert marked is not None and marked.units == ("a1",) and marked.hexes == ("C9",)
    service.do(made.game, "american", token, ["move", "a2", "--to", "D9"])
    service.undo(made.game, "american", token)
    # The undone move is not marked: the one before it is, where its unit stands now.
    marked = last_action(service.game(made.game), service.log(made.game))
    assert marked is not None and marked.seq == log[-1].seq and marked.hexes == ("C9",)
