"""The benchmark of issue 10 (item 7): this project against the reference renderer, side by side.

For each size it makes a synthetic archive with the project's own maker (``benchmarks/make_archive.py``,
kept under ``benchmarks/.work/`` and made again only when the maker's output would differ), reads it
once into the page cache, then renders it with ``invoke build`` and with the reference's command
line, alternating (ABBA) so that a busy machine slows both alike, in two situations: into a new
output folder, and again into the folder of the renderer's previous run. The floor
(``benchmarks/floor.py``) takes its turn with the new-folder runs. Memory is measured in runs of
its own (``benchmarks/measure.py`` says how). Then the project alone is rebuilt after one edit at a
time, and a save is timed under its live preview (``benchmarks/edits.py``). Last, Chromium measures the project's page of the
largest archive (``benchmarks/browser.py``). The figures are printed and written to
``benchmarks/results.md``, each target with met or not met."""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

from benchmark_leaderboard.problems import one_line

from . import edits as edit_runs
from . import measure
from .prepare import (RELEASE_TAG, REMOVED_AT, ROOT, WORK, BenchError, compile_project, file_system, make_archive, note_removal,
                      parse_sizes, warm)
from .results import RESULTS, TITLE, write_figures

DEFAULT_SIZES = (10_000, 100_000)
DEFAULT_RUNS = 3

PROJECT, REFERENCE, FLOOR = "project", "reference", "floor"
RENDERERS = (PROJECT, REFERENCE)
NEW, REBUILD = "new folder", "rebuild"
# Who runs in each situation, in the order of the first round; the next round runs them backwards.
CONTESTANTS = {NEW: (PROJECT, REFERENCE, FLOOR), REBUILD: RENDERERS}

# Issue 10, item 7: the project's wall time, peak memory and cost per added report are each at
# most this share of the reference's.
MAX_RATIO = 0.5
# Issue 11, item 7: the page of the largest archive in Chromium.
MAX_INTERACTIVE_MS = 1000.0
MAX_KEYSTROKE_MS = 50.0
MAX_SORT_MS = 200.0
MAX_HTML_BYTES = 10 * 1000 * 1000

MET, NOT_MET, NOT_MEASURED = "met", "not met", "not measured"

# Issue 41: what an edit costs. At the larger sizes, a rebuild's wall time against the reference's
# full render (its only mode); at the smaller, its CPU against the project's own full build.
LARGE = 100_000
NO_OP_WALL, EDIT_WALL = 0.10, 0.20
NO_OP_CPU, EDIT_CPU = 0.20, 0.30
# An edit that changes fewer files than this is held to the edit's targets, and the preview's.
SMALL_EDIT_FILES = 1000
MAX_SAVE_TO_PAGE, MAX_SAVE_TO_WHOLE = 1.0, 3.0


# --- what is run ---------------------------------------------------------------------------------

def project_command(archive: Path, output: Path) -> list[str]:
    invoke = str(Path(sys.executable).parent / "invoke")
    return [invoke, "build", "--reports-dir", str(archive / "reports"), "--manifest", str(archive / "models.jsonl"),
            "--release-tag", RELEASE_TAG, "--output-dir", str(output)]


def reference_command(archive: Path, output: Path) -> list[str]:
    return [sys.executable, "-m", "openmed.eval.leaderboard", "--reports-dir", str(archive / "reports"),
            "--output-dir", str(output), "--manifest", str(archive / "models.jsonl"), "--release-tag", RELEASE_TAG]


def floor_command(archive: Path, output: Path) -> list[str]:
    return [sys.executable, "-m", "benchmarks.floor", str(archive / "reports"), str(output)]


COMMANDS: Mapping[str, Callable[[Path, Path], list[str]]] = {
    PROJECT: project_command, REFERENCE: reference_command, FLOOR: floor_command,
}


def abba(contestants: Sequence[str], rounds: int) -> list[str]:
    """The order of ``rounds`` rounds: the contestants forwards, then backwards, and so on (ABBA), so
    that whatever drifts during the benchmark (the machine's load, the disk) weighs on all alike."""
    order: list[str] = []
    for number in range(rounds):
        order.extend(contestants if number % 2 == 0 else reversed(contestants))
    return order


# --- the outputs and the disk --------------------------------------------------------------------

