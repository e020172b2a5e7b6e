"""Helpers every cog uses: who is acting, answering errors politely, and views of dynamic items."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

import discord
from discord import app_commands

from bot.client import DeckhandBot
from bot.errors import StorageUnavailable, UserError
from bot.in_flight import RESTARTING
from bot.service import GameService, Player
from games.i18n import Text, say

from .badges import tell_secrets
from .components import SentView
from .language import reader_language, server_language
from .outage import UNREACHABLE
from .parsing import InvalidOption, custom_id_of
from .webhook_requests import answer_on_its_way

T = TypeVar("T")
P = ParamSpec("P")

log = logging.getLogger("deckhand.interactions")

UNKNOWN_INTERACTION = 10062
"""Discord's error code for an answer to an interaction that expired (after its 3 s, undeferred)."""

ACK_DEADLINE = 1.5
"""Seconds after Deckhand received an interaction by which it is answered, or else deferred
(Discord allows 3; the rest is for the deferral to reach Discord on a busy machine)."""
RECEIVED = "deckhand_received"
"""The key of :attr:`discord.Interaction.extras` under which :func:`guarded` notes when it began."""

APOLOGY = say("Sorry, something went wrong on our side. It has been logged; please try again in a moment.")
OUTDATED_COMMAND = say("That command has changed since Discord showed it to you, so nothing was done. Discord "
                       "updates its list within a moment (reloading Discord with Ctrl+R helps); then try again.")
IN_DIRECT_MESSAGES = say("Deckhand tables live in server channels, not in direct messages.")
NOT_ALLOWED = say("You don't have permission to use that command here.")


def bot_of(interaction: discord.Interaction) -> DeckhandBot:
    """The bot answering ``interaction``: its service, publisher and interactions in flight.
    Deckhand's cogs load only into a :class:`DeckhandBot` (``bot.load_extension("cogs")``)."""
    client = interaction.client
    if not isinstance(client, DeckhandBot):
        raise TypeError(f"Deckhand's cogs answer only in a DeckhandBot, not in a {type(client).__name__}")
    return client


def require_guild(interaction: discord.Interaction, refusal: Text = IN_DIRECT_MESSAGES) -> int:
    """The server a command was used in; :class:`UserError` with ``refusal`` in a direct message.
    Guild-only commands (Discord never sends them from a DM) get their server id through it too."""
    if interaction.guild_id is None:
        raise UserError(refusal)
    return interaction.guild_id


def player_of(interaction: discord.Interaction) -> Player:
    """Who is acting, and in which server (None in a DM): the service refuses them any other server's table."""
    return Player(interaction.user.id, interaction.user.display_name, interaction.guild_id)


def is_admin(interaction: discord.Interaction) -> bool:
    """Members with Manage Server may end or cancel anyone's table."""
    return bool(interaction.permissions and interaction.permissions.manage_guild)


def service_of(interaction: discord.Interaction) -> GameService:
    return bot_of(interaction).service



def for_reader(interaction: discord.Interaction, text: Text) -> str:
    """``text`` in the language of the person who clicked or typed (what only they see)."""
    return text.render(reader_language(interaction))


async def public_language(interaction: discord.Interaction) -> str:
    """The language of what a command posts for everyone in its channel: the server's."""
    settings = await service_of(interaction).storage.guild_settings(require_guild(interaction))
    return server_language(settings, interaction.guild_locale)


