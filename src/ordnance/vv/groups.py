"""Fire groups: who may attack together, at what, with how much APFP and which DRMs.

:func:`check_attack` is the one validation every AP attack passes, a player's or the AI's. It
refuses (:class:`~ordnance.core.errors.IllegalAction`, naming the clause) what the rules forbid:

- units of different hexes in one group (VV.AP-groups);
- a unit that is pinned (r. 14.7) or has already attacked this turn (its Fire marker; r. 13.1,
  and for a vehicle whatever weapons it combines, VV.AP-weapons);
- vehicles and Guns grouped with anything (VV.AP-vehicles), except a transport with its own
  passengers; passengers grouped with infantry outside their vehicle, or with other vehicles'
  passengers (VV.AP-passengers); a transported Gun firing (VV.AP-passengers, r. 8.5);
- a second attack by the same units of a hex at a target they already attacked this turn:
  attacking the same target, they must have been one group (VV.AP-groups; passengers and their
  transport, VV.AP-passengers). The grouping class is :func:`group_key`;
- a member that cannot reach the target: its range (VV.AP-range), a vehicle weapon outside its
  arc (VV.AP-arc; a combination is limited by its most restricted weapon), no LOS
  (VV.AP-select), no eligible target there (VV.AP-targets);
- a named leader who is not in the group (VV.AP-leader); one Leadership Modifier per attack
  (the best one unless the order names whose), every leader in the group marked as fired;
- grenades and satchel charges beyond adjacent range, beyond the side's pool, or both on one
  unit (r. 12.51-12.52).

>>> from ordnance.core.hexgrid import GridLabels
>>> from ordnance.core.maps import GameMap
>>> from ordnance.vv.board import Board, Status
>>> from ordnance.vv.counters import Counter
>>> grid = GridLabels(columns=8, rows=8)
>>> m = GameMap("demo", "vv", grid, "open", {grid.parse("E5"): "building"})
>>> c = Counter.parse
>>> lmg = SupportWeapon(SwKind.LMG, 4, 8)
>>> units = {"a": Unit("a", "us", Kind.SQUAD, counter=c("4-6-5"), sw=lmg),
...          "b": Unit("b", "us", Kind.SQUAD, counter=c("3-6-5")),
...          "lt": Unit("lt", "us", Kind.LEADER, counter=c("1-3-1"), leadership=-1),
...          "g": Unit("g", "de", Kind.SQUAD, counter=c("4-6-5"))}
>>> here = grid.parse("E8")
>>> board = Board(m, units, {"a": Status(here), "b": Status(here), "lt": Status(here),
...                          "g": Status(grid.parse("E5"))})
>>> attack = check_attack(board, FireOrder("us", ("a", "b", "lt"), grid.parse("E5")))
>>> attack.apfp, [str(d) for d in attack.drms], attack.drm
(12, ['+3 cover: building +3', '-1 leader lt'], 2)
>>> again = FireOrder("us", ("a",), grid.parse("E5"))
>>> check_attack(board, again, attacked={("infantry@E8", "E5")})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ordnance.core.errors.IllegalAction: refused by V&V r. 14.2 (VV.AP-groups): units of E8 already ...
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from ordnance.core.errors import BadInput, IllegalAction
from ordnance.core.hexgrid import Direction, Hex
from ordnance.core.rulings import DRM
from ordnance.vv.ap_reach import reach
from ordnance.vv.board import Board
from ordnance.vv.modifiers import hex_drms
from ordnance.vv.numbers import RULES
from ordnance.vv.units import Kind, Mount, SupportWeapon, SwKind, Unit

__all__ = [
    "Attack",
    "FireOrder",
    "Pool",
    "SupportWeapon",
    "SwKind",
    "affected",
    "check_attack",
    "check_group",
    "group_key",
    "may_join",
    "member_apfp",
]

GROUPS = "VV.AP-groups"
PASSENGERS = "VV.AP-passengers"
VEHICLES = "VV.AP-vehicles"
ATTACK_ONCE = "V&V r. 13.1"
PINNED = "V&V r. 14.7"
X_WEAPONS = "V&V r. 12.51"


@dataclass(frozen=True)
class Pool:
    """A side's single-use X weapons (r. 12.1): grenades, satchel charges and a satchel's APFP."""

    grenades: int = 0
    satchels: int = 0
    satchel_apfp: int = 0


@dataclass(frozen=True)
class FireOrder:
    """An attack as asked for: the firing units, the target hex and the options.

    ``weapons``: a vehicle's or Gun's weapons to combine (None: every one that reaches).
    ``leader``: whose Leadership Modifier (None: the best in the group). ``movers``: for
    Opportunity Fire, the entering units that are the target (None: ordinary fire).
    """

    side: str
    units: tuple[str, ...]
    target: Hex
    weapons: tuple[Mount, ...] | None = None
    leader: str | None = None
    grenades: tuple[str, ...] = ()
    satchels: tuple[str, ...] = ()
    movers: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Attack:
    """A checked attack: its grouping class, where from, the range, each member's APFP, the
    total, the DRMs, the units it affects, the leader whose LM counts, the weapons used."""

    order: FireOrder
    key: str
    firer: Hex
    range: int
    contributions: Mapping[str, int]
    drms: tuple[DRM, ...]
    victims: tuple[str, ...]
    leader: str | None
    weapons: tuple[Mount, ...] = ()
    clauses: tuple[str, ...] = field(default=())

    @property
    def apfp(self) -> int:
        return sum(self.contributions.values())

    @property
    def drm(self) -> int:
        return sum(d.value for d in self.drms)


def group_key(board: Board, unit_id: str) -> str:
    """The grouping class of a unit: units may share an attack only within one class, and a
    class attacks a target at most once a turn (must-combine). Infantry on foot in a hex form
    one class; a vehicle or Gun is its own, shared with whatever rides in it.

    >>> from ordnance.core.hexgrid import GridLabels
    >>> from ordnance.core.maps import GameMap
    >>> from ordnance.vv.board import Status
    >>> from ordnance.vv.counters import Counter
    >>> grid = GridLabels(columns=4, rows=4)
    >>> units = {"a": Unit("a", "us", Kind.SQUAD, counter=Counter.parse("4-6-5")),
    ...          "t": Unit("t", "us", Kind.VEHICLE, casualty=3)}
    >>> board = Board(GameMap("m", "vv", grid, "open"), units,
    ...               {"a": Status(aboard="t"), "t": Status(grid.parse("B2"))})
    >>> group_key(board, "a"), group_key(board, "t")
    ('unit:t', 'unit:t')
    """
    status = board.status[unit_id]
    if status.aboard is not None:
        return f"unit:{status.aboard}"
    if board.unit(unit_id).kind.infantry:
        return f"infantry@{board.label(status.hex)}"
    return f"unit:{unit_id}"


def member_apfp(
    board: Board, unit_id: str, firer: Hex, target: Hex, weapons: tuple[Mount, ...] | None = None
) -> tuple[int, tuple[Mount, ...]]:
    """What one unit adds to an attack from ``firer`` at ``target``, and the weapons it uses.

    Infantry: by range (r. 12.3, :meth:`~ordnance.vv.units.Unit.apfp_at`), 0 when out of reach.
    Vehicles and Guns: the named weapons, or every one that reaches; a named weapon out of its
    range or arc is refused (VV.AP-range, VV.AP-arc).
    """
    unit, status = board.unit(unit_id), board.status[unit_id]
    distance = firer.distance(target)
    if unit.kind.infantry:
        passenger = status.aboard is not None
        return unit.apfp_at(distance, reduced=status.reduced, passenger=passenger), ()
    chosen = tuple(w.mount for w in unit.weapons) if weapons is None else weapons
    used: list[Mount] = []
    total = 0
    for mount in chosen:
        weapon = unit.weapon(mount)
        if weapon is None:
            raise BadInput("weapon", str(mount), f"{unit_id} has no {mount} AP weapon")
        # Without a facing (a unit built by hand) the arc check below is skipped.
        facing = Direction.N if status.facing is None else status.facing
        arc, limit = reach(weapon.reach, facing=facing)
        if limit is not None and distance > limit:
            if weapons is None:
                continue
            raise IllegalAction(
                "VV.AP-range",
                f"{unit_id}'s {mount} reaches {limit} hexes; the target is at {distance}",
            )
        if status.facing is not None and not arc.contains(firer, target):
            if weapons is None:
                continue
            raise IllegalAction(
                "VV.AP-arc", f"{unit_id}'s {mount} fires only into its Forward Firing Arc ({arc})"
            )
        used.append(mount)
        total += weapon.apfp
    return total, tuple(used)


def _refuse_member(board: Board, unit_id: str, firer: Hex, target: Hex) -> IllegalAction:
    """Why a vehicle or Gun adds nothing: the reason of its first weapon."""
    unit = board.unit(unit_id)
    if not unit.weapons:
        return IllegalAction("VV.AP-weapons", f"{unit_id} has no AP weapon")
    try:
        member_apfp(board, unit_id, firer, target, (unit.weapons[0].mount,))
    except IllegalAction as refusal:
        return refusal
    return IllegalAction("VV.AP-range", f"{unit_id} cannot reach {board.label(target)}")


def check_attack(
    board: Board,
    order: FireOrder,
    *,
    attacked: Collection[tuple[str, str]] = (),
    pool: Pool | None = None,
) -> Attack:
    """Check an attack against the board (see the module docstring) and total it up.

    ``attacked``: the (grouping class, target label) pairs already used this turn.
    """
    units = order.units
    key, firer = check_group(board, order.side, units)
    target = order.target
    if target not in board.game_map:
        raise BadInput("hex", str(target), "not on the map")
    label = board.label(target) or ""
    if (key, label) in attacked:
        # A transport and its passengers share one class: a second attack at the same target
        # by either is refused under the passengers' rule, whoever fires (VV.AP-passengers).
        kind, _, vehicle = key.partition(":")
        carried = kind == "unit" and any(
            board.unit(p).kind is not Kind.GUN for p in board.passengers(vehicle)
        )
        clause = PASSENGERS if carried or any(board.status[u].aboard for u in units) else GROUPS
        why = (
            "passengers and their transport attacking the same target must combine"
            if clause == PASSENGERS
            else "units of one hex attacking the same target must fire as one group"
        )
        raise IllegalAction(
            clause, f"units of {_class_name(board, key)} already attacked {label} this turn; {why}"
        )
    victims = _victims(board, order, target)
    verdict = board.los(firer, target)
    if not verdict.clear:
        raise IllegalAction("VV.AP-select", f"no line of sight: {verdict.explanation}")
    distance = firer.distance(target)
    contributions, weapons = _contributions(board, order, firer, target)
    x_drms = _x_weapons(board, order, contributions, distance, pool)
    if sum(contributions.values()) <= 0:
        raise IllegalAction(
            "VV.AP-range", f"no APFP of the group reaches {label} (range {distance})"
        )
    leader = _leader(board, order, contributions)
    drms = list(hex_drms(board, firer, target, victims, opfire=order.movers is not None))
    if leader is not None:
        drms.append(DRM(board.unit(leader).leadership, f"leader {leader}", "VV.AP-leader"))
    drms.extend(x_drms)
    return Attack(
        order,
        key,
        firer,
        distance,
        contributions,
        tuple(d for d in drms if d.value),
        victims,
        leader,
        weapons,
        _clauses(board, order, leader),
    )


def check_group(board: Board, side: str, units: tuple[str, ...]) -> tuple[str, Hex]:
    """Check that ``units`` may fire together now, whatever the target: their grouping class
    and hex, or the refusal."""
    if not units:
        raise BadInput("fire group", "", "name at least one unit")
    if len(set(units)) != len(units):
        raise BadInput("fire group", ",".join(units), "a unit is named twice")
    for unit_id in units:
        _check_ready(board, side, unit_id)
    return _check_together(board, units)


def _check_ready(board: Board, side: str, unit_id: str) -> None:
    unit = board.unit(unit_id)
    status = board.status[unit_id]
    if unit.side != side:
        raise IllegalAction("SYS.record", f"{unit_id} belongs to {unit.side}, not {side}")
    if status.eliminated:
        raise IllegalAction("VV.AP-resolve", f"{unit_id} has been eliminated")
    if status.pinned:
        raise IllegalAction(PINNED, f"{unit_id} is pinned and may take no action")
    if status.fired:
        clause = ATTACK_ONCE if unit.kind.infantry else "VV.AP-weapons"
        raise IllegalAction(clause, f"{unit_id} has already attacked this turn (Fire marker)")
    if unit.kind is Kind.GUN and status.aboard is not None:
        raise IllegalAction(PASSENGERS, f"{unit_id} is being transported and may not fire")


def _check_together(board: Board, units: tuple[str, ...]) -> tuple[str, Hex]:
    hexes = {board.hex_of(u) for u in units}
    if len(hexes) > 1:
        raise IllegalAction(GROUPS, "a fire group's units must all be in the same hex")
    firer = hexes.pop()
    assert firer is not None  # the units are alive
    keys = {group_key(board, u) for u in units}
    if len(keys) == 1:
        return keys.pop(), firer
    vehicles = [u for u in units if not board.unit(u).kind.infantry]
    riders = [u for u in units if board.status[u].aboard is not None]
    if len(vehicles) > 1:
        raise IllegalAction(VEHICLES, "AFVs, vehicles and Guns never form fire groups")
    if riders and (vehicles or len({board.status[u].aboard for u in riders}) > 1):
        raise IllegalAction(
            PASSENGERS,
            "passengers group only with their own transport and the units riding in it",
        )
    if riders:
        raise IllegalAction(
            PASSENGERS, "passengers may not group with infantry outside their vehicle"
        )
    raise IllegalAction(VEHICLES, "AFVs, vehicles and Guns never form fire groups")


def _class_name(board: Board, key: str) -> str:
    kind, _, name = key.partition(":")
    return name if kind == "unit" else key.partition("@")[2]


def affected(
    board: Board, side: str, target: Hex, movers: tuple[str, ...] | None = None
) -> tuple[str, ...]:
    """The enemy units an attack by ``side`` at ``target`` falls on (VV.AP-targets): every
    eligible one there, or, for Opportunity Fire, the eligible ones among the ``movers``."""
    enemies = [s for s in board.sides() if s != side]
    eligible = [u for enemy in enemies for u in board.eligible_targets(target, enemy)]
    return tuple(eligible) if movers is None else tuple(u for u in movers if u in eligible)


def may_join(board: Board, unit_id: str, apfp: int) -> bool:
    """Whether a unit adding ``apfp`` at a target may be in the group: it reaches, or it is a
    leader lending his modifier, or the settings let infantry join without reaching."""
    if apfp > 0:
        return True
    unit, settings = board.unit(unit_id), board.settings
    if not unit.kind.infantry:
        return False
    lends = unit.kind is Kind.LEADER and settings.leader_lends_out_of_range
    return lends or not settings.member_must_reach


def _victims(board: Board, order: FireOrder, target: Hex) -> tuple[str, ...]:
    victims = affected(board, order.side, target, order.movers)
    if victims:
        return victims
    label = board.label(target)
    if order.movers is not None:
        raise IllegalAction(
            "VV.AP-targets", f"none of the units that entered {label} can be hit by AP fire"
        )
    if any(board.unit(u).side != order.side for u in board.at(target)):
        raise IllegalAction(
            "VV.AP-targets", f"{label} holds only AFVs (and their riders): AP fire has no effect"
        )
    raise IllegalAction("VV.AP-targets", f"{label} holds no enemy unit AP fire may target")


def _contributions(
    board: Board, order: FireOrder, firer: Hex, target: Hex
) -> tuple[dict[str, int], tuple[Mount, ...]]:
    contributions: dict[str, int] = {}
    weapons: tuple[Mount, ...] = ()
    vehicles = [u for u in order.units if not board.unit(u).kind.infantry]
    if order.weapons is not None and not vehicles:
        raise BadInput("weapons", ",".join(order.weapons), "only a vehicle or Gun names weapons")
    for unit_id in order.units:
        unit = board.unit(unit_id)
        if unit_id in order.satchels:
            contributions[unit_id] = _satchel_apfp(board, unit, firer.distance(target))
            continue
        apfp, used = member_apfp(board, unit_id, firer, target, order.weapons)
        if not unit.kind.infantry:
            weapons = used
        if not may_join(board, unit_id, apfp):
            if not unit.kind.infantry:
                raise _refuse_member(board, unit_id, firer, target)
            raise IllegalAction(
                "VV.AP-range",
                f"{unit_id} cannot reach {board.label(target)} (range"
                f" {firer.distance(target)}) with its own or its weapon's range",
            )
        contributions[unit_id] = apfp
    return contributions, weapons


def _satchel_apfp(board: Board, unit: Unit, distance: int) -> int:
    """A satchel adds its APFP to the unit's own, and no other weapon (r. 12.52)."""
    counter = unit.printed(board.status[unit.id].reduced)
    own = counter.apfp if counter is not None and distance <= counter.range else 0
    # A leader firing a weapon fires it alone (r. 12.3); the satchel's APFP is the pool's.
    return 0 if unit.kind is Kind.LEADER else own


