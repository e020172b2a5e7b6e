"""Q Squared Joe: every ruling of RULINGS.md §1–2 as an exact case, on hand-set positions."""

from __future__ import annotations

import itertools

import pytest

import games
from games.base import Action
from games.cards import RANKS, SUITS, deal, parse_card, shuffled_deck
from games.errors import GameError, IllegalAction, MalformedAction
from games.q2j import GAME, Q2JAction, Q2JState, compare
from games.q2j.deal import choose_first
from games.q2j.rules import card_id
from games.rng import Rng
from tests.words import words

FILLER = None  # marks "fill the stock with 18 cards the position does not use"


def play(code: str) -> Action:
    return Action("play", (code,))


def qq(a: str, b: str) -> Action:
    return Action("qq", (a, b))


DRAW = Action("draw")


def texts(events: list) -> list[str]:
    return [words(e) for e in events if e.private_to is None]


def position(hands, top, stock=(), **kw) -> Q2JState:
    if stock is FILLER:
        used = {c for h in hands for c in h} | ({top} if isinstance(top, str) else set(top)) | set(kw.get("under", ()))
        stock = [r + s for s in "DCHS" for r in RANKS if r + s not in used][:18]
    return Q2JState.from_position(hands, top, stock, **kw)


def refused(state: Q2JState, seat: int, action: Action, error: type = IllegalAction) -> str:
    """Apply ``action`` expecting ``error``; check nothing changed; return the message."""
    before = state.to_json()
    with pytest.raises(error) as info:
        state.apply(seat, action)
    assert state.to_json() == before
    return str(info.value)


# ------------------------------------------------------------------ §1 compare


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("4C", "JC", 1),  # same suit: the lower rank is stronger
        ("JH", "4C", 1),  # different suits: the higher rank is stronger
        ("AS", "QC", 1),  # an ace beats a face card, whatever the suits
        ("KD", "AH", -1),  # ... whichever is played on which
        ("7S", "7H", 0),  # same rank: equal
    ],
)
def test_rulings_examples(a: str, b: str, expected: int) -> None:
    assert compare(a, b) == expected
    assert compare(b, a) == -expected


def test_same_rank_is_equal_for_every_suit_pair() -> None:
    for rank in RANKS:
        for s1, s2 in itertools.product(SUITS, SUITS):
            assert compare(rank + s1, rank + s2) == 0


def test_ace_against_face_cards_comes_before_suit_rules() -> None:
    for face in "JQK":
        for s1, s2 in itertools.product(SUITS, SUITS):
            assert compare("A" + s1, face + s2) == 1
            assert compare(face + s2, "A" + s1) == -1


def test_same_suit_lower_wins_and_different_suits_higher_wins() -> None:
    assert compare("2S", "10S") == 1
    assert compare("10S", "2S") == -1
    assert compare("AS", "5S") == 1  # ace is the lowest rank of its suit
    assert compare("5H", "AS") == 1  # an ace is not special against a number card
    assert compare("10D", "9C") == 1
    assert compare("9C", "10D") == -1


def _reference(a: str, b: str) -> int:
    ca, cb = parse_card(a), parse_card(b)
    if ca.value == cb.value:
        return 0
    if ca.value == 1 and cb.value > 10:
        return 1
    if cb.value == 1 and ca.value > 10:
        return -1
    if ca.suit == cb.suit:
        return 1 if ca.value < cb.value else -1
    return 1 if ca.value > cb.value else -1


def test_compare_is_antisymmetric_and_matches_the_rulings_for_all_pairs() -> None:
    codes = [r + s for s in SUITS for r in RANKS]
    for a, b in itertools.product(codes, codes):
        assert compare(a, b) == -compare(b, a)
        assert compare(a, b) == _reference(a, b)


def test_compare_accepts_cards_and_any_case_and_refuses_non_cards() -> None:
    assert compare(parse_card("4C"), "jc") == 1
    with pytest.raises(MalformedAction):
        compare("JK", "4C")
    with pytest.raises(MalformedAction, match="ZZ"):
        compare("ZZ", "4C")


# ------------------------------------------------------------------ the game and its options


def test_game_registration_and_options() -> None:
    game = games.get_game("q2j")
    assert (game.id, game.name, game.min_players, game.max_players) == ("q2j", "Q Squared Joe", 2, 10)
    assert game.normalize_options(None) == {"variant": "standard", "match": "single", "short_hand": "random"}
    with pytest.raises(GameError, match="variant"):
        game.new_game(3, {"variant": "speedy"})
    with pytest.raises(GameError, match="Unknown option"):
        game.new_game(3, {"jokers": True})
    with pytest.raises(GameError, match="exactly 2 players"):
        game.new_game(3, {"variant": "challenge"})
    with pytest.raises(GameError, match="only applies to the challenge"):
        game.new_game(2, {"short_hand": 0})
    for bad in (True, "0", 2, 1.0):
        with pytest.raises(GameError, match="short_hand"):
            game.new_game(2, {"variant": "challenge", "short_hand": bad})


