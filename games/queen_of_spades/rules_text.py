"""Queen of Spades, the two-deck rummy with wild 2s.

Sources: RULINGS.md §5, the source rules (seed 002), and the engine's rulings
in ``games/queen_of_spades/__init__.py``.
"""

from __future__ import annotations

from ..cards import Card, parse_card
from ..i18n import say
from ..rules_text import HINTS_OPTION, START, TIMER_OPTION, GameRules, Section, playing_in_deckhand

# The worked example of the source, with suits added for display (suits don't change points).
EXAMPLE_LAID: tuple[tuple[str, ...], ...] = (("2C", "4H", "4S"), ("10S", "10H", "10D", "10C"), ("QS", "QH", "QD"))
EXAMPLE_HAND: tuple[str, ...] = ("2D", "3C", "6H", "10S", "JK", "AH", "AC")
EXAMPLE_SCORE = 70

OVERVIEW = say("""\
**Queen of Spades** is a rummy game for **2 to 8 players** with two or three decks and their jokers. On your turn you take a card, lay **sets** of three or more cards of a rank in front of you, and discard. Cards you lay score for you; cards still in your hand when the round ends count against you. The queen of spades alone is worth **100**, so you'll want to lay it, or at least not be caught holding it.

Rounds are played until someone reaches the target score (1000 by default).

Cards are written rank then suit: Q♠ is the queen of spades, 10♥ the ten of hearts, 🃏 a joker. With two or more decks there are **duplicates**: two Q♠ are two different cards with the same name.

The sections: decks and the deal, the cut, your turn, taking the discard pile, sets and wild 2s, ending a round, scoring (with a worked example), the match, table options, and playing in Deckhand.""")

SETUP = say("""\
- **Decks**: 52-card decks with **two jokers each**: **2 decks** (108 cards) for 2 to 6 players, **3 decks** (162 cards) for 7 or 8.
- **Dealer**: the first dealer is drawn at random (seeded, and announced); the deal then moves one seat on each round.
- Each player gets **13 cards**, one at a time starting with the player after the dealer, after the cut described in the next section. The next card is turned face up to start the **discard pile**; the rest is the face-down **draw pile**.
- The player **after the dealer** starts, and play goes round clockwise (seat order).""")

CUT = say("""\
Before dealing, the dealer **cuts** the deck, and a lucky cut scores.

- The deck is shuffled first. The dealer then names how many cards to cut, a number from 1 to the size of the deck, or chooses to deal without cutting.
- Nobody cuts exactly by hand, so the real cut lands **within ±4** cards of the number named: any of those nine counts is equally likely (seeded by Deckhand). Near either end of the deck only the counts that are a possible cut (1 card to the whole deck) remain, each equally likely: naming 2 lands on 1 to 6.
- **Perfect cut**: if the real cut is exactly **13 × players** (just enough for the deal) or **13 × players + 1** (the deal plus the first card of the discard pile), the dealer scores a **100** bonus.
- The deal uses the cut packet first; if it runs short, the dealer tops it up from the rest of the deck. Dealt this way the cut never changes which cards anyone gets: it only decides the bonus.
- If the dealer doesn't cut in time, Deckhand deals without a cut, and there is no bonus.

Example: with four players the perfect cuts are 52 and 53. Naming 53 gives a real cut between 49 and 57, so the bonus comes two times in nine.""")

TURN = say("""\
Every turn has three steps, in this order:

1. **Take one card**, one of:
   - the top card of the **draw pile**; or
   - the discard pile's card, **freely**, but only when it is the **only card** in the discard pile; or
   - when the discard pile holds more cards: its top card, but only by laying it **at once in a new natural set** (no wild 2) together with at least **two matching cards from your hand**. The rest of the discard pile then goes into your hand. See *Taking the discard pile*.
2. **Lay** new sets and **add** cards to your own sets, as many as you like, or none.
3. **Discard** exactly one card onto the discard pile. The discard ends your turn.

A laid card stays on the table: it is played, and scores for you at the end of the round. Everyone can see every laid set and the whole discard pile, bottom to top (each of its cards was seen when it was discarded); other hands and the draw pile stay hidden.""")

PILE = say("""\
Taking a discard pile of several cards can fill your hand, for better or worse:

- You must lay the top card straight away in a **new set** with **two or more matching cards from your hand**, with no wild 2 in it (a natural set). You choose how many: holding four queens, you may lay just two of them with the top queen. If you can't make such a set, you can't take the pile.
- The top card can't simply be added to a set you have already laid: you still need the two matching cards from your hand. Once the new set is down, though, it merges with your earlier set of the same rank (you keep one set per rank).
- The rest of the pile goes into your hand; then you carry on with your turn: lay more sets, add to your sets, and discard.
- When the discard pile is a single card, none of this applies: take it freely, no set needed.
- **No endless swapping**: after **10 turns** in a row in which nobody drew from the draw pile, a lone discard can no longer be taken: the next player must draw. This keeps a round from stalling with players taking each other's discards.

Example: you already have 5♠ 5♦ 5♣ laid, hold 5♥ 5♠ in your hand, and the top of a pile of several cards is 5♦. You may take it by laying 5♦ 5♥ 5♠ as a new set, which then merges with your first three fives into one set of six, and the rest of the pile goes into your hand. With only one 5 in hand you could not take it.""")

