"""What the benchmark's table messages showed and when, against what the database holds
(for :mod:`bench.discord_load`).

The public table message carries no version, so the version a revision of it shows is read
from its words: every stored game is replayed from its seed and move log, each version laid
out as the bot lays out the table message (``cogs.messages.table_message``), and a revision shows
the newest version whose head (heading, whose turn, the game's facts) and board it equals,
among the versions committed before it was made. The board is the text board, or the
picture's description where a picture takes its place. Two versions that read the same look
the same to everyone, so a revision equal to both shows the newer. The latest events, made of
stored event lines the replay does not rebuild, are left out of the comparison.

Staleness of a move: from its commit (``moves.at``) to the first revision showing its state or
a later one. A person's turn begins with the version that makes them one of the players to act;
a ping is a message created in the table's channel that mentions them, and counts for their
turn the table message showed when the ping was created (the bot shows a turn, then pings it),
so a ping that reaches someone after they already moved still counts for its turn.
"""

from __future__ import annotations

import bisect
import dataclasses
import json
import math
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

import games
from bot.service import TableSnapshot
from bot.storage import Storage, TableRow
from bot.table_options import engine_options
from cogs.components import CONTAINER, GALLERY, TEXT
from cogs.limits import GALLERY_DESCRIPTION, clip
from cogs.looks import load_game_uis
from cogs.messages import table_message

Key = tuple[str, str]
"""(head, board) of a table message: the texts of its container's first two parts, the second
the picture's description where the picture takes the text board's place."""


def message_key(components: list[dict]) -> Key:
    """The :data:`Key` of a message with ``components`` (("", "") without a container)."""
    container = next((c for c in components if c.get("type") == CONTAINER), None)
    parts = (container or {}).get("components") or []
    words = []
    for part in parts[:2]:
        if part.get("type") == TEXT:
            words.append(part.get("content") or "")
        elif part.get("type") == GALLERY:
            words.append(part["items"][0].get("description") or "")
    return (words + ["", ""])[0], (words + ["", ""])[1]


@dataclass(frozen=True)
class Revision:
    """A public message as it was from ``at`` (seconds since 1970) on."""

    at: float
    message_id: int
    channel_id: int
    created: bool
    key: Key
    mentions: tuple[int, ...]
    lobby: bool
    """The message was a lobby then (its Join controls), not a game."""


class Revisions:
    """Every revision of a public message, recorded as the fake makes it (a message listener)."""

    def __init__(self) -> None:
        self.of_message: dict[int, list[Revision]] = defaultdict(list)
        self.created_in: dict[int, list[Revision]] = defaultdict(list)

    def __call__(self, event: str, message) -> None:  # a fakediscord MessageListener
        if not message.public or event == "MESSAGE_DELETE":
            return
        lobby = any(str(c.get("custom_id", "")).startswith("dh:lobby:") for c in message.walk())
        revision = Revision(time.time(), message.id, message.channel.id, event == "MESSAGE_CREATE",
                            message_key(message.components), tuple(message.mentions), lobby)
        self.of_message[message.id].append(revision)
        if revision.created:
            self.created_in[message.channel.id].append(revision)


@dataclass(frozen=True)
class Version:
    number: int
    committed: float
    keys: tuple[Key, Key]
    """How the table message reads with the text board, and with the picture in its place."""
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
        layout = table_message(TableSnapshot(shown, state.view(None))).view.layout
        head, board = message_key(layout.components())
        to_act = frozenset(people[s] for s in state.to_act() if s in people)
        return Version(number, committed, ((head, board), (head, clip(layout.alt, GALLERY_DESCRIPTION))), to_act)

    versions = [version(row.version - len(moves), row.started_at or 0.0)]
    for number, seat, action, at in moves:
        state.apply(seat, game.action_from_json(json.loads(action)))
        versions.append(version(number, at))
    return TableHistory(row, versions)


Timeline = list[tuple[float, int]]
"""(when, version) of each revision of a table message that showed a state of the game."""


