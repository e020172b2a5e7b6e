"""Queen of Spades, the two-deck rummy with wild 2s (RULINGS.md §5), for 2–8 players.

``GAME`` is the registered game; ``QoSState`` a whole match in progress (every
round of it); ``QoSAction`` its moves. Rules helpers, accepting codes or cards:
``card_points(card) -> int`` and ``round_score(laid, hand) -> int`` (laid
value minus hand value, no bonuses; the source's example scores +70).

Options (``GAME.options``):

- ``target`` (default 1000, 0–100000): the match ends after the round in which a
  player reaches it; ``0`` = no target: the match goes on (the engine never
  ends it) until the table ends it or ``rounds`` is reached.
- ``rounds`` (default 0 = no limit, up to 1000): the match also ends after that
  many rounds. Either way the highest total wins; equal highest totals share the
  win (so ties at the target go to the higher total, then are shared).

Moves (:mod:`games.queen_of_spades.actions`; ``code()`` forms, every one ≤ 17
characters): ``cut:40`` / ``deal`` (the dealer, to start a round),
``take:draw`` / ``take:discard`` / ``take:pile,2``, ``lay:Q,3`` /
``lay:Q,2,w``, ``extend:Q,1`` / ``extend:Q,0,w``, ``discard:QS``, ``next``
(between rounds). ``str()`` reads e.g. ``lay 2 queens + a wild 2``.

A round: the dealer cuts (``cut:N``, N from 1 to the deck size) or deals without
a cut (``deal``; also what a timed-out cut becomes, ``GAME.on_timeout``). 13
cards each, from the seat after the dealer, then one card face up starts the
discard pile. Turns go clockwise (increasing seat numbers) from the seat after
the dealer; a turn is one take, any number of lays and extends, then exactly one
discard. After scoring, every seat sends ``next`` (simultaneously, any order;
``on_timeout`` and the AI send it too), then the next dealer (the seat after
the last one) cuts.

Rulings of this engine where the sources leave a gap:

- Decks: 2 decks with 2 jokers each (108 cards) for 2–6 players, 3 (162) for 7–8.
  The first dealer is a seeded draw (announced); the deal rotates one seat per round.
- The cut: the real cut is seeded, uniform over the numbers within ±4 of the
  aim that are a possible cut (1 … deck size): nine outcomes mid-deck, fewer
  near either end, each equally likely.
  The bonus (100, in the dealer's round score) needs exactly 13 × players or one
  more. The packet is the top of the deck and the dealer deals from it first,
  then tops up from the rest, so the cut never changes which cards are dealt:
  it only decides the bonus (the event says how the packet went). The deck is
  shuffled when the round is set up, before the cut.
- One set per rank: a player has at most one set of each rank (jokers are a
  rank); more cards of that rank are added to it (``extend``), so a player has
  at most one wild per rank. Sets are named by their rank, never by position.
- Sets: three or more cards of one rank with at most one wild 2 and at least two
  naturals (``lay:Q,1,w`` is refused: two cards; ``lay:Q,1,w,w`` is refused:
  two 2s and one card is no set). Three or more 2s are a natural set of 2s; 2s
  added to it are natural, never wild. Jokers are not wild: jokers form joker
  sets, which may take one wild 2. A wild can be added to any of your sets that
  has none (``extend:Q,0,w``). You only extend your own sets.
- Which copies: cards of a rank are laid in suit order ♠ ♥ ♦ ♣ and every 2 is
  worth the same, so a lay of queens always includes Q♠ first: laid it scores
  100 and held it costs 100, so keeping it back instead of another queen never
  pays. You can still discard Q♠ by name (``discard:QS``).
- Taking: ``take:discard`` only when the discard pile holds exactly one card
  (``take:pile`` then is not offered: take it and lay). With two or more, the
  top can only be taken by ``take:pile,N``: laid at once with N ≥ 2 natural cards
  of its rank from the hand (no wild; fewer is refused even if you have a set
  of that rank). You choose N (with four queens you may lay just two with the
  top). The rest of the pile goes into your hand. If you already have a set of
  that rank, the new natural set is merged into it (always, since one set per rank).
- A lay or extend must leave at least one card in hand (the turn ends with a
  discard). Discarding your last card goes out: +100, and the round ends at once.
- The draw pile empty after a turn's discard ends the round with no going-out
  bonus, even for a player whose discard emptied their hand (RULINGS §5: "No one
  is awarded the 100 bonus points for going out"). The draw pile is never empty
  at the start of a turn.
- Anti-stall (a ruling, RULINGS §5): taking the lone discard and discarding
  could go round forever without anyone drawing. After ``STALL_LIMIT`` (10)
  turns in a row without a draw from the draw pile, the lone discard can't be
  taken: the next player must draw (announced). Taking the pile lays at least three cards for good, so it
  can't repeat forever. Every round therefore ends: the draw pile shrinks at
  least once every 11 turns.
- Scoring: laid value minus hand value, plus 100 for going out and 100 for the
  dealer's perfect cut; totals may go negative. Every seat's hand is shown once
  the round is over.
- The match ends only right after a round's scoring; no ``next`` is needed
  then. ``Outcome``: ``winners`` the highest totals, ``ranking`` seats grouped
  by total, ``scores`` the totals.
- The discard pile is public in full, bottom to top: every card in it was seen
  face up when it was discarded, so the table shows it rather than testing
  memories. Laid sets are public; other hands and the draw pile are hidden.
- Timeouts (``GAME.on_timeout``): a dealer who doesn't cut in time deals without
  a cut (no bonus); a seat that doesn't acknowledge the scores is made ready;
  any other turn step is played by the AI.

View keys (``state.view(seat)``; ``None`` for the public view): ``game,
players, viewer, target, rounds, round`` (from 1), ``dealer, phase`` (``cut``,
``take``, ``lay`` — taken, may lay or extend —, ``discard`` — taken, can only
discard —, ``round_over``, ``match_over``), ``turn`` (the seat to act in
cut/take/lay/discard, else null), ``to_act, deck_size, cut_bonus_at``
(``[13 × players, 13 × players + 1]``), ``cut`` (null before the cut, else
``{dealer, aimed, landed, bonus}``, ``aimed``/``landed`` null when dealt without
a cut), ``draw_count`` (during the cut: the whole deck), ``discard_count,
discard_top, discard_pile`` (bottom → top), ``laid`` (per seat, in the order
laid: ``{rank, cards (naturals), wild (code or null), points}``; ranks ``A``,
``2`` … ``K``, ``joker``), ``laid_points, hand_counts, hands`` (every hand once
the round or match is over, else null), ``scores`` (match totals),
``known`` (per seat: the cards of its hand it took from the discard pile this round and
has not laid or discarded since), ``let_go`` (per seat: the ranks it discarded this round
and has not taken from the discard pile since), ``passed`` (per seat: the ranks of discard
pile tops it could have taken but drew instead, this round, and has not taken since),
``turns_without_draw, stall_limit, ready`` (between rounds: per seat, else
null), ``last_round`` (the latest round record or null), ``history`` (every
round record: ``{round, dealer, end ("out": the bonus was paid | "exhausted": the
draw pile ran out), out (the seat whose discard emptied their hand, or null),
cut ({aimed, landed, bonus} or null), rows}``, ``rows`` per seat ``{laid,
hand, out_bonus, cut_bonus, round, total}``; numbers only), ``over, outcome``;
a seat's view adds ``hand`` (sorted by rank then suit, jokers last),
``your_turn, legal`` (action codes).
``hidden_cards(seat)``: the draw pile (and set-aside cards of a hand-built
position), plus the other hands while a round is being played, except their
``known`` cards.

Tests build positions with :meth:`QoSState.from_position`.
"""

from .actions import STALL_LIMIT, QoSAction
from .game import GAME
from .options import OPTIONS
from .points import card_points, round_score
from .state import QoSState

__all__ = ["GAME", "OPTIONS", "QoSAction", "QoSState", "STALL_LIMIT", "card_points", "round_score"]
