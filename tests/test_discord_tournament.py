"""A tournament through Discord, played by clicks: a 9-person War Swiss of 3 rounds with a bye,
a no-show dropped after timeouts and a late joiner, checked against a hand computation of the
standings; and the refusals every tournament control gives."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from fractions import Fraction
from logging import WARNING

import cogs.common
from tests.discord_play import (
    PLAYERS,
    Unchanged,
    forge_click,
    open_hand,
    play,
    start_bot,
    texts,
    to_act,
)
from tests.fakediscord import MESSAGE_COMPONENT, FakeChannel, HTTPError
from tests.test_hostile import raw_slash

WAR_PREFER = ("attack", "recover", "draw")



def tournament_message(s):
    return next(m for m in reversed(s.h.public_messages(s.channel)) if "🏆" in "".join(texts(m)))


async def round_tables(s, tournament_id: int):
    """The current round's tables: (table message, its players), byes left out."""
    view = await s.h.bot.tournaments.view(tournament_id)
    found = []
    for table in view.tables:
        if table.bye:
            continue
        row = (await s.h.bot.service.table(table.table_id)).row
        found.append((s.h.message(row.table_message_id), [s.by_id(seat.user_id) for seat in row.seats], row))
    return found


async def one_move_each(s, tables) -> None:
    """At each table the player to act makes a move by clicks (My hand, then a move)."""
    for message, _, _ in tables:
        acting = to_act(s, message)
        if acting:
            hand = await open_hand(s, acting[0], message)
            await play(s, acting[0], hand.message, WAR_PREFER)


async def time_runs_out(s, tournament_id: int) -> None:
    """The round's limit passes: the AI plays every game still on to its end, and the next round opens."""
    row = await s.h.bot.tournaments.get(tournament_id)
    await s.h.bot.tournaments.check(tournament_id, now=row.deadline)
    await s.h.settle(timeout=60)
    await s.h.bot.service.wait_idle(timeout=60)
    await s.h.settle(timeout=60)


def standings_lines(s) -> list[str]:
    board = next(t for t in texts(tournament_message(s)) if t.startswith("**Standings**"))
    return board.split("\n")[1:]


