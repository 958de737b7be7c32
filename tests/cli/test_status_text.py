"""``game status`` for people: golden text of one position per bundled example, at 80 columns.

Set ``ORDNANCE_UPDATE_GOLDEN=1`` to rewrite the files after a deliberate change (then read
the diff).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from rich.console import Console
from tests.maps.played import Played

from ordnance.cli.status_text import status_renderables

GOLDEN = Path(__file__).parent / "golden"
EXAMPLES = ("asl-d13-demo", "lnl-smoke-wp", "vv-hedgerow-ambush")


def status_of(played: Played) -> dict:
    """What the service's ``status`` returns, with a fixed id and version."""
    rules, state = played.rules, played.state
    to_move = rules.to_move(state)
    return {
        "game": "golden",
        "ruleset": played.scenario.ruleset,
        "scenario": played.scenario.name,
        "version": len(played.rulings) + 1,
        "to_move": to_move,
        "over": rules.is_over(state),
        "legal_actions": {to_move: list(rules.legal_actions(state, to_move))} if to_move else {},
        "state": rules.view(state),
    }


def text_of(status: dict) -> str:
    sink = io.StringIO()
    console = Console(file=sink, width=80, color_system=None, highlight=False)
    for part in status_renderables(status):
        console.print(part)
    return "\n".join(line.rstrip() for line in sink.getvalue().splitlines()) + "\n"


@pytest.mark.parametrize("name", EXAMPLES)
def test_status_text_is_golden(name):
    text = text_of(status_of(Played(name)))
    golden = GOLDEN / f"status-{name}.txt"
    if os.environ.get("ORDNANCE_UPDATE_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("moves", [0, 2, None])
def test_status_text_has_no_reprs_and_fits_80_columns(name, moves):
    text = text_of(status_of(Played(name, moves)))
    assert "{" not in text and "'" not in text and "[" not in text
    assert "None" not in text and "True" not in text and "False" not in text
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "may:" in text or "may do nothing" in text


def test_waiting_decisions_are_said_in_words():
    lnl = status_of(Played("lnl-smoke-wp"))
    landing = {"unit": "pz4", "side": "german", "chooser": "american", "kind": "smoke"}
    lnl["state"]["pending"] = {**landing, "result": "short", "candidates": ["E5", "E6"]}
    lnl["state"]["action"] = {"unit": "pz4", "shell": "smoke"}
    text = " ".join(text_of(lnl).split())
    assert "american chooses where the smoke shell of pz4 lands (short), among E5 and E6" in text
    assert "The action of pz4 is open after its smoke shell" in text
    vv = status_of(Played("vv-hedgerow-ambush", 2))
    text = " ".join(text_of(vv).split())
    assert "Waiting: 3 CP in E5 from the attack of american, for german to assign" in text
    assert "german may: assign-cp --auto" in text


@pytest.mark.clause("VV.AP-phases")
def test_vv_status_names_the_objectives_and_the_final_points():
    start = " ".join(text_of(status_of(Played("vv-hedgerow-ambush", 0))).split())
    assert "Victory: objectives H2 4 VP (nobody), I2 4 VP (nobody), I3 4 VP (nobody)" in start
    assert "a tie goes to german" in start
    over = status_of(Played("vv-hedgerow-ambush", 0))
    over["state"]["control"] = {"H2": "american"}
    over["state"]["result"] = {"points": {"american": 4, "german": 7}, "winner": "german"}
    end = " ".join(text_of(over).split())
    assert "H2 4 VP (american)" in end
    assert "Final points: american 4, german 7; german wins." in end
