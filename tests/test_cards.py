"""Shared card helpers (games/cards.py) and the seeded Rng (games/rng.py)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from games.cards import (
    CODE,
    DECK,
    ID_BY_CODE,
    JOKER,
    PRETTY,
    RANKS,
    SUITS,
    VALUE,
    Card,
    card_id_reader,
    codes,
    deal,
    parse_card,
    parse_cards,
    pretty,
    shuffled_deck,
    standard_deck,
)
from games.errors import GameError, MalformedAction
from games.rng import Rng


def test_codes_parse_case_insensitively_to_interned_cards() -> None:
    assert parse_card("qs") is parse_card("QS") is parse_card(" Qs ")
    assert parse_card("10h") == Card("10", "H")
    assert parse_card("jk") is JOKER and JOKER.is_joker and JOKER.code == "JK"
    card = parse_card("AC")
    assert parse_card(card) is card
    assert (card.rank, card.suit, card.value, card.code, card.pretty) == ("A", "C", 1, "AC", "A♣")
    assert parse_card("KD").value == 13 and str(parse_card("KD")) == "KD"


CARD_TEXT = st.text(alphabet="0123456789AJQKSHDCTXajqkshdc \t", max_size=5)
"""Text near card codes: ranks, suits, digits, spaces, in any case."""


def _is_card_code(value: object) -> bool:
    return isinstance(value, str) and value.strip().upper() in {card.code for card in standard_deck(1, 1)}


@given(st.one_of(CARD_TEXT, st.text(max_size=8), st.integers(), st.none(), st.tuples(CARD_TEXT, CARD_TEXT)))
def test_anything_else_is_refused_with_the_input_named(bad: object) -> None:
    assume(not _is_card_code(bad))
    with pytest.raises(MalformedAction) as info:
        parse_card(bad)  # type: ignore[arg-type]
    assert repr(bad) in str(info.value)
    assert isinstance(info.value, GameError) and isinstance(info.value, ValueError)


for _bad in ("", "1S", "11H", "QX", "Q", "S", "QSS", "JOKER", "T S", 7, None, ("Q", "S")):  # always tried too
    test_anything_else_is_refused_with_the_input_named = example(_bad)(test_anything_else_is_refused_with_the_input_named)


def test_every_code_round_trips() -> None:
    for card in standard_deck(1, 2):
        assert parse_card(card.code) is card or parse_card(card.code) == card
    assert codes(parse_cards(["QS", "10h"])) == ["QS", "10H"]
    assert pretty(["QH", "QC", "JK"]) == "Q♥ Q♣ 🃏"


def test_decks() -> None:
    one = standard_deck()
    assert len(one) == 52 == len(set(one))
    assert one[0].code == "AS" and one[12].code == "KS" and one[-1].code == "KC"
    assert {c.rank for c in one} == set(RANKS) and {c.suit for c in one} == set(SUITS)
    two = standard_deck(2, 2)
    counts = Counter(c.code for c in two)
    assert len(two) == 108 and counts["QS"] == 2 and counts["JK"] == 4


def test_card_ids_number_one_deck_and_refuse_a_joker_in_the_game_s_words() -> None:
    assert list(DECK) == standard_deck() and len(set(DECK)) == 52
    for i, card in enumerate(DECK):
        assert (CODE[i], PRETTY[i], VALUE[i], ID_BY_CODE[card.code]) == (card.code, card.pretty, card.value, i)
    card_id = card_id_reader("Some Game")
    assert card_id("QS") == card_id("qs") == card_id(parse_card("QS")) == DECK.index(parse_card("QS"))
    with pytest.raises(MalformedAction, match="^Some Game is played without jokers$"):
        card_id("JK")
    with pytest.raises(MalformedAction, match="is not a card"):
        card_id("XX")


def test_shuffles_are_seeded() -> None:
    assert shuffled_deck(Rng(7)) == shuffled_deck(Rng(7))
    assert shuffled_deck(Rng(7)) != shuffled_deck(Rng(8))
    assert sorted(shuffled_deck(Rng(7)), key=standard_deck().index) == standard_deck()


def test_deal_is_one_card_at_a_time_from_the_top() -> None:
    stock = list(range(10))
    hands = deal(stock, 3, 2)
    assert hands == [[9, 6], [8, 5], [7, 4]]
    assert stock == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        deal(stock, 3, 2)


def test_rng_is_deterministic_and_its_state_is_one_int() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    copy = Rng(a.state)
    assert copy.below(1000) == a.below(1000)
    with pytest.raises(ValueError):
        a.below(0)


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=10**6))
def test_rng_below_stays_in_range(seed: int, n: int) -> None:
    rng = Rng(seed)
    assert all(0 <= rng.below(n) < n for _ in range(20))


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_rng_shuffle_is_a_permutation(seed: int) -> None:
    items = list(range(30))
    Rng(seed).shuffle(items)
    assert sorted(items) == list(range(30))
