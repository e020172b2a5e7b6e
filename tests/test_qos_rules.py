"""Queen of Spades: every ruling of RULINGS.md §5 (and the gaps decided in
games/queen_of_spades) as an exact case, mostly on hand-built positions
(``QoSState.from_position``)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import games
from games.base import Action
from games.cards import JOKER, deal, parse_card
from games.errors import GameError, GameFinished, IllegalAction, MalformedAction, NotYourTurn
from games.queen_of_spades import GAME, STALL_LIMIT, QoSAction, QoSState, card_points, round_score
from games.queen_of_spades.actions import PARSED
from games.queen_of_spades.ai import choose
from games.queen_of_spades.deal import deck_size, decks_for
from games.queen_of_spades.points import CODE, full_deck
from games.rng import Rng
from tests.contract import card_counts, check_views, codes_in


def act(code: str) -> Action:
    """An action as the Discord layer builds it from a custom_id."""
    return Action.from_code(code)


def pos(hands, **kw) -> QoSState:
    return QoSState.from_position(hands, **kw)


def play(state: QoSState, seat: int, *codes: str) -> list:
    events = []
    for code in codes:
        events += state.apply(seat, act(code))
    return events


def texts(events: list) -> list[str]:
    return [e.text for e in events if e.private_to is None]


def refused(state: QoSState, seat: int, code: str | Action, error: type = IllegalAction, match: str | None = None) -> str:
    """Apply expecting ``error`` (message matching ``match``); nothing may change."""
    action = act(code) if isinstance(code, str) else code
    before = state.to_json()
    with pytest.raises(error, match=match) as info:
        state.apply(seat, action)
    assert state.to_json() == before
    return str(info.value)


def legal(state: QoSState, seat: int) -> list[str]:
    return [a.code() for a in state.legal_actions(seat)]


def hand(state: QoSState, seat: int) -> list[str]:
    return state.view(seat)["hand"]


def laid(state: QoSState, seat: int) -> list[dict]:
    return state.view(None)["laid"][seat]


def finish_round(state: QoSState, seed: int = 0) -> None:
    """Let the AI play until the round (or match) is over."""
    rng = Rng(seed)
    steps = 0
    while state.phase not in ("round_over", "match_over"):
        seat = state.to_act()[0]
        state.apply(seat, choose(state, seat, rng))
        steps += 1
        assert steps < 5000


def acknowledge(state: QoSState) -> list:
    events = []
    for seat in list(state.to_act()):
        events += state.apply(seat, act("next"))
    return events


# ------------------------------------------------------------------ registration, points


def test_registration_and_options() -> None:
    game = games.get_game("queen-of-spades")
    assert game is GAME
    assert (game.id, game.name, game.allowed_player_counts()) == ("queen-of-spades", "Queen of Spades", tuple(range(2, 9)))
    assert game.normalize_options(None) == {"target": 1000, "rounds": 0}
    assert game.new_game(2, {"target": 0, "rounds": 5}, 0).options == {"target": 0, "rounds": 5}
    for bad in ({"target": -1}, {"target": "1000"}, {"target": True}, {"rounds": -2}, {"rounds": 1.5}):
        with pytest.raises(GameError, match=next(iter(bad))):
            game.new_game(2, bad, 0)
    for players in (1, 9):
        with pytest.raises(GameError, match="2–8 players"):
            game.new_game(players, {}, 0)


def test_card_points_per_rank_accepting_codes_and_cards() -> None:
    assert card_points("QS") == 100 and card_points(parse_card("qs")) == 100
    assert card_points("JK") == card_points(JOKER) == 50
    assert [card_points(f"2{s}") for s in "SHDC"] == [20] * 4
    assert card_points("AH") == 15
    assert [card_points(c) for c in ("10D", "JC", "QH", "QD", "QC", "KS")] == [10] * 6
    assert [card_points(f"{r}C") for r in range(3, 10)] == [5] * 7
    with pytest.raises(MalformedAction):
        card_points("1S")


def test_round_score_worked_example_from_the_source() -> None:
    laid = [["2C", "4H", "4D"], ["10S", "10H", "10D", "10C"], ["QS", "QH", "QD"]]
    hand = ["2D", "3S", "6H", "10H", "JK", "AS", "AC"]
    assert sum(card_points(c) for s in laid for c in s) == 190
    assert sum(card_points(c) for c in hand) == 120
    assert round_score(laid, hand) == 70
    assert round_score([[parse_card(c) for c in s] for s in laid], [parse_card(c) for c in hand]) == 70
    assert round_score([], ["QS"]) == -100  # may go negative
    assert round_score([["JK", "JK", "2S"]], []) == 120


# ------------------------------------------------------------------ decks, dealer, deal, cut


@pytest.mark.parametrize(("players", "decks"), [(2, 2), (6, 2), (7, 3), (8, 3)])
def test_two_decks_with_jokers_up_to_six_players_three_for_seven_and_eight(players: int, decks: int) -> None:
    state = GAME.new_game(players, {}, 1)
    counts = card_counts(state)
    assert sum(counts.values()) == deck_size(players) == 54 * decks and decks_for(players) == decks
    assert counts["JK"] == 2 * decks and counts["QS"] == decks and len(counts) == 53


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 4), (5, 9), (8, 2)])
def test_seeded_dealer_cuts_first_then_13_each_from_the_seat_after_the_dealer(players: int, seed: int) -> None:
    rng = Rng(seed)
    dealer = rng.below(players)
    deck = full_deck(decks_for(players))
    rng.shuffle(deck)
    state = GAME.new_game(players, {}, seed)
    view = state.view(None)
    assert (view["phase"], view["round"], view["dealer"], view["turn"], view["to_act"]) == ("cut", 1, dealer, dealer, [dealer])
    assert legal(state, dealer) == ["deal"] + [f"cut:{n}" for n in range(1, deck_size(players) + 1)]
    assert all(legal(state, s) == [] for s in range(players) if s != dealer)
    assert f"Round 1: {{p{dealer}}} deals" in texts(state.opening_events())[1]

    stock = list(deck)
    dealt = deal(stock, players, 13)
    face_up = stock.pop()
    events = state.apply(dealer, act("deal"))
    for i in range(players):
        assert state.hand_ids((dealer + 1 + i) % players) == sorted(dealt[i])
    assert state.discard == [face_up] and state.draw == stock
    first = (dealer + 1) % players
    assert state.to_act() == [first] and state.view(None)["phase"] == "take"
    assert texts(events) == [
        f"{{p{dealer}}} dealt without cutting: no cut bonus this round.",
        f"Dealt 13 cards each. {parse_card(CODE[face_up]).pretty} starts the discard pile; the draw pile holds "
        f"{len(stock)} cards. {{p{first}}} plays first.",
    ]
    assert state.cut == {"aimed": None, "landed": None, "bonus": False}


def test_the_cut_lands_within_4_uniformly_seeded_and_never_changes_the_deal() -> None:
    offsets = Counter()
    for seed in range(300):
        state = GAME.new_game(3, {}, seed)
        twin = GAME.new_game(3, {}, seed)
        dealer = state.dealer
        rng = Rng(seed)
        rng.below(3)
        rng.shuffle(full_deck(2))
        expected = 40 + rng.below(9) - 4
        state.apply(dealer, act("cut:40"))
        twin.apply(dealer, act("deal"))
        landed = state.cut["landed"]
        assert landed == expected and 36 <= landed <= 44
        offsets[landed - 40] += 1
        # The cut only decides the bonus: the same cards are dealt either way.
        assert [state.hand_ids(s) for s in range(3)] == [twin.hand_ids(s) for s in range(3)]
        assert state.discard == twin.discard and state.draw == twin.draw
        # Deterministic per seed.
        again = GAME.new_game(3, {}, seed)
        again.apply(dealer, act("cut:40"))
        assert again.cut == state.cut
    assert set(offsets) == set(range(-4, 5))
    assert min(offsets.values()) > 300 / 9 * 0.5


def test_cut_clamps_to_the_deck_and_refuses_impossible_cuts() -> None:
    seen_low, seen_high = set(), set()
    for seed in range(200):
        low = GAME.new_game(2, {}, seed)
        low.apply(low.dealer, act("cut:1"))
        seen_low.add(low.cut["landed"])
        high = GAME.new_game(2, {}, seed)
        high.apply(high.dealer, act("cut:108"))
        seen_high.add(high.cut["landed"])
    assert seen_low == {1, 2, 3, 4, 5} and seen_high == {104, 105, 106, 107, 108}
    state = GAME.new_game(2, {}, 0)
    assert "from 1 to 108" in refused(state, state.dealer, "cut:0")
    assert "from 1 to 108" in refused(state, state.dealer, "cut:109")
    assert "dealer's cut" in refused(state, state.dealer, "take:draw")
    assert refused(state, 1 - state.dealer, "deal", NotYourTurn)


def _cut_landing(players: int, aim: int, wanted: int) -> QoSState:
    """A new game whose dealer's cut at ``aim`` lands on ``wanted``."""
    for seed in range(500):
        state = GAME.new_game(players, {"rounds": 1}, seed)
        state.apply(state.dealer, act(f"cut:{aim}"))
        if state.cut["landed"] == wanted:
            return state
    raise AssertionError("no seed found")


