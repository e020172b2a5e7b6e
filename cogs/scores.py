"""``/leaderboard``, ``/stats``, ``/history`` and ``/privacy forget``.

Every game gets these by registering its engine: nothing here names a game.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from typing import Any, Self

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import games
from bot.errors import UserError
from bot.forgetting import FORGOTTEN_NAME
from bot.markdown import literal
from bot.pictures.stats import Series, stats_png
from bot.ratings import PROVISIONAL_GAMES, display_rating
from bot.records import GuildSettings
from bot.results import SORTS, BoardEntry, GameTally, SeasonTally, Stats
from bot.seasons import Season
from bot.tournaments.placings import Placing, placings_of
from games.i18n import SOURCE, Text, plural, say

from .attachments import Picture, pictures_on, send_with_picture
from .badges import send_badges, shown_badges
from .common import guarded, in_time, public_language, require_guild, service_of, static_view, update_clicked
from .components import Layout, LayoutMessage, action_row, text_display
from .control import Control, ForUser, InServer, Place
from .game_log import (
    IN_A_SERVER_ONLY,
    HistoryButton,
    HistoryQuery,
    game_name,
    page_buttons,
    page_footer,
    results_of,
    show_history,
)
from .language import percent, reader_language
from .layouts import spoken
from .limits import CHOICE_NAME, EMBED_TITLE, clip
from .parsing import control_template, edits_in_place, page_number, require_private_message, stored_id
from .season_commands import ALL_TIME, chosen_season, season_choices
from .site_links import open_in_browser_item, page_url
from .translator import command_text, slash_name
from .ui import EMBED_COLOUR, Rendered, ui_for

PAGE_SIZE = 10
WHICH_GAMES_COUNT = say("Only games where every seat was a person are rated: games with an AI seat, "
                        "or a seat an AI took over, are recorded but not rated.")
SORT_NAMES = {"rating": say("Rating"), "wins": say("Wins"), "win_rate": say("Win rate"), "games": say("Games played"),
              "points": say("Points")}
SORTED_BY = {"rating": say("sorted by rating"), "wins": say("sorted by wins"), "win_rate": say("sorted by win rate"),
             "games": say("sorted by games played"), "points": say("sorted by points")}


def games_count(n: int) -> Text:
    return plural("{count} game", "{count} games", n)


def wins_count(n: int) -> Text:
    return plural("{count} win", "{count} wins", n)


def rated_games_count(n: int) -> Text:
    return plural("{count} rated game", "{count} rated games", n)


def rating_text(rating: float | None, rated_games: int) -> Text:
    """The friendly figure with the rated games it rests on: "**1072** (provisional, 2 rated games)"."""
    if rating is None:
        return say("not rated yet")
    if rated_games < PROVISIONAL_GAMES:
        return say("**{rating}** (provisional, {games})", rating=display_rating(rating),
                   games=rated_games_count(rated_games))
    return say("**{rating}** ({games})", rating=display_rating(rating), games=rated_games_count(rated_games))


def game_choices(with_all: bool) -> list[app_commands.Choice[str]]:
    choices = [app_commands.Choice(name=command_text(g.name, CHOICE_NAME), value=g.id) for g in games.all_games()]
    return ([app_commands.Choice(name=locale_str("All games"), value="all")] if with_all else []) + choices


# -- leaderboard -------------------------------------------------------------------------


def board_page(entries: list[BoardEntry], game_id: str, sort: str, page: int, language: str = SOURCE,
               season: Season | None = None, settings: GuildSettings | None = None) -> tuple[discord.Embed, int]:
    """A page of a leaderboard (all time, or ``season``'s), its footer saying who is listed
    (``settings``: the server's minimum games in a season, and days of activity all time)."""
    settings = settings or GuildSettings()
    pages = max(1, -(-len(entries) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    game = None if game_id == "all" else games.get_game(game_id)
    title = say("Leaderboard — {game}", game=game_name(game_id, language)) if season is None else \
        say("Leaderboard — {game} · season “{season}”", game=game_name(game_id, language), season=literal(season.name))
    embed = discord.Embed(title=clip(title.render(language), EMBED_TITLE), colour=EMBED_COLOUR)
    lines = []
    for rank, entry in enumerate(entries[page * PAGE_SIZE:(page + 1) * PAGE_SIZE], start=page * PAGE_SIZE + 1):
        line = say("**{rank}.** <@{player}> — {rating} · {wins} in {games} ({share})", rank=rank,
                   player=str(entry.user_id), rating=rating_text(entry.rating, entry.rated_games),
                   wins=wins_count(entry.wins), games=games_count(entry.games),
                   share=percent(entry.win_rate, language)).render(language)
        if game is not None and game.points:
            line += " · " + say("{points} {unit}", points=entry.points, unit=game.points).render(language)
        lines.append(line)
    if lines:
        embed.description = "\n".join(lines + ["", f"_{WHICH_GAMES_COUNT.render(language)}_"])
    elif season is not None:
        embed.description = plural("Nobody is ranked in this season yet: a player is ranked after {count} rated "
                                   "game in it.", "Nobody is ranked in this season yet: a player is ranked after "
                                   "{count} rated games in it.", settings.season_min_games).render(language)
    else:
        embed.description = say("No finished games here yet. Start one!").render(language)
    if season is not None:
        who = plural("ranked after {count} rated game in the season", "ranked after {count} rated games in the season",
                     settings.season_min_games)
    elif settings.active_days:
        who = plural("players with a game in the last {count} day", "players with a game in the last {count} days",
                     settings.active_days)
    else:
        who = say("every player")
    embed.set_footer(text=plural("{page} · {sorted} · {who} · a rating is provisional until {count} rated game",
                                 "{page} · {sorted} · {who} · a rating is provisional until {count} rated games",
                                 PROVISIONAL_GAMES, page=page_footer(page, pages, language), sorted=SORTED_BY[sort],
                                 who=who).render(language))
    return embed, page


def season_key(season: Season | None) -> str:
    """How a leaderboard's controls name its season: its id, or ``a`` for all time."""
    return "a" if season is None else str(season.id)


def board_controls(guild_id: int, game_id: str, sort: str, season: Season | None) -> str:
    """How the custom_ids of one leaderboard's ◀ ▶ begin (:class:`BoardPage`)."""
    return f"dh:lb:{guild_id}:{game_id}:{sort}:{season_key(season)}:"


def board_view(guild_id: int, game_id: str, sort: str, season: Season | None, page: int,
               pages: int, site: str | None = None, language: str = SOURCE) -> discord.ui.View:
    """◀ ▶ when there are pages; Open in browser to ``site`` (the leaderboard's page) when the server's site is on."""
    buttons = page_buttons(lambda to, label, off: BoardPage(guild_id, game_id, sort, to, label, off,
                                                            season_key(season)), page, pages)
    return static_view([*buttons, *([open_in_browser_item(site, language)] if site else [])])


async def board_season(interaction: discord.Interaction, guild_id: int, chosen: str | None) -> Season | None:
    """The season a /leaderboard shows: the one named, all time (:data:`ALL_TIME`), or by
    default the running season if there is one."""
    if chosen is None:
        return await service_of(interaction).seasons.current(guild_id)
    if chosen == ALL_TIME:
        return None
    return await chosen_season(interaction, chosen)


async def show_board(interaction: discord.Interaction, game_id: str, sort: str, page: int, *, edit: bool,
                     season: Season | None) -> None:
    """The leaderboard's page, posted for everyone (in the server's language); ◀ ▶ edit the
    message they were clicked on when it shows this leaderboard (:func:`edits_in_place`),
    else answer privately (in the reader's)."""
    guild_id = require_guild(interaction, IN_A_SERVER_ONLY)
    entries = await results_of(interaction).leaderboard(guild_id, None if game_id == "all" else game_id, sort,
                                                        season)
    settings = await service_of(interaction).storage.guild_settings(guild_id)
    in_place = edit and edits_in_place(interaction, board_controls(guild_id, game_id, sort, season))
    private = (edit and not in_place) or (in_place and interaction.message is not None
                                          and interaction.message.flags.ephemeral)
    language = reader_language(interaction) if private else await public_language(interaction)
    embed, page = board_page(entries, game_id, sort, page, language, season, settings)
    pages = max(1, -(-len(entries) // PAGE_SIZE))
    site = await page_url(interaction.client, service_of(interaction), guild_id,
                          "" if game_id == "all" else f"leaderboard/{game_id}")
    view = board_view(guild_id, game_id, sort, season, page, pages, site, language)
    nobody = discord.AllowedMentions.none()
    if in_place:
        await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=nobody)
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=private, allowed_mentions=nobody)


class BoardPage(Control, discord.ui.DynamicItem[discord.ui.Button],
                template=control_template(r"dh:lb:(?P<guild>\d+):(?P<game>[a-z0-9-]+):(?P<sort>[a-z_]+):"
                                          r"(?:(?P<season>a|\d+):)?(?P<page>-?\d+)")):
    """◀ ▶ on a page of one server's leaderboard, all time (``a``, or no season: the controls of
    leaderboards posted before seasons) or of a season (its id)."""

    def __init__(self, guild_id: int, game_id: str, sort: str, page: int, label: str = "…",
                 disabled: bool = False, season: str = "a") -> None:
        super().__init__(discord.ui.Button(
            label=label, disabled=disabled, style=discord.ButtonStyle.secondary,
            custom_id=f"dh:lb:{guild_id}:{game_id}:{sort}:{season}:{page}"))
        self.guild_id, self.game_id, self.sort, self.page, self.season = guild_id, game_id, sort, page, season

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        season = match["season"] or "a"
        if season != "a":
            stored_id(season, "season")
        return cls(stored_id(match["guild"], "server"), match["game"], match["sort"], page_number(match["page"]),
                   season=season)

    def place(self) -> Place:
        return InServer(self.guild_id)

    async def run(self, interaction: discord.Interaction) -> None:
        invalid = UserError(say("That leaderboard control isn't valid any more."))
        if self.sort not in SORTS or (self.game_id != "all" and self.game_id not in games.GAME_IDS):
            raise invalid
        season = None
        if self.season != "a":
            season = await service_of(interaction).seasons.by_id(int(self.season))
            if season is None or season.guild_id != self.guild_id:
                raise invalid
        await show_board(interaction, self.game_id, self.sort, self.page, edit=True, season=season)


# -- forgetting ---------------------------------------------------------------------------

FORGET_QUESTION = say("This replaces your name with “{name}” everywhere Deckhand stored it (game results, event "
                      "lines, move logs), on every server, and deletes your ratings, season standings and badges. "
                      "Games stay in the history without you. It can't be undone.", name=FORGOTTEN_NAME)


class ForgetButton(Control, discord.ui.DynamicItem[discord.ui.Button],
                   template=control_template(r"dh:forget:(?P<user>\d+):(?P<answer>yes|no)")):
    """The answer to ``/privacy forget``'s question, for the person who asked."""

    LABELS = {"yes": (say("Yes, forget me"), discord.ButtonStyle.danger),
              "no": (say("Keep my data"), discord.ButtonStyle.secondary)}

    def __init__(self, user_id: int, answer: str, language: str = SOURCE) -> None:
        label, style = self.LABELS[answer]
        super().__init__(discord.ui.Button(label=label.render(language), style=style,
                                           custom_id=f"dh:forget:{user_id}:{answer}"))
        self.user_id, self.answer = user_id, answer

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(stored_id(match["user"], "person"), match["answer"])

    def place(self) -> Place:
        return ForUser(self.user_id)

    async def run(self, interaction: discord.Interaction) -> None:
        require_private_message(interaction)
        language = reader_language(interaction)
        if self.answer == "no":
            await interaction.response.edit_message(content=say("Nothing was changed.").render(language), view=None)
            return
        results = results_of(interaction)
        if await results.open_seats_of(self.user_id):
            raise UserError(say("You're seated at an open table: leave it (`/table leave`) first, then ask again."))
        if await results.open_entries_of(self.user_id):
            raise UserError(say("You're entered in a tournament that isn't over: leave it before it starts, or ask "
                                "again once it has ended."))
        user = interaction.user
        names = {name for name in (user.display_name, user.global_name, user.name) if name}  # global_name may be unset
        # Forgetting rebuilds the database file, which can take a while on a big one.
        count = await in_time(interaction, results.forget(self.user_id, names=names))
        done = plural("Done. Your {count} game result now shows “{name}”, and your ratings, season standings and "
                      "badges are deleted.",
                      "Done. Your {count} game results now show “{name}”, and your ratings, season standings and "
                      "badges are deleted.",
                      count, name=FORGOTTEN_NAME).render(language)
        await update_clicked(interaction, content=done, view=None)


# -- stats ----------------------------------------------------------------------------------


async def show_stats(interaction: discord.Interaction, who: discord.User | discord.Member, game_id: str | None,
                     public: bool) -> None:
    """``/stats``: the summary, the chart (or its text with pictures off), a link to the games;
    in the reader's language, or the server's when posted for everyone."""
    guild_id = require_guild(interaction, IN_A_SERVER_ONLY)
    language = await public_language(interaction) if public else reader_language(interaction)
    results = results_of(interaction)
    stats = await results.stats(guild_id, who.id, game_id)
    placed = [p for p in await placings_of(results.storage, guild_id, who.id) if game_id in (None, p.game_id)]
    query = HistoryQuery(who.id, None, game_id)
    controls = [action_row([HistoryButton.component("recent", guild_id, query, language)])] if stats.games else []
    layout = stats_layout(who.display_name, game_id, stats, controls, language, placed)
    body = {**Rendered(LayoutMessage(layout)).kwargs(), "ephemeral": not public}
    pictures = await pictures_on(service_of(interaction), guild_id)
    picture = None
    if stats.games and pictures:
        picture = await asyncio.to_thread(stats_picture, who.display_name, game_id, stats, language)
    await send_with_picture(interaction.response.send_message, body, picture, edit=False, what="stats")
    badges, hidden = shown_badges(await results.unlocks.badges(guild_id, who.id),
                                  with_secrets=who.id == interaction.user.id and not public)
    if badges or hidden:
        await send_badges(interaction, who.display_name, badges, hidden, language, public=public, pictures=pictures)


def stats_layout(name: str, game_id: str | None, stats: Stats, controls: list[dict], language: str = SOURCE,
                 placed: Sequence[Placing] = ()) -> Layout:
    """The summary in a few lines; per game, the text the chart shows and the tournaments
    ``placed`` in; which games are rated."""
    head = [f"### {literal(name)} · {game_name(game_id, language)}"]
    if not stats.games:  # a player whose every game the AI finished still placed in their tournaments
        head.append(say("No finished games yet. Start one with a game's `start` command!").render(language))
        head += [tournaments_line(placed).render(language)] if placed else []
        return Layout(EMBED_COLOUR.value, [text_display("\n".join(head))], [], [])
    head.append(rating_line(stats.rating, stats.rated_games).render(language))
    head.append(say("{games} · {wins} ({share})", games=games_count(stats.games), wins=wins_count(stats.wins),
                    share=percent(stats.wins / stats.games, language)).render(language))
    if stats.season is not None:
        head.append(season_line(stats.season).render(language))
    if game_id is None and stats.favourite:
        head.append(say("Most played: {game}", game=game_name(stats.favourite)).render(language))
    if placed:
        head.append(tournaments_line(placed).render(language))
    per_game = "\n".join(game_line(t, [p for p in placed if p.game_id == t.game_id], language)
                         for t in stats.per_game)
    colour = ui_for(game_id).colour if game_id else EMBED_COLOUR.value
    return Layout(colour, [text_display("\n".join(head))], [text_display(per_game)],
                  [text_display(f"-# {WHICH_GAMES_COUNT.render(language)}"), *controls], alt=spoken(per_game))


def game_line(tally: GameTally, placed: Sequence[Placing], language: str) -> str:
    """One game's line: its rating, games won, and the tournaments of it ``placed`` in."""
    line = say("**{game}**: {rating} · {wins} of {games} won ({share})", game=game_name(tally.game_id),
               rating=rating_line(tally.rating, tally.rated_games), wins=tally.wins, games=tally.games,
               share=percent(tally.wins / tally.games, language)).render(language)
    return f"{line} · {tournaments_line(placed).render(language)}" if placed else line


def tournaments_line(placed: Sequence[Placing]) -> Text:
    """The tournaments a player finished and their best place: "🏆 3 tournaments · best place: 1 of 9"
    (the best place, then the biggest field)."""
    best = min(placed, key=lambda p: (p.place, -p.entrants))
    return plural("🏆 {count} tournament · best place: {place} of {entrants}",
                  "🏆 {count} tournaments · best place: {place} of {entrants}", len(placed),
                  place=best.place, entrants=best.entrants)


def season_line(season: SeasonTally) -> Text:
    """The running season beside all time: "Season “Spring”: **1130** (provisional, 2 rated games) ·
    3 games · 2 wins", or how many rated games until ranked."""
    figures = say("{games} · {wins}", games=games_count(season.games), wins=wins_count(season.wins))
    if season.rated_games < season.min_games:
        left = plural("{count} more rated game", "{count} more rated games", season.min_games - season.rated_games)
        return say("Season “{season}”: {figures} · ranked after {left}", season=literal(season.name),
                   figures=figures, left=left)
    return say("Season “{season}”: {rating} · {figures}", season=literal(season.name),
               rating=rating_text(season.rating, season.rated_games), figures=figures)


def rating_line(rating: float | None, rated_games: int) -> Text:
    """The rating as /stats heads it: "Rating **1072** (provisional, 2 rated games)"."""
    if rating is None:
        return say("Not rated yet")
    return say("Rating {rating}", rating=rating_text(rating, rated_games))


def stats_picture(name: str, game_id: str | None, stats: Stats, language: str = SOURCE) -> Picture:
    """The chart: each game's rating after each of its rated games, and its games won."""
    order = {point: when for when, point in enumerate(stats.history)}
    series = [Series(game_name(t.game_id), rgb(ui_for(t.game_id).colour),
                     [(order[p], display_rating(p.rating)) for p in stats.history if p.game_id == t.game_id],
                     t.wins, t.games)
              for t in stats.per_game]
    png = stats_png(game_name(game_id, language), series, len(stats.history), language)
    return Picture(f"stats-{abs(hash((name, game_id, len(stats.history), language)))}.png", png)


def rgb(colour: int) -> tuple[int, int, int]:
    return (colour >> 16) & 0xFF, (colour >> 8) & 0xFF, colour & 0xFF


class ScoresCog(commands.Cog):
    privacy = app_commands.Group(name=slash_name("privacy"), description=locale_str("Your data in Deckhand"))

    @app_commands.command(name=slash_name("leaderboard"), description=locale_str("The best players on this server"))
    @app_commands.rename(game=slash_name("game"), sort=slash_name("sort"), season=slash_name("season"))
    @app_commands.describe(game=locale_str("Which game (or all games)"),
                           sort=locale_str("How to order players (default: rating)"),
                           season=locale_str("A season, or all time (default: the running season, if any)"))
    @app_commands.choices(game=game_choices(with_all=True),
                          sort=[app_commands.Choice(name=command_text(n, CHOICE_NAME), value=v)
                                for v, n in SORT_NAMES.items()])
    @app_commands.guild_only()
    @guarded
    async def leaderboard(self, interaction: discord.Interaction, game: str = "all", sort: str = "rating",
                          season: str | None = None) -> None:
        shown = await board_season(interaction, require_guild(interaction, IN_A_SERVER_ONLY), season)
        await show_board(interaction, game, sort, 0, edit=False, season=shown)

    @leaderboard.autocomplete("season")
    async def leaderboard_seasons(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        return await season_choices(interaction, current, all_time=True)

    @app_commands.command(name=slash_name("stats"),
                          description=locale_str("Games, wins and rating of a player, with a chart"))
    @app_commands.rename(user=slash_name("user"), game=slash_name("game"), public=slash_name("public"))
    @app_commands.describe(user=locale_str("Whose stats (default: yours)"),
                           game=locale_str("One game, or all games (default)"),
                           public=locale_str("Post in the channel instead of only to you"))
    @app_commands.choices(game=game_choices(with_all=True))
    @app_commands.guild_only()
    @guarded
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None,
                    game: str = "all", public: bool = False) -> None:
        await show_stats(interaction, user or interaction.user, None if game == "all" else game, public)

    @app_commands.command(name=slash_name("history"),
                          description=locale_str("Recently finished games, with every move on request"))
    @app_commands.rename(user=slash_name("user"), channel=slash_name("channel"), game=slash_name("game"))
    @app_commands.describe(user=locale_str("Only games this person played"),
                           channel=locale_str("Only games in this channel"), game=locale_str("Only this game"))
    @app_commands.choices(game=game_choices(with_all=True))
    @app_commands.guild_only()
    @guarded
    async def history(self, interaction: discord.Interaction, user: discord.User | None = None,
                      channel: discord.TextChannel | discord.Thread | None = None, game: str = "all") -> None:
        query = HistoryQuery(user.id if user else None, channel.id if channel else None,
                             None if game == "all" else game)
        await show_history(interaction, query, edit=False)

    @privacy.command(name=slash_name("forget"),
                     description=locale_str("Remove your name and ratings from Deckhand's records"))
    @guarded
    async def forget(self, interaction: discord.Interaction) -> None:
        language = reader_language(interaction)
        view = static_view([ForgetButton(interaction.user.id, answer, language) for answer in ("yes", "no")])
        await interaction.response.send_message(FORGET_QUESTION.render(language), view=view, ephemeral=True)
