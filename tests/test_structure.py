"""The shape of the code: no import cycles, layers that only import downwards, no huge files.

Imports are read with ``ast``, so every import counts: module level, inside functions,
under ``if TYPE_CHECKING:``. An import names one module: ``import a.b`` and
``from a.b import c`` import ``a.b`` (or ``a.b.c`` when ``c`` is a submodule);
relative imports are resolved. The parent packages Python initialises on the way
are not counted as imported.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT_PACKAGES = ("bot", "cogs", "games", "web")
MAX_LINES = 800
"""Files are split by concern; this only catches a file that has grown several concerns."""

# Layer rules: a package (or module) and the modules it must never import, with theirs: games stand alone; the
# bot never reaches into the Discord layer nor builds Discord's messages; what every front end shares (the service,
# storage, pictures) imports no front end's code; the site (web) and the Discord layer (cogs) stand side by side,
# neither importing the other, and nothing below them imports the site.
FORBIDDEN = {
    "bot": ("cogs", "discord.ui", "web"),
    "cogs": ("web",),
    "web": ("cogs", "discord"),
    "bot.service": ("discord",),
    "bot.storage": ("discord",),
    "bot.pictures": ("discord", "aiohttp", "asyncio"),
    "games": ("bot", "cogs", "web", "discord", "aiohttp", "asyncio", "aiosqlite", "sqlite3"),
}


@dataclass(frozen=True)
class Import:
    """``module`` (in ``path`` at ``line``) imports ``target``, an absolute dotted name."""

    module: str
    target: str
    path: Path
    line: int

    def where(self, root: Path) -> str:
        return f"{self.path.relative_to(root)}:{self.line}"


def source_files(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of ``packages`` under ``root``, by dotted name (a package by its own name)."""
    modules = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imports_in(module: str, path: Path, modules: Mapping[str, Path]) -> list[Import]:
    """Every import statement of one file, targets made absolute."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(module, alias.name, path, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                target = submodule if submodule in modules else base
                found.append(Import(module, target, path, node.lineno))
    return found


def all_imports(root: Path = ROOT, packages: Iterable[str] = PRODUCT_PACKAGES) -> list[Import]:
    modules = source_files(root, packages)
    return [imp for module, path in modules.items() for imp in imports_in(module, path, modules)]


def project_module(target: str, modules: Mapping[str, Path]) -> str | None:
    """The project module ``target`` names (its longest known prefix), or ``None`` if external."""
    parts = target.split(".")
    for end in range(len(parts), 0, -1):
        name = ".".join(parts[:end])
        if name in modules:
            return name
    return None


def import_graph(root: Path = ROOT, packages: Iterable[str] = PRODUCT_PACKAGES) -> dict[str, dict[str, Import]]:
    """module -> {imported project module -> the first import statement making that edge}."""
    packages = tuple(packages)
    modules = source_files(root, packages)
    graph: dict[str, dict[str, Import]] = {module: {} for module in modules}
    for imp in all_imports(root, packages):
        target = project_module(imp.target, modules)
        if target is not None:
            graph[imp.module].setdefault(target, imp)
    return graph


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Tarjan's components that form cycles: more than one module, or a module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph[node]:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


def shortest_cycle(graph: Mapping[str, Iterable[str]], component: list[str]) -> list[str]:
    """One concrete loop through the component's first module, for the failure message."""
    start, members = component[0], set(component)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in sorted(graph[node]):
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if nxt in members and nxt not in came_from:
                came_from[nxt] = node
                queue.append(nxt)
    raise AssertionError(f"{component} is not a cycle")


def describe_cycles(graph: Mapping[str, Mapping[str, Import]], root: Path = ROOT) -> list[str]:
    """One paragraph per import cycle: its modules, then a loop with the import lines."""
    paragraphs = []
    for component in strongly_connected(graph):
        loop = shortest_cycle(graph, component)
        steps = [
            f"    {graph[a][b].where(root)}: {a} imports {b}" for a, b in zip(loop, loop[1:])
        ]
        paragraphs.append(f"cycle among {', '.join(component)}:\n" + "\n".join(steps))
    return paragraphs


def within(name: str, prefix: str) -> bool:
    """Whether the dotted ``name`` is ``prefix`` or inside it (``bot.pictures.stats`` is within ``bot``)."""
    return name == prefix or name.startswith(prefix + ".")


def forbidden_imports(root: Path = ROOT, rules: Mapping[str, Iterable[str]] = FORBIDDEN) -> list[str]:
    """Each import that breaks a layer rule, as ``file:line: module imports target``."""
    broken = []
    for imp in all_imports(root):
        if any(within(imp.module, where) and any(within(imp.target, banned) for banned in banned_there)
               for where, banned_there in rules.items()):
            broken.append(f"{imp.where(root)}: {imp.module} imports {imp.target}")
    return list(dict.fromkeys(broken))  # `from x import a, b` is one line to fix


