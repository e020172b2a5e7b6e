"""Queen of Spades: what the table saw (``known`` cards, ranks ``let_go``), kept by the
engine as public data, and the hard AI's guesses of other hands, which read only that."""

from __future__ import annotations

from collections import Counter

import games
from games.ai import choose_action
from games.determinize import determinized_snapshot, game_hooks
from games.queen_of_spades import STALL_LIMIT, QoSState
from games.queen_of_spades.points import RANK_OF, TWO, card_id
from games.queen_of_spades.search import hand_exclusions, ruled_out
from games.rng import Rng
from games.search import search_values
from tests.contract import check_views
from tests.test_queen_of_spades_rules import play, pos


def _table() -> QoSState:
    """Seat 0 to take, with a pile of three under the 7♥; seat 1 holds 7♣ 7♦ and two 9s."""
    return pos(
        [["7S", "7D", "KH", "4C", "5D"], ["7C", "7D", "9S", "9H", "JK", "3C"]],
        draw=["6S", "6H", "8H", "10C", "AC"], discard=["QS", "2H", "7H"], turn=1, dealer=0,
    )


def test_cards_taken_from_the_discard_pile_are_known_to_every_viewer() -> None:
    state = _table()
    play(state, 1, "take:pile,2")
    views = [state.view(v) for v in (None, 0, 1)]
    assert all(v["known"] == [[], ["2H", "QS"]] for v in views)
    everywhere = Counter(c.code for c in state.zones()["draw"] + state.zones()["aside"] + state.zones()["hand:1"])
    assert Counter(c.code for c in state.hidden_cards(0)) == everywhere - Counter(["QS", "2H"])
    check_views(state)


def test_a_known_card_stops_being_known_once_laid_or_discarded() -> None:
    state = _table()
    play(state, 1, "take:pile,2", "lay:9,2,w", "discard:QS")
    assert state.view(0)["known"] == [[], []]
    assert state.view(0)["let_go"] == [[], ["Q"]]


def test_a_copy_laid_from_the_hand_uses_up_the_known_copy() -> None:
    """Two decks hold two 7♦: the table can't tell which one left, so it knows one fewer."""
    state = pos([["7S", "4C", "5D"], ["7D", "7C", "8C", "KH"]], draw=["6S", "6H"], discard=["7D"], turn=1)
    play(state, 1, "take:discard")
    assert state.known[1][card_id("7D")] == 1
    play(state, 1, "lay:7,3")
    assert state.view(0)["known"] == [[], []]


def test_a_rank_let_go_is_forgotten_when_taken_back_and_everything_at_the_next_deal() -> None:
    state = pos([["KS", "4C", "5D", "9D"], ["KH", "8C", "3D"]], draw=["6S", "6H", "5H", "8D"], turn=0)
    play(state, 0, "take:draw", "discard:4C")
    play(state, 1, "take:discard")
    assert state.view(0)["let_go"] == [["4"], []] and state.view(0)["known"] == [[], ["4C"]]
    play(state, 1, "discard:4C")
    play(state, 0, "take:discard", "discard:9D")
    assert state.view(1)["let_go"] == [["9"], ["4"]] and state.view(1)["known"] == [["4C"], []]
    state._start_round([])
    assert state.view(0)["known"] == [[], []] and state.view(0)["let_go"] == [[], []]


def test_the_table_rules_out_laid_ranks_missing_wilds_and_ranks_let_go() -> None:
    state = pos(
        [["4C", "5D", "9D"], ["8C", "3D", "JK"]],
        sets=[[], [["KS", "KH", "KD"], ["AS", "AH", "2C"]]], draw=["6S", "6H", "5H"], turn=0,
    )
    state.let_go[1][RANK_OF[card_id("5H")]] = True
    ranks = ruled_out(state.to_json(), 1)
    assert ranks == {RANK_OF[card_id("KS")], RANK_OF[card_id("AS")], TWO, RANK_OF[card_id("5H")]}


