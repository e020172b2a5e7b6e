"""Achievements in Discord: told when unlocked, and shown under ``/stats``.

Achievements in Discord: what a game unlocked, told in its ending message; secret unlocks,
told privately at the player's next interaction; a player's badges under ``/stats``, with a
picture and how rare each is among the server's players.

Discord lets a bot speak privately only in answer to an interaction (an ephemeral message), so
a secret unlock waits for the player's next click or command, anywhere in the server, and is
told as a private follow-up to it (:func:`tell_secrets`, called by :func:`cogs.common.guarded`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import discord

import games
from bot.achievements import Achievement, Unlock, catalog
from bot.markdown import literal
from bot.pictures.badges import MOST_TILES, BadgeLine, badges_png
from bot.service import TableSnapshot
from bot.unlocks import Badge
from games.i18n import SOURCE, Text, plural, say
from games.phrases import listed

from .attachments import Picture, send_with_picture
from .components import Layout, LayoutMessage, text_display
from .language import percent
from .ui import EMBED_COLOUR

log = logging.getLogger(__name__)

SHARE_NOTE = say("The share is of this server's players who hold the badge.")


def badge_name(achievement: Achievement, tier: int, with_game: bool = True) -> Text:
    """A badge as players read it; a feat with its game's name (``with_game``)."""
    title = achievement.title(tier)
    if achievement.feat is not None and achievement.game_id and with_game:
        return say("{badge} ({game})", badge=title, game=games.get_game(achievement.game_id).name)
    return title


def unlock_lines(table: TableSnapshot, language: str = SOURCE) -> str:
    """The ending message's line per player who unlocked something in this game: "🏅 **ana**
    unlocked 10 games of War, Iron wall" ('' when nobody did)."""
    known = catalog()
    by_user: dict[int, list[Text]] = {}
    for unlock in table.unlocks:
        if unlock.achievement in known and not known[unlock.achievement].secret:
            by_user.setdefault(unlock.user_id, []).append(
                badge_name(known[unlock.achievement], unlock.tier, with_game=False))
    lines = []
    for seat, name in zip(table.row.seats, table.names):
        if seat.user_id in by_user:
            lines.append(say("🏅 **{player}** unlocked {badges}", player=name,
                             badges=listed(by_user.pop(seat.user_id))).render(language))
    return "\n".join(lines)


def secret_note(unlocks: Sequence[Unlock], language: str) -> str:
    """What a player alone is told of their secret unlocks."""
    known = catalog()
    return "\n".join(say("🤫 Secret badge unlocked: **{badge}** — {how}",
                         badge=badge_name(known[u.achievement], u.tier), how=known[u.achievement].description(u.tier)
                         ).render(language) for u in unlocks if u.achievement in known)


async def tell_secrets(interaction: discord.Interaction, unlocks: Sequence[Unlock], language: str) -> bool:
    """Tell ``unlocks`` to the person in a private follow-up of ``interaction`` (answered
    already); False when Discord did not take it (they are told at a later interaction)."""
    note = secret_note(unlocks, language)
    if not note:
        return True
    try:
        await interaction.followup.send(note, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        log.warning("could not tell user %s their secret badges (%s %s)", interaction.user.id, exc.status, exc.text)
        return False
    return True


# -- under /stats -------------------------------------------------------------------------------


def shown_badges(badges: Sequence[Badge], with_secrets: bool) -> tuple[list[Badge], int]:
    """The badges shown, and how many secret ones are left out (``with_secrets``: the player's
    own, privately)."""
    known = catalog()
    shown = [b for b in badges if with_secrets or not known[b.unlock.achievement].secret]
    return shown, len(badges) - len(shown)


def badge_text(badge: Badge, language: str) -> str:
    achievement = catalog()[badge.unlock.achievement]
    return say("{medal} {badge} — {share} of players", medal=medal(achievement, badge.unlock.tier),
               badge=badge_name(achievement, badge.unlock.tier), share=percent(badge.share, language)
               ).render(language)


def medal(achievement: Achievement, tier: int) -> str:
    if achievement.secret:
        return "🤫"
    return ("🥉", "🥈", "🥇")[tier_index(achievement, tier)]


def tier_index(achievement: Achievement, tier: int) -> int:
    """0 (bronze), 1 (silver) or 2 (gold): a tier's rank among the achievement's last three
    tiers (a one-tier achievement is gold)."""
    return 2 - (len(achievement.tiers) - 1 - achievement.tiers.index(tier))


def badges_layout(name: str, badges: Sequence[Badge], hidden: int, language: str) -> Layout:
    """The message under /stats: a heading, the badges as text (in the picture's place), notes."""
    lines = [badge_text(badge, language) for badge in badges]
    notes = [SHARE_NOTE.render(language)]
    if hidden:
        notes.append(plural("{count} secret badge is shown only to its holder.",
                            "{count} secret badges are shown only to their holder.", hidden).render(language))
    head = say("### 🏅 Badges · {player}", player=literal(name)).render(language)
    board = "\n".join(lines) if lines else say("No badge yet.").render(language)
    return Layout(EMBED_COLOUR.value, [text_display(head)], [text_display(board)],
                  [text_display("-# " + " ".join(notes))], alt=board)


def badges_picture(name: str, badges: Sequence[Badge], language: str) -> Picture:
    known = catalog()
    lines = [BadgeLine(badge_name(known[b.unlock.achievement], b.unlock.tier).render(language),
                       percent(b.share, language), tier_index(known[b.unlock.achievement], b.unlock.tier),
                       known[b.unlock.achievement].secret) for b in badges]
    more = ""
    if len(lines) > MOST_TILES:
        more = plural("+{count} more", "+{count} more", len(lines) - (MOST_TILES - 1)).render(language)
    title = say("Badges · {player}", player=name).render(language)
    detail = say("share of players").render(language)
    png = badges_png(title, detail, lines, more)
    return Picture(f"badges-{abs(hash((name, len(badges), language)))}.png", png)


async def send_badges(interaction: discord.Interaction, name: str, badges: Sequence[Badge], hidden: int,
                      language: str, *, public: bool, pictures: bool) -> None:
    """The badges message, as a follow-up of /stats' answer."""
    body = {"view": LayoutMessage(badges_layout(name, badges, hidden, language)),
            "allowed_mentions": discord.AllowedMentions.none(), "ephemeral": not public}
    picture = await asyncio.to_thread(badges_picture, name, badges, language) if pictures and badges else None
    await send_with_picture(interaction.followup.send, body, picture, edit=False, what="badges")