async def test_a_nine_person_war_swiss_with_a_bye_a_no_show_and_a_late_joiner(club):
    s = club
    created = await s.h.slash("tournament create war", {"swiss_rounds": 3, "timer": 1, "round_minutes": 30,
                                                        "name": "Game night"}, user=s.admin, channel=s.channel)
    assert created.ephemeral and "open in this channel" in created.text
    assert "Sign-up is open" in texts(tournament_message(s))[0]
    for name in PLAYERS[:9]:
        joined = await s.h.click(tournament_message(s), label="Join", user=s.user(name))
        assert joined.ephemeral and "You're in" in joined.text
    panel = await s.h.click(tournament_message(s), label="Host", user=s.admin)
    assert panel.ephemeral
    started = await s.h.click(panel.message, label="Start now", user=s.admin)
    assert "started" in started.text
    await s.h.settle()
    tournament_id = (await s.h.bot.tournaments.of_guild(s.guild.id))[0].id
    view = await s.h.bot.tournaments.view(tournament_id)
    assert [e.user_id for e in view.entrants] == [s.user(n).id for n in PLAYERS[:9]]
    assert [t.bye for t in view.tables] == [False] * 4 + [True]

    # Round 1: four tables, each in its own thread, whose first message tells its two players.
    tables = await round_tables(s, tournament_id)
    assert len({m.channel.id for m, _, _ in tables}) == 4
    for message, people, row in tables:
        assert message.channel.parent_id == s.channel.id and "Game night" in texts(message)[0]
        post = s.h.requests_to("POST", rf"/channels/{row.channel_id}/messages")[0]
        assert sorted(map(int, post.body["allowed_mentions"]["users"])) == sorted(p.id for p in people)
        assert len(s.h.requests_to("POST", rf"/channels/{row.channel_id}/messages")) == 1  # no second ping

    # The host adds jo while round 1 plays: a late joiner, paired from round 2 with a loss for round 1.
    panel = await s.h.click(tournament_message(s), label="Host", user=s.admin)
    added = await s.h.select(panel.message, [s.user("jo")], custom_id_prefix="dh:tnadd:", user=s.admin)
    assert "from round 2" in added.text

    # ivy never moves: the timer plays her turns; after three she is out and the AI finishes her game.
    ivy = s.user("ivy")
    message, people, row = next(t for t in tables if ivy in t[1])
    for _ in range(30):
        snap = await s.h.bot.service.table(row.id)
        if snap.row.seats[people.index(ivy)].is_ai:
            break
        acting = to_act(s, s.h.message(message.id))
        if acting == [ivy]:
            await s.h.bot.service.autoplay.check_timer(row.id, now=snap.row.deadline)
            await s.h.settle()
        else:
            hand = await open_hand(s, acting[0], message)
            await play(s, acting[0], hand.message, WAR_PREFER)
    await s.h.settle()
    view = await s.h.bot.tournaments.view(tournament_id)
    assert [e.user_id for e in view.entrants if e.dropped] == [ivy.id]
    await one_move_each(s, [t for t in tables if ivy not in t[1]])
    await time_runs_out(s, tournament_id)

    for round in (2, 3):
        view = await s.h.bot.tournaments.view(tournament_id)
        assert view.row.round == round and view.row.status == "running"
        seated = [e for t in view.tables for e in t.entrants]
        assert len(seated) == len(set(seated)) == 9  # everyone in play once: 8 + jo, ivy out
        assert view.entrant(next(e for t in view.tables if t.bye for e in t.entrants)).user_id != ivy.id
        assert ivy.id not in {view.entrant(e).user_id for e in seated}
        await one_move_each(s, await round_tables(s, tournament_id))
        await time_runs_out(s, tournament_id)

    view = await s.h.bot.tournaments.view(tournament_id)
    assert view.row.status == "finished"
    byes = [t for t in await tables_of(s, tournament_id) if t.bye]
    assert len(byes) == 3 and len({t.entrants for t in byes}) == 3  # a bye each round, never twice
    # The standings the message shows, against a computation by hand from the stored places.
    expected = await hand_standings(s, tournament_id)
    assert "wins!" in texts(tournament_message(s))[0]
    shown = []
    for line in standings_lines(s):
        match = re.fullmatch(r"\d+\. (\S+) — (\S+) · Bh (\S+) · SB (\S+)( \(out\))?", line)
        assert match, line
        shown.append(match[1])
        assert (match[2], match[3], match[4]) == expected[match[1]], line
        assert bool(match[5]) == (match[1] == "ivy"), line
    assert sorted(shown) == sorted(PLAYERS)
    keys = [tuple(Fraction(v.replace("½", ".5") if v != "½" else "0.5") for v in expected[name]) for name in shown]
    assert keys == sorted(keys, reverse=True)  # points, then Buchholz, then Sonneborn–Berger


