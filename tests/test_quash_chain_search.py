"""QUASH advanced play: the swap-chain steps offered are exactly those from which the chain can
still end on an open slot (RULINGS §6), checked against a plain search of every chain on boards
met in seeded random games, and on hand-set boards where a chain ends only by passing through a
spot again."""

from __future__ import annotations

from functools import cache
from itertools import product

import pytest

from games.cards import CODE
from games.quash import GAME, QuashState
from games.quash.bound import Bound, shift
from games.quash.rules import SPOT_SIZE, fits
from games.rng import Rng
from tests.test_quash_chain_rules import TAKEBACK, advanced
from tests.test_quash_rules import place, swap


@cache
def fits_in(cards: tuple[int, ...], spot: int) -> bool:
    """Whether ``cards`` fit spot ``spot`` (``fits``, remembered: the search asks the same often)."""
    return fits(cards, SPOT_SIZE[spot])


def can_end(spots: list[list[int]], moved: set[int], flying: int, seen: dict) -> bool:
    """Whether ``flying`` can end the chain: every chain tried, spots passed through again allowed.

    ``seen`` remembers answers by board, card and cards moved, which is all they depend on."""
    key = (tuple(map(tuple, spots)), flying, frozenset(moved))
    if key in seen:
        return seen[key]
    seen[key] = found = _can_end(spots, moved, flying, seen)
    return found


def _can_end(spots: list[list[int]], moved: set[int], flying: int, seen: dict) -> bool:
    for t, cards in enumerate(spots):
        if len(cards) < SPOT_SIZE[t] and fits_in((*cards, flying), t):
            return True
    for t, cards in enumerate(spots):
        for i, z in enumerate(cards):
            if z in moved or not fits_in((*cards[:i], flying, *cards[i + 1:]), t):
                continue
            cards[i] = flying
            found = can_end(spots, moved | {flying}, z, seen)
            cards[i] = z
            if found:
                return True
    return False


def expected_steps(state: QuashState, seat: int, seen: dict) -> set[str]:
    """The swap steps the rules allow ``seat`` now, by plain search (``seen`` as for :func:`can_end`)."""
    spots = [list(cards) for cards in state.board[seat % 2]]
    moved = {step[0] for step in state.chain}
    movers = [state.chain[-1][2]] if state.chain else state.hands[seat]
    steps = set()
    for card in movers:
        for t, cards in enumerate(spots):
            for i, z in enumerate(cards):
                if z in moved or not fits_in((*cards[:i], card, *cards[i + 1:]), t):
                    continue
                cards[i] = card
                if can_end(spots, moved | {card}, z, seen):
                    steps.add(f"swap:{CODE[card]},{t + 1},{CODE[z]}")
                cards[i] = z
    return steps


@pytest.mark.parametrize("players, seeds", [(2, (0, 2, 6, 7)), (4, (2,))])
def test_offered_steps_are_exactly_those_that_can_end_on_random_boards(players: int, seeds: tuple[int, ...]) -> None:
    """The plain search is exponential: these seeds' boards take it about a second each (two-player
    seed 1, 11 s for 103 positions, is left out), with chains up to 11 steps long."""
    checked = 0
    seen: dict = {}
    for seed in seeds:
        state = GAME.new_game(players, {"advanced": True, "finish": 12}, seed)
        rng = Rng(seed)
        while not state.is_over() and state.round_no == 1 and state.phase == "play":
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            if not state.places_freely(seat):
                assert {a.code() for a in legal if a.kind == "swap"} == expected_steps(state, seat, seen)
                checked += 1
            moves = [a for a in legal if a != TAKEBACK]
            state.apply(seat, moves[rng.below(len(moves))])
    assert checked > 30 * len(seeds)


def test_a_step_that_ends_only_by_passing_through_spots_again_is_offered() -> None:
    # Only spot 8 has an open slot, beside 6♣: it takes a 5 or a 7, and no 5 or 7 can be freed.
    # 2♠ (which fits only in single spots) still starts a chain: 4♠ and the spades of spot 5 make
    # room through spot 5 twice, Q♠ frees 9♦, and 9♦ takes 6♣'s place so that 8♥ can land beside it.
    red = ["9D 10D JD", "3S 4S", "KH", "2C 3C 4C", "QS KS", "AH", "QH KC AD", "6C", "8H"]
    state = advanced(red, ["2S"])
    assert not state.places_freely(0)
    for step in (swap("2S", 2, "4S"), swap("4S", 3, "KH"), swap("KH", 5, "KS"), swap("KS", 6, "AH"),
                 swap("AH", 5, "QS"), swap("QS", 1, "9D"), swap("9D", 8, "6C"), swap("6C", 9, "8H")):
        assert step in state.legal_actions(0)
        state.apply(0, step)
    assert place("8H", 8) in state.legal_actions(0)
    state.apply(0, place("8H", 8))
    assert [CODE[c] for c in state.board[0][4]] == ["AH", "KH"] and [CODE[c] for c in state.board[0][7]] == ["9D", "8H"]


def test_the_ranks_that_fit_beside_some_choice_of_ranks_match_trying_every_choice() -> None:
    """The bound's packed fits (every slot of a side at once) against trying every choice of ranks."""
    rng = Rng(7)
    for _ in range(400):
        counts = [rng.below(size + 1) for size in SPOT_SIZE]
        bound = Bound(counts, [2 + rng.below(13) for _ in range(sum(counts))])
        masks = [[sum(1 << r for r in range(2, 15) if rng.below(4) == 0) for _ in range(n)] for n in counts]
        may = sum(m << shift(t, i) for t, spot in enumerate(masks) for i, m in enumerate(spot))
        fit = bound.fits(may)
        for t, (size, spot) in enumerate(zip(SPOT_SIZE, masks)):
            for i in range(min(len(spot) + 1, size)):  # each card's slot, then the first open one
                others = [[r for r in range(2, 15) if m >> r & 1] for j, m in enumerate(spot) if j != i]
                expected = 0
                for ranks in product(*others):
                    expected |= sum(1 << r for r in range(2, 15) if r not in ranks and len(set(ranks)) == len(ranks)
                                    and max((r, *ranks)) - min((r, *ranks)) < size)
                assert fit >> shift(t, i) & 0xFFFF == expected, (counts, t, i, spot)
