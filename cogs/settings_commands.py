"""``/settings``: per-server preferences and the leaderboard reset (Manage Server only).

What it answers is written in the language of whoever asked (:func:`reader_language`);
``/settings language`` chooses the language of the server's public messages among the
catalogs' (:data:`games.i18n.LANGUAGES`), or leaves it to the server's Discord language.
"""

from __future__ import annotations

import re
import time
from typing import Any, Self

import discord
from babel import Locale
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.errors import UserError
from bot.markdown import literal
from bot.seasons import ROLLOVERS
from bot.service import DEFAULT_TIMER_MINUTES, MAX_TIMER_MINUTES
from games.ai import LEVEL_NAMES, LEVELS
from games.i18n import LANGUAGES, SOURCE, plural, say

from .common import guarded, is_admin, require_guild, service_of, static_view
from .control import Control, InServer, Place
from .language import reader_language, server_language
from .limits import CHOICE_NAME, COMMAND_DESCRIPTION
from .parsing import control_template, require_private_message, stored_id
from .site_links import new_site_token, site_url
from .translator import command_text, slash_name

DISCORD_LANGUAGE = "discord"
"""``/settings language``'s choice for the server's Discord language (stored as None)."""
NO_ROLLOVER = "off"
SITE_ON, SITE_OFF, SITE_NEW_LINK = "on", "off", "new-link"
"""``/settings web``'s choices."""
MOST_SEASON_GAMES = 100
MOST_ACTIVE_DAYS = 3650


def language_name(language: str) -> str:
    """A catalog's language named in itself, as language menus do: "English", "Français"."""
    name = Locale.parse(language, sep="-").get_display_name(language.replace("-", "_")) or language
    return name[:1].upper() + name[1:]


async def describe(interaction: discord.Interaction) -> str:
    """The server's preferences, in the language of whoever asked."""
    settings = await service_of(interaction).storage.guild_settings(require_guild(interaction))
    minutes = DEFAULT_TIMER_MINUTES if settings.timer_minutes is None else settings.timer_minutes
    spoken = language_name(server_language(settings, interaction.guild_locale))
    lines = [
        say("New tables open in their own thread.") if settings.use_threads else say("New tables open in the channel."),
        say("Default turn timer: {minutes} min (a host can pick another).", minutes=minutes) if minutes
        else say("Default turn timer: off (a host can pick another)."),
        say("Pictures of tables and hands: on.") if settings.pictures
        else say("Pictures of tables and hands: off (text only)."),
        say("AI players are {level} unless the host picks another level; an AI taking over a seat plays at {level}.",
            level=LEVEL_NAMES[settings.ai_level]),
        say("Lobbies, tables and endings are in {language} (chosen with `/settings language`).", language=spoken)
        if settings.language else
        say("Lobbies, tables and endings are in the server's Discord language: {language}.", language=spoken),
        say("Seasons roll over {period}: each ends with its period and the next starts.",
            period=ROLLOVERS[settings.season_rollover]) if settings.season_rollover in ROLLOVERS
        else say("Seasons start and end by `/season start` and `/season end`."),
        plural("A player is ranked in a season after {count} rated game.",
               "A player is ranked in a season after {count} rated games.", settings.season_min_games),
        plural("The all-time leaderboards list players with a game in the last {count} day.",
               "The all-time leaderboards list players with a game in the last {count} days.", settings.active_days)
        if settings.active_days else say("The all-time leaderboards list every player."),
        say("This server's pages in a browser: {url} (anyone with the link can read them; "
            "`/settings web site:new link` replaces it).", url=site_url(interaction.client, settings.web_token))
        if settings.web_token else say("This server's pages in a browser: off (`/settings web` turns them on)."),
    ]
    language = reader_language(interaction)
    return "\n".join(line.render(language) for line in lines)