def _x_weapons(
    board: Board,
    order: FireOrder,
    contributions: dict[str, int],
    distance: int,
    pool: Pool | None,
) -> list[DRM]:
    """Grenades (-1 each, or once; setting ``grenade_each``) and satchels: adjacent only,
    infantry of the group only, one X weapon per unit, within the side's pool."""
    throwers, satchels = order.grenades, order.satchels
    if not throwers and not satchels:
        return []
    for unit_id in (*throwers, *satchels):
        if unit_id not in order.units or not board.unit(unit_id).kind.infantry:
            raise BadInput("X weapon", unit_id, "only infantry of the fire group use X weapons")
    if set(throwers) & set(satchels) or len(set(throwers)) != len(throwers):
        raise IllegalAction(X_WEAPONS, "a unit uses one grenade or one satchel per attack")
    if distance != 1:
        raise IllegalAction(X_WEAPONS, "grenades and satchel charges reach adjacent hexes only")
    have = pool or Pool()
    if len(throwers) > have.grenades or len(satchels) > have.satchels:
        raise IllegalAction(
            "V&V r. 12.1",
            f"{order.side}'s pool holds {have.grenades} grenades, {have.satchels} satchels",
        )
    for unit_id in satchels:
        contributions[unit_id] += have.satchel_apfp
    if not throwers:
        return []
    count = len(throwers) if board.settings.grenade_each else 1
    return [DRM(RULES.grenade_drm * count, f"grenades ({', '.join(throwers)})", X_WEAPONS)]


