"""The plugin's modules import one another one way: each depends only on the steps before it (read,
validate, fill, rank and group, then what is decided from them, then what is published and
written), with no circle, not even through an import made only for type checking."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PLUGIN = Path(__file__).resolve().parent.parent / "plugins" / "benchmark_leaderboard"
MODULES = sorted(path.stem for path in PLUGIN.glob("*.py") if path.stem != "__init__")


def imports_of(module: str) -> set[str]:
    """The plugin's modules that ``module`` imports anywhere in its source (at the top, in a
    function, or under ``if TYPE_CHECKING``)."""
    tree = ast.parse((PLUGIN / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                found.add(node.module.split(".")[0])
            elif node.level == 1:
                found.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith("benchmark_leaderboard."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(alias.name.split(".")[1] for alias in node.names if alias.name.startswith("benchmark_leaderboard."))
    return found & set(MODULES)


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports in ``graph`` (the modules in order, the first again at the end), or None."""
    state: dict[str, int] = {}  # 1: being walked, 2: done
    path: list[str] = []

    def walk(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for other in sorted(graph[module]):
            if state.get(other) == 1:
                return path[path.index(other):] + [other]
            if other not in state:
                found = walk(other)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            found = walk(module)
            if found:
                return found
    return None


def test_the_circle_finder_finds_a_circle_and_only_one():
    assert circle({"pipeline": {"publish"}, "publish": {"view"}, "view": {"pipeline"}}) == ["pipeline", "publish", "view", "pipeline"]
    assert circle({"pipeline": {"rank"}, "publish": {"view", "rank"}, "view": {"pipeline"}, "rank": set()}) is None


def test_no_module_of_the_plugin_imports_itself_back_through_others():
    graph = {module: imports_of(module) - {module} for module in MODULES}
    assert circle(graph) is None


@pytest.mark.parametrize("module", ["pipeline", "rank", "document", "uncertainty"])
def test_the_steps_that_decide_the_leaderboard_import_nothing_that_shows_publishes_or_writes_it(module):
    assert not imports_of(module) & {"view", "publish", "generator", "writer", "pages", "downloads", "chart"}
