"""Q Squared Joe NG, the combat game for 2–4 players (RULINGS.md §4).

``GAME`` is the registered game; ``NGState`` a game in progress; ``NGAction``
its moves. Strength is the Q2J concept, :func:`games.q2j.compare` (its
precomputed table is shared, not re-implemented).

Option (``GAME.options``): ``faceup`` (bool, default false): every card is
public: hands, face-down field cards and the deck order.

The rules (RULINGS §4): one 52-card deck. Each player is dealt 5 cards in
hand, 5 face-down field cards (five stacks of one) and 1 face-up resource
card; the rest is the shared deck. A turn is exactly one of: draw, pick,
defend, sacrifice, attack (see :mod:`games.ng.actions` for the encoding).
``compare(attacker, target)``: stronger → the target is discarded and the
attacker goes on top of the attacker's resource pile; weaker → the attacker is
discarded and the target stays; equal → both are discarded. A player whose
field is empty is eliminated; last player standing wins. Anti-stall: 40 turns
in a row without a card reaching the discard pile end the game; the most field
cards wins (ties share the win).

Gaps the rulings leave open, decided here:

- Deal: one card at a time round the table from the top of the shuffled deck:
  5 hand cards each, then 5 field cards each (slot 1 first), then 1 resource
  card each. The first player is picked by a seeded draw and announced; play
  then goes on to the next seat still in play (seat numbers ascending, wrapping).
- Stacks: a field has five slots. A stack emptied by a sacrifice or an attack is
  gone for good: its slot stays empty (so slot numbers never shift), it can't
  be defended, attacked or refilled. "Field cards" means every card in every
  stack of that field, face down or up.
- Only a stack's bottom card can be face down (defence cards go on face up).
  It stays hidden from everyone, its owner included, until it is turned up by
  an attack (then it stays face up for good) or taken by a sacrifice (then only
  its new owner sees it; the table is told a face-down card was taken).
  A face-down card under defence cards stays hidden.
- Defend and attack may target any stack of any player still in play, own ones
  included; a resource pile attack may target one's own pile too; a hand attack
  only an opponent's hand. Eliminated players have nothing left to target.
- Hand positions: hand attacks name a position, never a card. Outside a face-up
  game the order of a hand is a secret uniform shuffle: the deal order of the
  shuffled deck; every card gained goes to a seeded random position; when a
  hand attack reveals a card that stays, that hand is reshuffled. So a position
  says nothing about the card there, even when a card's presence is known (it
  was picked or sacrificed in view). Views never show the order: a seat's own
  ``hand`` is shown sorted. In a face-up game hands are kept sorted and shown
  in that (position) order, so the attacker chooses the card.
- Elimination is checked right after the action that empties a field, the
  actor's own included (sacrificing or attacking one's own last field card);
  the eliminated hand (sorted) then the resource pile go to the discard pile,
  revealed. One action can empty at most one field, so a game never ends with
  nobody left.
- The discard pile is face up (views show its count and top card). When both
  cards of an equal attack are discarded, the attacker goes first and the
  target ends on top.
- Anti-stall: ``turns_since_discard`` counts finished turns in a row in which
  no card reached the discard pile (an elimination's discards count); the game
  ends right after the turn that makes it 40. The seats still in play with the
  most field cards win together; the outcome ranks the others by field cards,
  then the eliminated, last out first.
- A player still in play always has a legal move (a sacrifice at worst: the
  field is never empty), so turns never pass. Draw is refused when the deck is
  empty; nothing else changes when it runs out. A game always ends: every card
  can reach the discard pile only once and at most 39 turns pass between two
  discards.
- Events: a draw is announced as "drew a card" with the card told privately
  (named publicly in a face-up game). Picks are announced with the card: it
  was face up on the resource pile.
- ``Outcome.scores[s]`` is how many seats ``s`` finished above.

View keys (``state.view(seat)``; ``None`` for the public view):
``game, players, viewer, faceup, turn, to_act, status`` (per seat: playing/out,
at the end won/lost/out), ``fields`` (per seat five stacks, each a list bottom
→ top of codes, ``null`` for a face-down card, ``[]`` for a gone stack),
``face_down`` (per seat, per stack: its bottom is face down), ``field_counts,
resources`` (per seat, bottom → top, all face up), ``hand_counts, hands``
(every hand in position order in a face-up game, else null), ``deck_count,
deck`` (face up: codes, top last; else null), ``discard_count, discard_top,
turns_since_discard, stall_limit, eliminated, over, outcome``; a seat's view
adds ``hand`` (sorted outside a face-up game), ``your_turn, legal`` (action codes).
"""

from .actions import STALL_LIMIT, NGAction
from .game import GAME
from .options import OPTIONS
from .state import NGState

__all__ = ["GAME", "OPTIONS", "NGAction", "NGState", "STALL_LIMIT"]
