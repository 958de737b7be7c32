"""Every sentence the CLI prints about a game reads as a sentence (issue 29).

Each event kind of each ruleset (the kinds its state module's table lists) is said by the
ruleset's own words, never by the data dump kept for a kind nobody worded ("fired: ammo AP,
smoke no, unit pak"); each log entry type reads in words; and the human output of games played
through the CLI, at 80 columns, has no line over 80 and none of the faults the issue found.
"""

from __future__ import annotations

import importlib
import json
import random
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from ordnance.cli.output import wrap_sentences
from ordnance.core.event_words import event_words
from ordnance.core.ruleset import Event
from ordnance.game.entries import TYPES, make_entry
from ordnance.game.entry_words import entry_words
from ordnance.game.news import entry_sentence
from ordnance.game.registry import ruleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
STATE_MODULES = {
    "asl": "ordnance.asl.game.state",
    "lnl": "ordnance.lnl.game.state",
    "vv": "ordnance.vv.game.state",
}
# What never reads as a sentence: a Python or JSON value, a "none (none)" row, a removal
# time glued to "goes", a "key value, key value" dump of an event's data.
RAW = re.compile(r"[{}\[\]]|\bNone\b|\bTrue\b|\bFalse\b|'[a-z_]+':")
FAULTS = re.compile(r"none \(none\)|\bgoes (flips|owner|end)\b|\bundoes entry\b")
DUMP = re.compile(r"\b[a-z-]+: (?:[a-z][a-z ]* [^,;:\s]+, )+[a-z][a-z ]* [^,;:\s]+")

# Data for every kind, as the rulesets make it (each branch of a sentence at least once).
SAMPLES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "asl": [
        ("phase", {"turn": 2, "player": "german", "phase": "PFPh"}),
        ("record", {"unit": "t34", "ammo": "A", "outcome": "used"}),
        ("record", {"unit": "t34", "ammo": "A", "outcome": "used-last"}),
        ("record", {"unit": "t34", "ammo": "A", "outcome": "none"}),
        ("fired", {"unit": "pak", "ammo": "AP", "smoke": False}),
        ("fired", {"unit": "pak", "ammo": "s", "smoke": True, "rof_kept": True}),
        ("malfunction", {"unit": "pak"}),
        ("moved", {"unit": "m24", "hex": "4G5", "ca": "E", "mp": 2, "seen_by": ["pz4"]}),
        ("moved", {"unit": "m24"}),
        ("manned", {"unit": "at45", "seen_by": ["t34"]}),
        ("marked", {"unit": "m10", "ce": True, "motion": False, "crew": "stunned"}),
        ("dispensed", {"unit": "m24", "device": "sM", "type": "sM8", "fired": True, "mp": 1,
                       "ca": "E", "seen_by": ["pz4", "jgdpz"]}),
        ("dispensed", {"unit": "pz4", "device": "sD", "type": "sD7", "fired": False, "mp": 0}),
        ("dispensed", {"unit": "jgdpz", "device": "sN", "type": "sN7", "fired": True, "mp": 0,
                       "he_in_cc": True}),
        ("smoke", {"unit": "pak", "side": "german", "hex": "4E4", "marker": "smoke",
                   "removal": "flips at owner's next PFPh"}),
        ("smoke", {"unit": "m24", "side": "american", "hex": "4I5",
                   "marker": "dispersed smoke", "removal": "owner's next PFPh"}),
        ("smoke", {"unit": "m10", "side": "american", "hex": "4F5", "marker": "grenade smoke",
                   "removal": "end of this MPh"}),
        ("over", {}),
    ],
    "lnl": [
        ("phase", {"turn": 1, "phase": "operations", "impulse": "german"}),
        ("impulse", {"side": "american", "passes": 0}),
        ("fired", {"unit": "pz4", "weapon": "wp", "at": "H3"}),
        ("fired", {"unit": "stug", "weapon": "mg", "at": "H3"}),
        ("acquired-removed", {"unit": "pz4"}),
        ("pending", {"unit": "pz4", "side": "german", "chooser": "american", "kind": "smoke",
                     "result": "short", "candidates": ["E5", "E6"]}),
        ("chosen", {"hex": "E6"}),
        ("marker-placed", {"hex": "H3", "marker": "wp"}),
        ("marker-flipped", {"hex": "E6", "marker": "smoke 1", "to": "smoke 2"}),
        ("marker-removed", {"hex": "E6", "marker": "smoke 2"}),
        ("pool", {"side": "german", "kind": "wp", "left": 0, "removed": True}),
        ("pool", {"side": "german", "kind": "smoke", "left": 2}),
        ("wp-check", {"unit": "sq1", "hex": "H3", "total": 3, "result": "no effect"}),
        ("moved", {"unit": "sq2", "hex": "L4"}),
        ("over", {}),
    ],
    "vv": [
        ("phase", {"turn": 1, "player": "american", "phase": "movement"}),
        ("rally", {"unit": "a3", "rallied": True, "auto": False}),
        ("rally", {"unit": "a3", "rallied": False, "auto": True}),
        ("fired", {"side": "american", "units": ["a1", "a2", "sgt"], "key": "infantry@D8",
                   "target": "E5", "grenades": ["a1"], "satchels": []}),
        ("attack", {"side": "american", "defender": "german", "target": "E5", "cp": 2,
                    "units": ["g1", "lt"]}),
        ("attack", {"side": "american", "defender": "german", "target": "E5", "cp": 0,
                    "units": ["g1"]}),
        ("casualty", {"unit": "g1", "result": "reduced+pinned"}),
        ("allocated", {}),
        ("moved", {"units": ["sherman"], "to": "G8", "mp": {"sherman": 2}, "assault": False,
                   "facing": "NW"}),
        ("window", {"hex": "G8", "movers": ["sherman"]}),
        ("window-closed", {}),
        ("cleanup", {}),
        ("over", {"result": {"points": {"german": 4, "american": 2}, "winner": "german"}}),
    ],
}  # fmt: skip