async def reply_ephemeral(interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
    """Answer only the clicking user, whether or not the interaction was answered yet."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=True, **kwargs)


async def update_clicked(interaction: discord.Interaction, **changes: Any) -> None:
    """Update the message whose control was clicked (``content``, ``view``…): in the answer, or
    through the interaction's token once :func:`in_time` deferred it."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**changes)
    else:
        await interaction.response.edit_message(**changes)


def received_at(interaction: discord.Interaction) -> float:
    """When Deckhand began answering ``interaction`` (the event loop's clock), as :func:`guarded` noted it."""
    return interaction.extras.setdefault(RECEIVED, asyncio.get_running_loop().time())


async def in_time(interaction: discord.Interaction, work: Awaitable[T]) -> T:
    """Await ``work`` (a move, which may wait on a locked database; a picture being drawn); if
    the interaction is still unanswered :data:`ACK_DEADLINE` after it was received, defer it
    first (a command's privately, "thinking"), so Discord's 3 s are kept however many steps
    the answer takes. After a deferral the answer is an edit of the original response or a
    follow-up."""
    task = asyncio.ensure_future(work)
    left = ACK_DEADLINE - (asyncio.get_running_loop().time() - received_at(interaction))
    done, _ = await asyncio.wait({task}, timeout=max(left, 0.0))
    if not done and not interaction.response.is_done() and not answer_on_its_way(interaction):
        command = interaction.type is discord.InteractionType.application_command
        try:
            await interaction.response.defer(ephemeral=True, thinking=command)
        except discord.HTTPException:
            log.warning("could not defer interaction %s", interaction.id)
    return await task


def guarded(handler: Callable[P, Awaitable[None]]) -> Callable[P, Coroutine[Any, Any, None]]:
    """Decorator: ``handler`` (a slash command's callback, or a control's) runs so that user
    mistakes get their message, anything else an apology and a log line; a database fault
    (already logged by the storage) gets the message that nothing was saved. While the bot is
    closing, the handler does not run: the user is told to try again. The interaction is the
    handler's positional argument that is one (discord.py passes it so, after the cog or control).

    discord.py builds a command's options from its callback's signature, reading string
    annotations (``from __future__ import annotations``) in the callback's ``__globals__``, this
    module's for the wrapper: so the wrapper carries the handler's signature with its annotations
    resolved in the handler's own module."""

    @functools.wraps(handler)
    async def guarded_handler(*args: P.args, **kwargs: P.kwargs) -> None:
        interaction = next(arg for arg in args if isinstance(arg, discord.Interaction))
        received_at(interaction)
        in_flight = bot_of(interaction).in_flight
        if in_flight.closing:
            with contextlib.suppress(discord.HTTPException):
                await reply_ephemeral(interaction, for_reader(interaction, RESTARTING))
            return
        with in_flight.track():
            try:
                await handler(*args, **kwargs)
                await tell_untold(interaction)
            except (UserError, StorageUnavailable) as exc:
                await answer_if_possible(interaction, for_reader(interaction, exc.text))
            except UNREACHABLE as exc:
                log.warning("could not answer interaction %s: Discord is out of reach (%s: %s)",
                            interaction.id, type(exc).__name__, exc)
            except Exception as exc:
                if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_INTERACTION:
                    # Answered after Discord's 3 s: the person saw "This interaction failed",
                    # and nothing more can be said to them on this interaction.
                    log.warning("interaction %s was answered after Discord's 3 s (%s): %s",
                                interaction.id, custom_id_of(interaction) or "a command", exc.text)
                    return
                log.exception(
                    "interaction failed: user=%s guild=%s channel=%s command=%s custom_id=%s",
                    interaction.user.id, interaction.guild_id, interaction.channel_id,
                    interaction.command and interaction.command.qualified_name, custom_id_of(interaction),
                )
                await answer_if_possible(interaction, for_reader(interaction, APOLOGY))

    guarded_handler.__signature__ = inspect.signature(handler, eval_str=True)  # type: ignore[attr-defined]
    return guarded_handler


async def tell_untold(interaction: discord.Interaction) -> None:
    """Once the interaction is answered, tell its person privately of the secret badges they
    unlocked and were not told of yet (:mod:`cogs.badges`); never a reason to fail the answer."""
    guild_id = interaction.guild_id
    unlocks = service_of(interaction).results.unlocks
    if guild_id is None or not interaction.response.is_done() or not unlocks.has_untold(guild_id, interaction.user.id):
        return
    try:
        untold = await unlocks.untold(guild_id, interaction.user.id)
        if untold and await tell_secrets(interaction, untold, reader_language(interaction)):
            await unlocks.told(untold)
    except StorageUnavailable:  # logged by the storage; they are told at a later interaction
        pass


async def answer_if_possible(interaction: discord.Interaction, content: str) -> None:
    """:func:`reply_ephemeral`, or a warning when Discord takes no answer any more (the
    interaction expired while the bot was slow, or Discord is out of reach)."""
    try:
        await reply_ephemeral(interaction, content)
    except (discord.HTTPException, *UNREACHABLE) as exc:
        log.warning("could not answer interaction %s (%s: %s)", interaction.id, type(exc).__name__, exc)


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """The command tree's error handler: a polite answer, and a log line for our own faults."""
    message: Text
    if isinstance(error, InvalidOption):
        message = error.text
    elif isinstance(error, app_commands.NoPrivateMessage):
        message = IN_DIRECT_MESSAGES
    elif isinstance(error, app_commands.CheckFailure):
        message = NOT_ALLOWED
    elif isinstance(error, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
        log.info("outdated command from user %s: %s", interaction.user.id, error)
        message = OUTDATED_COMMAND
    elif isinstance(error, app_commands.CommandInvokeError) and isinstance(error.original, StorageUnavailable):
        message = error.original.text
    else:
        log.error("command %s failed", interaction.command and interaction.command.qualified_name, exc_info=error)
        message = APOLOGY
    await answer_if_possible(interaction, for_reader(interaction, message))


def static_view(items: list[discord.ui.Item]) -> discord.ui.View:
    """A view holding ``items``, only ever sent (:class:`SentView`): every control is a dynamic
    item dispatched from its custom_id."""
    view = SentView(timeout=None)
    for item in items:
        view.add_item(item)
    return view


THREADS = (discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)

CLOSED_HERE = say("I can no longer see or post in this channel")
"""How Deckhand says a moderator made the channel private to it (or took its View Channel)."""
GIVE_BACK = say("A moderator can give me View Channel and Send Messages here")


def may_post_here(interaction: discord.Interaction) -> bool:
    """Whether Deckhand may see and post in the interaction's channel, by the permissions
    Discord sent with it (True when it sent none)."""
    granted = interaction.app_permissions
    in_thread = getattr(interaction.channel, "type", None) in THREADS
    return granted.value == 0 or (granted.view_channel
                                  and (granted.send_messages_in_threads if in_thread else granted.send_messages))


def channel_closed_note(interaction: discord.Interaction) -> str:
    """A line for a player when Deckhand may no longer see or post in the interaction's
    channel (a moderator made it private, say): Discord still delivers the clicks, so the
    game goes on in private messages, but its table message and turn pings stop."""
    if may_post_here(interaction):
        return ""
    return "⚠️ " + for_reader(interaction, say(
        "I can no longer see or post in this channel, so the table's message and turn pings have stopped. A "
        "moderator can give me View Channel and Send Messages here; you can go on playing from **My hand**."))
