"""The CPU a build spends per report, phase by phase, measured (``invoke bench --profile``).

usage: python -m benchmarks.profile [--sizes 10000,100000] [--releases R] [--label NAME]

For each size, the benchmark's own synthetic archive (``benchmarks/make_archive.py``: a model a
report, or with ``--releases R`` the size's reports as R releases of a size / R models, so that each
model's page holds R reports) is built twice by a fresh Python process that runs the same build as ``invoke build`` (the atomic runner,
Pelican and the plugin, the default number of workers): into a new folder, then again into it (a
rebuild). In that process, timers wrap the functions each phase is made of (``TIMED``: each found
where it is defined and timed at every name the project's modules give it; one that is not there
any more, or that no build called, stops the profile with its name). A timer reads the
process's CPU clock (``time.process_time``: user and system time) when its function starts and
ends and keeps the time spent in it less the time of the timed functions it called, so that the
phases add up to what was timed. Each worker times the tasks it is given and its phases, and sends
them back with the task's result through the map; the build's process times what it does itself.
What no timer saw is named for where it was spent: the rest of a task, the workers' pool and the
pickling of their results (the workers' CPU as the kernel counts it, ``getrusage`` of the children
waited for, less their tasks'), the interpreter's start-up. The totals are the kernel's counts.

Escaping is the one share no timer can take without costing more than it measures (a call of a
few hundred nanoseconds, a hundred times a page): every eighth report page is rendered a second
time, untimed by the build, with the templates' ``escape`` replaced by ``str``, and the difference
of the two renders is the escaping's share of the template's time.

A page a model is a cost that grows with the models rather than the reports: the section says
what the model pages took of the whole tree's CPU (their tasks, their page objects and their
``content_written``) and by how much they grow the build of the same archive without them.

The figures are printed and written to ``benchmarks/results.md`` as the section
``## CPU per report by phase: NAME`` (``--label``, default ``current``), which replaces a section
of that name and keeps every other; ``invoke bench`` keeps these sections when it rewrites the file.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from .prepare import RELEASE_TAG, ROOT, WORK, BenchError, compile_project, file_system, make_archive, parse_sizes, warm
from .results import RESULTS, SECTION, write_section

DEFAULT_SIZES = (10_000, 100_000)
ESCAPE_SAMPLE = 8  # every this many report pages is rendered again without escaping

_clock = time.process_time
# Seconds spent in each timed phase, less the timed phases it called; a task's own record.
_phases: dict[str, float] = defaultdict(float)
_stack: list[list[float]] = []  # [started, seconds of the timed calls made meanwhile]
_records: list[dict[str, Any]] = []  # each task's record, gathered in the build's process
_escape: dict[str, float] = defaultdict(float)  # the sampled renders with and without escaping
_announced: dict[str, int] = defaultdict(int)  # the pages content_written was sent for: all, and model pages
_called: set[str] = set()  # the functions of ``TIMED`` called so far, each by where it is defined


class ProfileError(BenchError):
    """What the profile times is not where it looks any more (a function moved or renamed, a task of
    a new kind): its figures would silently go to no phase."""


def _enter() -> list[float]:
    frame = [_clock(), 0.0]
    _stack.append(frame)
    return frame


def _leave(frame: list[float], name: str) -> float:
    _stack.pop()
    elapsed = _clock() - frame[0]
    _phases[name] += elapsed - frame[1]
    if _stack:
        _stack[-1][1] += elapsed
    return elapsed


def timed(name: str, function: Callable, where: str = "") -> Callable:
    """``function``, its time (less that of the timed calls it makes) added to the phase ``name``;
    ``where`` (its place in ``TIMED``) noted as called."""
    def wrapper(*args, **kwargs):
        frame = _enter()
        try:
            return function(*args, **kwargs)
        finally:
            _leave(frame, name)
            _called.add(where)
    wrapper.__wrapped__ = function
    return wrapper


def timed_pieces(name: str, pieces: Iterable[Any]) -> Iterator[Any]:
    """``pieces``, the time of making each one added to the phase ``name``."""
    iterator = iter(pieces)
    while True:
        frame = _enter()
        try:
            piece = next(iterator)
        except StopIteration:
            _leave(frame, name)
            return
        except BaseException:
            _leave(frame, name)
            raise
        _leave(frame, name)
        yield piece


def timed_generator(name: str, function: Callable, where: str = "") -> Callable:
    """``function`` returning an iterator, the time of each step added to the phase ``name``."""
    def wrapper(*args, **kwargs):
        return timed_pieces(name, timed(name, function, where)(*args, **kwargs))
    wrapper.__wrapped__ = function
    return wrapper


# --- in the workers ------------------------------------------------------------------------------

def _kind(map_name: str, task: Any) -> str:
    """The kind of a task of a map, as the table's rows name it. A task of a kind this does not know
    stops the profile: its figures would go to no row."""
    if map_name == "read":
        return "read"
    kind = getattr(type(task), "kind", None)  # a kind of work of the plugin's work.py
    if isinstance(kind, str):
        return kind
    raise ProfileError(f"the profile does not know the write task {task!r} ({type(task).__name__}): "
                       "say its kind in benchmarks/profile.py (_kind)")


def _task(shared: tuple[str, Callable, Any], task: Any) -> tuple[Any, dict[str, Any]]:
    """One task of a map, timed: its result, and the record of its phases."""
    global _phases
    map_name, function, real_shared = shared
    kind = _kind(map_name, task)
    outer, _phases = _phases, defaultdict(float)
    escape_before = dict(_escape)
    called_before = set(_called)
    frame = _enter()
    try:
        result = function(real_shared, task)
    finally:
        seconds = _leave(frame, kind + ": rest")
        phases, _phases = _phases, outer
    untimed = phases.pop("untimed", 0.0)
    record = {"pid": os.getpid(), "map": map_name, "kind": kind, "seconds": seconds - untimed, "untimed": untimed,
              "phases": dict(phases), "escape": {key: _escape[key] - escape_before.get(key, 0.0) for key in _escape},
              "called": sorted(_called - called_before)}
    return result, record


def _timed_map(phase: str, run: Callable, where: str) -> Callable:
    """The workers' ``run``: each task timed (``_task``), and the map itself in the build's process.
    The map of the pipeline's check of the reports is the read map; any other, the write map."""
    read = find(READ_TASK)

    def timed_run(function, tasks, shared, workers, each=None):
        map_name = "read" if function is read else "write"
        frame = _enter()
        try:
            out = run(_task, tasks, (map_name, function, shared), workers,
                      None if each is None else lambda result: each(result[0]))
        finally:
            _leave(frame, f"build: {map_name} map (fork, results)")
            _called.add(where)
        _records.extend(record for _, record in out)
        return [result for result, _ in out]
    return timed_run


