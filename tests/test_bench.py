"""The benchmark (invoke bench): how memory is summed, the order of the runs, the tables, the floor,
and a whole run with stand-in renderers. Nothing here times anything or asserts a time."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import edits, measure, prepare, run
from benchmarks.browser import PageFigures, absent_letter
from benchmarks.floor import write_floor
from benchmarks.make_archive import make_archive
from conftest import ROOT, run_invoke

MIB = 2**20
# Parent and forked child each hold this much of their own; the child also maps the parent's.
HOLD_MIB = 64
# What two Python interpreters add to the tree's PSS beyond what they hold: well under HOLD_MIB, so
# that counting the pages the child shares with its parent twice (as summing RSS does) would show.
INTERPRETERS_MIB = 40
TWO_HOLDERS = f"""
import os, sys
held = bytearray({HOLD_MIB} * {MIB})
for i in range(0, len(held), 4096): held[i] = 1
child = os.fork()
if child == 0:
    mine = bytearray({HOLD_MIB} * {MIB})
    for i in range(0, len(mine), 4096): mine[i] = 1
    os.write(1, b"ready\\n")
    sys.stdin.read()  # both hold their memory until the test closes their standard input
    os._exit(0)
sys.stdin.read()
os.waitpid(child, 0)
"""


def test_the_tree_pss_sums_both_processes_and_counts_shared_pages_once():
    process = subprocess.Popen([sys.executable, "-c", TWO_HOLDERS], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert process.stdout.readline() == b"ready\n"
        processes = measure.tree(process.pid)
        total = measure.tree_pss(process.pid)
    finally:
        process.stdin.close()
        process.wait()

    assert len(processes) == 2 and processes[0] == process.pid
    # The parent's block is shared with the child (half of it charged to each), the child's own
    # is the child's alone: the sum is both blocks once, plus the two interpreters.
    assert 2 * HOLD_MIB * MIB <= total < (2 * HOLD_MIB + INTERPRETERS_MIB) * MIB
    assert measure.tree_pss(process.pid) == 0  # ended: nothing is left to count


HOLD_A_MOMENT = TWO_HOLDERS.replace('os.write(1, b"ready\\n")\n    sys.stdin.read()', "import time; time.sleep(0.5)")


def test_a_sampled_run_keeps_the_peak_of_the_sum():
    result = measure.run([sys.executable, "-c", HOLD_A_MOMENT], memory=True)

    assert result.returncode == 0
    assert 2 * HOLD_MIB * MIB <= result.peak_pss_bytes < (2 * HOLD_MIB + INTERPRETERS_MIB) * MIB


def test_a_timed_run_is_not_sampled(monkeypatch):
    def no_sampling(root):
        raise AssertionError("a timed run sampled memory")

    monkeypatch.setattr(measure, "TreeMemory", no_sampling)
    result = measure.run([sys.executable, "-c", "import sys; sys.stderr.write('said\\n'); sys.exit(3)"])

    assert (result.returncode, result.peak_pss_bytes, result.stderr) == (3, 0, "said\n")


def test_abba_runs_the_contestants_forwards_then_backwards():
    assert run.abba(("project", "reference"), 4) == ["project", "reference", "reference", "project",
                                                     "project", "reference", "reference", "project"]
    assert run.abba(("project", "reference", "floor"), 3) == ["project", "reference", "floor", "floor", "reference",
                                                              "project", "project", "reference", "floor"]
    assert run.abba(("project", "reference"), 1) == ["project", "reference"]


# --- the tables ----------------------------------------------------------------------------------

def _measured(seconds: float, peak_mib: float = 0) -> measure.Measured:
    return measure.Measured(seconds, seconds * 1.5, round(peak_mib * MIB), 0, "")


def _point(reports: int, situation: str, walls: dict[str, list[float]], peaks: dict[str, float]) -> run.Point:
    return run.Point(reports, situation, {name: [_measured(s) for s in each] for name, each in walls.items()},
                     {name: _measured(1.0, mib) for name, mib in peaks.items()})


def _results() -> list[run.SizeResult]:
    small = run.SizeResult(10_000, {
        run.NEW: _point(10_000, run.NEW, {"project": [1.2, 1.0, 1.1], "reference": [3.0, 2.9, 3.1], "floor": [0.5, 0.6, 0.4]},
                        {"project": 100, "reference": 300}),
        run.REBUILD: _point(10_000, run.REBUILD, {"project": [0.8, 0.7, 0.9], "reference": [4.0, 4.2, 3.8]},
                            {"project": 120, "reference": 200}),
    }, {"project": ("index.html", 4_000_000), "reference": ("index.html", 7_000_000)}, True)
    large = run.SizeResult(100_000, {
        run.NEW: _point(100_000, run.NEW, {"project": [9.2, 9.1, 9.3], "reference": [21.0, 21.5, 20.5],
                                           "floor": [4.0, 4.1, 3.9]}, {"project": 700, "reference": 1300}),
        run.REBUILD: _point(100_000, run.REBUILD, {"project": [6.0, 6.1, 5.9], "reference": [31.0, 30.0, 32.0]},
                            {"project": 900, "reference": 1280}),
    }, {"project": ("index.html", 43_000_000), "reference": ("index.html", 70_000_000)}, True)
    return [small, large]


def test_the_summary_table_shows_medians_peaks_and_ratios():
    assert run.summary_table(_results()) == [
        "| reports | situation | project wall (s) | reference wall (s) | ratio | project peak (MiB) | reference peak (MiB) | ratio |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
        "| 10,000 | new folder | 1.10 | 3.00 | 0.37x | 100 | 300 | 0.33x |",
        "| 10,000 | rebuild | 0.80 | 4.00 | 0.20x | 120 | 200 | 0.60x |",
        "| 100,000 | new folder | 9.20 | 21.00 | 0.44x | 700 | 1,300 | 0.54x |",
        "| 100,000 | rebuild | 6.00 | 31.00 | 0.19x | 900 | 1,280 | 0.70x |",
    ]


def test_the_cost_floor_and_run_tables():
    results = _results()

    assert run.cost_table(results) == [
        "| situation | from | to | project (ms a report) | reference (ms a report) | ratio |",
        "|---|---:|---:|---:|---:|---:|",
        "| new folder | 10,000 | 100,000 | 0.090 | 0.200 | 0.45x |",
        "| rebuild | 10,000 | 100,000 | 0.058 | 0.300 | 0.19x |",
    ]
    assert run.floor_table(results) == [
        "| reports | floor wall (s) | project, new folder | reference, new folder |",
        "|---:|---:|---:|---:|",
        "| 10,000 | 0.50 | 2.20x | 6.00x |",
        "| 100,000 | 4.00 | 2.30x | 5.25x |",
    ]
    assert run.runs_table(results)[:5] == [
        "| reports | situation | who | each run, in order (s) | median CPU, user + system (s) |",
        "|---:|---|---|---|---:|",
        "| 10,000 | new folder | project | 1.20, 1.00, 1.10 | 1.65 |",
        "| 10,000 | new folder | reference | 3.00, 2.90, 3.10 | 4.50 |",
        "| 10,000 | new folder | floor | 0.50, 0.60, 0.40 | 0.75 |",
    ]


PAGE = PageFigures(loads=3, interactive_ms=2450.0, interactive_frame_ms=2600.0, dom_content_loaded_ms=2500.0,
                   load_ms=2510.0, filter_shown=True, keystrokes=6, keystroke_median_ms=30.0, keystroke_worst_ms=48.5,
                   sort_buttons=9, sorts=3, sort_worst_ms=250.0)


def test_every_target_with_its_verdict():
    assert run.targets(_results(), PAGE, "") == [
        ("10,000 reports, new folder: wall time at most 0.5x the reference's", "0.37x", "met"),
        ("10,000 reports, new folder: peak memory at most 0.5x the reference's", "0.33x", "met"),
        ("10,000 reports, rebuild: wall time at most 0.5x the reference's", "0.20x", "met"),
        ("10,000 reports, rebuild: peak memory at most 0.5x the reference's", "0.60x", "not met"),
        ("100,000 reports, new folder: wall time at most 0.5x the reference's", "0.44x", "met"),
        ("100,000 reports, new folder: peak memory at most 0.5x the reference's", "0.54x", "not met"),
        ("100,000 reports, rebuild: wall time at most 0.5x the reference's", "0.19x", "met"),
        ("100,000 reports, rebuild: peak memory at most 0.5x the reference's", "0.70x", "not met"),
        ("new folder, 10,000 to 100,000 reports: cost per added report at most 0.5x the reference's", "0.45x", "met"),
        ("rebuild, 10,000 to 100,000 reports: cost per added report at most 0.5x the reference's", "0.19x", "met"),
        ("100,000 reports, in Chromium: interactive within 1,000 ms", "2,450 ms", "not met"),
        ("100,000 reports, in Chromium: a filter keystroke answered within 50 ms", "48.5 ms worst", "met"),
        ("100,000 reports, in Chromium: a sort answered within 200 ms", "250 ms worst", "not met"),
        ("100,000 reports: no HTML file of the project's over 10,000,000 bytes", "43,000,000 bytes (`index.html`)",
         "not met"),
    ]


def test_a_cost_per_added_report_at_or_below_zero_is_not_measured():
    small, large = _results()
    large.points[run.REBUILD].runs["project"] = [_measured(0.7)]  # faster than at 10,000: the spread of the runs

    assert run.cost_table([small, large])[-1] == "| rebuild | 10,000 | 100,000 | -0.001 | 0.300 | n/a |"
    assert run.targets([small, large], PAGE, "")[9] == (
        "rebuild, 10,000 to 100,000 reports: cost per added report at most 0.5x the reference's",
        "n/a: a cost at or below zero", "not measured")


def test_without_the_browser_its_targets_are_not_measured():
    found = run.targets(_results(), None, "not measured (--no-browser)")

    assert [row for row in found if "Chromium" in row[0]] == [
        ("100,000 reports, in Chromium: interactive within 1,000 ms", "not measured (--no-browser)", "not measured"),
        ("100,000 reports, in Chromium: a filter keystroke answered within 50 ms", "not measured (--no-browser)",
         "not measured"),
        ("100,000 reports, in Chromium: a sort answered within 200 ms", "not measured (--no-browser)", "not measured"),
    ]


def test_a_page_without_sort_buttons_or_answers_says_so():
    quiet = dataclasses.replace(PAGE, keystrokes=0, keystroke_median_ms=None, keystroke_worst_ms=None, sort_buttons=0,
                                sorts=0, sort_worst_ms=None)
    no_filter = dataclasses.replace(quiet, filter_shown=False)

    assert [row for row in run.targets(_results(), quiet, "") if "keystroke" in row[0] or "sort" in row[0]] == [
        ("100,000 reports, in Chromium: a filter keystroke answered within 50 ms", "no keystroke answered", "not met"),
        ("100,000 reports, in Chromium: a sort answered within 200 ms", "skipped: the page has no sort buttons",
         "not measured"),
    ]
    assert run.page_table(no_filter)[-2:] == [
        "| filter keystroke: key event to the frame painted after the status changed | no filter on the page |",
        "| sort: click to the frame painted after the rows changed | skipped: the page has no sort buttons |",
    ]
    assert run.page_table(PAGE) == [
        "| figure | value |", "|---|---|",
        "| interactive: the page's script done (median of 3 loads) | 2,450 ms |",
        "| the first frame painted after it | 2,600 ms |",
        "| DOMContentLoaded / load | 2,500 ms / 2,510 ms |",
        "| filter keystroke: key event to the frame painted after the status changed | 48.5 ms worst, 30.0 ms median, 6 keystrokes |",
        "| sort: click to the frame painted after the rows changed | 250 ms worst, 3 sorts |",
    ]


# --- the floor -----------------------------------------------------------------------------------

COPY_000001 = """{
  "device": "cuda",
  "fixture_count": 11,
  "generated_at": "2026-02-02T01:07:00Z",
  "metadata": {
    "model_family": "PII",
    "release_tag": "v3.0.0",
    "reproducibility_hash": "sha256:8bd2602824a255cff306f0a60656ad184526f6e965d9df2b54e4d5c7b6723a5c",
    "synthetic": true
  },
  "metrics": {
    "exact_span_f1": {
      "f1": 0.6793,
      "precision": 0.8144,
      "recall": 0.5826
    },
    "leakage": {
      "leaked_chars": 195,
      "overall": 0.0977,
      "total_chars": 2000
    }
  },
  "model_name": "OpenMed/synth-pii-000001",
  "suite": "suite-02"
}
"""
PAGE_000001 = """<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>OpenMed/synth-pii-000001</title>
<h1>OpenMed/synth-pii-000001</h1>
<p>suite-02 on cuda: <a href="../../../../reports/v3.0.0/suite-02/PII/000001.report.json">JSON</a></p>
</html>
"""


def _files(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file())


def test_the_floor_writes_a_canonical_copy_and_a_page_per_report(tmp_path):
    make_archive(tmp_path / "archive", 3)
    out = tmp_path / "floor"

    assert write_floor(str(tmp_path / "archive" / "reports"), str(out)) == 3

    assert _files(out) == [f"{kind}/v3.0.0/suite-0{i + 1}/PII/00000{i}.report.{ext}"
                           for kind, ext in (("report", "html"), ("reports", "json")) for i in range(3)]
    assert (out / "reports/v3.0.0/suite-02/PII/000001.report.json").read_text(encoding="utf-8") == COPY_000001
    assert (out / "report/v3.0.0/suite-02/PII/000001.report.html").read_text(encoding="utf-8") == PAGE_000001


def test_the_floor_escapes_what_a_page_prints_and_keeps_text_unescaped_in_the_copy(tmp_path):
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "a.json").write_text(json.dumps({"model_name": "Ünï <b>&\"", "suite": "s", "device": "cpu"}),
                                    encoding="utf-8")

    write_floor(str(reports), str(tmp_path / "floor"))

    assert (tmp_path / "floor/reports/a.json").read_text(encoding="utf-8") == (
        '{\n  "device": "cpu",\n  "model_name": "Ünï <b>&\\"",\n  "suite": "s"\n}\n')
    page = (tmp_path / "floor/report/a.html").read_text(encoding="utf-8")
    assert "<title>Ünï &lt;b&gt;&amp;&#34;</title>" in page
    assert '<a href="../reports/a.json">JSON</a>' in page


def test_the_floor_command_line_writes_only_into_a_new_folder(tmp_path):
    make_archive(tmp_path / "archive", 3)
    command = [sys.executable, "-m", "benchmarks.floor", str(tmp_path / "archive" / "reports"), str(tmp_path / "out")]

    first = subprocess.run(command, cwd=ROOT, capture_output=True, encoding="utf-8")
    again = subprocess.run(command, cwd=ROOT, capture_output=True, encoding="utf-8")

    assert (first.returncode, first.stdout, first.stderr) == (0, f"floor: 3 reports into {tmp_path / 'out'}\n", "")
    assert (again.returncode, again.stdout) == (2, "")
    assert again.stderr == f"floor: cannot make {tmp_path / 'out'}: File exists (OUT must be a new folder)\n"


# --- a whole run, with stand-ins for the renderers -----------------------------------------------

STAND_IN = """
import os, sys
name, log, out = sys.argv[1:]
state = "into its previous run" if os.path.isdir(out) else "into a new folder"
os.makedirs(out, exist_ok=True)
for file, text in (("index.html", "<p>rows</p>\\n"), ("report/a.html", "<p>a</p>\\n"), ("leaderboard.json", "{}\\n")):
    os.makedirs(os.path.dirname(os.path.join(out, file)), exist_ok=True)
    with open(os.path.join(out, file), "w") as handle:
        handle.write(text)
