"""Queen of Spades: every ruling of RULINGS.md §5 (and the gaps decided in
games/queen_of_spades) as an exact case, mostly on hand-built positions
(``QoSState.from_position``)."""

from __future__ import annotations

from collections import Counter

import pytest

import games
from games.ai import choose_action
from games.base import Action
from games.cards import JOKER, deal, parse_card
from games.errors import GameError, IllegalAction, MalformedAction, NotYourTurn
from games.queen_of_spades import GAME, QoSState, card_points, round_score
from games.queen_of_spades.ai import choose
from games.queen_of_spades.deal import deck_size, decks_for
from games.queen_of_spades.points import CODE, full_deck
from games.rng import Rng
from tests.contract import card_counts
from tests.words import words


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
    return [words(e) for e in events if e.private_to is None]


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
    assert [(words(e), e.private_to) for e in private] == [("{p0} drew Q♠.", 0)]
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


def test_endless_matches_never_end_on_their_own() -> None:
    """``target 0`` and ``rounds 0``: the engine keeps dealing rounds; the table ends it."""
    state = GAME.new_game(2, {"target": 0, "rounds": 0}, 3)
    rng = Rng(3)
    while state.round_no < 8:
        acting = state.to_act()
        assert acting
        seat = acting[rng.below(len(acting))]
        state.apply(seat, choose_action(state, seat, rng))
    assert not state.is_over() and state.outcome() is None
    assert len(state.history) == 7
    assert max(state.scores) >= 1000  # well past the default target: nothing stopped it
