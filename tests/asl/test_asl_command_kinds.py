"""The ASL command table declares what each parameter holds, so a board builds its fields."""

from __future__ import annotations

import pytest

from ordnance.asl.game.commands import COMMANDS, FIRED_AMMO
from ordnance.asl.notation import Family

# Free text on purpose: a Canister FP may be a fraction ("15/2"), not a whole number.
TEXT = {("canister", "--fp")}


@pytest.mark.clause("SYS.odds")
def test_every_parameter_says_what_it_holds_and_only_the_to_hit_number_is_asked():
    asked = set()
    for name, verb in COMMANDS.verbs.items():
        if verb.positional is not None and name != "phase":
            assert verb.positional.kind == "unit", name
        for option_name, option in verb.options.items():
            kind = option.field_kind
            assert kind != "text" or (name, option_name) in TEXT, (name, option_name)
            if kind == "choice":
                assert option.choices, (name, option_name)
            if kind == "number" and not option.repeats:
                assert option.low is not None and option.high is not None, (name, option_name)
            if option.ask:
                asked.add((name, option_name))
    assert asked == {("fire", "--to-hit")}
    fire = COMMANDS.verbs["fire"].options
    assert fire["--at"].kind == "hex" and fire["--ammo"].kind == "ammo"
    assert set(FIRED_AMMO) == {"AP", "HE", "APCR", "APDS", "HEAT", "SMOKE", "WP"}
    assert Family.CANISTER.ammo not in FIRED_AMMO  # 'canister UNIT' fires it
    canister = COMMANDS.verbs["canister"].options
    assert (canister["--aim"].low, canister["--aim"].high) == (1, 5)  # C8.4-target's five
    assert COMMANDS.verbs["dispense"].options["--type"].choices == ("sD", "sM", "sP", "sN")
