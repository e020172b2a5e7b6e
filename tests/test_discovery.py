"""The registry finds a game from its package alone: a throwaway two-player game written
into a temporary directory is discovered, passes the shared contract, and renders into
valid Discord messages offering every legal move (with the default look, as it has no
Discord module)."""

from __future__ import annotations

import dataclasses
import sys
import textwrap
from pathlib import Path
from typing import Iterator

import pytest

import games
from cogs.games import load_game_uis
from cogs.ui import DefaultUI, ui_for
from games.base import Game
from tests.contract import check_contract, contract_cases

from tests.rendering import render_every_position

PACKAGE = "throwaway_duel"

DUEL = textwrap.dedent('''
    """Duel: two players each get four cards and take turns laying one; the higher total wins."""

    from dataclasses import dataclass

    from games.base import Action, Event, Game, GameState, Outcome, OptionSpec
    from games.cards import parse_card, shuffled_deck
    from games.errors import IllegalAction, MalformedAction
    from games.rng import Rng


    @dataclass(eq=False, kw_only=True)
    class DuelState(GameState):
        game_id = "throwaway-duel"

        hands: list[list[str]]
        laid: list[list[str]]
        turn: int

        @classmethod
        def new_game(cls, players, options, seed):
            rng = Rng(seed)
            deck = shuffled_deck(rng)[: options["cards"] * 2]
            hands = [sorted(c.code for c in deck[::2]), sorted(c.code for c in deck[1::2])]
            return cls(players=players, options=options, seed=seed, rng=rng, hands=hands, laid=[[], []], turn=0)

        def to_act(self):
            return [] if self.is_over() else [self.turn]

        def legal_actions(self, seat):
            return [Action("lay", (c,)) for c in self.hands[seat]] if seat in self.to_act() else []

        def apply(self, seat, action):
            self.check_turn(seat)
            if action.kind != "lay" or len(action.args) != 1 or not isinstance(action.args[0], str):
                raise MalformedAction("Duel has one move: lay a card")
            card = parse_card(action.args[0]).code
            if card not in self.hands[seat]:
                raise IllegalAction(f"You don't hold {card}")
            self.hands[seat].remove(card)
            self.laid[seat].append(card)
            self.turn = 1 - seat
            return [Event("lay", f"{{p{seat}}} lays {card}", seat)]

        def view(self, seat=None):
            shown = {"game": self.game_id, "laid": self.laid, "hand_counts": [len(h) for h in self.hands]}
            return shown if seat is None else {**shown, "hand": list(self.hands[seat])}

        def is_over(self):
            return not self.hands[0] and not self.hands[1]

        def outcome(self):
            if not self.is_over():
                return None
            scores = tuple(sum(parse_card(c).value for c in laid) for laid in self.laid)
            if scores[0] == scores[1]:
                return Outcome((), ((0, 1),), scores, "A tie.")
            best = 0 if scores[0] > scores[1] else 1
            return Outcome((best,), ((best,), (1 - best,)), scores, f"{{p{best}}} laid more.")

        def zones(self):
            named = {"hand:0": self.hands[0], "hand:1": self.hands[1], "laid:0": self.laid[0], "laid:1": self.laid[1]}
            return {zone: [parse_card(c) for c in cards] for zone, cards in named.items()}

        def hidden_cards(self, seat):
            return [parse_card(c) for s in (0, 1) if s != seat for c in self.hands[s]]


    GAME = Game(
        id="throwaway-duel", name="Duel", min_players=2, max_players=2,
        options=(OptionSpec("cards", 4, "cards dealt to each player", choices=(2, 4)),),
        state_class=DuelState, command="throwaway", summary="Duel, a throwaway test game",
    )
''')


@pytest.fixture
def duel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Game]]:
    """The throwaway package, written to a temporary directory and discovered there."""
    package = tmp_path / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text(DUEL, encoding="utf-8")
    (tmp_path / "not_a_game").mkdir()
    (tmp_path / "not_a_game" / "__init__.py").write_text("NOT_GAME = True\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        yield games.discover(str(tmp_path))
    finally:
        games.unregister("throwaway-duel")
        for name in (PACKAGE, "not_a_game"):
            sys.modules.pop(name, None)


def test_a_game_package_in_another_directory_is_found(duel: list[Game]) -> None:
    assert [game.id for game in duel] == ["throwaway-duel"]
    assert games.get_game("throwaway-duel") is duel[0]
    assert games.GAME_IDS[-1] == "throwaway-duel" and "throwaway-duel" in {g.id for g in games.all_games()}


def test_the_found_game_passes_the_shared_contract(duel: list[Game]) -> None:
    cases = contract_cases(duel[0])
    assert cases == [(2, {"cards": 2}), (2, {"cards": 4})]
    for players, options in cases:
        for seed in range(5):
            check_contract("throwaway-duel", players, options, seed)


def test_the_found_game_renders_and_offers_every_legal_move(duel: list[Game]) -> None:
    load_game_uis()
    assert type(ui_for("throwaway-duel")) is DefaultUI
    for cards in (2, 4):
        render_every_position("throwaway-duel", {"cards": cards}, 2, None, seeds=3)


def test_the_registry_forgets_the_game_afterwards() -> None:
    assert "throwaway-duel" not in games.GAME_IDS
    with pytest.raises(games.GameError):
        games.get_game("throwaway-duel")


def test_two_games_cannot_share_an_id() -> None:
    with pytest.raises(games.GameError, match="Two games"):
        games.register(dataclasses.replace(games.get_game("war"), name="Another War"))
