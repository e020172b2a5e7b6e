"""``/tournament``: create, show and list.

``/tournament``: ``create <game>`` (one subcommand per game, generated from its options like
``/<game> start``, then the tournament's: format, top cut, table size…), ``show`` and ``list``.

Hosting a tournament needs Manage Server: it opens a thread and a table per pair of players in
its channel, round after round. ``starts`` is read by :func:`~.starts.start_time` (UTC, echoed
back as a Discord timestamp each reader sees in their own zone).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.errors import UserError
from bot.service import MAX_TIMER_MINUTES
from bot.tournaments import TournamentRow
from bot.tournaments.formats import FORMATS, MAX_ROUNDS, SEEDINGS, TOPS
from bot.tournaments.service import MAX_ENTRANTS, MAX_MINUTES, NAME_LENGTH
from games.base import Game
from games.i18n import SlashCommand, Text, plural, say

from ..attachments import send_with_picture
from ..common import THREADS, guarded, is_admin, player_of, require_guild
from ..language import reader_language
from ..limits import CHOICE_NAME, COMMAND_DESCRIPTION, clip
from ..parsing import stored_id
from ..site_links import page_url
from ..start_commands import engine_value, with_game_options
from ..translator import command_text, slash_name
from ..ui import message_link, ui_for
from .controls import tournaments_of
from .message import STATUS_WORDS, title, tournament_message, tournament_path
from .pictures import tournament_picture
from .starts import start_time

HOSTS_ONLY = say("Only people with Manage Server can run a tournament here.")
TOURNAMENT_OPTIONS: list[tuple[locale_str, Any, locale_str]] = [
    (slash_name("format"), str, locale_str("Swiss rounds, or a knockout (default: Swiss)")),
    (slash_name("swiss_rounds"), app_commands.Range[int, 1, MAX_ROUNDS],
     locale_str("Swiss rounds (default: enough to find a winner, about log2 of the players)")),
    (slash_name("top"), int, locale_str("After the Swiss rounds, a knockout of the best 4 or 8")),
    (slash_name("table_size"), int, locale_str("Seats at each table (default: as the game is usually played)")),
    (slash_name("advance"), app_commands.Range[int, 1, 9],
     locale_str("A knockout at tables of 3 or more: how many go through from each (default: half)")),
    (slash_name("seeding"), str, locale_str("How a knockout is seeded: by rating (default) or at random")),
    (slash_name("starts"), app_commands.Range[str, 1, 40],
     locale_str("When it starts, in UTC: 20:30, 2026-12-24 20:30, in 2h, +90m (default: when you start it)")),
    (slash_name("check_in"), app_commands.Range[int, 0, MAX_MINUTES],
     locale_str("Minutes before the start when check-in opens; 0 for none (default 15)")),
    (slash_name("max_players"), app_commands.Range[int, 2, MAX_ENTRANTS], locale_str("The most players who may enter")),
    (slash_name("timer"), app_commands.Range[int, 1, MAX_TIMER_MINUTES],
     locale_str("Minutes per turn before the AI plays for a player (default: the server's, or 10)")),
    (slash_name("hints"), bool,
     locale_str("Offer the Hint button at its tables; hinted games are unrated (default: off)")),
    (slash_name("round_minutes"), app_commands.Range[int, 1, MAX_MINUTES],
     locale_str("Minutes a round may last; then the AI plays the games still on to their end")),
    (slash_name("name"), app_commands.Range[str, 1, NAME_LENGTH], locale_str("The tournament's name")),
]
"""``create``'s options after the game's own: ``(name, type, description)``. Swiss rounds are
``swiss_rounds``: a game's own options may say ``rounds`` (Queen of Spades' rounds of a game)."""
FORMAT_NAMES = {"swiss": say("Swiss"), "knockout": say("Knockout")}
SEEDING_NAMES = {"rating": say("By rating"), "random": say("At random")}


def tournament_choices_of(game: Game) -> dict[str, list[app_commands.Choice]]:
    """The choices of ``create``'s options that have them; a table's size among the game's counts."""
    def choice(name: Text, value: Any) -> app_commands.Choice:
        return app_commands.Choice(name=command_text(name, CHOICE_NAME), value=value)

    def size(count: int) -> Text:
        if len(game.teams(count)[0]) == 2:
            return say("{count} seats: teams of two", count=count)
        return plural("{count} seat", "{count} seats", count)

    return {"format": [choice(FORMAT_NAMES[f], f) for f in FORMATS],
            "top": [choice(say("The best {count}", count=top), top) for top in TOPS],
            "table_size": [choice(size(count), count) for count in game.allowed_player_counts()],
            "seeding": [choice(SEEDING_NAMES[s], s) for s in SEEDINGS]}


