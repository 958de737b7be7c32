"""A chosen ASL unit's actions on the map (BoardOffers): every offer is a command resolve takes.

Both bundled ASL scenarios are played at random with seeded dice for a few Player Turns; at
every step each unit's offers (of both sides) are read back through ``parse_command`` and
probed up to their roll, as they are and with the asked-for To Hit number filled in. A
vehicle's move offers are many (every hex in reach) and each probe finds its path again
(~50 ms): at each step a sample of them is probed, always with the costliest, and every one
is probed in the first state of each MPh.
"""

from __future__ import annotations

import random
import shlex
import time
from pathlib import Path

import pytest
import yaml

from ordnance.asl.game import AslRuleset
from ordnance.asl.game.state import AslState
from ordnance.core.dice import SeededDice
from ordnance.core.offers import BoardOffers, Offer
from ordnance.core.ruleset import passes_checks

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ("asl-c8-demo.yaml", "asl-d13-demo.yaml")
STEPS = 40  # commands played per scenario: several Player Turns, each phase with actions
MOVES_PROBED = 6  # move offers probed per unit and step (besides the costliest)


def started(name: str) -> tuple[AslRuleset, AslState]:
    rules = AslRuleset()
    body = rules.load_scenario(yaml.safe_load((ROOT / "examples" / name).read_text()))
    return rules, rules.initial_state(body)


def check_offer(rules: AslRuleset, state: AslState, side: str, unit: str, offer: Offer) -> None:
    words = shlex.split(offer.command)
    command = rules.parse_command(side, words)
    assert command.text == offer.command  # canonical: what the service would store
    assert command.verb == offer.verb and command.args["unit"] == unit
    assert state.sheet.label(state.sheet.hex(offer.hex)) == offer.hex
    assert passes_checks(rules.resolve, state, command), offer
    if offer.verb == "fire":
        assert command.args["at"] == offer.hex
        assert command.args["to_hit"] is None  # asked for by the board, never filled in
        asked = rules.parse_command(side, [*words, "--to-hit", "7"])
        assert passes_checks(rules.resolve, state, asked), offer
    if offer.verb == "move":
        assert offer.note.endswith(("MP", "hex", "hexes"))


@pytest.mark.clause("SYS.odds", "C8.1-rof", "D13.32-place", "C8.4-target")
@pytest.mark.parametrize("name", SCENARIOS)
def test_random_play_every_offer_is_accepted_up_to_its_roll(name: str) -> None:
    rules, state = started(name)
    assert isinstance(rules, BoardOffers)
    pick = random.Random(f"offers {name}")
    dice = SeededDice(f"offers {name}")
    verbs: set[str] = set()
    turns = set()
    seen_phases = set()
    for _ in range(STEPS):
        if rules.is_over(state):
            break
        turns.add((state.turn, state.player))
        phase = (state.turn, state.player, str(state.phase))
        every_move = phase not in seen_phases
        seen_phases.add(phase)
        choices: list[tuple[str, str]] = []
        for side in state.sheet.sides:
            for unit in state.sheet.units:
                offers = rules.offers(state, side, unit)
                if state.sheet.units[unit].side != side:
                    assert offers == ()
                moves = [o for o in offers if o.verb == "move"]
                probed = set(moves)
                if not every_move and len(moves) > MOVES_PROBED:
                    probed = {moves[-1], *pick.sample(moves, MOVES_PROBED)}  # sorted by cost
                for offer in offers:
                    if offer.verb != "move" or offer in probed:
                        check_offer(rules, state, side, unit, offer)
                    verbs.add(offer.verb)
                    choices.append((side, offer.command))
        owner = state.phase_owner
        if choices and pick.random() < 0.6:
            side, text = pick.choice(choices)
            if text.startswith("fire") and pick.random() < 0.7:
                text += f" --to-hit {pick.randint(4, 10)}"
        else:
            side, text = owner, "phase next"
        resolution = rules.resolve(state, rules.parse_command(side, shlex.split(text)), dice)
        for event in resolution.events:
            state = rules.apply(state, event)
    assert len(turns) >= 2  # more than one Player Turn was walked
    assert {"fire", "move"} <= verbs


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_unit_stands_on_a_hex_of_the_map(name: str) -> None:
    _, state = started(name)
    assert state.sheet.game_map is not None
    for unit in state.sheet.units.values():
        assert state.status[unit.id].hex is not None, unit.id
        if unit.keeps_record:
            assert state.status[unit.id].ca is not None, unit.id


def test_offers_are_kept_per_state_and_answer_quickly() -> None:
    rules, state = started("asl-d13-demo.yaml")
    state = next_phases(rules, state, 2)  # the American MPh: moves, dispensers, grenades
    first = rules.offers(state, "american", "m24")
    assert {o.verb for o in first} >= {"move", "fire", "dispense", "grenades"}
    start = time.perf_counter()
    again = rules.offers(state, "american", "m24")
    assert again is first and time.perf_counter() - start < 0.01
    assert rules.offers(state, "german", "m24") == ()  # not the asker's unit
    assert rules.offers(state, "american", "nobody") == ()


def test_sm_and_canister_offers_name_their_target_and_aim() -> None:
    rules, state = started("asl-d13-demo.yaml")
    state = next_phases(rules, state, 2)
    sm = [o for o in rules.offers(state, "american", "m24") if "--type sM" in o.command]
    assert sm and all(o.command.endswith(f"--target {o.hex}") for o in sm)
    assert {o.note for o in sm} <= {"sM, range 1", "sM, range 2", "sM, range 3"}
    rules, state = started("asl-c8-demo.yaml")
    while not (str(state.phase) == "DFPh" and state.phase_owner == "russian"):
        state = next_phases(rules, state, 1)
    aims = [o for o in rules.offers(state, "russian", "at45") if o.verb == "canister"]
    assert len({o.command for o in aims}) == 5  # the five aiming points (C8.4-target)
    assert all(o.note.startswith("aim ") and o.hex in o.note for o in aims)


def next_phases(rules: AslRuleset, state: AslState, count: int) -> AslState:
    dice = SeededDice("phases")
    for _ in range(count):
        command = rules.parse_command(state.phase_owner, ["phase", "next"])
        for event in rules.resolve(state, command, dice).events:
            state = rules.apply(state, event)
    return state
