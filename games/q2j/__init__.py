"""Q Squared Joe, the shedding game, with its variants (RULINGS.md §1–2).

``GAME`` is the registered game; ``compare`` is the Q2J concept; ``Q2JState``
is a game (or a whole elimination match) in progress.

Options (``GAME.options``):

- ``variant``: ``standard`` (default), ``classic`` (no Q²/Joe), ``faceup`` (all
  hands public), ``challenge`` (exactly 2 players; one is dealt 1 card, the
  other 5), ``countdown`` (emptying a hand draws a new one of 4, then 3, 2, 1;
  the first to empty the one-card hand finishes).
- ``match``: ``single`` (default; the first to finish wins) or ``elimination``.
- ``short_hand``: challenge only: ``"random"`` (default, seeded), ``0`` or ``1``,
  the seat dealt the one-card hand. Any other value, or a non-default value
  with another variant, raises ``GameError``.

How the match modes combine with the variants (rulings of this engine):

- Elimination: a seat that finishes a game (empties its hand; in countdown, its
  one-card hand) is safe and leaves that game; play goes on among the seats
  still holding cards. When one seat is left holding cards it is eliminated and
  every card is reshuffled and dealt to the survivors (first-player rule
  again). The last seat standing wins the match. The whole match is one state;
  ``game_number`` counts the games.
- Countdown + elimination: as above, with "finish" meaning the one-card hand;
  every new game starts again at hands of 5.
- Challenge + elimination: allowed; with two players the first game decides
  the match, so it plays exactly like a single challenge game.
- Faceup and classic combine with either match mode.

Gaps the rulings leave open, decided here:

- The first-player rule compares the face-up (last dealt) card, then the first,
  second … dealt cards of the tied seats. A challenge's one-card hand has
  nothing after its face-up card, so a tie there goes to the seeded coin.
- An equal-strength play draws its penalty card in the same action, so a player
  who plays the last card that way is not out (a penalty card always exists:
  at worst the previous top is reshuffled into the stock).
- While a Q² pair is on top, "the discard pile except its top" keeps both queens
  when the stock is rebuilt.
- If the Q² player has left the game (elimination) before the duty came back,
  the duty comes back to the first seat still playing after them, who gets the
  any-card choice instead.
- A countdown hand that cannot be fully drawn (the stock and pile are short)
  holds what could be drawn; if nothing could be drawn, that seat can only draw
  until it holds cards again.
- ``Outcome.scores[s]`` is the number of seats ``s`` finished above; single games
  rank the losers by cards still to shed (countdown adds the hands to come), an
  elimination match in reverse order of elimination (the last eliminated second).

View keys (``state.view(seat)``; ``None`` for the public view):
``game, variant, match, players, viewer, turn, to_act, top (codes: one card, or
the two queens of a Q²), top_is_qq, stock_count, discard_count, hand_counts,
hands (every hand in faceup, else null), duty (null or {qq_seat, owed_by,
free_play}), status (per seat: playing/safe/out/won/lost), eliminated,
game_number, countdown (per-seat hand sizes, or null), short_hand, history
(the moves since the last deal, oldest first, e.g. ``"1 draw on 9H"``: see
:mod:`games.q2j.history`), shown (per seat, the cards it showed while the first
player was chosen at the last deal), over, outcome``; a seat's view adds ``hand, your_turn, legal (action codes),
penalty_cards`` (cards whose play costs a penalty draw now).
"""

from .actions import Q2JAction
from .game import GAME
from .options import OPTIONS, VARIANTS
from .rules import compare
from .state import Q2JState

__all__ = ["GAME", "OPTIONS", "VARIANTS", "Q2JAction", "Q2JState", "compare"]
