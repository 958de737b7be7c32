"""What a board's first offers at a new version reuse, and that the reuse changes no ruling.

Lines of sight are kept per map and SMOKE (:func:`ordnance.asl.game.sight.visibility`), a
unit's priced steps, reaches and cheapest paths per ground (the map, the unit, the SMOKE's
hexes; :mod:`ordnance.asl.game.paths`), the enemy's hexes being read from each state. So a new
version (a phase, an enemy's move) or another game of the scenario builds no lines of sight and
prices no step again; SMOKE placed, or an enemy in the way, still changes what is offered.
The caches live as long as the process: each test counts what it causes, never from zero.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from ordnance.asl.game import AslRuleset
from ordnance.asl.game import offers as asl_offers
from ordnance.asl.game import paths as moves
from ordnance.asl.game.markers import FLIP_OWNER_NEXT_PFPH, SmokeMarker
from ordnance.asl.game.sight import live_map
from ordnance.asl.game.state import AslState, apply
from ordnance.asl.los import asl_los
from ordnance.asl.smoke import Phase
from ordnance.core.errors import IllegalAction
from ordnance.core.maps import visibility

D13 = Path(__file__).resolve().parents[2] / "examples" / "asl-d13-demo.yaml"


def in_phase(phase: Phase) -> tuple[AslRuleset, AslState]:
    """A fresh game of the D13 demo (its own sheet) in the American ``phase`` of turn 1."""
    rules = AslRuleset()
    state = rules.initial_state(rules.load_scenario(yaml.safe_load(D13.read_text("utf-8"))))
    return rules, apply(state, "phase", {"turn": 1, "player": "american", "phase": phase.value})


def counted(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    """A list that grows by one at each call of ``owner.name`` from now on."""
    calls: list[int] = []
    real = getattr(owner, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return calls


def smoke_hexes(rules: AslRuleset, state: AslState, unit: str) -> set[str]:
    return {o.hex for o in rules.offers(state, "american", unit) if "SMOKE" in o.note}


@pytest.mark.clause("C8.5-effect", "SYS.odds")
def test_a_new_game_and_version_build_no_lines_of_sight_and_smoke_builds_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules, first = in_phase(Phase.PFPH)
    before = smoke_hexes(rules, first, "m24")  # may build the map's lines of sight
    built = counted(monkeypatch, visibility.Visibility, "__init__")
    looked = counted(monkeypatch, asl_offers, "_seen_near")
    _, other_game = in_phase(Phase.PFPH)
    assert other_game.sheet is not first.sheet
    assert smoke_hexes(rules, other_game, "m24") == before
    assert not built  # another game of the map, and another version: the same lines
    assert not looked  # and what the M24's hex sees there is not looked for again

    here = first.status["m24"].hex
    assert here is not None
    near = sorted(h for h in first.sheet.board if 0 < here.distance(h) <= 2)
    smoked = replace(
        first, smoke=(SmokeMarker(near[0], "smoke", "m10", "american", FLIP_OWNER_NEXT_PFPH),)
    )
    offered = smoke_hexes(rules, smoked, "m24")
    assert len(built) == 1  # SMOKE changes the lines: they are judged again, once
    assert len(looked) == 1  # and what the hex sees, once
    assert smoke_hexes(rules, smoked, "m24") == offered and len(built) == 1
    # Exactly the hexes the ASL judge sees on the map with that SMOKE on it.
    game_map = live_map(smoked)
    assert game_map is not None
    seen = {
        smoked.sheet.label(h)
        for h in smoked.sheet.board
        if 0 < here.distance(h) <= 6 and asl_los(game_map, here, h).clear
    }
    assert offered == seen


@pytest.mark.clause("D13.2-mp", "SYS.cite")
def test_a_new_version_or_game_prices_no_step_again_and_an_enemy_hex_is_still_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, state = in_phase(Phase.MPH)
    m24 = state.sheet.units["m24"]
    reached = dict(moves.reach(state, m24))
    priced = counted(monkeypatch, moves, "_price")
    later = replace(state, shots=())  # another version, the same ground
    _, other_game = in_phase(Phase.MPH)
    assert later is not state and other_game.sheet is not state.sheet
    assert dict(moves.reach(later, m24)) == reached
    assert dict(moves.reach(other_game, other_game.sheet.units["m24"])) == reached
    assert not priced
    # The German PzIV drives into a hex the M24 could reach: no path ends there (D2, the
    # Overrun of D7 named), and the answers are those of a search that keeps nothing.
    target = sorted(reached, key=lambda h: (reached[h], state.sheet.label(h)))[3]
    label = state.sheet.label(target)
    moved = replace(state, status={**state.status, "pz4": replace(state.status["pz4"], hex=target)})
    now = dict(moves.reach(moved, m24))
    assert target not in now
    with pytest.raises(IllegalAction, match=f"{label} holds the enemy's pz4") as refused:
        moves.find_path(moved, m24, label)
    assert refused.value.clause == "D2" and "Overrun" in str(refused.value)
    monkeypatch.setattr(moves, "_GROUNDS", {})
    monkeypatch.setattr(moves, "_BY_STATE", {})
    assert dict(moves.reach(moved, m24)) == now
    assert dict(moves.reach(state, m24)) == reached
    far = max(now, key=lambda h: (now[h], state.sheet.label(h)))
    path = moves.find_path(moved, m24, state.sheet.label(far))
    assert sum(step.mp for step in path) == now[far]


@pytest.mark.clause("D13.2-mp")
def test_smoke_in_a_hex_makes_entering_it_dearer_at_once() -> None:
    _, state = in_phase(Phase.MPH)
    m24 = state.sheet.units["m24"]
    reached = dict(moves.reach(state, m24))
    here = state.status["m24"].hex
    assert here is not None
    beside = next(h for h in sorted(reached) if h.distance(here) == 1)
    smoked = replace(
        state, smoke=(SmokeMarker(beside, "smoke", "pz4", "german", FLIP_OWNER_NEXT_PFPH),)
    )
    assert moves.reach(smoked, m24)[beside] > reached[beside]  # A24.7: SMOKE costs MP
    step = moves.find_path(smoked, m24, state.sheet.label(beside))[-1]
    assert "SMOKE" in step.why and "A24.7" in step.rules
