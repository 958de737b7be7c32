"""Physical dice with the server's AI (issue 26): the human side's page, and the API, ask for
the AI's rolls one labelled field per roll, and the AI's command is played with them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.web.conftest import EXAMPLES, create_game, csrf_of, version_of

from ordnance.game.logfile import verify
from ordnance.web.pages import _scenario
from ordnance.web.table import Table

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

AI_FORM = re.compile(r'<section aria-labelledby="ai-dice-h".*?</section>', re.S)


def _until_the_ai_rolls(client, game, link):
    """The Americans end phases until the German AI must roll; every answer is a page."""
    page = client.get(link)
    base = f"/games/{game}/american"
    table = client.app.state.table
    for _ in range(12):
        if AI_FORM.search(page.text):
            return page
        page = client.post(
            f"{base}/do",
            data={
                "csrf": csrf_of(page.text),
                "version": version_of(page.text),
                "action": "phase next",
            },
        )
        # On main the American's move was stored and then answered 422 (the AI's roll).
        assert page.status_code == 200, page.text[-400:]
        # The AI plays in the background, up to the command that needs dice.
        assert table.settle(game)
        page = client.get(base)
    pytest.fail("the AI never had to roll")


@pytest.mark.clause("SYS.dice", "VV.AP-phases")
def test_the_page_asks_for_the_ais_dice_and_plays_its_command_with_them(client):
    game, links, _ = create_game(client, "vv-hedgerow-ambush", dice="physical", ai="german")
    page = _until_the_ai_rolls(client, game, links["american"])
    table = client.app.state.table
    waiting = table.ai_waiting(table.call(lambda s: s.game(game), game))
    assert waiting is not None and waiting.side == "german"
    form = AI_FORM.search(page.text).group(0)
    assert f"<code>{waiting.text}</code>" in form
    # One labelled field per roll, in order, each saying what it is for and how many dice.
    labels = re.findall(r'<label for="(ai-roll-\d+)">([^<]+)</label>', form)
    fields = re.findall(r'<input id="(ai-roll-\d+)" name="dice"', form)
    assert [f for f, _ in labels] == fields == [f"ai-roll-{i + 1}" for i in range(len(fields))]
    assert len(fields) == len(waiting.rolls) >= 1
    for (_, label), roll in zip(labels, waiting.rolls, strict=True):
        assert roll.purpose in label and ("two dice" in label) == (roll.dice == 2)
    before = version_of(page.text)
    base = f"/games/{game}/american"
    csrf = csrf_of(page.text)
    # Wrong dice are one sentence on the page, and nothing is stored.
    wrong = client.post(
        f"{base}/ai-dice",
        data={"csrf": csrf, "version": before, "command": waiting.text, "dice": ["3,4", "2,2"]},
    )
    assert wrong.status_code == 422 and 'class="notice"' in wrong.text
    assert "more dice were entered than the command rolls" in wrong.text
    assert version_of(wrong.text) == before and AI_FORM.search(wrong.text)
    # A page that showed another command, or an older version, plays nothing.
    other = client.post(
        f"{base}/ai-dice",
        data={"csrf": csrf, "version": before, "command": "phase next", "dice": ["3,4"]},
    )
    assert other.status_code == 422 and version_of(other.text) == before
    stale = client.post(
        f"{base}/ai-dice",
        data={"csrf": csrf, "version": before - 1, "command": waiting.text, "dice": ["3,4"]},
    )
    assert stale.status_code == 409 and version_of(stale.text) == before
    dice = ["3,4" if r.dice == 2 else "4" for r in waiting.rolls]
    played = client.post(
        f"{base}/ai-dice",
        data={"csrf": csrf, "version": before, "command": waiting.text, "dice": dice},
    )
    # The notice says what the AI played, dice included.
    assert played.status_code == 200 and '<p class="notice news">german ' in played.text
    assert table.settle(game)
    assert version_of(played.text) > before
    log = table.call(lambda s: s.log(game))
    sent = next(e for e in log if e.seq == before)
    assert sent.side == "german" and sent.body["command"]["text"] == waiting.text
    assert [r["faces"] for r in sent.body["rolls"]] == [[3, 4] if d == "3,4" else [4] for d in dice]
    assert all(r["source"] == "physical" for r in sent.body["rolls"])
    assert verify(client.get(f"/games/{game}/export").content).ok


@pytest.mark.clause("SYS.dice")
def test_the_spectator_and_fair_games_get_no_ai_dice_form(client):
    game, links, spectator = create_game(client, "vv-hedgerow-ambush", dice="physical", ai="german")
    _until_the_ai_rolls(client, game, links["american"])
    watched = client.get(spectator)
    assert not AI_FORM.search(watched.text) and 'method="post"' not in watched.text
    fair, fair_links, _ = create_game(client, "vv-hedgerow-ambush", dice="fair", ai="german")
    page = client.get(fair_links["american"])
    base = f"/games/{fair}/american"
    table = client.app.state.table
    for _ in range(4):
        # The fair dice decide what the Americans face: they take the first legal action.
        legal = table.call(lambda s: s.status(fair, "american"))["legal_actions"]["american"]
        page = client.post(
            f"{base}/do",
            data={"csrf": csrf_of(page.text), "version": version_of(page.text), "action": legal[0]},
        )
        assert page.status_code == 200 and not AI_FORM.search(page.text)
        assert table.settle(fair)
        page = client.get(base)
        assert not AI_FORM.search(page.text)
    # Dice for a fair game's AI are refused, with a sentence.
    refused = client.post(
        f"{base}/ai-dice",
        data={"csrf": csrf_of(page.text), "version": version_of(page.text), "dice": ["3,4"]},
    )
    assert refused.status_code == 422 and "fair dice" in refused.text


def _api_game(client, dice: str = "physical") -> tuple[str, str]:
    text = (EXAMPLES / "vv-hedgerow-ambush.yaml").read_text(encoding="utf-8")
    made = client.post(
        "/api/games",
        json={"scenario": text.replace("dice: fair", f"dice: {dice}"), "ai_sides": ["german"]},
    )
    assert made.status_code == 200, made.text
    data = made.json()
    return data["game"], data["tokens"]["american"]


@pytest.mark.clause("SYS.dice", "VV.AP-phases")
def test_the_api_names_the_ais_rolls_and_takes_them(client):
    game, token = _api_game(client)
    auth = {"Authorization": f"Bearer {token}"}
    answer: dict = {}
    table = client.app.state.table
    for _ in range(12):
        sent = client.post(
            f"/api/games/{game}/do",
            json={"side": "american", "words": ["phase", "next"]},
            headers=auth,
        )
        assert sent.status_code == 200, sent.text
        # The AI's answer comes in the background: a client reads the status until the AI
        # is no longer to play (here the test waits on the server's table).
        assert table.settle(game)
        answer = client.get(f"/api/games/{game}").json()
        assert answer["ai_to_play"] is False and answer["ai_trouble"] is None
        answer["version_now"] = answer["version"]
        if answer["ai_waiting"] is not None:
            break
    waiting = answer["ai_waiting"]
    assert waiting["side"] == "german" and answer["to_move"] == "german"
    assert waiting["needs_dice"] and {r["dice"] for r in waiting["needs_dice"]} <= {1, 2}
    assert all(r["purpose"] for r in waiting["needs_dice"])
    version = answer["version_now"]
    # Too few dice (none): 422 with the rolls still to enter; nothing stored.
    short = client.post(
        f"/api/games/{game}/ai-dice",
        json={"side": "american", "dice": [], "expect_version": version},
        headers=auth,
    )
    assert short.status_code == 422 and short.json()["error"] == "bad-input"
    # Without the side's token: 403.
    stranger = client.post(
        f"/api/games/{game}/ai-dice",
        json={"side": "american", "dice": ["3,4"]},
        headers={"Authorization": "Bearer nope"},
    )
    assert stranger.status_code == 403
    # The status answer is the CLI's; the AI's turn is still waiting, nothing stored.
    assert client.get(f"/api/games/{game}").json()["version"] == version
    dice = ["2,3" if r["dice"] == 2 else "5" for r in waiting["needs_dice"]]
    played = client.post(
        f"/api/games/{game}/ai-dice",
        json={
            "side": "american",
            "dice": dice,
            "expect_version": version,
            "command": waiting["command"],
        },
        headers=auth,
    )
    assert played.status_code == 200, played.text
    body = played.json()
    assert body["commands"][0] == {
        "side": "german",
        "command": waiting["command"],
        "version": version + 1,
    }
    assert body["version_now"] > version


@pytest.mark.clause("SYS.dice")
def test_short_dice_say_which_rolls_are_still_missing(tmp_path: Path) -> None:
    """Through the table: dice that fall short raise DiceWanted naming the rolls after them."""
    from ordnance.game.autoplay import DiceWanted  # noqa: PLC0415

    text = (EXAMPLES / "vv-hedgerow-ambush.yaml").read_text(encoding="utf-8")
    scenario, ai_sides = _scenario(text, "physical", "german")
    table = Table(str(tmp_path / "games.db"), tmp_path / "ai.json")
    try:
        made = table.create(scenario, ai_sides)
        token = made.tokens["american"]
        for _ in range(12):
            assert table.settle(made.game)
            if table.ai_waiting(table.call(lambda s: s.game(made.game), made.game)) is not None:
                break
            table.do(made.game, "american", token, ["phase", "next"], expect=None)
        waiting = table.ai_waiting(table.call(lambda s: s.game(made.game), made.game))
        assert waiting is not None
        with pytest.raises(DiceWanted) as raised:
            table.ai_dice(made.game, "american", token, [], expect=waiting.version)
        assert raised.value.waits.rolls == waiting.rolls
        assert "roll 1 - " in str(raised.value) and "--dice" in str(raised.value)
        # Every side played by the AI with physical dice: nobody could enter them.
        with pytest.raises(Exception, match="a player enters the AI's rolls"):
            table.create(scenario, list(scenario.sides))
    finally:
        table.close()
