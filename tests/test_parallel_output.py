"""Sharing the page writing with a forked child changes nothing in the site: same files, same bytes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import SETTINGS, report

from benchmark_leaderboard import parallel
from leaderboard_tools.runner import build


def site_files(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def test_forked_and_serial_renders_write_the_same_bytes(archive, tmp_path, monkeypatch):
    from benchmark_leaderboard.build import PARALLEL_FROM

    count = PARALLEL_FROM + 20
    reports = archive({f"{suite}/{family}/r{i}.report.json": report(suite=suite, model_name=f"OpenMed/{family}-{i}",
                                                                     metadata={"model_family": family},
                                                                     metrics={"leakage": {"overall": i / count}})
                       for i, (suite, family) in enumerate((s, f) for s in ("golden", "edge") for f in ("PII", "NER")
                                                           for _ in range(count // 4))})
    forks = []
    can_fork = parallel.can_fork()
    real_fork = parallel._fork
    monkeypatch.setattr(parallel, "_fork", lambda: forks.append(1) or real_fork())
    build(SETTINGS, str(tmp_path / "forked"), reports_dir=str(reports), release_tag="v1", progress=lambda _: None)
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    build(SETTINGS, str(tmp_path / "serial"), reports_dir=str(reports), release_tag="v1", progress=lambda _: None)

    forked, serial = site_files(tmp_path / "forked"), site_files(tmp_path / "serial")
    assert forked == serial
    assert sum(name.startswith("report/") for name in forked) == count
    assert forks == ([1] if can_fork else [])  # the forked build had one partner


@pytest.mark.skipif(not parallel.can_fork(), reason="needs fork and two CPUs")
def test_both_halves_run_and_a_failing_child_is_reported(tmp_path):
    parallel.run_both(lambda: (tmp_path / "parent").write_text("p"), lambda: (tmp_path / "child").write_text("c"))
    assert sorted(os.listdir(tmp_path)) == ["child", "parent"]

    with pytest.raises(parallel.WorkerFailed):
        parallel.run_both(lambda: None, lambda: 1 / 0)


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


def _partner_writing(folder: Path, share=lambda value: value, fork=True):
    """A partner whose first step makes a list and whose second writes the list and the message."""
    def then(value, message):
        (folder / f"then-{os.getpid()}").write_text(f"{value} {message}")
    return parallel.Partner(lambda: [1, 2, 3], share, then, fork=fork)


@pytest.mark.skipif(not parallel.can_fork(), reason="needs fork and two CPUs")
def test_a_partner_sends_its_share_then_works_in_the_child_when_told_to_go(tmp_path):
    partner = _partner_writing(tmp_path, share=len)

    assert partner.shared() == 3
    partner.go("go")
    partner.join()

    written = list(tmp_path.iterdir())
    assert len(written) == 1 and written[0].name != f"then-{os.getpid()}"
    assert written[0].read_text() == "[1, 2, 3] go"


@pytest.mark.parametrize("fork", [True, False])
def test_without_a_child_the_partner_s_work_is_done_here_when_joined(tmp_path, fork):
    unpicklable = lambda value: lambda: value  # noqa: E731 - pickle refuses lambdas: the child cannot send it
    partner = _partner_writing(tmp_path, share=unpicklable, fork=fork)

    assert partner.shared()() == [1, 2, 3]
    partner.go("go")
    assert list(tmp_path.iterdir()) == []  # nothing runs before join
    partner.join()

    assert (tmp_path / f"then-{os.getpid()}").read_text() == "[1, 2, 3] go"


@pytest.mark.skipif(not parallel.can_fork(), reason="needs fork and two CPUs")
def test_a_partner_that_fails_at_its_work_fails_the_join(tmp_path):
    partner = parallel.Partner(lambda: 1, lambda value: value, lambda value, message: 1 / 0)
    assert partner.shared() == 1
    partner.go(None)

    with pytest.raises(parallel.WorkerFailed):
        partner.join()


@pytest.mark.skipif(not parallel.can_fork(), reason="needs fork and two CPUs")
def test_an_abandoned_partner_is_killed_and_never_works(tmp_path):
    import time

    def slow_then(value, message):
        time.sleep(30)
        (tmp_path / "late").write_text("x")

    partner = parallel.Partner(lambda: 1, lambda value: value, slow_then)
    partner.shared()
    partner.go(None)
    started = time.monotonic()
    parallel.abandon_all()

    assert time.monotonic() - started < 5
    assert list(tmp_path.iterdir()) == []
    partner.join()  # nothing left to wait for


def test_removing_a_large_old_render_removes_all_of_it_and_nothing_it_links_to(tmp_path):
    from leaderboard_tools.runner import PARALLEL_REMOVAL_FROM, remove_tree

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


def test_a_build_refused_beside_a_partner_leaves_nothing_behind(archive, tmp_path, monkeypatch):
    from benchmark_leaderboard import build as build_module
    from benchmark_leaderboard.build import PARALLEL_FROM
    from benchmark_leaderboard.problems import BuildRefused

    reports = archive({f"r{i:04d}.report.json": report(model_name=f"OpenMed/m{i}") for i in range(PARALLEL_FROM + 50)})
    real_document = build_module.document
    # The partner has checked its files and waits to be told to write; leaderboard.json's check fails.
    monkeypatch.setattr(build_module, "document", lambda ranked, suites: {**real_document(ranked, suites), "stray": 1})
    site = tmp_path / "out" / "site"
    site.mkdir(parents=True)
    (site / "old.html").write_text("old", encoding="utf-8")

    with pytest.raises(BuildRefused) as refused:
        build(SETTINGS, str(site), reports_dir=str(reports), release_tag="v1", progress=lambda _: None)

    assert refused.value.lines() == ["leaderboard.json: /stray: is not a field the schema allows"]
    assert site_files(site) == {"old.html": b"old"}
    assert os.listdir(tmp_path / "out") == ["site"]  # no staging folder left, nothing written into it later


@pytest.mark.skipif(not parallel.can_fork(), reason="needs fork and two CPUs")
def test_a_partner_that_cannot_write_its_pages_fails_the_build_and_changes_nothing(archive, tmp_path, monkeypatch, capfd):
    from benchmark_leaderboard.build import PARALLEL_FROM
    from benchmark_leaderboard.generator import LeaderboardGenerator
    from leaderboard_tools.runner import BuildError

    def no_space_left(self, part):
        raise OSError(28, "No space left on device")

    reports = archive({f"r{i:04d}.report.json": report(model_name=f"OpenMed/m{i}") for i in range(PARALLEL_FROM + 50)})
    monkeypatch.setattr(LeaderboardGenerator, "_write_partner_part", no_space_left)
    site = tmp_path / "out" / "site"
    site.mkdir(parents=True)
    (site / "old.html").write_text("old", encoding="utf-8")

    with pytest.raises(BuildError, match="^the forked partner of the build exited with an error; its own error is printed above$"):
        build(SETTINGS, str(site), reports_dir=str(reports), release_tag="v1", progress=lambda _: None)

    assert "OSError: [Errno 28] No space left on device" in capfd.readouterr().err
    assert site_files(site) == {"old.html": b"old"}
    assert os.listdir(tmp_path / "out") == ["site"]
