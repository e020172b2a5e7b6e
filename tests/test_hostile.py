"""Hostile input through the real bot, discord.py's own dispatch and a real SQLite file.

A modified client can send any custom_id on any message it sees, any select value,
any form text and raw slash options outside what a command declares. Every probe here
must get a clear private answer, change nothing stored (the whole database is compared
before and after) and log nothing at ERROR (the fake Discord fails the test on any).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from bot.service import DEFAULT_TIMER_MINUTES, MAX_TIMER_MINUTES
from bot.service.live_tables import KeyedLocks
from bot.storage import GuildSettings
from cogs.control import Form, registered
from games import all_rules
from tests.discord_play import (
    Unchanged,
    choose_first_attacker,
    forge_click,
    forge_form,
    forge_select,
    open_table,
    play_to_the_end,
    stored_rows,
)
from tests.fakediscord import APPLICATION_COMMAND, AUTOCOMPLETE, FakeChannel, FakeMessage, walk_components
from tests.test_discord_scores import many_results, rated_pair_games

FUZZ = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
"""The server fixture is shared by a test's examples on purpose: each must leave it unchanged."""


async def running_table(s):
    """Q Squared Joe between ana and ben (table 1), no timer: cat is a bystander."""
    return await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"])


async def table_message(s):
    """The public message of table 1, opening the table on a test's first example."""
    if not s.h.public_messages(s.channel):
        await running_table(s)
    return s.h.public_messages(s.channel)[0]


# -- forging interactions ------------------------------------------------------------------------


async def raw_slash(s, command: str, options: dict[str, Any], user, channel=None):
    """``/command`` with raw option values: no check of choices, ranges or types, as the
    payload of a modified client (discord.py does not check them again)."""
    channel = channel or s.channel
    name, *subcommands = command.split()
    definition, is_guild = s.h._find_command(name, channel)
    data: dict[str, Any] = {"id": definition["id"], "name": name, "type": 1}
    if is_guild:
        data["guild_id"] = definition["guild_id"]
    node, container = definition, data
    for sub in subcommands:
        node = next(o for o in node["options"] if o["name"] == sub)
        entry = {"type": node["type"], "name": sub, "options": []}
        container.setdefault("options", []).append(entry)
        container = entry
    types = {o["name"]: o["type"] for o in node.get("options") or []}
    container.setdefault("options", []).extend(
        {"type": types[k], "name": k, "value": v} for k, v in options.items())
    return await s.h._dispatch_interaction(APPLICATION_COMMAND, data, user=user, channel=channel,
                                           label=f"raw /{command} {options!r}")


# -- generated custom_ids ------------------------------------------------------------------------

NUMBERS = st.one_of(
    st.integers(0, 3).map(str),                      # plausible: real tables, versions, pages
    st.integers(2**63, 10**40).map(str),             # past SQLite's INTEGER
    st.integers(-10**30, -1).map(str),
    st.sampled_from(["²", "①", "٣", "１", "", "0x1", "1_0", "9" * 19, "9223372036854775808"]),
)
FIELDS = {
    "n": NUMBERS,
    "code": st.sampled_from(["draw", "play:QS", "fly:XX", "cut:5", "draw" * 30, "pläy:②"]),
    "verb": st.sampled_from(["join", "leave", "ai", "unai", "side", "start", "cancel", "nuke", ""]),
    "game": st.sampled_from(["q2j", "quash", "nope", "Q2J", ""]),
    "sort": st.sampled_from(["rating", "wins", "drop_table", ""]),
    "pv": st.sampled_from(["prev", "next", "back"]),
    "yn": st.sampled_from(["yes", "no", "maybe"]),
}
BUTTONS = ["dh:mv:{n}:{n}:{code}", "dh:hand:{n}", "dh:lobby:{n}:{verb}", "dh:ask:{n}:{n}:cut:{n}:{n}",
           "dh:rules:{game}:{n}:{pv}", "dh:lb:{game}:{sort}:{n}", "dh:log:{n}:{n}", "dh:forget:{n}:{yn}",
           "dh:reset:{n}:{yn}", "dh:unknown:{n}"]
