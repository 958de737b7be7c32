"""The first entry's body of a new game (SYS.record): what it plays, with which engine, the
commitment to its server seed, and its writer's key; for a game by e-mail, the invited side's
one-time code.

>>> from ordnance.game.scenario import scenario_from_mapping
>>> scenario = scenario_from_mapping({"ruleset": "asl", "name": "demo", "date": "1945-03",
...     "sides": {"russian": {"units": {"t34": {"kind": "vehicle", "notation": "A5(4)/6(5)"}}},
...               "german": {}}})
>>> body, codes = start_body("g1", scenario, {"public_key": "k"}, None, lambda: "c0mm1t")
>>> body["ruleset"], body["commitment"], codes
('asl', 'c0mm1t', {})
>>> body, codes = start_body("g1", scenario, {"public_key": "k"}, "german", lambda: "unused")
>>> body["commitment"], list(codes), list(body["pbem"]["invited"])
(None, ['russian'], ['russian'])
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from ordnance import __version__
from ordnance.core.errors import BadInput
from ordnance.game.pbem import new_code, other_side
from ordnance.game.scenario import Scenario


def start_body(
    game_id: str,
    scenario: Scenario,
    signer: dict[str, Any],
    by_email: str | None,
    commit: Callable[[], str],
) -> tuple[dict[str, Any], dict[str, str]]:
    """The start entry's body and the invitation codes by side (none unless ``by_email``
    names the side this copy plays). ``commit()``: the commitment to a fresh server seed,
    asked only for a fair game not played by e-mail (the seed is kept before the game that
    commits to it exists); ``signer``: the writer's key declaration."""
    body: dict[str, Any] = {
        "game": game_id,
        "ruleset": scenario.ruleset,
        "engine": __version__,
        "scenario": scenario.to_json(),
        "commitment": None,
        "signer": signer,
    }
    codes: dict[str, str] = {}
    if by_email is not None:
        if by_email not in scenario.sides:
            known = ", ".join(scenario.sides)
            raise BadInput("side", by_email, f"no such side; sides: {known}")
        codes = {other_side(scenario.sides, by_email): new_code()}
        invited = {s: hashlib.sha256(c.encode("utf-8")).hexdigest() for s, c in codes.items()}
        body["pbem"] = {"inviter": by_email, "invited": invited}
    elif scenario.dice == "fair":
        body["commitment"] = commit()
    return body, codes
