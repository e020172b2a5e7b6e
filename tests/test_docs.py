"""The docs, where they still say by hand what the code knows: README's list of games and
their start commands, the pictures it shows, its test command (CI's), the ``file:name``
stops of "the life of a move", every relative link, and the length of README and
docs/decisions.md.

Only the registry lists the games: what the docs say of a game is checked against it, and a
game the docs don't name yet (a new one) fails nothing here. docs/rules.md is generated from
the games' rules text; ``tests/test_rules.py`` (``test_the_markdown_copy_is_up_to_date``)
checks each game it holds.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import games
from cogs.start_commands import group_name

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DECISIONS = ROOT / "docs" / "decisions.md"
RESULTS = ROOT / "bench" / "RESULTS.md"
MAX_README_LINES = 300
MAX_DECISIONS_LINES = 640

START_ROW = re.compile(
    r"^\| (?P<name>[^|]+?) \| `/(?P<command>[\w-]+) start(?P<options>(?: \[[\w-]+\])*)` \| (?P<players>[^|]+?) \|$",
    re.M,
)
START_COMMAND = re.compile(r"`/([\w-]+) start\b")
PICTURE = re.compile(r"\]\(docs/images/([\w-]+)\.png\)")
STOP = re.compile(r"`((?:bot|cogs|games|bench|tests)/[\w/]+\.py):([A-Za-z_][\w.]*)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE_BLOCK = re.compile(r"^```\w*\n(.*?)^```", re.M | re.S)


def readme() -> str:
    return README.read_text(encoding="utf-8")


def players_text(game: games.Game) -> str:
    """How README writes a game's player counts: ``2–10``, or ``2, 4`` when not a range."""
    counts = game.allowed_player_counts()
    if len(counts) > 1 and counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return ", ".join(map(str, counts))


def start_rows() -> dict[str, re.Match[str]]:
    rows: dict[str, re.Match[str]] = {}
    for row in START_ROW.finditer(readme()):
        assert row["command"] not in rows, f"README lists /{row['command']} start twice"
        rows[row["command"]] = row
    return rows


def listed_games() -> list[games.Game]:
    """The registered games README's games table has a row for, in the table's order."""
    by_command = {group_name(game): game for game in games.all_games()}
    return [by_command[command] for command in start_rows() if command in by_command]


def test_readme_describes_each_game_it_lists_as_it_is():
    """Each row of README's games table is a registered game: its name, ``/<command> start`` with
    every option the command has, and its player counts; rows in the registry's order."""
    rows = start_rows()
    listed = listed_games()
    assert [group_name(game) for game in listed] == list(rows), "README lists a game nobody registered"
    assert listed == [game for game in games.all_games() if game in listed], "README's games are in the registry's order"
    for game in listed:
        row = rows[group_name(game)]
        assert row["name"] == game.name
        options = re.findall(r"\[([\w-]+)\]", row["options"])
        assert options == [spec.name for spec in game.options] + ["timer", "hints"], game.id
        assert row["players"] == players_text(game), game.id


def test_readme_names_no_other_start_command():
    commands = {group_name(game) for game in games.all_games()}
    assert set(START_COMMAND.findall(readme())) <= commands


def test_readme_shows_each_game_it_lists_on_a_phone_and_on_desktop():
    """The screenshots are ``python -m tests.screens docs/images``: each listed game's on a phone
    and on desktop, and every picture README names is there."""
    shown = PICTURE.findall(readme())
    for game in listed_games():
        assert f"{game.id}-phone" in shown and f"{game.id}-desktop" in shown, game.id
    for name in shown:
        assert (ROOT / "docs" / "images" / f"{name}.png").is_file(), name


def test_readme_test_command_is_the_one_ci_runs():
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
          if "pytest" in line and not line.lstrip().startswith("#")]
    assert len(ci) == 1, ".ci/run should run pytest on exactly one line"
    text = readme()
    after = text[text.index("Run the tests:"):]
    block = CODE_BLOCK.search(after)
    assert block is not None
    assert block[1].strip() == ci[0]


def defined_names(path: Path) -> set[str]:
    """Module-level functions, classes and assignments of ``path``, and ``Class.member`` for
    what each class defines."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
            for member in node.body:
                if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(f"{node.name}.{member.name}")
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def test_every_file_and_name_the_readme_cites_exists():
    stops = STOP.findall(readme())
    assert len(stops) >= 12, "the life of a move names its stops as `file.py:name`"
    missing = [f"{path}:{name}" for path, name in stops
               if not (ROOT / path).is_file() or name not in defined_names(ROOT / path)]
    assert not missing, f"README cites names that don't exist: {missing}"


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("doc", [README, DECISIONS, RESULTS], ids=lambda p: p.name)
def test_relative_links_resolve(doc: Path):
    """Links to files in the repository point at files that exist, and anchors at headings.
    Links out of the repository (``../shared/``) are not checked: that folder is beside it."""
    text = CODE_BLOCK.sub("", doc.read_text(encoding="utf-8"))
    anchors = {slug(h) for h in re.findall(r"^#+ (.+)$", text, re.M)}
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        if not path:
            if anchor not in anchors:
                broken.append(target)
            continue
        resolved = (doc.parent / path).resolve()
        if resolved.is_relative_to(ROOT) and not resolved.exists():
            broken.append(target)
    assert not broken, f"{doc.name}: broken links {broken}"


def test_every_game_keeps_its_rulings_at_home():
    """docs/decisions.md lists no game: a game's own rulings are its package's docstring (which
    names its RULINGS.md section, if it has one), its players' text its ``rules_text``."""
    for game in games.all_games():
        home = games.home_of(game)
        module = home / "__init__.py" if home.is_dir() else home
        docstring = ast.get_docstring(ast.parse(module.read_text(encoding="utf-8")))
        assert docstring and game.rules is not None, f"{module}: say what the engine decides in its docstring"


@pytest.mark.parametrize("doc, limit", [(README, MAX_README_LINES), (DECISIONS, MAX_DECISIONS_LINES)],
                         ids=["README", "decisions"])
def test_docs_stay_short(doc: Path, limit: int):
    lines = len(doc.read_text(encoding="utf-8").splitlines())
    assert lines <= limit, f"{doc.name} has {lines} lines; at most {limit}"
