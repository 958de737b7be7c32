"""Where a shot goes (``fire UNIT --ammo A --at HEX``) and whether the Gun may fire again.

``--at`` names the hex fired at. The ruling then gives its range from the firer's hex and the
line of sight judged by the ASL LOS judge on the scenario's map with the game's SMOKE on it
(:func:`.sight.los`). The C8 texts say nothing of LOS for an ordinary shot; the engine reads
that a Gun fires only at what it sees (A6), as SMOKE/WP already are: a blocked line refuses
the shot before any roll. The setting ``fire_needs_los`` (false) resolves it instead, the
ruling saying the line is blocked. Without a map the range is given and the LOS is left to the
players (:data:`.sight.UNSEEN`).

Multiple Rate of Fire (C8.1-rof: each further shot declares its own ammunition). How ROF is
kept is not in these texts; the engine reads the ASLRB's usual rule (A9.2, C2.24): a shot keeps
the Gun's ROF when the coloured die of its To Hit DR (a Placement DR for SMOKE/WP, the IFT DR
for Canister, which stands in for the To Hit DR by C8.4-dr) is at most the ROF, the shot was
fired (C8.9-gt: a shot that had none is no shot) and the Gun did not malfunction. Intensive Fire
never keeps it (setting ``rof_keeps_on_intensive_fire``, C5.6). The ROF is the scenario's
``rof`` key: the vasl-templates data carries no ROF for ordinary Guns (only for alternate
stats), so there is no counter default.

>>> from ordnance.core.dice import DR
>>> from ordnance.asl.game.scenario import Sheet, load_scenario
>>> from ordnance.asl.game.state import initial_state
>>> state = initial_state(Sheet.of(load_scenario({"date": "1944-09", "map": "asl-village",
...     "sides": {"german": {"units": {"pz4": {"kind": "vehicle", "hex": "4K3", "rof": 2}}},
...               "american": {"units": {"m4": {"kind": "vehicle", "hex": "4G5"}}}}})))
>>> pz4 = state.sheet.units["pz4"]
>>> seen = aim_at(state, pz4, "4G5", smoke=False)
>>> seen.range, seen.data["los"]["clear"]
(4, True)
>>> kept, words = keeps_rof(state, pz4, DR(5, 2), fired=True, malfunctioned=False,
...                         intensive=False)
>>> kept, words
(True, 'Coloured die 2 <= ROF 2: pz4 keeps its Multiple ROF and may fire again this phase, \
declaring its ammunition afresh (C8.1-rof).')
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ordnance.asl.game.scenario import Unit
from ordnance.asl.game.sight import UNSEEN, los
from ordnance.asl.game.state import AslState
from ordnance.core.dice import DR
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.hexgrid import Hex

LOS_RULE = "A6"
ROF_RULE = "C8.1-rof"
OWN_HEX_SMOKE = "C8.52"


class Aim(NamedTuple):
    """The hex a shot is fired at, its range, the ruling's ``at``/``range``/``los`` fields,
    the sentence and the clauses."""

    hex: Hex
    range: int
    data: dict[str, Any]
    sentence: str
    clauses: tuple[str, ...]


def aim_at(state: AslState, unit: Unit, text: str, *, smoke: bool) -> Aim:
    """The shot's target hex with its range and LOS, or the refusal (see the module)."""
    sheet = state.sheet
    here = state.status[unit.id].hex
    if here is None:
        raise BadInput(
            "unit", unit.id, "the scenario gives it no hex, so it cannot fire at one (--at)"
        )
    target = sheet.hex(text)
    where = sheet.label(target)
    if target == here:
        if smoke:
            raise IllegalAction(
                OWN_HEX_SMOKE, f"a Gun may never place SMOKE or WP in its own hex ({where})"
            )
        raise BadInput("--at", where, f"that is {unit.id}'s own hex: it fires at another hex")
    distance = here.distance(target)
    verdict = los(state, here, target)
    if verdict is None:
        data = {"at": where, "range": distance, "los": None}
        return Aim(target, distance, data, f"At {where}, range {distance}. {UNSEEN}", ())
    if not verdict.clear and sheet.settings.fire_needs_los:
        raise IllegalAction(LOS_RULE, f"{where} is out of {unit.id}'s LOS: {verdict.explanation}")
    sight = {
        "clear": verdict.clear,
        "hindrance": verdict.total,
        "explanation": verdict.explanation,
    }
    if verdict.clear:
        seen = "LOS clear" if not verdict.total else f"LOS hindered, +{verdict.total}"
    else:
        seen = "LOS blocked (resolved anyway: setting fire_needs_los is off)"
    data = {"at": where, "range": distance, "los": sight}
    return Aim(
        target, distance, data, f"At {where}, range {distance}: {seen} ({LOS_RULE}).", (LOS_RULE,)
    )


def keeps_rof(
    state: AslState,
    unit: Unit,
    roll: DR,
    *,
    fired: bool,
    malfunctioned: bool,
    intensive: bool,
) -> tuple[bool, str | None]:
    """Whether the shot kept the Gun's Multiple ROF, and the sentence that says so (None for
    a unit without ROF, or a shot that was not fired)."""
    rof = unit.rof
    if rof is None or not fired:
        return False, None
    die = roll.colored
    if malfunctioned:
        return False, f"The Gun malfunctioned: no further shot this phase ({ROF_RULE})."
    if intensive and not state.sheet.settings.rof_keeps_on_intensive_fire:
        return False, f"Intensive Fire keeps no ROF ({ROF_RULE}, C5.6)."
    if die > rof:
        return (
            False,
            f"Coloured die {die} > ROF {rof}: {unit.id} has fired its last shot this phase.",
        )
    return True, (
        f"Coloured die {die} <= ROF {rof}: {unit.id} keeps its Multiple ROF and may fire again"
        f" this phase, declaring its ammunition afresh ({ROF_RULE})."
    )
