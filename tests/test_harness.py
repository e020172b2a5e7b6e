"""Self-tests of the fake Discord (tests/fakediscord) with a toy bot, mostly in-process
(``DiscordHarness``), and over the loopback server (``LoopbackDiscord``) at the end.

The toy bot exercises what the real bot relies on: a slash command group with a
subcommand group, an ephemeral answer carrying a ``DynamicItem`` button, a click
that edits a public channel message and answers with UPDATE_MESSAGE, a deferred
follow-up, a select menu, a modal, autocomplete, a persistent view, threads; and
the harness's failure modes (spec violations, unknown routes, logged errors,
unacknowledged interactions, tasks that never settle) and a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time

import aiohttp
import discord
import discord.http
import discord.webhook.async_
import pytest
import yarl
from discord import app_commands
from discord.ext import commands

from tests import openapi
from tests.fakediscord import (
    EPHEMERAL,
    TOKEN_SECONDS,
    DiscordHarness,
    DiscordModel,
    FakeChannel,
    FakeGuild,
    FakeUser,
    LoopbackDiscord,
    ManualClock,
)

CARDS = ["AS", "KS", "QS", "JS", "TS", "AH", "KH", "QH"]


# ============================================================================ toy bot
class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"toy:join:(?P<table>\d+)"):
    """Join the table whose public message id is in the custom_id (survives restarts)."""

    def __init__(self, table_id: int) -> None:
        super().__init__(discord.ui.Button(label="Join", style=discord.ButtonStyle.success,
                                           custom_id=f"toy:join:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> JoinButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        assert interaction.channel is not None
        table = interaction.channel.get_partial_message(self.table_id)  # type: ignore[union-attr]
        await table.edit(content=f"Table: {interaction.user.name} joined")
        await interaction.response.edit_message(content="You joined.", view=None)


class Panel(discord.ui.View):
    """A persistent view (timeout=None, fixed custom_ids), registered in setup_hook."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Refresh", custom_id="toy:panel:refresh", style=discord.ButtonStyle.secondary)
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f"Refreshed for {interaction.user.name}.", ephemeral=True)