def test_deal_gives_five_each_and_the_top_of_the_stock_starts_the_pile() -> None:
    for players, seed in [(2, 1), (4, 9), (10, 3)]:
        state = GAME.new_game(players, {}, seed)
        stock = shuffled_deck(Rng(seed))
        hands = deal(stock, players, 5)
        top = stock.pop()
        view = state.view(None)
        assert view["top"] == [top.code]
        assert view["stock_count"] == 52 - 5 * players - 1 == len(stock)
        assert view["hand_counts"] == [5] * players
        for seat in range(players):
            assert sorted(state.view(seat)["hand"]) == sorted(c.code for c in hands[seat])
        assert any(top.pretty in words(e) and e.kind == "top" for e in state.opening_events())


# ------------------------------------------------------------------ first player


def ids(*codes: str) -> list[int]:
    return [card_id(c) for c in codes]


def test_first_player_highest_face_up_card_by_value() -> None:
    # Hands in deal order: the fifth card is face up. K beats A here: value, not strength.
    hands = [ids("KS", "KH", "KD", "KC", "2S"), ids("2H", "3H", "4H", "5H", "AS"), ids("2D", "3D", "4D", "5D", "9C")]
    seat, reason = choose_first([0, 1, 2], hands, Rng(0))
    assert seat == 2
    assert "Face-up cards: {p0} 2♠, {p1} A♠, {p2} 9♣." in words(reason)
    assert "{p2} starts with the highest face-up card." in words(reason)


def test_first_player_tie_goes_to_the_first_dealt_card_of_the_tied_seats_only() -> None:
    hands = [ids("9S", "2H", "2D", "2C", "KS"), ids("3S", "3H", "3D", "3C", "KH"), ids("QC", "QD", "QH", "QS", "5C")]
    seat, reason = choose_first([0, 1, 2], hands, Rng(0))
    assert seat == 0  # seat 2 has the best first card but was not tied
    assert "{p0} and {p1} tie, so their first cards decide: {p0} 9♠, {p1} 3♠." in words(reason)
    assert "{p0} starts with the highest first card." in words(reason)


def test_first_player_deeper_tie_uses_the_second_then_third_card() -> None:
    hands = [ids("9S", "4H", "7D", "2C", "KS"), ids("9H", "4D", "8C", "2D", "KH")]
    seat, reason = choose_first([0, 1], hands, Rng(0))
    assert seat == 1
    assert "second cards decide" in words(reason) and "third cards decide: {p0} 7♦, {p1} 8♣." in words(reason)
    assert "{p1} starts with the highest third card." in words(reason)


def test_first_player_all_five_tie_goes_to_a_seeded_coin() -> None:
    hands = [ids("9S", "4H", "7D", "2C", "KS"), ids("9H", "4D", "7C", "2D", "KH"), ids("AS", "AH", "AD", "AC", "KD")]
    picks = set()
    for seed in range(20):
        seat, reason = choose_first([0, 1, 2], hands, Rng(seed))
        assert seat in (0, 1)
        assert f"coin toss picks {{p{seat}}} to start" in words(reason)
        assert choose_first([0, 1, 2], hands, Rng(seed))[0] == seat  # seeded: the same every time
        picks.add(seat)
    assert picks == {0, 1}


def test_new_game_announces_why_the_starter_starts() -> None:
    state = GAME.new_game(4, {}, 5)
    [first] = [e for e in state.opening_events() if e.kind == "first_player"]
    assert first.seat == state.turn and f"{{p{state.turn}}}" in words(first)
    assert state.to_act() == [state.turn]


# ------------------------------------------------------------------ a turn


def test_stronger_card_is_played_and_the_turn_passes() -> None:
    state = position([["4C", "2D"], ["5H"]], "JC", FILLER)
    events = state.apply(0, play("4C"))
    assert texts(events) == ["{p0} played 4♣ on J♣."]
    assert state.view(None)["top"] == ["4C"] and state.to_act() == [1]


def test_weaker_cards_are_refused_with_the_reason() -> None:
    state = position([["9S", "4D", "KD", "3C"], ["5H"]], "7S", FILLER)
    assert refused(state, 0, play("9S")) == "You can't play 9♠ on 7♠: same suit, so the lower card is stronger"
    assert refused(state, 0, play("4D")) == "You can't play 4♦ on 7♠: different suits, so the higher card is stronger"
    assert refused(state, 0, play("5H")) == "You don't hold 5♥"
    state = position([["KD"], ["5H"]], "AH", FILLER)
    assert refused(state, 0, play("KD")) == "You can't play K♦ on A♥: an ace is stronger than any face card"
    assert state.legal_actions(0) == [DRAW]