class ResetButton(Control, discord.ui.DynamicItem[discord.ui.Button],
                  template=control_template(r"dh:reset:(?P<guild>\d+):(?P<answer>yes|no)")):
    """The answer to ``/settings reset-leaderboard``'s question, for the server it was asked in
    (labelled in ``language``; a click is routed by its custom_id alone)."""

    def __init__(self, guild_id: int, answer: str, language: str = SOURCE) -> None:
        label, style = ((say("Reset the leaderboards"), discord.ButtonStyle.danger) if answer == "yes"
                        else (say("Keep them"), discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label.render(language), style=style,
                                           custom_id=f"dh:reset:{guild_id}:{answer}"))
        self.guild_id, self.answer = guild_id, answer

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(stored_id(match["guild"], "server"), match["answer"])

    def place(self) -> Place:
        return InServer(self.guild_id)

    async def run(self, interaction: discord.Interaction) -> None:
        require_private_message(interaction)
        language = reader_language(interaction)
        if not is_admin(interaction):
            raise UserError(say("Only members with Manage Server can reset this server's leaderboards."))
        if self.answer == "no":
            await interaction.response.edit_message(content=say("The leaderboards were kept.").render(language),
                                                    view=None)
            return
        await service_of(interaction).results.reset_leaderboard(self.guild_id, time.time())
        await interaction.response.edit_message(
            content=say("The leaderboards start afresh now; past games stay in `/history`.").render(language),
            view=None)