async def test_every_refusal_is_private_and_changes_nothing(club):
    s = club
    ana, ben, cat = s.user("ana"), s.user("ben"), s.user("cat")
    for user, options, words in (
        (ana, {}, "Manage Server"),
        (s.admin, {"starts": "tomorrowish"}, "can't read"),
        (s.admin, {"starts": "2020-01-01 20:00"}, "passed"),
    ):
        before = Unchanged(s)
        refused = await s.h.slash("tournament create war", options, user=user, channel=s.channel)
        before.check(refused, options)
        assert words in refused.text, refused.text
    for options in ({"swiss_rounds": 0}, {"timer": 0}, {"max_players": 1}, {"check_in": -1}):
        before = Unchanged(s)
        before.check(await raw_slash(s, "tournament create war", options, s.admin), options)
    await s.h.slash("tournament create war", {"max_players": 2, "starts": "in 30m"}, user=s.admin, channel=s.channel)
    message = tournament_message(s)
    for user in (ana, ben):
        await s.h.click(message, label="Join", user=user)
    message = tournament_message(s)
    tournament_id = (await s.h.bot.tournaments.of_guild(s.guild.id))[0].id
    # Another channel, another server, a direct message: the same polite refusal.
    elsewhere = s.guild.add_channel("elsewhere")
    other = s.h.add_guild("Other Club").add_channel("games")
    other.guild.add_member(ana)
    dm = FakeChannel(s.h.new_id(), "dm-ana", 1, None, recipient=ana)
    s.h._channels[dm.id] = dm
    before = Unchanged(s)
    for user, verb, words in ((ana, "join", "entered this tournament already"), (cat, "join", "full"),
                              (ana, "checkin", "Check-in opens"), (ana, "host", "Only the tournament's host")):
        refused = await forge_click(s, message, f"dh:tn:{tournament_id}:{verb}", user)
        before.check(refused, (user.name, verb))
        assert words in refused.text, refused.text
    for channel in (elsewhere, other, dm):
        refused = await s.h._dispatch_interaction(
            MESSAGE_COMPONENT, {"custom_id": f"dh:tn:{tournament_id}:leave", "component_type": 2}, user=ana,
            channel=channel, message=message, label=f"forged leave from {channel.name}")
        before.check(refused, channel.name)
        assert "isn't for a tournament in this channel" in refused.text
    refused = await forge_click(s, message, f"dh:tnh:{tournament_id}:start", s.admin)  # a host button, in public
    before.check(refused, "host control forged onto the public message")
    refused = await forge_click(s, message, "dh:tn:99:join", ana)
    before.check(refused, "no such tournament")
    # Once it runs: no more joining or checking in.
    panel = await s.h.click(message, label="Host", user=s.admin)
    await s.h.click(panel.message, label="Start now", user=s.admin)
    await s.h.settle()
    before = Unchanged(s)
    for user, verb, words in ((cat, "join", "entries are closed"), (ana, "checkin", "check-in is closed")):
        refused = await forge_click(s, tournament_message(s), f"dh:tn:{tournament_id}:{verb}", user)
        before.check(refused, verb)
        assert words in refused.text, refused.text


async def test_a_restart_mid_round_resumes_the_tournament_where_it_was(club):
    s = club
    await s.h.slash("tournament create war", {"swiss_rounds": 2, "round_minutes": 30}, user=s.admin, channel=s.channel)
    for name in PLAYERS[:4]:
        await s.h.click(tournament_message(s), label="Join", user=s.user(name))
    panel = await s.h.click(tournament_message(s), label="Host", user=s.admin)
    await s.h.click(panel.message, label="Start now", user=s.admin)
    await s.h.settle()
    tournament_id = (await s.h.bot.tournaments.of_guild(s.guild.id))[0].id
    before = [(m.id, [p.id for p in people]) for m, people, _ in await round_tables(s, tournament_id)]
    await s.h.stop()
    await start_bot(s.h, s.db_path, seed=None)
    await s.h.settle()
    tables = await round_tables(s, tournament_id)
    assert [(m.id, [p.id for p in people]) for m, people, _ in tables] == before  # the same tables, none opened again
    await one_move_each(s, tables)  # their buttons work after the restart
    await time_runs_out(s, tournament_id)
    view = await s.h.bot.tournaments.view(tournament_id)
    assert view.row.round == 2 and len(await round_tables(s, tournament_id)) == 2
    assert len(s.h.requests_to("POST", rf"/channels/{s.channel.id}/threads")) == 4


