"""Every shipped game's feats (``games/<package>/feats.py``): each is earned in a game that earns
it and not in one that falls one short, the measure of which is checked too (lost 5 cards against
6, a hand of 7 against 6…). The games are uniformly random play from a seed (found once, by
search), or a built position where random play never gets there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import games
from games.base import Action
from games.cards import CODE
from games.feats import Feat, Played, feats_of
from games.quash import feats as quash_feats
from games.queen_of_spades import QoSState
from games.rng import Rng
from games.war import feats as war_feats


def random_game(game_id: str, players: int, options: dict[str, Any], seed: int) -> Played:
    """A game of uniformly random legal moves from the deal of ``seed``."""
    game = games.get_game(game_id)
    start = game.new_game(players, game.normalize_options(options, players), seed)
    return played_from(game, start, lambda state, seat, legal, rng: legal[rng.below(len(legal))], seed)


def played_from(game: games.Game, start: Any, choose: Callable[[Any, int, list[Action], Rng], Action],
                seed: int = 0) -> Played:
    """``start`` played to its end, each move chosen by ``choose(state, seat, legal, rng)``."""
    state, rng, log = game.from_json(start.to_json()), Rng(seed * 7 + 1), []
    while not state.is_over():
        seat = state.to_act()[0]
        action = choose(state, seat, state.legal_actions(seat), rng)
        state.apply(seat, action)
        log.append((seat, action))
    return Played(game, state.outcome(), log, lambda: start, lambda: state)


def feat(game_id: str, feat_id: str) -> Feat:
    return next(f for f in feats_of(games.get_game(game_id)) if f.id == feat_id)


def winner(played: Played) -> int:
    (seat,) = played.outcome.winners[:1] or (-1,)
    return seat


def war_lost(played: Played) -> int:
    seat = winner(played)
    return war_feats.cards_left(played.start, seat) - war_feats.cards_left(played.final, seat)


def aces_on_faces(played: Played) -> int:
    return sum(1 for a in played.moves_of(0) if a.kind == "attack" and str(a.args[0])[0] == "A"
               and str(a.args[1])[0] in "JQK")


def hand_attacks(played: Played) -> tuple[int, int]:
    """Seat 0's attacks on a hand, and how many of them won (the attacker went to its resource pile)."""
    tried = won = 0
    for step in played.replay():
        if step.seat == 0 and step.action.kind == "attack" and step.action.args[1] == "hand":
            pile = step.state.resources[0]
            tried, won = tried + 1, won + bool(pile and CODE[pile[-1]] == step.action.args[0])
    return tried, won


def fewest_spots_lost(played: Played) -> int:
    """The fewest spots a side won in a round scored to its end."""
    return min(min(sum(1 for w in winners if w == side) for side in (0, 1))
               for winners in played.summary(quash_feats.course).rounds)


def deficit(played: Played) -> int:
    side = winner(played) % 2
    return max(state.track[1 - side] - state.track[side] for state in played.states())