class SettingsCog(commands.Cog):
    settings = app_commands.Group(
        name=slash_name("settings"), description=locale_str("Server preferences for Deckhand tables"),
        guild_only=True, default_permissions=discord.Permissions(manage_guild=True),
    )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # Discord hides the group from members without Manage Server; this holds when a server
        # overrides that in its integration settings.
        if not is_admin(interaction):
            raise app_commands.MissingPermissions(["manage_guild"])
        return True

    @settings.command(name=slash_name("show"), description=locale_str("The current preferences"))
    @guarded
    async def show(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(await describe(interaction), ephemeral=True)

    @settings.command(name=slash_name("threads"),
                      description=locale_str("Open each new table in its own thread, or in the channel"))
    @app_commands.rename(enabled=slash_name("enabled"))
    @app_commands.describe(enabled=locale_str("True: a thread per table; False: tables in the channel itself"))
    @guarded
    async def threads(self, interaction: discord.Interaction, enabled: bool) -> None:
        await service_of(interaction).storage.set_guild_settings(require_guild(interaction), use_threads=enabled)
        await interaction.response.send_message(await describe(interaction), ephemeral=True)

    @settings.command(name=slash_name("timer"), description=locale_str("Default minutes per turn for new tables"))
    @app_commands.rename(minutes=slash_name("minutes"))
    @app_commands.describe(minutes=command_text(say("0 turns the timer off; Deckhand's own default is {minutes}",
                                                    minutes=DEFAULT_TIMER_MINUTES), COMMAND_DESCRIPTION))
    @guarded
    async def timer(self, interaction: discord.Interaction,
                    minutes: app_commands.Range[int, 0, MAX_TIMER_MINUTES]) -> None:
        await service_of(interaction).lobbies.set_default_timer(require_guild(interaction), minutes)
        await interaction.response.send_message(await describe(interaction), ephemeral=True)

    @settings.command(name=slash_name("pictures"),
                      description=locale_str("Show tables and hands as pictures, or as text only"))
    @app_commands.rename(enabled=slash_name("enabled"))
    @app_commands.describe(enabled=locale_str("True: pictures beside the text; False: text only"))
    @guarded
    async def pictures(self, interaction: discord.Interaction, enabled: bool) -> None:
        await service_of(interaction).storage.set_guild_settings(require_guild(interaction), pictures=enabled)
        await interaction.response.send_message(await describe(interaction), ephemeral=True)

    @settings.command(name=slash_name("ai-level"),
                      description=locale_str("The level AI players default to, and AIs taking over a seat play at"))
    @app_commands.rename(level=slash_name("level"))
    @app_commands.describe(level=locale_str("easy: a beginner; normal: Deckhand's usual player; hard: thinks ahead"))
    @app_commands.choices(level=[
        app_commands.Choice(name=command_text(LEVEL_NAMES[level], CHOICE_NAME), value=level) for level in LEVELS])
    @guarded
    async def ai_level(self, interaction: discord.Interaction, level: str) -> None:
        await service_of(interaction).lobbies.set_default_ai_level(require_guild(interaction), level)
        await interaction.response.send_message(await describe(interaction), ephemeral=True)

    @settings.command(name=slash_name("language"),
                      description=locale_str("The language of lobbies, tables and endings (what everyone sees)"))
    @app_commands.rename(choice=slash_name("language"))
    @app_commands.describe(choice=locale_str("A language Deckhand speaks, or the server's own Discord language"))
    @app_commands.choices(choice=[
        app_commands.Choice(name=locale_str("The server's Discord language"), value=DISCORD_LANGUAGE),
        *(app_commands.Choice(name=language_name(language), value=language) for language in LANGUAGES),
    ])
    @guarded
    async def language(self, interaction: discord.Interaction, choice: str) -> None:
        language = None if choice == DISCORD_LANGUAGE else choice
        await service_of(interaction).storage.set_guild_settings(require_guild(interaction), language=language)
        await interaction.response.send_message(await describe(interaction), ephemeral=True)

    @settings.command(
        name=slash_name("web"),
        description=locale_str("This server's pages in a browser: turn them on or off, or make a new link"))
    @app_commands.rename(site=slash_name("site"))
    @app_commands.describe(site=locale_str("on: the pages and their link; off: no pages; new link: the old one stops"))
    @app_commands.choices(site=[
        app_commands.Choice(name=locale_str("on"), value=SITE_ON),
        app_commands.Choice(name=locale_str("off"), value=SITE_OFF),
        app_commands.Choice(name=locale_str("new link"), value=SITE_NEW_LINK),
    ])
    @guarded
    async def web(self, interaction: discord.Interaction, site: str) -> None:
        guild_id = require_guild(interaction)
        storage = service_of(interaction).storage
        token = (await storage.guild_settings(guild_id)).web_token
        if site == SITE_OFF:
            token = None
        elif site == SITE_NEW_LINK or token is None:
            token = new_site_token()
        await storage.set_guild_settings(guild_id, web_token=token)
        await interaction.response.send_message(await describe(interaction), ephemeral=True)

    @settings.command(name=slash_name("season-rollover"),
                      description=locale_str("Seasons that follow the calendar, each starting as the last ends"))
    @app_commands.rename(period=slash_name("period"))
    @app_commands.describe(period=locale_str("monthly or quarterly (UTC); off: seasons only by /season start"))
    @app_commands.choices(period=[
        app_commands.Choice(name=locale_str("off"), value=NO_ROLLOVER),
        *(app_commands.Choice(name=command_text(words, CHOICE_NAME), value=value)
          for value, words in ROLLOVERS.items()),
    ])
    @guarded
    async def season_rollover(self, interaction: discord.Interaction, period: str) -> None:
        guild_id = require_guild(interaction)
        started = await service_of(interaction).seasons.roll_over(
            guild_id, interaction.channel_id or 0, None if period == NO_ROLLOVER else period)
        answer = await describe(interaction)
        if started is not None:
            answer = say("The season “{name}” starts now, here; it ends with its period.", name=literal(started.name)
                         ).render(reader_language(interaction)) + "\n\n" + answer
        await interaction.response.send_message(answer, ephemeral=True)

    @settings.command(name=slash_name("season-min-games"),
                      description=locale_str("Rated games a player needs in a season to be ranked"))
    @app_commands.rename(games=slash_name("games"))
    @app_commands.describe(games=locale_str("From 1 to 100 (Deckhand's default: 5)"))
    @guarded
    async def season_min_games(self, interaction: discord.Interaction,
                               games: app_commands.Range[int, 1, MOST_SEASON_GAMES]) -> None:
        await service_of(interaction).storage.set_guild_settings(require_guild(interaction), season_min_games=games)
        await interaction.response.send_message(await describe(interaction), ephemeral=True)

    @settings.command(name=slash_name("active-days"),
                      description=locale_str("The all-time leaderboards list players with a game in this many days"))
    @app_commands.rename(days=slash_name("days"))
    @app_commands.describe(days=locale_str("0 lists every player; Deckhand's default is 60"))
    @guarded
    async def active_days(self, interaction: discord.Interaction,
                          days: app_commands.Range[int, 0, MOST_ACTIVE_DAYS]) -> None:
        await service_of(interaction).storage.set_guild_settings(require_guild(interaction), active_days=days)
        await interaction.response.send_message(await describe(interaction), ephemeral=True)

    @settings.command(name=slash_name("reset-leaderboard"),
                      description=locale_str("Start every leaderboard on this server afresh"))
    @guarded
    async def reset_leaderboard(self, interaction: discord.Interaction) -> None:
        language = reader_language(interaction)
        guild_id = require_guild(interaction)
        view = static_view([ResetButton(guild_id, "yes", language), ResetButton(guild_id, "no", language)])
        await interaction.response.send_message(
            say("Reset every all-time leaderboard and rating on this server? Finished games stay in `/history`, "
                "and a running season goes on (`/season end` ends it). This can't be undone.").render(language),
            view=view, ephemeral=True)
