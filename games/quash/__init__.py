"""QUASH, the board-and-cards game for 2 players or 2 teams (RULINGS.md §6).

``GAME`` is the registered game; ``QuashState`` a match in progress;
``QuashAction`` its moves. Rules helpers: :func:`is_run`, :func:`score_spot`,
:func:`can_become_run`.

Options (``GAME.options``; players are ``new_game``'s ``players``, 2 or 4):

- ``advanced`` (bool, default false): advanced play. 2 players: 6 cards are set
  aside unseen, 23 dealt to each, no draw pile. 4 players: the usual 13 each.
  Swap chains are allowed and every placement must keep its spot able to
  become a run.
- ``finish`` (whole number 5–100, default 30): the track's length; the first
  side to reach it wins at once.

Sides: side 0 is RED, side 1 is BLACK, and seat ``s`` plays for side
``s % 2``: with 2 players seat 0 is RED and seat 1 BLACK; with 4 players seats
0 and 2 are team RED, seats 1 and 3 team BLACK (the seat order is the
clockwise order round the table, so partners sit opposite). The bot's lobby
lets players pick colours by choosing seats.

Moves (:mod:`games.quash.actions`; spots 1–9 as on the board, seats 0-based):

- ``place:9D,4``: 9♦ from your hand (or 9♦ in the air) onto an open slot of
  your side's spot 4; the turn ends;
- ``swap:9D,4,6C``: advanced: 9♦ onto spot 4 in place of 6♣; 6♣ is then in the
  air, and the same seat places it next (``place:6C,7``, or ``swap:6C,3,QH``…);
- ``takeback``: advanced, while a card is in the air: the whole chain back;
- ``tiebreak:9H``: your side's secret tiebreak card;
- ``chooser:2``: 4 players, during a tiebreak: hand your team's choice to your
  partner (seat 2), who chooses the team's tiebreak cards from then on.

Placement is automatic about the draw: with a draw pile (2 players, basic)
``place``/``swap`` also draws the pile's top card (told privately).

Old move logs hold whole chains as one action (``swap:9D,4,6C,7``,
``swap:9D,4,6C,3,QH,8``): ``apply`` still plays them, step by step, as one
move (all or nothing). Snapshots of format 1 load with no chain open.

Rulings of this engine where the sources leave a gap:

- Ranks for everything (spots, tiebreaks, the cut) are 2..10 J Q K A, aces
  high only. ``is_run``: consecutive distinct ranks, any suits, any order, any
  length; one card is a run, no cards is not. ``score_spot(ours, theirs)``
  takes two spots of equal size (1–3 cards) and returns the points of one spot
  without the QUASH bonus, ``None`` where a tiebreaker decides.
- The cut: every seat cuts a card from a seeded shuffle; the highest rank
  deals first; seats tied for the highest cut again (the deck reshuffled)
  until one is highest. ``opening_events()`` names the sides, the cut cards
  and the first deal. The deal then passes to the next seat each round (it
  alternates with 2 players, goes clockwise with 4); the seat on the dealer's
  left plays first, then play goes clockwise (seat order), one card a turn.
- Dealing: every round shuffles all 52 cards (seeded) and deals one at a time
  from the dealer's left. Hands are kept sorted by rank, then suit (S H D C).
- Turns can't be passed. A spot's cards keep their slots: a card that
  displaces another takes its slot.
- Advanced play: a placement must leave the spot able to become a run:
  distinct ranks spanning no more than the spot's size (``10 J`` in a triple
  takes a 9 or a Q, never a 6; ``10 J`` is already a full double, and a 9
  can't replace its 10 while a Q can replace it). Single spots take anything.
  Availability of the missing cards is not considered. When a seat has no
  placement or chain that keeps a run possible, it may place any hand card on
  any open slot (a failed sequence; no swap then), and the event says so.
- Swap chains (see :mod:`games.quash.chains`) are played step by step: one
  action is one placement. While a card is in the air, ``to_act()`` stays the
  placing seat and ``legal_actions`` lists only that card's placements, then
  ``takeback`` (the whole chain back, the side as the turn began). A card
  moves at most once a turn (a card placed this turn can't be displaced), and
  nothing else limits a chain: it may pass through a spot again with another
  card. Only steps from which the chain can still end on an open slot are
  offered or accepted. Intermediate steps announce nothing (the public view's
  ``chain`` shows them); the landing announces the whole chain.
- Leftovers: once both sides are full, each side's remaining hand cards
  (both partners' with 4 players) form the side's leftover pool; both
  partners see their pool. The side's chooser plays its tiebreak cards:
  by default the side's first seat (seat 0 for RED, seat 1 for BLACK); with
  4 players the chooser can hand the choice to the partner (``chooser``), and
  the partner keeps it, across rounds, until handing it back.
- Tiebreakers are simultaneous: both choosers are in ``to_act`` and each plays
  ``tiebreak:<card>``; a laid card is hidden from the other side (views,
  events and ``hidden_cards``) until both are down, then one event reveals
  both. Equal ranks: both cards are gone and the tiebreaker is played again.
  A side with no leftover card left loses the spot to a side with one (+1);
  if neither has one, nobody wins the spot (no points). Used cards stay face
  up (``used``) until the round ends.
- Points: single spots and run-against-run spots give 1 to the winner; a run
  against a failed sequence gives 2 (the spot and the bonus); two failed
  sequences give 1 each and nobody wins the spot; a tiebreak win gives 1.
  A side that wins all three spots of a section (a tiebreak win counts, a
  both-failed spot does not) gets 2 more right after the section's third spot.
- The finish: checked after every award (a spot's points, then its QUASH
  bonus); the first side to reach it wins at once and the rest of the round is
  not scored. If both sides reach it with the same award (two failed
  sequences give 1 each), the match is a draw: ``Outcome.winners`` is empty
  and all seats share first place.
- ``Outcome``: ``winners`` are the winning side's seats, ``ranking`` the
  winners then the losers, ``scores[seat]`` the seat's side's track position,
  ``teams`` the two sides' seats (RED first), also with 2 players.
- A round always gives points unless every tied spot runs both sides out of
  leftover cards, so matches end; random play takes about 145 moves.

View keys (``state.view(seat)``; ``None`` for the public view): ``game,
players, viewer, advanced, finish, sides`` (``["RED", "BLACK"]``), ``teams``
(seats per side), ``seat_sides`` (side name per seat), ``sections``
(``[[1,2,3],[4,5,6],[7,8,9]]``), ``phase`` (``play``, ``tiebreak``, ``over``),
``round, dealer, turn`` (the placing seat, else null), ``chain`` (null, or the
open swap chain: ``{seat, side, steps`` (each ``{card, spot}``: the card
placed, displacing the next step's card), ``flying}`` (the card in the air,
displaced by the last step)), ``to_act, moves,
track`` (per side), ``round_points`` (this round's, per side), ``board`` (per
side, nine spots in order, each ``{spot, kind, cards`` (slot order),
``open, failed`` (null until full), ``scored, winner`` (side name, null for
nobody or unscored), ``points}``), ``pile_count, aside_count, hand_counts``
(per seat), ``leftover_counts`` (per side), ``used`` (revealed tiebreak cards
this round), ``chooser`` (per side, the seat choosing its tiebreak cards),
``scoring`` (null while placing, else ``{spot`` (being scored, null when none
waits), ``results`` (per scored spot ``{spot, winner, points, how`` (``rank,
top, suit, failed, both-failed, tiebreak, no-cards``), ``reveals`` (pairs
RED, BLACK), ``quash}``)``}``), ``tiebreak`` (null, or ``{spot, choosers,
waiting`` (seats still to choose), ``chosen`` (per side, bool: never which
card), ``reveals}``), ``last_round`` (null, or the previous round's ``{round,
dealer, points, spots}`` with each spot's winner, points, how and quash, no
cards), ``over, winner`` (``RED``, ``BLACK``, ``draw`` or null), ``outcome``.
A seat's view adds ``side``, ``hand`` (while placing: the seat's own hand,
sorted; from scoring on: the side's leftover pool), ``your_tiebreak_card``
(your side's face-down card, or null), ``free_placement`` (advanced: no
placement can keep a run possible), ``your_turn``, ``legal`` (every legal
action code) and ``swap_count`` (how many of them are swap steps).
``hidden_cards(seat)``: the pile and the set-aside cards, every other seat's
hand (the partner's too), the other side's leftovers and face-down tiebreak
card (both sides' for the public view).

Tests build positions with :meth:`QuashState.from_position`.
"""

from .actions import QuashAction
from .game import GAME
from .options import OPTIONS
from .rules import can_become_run, is_run, score_spot
from .scoring import SIDE_NAMES
from .state import QuashState

__all__ = [
    "GAME", "OPTIONS", "SIDE_NAMES", "QuashAction", "QuashState", "can_become_run", "is_run", "score_spot",
]
