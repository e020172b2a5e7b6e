"""Every tournament format through Discord, played by clicks: ten at Queen of Spades in a Swiss at
tables of four with AI seats filling, a knockout of four QUASH teams of two who join together,
and a War Swiss with a top four; each checked against a computation by hand from the stored places."""

from __future__ import annotations

import re
from fractions import Fraction

from bot.tournaments import store
from tests.discord_play import (
    PLAYERS,
    make_server,
    open_hand,
    picture_text,
    play,
    start_bot,
    texts,
    to_act,
)
from tests.fakediscord import DiscordHarness
from tests.test_discord_french import Reader, english_left
from tests.test_discord_queen_of_spades import take_turn
from tests.test_discord_tournament import WAR_PREFER, time_runs_out, tournament_message

LINE = re.compile(r"(\d+)\. (.+?) — (\S+) · Bh (\S+) · SB (\S+)( \(out\))?")



async def run_tournament(s, command: str, options: dict, joiners=PLAYERS) -> int:
    """``/tournament create …`` by the moderator, everyone in ``joiners`` clicks Join, the host
    starts it from the Host panel; returns the tournament's id."""
    created = await s.h.slash(f"tournament create {command}", options, user=s.admin, channel=s.channel)
    assert created.ephemeral and "open in this channel" in created.text, created.text
    for name in joiners:
        joined = await s.h.click(tournament_message(s), label="Join", user=s.user(name))
        assert joined.ephemeral and "You're in" in joined.text, joined.text
    await start(s)
    return (await s.h.bot.tournaments.of_guild(s.guild.id))[0].id


async def start(s) -> None:
    panel = await s.h.click(tournament_message(s), label="Host", user=s.admin)
    started = await s.h.click(panel.message, label="Start now", user=s.admin)
    assert "started" in started.text, started.text
    await s.h.settle()


async def round_tables(s, tournament_id: int):
    """The current round's tables: (their round row, the table message, its stored row)."""
    view = await s.h.bot.tournaments.view(tournament_id)
    found = []
    for table in view.tables:
        if not table.bye:
            row = (await s.h.bot.service.table(table.table_id)).row
            found.append((table, s.h.message(row.table_message_id), row))
    return found


async def one_turn_each(s, tables, turn) -> None:
    """At each table still in play whose turn is a person's, that person plays by clicks."""
    for _, message, _ in tables:
        if to_act(s, message):
            await turn(s, message)


async def war_turn(s, message) -> None:
    mover = to_act(s, message)[0]
    hand = await open_hand(s, mover, message)
    await play(s, mover, hand.message, WAR_PREFER)


async def quash_turn(s, message) -> None:
    mover = to_act(s, message)[0]
    hand = await open_hand(s, mover, message)
    await play(s, mover, hand.message)


async def qos_turn(s, message) -> None:
    await take_turn(s, message)


def status(s) -> str:
    return texts(tournament_message(s))[0].split("\n")[1]


def board(s, heading: str) -> list[str]:
    """The lines of the tournament message's text board that starts with ``heading`` (the text
    of its picture, when the board is a picture)."""
    message = tournament_message(s)
    pictured = [picture_text(message)] if message.gallery_images() else []
    return next(t for t in texts(message) + pictured if t.startswith(heading)).split("\n")[1:]


# -- by hand, from the stored rows ----------------------------------------------------------------


async def stored_tables(s, tournament_id: int):
    return await s.h.bot.storage.run_read(lambda db: store.round_tables(db, tournament_id))


async def seat_places(s, table_id: int) -> list[int]:
    """Each seat's place, as a ranking (1, 2, 2, 4: tied seats share the best of their places)."""
    rows = await s.h.bot.storage.run_read(lambda db: db.fetch(
        "SELECT place FROM result_seats WHERE table_id = ? ORDER BY seat", (table_id,)))
    stored = [r[0] for r in rows]
    return [1 + sum(other < mine for other in stored) for mine in stored]