def _timed_write(phase: str, write: Callable, where: str) -> Callable:
    """The writer's ``_write``, and the encoding of the pieces it writes apart (``encode pieces``)."""
    return timed(phase, lambda folder, name, pieces, *more: write(folder, name, timed_pieces("encode pieces", pieces),
                                                                   *more), where)


def _timed_announce(phase: str, announce: Callable, where: str) -> Callable:
    """The writer's ``announce``, timed, and the pages it announces counted: all of them and the
    model pages, whose share of its time is theirs in proportion."""
    from benchmark_leaderboard.present.model_pages import ModelPage

    timed_announce = timed(phase, announce, where)

    def counted(self, pages, context):
        pages = list(pages)
        _announced["pages"] += len(pages)
        _announced["model pages"] += sum(isinstance(page, ModelPage) for page in pages)
        return timed_announce(self, pages, context)
    return counted


def _timed_templates(phase: str, get_template: Callable, where: str) -> Callable:
    """The generator's ``get_template``: each template it gives timed as ``render: <its name>``."""
    def profiled_template(self, name):
        _called.add(where)
        template = get_template(self, name)
        base = self.env.get_template("base.html").root_render_func.__globals__ if name == "report" else None
        return _timed_template(template, name, base)
    return profiled_template


def _timed_template(template: Any, name: str, base_globals: dict[str, Any] | None) -> Any:
    """``template``'s render function, timed as ``render: name``; a report page also sampled for escaping."""
    if getattr(template, "_profiled", False):
        return template
    render = template.root_render_func
    samples = [0]

    def timed_render(context):
        frame = _enter()
        try:
            pieces = list(render(context))
        finally:
            elapsed = _leave(frame, "render: " + name)
        if name == "report":
            _escape["pages"] += 1
            samples[0] += 1
            if samples[0] % ESCAPE_SAMPLE == 1:
                _sample_escaping(render, context, elapsed, base_globals)
        return (piece for piece in pieces)  # a generator, as the render function returns

    template.root_render_func = timed_render
    template._profiled = True
    return template


