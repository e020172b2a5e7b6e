"""Every control is valid only where it belongs (cogs/control.py), checked over the
registry of controls itself: a new control kind is covered here without editing this file.

For each registered kind, custom_ids are generated from its own template with the victim's
table, server and person in their fields, and forged (on a message Deckhand posted) from
another server, from a DM and from another channel of the victim's server, through the
fake Discord and discord.py's own dispatch. Whatever the control, the forger gets a private
refusal, the database file is unchanged and no public message anywhere changes.
"""

from __future__ import annotations

import random
import re
import re._constants as sre
import re._parser as sre_parse
import typing

import discord
import pytest

from bot.errors import NotHere, UserError
from cogs.control import NOT_YOURS, OTHER_SERVER, AtTable, Control, Form, ForUser, InServer, registered, table_button_id
from cogs.extension import import_controls
from cogs.messages import HAND, PLAY_AGAIN, menu_id, move_id, number_prompt_id
from games.i18n import SOURCE, Text, language_of
from tests.discord_play import Server, Unchanged, forge_click, forge_form, forge_select, open_table
from tests.fakediscord import FakeChannel, FakeMessage, FakeUser
from tests.words import english_left

NOT_HERE = NotHere().text
EXAMPLES = 4
"""Forged custom_ids per control kind and place."""


# -- custom_ids from a template --------------------------------------------------------------------


def generate(pattern: re.Pattern[str], fields: dict[str, str], rng: random.Random) -> str:
    """A string the regex ``pattern`` matches, with each named group in ``fields`` given that
    value and every other part chosen at random (short numbers and words, so most parse)."""
    names = {number: name for name, number in pattern.groupindex.items()}

    def walk(items) -> str:
        return "".join(part(op, arg) for op, arg in items)

    def one_char(ranges) -> str:
        chars = []
        for op, arg in ranges:
            if op is sre.LITERAL:
                chars.append(chr(arg))
            elif op is sre.RANGE:
                chars += [chr(c) for c in range(arg[0], min(arg[1], arg[0] + 25) + 1)]
            elif op is sre.CATEGORY:
                chars += list("0123" if arg is sre.CATEGORY_DIGIT else "abc")
            elif op is sre.NEGATE:
                return rng.choice("abc123:.")  # [^\s]: any visible character
        return rng.choice(chars)

    def part(op, arg) -> str:
        if op is sre.LITERAL:
            return chr(arg)
        if op is sre.IN:
            return one_char(arg)
        if op is sre.CATEGORY:
            return rng.choice("0123" if arg is sre.CATEGORY_DIGIT else "abc")
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            low, high, inner = arg
            return "".join(walk(inner) for _ in range(rng.randint(low, min(high, max(low, 2)))))
        if op is sre.SUBPATTERN:
            group, _, _, inner = arg
            if group in names and names[group] in fields:
                return fields[names[group]]
            return walk(inner)
        if op is sre.BRANCH:
            return walk(rng.choice(arg[1]))
        if op in (sre.ASSERT, sre.AT):
            return ""  # the length guard and anchors match what is generated
        raise NotImplementedError(f"template part {op} {arg} in {pattern.pattern}")

    return walk(sre_parse.parse(pattern.pattern))


def forgeries(control: type[Control], fields: dict[str, str], rng: random.Random) -> list[str]:
    """:data:`EXAMPLES` custom_ids ``control`` parses (its own validation passes), naming the victim."""
    found: list[str] = []
    for _ in range(500):
        custom_id = generate(control.pattern, fields, rng)
        match = control.pattern.fullmatch(custom_id)
        assert match, (control.__name__, custom_id)
        try:
            control.parse(match, discord.ui.Button(custom_id=custom_id))
        except UserError:
            continue
        found.append(custom_id)
        if len(found) == EXAMPLES:
            return found
    raise AssertionError(f"no custom_id {control.__name__} parses could be generated from {control.pattern.pattern}")


def component_kind(control: type[Control]) -> str:
    """"form", "select" or "button": what a forger sends for ``control``."""
    if issubclass(control, Form):
        return "form"
    for klass in control.__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            if typing.get_origin(base) is discord.ui.DynamicItem:
                return "select" if issubclass(typing.get_args(base)[0], discord.ui.Select) else "button"
    raise AssertionError(f"{control.__name__} is neither a form nor a dynamic item")


# -- the places a forger sends from --------------------------------------------------------------------


def posted_in(s: Server, channel: FakeChannel) -> FakeMessage:
    """A message Deckhand posted in ``channel`` (a DM too): what a forger's component rides on."""
    return s.h._new_message(channel, kind="dm" if channel.type == 1 else "channel",
                            body={"content": "A message from Deckhand."})


def direct_messages(s: Server, user: FakeUser) -> FakeChannel:
    channel = FakeChannel(s.h.new_id(), f"dm-{user.name}", 1, None, recipient=user)
    s.h._channels[channel.id] = channel
    return channel