SELECTS = ["dh:ms:{n}:{n}:{n}", "dh:st:{n}:{n}:{n}", "dh:rules:{game}:section", "dh:logsel"]


@st.composite
def custom_ids(draw, families: list[str]) -> str:
    """A custom_id of one of ``families``: as generated, truncated, overlong or with junk after it."""
    custom_id = re.sub(r"\{(\w+)\}", lambda m: draw(FIELDS[m[1]]), draw(st.sampled_from(families)))
    change = draw(st.sampled_from(["as is", "truncated", "overlong", "junk"]))
    if change == "truncated" and len(custom_id) > 1:
        return custom_id[:draw(st.integers(1, len(custom_id) - 1))]
    if change == "overlong":
        return custom_id + "9" * draw(st.integers(max(1, 101 - len(custom_id)), 150))
    if change == "junk":
        return custom_id + draw(st.text(min_size=1, max_size=5).filter(str.strip))
    return custom_id


@FUZZ
@given(custom_id=custom_ids(BUTTONS))
async def test_forged_buttons_of_every_family_are_refused(server, custom_id):
    s = server
    table = await table_message(s)
    before = Unchanged(s)
    before.check(await forge_click(s, table, custom_id, s.user("cat")), custom_id)


@FUZZ
@given(custom_id=custom_ids(SELECTS), values=st.lists(st.text(max_size=120), max_size=3))
async def test_forged_selects_and_values_are_refused(server, custom_id, values):
    s = server
    table = await table_message(s)
    before = Unchanged(s)
    before.check(await forge_select(s, table, custom_id, values, s.user("cat")), (custom_id, values))


async def test_a_rules_menu_answered_with_no_section_asks_for_one(server):
    s = server
    table = await table_message(s)
    before = Unchanged(s)
    reply = await forge_select(s, table, "dh:rules:q2j:section", ["no-such-section"], s.user("cat"))
    before.check(reply, "no-such-section")
    assert "Choose one section from the menu." in reply.text


async def test_seated_players_cannot_forge_moves_or_menu_values(server):
    s = server
    table = await running_table(s)
    snap = await s.h.bot.service.table(1)
    mover = s.user("ana") if 0 in snap.view["to_act"] else s.user("ben")
    legal = {a.code() for a in (await s.h.bot.service.play.hand(1, s.player(mover))).actions}
    before = Unchanged(s)
    v = snap.row.version
    for custom_id in (f"dh:mv:1:{v + 1}:draw", f"dh:mv:1:{v}:fly:XX", f"dh:mv:2:{v}:draw",
                      f"dh:mv:1:{2**64}:draw", f"dh:mv:{10**30}:{v}:draw", f"dh:hand:{10**30}"):
        before.check(await forge_click(s, table, custom_id, mover), custom_id)
    for value in ("zzz", "play:XX", "draw" * 40, ""):
        assert value not in legal
        before.check(await forge_select(s, table, f"dh:ms:1:{v}:0", [value], mover), value)
        before.check(await forge_select(s, table, f"dh:st:1:{v}:0", [value], mover), value)
    before.check(await forge_select(s, table, f"dh:ms:1:{v}:0", [], mover), "no value")
    for custom_id in (f"dh:ms:{10**30}:{v}:0", f"dh:st:1:{2**64}:0", f"dh:ms:1:{v}:{10**20}"):
        before.check(await forge_select(s, table, custom_id, ["draw"], mover), custom_id)
    overlong = await forge_click(s, table, f"dh:mv:1:{v}:draw" + "9" * 100, mover)
    before.check(overlong, "overlong")
    assert "isn't one Deckhand recognises" in overlong.text
    huge = await forge_click(s, table, f"dh:hand:{2**63}", mover)
    before.check(huge, "past SQLite's INTEGER")
    assert "That table isn't one Deckhand knows" in huge.text


@FUZZ
@given(answer=st.one_of(st.sampled_from(["²", "①", "", " ", "4.5", "-5", "1e3", "9" * 40, "0x10"]),
                        st.text(max_size=50)),
       custom_id=st.sampled_from(["dh:num:1:{v}:cut", "dh:num:1:{v}:draw", f"dh:num:{10**30}:1:cut",
                                  "dh:num:1:99999999999999999999:cut", "dh:other:1", "dh:num:1:1:cut" + "9" * 95]))