def _sample_escaping(render: Callable, context: Any, elapsed: float, base_globals: dict[str, Any] | None) -> None:
    """Render the page again with ``escape`` replaced by ``str``; its time goes to no phase."""
    spaces = [render.__globals__] + ([base_globals] if base_globals is not None else [])
    saved = [space["escape"] for space in spaces]
    frame = _enter()
    try:
        for space in spaces:
            space["escape"] = str
        started = _clock()
        list(render(context))
        without = _clock() - started
    finally:
        for space, escape in zip(spaces, saved):
            space["escape"] = escape
        _leave(frame, "untimed")
    _escape["sampled"] += 1
    _escape["with"] += elapsed
    _escape["without"] += without


# --- what is timed --------------------------------------------------------------------------------

# Every function a phase is made of: (the phase, where the function is defined, how it is timed).
# ``install`` finds each where it is defined and times it at every name it has, so that a function
# imported into another module is timed where that module calls it too. One that is not where this
# says any more (``find``), or that no build called (``not_called``), stops the profile, named.
TIMED: tuple[tuple[str, str, Callable[[str, Callable, str], Callable]], ...] = (
    ("build: read map, write map (fork, results)", "benchmark_leaderboard.workers:run", _timed_map),
    ("build: runner (staging, file count, exchange, removal)", "leaderboard_tools.runner:build", timed),
    ("build: Pelican (settings, other generators, theme)", "leaderboard_tools.pelican_run:render_into", timed),
    ("build: generate_context, rest", "benchmark_leaderboard.generator:LeaderboardGenerator.generate_context", timed),
    ("build: generate_output, rest (schemas, marker, stale files)",
     "benchmark_leaderboard.generator:LeaderboardGenerator.generate_output", timed),
    ("render: each template", "benchmark_leaderboard.generator:LeaderboardGenerator.get_template", _timed_templates),
    ("build: rank, group, document check", "benchmark_leaderboard.decide.pipeline:read_leaderboard", timed),
    ("build: board view, charts", "benchmark_leaderboard.present.board_view:board_view", timed),
    ("build: history", "benchmark_leaderboard.decide.history:archive_history", timed),
    ("build: model index, model page objects", "benchmark_leaderboard.present.model_pages:model_index", timed),
    ("build: model index, model page objects", "benchmark_leaderboard.present.model_pages:model_pages", timed),
    ("build: changes", "benchmark_leaderboard.decide.previous:compared_with_previous", timed),
    ("build: changes", "benchmark_leaderboard.present.changes_page:changes_of", timed),
    ("build: announce (content_written)", "benchmark_leaderboard.write.writer:SiteWriter.announce", _timed_announce),
    # The read phase, in the workers.
    ("read: file read (kernel)", "benchmark_leaderboard.read.archive:read_bytes", timed),
    ("read: JSON parse", "benchmark_leaderboard.read.archive:parse", timed),
    ("read: schema check", "benchmark_leaderboard.read.validate:problems_of", timed),
    ("read: rows' schema check", "benchmark_leaderboard.read.validate:rows_valid", timed),
    ("read: canonical encode", "benchmark_leaderboard.read.canonical:report_copy", timed),
    ("read: fill", "benchmark_leaderboard.decide.fill:fill_row", timed),
    # Writing, in the workers.
    ("copy parsed again", "benchmark_leaderboard.decide.pipeline:report_of", timed),
    ("page details (leaves, percentages)", "benchmark_leaderboard.present.report_details:report_details", timed),
    ("model page details", "benchmark_leaderboard.present.model_pages:model_details", timed),
    ("leaderboard.json", "benchmark_leaderboard.decide.document:leaderboard_json", timed_generator),
    ("data file", "benchmark_leaderboard.present.publish:data_script", timed),
    ("CSVs", "benchmark_leaderboard.present.downloads:csv_lines", timed),
    ("CSVs", "benchmark_leaderboard.present.downloads:csv_pieces", timed_generator),
    ("compare: metric leaves", "benchmark_leaderboard.present.leaves:metric_leaves", timed),
    ("compare: script", "benchmark_leaderboard.present.publish:metrics_script", timed),
    ("build: badge rows", "benchmark_leaderboard.present.badge:badge_rows", timed),
    ("badge: layout (texts, widths, escaping)", "benchmark_leaderboard.write.rendering:_badge", timed),
    ("badge: SVG template", "benchmark_leaderboard.write.rendering:_badge_svg", timed),
    ("writer: paths, links, folders (Python and kernel)", "benchmark_leaderboard.write.writer:SiteWriter.write", timed),
    ("writer: paths, links, folders (Python and kernel)", "benchmark_leaderboard.write.writer:SiteWriter.write_pieces", timed),
    ("writer: whether the previous render's file is kept (kernel)",
     "benchmark_leaderboard.write.writer:SiteWriter.unchanged", timed),
    ("writer: open, write, close (kernel)", "benchmark_leaderboard.write.writer:_write", _timed_write),
)
# The function the read map runs on each chunk of reports (what tells the read map from the write map).
READ_TASK = "benchmark_leaderboard.decide.pipeline:_check"
# Called only where the output holds an earlier render.
REBUILD_ONLY = frozenset({"benchmark_leaderboard.write.writer:SiteWriter.unchanged"})
# The packages whose modules' names of a timed function are replaced by its timer.
PACKAGES = ("benchmark_leaderboard", "leaderboard_tools")