RANDOM_CASES = [
    # game, feat, players, options, (seed, measure) earning it, (seed, measure) one short, the measure
    ("q2j", "queens-exit", 2, {}, (65, 1), (6, 1), lambda p: sum(a.kind == "qq" for a in p.moves_of(winner(p)))),
    ("q2j", "underdog", 2, {"variant": "challenge"}, (0, 5), (1, 1), lambda p: len(p.start.hands[winner(p)])),
    ("q2j", "comeback", 2, {}, (0, 7), (3, 6), lambda p: max(len(s.hands[winner(p)]) for s in p.states())),
    ("war", "iron-wall", 4, {}, (269, 5), (609, 6), war_lost),
    ("war", "ace-over-face", 2, {}, (0, 3), (13, 2), aces_on_faces),
    ("war", "last-stand", 2, {}, (2, 1), (0, 2), lambda p: war_feats.cards_left(p.final, winner(p))),
    ("ng", "fortress", 2, {}, (7, 3), (4, 2), lambda p: sum(1 for st in p.final.fields[winner(p)] if st)),
    ("ng", "blind-strike", 2, {}, (1, (3, 2)), (0, (1, 0)), hand_attacks),
    ("ng", "hoarder", 2, {}, (265, 6), (33, 5), lambda p: len(p.final.resources[winner(p)])),
    ("queen-of-spades", "big-round", 2, {"rounds": 1}, (352, 400), (494, 395),
     lambda p: max(row["round"] for r in p.final.history for row in r["rows"])),
    ("queen-of-spades", "perfect-cut", 2, {"rounds": 1}, (8, 27), (18, 25),
     lambda p: p.final.history[0]["cut"]["landed"]),
    ("quash", "shutout", 2, {"finish": 12}, (3, 0), (0, 1), fewest_spots_lost),
    ("quash", "comeback", 2, {"finish": 20}, (86, 5), (493, 4), deficit),
    ("quash", "sudden-death", 2, {"finish": 12}, (198, "tiebreak"), (0, "rank"),
     lambda p: p.final.results[-1]["how"]),
]


@pytest.mark.parametrize(("game_id", "feat_id", "players", "options", "earns", "short", "measure"), RANDOM_CASES,
                         ids=[f"{case[0]}:{case[1]}" for case in RANDOM_CASES])
def test_a_feat_is_earned_by_a_game_that_earns_it_and_not_by_one_short(game_id, feat_id, players, options, earns,
                                                                       short, measure) -> None:
    judged = feat(game_id, feat_id)
    for (seed, expected), earned in ((earns, True), (short, False)):
        played = random_game(game_id, players, options, seed)
        assert measure(played) == expected, (seed, "the search's game changed: find a seed again")
        seats = [0] if measure in (aces_on_faces, hand_attacks) else range(players)  # measured for seat 0
        earners = {seat for seat in seats if judged.earned(played, seat)}
        assert bool(earners) is earned, (seed, earners)


def qos_turn(sets: list[list[str]]) -> Played:
    """A Queen of Spades round going out in one turn: seat 0 takes 5♠ from the draw pile, lays
    three 5s and three 7s and discards K♣, its last card, with ``sets`` laid earlier in the round."""
    game = games.get_game("queen-of-spades")
    start = QoSState.from_position([["5H", "5D", "7H", "7D", "7S", "KC"], ["9C", "9D", "4C", "6H", "8S"]],
                                   sets=[sets, []], draw=["3C", "10D", "5S"], options={"rounds": 1})

    def choose(state: QoSState, seat: int, legal: list[Action], rng: Rng) -> Action:
        for wanted in ("take:draw", "lay:5,3", "lay:7,3", "discard:KC"):
            match = [a for a in legal if a.code() == wanted]
            if match:
                return match[0]
        raise AssertionError(f"the built turn has no move among {[a.code() for a in legal]}")

    return played_from(game, start, choose)


def test_going_out_in_one_turn_needs_no_set_laid_before_it() -> None:
    out_in_one = feat("queen-of-spades", "out-in-one")
    earned, short = qos_turn([]), qos_turn([["9H", "9S", "9H"]])
    for played in (earned, short):
        assert played.final.history[0]["out"] == 0 and played.final.history[0]["end"] == "out"
    assert out_in_one.earned(earned, 0) and not out_in_one.earned(earned, 1)
    assert not out_in_one.earned(short, 0)


def test_every_game_declares_three_feats_one_of_them_secret_with_words() -> None:
    for game in games.all_games():
        found = feats_of(game)
        assert len(found) >= 3 and any(f.secret for f in found), game.id
        assert all(str(f.name) and str(f.description).endswith(".") for f in found), game.id


def test_a_feat_id_is_words_joined_by_dashes() -> None:
    with pytest.raises(ValueError, match="lower-case words"):
        Feat("Queens Exit", feat("q2j", "queens-exit").name, feat("q2j", "queens-exit").description,
             lambda played, seat: False)
