"""War's AI: the ``normal`` player, why it plays a move (hints), and what ``hard`` needs.

``normal`` (:func:`choose`) is a heuristic that clearly beats uniform random play.

It scores every legal action and plays the best (the seeded rng breaks ties):

- an attack that wins (the attacker is stronger) comes first; among those it
  removes the biggest threat (an untapped card that beats many of its cards,
  then a tapped one that will beat them once recovered), and taps the
  attacker it needs least (the one that beats the fewest other targets);
- with no winning attack: recover a tapped card that beats some opponent card;
  draw while the field is small (at once when the ``field-empty`` rule would
  knock it out next turn); trade cards with an equal-strength attack when
  that removes a threat or it has more cards than the target's owner;
- an attack that is sure to lose is the last resort, with its least useful card.

It only reads what every player sees: fields, tapped marks, deck counts.

``hard`` (:data:`SEARCH`) searches over the hidden cards, every deck card (which deck
holds which card, and in what order). A position is worth the seat's cards (deck and
field; an untapped field card a little more, since it can attack) against the
strongest rival's.
"""

from __future__ import annotations

from typing import Any

from ..base import Action, SearchHooks, Slot
from ..cards import DECK
from ..concept import CMP, relation
from ..evaluation import margin_value
from ..i18n import Text, plural, say
from ..rng import Rng
from .actions import PARSED, Kind
from .state import WarState


def choose(state: WarState, seat: int, rng: Rng) -> Action:
    """A legal action for ``seat`` (which must be the seat to act)."""
    legal = state.legal_actions(seat)
    fields, tapped, decks = state.fields, state.tapped, state.decks
    mine = fields[seat]
    theirs = [t for s, f in enumerate(fields) if s != seat for t in f]
    cards = [len(f) + len(d) for f, d in zip(fields, decks)]
    owner = state.owner

    def beats(card: int, targets: list[int]) -> int:
        row = CMP[card]
        return sum(1 for t in targets if row[t] > 0)

    def threat(t: int) -> int:
        """How many of my cards ``t`` beats; twice as urgent when it can attack now."""
        return beats(t, mine) * (1 if tapped[t] else 2)

    # Can the opponents knock out my last field card next turn (field-empty rule)?
    in_danger = state.field_empty_loses and len(mine) == 1 and any(
        not tapped[t] and CMP[t][mine[0]] >= 0 for t in theirs
    )

    best: list[Action] = []
    best_score = float("-inf")
    for action in legal:
        kind, a, t = PARSED[action]
        if kind == Kind.ATTACK:
            result = CMP[a][t]
            if result > 0:
                score = 1000 + 10 * threat(t) - beats(a, theirs)
                if in_danger:
                    # Still in danger afterwards unless this removed every threat to my card.
                    score -= 600 * any(u != t and not tapped[u] and CMP[u][a] >= 0 for u in theirs)
            elif result == 0:
                ahead = cards[seat] > cards[owner[t]]
                score = 100 + 10 * threat(t) + (50 if ahead else 0) - 20 * beats(a, theirs)
                if len(mine) == 1 and state.field_empty_loses and not decks[seat]:
                    score -= 1000  # trading my last field card loses the game
            else:
                score = -1000 - 10 * beats(a, theirs) + sum(1 for u in theirs if not tapped[u] and CMP[u][a] > 0)
        elif kind == Kind.RECOVER:
            wins = beats(a, theirs)
            score = 300 + 20 * wins if wins else 50
        else:
            score = 600 if in_danger else (250 if len(mine) <= 2 else 150)
        if score > best_score:
            best, best_score = [action], score
        elif score == best_score:
            best.append(action)
    return best[0] if len(best) == 1 else best[rng.below(len(best))]


def reason(state: WarState, seat: int, action: Action) -> Text:
    """Why :func:`choose` plays ``action``, in one line (see :mod:`games.hints`)."""
    kind, card, target = PARSED[action]
    theirs = [t for s, f in enumerate(state.fields) if s != seat for t in f]
    if kind == Kind.ATTACK:
        result = CMP[card][target]
        why = relation(card, target)
        if result > 0:
            threat = sum(1 for mine in state.fields[seat] if CMP[target][mine] > 0)
            if threat:
                return plural("{why}, so {card} wins the attack on {target}, which beats {count} of your cards",
                              "{why}, so {card} wins the attack on {target}, which beats {count} of your cards",
                              threat, why=why, card=DECK[card], target=DECK[target])
            return say("{why}, so {card} wins the attack on {target}", why=why, card=DECK[card], target=DECK[target])
        if result == 0:
            return say("{why}: both cards go, a fair trade against {target}", why=why, target=DECK[target])
        return say("no attack can win now; this one costs your least useful card")
    if kind == Kind.RECOVER:
        wins = sum(1 for t in theirs if CMP[card][t] > 0)
        if wins:
            return plural("untapped, {card} can attack again: it beats {count} of your opponents' cards",
                          "untapped, {card} can attack again: it beats {count} of your opponents' cards",
                          wins, card=DECK[card])
        return say("nothing better to do: untapped, it can defend your field again")
    return say("no attack wins now, so grow your field with a new card")


def hidden_slots(snap: dict[str, Any], seat: int | None) -> list[Slot]:
    return [(deck, i) for deck in snap["decks"] for i in range(len(deck))]


def strength(state: WarState, seat: int) -> float:
    if not state.alive[seat]:
        return -100.0
    return len(state.decks[seat]) + 1.5 * len(state.fields[seat])


def evaluate(state: WarState, seat: int) -> float:
    others = [strength(state, s) for s in range(state.players) if s != seat and state.alive[s]]
    return margin_value(strength(state, seat), others, 4)


SEARCH = SearchHooks(hidden_slots=hidden_slots, evaluate=evaluate, budget=2000, rollout_moves=24)