SETS = say("""\
- A **set** is three or more cards of the **same rank**; suits don't matter, and duplicates from another deck are fine (Q♠ Q♠ Q♥ is a set).
- **2s are wild** and stand for any rank, but a set may hold **at most one wild**. So two 2s and one other card make no set: 2♣ 2♦ 9♥ can't be laid, while 2♣ 9♥ 9♠ can.
- Three or more 2s together are a **natural set of 2s**, not wilds; 2s added to it later are natural too.
- **Jokers are not wild.** They only form sets of their own: 🃏 🃏 🃏. A set of jokers may take one wild 2, like any set (🃏 🃏 2♥).
- On your turn you may add a wild 2 to any of your sets that doesn't have one yet, and add cards of the right rank to your sets.
- You only ever lay and extend **your own** sets, never another player's.
- You keep **one set per rank** (jokers count as a rank): with a set of queens down, more queens go onto it rather than into a second set of queens. So each of your sets has at most one wild.
- Cards of one rank differ only by suit, and only Q♠ is worth more, so when you lay or add queens Deckhand always puts Q♠ down first: it scores 100 laid and costs 100 held. You can still discard Q♠ on purpose.""")

ENDING = say("""\
- **Going out**: discarding your **last card** ends the round at once, and you score a **100** bonus, unless the draw pile ran out on that same turn (next point). You must go out **with a discard**: you can't lay your last card and be left with nothing to discard, so always keep one card back.
- **Draw pile used up**: if the draw pile is empty once a turn's discard has been made, the round ends there, and **nobody** gets the going-out bonus, not even a player whose discard was their last card.
- Either way, everyone then scores the round, and every hand is shown.""")


def _cards(codes: tuple[str, ...]) -> tuple[Card, ...]:
    return tuple(parse_card(code) for code in codes)


SCORING = say("""\
**Card values**
- Q♠, the queen of spades: **100**
- 🃏 joker: **50**
- 2 (wild or not): **20**
- ace: **15**
- 10, J, Q, K (other queens): **10**
- 3 to 9: **5**

**Your round score** is the value of the cards you **laid**, **minus** the value of the cards still in your **hand**, plus your bonuses (perfect cut 100, going out 100). It can be negative.

**Worked example** (you are not the one who went out):
- Laid: {twos} (the 2 is wild) = 20 + 5 + 5 = 30; {tens} = 40; {queens} = 100 + 10 + 10 = 120. Laid total: **190**.
- In hand: {hand} = 20 + 5 + 5 + 10 + 50 + 15 + 15 = **120**.
- Round score: 190 − 120 = **+{score}**.""", twos=_cards(EXAMPLE_LAID[0]), tens=_cards(EXAMPLE_LAID[1]),
              queens=_cards(EXAMPLE_LAID[2]), hand=_cards(EXAMPLE_HAND), score=EXAMPLE_SCORE)


MATCH = say("""\
- Round scores add up into each player's **total**; the dealer moves on one seat each round.
- **Target score** (default **1000**): the match ends after the round in which a player's total reaches the target; the highest total wins (if several players reach it, the highest of them; equal totals share the win). Players often aim for 1000 to 2000.
- **Target 0** means an **endless** match: totals are kept round after round until the table is ended.
- **Rounds** (default **0** = no limit): the match also ends after that many rounds, and the highest total wins; equal totals share the win.
- Between rounds the scores are shown, with each player's laid cards, hand and bonuses, and the next round starts once everyone is ready.""")

OPTIONS = say("""\
Open a table with `{command}`. Every option is optional:

- `target:` the score that ends the match, 0 to 100000; default **1000**; **0** plays an endless match.
- `rounds:` end the match after this many rounds, 0 to 1000; default **0** (no limit).
{timer} It also limits the dealer's cut: a dealer who doesn't cut in time deals without one.
{hints}

Players: **2 to 8**, people and AI players together (2 decks for up to 6 players, 3 for 7 or 8).

Examples: `{command}` · `{command} target:2000` · `{command} target:0 rounds:5`""", command=START, timer=TIMER_OPTION, hints=HINTS_OPTION)

CONTROLS = say(
    "In Queen of Spades your hand offers only what the current step of your turn allows: first the ways to take a "
    "card, then the sets you can lay or extend, and the discards that end your turn."
)

RULES = GameRules(
    aliases=("queen of spades", "qos", "queen", "queen_of_spades", "queenofspades", "dame de pique"),
    sections=(
        Section("overview", say("At a glance"), OVERVIEW),
        Section("setup", say("Decks and the deal"), SETUP),
        Section("cut", say("The cut"), CUT),
        Section("turn", say("Your turn"), TURN),
        Section("discard-pile", say("Taking the discard pile"), PILE),
        Section("sets", say("Sets and wild 2s"), SETS),
        Section("ending", say("Ending a round"), ENDING),
        Section("scoring", say("Scoring"), SCORING),
        Section("winning", say("The match and winning"), MATCH),
        Section("options", say("Table options"), OPTIONS),
        playing_in_deckhand(say("2 to 8 players"), CONTROLS),
    ),
)
