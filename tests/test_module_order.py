"""The plugin's modules import one another one way, and its folders show the phases: read/ (find,
read and check the files), decide/ (fill, rank, group, how sure, compare), present/ (what each page
and file shows), write/ (what reaches the output folder), each importing only the phases before it
and the modules every phase shares (the package's own top level: board, paths, formatting, ...),
which import no phase. No module imports itself back through others, not even through an import
made inside a function or only for type checking. The site's tooling (leaderboard_tools/) and the
benchmarks (benchmarks/) have no circle either."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ROOT / "plugins" / "benchmark_leaderboard"
PHASES = ("read", "decide", "present", "write")
# Pelican's glue: what connects the phases to Pelican, and may import any of them.
GLUE = ("generator", "one_line")
# The packages beside the plugin, by the name they are imported by: their folders are at the root.
TOOLS = ("leaderboard_tools", "benchmarks")


def plugin_modules() -> list[str]:
    """The plugin's modules, by their dotted name within it ("board", "read.archive")."""
    return sorted(".".join(path.relative_to(PLUGIN).with_suffix("").parts) for path in PLUGIN.rglob("*.py")
                  if path.stem != "__init__")


MODULES = plugin_modules()


def modules_of(folder: Path) -> list[str]:
    return sorted(path.stem for path in folder.glob("*.py") if path.stem != "__init__")


def _imported(path: Path, package: str) -> set[str]:
    """Every dotted name ``path`` imports anywhere in its source (at the top, in a function, or under
    ``if TYPE_CHECKING``), with relative imports resolved within ``package`` (the path's package), and
    each name of a ``from X import name`` as ``X.name`` too (it may be a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def imports_of(module: str) -> set[str]:
    """The plugin's modules that ``module`` (a dotted name within the plugin) imports anywhere."""
    path = PLUGIN.joinpath(*module.split(".")).with_suffix(".py")
    package = ".".join(["benchmark_leaderboard", *module.split(".")[:-1]])
    prefix = "benchmark_leaderboard."
    return {name[len(prefix):] for name in _imported(path, package) if name.startswith(prefix)} & set(MODULES)


def package_imports(folder: Path, package: str, module: str) -> set[str]:
    """The modules of ``package`` (in ``folder``) and of the other packages that ``module`` imports
    anywhere in its source: ``name`` for one of its own package, ``package.name`` for another's."""
    found = set()
    for name in _imported(folder / f"{module}.py", package):
        parts = name.split(".")
        if parts[0] == package and len(parts) > 1 and parts[1] in modules_of(folder):
            found.add(parts[1])
        elif parts[0] in TOOLS and parts[0] != package and len(parts) > 1 and parts[1] in modules_of(ROOT / parts[0]):
            found.add(f"{parts[0]}.{parts[1]}")
    return found


def phase_of(module: str) -> int | None:
    """The place of ``module``'s phase in PHASES; None for a module every phase shares or for the glue."""
    first = module.split(".")[0]
    return PHASES.index(first) if first in PHASES else None


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


def test_the_plugin_is_four_phases_and_the_modules_they_share():
    assert sorted({module.split(".")[0] for module in MODULES if "." in module}) == sorted(PHASES)
    shared = [module for module in MODULES if "." not in module and module not in GLUE]
    assert "board" in shared and "paths" in shared and "formatting" in shared


def test_the_import_finder_sees_relative_imports_across_the_phases():
    assert "decide.fill" in imports_of("decide.pipeline")
    assert "read.archive" in imports_of("decide.pipeline")
    assert "board" in imports_of("decide.rank")


@pytest.mark.parametrize("module", [module for module in MODULES if module not in GLUE])
def test_a_module_imports_only_its_own_phase_the_phases_before_it_and_what_every_phase_shares(module):
    mine = phase_of(module)
    for other in imports_of(module):
        theirs = phase_of(other)
        if mine is None:  # shared by every phase: it imports no phase, and no glue
            assert theirs is None and other not in GLUE, f"{module} (shared) imports {other}"
        else:
            assert other not in GLUE and (theirs is None or theirs <= mine), f"{module} imports {other}, a later phase"


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