with open(log, "a") as handle:
    handle.write(f"{name} {os.path.basename(out)} {state}\\n")
"""


def _stand_ins(log: Path, fail: str | None = None):
    def command(name: str):
        def make(archive: Path, output: Path) -> list[str]:
            if name == fail:
                return [sys.executable, "-c", "import sys; sys.stderr.write('first\\nlast words\\n'); sys.exit(3)"]
            return [sys.executable, "-c", STAND_IN, name, str(log), str(output)]
        return make
    return {**run.COMMANDS, "project": command("project"), "reference": command("reference")}


def test_a_whole_run_alternates_rebuilds_into_the_previous_run_and_reports_every_target(tmp_path):
    log, results, seen = tmp_path / "runs.log", tmp_path / "results.md", []

    def page(site: str) -> PageFigures:
        seen.append((site, os.path.exists(os.path.join(site, "index.html"))))
        return PAGE

    text = run.main([3, 2], runs=2, browser=True, results_file=results, work=tmp_path / "work", say=lambda line: None,
                    command_line="invoke bench --sizes 3,2 --runs 2", commands=_stand_ins(log), measure_page=page)

    new = ["project site-project-{n}-new-1 into a new folder", "reference site-reference-{n}-new-1 into a new folder",
           "reference site-reference-{n}-new-2 into a new folder", "project site-project-{n}-new-2 into a new folder",
           "project site-project-{n}-rebuilt into a new folder", "reference site-reference-{n}-rebuilt into a new folder"]
    rebuild = ["project site-project-{n}-rebuilt into its previous run",
               "reference site-reference-{n}-rebuilt into its previous run",
               "reference site-reference-{n}-rebuilt into its previous run",
               "project site-project-{n}-rebuilt into its previous run",
               "project site-project-{n}-rebuilt into its previous run",
               "reference site-reference-{n}-rebuilt into its previous run"]
    # Sizes in order, every new-folder run before any rebuild; the floor runs between them, unlogged.
    assert log.read_text(encoding="utf-8").splitlines() == [
        line.format(n=n) for lines in (new, rebuild) for n in (2, 3) for line in lines]
    assert seen == [(str(tmp_path / "work" / "site-project-3-rebuilt"), True)]
    assert results.read_text(encoding="utf-8") == text
    lines = text.splitlines()
    assert lines[2] == ("Command: `invoke bench --sizes 3,2 --runs 2` (sizes 2, 3; 2 timed runs of each renderer per "
                        "size and situation, one more sampled for memory).")
    for heading in ("## Wall time and peak memory", "## Cost per added report", "## The floor", "## Largest HTML file",
                    "## In Chromium, the project's page of 3 reports", "## Targets", "## Each run"):
        assert heading in lines
    assert [line.split(" | ")[:2] for line in lines if line.startswith(("| 2 | ", "| 3 | ")) and " | floor | " in line] == [
        ["| 2", "new folder"], ["| 3", "new folder"]]
    assert "| 3 | project | `index.html` | 12 |" in lines
    assert "| 3 reports, in Chromium: a sort answered within 200 ms | 250 ms worst | not met |" in lines
    assert lines[-1] == "leaderboard.json of the project and of the reference: byte-identical at every size."
    # Every run's folder is gone, the archives are kept for the next benchmark, and the removal noted.
    assert {path.name for path in (tmp_path / "work").iterdir()} == {"archive-2", "archive-3", prepare.REMOVED_AT}


def test_a_failed_render_is_one_line_and_leaves_no_run_behind(tmp_path):
    with pytest.raises(prepare.BenchError) as failed:
        run.main([2], runs=1, browser=False, results_file=None, work=tmp_path, say=lambda line: None,
                 commands=_stand_ins(tmp_path / "runs.log", fail="reference"))

    assert str(failed.value) == f"the reference run into {tmp_path / 'site-reference-2-new-1'} ended with status 3: last words"
    assert {path.name for path in tmp_path.iterdir()} == {"archive-2", "runs.log", prepare.REMOVED_AT}


@pytest.mark.parametrize("left, line", [
    (0, "bench: interrupted; the runs' folders are removed; the archives are kept"),
    (2, "bench: interrupted; 2 of the runs' folders are left, and the next bench removes them first; the archives are kept"),
])
def test_an_interrupted_bench_says_whether_it_removed_its_runs_folders(tmp_path, monkeypatch, capsys, left, line):
    def interrupted(*args, **kwargs):  # Ctrl-C, or a second one while the runs' folders are removed
        for number in range(left):
            (tmp_path / f"site-project-2-new-{number + 1}").mkdir()
        raise KeyboardInterrupt
    monkeypatch.setattr(run, "WORK", tmp_path)
    monkeypatch.setattr(run, "main", interrupted)
    assert run.cli(["--sizes", "2"]) == 130
    assert capsys.readouterr().err == line + "\n"


def test_the_machine_line_says_how_much_cpu_time_the_host_took():
    ticks = os.sysconf("SC_CLK_TCK")
    assert run.stolen_seconds(f"cpu  1637581 101231 863238 2382053 133490 0 35428 {15 * ticks} 0 0\n") == 15
    assert run.stolen_seconds("intr 1 2 3\n") is None
    assert run.stolen_seconds("cpu  1 2 3\n") is None  # a kernel too old to count it
    def machine(*figures) -> str:
        text = run.report(_results(), None, "not measured", "invoke bench", 3, *figures)
        return next(line for line in text.splitlines() if line.startswith("Machine: "))

    assert machine((0.5, 1.25), 0.1234).endswith("; 1-minute load average 0.5 before the runs, 1.2 after; the host "
                                                 "took 12.3% of the CPUs' time during the runs (steal time).")
    assert machine((0.5, 1.25)).endswith("; 1-minute load average 0.5 before the runs, 1.2 after.")


def test_an_archive_is_made_again_only_when_the_maker_would_write_other_bytes(tmp_path, monkeypatch):
    said: list[str] = []
    folder = prepare.make_archive(2, tmp_path, said.append)
    made = (folder / "reports").stat().st_ino

    assert prepare.make_archive(2, tmp_path, said.append) == folder and (folder / "reports").stat().st_ino == made
    (folder / ".complete").write_text("benchmarks/make_archive.py sha256:0000 n=2\n", encoding="utf-8")
    prepare.make_archive(2, tmp_path, said.append)

    assert said == ["making the archive of 2 reports",
                    "making the archive of 2 reports again: the maker or its arguments changed"]
    assert (folder / ".complete").read_text(encoding="utf-8") == prepare.archive_mark(2)
    assert (tmp_path / prepare.REMOVED_AT).exists()  # the old archive's removal counts for settle()


def test_an_archive_of_several_releases_holds_the_size_as_releases_of_the_same_models(tmp_path):
    folder = prepare.make_archive(6, tmp_path, lambda line: None, releases=3)

    assert folder.name == "archive-6-3-releases"
    assert len(list((folder / "reports").rglob("*.report.json"))) == 6
    assert sorted(path.name for path in (folder / "reports").iterdir()) == ["v3.0.0", "v3.1.0", "v3.2.0"]
    assert (folder / ".complete").read_text(encoding="utf-8") == prepare.archive_mark(6, 3) != prepare.archive_mark(6)
    with pytest.raises(prepare.BenchError, match="7 reports cannot be 3 releases of the same models"):
        prepare.make_archive(7, tmp_path, lambda line: None, releases=3)


def test_the_projects_own_files_are_compiled_before_the_runs_whatever_the_environment_says(tmp_path):
    # A checkout in miniature: a plugin package, the tooling's package, tasks.py and the settings files.
    sources = [tmp_path / "plugins" / "thing" / "__init__.py", tmp_path / "leaderboard_tools" / "tool.py",
               tmp_path / "tasks.py", tmp_path / "pelicanconf.py", tmp_path / "publishconf.py"]
    for source in sources:
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text("VALUE = 1\n", encoding="utf-8")
    (tmp_path / "elsewhere.py").write_text("VALUE = 2\n", encoding="utf-8")
    code = f"from pathlib import Path; from benchmarks import prepare; prepare.compile_project(Path({str(tmp_path)!r}))"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                   env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})

    import importlib.util
    assert all(Path(importlib.util.cache_from_source(str(source))).is_file() for source in sources)
    assert not (tmp_path / "__pycache__" / "elsewhere").exists() and not list(tmp_path.glob("__pycache__/elsewhere*"))


def test_bench_refuses_a_bad_size_in_one_line():
    result = run_invoke("bench", "--sizes", "10,ten")

    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "bench: --sizes must be comma-separated whole numbers of at least 1, not '10,ten'\n"


def test_absent_letter_is_one_no_row_holds():
    document = {"rows": [{"model_name": "qa-model", "device": "cpu", "suite": "zeta"}]}

    assert absent_letter(json.dumps(document).encode()) == "j"


def test_settle_removes_leftover_runs_and_waits_out_the_minutes(tmp_path):
    leftover = run.site(tmp_path, "project", 20, "new-2")
    (leftover / "report").mkdir(parents=True)
    (leftover / "report" / "a.html").write_text("x", encoding="utf-8")
    (tmp_path / "archive-20").mkdir()
    waits: list[float] = []

    run.settle(tmp_path, say=lambda line: None, sleep=waits.append)

    assert not leftover.exists()
    assert (tmp_path / "archive-20").is_dir()  # the archives are kept: making them is deterministic
    assert len(waits) == 1 and run.SETTLE_SECONDS - 5 < waits[0] <= run.SETTLE_SECONDS


def test_settle_does_not_wait_when_nothing_was_removed_lately(tmp_path):
    (tmp_path / prepare.REMOVED_AT).write_text("0\n", encoding="utf-8")
    waits: list[float] = []

    run.settle(tmp_path, say=lambda line: None, sleep=waits.append)

    assert waits == []


# --- the profile (invoke bench --profile) ----------------------------------------------------------

def test_the_profile_times_every_phase_of_a_build_and_a_rebuild_and_keeps_the_other_sections(tmp_path):
    from benchmarks import profile

    results = tmp_path / "results.md"
    results.write_text("# Benchmark results\n\n## Wall time\n\nkept\n\n## CPU per report by phase: mine\n\nold\n",
                       encoding="utf-8")
    text = profile.main([40], "mine", "invoke bench --profile --sizes 40 --label mine", results_file=results,
                        work=tmp_path / "work", say=lambda line: None)

    assert results.read_text(encoding="utf-8") == "# Benchmark results\n\n## Wall time\n\nkept\n\n" + text
    lines = text.splitlines()
    assert lines[0] == "## CPU per report by phase: mine"
    assert lines[2].startswith("Command: `invoke bench --profile --sizes 40 --label mine`")
    assert lines[4] == "| phase | 40, new folder (µs a report) | 40, rebuild (µs a report) |"
    rows = {line.split(" | ")[0][2:]: line for line in lines if line.startswith("| ")}
    for label, _ in profile.ROWS:
        assert label in rows
    # Each phase is timed less the timed calls it made: no phase, residual or not, comes out below zero.
    for label, line in rows.items():
        if label not in ("phase", "---|"):
            assert all(float(cell.strip("* ").replace(",", "")) >= -1.0 for cell in line.strip("| ").split(" | ")[1:]), line
    first_folder = float(rows["report: files' kernel work (open, write, close)"].split(" | ")[1].replace(",", ""))
    assert first_folder > 0  # a new folder's pages are written...
    notes = [line for line in lines if line.startswith("- 40, ")]
    assert len(notes) == 2 and all("2 workers" in line or "the build's process" in line for line in notes)
    # One page in eight is sampled in each process that renders pages: 5, and a few more with two
    # workers; the rebuild of an unchanged archive renders none.
    [first, again] = [int(re.search(r"escaping sampled on (\d+) of (?:40|0) pages", line).group(1)) for line in notes]
    assert 5 <= first <= 8 and again == 0, notes
    assert "rebuild" in notes[1] and "of 0 pages" in notes[1]
    assert not list((tmp_path / "work").glob("profile-*"))  # the builds' folders are removed


def test_every_function_the_profile_times_is_where_the_profile_looks_for_it():
    # A function moved or renamed in the plugin or the runner fails here, named, rather than
    # leaving its phase silently at zero.
    from benchmarks import profile

    for _, where, _ in profile.TIMED:
        assert callable(profile.find(where)), where
    assert callable(profile.find(profile.READ_TASK))


def test_a_timed_function_that_is_not_there_any_more_stops_the_profile_before_any_work(tmp_path, monkeypatch):
    from benchmarks import profile

    gone = "benchmark_leaderboard.decide.history:archive_history_moved_away"
    monkeypatch.setattr(profile, "TIMED", profile.TIMED + (("build: history", gone, profile.timed),))
    with pytest.raises(profile.ProfileError) as refused:
        profile.main([40], "mine", "invoke bench --profile", results_file=None, work=tmp_path / "work", say=lambda line: None)
    assert str(refused.value) == (f"the profile times {gone}, which is not there any more (moved or renamed?): "
                                  "name where it is now in benchmarks/profile.py (TIMED)")
    assert not (tmp_path / "work").exists()
    with pytest.raises(profile.ProfileError, match="benchmark_leaderboard.no_such_module:read"):
        profile.find("benchmark_leaderboard.no_such_module:read")


def test_a_timed_function_no_build_called_stops_the_profile_with_its_name():
    from benchmarks import profile

    every = [where for _, where, _ in profile.TIMED]
    first = [where for where in every if where not in profile.REBUILD_ONLY]
    assert profile.not_called({(40, "new folder"): {"called": first}}) == []
    assert profile.not_called({(40, "new folder"): {"called": first}, (40, "rebuild"): {"called": first}}) == sorted(
        profile.REBUILD_ONLY)
    history = "benchmark_leaderboard.decide.history:archive_history"
    called = {(40, "new folder"): {"called": [where for where in first if where != history]},
              (40, "rebuild"): {"called": [where for where in every if where != history]}}
    assert profile.not_called(called) == [history]


def test_a_write_task_of_a_kind_the_profile_does_not_know_stops_it():
    from benchmarks import profile

    from benchmark_leaderboard.write import work

    tasks = (work.WholeFiles(), work.FamilyPages(0, 1), work.ReportPages(range(3)), work.ModelPages(range(2)))
    assert [profile._kind("write", task) for task in tasks] == ["whole", "pages", "reports", "models"]
    with pytest.raises(profile.ProfileError, match=r"does not know the write task \[1, 2\] \(list\)"):
        profile._kind("write", [1, 2])


def test_the_benchmark_keeps_the_profiles_sections_when_it_rewrites_the_results(tmp_path):
    log, results = tmp_path / "runs.log", tmp_path / "results.md"
    results.write_text("# old figures\n\n## CPU per report by phase: before\n\n| a | b |\n", encoding="utf-8")
    text = run.main([2], runs=1, browser=False, results_file=results, work=tmp_path / "work", say=lambda line: None,
                    commands=_stand_ins(log))
    assert results.read_text(encoding="utf-8") == text + "\n## CPU per report by phase: before\n\n| a | b |\n"


def test_the_figures_of_each_file_system_are_kept_side_by_side(tmp_path, monkeypatch):
    # A run writing to tmpfs keeps the disk's figures (and the profile's sections) in results.md, and
    # replaces only the figures of its own file system.
    log, results = tmp_path / "runs.log", tmp_path / "results.md"
    results.write_text("# Benchmark results\n\nold figures, no file system named\n\n"
                       "## CPU per report by phase: before\n\n| a | b |\n", encoding="utf-8")
    texts = {}
    for number, written_to in enumerate(("tmpfs", "ext4", "tmpfs")):
        monkeypatch.setattr(run, "file_system", lambda folder, kind=written_to: kind)
        # A folder of its own each time: the disk's runs would otherwise wait out the removal before them.
        texts[written_to] = run.main([2], runs=1, browser=False, results_file=results, work=tmp_path / f"work-{number}",
                                     say=lambda line: None, commands=_stand_ins(log))
        assert texts[written_to].startswith(f"# Benchmark results, written to {written_to}\n")
    assert results.read_text(encoding="utf-8") == (texts["ext4"] + "\n" + texts["tmpfs"]
                                                   + "\n## CPU per report by phase: before\n\n| a | b |\n")


def test_the_file_system_of_a_folder_is_read_from_the_mount_table(tmp_path):
    assert prepare.file_system(tmp_path) not in ("", "unknown")
    if os.path.ismount("/dev/shm"):
        assert prepare.file_system(Path("/dev/shm")) == "tmpfs"
    assert run.bench_command(None, "2", False, "/dev/shm") == "invoke bench --runs 2 --no-browser --work <a folder on tmpfs>"


@pytest.mark.parametrize("hidden", ["openmed", "playwright"])
def test_bench_without_the_test_packages_says_so_in_one_line_before_any_work(tmp_path, hidden):
    # A package of requirements-test.lock hidden, as after `make build` alone: the reference renderer
    # (or the browser's driver) cannot be imported.
    (tmp_path / "sitecustomize.py").write_text(f'import sys\nsys.modules["{hidden}"] = None\n', encoding="utf-8")
    work = tmp_path / "work"
    result = run_invoke("--search-root", str(ROOT), "bench", "--sizes", "10", "--runs", "1", "--no-browser", "--work",
                        str(work), cwd=tmp_path, env={"PYTHONPATH": str(tmp_path)})
    assert (result.returncode, result.stdout, result.stderr.splitlines()) == (2, "", [
        f"bench: the test packages are not installed ({hidden} missing; make build installs only what building needs): "
        "run make test once, which installs requirements-test.lock"])
    assert not work.exists()


def test_the_test_packages_a_task_requires_are_those_make_test_installs():
    import importlib.metadata
    import importlib.util
    import tomllib

    spec = importlib.util.spec_from_file_location("bench_tasks", ROOT / "tasks.py")
    tasks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tasks)
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]["test"]
    wanted = {re.split(r"[=<>!~ \[]", requirement, maxsplit=1)[0].lower().replace("_", "-") for requirement in extra}
    provided = importlib.metadata.packages_distributions()
    assert {distribution.lower() for module in tasks.TEST_PACKAGES for distribution in provided[module]} == wanted



# --- what an edit costs (benchmarks/edits.py) ----------------------------------------------------

def test_each_edit_rebuilds_in_place_and_writes_what_it_changes_and_each_second_run_undoes_it(tmp_path):
    make_archive(tmp_path / "source", 24)
    source = {path: path.read_bytes() for path in (tmp_path / "source" / "reports").rglob("*.json")}
    point = edits.bench_edits(24, tmp_path / "source", 2, tmp_path / "edits", say=lambda line: None, preview=False)
    written = {what: edited.written for what, edited in point.edits.items()}
    nothing = written[edits.NOTHING][0]
    assert written[edits.NOTHING] == [nothing, nothing]
    # The noted report's page and copy; every report page for the template; more for a row that moves.
    assert written[edits.OWN_PAGES] == [nothing + 2, nothing + 2]
    assert written[edits.TEMPLATE] == [nothing + 24, nothing + 24]
    assert min(written[edits.ROW_MOVES]) > nothing + 2
    # The shared archive is as it was; the benchmark's links hold the leakage edit the sampled run made.
    assert {path: path.read_bytes() for path in source} == source
    archive = tmp_path / "edits" / "archive" / "reports"
    changed = [path for path in source if (archive / path.relative_to(tmp_path / "source" / "reports")).read_bytes()
               != source[path]]
    assert len(changed) == 1 and point.memory.peak_pss_bytes > 0
    assert list((tmp_path / "edits" / "archive" / "templates").iterdir()) == []


def _edited(written: int, seconds: float, cpu: float) -> edits.Edited:
    return edits.Edited([measure.Measured(seconds, cpu, 0, 0, "")], [written])


def test_the_edits_table_and_targets_set_each_rebuild_beside_the_full_builds(tmp_path):
    log = tmp_path / "runs.log"

    def fake(reports, archive, runs, folder, say):
        return edits.EditPoint(reports, {edits.NOTHING: _edited(13, 0.5, 0.6), edits.ROW_MOVES: _edited(1500, 1.0, 1.2),
                                         edits.OWN_PAGES: _edited(15, 0.6, 0.7), edits.TEMPLATE: _edited(2013, 4.0, 5.0)},
                               measure.Measured(1.0, 1.0, 50 * 2**20, 0, ""),
                               {edits.ROW_MOVES: edits.Saves([0.8, 1.2], [3.5, 4.0]),
                                edits.OWN_PAGES: edits.Saves([0.5, 0.7], [1.5, 2.0])})

    text = run.main([2], runs=1, browser=False, results_file=None, work=tmp_path / "work", say=lambda line: None,
                    commands=_stand_ins(log), edits=fake)
    lines = text.splitlines()
    assert "## What an edit costs" in lines
    rows = [line for line in lines if line.startswith("| 2 | ") and " written" not in line and line.count(" | ") == 6]
    assert [row.split(" | ")[1:4] for row in rows] == [
        [edits.NOTHING, "13", "0.50"], [edits.ROW_MOVES, "1,500", "1.00"], [edits.OWN_PAGES, "15", "0.60"],
        [edits.TEMPLATE, "2,013", "4.00"]]
    assert f"| 2 | {edits.ROW_MOVES} | 2 | 1.00 median, 1.20 worst | 3.75 median, 4.00 worst |" in lines
    assert f"| 2 | {edits.OWN_PAGES} | 2 | 0.60 median, 0.70 worst | 1.75 median, 2.00 worst |" in lines
    targets = [line for line in lines if line.startswith("| 2 reports")]
    # The row move and the template edit write 1,000 files or more: they are not held to the edit's targets.
    assert [line.split(" | ")[0] for line in targets if "CPU at most" in line] == [
        "| 2 reports: a no-op rebuild, CPU at most 0.2x the project's full build",
        f"| 2 reports: a rebuild after {edits.OWN_PAGES}, CPU at most 0.3x the project's full build"]
    assert [line for line in targets if "under the preview" in line] == [
        f"| 2 reports, under the preview, a save of {edits.ROW_MOVES}: the edited page's new bytes within 1 s "
        "| 1.20 s worst | not met |",
        f"| 2 reports, under the preview, a save of {edits.OWN_PAGES}: the edited page's new bytes within 1 s "
        "| 0.70 s worst | met |",
        f"| 2 reports, under the preview, a save of {edits.OWN_PAGES}: the whole render within 3 s "
        "| 2.00 s worst | met |"]


def test_without_the_edits_the_benchmark_says_they_were_not_measured(tmp_path):
    text = run.main([2], runs=1, browser=False, results_file=None, work=tmp_path / "work", say=lambda line: None,
                    commands=_stand_ins(tmp_path / "runs.log"))
    lines = text.splitlines()
    assert lines[lines.index("## What an edit costs") + 2] == "Not measured in this run."
