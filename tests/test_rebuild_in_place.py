"""A rebuild into an earlier render makes again only what changed, and trusts a file of that render
only while it is the file the render left: one edited, removed or replaced by hand since is made
again, whatever its times say; a no-op rebuild keeps every file of the leaderboard's own, by
``invoke build`` and by ``pelican content`` alike."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, SETTINGS, report, run_invoke
from core_support import tree_digest

from benchmark_leaderboard.write.output import MARKER

PELICAN = str(Path(sys.executable).parent / "pelican")
TAG = "v1.0.0"
PAGE = "report/b.report.html"


def files(reports: Path) -> dict[str, dict]:
    return {"a.report.json": report(), "b.report.json": report(model_name="OpenMed/model-b"),
            "c.report.json": report(model_name="OpenMed/model-c", device="cuda")}


def invoke_build(reports: Path, output: Path) -> str:
    result = run_invoke("build", "--reports-dir", str(reports), "--output-dir", str(output), "--release-tag", TAG)
    assert result.returncode == 0, result.stderr
    return result.stderr.splitlines()[-1]


def pelican_content(reports: Path, output: Path) -> str:
    result = subprocess.run([PELICAN, "content", "-s", SETTINGS, "-o", str(output), "-e",
                             f'LEADERBOARD_REPORTS_DIR="{reports}"', f'LEADERBOARD_RELEASE_TAG="{TAG}"'],
                            cwd=ROOT, capture_output=True, encoding="utf-8", timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stderr


def inodes(folder: Path) -> dict[str, int]:
    return {path.relative_to(folder).as_posix(): path.stat().st_ino for path in folder.rglob("*") if path.is_file()}


BUILDS = {"invoke build": invoke_build, "pelican content": pelican_content}


@pytest.mark.parametrize("how", sorted(BUILDS))
def test_a_no_op_rebuild_keeps_every_file_of_the_leaderboard_s_own(how, archive, tmp_path):
    reports = archive(files(tmp_path))
    output = tmp_path / "site"
    BUILDS[how](reports, output)
    before = inodes(output)
    digests = json.loads((output / MARKER).read_bytes())["digests"]
    BUILDS[how](reports, output)
    after = inodes(output)
    assert sorted(after) == sorted(before)
    kept = {path for path in after if after[path] == before[path]}
    # Every file the marker has a digest for is the earlier render's own; the marker is new.
    assert set(digests) <= kept and MARKER not in kept
    if how == "invoke build":
        summary = invoke_build(reports, output)
        assert f"({len(after) - len(digests)} written, {len(digests)} kept unchanged from the last render)" in summary


@pytest.mark.parametrize("how", sorted(BUILDS))
def test_a_file_changed_by_hand_is_made_again_whatever_its_times_say(how, archive, tmp_path):
    reports = archive(files(tmp_path))
    output, fresh = tmp_path / "site", tmp_path / "fresh"
    BUILDS[how](reports, output)
    invoke_build(reports, fresh)
    page = output / PAGE
    status = page.stat()
    original = page.read_bytes()
    # The same size, the same times: only the bytes differ.
    page.write_bytes(original.replace(b"model-b", b"model-X", 1))
    os.utime(page, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert page.stat().st_size == status.st_size and page.read_bytes() != original
    (output / "reports" / "c.report.json").unlink()
    (output / "leaderboard.json").unlink()
    (output / "index.html").unlink()
    (output / "index.html").symlink_to("leaderboard.csv")
    BUILDS[how](reports, output)
    assert page.read_bytes() == original
    assert not (output / "index.html").is_symlink()
    assert tree_digest(output) == tree_digest(fresh)


def test_a_changed_report_makes_again_only_what_shows_it(archive, tmp_path):
    reports = archive(files(tmp_path))
    output, fresh = tmp_path / "site", tmp_path / "fresh"
    invoke_build(reports, output)
    before = inodes(output)
    changed = report(model_name="OpenMed/model-b", metadata={"notes": "run again"})
    (reports / "b.report.json").write_text(json.dumps(changed), encoding="utf-8")
    invoke_build(reports, output)
    invoke_build(reports, fresh)
    assert tree_digest(output) == tree_digest(fresh)
    after = inodes(output)
    made = {path for path in after if after[path] != before.get(path)}
    # The report's own page and copy are made again; another report's page and copy are not.
    assert {PAGE, "reports/b.report.json"} <= made
    assert not {"report/a.report.html", "reports/a.report.json", "report/c.report.html"} & made