async def test_a_round_table_whose_thread_holds_another_game_opens_in_a_new_thread(club, monkeypatch, caplog):
    """Discord made the round table's thread, and cat started a game in it before the round opened
    its table there (a restart between the two, say): the table opens anyway, in a new thread (the
    retry's, when Discord refuses the first), where its players are told; cat's game is left alone."""
    s = club
    ana, ben, cat = s.user("ana"), s.user("ben"), s.user("cat")
    await s.h.slash("tournament create war", {"round_minutes": 30}, user=s.admin, channel=s.channel)
    for user in (ana, ben):
        await s.h.click(tournament_message(s), label="Join", user=user)
    tournament_id = (await s.h.bot.tournaments.of_guild(s.guild.id))[0].id
    publisher = s.h.bot.tournaments.publisher
    make_thread, made, go = publisher.open_thread, asyncio.Event(), asyncio.Event()

    async def thread_then_wait(*args, **kwargs):  # the round's first thread stays empty until the test says
        thread_id = await make_thread(*args, **kwargs)
        if not made.is_set():
            made.set()
            await go.wait()
        return thread_id

    monkeypatch.setattr(publisher, "open_thread", thread_then_wait)
    panel = await s.h.click(tournament_message(s), label="Host", user=s.admin)
    await s.h.click(panel.message, label="Start now", user=s.admin)
    await asyncio.wait_for(made.wait(), 5)
    [busy] = [c for c in s.guild.channels.values() if c.is_thread]
    await s.h.slash("war start", {}, user=cat, channel=busy)
    other = await s.h.bot.storage.open_table_in(busy.id)
    shown = [(m.id, texts(m)) for m in s.h.public_messages(busy)]
    threads = rf"/channels/{s.channel.id}/threads"
    s.h.refuse_next("POST", threads, HTTPError(403, 50013, "Missing Permissions"))  # the new thread, the first time
    go.set()
    await s.h.settle()
    assert [t.table_id for t in (await s.h.bot.tournaments.view(tournament_id)).tables] == [None]
    await s.h.bot.tournaments.check(tournament_id)  # its timer: 30 s on
    await s.h.settle()
    await s.h.bot.service.wait_idle()

    [table] = (await s.h.bot.tournaments.view(tournament_id)).tables
    assert table.table_id is not None, "the round's table never opened: the round waits forever"
    [(message, people, row)] = await round_tables(s, tournament_id)
    assert sorted(p.id for p in people) == sorted([ana.id, ben.id])
    assert row.channel_id == table.thread_id == message.channel.id != busy.id
    assert message.channel.parent_id == s.channel.id
    post = s.h.requests_to("POST", rf"/channels/{row.channel_id}/messages")[0]
    assert sorted(map(int, post.body["allowed_mentions"]["users"])) == sorted([ana.id, ben.id])
    assert len(s.h.requests_to("POST", threads)) == 3
    said = [r.getMessage() for r in caplog.records if r.name == "bot.tournaments.rounds" and r.levelno >= WARNING]
    assert len(said) == 1 and f"its thread {busy.id} holds another table" in said[0], said
    # cat's game is where it was, as it was: its lobby, its messages, nothing sent to its thread.
    lobby = (await s.h.bot.service.table(other)).row
    assert lobby.channel_id == busy.id and lobby.status == "lobby" and [x.user_id for x in lobby.seats] == [cat.id]
    assert [(m.id, texts(m)) for m in s.h.public_messages(busy)] == shown
    assert await s.h.bot.storage.open_table_in(busy.id) == other