async def test_form_answers_outside_what_was_asked_are_refused(server, answer, custom_id):
    s = server
    await table_message(s)
    version = (await s.h.bot.service.table(1)).row.version
    before = Unchanged(s)
    for user in (s.user("ana"), s.user("cat")):
        probe = custom_id.format(v=version)
        before.check(await forge_form(s, probe, answer, user, s.channel), (probe, answer))


# -- every control forged onto another member's public post ----------------------------------------

ON_POSTS: dict[str, list[tuple[str, list[str] | None]]] = {
    # kind: (custom_id, None for a button or a menu's values), with real ids: {guild}, {table} (an ended
    # game), {clicker}. Leaderboards and rules of another game or order than the posts show.
    "LobbyButton": [("dh:lobby:{table}:join", None), ("dh:lobby:{table}:cancel", None)],
    "AiLevelSelect": [("dh:ailevel:{table}", ["normal"])],
    "LogSelect": [("dh:logsel:{guild}:0:0:all", ["{table}"]), ("dh:logsel:{guild}:0:0:war", ["{table}"])],
    "HistoryButton": [("dh:hist:{guild}:0:0:all", None), ("dh:recent:{guild}:{clicker}:0:all", None)],
    "LogPage": [("dh:log:{table}:0", None), ("dh:log:{table}:0:0:0:all", None), ("dh:log:{table}:1:0:0:war", None)],
    "HintButton": [("dh:hint:{table}", None)],
    "PlayAgainButton": [("dh:again:{table}", None)],
    "WatchButton": [("dh:watch:{table}", None)],
    "HandButton": [("dh:hand:{table}", None)],
    "MoveButton": [("dh:mv:{table}:1:draw", None)],
    "MenuSelect": [("dh:ms:{table}:1:0", ["draw"]), ("dh:st:{table}:1:0", ["draw"])],
    "NumberPrompt": [("dh:ask:{table}:1:cut:1:5", None)],
    "PageButton": [("dh:rules:war:1:next", None), ("dh:rules:quash:0:prev", None)],
    "SectionSelect": [("dh:rules:war:section", ["{war_section}"])],
    "BoardPage": [("dh:lb:{guild}:war:rating:0", None), ("dh:lb:{guild}:q2j:rating:1", None),
                  ("dh:lb:{guild}:all:wins:0", None)],
    "ForgetButton": [("dh:forget:{clicker}:no", None), ("dh:forget:{clicker}:yes", None)],
    "ResetButton": [("dh:reset:{guild}:no", None), ("dh:reset:{guild}:yes", None)],
    "TournamentButton": [("dh:tn:1:join", None), ("dh:tn:1:host", None)],
    "HostButton": [("dh:tnh:1:cancel", None)],
    "PlayerSelect": [("dh:tnadd:1", ["{clicker}"])],
    "PartnerSelect": [("dh:tnpartner:1", ["{clicker}"])],
}
"""A probe of every control kind clicked on a message (forms are submitted, not clicked)."""


async def public_posts(s) -> dict[str, FakeMessage]:
    """ana's public posts in #lounge, a channel with no table, once the server has played: the
    leaderboard of Q Squared Joe by wins (three pages), her stats, and the rules of Q Squared Joe."""
    await many_results(s, 24)  # tables 1-12
    await rated_pair_games(s, 1, ("ana", "ben"))
    lounge, ana = s.guild.add_channel("lounge"), s.user("ana")
    board = await s.h.slash("leaderboard", {"game": "q2j", "sort": "wins"}, user=ana, channel=lounge)
    stats = await s.h.slash("stats", {"public": True}, user=ana, channel=lounge)
    rules = await s.h.slash("rules", {"game": "q2j", "public": True}, user=ana, channel=lounge)
    posts = {"leaderboard": board.message, "stats": stats.message, "rules": rules.message}
    assert not any(post.ephemeral for post in posts.values())
    assert board.message.component(label="▶") and stats.message.component(label="📜 Recent games")
    return posts


