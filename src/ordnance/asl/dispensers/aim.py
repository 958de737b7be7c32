"""Aiming a smoke mortar: the target hex's validity and the Case A DRM of turning to it (D13.32).

An sM places its smoke in a hex of the firer's choice at range 1-3, inside the arc it fires in
(the TCA, or the VCA of an NT AFV) and in its LOS (D13.32-place). Turning that arc to bring the
target in costs the Case A DRM of the mount (C5.1) on the usage DR, and the arc turns only when
the sM fires (D13.32-drm). LOS and its Hindrance DRM come from the caller's map.

>>> case_a_drm(Mount.ST, 2)
3
>>> aim = SmokeMortarAim(target=Hex(0, -2), in_los=True, facing=Corner.NNE)
>>> check_aim(AfvState(hex=Hex(0, 0), tca=Corner.NNE), aim)
>>> check_aim(AfvState(hex=Hex(0, 0), tca=Corner.NNE),
...           SmokeMortarAim(target=Hex(0, -4), in_los=True))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.IllegalAction: refused by D13.32 (D13.32-place): the target hex is at range ...
"""

from __future__ import annotations

from dataclasses import dataclass

from ordnance.asl.dispensers.state import AfvState, Mount, hexspines_between
from ordnance.asl.settings import DEFAULT, Settings
from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.hexgrid import Arc, Corner, Hex, distance

# D13.32-place: the sM reaches one to three hexes out (never its own hex).
SM_RANGE = range(1, 4)

# C5.1 Case A, first hexspine by mount; every further hexspine adds one (reference section 2).
_FIRST_HEXSPINE = {Mount.T: 1, Mount.ST: 2, Mount.NT: 3}


def case_a_drm(mount: Mount, hexspines: int, settings: Settings = DEFAULT) -> int:
    """The Case A DRM of turning a CA by ``hexspines`` (0-3) on this mount.

    >>> [case_a_drm(m, 1) for m in Mount], [case_a_drm(m, 3) for m in Mount]
    ([1, 2, 2, 3], [3, 4, 4, 5])
    >>> case_a_drm(Mount.NT, 0)
    0
    """
    if not 0 <= hexspines <= 3:
        raise BadInput("Case A", str(hexspines), "a CA turns 0 to 3 hexspines")
    if hexspines == 0:
        return 0
    first = settings.case_a_rst_first_hexspine if mount is Mount.RST else _FIRST_HEXSPINE[mount]
    return first + hexspines - 1


@dataclass(frozen=True, kw_only=True)
class SmokeMortarAim:
    """Where an sM is aimed: the target hex, LOS to it, and the arc facing to fire in.

    ``hindrance`` is the LOS Hindrance DRM between the AFV and the target hex, ``dust`` the
    Dust DRM from its subsequent dr where Dust is in play (F11.7), both from the caller's map.
    ``facing`` is the corner the arc must face to fire (None: keep the current one).
    """

    target: Hex
    in_los: bool
    hindrance: int = 0
    dust: int = 0
    facing: Corner | None = None

    def __post_init__(self) -> None:
        for name, value in (("hindrance", self.hindrance), ("dust", self.dust)):
            if value < 0:
                raise BadInput(name, str(value), "a Hindrance DRM is 0 or more")


def turn_of(state: AfvState, aim: SmokeMortarAim) -> tuple[Corner, int]:
    """The facing the sM fires in and how many hexspines the arc turns to get there.

    >>> turn_of(AfvState(hex=Hex(0, 0), tca=Corner.NNE),
    ...         SmokeMortarAim(target=Hex(2, -1), in_los=True, facing=Corner.E))
    (Corner.E, 1)
    """
    current = state.sm_facing
    if current is None:
        arc = "TCA" if state.mount.turreted else "VCA"
        raise BadInput("AFV state", arc, f"the {arc} facing is needed to aim an sM")
    wanted = current if aim.facing is None else aim.facing
    return wanted, hexspines_between(current, wanted)


def check_aim(state: AfvState, aim: SmokeMortarAim) -> None:
    """Refuse a target out of range 1-3, outside the (turned) arc, or out of LOS.

    All three are D13.32-place; the arc tested is the one the sM would fire in after turning.
    """
    if state.hex is None:
        raise BadInput("AFV state", "hex", "the AFV's hex is needed to aim an sM")
    facing, _ = turn_of(state, aim)
    reach = distance(state.hex, aim.target)
    if reach not in SM_RANGE:
        raise IllegalAction(
            "D13.32-place",
            f"the target hex is at range {reach}; an sM places smoke 1 to 3 hexes away",
        )
    arc = Arc.covered(facing, turret=state.mount.turreted)
    if not arc.contains(state.hex, aim.target):
        raise IllegalAction(
            "D13.32-place", f"the target hex lies outside the {arc} the sM would fire in"
        )
    if not aim.in_los:
        raise IllegalAction("D13.32-place", "the target hex is not in the AFV's LOS")
