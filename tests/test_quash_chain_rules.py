"""QUASH advanced play (RULINGS.md §6): placements that keep a run possible, free placement,
and swap chains played step by step, one placement per action (issue 10), with the take-back,
old whole-chain actions and old snapshots (helpers in test_quash_rules.py)."""

from __future__ import annotations

import json

from games.base import Action
from games.cards import CODE
from games.errors import IllegalAction, NotYourTurn
from games.quash import GAME, QuashState
from tests.contract import check_views
from tests.test_quash_rules import EMPTY, place, refused, swap, texts, with_spot

TAKEBACK = Action("takeback")


def advanced(red: list[str], hand: list[str], black_hand: tuple[str, ...] = ("2H",)) -> QuashState:
    """Advanced 2-player play, RED (seat 0) to place on ``red``; BLACK's side is empty."""
    return QuashState.from_position(2, board=[red, EMPTY], hands=[hand, list(black_hand)], turn=0, advanced=True)


def red_spot(state: QuashState, spot: int) -> list[str]:
    return [CODE[c] for c in state.board[0][spot - 1]]


def board_codes(state: QuashState) -> list[list[str]]:
    return [red_spot(state, n) for n in range(1, 10)]


def test_advanced_placements_must_keep_a_run_possible_unless_nothing_can() -> None:
    state = advanced(with_spot(EMPTY, 1, "10H JC"), ["6C", "9D"])
    assert "could never become a run" in refused(state, 0, place("6C", 1))
    assert place("9D", 1) in state.legal_actions(0) and place("6C", 3) in state.legal_actions(0)
    assert state.view(0)["free_placement"] is False


def test_free_placement_when_no_move_keeps_a_run_possible() -> None:
    # RED's only open slot is beside the 6♣ of spot 8; no 5 or 7 is anywhere to be brought there.
    red = ["9D 10D JD", "3S 4S", "KH", "2C 3C 4C", "QS KS", "AH", "QH KC AD", "6C", "8H"]
    black = ["8C 9H 10S", "5C 6H", "QD", "2H 3D 4D", "7S 8S", "AS", "JC QC KD", "10H JS", ""]
    state = QuashState.from_position(2, board=[red, black], hands=[["2S"], ["7C"]], turn=0, advanced=True)
    assert state.legal_actions(0) == [place("2S", 8)] and state.view(0)["free_placement"] is True
    events = state.apply(0, place("2S", 8))
    assert texts(events) == ["{p0} placed 2♠ on RED's spot 8 (double) (no move could keep a run possible, "
                             "so the spot will fail)."]
    state.apply(1, place("7C", 9))
    assert state.last_round["spots"][7]["how"] == "failed"
    # With a 7 in hand instead, the free placement is refused: 6♣ 7♦ keeps the run.
    state = QuashState.from_position(2, board=[red, black], hands=[["2S", "7D"], ["7C"]], turn=0, advanced=True)
    assert "could never become a run" in refused(state, 0, place("2S", 8))


def test_a_swap_step_leaves_the_displaced_card_in_the_air_for_the_same_seat() -> None:
    # The source's example: 9♦ takes 6♣'s place in 6♣ 7♦ 8♦; 6♣ must go to another slot.
    state = advanced(with_spot(EMPTY, 1, "6C 7D 8D"), ["9D", "2S"])
    legal = state.legal_actions(0)
    assert swap("9D", 1, "6C") in legal and swap("9D", 1, "7D") not in legal  # 6 8 9 could never be a run
    assert "6♣ 8♦ 9♦ could never become a run" in refused(state, 0, swap("9D", 1, "7D"))
    assert state.apply(0, swap("9D", 1, "6C")) == []  # announced when the chain ends
    assert state.to_act() == [0] and state.legal_actions(1) == [] and state.flying() == CODE.index("6C")
    assert red_spot(state, 1) == ["9D", "7D", "8D"] and [CODE[c] for c in state.hands[0]] == ["2S"]
    legal = state.legal_actions(0)
    assert {a.args[0] for a in legal if a.kind != "takeback"} == {"6C"} and legal[-1] == TAKEBACK
    assert place("6C", 9) in legal and place("2S", 9) not in legal
    assert "6♣ is in the air" in refused(state, 0, place("2S", 9))
    refused(state, 1, place("2H", 1), NotYourTurn)
    public = state.view(None)
    assert public["chain"] == {"seat": 0, "side": "RED", "steps": [{"card": "9D", "spot": 1}], "flying": "6C"}
    assert public["turn"] == 0 and state.view(0)["legal"] == [a.code() for a in legal]
    check_views(state)
    events = state.apply(0, place("6C", 9))
    assert texts(events) == ["{p0} swapped on RED's side: 9♦ to spot 1 in place of 6♣, which moved to spot 9."]
    assert state.to_act() == [1] and state.chain == [] and state.view(None)["chain"] is None


