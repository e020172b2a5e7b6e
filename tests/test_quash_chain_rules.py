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
    # RED's only open slot is beside 2♣ 9♦ in spot 1, which can never become a run; neither card can
    # be displaced (no 3, 4, 7, 8, 10 or J on RED's side or in hand), so no chain could ever end.
    red = ["2C 9D", "5S 6S", "KH", "QS KS AS", "5H 6H", "AH", "QH KC AD", "5D 6D", "2H"]
    black = ["8C 9H 10S", "3D 4D", "QD", "7S 8S 9S", "10H JS", "4H", "JC QC KD", "3S 4S", ""]
    state = QuashState.from_position(2, board=[red, black], hands=[["2S"], ["7C"]], turn=0, advanced=True)
    assert state.legal_actions(0) == [place("2S", 1)] and state.view(0)["free_placement"] is True
    events = state.apply(0, place("2S", 1))
    assert texts(events) == ["{p0} placed 2♠ on RED's spot 1 (triple) (no move could keep a run possible, "
                             "so the spot will fail)."]
    state.apply(1, place("7C", 9))
    assert state.last_round["spots"][0]["how"] == "failed"
    # With 10♣ in hand and J♥ in spot 9, 10♣ can take 2♣'s place, 2♣ J♥'s, and J♥ lands beside 9♦ 10♣:
    # the free placement is refused.
    state = QuashState.from_position(2, board=[with_spot(red, 9, "JH"), black], hands=[["2S", "10C"], ["7C"]],
                                     turn=0, advanced=True)
    assert swap("10C", 1, "2C") in state.legal_actions(0) and not state.places_freely(0)
    assert "could never become a run" in refused(state, 0, place("2S", 1))


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
    assert texts(events) == ["{p0} swapped on RED's side: 9♦→1 ⇒ 6♣→9."]
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
        "{p0} swapped on RED's side: 9♦→1 ⇒ 6♣→4 ⇒ 7♠→3 ⇒ A♠→6."]
    assert board_codes(state)[:6] == [["9D", "7D", "8D"], [], ["7S"], ["5H", "6C"], [], ["AS"]]


def test_a_chain_may_pass_through_a_spot_again_with_another_card() -> None:
    red = ["6C 7D 8D", "", "10S", "", "", "", "", "", ""]
    state = advanced(red, ["9D", "2S"])
    state.apply(0, swap("9D", 1, "6C"))
    state.apply(0, swap("6C", 3, "10S"))
    assert swap("10S", 1, "7D") in state.legal_actions(0)  # back into spot 1: 8 9 10
    state.apply(0, swap("10S", 1, "7D"))
    events = state.apply(0, place("7D", 5))
    assert texts(events)[0].endswith(": 9♦→1 ⇒ 6♣→3 ⇒ 10♠→1 ⇒ 7♦→5.")  # spot 1 twice, with another card
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
    # Spot 1 (9♦ 10♦) is RED's only open slot: it takes an 8 or a J. J♣ (beside 10♣ in spot 8) flies
    # only for a 9, and the 9s on the side fly only for a 9 or a J: 9♥ from the hand starts chains,
    # 2♥ can't, and neither can 9♥ into a single spot (the single's card could never bring a 9 or J).
    red = ["9D 10D", "3S 4S", "5H", "2C 3C 4C", "9C 10S", "6H", "4D 5D 6D", "10C JC", "2D"]
    state = advanced(red, ["2H", "9H"], black_hand=("AS",))
    assert [a.code() for a in state.legal_actions(0)] == ["swap:9H,1,9D", "swap:9H,5,9C", "swap:9H,8,JC"]
    assert "5♥ could then go nowhere" in refused(state, 0, swap("9H", 3, "5H"))
    assert "4♠ could then go nowhere" in refused(state, 0, swap("2H", 2, "4S"))
    # Through spot 5 and spot 8, J♣ lands beside 9♥ 10♦; 9♦ could not stop in single spot 3.
    state.apply(0, swap("9H", 1, "9D"))
    assert swap("9D", 3, "5H") not in state.legal_actions(0)
    for step in (swap("9D", 5, "9C"), swap("9C", 8, "JC")):
        assert step in state.legal_actions(0)
        state.apply(0, step)
    assert place("JC", 1) in state.legal_actions(0)
    state.apply(0, place("JC", 1))
    assert board_codes(state)[0] == ["9H", "10D", "JC"]


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
    assert texts(events) == ["{p0} swapped on RED's side: 9♦→1 ⇒ 6♣→4 ⇒ 7♠→9."]
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