def find(where: str) -> Any:
    """The function ``where`` names (``module:name``, or ``module:Class.name`` for a method); one that
    is not there any more is a ``ProfileError`` naming it."""
    module_name, _, path = where.partition(":")
    try:
        found: Any = importlib.import_module(module_name)
    except ModuleNotFoundError:
        found = None
    for part in path.split("."):
        found = getattr(found, part, None)
    if not callable(found):
        raise ProfileError(f"the profile times {where}, which is not there any more (moved or renamed?): "
                           "name where it is now in benchmarks/profile.py (TIMED)")
    return found


def install() -> None:
    """Time every phase, in this process (the workers it forks inherit the timers): each function of
    ``TIMED``, found where it is defined, is replaced by its timer at every name it has in the
    project's modules; a method, in its class."""
    functions = [find(where) for _, where, _ in TIMED]
    modules = [module for name, module in list(sys.modules.items()) if name.split(".")[0] in PACKAGES]
    for (phase, where, how), function in zip(TIMED, functions):
        wrapper = how(phase, function, where)
        module_name, _, path = where.partition(":")
        owner, _, name = path.rpartition(".")
        if owner:
            setattr(find(f"{module_name}:{owner}"), name, wrapper)
            continue
        for module in modules:
            for key, value in list(vars(module).items()):
                if value is function:
                    setattr(module, key, wrapper)