async def test_a_control_forged_onto_someones_public_post_answers_privately(server):
    """Whatever control anyone forges onto a member's public /leaderboard, /stats or /rules post,
    the post stays as it is and the clicker is answered privately: a log, a list of games, another
    leaderboard or another game's rules never replace it, and an answer to a private question
    (forget me, reset the leaderboards) does nothing there."""
    s = server
    posts = await public_posts(s)
    war_section = all_rules()["war"].sections[1].id
    kinds = [control for control in registered() if not issubclass(control, Form)]
    assert {kind.__name__ for kind in kinds} == set(ON_POSTS), "give every control kind its probes in ON_POSTS"
    for clicker in (s.user("ben"), s.admin):  # told any secret badge at a first interaction, which stores it
        await s.h.slash("stats", {}, user=clicker, channel=s.channel)
    before = Unchanged(s)
    for clicker in (s.user("ben"), s.admin, s.user("ana")):
        fields = {"guild": s.guild.id, "table": 1, "clicker": clicker.id, "war_section": war_section}
        for post_name, post in posts.items():
            for kind in kinds:
                for custom_id, values in ON_POSTS[kind.__name__]:
                    probe = custom_id.format(**fields)
                    assert kind.pattern.fullmatch(probe), (kind.__name__, probe)
                    if values is None:
                        result = await forge_click(s, post, probe, clicker)
                    else:
                        result = await forge_select(s, post, probe, [v.format(**fields) for v in values], clicker)
                    before.check(result, (clicker.name, post_name, probe))
                    assert result.message is None or result.message.id != post.id, (post_name, probe)


async def test_what_a_public_post_carries_still_works(server):
    """What the posts carry keeps working: ◀ ▶ on a leaderboard for everyone, the rules for their poster."""
    s = server
    posts = await public_posts(s)
    board = await s.h.click(posts["leaderboard"], label="▶", user=s.user("ben"))
    assert board.response_type == 7 and "Page 2/3" in s.h.message(posts["leaderboard"].id).text
    page = await s.h.click(posts["rules"], label="Next ▶", user=s.user("ana"))
    assert page.response_type == 7 and "Page 2 of" in s.h.message(posts["rules"].id).text
    recent = await s.h.click(posts["stats"], label="📜 Recent games", user=s.user("ben"))
    assert recent.ephemeral and "Recent games" in recent.text


# -- slash options outside what the commands declare ------------------------------------------------


def start_probes() -> list[tuple[str, dict[str, Any]]]:
    """For every game's ``/<game> start``: each option outside its choices and range."""
    probes = []
    for game in games.all_games():
        command = f"{game.command or game.id} start"
        probes += [(command, {"timer": -5}), (command, {"timer": 10**9}), (command, {"timer": 2**70})]
        for spec in game.options:
            if spec.choices:
                probes += [(command, {spec.name: "xxx"}), (command, {spec.name: "drop table"})]
            elif spec.bounds is not None:
                probes += [(command, {spec.name: spec.bounds[0] - 1}), (command, {spec.name: spec.bounds[1] + 1}),
                           (command, {spec.name: 10**30})]
    return probes


COMMAND_PROBES = [
    ("leaderboard", {"game": "nope"}), ("leaderboard", {"sort": "drop table"}), ("stats", {"game": "nope"}),
    ("history", {"game": "nope"}), ("settings timer", {"minutes": -5}), ("settings timer", {"minutes": 10**9}),
    ("settings timer", {"minutes": 2**80}), ("settings timer", {"minutes": "ten"}),
    ("settings threads", {"enabled": "yes"}),
    ("rules", {"game": "q2j", "section": "x" * 1700}), ("rules", {"game": "x" * 1700}),
    ("rules", {"game": "q2j", "section": "²"}), ("rules", {"game": "q2j", "section": "①"}),
    ("rules", {"game": "q2j", "public": "yes"}),
    ("stats", {"user": "9" * 30}), ("stats", {"user": "1"}), ("history", {"channel": str(2**64)}),
    *start_probes(),
]


async def test_raw_slash_options_outside_their_declaration_are_refused(server):
    s = server
    before = Unchanged(s)
    for command, options in COMMAND_PROBES:
        result = await raw_slash(s, command, options, s.admin)
        before.check(result, (command, options))
        assert command == "rules" or "`" in result.text, result.text  # the refusal names the option


