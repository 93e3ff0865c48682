"""`pelican content` with the plugin obeys the same rules as `invoke build`: the same one-line
problems, nothing written into a folder that is not a render, and a render in place that keeps
no page of a report that left the archive."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, SETTINGS, report, run_invoke
from core_support import tree_digest

PELICAN = str(Path(sys.executable).parent / "pelican")


def pelican_content(output: Path, reports: Path, *settings: str) -> subprocess.CompletedProcess:
    # One -e for all of them: Pelican keeps only the last -e it is given.
    return subprocess.run([PELICAN, "content", "-s", SETTINGS, "-o", str(output), "-e",
                           f'LEADERBOARD_REPORTS_DIR="{reports}"', 'LEADERBOARD_RELEASE_TAG="v1.0.0"', *settings],
                          cwd=ROOT, capture_output=True, encoding="utf-8", timeout=120)


def test_a_refused_archive_prints_the_same_problem_lines_as_invoke_build_and_no_traceback(archive, tmp_path):
    reports = archive({"a.report.json": report(), "b.report.json": report(suite="", fixture_count=True),
                       "c.json": "{oops"})
    ours = pelican_content(tmp_path / "site", reports)
    build = run_invoke("build", "--reports-dir", str(reports), "--output-dir", str(tmp_path / "built"), "--release-tag", "v1.0.0")
    problems = [
        "b.report.json: /fixture_count: must be an integer, not true",
        "b.report.json: /suite: must not be empty or only white space",
        "c.json: is not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2",
    ]
    assert ours.returncode == build.returncode == 1
    assert ours.stderr.splitlines() == problems + ["build refused: 3 problems; nothing was written"]
    assert [line for line in build.stderr.splitlines() if line in problems] == problems
    assert "Traceback" not in ours.stderr + ours.stdout
    assert not (tmp_path / "site").exists() or os.listdir(tmp_path / "site") == []


def test_a_folder_that_is_not_a_render_is_refused_before_anything_is_written(archive, tmp_path):
    reports = archive({"a.report.json": report()})
    home = tmp_path / "home"
    (home / "Documents").mkdir(parents=True)
    (home / ".bashrc").write_text("export PATH\n")
    before = tree_digest(home)
    result = pelican_content(home, reports)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"build failed: output refused: {home} is not empty and has no valid .leaderboard-render.json, so it is not a "
        "render of this site; choose a new or empty folder, or an earlier render"]
    assert tree_digest(home) == before


def test_rendering_in_place_removes_what_left_the_archive_and_leaves_unchanged_files_alone(archive, tmp_path):
    reports = archive({"keep.report.json": report(), "gone/old.report.json": report(model_name="OpenMed/old")})
    site = tmp_path / "site"
    assert pelican_content(site, reports).returncode == 0
    kept_copy = site / "reports" / "keep.report.json"
    inode = kept_copy.stat().st_ino
    assert (site / "report" / "gone" / "old.report.html").is_file()
    os.unlink(reports / "gone" / "old.report.json")
    os.rmdir(reports / "gone")

    result = pelican_content(site, reports)

    assert result.returncode == 0, result.stderr
    assert not (site / "report" / "gone").exists() and not (site / "reports" / "gone").exists()
    assert kept_copy.stat().st_ino == inode  # the same bytes: not written again
    fresh = tmp_path / "fresh"
    assert pelican_content(fresh, reports).returncode == 0
    assert tree_digest(site) == tree_digest(fresh)


def test_an_error_of_the_disk_is_one_line_and_the_status_of_an_unusable_output(archive, tmp_path):
    reports = archive({"a.report.json": report()})
    site = tmp_path / "site"
    assert pelican_content(site, reports).returncode == 0
    # Where the render wrote leaderboard.json, someone put a folder: the file cannot be written.
    os.unlink(site / "leaderboard.json")
    (site / "leaderboard.json").mkdir()
    (site / "leaderboard.json" / "theirs.txt").write_text("theirs\n")

    result = pelican_content(site, reports)

    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert lines == ["build failed: Is a directory: leaderboard.json"]
    assert "Traceback" not in result.stderr + result.stdout
    assert (site / "leaderboard.json" / "theirs.txt").read_text() == "theirs\n"