async def test_forgetting_waits_until_the_tournaments_one_entered_are_over(club):
    """``/privacy forget`` would leave an entry of a tournament not over behind (its standings keep
    even a dropped player's results): it is refused, politely and changing nothing, until it ends."""
    s = club
    ana = s.user("ana")
    await s.h.slash("tournament create war", {"round_minutes": 30}, user=s.admin, channel=s.channel)
    for name in ("ana", "ben", "cat"):
        await s.h.click(tournament_message(s), label="Join", user=s.user(name))

    async def forget(expect_refusal: bool):
        ask = await s.h.slash("privacy forget", {}, user=ana, channel=s.channel)
        before = Unchanged(s)
        answer = await s.h.click(ask.message, label="Yes, forget me", user=ana)
        if expect_refusal:
            before.check(answer, "forget while entered")
            assert "entered in a tournament that isn't over" in answer.text, answer.text
        return answer

    await forget(expect_refusal=True)  # entered, before the start
    panel = await s.h.click(tournament_message(s), label="Host", user=s.admin)
    await s.h.click(panel.message, label="Start now", user=s.admin)
    await s.h.settle()
    tournament_id = (await s.h.bot.tournaments.of_guild(s.guild.id))[0].id
    await s.h.click(tournament_message(s), label="Leave", user=ana)  # dropped: her results stay in the standings
    await time_runs_out(s, tournament_id)  # her round-1 game ends; round 2 is paired without her
    assert (await s.h.bot.tournaments.get(tournament_id)).round == 2
    await forget(expect_refusal=True)
    panel = await s.h.click(tournament_message(s), label="Host", user=s.admin)
    await s.h.click(panel.message, label="Cancel the tournament", user=s.admin)
    await s.h.settle()
    done = await forget(expect_refusal=False)
    assert "Done" in done.text, done.text
    view = await s.h.bot.tournaments.view(tournament_id)
    assert [(e.user_id, e.name) for e in view.entrants][0] == (None, "Former player")


async def tables_of(s, tournament_id: int):
    from bot.tournaments import store
    return await s.h.bot.storage.run_read(lambda db: store.round_tables(db, tournament_id))


async def hand_standings(s, tournament_id: int) -> dict[str, tuple[str, str, str]]:
    """Per name: points (win 1, draw ½, bye 1, a round missed 0), Buchholz cut 1 (each round
    played: the opponent's points, a bye 0; a late joiner's missed round 0; the lowest cut; a
    dropped player's rounds after the drop do not count) and Sonneborn–Berger (beaten opponents'
    points, half a drawn one's), computed from the stored rows."""
    view = await s.h.bot.tournaments.view(tournament_id)
    names = {e.entrant: e.name for e in view.entrants}
    score: dict[int, dict[int, Fraction]] = {e: {} for e in names}
    opponent: dict[int, dict[int, int]] = {e: {} for e in names}
    for table in await tables_of(s, tournament_id):
        if table.bye:
            score[table.entrants[0]][table.round] = Fraction(1)
            continue
        places = [r[0] for r in await s.h.bot.storage.run_read(lambda db: db.fetch(
            "SELECT place FROM result_seats WHERE table_id = ? ORDER BY seat", (table.table_id,)))]
        a, b = table.entrants
        won = Fraction(1, 2) if places[0] == places[1] else Fraction(1 if places[0] < places[1] else 0)
        score[a][table.round], score[b][table.round] = won, 1 - won
        opponent[a][table.round], opponent[b][table.round] = b, a
    points = {e: sum(score[e].values(), Fraction(0)) for e in names}
    found = {}
    for e in names:
        missed = [Fraction(0)] * (view.entrant(e).joined_round - 1 if view.entrant(e).joined_round > 1 else 0)
        each = missed + [points[opponent[e][r]] if r in opponent[e] else Fraction(0) for r in sorted(score[e])]
        sb = sum((score[e][r] * points[o] for r, o in opponent[e].items()), Fraction(0))
        found[names[e]] = (_points(points[e]), _points(sum(each) - min(each)), _points(sb))
    return found


def _points(value: Fraction) -> str:
    whole, part = divmod(value, 1)
    return str(int(whole)) if not part else f"{int(whole) if whole else ''}½"


