"""The local play page (``python -m web``): a game played to the end in a real browser, and every
forged, stale or malformed move refused with a note and nothing changed."""

from __future__ import annotations

import re
from html import escape

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
        move = advice.action.words().render("en")
        assert f'<p class="hint">💡 {move[:1].upper()}{move[1:]}: ' in hinted
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


def card(page: str, game: str) -> str:
    """The start page's card of ``game``: its HTML, from its heading to the end of its form."""
    start = page.index(f'<input type="hidden" name="game" value="{game}">')
    return page[page.rindex('<section class="card">', 0, start):page.index("</section>", start)]


async def test_whole_number_options_are_typed_on_the_start_page_and_checked() -> None:
    async with TestClient(TestServer(local_app())) as client:
        page = await (await client.get("/")).text()
        assert ('<input type="number" name="option-target" min="0" max="100000" step="1" value="1000" required>'
                in page)
        assert 'name="option-finish" min="5" max="100"' in page
        form = {"game": "queen-of-spades", "players": "3", "level": "hard", "option-rounds": "7"}
        where = await client.post("/new", data={**form, "option-target": " 500 "}, allow_redirects=False)
        assert where.status == 303
        played = client.server.app[GAMES].get(where.headers["Location"].rsplit("/", 1)[1])
        assert played.state.options["target"] == 500
        kept = len(client.server.app[GAMES])
        for bad, why in (("100001", "Type a whole number from 0 to 100000, not “100001”."),
                         ("12.5", "Type a whole number from 0 to 100000, not “12.5”."),
                         ("<b>x</b>", "Type a whole number from 0 to 100000, not “&lt;b&gt;x&lt;/b&gt;”."),
                         ("9" * 300, f"Type a whole number from 0 to 100000, not “{'9' * 20}…”."),
                         ("", "Type a whole number from 0 to 100000.")):
            answer = await client.post("/new", data={**form, "option-target": bad}, allow_redirects=False)
            text = await answer.text()
            assert answer.status == 400 and "<b>" not in text, (bad, text)
            # the form comes back as it was sent, the refusal under the field to mend, which has the focus
            refused = card(text, "queen-of-spades")
            assert (f'name="option-target" min="0" max="100000" step="1" value="{escape(bad)}" required '
                    f'aria-invalid="true" aria-describedby="refused" autofocus></label>'
                    f'<p class="notice" id="refused" role="alert">{why}</p>') in refused, (bad, refused)
            assert '<option value="3" selected>3</option>' in refused and '<option value="hard" selected>' in refused
            assert 'name="option-rounds" min="0" max="1000" step="1" value="7" required>' in refused
            assert text.count('class="notice"') == 1 and "autofocus" not in card(text, "quash")
        assert len(client.server.app[GAMES]) == kept  # a refused form starts no game


async def test_a_start_the_game_refuses_comes_back_in_its_card_in_the_readers_language() -> None:
    async with TestClient(TestServer(local_app())) as client:
        french = {"Accept-Language": "fr-FR,fr;q=0.9"}
        form = {"game": "q2j", "players": "3", "level": "easy", "option-variant": "challenge"}
        answer = await client.post("/new", data=form, headers=french, allow_redirects=False)
        text = await answer.text()
        refused = card(text, "q2j")
        assert answer.status == 400 and len(client.server.app[GAMES]) == 0
        assert ('<p class="notice" id="refused" role="alert">Challenge se joue à exactement 2 joueurs, pas 3</p>'
                '<button type="submit" autofocus>Jouer</button>') in refused
        assert '<option value="3" selected>3</option>' in refused
        assert '<option value="challenge" selected>' in refused
        answer = await client.post("/new", data={"game": "quash", "players": "2", "level": "easy",
                                                 "option-finish": "12abc"}, headers=french, allow_redirects=False)
        assert "Tapez un nombre entier de 5 à 100, pas «\u00a012abc\u00a0»." in card(await answer.text(), "quash")


async def test_the_start_page_fits_a_phone_in_french_and_says_a_refusal_beside_the_field() -> None:
    async with TestClient(TestServer(local_app())) as client, open_browser() as browser:
        tab = await browser.new_tab(language="fr-FR,fr;q=0.9", width=380)
        await tab.goto(str(client.make_url("/")))
        fits = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        assert await tab.eval(fits)  # War's long choice once pushed its card past the screen's edge
        assert "Joueurs" in await tab.text("section.card") and "Players" not in await tab.text()
        await tab.eval("""(() => { const form = document.querySelector('input[value="quash"]').form;
            const finish = form.elements['option-finish'];
            form.noValidate = true; finish.type = 'text'; finish.value = '<b>x</b>'; })()""")
        await tab.click('input[value="quash"] ~ button')
        await tab.wait_for("document.activeElement.name === 'option-finish'")  # autofocus runs after the load
        assert await tab.text("#refused") == "Tapez un nombre entier de 5 à 100, pas «\u00a0<b>x</b>\u00a0»."
        assert await tab.eval("""(() => { const box = document.querySelector('#refused').getBoundingClientRect();
            return box.top >= 0 && box.bottom <= innerHeight; })()""")  # seen without scrolling
        refused = "the server responded with a status of 400 (Bad Request) " + str(client.make_url("/new"))
        assert await tab.eval(fits) and [e for e in tab.errors if not e.endswith(refused)] == []


async def test_the_events_name_the_person_in_the_third_person_and_the_hint_reads_as_in_discord() -> None:
    async with TestClient(TestServer(local_app())) as client:
        french = {"Accept-Language": "fr-FR,fr;q=0.9"}
        where = await start(client, game="queen-of-spades")
        played = client.server.app[GAMES].get(where.rsplit("/", 1)[1])
        for _ in range(6):
            played.play(next(iter(played.state.legal_actions(0))))
        page = await (await client.get(where, headers=french)).text()
        events = page[page.index('<ol class="events">'):page.index("</ol>")]
        assert "Joueur " in events and not re.search(r"Vous (a|joue|pioche|donne|défausse)\b", events), events
        english = await (await client.get(where)).text()
        assert not re.search(r"\bYou (deals|plays|is|has|wins|draws)\b", english)
        hinted = await (await client.get(f"{where}?hint=1", headers=french)).text()
        move = hint(played.state, 0).action.words().render("fr")
        assert f'<p class="hint">💡 {move[:1].upper()}{move[1:]}\u00a0: ' in hinted and hinted.count(".</p>")
