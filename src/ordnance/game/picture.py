"""What a game's map picture holds now: the live map, its terrain table and the units' counters.

``ordnance game render`` and the web table both draw a game through this one function and
:func:`ordnance.core.maps.svg.render_svg`, so a page shows exactly what the command writes.

>>> from ordnance.game.registry import ruleset
>>> from ordnance.game.scenario import scenario_from_mapping
>>> scenario = scenario_from_mapping({"ruleset": "vv", "name": "demo", "map": "vv-hedgerows",
...     "sides": {"us": {"units": {"a": {"kind": "squad", "counter": "4-6-5", "hex": "C7"}}},
...               "de": {"units": {}}}})
>>> rules = ruleset("vv")
>>> picture = game_picture(rules, rules.initial_state(scenario.body))
>>> picture is not None and [c.unit for c in picture.counters]
['a']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ordnance.core.maps import CounterView, GameMap, TerrainChart
from ordnance.core.ruleset import Ruleset
from ordnance.game.registry import spec_of


@dataclass(frozen=True)
class GamePicture:
    """The map as the game stands (markers included), its table, and every unit's counter."""

    game_map: GameMap
    chart: TerrainChart
    counters: tuple[CounterView, ...]


def game_picture(rules: Ruleset[Any], state: Any) -> GamePicture | None:
    """The picture of ``state``; None when the ruleset or the scenario has no map."""
    spec = spec_of(rules)
    on_map = spec.map_rules(rules)
    live = None if on_map is None else on_map.live_map(state)
    if live is None:
        return None
    units = spec.counters(rules)
    counters = () if units is None else units.counters(state)
    return GamePicture(live[0], live[1], tuple(counters))
