"""The registered Q2J :class:`~games.base.Game`: name, player counts, table options."""

from __future__ import annotations

from ..base import Game, OptionSpec
from .actions import Q2JAction
from .ai import choose
from .state import Q2JState, check_options

VARIANTS = ("standard", "classic", "faceup", "challenge", "countdown")
MATCHES = ("single", "elimination")

OPTIONS = (
    OptionSpec(
        "variant", "standard",
        "standard: Q2J with the Q² and Joe rules; classic: no Q²/Joe; faceup: all hands public; "
        "challenge: 2 players, 1 card against 5; countdown: new hands of 4, 3, 2, 1 after emptying one",
        choices=VARIANTS,
        prompt="Which rules (default: Standard)",
        labels={"standard": "Standard (Q² and Joe rules)", "classic": "Classic (the concept only)",
                "faceup": "Face-up (all hands public)", "challenge": "Challenge (2 players: 1 card vs 5)",
                "countdown": "Countdown (hands of 5, 4, 3, 2, 1)"},
    ),
    OptionSpec(
        "match", "single",
        "single: the first to empty their hand wins; elimination: each game the last player "
        "holding cards is out, until one player remains",
        choices=MATCHES,
        prompt="One game, or an elimination match (default: single game)",
        labels={"single": "Single game", "elimination": "Elimination match"},
    ),
    OptionSpec(
        "short_hand", "random",
        "challenge only: who is dealt the 1-card hand: random (seeded), or seat 0 or 1",
        choices=("random", 0, 1),
        prompt="Challenge only: who is dealt the single card (default: random)",
        labels={"random": "Random", 0: "First seat (the host)", 1: "Second seat"},
    ),
)


GAME = Game(
    id="q2j",
    name="Q Squared Joe",
    min_players=2,
    max_players=10,
    options=OPTIONS,
    state_class=Q2JState,
    action_class=Q2JAction,
    ai=choose,
    check_options=check_options,
    command="q2j",
    summary="Q Squared Joe, the shedding game",
)