def create_command(game: Game) -> app_commands.Command:
    specs = {spec.name: spec for spec in game.options}

    @guarded
    async def create(interaction: discord.Interaction, **given: Any) -> None:
        guild_id = require_guild(interaction)
        if not is_admin(interaction):
            raise UserError(HOSTS_ONLY)
        if not isinstance(interaction.channel, discord.TextChannel) or interaction.channel.type in THREADS:
            raise UserError(say("Run a tournament in a text channel: its tables open in threads of it."))
        extra = {name.message: given.pop(name.message, None) for name, _, _ in TOURNAMENT_OPTIONS}
        options = {name: engine_value(specs[name], value) for name, value in given.items() if value is not None}
        if extra["hints"] is not None:
            options["hints"] = extra["hints"]
        tournaments = tournaments_of(interaction)
        starts_at = start_time(extra["starts"], tournaments.games.clock()) if extra["starts"] else None
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await tournaments.create(
            guild_id=guild_id, channel_id=interaction.channel.id, host=player_of(interaction), game_id=game.id,
            options=options, name=extra["name"], rounds=extra["swiss_rounds"], starts_at=starts_at,
            check_in_minutes=extra["check_in"], max_players=extra["max_players"], timer_minutes=extra["timer"],
            round_minutes=extra["round_minutes"], format=extra["format"], top=extra["top"],
            table_size=extra["table_size"], advance=extra["advance"], seeding=extra["seeding"])
        row = view.row
        when = say("It starts <t:{when}:F> (<t:{when}:R>).", when=str(int(row.starts_at))) if row.starts_at else \
            say("Start it from its **Host** button when everyone is in.")
        opened = say("Your tournament is open in this channel: people join from its message. {when}", when=when)
        await interaction.followup.send(opened.render(reader_language(interaction)), ephemeral=True)

    with_game_options(create, game, TOURNAMENT_OPTIONS)
    app_commands.choices(**tournament_choices_of(game))(create)
    return app_commands.Command(name=slash_name(game.command), description=command_text(
        game.summary or game.name, COMMAND_DESCRIPTION), callback=create)


@app_commands.rename(tournament=slash_name("tournament"))
@app_commands.describe(tournament=locale_str("Which one (default: this channel's)"))
@guarded
async def show(interaction: discord.Interaction, tournament: str | None = None) -> None:
    """The tournament (this channel's open one by default), privately, with a link to its message."""
    guild_id = require_guild(interaction)
    tournaments = tournaments_of(interaction)
    if tournament is None:
        found = await tournaments.of_guild(guild_id)
        here = [t for t in found if t.channel_id == interaction.channel_id and t.is_open] or found
        if not here:
            raise UserError(say("This server has no tournament yet."))
        tournament_id = here[0].id
    else:
        tournament_id = stored_id(tournament, "tournament")
    view = await tournaments.view(tournament_id, guild_id)
    language = reader_language(interaction)
    site = await page_url(interaction.client, tournaments.games, guild_id, tournament_path(tournament_id))
    body = tournament_message(view, tournaments.games.clock(), language, with_controls=False, site=site).kwargs()
    pictures = (await tournaments.storage.guild_settings(guild_id)).pictures
    picture = await tournament_picture(view, language) if pictures else None
    await send_with_picture(interaction.response.send_message, {**body, "ephemeral": True}, picture, edit=False,
                            what=f"tournament {tournament_id}")


async def tournament_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    language = reader_language(interaction)
    found = await tournaments_of(interaction).of_guild(interaction.guild_id)
    typed = current.strip().lower()
    return [app_commands.Choice(name=clip(label, CHOICE_NAME), value=str(t.id))
            for t in found if typed in (label := listed(t, language)).lower()]


def listed(row: TournamentRow, language: str) -> str:
    """One tournament in a list: number, name, game, where it stands."""
    status = STATUS_WORDS[row.status].render(language)
    if row.status == "running" and row.stage == "knockout":
        status = say("knockout, round {round}", round=row.round).render(language)
    elif row.status == "running":
        status = say("round {round} of {rounds}", round=row.round, rounds=row.rounds or row.round).render(language)
    return f"#{row.id} · {title(row, language)} · {ui_for(row.game_id, language).title} · {status}"


@guarded
async def list_tournaments(interaction: discord.Interaction) -> None:
    """The server's tournaments, open ones first, each with a link to its message."""
    guild_id = require_guild(interaction)
    language = reader_language(interaction)
    found = await tournaments_of(interaction).of_guild(guild_id)
    if not found:
        raise UserError(say("This server has no tournament yet. Someone with Manage Server runs one with "
                            "`{command}`.", command=SlashCommand("/tournament create")))
    lines = [f"{listed(t, language)} — {message_link(t.guild_id, t.channel_id, t.message_id)}" for t in found]
    await interaction.response.send_message("\n".join(lines), ephemeral=True)


def tournament_group(games_list: list[Game]) -> app_commands.Group:
    """``/tournament`` with ``create <game>`` for each of ``games_list``, ``show`` and ``list``."""
    group = app_commands.Group(name=slash_name("tournament"), guild_only=True, description=locale_str(
        "Tournaments: Swiss rounds or a knockout at many tables, played here"))
    create = app_commands.Group(name=slash_name("create"), parent=group, description=locale_str(
        "Run a tournament in this channel (Manage Server)"))
    for game in games_list:
        create.add_command(create_command(game))
    show_command: app_commands.Command = app_commands.Command(
        name=slash_name("show"), callback=show,
        description=locale_str("A tournament of this server, its round and standings (only you see it)"))
    show_command.autocomplete("tournament")(tournament_choices)
    group.add_command(show_command)
    group.add_command(app_commands.Command(name=slash_name("list"), callback=list_tournaments, description=locale_str(
        "This server's tournaments, the open ones first")))
    return group