def not_called(results: dict[tuple[int, str], dict[str, Any]]) -> list[str]:
    """The functions of ``TIMED`` that none of these builds called (those of ``REBUILD_ONLY`` only
    missed when one of them was a rebuild): a phase that is no longer where the profile looks."""
    called = {where for result in results.values() for where in result["called"]}
    rebuilt = any(situation == "rebuild" for _, situation in results)
    return [where for _, where, _ in TIMED if where not in called and (rebuilt or where not in REBUILD_ONLY)]


# --- one build, in a process of its own -----------------------------------------------------------

def one_build(archive: Path, output: Path) -> dict[str, Any]:
    """Build ``archive`` into ``output`` as ``invoke build`` does, timed; returns the figures."""
    install()
    from leaderboard_tools import runner
    from leaderboard_tools.faults import BuildError

    started = resource.getrusage(resource.RUSAGE_SELF)
    startup = started.ru_utime + started.ru_stime

    settings = str(ROOT / "pelicanconf.py")
    try:
        summary = runner.build(settings, str(output), reports_dir=str(archive / "reports"),
                               manifest=str(archive / "models.jsonl"), release_tag=RELEASE_TAG,
                               progress=lambda line: None)
    except BuildError as error:
        raise BenchError(error.line()) from None
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    phases = dict(_phases)
    phases["build: start-up (interpreter, imports)"] = startup
    # The escaping samples are no part of the build: their time is taken out of the kernel's count.
    untimed = {"own": phases.pop("untimed", 0.0), "children": 0.0}
    for record in _records:
        untimed["own" if record["pid"] == os.getpid() else "children"] += record["untimed"]
    escape: dict[str, float] = defaultdict(float)
    for record in _records:
        for key, value in record["escape"].items():
            escape[key] += value
    called = sorted((_called | {where for record in _records for where in record["called"]}) - {""})
    return {"rows": summary.rows, "files": summary.files, "own": own.ru_utime + own.ru_stime - untimed["own"],
            "children": children.ru_utime + children.ru_stime - untimed["children"], "phases": phases,
            "records": _records, "escape": escape, "pid": os.getpid(), "called": called, "announced": dict(_announced)}