def test_a_chain_displacing_three_cards() -> None:
    red = ["6C 7D 8D", "", "AS", "5H 7S", "", "", "", "", ""]
    state = advanced(red, ["9D", "2S"])
    for step in (swap("9D", 1, "6C"), swap("6C", 4, "7S"), swap("7S", 3, "AS")):
        assert step in state.legal_actions(0)
        assert state.apply(0, step) == [] and state.to_act() == [0]
    assert state.view(None)["chain"]["steps"] == [{"card": "9D", "spot": 1}, {"card": "6C", "spot": 4},
                                                  {"card": "7S", "spot": 3}]
    events = state.apply(0, place("AS", 6))
    assert texts(events) == [
        "{p0} swapped on RED's side: 9♦ to spot 1 in place of 6♣, which moved to spot 4 in place of 7♠, "
        "which moved to spot 3 in place of A♠, which moved to spot 6."]
    assert board_codes(state)[:6] == [["9D", "7D", "8D"], [], ["7S"], ["5H", "6C"], [], ["AS"]]


def test_a_chain_may_pass_through_a_spot_again_with_another_card() -> None:
    red = ["6C 7D 8D", "", "10S", "", "", "", "", "", ""]
    state = advanced(red, ["9D", "2S"])
    state.apply(0, swap("9D", 1, "6C"))
    state.apply(0, swap("6C", 3, "10S"))
    assert swap("10S", 1, "7D") in state.legal_actions(0)  # back into spot 1: 8 9 10
    state.apply(0, swap("10S", 1, "7D"))
    events = state.apply(0, place("7D", 5))
    assert texts(events)[0].endswith("which moved to spot 3 in place of 10♠, which moved to spot 1 in place of 7♦, "
                                     "which moved to spot 5.")
    assert red_spot(state, 1) == ["9D", "10S", "8D"] and red_spot(state, 3) == ["6C"] and red_spot(state, 5) == ["7D"]


def test_a_card_moves_at_most_once_a_turn() -> None:
    red = ["6C 7D 8D", "", "10S", "", "", "", "", "", ""]
    state = advanced(red, ["9D", "2S"])
    state.apply(0, swap("9D", 1, "6C"))
    state.apply(0, swap("6C", 3, "10S"))
    # 10♠ is in the air: it may not displace 6♣ or 9♦ (both moved this turn), and 6♣ may not move again.
    assert "6♣ has already moved this turn" in refused(state, 0, swap("10S", 3, "6C"))
    assert "9♦ has already moved this turn" in refused(state, 0, swap("10S", 1, "9D"))
    assert "10♠ is in the air" in refused(state, 0, place("6C", 5))
    assert "10♠ is in the air" in refused(state, 0, place("2S", 5))  # and no hand card either
    assert not any(a.kind == "swap" and a.args[2] in ("6C", "9D") for a in state.legal_actions(0))


def test_a_step_is_offered_only_when_the_chain_can_still_end() -> None:
    # Only spot 8 has an open slot, beside 6♣: it takes a 5 or a 7. 9♠ into single spot 3 displaces K♥,
    # which can only go on if a 7 can be freed: here the single 7♥ of spot 9.
    red = ["9D 10D JD", "3S 4S", "KH", "2C 3C 4C", "QS KS", "AH", "QH KC AD", "6C", "7H"]
    state = advanced(red, ["9S", "5D"])
    legal = state.legal_actions(0)
    assert swap("9S", 3, "KH") in legal and place("5D", 8) in legal
    state.apply(0, swap("9S", 3, "KH"))
    legal = state.legal_actions(0)
    assert swap("KH", 9, "7H") in legal and not any(a.kind == "place" for a in legal)  # K♥ can't land yet
    state.apply(0, swap("KH", 9, "7H"))
    # 7♥ lands beside 6♣, or even takes 6♣'s place and 6♣ takes the open slot of its own spot.
    assert state.legal_actions(0) == [place("7H", 8), swap("7H", 8, "6C"), TAKEBACK]
    # With an 8 in spot 9 instead, no 5 or 7 can ever reach spot 8: the same first step dead-ends.
    state = advanced(with_spot(red, 9, "8H"), ["9S", "5D"])
    assert [a.code() for a in state.legal_actions(0)] == ["place:5D,8", "swap:5D,8,6C"]  # no chain for 9♠
    assert "K♥ could then go nowhere" in refused(state, 0, swap("9S", 3, "KH"))


