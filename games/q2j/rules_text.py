"""Q Squared Joe (Q2J), the shedding game, with its variants and elimination matches.

Sources: RULINGS.md §1–2, the engine's rulings in ``games/q2j/__init__.py``,
docs/decisions.md, and the table options of ``cogs/q2j.py``.
"""

from __future__ import annotations

from ..i18n import say
from ..rules_text import HINTS_OPTION, START, TIMER_OPTION, GameRules, Section, playing_in_deckhand

OVERVIEW = say("""\
**Q Squared Joe** (Q2J for short) is a shedding game for **2 to 10 players** with one 52-card deck and no jokers. Everyone starts with five cards. On your turn you put one card on the discard pile, but only a card that is *stronger* than the one on top, by the Q2J concept. The first player to get rid of every card wins.

Deckhand plays five rule sets (the `variant` option) and two match modes:
- **Standard** (the default): the concept plus the **Q²** and **Joe** rules.
- **Classic**: the concept only, the original game for newcomers.
- **Face-up**: Standard with every hand on show.
- **Challenge**: two players; one starts with a single card, the other with five.
- **Countdown**: after emptying a hand you draw a smaller one (4, then 3, 2, 1).
- Match: a **single game**, or an **elimination match** played over several games.

Cards are written rank then suit: Q♥ is the queen of hearts, 10♠ the ten of spades, A♣ the ace of clubs.

Pages: ◀ ▶ turn them, the menu jumps to a section, and `/rules game:q2j section:` opens one directly. The sections: the concept, setup, your turn, Q² and the Joe rule, winning, the variants, elimination matches, table options, and playing in Deckhand.""")

CONCEPT = say("""\
Every game of the family (Q2J, War and NG) decides between two cards the same way. Only rank and suit matter; ranks count **A=1**, 2 to 10 at face value, **J=11, Q=12, K=13**. Go down this list; the first rule that applies decides:

1. **Same rank**: the two cards are equally strong, whatever their suits.
2. **An ace against a face card** (J, Q or K): the ace is stronger, whatever the suits and whichever card lies on the other.
3. **Same suit**: the *lower* rank is stronger.
4. **Different suits**: the *higher* rank is stronger.

A card may be played on the pile when it is stronger than the top card (or equal, with a penalty: see *Your turn*). Strength always works both ways: when one card is stronger than another, that other card is weaker than it. Suits have no order of their own.

**Examples** (the first card played on the second):
- 4♣ on J♣: **stronger**, same suit and lower rank.
- J♥ on 4♣: **stronger**, different suits and higher rank.
- A♠ on Q♣: **stronger**, an ace beats any face card.
- K♦ on A♥: **weaker**; the ace rule works in both directions, so a face card never goes on an ace.
- A♥ on K♥: **stronger**, by the ace rule (the same-suit rule agrees).
- 2♠ on 10♠: **stronger**, same suit and lower rank.
- 9♦ on 9♣: **equal**, same rank.
- 7♠ on 7♥: **equal**, same rank.
- A♣ on 5♦: **weaker**: different suits and the ace counts 1. The other way round, 5♦ on A♣ is **stronger**.
- 3♠ on A♠: **weaker**: same suit, and the ace is the lower rank. A♠ on 3♠ is **stronger**.
- 10♥ on J♥: **stronger**, same suit and lower rank.""")

SETUP = say("""\
- **Players**: 2 to 10 (Challenge: exactly 2). One 52-card deck without jokers, shuffled by Deckhand.
- **The deal**: five cards to each player, one at a time. Each player's **fifth card is dealt face up**, so everyone can see it.
- **Who starts**: the player whose face-up card has the highest **rank value** (K high, A low; suits and strength don't count here). If several players tie for highest, only they compare the **first** card they were dealt; if still tied, the second, and so on through their cards until one is highest. If all five cards tie, a coin toss (seeded by Deckhand) picks the starter. The table message tells everyone who starts and why.
- The face-up cards then go back into their owners' hands; outside Face-up, hands are private.
- The rest of the deck is the face-down **stock**. Its top card is turned over to start the **discard pile**.
- Play then goes round the table in seat order (the order people joined the lobby).

Example: Ana's face-up card is K♣, Ben's K♥ and Cat's 9♠. Ana and Ben tie on kings; their first dealt cards are 3♦ and 8♣, so Ben starts.""")

TURN = say("""\
On your turn, do exactly one of these:

- **Play a stronger card**: one card from your hand that is stronger than the top card of the discard pile. It becomes the new top card.
- **Play an equal card and take a penalty**: a card of the same rank as the top card may be played, but you then draw one card as a penalty, in the same move. So playing your last card this way doesn't empty your hand: you keep the penalty card. (A penalty card can always be found: at worst the card you played on is shuffled into a new stock.)
- **Draw one card** from the stock. Drawing is always allowed, even when you could play, and it ends your turn.
- **Q²**: play two queens at once (not in Classic). See *Q² and the Joe rule*.

The turn then passes to the next player.

**When the stock runs out.** Whenever a card must be drawn and the stock is empty, every card of the discard pile except its top card is shuffled (seeded) and turned face down as the new stock; the top card stays. While a Q² pair lies on top, both queens stay on the pile. If there is still nothing to draw, the draw is skipped, the turn passes, and the table is told.""")

