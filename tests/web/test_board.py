"""The board's endpoints: a chosen unit's offered hexes (JSON) and the preview of one (HTML).

Each bundled example is played by its pages only: the offers of every unit that may act are
checked against the side's legal actions, previews are opened, and the command a preview
composes is confirmed through the side's ``do`` form.
"""

from __future__ import annotations

import re
import shlex
from fractions import Fraction
from html import unescape
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import EXAMPLES, create_game, csrf_of, version_of

from ordnance.core.command_words import CommandTable, Option, Positional, Verb, label
from ordnance.game import registry
from ordnance.game.rolls import needed_rolls
from ordnance.web import pages, preview

BUNDLED = sorted(p.stem for p in EXAMPLES.glob("*.yaml"))


def joined(client: TestClient, example: str, dice: str = "") -> tuple[str, list[str]]:
    game, links, _ = create_game(client, example, dice=dice, ai="none")
    for link in links.values():
        assert client.get(link, follow_redirects=False).status_code == 303
    return game, list(links)


def status(client: TestClient, game: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/api/games/{game}").json()
    return answer


def acting_units(html: str) -> list[str]:
    return re.findall(r'data-choose-unit="([^"]+)"', html)


def until_units_act(client: TestClient, game: str, limit: int = 12) -> tuple[str, str]:
    """End phases (by the page's End phase button) until a side has a unit that may act."""
    for _ in range(limit):
        side = status(client, game)["to_move"]
        page = client.get(f"/games/{game}/{side}").text
        if acting_units(page):
            return side, page
        assert "End phase" in page, "a side with nothing but 'phase next' gets an End phase button"
        ended = client.post(
            f"/games/{game}/{side}/do",
            data={"csrf": csrf_of(page), "version": str(version_of(page)), "action": "phase next"},
        )
        assert ended.status_code == 200, ended.text
    pytest.fail("no unit could act")


def legal(client: TestClient, game: str, side: str) -> list[str]:
    actions: list[str] = client.get(f"/api/games/{game}", params={"side": side}).json()[
        "legal_actions"
    ][side]
    return actions


def fractions(html: str) -> list[Fraction]:
    return [Fraction(f) for f in re.findall(r'data-fraction="([^"]+)"', html)]


def composed(html: str) -> str | None:
    found = re.search(r'name="action" value="([^"]*)"', html.split('class="confirm"', 1)[-1])
    return unescape(found.group(1)) if found and 'class="confirm"' in html else None


@pytest.mark.clause("SYS.odds")
@pytest.mark.parametrize("example", BUNDLED)
def test_offers_place_each_unit_s_legal_actions_on_hexes(client: TestClient, example: str) -> None:
    game, _ = joined(client, example)
    side, page = until_units_act(client, game)
    actions = legal(client, game, side)
    rules = client.app.state.table.service.game(game).rules  # type: ignore[attr-defined]
    verbs = set(rules.commands.verbs)
    for unit in acting_units(page):
        answer = client.get(f"/games/{game}/{side}/offers", params={"unit": unit})
        assert answer.status_code == 200
        body = answer.json()
        assert body["unit"] == unit and body["version"] == version_of(page)
        if body["from"] is None and example == "asl-c8-demo":
            continue  # three of its units stand on no hex until issue 27 places them
        assert body["hexes"], f"{unit} is listed as able to act but has no hex"
        named = {a.split()[0] for a in actions if unit in [*a.split(), ""][1].split(",")}
        offered = {verb for h in body["hexes"] for verb in h["actions"]}
        assert offered == named and offered <= verbs
        for h in body["hexes"]:
            assert re.fullmatch(r"[0-9A-Z]+", h["hex"]), h
            # (the C8 demo has no map until issue 27 gives it one)
            if '<figure class="map"' in page:
                assert f'id="hex-{h["hex"]}"' in page, f"offered hex {h['hex']} is not on the map"


@pytest.mark.clause("SYS.odds")
def test_a_rolling_preview_has_a_table_of_exact_odds_summing_to_one(client: TestClient) -> None:
    # V&V has odds on main; ASL and LnL get theirs through the same protocol (issue 27).
    game, _ = joined(client, "vv-hedgerow-ambush")
    for _ in range(30):
        side, page = until_units_act(client, game)
        for unit in acting_units(page):
            body = client.get(f"/games/{game}/{side}/offers", params={"unit": unit}).json()
            for h in body["hexes"]:
                if "fire" not in h["actions"]:
                    continue
                shown = client.get(
                    f"/games/{game}/{side}/preview", params={"unit": unit, "hex": h["hex"]}
                )
                assert shown.status_code == 200
                assert shown.text.lstrip().startswith('<section class="preview" data-preview')
                assert "<table" in shown.text and sum(fractions(shown.text)) == 1
                assert f'data-los-from="{body["from"]}" data-los-to="{h["hex"]}"' in shown.text
                assert "Line of sight" in shown.text
                # The same preview inside the page, for a browser without script.
                full = client.get(f"/games/{game}/{side}", params={"unit": unit, "hex": h["hex"]})
                assert "data-preview" in full.text and sum(fractions(full.text)) == 1
                return
        # No shot yet: move someone (by the first offered hex) and look again.
        unit = acting_units(page)[0]
        body = client.get(f"/games/{game}/{side}/offers", params={"unit": unit}).json()
        shown = client.get(
            f"/games/{game}/{side}/preview", params={"unit": unit, "hex": body["hexes"][0]["hex"]}
        ).text
        command = composed(shown)
        assert command is not None
        data = {"csrf": csrf_of(shown), "version": str(version_of(page)), "action": command}
        client.post(f"/games/{game}/{side}/do", data=data)
    pytest.fail("no fire was offered")


@pytest.mark.clause("SYS.record")
@pytest.mark.parametrize("example", BUNDLED)
def test_the_command_a_preview_composes_is_accepted(client: TestClient, example: str) -> None:
    game, _ = joined(client, example, dice="fair")
    side, page = until_units_act(client, game)
    unit = acting_units(page)[0]
    body = client.get(f"/games/{game}/{side}/offers", params={"unit": unit}).json()
    where = {"unit": unit, "hex": body["hexes"][0]["hex"]}
    shown = client.get(f"/games/{game}/{side}/preview", params=where).text
    # What the table asks for (a To Hit number): Confirm waits for it; the middle of its range.
    asked = {
        name: str((int(low) + int(high)) // 2)
        for name, low, high in re.findall(
            r'<input id="[^"]+" name="([^"]+)" type="number" inputmode="numeric" value=""'
            r' min="(-?\d+)" max="(-?\d+)"',
            shown,
        )
    }
    if asked:
        assert composed(shown) is None and "to confirm" in shown
        shown = client.get(f"/games/{game}/{side}/preview", params={**where, **asked}).text
    command = composed(shown)
    assert command is not None
    rules = registry.ruleset(client.get(f"/api/games/{game}").json()["ruleset"])
    assert rules.parse_command(side, shlex.split(command)).text == command  # canonical words
    before = version_of(page)
    done = client.post(
        f"/games/{game}/{side}/do",
        data={"csrf": csrf_of(shown), "version": str(before), "action": command},
    )
    assert done.status_code == 200 and version_of(done.text) > before
    assert command in done.text  # the log and the rulings name it


@pytest.mark.clause("SYS.dice")
def test_physical_dice_get_one_labelled_field_per_roll_in_order(client: TestClient) -> None:
    game, _ = joined(client, "vv-hedgerow-ambush", dice="physical")
    side, page = until_units_act(client, game)
    for unit in acting_units(page):
        body = client.get(f"/games/{game}/{side}/offers", params={"unit": unit}).json()
        fire = next((h for h in body["hexes"] if "fire" in h["actions"]), None)
        if fire is None:
            continue
        shown = client.get(
            f"/games/{game}/{side}/preview", params={"unit": unit, "hex": fire["hex"]}
        ).text
        command = composed(shown)
        assert command is not None
        folded = client.app.state.table.service.game(game)  # type: ignore[attr-defined]
        needed = needed_rolls(
            folded.rules, folded.state, folded.rules.parse_command(side, shlex.split(command)), []
        )
        labels = re.findall(r'<label for="roll-(\d+)">Roll \d+: ([^(<]+) \(', shown)
        assert [int(n) for n, _ in labels] == list(range(1, len(needed.rolls) + 1))
        assert [p.strip() for _, p in labels] == [r.purpose for r in needed.rolls]
        assert shown.count('name="dice"') == len(needed.rolls) >= 1
        done = client.post(
            f"/games/{game}/{side}/do",
            data={
                "csrf": csrf_of(shown),
                "version": str(version_of(page)),
                "action": command,
                "dice": ["3,4" if r.dice == 2 else "4" for r in needed.rolls],
            },
        )
        assert done.status_code == 200 and version_of(done.text) > version_of(page)
        return
    pytest.fail("no fire was offered")


def test_offers_and_previews_check_the_side_s_token(client: TestClient) -> None:
    game, links, _ = create_game(client, "vv-hedgerow-ambush", ai="none")
    assert client.get(f"/games/{game}/american/offers", params={"unit": "a1"}).status_code == 403
    assert client.get(f"/games/{game}/american/preview?unit=a1&hex=E5").status_code == 403
    client.get(links["american"])
    assert client.get(f"/games/{game}/american/offers").status_code == 422
    answer = client.get(f"/games/{game}/american/preview", params={"action": "fire a1 --at Z9"})
    assert answer.status_code == 422 and "not an action you may take now" in answer.text
    nothing = client.get(f"/games/{game}/american/preview", params={"unit": "a1", "hex": "A1"})
    assert nothing.status_code == 422 and "a1 has no action at A1 now" in nothing.text


def test_the_actions_panel_lists_units_and_side_actions_not_commands(client: TestClient) -> None:
    game, _ = joined(client, "lnl-smoke-wp")
    side = status(client, game)["to_move"]
    page = client.get(f"/games/{game}/{side}").text
    assert "Choose one of your counters on the map" in page
    assert ">End phase</button>" in page
    assert 'type="radio" name="action"' not in page
    assert '<details class="expert">' in page  # the command box, folded


TABLE = CommandTable(
    {
        "fire": Verb(
            "",
            Positional("unit", "UNIT", "a unit", kind="unit"),
            {
                "--at": Option("at", label, kind="hex"),
                "--to-hit": Option("to_hit", int, kind="number", low=2, high=12, ask=True),
                "--ammo": Option("ammo", str, kind="ammo", choices=("AP", "APCR"), ask=True),
                "--mode": Option("mode", str, kind="choice", choices=("aimed", "area"), ask=True),
                "--aim": Option("aim", label, kind="hex", ask=True),
                "--ce": Option("ce", None, ask=True, help="Crew Exposed."),
                "--drm": Option("drms", int, repeats=True, kind="number"),
            },
        )
    }
)


def test_the_fields_follow_the_command_table_s_kinds() -> None:
    _, args = TABLE.read(["fire", "g", "--at", "E5", "--ammo", "AP"])
    fields = preview._fields(TABLE, "fire", args, {"opt-to-hit": "7"})
    # Only the options the table asks for and the offer left out; each with its kind.
    assert [(f.option, f.kind) for f in fields] == [
        ("--to-hit", "number"),
        ("--mode", "choice"),
        ("--aim", "hex"),
        ("--ce", "flag"),
    ]
    assert (fields[0].low, fields[0].high, fields[0].value) == (2, 12, "7")
    command, missing = preview._compose("fire g --at E5 --ammo AP", fields)
    assert command == "fire g --at E5 --ammo AP --to-hit 7" and len(missing) == 2
    board = preview.Board("g", "E5", "C3", choices=[(0, "fire")], fields=fields, missing=missing)
    html = pages.ENV.get_template("preview.html").render(
        board=board, base="/games/x/y", version=3, csrf="c"
    )
    assert 'type="number" inputmode="numeric" value="7" min="2" max="12"' in html
    assert '<select id="opt-mode" name="opt-mode">' in html and "<option>area</option>" in html
    assert 'type="checkbox" name="opt-ce"' in html and 'name="opt-aim" value=""' in html
    assert "Confirm" not in html  # not before every asked value is given
    fields[1].value, fields[2].value = "area", "E6"
    command, missing = preview._compose("fire g --at E5 --ammo AP", fields)
    assert command.endswith("--to-hit 7 --mode area --aim E6") and not missing


def test_choices_at_one_hex_are_named_by_what_differs() -> None:
    assert preview.choice_labels(["fire a1,a2,sgt --at E5", "fire a1 --at E5"], ["", ""]) == [
        "fire a1,a2,sgt",
        "fire a1",
    ]
    assert preview.choice_labels(["smoke-shell pz4 --at H3", "mg pz4 --at H3"], ["", ""]) == [
        "smoke-shell",
        "mg",
    ]