def _midgame(seed: int) -> tuple[QoSState, int]:
    """A two-player round played by ``normal`` until a seat has a choice hard searches
    while some card of the other hand is known and it has let a rank go."""
    game = games.get_game("queen-of-spades")
    state = game.new_game(2, {"rounds": 1}, seed)
    rng = Rng(seed)
    while state.to_act():
        seat = state.to_act()[0]
        if (any(state.known[1 - seat]) and any(state.let_go[1 - seat])
                and len(search_values(state, seat, Rng(0), 300)) > 1):
            return state, seat
        state.apply(seat, choose_action(state, seat, rng, "normal"))
    raise AssertionError("no position with known cards")


def test_guesses_keep_known_cards_and_keep_ruled_out_ranks_out_of_the_other_hand() -> None:
    state, seat = _midgame(4)
    other = 1 - seat
    hooks = game_hooks(state)
    banned = ruled_out(state.to_json(), other)
    known = Counter({c: n for c, n in enumerate(state.known[other]) if n})
    for s in range(20):
        guess = QoSState.from_json(determinized_snapshot(state, seat, Rng(s), hooks))
        assert guess.view(seat) == state.view(seat)
        hand = Counter(guess.hand_ids(other))
        assert hand & known == known
        assert not [c for c in (hand - known).elements() if RANK_OF[c] in banned]


def _twin(state: QoSState, seat: int, rng: Rng) -> QoSState:
    """The same table to ``seat``: its hidden cards moved around and another seed."""
    snap = state.to_json()
    slots = game_hooks(state).hidden_slots(snap, seat)
    cards = [holder[key] for holder, key in slots]
    rng.shuffle(cards)
    for (holder, key), card in zip(slots, cards):
        holder[key] = card
    snap["seed"], snap["rng"] = snap["seed"] + 1, rng.next64()
    return QoSState.from_json(snap)


def test_hard_reads_only_the_view_and_repeats_itself_with_what_the_table_saw() -> None:
    state, seat = _midgame(9)
    twin = _twin(state, seat, Rng(5))
    assert twin.view(seat) == state.view(seat) and twin.to_json() != state.to_json()
    for seed in range(3):
        mine = choose_action(state, seat, Rng(seed), "hard", budget=300)
        assert mine == choose_action(twin, seat, Rng(seed), "hard", budget=300)
        assert mine == choose_action(state, seat, Rng(seed), "hard", budget=300)


def test_a_rank_passed_is_remembered_only_when_the_top_could_be_taken() -> None:
    state = pos([["7S", "7D", "4C"], ["KH", "8C", "3D"]], draw=["6S", "6H", "5H", "8D"],
                discard=["QS", "9H"], turn=0)
    play(state, 0, "take:draw", "discard:4C")
    assert state.view(1)["passed"] == [["9"], []]
    state = pos([["7S", "4C"], ["KH", "8C"]], draw=["6S", "6H"], discard=["9H"], turn=0, stall=STALL_LIMIT)
    play(state, 0, "take:draw")
    assert state.view(1)["passed"] == [[], []], "the lone discard could not be taken"


def test_a_passed_rank_fits_one_slot_of_the_hand_or_none_if_one_is_known() -> None:
    state = pos([["4C", "5D", "9D"], ["8C", "3D", "JK", "KD"]], draw=["6S", "6H", "5H"], turn=0)
    nine, king = RANK_OF[card_id("9H")], RANK_OF[card_id("KD")]
    state.passed[1][nine] = state.passed[1][king] = True
    state.known[1][card_id("KD")] = 1
    rules = hand_exclusions(state.to_json(), 1, 3)
    assert [("9H" in banned, "KS" in banned, "8C" in banned) for banned in rules] == [
        (False, True, False), (True, True, False), (True, True, False)]


def test_hard_leaves_the_cut_to_normal() -> None:
    state = games.get_game("queen-of-spades").new_game(2, {}, 3)
    seat = state.to_act()[0]
    assert state.phase == "cut" and search_values(state, seat, Rng(0), 300) == []