QSQUARED = say("""\
*These two rules belong to Standard, Face-up, Challenge and Countdown. Classic has neither.*

**Q² (Q squared).** If you hold two queens, of any suits, you may play both at once as **one play**. A Q² ignores strength and never costs a penalty: it may be played on **any top card except a jack or another Q² pair**. A single queen on top is fine. Holding three or four queens, you choose which two to play.

**The Joe rule.** After a Q², the next player must either play a **jack** (a *Joe*) of any suit on the queens, or **draw one card**. Nothing else may be played on the queens, and the jack needs no strength check. Drawing passes the duty to the next player, and so on round the table.
- The **first jack** played ends the duty. The jack becomes the top card and normal play resumes with the player after the one who played it.
- If nobody plays a jack and the duty comes **all the way back** to the player who played the Q², that player may play **any single card** on the queens (no strength check, no penalty) or draw. If they draw, the duty goes round the table again.
- In an elimination match, if the Q² player has already emptied their hand (and is safe) when the duty comes back round, the **next player still in the game** gets that free choice instead.

Example: Ana plays Q♠ Q♦ on 5♥. Ben has no jack and draws; Cat plays J♣, which ends the duty, and Dan plays next on J♣ as usual. Had Cat and Dan drawn too, the turn would have come back to Ana, free to play any one card on the queens, or to draw and send the duty round again.

Playing a Q² with your last two cards empties your hand like any other play.""")

WINNING = say("""\
- **Single game** (the default): the first player to empty their hand wins, and the game ends. The others are ranked by how many cards they still had to shed (fewer is better; in Countdown the hands still to come count too).
- **Countdown**: emptying a hand isn't enough; only emptying the final **one-card** hand wins. See *The variants*.
- **Elimination match**: one player is knocked out per game until one is left. See *Elimination matches*.""")

VARIANTS = say("""\
**Standard** (default): everything in the sections before: the concept, the equal-strength penalty, Q² and the Joe rule.

**Classic**: the original, simpler game, good for newcomers: only the concept applies. Two queens can't be played together and there is no jack duty; queens and jacks are ordinary cards.

**Face-up**: Standard rules, but every hand is shown face up on the public table message for everyone to see. There is less luck and more planning: you know what everyone else can play.

**Challenge**: for exactly **two** players. One player is dealt a **single card**, the other the usual five; everything else plays exactly like Standard, which makes it hard work for the player with five. Who gets the single card is the `short_hand` option (default: random, seeded). That single card is its owner's face-up card, so if the two face-up cards tie on rank there is nothing more to compare and the coin decides who starts.

**Countdown**: made for longer games. A player who empties their hand at once draws a new hand **one card smaller**: after the first hand of 5 comes a hand of 4, then 3, then 2, then 1. The first player to empty their **one-card hand** wins. New hands are drawn from the stock, reshuffling the discard pile as usual when it runs out; if not enough cards can be drawn, the new hand holds what could be drawn, and a player left with no cards at all can only draw until they hold cards again. After drawing the new hand, the turn passes on as usual.""")

ELIMINATION = say("""\
Pick `match:Elimination match` to play a series of games in which one player drops out each time:

- A player who empties their hand is **safe** for the rest of that game and sits it out; the others play on without them.
- When only one player still holds cards, that player is **eliminated** from the match.
- All 52 cards are then gathered, shuffled and dealt again to the players still in the match, and the first-player rule picks who starts the new game.
- This repeats until one player is left, who **wins the match**. The final ranking is the winner, then the others in reverse order of elimination.

With the variants:
- **Countdown**: being safe means emptying the one-card hand; every new game starts again with hands of 5.
- **Challenge**: allowed; with only two players the first game settles the match, so it plays like a single Challenge game.
- **Classic** and **Face-up** work in elimination matches as in single games.
- Q² in an elimination match: see the note in *Q² and the Joe rule* on a Q² player who is already safe.""")

OPTIONS = say("""\
Open a table with `{command}`. Every option is optional; leave one out to get its default:

- `variant:` **Standard** (default), **Classic**, **Face-up**, **Challenge** or **Countdown**.
- `match:` **Single game** (default) or **Elimination match**.
- `short_hand:` Challenge only: who is dealt the single card: **Random** (default, seeded), **First seat (the host)** or **Second seat**. Choosing a seat with another variant is refused.
{timer}
{hints}

Players: 2 to 10, people and AI players together (Challenge: exactly 2).

Examples: `{command} variant:Classic` · `{command} variant:Countdown match:Elimination match timer:5` · `{command} variant:Challenge short_hand:First seat (the host)`""", command=START, timer=TIMER_OPTION, hints=HINTS_OPTION)

CONTROLS = say(
    "In Q2J your hand shows your playable cards as buttons; a card of equal strength is marked "
    "*(+1 penalty draw)*, a Q² pair appears as its own button, and **Draw a card** is always there."
)

RULES = GameRules(
    aliases=("q squared joe", "qsquaredjoe", "q2joe", "qsj"),
    sections=(
        Section("overview", say("At a glance"), OVERVIEW),
        Section("concept", say("The concept: which card is stronger"), CONCEPT),
        Section("setup", say("Setup and who starts"), SETUP),
        Section("turn", say("Your turn"), TURN),
        Section("q-squared", say("Q² and the Joe rule"), QSQUARED),
        Section("winning", say("Winning"), WINNING),
        Section("variants", say("The variants"), VARIANTS),
        Section("elimination", say("Elimination matches"), ELIMINATION),
        Section("options", say("Table options"), OPTIONS),
        playing_in_deckhand(say("2 to 10 players"), CONTROLS),
    ),
)