def oversized_files(root: Path = ROOT, packages: Iterable[str] = PRODUCT_PACKAGES, limit: int = MAX_LINES) -> list[str]:
    sizes = {path: len(path.read_text(encoding="utf-8").splitlines()) for path in source_files(root, packages).values()}
    return [f"{path.relative_to(root)}: {n} lines" for path, n in sorted(sizes.items()) if n > limit]


def test_no_import_cycles() -> None:
    cycles = describe_cycles(import_graph())
    assert not cycles, f"{len(cycles)} import cycle(s) across {', '.join(PRODUCT_PACKAGES)}:\n" + "\n".join(cycles)


def test_layers_only_import_downwards() -> None:
    broken = forbidden_imports()
    assert not broken, "layer rules broken (tests/test_structure.py, FORBIDDEN):\n" + "\n".join(broken)


def jobless_modules(root: Path = ROOT, packages: Iterable[str] = ("bot", "cogs")) -> list[str]:
    """The modules whose docstring does not open with one line saying their one job: a whole
    sentence on the first line, alone (a blank line or nothing after it)."""
    found = []
    for path in source_files(root, packages).values():
        lines = (ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or "").split("\n")
        if not (lines[0].endswith(".") and (len(lines) == 1 or lines[1] == "")):
            found.append(f"{path.relative_to(root)}: {lines[0]!r}")
    return found


def test_every_module_of_bot_and_cogs_opens_with_its_one_job() -> None:
    jobless = jobless_modules()
    assert not jobless, "say each module's one job in the first line of its docstring:\n" + "\n".join(jobless)


def test_no_source_file_over_800_lines() -> None:
    too_long = oversized_files()
    assert not too_long, f"source files over {MAX_LINES} lines:\n" + "\n".join(too_long)


# The checker itself, on a small made-up project.


def write_tree(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    write_tree(tmp_path, {
        "games/__init__.py": "from .base import Thing\n",
        "games/base.py": "import os\n",
        "games/chess/__init__.py": "from .state import State\n",
        "games/chess/state.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from .view import View\n"
        ),
        "games/chess/view.py": "def render():\n    from . import state\n    return state\n",
        "games/chess/ai.py": "from ..chess import view\nimport games.base\n",
        "bot/__init__.py": "",
        "bot/service.py": "from cogs import ui\n",
        "bot/client.py": "import discord\nfrom discord.ui import View\n",
        "bot/pictures/__init__.py": "",
        "bot/pictures/chart.py": "import discord\n",
        "cogs/__init__.py": "",
        "cogs/ui.py": "import bot.service\nimport discord\n",
        "cogs/loop.py": "from . import loop\n",
    })
    return tmp_path


def test_checker_resolves_every_kind_of_import(toy: Path) -> None:
    graph = import_graph(toy)
    assert set(graph["games.chess.state"]) == {"games.chess.view"}, "under TYPE_CHECKING, relative"
    assert set(graph["games.chess.view"]) == {"games.chess.state"}, "inside a function, `from . import submodule`"
    assert set(graph["games.chess.ai"]) == {"games.chess.view", "games.base"}, "`from ..pkg import submodule`"
    assert set(graph["games"]) == {"games.base"} and set(graph["games.base"]) == set(), "external imports dropped"


def test_checker_lists_each_cycle_with_its_import_lines(toy: Path) -> None:
    graph = import_graph(toy)
    assert strongly_connected(graph) == [
        ["bot.service", "cogs.ui"], ["cogs.loop"], ["games.chess.state", "games.chess.view"],
    ]
    cycles = describe_cycles(graph, toy)
    assert cycles[0] == (
        "cycle among bot.service, cogs.ui:\n"
        "    bot/service.py:1: bot.service imports cogs.ui\n"
        "    cogs/ui.py:1: cogs.ui imports bot.service"
    )
    assert "games/chess/view.py:2: games.chess.view imports games.chess.state" in cycles[2]


def test_checker_finds_modules_that_do_not_say_their_job(toy: Path) -> None:
    write_tree(toy, {"bot/jobs.py": '"""Runs the jobs.\n\nAll of them."""\n',
                     "bot/wrapped.py": '"""Runs the jobs, which it reads from\nthe database."""\n'})
    assert jobless_modules(toy) == ["bot/__init__.py: ''", "bot/client.py: ''", "bot/pictures/__init__.py: ''",
                                    "bot/pictures/chart.py: ''", "bot/service.py: ''",
                                    "bot/wrapped.py: 'Runs the jobs, which it reads from'",
                                    "cogs/__init__.py: ''", "cogs/loop.py: ''", "cogs/ui.py: ''"]


def test_checker_finds_layer_breaks_and_long_files(toy: Path) -> None:
    (toy / "games" / "base.py").write_text("import asyncio\n" + "x = 1\n" * MAX_LINES, encoding="utf-8")
    assert forbidden_imports(toy) == [
        "bot/client.py:2: bot.client imports discord.ui",  # discord itself is allowed in bot/
        "bot/pictures/chart.py:1: bot.pictures.chart imports discord",
        "bot/service.py:1: bot.service imports cogs.ui",
        "games/base.py:1: games.base imports asyncio",
    ]
    assert oversized_files(toy) == [f"games/base.py: {MAX_LINES + 1} lines"]
