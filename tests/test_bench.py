"""The benchmark (invoke bench) runs at a tiny size, so that it cannot rot. No time is asserted."""

from __future__ import annotations

import json
import sys

import pytest

from benchmarks import measure
from benchmarks.browser import absent_letter  # noqa: E402

# Parent and forked child each hold this much of their own at once: the tree's peak counts both.
HOLD_MB = 64
TWO_HOLDERS = f"""
import os, time
held = bytearray({HOLD_MB} << 20)
for i in range(0, len(held), 4096): held[i] = 1
child = os.fork()
if child == 0:
    mine = bytearray({HOLD_MB} << 20)
    for i in range(0, len(mine), 4096): mine[i] = 1
    time.sleep(0.5)
    os._exit(0)
os.waitpid(child, 0)
"""


def test_tree_memory_counts_forked_children():
    result = measure.run([sys.executable, "-c", TWO_HOLDERS])

    assert result.returncode == 0
    assert 2 * HOLD_MB * 2**20 <= result.peak_rss_bytes
    assert result.seconds > 0.5


def test_a_timed_run_is_not_sampled_and_knows_its_largest_process(monkeypatch):
    def no_sampling(root):
        raise AssertionError("a timed run sampled memory")

    monkeypatch.setattr(measure, "TreeMemory", no_sampling)
    result = measure.run([sys.executable, "-c", TWO_HOLDERS], memory=False)

    assert result.returncode == 0
    assert HOLD_MB * 2**20 <= result.peak_rss_bytes  # ru_maxrss: the largest single process


def test_absent_letter_is_one_no_row_holds():
    document = {"rows": [{"model_name": "qa-model", "device": "cpu", "suite": "zeta"}]}

    assert absent_letter(json.dumps(document).encode()) == "j"


@pytest.mark.oracle
@pytest.mark.browser
def test_bench_runs_end_to_end_at_twenty_reports(tmp_path, capsys):
    from benchmarks.run import main

    results = tmp_path / "results.md"
    text = main([20], runs=1, browser=True, results_file=results, work=tmp_path, command_line="invoke bench --sizes 20")

    assert results.read_text(encoding="utf-8") == text
    assert text in capsys.readouterr().out
    assert "Command: `invoke bench --sizes 20`" in text
    lines = text.splitlines()
    assert sum(line.startswith("| 20 | project | ") for line in lines) == 2  # wall table and index.html table
    assert sum(line.startswith("| 20 | reference | ") for line in lines) == 2
    assert "| leaderboard.json byte-identical to the reference's | every size | met |" in lines
    assert any(line.startswith("| interactive (tabs shown, handlers attached) | ") for line in lines)
    assert any(line.startswith("| filter keystroke until #filter-status changes | ") for line in lines)


def test_settle_removes_leftover_sites_and_waits_out_the_minute(tmp_path):
    from benchmarks import run

    leftover = run.site(tmp_path, "project", 20, 2)
    (leftover / "report").mkdir(parents=True)
    (leftover / "report" / "a.html").write_text("x", encoding="utf-8")
    (tmp_path / "archive-20").mkdir()
    waits: list[float] = []

    run.settle(tmp_path, say=lambda line: None, sleep=waits.append)

    assert not leftover.exists()
    assert (tmp_path / "archive-20").is_dir()  # the archives are kept: making them is deterministic
    assert len(waits) == 1 and run.SETTLE_SECONDS - 5 < waits[0] <= run.SETTLE_SECONDS


def test_settle_does_not_wait_when_nothing_was_removed_lately(tmp_path):
    from benchmarks import run

    (tmp_path / run.REMOVED_AT).write_text("0\n", encoding="utf-8")
    waits: list[float] = []

    run.settle(tmp_path, say=lambda line: None, sleep=waits.append)

    assert waits == []
