"""``/season`` and the posts a season makes in its channel.

``/season start``, ``/season end`` (Manage Server) and ``/season show``; the posts a season
makes in its channel (:class:`SeasonHerald`: its end with the final standings and a picture,
champions named; a reminder the day before).

A season's posts speak the server's language. Its end is posted with a nonce, so a post repeated
after a crash (:mod:`bot.service.seasons`) is Discord's first one again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.budget import Priority, Route
from bot.client import DeckhandBot
from bot.errors import StorageUnavailable, UserError
from bot.markdown import literal
from bot.pictures.season import Block, Place, season_png
from bot.ratings import OVERALL, display_rating
from bot.seasons import NAME_LENGTH, Board, Season, Standing
from games.i18n import plural, say

from .attachments import Picture, pictures_on, send_with_picture
from .common import guarded, in_time, is_admin, require_guild, service_of
from .components import Layout, LayoutMessage, text_display
from .game_log import IN_A_SERVER_ONLY, game_name
from .language import reader_language, server_language
from .limits import CHOICE_NAME, clip
from .parsing import end_time
from .publisher import nonce
from .translator import slash_name
from .ui import EMBED_COLOUR, Rendered

log = logging.getLogger(__name__)

ALL_TIME = "*"
"""The value of the "All time" choice where a season is chosen (no season is named so)."""
TEXT_PLACES = 5
"""Places per game the text of a season's standings lists."""
ONLY_ADMINS = say("Only members with Manage Server can start or end a season.")


# -- words ---------------------------------------------------------------------------------------


def presented(boards: list[Board]) -> list[Board]:
    """The boards a season's messages show: the overall one only beside two games or more (with
    one game it would say the same again)."""
    games_shown = [b for b in boards if b.game_id != OVERALL]
    return games_shown if len(games_shown) == 1 else boards


def board_name(game_id: str, language: str) -> str:
    """A season board's game, or "All games" for the overall one."""
    return game_name(None if game_id == OVERALL else game_id, language)


def standing_line(standing: Standing, language: str) -> str:
    return say("{place}. <@{player}> — **{rating}** · {wins} of {games} won", place=standing.place,
               player=str(standing.user_id), rating=display_rating(standing.rating), wins=standing.wins,
               games=standing.games).render(language)


def standings_text(boards: list[Board], min_games: int, language: str) -> str:
    """Each game's first places, as message text."""
    if not boards:
        return plural("Nobody is ranked yet: a player is ranked after {count} rated game in the season.",
                      "Nobody is ranked yet: a player is ranked after {count} rated games in the season.",
                      min_games).render(language)
    parts = []
    for board in boards:
        lines = [f"**{board_name(board.game_id, language)}**"]
        lines += [standing_line(s, language) for s in board.standings[:TEXT_PLACES]]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def champions_text(boards: list[Board], language: str) -> str:
    return "\n".join(say("🏆 {game}: <@{player}>", game=board_name(b.game_id, language),
                         player=str(b.standings[0].user_id)).render(language) for b in boards)


def span_text(season: Season, language: str) -> str:
    """When the season runs: "from <date> to <date>" (Discord shows each reader's own time)."""
    start, end = str(int(season.started_at)), season.until
    if end is None:
        return say("since <t:{start}:D>, until `/season end`", start=start).render(language)
    if season.running:
        return say("since <t:{start}:D>, ends <t:{end}:f> (<t:{end}:R>)", start=start, end=str(int(end))
                   ).render(language)
    return say("<t:{start}:D> to <t:{end}:D>", start=start, end=str(int(end))).render(language)


def ranking_note(min_games: int, language: str) -> str:
    return plural("A player is ranked after {count} rated game in the season.",
                  "A player is ranked after {count} rated games in the season.", min_games).render(language)


def season_layout(season: Season, boards: list[Board], min_games: int, language: str, *, ended_now: bool) -> Layout:
    """A season's standings: its end as posted (``ended_now``), or as ``/season show`` shows it."""
    name = literal(season.name)
    if ended_now:
        head = [say("### 🏁 The season “{name}” is over", name=name).render(language)]
        if boards:
            head.append(champions_text(boards, language))
    elif season.running:
        head = [say("### 📅 Season “{name}” · standings so far", name=name).render(language)]
    else:
        head = [say("### 📅 Season “{name}” · final standings", name=name).render(language)]
    head.append(span_text(season, language))
    board = standings_text(boards, min_games, language)
    notes = [ranking_note(min_games, language)]
    if not season.running:
        notes.append(say("`/season show` keeps these standings.").render(language))
    return Layout(EMBED_COLOUR.value, [text_display("\n".join(head))], [text_display(board)],
                  [text_display("-# " + " ".join(notes))], alt=board)