async def hand_standings(s, tournament_id: int, rounds: int) -> dict[int, tuple[Fraction, Fraction, Fraction]]:
    """Per entrant: points, Buchholz cut 1 and Sonneborn–Berger over Swiss rounds 1 to
    ``rounds``, from the stored places alone. At a table of ``n`` seats (AI seats counted) place
    ``p`` earns ``(n - p) / (n - 1)``, tied seats sharing the mean of their places' points; a bye
    1. A round's Buchholz is the mean of the people met's points (a bye: 0); the lowest round is
    cut. Sonneborn–Berger adds, per round, the mean over the people met of their points, whole
    for one finished behind, half for one level."""
    score: dict[int, dict[int, Fraction]] = {}
    met: dict[int, dict[int, list[tuple[int, Fraction]]]] = {}
    for table in await stored_tables(s, tournament_id):
        if table.round > rounds:
            continue
        if table.bye:
            score.setdefault(table.entrants[0], {})[table.round] = Fraction(1)
            continue
        places = await seat_places(s, table.table_id)
        n = len(places)
        for seat, entrant in enumerate(table.entrants):
            if entrant is None:
                continue
            place, tied = places[seat], places.count(places[seat])
            score.setdefault(entrant, {})[table.round] = sum(
                (Fraction(n - p, n - 1) for p in range(place, place + tied)), Fraction(0)) / tied
            met.setdefault(entrant, {})[table.round] = [
                (other, Fraction(1) if place < places[k] else Fraction(1, 2) if place == places[k] else Fraction(0))
                for k, other in enumerate(table.entrants) if other is not None and other != entrant]
    points = {e: sum(rounds_.values(), Fraction(0)) for e, rounds_ in score.items()}
    found = {}
    for entrant in points:
        each = [sum((points[o] for o, _ in met[entrant][r]), Fraction(0)) / len(met[entrant][r])
                if met.get(entrant, {}).get(r) else Fraction(0) for r in sorted(score[entrant])]
        sb = sum((sum((against * points[o] for o, against in opponents), Fraction(0)) / len(opponents)
                  for opponents in met.get(entrant, {}).values() if opponents), Fraction(0))
        found[entrant] = (points[entrant], sum(each, Fraction(0)) - min(each), sb)
    return found


def number(shown: str) -> Fraction:
    """A figure as the standings write it: 2, 2½, ½, or a decimal (0.83)."""
    whole, half, decimal = re.fullmatch(r"(\d*)(½?)([.,]\d+)?", shown).groups()
    if decimal:
        return Fraction(whole + decimal.replace(",", "."))
    return Fraction(int(whole or 0)) + (Fraction(1, 2) if half else 0)


def check_standings(s, expected: dict[str, tuple[Fraction, Fraction, Fraction]]) -> list[str]:
    """The standings board against ``expected`` (by name); returns the names in its order."""
    shown = []
    for line in board(s, "**Standings**"):
        match = LINE.fullmatch(line)
        assert match, line
        shown.append(match[2])
        figures = [number(match[k]) for k in (3, 4, 5)]
        assert all(abs(a - b) < Fraction(1, 100) for a, b in zip(figures, expected[match[2]])), (line, expected)
    assert sorted(shown) == sorted(expected)
    keys = [expected[name] for name in shown]
    assert keys == sorted(keys, reverse=True)  # points, then Buchholz, then Sonneborn–Berger
    return shown


async def went_through(s, table) -> int:
    """Who went through from a knockout table of two sides: the better place (a draw: seat 0,
    the better seed, whom the margin and then the seed favour)."""
    places = await seat_places(s, table.table_id)
    return table.entrants[1] if places[1] < places[0] else table.entrants[0]


# -- the tests --------------------------------------------------------------------------------------


async def test_ten_at_queen_of_spades_play_swiss_at_tables_of_four_with_ai_seats_filling(club):
    s = club
    tournament_id = await run_tournament(s, "qos", {"rounds": 1, "timer": 1, "round_minutes": 30})
    rules = texts(tournament_message(s))[1]
    assert "Swiss, 2 rounds · tables of 4" in rules, rules  # the game's usual four; enough rounds for ten
    view = await s.h.bot.tournaments.view(tournament_id)
    names = {e.entrant: e.name for e in view.entrants}
    for round in (1, 2):
        assert status(s).startswith(f"▶ Swiss · Round {round} of 2")
        tables = await round_tables(s, tournament_id)
        assert [len(t.playing) for t, _, _ in tables] == [4, 3, 3]  # ten: people spread, AI seats fill the rest
        assert sorted(e for t, _, _ in tables for e in t.playing) == sorted(names)
        for table, message, row in tables:
            assert [seat.name for seat in row.seats if seat.is_ai] == ([] if len(table.playing) == 4 else ["AI 1"])
            pinged = s.h.requests_to("POST", rf"/channels/{row.channel_id}/messages")[0].body["allowed_mentions"]
            assert sorted(map(int, pinged["users"])) == sorted(seat.user_id for seat in row.seats if not seat.is_ai)
        lines = board(s, f"**Round {round}**")
        assert [line.count("🤖 AI 1") for line in lines] == [0, 1, 1], lines
        await one_turn_each(s, tables, qos_turn)
        await time_runs_out(s, tournament_id)
    assert "wins!" in status(s)
    expected = await hand_standings(s, tournament_id, 2)
    shown = check_standings(s, {names[e]: figures for e, figures in expected.items()})
    assert status(s) == f"🏁 The tournament is over: {shown[0]} wins!"