@pytest.mark.parametrize(("players", "landed", "bonus"), [
    (2, 26, True), (2, 27, True), (2, 25, False), (2, 28, False), (4, 52, True), (4, 53, True), (4, 54, False),
])
def test_cut_bonus_for_13_per_player_or_one_more(players: int, landed: int, bonus: bool) -> None:
    state = _cut_landing(players, 13 * players, landed)
    dealer = state.dealer
    assert state.cut == {"aimed": 13 * players, "landed": landed, "bonus": bonus}
    assert state.view(None)["cut"] == {"dealer": dealer, "aimed": 13 * players, "landed": landed, "bonus": bonus}
    finish_round(state)
    rows = state.history[-1]["rows"]
    for s, row in enumerate(rows):
        assert row["cut_bonus"] == (100 if bonus and s == dealer else 0)
        assert row["round"] == row["laid"] - row["hand"] + row["out_bonus"] + row["cut_bonus"]
    assert state.history[-1]["cut"] == {"aimed": 13 * players, "landed": landed, "bonus": bonus}


def test_cut_events_say_how_the_packet_went() -> None:
    def cut_text(landed: int) -> str:
        for seed in range(500):
            state = GAME.new_game(2, {}, seed)
            events = state.apply(state.dealer, act("cut:26"))
            if state.cut["landed"] == landed:
                return texts(events)[0].replace(f"{{p{state.dealer}}}", "D")
        raise AssertionError

    assert cut_text(24) == ("D aimed to cut 26 and cut 24 cards — 26 or 27 needed: no bonus. The packet ran out "
                            "after 24 cards; the deal was finished from the rest of the deck.")
    assert cut_text(26).endswith("+100 cut bonus! The packet dealt exactly 13 each; the face-up card came from the rest of the deck.")
    assert cut_text(27).endswith("+100 cut bonus! The packet dealt exactly 13 each and the face-up card.")
    assert cut_text(30).endswith("no bonus. 3 packet cards were left over, on top of the draw pile.")


