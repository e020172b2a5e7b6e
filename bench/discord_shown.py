"""What the benchmark's table messages showed and when, against what the database holds
(for :mod:`bench.discord_load`).

The public table message carries no version, so the version a revision of it shows is read
from its text: every stored game is replayed from its seed and move log, each version
rendered as the bot renders the table message (``cogs.ui.table_embed``), and a revision shows
the newest version whose whole-turn line and board (the message's content and the embed's
description) it equals, among the versions committed before it was made. Two versions that
render the same look the same to everyone, so a revision equal to both shows the newer. The
"Latest" field, made of stored event lines the replay does not rebuild, is left out of the
comparison; the picture is drawn from the same state as the text.

Staleness of a move: from its commit (``moves.at``) to the first revision showing its state or
a later one. A person's turn begins with the commit that makes them one of the players to act;
a ping is a message created in the table's channel that mentions them, and counts for their
latest turn begun before it was created (a ping arriving after the person already moved still
reached them for that turn; one arriving after their next turn began counts for that one).
"""

from __future__ import annotations

import bisect
import dataclasses
import json
import math
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable

import games
from bot.service import TableSnapshot
from bot.storage import Storage, TableRow
from bot.table_options import engine_options
from cogs.games import load_game_uis
from cogs.ui import table_embed

Key = tuple[str, str]
"""(content, embed description) of a table message."""


@dataclass(frozen=True)
class Revision:
    """A public message as it was from ``at`` (seconds since 1970) on."""

    at: float
    message_id: int
    channel_id: int
    created: bool
    key: Key
    mentions: tuple[int, ...]


class Revisions:
    """Every revision of a public message, recorded as the fake makes it (a message listener)."""

    def __init__(self) -> None:
        self.of_message: dict[int, list[Revision]] = defaultdict(list)
        self.created_in: dict[int, list[Revision]] = defaultdict(list)

    def __call__(self, event: str, message) -> None:  # a fakediscord MessageListener
        if not message.public or event == "MESSAGE_DELETE":
            return
        description = (message.embeds[0].get("description") or "") if message.embeds else ""
        revision = Revision(time.time(), message.id, message.channel.id, event == "MESSAGE_CREATE",
                            (message.content or "", description), tuple(message.mentions))
        self.of_message[message.id].append(revision)
        if revision.created:
            self.created_in[message.channel.id].append(revision)


@dataclass(frozen=True)
class Version:
    number: int
    committed: float
    key: Key
    to_act: frozenset[int]
    """The people (user ids) to act in this version."""


@dataclass
class TableHistory:
    """One stored game, version by version."""

    row: TableRow
    versions: list[Version]

    @property
    def latest(self) -> Version:
        return self.versions[-1]


async def read_histories(db_path: str) -> list[TableHistory]:
    """Every game the database holds, replayed and rendered version by version."""
    load_game_uis()
    storage = await Storage.open(db_path)
    try:
        ids = await storage.run_read(lambda db: db.fetch("SELECT id FROM tables WHERE state IS NOT NULL"))
        histories = []
        for row in await storage.get_tables([r[0] for r in ids]):
            moves = await storage.run_read(lambda db, table_id=row.id: db.fetch(
                "SELECT version, seat, action, at FROM moves WHERE table_id = ? ORDER BY version", (table_id,)))
            histories.append(replay(row, [(m[0], m[1], m[2], m[3]) for m in moves]))
        return histories
    finally:
        await storage.close()


def replay(row: TableRow, moves: list[tuple[int, int, str, float]]) -> TableHistory:
    """``row``'s game from its seed through ``moves`` (version, seat, action json, at)."""
    game = games.get_game(row.game_id)
    state = game.new_game(len(row.seats), engine_options(row.options), row.seed)
    people = {s.seat: s.user_id for s in row.seats if not s.is_ai and s.user_id is not None}

    def version(number: int, committed: float) -> Version:
        over = state.is_over()
        shown = dataclasses.replace(row, version=number, status=row.status if over else "running",
                                    outcome=row.outcome if over else None, deadline=None, recent_events=[])
        content, embed = table_embed(TableSnapshot(shown, state.view(None)))
        to_act = frozenset(people[s] for s in state.to_act() if s in people)
        return Version(number, committed, (content or "", embed.description or ""), to_act)

    versions = [version(row.version - len(moves), row.started_at or 0.0)]
    for number, seat, action, at in moves:
        state.apply(seat, game.action_from_json(json.loads(action)))
        versions.append(version(number, at))
    return TableHistory(row, versions)


@dataclass
class Shown:
    """What one table's message showed: for each version committed in the measured period, how
    long until it (or a later one) was shown; what was never shown; what it shows at the end."""

    staleness: list[float] = field(default_factory=list)
    never_shown: int = 0
    final: int | None = None
    unmatched: int = 0
    """Revisions of the table message equal to no version committed before them."""


def shown(history: TableHistory, revisions: list[Revision], since: float, until: float) -> Shown:
    result = Shown()
    committed_by_key: dict[Key, list[tuple[float, int]]] = defaultdict(list)
    for v in history.versions:
        committed_by_key[v.key].append((v.committed, v.number))
    pending = [v for v in history.versions[1:] if since <= v.committed <= until]
    start = history.versions[0].committed
    for revision in revisions:
        if revision.at < start:
            continue  # the lobby, before the game began
        candidates = committed_by_key.get(revision.key, [])
        newest = bisect.bisect_right(candidates, (revision.at, math.inf))
        if newest == 0:
            result.unmatched += 1
            continue
        number = candidates[newest - 1][1]
        result.final = number
        while pending and pending[0].number <= number:  # committed before ``number``, so before the revision
            result.staleness.append(revision.at - pending.pop(0).committed)
    result.never_shown = len(pending)
    return result


@dataclass
class Pings:
    turns: int = 0
    delivered: int = 0
    lost: int = 0
    repeated: int = 0
    """Turns pinged more than once."""


def pings(history: TableHistory, created: Iterable[Revision], since: float, until: float) -> Pings:
    """The turns of people that began in [``since``, ``until``] and the pings each got."""
    turns: dict[int, list[float]] = defaultdict(list)  # user -> when each of their turns began
    before: frozenset[int] = frozenset()
    for v in history.versions:
        for user in v.to_act - before:
            turns[user].append(v.committed)
        before = v.to_act
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for revision in created:
        if revision.message_id == history.row.table_message_id:
            continue
        for user in set(revision.mentions):
            i = bisect.bisect_right(turns.get(user, []), revision.at) - 1
            if i >= 0:
                counts[user, i] += 1
    result = Pings()
    for user, began_at in turns.items():
        for i, began in enumerate(began_at):
            if since <= began <= until:
                result.turns += 1
                n = counts[user, i]
                result.delivered += n > 0
                result.lost += n == 0
                result.repeated += n > 1
    return result