def test_take_back_restores_the_side_as_the_turn_began() -> None:
    red = ["6C 7D 8D", "", "AS", "5H 7S", "", "", "", "", ""]
    state = advanced(red, ["9D", "2S"])
    before = state.view(0)
    refused(state, 0, TAKEBACK, IllegalAction, "no swap chain to take back")
    state.apply(0, swap("9D", 1, "6C"))
    state.apply(0, swap("6C", 4, "7S"))
    events = state.apply(0, TAKEBACK)
    assert texts(events) == ["{p0} took a swap chain back; RED's side is as it was."]
    after = state.view(0)
    assert after["board"] == before["board"] and after["hand"] == before["hand"] and after["chain"] is None
    assert after["legal"] == before["legal"] and state.to_act() == [0] and after["moves"] == before["moves"] + 3


def test_a_restored_snapshot_resumes_the_open_chain() -> None:
    state = advanced(["6C 7D 8D", "", "AS", "5H 7S", "", "", "", "", ""], ["9D", "2S"])
    state.apply(0, swap("9D", 1, "6C"))
    snapshot = json.loads(json.dumps(state.to_json()))
    assert snapshot["format"] == 2 and snapshot["chain"] == [["9D", 0, "6C"]]
    copy = GAME.from_json(snapshot)
    assert copy.to_act() == [0] and copy.legal_actions(0) == state.legal_actions(0)
    assert texts(copy.apply(0, place("6C", 9))) == texts(state.apply(0, place("6C", 9)))
    assert copy.to_json() == state.to_json()


def test_an_old_format_snapshot_loads_with_no_chain_open() -> None:
    state = advanced(["6C 7D 8D", "", "", "", "", "", "", "", ""], ["9D", "2S"])
    old = {k: v for k, v in state.to_json().items() if k != "chain"} | {"format": 1}
    loaded = GAME.from_json(old)
    assert loaded.chain == [] and loaded.to_json() == state.to_json()
    assert loaded.legal_actions(0) == state.legal_actions(0)


def test_an_old_whole_chain_action_replays_step_by_step_as_one_move() -> None:
    red = ["6C 7D 8D", "", "", "5H 7S", "", "", "", "", ""]
    state = advanced(red, ["9D", "2S"])
    moves = state.moves
    events = state.apply(0, swap("9D", 1, "6C", 4, "7S", 9))
    assert texts(events) == ["{p0} swapped on RED's side: 9♦ to spot 1 in place of 6♣, which moved to spot 4 "
                             "in place of 7♠, which moved to spot 9."]
    assert board_codes(state)[:4] == [["9D", "7D", "8D"], [], [], ["5H", "6C"]] and red_spot(state, 9) == ["7S"]
    assert state.moves == moves + 1 and state.to_act() == [1] and state.chain == []
    # All or nothing: a whole chain whose last card can't land changes nothing.
    state = advanced(red, ["9D", "2S"])
    assert "Spot 1 (triple) is full" in refused(state, 0, swap("9D", 1, "6C", 4, "7S", 1))
    assert "could never become a run" in refused(state, 0, swap("9D", 1, "7D", 9))
    # An old move log (seed + whole-chain actions) still replays.
    game = GAME.new_game(2, {"advanced": True}, 4)
    log = []
    while len(log) < 12 or game.chain:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        action = next((a for a in legal if a.kind == "swap"), legal[0])  # chains whenever possible
        log.append((seat, action))
        game.apply(seat, action)
    whole = _whole_chains(log)
    assert any(len(a.args) > 3 for _, a in whole)
    replayed = GAME.replay(2, {"advanced": True}, 4, whole)
    assert replayed.board == game.board and replayed.hands == game.hands and replayed.turn == game.turn


def _whole_chains(log: list[tuple[int, Action]]) -> list[tuple[int, Action]]:
    """A step-by-step move log written the old way: each chain as one ``swap`` action."""
    out: list[tuple[int, Action]] = []
    steps: list = []
    for seat, action in log:
        if action.kind == "swap":
            steps += list(action.args[1:]) if steps else list(action.args)
            continue
        if steps:
            out.append((seat, Action("swap", (*steps, action.args[1]))))
            steps = []
        else:
            out.append((seat, action))
    return out