def measured_build(archive: Path, output: Path) -> dict[str, Any]:
    """``one_build`` in a fresh Python process (as a build starts); its tree's CPU as the kernel counts it."""
    command = [sys.executable, "-m", "benchmarks.profile", "--one", str(archive), str(output)]
    if hasattr(os, "sync"):
        os.sync()
    process = subprocess.Popen(command, cwd=str(ROOT), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate()
    if process.returncode:
        lines = [line for line in err.decode("utf-8", "replace").splitlines() if line.strip()]
        raise BenchError(f"the profiled build of {archive.name} ended with status {process.returncode}"
                         + (f": {lines[-1]}" if lines else ""))
    return json.loads(out)


# --- the table -----------------------------------------------------------------------------------

# The rows of the table, in order: (label, the phases it sums). A phase of the kind of task
# (read, reports, index, ...) is named "kind: phase".
ROWS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("read: file read (kernel)", ("read|read: file read (kernel)",)),
    ("read: JSON parse", ("read|read: JSON parse",)),
    ("read: schema check", ("read|read: schema check", "read|read: rows' schema check")),
    ("read: fill", ("read|read: fill",)),
    ("read: canonical encode", ("read|read: canonical encode",)),
    ("read: the rest of the loop", ("read|read: rest",)),
    ("report: canonical copy parsed again", ("reports|copy parsed again",)),
    ("report: page details (leaves, percentages, table rows)", ("reports|page details (leaves, percentages)",)),
    ("report: template render (its head, header and footer included), escaping excluded", ("reports|render: report",)),
    ("report: escaping (sampled, see above)", ()),
    ("report: writer (paths, links, folders)", ("reports|writer: paths, links, folders (Python and kernel)",)),
    ("report: files' kernel work (open, write, close)", ("reports|writer: open, write, close (kernel)",)),
    ("report: whether the previous render's file is kept", ("reports|writer: whether the previous render's file is kept (kernel)",)),
    ("report: the rest (encode, digest, loop)", ("reports|reports: rest", "reports|encode pieces")),
    ("badge: layout (texts, widths, escaping)", ("reports|badge: layout (texts, widths, escaping)",)),
    ("badge: SVG template", ("reports|badge: SVG template",)),
    ("table rows: index render", ("index|render: leaderboard",)),
    ("table rows: family pages", ("pages|render: family_page",)),
    ("table rows: index and family pages, writing and rest",
     ("index|*", "pages|*")),
    ("leaderboard.json", ("whole|leaderboard.json",)),
    ("CSVs", ("whole|CSVs",)),
    ("data file", ("whole|data file",)),
    ("compare page", ("whole|render: compare",)),
    ("leaderboard.json, CSVs, data file: writing and rest", ("whole|*",)),
    ("compare data", ("compare|*",)),
    ("model pages: details (rows, devices, history, badges)", ("models|model page details",)),
    ("model pages: template render", ("models|render: model",)),
    ("model pages: writing and rest (files, badges' layout, loop)", ("models|*",)),
    ("workers: pool, pickling results, exit (kernel's count less the tasks')", ("workers-overhead",)),
    ("build: start-up (interpreter, imports)", ("own|build: start-up (interpreter, imports)",)),
    ("build: read map (fork, results)", ("own|build: read map (fork, results)",)),
    ("build: rank, group, document check", ("own|build: rank, group, document check",)),
    ("build: board view, charts, history, badge rows", ("own|build: board view, charts", "own|build: history",
                                                        "own|build: changes", "own|build: badge rows")),
    ("build: model index, model page objects", ("own|build: model index, model page objects",)),
    ("build: write map (fork, results)", ("own|build: write map (fork, results)",)),
    ("build: announce (content_written)", ("own|build: announce (content_written)",)),
    ("build: generate_context and generate_output, rest", ("own|build: generate_context, rest",
                                                           "own|build: generate_output, rest (schemas, marker, stale files)")),
    ("build: Pelican (settings, other generators, theme)", ("own|build: Pelican (settings, other generators, theme)",)),
    ("build: runner (staging, file count, exchange, removal)", ("own|build: runner (staging, file count, exchange, removal)",)),
    ("build: untimed", ("own-untimed",)),
)


def phase_seconds(result: dict[str, Any]) -> dict[str, float]:
    """Every phase of one build, keyed "kind|phase" (``own|...`` for the build's process)."""
    found: dict[str, float] = defaultdict(float)
    worker_tasks = 0.0
    for record in result["records"]:
        for name, seconds in record["phases"].items():
            found[f"{record['kind']}|{name}"] += seconds
        if record["pid"] != result["pid"]:
            worker_tasks += record["seconds"]
    for name, seconds in result["phases"].items():
        found[f"own|{name}"] += seconds
    found["workers-overhead"] = result["children"] - worker_tasks
    in_own = sum(seconds for name, seconds in result["phases"].items())
    in_own += sum(record["seconds"] for record in result["records"] if record["pid"] == result["pid"])
    found["own-untimed"] = result["own"] - in_own
    return found