def test_no_cut_in_time_deals_without_a_cut_and_no_bonus() -> None:
    state = GAME.new_game(3, {"target": 0}, 5)
    action = GAME.on_timeout(state, state.dealer)
    assert action == act("deal")
    state.apply(state.dealer, action)
    assert state.cut == {"aimed": None, "landed": None, "bonus": False}
    # Other timed-out steps: the AI's legal move; between rounds: next.
    seat = state.to_act()[0]
    assert GAME.on_timeout(state, seat) in state.legal_actions(seat)
    finish_round(state)
    assert state.history[-1]["rows"][state.dealer]["cut_bonus"] == 0
    assert [GAME.on_timeout(state, s) for s in range(3)] == [act("next")] * 3


def test_dealer_rotates_and_the_seat_after_the_dealer_starts() -> None:
    state = GAME.new_game(3, {"target": 0, "rounds": 4}, 11)
    dealers, starters = [], []
    rng = Rng(1)
    while not state.is_over():
        if state.phase == "cut":
            dealers.append(state.dealer)
            state.apply(state.dealer, act("deal"))
            starters.append(state.turn)
        seat = state.to_act()[0]
        state.apply(seat, choose(state, seat, rng))
    first = dealers[0]
    assert dealers == [(first + i) % 3 for i in range(4)]
    assert starters == [(d + 1) % 3 for d in dealers]
    assert [r["dealer"] for r in state.history] == dealers


# ------------------------------------------------------------------ taking


def test_take_draw_gives_the_top_card_privately() -> None:
    state = pos([["5C", "9D"], ["KH"]], draw=["3C", "QS"], discard=["7H"])
    events = play(state, 0, "take:draw")
    assert hand(state, 0) == ["5C", "9D", "QS"] and state.draw == [state.draw[0]] and len(state.draw) == 1
    assert texts(events) == ["{p0} drew from the draw pile (1 card left)."]
    private = [e for e in events if e.private_to is not None]
    assert [(e.text, e.private_to) for e in private] == [("{p0} drew Q♠.", 0)]
    assert state.view(None)["phase"] == "discard"  # nothing to lay


def test_lone_discard_is_taken_freely_but_not_from_a_bigger_pile() -> None:
    state = pos([["5C", "9D"], ["KH"]], discard=["7H"])
    assert legal(state, 0) == ["take:draw", "take:discard"]
    assert texts(play(state, 0, "take:discard")) == ["{p0} took the lone discard, 7♥."]
    assert hand(state, 0) == ["5C", "7H", "9D"] and state.discard == []

    state = pos([["5C", "9D"], ["KH"]], discard=["7H", "7S"])
    assert legal(state, 0) == ["take:draw"]
    assert "holds 2 cards" in refused(state, 0, "take:discard")
    assert "take it freely" in refused(pos([["7C", "7D", "4H"], ["KH"]], discard=["7H"]), 0, "take:pile,2")


def test_pile_pickup_needs_a_natural_pair_of_the_top_from_hand() -> None:
    state = pos([["QH", "2C", "5D"], ["KH"]], discard=["3C", "8D", "QD"])
    assert legal(state, 0) == ["take:draw"]  # one queen and a 2 is not a natural pair
    assert "at least two queens" in refused(state, 0, "take:pile,1")
    assert "not 2" in refused(state, 0, "take:pile,2")
    assert "natural set: no wild" in refused(state, 0, Action("take", ("pile", 1, "w")))


def test_pile_pickup_lays_the_new_set_and_takes_the_rest() -> None:
    state = pos([["QS", "QH", "QC", "QC", "5D"], ["KH"]], discard=["3C", "8D", "QD"])
    assert legal(state, 0) == ["take:draw", "take:pile,2", "take:pile,3", "take:pile,4"]
    events = play(state, 0, "take:pile,2")  # keep two queens back if you like
    assert texts(events) == ["{p0} took the discard pile: laid its top Q♦ with Q♠ Q♥ as a new set of queens, "
                             "and took the other 2 cards into their hand: 3♣ 8♦."]
    assert laid(state, 0) == [{"rank": "Q", "cards": ["QS", "QH", "QD"], "wild": None, "points": 120}]
    assert hand(state, 0) == ["3C", "5D", "8D", "QC", "QC"] and state.discard == []
    assert state.stall == 1 and state.view(None)["phase"] == "lay"


def test_pile_top_cannot_just_extend_an_old_set_but_the_new_set_merges() -> None:
    sets = [[["5S", "5H", "5D"]], []]
    state = pos([["5C", "9D", "KS"], ["KH"]], sets=sets, discard=["3C", "5H"])
    assert legal(state, 0) == ["take:draw"]
    assert "can't just extend your 5s" in refused(state, 0, "take:pile,1")

    state = pos([["5C", "5C", "9D"], ["KH"]], sets=sets, discard=["3C", "5H"])
    events = play(state, 0, "take:pile,2")
    assert "merged into their 5s (now 6 cards)" in texts(events)[0]
    assert laid(state, 0) == [{"rank": "5", "cards": ["5S", "5H", "5H", "5D", "5C", "5C"], "wild": None, "points": 30}]
    assert hand(state, 0) == ["3C", "9D"]


