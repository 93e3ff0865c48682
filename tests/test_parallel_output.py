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


def test_forked_and_serial_checks_refuse_with_the_same_problems(archive, monkeypatch):
    from benchmark_leaderboard.build import PARALLEL_FROM, build_leaderboard
    from benchmark_leaderboard.problems import BuildRefused

    files = {f"r{i:04d}.report.json": report(model_name=f"OpenMed/m{i}") for i in range(PARALLEL_FROM + 10)}
    files["r0003.report.json"] = report(suite="  ")
    files["r0004.report.json"] = "{not json"
    files[f"r{PARALLEL_FROM:04d}.report.json"] = report(metadata={"synthetic": "true"})
    files["zz.report.json"] = [1, 2]
    files["zz-deep.json"] = {"metrics": {"a": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[0]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}
    reports = archive(files)

    def refusal() -> list[str]:
        with pytest.raises(BuildRefused) as refused:
            build_leaderboard(str(reports), None, "v1")
        return refused.value.lines()

    forked = refusal()
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    serial = refusal()
    assert forked == serial
    files_named = [line.split(":")[0] for line in forked]
    assert files_named == ["r0003.report.json", "r0004.report.json", f"r{PARALLEL_FROM:04d}.report.json"] \
        + ["zz-deep.json"] * 11 + ["zz.report.json"]


def test_a_half_the_child_cannot_send_is_computed_here(monkeypatch):
    unpicklable = lambda: None  # noqa: E731 - pickle refuses lambdas
    first, second = parallel.map_halves(lambda part: [unpicklable] * len(part), [1], [2, 3])
    assert (len(first), len(second)) == (1, 2)


def test_removing_a_large_old_render_removes_all_of_it_and_nothing_it_links_to(tmp_path):
    from benchmark_leaderboard.render import PARALLEL_REMOVAL_FROM, remove_tree

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("kept")
    old = tmp_path / "old"
    for index in range(PARALLEL_REMOVAL_FROM + 10):
        folder = old / f"f{index % 7}" / f"g{index % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{index}.html").write_text("x")
    (old / "linked-folder").symlink_to(outside, target_is_directory=True)
    (old / "f0" / "linked-file").symlink_to(outside / "keep.txt")
    remove_tree(str(old))
    assert not old.exists()
    assert (outside / "keep.txt").read_text() == "kept"
