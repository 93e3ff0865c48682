"""The plugin's modules import one another one way: each depends only on the steps before it (read,
validate, fill, rank and group, then what is decided from them, then what is published and
written), with no circle, not even through an import made only for type checking. The site's
tooling (leaderboard_tools/) and the benchmarks (benchmarks/) have no circle either, counting the
imports made inside functions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ROOT / "plugins" / "benchmark_leaderboard"
MODULES = sorted(path.stem for path in PLUGIN.glob("*.py") if path.stem != "__init__")
# The packages beside the plugin, by the name they are imported by: their folders are at the root.
TOOLS = ("leaderboard_tools", "benchmarks")


def modules_of(folder: Path) -> list[str]:
    return sorted(path.stem for path in folder.glob("*.py") if path.stem != "__init__")


def package_imports(folder: Path, package: str, module: str) -> set[str]:
    """The names of the modules of ``package`` (in ``folder``) and of the other packages that
    ``module`` imports anywhere in its source (at the top, in a function, or under ``if
    TYPE_CHECKING``): ``name`` for one of its own package, ``package.name`` for another's."""
    tree = ast.parse((folder / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()

    def add(dotted: str, names: list[str]) -> None:
        # ``from package import name`` names a module or a name in __init__: kept if it is a module.
        parts = dotted.split(".")
        if parts[0] == package:
            found.update([parts[1]] if len(parts) > 1 else names)
        elif parts[0] in TOOLS:
            found.update([f"{parts[0]}.{parts[1]}"] if len(parts) > 1 else [f"{parts[0]}.{name}" for name in names])

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            add(package + ("." + node.module if node.module else "") if node.level == 1 else node.module or "",
                [alias.name for alias in node.names])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, [])
    own = set(modules_of(folder))
    return {name for name in found if name in own or ("." in name and name.split(".")[1] in
                                                       modules_of(ROOT / name.split(".")[0]))}


def imports_of(module: str) -> set[str]:
    """The plugin's modules that ``module`` imports anywhere in its source (at the top, in a
    function, or under ``if TYPE_CHECKING``)."""
    return package_imports(PLUGIN, "benchmark_leaderboard", module) & set(MODULES)


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


def tools_graph() -> dict[str, set[str]]:
    """Every module of the tooling and the benchmarks (``package.module``) and those of them it imports."""
    graph = {}
    for package in TOOLS:
        for module in modules_of(ROOT / package):
            graph[f"{package}.{module}"] = {name if "." in name else f"{package}.{name}"
                                           for name in package_imports(ROOT / package, package, module)}
    return graph


def test_the_import_finder_sees_imports_in_functions_and_of_the_other_package():
    graph = tools_graph()
    assert "benchmarks.browser" in graph["benchmarks.run"]  # imported inside a function
    assert "leaderboard_tools.preview" in graph["benchmarks.browser"]
    assert "leaderboard_tools.runner" in graph["leaderboard_tools.preview"]  # inside main()


def test_no_module_of_the_tooling_or_the_benchmarks_imports_itself_back_through_others():
    graph = tools_graph()
    assert circle({module: imports - {module} for module, imports in graph.items()}) is None


def test_the_benchmark_and_the_profile_import_neither_each_other_nor_anything_that_does():
    graph = tools_graph()

    def reached(module: str) -> set[str]:
        seen, todo = set(), [module]
        while todo:
            for other in graph[todo.pop()] - seen:
                seen.add(other)
                todo.append(other)
        return seen

    assert "benchmarks.profile" not in reached("benchmarks.run")
    assert "benchmarks.run" not in reached("benchmarks.profile")