def test_pile_pickup_of_2s_and_of_jokers_makes_natural_sets() -> None:
    state = pos([["2C", "2D", "9D"], ["KH"]], discard=["3C", "2H"])
    play(state, 0, "take:pile,2")
    assert laid(state, 0) == [{"rank": "2", "cards": ["2H", "2D", "2C"], "wild": None, "points": 60}]
    state = pos([["JK", "JK", "9D"], ["KH"]], discard=["3C", "JK"])
    play(state, 0, "take:pile,2")
    assert laid(state, 0) == [{"rank": "joker", "cards": ["JK", "JK", "JK"], "wild": None, "points": 150}]


# ------------------------------------------------------------------ sets


def lay_pos(cards: list[str], sets=None, other_sets=None) -> QoSState:
    """Seat 0 has taken and may lay; seat 1 holds KH."""
    return pos([cards, ["KH"]], sets=[sets or [], other_sets or []], phase="lay", discard=["4C"])


def test_natural_sets_of_three_or_more_q_spades_first() -> None:
    state = lay_pos(["QC", "QH", "QS", "QD", "5C"])
    assert "lay:Q,3" in legal(state, 0) and "lay:Q,4" in legal(state, 0)
    events = play(state, 0, "lay:Q,3")
    assert texts(events) == ["{p0} laid a set of queens: Q♠ Q♥ Q♦."]
    assert hand(state, 0) == ["5C", "QC"]
    assert laid(state, 0)[0]["points"] == 120


def test_at_most_one_wild_per_set_and_two_2s_with_one_card_is_no_set() -> None:
    state = lay_pos(["QH", "QD", "2C", "2H", "5S"])
    assert [c for c in legal(state, 0) if c.startswith(("lay", "extend"))] == ["lay:Q,2,w"]
    assert "two 2s with 1 queen is no set" in refused(state, 0, Action("lay", ("Q", 1, "w", "w")))
    assert "at least three cards" in refused(state, 0, "lay:Q,1,w")
    assert "two 2s with 2 queens" in refused(state, 0, Action("lay", ("Q", 2, "w", "w")))
    assert "at least three cards" in refused(state, 0, "lay:Q,2")
    play(state, 0, "lay:Q,2,w")
    assert laid(state, 0) == [{"rank": "Q", "cards": ["QH", "QD"], "wild": "2H", "points": 40}]
    assert "already have a wild 2" in refused(state, 0, "extend:Q,0,w")


def test_three_or_more_2s_are_a_natural_set_of_2s() -> None:
    state = lay_pos(["2S", "2H", "2D", "2C", "9C"])
    assert [c for c in legal(state, 0) if c.startswith("lay")] == ["lay:2,3", "lay:2,4"]
    assert "2s in a set of 2s are natural" in refused(state, 0, "lay:2,2,w")
    play(state, 0, "lay:2,3")
    assert laid(state, 0) == [{"rank": "2", "cards": ["2S", "2H", "2D"], "wild": None, "points": 60}]
    assert [c for c in legal(state, 0) if c.startswith("extend")] == ["extend:2,1"]
    assert "natural" in refused(state, 0, "extend:2,0,w")


def test_jokers_are_not_wild_but_form_joker_sets_with_at_most_one_wild() -> None:
    state = lay_pos(["QH", "QD", "JK", "JK", "2C", "9C"])
    moves = legal(state, 0)
    assert "lay:Q,2" not in moves and not any(m.startswith("lay:Q,3") for m in moves)
    assert "lay:joker,2,w" in moves and "lay:Q,2,w" in moves
    assert "at least three cards" in refused(state, 0, "lay:joker,2")
    play(state, 0, "lay:joker,2,w")
    assert laid(state, 0) == [{"rank": "joker", "cards": ["JK", "JK"], "wild": "2C", "points": 120}]
    state = lay_pos(["JK", "JK", "JK", "9C"])
    state.apply(0, Action("lay", ("JK", 3)))  # JK is accepted for joker
    assert laid(state, 0)[0]["rank"] == "joker"


def test_adding_to_own_sets_naturals_and_one_wild() -> None:
    state = lay_pos(["KD", "KD", "2S", "9C"], sets=[["KS", "KH", "KC"]])
    moves = [c for c in legal(state, 0) if not c.startswith("discard")]
    assert moves == ["extend:K,1", "extend:K,2", "extend:K,0,w", "extend:K,1,w", "extend:K,2,w"]
    assert "already have a set of kings" in refused(state, 0, "lay:K,2,w")
    events = play(state, 0, "extend:K,0,w")
    assert texts(events) == ["{p0} added 2♠ as a wild to their kings (now 4 cards)."]
    assert "already have a wild 2" in refused(state, 0, "extend:K,1,w")
    play(state, 0, "extend:K,2")
    assert laid(state, 0) == [{"rank": "K", "cards": ["KS", "KH", "KD", "KD", "KC"], "wild": "2S", "points": 70}]
    assert hand(state, 0) == ["9C"]


def test_you_only_extend_your_own_sets() -> None:
    state = lay_pos(["QH", "5C"], other_sets=[["QS", "QD", "QC"]])
    assert legal(state, 0) == ["discard:5C", "discard:QH"]
    assert "no set of queens to add to (you can only add to your own sets)" in refused(state, 0, "extend:Q,1")