async def test_list_show_and_the_choices_name_each_tournament_and_refuse_politely(club):
    s = club
    ana = s.user("ana")
    for command in ("tournament list", "tournament show"):
        refused = await s.h.slash(command, {}, user=ana, channel=s.channel)
        assert refused.ephemeral and "no tournament yet" in refused.text, refused.text
    thread = FakeChannel(s.h.new_id(), "side chat", 11, s.guild, parent_id=s.channel.id, owner_id=ana.id)
    s.guild.channels[thread.id] = s.h._channels[thread.id] = thread
    before = Unchanged(s)
    refused = await s.h.slash("tournament create war", {}, user=s.admin, channel=thread)
    before.check(refused, "a thread")
    assert "text channel" in refused.text
    league = s.guild.add_channel("league")
    await s.h.slash("tournament create war", {"name": "Game night"}, user=s.admin, channel=s.channel)
    await s.h.slash("tournament create quash", {"name": "Spring league"}, user=s.admin, channel=league)
    night, spring = sorted(await s.h.bot.tournaments.of_guild(s.guild.id), key=lambda t: t.id)
    listed = await s.h.slash("tournament list", {}, user=ana, channel=s.channel)
    assert listed.ephemeral
    assert sorted(line.split(" · ")[:2] for line in listed.text.split("\n")) == \
        [[f"#{night.id}", "Game night"], [f"#{spring.id}", "Spring league"]]
    choices = await s.h.autocomplete("tournament show", "tournament", "spring", user=ana, channel=s.channel)
    assert [c["value"] for c in choices.choices] == [str(spring.id)]
    here = await s.h.slash("tournament show", {}, user=ana, channel=s.channel)  # this channel's
    assert here.ephemeral and "Game night" in texts(here.message)[0]
    there = await s.h.slash("tournament show", {"tournament": str(spring.id)}, user=ana, channel=s.channel)
    assert "Spring league" in texts(there.message)[0]
    for value in ("abc", "999999"):
        refused = await s.h.slash("tournament show", {"tournament": value}, user=ana, channel=s.channel)
        assert refused.ephemeral and "Spring league" not in refused.text and refused.text, value


async def test_the_host_removes_a_player_before_the_start_and_drops_one_while_it_runs(club):
    s = club
    await s.h.slash("tournament create war", {"timer": 1}, user=s.admin, channel=s.channel)
    for name in PLAYERS[:5]:
        await s.h.click(tournament_message(s), label="Join", user=s.user(name))
    tournament_id = (await s.h.bot.tournaments.of_guild(s.guild.id))[0].id
    panel = await s.h.click(tournament_message(s), label="Host", user=s.admin)
    removed = await s.h.select(panel.message, [s.user("eve")], custom_id_prefix="dh:tnrm:", user=s.admin)
    assert removed.ephemeral and "is out of the tournament" in removed.text
    view = await s.h.bot.tournaments.view(tournament_id)
    assert [e.user_id for e in view.entrants] == [s.user(n).id for n in PLAYERS[:4]]
    before = Unchanged(s)
    again = await s.h.select(panel.message, [s.user("eve")], custom_id_prefix="dh:tnrm:", user=s.admin)
    before.check(again, "removing someone not in")
    assert "not in this tournament" in again.text
    await s.h.click(panel.message, label="Start now", user=s.admin)
    await s.h.settle()
    panel = await s.h.click(tournament_message(s), label="Host", user=s.admin)
    await s.h.select(panel.message, [s.user("ana")], custom_id_prefix="dh:tnrm:", user=s.admin)
    await s.h.settle()
    view = await s.h.bot.tournaments.view(tournament_id)
    assert [e.dropped for e in view.entrants] == [True, False, False, False]  # her results stay, unpaired
    (table,) = [t for t in view.tables if s.user("ana").id in {view.entrants[e - 1].user_id for e in t.entrants}]
    row = await s.h.bot.service.storage.get_table(table.table_id)
    assert row.seats[[seat.user_id for seat in row.seats].index(s.user("ana").id)].is_ai  # the AI plays on for her