def listed_kinds(module: str) -> set[str]:
    """The kinds of a state module's event table (its docstring)."""
    doc = importlib.import_module(module).__doc__ or ""
    return set(re.findall(r"^``([a-z-]+)``", doc, re.MULTILINE))


def faults(text: str) -> list[str]:
    """What in ``text`` does not read as a sentence."""
    found = [m.group(0) for pattern in (RAW, FAULTS, DUMP) for m in pattern.finditer(text)]
    return found


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("name", sorted(STATE_MODULES))
def test_every_event_kind_has_a_sentence_of_its_ruleset(name):
    kinds = listed_kinds(STATE_MODULES[name])
    assert kinds and {kind for kind, _ in SAMPLES[name]} == kinds
    rules = ruleset(name)
    for kind, data in SAMPLES[name]:
        said = rules.describe_event(Event(kind, data))
        assert said != event_words(kind, data), (kind, said)  # not the data dump
        assert said.endswith("."), said
        assert faults(said) == [], said


@pytest.mark.clause("SYS.record")
def test_the_issues_sentences_read_as_sentences():
    asl = ruleset("asl")
    flips = next(d for k, d in SAMPLES["asl"] if k == "smoke" and "flips" in d["removal"])
    said = asl.describe_event(Event("smoke", flips))
    assert "goes flips" not in said and "turns Dispersed" in said
    fired = asl.describe_event(Event("fired", {"unit": "pak", "ammo": "AP", "smoke": False}))
    assert fired == "pak fired AP this phase."
    assert faults("fired: ammo AP, smoke no, unit pak") and faults("│ none (none) │ 1/4 │")