def test_one_set_per_rank() -> None:
    state = lay_pos(["QH", "QD", "QC", "9C"], sets=[["QS", "QH", "QD"]])
    assert "lay:Q,3" not in legal(state, 0)
    assert "extend:Q,3" in legal(state, 0)
    assert "already have a set of queens" in refused(state, 0, "lay:Q,3")
    with pytest.raises(GameError, match="two sets of queens"):
        pos([["5C"], ["KH"]], sets=[[["QS", "QH", "QD"], ["QC", "QC", "2S"]], []])


def test_you_cannot_lay_your_last_card() -> None:
    state = lay_pos(["QS", "QH", "QD"])
    assert legal(state, 0) == ["discard:QS", "discard:QH", "discard:QD"]
    assert "keep one to discard" in refused(state, 0, "lay:Q,3")
    state = lay_pos(["KD", "2S"], sets=[["KS", "KH", "KC"]])
    assert "extend:K,1,w" not in legal(state, 0) and "extend:K,1" in legal(state, 0)
    assert "keep one to discard" in refused(state, 0, "extend:K,1,w")


def test_turn_order_take_then_lay_then_one_discard() -> None:
    state = pos([["QS", "QH", "QD", "5C", "9C"], ["KH", "KD"], ["3S"]], discard=["4C"], draw=["3C", "8H", "6D"])
    assert "First take a card" in refused(state, 0, "lay:Q,3")
    assert "First take a card" in refused(state, 0, "discard:5C")
    assert refused(state, 1, "take:draw", NotYourTurn)
    play(state, 0, "take:draw")
    assert "already taken" in refused(state, 0, "take:draw")
    assert "next is for between rounds" in refused(state, 0, "next")
    assert "Only the dealer" in refused(state, 0, "cut:20")
    assert "You don't hold" in refused(state, 0, "discard:KS")
    play(state, 0, "lay:Q,3", "discard:5C")
    assert state.to_act() == [1] and state.view(None)["phase"] == "take"
    assert state.view(None)["discard_pile"] == ["4C", "5C"]


# ------------------------------------------------------------------ ends of rounds, scoring


def test_going_out_with_a_discard_scores_100_and_ends_the_round() -> None:
    state = pos([["QS", "QH", "QD", "5C", "3D"], ["KH", "JK"]], sets=[[], [["AS", "AH", "AD"]]],
                phase="lay", draw=["9C", "7C"], discard=["4C"], dealer=1, scores=[10, 20])
    play(state, 0, "lay:Q,3", "discard:5C")
    assert state.phase == "take" and state.to_act() == [1]  # still a card: not out
    state = pos([["QS", "QH", "QD", "5C"], ["KH", "JK"]], sets=[[], [["AS", "AH", "AD"]]],
                phase="lay", draw=["9C", "7C"], discard=["4C"], dealer=1, scores=[10, 20])
    events = play(state, 0, "lay:Q,3", "discard:5C")
    assert texts(events)[2:4] == [
        "{p0} discarded their last card and went out: +100!",
        "Round 1 scores: {p0} +220 (laid 120, hand -0, went out +100), {p1} -15 (laid 45, hand -60). "
        "Match totals: {p0} 230, {p1} 5.",
    ]
    record = state.history[-1]
    assert record["end"] == "out" and record["out"] == 0
    assert record["rows"] == [
        {"laid": 120, "hand": 0, "out_bonus": 100, "cut_bonus": 0, "round": 220, "total": 230},
        {"laid": 45, "hand": 60, "out_bonus": 0, "cut_bonus": 0, "round": -15, "total": 5},
    ]
    assert state.scores == [230, 5]


def test_exhausted_draw_pile_ends_the_round_without_a_bonus() -> None:
    state = pos([["5C", "9D"], ["KH", "JK"]], draw=["7H"], discard=["4C"])
    events = play(state, 0, "take:draw", "discard:9D")
    assert texts(events)[-3:-1] == [
        "The draw pile is empty: round 1 ends with no going-out bonus.",
        "Round 1 scores: {p0} -10 (laid 0, hand -10), {p1} -60 (laid 0, hand -60). Match totals: {p0} -10, {p1} -60.",
    ]
    assert state.history[-1]["end"] == "exhausted" and state.history[-1]["out"] is None
    assert all(row["out_bonus"] == 0 for row in state.history[-1]["rows"])
    assert state.phase == "round_over"


def test_going_out_on_the_last_draw_still_earns_the_bonus() -> None:
    state = pos([["QS", "QH", "QD"], ["KH"]], draw=["7H"], discard=["4C"])
    play(state, 0, "take:draw", "lay:Q,3", "discard:7H")
    assert state.history[-1]["end"] == "out" and state.history[-1]["rows"][0]["out_bonus"] == 100