def timeline(history: TableHistory, revisions: list[Revision]) -> tuple[Timeline, int]:
    """What the table message showed, revision by revision; and how many revisions (lobbies
    aside) equal no state committed before them."""
    committed_by_key: dict[Key, list[tuple[float, int]]] = defaultdict(list)
    for v in history.versions:
        for key in set(v.keys):
            committed_by_key[key].append((v.committed, v.number))
    shown: Timeline = []
    unmatched = 0
    for revision in revisions:
        if revision.lobby:
            continue
        candidates = committed_by_key.get(revision.key, [])
        newest = bisect.bisect_right(candidates, (revision.at, math.inf))
        if newest == 0:
            unmatched += 1
        else:
            shown.append((revision.at, candidates[newest - 1][1]))
    return shown, unmatched


@dataclass
class Staleness:
    """For each move committed in the measured period, how long until the table message
    showed its state or a later one; the moves never shown."""

    seconds: list[float] = field(default_factory=list)
    never_shown: int = 0


def staleness(history: TableHistory, shown: Timeline, since: float, until: float) -> Staleness:
    result = Staleness()
    pending = [v for v in history.versions[1:] if since <= v.committed <= until]
    for at, number in shown:
        while pending and pending[0].number <= number:  # committed before ``number``, so before ``at``
            result.seconds.append(at - pending.pop(0).committed)
    result.never_shown = len(pending)
    return result


PING_GRACE = 1.0
"""Seconds after a turn is shown within which a ping may still be on its way."""


@dataclass
class Pings:
    turns: int = 0
    delivered: int = 0
    lost: int = 0
    repeated: int = 0
    """Turns pinged more than once."""
    over_too_soon: int = 0
    """Turns without a ping that were over before, or within :data:`PING_GRACE` of, the table
    message showing them: the person had moved already (the bench's people see their turn in
    the database), so the bot rightly sent no ping for a turn that was over; not lost. The
    grace counts from the last time the message showed the turn's state: a bot killed between
    showing a turn and pinging it shows it again when it is back, then pings (until 2026-11-28
    it counted from the first time, and such a turn, over while the bot was down, was lost)."""


def pings(history: TableHistory, shown: Timeline, created: Iterable[Revision], since: float, until: float,
          next_game: float = math.inf) -> Pings:
    """The turns of people that began in [``since``, ``until``], and the pings each got. A ping
    is one created in the table's channel from its first version until ``next_game`` began
    there; it is for the turn the table message showed when it was sent (the bot shows a turn,
    then pings it), or before the message showed any state, for the turn committed then."""
    turns: dict[int, list[Version]] = defaultdict(list)  # user -> the version beginning each turn
    ends: dict[tuple[int, int], float] = {}  # (user, turn) -> when the turn was over
    before: frozenset[int] = frozenset()
    for v in history.versions:
        for user in v.to_act - before:
            turns[user].append(v)
        for user in before - v.to_act:
            ends[user, len(turns[user]) - 1] = v.committed
        before = v.to_act
    committed = [v.committed for v in history.versions]
    shown_at = [at for at, _ in shown]
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for revision in created:
        if revision.message_id == history.row.table_message_id or not committed[0] <= revision.at < next_game:
            continue
        i = bisect.bisect_right(shown_at, revision.at) - 1
        if i >= 0:
            number = shown[i][1]
        else:
            number = history.versions[max(0, bisect.bisect_right(committed, revision.at) - 1)].number
        for user in set(revision.mentions):
            turn = bisect.bisect_right([v.number for v in turns.get(user, [])], number) - 1
            if turn >= 0:
                counts[user, turn] += 1
    result = Pings()
    for user, began in turns.items():
        for i, v in enumerate(began):
            if since <= v.committed <= until:
                result.turns += 1
                n = counts[user, i]
                first = next((number for _, number in shown if number >= v.number), None)
                shown_then = max((at for at, number in shown if number == first), default=math.inf)
                too_soon = n == 0 and ends.get((user, i), math.inf) <= shown_then + PING_GRACE
                result.delivered += n > 0
                result.over_too_soon += too_soon
                result.lost += n == 0 and not too_soon
                result.repeated += n > 1
    return result


def next_games(histories: list[TableHistory]) -> dict[int, float]:
    """Per table id: when the next game in its channel began (``inf`` for the last one)."""
    in_channel: dict[int, list[TableHistory]] = defaultdict(list)
    for history in histories:
        in_channel[history.row.channel_id].append(history)
    after: dict[int, float] = {}
    for played in in_channel.values():
        played.sort(key=lambda h: h.versions[0].committed)
        for history, following in zip(played, played[1:]):
            after[history.row.id] = following.versions[0].committed
        after[played[-1].row.id] = math.inf
    return after
