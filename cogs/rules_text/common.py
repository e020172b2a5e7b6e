"""Text shared by several games' rules: the Q2J concept in brief, and how a Deckhand table works."""

from __future__ import annotations

from . import Section

CONCEPT_BRIEF = """\
Every battle is decided by the **Q2J concept**, the same rule that decides which card may be played on which in Q Squared Joe (`/rules game:q2j section:concept` has it in full). Ranks count A=1, 2–10, J=11, Q=12, K=13, and the first of these checks that applies decides:

1. **Same rank**: the cards are equally strong.
2. **Ace against a face card** (J, Q, K): the ace is stronger, whatever the suits and whoever attacks.
3. **Same suit**: the *lower* rank is stronger.
4. **Different suits**: the *higher* rank is stronger.

There is no order of suits, and strength works both ways: if your card is stronger than the target, the target is weaker than your card."""


def playing_in_deckhand(command: str, players: str, controls: str) -> Section:
    """The "Playing in Deckhand" section of a game started with ``command`` (e.g. ``/war start``)."""
    return Section("deckhand", "Playing in Deckhand", f"""\
**Opening a table.** `{command}` opens a lobby in the channel with **Join**, **Leave**, **Add AI**, **Remove AI**, **Start** and **Cancel**. Whoever ran the command is the host: only the host adds or removes AI players and starts the game ({players}). Seats follow the order people joined. A channel or thread holds one table at a time; a server can give every new table its own thread with `/settings threads:True`.

**The table.** When the game starts, the lobby message becomes the public table message. It is updated after every move with the board, whose turn it is and the latest events, and the player to act gets a short ping.

**Your hand.** The **🂠 My hand** button (or `/table hand`) answers privately, only to you, with your cards and **only your legal moves** as buttons and menus. It updates in place after you move; **Refresh** rebuilds it. A button from an earlier turn, or a double click, changes nothing: you just get your hand as it is now.
{controls}

**Timers.** Each table has a turn timer: the server's default (`/settings timer:`), otherwise 10 minutes; `timer:0` turns it off. Halfway through your turn you get a reminder; when time runs out an AI plays that turn for you, and after three timeouts in a row the AI keeps your seat (a move of your own resets the count).

**AI players and leaving.** AI players fill empty seats. `/table leave` hands your seat to an AI and the game goes on; when the last person leaves, the game ends as abandoned. `/table status` shows who is to play and the timer; `/table end` closes the table (the host, or anyone with Manage Server).""")