UNCONVERTIBLE = [
    ("history", {"channel": "abc"}), ("history", {"user": "abc"}), ("stats", {"user": "abc"}),
    ("history", {"channel": ""}), ("stats", {"user": "1.5"}), ("stats", {"user": 1.5}), ("stats", {"user": None}),
    ("history", {"user": ["1"]}), ("history", {"channel": {"id": "1"}}), ("stats", {"user": "0"}),
]
"""User and channel options no client of Discord's sends: discord.py reads them as ids
(``int(value)``) before any check of the command's own."""


async def test_user_and_channel_options_that_are_no_id_are_refused(server):
    s = server
    before = Unchanged(s)
    for command, options in UNCONVERTIBLE:
        result = await raw_slash(s, command, options, s.user("ana"))
        before.check(result, (command, options))
        (option,) = options
        assert result.text == f"`{option}`: Pick it from the list Discord offers.", (options, result.text)


async def test_options_a_command_never_declared_are_refused_before_discord_py_reads_them(server):
    """discord.py converts every option sent, declared or not: an id that isn't one or a number
    that isn't one is refused for a command, and an autocomplete gets no suggestions."""
    s = server
    rules, _ = s.h._find_command("rules", s.channel)
    before = Unchanged(s)
    for kind, value, refusal in ((6, "abc", "Pick it from the list Discord offers."), (7, "", "Pick it from"),
                                 (11, "x", "Pick it from"), (10, "abc", "It must be a number."),
                                 (10, 10**400, "It must be a number."), (10, None, "It must be a number.")):
        options = [{"type": 3, "name": "game", "value": "q2j"}, {"type": kind, "name": "extra", "value": value}]
        data = {"id": rules["id"], "name": "rules", "type": 1, "options": options}
        result = await s.h._dispatch_interaction(APPLICATION_COMMAND, data, user=s.user("ana"), channel=s.channel,
                                                 label=f"undeclared {kind}={value!r}")
        before.check(result, (kind, value))
        assert result.text.startswith(f"`extra`: {refusal}"), result.text
        options[0]["focused"] = True
        typed = await s.h._dispatch_interaction(AUTOCOMPLETE, data, user=s.user("ana"), channel=s.channel,
                                                label=f"autocomplete with undeclared {kind}={value!r}")
        assert typed.choices == [], typed
    assert stored_rows(s) == before.rows


async def test_commands_the_bot_no_longer_has_get_a_polite_answer(server):
    """A command Discord still shows after an update removed or reshaped it (or a forged one):
    a clear private answer, nothing changed, nothing logged as an error."""
    s = server
    q2j, _ = s.h._find_command("q2j", s.channel)
    probes = {
        "a removed command": {"id": str(s.h.new_id()), "name": "ghost", "type": 1},
        "a group without its subcommand": {"id": q2j["id"], "name": "q2j", "type": 1, "options": []},
        "a removed subcommand": {"id": q2j["id"], "name": "q2j", "type": 1,
                                 "options": [{"type": 1, "name": "stop", "options": []}]},
        "another kind of command": {"id": q2j["id"], "name": "q2j", "type": 2, "target_id": str(s.user("ben").id)},
    }
    before = Unchanged(s)
    for probe, data in probes.items():
        result = await s.h._dispatch_interaction(APPLICATION_COMMAND, data, user=s.user("ana"), channel=s.channel,
                                                 label=probe)
        before.check(result, probe)
        assert result.text.startswith("That command has changed since Discord showed it to you"), (probe, result.text)


@FUZZ
@given(minutes=st.one_of(st.integers(max_value=-1), st.integers(min_value=MAX_TIMER_MINUTES + 1)),
       command=st.sampled_from(["settings timer", "q2j start", "war start"]))
async def test_out_of_range_timers_are_refused(server, minutes, command):
    s = server
    before = Unchanged(s)
    option = "minutes" if command == "settings timer" else "timer"
    before.check(await raw_slash(s, command, {option: minutes}, s.admin), (command, minutes))


@FUZZ
@given(section=st.text(min_size=1, max_size=2000))
async def test_any_rules_section_gets_an_answer_within_discords_limits(server, section):
    s = server
    before = Unchanged(s)
    before.check(await raw_slash(s, "rules", {"game": "q2j", "section": section}, s.user("cat")), section)


