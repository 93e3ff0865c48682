"""The README is true: its tables and the output it shows are read here and checked against what the
tasks do. The Tasks table and the short flags against ``invoke --list`` and ``invoke --help TASK``; each
row of the exit codes run and its status checked; every row of "What a build writes" found in a real
render, every entry of the render in the table, and what a rebuild links or writes as it says (a plain
build's rebuild and a release's, which differ); the
refusal lines, the missing manifest's line and ``invoke diff``'s sample as the commands print them.

Tables are found by their headers (a column added later does not break them), so an edit that keeps
the README true keeps this passing, and one that stops being true fails it."""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import shlex
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest

from conftest import ROOT, report, run_invoke, write_archive
from tasks_support import RunningTask, git
from test_diff import NEW, OLD, write

from benchmark_leaderboard import exits
from benchmark_leaderboard.formatting import DECIMALS, MOST_DECIMALS, rounded
from benchmark_leaderboard.present.columns import HASH_SHOWN

README = (ROOT / "README.md").read_text(encoding="utf-8")


# -- Reading the README ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[dict[str, str], ...]


def _cells(line: str) -> list[str]:
    """The cells of a table line; ``\\|`` is a pipe inside a cell."""
    cells = re.split(r"(?<!\\)\|", line.strip()[1:-1])
    return [cell.strip().replace("\\|", "|") for cell in cells]


def tables(text: str = README) -> list[Table]:
    """Every table of ``text``: its header (lower case) and its rows, each a dict by header."""
    found: list[Table] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        if lines[index].startswith("|") and index + 1 < len(lines) and re.fullmatch(r"\|( *:?-+:? *\|)+", lines[index + 1]):
            header = tuple(cell.lower() for cell in _cells(lines[index]))
            index += 2
            rows = []
            while index < len(lines) and lines[index].startswith("|"):
                rows.append(dict(zip(header, _cells(lines[index]))))
                index += 1
            found.append(Table(header, tuple(rows)))
        else:
            index += 1
    return found


def table_with(*columns: str) -> Table:
    """The one table whose header has all of ``columns``."""
    matching = [table for table in tables() if set(columns) <= set(table.header)]
    assert len(matching) == 1, f"the README should have one table with the columns {columns}, not {len(matching)}"
    return matching[0]


def section(title: str) -> str:
    """The text of the README's section ``## title``, up to the next one."""
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def code_in(text: str) -> list[str]:
    """What a cell or a paragraph shows as code, in order (fenced blocks left out)."""
    return re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))


def shown_block(title: str, after: str, language: str = "text") -> str:
    """The first ``language`` block of section ``title`` after the text ``after``."""
    text = section(title)
    text = text[text.index(after):]
    return text.split(f"```{language}\n", 1)[1].split("```", 1)[0]


# -- What the tasks say of themselves ----------------------------------------------------------------


def invoke(*args: str, cwd: Path = ROOT, **kwargs) -> subprocess.CompletedProcess:
    return run_invoke("--search-root", str(ROOT), *args, cwd=cwd, **kwargs)


@functools.cache
def listed_tasks() -> dict[str, str]:
    """``invoke --list``: each task and its description (its wrapped lines joined)."""
    result = invoke("--list")
    assert result.returncode == 0, result.stderr
    described: dict[str, str] = {}
    name = None
    for line in result.stdout.splitlines()[1:]:
        match = re.match(r"  (\S+)\s+(.*)", line)
        if match and not line.startswith("   "):
            name = match.group(1)
            described[name] = match.group(2).strip()
        elif name and line.strip():
            described[name] += " " + line.strip()
    return described


@dataclass(frozen=True)
class Option:
    long: str  # without dashes; "browser" for --[no-]browser; the letter for an option that is only short
    short: str | None


@functools.cache
def help_options(task: str) -> dict[str, Option]:
    """The options ``invoke --help TASK`` shows (positional arguments left out), by long name."""
    result = invoke("--help", task)
    assert result.returncode == 0, result.stderr
    options: dict[str, Option] = {}
    for line in result.stdout.split("Options:\n", 1)[1].splitlines():
        match = re.match(r"  (-\S.*?)(?:\s{2,}|$)", line)
        if not match:
            continue
        short = long = None
        for spelling in match.group(1).split(", "):
            name = re.split(r"[ =]", spelling, maxsplit=1)[0]
            if name.startswith("--"):
                long = name[2:].replace("[no-]", "")
            else:
                short = name[1:]
        options[long or short] = Option(long or short, short)
    for positional in task_body(task).positional:
        options.pop(positional.replace("_", "-"), None)
    return options


