"""A player's tournaments in ``/stats`` (issue 40): the summary counts their finished tournaments
with their best place, and each game's line those of that game, in English and French."""

from __future__ import annotations

from bot.results import GameTally, Stats
from bot.tournaments.placings import Placing
from cogs.scores import stats_layout
from tests.test_french import FRENCH

WAR, QOS = "war", "queen-of-spades"


def lines(placed: list[Placing], language: str = "en", game_id: str | None = None) -> list[str]:
    stats = Stats(12, 5, None, WAR, 0, [GameTally(WAR, 8, 4, None, 0), GameTally(QOS, 4, 1, None, 0)])
    layout = stats_layout("ana", game_id, stats, [], language, placed)
    return "\n".join(part["content"] for part in [*layout.head, *layout.board]).split("\n")


def test_the_summary_and_each_game_s_line_show_the_tournaments_placed_in() -> None:
    placed = [Placing(1, WAR, 3, 9, 100.0), Placing(2, WAR, 1, 4, 200.0), Placing(3, QOS, 1, 12, 300.0)]
    shown = lines(placed)
    assert "🏆 3 tournaments · best place: 1 of 12" in shown  # the best place, in the biggest field
    assert next(line for line in shown if line.startswith("**Q Squared Joe War**")).endswith(
        " · 🏆 2 tournaments · best place: 1 of 4")
    assert next(line for line in shown if line.startswith("**Queen of Spades**")).endswith(
        " · 🏆 1 tournament · best place: 1 of 12")
    assert "🏆 1 tournoi · meilleure place\u00a0: 3 sur 9" in lines(placed[:1], FRENCH)


def test_without_a_tournament_nothing_is_said_of_them() -> None:
    assert not any("🏆" in line for line in lines([]))