async def test_a_long_section_is_not_quoted_back_in_full(server):
    s = server
    reply = await raw_slash(s, "rules", {"game": "q2j", "section": "y" * 1700}, s.user("ana"))
    assert reply.ephemeral and "no section" in reply.text and "y" * 100 not in reply.text
    page = await raw_slash(s, "rules", {"game": "q2j", "section": "٢"}, s.user("ana"))  # int() reads it as 2
    assert page.ephemeral and "Page 2 of" in page.text


async def test_a_bad_stored_default_timer_does_not_stop_starts(server):
    s = server
    refused = await raw_slash(s, "settings timer", {"minutes": -5}, s.admin)
    assert refused.ephemeral and "minutes" in refused.text
    assert await s.h.bot.service.storage.guild_settings(s.guild.id) == GuildSettings(False, None)
    with_bad_row = Unchanged(s)  # a row written before settings were checked on write
    await s.h.bot.service.storage.set_guild_settings(s.guild.id, timer_minutes=10**9)
    assert stored_rows(s) != with_bad_row.rows
    reply = await s.h.slash("q2j start", {}, user=s.user("ana"), channel=s.channel)
    assert reply.ephemeral and "table is open" in reply.text
    assert (await s.h.bot.service.table(1)).row.timer_minutes == DEFAULT_TIMER_MINUTES
    ok = await s.h.slash("settings timer", {"minutes": MAX_TIMER_MINUTES}, user=s.admin, channel=s.channel)
    assert ok.ephemeral and f"{MAX_TIMER_MINUTES} min" in ok.text


# -- lobby verbs, DMs, and memory ------------------------------------------------------------------


async def test_switch_side_is_refused_in_a_game_without_sides(server):
    s = server
    lobby = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"], start=False)
    assert not lobby.find_components(label="Switch side")
    before = Unchanged(s)
    for user in (s.user("ben"), s.user("ana")):
        refused = await forge_click(s, lobby, "dh:lobby:1:side", user)
        before.check(refused, user.name)
        assert "isn't played in sides" in refused.text
    before.check(await forge_click(s, lobby, "dh:lobby:1:nuke", s.user("ana")), "unknown verb")


async def test_direct_messages_get_a_polite_answer(server):
    s = server
    await running_table(s)
    cat = s.user("cat")
    dm = FakeChannel(s.h.new_id(), "dm-cat", 1, None, recipient=cat)
    s.h._channels[dm.id] = dm
    before = Unchanged(s)
    for command, options in (("leaderboard", {}), ("q2j start", {}), ("table hand", {}), ("stats", {}),
                             ("history", {}), ("settings timer", {"minutes": 5}), ("settings show", {}),
                             ("settings reset-leaderboard", {}), ("leaderboard", {"game": "nope"}),
                             ("rules", {"game": "q2j", "section": "①"})):
        before.check(await raw_slash(s, command, options, cat, channel=dm), (command, options))
    before.check(await forge_form(s, "dh:num:1:1:cut", "5", cat, dm), "form in a DM")


async def test_forged_table_ids_leave_nothing_in_memory_and_ended_tables_are_dropped(server):
    s = server
    table = await running_table(s)
    service = s.h.bot.service
    await service.wait_idle()
    held = service.tables_in_memory()
    for table_id in range(1000, 1200):
        await forge_click(s, table, f"dh:hand:{table_id}", s.user("ana"))
    assert service.tables_in_memory() == held
    await play_to_the_end(s, table)
    await service.wait_idle()
    assert (await service.table(1)).row.status == "finished"
    assert service.tables_in_memory() == 0


async def test_a_table_lock_lives_only_while_held_or_awaited():
    locks = KeyedLocks()
    order = []

    async def hold(name: str) -> None:
        async with locks.hold(7):
            order.append(name)
            await asyncio.sleep(0)

    async with locks.hold(7):
        waiting = [asyncio.create_task(hold(n)) for n in ("second", "third")]
        await asyncio.sleep(0)
        assert locks.users(7) == 3 and len(locks) == 1
    await asyncio.gather(*waiting)
    assert order == ["second", "third"] and len(locks) == 0 and locks.users(7) == 0