@functools.cache
def task_objects() -> dict[str, Any]:
    """The tasks of ``tasks.py``, by the name the command line gives them."""
    from invoke import Task

    spec = importlib.util.spec_from_file_location("readme_tasks", ROOT / "tasks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {value.name: value for value in vars(module).values() if isinstance(value, Task)}


def task_body(name: str):
    return task_objects()[name]


# -- The Tasks table and the short flags --------------------------------------------------------------


def tasks_table() -> dict[str, str]:
    """The Tasks table: each task's name -> its first cell."""
    found = {}
    for row in table_with("task", "what it does").rows:
        command = code_in(row["task"])[0]
        assert command.startswith("invoke "), command
        found[command.split()[1]] = row["task"]
    return found


def flags_in(cell: str) -> set[str]:
    """The long names of the flags a Tasks cell names (``--no-browser`` is ``browser``)."""
    shown = " ".join(code_in(cell))
    longs = {name.removeprefix("no-") for name in re.findall(r"(?<![\w-])--([a-z][\w-]*)", shown)}
    shorts = set(re.findall(r"(?<![\w-])-([a-z])\b", shown))
    return longs | shorts


def readme_flags(task: str, cells: dict[str, str]) -> set[str]:
    """Every flag the README gives ``task``: its own, and those of the task it says it shares ("and build's
    flags", "serve's flags"), less those it says it does not take ("but `--output-dir`")."""
    cell = cells[task]
    flags = flags_in(cell.split("(")[0])
    for other in re.findall(r"\((?:and )?(\w[\w-]*)'s flags", cell):
        flags |= readme_flags(other, cells)
    but = re.search(r"flags but ([^)]*)\)", cell)
    if but:
        flags -= flags_in(but.group(1))
    return flags


def test_the_tasks_table_lists_every_task_invoke_lists():
    assert sorted(tasks_table()) == sorted(listed_tasks())


@pytest.mark.parametrize("task", sorted(tasks_table()))
def test_each_task_takes_exactly_the_flags_its_row_names(task):
    assert readme_flags(task, tasks_table()) == set(help_options(task))


def test_every_short_flag_is_in_the_flags_table_and_means_one_thing_in_every_task():
    table = table_with("short", "flag", "tasks")
    said = {(task.strip(), row["flag"].strip("`").lstrip("-"), row["short"].strip("`").lstrip("-"))
            for row in table.rows for task in row["tasks"].split(",")}
    shown = {(task, option.long, option.short) for task in listed_tasks()
             for option in help_options(task).values() if option.short}
    assert said == shown
    # One letter, one flag: what the table says, --help shows, in every task.
    letters = {}
    for _, flag, short in shown:
        assert letters.setdefault(short, flag) == flag, f"-{short} is --{letters[short]} and --{flag}"


def test_a_task_that_takes_builds_flags_takes_its_short_flags_too(tmp_path):
    reports = write_archive(tmp_path / "a" / "reports", {"golden/a.report.json": report()})
    result = invoke("publish", "-e", "v1.0.0", "-r", str(reports), "-o", str(tmp_path / "site"), "-m",
                    str(tmp_path / "none.jsonl"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "site" / "SHA256SUMS").is_file()


def test_invoke_list_describes_every_task_in_whole_sentences():
    for task, description in listed_tasks().items():
        assert description.endswith("."), (task, description)
        assert description.count("(") == description.count(")"), (task, description)


# Words that mean something only to the project's own tracker ("issue 10, item 7", "issue 11's targets").
TRACKER_WORDS = re.compile(r"\bissues?\b|\bitem \d|\bfinding \d", re.I)


def test_what_a_user_reads_names_no_issue_of_the_projects_tracker():
    for task in listed_tasks():
        shown = invoke("--help", task).stdout
        assert not TRACKER_WORDS.search(shown), (task, TRACKER_WORDS.findall(shown))
    assert not TRACKER_WORDS.search(invoke("--list").stdout)
    assert not TRACKER_WORDS.search(README), TRACKER_WORDS.findall(README)


def test_invoke_test_without_the_test_packages_says_in_one_line_to_run_make_test(tmp_path):
    # The test packages hidden, as after `make build` alone: importing pytest fails.
    (tmp_path / "sitecustomize.py").write_text('import sys\nsys.modules["pytest"] = None\n', encoding="utf-8")
    result = invoke("test", cwd=tmp_path, env={"PYTHONPATH": str(tmp_path)})
    assert result.returncode == exits.UNUSABLE
    [line] = result.stderr.splitlines()
    assert "run make test" in line
    said = [row["what it does"] for row in table_with("task", "what it does").rows if row["task"] == tasks_table()["test"]]
    assert "only `make test` installs" in said[0] and "in one line, exit 2" in said[0]


# -- The exit codes --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    """A working folder for the exit table's examples: ``old.json`` and ``new.json`` (a row of new.json
    leaks more), nothing else; the tasks build the bundled archive into its ``output``."""
    folder = tmp_path_factory.mktemp("examples")
    write(folder / "old.json", OLD)
    write(folder / "new.json", NEW)
    return folder


EXIT_ROWS = table_with("status", "what happened", "for example").rows


def test_the_exit_table_has_every_status_of_exits_py_once():
    statuses = [int(row["status"]) for row in EXIT_ROWS]
    assert sorted(statuses) == sorted({exits.DONE, exits.REFUSED, exits.UNUSABLE, exits.interrupted(signal.SIGINT),
                                       exits.interrupted(signal.SIGTERM)})


@pytest.mark.parametrize("row", EXIT_ROWS, ids=[row["status"] for row in EXIT_ROWS])
def test_each_example_of_the_exit_table_ends_with_its_status(row, sandbox):
    status = int(row["status"])
    commands = [command for command in code_in(row["for example"]) if command.startswith("invoke ")]
    assert commands, row
    stop = {"Ctrl-C": signal.SIGINT, "SIGTERM": signal.SIGTERM}
    signals = [stop[word] for word in stop if f"then {word}" in row["for example"]]
    for command in commands:
        args = shlex.split(command)[1:]
        if signals:
            running = RunningTask(*args, cwd=sandbox)
            try:
                running.wait_for(r"^serving .* \(Ctrl-C stops\)$")
                running.process.send_signal(signals[0])
                assert running.process.wait(timeout=20) == status, running.output()
            finally:
                running.stop()
            continue
        result = invoke(*args, cwd=sandbox)
        assert result.returncode == status, (command, result.stderr)
        assert "Traceback" not in result.stderr
        if status == exits.UNUSABLE:
            assert len(result.stderr.strip().splitlines()) == 1, (command, result.stderr)


def test_livereload_stopped_by_sigterm_exits_143_too(sandbox):
    running = RunningTask("livereload", "--release-tag", "v3.1.0", "--port", "0", "--output-dir", "live", cwd=sandbox)
    try:
        running.wait_for(r"^watching ")
        running.process.send_signal(signal.SIGTERM)
        assert running.process.wait(timeout=30) == exits.interrupted(signal.SIGTERM), running.output()
    finally:
        running.stop()


def test_livereload_watches_what_its_row_names(tmp_path):
    # What the row says it watches, against the paths livereload says it watches when it starts.
    [cell] = [row["what it does"] for row in table_with("task", "what it does").rows if row["task"] == tasks_table()["livereload"]]
    listed = re.search(r"watch (.+?), rebuild on every change", cell).group(1)
    said = {item.strip().strip("`") for item in re.split(r", | and ", listed)}
    reports = write_archive(tmp_path / "reports", {"golden/a.report.json": report()})
    manifest = tmp_path / "models.jsonl"
    running = RunningTask("livereload", "--port", "0", "--reports-dir", str(reports), "--manifest", str(manifest),
                          "--output-dir", str(tmp_path / "live"), cwd=tmp_path)
    try:
        watching = running.wait_for(r"^watching (.+)$").group(1).split(", ")
    finally:
        running.stop()
    names = {"reports": "the archive", "models.jsonl": "the manifest"}  # as given, relative to the working folder
    watched = {names.get(path) or Path(path).relative_to(ROOT).as_posix() + ("/" if Path(path).is_dir() else "")
               for path in watching}
    assert watched == said


def test_the_map_names_every_module_of_the_plugin_under_its_phase_folder():
    block = section("How it is built").split("```text\n", 1)[1].split("```", 1)[0]
    plugin = block[block.index("plugins/benchmark_leaderboard/"):block.index("\nleaderboard_tools/")]
    package = ROOT / "plugins" / "benchmark_leaderboard"
    for folder in sorted(path for path in package.iterdir() if (path / "__init__.py").is_file()):
        start = plugin.index(f"\n  {folder.name}/")
        entry = plugin[start:start + 1 + re.search(r"\n  \S", plugin[start + 1:]).start()]  # up to the next entry
        named = set(re.findall(r"[\w]+\.py\b", entry))
        assert named == {path.name for path in folder.glob("*.py") if path.name != "__init__.py"}, folder.name
    top = {path.name for path in package.glob("*.py") if path.name != "__init__.py"}
    assert top <= set(re.findall(r"[\w]+\.py\b", plugin))


def test_the_theme_s_entry_names_every_file_of_theme_static_and_counts_its_style_sheets():
    block = section("How it is built").split("```text\n", 1)[1].split("```", 1)[0]
    entry = block[block.index("\ntheme/"):]
    static = sorted(path.name for path in (ROOT / "theme" / "static").iterdir() if path.is_file())
    assert sorted(re.findall(r"[\w-]+\.(?:css|js|svg)\b", entry)) == static
    numbers = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
    [count] = re.findall(r"\b(\w+) style sheets?\b", entry)
    assert count == numbers[sum(name.endswith(".css") for name in static)]


# -- What a build writes ---------------------------------------------------------------------------


WRITES = table_with("file", "what it is", "on a rebuild")


def pattern(shown: str) -> re.Pattern:
    """A path of the table as a pattern: ``<name>`` is any part of a path, a folder (``x/``) all it holds."""
    parts = re.split(r"<[^>]+>", shown)
    text = ".+".join(re.escape(part) for part in parts)
    return re.compile(text + ".+" if shown.endswith("/") else text)


@dataclass(frozen=True)
class Render:
    folder: Path
    linked: dict[str, bool]  # every file of the rebuild -> whether it is the previous render's file, linked
    said: str  # the rebuild's last line


def rendered_twice(root: Path, render: Callable[[str], str]) -> Render:
    """``render("site")`` twice: which files of the second render are the first's, linked, and what
    the second said last."""
    render("site")
    site = root / "site"
    # Keep every file of the first render linked here, so that no inode of it is reused meanwhile.
    kept = root / "kept"
    inodes = {}
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        relative = path.relative_to(site).as_posix()
        inodes[relative] = path.stat().st_ino
        (kept / relative).parent.mkdir(parents=True, exist_ok=True)
        os.link(path, kept / relative)
    said = render("site")
    files = {path.relative_to(site).as_posix(): path.stat().st_ino for path in site.rglob("*") if path.is_file()}
    assert sorted(files) == sorted(inodes)  # the same inputs: the same files
    return Render(site, {relative: inodes[relative] == inode for relative, inode in files.items()}, said)


def archive_of_sixty(root: Path) -> tuple[Path, Path]:
    """Before: one report. After: 60 reports of one suite and family, so that the family and the rows
    added run past a page (50 rows), and one of a second suite (which has a page and a panel of its own)."""
    before = write_archive(root / "before", {"golden/a.report.json": report()})
    after = write_archive(root / "after", {
        f"golden/m{number:02d}.report.json": report(model_name=f"OpenMed/model-{number:02d}",
                                                    metrics={"leakage": {"overall": number / 100}})
        for number in range(60)} | {"second/b.report.json": report(suite="second", model_name="OpenMed/other")})
    return before, after


@pytest.fixture(scope="module")
def render(tmp_path_factory) -> Render:
    """A release with a changes page (every kind of file), rendered, then rendered again into itself,
    the second archive compared with the first."""
    root = tmp_path_factory.mktemp("render")
    before, after = archive_of_sixty(root)

    def publish(reports: Path, output: str, tag: str, *more: str) -> str:
        result = invoke("publish", "--release-tag", tag, "--reports-dir", str(reports), "--manifest",
                        str(root / "none.jsonl"), "--output-dir", output, *more, cwd=root)
        assert result.returncode == 0, result.stderr
        return result.stderr.splitlines()[-1]

    # The archive's reports carry v1.0.0: the next release, v1.1.0, is compared with its render.
    publish(before, "old", "v1.0.0")
    return rendered_twice(root, lambda output: publish(after, output, "v1.1.0", "--previous", "old"))


@pytest.fixture(scope="module")
def build_render(tmp_path_factory) -> Render:
    """The same archive as a plain local build (`invoke build`), rendered, then rendered again into itself."""
    root = tmp_path_factory.mktemp("build")
    _, after = archive_of_sixty(root)

    def build(output: str) -> str:
        result = invoke("build", "--reports-dir", str(after), "--manifest", str(root / "none.jsonl"), "--output-dir",
                        output, cwd=root)
        assert result.returncode == 0, result.stderr
        return result.stderr.splitlines()[-1]

    return rendered_twice(root, build)


def rows_of(relative: str) -> list[dict[str, str]]:
    """The rows that name ``relative``: the one naming it exactly, else every row whose patterns match it."""
    exact = [row for row in WRITES.rows if relative in code_in(row["file"])]
    return exact or [row for row in WRITES.rows if any(pattern(shown).fullmatch(relative) for shown in code_in(row["file"]))]


def said_on_a_rebuild(cell: str, release: bool) -> str:
    """What an "on a rebuild" cell says of a plain build's rebuild, or of a release's: ``linked``,
    ``written``, or the first for a build and the second for a release (``linked; written by a release``)."""
    said, *releases = [part.strip() for part in cell.split(";")]
    assert said in ("linked", "written") and len(releases) <= 1, cell
    for part in releases:
        match = re.fullmatch(r"(linked|written) by a release", part)
        assert match, cell
        said = match.group(1) if release else said
    return said


@pytest.mark.parametrize("shown", [shown for row in WRITES.rows for shown in code_in(row["file"])])
def test_each_file_the_table_names_is_in_a_render(shown, render):
    assert any(pattern(shown).fullmatch(relative) for relative in render.linked), f"no {shown} in the render"


def test_every_entry_of_a_render_is_in_the_table(render):
    for entry in sorted(os.listdir(render.folder)):
        named = [shown for row in WRITES.rows for shown in code_in(row["file"])
                 if not shown.startswith("<") and re.split(r"[/<]", shown)[0] == entry]
        assert named, f"{entry} is in a render and not in What a build writes"
    for relative in sorted(render.linked):
        assert rows_of(relative), f"{relative} matches no row of What a build writes"


@pytest.mark.parametrize("kind", ["release", "build"])
def test_a_rebuild_links_and_writes_what_the_table_says(kind, request):
    # Both kinds of rebuild: a release seals its render (its marker, SHA256SUMS), a plain build does not.
    render = request.getfixturevalue("render" if kind == "release" else "build_render")
    wrong = []
    for relative, linked in sorted(render.linked.items()):
        cells = {row["on a rebuild"] for row in rows_of(relative)}
        assert len(cells) == 1, (relative, cells)
        said = said_on_a_rebuild(cells.pop(), release=kind == "release")
        if (said == "linked") != linked:
            wrong.append(f"{relative}: {'linked' if linked else 'written'}, the README says {said}")
    assert wrong == []


def test_the_summary_line_counts_the_files_a_rebuild_wrote_and_linked_as_the_readme_shows(build_render):
    [shown] = [code for code in code_in(section("What a build writes")) if code.startswith("leaderboard: ")]
    linked = sum(build_render.linked.values())
    # The same words after the counts of rows, suites and families (which the archive makes singular or plural).
    def shape(line: str) -> str:
        return re.sub(r"\d+(?:\.\d+)?", "#", line[line.index(" files "):])

    assert shape(build_render.said) == shape(shown)
    assert build_render.said.startswith(f"leaderboard: 61 rows, 2 suites, 1 family, {len(build_render.linked)} files "
                                        f"({len(build_render.linked) - linked} written, {linked} kept unchanged ")


def test_the_bundled_archives_counts_are_what_its_first_build_and_rebuild_say(tmp_path):
    """The counts the README shows are read from a real build of the bundled archive (as `make build`
    makes it: its release tag, the Makefile's), first into a new folder, then again into it."""
    said = []
    for _ in range(2):
        result = invoke("build", "--release-tag", "v3.1.0", "--output-dir", str(tmp_path / "site"))
        assert result.returncode == 0, result.stderr
        said.append(re.sub(r" in \d+\.\d+ s$", "", result.stderr.splitlines()[-1]))
    text = section("What a build writes")
    [first] = [code for code in code_in(text) if code.endswith(" files written")]
    [rebuild] = [code for code in code_in(text) if code.startswith("leaderboard: ")]
    assert said[0].endswith(", " + first)
    assert said[1] == re.sub(r" in \d+\.\d+ s$", "", rebuild)


def test_a_familys_folder_is_its_position_in_its_suite(render):
    assert (render.folder / "suite" / "suite-golden" / "1" / "2.html").is_file()
    assert "`<family>` is the family's position in its suite (1 for the first)" in README


# -- What the index links ---------------------------------------------------------------------------

# How the README says which families the index links to their pages: the only words it uses for it.
FAMILY_LINKS = "each family not shown whole"


def sentences(text: str = README) -> list[str]:
    """The README's sentences and table cells, each on one line."""
    return [part.strip() for part in re.split(r"(?<=[.;])\s|\|", " ".join(text.split())) if part.strip()]


def test_the_index_links_the_pages_of_each_family_not_shown_whole_as_the_readme_says(tmp_path):
    # Every sentence that has a family link to its pages says which, in the same words.
    said = [sentence for sentence in sentences()
            if re.search(r"famil", sentence) and re.search(r"\blinks?\b", sentence) and re.search(r"\bpages\b", sentence)]
    assert len(said) >= 2 and all(FAMILY_LINKS in sentence for sentence in said), said
    # One suite of eleven families (a suite lists them by name): the first shown whole (3 rows), the
    # second in part (8 rows, 5 shown), eight of one row, the last beyond the ten the index shows (its
    # heading alone).
    families = [("Awhole", 3), ("Bpart", 8)] + [(f"C{number}", 1) for number in range(1, 9)] + [("Dlast", 1)]
    reports, leakage = {}, 0
    for family, count in families:
        for number in range(count):
            leakage += 1
            reports[f"golden/{family}-{number}.report.json"] = report(
                model_name=f"OpenMed/{family}-{number}", metadata={"model_family": family},
                metrics={"leakage": {"overall": leakage / 1000}})
    write_archive(tmp_path / "reports", reports)
    result = invoke("build", "--reports-dir", "reports", "--manifest", "none.jsonl", "--output-dir", "output", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    index = (tmp_path / "output" / "index.html").read_text(encoding="utf-8")
    linked = {}
    for number, (family, count) in enumerate(families, start=1):
        block = index[index.index(f"<h3><bdi>{family}</bdi></h3>"):]
        block = block[:block.index("<h3>", 4)] if "<h3>" in block[4:] else block
        shown = len(re.findall(r'href="[^"]*report/golden/[^"]*\.report\.html"', block))
        linked[family] = (shown, f'/suite/suite-golden/{number}/1.html"' in block)
    assert linked == {"Awhole": (3, False), "Bpart": (5, True), **{f"C{n}": (1, False) for n in range(1, 9)},
                      "Dlast": (0, True)}


# -- The output the README shows -------------------------------------------------------------------


def test_the_refusal_lines_are_what_a_build_prints(tmp_path):
    shown = shown_block("Tasks", "A build that cannot be trusted is refused").splitlines()
    write_archive(tmp_path / "reports", {
        "golden/good.report.json": report(),
        "clinical/bad.report.json": report(suite="clinical", fixture_count=True, metadata={"synthetic": False}),
    })
    (tmp_path / "models.jsonl").write_text('{"repo_id": "OpenMed/model-a", "family": "PII"}\n\n{bad}\n',
                                           encoding="utf-8")
    result = invoke("build", "--reports-dir", "reports", "--manifest", "models.jsonl", "--output-dir", "output",
                    cwd=tmp_path)
    assert result.returncode == exits.REFUSED
    printed = result.stderr.splitlines()
    assert printed[0].startswith("rendering ") and printed[1:] == shown
    assert not (tmp_path / "output").exists()


def test_a_missing_manifest_is_one_line_saying_where_it_was_looked_for_and_the_build_renders(tmp_path):
    [example] = [line for line in code_in(section("Tasks")) if line.startswith("warning: the manifest")]
    expected = re.escape(example.replace("/path/to/models.jsonl", str(tmp_path / "typo" / "models.jsonl")))
    expected = expected.replace("…", ".+")
    # Reports that carry their family and hash need no manifest: the build renders, as the reference's does.
    write_archive(tmp_path / "reports", {"golden/a.report.json": report()})
    result = invoke("build", "--reports-dir", "reports", "--manifest", "typo/models.jsonl", "--output-dir", "output",
                    cwd=tmp_path)
    assert result.returncode == exits.DONE, result.stderr
    assert re.fullmatch(expected, result.stderr.splitlines()[1]), result.stderr
    assert (tmp_path / "output" / "index.html").is_file()
    # The bundled archive needs it: the same line comes before the problems it causes.
    result = invoke("build", "--release-tag", "v3.1.0", "--manifest", "typo/models.jsonl", "--output-dir", "bundled",
                    cwd=tmp_path)
    assert result.returncode == exits.REFUSED
    assert re.fullmatch(expected, result.stderr.splitlines()[1]), result.stderr
    assert [line for line in result.stderr.splitlines() if line.startswith("warning:")] == [result.stderr.splitlines()[1]]


def test_the_diff_sample_is_what_invoke_diff_prints_of_the_pages_branch(tmp_path):
    shown = shown_block("Comparing releases", "The changes come in")
    repository = tmp_path / "pages"
    repository.mkdir()
    git(repository, "init", "--quiet", "--initial-branch", "gh-pages")
    for document, message in ((OLD, "old"), (NEW, "new")):
        write(repository / "leaderboard.json", document)
        git(repository, "add", "leaderboard.json")
        git(repository, "commit", "--quiet", "-m", message)
    result = invoke("diff", "gh-pages~1", "gh-pages", cwd=repository)
    assert (result.returncode, result.stdout) == (exits.REFUSED, shown)


def test_the_kinds_table_names_each_kind_as_every_format_does():
    from benchmark_leaderboard.present.change_kinds import KINDS

    rows = table_with("kind", "text", "json").rows
    assert [(row["kind"], row["text"].strip("`"), row["json"].strip("`")) for row in rows] == [
        (kind.title, kind.word, kind.key) for kind in KINDS]


def test_the_frontiers_words_are_the_same_on_the_page(tmp_path):
    words = "no other row of its suite is at least as good on both leakage and recall and better on one"
    assert words in " ".join(section("For reviewers").split())
    write_archive(tmp_path / "reports", {"golden/a.report.json": report()})
    result = invoke("build", "--reports-dir", "reports", "--manifest", "none.jsonl", "--output-dir", "output", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert words in (tmp_path / "output" / "index.html").read_text(encoding="utf-8")


def test_the_ranking_page_says_what_the_tables_show_of_a_hash_and_a_percentage(tmp_path):
    # A table shows HASH_SHOWN digits of the hash and rounds a percentage (display): the page says so.
    write_archive(tmp_path / "reports", {"golden/a.report.json": report(metrics={"leakage": {"overall": 1 / 7}})})
    result = invoke("build", "--reports-dir", "reports", "--manifest", "none.jsonl", "--output-dir", "output", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    ranking = " ".join(re.sub(r"<[^>]+>", "", (tmp_path / "output" / "ranking.html").read_text(encoding="utf-8")).split())
    index = (tmp_path / "output" / "index.html").read_text(encoding="utf-8")
    (said,) = re.findall(r"The hash column shows the first (\d+) hex digits", ranking)
    assert int(said) == HASH_SHOWN and "whole reproducibility hash" not in ranking
    digest = report()["metadata"]["reproducibility_hash"].partition(":")[2]
    assert f"<td>{digest[:HASH_SHOWN]}<td>" in index and digest[:HASH_SHOWN + 1] not in index
    assert f"1/7 is {rounded(1 / 7)}" in ranking and f"{rounded(1 / 7)} <span" in index
    assert "rounded to two decimals" in ranking and DECIMALS == 2
    assert f"up to four ({rounded(1 / 7, MOST_DECIMALS)}" in ranking and MOST_DECIMALS == 4