def lends(board: Board, unit_id: str, apfp: int) -> bool:
    """Whether a leader adding ``apfp`` lends his Leadership Modifier: he reaches the target,
    or the setting ``leader_lends_out_of_range`` lets him lend it from out of range (r. 13.6)."""
    return apfp > 0 or board.settings.leader_lends_out_of_range


def _leader(board: Board, order: FireOrder, contributions: Mapping[str, int]) -> str | None:
    leaders = [
        u
        for u in order.units
        if board.unit(u).kind is Kind.LEADER and lends(board, u, contributions.get(u, 0))
    ]
    if order.leader is not None:
        if order.leader not in order.units or board.unit(order.leader).kind is not Kind.LEADER:
            raise IllegalAction(
                "VV.AP-leader", f"{order.leader} is not a leader of this fire group"
            )
        if order.leader not in leaders:
            raise IllegalAction(
                "VV.AP-leader",
                f"{order.leader} cannot reach {board.label(order.target)} and so lends no"
                " Leadership Modifier (setting leader_lends_out_of_range=false)",
            )
        return order.leader
    if not leaders:
        return None
    return min(leaders, key=lambda u: (board.unit(u).leadership, u))


def _clauses(board: Board, order: FireOrder, leader: str | None) -> tuple[str, ...]:
    clauses = ["VV.AP-targets", "VV.AP-resolve"]
    if len(order.units) > 1:
        clauses.append(GROUPS)
    if leader is not None:
        clauses.append("VV.AP-leader")
    if any(board.status[u].aboard for u in order.units):
        clauses.append(PASSENGERS)
    if any(not board.unit(u).kind.infantry for u in order.units):
        clauses += ["VV.AP-weapons", "VV.AP-range", "VV.AP-arc"]
    if order.movers is not None:
        clauses.append("VV.AP-phases")
    return tuple(clauses)
