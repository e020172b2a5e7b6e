"""A server's site, with the real bot (and its site, loaded as the process loads it) against the fake
Discord, read by a real browser: a table page follows moves clicked in Discord and catches up
after its connection is cut; a replay exists only once the game ended and steps to the end with
every hand; French readers get French pages; hostile names are text; no page or stream of a game
in progress names a hidden card; links are the server's own and die with /settings web."""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter

import aiohttp

import games
from bot.achievements import catalog
from bot.ratings import display_rating
from games.cards import parse_card
from games.i18n import card_name
from tests.browser import open_browser
from tests.contract import card_counts
from tests.discord_play import Server, open_table, play_to_the_end, play_turn, texts, to_act
from tests.web_helpers import LINK, browser_links, finished_game, serve_site, started_tournament, table_id
from web.guard import Limits


def hidden_names(state, language: str) -> set[str]:
    """The cards no one but their holder may see now, as a page in ``language`` would name them."""
    visible = card_counts(state) - Counter(c.code for c in state.hidden_cards(None))
    return {card_name(parse_card(code), language) for code in card_counts(state) if not visible[code]}


async def first_event(session: aiohttp.ClientSession, url: str, **headers: str) -> dict:
    async with session.get(url, headers=headers) as stream:
        assert stream.status == 200 and stream.headers["Content-Type"].startswith("text/event-stream")
        assert "script-src 'self'" in stream.headers["Content-Security-Policy"]
        async for line in stream.content:
            if line.startswith(b"data: "):
                return json.loads(line[6:])
    raise AssertionError("the stream ended without an event")


async def test_a_table_page_follows_moves_and_catches_up_after_its_connection_is_cut(server: Server) -> None:
    s = server
    link = await serve_site(s)
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    number = table_id(table)
    assert browser_links(s.h.message(table.id)) == [f"{link}t/{number}"]
    async with open_browser() as browser:
        tab = await browser.new_tab(width=380)
        await tab.goto(f"{link}t/{number}")
        assert await tab.eval("document.querySelector('img.picture').naturalWidth") > 0
        await tab.wait_for("document.getElementById('connection').dataset.state === 'live'")
        for _ in range(2):
            version = await tab.eval("Number(document.getElementById('live').dataset.version)")
            await play_turn(s, table)
            await tab.wait_for(f"Number(document.getElementById('live').dataset.version) > {version}")
            assert (await tab.text(".status")).startswith(f"▶ {to_act(s, table)[0].name} ")
        # The site stops (its streams end) while the game goes on, then comes back on the same address.
        await s.h.bot.unload_extension("web.extension")
        await tab.wait_for("document.getElementById('connection').dataset.state === 'reconnecting'")
        for _ in range(3):
            await play_turn(s, table)
        stored = await s.h.bot.storage.get_table(number)
        await s.h.bot.load_extension("web.extension")
        await tab.wait_for(f"Number(document.getElementById('live').dataset.version) === {stored.version}", 10)
        await tab.wait_for("document.querySelector('img.picture').complete"
                           " && document.querySelector('img.picture').naturalWidth > 0")
        assert not [e for e in tab.errors if "ERR_CONNECTION_REFUSED" not in e], tab.errors


async def test_no_page_or_stream_of_a_game_in_progress_names_a_hidden_card_and_hostile_names_are_text(
        server: Server) -> None:
    s = server
    s.guild.add_member(hostile := s.h.add_user('<img src=x onerror="alert(1)">'))
    s.users["hostile"] = hostile
    link = await serve_site(s)
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["hostile"])
    number = table_id(table)
    async with aiohttp.ClientSession() as session:
        for turn in range(6):
            row = await s.h.bot.storage.get_table(number)
            state = games.get_game(row.game_id).from_json(row.state)
            for language, accept in (("en", "en-US"), ("fr", "fr-FR,fr;q=0.9")):
                page = await (await session.get(f"{link}t/{number}", headers={"Accept-Language": accept})).text()
                event = await first_event(session, f"{link}t/{number}/events", **{"Accept-Language": accept})
                front = await (await session.get(link, headers={"Accept-Language": accept})).text()
                for text in (page, event["html"], front):
                    assert not {name for name in hidden_names(state, language) if name in text}
                    assert "<img src=x" not in text
                assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in page
                assert (await session.get(f"{link}r/{number}")).status == 404  # no replay: its hands are secret
            await play_turn(s, table)
    async with open_browser() as browser:
        tab = await browser.new_tab()
        await tab.goto(f"{link}t/{number}")
        assert '<img src=x onerror="alert(1)">' in await tab.text()
        assert await tab.eval("document.images.length") == 1 and not tab.errors


