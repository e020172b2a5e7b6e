"""Q Squared Joe War, the combat game (RULINGS.md §3), for 2–4 players.

``GAME`` is the registered game; ``WarState`` a game in progress;
``compare`` is the Q2J concept, the public one of :mod:`games.q2j` (War keeps no
copy of it: :data:`games.concept.CMP` is the table every attack reads).

Options (``GAME.options``):

- ``loss``: ``no-cards`` (default, the English source): a player is out when
  their field and deck are both empty; ``field-empty`` (the French source):
  out as soon as their field is empty (their deck cards stay dead in their deck).

Moves (:mod:`games.war.actions`), named by card codes, never by slots, so a
code means the same card whatever the slot order and a stale click can't hit
another card: ``attack:9S,JH`` (your untapped 9♠ attacks J♥, in whichever
opponent's field it lies), ``recover:9S`` (untap your 9♠), ``draw``. The longest
code, ``attack:10S,10H``, has 14 characters. ``str()``: ``attack J♥ with 9♠``,
``recover 9♠``, ``draw``.

Rulings of this engine where the sources leave a gap:

- Deal: the deck is shuffled (seeded), a seeded dealer is picked, and cards are
  dealt one at a time from the dealer's left. With 3 players the seat on the
  dealer's left gets the 18th card and moves first; 2 and 4 players split
  evenly (26 / 13 each). The deal's first card to a seat is the bottom of its
  deck. Each seat turns its top 5 cards face up in order: slot 0 is the first
  card turned.
- First player (even splits): the first turned cards (slot 0) by rank value,
  K high, A low; tied seats compare their second turned cards, and so on; a
  seeded coin decides if all five tie. ``opening_events()`` tells who starts
  and why (or that they were dealt the extra card).
- Slots: a drawn card takes the next free slot at the end of the field; a
  discarded card's slot closes up. A successful attacker stays in its slot, tapped.
- Any card in any opponent's field may be attacked, tapped or not; seats that
  are out have no field cards. Attacking with a weaker card is allowed (only
  the attacker is discarded). A discarded card loses its tapped mark.
- Going out happens only in attacks (a draw or recover never empties a field).
  An attacker can knock itself out with its last card. Seats knocked out by
  the same attack go out together and share a place.
- Tie: if the last seats with cards all go out in the same attack, the game is
  a tie: ``Outcome.winners`` is empty (no one wins, as the French source says)
  and those seats share first place in ``ranking``.
- Outcome: ``ranking`` is the winner (or the tied seats), then the rest in
  reverse order of going out; ``scores[s]`` is the number of cards ``s`` still
  has in play (field + deck; 0 once out).
- Forced pass: a seat still in with no legal action at all (every field card
  untapped, no opponent field card to attack, and a full field or an empty
  deck) is skipped inside ``apply`` with a ``pass`` event, so ``to_act()``
  never names a seat without a legal action. This can only happen under
  ``no-cards`` (every opponent has an empty field but cards in their deck).
  No deadlock is possible: a seat still in with an empty field has deck cards
  and can draw, so if every seat still in were stuck each would have field
  cards while every opponent's field is empty, which is impossible with two
  or more seats still in.
- Termination, no anti-stall rule needed: every attack discards at least one
  card (so at most 52 attacks), only a winning attacker gets tapped (so at most
  one recover per winning attack, plus one per card tapped in a hand-set
  position), and draws are limited by the decks (at most 52 - 5 × players). A
  game therefore ends within about 150 moves whatever anyone plays; endless
  recovering is impossible because recovering needs a tapped card and tapping
  needs an attack. No house anti-stall option exists.

View keys (``state.view(seat)``; ``None`` for the public view, which is the
same table: every field card is face up, deck order is hidden and decks show
as counts): ``game, players, viewer, loss, turn (seat to act, null when over),
to_act, moves (actions played), fields (per seat, slot order, each
{card, tapped}), deck_counts, card_counts (field + deck), discard_count,
discard_top (the latest 5 discards, newest first), status (per seat:
playing / out; once over won / tied / out), out_order (groups of seats, in the
order they went out), last_attack (null or {seat, attacker, target_seat,
target, compare (+1/0/-1 for the attacker), discarded (["target"],
["attacker"] or both), move}), over, outcome``; a seat's view adds
``hand`` (always ``[]``: War has no hand), ``your_turn`` and ``legal`` (action codes).
``hidden_cards(seat)`` is every deck card, for every viewer.

Tests build positions with :meth:`WarState.from_position`.
"""

from ..q2j import compare
from .actions import WarAction
from .game import GAME
from .options import OPTIONS
from .state import WarState

__all__ = ["GAME", "OPTIONS", "WarAction", "WarState", "compare"]
