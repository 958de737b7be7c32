"""Ordnance SMOKE and WP on the game map: ``fire UNIT --ammo SMOKE|WP --to-hit N --at HEX``.

When and whether the round may be fired, and whether it lands Dispersed, is the library's
(:func:`ordnance.asl.smoke.smoke_placement`); this module checks the target hex and turns a
hit into a marker on the game's map, the same ``smoke`` event the D13 dispensers use, so every
later LOS of the game (:mod:`.sight`) and ``game render`` count it.

Readings (README, Games):

* only a hit places a marker: the command gives ``--to-hit N`` and the shot's Final DR decides;
  a miss, a shot that had none (C8.9-gt) and one that malfunctioned before it resolved place
  nothing;
* the marker goes into the target hex at its ground level (C8.52): full ``smoke`` (+3) or
  ``wp`` (+2) in the PFPh, otherwise ``dispersed smoke`` (+2) or ``dispersed wp`` (+1) (C8.51,
  C8.6; hindrances [unverified], reference/asl.md section 10);
* a full marker flips to its Dispersed side at the start of its owner's next PFPh and a
  Dispersed one goes then (A24.4; :mod:`.markers`); drift and wind (A24.6) are not modelled;
* the Gun's own hex is refused (C8.52), and so is a hex the map shows out of its LOS (A6;
  the setting ``fire_needs_los`` off resolves it); ``--at HEX`` names the hex as ``--target``
  does (:mod:`.fire_at` checks it), and without ``--to-hit`` places nothing.

>>> from ordnance.asl.game.scenario import Sheet, load_scenario
>>> from ordnance.asl.game.state import initial_state
>>> state = initial_state(Sheet.of(load_scenario({"date": "1944-09", "boards": "4",
...     "sides": {"german": {"units": {"pak": {"notation": "s7", "hex": "4G5"}}},
...               "russian": {"units": {}}}})))
>>> event, words = smoke_marker(state, state.sheet.units["pak"], "SMOKE", False,
...                             state.sheet.hex("4I5"))
>>> event.data["marker"], event.data["removal"]
('smoke', "flips at owner's next PFPh")
>>> print(words)
SMOKE lands in 4I5: full SMOKE (+3), turned Dispersed at german's next PFPh (C8.52, A24.4).
"""

from __future__ import annotations

from ordnance.asl.dispensers.placement import OWNER_NEXT_PFPH
from ordnance.asl.game.markers import DISPERSED_SIDE, FLIP_OWNER_NEXT_PFPH
from ordnance.asl.game.scenario import Unit
from ordnance.asl.game.sight import los
from ordnance.asl.game.state import AslState
from ordnance.asl.terrain import asl_chart
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.hexgrid import Hex
from ordnance.core.ruleset import Command, Event

LOS_RULE = "A6"


def smoke_target(
    state: AslState, command: Command, unit: Unit, at: Hex | None = None
) -> Hex | None:
    """The hex a SMOKE/WP command aims at (None: neither ``--target`` nor ``--at``, nothing
    goes on the map). ``at``: the ``--at`` hex, already checked (range, LOS, own hex) by
    :func:`.fire_at.aim_at`; without ``--to-hit`` such a shot places nothing."""
    text = command.args.get("target")
    if text is None:
        return at
    sheet = state.sheet
    target = sheet.hex(str(text))
    if at is not None and at != target:
        raise BadInput("command", command.text, "--target and --at name different hexes")
    if command.args.get("to_hit") is None:
        raise BadInput(
            "command", command.text, "SMOKE/WP at a hex needs --to-hit N: only a hit places it"
        )
    here = state.status[unit.id].hex
    if here == target:
        raise IllegalAction(
            "C8.52", f"a Gun may never place SMOKE or WP in its own hex ({sheet.label(target)})"
        )
    verdict = None if here is None or at is not None else los(state, here, target)
    if verdict is not None and not verdict.clear and sheet.settings.fire_needs_los:
        raise IllegalAction(
            LOS_RULE, f"{sheet.label(target)} is out of {unit.id}'s LOS: {verdict.explanation}"
        )
    return target


def smoke_marker(
    state: AslState, unit: Unit, ammo: str, dispersed: bool, target: Hex
) -> tuple[Event, str]:
    """The ``smoke`` event of a hit, and the sentence that says what landed where."""
    full = "smoke" if ammo == "SMOKE" else "wp"
    marker = DISPERSED_SIDE[full] if dispersed else full
    removal = OWNER_NEXT_PFPH if dispersed else FLIP_OWNER_NEXT_PFPH
    where = state.sheet.label(target)
    data = {"unit": unit.id, "side": unit.side, "hex": where, "marker": marker, "removal": removal}
    value = asl_chart().marker(marker).hindrance
    name = f"{'Dispersed' if dispersed else 'full'} {ammo}"
    fate = "removed" if dispersed else "turned Dispersed"
    sentence = (
        f"{ammo} lands in {where}: {name} (+{value}), {fate} at {unit.side}'s next PFPh"
        " (C8.52, A24.4)."
    )
    return Event("smoke", data), sentence
