"""The registered QUASH :class:`~games.base.Game`: name, player counts, table options."""

from __future__ import annotations

from ..base import Game, OptionSpec, bool_option, int_option
from .actions import QuashAction
from .ai import choose
from .scoring import SIDE_NAMES
from .state import QuashState

FINISH_RANGE = (5, 100)

OPTIONS = (
    OptionSpec(
        "advanced", False,
        "advanced play: 2 players get 23 cards each (6 set aside, no draw pile); swap chains "
        "move cards already placed; every placement must keep its spot able to become a run",
        parse=bool_option,
        prompt="Advanced play: hidden cards, and swaps that keep every spot able to become a run",
    ),
    OptionSpec(
        "finish", 30,
        f"the track's length: the first side to reach this many points wins "
        f"({FINISH_RANGE[0]}–{FINISH_RANGE[1]})",
        parse=int_option(*FINISH_RANGE),
        prompt="Points that win the match (default 30)",
    ),
)


GAME = Game(
    id="quash",
    name="QUASH",
    min_players=2,
    max_players=4,
    options=OPTIONS,
    state_class=QuashState,
    action_class=QuashAction,
    player_counts=(2, 4),
    ai=choose,
    points="track points",
    sides=SIDE_NAMES,
    command="quash",
    summary="QUASH, runs against runs on nine spots a side",
)
