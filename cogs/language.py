"""Which language a message is written in.

What only one person sees (their hand, a refusal, a hint, a form, ``/rules``, ``/stats``,
``/history`` for the one who asked) is written in the reader's language, from their Discord
client (``interaction.locale``). What everyone in a channel sees (lobby, table message, pings,
endings, pictures) is written in the server's language: the one chosen with
``/settings language``, else the server's Discord locale (``guild_locale``). A locale with no
catalog reads English.
"""

from __future__ import annotations

import discord
from babel.numbers import format_percent

from bot.records import GuildSettings, TableRow
from bot.service import GameService
from games.i18n import language_of


def reader_language(interaction: discord.Interaction) -> str:
    """The language of the person who clicked or typed."""
    return language_of(str(interaction.locale))


def server_language(settings: GuildSettings, guild_locale: discord.Locale | str | None) -> str:
    """The language of a server's public messages: its setting, else its Discord locale."""
    return settings.language or language_of(str(guild_locale) if guild_locale else None)


def percent(share: float, language: str) -> str:
    """``share`` (0 to 1) as a whole percentage in ``language``: "67%" ("67 %" in French)."""
    return format_percent(share, locale=language)


async def table_language(bot: discord.Client, service: GameService, row: TableRow) -> str:
    """The language of a table's public messages (its message, pings): its server's."""
    guild = bot.get_guild(row.guild_id)
    settings = await service.storage.guild_settings(row.guild_id)
    return server_language(settings, guild.preferred_locale if guild is not None else None)