def test_between_rounds_every_seat_acknowledges_then_the_next_dealer_cuts() -> None:
    state = pos([["5C"], ["KH"], ["3D"]], phase="lay", dealer=2, draw=["7H", "8H"], discard=["4C"], scores=[0, 0, 0])
    play(state, 0, "discard:5C")
    view = state.view(None)
    assert (view["phase"], view["to_act"], view["turn"], view["ready"]) == ("round_over", [0, 1, 2], None, [False] * 3)
    assert view["hands"] == [[], ["KH"], ["3D"]]
    assert view["last_round"]["rows"][0]["round"] == 100
    assert [legal(state, s) for s in range(3)] == [["next"]] * 3
    assert "send next" in refused(state, 1, "take:draw")
    assert texts(play(state, 1, "next")) == ["{p1} is ready for round 2."]
    assert state.to_act() == [0, 2] and legal(state, 1) == []
    refused(state, 1, "next", NotYourTurn)
    play(state, 2, "next")
    events = play(state, 0, "next")
    assert texts(events) == ["{p0} is ready for round 2.", "Round 2: {p0} deals. {p0}, cut the deck (a cut of 39 or "
                                                            "40 cards scores 100) or deal without a cut."]
    assert (state.phase, state.round_no, state.dealer, state.to_act()) == ("cut", 2, 0, [0])
    # The next round is dealt from the full decks, set-aside cards included.
    assert sum(card_counts(state).values()) == 108 and len(state.draw) == 108
    play(state, 0, "deal")
    assert state.size == [13, 13, 13] and state.turn == 1 and state.history[0]["rows"][0]["total"] == 100


def test_target_ends_the_match_after_the_round_without_next() -> None:
    state = pos([["5C"], ["KH"]], phase="lay", scores=[950, 990], discard=["4C"])
    events = play(state, 0, "discard:5C")
    assert state.is_over() and state.to_act() == [] and state.phase == "match_over"
    outcome = state.outcome()
    assert outcome.winners == (0,) and outcome.scores == (1050, 980) and outcome.ranking == ((0,), (1,))
    assert texts(events)[-1] == outcome.reason == "{p0} reached the target of 1000 with 1050 points."
    for seat in (0, 1):
        assert legal(state, seat) == []
        refused(state, seat, "next", GameFinished)
    assert state.view(None)["phase"] == "match_over" and state.view(None)["hands"] == [[], ["KH"]]


def test_ties_at_the_target_go_to_the_higher_total_then_are_shared() -> None:
    sets = [[], [["QS", "QH", "QD"]]]
    state = pos([["5C"], ["3C"]], sets=sets, phase="lay", scores=[950, 970], discard=["4C"])
    play(state, 0, "discard:5C")  # 0 goes out: 1050; 1: +115 -> 1085
    assert state.outcome().winners == (1,)
    assert state.outcome().reason == "{p1} reached the target of 1000 and the highest total with 1085 points."
    state = pos([["5C"], ["3C"]], sets=sets, phase="lay", scores=[950, 935], discard=["4C"])
    play(state, 0, "discard:5C")
    outcome = state.outcome()
    assert outcome.winners == (0, 1) and outcome.ranking == ((0, 1),) and outcome.scores == (1050, 1050)
    assert "share the win" in outcome.reason


def test_rounds_option_ends_the_match_highest_total_wins() -> None:
    state = pos([["5C"], ["KH"], ["3D"]], phase="lay", options={"rounds": 2}, round_no=2, scores=[-40, 30, 30],
                discard=["4C"])
    play(state, 0, "discard:5C")
    outcome = state.outcome()
    assert state.end == "rounds"
    assert outcome.scores == (60, 20, 25) and outcome.winners == (0,) and outcome.ranking == ((0,), (2,), (1,))
    assert outcome.reason == "After 2 rounds, {p0} has the most points (60)."
    state = pos([["5C"], ["KH"], ["3D"]], phase="lay", options={"rounds": 3}, round_no=2, discard=["4C"])
    play(state, 0, "discard:5C")
    assert state.phase == "round_over"


def test_endless_target_zero_keeps_going_past_1000() -> None:
    state = pos([["5C"], ["KH"]], phase="lay", options={"target": 0}, scores=[5000, -3000], discard=["4C"])
    play(state, 0, "discard:5C")
    assert not state.is_over() and state.phase == "round_over" and state.outcome() is None


# ------------------------------------------------------------------ anti-stall


def test_stall_limit_forces_a_draw_after_ten_turns_without_one() -> None:
    state = pos([["5C", "6C"], ["KH", "KD"]], discard=["9S"], draw=["3C", "4C", "5D"], stall=STALL_LIMIT - 1)
    play(state, 0, "take:discard")
    assert state.stall == STALL_LIMIT
    events = play(state, 0, "discard:9S")
    assert texts(events)[-1] == ("10 turns in a row without a draw from the draw pile: {p1} can't take the lone "
                                 "discard and must draw.")
    assert legal(state, 1) == ["take:draw"]
    assert "10 turns in a row" in refused(state, 1, "take:discard")
    play(state, 1, "take:draw")
    assert state.stall == 0 and state.view(None)["turns_without_draw"] == 0


def test_the_stall_counter_counts_pile_pickups_too() -> None:
    state = pos([["QH", "QD", "5C"], ["KH"]], discard=["3C", "QS"], stall=4)
    play(state, 0, "take:pile,2")
    assert state.stall == 5 and state.view(None)["turns_without_draw"] == 5


# ------------------------------------------------------------------ encoding, legality, views


def test_action_codes_are_compact_and_survive_the_discord_round_trip() -> None:
    longest = max(len(a.code()) for a in PARSED)
    assert longest <= 17
    for action in PARSED:
        assert Action.from_code(action.code()) == action
        assert QoSAction.from_code(action.code()) == action
        assert str(action)
    assert str(QoSAction("lay", ("Q", 2, "w"))) == "lay 2 queens + a wild 2"
    assert str(QoSAction("extend", ("Q", 0, "w"))) == "add a wild 2 to your queens"
    assert str(QoSAction("take", ("pile", 2))) == "take the pile: its top card and 2 from your hand as a new set"


