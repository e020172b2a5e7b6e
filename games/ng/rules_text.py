"""Q Squared Joe NG, the combat game of hands, stacks and resource piles.

Sources: RULINGS.md §4, the engine's rulings in ``games/ng/__init__.py``,
docs/decisions.md, and ``cogs/ng.py``.
"""

from __future__ import annotations

from ..i18n import say
from ..rules_text import CONCEPT_BRIEF, HINTS_OPTION, START, TIMER_OPTION, GameRules, Section, playing_in_deckhand

OVERVIEW = say("""\
**Q Squared Joe NG** ("New Game") is a combat game for **2 to 4 players** on the Q2J concept, with more choices than War. Each player has a **hand**, a **field** of five stacks and a **resource pile**, and each turn picks one of five actions: draw, pick, defend, sacrifice or attack. A player whose field is empty is eliminated; the **last player standing wins**.

One 52-card deck, no jokers. Cards are written rank then suit: Q♥ is the queen of hearts, 10♠ the ten of spades.

The sections: the concept, setup, fields and stacks, your turn, attacking, elimination and winning, table options, and playing in Deckhand. ◀ ▶ turn the pages; the menu jumps to a section.""")

CONCEPT = say("""\
{concept}

**Examples** (your attacking card against the target):
- 4♣ against J♣: **stronger**.
- J♥ against 4♣: **stronger**.
- A♦ against Q♠: **stronger**, an ace beats any face card.
- Q♠ against A♦: **weaker**.
- 3♥ against 10♣: **weaker**, different suits and lower rank.
- 5♣ against 5♥: **equal**.""", concept=CONCEPT_BRIEF)

SETUP = say("""\
Deckhand shuffles one deck and deals one card at a time round the table:
- **5 cards** to each player's **hand**, which only its owner sees;
- **5 face-down cards** to each player's **field**, as five **stacks** of one card, numbered 1 to 5;
- **1 face-up card** to each player's **resource pile**.

The remaining cards form the shared face-down **deck** everyone draws from (30 cards with two players, 19 with three, 8 with four). The discard pile is face up.

The first player is picked by a seeded random draw and announced; turns then go round in seat order, skipping eliminated players.""")

STACKS = say("""\
- Only the **bottom** card of a stack can be face down. Cards put on a stack by *Defend* lie on top, face up.
- A face-down card is hidden from **everyone, its owner included**. It is turned face up when it is attacked, and stays face up for good. If its owner sacrifices it while it is still face down, it goes to their hand unseen by the others (the table is told a face-down card was taken). A face-down card with defence cards on it stays hidden.
- Only the **top** card of a stack can be attacked or sacrificed.
- A stack that is emptied is **gone for good**: its place stays empty (so the other stacks keep their numbers), and it can't be defended, attacked or refilled.
- Your **field cards** are all the cards in all your stacks, face down or up. They count for elimination and for the anti-stall rule.""")

TURN = say("""\
On each turn do exactly **one** of these five actions. Passing isn't allowed.

1. **Draw**: take the top card of the shared deck into your hand. Not possible once the deck is empty.
2. **Pick**: take any card of **your own** resource pile into your hand.
3. **Defend**: put a card from your hand **face up on top of any stack**, your own or an opponent's (of a player still in the game).
4. **Sacrifice**: take the **top card of one of your own stacks** into your hand.
5. **Attack**: attack one target with a card from your hand; see *Attacking*.

You always have a move: while you are in the game your field isn't empty, so at least a sacrifice is possible. When the deck runs out, only drawing is lost; everything else goes on.""")

ATTACK = say("""\
Choose a card from your hand and **one target**:
- the **top card of any stack**, in your own field or an opponent's. A face-down card is turned face up to compare, and stays face up;
- a card in an **opponent's hand**, chosen **blind by its position** (card 1, card 2, …); it is revealed;
- the **top card of any resource pile**, your own included.

Your card is compared with the target by the concept:
- **stronger**: the target goes to the discard pile, and your card goes **on top of your resource pile**;
- **weaker**: your card goes to the discard pile and the target stays where it was;
- **equal**: both go to the discard pile (yours first, then the target on top).

Example: you attack an opponent's face-down stack with 4♣ and it turns out to be J♣. Same suit, lower rank: 4♣ is stronger, so J♣ is discarded and 4♣ lands on your resource pile. Had it been J♦, your 4♣ would have lost: 4♣ is discarded, and J♦ stays on the stack, now face up.

**Hand positions carry no information.** Outside a face-up game, hands are kept in a secret shuffled order: every card gained goes to a random position, and when a revealed card stays in a hand, that hand is shuffled again. So even if you saw a card go into a hand, its position tells you nothing. In a face-up game hands are shown in order, so you choose exactly which card to attack.""")

WINNING = say("""\
- **Elimination**: a player whose field is empty is out **at once**, right after the action that emptied it, even on their own turn (sacrificing their own last field card, or knocking it out with their own attack). Their hand and resource pile go face up to the discard pile. One action can empty at most one field.
- The **last player standing wins**; the others are ranked by how long they lasted.
- **Anti-stall**: if **40 turns** in a row pass without any card reaching the discard pile, the game ends. The players still in with the **most field cards** win together (a tie is a shared win); the others are ranked by field cards, then the eliminated players, last out first. The table warns when 10 or fewer such turns are left.
- A game always ends: a card can reach the discard pile only once, and at most 39 turns pass between two discards.""")

OPTIONS = say("""\
Open a table with `{command}`. Every option is optional:

- `faceup:` **False** (default) or **True**: every card is public: all hands (in position order), the face-down field cards, and the whole deck in order (shown top card last). The original rules call this the much more strategic way to play.
{timer}
{hints}

Players: **2 to 4**, people and AI players together. (The original rules allow more players with more decks; Deckhand plays NG with one deck.)

Examples: `{command}` · `{command} faceup:True timer:15`""", command=START, timer=TIMER_OPTION, hints=HINTS_OPTION)

CONTROLS = say(
    "In NG, **Attack with…** and **Defend with…** choose the card from your hand; then every target appears as a "
    "button (a blind hand target reads \"Ben's hand, card 3 (blind)\"). Draw, pick and sacrifice are direct buttons."
)

RULES = GameRules(
    aliases=("q2j ng", "q squared joe ng", "new game", "q2j-ng"),
    sections=(
        Section("overview", say("At a glance"), OVERVIEW),
        Section("concept", say("The concept: who wins a battle"), CONCEPT),
        Section("setup", say("Setup"), SETUP),
        Section("stacks", say("Fields and stacks"), STACKS),
        Section("turn", say("Your turn: five actions"), TURN),
        Section("attack", say("Attacking"), ATTACK),
        Section("winning", say("Elimination and winning"), WINNING),
        Section("options", say("Table options"), OPTIONS),
        playing_in_deckhand(say("2 to 4 players"), CONTROLS),
    ),
)
