"""The tournament message's buttons and the host's private controls.

The tournament message's buttons (``dh:tn:<tournament>:<verb>``: Join, Leave, Check in, Host),
the partner menu Join answers with in a tournament of teams (``dh:tnpartner:``), and the host's
private controls (``dh:tnh:<tournament>:<verb>`` buttons; ``dh:tnadd:`` and ``dh:tnrm:`` menus
of people). Each is valid only in the tournament's server and channel
(:class:`~cogs.control.AtTournament`), and the service checks again who may do what.

The service refreshes the tournament message after every change, so a button only asks it and
answers the clicker privately with what happened. A change waits for the tournament's lock (held
while a round's threads are made, which Discord paces): the click is deferred if it would miss
Discord's 3 s (:func:`~cogs.common.in_time`), and answered when the change is done.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Self

import discord

from bot.errors import UserError
from bot.markdown import literal
from bot.service import Player
from bot.tournaments import TournamentRow, Tournaments
from games.i18n import Text, say

from ..common import bot_of, in_time, is_admin, player_of, reply_ephemeral, static_view, update_clicked
from ..control import AtTournament, Control, Place
from ..language import reader_language
from ..parsing import control_template, require_private_message, stored_id

VERBS: dict[str, tuple[Text, discord.ButtonStyle]] = {
    "join": (say("Join"), discord.ButtonStyle.success),
    "leave": (say("Leave"), discord.ButtonStyle.secondary),
    "checkin": (say("Check in"), discord.ButtonStyle.primary),
    "host": (say("Host"), discord.ButtonStyle.secondary),
}
"""The tournament message's buttons."""
HOST_VERBS: dict[str, tuple[Text, discord.ButtonStyle]] = {
    "start": (say("Start now"), discord.ButtonStyle.primary),
    "pause": (say("Pause"), discord.ButtonStyle.secondary),
    "resume": (say("Resume"), discord.ButtonStyle.success),
    "repair": (say("Pair the round again"), discord.ButtonStyle.secondary),
    "cancel": (say("Cancel the tournament"), discord.ButtonStyle.danger),
}
"""The host's private buttons."""
NOT_IN_DMS = say("Tournaments live in server channels, not in direct messages.")


def tournaments_of(interaction: discord.Interaction) -> Tournaments:
    return bot_of(interaction).tournaments


class TournamentControl(Control):
    """A control naming a tournament: valid only in its server and the channel of its message."""

    tournament_id: int

    def place(self) -> Place:
        return AtTournament(self.tournament_id)


class TournamentButton(TournamentControl, discord.ui.DynamicItem[discord.ui.Button],
                       template=control_template(rf"dh:tn:(?P<tournament>\d+):(?P<verb>{'|'.join(VERBS)})")):
    def __init__(self, tournament_id: int, verb: str) -> None:
        label, style = VERBS[verb]
        super().__init__(discord.ui.Button(label=str(label), style=style, custom_id=f"dh:tn:{tournament_id}:{verb}"))
        self.tournament_id, self.verb = tournament_id, verb

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(stored_id(match["tournament"], "tournament"), match["verb"])

    async def run(self, interaction: discord.Interaction) -> None:
        tournaments, player = tournaments_of(interaction), player_of(interaction)
        language = reader_language(interaction)
        if self.verb == "host":
            row = await tournaments.hosted(self.tournament_id, player, is_admin=is_admin(interaction))
            text, panel = host_panel(row, language)
            await interaction.response.send_message(text, view=panel, ephemeral=True)
            return
        if self.verb == "join":
            row = await tournaments.joinable(self.tournament_id, player)
            if row.in_teams:
                ask = say("This tournament is played in teams of two: choose your partner to enter together.")
                await interaction.response.send_message(ask.render(language), ephemeral=True, view=static_view(
                    [PartnerSelect.make(row.id, language)]))
                return
            view = await in_time(interaction, tournaments.join(self.tournament_id, player))
            done = say("You're in the tournament.")
            if view.row.check_in_opens is not None and not view.row.checking_in(tournaments.games.clock()):
                done = say("You're in the tournament. Check in from <t:{when}:R>, or you won't be paired.",
                           when=str(int(view.row.check_in_opens)))
        elif self.verb == "leave":
            view = await in_time(interaction, tournaments.leave(self.tournament_id, player))
            done = say("You left the tournament; an AI finishes your game.") if view.row.status == "running" \
                else say("You left the tournament.")
        else:  # "checkin": the template admits only VERBS
            await in_time(interaction, tournaments.check_in(self.tournament_id, player))
            done = say("You're checked in. Your first table opens at the start, in a thread of this channel.")
        await reply_ephemeral(interaction, done.render(language))