async def forge(s: Server, kind: str, custom_id: str, user: FakeUser, message: FakeMessage, victim_table: int):
    if kind == "form":
        return await forge_form(s, custom_id, "3", user, message.channel)
    if kind == "select":
        return await forge_select(s, message, custom_id, [str(victim_table)], user)
    return await forge_click(s, message, custom_id, user)


def expected_refusal(control: type[Control], custom_id: str, same_server: bool) -> Text | None:
    """The refusal a forger gets, or None where the control is valid there too (a view of
    the forger's own server's data, or the rules)."""
    place = control.parse(control.pattern.fullmatch(custom_id), discord.ui.Button(custom_id=custom_id)).place()
    if isinstance(place, AtTable):
        return NOT_HERE
    if isinstance(place, InServer):
        return None if same_server else OTHER_SERVER
    if isinstance(place, ForUser):
        return NOT_YOURS
    return None


@pytest.fixture
async def crime_scene(server):
    """A running Q2J table (1) between ana and ben in #games; eve, a member of the same
    server, also has a server of her own, and a DM with Deckhand."""
    s = server
    await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"])
    eve = s.h.add_user("eve")
    s.guild.add_member(eve)
    elsewhere = s.h.add_guild("Eve's Den")
    elsewhere.add_member(eve, manage_guild=True)
    places = {
        "another server": (posted_in(s, elsewhere.add_channel("den")), False),
        "a DM": (posted_in(s, direct_messages(s, eve)), False),
        "another channel": (posted_in(s, s.guild.add_channel("lounge")), True),
    }
    return s, eve, places


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_every_control_is_refused_outside_its_place_in_the_forgers_language(crime_scene, locale):
    s, eve, places = crime_scene
    eve.locale = locale
    language = language_of(locale)
    snap = await s.h.bot.service.table(1)
    fields = {"table": "1", "guild": str(s.guild.id), "user": str(s.user("ana").id), "version": str(snap.row.version)}
    rng = random.Random(28)
    controls = registered()
    assert {c.__name__ for c in controls} >= {"LobbyButton", "MoveButton", "NumberAnswer", "BoardPage", "ForgetButton"}
    for control in controls:
        kind = component_kind(control)
        for custom_id in forgeries(control, fields, rng):
            for where, (carrier, same_server) in places.items():
                probe = (control.__name__, custom_id, where)
                before = Unchanged(s)
                result = await forge(s, kind, custom_id, eve, carrier, victim_table=1)
                before.check(result, probe)
                refusal = expected_refusal(control, custom_id, same_server)
                if refusal is not None:
                    assert refusal.render(language) in result.text, (probe, result.text)
                if language != SOURCE and result.ephemeral:
                    assert not english_left(result.text, language), (probe, result.text)


async def test_a_forged_join_from_another_server_seats_nobody(crime_scene):
    s, eve, places = crime_scene
    host, war_room = s.user("cat"), s.guild.add_channel("war-room")
    await s.h.slash("war start", {"timer": 0}, user=host, channel=war_room)
    join = s.h.latest_public(war_room).component(label="Join")["custom_id"]
    table_id = int(join.split(":")[2])
    before = Unchanged(s)
    for carrier, _ in places.values():
        for verb in ("join", "leave", "ai", "unai", "start", "cancel"):
            result = await forge_click(s, carrier, f"dh:lobby:{table_id}:{verb}", eve)
            before.check(result, (carrier.channel, verb))
            assert result.text == str(NOT_HERE), (verb, result.text)
    snap = await s.h.bot.service.table(table_id)
    assert [seat.user_id for seat in snap.row.seats] == [host.id]


def test_every_control_answers_through_the_one_checked_path():
    """A control that overrode ``callback`` (or a form ``submitted``) could skip the place check."""
    for control in registered():
        assert control.callback is Control.callback, control.__name__
        assert control.handle is Control.handle, control.__name__
        if issubclass(control, Form):
            assert control.submitted.__func__ is Form.submitted.__func__, control.__name__


def test_every_custom_id_the_messages_make_is_one_a_control_answers_and_fits_discord():
    """The custom_ids are made where the messages are built (cogs/messages.py) and parsed by the
    controls answering them (cogs/moves.py, cogs/play_again.py): the two agree, and a move too
    long for Discord's 100 characters is never put on a message."""
    import_controls()  # as the extension does when it loads: every control kind registered
    made = {"MoveButton": move_id(12, 3, "play:QH"), "MenuSelect": menu_id("st", 12, 3, 0),
            "NumberPrompt": number_prompt_id(12, 3, "cut", 1, 40), "HandButton": table_button_id(HAND, 12),
            "PlayAgainButton": table_button_id(PLAY_AGAIN, 12)}
    answered = {name: [c.__name__ for c in registered() if c.pattern.fullmatch(custom_id)]
                for name, custom_id in made.items()}
    assert answered == {name: [name] for name in made}
    assert [c.__name__ for c in registered() if c.pattern.fullmatch(menu_id("ms", 12, 3, 4))] == ["MenuSelect"]
    with pytest.raises(ValueError, match="too long"):
        move_id(12, 3, "play:" + "QH," * 40)
