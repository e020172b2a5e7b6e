"""A tournament's pictures through Discord (issue 40), pictures on: during a knockout the message
shows the bracket, at its end the crown over the final standings, each picture the one
:mod:`cogs.tournaments.pictures` draws for the stored tournament, its text the message's board
(for screen readers); ``/tournament show`` answers with the same picture. The podium earns its
badge, shown by ``/stats``, and the recomputation keeps it."""

from __future__ import annotations

from unittest.mock import ANY

from bot.tournaments.podium import podiums
from bot.unlocks import Recomputed, Unlocks
from cogs.tournaments.message import picture_board
from cogs.tournaments.pictures import tournament_canvas
from tests.discord_play import make_server, picture_text, start_bot, texts
from tests.fakediscord import DiscordHarness
from tests.test_discord_tournament import PLAYERS, one_move_each, round_tables, time_runs_out, tournament_message


def shown_picture(message) -> bytes:
    """The one picture a V2 message shows, as its attachment's bytes."""
    (url,) = message.gallery_images()
    assert url.startswith("attachment://")
    return message.file(url.removeprefix("attachment://"))


async def test_a_knockout_shows_its_bracket_then_crowns_its_winner_over_the_final_standings(tmp_path, db_url):
    """On both backends (the podium is stored in the transaction that finishes the tournament)."""
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path, names=PLAYERS)
        s.db_path = db_url
        await start_bot(h, db_url)
        await s.h.slash("tournament create war", {"format": "knockout", "seeding": "random", "timer": 1,
                                                  "round_minutes": 30, "name": "Cup night"},
                        user=s.admin, channel=s.channel)
        for name in PLAYERS[:5]:
            await s.h.click(tournament_message(s), label="Join", user=s.user(name))
        assert not tournament_message(s).gallery_images()  # sign-up: nothing to draw yet
        panel = await s.h.click(tournament_message(s), label="Host", user=s.admin)
        await s.h.click(panel.message, label="Start now", user=s.admin)
        await s.h.settle()
        tournament_id = (await s.h.bot.tournaments.of_guild(s.guild.id))[0].id

        view = await s.h.bot.tournaments.view(tournament_id)
        message = tournament_message(s)
        assert shown_picture(message) == tournament_canvas(view, "en")().png()  # the bracket
        assert picture_text(message) == picture_board(view, "en")
        assert "**Quarter-finals**" in picture_text(message)  # five: three byes and one table

        for _ in range(3):  # the quarter-finals, the semi-finals, then the final
            await one_move_each(s, await round_tables(s, tournament_id))
            await time_runs_out(s, tournament_id)
        view = await s.h.bot.tournaments.view(tournament_id)
        assert view.row.status == "finished"
        message = tournament_message(s)
        crown = tournament_canvas(view, "en")()
        assert shown_picture(message) == crown.png()
        winner = view.entrant(view.placings[0][0]).name
        drawn = [label.wanted for label in crown.labels]
        assert drawn[:3] == ["Cup night", winner, "Final standings"]
        placed = [view.entrant(e).name for place in view.placings for e in place]
        assert [d for d in drawn if d in PLAYERS[:5]] == [winner, *placed]  # under the crown, then each place
        assert picture_text(message).split("\n")[:2] == ["**Final placings**", f"1. {winner}"]
        assert f"{winner} wins!" in texts(message)[0]

        shown = await s.h.slash("tournament show", {}, user=s.user(PLAYERS[6]), channel=s.channel)
        assert shown.ephemeral and shown_picture(shown.message) == crown.png()

        # The podium (the final's two, the semi-finals' two sharing third) holds "Tournament podium".
        podium = {view.entrant(e).user_id for place in view.placings[:3] for e in place}
        rows = await s.h.bot.storage.run_read(lambda db: db.fetch(
            "SELECT user_id, announce FROM achievements WHERE achievement = 'placing'"))
        assert {r[0] for r in rows} == podium and len(podium) == 4 and {r[1] for r in rows} == {"quiet"}
        stats = await s.h.slash("stats", {}, user=s.user(winner), channel=s.channel)
        # The AI finished every game when the round's time ran out: no game of theirs, but their place.
        assert texts(stats.message)[0].endswith("\n🏆 1 tournament · best place: 1 of 5")
        last = view.entrant(view.placings[-1][0]).name
        theirs = await s.h.slash("stats", {"game": "war"}, user=s.user(last), channel=s.channel)
        assert "🏆 1 tournament · best place: 5 of 5" in texts(theirs.message)[0]
        (badges,) = stats.followups
        assert "Tournament podium" in picture_text(badges)
        assert await Unlocks(s.h.bot.storage).recompute(await podiums(s.h.bot.storage)) == Recomputed(0, 0, 0, ANY)
