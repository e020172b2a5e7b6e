"""``python -m games play``: every game plays to the end in a terminal, through the engine contract only."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

import games
from games import __main__ as cli
from games.rng import Rng
from games.terminal import Table, find_game

GARBAGE = ["", "   ", "hello world", "0", "999", "-1", ":::", "play:", "nosuchmove:1,2", "🃏"]


def run_cli(argv: list[str], stdin: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setattr(sys, "stdin", stdin)
    status = cli.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


class ScriptedSeats(io.TextIOBase):
    """A terminal at which every human answer is some garbage, then a random legal move code.

    It reads the live state to know the move codes, as a player reads the screen.
    """

    def __init__(self, state: games.GameState, seed: int, limit: int = 20_000) -> None:
        self.state = state
        self.rng = Rng(seed)
        self.lines_read = 0
        self.limit = limit
        self.garbage = iter(GARBAGE)

    def readline(self, size: int = -1) -> str:
        self.lines_read += 1
        assert self.lines_read < self.limit, "the game did not end"
        bad = next(self.garbage, None)
        if bad is not None:
            return bad + "\n"
        seat = self.state.to_act()[0]
        return self.rng.choice(self.state.legal_actions(seat)).code() + "\n"


def game_setups() -> list[tuple[str, int]]:
    return [(gid, n) for gid in games.GAME_IDS for n in sorted({*games.get_game(gid).allowed_player_counts()[:2]})]


@pytest.mark.parametrize(("game_id", "players"), game_setups())
def test_every_seat_human_plays_by_codes_to_the_end(game_id: str, players: int) -> None:
    """All seats human (hotseat): simultaneous and multi-step turns are prompted too."""
    game = games.get_game(game_id)
    state = game.new_game(players, {}, seed=11)
    out = io.StringIO()
    stdin = ScriptedSeats(state, seed=5)
    Table(game, state, range(players), Rng(11), stdin, out).play()
    text = out.getvalue()
    assert state.is_over()
    assert "Game over." in text
    assert "There is no move 999" in text and "There is no move 0" in text
    assert "Traceback" not in text
    # The engine's own message answers garbage, and every bad line leaves the state untouched.
    assert text.count("your move") == stdin.lines_read


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_all_ai_game_finishes(game_id: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    players = games.get_game(game_id).allowed_player_counts()[-1]
    status, out, err = run_cli(
        ["play", game_id, "--players", str(players), "--ai", str(players), "--seed", "3"],
        io.StringIO(""), monkeypatch, capsys,
    )
    assert (status, err) == (0, "")
    assert "Game over." in out and "your move" not in out
    ranking = out.split("Game over.")[1]
    assert all(f"AI {seat + 1} (" in ranking for seat in range(players)), "every seat is ranked with its score"


def variant_setups() -> list[tuple[str, str, object]]:
    setups = []
    for gid in games.GAME_IDS:
        game = games.get_game(gid)
        for spec in game.options:
            for choice in spec.choices[1:]:
                try:
                    game.normalize_options({spec.name: choice})
                except games.GameError:
                    continue
                setups.append((gid, spec.name, choice))
    return setups


@pytest.mark.parametrize(("game_id", "name", "choice"), variant_setups())
def test_every_variant_plays(
    game_id: str, name: str, choice: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    players = games.get_game(game_id).allowed_player_counts()[0]
    status, out, err = run_cli(
        ["play", game_id, "--ai", str(players), "--option", f"{name}={choice}"], io.StringIO(""), monkeypatch, capsys
    )
    assert (status, err) == (0, "")
    assert "Game over." in out


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_human_seat_sees_view_and_numbered_moves(
    game_id: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["play", game_id, "--seed", "2"], io.StringIO("junk\n1\n1\n"), monkeypatch, capsys)
    assert (status, err) == (0, "")
    assert "— You to act —" in out
    assert "Moves:\n  1. " in out
    assert out.rstrip().endswith("Game abandoned."), "end of input leaves cleanly"
    assert "junk" in out  # the engine's message names the unknown move


def test_options_are_read_as_their_types(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(
        ["play", "quash", "--ai", "2", "--option", "advanced=yes", "--option", "finish=40"],
        io.StringIO(""), monkeypatch, capsys,
    )
    assert status == 0 and "(40)" in out


def test_quit_word_ends_the_game(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["play", "war", "--seed", "1"], io.StringIO("q\n"), monkeypatch, capsys)
    assert status == 0 and out.rstrip().endswith("Game abandoned.")


def test_ctrl_c_is_a_clear_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    class Interrupting(io.StringIO):
        def readline(self, size: int = -1) -> str:
            raise KeyboardInterrupt

    status, _, err = run_cli(["play", "q2j", "--seed", "1"], Interrupting(), monkeypatch, capsys)
    assert status == 130 and err.strip() == "Interrupted."


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "chess"], "chess"),
        (["play", "q2j", "--players", "11"], "not 11"),
        (["play", "quash", "--players", "3"], "not 3"),
        (["play", "q2j", "--ai", "3"], "--ai must be from 0 to 2"),
        (["play", "q2j", "--option", "variant=bogus"], "bogus"),
        (["play", "q2j", "--option", "colour=red"], "colour"),
        (["play", "q2j", "--option", "variant"], "name=value"),
        (["play", "queen-of-spades", "--option", "target=lots"], "lots"),
        (["play", "q2j", "--players", "0"], "not 0"),
        (["play", "q2j", "--players", "two"], "invalid int value"),
        (["play"], "required"),
        ([], "required"),
    ],
)
def test_bad_setup_is_one_line_and_status_2(
    argv: list[str], message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    try:
        status = cli.main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        status = exc.code
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


def test_real_process_runs_and_stays_off_discord() -> None:
    """The module entry point as a developer runs it, and the engines alone in memory."""
    done = subprocess.run(
        [sys.executable, "-m", "games", "play", "q2j", "--seed", "4"],
        input="nonsense\n", capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "'nonsense'" in done.stdout and done.stdout.rstrip().endswith("Game abandoned.")
    bad = subprocess.run(
        [sys.executable, "-m", "games", "play", "nope"], capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1
    check = "import sys, games.__main__, games.terminal; print(sorted({'discord', 'asyncio', 'aiosqlite', 'bot', 'cogs'} & set(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=60)
    assert loaded.stdout.strip() == "[]"


def test_a_game_is_found_by_its_package_name_too() -> None:
    assert find_game("queen_of_spades") is find_game("queen-of-spades") is games.get_game("queen-of-spades")
    with pytest.raises(games.GameError, match="Unknown game"):
        find_game("queen of spades")
