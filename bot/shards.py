"""Which Discord shards this process runs, and so which servers' tables it restores, times and drives.

Discord puts a server on shard ``(guild_id >> 22) % shard_count``; every event of
that server (its interactions included) reaches only the connection of that shard.
A process therefore owns exactly the tables of the servers on its shards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SPEC_FORMAT = "all, or FIRST-LAST/COUNT or ID/COUNT (e.g. 0-3/8: shards 0 to 3 of 8)"
_SPEC = re.compile(r"(\d+)(?:-(\d+))?/(\d+)")
MAX_SHARDS = 65_536
"""Far above any bot's count (Discord wants a shard per 1,000–2,500 servers), and what the
database claim's keys tell apart (:func:`bot.storage.postgres.claim_shard_key`)."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord delivers ``guild_id``'s events on."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Shards:
    """``ids`` of ``count`` shards; both ``None`` for every shard (Discord's recommended count)."""

    ids: tuple[int, ...] | None = None
    count: int | None = None

    def __post_init__(self) -> None:
        if (self.ids is None) != (self.count is None):
            raise ValueError(f"shards need both their ids and their count, or neither, not {self.ids}/{self.count}")

    @classmethod
    def parse(cls, text: str) -> Shards:
        """``all`` or ``FIRST-LAST/COUNT`` / ``ID/COUNT``; ValueError (saying what is wrong) otherwise."""
        text = text.strip().lower()
        if text in ("", "all"):
            return cls()
        match = _SPEC.fullmatch(text.replace(" ", ""))
        if match is None:
            raise ValueError(f"must be {SPEC_FORMAT}, not {text!r}")
        first, last, count = int(match[1]), int(match[2] or match[1]), int(match[3])
        if count < 1:
            raise ValueError(f"needs at least one shard in all, not {text!r}")
        if count > MAX_SHARDS:
            raise ValueError(f"counts at most {MAX_SHARDS:,} shards in all, not {text!r}")
        if first > last:
            raise ValueError(f"lists its shards lowest first (e.g. {last}-{first}/{count}), not {text!r}")
        if last >= count:
            raise ValueError(f"numbers shards from 0 to {count - 1} when there are {count}, not {text!r}")
        return cls(tuple(range(first, last + 1)), count)

    @property
    def every_shard(self) -> bool:
        return self.ids is None

    @property
    def chosen(self) -> tuple[tuple[int, ...], int] | None:
        """``(ids, count)`` when this process runs chosen shards; None when it runs every shard."""
        if self.ids is None or self.count is None:
            return None
        return self.ids, self.count

    def owns(self, guild_id: int) -> bool:
        """Whether this process runs the shard of ``guild_id``."""
        if (chosen := self.chosen) is None:
            return True
        ids, count = chosen
        return shard_of(guild_id, count) in ids

    def sql_condition(self, column: str = "guild_id") -> str:
        """An SQL condition (the same in SQLite and PostgreSQL) true for rows of servers on these
        shards: `` AND …``, or ``""`` for every shard. Only integers are written into it."""
        if (chosen := self.chosen) is None:
            return ""
        ids, count = chosen
        return f" AND ({column} >> 22) % {int(count)} IN ({', '.join(str(int(i)) for i in ids)})"

    def __str__(self) -> str:
        if self.ids is None:
            return "all shards"
        first, last = self.ids[0], self.ids[-1]
        return f"shard{'s' if last > first else ''} {first}{f'-{last}' if last > first else ''} of {self.count}"


ALL_SHARDS = Shards()