class HostButton(TournamentControl, discord.ui.DynamicItem[discord.ui.Button],
                 template=control_template(rf"dh:tnh:(?P<tournament>\d+):(?P<verb>{'|'.join(HOST_VERBS)})")):
    """One of the host's private buttons; it answers by redrawing the host's panel."""

    def __init__(self, tournament_id: int, verb: str, language: str = "en") -> None:
        label, style = HOST_VERBS[verb]
        super().__init__(discord.ui.Button(label=label.render(language), style=style,
                                           custom_id=f"dh:tnh:{tournament_id}:{verb}"))
        self.tournament_id, self.verb = tournament_id, verb

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(stored_id(match["tournament"], "tournament"), match["verb"])

    async def run(self, interaction: discord.Interaction) -> None:
        require_private_message(interaction)
        tournaments, by, admin = tournaments_of(interaction), player_of(interaction), is_admin(interaction)
        if self.verb == "start":
            view = await in_time(interaction, tournaments.start_now(self.tournament_id, by, is_admin=admin))
            done = say("The tournament has started: round 1's tables are opening.")
        elif self.verb in ("pause", "resume"):
            view = await in_time(interaction, tournaments.set_paused(self.tournament_id, by, self.verb == "pause",
                                                                     is_admin=admin))
            done = say("Paused: no new round starts until you resume.") if self.verb == "pause" else say("Resumed.")
        elif self.verb == "repair":
            view = await in_time(interaction, tournaments.repair(self.tournament_id, by, is_admin=admin))
            done = say("Round {round} was paired again.", round=view.row.round)
        else:  # "cancel"
            view = await in_time(interaction, tournaments.cancel(self.tournament_id, by, is_admin=admin))
            done = say("The tournament was cancelled.")
        await answer_on_panel(interaction, view.row, done)


class PlayerSelect(TournamentControl, discord.ui.DynamicItem[discord.ui.UserSelect],
                   template=control_template(r"dh:tn(?P<verb>add|rm):(?P<tournament>\d+)")):
    """The host's menus of people: add someone (a team's two, in a tournament of teams; a late
    joiner once it runs) or take someone out (with their team)."""

    def __init__(self, tournament_id: int, verb: str, select: discord.ui.UserSelect | None = None) -> None:
        super().__init__(select or discord.ui.UserSelect(custom_id=f"dh:tn{verb}:{tournament_id}"))
        self.tournament_id, self.verb = tournament_id, verb

    @classmethod
    def make(cls, row: TournamentRow, verb: str, language: str) -> PlayerSelect:
        if verb == "rm":
            placeholder = say("Take a player out…")
        else:
            placeholder = say("Add a team: choose its two players…") if row.in_teams else say("Add a player…")
        team = 2 if verb == "add" and row.in_teams else 1
        return cls(row.id, verb, discord.ui.UserSelect(custom_id=f"dh:tn{verb}:{row.id}", min_values=team,
                                                       max_values=team, placeholder=placeholder.render(language)))

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(stored_id(match["tournament"], "tournament"), match["verb"])

    async def run(self, interaction: discord.Interaction) -> None:
        require_private_message(interaction)
        chosen = chosen_people(interaction, most=2 if self.verb == "add" else 1)
        tournaments, by, admin = tournaments_of(interaction), player_of(interaction), is_admin(interaction)
        if self.verb == "add":
            who, *partner = (Player(user_id, name, interaction.guild_id) for user_id, name in chosen)
            view = await in_time(interaction, tournaments.add_player(
                self.tournament_id, by, who, partner=next(iter(partner), None), is_admin=admin))
            names = literal(view.entrants[-1].label)
            done = say("{player} is in the tournament.", player=names)
            if view.row.status == "running":
                done = say("{player} is in the tournament from round {round}, with a loss for each round before.",
                           player=names, round=view.row.round + 1)
        else:
            ((user_id, name),) = chosen
            view = await in_time(interaction, tournaments.remove_player(self.tournament_id, by, user_id,
                                                                        is_admin=admin))
            done = say("{player} is out of the tournament.", player=literal(name))
        await answer_on_panel(interaction, view.row, done)


