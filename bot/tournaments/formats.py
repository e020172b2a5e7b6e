"""A tournament's format, checked as it is created.

Swiss or knockout, a top cut after the Swiss
rounds, the table size and, for a knockout at bigger tables, how many go through from each.
Every refusal is a :class:`~bot.errors.UserError` naming the option.

A table's size is its seats (``table_size``): by default the game's usual count
(:attr:`games.base.Game.usual_players`), or the fewest its options allow (Q2J's Challenge is
for two). In a game played in teams (QUASH at four) the entrants are teams of two, so a table
holds two entrants; elsewhere each seat is an entrant.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.base import Game, count_text
from games.errors import GameError
from games.i18n import SlashOption, say
from games.phrases import either

from ..errors import UserError
from ..table_options import split_options

FORMATS = ("swiss", "knockout")
TOPS = (4, 8)
"""How many a top cut takes to its knockout (0: none)."""
SEEDINGS = ("rating", "random")
"""How a knockout from the start is seeded (a top cut: by the Swiss standings)."""
MAX_ROUNDS = 20


@dataclass(frozen=True)
class Format:
    format: str
    top: int
    rounds: int | None
    """Swiss rounds: ``None`` until the start (then enough to find a winner); 0 for a knockout."""
    table_size: int
    advance: int
    seeding: str

    @property
    def stage(self) -> str:
        """The stage the tournament starts in."""
        return "knockout" if self.format == "knockout" else "swiss"


def checked_format(game: Game, options: dict[str, Any], *, format: str | None = None, top: int | None = None,
                   rounds: int | None = None, table_size: int | None = None, advance: int | None = None,
                   seeding: str | None = None) -> Format:
    """The tournament's :class:`Format` from what the host chose (``None``: the default)."""
    format = _one_of(format, FORMATS, "format")
    knockout = format == "knockout"
    if knockout and rounds is not None:
        raise UserError(say("`{option}` is for Swiss tournaments.", option=SlashOption("swiss_rounds")))
    if knockout and top:
        raise UserError(say("`{option}` is for Swiss tournaments.", option=SlashOption("top")))
    if not knockout and seeding is not None:
        raise UserError(say("`{option}` is for knockouts: after Swiss rounds, the best are seeded by their "
                            "standings.", option=SlashOption("seeding")))
    size = _table_size(game, options, table_size)
    per_table = len(game.teams(size))
    if advance is not None and (per_table < 3 or not (knockout or top)):
        raise UserError(say("`{option}` is for knockouts at tables of three or more.", option=SlashOption("advance")))
    goes_on = [n for n in range(1, per_table) if per_table % n == 0] if per_table > 2 else [1]
    if advance is not None and advance not in goes_on:
        raise UserError(say("At tables of {size}, `{option}` is {choices}.", size=size, option=SlashOption("advance"),
                            choices=either(goes_on)))
    return Format(
        format=format, top=_one_of(top, (0, *TOPS), "top") if top else 0,
        rounds=0 if knockout else within(rounds, None, 1, MAX_ROUNDS, "swiss_rounds"), table_size=size,
        advance=advance or (goes_on[-1] if knockout or top else 1),
        seeding=_one_of(seeding, SEEDINGS, "seeding") if knockout else "standings",
    )


def _table_size(game: Game, options: dict[str, Any], requested: int | None) -> int:
    """The seats of every table: ``requested`` if the game is played so, else the game's usual
    count, or the fewest its ``options`` allow. (The options are checked for it afterwards.)"""
    counts = game.allowed_player_counts()
    if requested is None:
        game_options = split_options(options)[0]
        return next((n for n in (game.usual_players, *counts) if _allows(game, game_options, n)), game.usual_players)
    if requested not in counts:
        raise UserError(say("{game} is played at tables of {counts}, not {size}.", game=game.name,
                            counts=count_text(counts), size=requested))
    return requested


def _allows(game: Game, options: dict[str, Any], players: int) -> bool:
    try:
        game.normalize_options(options, players)
    except GameError:
        return False
    return True


def _one_of(value: Any, allowed: tuple[Any, ...], option: str) -> Any:
    """``value`` if among ``allowed`` (its first when not given); else a refusal naming ``option``."""
    if value is None:
        return allowed[0]
    if isinstance(value, bool) or value not in allowed:
        raise UserError(say("`{option}` is {choices}.", option=SlashOption(option), choices=either(allowed)))
    return value


def within(value: int | None, default: int | None, low: int, high: int, option: str) -> Any:
    """``value`` (or ``default`` when not given) if within ``low``–``high``; else a refusal naming ``option``."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise UserError(say("`{option}` must be a whole number from {low} to {high}.", option=SlashOption(option),
                            low=low, high=high))
    return value
