"""QUASH, the board-and-cards game for 2 players or 2 teams.

Sources: RULINGS.md §6 and the source rules (seed 004), plus what the engine
(``games/quash``, still being written when this text was) had already decided:
the cut for the first deal, swap chains played one placement at a time, and
handing a team's tiebreak choice to the partner.
"""

from __future__ import annotations

from ..cards import Card, parse_card
from ..i18n import Text, say
from ..rules_text import HINTS_OPTION, START, TIMER_OPTION, GameRules, Section, Words, joined, playing_in_deckhand

SPOT_EXAMPLES: tuple[tuple[int, tuple[str, ...], tuple[str, ...], tuple[int, int] | None, Text], ...] = (
    (3, ("KD",), ("AC",), (0, 1), say("aces are high, so A♣ wins the spot: 1 point")),
    (6, ("9H",), ("9S",), None, say("equal ranks (suits don't count): tiebreaker")),
    (1, ("JH", "QH", "KH"), ("JS", "QD", "KS"), (1, 0), say("same ranks, and the same-suit run beats the mixed one: 1 point")),
    (4, ("2C", "3C", "4C"), ("3S", "4H", "5D"), (0, 1),
     say("3-4-5 has the higher top card and wins although it is mixed: 1 point")),
    (2, ("10H", "JS"), ("10C", "JD"), None, say("same ranks, both mixed: tiebreaker")),
    (5, ("KC", "AC"), ("QD", "KD"), (1, 0), say("K-A is the highest double there is: 1 point")),
    (7, ("8D", "9D", "10D"), ("8S", "9S", "2H"), (2, 0),
     say("a run against a failed sequence: the run wins the spot and a bonus point: 2 points")),
    (8, ("6C", "9H"), ("KD", "4D"), (1, 1), say("both failed: 1 point each, and nobody wins the spot")),
    (1, ("AS", "2H", "3D"), ("5C", "6C", "7H"), (0, 2), say("A-2-3 is no run (aces are only high), so it failed: 2 points")),
)
"""(spot, one side's cards, the other side's, points for each side or None for a tiebreaker, why)."""

OVERVIEW = say("""\
**QUASH** is a card-and-board game for **2 players**, or **4 players in two teams**. The two sides, **RED** and **BLACK**, each fill nine spots on their half of the board with single cards and short runs, aiming higher than the opposite spot. After each round every spot is scored against its opposite; points move your marker along a track, and the first side to reach the **finish** (30 by default) wins.

One 52-card deck, no jokers. **Aces are high.** Cards are written rank then suit: Q♥ is the queen of hearts, 10♠ the ten of spades.

The sections: the board and runs, setup, your turn, four players in teams, scoring, tiebreakers, spot examples, the track and winning, advanced play, table options, and playing in Deckhand.""")

BOARD = say("""\
Each side has nine spots, holding **18 cards** in all:
- **Triple spots 1, 4, 7**: three cards each, to make a run of three.
- **Double spots 2, 5, 8**: two cards each, to make a run of two.
- **Single spots 3, 6, 9**: one card each.

The spots form three **sections**: spots 1–3, 4–6 and 7–9, each with one triple, one double and one single.

**Runs.** Ranks go 2 3 4 5 6 7 8 9 10 J Q K A, and a run is cards of consecutive ranks, placed in any order, suits mixed or not. The ace is **only high**: Q K A is a run; A 2 and K A 2 are not. So doubles go from 2-3 up to K-A and triples from 2-3-4 up to Q-K-A. A run whose cards all share one suit is a **same-suit run** (J♥ Q♥ K♥).

**Failed sequence.** A double or triple spot whose cards are not a run. In normal play you may put any card on any open slot; a spot that can't become a run just has to be filled anyway, ideally with a card you don't need, or a low one you won't want for a tiebreaker.""")