# Why no run removes what an earlier run wrote: on ext4 without a journal (this machine's disk), a
# file created within a minute of another file's removal skips the freed inode, and within six if
# that inode's table block has been written to since, which creating files does: finding a free
# inode then scans every such inode of its group. 20,000 files removed just before a render made
# creating a file cost either renderer 200 to 600 µs instead of about 30. So each new-folder run
# writes a folder of its own, the rebuilds (where the renderers remove files themselves: the
# reference its old copies, the project its old render) come after every new-folder run, all the
# folders are removed once the benchmark is over, and a benchmark started less than six minutes
# after that removal waits for the rest of them. Files removed by anything else (a test run) slow
# the benchmark down the same way, and it cannot know of them.
SETTLE_SECONDS = 365.0


def site(work: Path, name: str, reports: int, label: str) -> Path:
    """Where one run of ``name`` writes for the ``reports``-report archive."""
    return work / f"site-{name}-{reports}-{label}"


def outputs_of(work: Path) -> list[Path]:
    """Every folder the runs wrote, and what a killed build left beside them."""
    return sorted(set(work.glob("site-*")) | set(work.glob(".site-*")))


def remove_outputs(work: Path) -> None:
    """Remove every run's output and note when, for the next benchmark."""
    outputs = outputs_of(work)
    if not outputs:
        return
    for path in outputs:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    note_removal(work)