async def test_a_host_click_waiting_while_a_rounds_threads_are_made_is_deferred_then_answered(club, monkeypatch):
    """The host clicks Pause while round 1's threads are still being made (Discord paces them;
    the tournament's lock is held meanwhile): the click is deferred within Discord's 3 s, and
    the host's panel then says it is paused, rather than "This interaction failed" for a change
    that was made anyway."""
    s = club
    monkeypatch.setattr(cogs.common, "ACK_DEADLINE", 0.3)
    s.h.ack_deadline = 1.0  # the fake holds the bot to this as Discord does to 3 s
    await s.h.slash("tournament create war", {}, user=s.admin, channel=s.channel)
    for name in PLAYERS[:4]:
        await s.h.click(tournament_message(s), label="Join", user=s.user(name))
    tournament_id = (await s.h.bot.tournaments.of_guild(s.guild.id))[0].id
    publisher = s.h.bot.tournaments.publisher
    make_thread, making = publisher.open_thread, asyncio.Event()

    async def paced_thread(*args, **kwargs):  # as when Discord's thread bucket makes the round wait
        making.set()
        await asyncio.sleep(1.2)
        return await make_thread(*args, **kwargs)

    monkeypatch.setattr(publisher, "open_thread", paced_thread)
    panel = await s.h.click(tournament_message(s), label="Host", user=s.admin)
    starting = asyncio.create_task(s.h.click(panel.message, label="Start now", user=s.admin))
    await asyncio.wait_for(making.wait(), 5)
    paused = await s.h.click(panel.message, label="Pause", user=s.admin)
    assert paused.response_type == 6, paused  # deferred, then the panel edited through the token
    assert "Paused: no new round starts until you resume." in paused.message.text
    assert "Resume" in {c.get("label") for c in paused.message.walk()}
    assert (await s.h.bot.tournaments.view(tournament_id)).row.paused
    await starting


def entrant_names(s) -> list[str]:
    """The names the newest tournament message lists as entered."""
    return [name for name in PLAYERS if re.search(rf"\b{name}\b", "\n".join(texts(tournament_message(s))))]


async def test_the_tournament_message_and_its_threads_ride_out_discord_s_refusals(club, monkeypatch):
    """Discord rate-limiting the message's edit, someone deleting the message, a missing permission,
    a thread it would not make or delete: each change shows once Discord lets it, nothing is lost."""
    s = club
    monkeypatch.setattr("cogs.pacing.RETRY_SECONDS", (0.0,))  # a 429's wait, without waiting
    await s.h.slash("tournament create war", {"round_minutes": 30}, user=s.admin, channel=s.channel)
    first = tournament_message(s)
    tournament_id = (await s.h.bot.tournaments.of_guild(s.guild.id))[0].id
    edits = rf"/channels/{s.channel.id}/messages/{first.id}"
    s.h.refuse_next("PATCH", edits, HTTPError(429, 0, "You are being rate limited."))
    await s.h.click(first, label="Join", user=s.user("ana"))
    await s.h.settle()
    assert tournament_message(s).id == first.id and entrant_names(s) == ["ana"]  # shown once Discord let it
    assert len(s.h.requests_to("PATCH", edits)) == 2

    s.h.refuse_next("PATCH", edits, HTTPError(404, 10008, "Unknown Message"))  # someone deleted it
    await s.h.click(first, label="Join", user=s.user("ben"))
    await s.h.settle()
    second = tournament_message(s)
    assert second.id != first.id and entrant_names(s) == ["ana", "ben"]
    assert (await s.h.bot.tournaments.get(tournament_id)).message_id == second.id
    s.h.refuse_next("PATCH", rf"/channels/{s.channel.id}/messages/{second.id}",
                    HTTPError(403, 50013, "Missing Permissions"))
    await s.h.click(second, label="Join", user=s.user("cat"))  # not shown: the next change shows it
    await s.h.settle()
    assert entrant_names(s) == ["ana", "ben"]
    await s.h.click(second, label="Join", user=s.user("dan"))
    await s.h.settle()
    assert tournament_message(s).id == second.id and entrant_names(s) == ["ana", "ben", "cat", "dan"]

    # Discord makes one of round 1's two threads: its table opens when the tournament tries again.
    threads = rf"/channels/{s.channel.id}/threads"
    s.h.refuse_next("POST", threads, HTTPError(403, 50013, "Missing Permissions"))
    panel = await s.h.click(second, label="Host", user=s.admin)
    await s.h.click(panel.message, label="Start now", user=s.admin)
    await s.h.settle()
    assert [t.table_id is not None for t in (await s.h.bot.tournaments.view(tournament_id)).tables].count(True) == 1
    await s.h.bot.tournaments.check(tournament_id)  # its timer: 30 s on
    await s.h.settle()
    await s.h.bot.service.wait_idle()
    old = [t for t in (await s.h.bot.tournaments.view(tournament_id)).tables]
    assert all(t.table_id is not None for t in old) and len(s.h.requests_to("POST", threads)) == 3

    # Paired again while nobody moved: the old threads go, but the one Discord would not delete stays.
    kept = old[0].thread_id
    s.h.refuse_next("DELETE", rf"/channels/{kept}", HTTPError(403, 50013, "Missing Permissions"))
    panel = await s.h.click(tournament_message(s), label="Host", user=s.admin)
    repaired = await s.h.click(panel.message, label="Pair the round again", user=s.admin)
    assert "Round 1 was paired again." in repaired.text
    await s.h.settle()
    await s.h.bot.service.wait_idle()
    assert sorted(int(r.path.rsplit("/", 1)[1]) for r in s.h.requests_to("DELETE", r"/channels/\d+")) == sorted(
        t.thread_id for t in old)
    live = {c.id for c in s.guild.channels.values() if c.is_thread}
    new = (await s.h.bot.tournaments.view(tournament_id)).tables
    assert kept in live and old[1].thread_id not in live
    assert all(t.table_id is not None and t.thread_id in live for t in new)
    assert {t.thread_id for t in new}.isdisjoint(t.thread_id for t in old)


