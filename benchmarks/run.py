"""The leaderboard benchmark: this project against the reference renderer, side by side.

For each size it makes a synthetic archive with ``benchmarks/make_archive.py``, renders it with
``invoke build`` and with the reference's command line, alternating (ABBA) so that a busy machine
slows both alike, and reports median wall time, peak memory of the process tree and the ratios;
then index.html sizes and, at the largest size, what Chromium measures on our page."""

from __future__ import annotations

import gzip
import os
import platform
import shutil
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import measure
from .make_archive import make_archive as write_archive

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "benchmarks" / ".work"
RESULTS = ROOT / "benchmarks" / "results.md"
RELEASE_TAG = "v0.0.0-bench"
RENDERERS = ("project", "reference")
# The targets of issue 5.
MAX_WALL_RATIO = 0.5
MAX_RSS_RATIO = 1.0
MAX_KEYSTROKE_MS = 50.0
# "Flat" cost per report: the extra cost of each report beyond the smallest size may exceed the
# smallest size's average cost per report (fixed start-up costs included) by this much at most.
FLAT_SLACK = 1.1


@dataclass
class SizeResult:
    reports: int
    runs: dict[str, list[measure.Measured]] = field(default_factory=dict)  # timed, not sampled
    memory: dict[str, measure.Measured] = field(default_factory=dict)  # one sampled run each
    index_raw: dict[str, int] = field(default_factory=dict)
    index_gzip: dict[str, int] = field(default_factory=dict)
    same_leaderboard_json: bool = False

    def wall(self, renderer: str) -> float:
        return statistics.median(run.seconds for run in self.runs[renderer])

    def cpu(self, renderer: str) -> float:
        return statistics.median(run.cpu_seconds for run in self.runs[renderer])

    def rss(self, renderer: str) -> int:
        return max([self.memory[renderer].peak_rss_bytes] + [run.peak_rss_bytes for run in self.runs[renderer]])


def make_archive(reports: int, work: Path) -> Path:
    """The synthetic archive of ``reports`` reports (made once: make_archive's output is deterministic)."""
    folder = work / f"archive-{reports}"
    done, mark = folder / ".complete", "made by benchmarks/make_archive.py\n"
    # An archive another maker left (its mark differs) is made again.
    if not done.exists() or done.read_text(encoding="utf-8") != mark:
        shutil.rmtree(folder, ignore_errors=True)
        write_archive(folder, reports)
        done.write_text(mark, encoding="utf-8")
    return folder


def command(renderer: str, archive: Path, output: Path) -> list[str]:
    reports, manifest = str(archive / "reports"), str(archive / "models.jsonl")
    if renderer == "project":
        invoke = str(Path(sys.executable).parent / "invoke")
        return [invoke, "build", "--reports-dir", reports, "--manifest", manifest, "--release-tag", RELEASE_TAG,
                "--output-dir", str(output)]
    return [sys.executable, "-m", "openmed.eval.leaderboard", "--reports-dir", reports, "--output-dir", str(output),
            "--manifest", manifest, "--release-tag", RELEASE_TAG]


def render_once(renderer: str, archive: Path, output: Path, memory: bool = False) -> measure.Measured:
    """One render into ``output``, a folder that does not exist yet: timed, or its memory sampled."""
    # The archive is read from the page cache and the previous runs' files are on the disk, so that
    # each run starts from the same state.
    if hasattr(os, "sync"):
        os.sync()
    result = measure.run(command(renderer, archive, output), cwd=str(ROOT), memory=memory)
    if result.returncode != 0:
        raise RuntimeError(f"the {renderer} render of {archive.name} failed ({result.returncode}):\n{result.stderr}")
    return result


# Why no run removes what an earlier run wrote: on ext4 without a journal (this machine's disk), a
# file created within a minute of another file's removal skips the freed inode, and within six if
# that inode's table block has been written to since, which creating files does: finding a free
# inode then scans every such inode of its group. 20,000 files removed just before a render made
# creating a file cost either renderer 200 to 600 µs instead of about 30. So each run writes a
# folder of its own, all of them are removed once the benchmark is over, and a benchmark started
# less than six minutes after that removal waits for the rest of them. Files removed by anything
# else (a test run) slow the benchmark down the same way, and it cannot know of them.
SETTLE_SECONDS = 365.0
REMOVED_AT = "removed-at"


def outputs_of(work: Path) -> list[Path]:
    return sorted(work.glob("site-*"))


def remove_outputs(work: Path) -> None:
    """Remove every run's output and note when, for the next benchmark."""
    outputs = outputs_of(work)
    if not outputs:
        return
    for folder in outputs:
        shutil.rmtree(folder, ignore_errors=True)
    if hasattr(os, "sync"):
        os.sync()
    (work / REMOVED_AT).write_text(f"{time.time()}\n", encoding="utf-8")