def season_picture(season: Season, boards: list[Board], language: str) -> Picture:
    blocks = [Block(board_name(b.game_id, language),
                    [Place(s.place, s.name, str(display_rating(s.rating)), f"{s.wins}/{s.games}")
                     for s in b.standings]) for b in boards]
    detail = (say("standings so far") if season.running else say("final standings")).render(language)
    png = season_png(season.name, detail, blocks)
    return Picture(f"season-{season.id}-{'running' if season.running else 'final'}-{language}.png", png)


# -- the posts -----------------------------------------------------------------------------------


class SeasonHerald:
    """How seasons are told in their channel (the service's :class:`~bot.service.seasons.Herald`)."""

    def __init__(self, bot: DeckhandBot) -> None:
        self.bot = bot

    async def language(self, guild_id: int) -> str:
        settings = await self.bot.storage.guild_settings(guild_id)
        guild = self.bot.get_guild(guild_id)
        return server_language(settings, guild.preferred_locale if guild is not None else None)

    async def season_ended(self, season: Season, boards: list[Board]) -> None:
        boards = presented(boards)
        language = await self.language(season.guild_id)
        settings = await self.bot.storage.guild_settings(season.guild_id)
        layout = season_layout(season, boards, settings.season_min_games, language, ended_now=True)
        champions = discord.AllowedMentions(
            users=[discord.Object(user) for user in dict.fromkeys(b.standings[0].user_id for b in boards)],
            everyone=False, roles=False)
        body = {**Rendered(LayoutMessage(layout), champions).kwargs(), "nonce": nonce("s", season.id, "end")}
        picture = None
        if boards and settings.pictures:
            picture = await asyncio.to_thread(season_picture, season, boards, language)
        try:
            await send_with_picture(self._send(season), body, picture, edit=False, what=f"season {season.id}")
        except (discord.NotFound, discord.Forbidden) as exc:  # for good: trying again would not help
            log.warning("the end of season %s could not be posted in channel %s (%s %s); its standings stay in "
                        "/season show", season.id, season.channel_id, exc.status, exc.text)

    async def season_ends_soon(self, season: Season, boards: list[Board]) -> None:
        boards = presented(boards)
        language = await self.language(season.guild_id)
        settings = await self.bot.storage.guild_settings(season.guild_id)
        assert season.ends_at is not None  # only a season with an end is reminded
        head = say("### ⏳ The season “{name}” ends <t:{end}:R>", name=literal(season.name),
                   end=str(int(season.ends_at))).render(language)
        layout = Layout(EMBED_COLOUR.value, [text_display(head)],
                        [text_display(standings_text(boards, settings.season_min_games, language))],
                        [text_display("-# " + ranking_note(settings.season_min_games, language))])
        await self._send(season)(**Rendered(LayoutMessage(layout)).kwargs(), nonce=nonce("s", season.id, "soon"))

    def _send(self, season: Season) -> Callable[..., Awaitable[discord.Message]]:
        channel = self.bot.get_partial_messageable(season.channel_id, guild_id=season.guild_id)

        async def send(**body: Any) -> discord.Message:
            async with self.bot.pacer.request(Priority.TURN, season.channel_id, Route.CREATE):
                return await channel.send(**body)

        return send


# -- choosing a season ---------------------------------------------------------------------------


async def season_choices(interaction: discord.Interaction, typed: str, *, all_time: bool
                         ) -> list[app_commands.Choice[str]]:
    """The server's seasons whose name holds what was typed (the running one first), after "All
    time" where it is a choice."""
    if interaction.guild_id is None:
        return []
    language = reader_language(interaction)
    try:
        seasons = await service_of(interaction).seasons.all_of(interaction.guild_id)
    except StorageUnavailable:  # logged by the storage; the command itself will say so
        return []
    typed = typed.strip().casefold()
    choices = [app_commands.Choice(name=say("All time").render(language), value=ALL_TIME)] if all_time else []
    choices += [app_commands.Choice(name=clip(s.name, CHOICE_NAME), value=s.name[:100]) for s in seasons
                if typed in s.name.casefold()]
    return choices[:25]


