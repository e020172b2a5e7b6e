"""Q Squared Joe War, the combat game.

Sources: RULINGS.md §3 (the English and French rules), the engine's rulings in
``games/war/__init__.py``, docs/decisions.md, and ``cogs/war.py``.
"""

from __future__ import annotations

from ..i18n import say
from ..rules_text import CONCEPT_BRIEF, HINTS_OPTION, START, TIMER_OPTION, GameRules, Section, playing_in_deckhand

OVERVIEW = say("""\
**Q Squared Joe War** is a combat game for **2 to 4 players** built on the Q2J concept. It is not a shedding game: each player fights from a row of face-up cards, their **field**, fed from a face-down **deck**. Attack the cards in your opponents' fields, look after your own, and be the last player with cards left.

One 52-card deck, no jokers. Cards are written rank then suit: Q♥ is the queen of hearts, 10♠ the ten of spades.

The sections: the concept, setup, your turn, going out and winning, the fine print, table options, and playing in Deckhand. ◀ ▶ turn the pages; the menu jumps to a section.""")

CONCEPT = say("""\
{concept}

**Examples** (your attacking card against the target):
- 4♣ against J♣: **stronger**, the target is discarded.
- J♥ against 4♣: **stronger**.
- A♠ against K♣: **stronger**, an ace beats any face card.
- K♠ against A♠: **weaker**, only your K♠ is discarded.
- 6♦ against 9♥: **weaker**, different suits and lower rank.
- 8♦ against 8♠: **equal**, both cards are discarded.""", concept=CONCEPT_BRIEF)

SETUP = say("""\
- **Two players**: the shuffled deck is split **26 and 26**.
- **Three or four players** (the variant of the French rules): Deckhand picks a dealer at random and deals one card at a time from the dealer's left, as evenly as possible: **13 each** for four players; **18, 17 and 17** for three, the 18th card going to the player on the dealer's left.
- Your cards are your face-down **deck**. Everyone turns the top **five** cards of their deck face up in a row: that is your **field**, all five **untapped** (upright). A field never holds more than five cards.
- **Who starts**: with three players, the one who got the extra card. Otherwise compare the **first card each player turned up**, by rank value alone (K high, A low, suits ignored); tied players compare their second turned card, then the third, and so on; if all five tie, a coin toss (seeded) decides. The table says who starts and why.
- Turns then go round the table in seat order.""")

TURN = say("""\
On your turn do exactly one of these three things. You can't pass.

**Attack.** Tap (turn sideways) one of your **untapped** field cards and name any card in any opponent's field, **tapped or untapped**. The two are compared by the concept:
- your card is **stronger**: the target goes to the discard pile;
- your card is **weaker**: your card goes to the discard pile and the target stays. Attacking with a weaker card is allowed;
- **equal** strength: both cards go to the discard pile.
A winning attacker stays in your field, tapped. Tapped cards can be attacked but can't attack.

**Recover.** Untap one of your tapped cards.

**Draw.** Put the top card of your deck into your field, untapped. Only when your field holds **fewer than five** cards and your deck isn't empty; with five field cards you must attack or recover.

**No legal action?** Passing isn't allowed, but if you have nothing you may do (every field card untapped, no card in any opponent's field to attack, and a full field or an empty deck), your turn is skipped and the table is told. This can only happen with the default loss rule, when every opponent's field is empty but their decks are not.""")

WINNING = say("""\
- **Out.** With the default loss rule (`loss:` no-cards, from the English rules) a player is out once their field **and** their deck are both empty. With the other rule (`loss:` field-empty, from the French rules) a player is out **as soon as their field is empty**; any cards left in their deck stay there, out of play.
- Players only ever go out through an attack; an attacker can even knock itself out by losing its last card.
- The **last player with cards wins**.
- **Tie**: if the last players still in all lose their last cards in the same attack, the game is a tie and **nobody wins**. More generally, players knocked out by the same attack share their place; the others are ranked in reverse order of going out.""")

DETAILS = say("""\
Points the rules leave open, settled the same way at every Deckhand table:

- A drawn card takes the next place at the **end** of your field. When a card is discarded, the cards after it close up. A discarded card loses its tapped mark.
- Moves name cards, not places: "attack J♥ with 9♠" means those two cards wherever they lie, so an old button can never hit a different card.
- Everyone sees every field card; decks are face down and show only how many cards they hold.
- **No anti-stall rule is needed**: every attack discards at least one card and only a winning attacker gets tapped, so you can only recover after an attack. Whatever anyone plays, a game ends within about 150 moves.""")

OPTIONS = say("""\
Open a table with `{command}`. Every option is optional:

- `loss:` **Out when field and deck are empty** (default; the English rules) or **Out as soon as the field is empty** (the French rules).
{timer}
{hints}

Players: **2 to 4**, people and AI players together. More than four isn't offered.

Examples: `{command}` · `{command} loss:Out as soon as the field is empty timer:3`""", command=START, timer=TIMER_OPTION, hints=HINTS_OPTION)

CONTROLS = say(
    "In War, **Attack with…** lists your untapped cards; pick one, and every possible target appears as a button "
    "saying what will happen (\"J♥ (Ben) — 9♠ loses: only your card is discarded\"). **← Back** returns. "
    "Recover and **Draw to your field** are buttons."
)

RULES = GameRules(
    aliases=("q2j war", "q squared joe war", "q2j-war"),
    sections=(
        Section("overview", say("At a glance"), OVERVIEW),
        Section("concept", say("The concept: who wins a battle"), CONCEPT),
        Section("setup", say("Setup and who starts"), SETUP),
        Section("turn", say("Your turn: attack, recover or draw"), TURN),
        Section("winning", say("Going out and winning"), WINNING),
        Section("details", say("The fine print"), DETAILS),
        Section("options", say("Table options"), OPTIONS),
        playing_in_deckhand(say("2 to 4 players"), CONTROLS),
    ),
)
