"""Q Squared Joe War: every ruling of RULINGS.md §3 (and the engine's own) as an exact case."""

from __future__ import annotations

import pytest

import games
import games.q2j
from games.base import Action
from games.cards import CODE, deal
from games.errors import GameError, IllegalAction, NotYourTurn
from games.rng import Rng
from games.war import GAME, WarState, compare
from games.war.actions import ATTACK, DRAW, RECOVER, card_id
from games.war.ai import choose
from games.war.deal import choose_first
from tests.words import words

FIELD_EMPTY = {"loss": "field-empty"}


def attack(a: str, t: str) -> Action:
    return Action("attack", (a, t))


def recover(c: str) -> Action:
    return Action("recover", (c,))


def texts(events: list) -> list[str]:
    return [words(e) for e in events]


def pos(fields, decks=None, **kw) -> WarState:
    return WarState.from_position(fields, decks, **kw)


def field(state: WarState, seat: int) -> list[tuple[str, bool]]:
    return [(slot["card"], slot["tapped"]) for slot in state.view(None)["fields"][seat]]


def refused(state: WarState, seat: int, action: Action, error: type = IllegalAction) -> str:
    """Apply ``action`` expecting ``error``; check nothing changed; return the message."""
    before = state.to_json()
    with pytest.raises(error) as info:
        state.apply(seat, action)
    assert state.to_json() == before
    return str(info.value)


# ------------------------------------------------------------------ the game and its options


def test_registration_options_and_player_counts() -> None:
    game = games.get_game("war")
    assert game is GAME
    assert (game.id, game.name, game.min_players, game.max_players) == ("war", "Q Squared Joe War", 2, 4)
    assert game.normalize_options(None) == {"loss": "no-cards"}
    assert game.normalize_options({"loss": "field-empty"}) == {"loss": "field-empty"}
    with pytest.raises(GameError, match="loss"):
        game.new_game(2, {"loss": "sudden-death"})
    with pytest.raises(GameError, match="Unknown option"):
        game.new_game(2, {"anti_stall": 40})
    for bad in (1, 5):
        with pytest.raises(GameError, match="2–4 players"):
            game.new_game(bad)
    assert game.ai is choose


def test_war_reuses_the_q2j_concept() -> None:
    assert compare is games.q2j.compare
    assert compare("4C", "JC") == 1 and compare("AS", "QC") == 1 and compare("7S", "7H") == 0


# ------------------------------------------------------------------ the deal


