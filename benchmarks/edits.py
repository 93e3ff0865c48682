"""What an edit costs: rebuilds into the previous render after one change, and a save under the
live preview, for ``invoke bench`` (``run.py`` puts the figures beside the full builds').

Each size's archive is linked, file by file, into a folder of the benchmark's own (an edited file is
written anew and renamed over its link, so that the shared archive never changes), rendered once
into a new folder, and then rebuilt in place after each edit, in turn:

- nothing at all;
- one report's leakage halved (and restored on the next run): its row moves within its suite;
- one report's metadata given a note (and the note removed on the next run): nothing shown beyond
  that report's own page and copy changes;
- ``report.html`` overridden with one heading reworded (and back): every report page changes.

Each run is one build as ``invoke build`` runs it (``leaderboard_tools.runner.build``), with a
folder of template overrides (``THEME_TEMPLATES_OVERRIDES``) for the template edit; ``python -m
benchmarks.edits`` is that build. Then ``invoke livereload`` serves the same archive, and each of the
two report edits is saved in turn (made or undone, as above); the seconds are counted from the
rename of the saved file to the moment the edited report's page holds new bytes, and to the
preview's line that the render is whole."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from benchmark_leaderboard.paths import report_page_path

from . import measure
from .prepare import RELEASE_TAG, ROOT, BenchError

NOTHING = "nothing"
ROW_MOVES = "one report's leakage halved: its row moves within its suite"
OWN_PAGES = "one report's metadata noted: only its own page and copy change"
TEMPLATE = "report.html: one heading reworded"
EDITS = (NOTHING, ROW_MOVES, OWN_PAGES, TEMPLATE)

# The heading of report.html that the template edit rewords, and its words after the edit.
HEADING, REWORDED = "<h2>Evidence</h2>", "<h2>The evidence</h2>"
# How long the preview may take to start (its first build is a full one) and to answer a save.
PREVIEW_START_SECONDS = 1800.0
PREVIEW_SAVE_SECONDS = 600.0
# The edits the preview is given, each saved in turn.
SAVED = (ROW_MOVES, OWN_PAGES)
# What the runner's summary says it wrote: "N files written", or "(N written, M kept ...)" after a rebuild.
_WRITTEN = re.compile(r"([0-9][0-9,]*)(?: files?)? written")


@dataclass
class Edited:
    """One kind of edit's timed runs, and how many files each wrote."""
    runs: list[measure.Measured] = field(default_factory=list)
    written: list[int] = field(default_factory=list)

    def wall(self) -> float:
        return statistics.median(run.seconds for run in self.runs)

    def cpu(self) -> float:
        return statistics.median(run.cpu_seconds for run in self.runs)


@dataclass
class Saves:
    """One kind of edit's saves under the preview, in seconds from each save."""
    to_page: list[float] = field(default_factory=list)  # to the edited page's new bytes
    to_whole: list[float] = field(default_factory=list)  # to the preview's line that the render is whole


@dataclass
class EditPoint:
    """One size's edits: each kind's runs, a sampled rebuild's peak memory, and the preview's saves."""
    reports: int
    edits: dict[str, Edited] = field(default_factory=dict)
    memory: measure.Measured | None = None
    saves: dict[str, Saves] = field(default_factory=dict)  # by edit, the saves of SAVED
    preview_note: str = ""  # why the preview was not measured, if it was not


# --- the archive the edits change ----------------------------------------------------------------