def rows_of(result: dict[str, Any]) -> dict[str, float]:
    """The table's rows of one build, in seconds."""
    found = phase_seconds(result)
    used: set[str] = set()
    rows: dict[str, float] = {}
    for label, keys in ROWS:
        total = 0.0
        for key in keys:
            if key.endswith("|*"):
                prefix = key[:-1]
                for name in found:
                    if name.startswith(prefix) and name not in used:
                        total += found[name]
                        used.add(name)
            elif key in found:
                total += found[key]
                used.add(key)
        rows[label] = total
    escape = result["escape"]
    if escape.get("sampled"):
        share = max(0.0, escape["with"] - escape["without"]) / escape["with"] if escape["with"] else 0.0
        rendered = rows["report: template render (its head, header and footer included), escaping excluded"]
        rows["report: escaping (sampled, see above)"] = rendered * share
        rows["report: template render (its head, header and footer included), escaping excluded"] = rendered * (1 - share)
    rows["other"] = sum(seconds for name, seconds in found.items() if name not in used)
    return rows


def model_page_share(result: dict[str, Any]) -> tuple[int, float]:
    """The model pages of one build and their CPU in seconds: their tasks (details, render, writing,
    the tasks' rest), their index and page objects, and their share of content_written (in
    proportion to the pages announced)."""
    found = phase_seconds(result)
    seconds = sum(value for name, value in found.items() if name.startswith("models|"))
    seconds += found.get("own|build: model index, model page objects", 0.0)
    announced = result.get("announced") or {}
    if announced.get("pages"):
        seconds += found.get("own|build: announce (content_written)", 0.0) * announced["model pages"] / announced["pages"]
    return int(announced.get("model pages", 0)), seconds


def worker_shares(result: dict[str, Any]) -> str:
    """Each worker's CPU in its tasks, by map, and its share of that map's."""
    parts = []
    for map_name in ("read", "write"):
        by_pid: dict[int, float] = defaultdict(float)
        for record in result["records"]:
            if record["map"] == map_name:
                by_pid[record["pid"]] += record["seconds"]
        total = sum(by_pid.values())
        shares = ", ".join(f"{seconds:.2f} s ({seconds / total:.0%})" for _, seconds in sorted(by_pid.items())) if total else "-"
        where = "the build's process" if list(by_pid) == [result["pid"]] else f"{len(by_pid)} workers"
        parts.append(f"{map_name} map, {where}: {shares}")
    return "; ".join(parts)


def table(results: dict[tuple[int, str], dict[str, Any]]) -> list[str]:
    columns = sorted(results)
    head = "| phase | " + " | ".join(f"{reports:,}, {situation} (µs a report)" for reports, situation in columns) + " |"
    lines = [head, "|---|" + "---:|" * len(columns)]
    tables = {key: rows_of(result) for key, result in results.items()}
    for label in [label for label, _ in ROWS] + ["other"]:
        values = [tables[key][label] / results[key]["rows"] * 1e6 for key in columns]
        if label == "other" and all(abs(value) < 0.05 for value in values):
            continue
        lines.append(f"| {label} | " + " | ".join(f"{value:,.1f}" for value in values) + " |")

    def total_line(label: str, seconds: Callable[[dict[str, Any]], float]) -> str:
        return (f"| **{label}** | " + " | ".join(f"**{seconds(results[key]) / results[key]['rows'] * 1e6:,.1f}**"
                                                  for key in columns) + " |")

    lines.append(total_line("workers (the kernel's count)", lambda r: r["children"]))
    lines.append(total_line("the build's process (the kernel's count)", lambda r: r["own"]))
    lines.append(total_line("whole tree (the kernel's count)", lambda r: r["own"] + r["children"]))
    return lines


