"""The registry finds a game from its package alone: the guide's Duel (docs/adding-a-game.md,
built by :mod:`tests.guide`) written as a top-level package, or as one module, into a temporary
directory is discovered there and forgotten afterwards; ids follow the package or module name. The guide's game
passing the shared tests is tests/test_guide.py."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import games
from games.base import Game
from games.cards import parse_card
from games.i18n import Seat, catalog_files, say
from games.pictures import pictures_for
from games.pictures.base import GamePictures
from tests.guide import guide_files, skip_if_a_duel_is_installed

skip_if_a_duel_is_installed()


def write_top_level(root: Path, package: str) -> None:
    """The guide's engine files as the top-level package ``package`` (absolute imports of ``games``)."""
    for path, source in guide_files().items():
        if path.startswith("games/duel/"):
            target = root / package / Path(path).relative_to("games/duel")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(source.replace("from ..", "from games."), encoding="utf-8")


def write_single_module(root: Path, module: str) -> None:
    """The guide's engine files as one top-level module ``module``: a small game may be one file."""
    parts = guide_files()
    lines = ["from __future__ import annotations"]
    for name in ("state", "ai", "rules_text", "game"):
        source = parts[f"games/duel/{name}.py"].replace("from ..", "from games.")
        lines += [line for line in source.splitlines() if not line.startswith(("from __future__", "from ."))]
    (root / f"{module}.py").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A directory on ``sys.path`` with a package that is not a game; packages imported from
    it are forgotten afterwards."""
    (tmp_path / "not_a_game").mkdir()
    (tmp_path / "not_a_game" / "__init__.py").write_text("NOT_GAME = True\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        yield tmp_path
    finally:
        games.unregister("duel")
        for name in [n for n in sys.modules if n.split(".")[0] in ("duel", "duel_game", "not_a_game")]:
            del sys.modules[name]


def test_a_game_package_in_another_directory_is_found(directory: Path) -> None:
    write_top_level(directory, "duel")
    found: list[Game] = games.discover(str(directory))
    assert [game.id for game in found] == ["duel"]
    assert games.get_game("duel") is found[0] and "duel" in games.GAME_IDS
    assert directory / "duel" / "locales" / "fr.po" in catalog_files("fr")  # its words come with it
    assert say("{player} lays {card}.", player=Seat(0), card=parse_card("QH")).render("fr", ["ana"]) == "ana pose D♥."
    pictures_for.cache_clear()  # drawers are kept by game id: another test may have drawn another "duel"
    assert type(pictures_for("duel")).__module__ == "duel.pictures"  # its pictures come with it too


def test_a_game_may_be_a_single_module(directory: Path) -> None:
    write_single_module(directory, "duel")
    found: list[Game] = games.discover(str(directory))
    assert [game.id for game in found] == ["duel"] and games.home_of(found[0]) == directory / "duel.py"
    state = found[0].new_game(2, {}, 3)
    assert state.game_id == "duel" and state.view(None)["game"] == "duel"
    pictures_for.cache_clear()
    assert type(pictures_for("duel")) is GamePictures  # one module has no pictures module: the generic look


def test_a_module_must_be_named_after_its_games_id(directory: Path) -> None:
    write_single_module(directory, "duel_game")
    with pytest.raises(games.GameError, match="its id must be 'duel-game'"):
        games.discover(str(directory))


def test_a_package_must_be_named_after_its_games_id(directory: Path) -> None:
    write_top_level(directory, "duel_game")
    with pytest.raises(games.GameError, match="its id must be 'duel-game'"):
        games.discover(str(directory))
    assert "duel" not in games.GAME_IDS


def test_the_registry_forgets_the_game_afterwards() -> None:
    assert "duel" not in games.GAME_IDS and not any("duel" in str(path) for path in catalog_files("fr"))
    assert say("{player} lays {card}.", player=Seat(0), card=parse_card("QH")).render("fr", ["ana"]) == "ana lays D♥."
    with pytest.raises(games.GameError):
        games.get_game("duel")


def test_two_games_cannot_share_an_id() -> None:
    with pytest.raises(games.GameError, match="Two games"):
        games.register(dataclasses.replace(games.get_game("war"), name="Another War"))
