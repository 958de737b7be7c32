"""SYS.odds: the odds a game's preview shows are exact, checked against cases worked by hand
from the rule texts (C8.9 depletion, C8.52 SMOKE placement, LnLT 14.2.2/14.2.3 shells), and the
coarser walks of :mod:`ordnance.lnl.game.chances` against the face-by-face walk."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from ordnance.asl.game.commands import parse_command as asl_command
from ordnance.asl.game.outcomes import outcome_words as asl_words
from ordnance.asl.game.ruleset import AslRuleset
from ordnance.asl.game.scenario import Sheet
from ordnance.asl.game.state import initial_state as asl_initial
from ordnance.asl.smoke import Phase
from ordnance.core.chances import TooManyOutcomes, chance_outcomes
from ordnance.core.dice import ManualDice
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.maps import MapFiles
from ordnance.core.ruleset import Command, Resolution
from ordnance.lnl.game.chances import outcome_words as lnl_words
from ordnance.lnl.game.resolve import resolve as lnl_resolve
from ordnance.lnl.game.ruleset import LnlRuleset
from ordnance.vv.game.ruleset import VvRuleset
from ordnance.vv.odds import CasualtyPoints

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TOTALS = Counter(white + colored for white in range(1, 7) for colored in range(1, 7))
DOUBLES = Counter(2 * face for face in range(1, 7))


def dr(predicate: Any) -> Fraction:
    """The chance that a DR's total satisfies ``predicate``, counted over the 36 ordered dice."""
    return Fraction(sum(n for total, n in TOTALS.items() if predicate(total)), 36)


def dr_faces(predicate: Any) -> Fraction:
    """The chance that a DR's (white, coloured) faces satisfy ``predicate``."""
    faces = [(w, c) for w in range(1, 7) for c in range(1, 7)]
    return Fraction(sum(1 for w, c in faces if predicate(w, c)), 36)


def asl_state(units: dict[str, Any], phase: Phase = Phase.PFPH) -> Any:
    rules = AslRuleset()
    body = rules.load_scenario(
        {"date": "1944-09", "sides": {"german": {"units": units}, "russian": {"units": {}}}}
    )
    return replace(asl_initial(Sheet.of(body)), phase=phase)


@pytest.mark.clause("SYS.odds", "C8.9-lt", "C8.9-eq", "C8.9-gt")
def test_apcr_depletion_number_6_by_hand() -> None:
    # C8.9: below 6 the APCR is used, 6 uses the last round, above 6 there was none; the B#
    # 12 on the same Original DR malfunctions the Gun only on a 12.
    state = asl_state({"pak": {"kind": "gun", "notation": "A6(4)", "breakdown": 12}})
    command = asl_command("german", ["fire", "pak", "--ammo", "APCR"])
    odds = AslRuleset().chance_outcomes(state, command)
    assert odds.fractions() == {
        "APCR used": dr(lambda t: t < 6),
        "APCR used; none left": dr(lambda t: t == 6),
        "no APCR: not fired; none left": dr(lambda t: 6 < t < 12),
        "no APCR: not fired; none left; Gun malfunctions": dr(lambda t: t == 12),
    }
    depleted = sum((p for o, p in odds.items() if "none left" in o), Fraction(0))
    assert depleted == Fraction(26, 36)  # 5 ways to roll 6, 21 to roll above it


@pytest.mark.clause("SYS.odds", "C8.9-lt", "C8.9-eq", "C8.9-gt", "C8.52", "C8.1-rof")
def test_smoke_placement_in_the_c8_demo_by_hand() -> None:
    # The PaK 40 (s7, B# 12) fires SMOKE at the 45mm gun's hex, To Hit 7, in its PFPh: a DR of
    # 2-6 is used and hits, 7 is the last round and hits, 8-11 had none, 12 had none and
    # malfunctions (C8.9); only a hit places the full SMOKE in the target hex (C8.52). The
    # scenario gives the PaK ROF 3: a shot fired keeps it when the coloured die is 1-3 (C8.1-rof).
    path = EXAMPLES / "asl-c8-demo.yaml"
    rules = AslRuleset()
    body = rules.load_scenario(yaml.safe_load(path.read_text()), MapFiles.folder(path.parent))
    state = replace(rules.initial_state(body), phase=Phase.PFPH)
    command = asl_command(
        "german", ["fire", "pak", "--ammo", "SMOKE", "--to-hit", "7", "--target", "4G5"]
    )
    odds = rules.chance_outcomes(state, command)
    used, last = (
        "hit; SMOKE used; SMOKE lands in 4G5",
        "hit; SMOKE used; none left; SMOKE lands in 4G5",
    )
    assert odds.fractions() == {
        f"{used}; keeps ROF": dr_faces(lambda w, c: w + c < 7 and c <= 3),
        f"{used}; ROF lost": dr_faces(lambda w, c: w + c < 7 and c > 3),
        f"{last}; keeps ROF": dr_faces(lambda w, c: w + c == 7 and c <= 3),
        f"{last}; ROF lost": dr_faces(lambda w, c: w + c == 7 and c > 3),
        "no SMOKE: not fired; none left": dr(lambda t: 7 < t < 12),
        "no SMOKE: not fired; none left; Gun malfunctions": dr(lambda t: t == 12),
    }


