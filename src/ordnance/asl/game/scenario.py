"""An ASL scenario file's content, checked and made self-contained (C8.0: the Guns in play).

The game service hands over the parsed YAML once it has passed the ASL scenario schema
(``ordnance/asl/data/scenario.schema.json``: keys, types, ranges, names); this module checks what
the schema cannot say (a date's counters, a notation, a hex on the boards, a unit id used by both
sides, a vehicle's D13 keys, whose kind a vasl-templates entry may give), resolves units named
from a vasl-templates directory into their notation (so the log replays without that directory)
and returns plain JSON. :class:`Sheet` is the same content as values: the scenario's fixed
facts, which the state refers to but never changes.

>>> body = load_scenario({
...     "ruleset": "asl", "name": "demo", "date": "1945-03",
...     "sides": {
...         "russian": {"units": {"t34": {"kind": "vehicle", "notation": "A5(4)/6(5) s8"}}},
...         "german": {"units": {"pak": {"notation": "A5(2)/4(3)/3(4) H6(3+)!", "size": "75L"}}},
...     },
... })
>>> body["units"]["t34"]["side"], body["units"]["pak"]["kind"], body["first"]
('russian', 'gun', 'russian')
>>> Sheet.of(body).units["t34"].tokens
(Token.parse('A5(4)/6(5)'), Token.parse('s8'))
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ordnance.asl import vasl_templates
from ordnance.asl.capabilities import AmmoContext
from ordnance.asl.dates import ScenarioDate, Theater, parse_nationality
from ordnance.asl.game.afv import Afv, read_afv
from ordnance.asl.game.mapfile import map_of, read_map
from ordnance.asl.heat import parse_weapon
from ordnance.asl.notation import Family, Token, format_capabilities, parse_capabilities
from ordnance.asl.settings import Settings
from ordnance.asl.supply import parse_gun_size
from ordnance.core import fields
from ordnance.core.cached import cached_property
from ordnance.core.errors import BadInput
from ordnance.core.hexgrid import Corner, GeomorphicLabels, Hex
from ordnance.core.limits import MAX_FP
from ordnance.core.maps import BUNDLED_ONLY, GameMap, Labels, MapFiles, MapUnreadable

# gun and vehicle keep a side record (C8.0); scw fire HEAT without one (C8.3-scw); atr fire AP.
KINDS = ("gun", "vehicle", "scw", "atr")


def load_scenario(data: Mapping[str, Any], maps: MapFiles = BUNDLED_ONLY) -> dict[str, Any]:
    """Check an ASL scenario (see the module docstring) and return its self-contained JSON.

    ``maps`` says what ``map`` and ``vasl_templates`` may name (on the CLI, files relative to
    the scenario's folder; on the server, no file). Every fault is a :class:`BadInput` naming
    the key (``sides.german.units.pak.size``).
    """
    date = fields.checked("date", ScenarioDate.parse, data["date"])
    theater = data.get("theater")
    if theater is not None:
        theater = str(fields.checked("theater", Theater.parse, theater))
    settings = Settings.scenario_values(data.get("settings"))
    templates = _templates(data.get("vasl_templates"), maps)
    boards = data.get("boards")
    labels: Labels | None = None
    if boards is not None:
        boards = str(boards)
        labels = fields.checked("boards", GeomorphicLabels.of, boards)
    game_map = read_map(data.get("map"), maps)
    if game_map is not None:
        labels = _map_labels(game_map, labels)
    sides: dict[str, Any] = {}
    units: dict[str, Any] = {}
    for side, body in data["sides"].items():
        where = f"sides.{side}"
        nationality = fields.checked(
            f"{where}.nationality", parse_nationality, body.get("nationality", side)
        )
        sides[side] = {"nationality": nationality, "elite": body.get("elite", False)}
        for unit_id, unit in body.get("units", {}).items():
            unit_where = f"{where}.units.{unit_id}"
            fields.unique(unit_id, unit_where, units)
            units[unit_id] = _unit(
                unit, unit_where, side=side, owner=sides[side], date=date, templates=templates
            )
            units[unit_id].update(_position(unit, unit_where, labels))
    if not units:
        raise fields.fault("sides", "no units: give each side its Guns under 'units'")
    first = data.get("first", next(iter(sides)))
    if first not in sides:
        raise fields.fault("first", f"names no side; sides: {', '.join(sides)}")
    return {
        "date": str(date),
        "theater": theater,
        "turns": data.get("turns"),
        "first": first,
        "settings": settings,
        "map": game_map,
        "boards": boards,
        "sides": sides,
        "units": units,
    }


def _templates(raw: str | None, maps: MapFiles) -> vasl_templates.VaslData | None:
    if raw is None:
        return None
    try:
        path = maps.local_path("vasl_templates", raw)
    except MapUnreadable as error:
        raise fields.fault(
            "vasl_templates", f"{error.reason}: give each unit's notation instead"
        ) from None
    loaded: vasl_templates.VaslData = fields.checked("vasl_templates", vasl_templates.load, path)
    return loaded


def _map_labels(body: Mapping[str, Any], boards: Labels | None) -> Labels:
    """With a map, hexes are named by the map's labels; ``boards``, if given, must agree."""
    game_map = map_of(body)
    assert game_map is not None
    if boards is not None and boards != game_map.labels:
        raise fields.fault(
            "boards", f"the map {body['file']} lays out its boards as {game_map.labels}"
        )
    return game_map.labels


def _unit(
    body: Mapping[str, Any],
    where: str,
    *,
    side: str,
    owner: Mapping[str, Any],
    date: ScenarioDate,
    templates: vasl_templates.VaslData | None,
) -> dict[str, Any]:
    unit: dict[str, Any] = {"side": side, "name": None, "source": "notation"}
    notation, kind = _counter(body, where, owner=owner, date=date, templates=templates, unit=unit)
    kind = body.get("kind", kind)
    if unit["name"] is None:
        unit["name"] = str(body.get("name", where.rsplit(".", 1)[-1])).strip()
    tokens = fields.checked(f"{where}.notation", _tokens, notation)
    size = body.get("size")
    if size is not None:
        size = fields.checked(f"{where}.size", parse_gun_size, str(size))
    origin = body.get("origin")
    if origin is not None:
        origin = fields.checked(f"{where}.origin", parse_nationality, origin)
    unit.update(
        kind=kind,
        notation=format_capabilities(tokens),
        size=size,
        breakdown=body.get("breakdown"),
        rof=body.get("rof"),
        elite=body.get("elite", owner["elite"]),
        canister_fp=_fp(body.get("canister_fp"), f"{where}.canister_fp"),
        he_fp=body.get("he_fp"),
        origin=origin,
        weapon=None,
        caliber=None,
    )
    _kind_fields(unit, body, where, tokens)
    unit["afv"] = read_afv(body, where, kind)
    return unit


def _counter(
    body: Mapping[str, Any],
    where: str,
    *,
    owner: Mapping[str, Any],
    date: ScenarioDate,
    templates: vasl_templates.VaslData | None,
    unit: dict[str, Any],
) -> tuple[str, str]:
    """The unit's notation and kind: written out, or read from the vasl-templates data."""
    if "template" not in body:
        return str(body.get("notation") or ""), "gun"
    if templates is None:
        raise fields.fault(
            f"{where}.template", "needs 'vasl_templates: DIR' at the top of the file"
        )
    entry = _template(templates, body["template"], owner, date, where)
    unit["name"] = str(body.get("name", entry.name))
    unit["source"] = f"vasl-templates {entry.id} ({entry.source})"
    return format_capabilities(entry.tokens), "vehicle" if entry.kind == "vehicle" else "gun"


def _template(
    data: vasl_templates.VaslData,
    wanted: str,
    owner: Mapping[str, Any],
    date: ScenarioDate,
    where: str,
) -> vasl_templates.Entry:
    """The entry whose id or name is ``wanted``, searched in the side's roster order."""
    groups = vasl_templates.roster_groups(owner["nationality"], date, data.parents, data.minors)
    key = html.unescape(wanted).casefold()
    for group in groups:
        found = [
            e
            for e in data.entries
            if e.nationality == group
            and not e.amends
            and key in (e.id.casefold(), e.name.casefold())
        ]
        if len(found) > 1:
            ids = ", ".join(e.id for e in found)
            raise fields.fault(
                f"{where}.template", f"{wanted!r} is ambiguous; give one id of {ids}"
            )
        if found:
            return found[0]
    raise fields.fault(
        f"{where}.template",
        f"no vehicle or Gun named {wanted!r} among {', '.join(groups)} in {data.directory}",
    )


def _position(body: Mapping[str, Any], where: str, labels: Labels | None) -> dict[str, str | None]:
    """Where the unit stands and which corner its CA faces (canister aiming, C8.4-target)."""
    hex_label, ca = body.get("hex"), body.get("ca")
    if hex_label is not None:
        if labels is None:
            raise fields.fault(f"{where}.hex", "a hex needs 'boards' (the board layout, e.g. 4,3)")
        hex_label = labels.label(fields.checked(f"{where}.hex", labels.parse, hex_label))
    if ca is not None:
        ca = str(Corner.parse(ca))
    return {"hex": hex_label, "ca": ca}


def _tokens(text: str) -> tuple[Token, ...]:
    return parse_capabilities(text) if text.strip() else ()


def _fp(value: object, where: str) -> str | None:
    """An FP kept as exact text (``12``, ``7.5``, ``15/2``)."""
    if value is None:
        return None
    try:
        fp = Fraction(str(value))
    except ZeroDivisionError:  # 15/0: the schema's pattern lets it through
        raise fields.fault(where, "expected a number") from None
    if not 0 < fp <= MAX_FP:
        raise fields.fault(where, f"must be positive, at most {MAX_FP}")
    return str(fp)


def _kind_fields(
    unit: dict[str, Any], body: Mapping[str, Any], where: str, tokens: tuple[Token, ...]
) -> None:
    """Fields only some kinds carry, and what each kind needs."""
    kind = unit["kind"]
    # The schema gives an scw its weapon and an atr its caliber, and no other kind either.
    if kind == "scw":
        unit["weapon"] = parse_weapon(body["weapon"]).name
    elif kind == "atr":
        unit["caliber"] = body["caliber"]
    needs_chart = any(
        t.family in (Family.APCR, Family.APDS) and all(s.number is None for s in t.steps)
        for t in tokens
    )
    if needs_chart and unit["size"] is None:
        raise fields.fault(
            f"{where}.size",
            "the counter lists APCR/APDS without a number: give the gun size (e.g. 75L) for"
            " the Ammunition Supply Chart (C8.2-chart)",
        )


@dataclass(frozen=True)
class Unit:
    """One unit's fixed facts: whose it is, its counter's tokens and numbers."""

    id: str
    side: str
    name: str
    kind: str
    tokens: tuple[Token, ...]
    size: str | None
    breakdown: int | None
    elite: bool
    canister_fp: Fraction | None
    he_fp: int | None
    origin: str | None
    weapon: str | None
    caliber: int | None
    hex: Hex | None = None
    ca: Corner | None = None
    afv: Afv | None = None
    rof: int | None = None  # Multiple Rate of Fire (the counter's ROF); None: no ROF (C8.1-rof)

    @property
    def keeps_record(self) -> bool:
        """Guns and vehicles have a side-record entry (C8.0); SCW and ATR do not."""
        return self.kind in ("gun", "vehicle")

    @property
    def calibre_mm(self) -> int | None:
        """The calibre in mm: an ATR's own, else the digits of the gun size."""
        if self.caliber is not None:
            return self.caliber
        if self.size is None:
            return None
        return _calibre(self.size)


@lru_cache(maxsize=256)
def _calibre(size: str) -> int | None:
    """The calibre digits of a gun size (read once per size: every shot asks)."""
    digits = re.match(r"\d+", size)
    return None if digits is None else int(digits[0])


def _place(labels: Labels | None, text: str | None) -> Hex | None:
    if text is None:
        return None
    if labels is None:
        raise BadInput("hex", text, "the scenario gives no 'boards', so hexes have no names")
    return labels.parse(text)


def _afv(unit: Mapping[str, Any]) -> Afv | None:
    if unit.get("afv") is not None:
        return Afv.of(unit["afv"])
    # A log written before D13 was kept: its vehicles are ordinary tanks.
    return Afv() if unit["kind"] == "vehicle" else None


_HEXES_KEPT = 4096  # hex labels a sheet remembers having read


@dataclass(frozen=True)
class Sheet:
    """The scenario as values: date, sides, units, settings, turns."""

    date: ScenarioDate
    theater: Theater | None
    turns: int | None
    first: str
    sides: tuple[str, ...]
    nationality: Mapping[str, str]
    units: Mapping[str, Unit]
    settings: Settings
    labels: Labels | None = None
    # The map is compared by its digest: two folds of one log read equal maps.
    map_sha256: str | None = None
    game_map: GameMap | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, body: Mapping[str, Any]) -> Sheet:
        """Build from :func:`load_scenario`'s JSON (as stored in the log)."""
        boards = body.get("boards")
        game_map = map_of(body.get("map"))
        labels: Labels | None = None
        if game_map is not None:
            labels = game_map.labels
        elif boards is not None:
            labels = GeomorphicLabels.of(boards)
        units = {
            unit_id: Unit(
                id=unit_id,
                side=u["side"],
                name=u["name"],
                kind=u["kind"],
                tokens=_tokens(u["notation"]),
                size=u["size"],
                breakdown=u["breakdown"],
                rof=u.get("rof"),  # a log stored before the key existed has none
                elite=u["elite"],
                canister_fp=None if u["canister_fp"] is None else Fraction(u["canister_fp"]),
                he_fp=u["he_fp"],
                origin=u["origin"],
                weapon=u["weapon"],
                caliber=u["caliber"],
                hex=_place(labels, u.get("hex")),
                ca=None if u.get("ca") is None else Corner.parse(u["ca"]),
                afv=_afv(u),
            )
            for unit_id, u in body["units"].items()
        }
        return cls(
            date=ScenarioDate.parse(body["date"]),
            theater=None if body["theater"] is None else Theater.parse(body["theater"]),
            turns=body["turns"],
            first=body["first"],
            sides=tuple(body["sides"]),
            nationality={side: s["nationality"] for side, s in body["sides"].items()},
            units=units,
            settings=Settings().override(body["settings"]),
            labels=labels,
            map_sha256=None if body.get("map") is None else body["map"]["sha256"],
            game_map=game_map,
        )

    @cached_property
    def vehicles(self) -> tuple[str, ...]:
        """The ids of the units with D13 facts (their status carries an ``AfvStatus``)."""
        return tuple(u.id for u in self.units.values() if u.afv is not None)

    def other(self, side: str) -> str:
        """The opposing side."""
        found = self._opponents.get(side)
        return next(s for s in self.sides if s != side) if found is None else found

    @cached_property
    def _opponents(self) -> dict[str, str]:
        """Each side's opponent, worked out once (every DFPh and Player Turn asks)."""
        opponents: dict[str, str] = {}
        for side in self.sides:
            for other in self.sides:
                if other != side:
                    opponents.setdefault(side, other)
        return opponents

    def context(self, unit: Unit) -> AmmoContext:
        """What the unit's counter is read against (C8.91, C8.2-elite, date flags)."""
        return AmmoContext(
            self.date,
            elite=unit.elite,
            theater=self.theater,
            nationality=self.nationality[unit.side],
        )

    def hex(self, text: str) -> Hex:
        """A hex named by its board label (``4G5``); needs the scenario's ``boards``."""
        place = self._hexes.get(text)
        if place is None:
            place = _place(self.labels, text)
            assert place is not None
            if len(self._hexes) < _HEXES_KEPT:
                self._hexes[text] = place  # a label always names the same hex
        return place

    @cached_property
    def board(self) -> frozenset[Hex]:
        """Every hex of the boards (none without them)."""
        return frozenset(() if self.labels is None else self.labels.hexes())

    @cached_property
    def _hexes(self) -> dict[str, Hex]:
        """The hexes :meth:`hex` has read, by label (the events of a log name few hexes)."""
        return {}

    def label(self, hex: Hex) -> str:
        assert self.labels is not None
        return self.labels.label(hex)

    def unit(self, unit_id: str) -> Unit:
        found = self.units.get(unit_id)
        if found is None:
            raise BadInput("unit", unit_id, f"no such unit; units: {', '.join(self.units)}")
        return found