class Archive:
    """The benchmark's own links to an archive's files, and the edits it makes to them."""

    def __init__(self, source: Path, folder: Path):
        self.folder = folder
        self.reports, self.manifest, self.overrides = folder / "reports", folder / "models.jsonl", folder / "templates"
        shutil.copytree(source / "reports", self.reports, copy_function=os.link)
        shutil.copyfile(source / "models.jsonl", self.manifest)
        self.overrides.mkdir()
        leaking = [path for path in sorted(self.reports.rglob("*.report.json"))
                   if json.loads(path.read_bytes())["metrics"]["leakage"]["overall"] > 0]
        if len(leaking) < 2:
            raise BenchError("the edits need an archive with at least two reports that leak")
        # A report from the middle of the archive moves; another one is noted.
        self.moved, self.noted = leaking[len(leaking) // 2], leaking[len(leaking) // 2 + 1]
        self.original = {path: path.read_bytes() for path in (self.moved, self.noted)}
        self.edited = {self.moved: False, self.noted: False, TEMPLATE: False}

    def page_of(self, path: Path) -> str:
        """Where the report at ``path`` has its page, below the output."""
        return report_page_path(path.relative_to(self.reports).as_posix())

    def toggle(self, edit: str) -> Path | None:
        """Make ``edit``, or undo it if it is made; the file it saved, if any."""
        if edit == NOTHING:
            return None
        if edit == TEMPLATE:
            target = self.overrides / "report.html"
            if self.edited[TEMPLATE]:
                target.unlink()
            else:
                source = (ROOT / "theme" / "templates" / "report.html").read_text(encoding="utf-8")
                if HEADING not in source:
                    raise BenchError(f"report.html has no {HEADING} for the template edit to reword")
                target.write_text(source.replace(HEADING, REWORDED, 1), encoding="utf-8")
            self.edited[TEMPLATE] = not self.edited[TEMPLATE]
            return target
        path = self.moved if edit == ROW_MOVES else self.noted
        if self.edited[path]:
            data = self.original[path]
        else:
            report = json.loads(self.original[path])
            if edit == ROW_MOVES:
                leakage = report["metrics"]["leakage"]
                leakage["overall"] = round(leakage["overall"] / 2, 4)
                leakage["leaked_chars"] = leakage["leaked_chars"] // 2
            else:
                report["metadata"]["note"] = "checked again by hand"
            data = json.dumps(report, sort_keys=True).encode() + b"\n"
        self.edited[path] = not self.edited[path]
        saved = path.with_name(path.name + ".saving")
        saved.write_bytes(data)
        os.replace(saved, path)  # as an editor saves: the link to the shared archive is replaced, not written through
        return path


# --- the rebuilds --------------------------------------------------------------------------------

def edit_command(archive: Archive, output: Path) -> list[str]:
    return [sys.executable, "-m", "benchmarks.edits", str(archive.reports), str(archive.manifest), str(output),
            str(archive.overrides)]


def written(run: measure.Measured) -> int:
    """How many files the run's summary says it wrote."""
    found = _WRITTEN.findall(run.stderr)
    if not found:
        raise BenchError("a rebuild's summary did not say how many files it wrote")
    return int(found[-1].replace(",", ""))


def _run(command: list[str], what: str, say: Callable[[str], None], memory: bool = False) -> measure.Measured:
    if hasattr(os, "sync"):
        os.sync()
    result = measure.run(command, cwd=str(ROOT), memory=memory)
    if result.returncode != 0:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        raise BenchError(f"{what} ended with status {result.returncode}" + (f": {lines[-1]}" if lines else ""))
    say(f"  {what}: " + (f"peak {result.peak_pss_bytes / 2**20:,.0f} MiB" if memory
                         else f"{result.seconds:.2f} s, {written(result):,} files written"))
    return result


def bench_edits(reports: int, source: Path, runs: int, folder: Path, say: Callable[[str], None],
                preview: bool = True) -> EditPoint:
    """Every edit ``runs`` times at this size (each run makes the edit or undoes it), one more sampled
    for memory, then the preview's saves; everything is written below ``folder``."""
    archive = Archive(source, folder / "archive")
    output = folder / "output"
    point = EditPoint(reports)
    _run(edit_command(archive, output), f"{reports:,} reports, edits: the first build", say)
    for edit in EDITS:
        point.edits[edit] = Edited()
        for number in range(1, runs + 1):
            archive.toggle(edit)
            result = _run(edit_command(archive, output), f"{reports:,} reports, edit {edit!r}, run {number}", say)
            point.edits[edit].runs.append(result)
            point.edits[edit].written.append(written(result))
        if edit == TEMPLATE and archive.edited[TEMPLATE]:
            archive.toggle(TEMPLATE)  # the preview renders the theme as it is
    archive.toggle(ROW_MOVES)
    point.memory = _run(edit_command(archive, output), f"{reports:,} reports, edit {ROW_MOVES!r}, sampled", say,
                        memory=True)
    if preview:
        try:
            saves(archive, folder / "preview", runs, point, say)
        except BenchError as error:
            point.preview_note = str(error)
    return point


# --- the preview ---------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def saves(archive: Archive, output: Path, runs: int, point: EditPoint, say: Callable[[str], None]) -> None:
    """``invoke livereload`` on the archive: ``runs`` saves of each edit of SAVED, in turn, each timed
    to the edited report's page's new bytes and to the line that says the render is whole."""
    invoke = str(Path(sys.executable).parent / "invoke")
    command = [invoke, "livereload", "--reports-dir", str(archive.reports), "--manifest", str(archive.manifest),
               "--release-tag", RELEASE_TAG, "--output-dir", str(output), "--port", str(_free_port())]
    process = subprocess.Popen(command, cwd=str(ROOT), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in process.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()

    def wait_for(start: str, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise BenchError(f"the preview did not say {start!r} within {seconds:.0f} s") from None
            if line is None:
                raise BenchError(f"the preview stopped before it said {start!r}")
            if line.startswith("the build failed") or line.startswith("the first build failed"):
                raise BenchError(f"the preview said: {line}")
            if line.startswith(start):
                return

    try:
        wait_for("watching", PREVIEW_START_SECONDS)
        for number in range(1, runs + 1):
            for edit in SAVED:
                page = output / archive.page_of(archive.moved if edit == ROW_MOVES else archive.noted)
                before = page.read_bytes()
                archive.toggle(edit)
                saved = time.monotonic()
                deadline = saved + PREVIEW_SAVE_SECONDS
                while _bytes(page) in (before, None):
                    if time.monotonic() > deadline:
                        raise BenchError("the edited page did not change within the preview's time")
                    time.sleep(0.002)
                done = point.saves.setdefault(edit, Saves())
                done.to_page.append(time.monotonic() - saved)
                wait_for("rebuilt", PREVIEW_SAVE_SECONDS)
                done.to_whole.append(time.monotonic() - saved)
                say(f"  {point.reports:,} reports, preview save {number} of {edit!r}: the page after "
                    f"{done.to_page[-1]:.2f} s, the whole render after {done.to_whole[-1]:.2f} s")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


# --- one build, as invoke build runs it, with the template overrides -----------------------------

def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks.edits REPORTS MANIFEST OUTPUT TEMPLATES``: one build as ``invoke build``
    runs it, with TEMPLATES as the theme's overrides; its summary on standard error."""
    from leaderboard_tools.runner import build, say

    reports, manifest, output, templates = (sys.argv[1:] if argv is None else argv)
    summary = build(str(ROOT / "pelicanconf.py"), output, reports_dir=reports, manifest=manifest,
                    release_tag=RELEASE_TAG, extra={"THEME_TEMPLATES_OVERRIDES": [templates]})
    say(str(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