def settle(work: Path, say: Callable[[str], None], sleep: Callable[[float], None] = time.sleep) -> None:
    """Remove what an interrupted benchmark left, then wait until the last removal is six minutes old
    (on a disk: in memory, on tmpfs, removing files does not slow creating others)."""
    remove_outputs(work)
    if file_system(work) == "tmpfs":
        return
    try:
        removed = float((work / REMOVED_AT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    wait = removed + SETTLE_SECONDS - time.time()
    if wait > 0:
        say(f"waiting {wait:.0f} s: the files removed lately still slow down creating new ones")
        sleep(wait)


def largest_html(folder: Path) -> tuple[str, int]:
    """The largest ``.html`` file below ``folder``: its path there and its size in bytes."""
    best = ("", -1)
    for parent, _, names in os.walk(folder):
        for name in names:
            if name.endswith(".html"):
                path = os.path.join(parent, name)
                size = os.path.getsize(path)
                relative = os.path.relpath(path, folder).replace(os.sep, "/")
                if size > best[1] or (size == best[1] and relative < best[0]):
                    best = (relative, size)
    return best


# --- the runs ------------------------------------------------------------------------------------

@dataclass
class Point:
    """One size in one situation: each contestant's timed runs, and each renderer's sampled run."""
    reports: int
    situation: str
    runs: dict[str, list[measure.Measured]] = field(default_factory=dict)
    memory: dict[str, measure.Measured] = field(default_factory=dict)

    def wall(self, name: str) -> float:
        return statistics.median(run.seconds for run in self.runs[name])

    def cpu(self, name: str) -> float:
        return statistics.median(run.cpu_seconds for run in self.runs[name])

    def peak(self, name: str) -> int:
        return self.memory[name].peak_pss_bytes


@dataclass
class SizeResult:
    reports: int
    points: dict[str, Point] = field(default_factory=dict)
    largest_html: dict[str, tuple[str, int]] = field(default_factory=dict)
    same_leaderboard_json: bool = False
    edits: edit_runs.EditPoint | None = None


class Runner:
    """Runs the contestants' commands from the project's folder, each after a sync of the disk, so
    that no run pays for writing back what the one before it wrote."""

    def __init__(self, commands: Mapping[str, Callable[[Path, Path], list[str]]], say: Callable[[str], None]):
        self.commands = commands
        self.say = say

    def __call__(self, name: str, archive: Path, output: Path, what: str, memory: bool = False) -> measure.Measured:
        if hasattr(os, "sync"):
            os.sync()
        result = measure.run(self.commands[name](archive, output), cwd=str(ROOT), memory=memory)
        if result.returncode != 0:
            lines = [line for line in result.stderr.splitlines() if line.strip()]
            last = f": {one_line(lines[-1])}" if lines else ""
            raise BenchError(f"the {name} run into {one_line(str(output))} ended with status {result.returncode}{last}")
        figure = f"peak {result.peak_pss_bytes / 2**20:,.0f} MiB" if memory else f"{result.seconds:.2f} s"
        self.say(f"  {what}, {name}: {figure}")
        return result


def bench_new(reports: int, archive: Path, runs: int, work: Path, run: Runner) -> Point:
    """Every contestant ``runs`` times into a folder of its own, alternating; then each renderer once
    more, sampled, into one more new folder (the folder its rebuilds will go into)."""
    point = Point(reports, NEW, {name: [] for name in CONTESTANTS[NEW]})
    for name in abba(CONTESTANTS[NEW], runs):
        number = len(point.runs[name]) + 1
        point.runs[name].append(run(name, archive, site(work, name, reports, f"new-{number}"),
                                    f"{reports:,} reports, new folder, run {number}"))
    for name in RENDERERS:
        point.memory[name] = run(name, archive, rebuilt(work, name, reports), f"{reports:,} reports, new folder, sampled",
                                 memory=True)
    return point


def rebuilt(work: Path, name: str, reports: int) -> Path:
    """The folder that ``name`` renders into again and again in the rebuild situation."""
    return site(work, name, reports, "rebuilt")


def bench_rebuild(reports: int, archive: Path, runs: int, work: Path, run: Runner) -> Point:
    """Each renderer ``runs`` times into the folder of its previous run, alternating; then once more, sampled."""
    point = Point(reports, REBUILD, {name: [] for name in CONTESTANTS[REBUILD]})
    for name in abba(CONTESTANTS[REBUILD], runs):
        number = len(point.runs[name]) + 1
        point.runs[name].append(run(name, archive, rebuilt(work, name, reports), f"{reports:,} reports, rebuild, run {number}"))
    for name in RENDERERS:
        point.memory[name] = run(name, archive, rebuilt(work, name, reports), f"{reports:,} reports, rebuild, sampled",
                                 memory=True)
    return point


def parse_runs(text: str | int) -> int:
    """``--runs``: a whole number of at least 1."""
    try:
        runs = int(text)
    except ValueError:
        runs = 0
    if runs < 1:
        raise BenchError(f"--runs must be a whole number of at least 1, not {one_line(str(text))!r}")
    return runs


def bench_command(sizes: str | None, runs: str | None, browser: bool, work: str | None = None) -> str:
    """The ``invoke bench`` command that gives these options, for results.md (a work folder is named
    by its file system's type, not by its path on one machine)."""
    flags = [f"--sizes {sizes}"] if sizes is not None else []
    flags += [f"--runs {runs}"] if runs is not None else []
    flags += [] if browser else ["--no-browser"]
    flags += [f"--work <a folder on {file_system(Path(work))}>"] if work else []
    return " ".join(["invoke bench", *flags])


def main(sizes: Sequence[int] | None = None, runs: int | None = None, browser: bool = True,
         results_file: Path | None = RESULTS, work: Path = WORK, command_line: str = "invoke bench",
         say: Callable[[str], None] = print,
         commands: Mapping[str, Callable[[Path, Path], list[str]]] = COMMANDS,
         lighthouse: Callable[[list[tuple[str, str]]], list[str]] | None = None,
         measure_page: Callable[[str], object] | None = None,
         edits: Callable[..., edit_runs.EditPoint] | None = None) -> str:
    """Run the benchmark; prints the figures, writes them to ``results_file`` and returns them.
    ``edits`` (``edits.bench_edits``, which the command line passes) times the project's rebuilds
    after one edit and its preview's saves; without it they are not measured."""
    sizes = sorted(set(DEFAULT_SIZES if sizes is None else sizes))
    runs = DEFAULT_RUNS if runs is None else runs
    if not sizes or min(sizes) < 1 or runs < 1:
        raise BenchError("the benchmark needs at least one size of at least 1 report and at least one run")
    measure.check_supported()
    work.mkdir(parents=True, exist_ok=True)
    archives = {reports: make_archive(reports, work, say) for reports in sizes}
    compile_project()
    settle(work, say)
    load_before, stolen_before, started = os.getloadavg()[0], stolen_seconds(), time.monotonic()
    run = Runner(commands, say)
    results = [SizeResult(reports) for reports in sizes]
    page, page_note = None, "not measured (--no-browser)"
    lighthouse_lines: list[str] = []
    try:
        # Every new-folder run comes first: no file has been removed before any of them.
        for result in results:
            say(f"{result.reports:,} reports, new folder: {_runs(runs)} of each renderer and of the floor")
            warm(archives[result.reports])
            result.points[NEW] = bench_new(result.reports, archives[result.reports], runs, work, run)
        for result in results:
            say(f"{result.reports:,} reports, rebuild: {_runs(runs)} of each renderer")
            result.points[REBUILD] = bench_rebuild(result.reports, archives[result.reports], runs, work, run)
        for result in results:
            for name in RENDERERS:
                result.largest_html[name] = largest_html(rebuilt(work, name, result.reports))
            result.same_leaderboard_json = ((rebuilt(work, PROJECT, result.reports) / "leaderboard.json").read_bytes()
                                            == (rebuilt(work, REFERENCE, result.reports) / "leaderboard.json").read_bytes())
        if edits is not None:
            for result in results:
                say(f"{result.reports:,} reports, edits: {_runs(runs)} of each, then the preview's saves")
                result.edits = edits(result.reports, archives[result.reports], runs,
                                     site(work, PROJECT, result.reports, "edits"), say)
        if browser:
            if measure_page is None:
                from .browser import measure_page
            largest = results[-1].reports
            say(f"Chromium: the project's page of {largest:,} reports")
            if hasattr(os, "sync"):
                os.sync()  # as before each run: the last runs' writing back does not share the CPUs with the page
            try:
                page = measure_page(str(rebuilt(work, PROJECT, largest)))
            except Exception as error:  # a missing browser loses these figures, not the others
                first = (str(error).strip().splitlines() or [type(error).__name__])[0]
                page_note = f"not measured: {one_line(first)}"
            if lighthouse is not None:
                say("Lighthouse: the project's pages, mobile and desktop")
                lighthouse_lines = lighthouse([(f"{result.reports:,} reports", str(rebuilt(work, PROJECT, result.reports)))
                                               for result in results])
    finally:
        remove_outputs(work)
    stolen_after, elapsed = stolen_seconds(), time.monotonic() - started
    stolen = (None if stolen_before is None or stolen_after is None or elapsed <= 0
              else (stolen_after - stolen_before) / (elapsed * (os.cpu_count() or 1)))
    text = report(results, page, page_note, command_line, runs, (load_before, os.getloadavg()[0]), stolen,
                  file_system(work))
    if lighthouse_lines:
        text += "\n" + "\n".join(lighthouse_lines) + "\n"
    say("")
    say(text)
    if results_file is not None:
        write_figures(results_file, text)
    return text


# --- the report ----------------------------------------------------------------------------------

def _runs(count: int, kind: str = "") -> str:
    return f"{count} {kind}run{'s' if count != 1 else ''}"


def _seconds(value: float) -> str:
    return f"{value:.2f}"


def _mib(size: int) -> str:
    return f"{size / 2**20:,.0f}"


def _ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}x"


def _share(part: float, whole: float) -> float | None:
    return part / whole if whole > 0 else None


def _ms(value: float) -> str:
    return f"{value:,.0f} ms" if value >= 100 else f"{value:.1f} ms"


def _verdict(ok: bool) -> str:
    return MET if ok else NOT_MET


def _at_most(value: float | None, limit: float) -> str:
    return NOT_MET if value is None else _verdict(value <= limit)


def cost_per_report(smaller: Point, larger: Point, name: str) -> float:
    """Seconds each report beyond the smaller archive adds to ``name``'s median wall time."""
    return (larger.wall(name) - smaller.wall(name)) / (larger.reports - smaller.reports)


def cost_ratio(ours: float, theirs: float) -> float | None:
    """The project's cost per added report over the reference's; None unless both are above zero
    (a cost at or below zero says that the sizes are too close together for the runs' spread)."""
    return ours / theirs if ours > 0 and theirs > 0 else None


def summary_table(results: Sequence[SizeResult]) -> list[str]:
    lines = ["| reports | situation | project wall (s) | reference wall (s) | ratio | project peak (MiB) | "
             "reference peak (MiB) | ratio |",
             "|---:|---|---:|---:|---:|---:|---:|---:|"]
    for result in results:
        for situation in (NEW, REBUILD):
            point = result.points[situation]
            lines.append(f"| {result.reports:,} | {situation} | {_seconds(point.wall(PROJECT))} | "
                         f"{_seconds(point.wall(REFERENCE))} | {_ratio(_share(point.wall(PROJECT), point.wall(REFERENCE)))} | "
                         f"{_mib(point.peak(PROJECT))} | {_mib(point.peak(REFERENCE))} | "
                         f"{_ratio(_share(point.peak(PROJECT), point.peak(REFERENCE)))} |")
    return lines


def runs_table(results: Sequence[SizeResult]) -> list[str]:
    lines = ["| reports | situation | who | each run, in order (s) | median CPU, user + system (s) |",
             "|---:|---|---|---|---:|"]
    for result in results:
        for situation in (NEW, REBUILD):
            point = result.points[situation]
            for name in CONTESTANTS[situation]:
                each = ", ".join(_seconds(run.seconds) for run in point.runs[name])
                lines.append(f"| {result.reports:,} | {situation} | {name} | {each} | {_seconds(point.cpu(name))} |")
    return lines


def cost_table(results: Sequence[SizeResult]) -> list[str]:
    lines = ["| situation | from | to | project (ms a report) | reference (ms a report) | ratio |",
             "|---|---:|---:|---:|---:|---:|"]
    for situation in (NEW, REBUILD):
        for smaller, larger in zip(results, results[1:]):
            low, high = smaller.points[situation], larger.points[situation]
            ours, theirs = cost_per_report(low, high, PROJECT), cost_per_report(low, high, REFERENCE)
            lines.append(f"| {situation} | {smaller.reports:,} | {larger.reports:,} | {ours * 1000:.3f} | "
                         f"{theirs * 1000:.3f} | {_ratio(cost_ratio(ours, theirs))} |")
    return lines


def floor_table(results: Sequence[SizeResult]) -> list[str]:
    lines = ["| reports | floor wall (s) | project, new folder | reference, new folder |",
             "|---:|---:|---:|---:|"]
    for result in results:
        point = result.points[NEW]
        floor = point.wall(FLOOR)
        lines.append(f"| {result.reports:,} | {_seconds(floor)} | {_ratio(_share(point.wall(PROJECT), floor))} | "
                     f"{_ratio(_share(point.wall(REFERENCE), floor))} |")
    return lines


def html_table(results: Sequence[SizeResult]) -> list[str]:
    lines = ["| reports | renderer | largest HTML file | bytes |", "|---:|---|---|---:|"]
    for result in results:
        for name in RENDERERS:
            path, size = result.largest_html[name]
            lines.append(f"| {result.reports:,} | {name} | `{one_line(path)}` | {size:,} |")
    return lines


EDITS_METHOD = """\
Each size's archive is linked into a folder of the project's own and built once into a new folder;
then each edit is made (or undone: each run makes one change) and the site rebuilt into that render
in place, a run each time, {runs}. "nothing" is a rebuild of an unchanged archive; the template edit
overrides `report.html` (`THEME_TEMPLATES_OVERRIDES`). Files written are what the build's summary
counts; the rest it kept. The rebuilds' wall time is set against the reference's full render
(new folder) and their CPU against the project's full build (new folder), both from the runs above.
The preview is `invoke livereload` on the same archive: each of the two report edits is saved in
turn (made or undone), renamed into place as an editor saves, timed to the moment the report's page
holds new bytes and to the preview's line that the whole render is in place."""


def _edits_of(results: Sequence[SizeResult]) -> list[SizeResult]:
    return [result for result in results if result.edits is not None]


def edits_section(results: Sequence[SizeResult]) -> list[str]:
    measured = _edits_of(results)
    if not measured:
        return ["Not measured in this run."]
    runs = len(next(iter(measured[0].edits.edits.values())).runs)
    lines = [EDITS_METHOD.format(runs=_runs(runs, "timed ")), "",
             "| reports | edit | files written | wall (s) | CPU (s) | wall / the reference's full render | "
             "CPU / the project's full build |",
             "|---:|---|---:|---:|---:|---:|---:|"]
    for result in measured:
        new = result.points[NEW]
        for what, edited in result.edits.edits.items():
            files = "/".join(f"{count:,}" for count in sorted(set(edited.written)))
            lines.append(f"| {result.reports:,} | {what} | {files} | {_seconds(edited.wall())} | "
                         f"{_seconds(edited.cpu())} | {_ratio(_share(edited.wall(), new.wall(REFERENCE)))} | "
                         f"{_ratio(_share(edited.cpu(), new.cpu(PROJECT)))} |")
    lines += ["", "| reports | a rebuild's peak memory (MiB) | a full build's (MiB) | ratio |", "|---:|---:|---:|---:|"]
    for result in measured:
        ours, full = result.edits.memory.peak_pss_bytes, result.points[NEW].peak(PROJECT)
        lines.append(f"| {result.reports:,} | {_mib(ours)} | {_mib(full)} | {_ratio(_share(ours, full))} |")
    lines += ["", "| reports | saved edit | saves | a save to the edited page's new bytes (s) | "
              "a save to the whole render (s) |", "|---:|---|---:|---:|---:|"]
    for result in measured:
        point = result.edits
        for what, saved in point.saves.items():
            lines.append(f"| {result.reports:,} | {what} | {len(saved.to_page)} | "
                         f"{_seconds(statistics.median(saved.to_page))} median, {_seconds(max(saved.to_page))} worst | "
                         f"{_seconds(statistics.median(saved.to_whole))} median, {_seconds(max(saved.to_whole))} worst |")
        if not point.saves:
            lines.append(f"| {result.reports:,} | | 0 | not measured: {one_line(point.preview_note)} | |")
    return lines


def edit_targets(results: Sequence[SizeResult]) -> list[tuple[str, str, str]]:
    """Issue 41's targets for each size whose edits were measured."""
    found: list[tuple[str, str, str]] = []
    for result in _edits_of(results):
        at, new, point = f"{result.reports:,} reports", result.points[NEW], result.edits
        small = [what for what, edited in point.edits.items()
                 if what != edit_runs.NOTHING and max(edited.written) < SMALL_EDIT_FILES]
        for what in [edit_runs.NOTHING, *small]:
            edited, no_op = point.edits[what], what == edit_runs.NOTHING
            name = "a no-op rebuild" if no_op else f"a rebuild after {what}"
            if result.reports >= LARGE:
                limit, ratio = (NO_OP_WALL if no_op else EDIT_WALL), _share(edited.wall(), new.wall(REFERENCE))
                found.append((f"{at}: {name}, wall at most {limit}x the reference's full render", _ratio(ratio),
                              _at_most(ratio, limit)))
            else:
                limit, ratio = (NO_OP_CPU if no_op else EDIT_CPU), _share(edited.cpu(), new.cpu(PROJECT))
                found.append((f"{at}: {name}, CPU at most {limit}x the project's full build", _ratio(ratio),
                              _at_most(ratio, limit)))
        ratio = _share(point.memory.peak_pss_bytes, new.peak(PROJECT))
        found.append((f"{at}: a rebuild's peak memory at most a full build's", _ratio(ratio), _at_most(ratio, 1.0)))
        # The edited page is due within its limit whatever the edit; the whole render only where
        # the edit changes fewer than SMALL_EDIT_FILES files.
        for what in edit_runs.SAVED:
            saved = point.saves.get(what)
            checks = [("the edited page's new bytes", saved.to_page if saved else [], MAX_SAVE_TO_PAGE)]
            if what in small:
                checks.append(("the whole render", saved.to_whole if saved else [], MAX_SAVE_TO_WHOLE))
            for shown, seconds, limit in checks:
                worst = max(seconds) if seconds else None
                found.append((f"{at}, under the preview, a save of {what}: {shown} within {limit:.0f} s",
                              f"{_seconds(worst)} s worst" if worst is not None else "not measured",
                              NOT_MEASURED if worst is None else _verdict(worst <= limit)))
    return found


def _keystroke(page) -> str:
    if not page.filter_shown:
        return "no filter on the page"
    if page.keystroke_worst_ms is None:
        return "no keystroke answered"
    return f"{_ms(page.keystroke_worst_ms)} worst, {_ms(page.keystroke_median_ms)} median, {page.keystrokes} keystrokes"


def _sort(page) -> str:
    if not page.sort_buttons:
        return "skipped: the page has no sort buttons"
    if page.sort_worst_ms is None:
        return "no sort answered"
    return f"{_ms(page.sort_worst_ms)} worst, {page.sorts} sorts"


def page_table(page) -> list[str]:
    return ["| figure | value |", "|---|---|",
            f"| interactive: the page's script done (median of {page.loads} loads) | {_ms(page.interactive_ms)} |",
            f"| the first frame painted after it | {_ms(page.interactive_frame_ms)} |",
            f"| DOMContentLoaded / load | {_ms(page.dom_content_loaded_ms)} / {_ms(page.load_ms)} |",
            f"| filter keystroke: key event to the frame painted after the status changed | {_keystroke(page)} |",
            f"| sort: click to the frame painted after the rows changed | {_sort(page)} |"]


def targets(results: Sequence[SizeResult], page, page_note: str) -> list[tuple[str, str, str]]:
    """Each target as (what, the figure, met / not met / not measured)."""
    found: list[tuple[str, str, str]] = []
    for result in results:
        for situation in (NEW, REBUILD):
            point = result.points[situation]
            for what, ours, theirs in (("wall time", point.wall(PROJECT), point.wall(REFERENCE)),
                                       ("peak memory", point.peak(PROJECT), point.peak(REFERENCE))):
                ratio = _share(ours, theirs)
                found.append((f"{result.reports:,} reports, {situation}: {what} at most {MAX_RATIO}x the reference's",
                              _ratio(ratio), _at_most(ratio, MAX_RATIO)))
    for situation in (NEW, REBUILD):
        for smaller, larger in zip(results, results[1:]):
            low, high = smaller.points[situation], larger.points[situation]
            ratio = cost_ratio(cost_per_report(low, high, PROJECT), cost_per_report(low, high, REFERENCE))
            found.append((f"{situation}, {smaller.reports:,} to {larger.reports:,} reports: cost per added report "
                          f"at most {MAX_RATIO}x the reference's",
                          "n/a: a cost at or below zero" if ratio is None else _ratio(ratio),
                          NOT_MEASURED if ratio is None else _verdict(ratio <= MAX_RATIO)))
    found += edit_targets(results)
    largest = results[-1]
    at = f"{largest.reports:,} reports"
    if page is None:
        for what in (f"interactive within {MAX_INTERACTIVE_MS:,.0f} ms", f"a filter keystroke answered within {MAX_KEYSTROKE_MS:.0f} ms",
                     f"a sort answered within {MAX_SORT_MS:.0f} ms"):
            found.append((f"{at}, in Chromium: {what}", page_note, NOT_MEASURED))
    else:
        found.append((f"{at}, in Chromium: interactive within {MAX_INTERACTIVE_MS:,.0f} ms", _ms(page.interactive_ms),
                      _verdict(page.interactive_ms <= MAX_INTERACTIVE_MS)))
        found.append((f"{at}, in Chromium: a filter keystroke answered within {MAX_KEYSTROKE_MS:.0f} ms",
                      _keystroke(page).split(",")[0], _at_most(page.keystroke_worst_ms, MAX_KEYSTROKE_MS)))
        found.append((f"{at}, in Chromium: a sort answered within {MAX_SORT_MS:.0f} ms", _sort(page).split(",")[0],
                      NOT_MEASURED if not page.sort_buttons else _at_most(page.sort_worst_ms, MAX_SORT_MS)))
    path, size = largest.largest_html[PROJECT]
    found.append((f"{at}: no HTML file of the project's over {MAX_HTML_BYTES:,} bytes",
                  f"{size:,} bytes (`{one_line(path)}`)", _verdict(size <= MAX_HTML_BYTES)))
    return found


METHOD = """\
How it is measured:

- Each size's archive is made by `benchmarks/make_archive.py` (kept under `benchmarks/.work/`, made
  again only when the maker's source or arguments change) and read once, untimed, before its runs,
  so that it is in the page cache for the first run as for the others.
- The project is `invoke build --reports-dir … --manifest … --release-tag … --output-dir …`, everything
  included (report pages, copies, the atomic exchange); the reference is `python -m
  openmed.eval.leaderboard` with the same four arguments. Both start from a fresh process, from
  bytecode compiled before the runs (pip compiled the reference's when it installed it; the bench
  compiles the project's own files, which run from the checkout).
- **new folder**: each run writes into a folder that does not exist yet. **rebuild**: each run writes
  into the folder of the same renderer's previous run, the archive unchanged: the project renders
  into a staging folder beside it, links the files that did not change from the previous render,
  exchanges the two and removes the old one; the reference removes its old report copies and
  writes everything again.
- The renderers alternate (ABBA: forwards, then backwards); a time is the median of the runs, wall
  clock from start to exit. The disk is synced before each run and before the page is measured in
  Chromium. No run removes what another wrote: every new-folder run comes before every rebuild, and
  the benchmark starts at least six minutes after the last removal it knows of (SETTLE_SECONDS in
  `benchmarks/run.py` says why).
- Peak memory is that of the whole process tree: every 5 ms, the PSS (`Pss:` of
  `/proc/PID/smaps_rollup`) of the command and of every descendant (found through
  `/proc/PID/task/TID/children`) is summed, and the peak of the sum is kept. PSS counts a page
  shared by a parent and its forked workers once in the sum. The sampling takes CPU time, so it is
  done in one more run of each renderer in each situation, not in the timed ones.
- The floor (`benchmarks/floor.py`) is one plain Python process that reads and parses every report
  and writes its canonical copy and a small HTML page into a new folder; it runs in turn with the
  new-folder runs. A renderer's distance from it is its median wall time over the floor's.
- In Chromium (`/usr/bin/chromium` through Playwright), the project's `index.html` of the largest
  archive is served on 127.0.0.1 by the preview's server. Interactive is when the page's script is
  done (its `js` class on `<html>` seen by a mutation observer), from navigation start
  (`performance.now()`). A keystroke (a letter no row holds, then Backspace, in turn) and a sort
  (a column's header button clicked) count from the event's `timeStamp` to the end of the first
  frame painted after the page's last change."""


def stolen_seconds(stat: str | None = None) -> float | None:
    """The CPU time the host of this virtual machine has taken from it since boot (the steal column
    of /proc/stat's cpu line, or of ``stat``), in seconds; None where the system does not say."""
    try:
        if stat is None:
            with open("/proc/stat", encoding="ascii") as handle:
                stat = handle.readline()
        fields = stat.split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK") if fields[0] == "cpu" else None
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def report(results: Sequence[SizeResult], page, page_note: str, command_line: str, runs: int,
           load: tuple[float, float] = (0.0, 0.0), stolen: float | None = None, written_to: str = "unknown") -> str:
    """The figures as Markdown: the same text is printed and written to results.md. ``stolen`` is
    the share of the CPUs' time the host took during the runs: a renderer that uses every CPU loses
    more to it than one that uses a single CPU. ``written_to`` is the file system the runs wrote to."""
    sizes = ", ".join(f"{result.reports:,}" for result in results)
    lines = [
        f"{TITLE}, written to {written_to}", "",
        f"Command: `{command_line}` (sizes {sizes}; {_runs(runs, 'timed ')} of each "
        f"renderer per size and situation, one more sampled for memory).", "",
        f"Machine: {os.cpu_count()} CPUs, Python {platform.python_version()}, {platform.system()} {platform.machine()}; "
        f"1-minute load average {load[0]:.1f} before the runs, {load[1]:.1f} after"
        + (f"; the host took {stolen:.1%} of the CPUs' time during the runs (steal time)." if stolen is not None
           else "."), "",
        METHOD, "",
        "## Wall time and peak memory", "",
        *summary_table(results), "",
        "## Cost per added report", "",
        *(cost_table(results) if len(results) > 1 else ["One size only: no cost per added report."]), "",
        "## The floor", "",
        *floor_table(results), "",
        "## Largest HTML file", "",
        *html_table(results), "",
        "## What an edit costs", "",
        *edits_section(results), "",
        f"## In Chromium, the project's page of {results[-1].reports:,} reports", "",
        *(page_table(page) if page is not None else [page_note[0].upper() + page_note[1:] + "."]), "",
        "## Targets", "",
        "| target | figure | verdict |", "|---|---|---|",
        *(f"| {what} | {figure} | {verdict} |" for what, figure, verdict in targets(results, page, page_note)), "",
        "## Each run", "",
        *runs_table(results), "",
        "leaderboard.json of the project and of the reference: "
        + ("byte-identical at every size." if all(result.same_leaderboard_json for result in results)
           else "DIFFERENT at " + ", ".join(f"{r.reports:,}" for r in results if not r.same_leaderboard_json)
           + " reports: the two renderers did not publish the same leaderboard."),
    ]
    return "\n".join(lines) + "\n"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        """A usage mistake is one line and exit 2, like every other fault of the project's tools."""
        print(f"bench: {one_line(message)}", file=sys.stderr)
        sys.exit(2)


def lighthouse_section(sites: list[tuple[str, str]]) -> list[str]:
    """The results' Lighthouse section: each site's index, and every kind of page of the smallest,
    on the mobile and desktop presets (``benchmarks/browser.py``); a fault loses this section's
    figures, not the others."""
    from .browser import lighthouse_table, measure_lighthouse

    lines = ["## Lighthouse, the project's pages", "",
             "Lighthouse 12.2.3 with Debian's Chromium, the site served with gzip under `default-src 'self'`; "
             "mobile is its default (a slow 4G network and a 4x slower CPU, simulated), desktop its desktop preset.", ""]
    try:
        return lines + lighthouse_table(measure_lighthouse(sites))
    except Exception as error:  # a missing Node or npm
        first = (str(error).strip().splitlines() or [type(error).__name__])[0]
        return lines + [f"Not measured: {one_line(first)}."]


def cli(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.run [--sizes 10000,100000] [--runs 3] [--no-browser]``, which ``invoke
    bench`` runs: a fault is one line on stderr and exit status 2."""
    parser = _Parser(prog="invoke bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", help="comma-separated archive sizes, in reports (default: "
                        + ",".join(str(size) for size in DEFAULT_SIZES) + ")")
    parser.add_argument("--runs", help=f"timed runs of each renderer per size and situation (default: {DEFAULT_RUNS})")
    parser.add_argument("--no-browser", dest="browser", action="store_false", help="skip the figures in Chromium")
    parser.add_argument("--work", help="the folder the archives and the runs are written to (default: benchmarks/.work, "
                        "on the disk); a folder on tmpfs measures the renderers without the disk")
    options = parser.parse_args(argv)
    work = Path(options.work).absolute() if options.work else WORK
    try:
        main(None if options.sizes is None else parse_sizes(options.sizes),
             None if options.runs is None else parse_runs(options.runs), browser=options.browser,
             work=work, command_line=bench_command(options.sizes, options.runs, options.browser, options.work),
             lighthouse=lighthouse_section if options.browser else None, edits=edit_runs.bench_edits)
    except (BenchError, measure.Unmeasurable) as error:
        print(f"bench: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # the disk is full, the work folder unwritable
        where = f"{one_line(str(error.filename))}: " if error.filename else ""
        print(f"bench: {where}{one_line(error.strerror or str(error))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # a second Ctrl-C can stop the removal of the runs' folders too
        left = len(outputs_of(work))
        print("bench: interrupted; " + (f"{left} of the runs' folders are left, and the next bench removes them first"
                                        if left else "the runs' folders are removed") + "; the archives are kept",
              file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(cli())