async def test_check_in_by_its_button_and_a_pause_and_resume_by_the_host(club):
    s = club
    await s.h.slash("tournament create war", {"starts": "in 1h"}, user=s.admin, channel=s.channel)
    tournament_id = (await s.h.bot.tournaments.of_guild(s.guild.id))[0].id
    for name in ("ana", "ben"):
        joined = await s.h.click(tournament_message(s), label="Join", user=s.user(name))
        assert "Check in from <t:" in joined.text
    assert not tournament_message(s).find_components(label="Check in")
    starts = time.time() + 600  # the start comes within its 15 minutes of check-in
    with sqlite3.connect(s.db_path) as db:
        db.execute("UPDATE tournaments SET starts_at = ?, deadline = ? WHERE id = ?", (starts, starts, tournament_id))
    await s.h.click(tournament_message(s), label="Join", user=s.user("cat"))  # checked in as she joins
    await s.h.settle()
    assert "✅ Check-in is open: check in before the start" in texts(tournament_message(s))[0]
    checked = await s.h.click(tournament_message(s), label="Check in", user=s.user("ana"))
    assert checked.ephemeral and "You're checked in." in checked.text

    panel = await s.h.click(tournament_message(s), label="Host", user=s.admin)
    paused = await s.h.click(panel.message, label="Pause", user=s.admin)
    assert "Paused: no new round starts until you resume." in paused.text
    assert (await s.h.bot.tournaments.get(tournament_id)).paused
    panel = await s.h.click(tournament_message(s), label="Host", user=s.admin)
    resumed = await s.h.click(panel.message, label="Resume", user=s.admin)
    assert "Resumed." in resumed.text
    panel = await s.h.click(tournament_message(s), label="Host", user=s.admin)
    await s.h.click(panel.message, label="Start now", user=s.admin)
    await s.h.settle()
    view = await s.h.bot.tournaments.view(tournament_id)
    assert view.row.status == "running" and [e.user_id for e in view.entrants] == [s.user(n).id for n in ("ana", "cat")]