@pytest.mark.clause("SYS.odds", "SYS.cite")
def test_refused_and_diceless_commands() -> None:
    rules = AslRuleset()
    state = asl_state({"pak": {"kind": "gun", "notation": "A6(4)"}}, phase=Phase.RPH)
    # Fire in the Rally Phase is refused as resolve refuses it (A3), with its clause.
    with pytest.raises(IllegalAction) as refused:
        rules.chance_outcomes(state, asl_command("german", ["fire", "pak", "--ammo", "AP"]))
    assert refused.value.clause == "A3"
    # A phase change rolls nothing: no odds, one clear line.
    with pytest.raises(BadInput, match="rolls no dice"):
        rules.chance_outcomes(state, asl_command("german", ["phase", "next"]))


def lnl_operations(rules: LnlRuleset) -> Any:
    """The LnLT example after its first phase change: the german operations impulse."""
    path = EXAMPLES / "lnl-smoke-wp.yaml"
    body = rules.load_scenario(yaml.safe_load(path.read_text()), MapFiles.folder(path.parent))
    state = rules.initial_state(body)
    done = rules.resolve(state, rules.parse_command("german", ["phase", "next"]), ManualDice([]))
    for event in done.events:
        state = rules.apply(state, event)
    return state


@pytest.mark.clause("SYS.odds", "SYS.cite", "LNL.W-proc", "LNL.S-hex")
@pytest.mark.parametrize(
    "words", [["wp-shell", "stug", "--at", "H3"], ["smoke-shell", "pz4", "--at", "D6"]]
)
def test_lnl_refusals_are_those_of_resolve(words: list[str]) -> None:
    # The StuG carries no WP (LNL.W-proc); D6 holds no enemy (LNL.S-hex, target_needs_enemy).
    rules = LnlRuleset()
    state = lnl_operations(rules)
    command = rules.parse_command("german", words)
    with pytest.raises(IllegalAction) as by_resolve:
        rules.resolve(state, command, ManualDice([]))
    with pytest.raises(IllegalAction) as by_odds:
        rules.chance_outcomes(state, command)
    assert str(by_odds.value) == str(by_resolve.value)


@pytest.mark.clause("SYS.odds")
def test_rof_words_when_the_ruling_has_them() -> None:
    # The asl helper's fire ruling carries rof_kept; the words show it only when it is there.
    ruling = {"ammo": "AP", "hit": True, "depletion": None, "rof_kept": True}
    assert asl_words(Resolution((), ruling)) == "hit; keeps ROF"
    assert asl_words(Resolution((), {**ruling, "rof_kept": False})) == "hit; ROF lost"
    assert asl_words(Resolution((), {**ruling, "rof_kept": None})) == "hit"


def lnl_farm(units: dict[str, Any], pool: Any) -> Any:
    rules = LnlRuleset()
    body = rules.load_scenario(
        {
            "map": "lnl-farm",
            "sides": {
                "german": {
                    "wp_shells": pool,
                    "units": {
                        "pz4": {"kind": "vehicle", "hex": "B5", "shells": ["wp"], "to_hit": {7: 9}}
                    },
                },
                "american": {"units": units},
            },
        }
    )
    state = rules.initial_state(body)
    done = rules.resolve(state, rules.parse_command("german", ["phase", "next"]), ManualDice([]))
    for event in done.events:
        state = rules.apply(state, event)
    return state


@pytest.mark.clause("SYS.odds", "LNL.S-hit", "LNL.S-miss", "LNL.W-proc", "LNL.W-pool")
def test_wp_shell_landing_by_hand() -> None:
    # To Hit 9 at range 3 in the open (no modifier): a natural 2 hits, a natural 12 misses,
    # a final 9 or less hits; a missed double places nothing; an odd miss lands one hex short,
    # an even one one hex beyond (14.2.2). The pool's Depletion Number 3: a die below it
    # removes the counter (14.2.3).
    state = lnl_farm({"sq1": {"kind": "squad", "hex": "E5"}}, {"count": 1, "depletion_number": 3})
    command = LnlRuleset().parse_command("german", ["wp-shell", "pz4", "--at", "E5"])
    odds = LnlRuleset().chance_outcomes(state, command)
    hit = dr(lambda t: t <= 9 and t != 12)
    doubles = Fraction(2, 36)  # 5,5 and 6,6 miss; 4,4 (final 8) hits
    odd = dr(lambda t: t == 11)
    even = dr(lambda t: t in (10, 12)) - doubles
    removed, kept = Fraction(1, 3), Fraction(2, 3)
    by_result: dict[str, Fraction] = {}
    for words, p in odds.items():
        result = words.split(";")[0].split(":")[0]
        by_result[result] = by_result.get(result, Fraction(0)) + p
    assert dict(by_result) == {
        "hit": hit,
        "miss on a double": doubles,
        "short": odd,
        "beyond": even,
    }
    assert (
        odds["hit: WP in E5; sq1 checks for WP; WP Shell counter removed (0 left)"] == hit * removed
    )
    assert odds["hit: WP in E5; sq1 checks for WP; WP Shell counter back to the pool"] == hit * kept
    assert sum(odds.fractions().values(), Fraction(0)) == 1