async def test_a_knockout_of_four_quash_teams_who_join_together(club):
    s = club
    created = await s.h.slash("tournament create quash", {
        "finish": 12, "table_size": 4, "format": "knockout", "seeding": "random", "timer": 1, "round_minutes": 30},
        user=s.admin, channel=s.channel)
    assert created.ephemeral, created.text
    teams = [("ana", "ben"), ("cat", "dan"), ("eve", "fay"), ("gus", "hal")]
    for first, second in teams:
        asked = await s.h.click(tournament_message(s), label="Join", user=s.user(first))
        assert asked.ephemeral and "teams of two" in asked.text, asked.text
        joined = await s.h.select(asked.message, [s.user(second)], custom_id_prefix="dh:tnpartner:",
                                  user=s.user(first))
        assert f"You're in the tournament with {second}." in joined.text, joined.text
    asked = await s.h.click(tournament_message(s), label="Join", user=s.user("ivy"))
    refused = await s.h.select(asked.message, [s.user("ana")], custom_id_prefix="dh:tnpartner:", user=s.user("ivy"))
    assert refused.ephemeral and "ana is in this tournament already" in refused.text, refused.text
    assert board(s, "**Teams (4)**") == ["ana & ben, cat & dan, eve & fay, gus & hal"]
    assert "Knockout, seeded at random · teams of two" in texts(tournament_message(s))[1]
    await start(s)
    tournament_id = (await s.h.bot.tournaments.of_guild(s.guild.id))[0].id
    view = await s.h.bot.tournaments.view(tournament_id)
    team = {e.entrant: e for e in view.entrants}
    seeds = view.bracket.seeds
    assert status(s).startswith("▶ Knockout · Semi-finals")
    semis = await round_tables(s, tournament_id)
    assert [sorted(t.playing, key=seeds.index) for t, _, _ in semis] == [[seeds[0], seeds[3]], [seeds[1], seeds[2]]]
    for table, message, row in semis:
        first, second = (team[e] for e in table.playing)
        assert [seat.user_id for seat in row.seats] == [first.user_id, second.user_id, first.partner_id,
                                                        second.partner_id]  # each team on its side
        pinged = s.h.requests_to("POST", rf"/channels/{row.channel_id}/messages")[0].body["allowed_mentions"]
        assert sorted(map(int, pinged["users"])) == sorted([*first.people, *second.people])
    await one_turn_each(s, semis, quash_turn)
    await time_runs_out(s, tournament_id)
    finalists = [await went_through(s, table) for table, _, _ in semis]
    assert status(s).startswith("▶ Knockout · Final")
    ((final, message, _),) = await round_tables(s, tournament_id)
    assert sorted(final.playing) == sorted(finalists)
    await one_turn_each(s, [(final, message, None)], quash_turn)
    await time_runs_out(s, tournament_id)
    champion = await went_through(s, final)
    runner_up = next(e for e in final.playing if e != champion)
    out = sorted((e for t, _, _ in semis for e in t.playing if e not in finalists), key=seeds.index)
    assert status(s) == f"🏁 The tournament is over: {team[champion].label} win it!"
    assert board(s, "**Final placings**") == [
        f"1. {team[champion].label}", f"2. {team[runner_up].label}",
        f"3. {team[out[0]].label}, {team[out[1]].label}"]