SETUP = say("""\
- **First dealer**: every player cuts a card; the highest rank deals (aces high; players who tie for highest cut again). After that the deal passes to the next player every round: with two players it alternates.
- **Two players**: the first seat plays RED, the second BLACK. The dealer deals **13 cards** to each player; the other **26** form the face-down draw pile.
- **Four players**: two **teams**, RED (seats 1 and 3) against BLACK (seats 2 and 4); partners face each other. All 52 cards are dealt, **13 each**; there is no draw pile. See *Four players: teams*.
- Hands are private; every card placed on the board is face up.""")

TURN = say("""\
**Two players.** The **non-dealer plays first**, then turns alternate. On your turn, place **one** card from your hand face up on any **open slot** of your side, then **draw** one card from the pile while it lasts, so you hold 13 until the pile is gone. You can't pass.
- Once the pile is empty, keep placing from your hand. By then you can work out exactly which cards your opponent holds, from your own hand and the board.
- The round ends when **both sides are full** (18 cards each). Each player then has **8 cards** left in hand: keep them for **tiebreakers**.

**Four players.** Starting with the player on the **dealer's left** and going clockwise, each player places **one** card per turn on **their team's side**; nobody draws. The round ends when both sides are full, 9 cards from each player.

Placement is free in normal play: any card on any open slot (see *The board and runs* for failed sequences, and *Advanced play* for swaps).""")

FOUR_PLAYERS = say("""\
- Teams: RED is seats 1 and 3, BLACK seats 2 and 4, in the order people joined the table. In the lobby, **Switch side** swaps your seat with the player next to you in that order, which puts you on the other side. Partners share one side of the board and fill it together.
- **No table talk**: partners build their sequences without knowing each other's cards, and must not hint.
- At the end of the round each player has **4** cards left; each team **pools** its 8 for tiebreakers.
- The team's **first seat** chooses the team's tiebreak card, unless they hand that choice to their partner.
- Scoring, tiebreakers and the track work exactly as with two players; the team's side scores as one.""")

SCORING = say("""\
When the round is over, spots are scored **in order from 1 to 9**, each against the opposite side's spot of the same number:

- **Single spots**: the higher rank wins the spot and **1 point**. Equal ranks go to a **tiebreaker**; suits don't count.
- **Run against run**: the higher **top card** wins, **1 point**, whatever the suits. If both runs have the same ranks, a **same-suit run beats a mixed one**; if both are same-suit or both mixed, it goes to a tiebreaker.
- **Run against a failed sequence**: the run wins the spot, 1 point, plus **1 bonus point**: **2** in all.
- **Both failed**: **each side scores 1**, and **nobody wins the spot**.
- **QUASH**: a side that wins **all three spots of a section** scores **2 more** points, credited right after that section's third spot. A QUASH is worth at least 1 + 1 + 1 + 2 = **5** points.

Because points are added spot by spot, the order matters: see *The track and winning*.""")

TIEBREAKERS = say("""\
- Both sides **secretly choose** one of their leftover cards, then both are revealed. The **higher rank** wins the spot and **1 point**. Equal ranks: both choose again.
- Cards used in a tiebreaker are **gone** for the rest of the round.
- If one side has **no leftover cards** left, the other side wins the spot; if neither has any, nobody wins it.
- A round can need several tiebreakers. Since they can decide a QUASH, it can pay to lose one on purpose with a low card and keep your best for the next.""")


def _examples() -> Text:
    def cards(codes: tuple[str, ...]) -> tuple[Card, ...]:
        return tuple(parse_card(code) for code in codes)

    lines: list[Words] = [say("Each line is one spot: one side's cards against the other's → the result.")]
    for spot, ours, theirs, _, why in SPOT_EXAMPLES:
        lines.append(say("- Spot {spot}, {ours} against {theirs} → {why}.", spot=spot, ours=cards(ours),
                         theirs=cards(theirs), why=why))
    lines.append("")
    lines.append(say("A section: one side wins spots 4, 5 and 6. It scores 1 + 1 + 1 for the spots, then 2 for the "
                     "QUASH, 5 in all, and the 2 are added right after spot 6 is scored."))
    return joined(lines)