async def test_a_replay_steps_to_the_end_with_every_hand_in_french(server: Server) -> None:
    s = server
    link = await serve_site(s)
    table, number = await finished_game(s)
    assert browser_links(s.h.message(table.id)) == [f"{link}r/{number}"]
    board = await s.h.slash("leaderboard", {"game": "q2j"}, user=s.user("ana"), channel=s.channel)
    assert browser_links(board.message) == [f"{link}leaderboard/q2j"]
    entries = await s.h.bot.service.results.leaderboard(s.guild.id, "q2j")
    async with aiohttp.ClientSession() as session:
        board = await (await session.get(f"{link}leaderboard/q2j")).text()
    for entry in entries:  # the figures /leaderboard shows, named, with each player's page
        name = s.by_id(entry.user_id).name
        assert re.search(rf'<a href="/s/[^"]+/p/[0-9a-f]{{20}}">{name}</a></td><td class="num">'
                         rf'{display_rating(entry.rating)}</td>', board), board
        assert str(entry.user_id) not in board
        player = re.search(rf'<a href="(/s/[^"]+/p/[0-9a-f]{{20}})">{name}</a>', board)[1]
        async with aiohttp.ClientSession() as session:
            page = await (await session.get(link.split("/s/")[0] + player)).text()
        badges = await s.h.bot.service.results.unlocks.badges(s.guild.id, entry.user_id)
        assert badges and all(catalog()[b.unlock.achievement].title(b.unlock.tier).render("en") in page
                              for b in badges if not catalog()[b.unlock.achievement].secret)
    row = await s.h.bot.storage.get_table(number)
    moves = len(await s.h.bot.storage.move_log(number))
    async with open_browser() as browser:
        tab = await browser.new_tab(language="fr-FR,fr;q=0.9", width=380)
        await tab.goto(f"{link}r/{number}")
        assert await tab.eval("document.documentElement.lang") == "fr"
        assert "La donne" in await tab.text(".step:not([hidden])")
        await tab.key("ArrowRight")
        assert await tab.text("#where") == f"1 / {moves}"
        await tab.key("End")
        last = await tab.text(".step:not([hidden])")
        assert f"Coup {moves} sur {moves}" in last
        assert await tab.eval("location.hash") == f"#step-{moves}"
        await tab.wait_for("document.querySelector('.step:not([hidden]) img').complete"
                           " && document.querySelector('.step:not([hidden]) img').naturalWidth > 0")
        first_hands = await tab.eval("document.querySelector('#step-0 .hands').innerText")
        deal = games.get_game("q2j").new_game(2, {}, row.seed)
        for seat in range(2):
            for code in deal.view(seat)["hand"]:
                assert card_name(parse_card(code), "fr") in first_hands
        assert not tab.errors, tab.errors


async def test_links_are_the_servers_own_and_a_new_link_or_off_kills_the_old_one(server: Server) -> None:
    s = server
    link = await serve_site(s)
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    number = table_id(table)
    base = link.split("/s/")[0]
    async with aiohttp.ClientSession() as session:
        front = await session.get(link)
        assert front.status == 200 and f"/t/{number}" in await front.text()
        for path in ("q2j", "nosuchgame"):
            answer = await session.get(f"{link}leaderboard/{path}")
            assert answer.status == (200 if path == "q2j" else 404)
        unknown = await session.get(f"{base}/s/{'x' * 32}/")
        forged = await session.get(f"{link}t/{number + 1000}")
        for answer in (unknown, forged):
            assert answer.status == 404 and "Nothing here" in await answer.text()
        assert (await session.get(f"{link}t/{number}/events?since=abc")).status == 400
        streams = [await session.get(f"{link}t/{number}/events") for _ in range(Limits().streams)]
        assert all(stream.status == 200 for stream in streams)
        assert (await session.get(f"{link}t/{number}/events")).status == 429  # one address, too many streams
        streams.pop().close()  # a tab closed: its place is free once the site sees the connection go
        for _ in range(100):
            another = await session.get(f"{link}t/{number}/events")
            another.close()
            if another.status == 200:
                break
            await asyncio.sleep(0.02)
        assert another.status == 200
        for stream in streams:
            stream.close()
        renewed = await s.h.slash("settings web", {"site": "new-link"}, user=s.admin, channel=s.channel)
        (new_link,) = LINK.findall(renewed.text)
        assert new_link != link
        assert (await session.get(link)).status == 404 and (await session.get(new_link)).status == 200
        await s.h.slash("settings web", {"site": "off"}, user=s.admin, channel=s.channel)
        assert (await session.get(new_link)).status == 404
    refused = await s.h.slash("settings web", {"site": "on"}, user=s.user("ana"), channel=s.channel)
    assert refused.ephemeral and "/s/" not in refused.text
    await asyncio.sleep(0)