async def test_a_war_swiss_with_a_top_four_seeds_its_knockout_by_the_swiss_standings(club):
    s = club
    tournament_id = await run_tournament(s, "war", {"swiss_rounds": 2, "top": 4, "timer": 1, "round_minutes": 30},
                                         joiners=PLAYERS[:6])
    assert "Swiss, 2 rounds · then a knockout of the best 4" in texts(tournament_message(s))[1]
    view = await s.h.bot.tournaments.view(tournament_id)
    names = {e.entrant: e.name for e in view.entrants}
    for round in (1, 2):
        assert status(s).startswith(f"▶ Swiss · Round {round} of 2")
        await one_turn_each(s, await round_tables(s, tournament_id), war_turn)
        await time_runs_out(s, tournament_id)
    assert status(s).startswith("▶ Knockout · Semi-finals")
    expected = await hand_standings(s, tournament_id, 2)
    swiss = check_standings(s, {names[e]: figures for e, figures in expected.items()})
    semis = await round_tables(s, tournament_id)
    assert [[names[e] for e in t.playing] for t, _, _ in semis] == [[swiss[0], swiss[3]], [swiss[1], swiss[2]]]
    await one_turn_each(s, semis, war_turn)
    await time_runs_out(s, tournament_id)
    assert status(s).startswith("▶ Knockout · Final")
    assert check_standings(s, {names[e]: figures for e, figures in expected.items()}) == swiss  # frozen
    ((final, _, _),) = await round_tables(s, tournament_id)
    await time_runs_out(s, tournament_id)
    champion = names[await went_through(s, final)]
    runner_up = next(names[e] for e in final.playing if names[e] != champion)
    out = [name for name in swiss[:4] if name not in (champion, runner_up)]
    assert status(s) == f"🏁 The tournament is over: {champion} wins!"
    assert board(s, "**Final placings**") == [f"1. {champion}", f"2. {runner_up}", f"3. {out[0]}, {out[1]}",
                                              f"5. {swiss[4]}", f"6. {swiss[5]}"]


FRENCH_NAMES = ("léa", "noé", "zoé", "inès", "rémi")


async def test_a_tournament_in_a_french_server_speaks_french_from_its_creation_to_its_winner(tmp_path):
    """A War Swiss with a bye, then a top four's semi-finals and final, in a French server: every
    message anyone reads (the tournament message at each step, the answers to Join and the host's
    panel, each table's banner, hands and moves, the threads' names) holds no English."""
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path, names=FRENCH_NAMES)
        s.guild.locale = "fr"
        for user in [*s.users.values(), s.admin]:
            user.locale = "fr"
        await start_bot(h, s.db_path)
        reader = Reader(s, FRENCH_NAMES)
        created = await s.h.slash("tournament create war", {"swiss_rounds": 1, "top": 4, "timer": 1,
                                                            "round_minutes": 30}, user=s.admin, channel=s.channel)
        assert "Votre tournoi est ouvert" in created.text, created.text
        tournament_id = (await s.h.bot.tournaments.of_guild(s.guild.id))[0].id
        for name in FRENCH_NAMES:
            joined = await s.h.click(tournament_message(s), custom_id=f"dh:tn:{tournament_id}:join", user=s.user(name))
            assert "Vous êtes inscrit" in joined.text, joined.text
            reader.check()
        panel = await s.h.click(tournament_message(s), custom_id=f"dh:tn:{tournament_id}:host", user=s.admin)
        reader.check()
        await s.h.click(panel.message, custom_id=f"dh:tnh:{tournament_id}:start", user=s.admin)
        await s.h.settle()
        seen, shown = [], []
        for _ in range(3):  # the Swiss round, the semi-finals, the final
            reader.check()
            seen.append(status(s))
            shown.append("\n".join(texts(tournament_message(s))))
            for table, message, row in await round_tables(s, tournament_id):
                mover = to_act(s, message)
                if mover:
                    hand = await s.h.click(message, custom_id=f"dh:hand:{row.id}", user=mover[0])
                    await play(s, mover[0], hand.message, WAR_PREFER)
                    reader.check()
            await time_runs_out(s, tournament_id)
        reader.check()
        assert [line.split(" · ⏰")[0] for line in seen] == [
            "▶ Système suisse · Ronde 1 sur 1", "▶ Élimination directe · Demi-finales",
            "▶ Élimination directe · Finale"]
        assert status(s).startswith("🏁 Le tournoi est terminé"), status(s)
        assert "\nExempt\u00a0: " in shown[0], shown[0]  # five play: one has the bye
        assert len(board(s, "**Classement final**")) == 4  # 1, 2, 3 (two), 5
        threads = [r.body["name"] for r in s.h.requests_to("POST", rf"/channels/{s.channel.id}/threads")]
        assert len(threads) == 5 and all(" · ronde " in name for name in threads), threads
        reader.english.update({name: left for name in threads if (left := english_left(name, [*FRENCH_NAMES]))})
    assert not reader.english, "\n".join(f"{sorted(words)}: {line!r}" for line, words in reader.english.items())