TRACK = say("""\
- Points move your marker along the track. The first side to reach the **finish** (30 by default) **wins at once**, even in the middle of scoring a round: the spots after that one are not scored.
- That is why scoring order matters. When you are behind near the end, put your strongest cards on the first spots (1, 2, 3), which score first, and your weaker ones on the last spots.
- If both sides reach the finish on the same spot (both sequences failed, 1 point each), the match is a **draw**.
- If nobody has reached the finish after spot 9, a new round is dealt by the next dealer.""")

ADVANCED = say("""\
Turn on `advanced:` for a harder game:

- **Deal**: with two players, **6 cards are set aside face down**, unseen by anyone (the dealer too), and the other 46 dealt **23 each**; there is no draw pile, and each player keeps 5 cards for tiebreakers. With four players, the usual four-player deal.
- **Swap chains**: instead of placing on an open slot, you may put a hand card on an **occupied** slot of your side. The card it displaces is then **in the air**, and you place it in turn: onto an open slot (your turn ends), or onto another occupied slot, displacing one more card, and so on. A chain may be as long as the board allows and may pass through a spot again with another card, but each card moves at most once a turn and never goes back to your hand. Only placements from which the chain can still end on an open slot are offered, and until it does you may **take the whole chain back** (your side as the turn began). Everyone sees the chain as it grows; the table announces it when it ends.
- **Keep runs possible**: in advanced play every card placed, swaps included, must leave its spot **able to become a run**. Single spots take anything.

Examples:
- A double spot holds J Q and you hold a K: put the K in place of the J (the spot is now Q K), and move the J to another spot.
- A triple spot holds 6♣ 7♦ 8♦ and you hold 9♦: swap out the 6♣ for the 9♦, making the same-suit run 7♦ 8♦ 9♦. The 6♣ must go where a run is still possible: not onto a triple spot holding 10 J, for example.
- A double spot holds 10 J: you may replace the 10 with a Q (J Q is a run) but not with a 9 (9 J can't become a run).""")

OPTIONS = say("""\
Open a table with `{command}`. Every option is optional:

- `finish:` the length of the track, the score that wins the match: 5 to 100, default **30**.
- `advanced:` **False** (default) or **True**: advanced play (see *Advanced play*).
{timer}
{hints}

Players: **2**, or **4** in two teams (seats 1 and 3 against 2 and 4, in the order people joined; **Switch side** in the lobby changes sides), people and AI players together.

Examples: `{command}` · `{command} finish:20` · `{command} advanced:True`""", command=START, timer=TIMER_OPTION, hints=HINTS_OPTION)

CONTROLS = say(
    "In QUASH your hand offers your cards and the open spots they can go to; in advanced play, swaps are chosen "
    "step by step. Tiebreak cards are chosen privately from your hand message when a tiebreaker comes up."
)

RULES = GameRules(
    aliases=("quash®",),
    sections=(
        Section("overview", say("At a glance"), OVERVIEW),
        Section("board", say("The board and runs"), BOARD),
        Section("setup", say("Setup and the deal"), SETUP),
        Section("turn", say("Your turn"), TURN),
        Section("teams", say("Four players: teams"), FOUR_PLAYERS),
        Section("scoring", say("Scoring a round"), SCORING),
        Section("tiebreakers", say("Tiebreakers"), TIEBREAKERS),
        Section("examples", say("Spot examples"), _examples()),
        Section("winning", say("The track and winning"), TRACK),
        Section("advanced", say("Advanced play"), ADVANCED),
        Section("options", say("Table options"), OPTIONS),
        playing_in_deckhand(say("2 or 4 players"), CONTROLS),
    ),
)