def _entries() -> list[Any]:
    command = {"command": {"side": "german", "verb": "phase", "text": "phase next",
                           "args": {}}, "rolls": [], "events": [], "ruling": {}}  # fmt: skip
    signer = {"public_key": "ab" * 32, "fingerprint": "0123456789abcdef"}
    bodies = {
        "start": {"game": "g1", "scenario": {"name": "A test", "ruleset": "asl"}},
        "command": command,
        "undo": {"undone": 1},
        "seed": {"epoch": 0},
        "consent": {"epoch": 0},
        "reveal": {"epoch": 0, "seed": "cd" * 32},
        "resume": {"epoch": 1, "reason": "the seed was revealed", "signer": signer},
        "join": {"signer": signer},
        "propose": command,
        "answer": {"proposal": 3},
        "refused": {**command, "reason": "the shot is out of range"},
    }
    assert set(bodies) == set(TYPES)
    unsided = ("start", "reveal", "resume")
    return [
        make_entry(seq, kind, None if kind in unsided else "german", body, "0" * 64)
        for seq, (kind, body) in enumerate(bodies.items())
    ]


@pytest.mark.clause("SYS.record")
def test_every_entry_type_reads_in_words():
    log = _entries()
    for entry in log:
        for said in (entry_words(entry), entry_sentence(entry, ruleset("asl"), log)):
            assert said and faults(said) == [], (entry.type, said)
    undo = next(e for e in log if e.type == "undo")
    assert entry_words(undo) == "german took back entry 1"


def _do(cli, db, game, acting, words):
    """Send a command; in a game of entered dice, add each roll it asks for (a dr: one die)."""
    side, token = acting
    args = ["game", "do", game, "--side", side, "--token-file", token, "--db", db, *words]
    done = cli(*args)
    for _ in range(8):
        asked = re.search(r"give --dice for (.+)$", done.err.strip())
        if done.code != 2 or asked is None:
            break
        args += ["--dice", "4" if re.search(r"\bdr\b", asked.group(1)) else "2,5"]
        done = cli(*args)
    return done


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_games_played_through_the_cli_print_sentences_in_80_columns(
    example, cli, tmp_path, token_file, monkeypatch
):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("ORDNANCE_RECEIPTS", str(tmp_path / "receipts"))
    monkeypatch.setenv("ORDNANCE_KEYS", str(tmp_path / "keys"))
    wrap_sentences(True)  # as a person reads it: long sentences wrap, tables must fit
    try:
        db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
        made = cli("game", "new", str(example), "--db", db, "--json").json
        game, files = made["game"], {s: token_file(t) for s, t in made["tokens"].items()}
        shown = [cli("game", "list", "--db", db).out]
        rng = random.Random(example.stem)
        undone = False
        for _ in range(24):
            status = cli("game", "status", game, "--db", db, "--json").json
            side = status["to_move"]
            actions = status["legal_actions"].get(side, []) if side else []
            if status["over"] or not actions:
                break
            rng.shuffle(actions)
            done = _do(cli, db, game, (side, files[side]), shlex.split(actions[0]))
            shown.append(done.out)
            if done.code == 0 and not undone and json.dumps(done.out).count("Roll") == 0:
                undo = cli("game", "undo", game, "--side", side, "--token-file", files[side],
                           "--db", db)  # fmt: skip
                if undo.code == 0:
                    undone = True
                    shown.append(undo.out)
                    assert "took back entry" in undo.out
        shown.append(cli("game", "status", game, "--db", db).out)
        shown.append(cli("game", "log", game, "--db", db).out)
    finally:
        wrap_sentences(None)
    text = "\n".join(shown)
    (tmp_path / "shown-80.txt").write_text(text, encoding="utf-8")
    wide = [line for line in text.splitlines() if len(line) > 80]
    assert wide == []
    assert [(line, faults(line)) for line in text.splitlines() if faults(line)] == []


@pytest.mark.clause("LNL.S-miss", "SYS.odds")
def test_a_shell_that_places_nothing_reads_in_words(cli):
    shown = cli("lnl", "odds", "shell", "lnl-farm", "--from", "D5", "--to", "H3", "--to-hit", "9")
    assert shown.code == 0, shown.err
    assert faults(shown.out) == [] and "by reason" not in shown.out
    assert re.search(r"│ nothing placed +│ +1/4 │", shown.out), shown.out
    assert "Nothing placed: 1/12 on a double, 1/6 with no clear LOS" in shown.out