async def test_a_tournaments_page_shows_its_round_then_its_standings_and_places(server: Server) -> None:
    s = server
    link = await serve_site(s)
    tournament = await started_tournament(s, swiss_rounds=1, name="<b>Game night</b>")
    message = next(m for m in reversed(s.h.public_messages(s.channel)) if "🏆" in "".join(texts(m)))
    view = await s.h.bot.tournaments.view(tournament.id)
    assert browser_links(s.h.message(message.id)) == [f"{link}tournaments/{tournament.id}"]
    shown = await s.h.slash("tournament show", {}, user=s.user("ana"), channel=s.channel)
    assert browser_links(shown.message) == [f"{link}tournaments/{tournament.id}"]
    async with aiohttp.ClientSession() as session:
        front = await (await session.get(link)).text()
        assert f"/tournaments/{tournament.id}" in front and "&lt;b&gt;Game night&lt;/b&gt;" in front
        page = await (await session.get(f"{link}tournaments/{tournament.id}")).text()
        assert "Round 1" in page
        for table in view.tables:
            assert f"/t/{table.table_id}" in page and f"/t/{table.table_id}/events" in page
        await s.h.bot.tournaments.check(tournament.id, now=(await s.h.bot.tournaments.get(tournament.id)).deadline)
        await s.h.settle(timeout=60)
        await s.h.bot.service.wait_idle(timeout=60)
        await s.h.settle(timeout=60)
        page = await (await session.get(f"{link}tournaments/{tournament.id}")).text()
        assert "Final places" in page and "Standings" in page
        assert all(name in page for name in ("ana", "ben", "cat", "dan"))
        assert 'data-reload="0"' in page  # over: nothing more to follow
        assert (await session.get(f"{link}tournaments/{tournament.id + 99}")).status == 404


async def test_a_stream_starts_with_the_version_its_reader_lacks(server: Server) -> None:
    """A reconnecting page names the last version it showed (Last-Event-ID): the stream sends the
    table's version at once if newer, else waits for the next move."""
    s = server
    link = await serve_site(s)
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    number = table_id(table)
    version = (await s.h.bot.storage.get_table(number)).version
    async with aiohttp.ClientSession() as session:
        behind = await asyncio.wait_for(first_event(session, f"{link}t/{number}/events",
                                                    **{"Last-Event-ID": str(version - 1)}), 10)
        assert behind["version"] == version
        s.h.ignore_tasks("page-reading")  # a reader, not the bot's work: the clicks don't wait for it
        waiting = asyncio.create_task(first_event(session, f"{link}t/{number}/events",
                                                  **{"Last-Event-ID": str(version)}), name="page-reading")
        await asyncio.sleep(0.2)
        assert not waiting.done()  # nothing new to send yet
        await play_turn(s, table)
        moved = await asyncio.wait_for(waiting, 10)
        assert moved["version"] > version


async def test_a_person_who_asked_to_be_forgotten_appears_on_the_site_as_in_discord(server: Server) -> None:
    s = server
    link = await serve_site(s)
    table, number = await finished_game(s)
    ask = await s.h.slash("privacy forget", {}, user=s.user("ben"), channel=s.channel)
    await s.h.click(ask.message, label="Yes, forget me", user=s.user("ben"))
    history = await s.h.slash("history", {}, user=s.user("ana"), channel=s.channel)
    assert "ben" not in history.text and "Former player" in history.text
    async with aiohttp.ClientSession() as session:
        for path in ("", f"r/{number}", "leaderboard/q2j"):
            page = await (await session.get(f"{link}{path}")).text()
            assert not re.search(r"\bben\b", page), path
        assert "Former player" in await (await session.get(f"{link}r/{number}")).text()


async def test_a_leaderboard_shows_the_running_season_and_any_season_asked_for(server: Server) -> None:
    s = server
    link = await serve_site(s)
    await s.h.slash("settings season-min-games", {"games": 1}, user=s.admin, channel=s.channel)
    await s.h.slash("season start", {"name": "<i>Spring</i>"}, user=s.admin, channel=s.channel)
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    await play_to_the_end(s, table)
    await s.h.settle()
    spring = await s.h.bot.service.seasons.current(s.guild.id)
    async with aiohttp.ClientSession() as session:
        board = await (await session.get(f"{link}leaderboard/q2j")).text()
        assert "Season &lt;i&gt;Spring&lt;/i&gt;" in board and f"?season={spring.id}" in board
        await s.h.slash("season end", {}, user=s.admin, channel=s.channel)
        await s.h.settle()
        board = await (await session.get(f"{link}leaderboard/q2j")).text()
        assert "Season &lt;i&gt;Spring" not in board  # no season runs: all time only, the past one linked
        past = await (await session.get(f"{link}leaderboard/q2j?season={spring.id}")).text()
        assert "Season &lt;i&gt;Spring&lt;/i&gt;" in past and "ana" in past and "ben" in past
        for wrong in (str(spring.id + 7), "x", "-1"):
            assert (await session.get(f"{link}leaderboard/q2j?season={wrong}")).status == 404