def test_ranks_and_counts_parse_leniently_and_malformed_moves_are_refused() -> None:
    state = lay_pos(["10S", "10H", "10D", "5C"])
    assert "lay:10,3" in legal(state, 0)
    assert act("lay:10,3") == Action("lay", (10, 3)) in state.legal_actions(0)
    play(lay_pos(["10S", "10H", "10D", "5C"]), 0, "lay:10,3")
    lay_pos(["10S", "10H", "10D", "5C"]).apply(0, Action("lay", ("10", 3)))
    lay_pos(["QS", "QH", "QD", "5C"]).apply(0, Action("LAY", ("q", 3)))
    for bad in ("lay:X,3", "lay:Q", "lay:Q,3,x", "lay:1,3", "discard:XX", "discard", "take:foo", "take:pile",
                "cut:abc", "deal:1", "play:QS", "extend:Q,-1"):
        refused(state, 0, bad, MalformedAction)
    refused(state, 0, Action("lay", (["Q"], 3)), MalformedAction)


@pytest.mark.parametrize("build", [
    lambda: lay_pos(["QS", "QH", "QD", "QC", "2S", "2H", "JK", "JK", "5C", "5C", "AS"], sets=[["KS", "KH", "KC"]]),
    lambda: lay_pos(["KD", "2S", "2H", "2D", "9C"], sets=[["KS", "KH", "KC"], ["4S", "4H", "4D", "2C"]]),
    lambda: pos([["QH", "QD", "QC", "5C"], ["KH"]], discard=["3C", "QS"]),
    lambda: pos([["QH", "5C"], ["KH"]], discard=["QS"]),
    lambda: pos([["QH", "5C"], ["KH"]], discard=["QS"], stall=STALL_LIMIT),
])
def test_legal_actions_are_exactly_what_apply_accepts(build) -> None:
    state = build()
    seat = state.to_act()[0]
    legal_set = set(state.legal_actions(seat))
    snapshot = state.to_json()
    for action in PARSED:  # every well-formed move there is
        copy = GAME.from_json(snapshot)
        try:
            copy.apply(seat, action)
        except GameError:
            assert action not in legal_set, action
        else:
            assert action in legal_set, action


def test_a_forty_card_hand_has_a_reasonable_number_of_moves() -> None:
    cards = [c for c in full_deck(2) if CODE[c] not in ("QS",)][:40]
    state = lay_pos([CODE[c] for c in cards])
    moves = state.legal_actions(0)
    assert 40 < len(moves) < 300
    assert len(set(moves)) == len(moves)
    snapshot = state.to_json()
    for action in moves:
        GAME.from_json(snapshot).apply(0, action)


def _mid_round_three() -> QoSState:
    return pos(
        [["QS", "5C", "9D", "JK"], ["KH", "KD", "7S"], ["3C", "3D", "AH", "10S", "8C"]],
        sets=[[["AS", "AD", "AC", "2C"]], [], [["JS", "JH", "JD"]]],
        draw=["6S", "6H", "7H"], discard=["4C", "8H", "10D"], turn=1, dealer=0, scores=[120, -30, 45], round_no=3,
        cut={"aimed": 40, "landed": 38, "bonus": False},
    )


def test_views_mid_round_show_public_facts_and_only_the_viewers_hand() -> None:
    state = _mid_round_three()
    public = state.view(None)
    assert public == {
        "game": "queen-of-spades", "players": 3, "viewer": None, "target": 1000, "rounds": 0, "round": 3,
        "dealer": 0, "phase": "take", "turn": 1, "to_act": [1], "deck_size": 108, "cut_bonus_at": [39, 40],
        "cut": {"dealer": 0, "aimed": 40, "landed": 38, "bonus": False},
        "draw_count": 3, "discard_count": 3, "discard_top": "10D", "discard_pile": ["4C", "8H", "10D"],
        "laid": [[{"rank": "A", "cards": ["AS", "AD", "AC"], "wild": "2C", "points": 65}], [],
                 [{"rank": "J", "cards": ["JS", "JH", "JD"], "wild": None, "points": 30}]],
        "laid_points": [65, 0, 30], "hand_counts": [4, 3, 5], "hands": None, "scores": [120, -30, 45],
        "turns_without_draw": 0, "stall_limit": STALL_LIMIT, "ready": None, "last_round": None, "history": [],
        "over": False, "outcome": None,
    }
    seat1 = state.view(1)
    assert seat1["hand"] == ["7S", "KH", "KD"] and seat1["your_turn"] and seat1["legal"] == ["take:draw"]
    seat0 = state.view(0)
    assert seat0["hand"] == ["5C", "9D", "QS", "JK"] and not seat0["your_turn"] and seat0["legal"] == []
    others = Counter(CODE[c] for c in state.draw + state.aside + state.hand_ids(1) + state.hand_ids(2))
    assert Counter(c.code for c in state.hidden_cards(0)) == others
    assert Counter(c.code for c in state.hidden_cards(None)) == others + Counter(hand(state, 0))
    assert not set(codes_in(public["laid"])) & {"KH", "QS"}
    check_views(state)
    assert json.loads(json.dumps(seat0)) == seat0


