"""Nothing a user put in the output is lost: the render's marker lists every file the render wrote;
a rebuild (staged and exchanged, through a link as well, or `pelican content` in place) carries
whatever else is there into the new render unchanged and names it in one line; `clean` removes only
what the render wrote; names in Pelican's OUTPUT_RETENTION are kept the same way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, SETTINGS, report, run_invoke
from core_support import tree_digest

from benchmark_leaderboard.write.output import MARKER, marker_bytes
from leaderboard_tools import runner
from leaderboard_tools.clean import clean

PELICAN = str(Path(sys.executable).parent / "pelican")
TAG = "v1.0.0"
KEPT = "kept 4 entries the last render did not write: CNAME, extra/, report/mine/, theme/user.css"


def build(reports: Path, output: Path) -> subprocess.CompletedProcess:
    return run_invoke("build", "--reports-dir", str(reports), "--output-dir", str(output), "--release-tag", TAG)


def pelican_content(reports: Path, output: Path) -> subprocess.CompletedProcess:
    return subprocess.run([PELICAN, "content", "-s", SETTINGS, "-o", str(output), "-e",
                           f'LEADERBOARD_REPORTS_DIR="{reports}"', f'LEADERBOARD_RELEASE_TAG="{TAG}"'],
                          cwd=ROOT, capture_output=True, encoding="utf-8", timeout=120)


def add_user_files(output: Path) -> dict[str, tuple[bytes, int]]:
    """What a user adds to a render: a domain file, a folder of notes, a file in a folder of the
    render's own and one beside the theme's files; their bytes and modification times."""
    files = {"CNAME": b"leaderboard.example.org\n", "extra/notes.txt": b"notes\n", "extra/deep/more.txt": b"more\n",
             "report/mine/page.txt": b"mine\n", "theme/user.css": b"body{}\n"}
    for number, (relative, data) in enumerate(files.items()):
        path = output / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        os.utime(path, (1_000_000_000 + number, 1_000_000_000 + number))
    return {relative: (data, 1_000_000_000 + number) for number, (relative, data) in enumerate(files.items())}


def assert_unchanged(output: Path, added: dict[str, tuple[bytes, int]]) -> None:
    for relative, (data, when) in added.items():
        path = output / relative
        assert path.read_bytes() == data, relative
        assert int(path.stat().st_mtime) == when, relative


def rendered(digest: dict[str, str], added) -> dict[str, str]:
    return {path: value for path, value in digest.items() if path not in added}


@pytest.fixture
def reports(archive):
    return archive({f"s/r{i}.report.json": report(model_name=f"OpenMed/m{i}", metrics={"leakage": {"overall": i / 100}})
                    for i in range(6)})


def test_the_marker_lists_every_file_the_render_wrote_and_nothing_else(reports, tmp_path):
    output = tmp_path / "site"
    assert build(reports, output).returncode == 0
    marker = json.loads((output / MARKER).read_bytes())
    assert marker["files"] == sorted(tree_digest(output))
    assert {"index.html", "sitemap.xml", "theme/leaderboard.js", "ranking.html", MARKER} <= set(marker["files"])


@pytest.mark.parametrize("through_a_link", [False, True])
def test_a_rebuild_carries_what_the_last_render_did_not_write_into_the_new_render_and_names_it(reports, tmp_path,
                                                                                               through_a_link):
    target = tmp_path / "site"
    assert build(reports, target).returncode == 0
    added = add_user_files(target)
    output = target
    if through_a_link:
        output = tmp_path / "link"
        output.symlink_to(target, target_is_directory=True)

    result = build(reports, output)

    assert result.returncode == 0, result.stderr
    assert KEPT in result.stderr.splitlines()
    assert_unchanged(target, added)
    assert not through_a_link or output.is_symlink()
    fresh = tmp_path / "fresh"
    assert build(reports, fresh).returncode == 0
    assert rendered(tree_digest(target), added) == tree_digest(fresh)
    # They stay someone else's: the next rebuild carries them again.
    again = build(reports, output)
    assert KEPT in again.stderr.splitlines()
    assert_unchanged(target, added)


def test_pelican_content_in_place_keeps_what_the_last_render_did_not_write_and_names_it(reports, tmp_path):
    output = tmp_path / "site"
    assert pelican_content(reports, output).returncode == 0
    added = add_user_files(output)
    os.unlink(reports / "s" / "r5.report.json")  # a page and a copy the new render does not write

    result = pelican_content(reports, output)

    assert result.returncode == 0, result.stderr
    assert KEPT in result.stderr.splitlines()
    assert_unchanged(output, added)
    fresh = tmp_path / "fresh"
    assert pelican_content(reports, fresh).returncode == 0
    assert rendered(tree_digest(output), added) == tree_digest(fresh)


def test_clean_removes_only_what_the_render_wrote_and_says_what_it_left(reports, tmp_path):
    output = tmp_path / "site"
    assert build(reports, output).returncode == 0
    added = add_user_files(output)

    result = run_invoke("clean", "--output-dir", str(output))

    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        f"removed the render in {output}; left 4 entries it did not write: CNAME, extra/, report/mine/, theme/user.css"]
    assert sorted(tree_digest(output)) == sorted(added)
    assert_unchanged(output, added)
    # Nothing of the render is left: the folder is no render now, and a build refuses it.
    assert not (output / MARKER).exists()
    # A second clean finds it clean: one line, exit 0, nothing touched.
    again = run_invoke("clean", "--output-dir", str(output))
    assert (again.returncode, again.stderr.splitlines()) == (0, [
        f"nothing to remove: {output} holds no render of this site; its 4 entries stay: CNAME, extra/, report/, theme/"])
    assert_unchanged(output, added)


@pytest.mark.parametrize("render", [build, pelican_content], ids=["staged", "in place"])
def test_a_rebuild_that_would_overwrite_a_file_the_last_render_did_not_write_stops_and_changes_nothing(archive, tmp_path,
                                                                                                      render):
    reports = archive({"s/r0.report.json": report()})
    output = tmp_path / "site"
    assert render(reports, output).returncode == 0
    (output / "report" / "s" / "r1.report.html").write_text("the user's own page\n", encoding="utf-8")
    before = tree_digest(output)
    (reports / "s" / "r1.report.json").write_text(json.dumps(report(model_name="OpenMed/other")), encoding="utf-8")

    result = render(reports, output)

    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        f"build failed: the render writes report/s/r1.report.html, which the last render did not write: move it out "
        f"of the output first; {output} is unchanged")
    assert "Traceback" not in result.stderr
    assert tree_digest(output) == before


def test_output_retention_names_are_kept_by_a_rebuild_and_by_clean_even_in_a_render_whose_marker_lists_no_files(
        reports, tmp_path):
    output = tmp_path / "site"
    assert build(reports, output).returncode == 0
    (output / MARKER).write_bytes(marker_bytes(TAG))  # a render made before markers listed their files
    (output / "CNAME").write_text("leaderboard.example.org\n", encoding="utf-8")
    (output / "notes.txt").write_text("not retained\n", encoding="utf-8")
    settings = tmp_path / "settings.py"
    settings.write_text(f"import sys\nsys.path.insert(0, {str(ROOT)!r})\nfrom pelicanconf import *\n"
                        "OUTPUT_RETENTION = ['CNAME']\n", encoding="utf-8")

    lines: list[str] = []
    runner.build(str(settings), str(output), reports_dir=str(reports), release_tag=TAG, progress=lines.append)

    assert "kept 1 entry the last render did not write: CNAME" in lines
    assert (output / "CNAME").read_text(encoding="utf-8") == "leaderboard.example.org\n"
    assert not (output / "notes.txt").exists()  # the old render counted as the build's own, whole
    assert clean(str(settings), str(output)) == (
        f"removed the render in {output}; left 1 entry it did not write: CNAME")
    assert os.listdir(output) == ["CNAME"]