def section(label: str, results: dict[tuple[int, str], dict[str, Any]], command: str) -> str:
    lines = [SECTION + label, "",
             f"Command: `{command}` (one profiled build of each size into a new folder, then one rebuild into it; "
             f"{os.cpu_count()} CPUs, Python {platform.python_version()}, 1-minute load average "
             f"{os.getloadavg()[0]:.1f} at the end). CPU time (user + system), in microseconds a report; "
             "`benchmarks/profile.py` says how each phase is timed.", "",
             *table(results), ""]
    for (reports, situation), result in sorted(results.items()):
        lines.append(f"- {reports:,}, {situation}: whole tree {result['own'] + result['children']:.2f} s of CPU "
                     f"(the build's process {result['own']:.2f} s, workers {result['children']:.2f} s); "
                     f"{worker_shares(result)}; escaping sampled on {int(result['escape'].get('sampled', 0))} "
                     f"of {int(result['escape'].get('pages', 0))} pages.")
    for (reports, situation), result in sorted(results.items()):
        pages, seconds = model_page_share(result)
        whole = result["own"] + result["children"]
        lines.append(f"- Model pages, {reports:,} reports, {situation}: {pages:,} pages, {seconds:.2f} s of CPU "
                     f"({seconds / pages * 1e6 if pages else 0:,.0f} µs a page), {seconds / whole:.1%} of the whole "
                     f"tree's: they grow the build without them by {seconds / (whole - seconds):.1%}.")
    return "\n".join(lines) + "\n"


def main(sizes: Sequence[int], label: str, command: str, results_file: Path | None = RESULTS,
         work: Path = WORK, say: Callable[[str], None] = print, releases: int = 1) -> str:
    for _, where, _ in TIMED:
        find(where)  # before any work: what is timed is where the profile looks for it
    work.mkdir(parents=True, exist_ok=True)
    compile_project()  # as the benchmark does: every build starts from the project's bytecode
    results: dict[tuple[int, str], dict[str, Any]] = {}
    outputs = [work / f"profile-{reports}" for reports in sorted(set(sizes))]
    for output in outputs:
        if os.path.lexists(output):
            shutil.rmtree(output)
    # The outputs are removed once every build is done: a file created soon after many were
    # removed costs the kernel more (benchmarks/run.py, SETTLE_SECONDS, says why).
    try:
        for reports, output in zip(sorted(set(sizes)), outputs):
            archive = make_archive(reports, work, say, releases)
            warm(archive)
            for situation in ("new folder", "rebuild"):
                say(f"{reports:,} reports, {situation}: a profiled build")
                results[(reports, situation)] = measured_build(archive, output)
    finally:
        for output in outputs:
            shutil.rmtree(output, ignore_errors=True)
    missed = not_called(results)
    if missed:
        raise ProfileError(f"no profiled build called {', '.join(missed)}: the build no longer runs that phase "
                           "there; name where it runs now in benchmarks/profile.py (TIMED)")
    text = section(label, results, command)
    say("")
    say(text)
    if results_file is not None:
        write_section(results_file, text)
    return text


def cli(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="invoke bench --profile", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", help="comma-separated archive sizes, in reports (default: "
                        + ",".join(str(size) for size in DEFAULT_SIZES) + ")")
    parser.add_argument("--releases", type=int, default=1, help="each size's reports as this many releases of "
                        "the same models, a model page of as many reports (default: 1, a model a report)")
    parser.add_argument("--label", default="current", help="the section's name in results.md (default: current)")
    parser.add_argument("--work", help="the folder the archives and the builds are written to (default: "
                        "benchmarks/.work, on the disk)")
    parser.add_argument("--one", nargs=2, metavar=("ARCHIVE", "OUTPUT"), help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    try:
        if options.one:
            sys.stdout.write(json.dumps(one_build(Path(options.one[0]), Path(options.one[1]))))
            return 0
        sizes = DEFAULT_SIZES if options.sizes is None else parse_sizes(options.sizes)
        flags = (f" --sizes {options.sizes}" if options.sizes else "") + (
            f" --releases {options.releases}" if options.releases != 1 else "") + (
            f" --label {options.label}" if options.label != "current" else "") + (
            f" --work <a folder on {file_system(Path(options.work))}>" if options.work else "")
        main(sizes, options.label, "invoke bench --profile" + flags,
             work=Path(options.work).absolute() if options.work else WORK, releases=options.releases)
    except BenchError as error:
        print(f"bench: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(cli())
