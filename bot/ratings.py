"""Skill ratings: how they are computed, stored and shown.

Skill ratings: openskill's Plackett–Luce model, how a rating is stored and shown, and a
season's soft reset.

Each player has a rating per game and an overall one (``game_id = OVERALL``) per server, all
time (``ratings``) and, while a season runs, for the season (``season_ratings``,
:mod:`bot.seasons`). Any number of players, shared places and teams are rated alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

OVERALL = "*"
"""The game id of the rating over every game."""
MODEL = PlackettLuce()
PROVISIONAL_GAMES = 5
"""A rating is shown as provisional until it rests on this many rated games."""
SEASON_SIGMA = MODEL.sigma * 0.8
"""A season rating starts from the player's all-time one with its uncertainty raised to at
least this (a soft reset): 6.67 where a newcomer has 8.33 and a regular of a few dozen games
about 3. Skill carries over (μ is kept), but each of the first games of a season moves the
rating about five times as much as it moves the regular's all-time rating, and an average
regular starts the season at 1200 shown (a newcomer at 1000), so the race is open again."""

Rating = tuple[float, float]
"""``(mu, sigma)``."""


def ordinal(mu: float, sigma: float) -> float:
    """The stored rating: a conservative estimate (openskill's ordinal, μ − 3σ)."""
    return mu - 3 * sigma


def display_rating(ordinal_value: float) -> int:
    """The figure players see: 1000 + 40 × (μ − 3σ), rounded. A new player's ordinal is 0
    (so 1000); one game moves it by roughly 40–80 points."""
    return round(1000 + 40 * ordinal_value)


def season_start(all_time: Rating) -> Rating:
    """A player's first season rating, from their all-time rating before the game (:data:`SEASON_SIGMA`)."""
    mu, sigma = all_time
    return mu, max(sigma, SEASON_SIGMA)


def rate(current: Mapping[int, Rating], teams: Sequence[Sequence[int]], place_of: Mapping[int, int]
          ) -> dict[int, Rating]:
    """Every seat's rating after one game: ``current`` per seat, ``teams`` the seats that play
    together, ``place_of`` each seat's place (1 is best; equal places tie)."""
    match = [[MODEL.create_rating([current[s][0], current[s][1]]) for s in team] for team in teams]
    ranks: list[float] = [min(place_of.get(s, len(teams)) for s in team) for team in teams]
    new = MODEL.rate(match, ranks=ranks)
    return {seat: (after.mu, after.sigma) for team, new_team in zip(teams, new) for seat, after in zip(team, new_team)}