async def chosen_season(interaction: discord.Interaction, name: str) -> Season:
    """The season named ``name`` here; refused when there is none."""
    season = await service_of(interaction).seasons.named(require_guild(interaction, IN_A_SERVER_ONLY), name)
    if season is None:
        raise UserError(say("This server has no season named “{name}”: pick one from the list.",
                            name=clip(name, NAME_LENGTH)))
    return season


async def show_season(interaction: discord.Interaction, season: Season) -> None:
    """``/season show``: the season's standings (so far, or final), privately, with its picture."""
    language = reader_language(interaction)
    service = service_of(interaction)
    settings = await service.storage.guild_settings(season.guild_id)
    boards = presented(await service.seasons.boards(season))
    layout = season_layout(season, boards, settings.season_min_games, language, ended_now=False)
    body = {**Rendered(LayoutMessage(layout)).kwargs(), "ephemeral": True}
    picture = None
    if boards and await pictures_on(service, season.guild_id):
        picture = await asyncio.to_thread(season_picture, season, boards, language)
    await send_with_picture(interaction.response.send_message, body, picture, edit=False, what="season")


def started_layout(season: Season, min_games: int, language: str) -> Layout:
    """What ``/season start`` posts for everyone: the season, when it runs, how it is ranked."""
    head = [say("### 🏁 Season “{name}” starts now!", name=literal(season.name)).render(language),
            span_text(season, language)]
    body = say("Every rated game counts. Season ratings start from each player's rating, less sure, so the first "
               "games move them a lot; all-time ratings don't change.").render(language)
    notes = ranking_note(min_games, language) + " " + say("`/leaderboard` shows the race.").render(language)
    return Layout(EMBED_COLOUR.value, [text_display("\n".join(head))], [text_display(body)],
                  [text_display("-# " + notes)])


class SeasonCog(commands.Cog):
    season = app_commands.Group(name=slash_name("season"),
                                description=locale_str("This server's seasons: a fresh race, champions remembered"),
                                guild_only=True)

    @season.command(name=slash_name("start"), description=locale_str("Start a season here (Manage Server)"))
    @app_commands.rename(name=slash_name("name"), ends=slash_name("ends"))
    @app_commands.describe(name=locale_str("The season's name, e.g. Spring 2025"),
                           ends=locale_str("When it ends, in UTC: 2025-06-30 or 2025-06-30 18:00 "
                                           "(default: at /season end)"))
    @guarded
    async def start(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, NAME_LENGTH],
                    ends: str | None = None) -> None:
        guild_id = require_guild(interaction, IN_A_SERVER_ONLY)
        if not is_admin(interaction):
            raise UserError(ONLY_ADMINS)
        service = service_of(interaction)
        season = await service.seasons.start(guild_id, interaction.channel_id or 0,
                                             name, end_time(ends) if ends is not None else None)
        settings = await service.storage.guild_settings(guild_id)
        language = server_language(settings, interaction.guild_locale)
        layout = started_layout(season, settings.season_min_games, language)
        await interaction.response.send_message(**Rendered(LayoutMessage(layout)).kwargs())

    @season.command(name=slash_name("end"), description=locale_str("End the running season now (Manage Server)"))
    @guarded
    async def end(self, interaction: discord.Interaction) -> None:
        guild_id = require_guild(interaction, IN_A_SERVER_ONLY)
        if not is_admin(interaction):
            raise UserError(ONLY_ADMINS)
        ended = await in_time(interaction, service_of(interaction).seasons.end_now(guild_id))
        done = say("The season “{name}” has ended; its final standings are posted in <#{channel}>.",
                   name=literal(ended.name), channel=str(ended.channel_id)).render(reader_language(interaction))
        if interaction.response.is_done():
            await interaction.followup.send(done, ephemeral=True)
        else:
            await interaction.response.send_message(done, ephemeral=True)

    @season.command(name=slash_name("show"), description=locale_str("A season's standings: the running one, or a "
                                                                   "past one by name"))
    @app_commands.rename(name=slash_name("name"))
    @app_commands.describe(name=locale_str("Which season (default: the running one, else the last)"))
    @guarded
    async def show(self, interaction: discord.Interaction, name: str | None = None) -> None:
        guild_id = require_guild(interaction, IN_A_SERVER_ONLY)
        if name is not None:
            season = await chosen_season(interaction, name)
        else:
            seasons = await service_of(interaction).seasons.all_of(guild_id)
            if not seasons:
                raise UserError(say("This server has had no season yet: someone with Manage Server starts one with "
                                    "`/season start`."))
            season = seasons[0]
        await show_season(interaction, season)

    @show.autocomplete("name")
    async def show_names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await season_choices(interaction, current, all_time=False)

