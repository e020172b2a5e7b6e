"""How tournaments are run, in Deckhand's own words: ``/rules game:tournament``, beside the games' rules.

A rules text like a game's (:mod:`games.rules_text`), though a tournament is not a game: the
formats, the points, the tiebreaks with the worked example of :mod:`games.tournament` (whose
figures ``tests/test_tournament_standings.py`` checks), timers and drops.
"""

from __future__ import annotations

from ..i18n import say
from ..rules_text import GameRules, Section

ID = "tournament"
"""What ``/rules game:`` takes for these rules."""
NAME = say("Tournaments")

OVERVIEW = say("""\
A **tournament** plays many tables of one game in rounds, in one channel. Deckhand pairs the players, opens each table in its own thread, seats everyone and starts the games; a round ends when its last table does, and the next one is paired at once.

- **Create** (Manage Server): `/tournament create war` (a subcommand per game, with the game's own options, chosen once for every table), then the tournament's: `format:`, `swiss_rounds:`, `top:`, `table_size:`, `seeding:`, `starts:` (a time in UTC, shown to everyone in their own time zone), `check_in:`, `max_players:`, `timer:`, `round_minutes:`, `hints:` and `name:`.
- **Sign up** on the tournament message: **Join**, **Leave**, and while check-in is open, **Check in**. Whoever has not checked in when the tournament starts is left out.
- **Host**: the host (or anyone with Manage Server) gets private controls: start now, pause, cancel, add or remove a player, and pair the current round again while nobody has moved in it.
- **Follow**: the message shows the round, its tables (each a link to its thread), the standings, a knockout's bracket, and at the end the winner with the final standings. Each player is pinged once with their table. `/tournament show` shows any tournament of the server, `/tournament list` lists them. Finishing in the top three earns the **Tournament podium** badge.""")

FORMATS = say("""\
- **Swiss** (the default): everyone plays every round, against people on the same score as far as possible, never the same opponent twice while another pairing exists. With an odd number, the lowest ranked player who has not had a bye gets one: a win without a game. Nobody gets a second bye before everyone has had one. `swiss_rounds:` sets the rounds (default: enough to find a winner, about log2 of the players).
- **Knockout** (`format:` Knockout): each table's winner goes on. Seeds are paired 1 v 16, 8 v 9 and so on, by rating or at random (`seeding:`); when the field is not a power of two, the top seeds get byes in the first round. A table that ends without a result sends the better seed through.
- **Swiss, then a top cut**: `top:` 4 or 8 plays a knockout of the best 4 or 8 of the standings after the Swiss rounds, seeded by them.
- **Tables of three or more** (`table_size:`): Swiss tables are filled by standing, top down; the seats nobody can fill are AI players, who take a place but are nobody's opponent. In a knockout, the best of each table go on (`advance:`, default half).
- **Teams**: QUASH at four is played by teams of two, who join together and count as one entrant.""")

POINTS = say("""\
Each table gives **match points**. At a table of *n* seats (AI seats counted), place *p* earns (n − p) / (n − 1):
- at two seats, a **win is 1**, a **draw ½**, a loss 0;
- at four seats, places 1 to 4 earn 1, ⅔, ⅓ and 0.

Seats tied at a place share the mean of the places they cover: places 1, 2, 2 and 4 earn 1, ½, ½ and 0. A **bye** earns 1. A **late joiner** (added by the host) has 0 for each round they missed. A table ended early without a result earns 0 for everyone at it.

The standings are computed again from the stored results every time they are shown, so a restart or a round paired again never makes them drift.""")

TIEBREAKS = say("""\
Players level on points are ordered by, in turn:
1. **Buchholz** (Bh), lowest round cut: each round, the points of the person you met (at a bigger table, the mean of the people you met; a bye or a missed round counts 0). Your lowest round is left out.
2. **Sonneborn–Berger** (SB): each round, the points of the person you beat, or half those of the person you drew with (at a bigger table, the mean over the people you met of 1, ½ or 0 times their points, as you finished ahead, level or behind).
3. The game's own **margin**: your score against the others' (points, or cards), added up.
4. **Rating**, as it was when the tournament started.
5. A **lot** drawn from the tournament's seed, so two players are never level.""")

EXAMPLE = say("""\
Five play three Swiss rounds at two seats:
- round 1: Ana beats Dee, Ben and Eve draw, Cy has the bye;
- round 2: Ana beats Cy, Dee beats Ben, Eve has the bye;
- round 3: Ana and Eve draw, Cy beats Dee, Ben has the bye.

**Points**: Ana 2½, Cy 2, Eve 2, Ben 1½, Dee 1.

**Buchholz** takes each round's opponent's points (a bye 0) and cuts the lowest round. Ana met Dee 1, Cy 2 and Eve 2: 5 − 1 = 4. Cy had the bye, then met Ana 2½ and Dee 1: 3½ − 0 = 3½. Eve met Ben 1½, had the bye, met Ana 2½: 4 − 0 = 4. So **Eve is second** and Cy third.

**Sonneborn–Berger** adds a beaten opponent's points and half a drawn one's: Ana 1 + 2 + ½ × 2 = 4, Eve ½ × 1½ + ½ × 2½ = 2, Dee 1½ (she beat Ben), Ben ½ × 2 = 1, Cy 1.

**Standings**: 1. Ana, 2. Eve, 3. Cy, 4. Ben, 5. Dee.""")

TIMING = say("""\
- **Turn timers are always on**: the tournament's `timer:` (default: the server's, otherwise 10 minutes). When your time runs out the AI plays your turn; after **3** turns played for you in one tournament you are **dropped**: the AI finishes your game, your results stay in the standings (your opponents' tiebreaks count them), and you are not paired again. **Leave** while the tournament runs drops you too. The standings mark a dropped player "out"; in a knockout they forfeit, finishing behind everyone still in.
- `round_minutes:` limits a round: when it runs out, the AI plays every game still going to its end, so a round always ends.
- **Hints** are off at tournament tables unless the host turns them on (`hints:`). Tournament games are recorded and rated like any other, unless a table has an AI player or a hint was taken.""")

RULES = GameRules(sections=(
    Section("overview", say("Running a tournament"), OVERVIEW),
    Section("formats", say("Formats"), FORMATS),
    Section("points", say("Points"), POINTS),
    Section("tiebreaks", say("Tiebreaks"), TIEBREAKS),
    Section("example", say("A worked example"), EXAMPLE),
    Section("timing", say("Timers and drops"), TIMING),
), aliases=("tournaments", "tournoi", "tournois")).of_game(ID, NAME.source, "/tournament create")
"""The tournament's rules, as ``/rules`` and ``docs/rules.md`` show them."""