# -- names people choose ---------------------------------------------------------------------------

LINK_NAME = "[Free Nitro](https://evil.example)"
FORMAT_NAME = "# **ben**_||x|| <@&1> `"
MARKDOWN_KEYS = ("content", "description", "value")
"""Where Discord reads markdown in a message body (embed field values included); labels,
placeholders, footers and thread names show text as it is."""


def markdown_texts(body: Any) -> list[str]:
    """Every string of a request body that Discord shows as markdown (a V2 message's text
    displays too; other components' texts show as they are)."""
    if isinstance(body, dict):
        found = [v for k, v in body.items() if k in MARKDOWN_KEYS and isinstance(v, str)]
        found += [c["content"] for c in walk_components(body.get("components") or []) if c.get("type") == 10]
        return found + [t for k, v in body.items() if k != "components" for t in markdown_texts(v)]
    if isinstance(body, list):
        return [t for v in body for t in markdown_texts(v)]
    return []


async def test_display_names_show_as_typed_and_never_act_as_markdown(server):
    """A display name can hold a masked link, a heading, spoilers, a mention or a code
    tick; in every message the bot sends it must read as typed and format nothing."""
    s = server
    s.user("ana").global_name, s.user("ben").global_name = LINK_NAME, FORMAT_NAME
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    status = await s.h.slash("table status", {}, user=s.user("cat"), channel=s.channel)
    await play_to_the_end(s, table)
    history = await s.h.slash("history", {"game": "q2j"}, user=s.user("cat"), channel=s.channel)
    texts = [t for r in s.h.requests_to() for t in markdown_texts(r.body)]
    assert not [t for t in texts if LINK_NAME in t or FORMAT_NAME in t]
    for shown in (status.text, s.h.message(table.id).text, history.text):
        assert r"\[Free Nitro\](https\://evil\.example)" in shown, shown
        assert r"\# \*\*ben\*\*\_\|\|x\|\| \<\@&1\> \`" in shown, shown
    lines = [line for text in texts for line in text.split("\n")]
    assert any(line.startswith(r"\[Free Nitro\]") for line in lines)  # a name starting a line is no heading either
    assert not any(line.startswith(("[Free Nitro]", "# ")) for line in lines)
    menu = history.message.component(placeholder="See a game's moves…")  # the game's number: no name to escape
    assert [(o["label"], o.get("description")) for o in menu["options"]] == [("#1", None)]


async def test_labels_show_names_without_markdown_escapes(server):
    """Button and menu labels are plain text: a name there is shown exactly as typed."""
    s = server
    s.user("ana").global_name = s.user("ben").global_name = "x_y*z"
    table, mover, hand = await choose_first_attacker(s, "war start")
    labels = [b["label"] for b in s.h.message(hand.message.id).buttons]
    assert any("(x_y*z)" in label for label in labels), labels
    assert not any("\\" in label for label in labels), labels


async def test_a_tables_controls_forged_onto_a_public_post_in_its_channel_leave_the_post_alone(server):
    """Where a table lives, its controls pass the place check: forged onto a member's public
    post in that channel, they still never turn the post into a lobby, a table or an answer
    (the host's AI-level menu included)."""
    s = server
    await open_table(s, "war start", {"timer": 0}, "ana", start=False)
    table = (await s.h.bot.service.storage.open_table_in(s.channel.id)) or 0
    board = await s.h.slash("leaderboard", {}, user=s.user("ben"), channel=s.channel)
    post = board.message
    shown = post.text, post.components
    for clicker in (s.user("ana"), s.user("cat")):
        for kind in ("AiLevelSelect", "HintButton", "WatchButton", "HandButton", "LogPage", "LobbyButton"):
            for custom_id, values in ON_POSTS[kind]:
                probe = custom_id.format(table=table, guild=s.guild.id, clicker=clicker.id)
                if values is None:
                    result = await forge_click(s, post, probe, clicker)
                else:
                    result = await forge_select(s, post, probe, values, clicker)
                after = s.h.message(post.id)
                assert (after.text, after.components) == shown, (clicker.name, probe, result)
