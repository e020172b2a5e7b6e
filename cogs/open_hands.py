"""The private hand message each person has open, following the game.

A person's open hand is the message their latest **My hand**, move or **Refresh** answered
with. When their turn comes or their hand changes (another player's move, an AI's, a
timeout), it is edited through that interaction's token (:mod:`cogs.tokens`: an interaction
webhook, outside the global request budget), with their moves at the new state version, so
their next move is one click. Nothing else edits a hand message, and it is edited only when
what it shows changed: the seat's cards, or its moves (and, while it has moves, the version
their controls carry). With no token left (15 minutes after their last click, a refused
token, a restart) it is not edited, and their turn's ping asks them to open **My hand**.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial

import discord

from bot.errors import StorageUnavailable
from bot.service import GameService, HandSnapshot, TableSnapshot

from .attachments import hand_picture, pictures_on, send_with_picture
from .common import channel_closed_note
from .language import reader_language
from .messages import hand_message
from .outage import UNREACHABLE
from .tokens import MessageTokens, TokenRefused, edit_original

log = logging.getLogger(__name__)

SWEEP_AT = 10_000
"""Open hands kept before those whose token ran out are swept out (a table nobody moves at
again never looks at its own)."""
Person = tuple[int, int]
"""A person at a table: (table id, user id)."""
Shows = tuple[tuple[str, ...], tuple[str, ...], int | None]
"""What of a hand message is worth an edit when it changes (:func:`shows`)."""


def shows(hand: HandSnapshot) -> Shows:
    """The seat's cards and its moves, and while it has moves the version their controls carry
    (another seat's move during a simultaneous turn leaves the moves as they were, but older)."""
    cards = hand.view.get("hand")
    moves = tuple(action.code() for action in hand.actions)
    return tuple(cards) if isinstance(cards, list) else (), moves, hand.version if moves else None


def answers_with_original(interaction: discord.Interaction) -> bool:
    """Whether the hand ``interaction`` was answered with is its original response: the private
    message clicked (updated), or a new message its answer created. A click on a public message
    deferred first (its picture was slow) is answered by a follow-up instead, which its token
    could edit only by an id the answer does not keep: that hand is not followed."""
    clicked = interaction.message
    if clicked is not None and clicked.flags.ephemeral:
        return True
    return interaction.response.type in (discord.InteractionResponseType.channel_message,
                                         discord.InteractionResponseType.deferred_channel_message)


@dataclass
class OpenHand:
    """A person's open hand message: what it shows, in whose language, with which note."""

    shows: Shows
    language: str
    note: str
    """The line every answer to them carries there (Deckhand may no longer post in the channel), or ""."""


class OpenHands:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self._tokens: MessageTokens[Person] = MessageTokens()
        self._open: dict[int, dict[int, OpenHand]] = {}
        """Per table, per person, their open hand while a token may edit it."""
        self._due: dict[int, set[int]] = {}
        """Per table, the people whose open hand may be behind the game."""
        self._answering: collections.Counter[Person] = collections.Counter()
        """People whose own click is being answered: nothing else edits their hand meanwhile."""
        self._following: dict[int, asyncio.Task[None]] = {}
        """Per table, the task editing the hands that are due."""

    # -- what the Discord layer tells it ----------------------------------------------------------

    @contextlib.contextmanager
    def answering(self, table_id: int, user_id: int) -> Iterator[None]:
        """While a person's own click at a table is answered (it may move, then shows their hand),
        their hand is edited by nothing else; a change meanwhile is shown after, if the answer
        did not show it."""
        person = (table_id, user_id)
        self._answering[person] += 1
        try:
            yield
        finally:
            self._answering[person] -= 1
            if not self._answering[person]:
                del self._answering[person]
                if user_id in self._due.get(table_id, ()):
                    self._start(table_id)

    def opened(self, interaction: discord.Interaction, hand: HandSnapshot) -> None:
        """``interaction`` was answered with ``hand``: that message is the one its person has open
        now, in their language (and with the closed-channel note, when the answer had it)."""
        person = (hand.table.row.id, interaction.user.id)
        if not answers_with_original(interaction):
            self._forget(person)
            return
        if len(self._tokens) >= SWEEP_AT:
            for gone in self._tokens.sweep(time.time()):
                self._forget(gone)
        self._tokens.note(person, interaction)
        self._open.setdefault(person[0], {})[person[1]] = OpenHand(
            shows(hand), reader_language(interaction), channel_closed_note(interaction))

    # -- what the publisher tells it --------------------------------------------------------------

    def follow(self, table: TableSnapshot) -> None:
        """A new state of ``table`` was committed: bring the hands open at it up to date."""
        table_id = table.row.id
        people = self._open.get(table_id)
        if not people:
            return
        if table.row.status != "running":  # nothing to move any more: the old moves are refused politely
            for user_id in list(people):
                self._forget((table_id, user_id))
            return
        self._due.setdefault(table_id, set()).update(people)
        self._start(table_id)

    async def showing_turn(self, table_id: int, user_ids: list[int]) -> set[int]:
        """Of ``user_ids``, those whose open hand shows their moves (or is being answered, by
        their own click), once the edits under way at the table are done."""
        task = self._following.get(table_id)
        if task is not None:
            await asyncio.wait({task})
        now = time.time()
        people = self._open.get(table_id, {})
        return {user_id for user_id in user_ids
                if (table_id, user_id) in self._answering
                or (user_id in people and people[user_id].shows[1] and self._tokens.freshest((table_id, user_id), now))}

    def close(self) -> None:
        for task in self._following.values():
            task.cancel()

    # -- editing ----------------------------------------------------------------------------------

    def _forget(self, person: Person) -> None:
        table_id, user_id = person
        self._tokens.forget(person)
        people = self._open.get(table_id)
        if people is not None:
            people.pop(user_id, None)
            if not people:
                del self._open[table_id]
        due = self._due.get(table_id)
        if due is not None:
            due.discard(user_id)
            if not due:
                del self._due[table_id]

    def _start(self, table_id: int) -> None:
        """Edit the table's due hands, unless that is under way (it takes the new ones too)."""
        if table_id not in self._following:
            self._following[table_id] = asyncio.get_running_loop().create_task(
                self._follow(table_id), name=f"hands-{table_id}")

    async def _follow(self, table_id: int) -> None:
        try:
            while True:
                due = self._due.get(table_id, set())
                ready = {user_id for user_id in due if (table_id, user_id) not in self._answering}
                if not ready:
                    return
                due -= ready  # the people being answered stay due: their answer's end looks again
                if not due:
                    self._due.pop(table_id, None)
                await self._edit_hands(table_id, ready)
        finally:
            del self._following[table_id]

    def _token(self, person: Person) -> discord.Interaction | None:
        """The token that may edit the person's open hand now; without one, it is forgotten."""
        interaction = self._tokens.freshest(person, time.time())
        if interaction is None:
            self._forget(person)
        return interaction

    async def _edit_hands(self, table_id: int, user_ids: set[int]) -> None:
        editable = [user_id for user_id in user_ids if self._token((table_id, user_id)) is not None]
        if not editable:
            return
        try:
            hands = await self.service.play.seat_hands(table_id, editable)
        except StorageUnavailable:
            return  # logged by the storage; the next change brings the hands up to date
        edits = []
        for user_id in editable:
            person = (table_id, user_id)
            hand = hands.get(user_id)
            if hand is None:  # they no longer play a seat there (they left, or the game ended)
                self._forget(person)
            elif person in self._answering:  # they clicked meanwhile: looked at once their answer is done
                self._due.setdefault(table_id, set()).add(user_id)
            elif (interaction := self._token(person)) is not None:
                open_hand = self._open[table_id][user_id]
                if open_hand.shows != shows(hand):
                    edits.append(self._edit(person, interaction, hand, open_hand))
        await asyncio.gather(*edits)

    async def _edit(self, person: Person, interaction: discord.Interaction, hand: HandSnapshot,
                    open_hand: OpenHand) -> None:
        row = hand.table.row
        language = open_hand.language
        body = hand_message(hand, open_hand.note or None, language=language).kwargs()
        picture = await hand_picture(hand, language) if await pictures_on(self.service, row.guild_id) else None
        try:
            await send_with_picture(partial(edit_original, interaction), body, picture, edit=True,
                                    what=f"table {row.id}'s open hand")
        except TokenRefused as exc:
            log.info("an open hand at table %s can't be edited any more (%s); its person opens it again", row.id, exc)
            if self._tokens.drop(person, interaction):
                self._forget(person)
            return
        except UNREACHABLE as exc:
            log.info("could not bring an open hand at table %s up to date: %s", row.id, exc)
            return
        except discord.HTTPException as exc:
            log.warning("could not bring an open hand at table %s up to date: %s %s", row.id, exc.status, exc.text)
            return
        open_hand.shows = shows(hand)
