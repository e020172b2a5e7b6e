"""Achievements, defined once as data, and what unlocks them, computed from stored facts.

Every achievement is an :class:`Achievement`: an id, a :class:`Kind`, tiers (the counts or
figures that unlock it, one badge each), words for translators, and whether it is secret.
The shared ones are made for every registered game (:func:`catalog`): games finished and
rated games won per game, rated wins in a row, a rating reached, season titles; each game
adds its feats (:mod:`games.feats`). A kind's unlocks are computed by a pure function from
the facts stored for one person in one server (:class:`GameFact`, rating points, season
titles) or, for a feat, from one finished game: so the same functions serve the unlocks after
each game and ``python -m bot achievements --recompute`` (:mod:`bot.unlocks`).

Games with an AI seat count toward games finished, not toward wins, streaks or ratings:
those compare people playing people (a rated game, :mod:`bot.results`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

import games
from games.feats import Feat, Played, feats_of
from games.i18n import Text, plural, say

from .ratings import display_rating


class Kind(StrEnum):
    PLAYED = "played"
    """Games of one game finished (AI players' tables too)."""
    WON = "won"
    """Rated games of one game won."""
    STREAK = "streak"
    """Rated games won in a row, any game."""
    RATING = "rating"
    """An all-time rating reached in a game (the figure shown)."""
    CHAMPION = "champion"
    """First place of an ended season's standings (of a game or overall)."""
    PLACING = "placing"
    """A place in a tournament's final standings. Its source, the tournaments' stored final
    standings, is wired when tournaments are stored: :func:`placing_unlocks` takes them."""
    FEAT = "feat"
    """A game's own feat, in one game."""


@dataclass(frozen=True)
class Achievement:
    id: str
    """``played:q2j``, ``streak``, ``feat:q2j:queens-exit``…: what unlocks are stored under."""
    kind: Kind
    tiers: tuple[int, ...] = (1,)
    """What unlocks each badge: a count (games, wins, titles) or a rating; ``(1,)`` for a feat."""
    game_id: str | None = None
    feat: Feat | None = None

    @property
    def secret(self) -> bool:
        return self.feat is not None and self.feat.secret

    def title(self, tier: int) -> Text:
        """The badge's name for ``tier``: "10 wins at War", "Rated 1500", "Queen's exit"."""
        game = games.get_game(self.game_id).name if self.game_id else ""
        if self.kind is Kind.PLAYED:
            return plural("{count} game of {game}", "{count} games of {game}", tier, game=game)
        if self.kind is Kind.WON:
            return plural("{count} win at {game}", "{count} wins at {game}", tier, game=game)
        if self.kind is Kind.STREAK:
            return plural("{count} win in a row", "{count} wins in a row", tier)
        if self.kind is Kind.RATING:
            return say("Rated {rating}", rating=tier)
        if self.kind is Kind.CHAMPION:
            return say("Season champion") if tier == 1 else say("{count}× season champion", count=tier)
        if self.kind is Kind.PLACING:
            return say("Tournament podium")
        assert self.feat is not None
        return self.feat.name

    def description(self, tier: int) -> Text:
        """How ``tier`` is earned, one sentence."""
        game = games.get_game(self.game_id).name if self.game_id else ""
        if self.kind is Kind.PLAYED:
            return plural("Finish {count} game of {game} (games with AI players count).",
                          "Finish {count} games of {game} (games with AI players count).", tier, game=game)
        if self.kind is Kind.WON:
            return plural("Win {count} rated game of {game}.", "Win {count} rated games of {game}.", tier, game=game)
        if self.kind is Kind.STREAK:
            return plural("Win {count} rated game in a row.", "Win {count} rated games in a row.", tier)
        if self.kind is Kind.RATING:
            return say("Reach a rating of {rating} in a game.", rating=tier)
        if self.kind is Kind.CHAMPION:
            return say("Finish first in a season's standings.") if tier == 1 else \
                say("Finish first in {count} seasons' standings.", count=tier)
        if self.kind is Kind.PLACING:
            return say("Finish in the top three of a tournament.")
        assert self.feat is not None
        return self.feat.description


GAMES_TIERS = (1, 10, 100)
STREAK_TIERS = (3, 5, 10)
RATING_TIERS = (1200, 1500, 1800)
"""Figures shown (:func:`bot.ratings.display_rating`): everyone starts at 1000; a player winning
half their games passes 1500 after about 50, one winning two thirds 1800."""
CHAMPION_TIERS = (1, 3, 10)
PODIUM = 3
"""The places of a tournament's final standings that earn :attr:`Kind.PLACING`."""

STREAK, RATING, CHAMPION, PLACING = "streak", "rating", "champion", "placing"


def played_id(game_id: str) -> str:
    return f"played:{game_id}"


def won_id(game_id: str) -> str:
    return f"won:{game_id}"


def feat_id(game_id: str, feat: Feat) -> str:
    return f"feat:{game_id}:{feat.id}"


def catalog() -> dict[str, Achievement]:
    """Every achievement, by id: the shared ones, then per registered game its milestones and feats."""
    return _catalog(games.GAME_IDS)


@cache
def _catalog(game_ids: tuple[str, ...]) -> dict[str, Achievement]:
    found = [Achievement(STREAK, Kind.STREAK, STREAK_TIERS), Achievement(RATING, Kind.RATING, RATING_TIERS),
             Achievement(CHAMPION, Kind.CHAMPION, CHAMPION_TIERS), Achievement(PLACING, Kind.PLACING)]
    for game_id in game_ids:
        found += [Achievement(played_id(game_id), Kind.PLAYED, GAMES_TIERS, game_id),
                  Achievement(won_id(game_id), Kind.WON, GAMES_TIERS, game_id)]
        found += [Achievement(feat_id(game_id, feat), Kind.FEAT, (1,), game_id, feat)
                  for feat in feats_of(games.get_game(game_id))]
    return {achievement.id: achievement for achievement in found}


# -- what unlocks them ------------------------------------------------------------------------


@dataclass(frozen=True)
class Unlock:
    """An achievement's tier, unlocked by a person in a server: by the game ``table_id`` or the
    season ``season_id`` (when it ended), at ``at``."""

    guild_id: int
    user_id: int
    achievement: str
    tier: int
    at: float
    table_id: int | None = None
    season_id: int | None = None

    @property
    def key(self) -> tuple[int, int, str, int]:
        return self.guild_id, self.user_id, self.achievement, self.tier


@dataclass(frozen=True)
class GameFact:
    """One finished game a person sat at (their seat never taken over)."""

    table_id: int
    game_id: str
    at: float
    rated: bool
    won: bool


@dataclass(frozen=True)
class RatingPoint:
    """A person's all-time rating (the stored ordinal) in a game after one rated game."""

    table_id: int
    at: float
    ordinal: float


@dataclass(frozen=True)
class Title:
    """A first place in an ended season's standings (one per game and overall)."""

    season_id: int
    at: float


def _crossings(tiers: Sequence[int], values: Iterable[tuple[int, float, int | None, int | None]],
               guild_id: int, user_id: int, achievement: str) -> list[Unlock]:
    """Each tier's first unlock: ``values`` are ``(value, at, table, season)`` in order."""
    found, left = [], list(tiers)
    for value, at, table_id, season_id in values:
        while left and value >= left[0]:
            found.append(Unlock(guild_id, user_id, achievement, left.pop(0), at, table_id, season_id))
        if not left:
            break
    return found


def game_unlocks(guild_id: int, user_id: int, facts: Sequence[GameFact]) -> list[Unlock]:
    """Games finished and rated games won per game, and rated wins in a row (``facts`` oldest first)."""
    found: list[Unlock] = []
    for game_id in dict.fromkeys(fact.game_id for fact in facts):
        of_game = [fact for fact in facts if fact.game_id == game_id]
        found += _crossings(GAMES_TIERS, ((n, f.at, f.table_id, None) for n, f in enumerate(of_game, start=1)),
                            guild_id, user_id, played_id(game_id))
        wins = [fact for fact in of_game if fact.rated and fact.won]
        found += _crossings(GAMES_TIERS, ((n, f.at, f.table_id, None) for n, f in enumerate(wins, start=1)),
                            guild_id, user_id, won_id(game_id))
    found += _crossings(STREAK_TIERS, _streaks(facts), guild_id, user_id, STREAK)
    return found


def _streaks(facts: Sequence[GameFact]) -> Iterable[tuple[int, float, int | None, int | None]]:
    """The length of the run of rated wins after each rated game (unrated games leave it as it is)."""
    run = 0
    for fact in facts:
        if fact.rated:
            run = run + 1 if fact.won else 0
            yield run, fact.at, fact.table_id, None


def rating_unlocks(guild_id: int, user_id: int, points: Sequence[RatingPoint]) -> list[Unlock]:
    """The ratings reached, in any game (``points`` oldest first)."""
    best = 0
    values = []
    for point in points:
        best = max(best, display_rating(point.ordinal))
        values.append((best, point.at, point.table_id, None))
    return _crossings(RATING_TIERS, values, guild_id, user_id, RATING)


def champion_unlocks(guild_id: int, user_id: int, titles: Sequence[Title]) -> list[Unlock]:
    """Seasons in which the person came first of a game or overall (``titles`` oldest first; a
    season counts once, however many of its boards they won)."""
    seasons = list({t.season_id: t for t in titles}.values())
    return _crossings(CHAMPION_TIERS, ((n, t.at, None, t.season_id) for n, t in enumerate(seasons, start=1)),
                      guild_id, user_id, CHAMPION)


def placing_unlocks(guild_id: int, user_id: int, places: Sequence[tuple[int, float]]) -> list[Unlock]:
    """A place among the first :data:`PODIUM` of a tournament's final standings (``(place, at)``,
    oldest first)."""
    return next(([Unlock(guild_id, user_id, PLACING, 1, at)] for place, at in places if place <= PODIUM), [])


def feat_unlocks(guild_id: int, table_id: int, at: float, played: Played, people: dict[int, int]) -> list[Unlock]:
    """The feats of ``played`` (a finished, unhinted game) earned by ``people`` (seat → user)."""
    game_id = played.game.id
    return [Unlock(guild_id, user, feat_id(game_id, feat), 1, at, table_id)
            for feat in feats_of(played.game) for seat, user in people.items() if feat.earned(played, seat)]