class PartnerSelect(TournamentControl, discord.ui.DynamicItem[discord.ui.UserSelect],
                    template=control_template(r"dh:tnpartner:(?P<tournament>\d+)")):
    """Join in a tournament of teams: the person who clicked Join chooses their partner, and
    the two are entered as a team at once (the partner may leave, taking the team out)."""

    def __init__(self, tournament_id: int, select: discord.ui.UserSelect | None = None) -> None:
        super().__init__(select or discord.ui.UserSelect(custom_id=f"dh:tnpartner:{tournament_id}"))
        self.tournament_id = tournament_id

    @classmethod
    def make(cls, tournament_id: int, language: str) -> PartnerSelect:
        return cls(tournament_id, discord.ui.UserSelect(custom_id=f"dh:tnpartner:{tournament_id}",
                                                        placeholder=say("Your partner…").render(language)))

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(stored_id(match["tournament"], "tournament"))

    async def run(self, interaction: discord.Interaction) -> None:
        require_private_message(interaction)
        ((user_id, name),) = chosen_people(interaction, most=1)
        partner = Player(user_id, name, interaction.guild_id)
        joining = tournaments_of(interaction).join(self.tournament_id, player_of(interaction), partner)
        await in_time(interaction, joining)
        done = say("You're in the tournament with {player}.", player=literal(name))
        await update_clicked(interaction, content=done.render(reader_language(interaction)), view=None)


def chosen_people(interaction: discord.Interaction, *, most: int) -> list[tuple[int, str]]:
    """The people chosen in a menu of people (one, up to ``most``), and the name the server shows
    for each."""
    data: Mapping[str, Any] = interaction.data or {}
    values = data.get("values")
    if not isinstance(values, list) or not 1 <= len(values) <= most or len(set(values)) != len(values):
        raise UserError(say("Choose exactly one person.") if most == 1 else say("Choose one or two people."))
    resolved = data.get("resolved")
    resolved = resolved if isinstance(resolved, dict) else {}
    chosen = []
    for value in values:
        user_id = stored_id(value, "person")
        member = (resolved.get("members") or {}).get(str(user_id)) or {}
        user = (resolved.get("users") or {}).get(str(user_id)) or {}
        if user.get("bot"):
            raise UserError(say("Bots can't play in a tournament: the AI fills in by itself."))
        chosen.append((user_id, str(member.get("nick") or user.get("global_name") or user.get("username") or user_id)))
    return chosen


def host_panel(row: TournamentRow, language: str, done: Text | None = None) -> tuple[str, discord.ui.View]:
    """The host's private controls, offering only what can be done now."""
    verbs = ["start"] if row.status == "signup" else ["repair"]
    verbs += ["resume" if row.paused else "pause", "cancel"]
    heading = say("**Host controls** · only you see them.")
    text = "\n".join([*([done.render(language)] if done else []), heading.render(language)])
    items: list[discord.ui.Item] = [HostButton(row.id, verb, language) for verb in verbs]
    items += [PlayerSelect.make(row, "add", language), PlayerSelect.make(row, "rm", language)]
    return text, static_view(items)


async def answer_on_panel(interaction: discord.Interaction, row: TournamentRow, done: Text) -> None:
    """Redraw the host's panel with what was just done above it (or only say it once the tournament is over)."""
    language = reader_language(interaction)
    if not row.is_open:
        await update_clicked(interaction, content=done.render(language), view=None)
        return
    text, panel = host_panel(row, language, done)
    await update_clicked(interaction, content=text, view=panel)