def test_equal_strength_play_draws_a_penalty_card_in_the_same_action() -> None:
    """The play says the penalty once; which card was drawn only the drawer hears."""
    state = position([["7H", "2C"], ["3D"]], "7S", ["KC", "9C"])
    events = state.apply(0, play("7H"))
    assert texts(events) == ["{p0} played 7♥ on 7♠: equal strength, so {p0} draws a penalty card."]
    [private] = [e for e in events if e.private_to is not None]
    assert private.private_to == 0 and words(private) == "You drew 9♣ as a penalty."
    assert state.view(0)["hand"] == ["2C", "9C"]
    assert state.view(None)["top"] == ["7H"] and state.to_act() == [1]


def test_penalty_cards_are_flagged_in_the_seat_view() -> None:
    state = position([["7H", "2S", "KD"], ["3D"]], "7S", FILLER)
    view = state.view(0)
    assert view["penalty_cards"] == ["7H"]
    assert view["legal"] == ["play:2S", "play:7H", "play:KD", "draw"]


def test_draw_is_always_allowed_even_with_a_playable_card() -> None:
    state = position([["2S"], ["3D"]], "7S", ["KC"])
    assert DRAW in state.legal_actions(0)
    events = state.apply(0, DRAW)
    assert texts(events) == ["{p0} drew a card."]
    assert [words(e) for e in events if e.private_to == 0] == ["You drew K♣."]
    assert state.view(0)["hand"] == ["2S", "KC"] and state.to_act() == [1]


def test_empty_stock_reshuffles_the_discard_pile_except_the_top() -> None:
    state = position([["2S"], ["3D"]], "5D", [], under=["2C", "3C", "4C"])
    events = state.apply(0, DRAW)
    assert texts(events)[0] == "The stock ran out: the discard pile under the top was shuffled into a new stock of 3 cards."
    view = state.view(None)
    assert view["top"] == ["5D"] and view["discard_count"] == 1 and view["stock_count"] == 2
    assert len(state.view(0)["hand"]) == 2


def test_nothing_to_draw_skips_the_draw_and_says_so() -> None:
    state = position([["2S"], ["3D"]], "5D")
    events = state.apply(0, DRAW)
    assert texts(events) == ["No card is left to draw, so {p0} draws nothing."]
    assert state.view(0)["hand"] == ["2S"] and state.to_act() == [1]


def test_an_equal_strength_play_of_the_last_card_draws_the_penalty_first_so_it_does_not_win() -> None:
    """RULINGS §2: the penalty draw comes before the check for an empty hand."""
    state = position([["5H"], ["3D"]], "5D", ["9C"])
    events = state.apply(0, play("5H"))
    assert texts(events) == ["{p0} played 5♥ on 5♦: equal strength, so {p0} draws a penalty card."]
    assert state.view(0)["hand"] == ["9C"] and not state.is_over() and state.outcome() is None
    assert state.to_act() == [1]
    # With the stock empty the pile under the new top is reshuffled first: the
    # previous top is always under the played card, so a penalty card can always be found.
    state = position([["5H"], ["3D"]], "5D")
    events = state.apply(0, play("5H"))
    assert texts(events)[1:] == ["The stock ran out: the discard pile under the top was shuffled into a new stock of 1 card."]
    assert state.view(0)["hand"] == ["5D"] and not state.is_over()


# ------------------------------------------------------------------ Q² and Joe


def test_q2_is_one_legal_action_per_queen_pair_in_canonical_order() -> None:
    state = position([["QC", "QS", "QH", "3D"], ["4D"]], "9C", FILLER)
    pairs = [a for a in state.legal_actions(0) if a.kind == "qq"]
    assert [a.code() for a in pairs] == ["qq:QS,QH", "qq:QS,QC", "qq:QH,QC"]
    assert all(isinstance(a, Q2JAction) for a in pairs)
    assert str(pairs[0]) == "Q² Q♠ Q♥"


def test_q2_goes_on_any_top_but_a_jack_with_no_strength_check() -> None:
    # 9C would beat both queens in a normal play? No: Q² ignores strength entirely.
    for top in ["AS", "QD", "2H", "KC"]:
        state = position([["QS", "QH", "3D"], ["4D"], ["5D"]], top, FILLER)
        assert qq("QS", "QH") in state.legal_actions(0), top
        events = state.apply(0, qq("QS", "QH"))
        assert texts(events) == ["{p0} played Q♠ Q♥: Q²! {p1} must play a jack or draw."]
        view = state.view(None)
        assert view["top"] == ["QS", "QH"] and view["top_is_qq"]
        assert view["duty"] == {"qq_seat": 0, "owed_by": 1, "free_play": False}