def settle(work: Path, say: Callable[[str], None], sleep: Callable[[float], None] = time.sleep) -> None:
    """Remove what an interrupted benchmark left, then wait until the last removal is six minutes old."""
    remove_outputs(work)
    try:
        removed = float((work / REMOVED_AT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    wait = removed + SETTLE_SECONDS - time.time()
    if wait > 0:
        say(f"waiting {wait:.0f} s: the files the last benchmark removed still slow down creating new ones")
        sleep(wait)


def warm(archive: Path) -> None:
    """Read every file of the archive once, untimed: whichever renderer runs first would otherwise
    pay for reading from the disk what the system dropped from its cache while idle."""
    for folder, _, names in os.walk(archive):
        for name in names:
            with open(os.path.join(folder, name), "rb") as handle:
                handle.read()


def bench_size(reports: int, runs: int, work: Path, say: Callable[[str], None]) -> SizeResult:
    archive = make_archive(reports, work)
    warm(archive)
    result = SizeResult(reports, {name: [] for name in RENDERERS}, {})
    outputs = {name: site(work, name, reports) for name in RENDERERS}
    for round_number in range(runs):
        order = RENDERERS if round_number % 2 == 0 else RENDERERS[::-1]
        for renderer in order:
            run = render_once(renderer, archive, site(work, renderer, reports, round_number + 1))
            result.runs[renderer].append(run)
            say(f"  {reports} reports, {renderer}: {run.seconds:.2f} s wall, {run.cpu_seconds:.2f} s CPU")
    for renderer in RENDERERS:
        run = render_once(renderer, archive, site(work, renderer, reports, 0), memory=True)
        result.memory[renderer] = run
        say(f"  {reports} reports, {renderer}, memory sampled: {run.peak_rss_bytes / 2**20:.0f} MB")
    for renderer in RENDERERS:
        index = (outputs[renderer] / "index.html").read_bytes()
        result.index_raw[renderer] = len(index)
        result.index_gzip[renderer] = len(gzip.compress(index, compresslevel=9, mtime=0))
    result.same_leaderboard_json = (
        (outputs["project"] / "leaderboard.json").read_bytes() == (outputs["reference"] / "leaderboard.json").read_bytes()
    )
    return result


def site(work: Path, renderer: str, reports: int, run: int = 1) -> Path:
    """Where one run of ``renderer`` writes the site of the ``reports``-report archive."""
    return work / f"site-{renderer}-{reports}-run{run}"


def _mb(size: int) -> str:
    return f"{size / 2**20:.0f}"


def _verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def report(results: list[SizeResult], page, command_line: str, runs: int, load: tuple[float, float] = (0.0, 0.0)) -> str:
    """The figures as Markdown: the same text is printed and written to results.md."""
    lines = [
        "# Benchmark results",
        "",
        f"Command: `{command_line}`",
        "",
        f"Machine: {os.cpu_count()} CPUs, Python {platform.python_version()}, {platform.system()} {platform.machine()}; "
        f"1-minute load average {load[0]:.1f} before the runs, {load[1]:.1f} after.",
        f"Each renderer ran {runs} times per size, alternating (ABBA); times are medians. Peak memory is the",
        "resident memory of the command's process plus what its forked children hold privately, sampled",
        "every 5 ms in one more run of each (and never below the largest single process's peak): sampling",
        "takes CPU time, so the timed runs are not sampled. The archive is read once before the runs, so",
        "that it is in the page cache for the first as for the others. Each run writes a new folder and",
        "the disk is synced before it; no run removes files, and the benchmark starts at least six minutes",
        "after the previous one removed its folders (SETTLE_SECONDS in benchmarks/run.py says why).",
        "",
        "## End to end (`invoke build` against the reference's command line)",
        "",
        "| reports | renderer | median wall (s) | each run (s) | CPU user+sys (s) | peak RSS (MB) | ms per report | wall ratio | RSS ratio |",
        "|---:|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for size in results:
        for renderer in RENDERERS:
            each = ", ".join(f"{run.seconds:.2f}" for run in size.runs[renderer])
            wall, rss = size.wall(renderer), size.rss(renderer)
            ratios = ("", "")
            if renderer == "project":
                ratios = (f"{wall / size.wall('reference'):.2f}x", f"{rss / size.rss('reference'):.2f}x")
            lines.append(f"| {size.reports} | {renderer} | {wall:.2f} | {each} | {size.cpu(renderer):.2f} | {_mb(rss)} | "
                         f"{wall / size.reports * 1000:.3f} | {ratios[0]} | {ratios[1]} |")
    lines += ["", "## Cost per report", "", "| from | to | project: ms per added report | reference: ms per added report |",
              "|---:|---:|---:|---:|"]
    for smaller, larger in zip(results, results[1:]):
        added = larger.reports - smaller.reports
        lines.append(f"| {smaller.reports} | {larger.reports} | "
                     f"{(larger.wall('project') - smaller.wall('project')) / added * 1000:.3f} | "
                     f"{(larger.wall('reference') - smaller.wall('reference')) / added * 1000:.3f} |")
    lines += ["", "## index.html", "", "| reports | renderer | raw bytes | gzip -9 bytes |", "|---:|---|---:|---:|"]
    for size in results:
        for renderer in RENDERERS:
            lines.append(f"| {size.reports} | {renderer} | {size.index_raw[renderer]} | {size.index_gzip[renderer]} |")
    if page is not None:
        largest = results[-1].reports
        keystroke = ("no #filter shown on the page" if page.keystroke_status_ms is None else
                     f"{page.keystroke_status_ms:.1f} ms median, {page.keystroke_status_max_ms:.1f} ms worst "
                     f"over {page.keystrokes} keystrokes; next frame {page.keystroke_frame_ms:.1f} ms")
        lines += [
            "", f"## In Chromium, {largest} rows (our index.html, served on 127.0.0.1)", "",
            "| figure | value |", "|---|---|",
            f"| interactive (tabs shown, handlers attached) | {page.interactive_ms:.0f} ms |",
            f"| DOMContentLoaded | {page.dom_content_loaded_ms:.0f} ms |",
            f"| load | {page.load_ms:.0f} ms |",
            f"| filter keystroke until #filter-status changes | {keystroke} |",
        ]
    lines += ["", "## Targets", "", "| target | figure | verdict |", "|---|---|---|"]
    for size in results:
        ratio = size.wall("project") / size.wall("reference")
        lines.append(f"| {size.reports}: wall at most {MAX_WALL_RATIO}x the reference | {ratio:.2f}x | {_verdict(ratio <= MAX_WALL_RATIO)} |")
        ratio = size.rss("project") / size.rss("reference")
        lines.append(f"| {size.reports}: peak memory at most the reference's | {ratio:.2f}x | {_verdict(ratio <= MAX_RSS_RATIO)} |")
    smallest = results[0]
    for larger in results[1:]:
        average = smallest.wall("project") / smallest.reports
        marginal = (larger.wall("project") - smallest.wall("project")) / (larger.reports - smallest.reports)
        lines.append(f"| cost per report flat, {smallest.reports} to {larger.reports} | "
                     f"{marginal * 1000:.3f} ms added vs {average * 1000:.3f} ms average | {_verdict(marginal <= average * FLAT_SLACK)} |")
    for size in results:
        if size.reports == 1000 or len(results) == 1:
            for kind, sizes in (("raw", size.index_raw), ("gzip", size.index_gzip)):
                ok = sizes["project"] <= sizes["reference"]
                lines.append(f"| {size.reports}: index.html {kind} no larger than the reference's | "
                             f"{sizes['project']} vs {sizes['reference']} bytes | {_verdict(ok)} |")
    if page is not None and page.keystroke_status_ms is not None:
        ok = page.keystroke_status_max_ms < MAX_KEYSTROKE_MS
        lines.append(f"| {results[-1].reports}: filter answers a keystroke under {MAX_KEYSTROKE_MS:.0f} ms | "
                     f"{page.keystroke_status_max_ms:.1f} ms worst | {_verdict(ok)} |")
    same = all(size.same_leaderboard_json for size in results)
    lines.append(f"| leaderboard.json byte-identical to the reference's | {'every size' if same else 'NOT at every size'} | {_verdict(same)} |")
    return "\n".join(lines) + "\n"


def main(sizes: list[int], runs: int = 3, browser: bool = True, results_file: Path | None = RESULTS,
         work: Path = WORK, command_line: str = "invoke bench", say: Callable[[str], None] = print) -> str:
    """Run the benchmark; prints the figures, writes them to ``results_file`` and returns them."""
    if runs < 1 or not sizes:
        raise ValueError("the benchmark needs at least one size and one run")
    work.mkdir(parents=True, exist_ok=True)
    settle(work, say)
    load_before = os.getloadavg()[0]
    results = []
    for reports in sorted(sizes):
        say(f"{reports} reports: {runs} runs of each renderer")
        results.append(bench_size(reports, runs, work, say))
    page = None
    try:
        if browser:
            from .browser import measure_page

            say(f"Chromium: {results[-1].reports} rows")
            page = measure_page(str(site(work, "project", results[-1].reports)))
    finally:
        remove_outputs(work)
    text = report(results, page, command_line, runs, (load_before, os.getloadavg()[0]))
    say("")
    say(text)
    if results_file is not None:
        results_file.write_text(text, encoding="utf-8")
    return text