@pytest.mark.clause("SYS.odds", "LNL.S-hit", "LNL.W-check", "LNL.W-closed")
def test_coarse_walk_equals_the_face_by_face_walk() -> None:
    # A WP shell at the farm's H3 and one at an open squad: the classes the LnL odds walk in
    # (16 To Hit classes, one class for an unread WP check, two for the depletion dr) give the
    # same distribution as every face of every roll.
    rules = LnlRuleset()
    state = lnl_operations(rules)
    smoke = rules.parse_command("german", ["smoke-shell", "pz4", "--at", "H3"])
    assert rules.chance_outcomes(state, smoke) == chance_outcomes(
        lnl_resolve, state, smoke, lnl_words
    )
    single = lnl_farm({"sq1": {"kind": "squad", "hex": "E5"}}, {"count": 2, "depletion_number": 4})
    wp = rules.parse_command("german", ["wp-shell", "pz4", "--at", "E5"])
    full = chance_outcomes(lnl_resolve, single, wp, lnl_words)  # 36 x 6 x 6 resolutions
    assert rules.chance_outcomes(single, wp) == full
    # The five rolls of a WP shell into H3 face by face are past the bound: refused, not run.
    many = rules.parse_command("german", ["wp-shell", "pz4", "--at", "H3"])
    with pytest.raises(TooManyOutcomes, match="more than 4096 resolutions"):
        chance_outcomes(lnl_resolve, state, many, lnl_words)
    assert len(rules.chance_outcomes(state, many)) == 8


@pytest.mark.clause("SYS.odds")
def test_vv_outcomes_read_as_words() -> None:
    rules = VvRuleset()
    body = rules.load_scenario(
        {
            "map": "vv-hedgerows",
            "sides": {
                "us": {"units": {"a": {"kind": "squad", "counter": "4-6-5", "hex": "C7"}}},
                "de": {"units": {"g": {"kind": "squad", "counter": "4-6-5", "hex": "C4"}}},
            },
        }
    )
    state = rules.initial_state(body)
    done = rules.resolve(state, rules.parse_command("us", ["phase", "next"]), ManualDice([]))
    state = rules.apply(state, done.events[0])
    odds = rules.chance_outcomes(state, rules.parse_command("us", ["fire", "a", "--at", "C4"]))
    words = {str(cp) for cp in odds}
    assert "no effect" in words and all(w == "no effect" or w.endswith(" CP") for w in words)
    assert all(isinstance(cp, CasualtyPoints) for cp in odds)
    assert odds.expectation(lambda cp: cp) > 0  # the web's expected CP reads them as numbers


@pytest.mark.clause("SYS.odds")
def test_the_bound_stops_a_walk_before_it_runs_long() -> None:
    def three_rolls(state: Any, command: Command, dice: Any) -> Resolution:
        faces = [dice.roll_dr("a").total for _ in range(3)]
        return Resolution((), {"sum": sum(faces)})

    command = Command("german", "fire", {}, "fire x")
    with pytest.raises(TooManyOutcomes):
        chance_outcomes(three_rolls, None, command, lambda r: r.ruling["sum"], limit=1000)
    odds = chance_outcomes(three_rolls, None, command, lambda r: r.ruling["sum"], limit=36**3)
    assert odds[3 * 2] == Fraction(1, 36**3) and sum(odds.fractions().values()) == 1


@pytest.mark.clause("SYS.odds")
def test_a_resolution_that_rolls_otherwise_on_replay_is_caught() -> None:
    runs = iter(range(1000))

    def fickle(state: Any, command: Command, dice: Any) -> Resolution:
        # The first run rolls a DR; replays roll a dr where the DR was: not a function of
        # its dice, so no odds could be read off it.
        if next(runs) == 0:
            return Resolution((), {"n": dice.roll_dr("first").total})
        return Resolution((), {"n": dice.roll_die("first").value})

    with pytest.raises(RuntimeError, match="not deterministic"):
        chance_outcomes(fickle, None, Command("german", "fire", {}, "fire x"), str)
