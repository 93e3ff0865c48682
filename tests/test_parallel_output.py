"""Sharing the page writing with a forked child changes nothing in the site: same files, same bytes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import SETTINGS, report

from benchmark_leaderboard import parallel
from benchmark_leaderboard.render import build


def site_files(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def test_forked_and_serial_renders_write_the_same_bytes(archive, tmp_path, monkeypatch):
    reports = archive({f"{suite}/{family}/r{i}.report.json": report(suite=suite, model_name=f"OpenMed/{family}-{i}",
                                                                     metadata={"model_family": family},
                                                                     metrics={"leakage": {"overall": i / 100}})
                       for i, (suite, family) in enumerate((s, f) for s in ("golden", "edge") for f in ("PII", "NER") for _ in range(9))})
    build(SETTINGS, str(tmp_path / "forked"), reports_dir=str(reports), release_tag="v1", progress=lambda _: None)
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    build(SETTINGS, str(tmp_path / "serial"), reports_dir=str(reports), release_tag="v1", progress=lambda _: None)

    forked, serial = site_files(tmp_path / "forked"), site_files(tmp_path / "serial")
    assert forked == serial
    assert sum(name.startswith("report/") for name in forked) == 36


@pytest.mark.skipif(not parallel.can_fork(), reason="needs fork and two CPUs")
def test_both_halves_run_and_a_failing_child_is_reported(tmp_path):
    parallel.run_both(lambda: (tmp_path / "parent").write_text("p"), lambda: (tmp_path / "child").write_text("c"))
    assert sorted(os.listdir(tmp_path)) == ["child", "parent"]

    with pytest.raises(parallel.WorkerFailed):
        parallel.run_both(lambda: None, lambda: 1 / 0)


def test_split_gives_the_parent_its_share_and_the_child_the_rest():
    assert parallel.split(list(range(10)), 0.2) == ([0, 1], [2, 3, 4, 5, 6, 7, 8, 9])
    assert parallel.split([], 0.2) == ([], [])