def test_q2_is_refused_on_a_jack() -> None:
    state = position([["QS", "QH", "3D"], ["4D"]], "JC", FILLER)
    assert all(a.kind != "qq" for a in state.legal_actions(0))
    assert refused(state, 0, qq("QS", "QH")) == "You can't play Q♠ Q♥ on J♣: Q² can't go on a jack"


def test_q2_is_refused_on_another_queen_pair() -> None:
    state = position([["QS", "QH", "3D"], ["4D"], ["5C"]], ["QD", "QC"], FILLER, duty=1)
    assert state.legal_actions(0) == [DRAW]
    assert refused(state, 0, qq("QS", "QH")) == "You can't play Q♠ Q♥ on Q♦ Q♣: Q² can't go on another queen pair"


def test_q2_needs_two_queens_in_hand_and_a_well_formed_pair() -> None:
    state = position([["QS", "3D"], ["4D"]], "9C", FILLER)
    assert refused(state, 0, qq("QS", "QH")) == "You don't hold Q♥"
    assert "not a queen" in refused(state, 0, qq("QS", "3D"), MalformedAction)
    refused(state, 0, qq("QS", "QS"), MalformedAction)
    refused(state, 0, Action("qq", ("QS",)), MalformedAction)


def test_joe_duty_passes_on_with_each_draw_and_the_first_jack_ends_it() -> None:
    state = position([["QS", "QH", "3D"], ["4D"], ["JD", "8C"], ["6C"]], "9C", FILLER)
    state.apply(0, qq("QS", "QH"))
    assert state.legal_actions(1) == [DRAW]
    events = state.apply(1, DRAW)
    assert texts(events)[-1] == "The Q² duty passes to {p2}: play a jack or draw."
    assert state.legal_actions(2) == [play("JD"), DRAW]
    assert refused(state, 2, play("8C")) == "You can't play 8♣ now: Q♠ Q♥ (Q²) is on the pile, so play a jack or draw"
    events = state.apply(2, play("JD"))
    assert texts(events) == ["{p2} played J♦: Joe! The Q² duty is over."]
    view = state.view(None)
    assert view["top"] == ["JD"] and view["duty"] is None and view["turn"] == 3


def test_duty_back_at_the_q2_player_allows_any_card_without_penalty() -> None:
    state = position([["QS", "QH", "2C", "3D"], ["4D"], ["5D"]], "9C", FILLER)
    state.apply(0, qq("QS", "QH"))
    state.apply(1, DRAW)
    events = state.apply(2, DRAW)
    assert texts(events)[-1] == "Nobody played a jack: the turn is back to {p0}, who may play any card or draw."
    assert state.view(None)["duty"] == {"qq_seat": 0, "owed_by": 0, "free_play": True}
    assert state.legal_actions(0) == [play("3D"), play("2C"), DRAW]  # hands sort by suit: S H D C
    events = state.apply(0, play("2C"))
    assert texts(events) == ["{p0} played 2♣ on the queens: the Q² came back, so any card goes."]
    assert state.view(0)["hand"] == ["3D"]  # no penalty card
    view = state.view(None)
    assert view["top"] == ["2C"] and view["duty"] is None and view["turn"] == 1


def test_duty_goes_round_again_after_the_q2_player_draws() -> None:
    state = position([["QS", "QH", "2C"], ["4D"], ["5D", "JS"]], "9C", FILLER)
    state.apply(0, qq("QS", "QH"))
    state.apply(1, DRAW)
    state.apply(2, DRAW)
    events = state.apply(0, DRAW)
    assert texts(events)[-1] == "The Q² duty goes round again: {p1} must play a jack or draw."
    assert state.view(None)["duty"] == {"qq_seat": 0, "owed_by": 1, "free_play": False}
    assert state.legal_actions(1) == [DRAW]


def test_emptying_the_hand_with_q2_wins() -> None:
    state = position([["QS", "QH"], ["4D"]], "9C", FILLER)
    events = state.apply(0, qq("QS", "QH"))
    assert texts(events) == ["{p0} played Q♠ Q♥: Q²!", "{p0} emptied their hand and wins!"]
    assert state.outcome().winners == (0,)


def test_a_q2_top_keeps_both_queens_when_the_stock_is_rebuilt() -> None:
    state = position([["3D"], ["4D"]], ["QD", "QC"], [], under=["2C", "5C"], duty=1)
    state.apply(0, DRAW)
    view = state.view(None)
    assert view["top"] == ["QD", "QC"] and view["discard_count"] == 2 and view["stock_count"] == 1