class PickView(discord.ui.View):
    @discord.ui.select(custom_id="toy:pick", placeholder="Pick suits", min_values=1, max_values=2,
                       options=[discord.SelectOption(label=n, value=v)
                                for n, v in (("Spades", "S"), ("Hearts", "H"), ("Clubs", "C"))])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"You picked {'+'.join(select.values)}", ephemeral=True)

    @discord.ui.button(label="Rename", custom_id="toy:rename")
    async def rename(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(RenameModal())


class BoomView(discord.ui.View):
    @discord.ui.button(label="Boom", custom_id="toy:boom")
    async def boom(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        raise RuntimeError("boom in a button callback")


class VoteView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=30)
        self.votes: list[str] = []

    @discord.ui.button(label="Vote", custom_id="toy:vote")
    async def vote(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.votes.append(interaction.user.name)
        await interaction.response.send_message(f"Votes so far: {len(self.votes)}", ephemeral=True)
        if len(self.votes) >= 2:
            self.stop()


class RenameModal(discord.ui.Modal, title="Rename table"):
    new_name = discord.ui.TextInput(label="New name", custom_id="toy:rename:name", max_length=20)
    reason = discord.ui.Label(text="Why?", component=discord.ui.TextInput(custom_id="toy:rename:why",
                                                                        required=False))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        why = self.reason.component.value  # type: ignore[union-attr]
        if interaction.message is not None:  # opened from a button: update that message
            await interaction.response.edit_message(content=f"Renamed to {self.new_name.value} ({why or '-'})")
        else:
            await interaction.response.send_message(f"Renamed to {self.new_name.value} ({why or '-'})")


class ToyGroup(app_commands.Group, name="toy", description="A toy card table"):
    admin = app_commands.Group(name="admin", description="Table administration")

    @app_commands.command(name="start", description="Open a table")
    @app_commands.describe(name="Table name", seats="Number of seats", open="Anyone may join",
                           rival="Someone to challenge")
    async def start(self, interaction: discord.Interaction, name: str,
                    seats: app_commands.Range[int, 2, 4] = 2, open: bool = True,
                    rival: discord.Member | None = None) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        table = await interaction.channel.send(f"Table {name}: waiting ({seats} seats)", view=Panel())
        view = discord.ui.View(timeout=None)
        view.add_item(JoinButton(table.id))
        extra = f", rival {rival.name}" if rival else ""
        await interaction.response.send_message(f"Opened {name} (open={open}{extra})", view=view, ephemeral=True)

    @app_commands.command(name="slow", description="Work that needs a defer")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("Slow result", ephemeral=True)
        await interaction.followup.send("Public note")

    @app_commands.command(name="pick", description="Pick suits")
    async def pick(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Choose:", view=PickView())

    @app_commands.command(name="rename", description="Rename via a modal")
    async def rename(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(RenameModal())

    @app_commands.command(name="card", description="Name a card")
    @app_commands.describe(card="A card code")
    async def card(self, interaction: discord.Interaction, card: str) -> None:
        await interaction.response.send_message(f"card {card}", ephemeral=True)

    @card.autocomplete("card")
    async def card_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c) for c in CARDS if current.upper() in c][:25]

    @app_commands.command(name="boom", description="Post a broken button")
    async def boom(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Do not press", view=BoomView())

    @app_commands.command(name="thread", description="Open a thread")
    async def thread(self, interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        starter = await interaction.channel.send("A game starts here")
        thread = await starter.create_thread(name="game")
        await thread.send("Welcome to the game thread")
        await interaction.response.send_message(f"thread {thread.id}", ephemeral=True)

    @app_commands.command(name="vote", description="Collect two votes")
    async def vote(self, interaction: discord.Interaction) -> None:
        view = VoteView()
        await interaction.response.send_message("Vote now", view=view)
        await view.wait()  # waits for user input: the harness treats this task as idle
        await interaction.edit_original_response(content=f"Voted: {', '.join(sorted(view.votes))}", view=None)

    @app_commands.command(name="silent", description="Never answers")
    async def silent(self, interaction: discord.Interaction) -> None:
        return None

    @app_commands.command(name="hang", description="Defers, then works for a long time")
    async def hang(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await asyncio.sleep(1.0)

    @admin.command(name="reset", description="Reset the table (Manage Server)")
    async def reset(self, interaction: discord.Interaction) -> None:
        if not interaction.permissions.manage_guild:
            await interaction.response.send_message("You need Manage Server.", ephemeral=True)
            return
        await interaction.response.send_message("Table reset.")


class ToyBot(commands.Bot):
    def __init__(self, intents: discord.Intents | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents or discord.Intents.default(),
                         guild_ready_timeout=0.01)
        self.ready_seen = asyncio.Event()
        self.gateway_messages: list[int] = []  # ids of MESSAGE_CREATEs the bot received

    async def setup_hook(self) -> None:
        self.tree.add_command(ToyGroup())
        self.add_dynamic_items(JoinButton)
        self.add_view(Panel())
        await self.tree.sync()

    async def on_ready(self) -> None:
        self.ready_seen.set()

    async def on_message(self, message: discord.Message) -> None:
        self.gateway_messages.append(message.id)


# ============================================================================ fixtures
def world(h: DiscordModel) -> tuple[FakeGuild, FakeChannel, FakeUser, FakeUser]:
    guild = h.add_guild("Card Club")
    general = guild.add_channel("general")
    ana, bob = h.add_user("ana"), h.add_user("bob")
    guild.add_member(ana)
    guild.add_member(bob, manage_guild=True)
    return guild, general, ana, bob


@pytest.fixture
async def h():
    async with DiscordHarness(validate_responses=True) as harness:
        yield harness


@pytest.fixture
async def toy(h):
    guild, general, ana, bob = world(h)
    bot = await h.start(ToyBot())
    return bot, general, ana, bob


# ============================================================================== tests
async def test_start_syncs_commands_and_gets_ready(h, toy):
    bot, general, ana, bob = toy
    assert bot.is_ready() and bot.ready_seen.is_set()
    assert bot.user is not None and bot.user.id == h.bot_user.id
    (cmd,) = h.commands()
    assert cmd["name"] == "toy" and int(cmd["id"]) > 0
    sync = h.requests_to("PUT", r"/commands$")
    assert len(sync) == 1 and sync[0].operation == "bulk_set_application_commands"
    assert bot.get_guild(general.guild.id) is not None  # type: ignore[union-attr]
    assert bot.get_channel(general.id) is not None


async def test_slash_ephemeral_dynamic_button_edits_public_message(h, toy):
    bot, general, ana, bob = toy
    r = await h.slash("toy start", {"name": "alpha", "seats": 3, "rival": bob}, user=ana, channel=general)
    assert r.response_type == 4 and r.ephemeral
    assert r.content == "Opened alpha (open=True, rival bob)"
    assert r.message is not None and r.message.visible_to == ana.id
    assert r.message.interaction_metadata["user"]["id"] == str(ana.id)
    assert h.ephemeral_for(ana) == [r.message] and h.ephemeral_for(bob) == []
    table = h.latest_public(general)
    assert table.content == "Table alpha: waiting (3 seats)"
    assert [str(q) for q in r.requests] == [f"POST /channels/{general.id}/messages -> 200",
                                            f"POST /interactions/{r.id}/{r.record.token}/callback -> 200"]
    callback = r.requests[-1]
    assert callback.query == {"with_response": "1"} and callback.operation == "create_interaction_response"
    created = callback.response["resource"]["message"]  # what discord.py attached the view to
    assert created["flags"] & EPHEMERAL and created["interaction_metadata"]["type"] == 2
    assert callback.response["interaction"]["response_message_id"] == created["id"]

    with pytest.raises(AssertionError, match="ephemeral"):  # bob cannot see ana's ephemeral message
        await h.click(r.message, label="Join", user=bob)

    click = await h.click(r.message, label="Join", user=ana)
    assert click.response_type == 7
    assert click.message is r.message and r.message.content == "You joined." and r.message.components == []
    assert table.content == "Table: ana joined" and len(table.history) == 1
    assert {q.method for q in click.requests} == {"PATCH", "POST"}
    # the bot got MESSAGE_CREATE for its public messages, never for ephemeral ones
    assert table.id in bot.gateway_messages and r.message.id not in bot.gateway_messages


async def test_deferred_followups(h, toy):
    bot, general, ana, bob = toy
    r = await h.slash("toy slow", user=ana, channel=general)
    assert r.response_type == 5 and r.deferred
    # the first follow-up fills the "thinking" message; the second is a new message
    assert r.message is not None and not r.message.loading and r.message.content == "Slow result"
    assert r.ephemeral
    (note,) = r.followups
    assert note.content == "Public note" and note.public
    assert note.interaction_metadata["original_response_message_id"] == str(r.message.id)
    assert h.latest_public(general) is note


async def test_select_modal_from_button_and_modal_from_command(h, toy):
    bot, general, ana, bob = toy
    r = await h.slash("toy pick", user=ana, channel=general)
    assert not r.ephemeral
    with pytest.raises(AssertionError, match="not among the options"):
        await h.select(r, ["X"], user=ana)
    picked = await h.select(r, ["S", "H"], user=bob, placeholder="Pick suits")
    assert picked.ephemeral and picked.content == "You picked S+H" and picked.message.visible_to == bob.id

    opened = await h.click(r, label="Rename", user=ana)
    assert opened.response_type == 9 and opened.modal["title"] == "Rename table"
    with pytest.raises(AssertionError, match="required"):
        await h.submit_modal(opened, {"toy:rename:name": ""})
    done = await h.submit_modal(opened, {"toy:rename:name": "beta", "toy:rename:why": "fun"})
    assert done.response_type == 7 and r.message.content == "Renamed to beta (fun)"

    opened = await h.slash("toy rename", user=bob, channel=general)
    done = await h.submit_modal(opened, {"toy:rename:name": "gamma"})
    assert done.response_type == 4 and done.content == "Renamed to gamma (-)" and not done.ephemeral
    assert done.message.interaction_metadata["type"] == 5


async def test_autocomplete_and_option_checks(h, toy):
    bot, general, ana, bob = toy
    ac = await h.autocomplete("toy card", "card", "s", user=ana, channel=general)
    assert ac.response_type == 8
    assert [c["value"] for c in ac.choices] == ["AS", "KS", "QS", "JS", "TS"]
    r = await h.slash("toy card", {"card": "QS"}, user=ana, channel=general)
    assert r.content == "card QS"
    with pytest.raises(AssertionError, match="required option 'card'"):
        await h.slash("toy card", user=ana, channel=general)
    with pytest.raises(AssertionError, match=r"2\.\.4"):
        await h.slash("toy start", {"name": "x", "seats": 9}, user=ana, channel=general)
    with pytest.raises(AssertionError, match="no option"):
        await h.slash("toy start", {"name": "x", "colour": "red"}, user=ana, channel=general)
    with pytest.raises(AssertionError, match="not synced"):
        await h.slash("nope", user=ana, channel=general)


async def test_subcommand_group_and_permissions(h, toy):
    bot, general, ana, bob = toy
    denied = await h.slash("toy admin reset", user=ana, channel=general)
    assert denied.ephemeral and "Manage Server" in denied.content
    ok = await h.slash("toy admin reset", user=bob, channel=general)
    assert not ok.ephemeral and ok.content == "Table reset."
    sent = ok.payload["data"]
    assert sent["options"][0]["type"] == 2 and sent["options"][0]["options"][0]["name"] == "reset"
    assert sent["id"] == h.commands()[0]["id"]


async def test_concurrent_clicks_and_a_command_waiting_for_its_view(h, toy):
    bot, general, ana, bob = toy
    r = await h.slash("toy vote", user=ana, channel=general)  # returns while the command waits
    assert r.content == "Vote now"
    first, second = await asyncio.gather(h.click(r, label="Vote", user=ana), h.click(r, label="Vote", user=bob))
    assert sorted([first.content, second.content]) == ["Votes so far: 1", "Votes so far: 2"]
    assert first.ephemeral and first.message.visible_to == ana.id and second.message.visible_to == bob.id
    # the second vote stopped the view; the waiting command woke up and edited its message
    assert r.message.content == "Voted: ana, bob" and r.message.components == []


async def test_persistent_view(h, toy):
    bot, general, ana, bob = toy
    await h.slash("toy start", {"name": "alpha"}, user=ana, channel=general)
    r = await h.click(h.latest_public(general), label="Refresh", user=bob)
    assert r.ephemeral and r.content == "Refreshed for bob."


async def test_threads(h, toy):
    bot, general, ana, bob = toy
    r = await h.slash("toy thread", user=ana, channel=general)
    thread_id = int(r.content.split()[1])
    thread = h.channel(thread_id)
    assert thread.is_thread and thread.parent_id == general.id
    assert h.latest_public(thread).content == "Welcome to the game thread"
    assert bot.get_channel(thread_id) is not None  # THREAD_CREATE reached the bot
    starter = h.latest_public(general)
    assert starter.thread_id == thread_id
    fetched = await bot.get_channel(general.id).fetch_message(starter.id)  # type: ignore[union-attr]
    assert fetched.content == "A game starts here" and h.requests[-1].operation == "get_message"


async def test_restart_dynamic_item_and_persistent_view_still_route(h):
    guild, general, ana, bob = world(h)
    first = await h.start(ToyBot())
    r = await h.slash("toy start", {"name": "alpha"}, user=ana, channel=general)
    ids = {c["name"]: c["id"] for c in h.commands()}
    await h.stop(first)
    assert first.is_closed()

    second = await h.start(ToyBot())
    assert h.bot is second
    assert {c["name"]: c["id"] for c in h.commands()} == ids  # command ids are stable across syncs
    click = await h.click(r.message, label="Join", user=ana)  # an old message, a new process
    assert click.response_type == 7 and h.latest_public(general).content == "Table: ana joined"
    refresh = await h.click(h.latest_public(general), label="Refresh", user=bob)
    assert refresh.content == "Refreshed for bob."


async def test_spec_violation_is_reported(h, toy):
    bot, general, ana, bob = toy
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=general.id)
    body = {"components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "x" * 81, "custom_id": "too-long"}]}]}
    with pytest.raises(discord.HTTPException) as info:
        await bot.http.request(route, json=body)
    assert info.value.status == 400 and info.value.code == 50035
    with pytest.raises(AssertionError) as failure:
        h.assert_no_errors()
    text = str(failure.value)
    assert f"POST /channels/{general.id}/messages" in text
    assert "$.components[0].components[0].label" in text and "maxLength=80" in text
    assert h.public_messages(general) == []  # Discord did not create it


async def test_discord_limits_beyond_the_spec(h, toy):
    bot, general, ana, bob = toy
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=general.id)
    with pytest.raises(discord.HTTPException):
        await bot.http.request(route, json={"content": "x" * 2001})
    with pytest.raises(discord.HTTPException):
        await bot.http.request(route, json={})
    failures = h.take_failures()
    assert any("2001 characters" in f for f in failures)
    assert any("empty" in f for f in failures)


async def test_unknown_route_is_reported(h, toy):
    bot, general, ana, bob = toy
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=general.guild.id))
    (failure,) = h.take_failures()
    assert f"GET /guilds/{general.guild.id}/bans" in failure and "does not handle" in failure


async def test_exception_in_button_callback_fails_the_test(h, toy):
    bot, general, ana, bob = toy
    r = await h.slash("toy boom", user=ana, channel=general)
    with pytest.raises(AssertionError) as failure:
        await h.click(r, label="Boom", user=ana)
    assert "Ignoring exception in view" in str(failure.value)
    assert "RuntimeError: boom in a button callback" in str(failure.value)
    # the opt-out for tests that expect a logged error
    with h.expect_logged_error(r"boom in a button callback") as expected:
        await h.click(r, label="Boom", user=ana, expect_response=False)
    assert len(expected.records) == 1
    with pytest.raises(AssertionError, match="expected at least 1 logged error"):
        with h.expect_logged_error("never logged"):
            pass


async def test_unacknowledged_interaction_fails(h, toy):
    bot, general, ana, bob = toy
    with pytest.raises(AssertionError, match="never acknowledged"):
        await h.slash("toy silent", user=ana, channel=general)
    r = await h.slash("toy silent", user=ana, channel=general, expect_response=False)
    assert not r.acknowledged and r.response_type is None


async def test_unsettled_work_fails_clearly(h, toy):
    bot, general, ana, bob = toy
    h.settle_timeout = 0.2
    with pytest.raises(AssertionError, match=r"did not settle within 0\.2s(.|\n)*hang"):
        await h.slash("toy hang", user=ana, channel=general)


async def test_expired_token_and_request_log(h, toy):
    bot, general, ana, bob = toy
    r = await h.slash("toy start", {"name": "alpha"}, user=ana, channel=general)
    h.expire_tokens(r)
    interaction_webhook = discord.Webhook.partial(h.application_id, r.record.token, client=bot)
    with pytest.raises(discord.HTTPException) as info:
        await interaction_webhook.edit_message(r.message.id, content="late")
    assert info.value.status == 401
    assert r.message.content.startswith("Opened alpha")


def test_openapi_module_maps_routes_and_validates():
    spec = openapi.get_spec()
    assert spec is openapi.get_spec()  # loaded once
    op = spec.find_operation("POST", "/interactions/123/tok-en/callback")
    assert op is not None and op.operation_id == "create_interaction_response"
    assert spec.find_operation("PATCH", "/webhooks/1/t/messages/@original").template.endswith("@original")
    assert spec.find_operation("PATCH", "/webhooks/1/t/messages/2").template.endswith("{message_id}")
    assert spec.find_operation("GET", "/nope") is None
    openapi.validate_request("POST", "/interactions/1/t/callback",
                             {"type": 4, "data": {"content": "hi", "flags": EPHEMERAL}})
    with pytest.raises(openapi.SpecViolation, match="no such route"):
        openapi.validate_request("POST", "/nope", {})
    with pytest.raises(openapi.SpecViolation, match=r"\$\.data\.title"):
        openapi.validate_request("POST", "/interactions/1/t/callback",
                                 {"type": 9, "data": {"custom_id": "m", "title": "t" * 46, "components": [
                                     {"type": 1, "components": [{"type": 4, "custom_id": "a", "style": 1,
                                                                 "label": "A"}]}]}})
    # multipart: payload_json is what gets validated
    form = [{"name": "payload_json", "value": '{"content": 5}'},
            {"name": "files[0]", "value": b"x", "filename": "a.txt"}]
    with pytest.raises(openapi.SpecViolation, match=r"\$\.content"):
        openapi.validate_request("POST", "/channels/1/messages", form=form)


def test_openapi_unions_judge_each_component_by_its_type():
    """Unions try only the branches a component's ``type`` matches, with the same verdicts."""
    def message(*components):
        return {"flags": 1 << 15, "components": [{"type": 17, "components": list(components)}]}

    button = {"type": 2, "style": 1, "custom_id": "b", "label": "Play"}
    openapi.validate_request("POST", "/channels/1/messages",
                             message({"type": 10, "content": "hi"}, {"type": 1, "components": [button]}))
    with pytest.raises(openapi.SpecViolation, match=r"\$\.components\[0\]\.components\[1\]\.components\[0\]\.label"):
        openapi.validate_request("POST", "/channels/1/messages",
                                 message({"type": 10, "content": "hi"},
                                         {"type": 1, "components": [{**button, "label": "x" * 81}]}))
    with pytest.raises(openapi.SpecViolation, match=r"\.style"):  # an enum (a union of constants) without 9
        openapi.validate_request("POST", "/channels/1/messages",
                                 message({"type": 1, "components": [{**button, "style": 9}]}))
    for misplaced in ({"type": 17, "components": []}, {"type": 99}, {"type": True, "content": "hi"}):
        with pytest.raises(openapi.SpecViolation):
            openapi.validate_request("POST", "/channels/1/messages",
                                     message({"type": 1, "components": [misplaced]}))


async def test_patches_are_restored():
    http_request = discord.http.HTTPClient.request
    webhook_request = discord.webhook.async_.AsyncWebhookAdapter.request
    async with DiscordHarness() as h:
        assert discord.http.HTTPClient.request is not http_request
        world(h)
        await h.start(ToyBot())
    assert discord.http.HTTPClient.request is http_request
    assert discord.webhook.async_.AsyncWebhookAdapter.request is webhook_request
    assert asyncio.get_running_loop().get_task_factory() is None


# ====================================================================== loopback transport
@contextlib.asynccontextmanager
async def over_loopback(fd: LoopbackDiscord, bot: commands.Bot, token: str = "toy-token"):
    """Run ``bot`` in this process against ``fd`` over real HTTP and a gateway websocket."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(discord.http.Route, "BASE", fd.base_url)
        mp.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fd.gateway_url))
        runner = asyncio.create_task(bot.start(token))
        try:
            yield runner
        finally:
            await bot.close()
            await asyncio.wait({runner}, timeout=5)


async def test_loopback_serves_the_same_model():
    async with LoopbackDiscord(validate_responses=True) as fd:
        guild, general, ana, bob = world(fd)
        bot = ToyBot()
        async with over_loopback(fd, bot):
            await fd.wait_ready(10)
            await asyncio.wait_for(bot.ready_seen.wait(), 10)
            r = await fd.slash("toy start", {"name": "alpha", "seats": 3, "rival": bob}, user=ana, channel=general)
            reply = await fd.wait_for_reply(r)
            assert reply.ephemeral and reply.content == "Opened alpha (open=True, rival bob)"
            assert r.requests[-1].query == {"with_response": "1"}
            click = await fd.click(reply, label="Join", user=ana)
            assert (await fd.wait_for_reply(click)).content == "You joined."
            await fd.wait_until(lambda: fd.latest_public(general).content == "Table: ana joined", 5)
            slow = await fd.slash("toy slow", user=ana, channel=general)
            assert (await fd.wait_for_reply(slow)).content == "Slow result"
            await fd.wait_idle(quiet=0.2)
            assert fd.latest_public(general).id in bot.gateway_messages  # MESSAGE_CREATE over the websocket
        assert not fd.failures, fd.describe()


async def test_loopback_refuses_bad_tokens_and_privileged_intents():
    async with LoopbackDiscord() as fd:
        async with over_loopback(fd, ToyBot(), token="bad-token") as runner:
            with pytest.raises(discord.LoginFailure):
                await asyncio.wait_for(runner, 10)
        # members is a privileged intent: refused unless allowed_intents lets it through
        async with over_loopback(fd, ToyBot(discord.Intents(guilds=True, members=True))) as runner:
            with pytest.raises(discord.PrivilegedIntentsRequired):
                await asyncio.wait_for(runner, 10)
        assert fd.gateway_closes == [(4014, "Disallowed intent(s).")]


async def test_loopback_keeps_refusing_sessions_it_closed_for_good():
    """A client may take a close for a dropped connection and RESUME (discord.py does when the
    close frame races with its own traffic); Discord refuses it again, and so does the fake."""

    async def session_close(fd: LoopbackDiscord, op: int, d: dict) -> int | None:
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(f"{fd.gateway_url}?v=10&encoding=json") as ws:
                assert (await ws.receive_json())["op"] == 10  # HELLO
                await ws.send_json({"op": op, "d": d})
                while True:  # READY and the like, until the close (a session let in times out here)
                    msg = await ws.receive(timeout=5)
                    if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                        return ws.close_code

    identify = {"token": "fake-token", "intents": 1, "properties": {}}
    resume = {"token": "fake-token", "session_id": "gone", "seq": 3}
    async with LoopbackDiscord() as fd:
        await fd.close_sessions(4011, "Sharding required.")
        assert await session_close(fd, 2, identify) == 4011
        assert await session_close(fd, 6, resume) == 4011
    async with LoopbackDiscord() as fd:
        await fd.close_sessions(4004, "Authentication failed.", revoke="fake-token")
        assert await session_close(fd, 6, resume) == 4004
        assert await session_close(fd, 2, identify) == 4004


def test_ids_hold_when_they_were_made_as_discords_snowflakes_do():
    """The bot reads from an id how old a message is, and what came after a moment (the ping
    a crash may have cut short): an id made a minute into a run holds that minute."""
    clock = ManualClock(discord.utils.utcnow().replace(microsecond=0).timestamp())
    model = DiscordModel(clock=clock)
    clock.advance(60)
    made = model.new_id()
    assert discord.utils.snowflake_time(made).timestamp() == clock()
    assert model.new_id() > made


async def test_a_token_answers_for_fifteen_minutes_of_discords_clock():
    clock = ManualClock(time.time())
    async with DiscordHarness(clock=clock) as h:
        guild, general, ana, bob = world(h)
        bot = await h.start(ToyBot())
        r = await h.slash("toy start", {"name": "alpha"}, user=ana, channel=general)
        webhook = discord.Webhook.partial(h.application_id, r.record.token, client=bot)
        clock.advance(TOKEN_SECONDS - 1)
        await webhook.edit_message(r.message.id, content="still in time")
        clock.advance(1)
        with pytest.raises(discord.HTTPException) as late:
            await webhook.edit_message(r.message.id, content="too late")
        assert (late.value.status, late.value.code) == (401, 50027)
        assert r.message.content == "still in time"
        later = await h.slash("toy start", {"name": "beta"}, user=ana, channel=general)
        assert discord.utils.snowflake_time(later.id).timestamp() == pytest.approx(clock(), abs=0.001)


async def test_a_token_edits_only_its_own_messages(h, toy):
    """``@original`` of a click answered by updating its message is the message clicked; no
    token edits another interaction's message, and no channel route an ephemeral one."""
    bot, general, ana, bob = toy
    r = await h.slash("toy start", {"name": "alpha"}, user=ana, channel=general)
    click = await h.click(r.message, label="Join", user=ana)
    adapter = discord.webhook.async_.async_context.get()
    await adapter.edit_original_interaction_response(h.application_id, click.record.token, session=None,
                                                     payload={"content": "edited by the click"})
    assert r.message.content == "edited by the click"
    table = h.latest_public(general)
    with pytest.raises(discord.NotFound):
        await discord.Webhook.partial(h.application_id, click.record.token, client=bot).edit_message(
            table.id, content="not the click's message")
    with pytest.raises(discord.NotFound):
        await bot.get_partial_messageable(general.id).get_partial_message(r.message.id).edit(
            content="through the channel")
    refused = h.take_failures()
    assert len(refused) == 2 and "does not belong" in refused[0] and "ephemeral" in refused[1]
    assert table.content == "Table: ana joined" and r.message.content == "edited by the click"
