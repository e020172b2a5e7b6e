"""The local play page (``python -m web``): a game played to the end in a real browser, and every
forged, stale or malformed move refused with a note and nothing changed."""

from __future__ import annotations

import re

from aiohttp.test_utils import TestClient, TestServer

import games
from games.hints import hint
from tests.browser import open_browser
from web.local import GAMES, local_app


async def start(client: TestClient, game: str = "q2j", players: str = "2", level: str = "easy") -> str:
    answer = await client.post("/new", data={"game": game, "players": players, "level": level},
                               allow_redirects=False)
    assert answer.status == 303, await answer.text()
    return answer.headers["Location"]


async def test_the_start_page_offers_every_game_and_its_rules() -> None:
    async with TestClient(TestServer(local_app())) as client:
        page = await (await client.get("/")).text()
        for game in games.all_games():
            assert f'value="{game.id}"' in page and f'href="/rules/{game.id}"' in page
            rules = await client.get(f"/rules/{game.id}")
            assert rules.status == 200 and game.name in await rules.text()


async def test_forged_stale_and_malformed_moves_are_refused_and_change_nothing() -> None:
    async with TestClient(TestServer(local_app())) as client:
        where = await start(client)
        played = client.server.app[GAMES].get(where.rsplit("/", 1)[1])
        state_before, version = played.state.to_json(), played.version
        legal = {a.code() for a in played.state.legal_actions(0)}
        forged = next(f"play:{c}" for c in ("AS", "2S", "3S", "4S", "5S", "6S") if f"play:{c}" not in legal)
        refusals = [
            ({"version": str(version), "move": forged}, 400),
            ({"version": str(version), "move": "<script>alert(1)</script>"}, 400),
            ({"version": str(version + 1), "move": next(iter(legal))}, 409),
            ({"version": "-1", "move": next(iter(legal))}, 400),
            ({"move": next(iter(legal))}, 400),
        ]
        for form, status in refusals:
            answer = await client.post(f"{where}/move", data=form, allow_redirects=False)
            text = await answer.text()
            assert answer.status == status, (form, text)
            assert 'class="notice"' in text and "<script>alert" not in text
            assert played.state.to_json() == state_before and played.version == version
        for bad in ({"game": "chess", "players": "2", "level": "easy"},
                    {"game": "q2j", "players": "1", "level": "easy"},
                    {"game": "q2j", "players": "2", "level": "god"},
                    {"game": "q2j", "players": "2", "level": "easy", "option-variant": "<b>"}):
            answer = await client.post("/new", data=bad, allow_redirects=False)
            assert answer.status == 400 and 'class="notice"' in await answer.text()
        hinted = await (await client.get(f"{where}?hint=1")).text()
        advice = hint(played.state, 0)
        assert f'<p class="hint">💡 {advice.action.words().render("en")}: ' in hinted
        assert advice.action.code() in legal and played.state.to_json() == state_before  # a hint changes nothing
        assert (await client.get("/play/nosuchgame")).status == 404
        assert (await client.get("/rules/chess")).status == 404


async def test_a_game_is_played_to_the_end_in_a_browser_in_french_with_no_console_error() -> None:
    async with TestClient(TestServer(local_app())) as client, open_browser() as browser:
        tab = await browser.new_tab(language="fr-FR,fr;q=0.9", width=380)
        await tab.goto(str(client.make_url("/")))
        assert "Jouer" in await tab.text()
        await tab.click('form[action="/new"] button')  # the first game: Q Squared Joe, 2 players
        assert "/play/" in await tab.eval("location.pathname")
        for _ in range(400):
            if await tab.eval("!document.querySelector('.moves')"):
                break
            await tab.click(".moves button")
        status = await tab.text("#status")
        assert status.startswith("🏁"), status
        assert re.search(r"Partie terminée|Vous avez gagné", status), status
        assert await tab.eval("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
        assert tab.errors == []


async def test_whole_number_options_are_typed_on_the_start_page_and_checked() -> None:
    async with TestClient(TestServer(local_app())) as client:
        page = await (await client.get("/")).text()
        assert ('<input type="number" name="option-target" min="0" max="100000" step="1" value="1000" required>'
                in page)
        assert 'name="option-finish" min="5" max="100"' in page
        form = {"game": "queen-of-spades", "players": "2", "level": "easy"}
        where = await client.post("/new", data={**form, "option-target": " 500 "}, allow_redirects=False)
        assert where.status == 303
        played = client.server.app[GAMES].get(where.headers["Location"].rsplit("/", 1)[1])
        assert played.state.options["target"] == 500
        kept = len(client.server.app[GAMES])
        for bad, why in (("100001", "expected a number from 0 to 100000"), ("12.5", "expected a whole number"),
                         ("<b>", "expected a whole number"), ("", "expected a whole number")):
            answer = await client.post("/new", data={**form, "option-target": bad}, allow_redirects=False)
            text = await answer.text()
            assert answer.status == 400 and why in text and "<b>" not in text, (bad, text)
        assert len(client.server.app[GAMES]) == kept  # a refused form starts no game