def _expected_deal(players: int, seed: int) -> tuple[int, list[list[int]]]:
    """The deal re-done by hand: shuffle, seeded dealer, one card at a time from the dealer's left."""
    rng = Rng(seed)
    cards = list(range(52))
    rng.shuffle(cards)
    dealer = rng.below(players)
    order = [(dealer + 1 + i) % players for i in range(players)]
    piles = deal(cards, players, 52 // players)
    for pile in piles:
        if cards:
            pile.append(cards.pop())
    decks: list[list[int]] = [[] for _ in range(players)]
    for seat, pile in zip(order, piles):
        decks[seat] = pile
    return dealer, decks


@pytest.mark.parametrize(("players", "sizes"), [(2, [26, 26]), (3, [18, 17, 17]), (4, [13, 13, 13, 13])])
def test_deal_sizes_and_the_top_five_turned_face_up_untapped(players: int, sizes: list[int]) -> None:
    for seed in range(6):
        state = GAME.new_game(players, {}, seed)
        dealer, decks = _expected_deal(players, seed)
        view = state.view(None)
        assert sorted(view["card_counts"], reverse=True) == sizes
        assert view["card_counts"] == [len(d) for d in decks]
        assert view["deck_counts"] == [len(d) - 5 for d in decks]
        for seat in range(players):
            # The top of the deck is its last card; slot 0 is the first card turned.
            assert field(state, seat) == [(CODE[c], False) for c in reversed(decks[seat][-5:])]
            assert state.decks[seat] == decks[seat][:-5]
        assert view["discard_count"] == 0 and view["moves"] == 0


def test_three_players_the_extra_card_goes_left_of_a_seeded_dealer_and_moves_first() -> None:
    starters = set()
    for seed in range(30):
        state = GAME.new_game(3, {}, seed)
        dealer, _ = _expected_deal(3, seed)
        extra = (dealer + 1) % 3
        assert state.view(None)["card_counts"][extra] == 18
        assert state.to_act() == [extra]
        opening = state.opening_events()
        assert [e.kind for e in opening] == ["deal", "first_player"]
        assert f"{{p{dealer}}} dealt the deck from their left" in words(opening[0])
        assert words(opening[1]) == f"{{p{extra}}} was dealt the extra card (18 cards), so {{p{extra}}} moves first."
        assert opening[1].seat == extra
        starters.add(extra)
    assert starters == {0, 1, 2}  # not always the host


def test_even_splits_use_the_first_turned_card_rule_in_the_opening_events() -> None:
    for players in (2, 4):
        for seed in range(10):
            state = GAME.new_game(players, {}, seed)
            opening = state.opening_events()
            assert words(opening[0]) == (
                f"Dealt {52 // players} cards each. "
                "Everyone turns their top 5 cards face up, untapped: that is their field."
            )
            # Re-decide from the dealt fields (the coin, if needed, is the next draw of the game's rng).
            rng = Rng(seed)
            rng.shuffle(list(range(52)))
            rng.below(players)
            sizes = [52 // players] * players
            assert choose_first(state.fields, sizes, rng) == (state.turn, opening[1].text)
            assert opening[1].kind == "first_player" and opening[1].seat == state.turn
            assert words(opening[1]).startswith("First turned cards: {p0} ")


# ------------------------------------------------------------------ first player


def ids(*codes: str) -> list[int]:
    return [card_id(c) for c in codes]


def test_first_player_highest_first_turned_card_by_value_not_strength() -> None:
    fields = [ids("KS", "2H", "2D", "2C", "3S"), ids("AS", "KH", "KD", "KC", "QS")]
    seat, reason = choose_first(fields, [26, 26], Rng(0))
    assert seat == 0  # an ace beats a king in strength, but K is the highest value
    assert words(reason) == "First turned cards: {p0} K♠, {p1} A♠. {p0} moves first with the highest first turned card."


def test_first_player_ties_go_to_the_next_turned_card_of_the_tied_seats_only() -> None:
    fields = [
        ids("9S", "2H", "2D", "2C", "3S"),
        ids("9H", "5H", "KD", "KC", "QS"),
        ids("4S", "KS", "QH", "JC", "10C"),
        ids("9D", "5D", "3D", "JH", "10D"),
    ]
    seat, reason = choose_first(fields, [13] * 4, Rng(0))
    assert seat == 1  # seat 2's K♠ second card does not count: seat 2 was not tied
    assert words(reason) == (
        "First turned cards: {p0} 9♠, {p1} 9♥, {p2} 4♠, {p3} 9♦. "
        "{p0} and {p1} and {p3} tie, so their second turned cards decide: {p0} 2♥, {p1} 5♥, {p3} 5♦. "
        "{p1} and {p3} tie, so their third turned cards decide: {p1} K♦, {p3} 3♦. "
        "{p1} moves first with the highest third turned card."
    )


def test_first_player_all_five_tie_goes_to_a_seeded_coin() -> None:
    fields = [ids("9S", "4H", "7D", "2C", "KS"), ids("9H", "4D", "7C", "2D", "KH")]
    picks = set()
    for seed in range(20):
        seat, reason = choose_first(fields, [26, 26], Rng(seed))
        assert words(reason).endswith(f"{{p0}} and {{p1}} still tie after all five cards, so a coin toss picks {{p{seat}}} to move first.")
        assert choose_first(fields, [26, 26], Rng(seed))[0] == seat
        picks.add(seat)
    assert picks == {0, 1}


def test_the_extra_card_beats_the_turned_cards() -> None:
    fields = [ids("KS", "2H", "2D", "2C", "3S"), ids("AS", "KH", "KD", "KC", "QS"), ids("2S", "3H", "4D", "5C", "6S")]
    seat, reason = choose_first(fields, [17, 17, 18], Rng(0))
    assert (seat, words(reason)) == (2, "{p2} was dealt the extra card (18 cards), so {p2} moves first.")


# ------------------------------------------------------------------ attacks


def test_stronger_attacker_discards_the_target_and_is_tapped() -> None:
    state = pos([["JH", "2C"], ["9S", "4D"]], [["5C"], ["6C"]])
    events = state.apply(0, attack("JH", "9S"))
    assert texts(events) == [
        "{p0}'s J♥ attacked {p1}'s 9♠: J♥ is stronger (different suits, higher is stronger), so 9♠ is discarded and J♥ is tapped."
    ]
    assert events[0].kind == "attack" and events[0].seat == 0
    assert field(state, 0) == [("JH", True), ("2C", False)]
    assert field(state, 1) == [("4D", False)]
    assert state.discard == ids("9S")
    assert state.to_act() == [1]
    assert state.view(None)["last_attack"] == {
        "seat": 0, "attacker": "JH", "target_seat": 1, "target": "9S", "compare": 1, "discarded": ["target"], "move": 1,
    }


def test_weaker_attacker_is_allowed_and_only_the_attacker_is_discarded() -> None:
    state = pos([["9S", "2C"], ["JH", "4D"]], [["5C"], ["6C"]])
    assert attack("9S", "JH") in state.legal_actions(0)
    events = state.apply(0, attack("9S", "JH"))
    assert texts(events) == [
        "{p0}'s 9♠ attacked {p1}'s J♥: J♥ is stronger (different suits, higher is stronger), so 9♠ is discarded."
    ]
    assert field(state, 0) == [("2C", False)]
    assert field(state, 1) == [("JH", False), ("4D", False)]
    assert state.view(None)["last_attack"]["discarded"] == ["attacker"]


def test_same_suit_lower_wins_and_an_ace_beats_a_face_card() -> None:
    state = pos([["4C", "AD"], ["JC", "KS"]], [["5H"], ["6H"]])
    events = state.apply(0, attack("4C", "JC"))
    assert "4♣ is stronger (same suit, lower is stronger), so J♣ is discarded" in words(events[0])
    state.apply(1, DRAW)
    events = state.apply(0, attack("AD", "KS"))
    assert "A♦ is stronger (an ace beats a face card), so K♠ is discarded" in words(events[0])


def test_equal_strength_discards_both() -> None:
    state = pos([["7S", "2C"], ["7H", "4D"]], [["5C"], ["6C"]])
    events = state.apply(0, attack("7S", "7H"))
    assert texts(events) == ["{p0}'s 7♠ attacked {p1}'s 7♥: equal strength (same rank), so both are discarded."]
    assert field(state, 0) == [("2C", False)] and field(state, 1) == [("4D", False)]
    assert state.discard == ids("7S", "7H")
    assert state.view(None)["last_attack"]["discarded"] == ["attacker", "target"]


def test_a_tapped_target_may_be_attacked() -> None:
    state = pos([["KS", "2C"], ["9H", "4D"]], [["5C"], ["6C"]], tapped=["9H"])
    assert attack("KS", "9H") in state.legal_actions(0)
    state.apply(0, attack("KS", "9H"))
    assert field(state, 1) == [("4D", False)]


def test_any_opponent_may_be_attacked_in_a_multiplayer_game() -> None:
    state = pos([["KS"], ["9H"], ["QD", "3C"]], [["2S"], ["2H"], ["2D"]])
    assert state.legal_actions(0) == [ATTACK[card_id("KS")][card_id(t)] for t in ("9H", "QD", "3C")] + [DRAW]
    state.apply(0, attack("KS", "3C"))
    assert field(state, 2) == [("QD", False)] and state.to_act() == [1]


def test_a_tapped_card_cannot_attack() -> None:
    state = pos([["9S", "2C"], ["4D"]], [["5C"], ["6C"]], tapped=["9S"])
    assert all(not (a.kind == "attack" and a.args[0] == "9S") for a in state.legal_actions(0))
    assert refused(state, 0, attack("9S", "4D")) == "Your 9♠ is tapped: recover it before it can attack"


def test_attack_refusals_name_the_cards() -> None:
    state = pos([["9S", "2C"], ["JH", "4D"]], [["5C"], ["6C"]], discard=["3H"])
    assert refused(state, 0, attack("2C", "9S")) == "You can't attack your own field (9♠ is yours): pick a card in an opponent's field"
    assert refused(state, 0, attack("JH", "4D")) == "J♥ is not in your field: attack with one of your own untapped cards"
    assert refused(state, 0, attack("KD", "4D")) == "K♦ is not in your field: attack with one of your own untapped cards"
    assert refused(state, 0, attack("9S", "3H")) == "3♥ is not in any opponent's field, so it can't be attacked"
    # A deck card gets the same answer as a discarded one: nothing about decks leaks.
    assert refused(state, 0, attack("9S", "6C")) == "6♣ is not in any opponent's field, so it can't be attacked"


# ------------------------------------------------------------------ recover and draw


def test_recover_untaps_one_of_your_tapped_cards() -> None:
    state = pos([["9S", "2C"], ["4D"]], [["5C"], ["6C"]], tapped=["9S", "2C"])
    assert [a for a in state.legal_actions(0) if a.kind == "recover"] == [RECOVER[card_id("9S")], RECOVER[card_id("2C")]]
    events = state.apply(0, recover("2C"))
    assert texts(events) == ["{p0} recovered 2♣: it is untapped and can attack again."]
    assert field(state, 0) == [("9S", True), ("2C", False)]
    assert state.to_act() == [1]


def test_recover_refusals() -> None:
    state = pos([["9S", "2C"], ["4D", "KH"]], [["5C"], ["6C"]], tapped=["9S", "KH"])
    assert refused(state, 0, recover("2C")) == "Your 2♣ is not tapped: only a tapped card can be recovered"
    assert refused(state, 0, recover("KH")) == "K♥ is not in your field: you can only recover your own tapped cards"


def test_draw_puts_the_deck_top_into_the_next_slot_untapped() -> None:
    state = pos([["9S", "2C"], ["4D"]], [["5C", "8H"], ["6C"]], tapped=["9S"])
    events = state.apply(0, DRAW)
    assert texts(events) == ["{p0} drew 8♥ into their field (1 card left in their deck)."]
    assert field(state, 0) == [("9S", True), ("2C", False), ("8H", False)]
    assert state.view(None)["deck_counts"] == [1, 1]


def test_draw_only_with_fewer_than_five_field_cards_and_a_deck() -> None:
    full = pos([["9S", "2C", "3C", "4C", "5C"], ["4D"]], [["6S"], ["6C"]])
    assert DRAW not in full.legal_actions(0)
    assert refused(full, 0, DRAW) == "Your field is full (5 cards): you can't draw"
    empty = pos([["9S"], ["4D"]], [[], ["6C"]])
    assert DRAW not in empty.legal_actions(0)
    assert refused(empty, 0, DRAW) == "Your deck is empty: you can't draw"
    ok = pos([["9S"], ["4D"]], [["6S"], []])
    assert DRAW in ok.legal_actions(0)


def test_legal_actions_order_attacks_recovers_draw() -> None:
    state = pos([["9S", "2C", "KD"], ["4D", "JH"]], [["6S"], []], tapped=["2C"])
    assert [a.code() for a in state.legal_actions(0)] == [
        "attack:9S,4D", "attack:9S,JH", "attack:KD,4D", "attack:KD,JH", "recover:2C", "draw",
    ]


# ------------------------------------------------------------------ going out, winning, ties


def test_no_cards_rule_an_empty_field_with_a_deck_is_still_in_and_must_draw() -> None:
    state = pos([["KS"], ["9H"]], [["2S"], ["3D"]])
    events = state.apply(0, attack("KS", "9H"))
    assert [e.kind for e in events] == ["attack"]
    assert state.view(None)["status"] == ["playing", "playing"]
    assert state.legal_actions(1) == [DRAW]
    state.apply(1, DRAW)
    assert field(state, 1) == [("3D", False)]


def test_no_cards_rule_out_when_field_and_deck_are_empty() -> None:
    state = pos([["KS"], ["9H"]], [["2S"], []])
    events = state.apply(0, attack("KS", "9H"))
    assert texts(events) == [
        "{p0}'s K♠ attacked {p1}'s 9♥: K♠ is stronger (different suits, higher is stronger), so 9♥ is discarded and K♠ is tapped.",
        "{p1}'s field and deck are empty: {p1} is out.",
        "{p0} is the last player with cards and wins!",
    ]
    assert state.is_over() and state.to_act() == []
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winners, outcome.ranking, outcome.scores) == ((0,), ((0,), (1,)), (2, 0))
    assert words(outcome.reason) == "{p0} is the last player with cards (2 cards left)."
    assert state.view(None)["status"] == ["won", "out"]


def test_field_empty_rule_out_as_soon_as_the_field_is_empty() -> None:
    state = pos([["KS"], ["9H"], ["5D"]], [["2S"], ["3D", "4D"], ["6D"]], options=FIELD_EMPTY)
    events = state.apply(0, attack("KS", "9H"))
    assert texts(events)[1] == "{p1}'s field is empty: {p1} is out."
    assert state.view(None)["status"] == ["playing", "out", "playing"]
    assert state.view(None)["deck_counts"] == [1, 2, 1]  # the deck stays, dead
    assert state.to_act() == [2]  # seat 1 is skipped
    assert not state.is_over()


def test_an_attacker_can_knock_itself_out() -> None:
    state = pos([["2H"], ["9H", "4D"]], [[], ["3D"]])
    events = state.apply(0, attack("2H", "4D"))
    assert [e.kind for e in events] == ["attack", "out", "win"]
    assert state.outcome().winners == (1,)


def test_last_cards_falling_in_the_same_attack_is_a_tie() -> None:
    for options in ({}, FIELD_EMPTY):
        state = pos([["7S"], ["7H"]], options=options)
        events = state.apply(0, attack("7S", "7H"))
        assert [e.kind for e in events] == ["attack", "out", "out", "tie"]
        assert words(events[-1]) == "{p0} and {p1} lost their last cards in the same attack: the game is a tie."
        outcome = state.outcome()
        assert (outcome.winners, outcome.ranking, outcome.scores) == ((), ((0, 1),), (0, 0))
        assert words(outcome.reason) == "Tie: {p0} and {p1} lost their last cards in the same attack."
        assert state.view(None)["status"] == ["tied", "tied"]


def test_two_seats_out_together_share_a_place_while_the_third_wins() -> None:
    state = pos([["7S"], ["KD"], ["7H"]])
    state.apply(0, attack("7S", "7H"))
    outcome = state.outcome()
    assert (outcome.winners, outcome.ranking) == ((1,), ((1,), (0, 2)))
    assert state.view(None)["out_order"] == [[0, 2]]


def test_ranking_is_the_reverse_order_of_going_out_and_out_seats_are_skipped() -> None:
    state = pos([["KS", "QS"], ["2H"], ["3H"], ["4H"]], [["2S"], [], [], []])
    state.apply(0, attack("KS", "3H"))  # seat 2 goes out first
    assert state.to_act() == [1]
    assert all(not a.args or a.args[-1] != "3H" for a in state.legal_actions(1))
    state.apply(1, attack("2H", "QS"))  # seat 1 knocks itself out
    assert state.to_act() == [3]  # seat 2 is out: skipped
    assert state.legal_actions(2) == []
    refused(state, 2, DRAW, NotYourTurn)
    state.apply(3, attack("4H", "QS"))
    outcome = state.outcome()
    assert outcome.ranking == ((0,), (3,), (1,), (2,))
    assert outcome.scores == (3, 0, 0, 0)
    assert state.view(None)["out_order"] == [[2], [1], [3]]