def test_views_at_round_over_show_every_hand_and_the_breakdown() -> None:
    state = _mid_round_three()
    play(state, 1, "take:draw", "discard:7S")
    play(state, 2, "take:draw", "discard:8C")
    play(state, 0, "take:draw", "discard:5C")  # the draw pile is empty: round 3 ends
    view = state.view(2)
    assert view["phase"] == "round_over" and view["to_act"] == [0, 1, 2] and view["legal"] == ["next"]
    assert view["hands"] == [["6S", "9D", "QS", "JK"], ["7H", "KH", "KD"], ["AH", "3D", "3C", "6H", "10S"]]
    last = view["last_round"]
    assert last == view["history"][-1] and last["round"] == 3 and last["end"] == "exhausted" and last["dealer"] == 0
    assert [row["laid"] for row in last["rows"]] == [65, 0, 30]
    assert [row["hand"] for row in last["rows"]] == [160, 25, 40]
    assert [row["total"] for row in last["rows"]] == [120 + 65 - 160, -30 - 25, 45 + 30 - 40]
    assert codes_in(last) == Counter()
    check_views(state)


def test_snapshots_keep_the_match_history_across_rounds() -> None:
    state = GAME.new_game(3, {"target": 0}, 21)
    rng = Rng(2)
    while len(state.history) < 2 or state.phase != "take":
        seat = state.to_act()[0]
        state.apply(seat, choose(state, seat, rng))
    data = json.loads(json.dumps(state.to_json()))
    restored = GAME.from_json(data)
    assert restored.to_json() == state.to_json()
    assert restored.view(None)["history"] == state.view(None)["history"]
    assert restored.scores == [r["total"] for r in state.history[-1]["rows"]]
    with pytest.raises(MalformedAction):
        GAME.from_json({**data, "phase": "nap"})
    with pytest.raises(MalformedAction):
        GAME.from_json({**data, "game": "q2j"})


def test_from_position_refuses_impossible_positions() -> None:
    with pytest.raises(GameError, match="More copies"):
        pos([["QS", "QS", "QS"], ["KH"]])
    with pytest.raises(GameError, match="at most one wild"):
        pos([["5C"], ["KH"]], sets=[[["QS", "2H", "2D"]], []])
    with pytest.raises(GameError, match="at least three"):
        pos([["5C"], ["KH"]], sets=[[["QS", "QH"]], []])
    with pytest.raises(GameError, match="one rank"):
        pos([["5C"], ["KH"]], sets=[[["QS", "QH", "KD"]], []])
    with pytest.raises(GameError, match="Every hand"):
        pos([[], ["KH"]])
    with pytest.raises(GameError, match="draw pile"):
        pos([["5C"], ["KH"]], draw=[])
    with pytest.raises(GameError, match="phase"):
        pos([["5C"], ["KH"]], phase="cut")


# ------------------------------------------------------------------ the AI


def test_ai_cuts_for_the_bonus_and_acknowledges() -> None:
    for players in (2, 5, 8):
        state = GAME.new_game(players, {}, 0)
        assert choose(state, state.dealer, Rng(0)) == act(f"cut:{13 * players}")


LONG_DRAW = [f"{r}{s}" for r in ("4", "6", "7", "10", "J") for s in "SHDC"] * 2


def test_ai_takes_the_pile_for_a_set_and_lays_it() -> None:
    state = pos([["QH", "QD", "5C", "9D"], ["KH"]], discard=["3C", "8D", "QS"], draw=LONG_DRAW)
    assert choose(state, 0, Rng(0)) == act("take:pile,2")
    state = pos([["QH", "QD", "5C", "9D"], ["KH"]], discard=["3C", "8D", "KS"], draw=LONG_DRAW)
    assert choose(state, 0, Rng(0)) == act("take:draw")
    state = pos([["QH", "QD", "5C", "9D"], ["KH"]], discard=["QS"], draw=LONG_DRAW)
    assert choose(state, 0, Rng(0)) == act("take:discard")


def test_ai_lays_sets_and_goes_out_when_it_can() -> None:
    state = lay_pos(["QS", "QH", "QD", "5C"])
    rng = Rng(0)
    play(state, 0, choose(state, 0, rng).code())
    assert laid(state, 0)[0]["cards"] == ["QS", "QH", "QD"]
    assert choose(state, 0, rng) == act("discard:5C")


def test_ai_dumps_the_queen_of_spades_late_and_keeps_pairs() -> None:
    late = pos([["QS", "5C", "5D", "9D"], ["KH"]], phase="lay", draw=["4D"], discard=["3C"])
    assert choose(late, 0, Rng(0)) == act("discard:QS")
    early = pos([["QS", "5C", "5D", "9D"], ["KH"]], phase="lay", draw=LONG_DRAW, discard=["3C"])
    assert choose(early, 0, Rng(0)) == act("discard:9D")


def test_ai_beats_random_play() -> None:
    wins = 0.0
    games_played = 30
    for seed in range(games_played):
        state = GAME.new_game(2, {"rounds": 2}, seed)
        ai_seat = seed % 2
        rng = Rng(seed)
        while not state.is_over():
            acting = state.to_act()
            seat = acting[rng.below(len(acting))]
            if seat == ai_seat:
                action = choose(state, seat, rng)
            else:
                moves = state.legal_actions(seat)
                action = moves[rng.below(len(moves))]
            state.apply(seat, action)
        winners = state.outcome().winners
        if ai_seat in winners:
            wins += 1 / len(winners)
    assert wins / games_played >= 0.8
