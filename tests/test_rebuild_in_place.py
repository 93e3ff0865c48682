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


def preview_build(reports: Path, output: Path) -> None:
    """A build as the preview's rebuilds run it: in this process, reads kept, the edited reports first."""
    from leaderboard_tools.runner import build

    build(SETTINGS, str(output), reports_dir=str(reports), release_tag=TAG, progress=lambda line: None,
          extra={"LEADERBOARD_KEEP_READS": True, "LEADERBOARD_WORKERS": 1}, first=True)


@pytest.fixture
def at_the_end_of_the_render():
    """Calls the function it is given where the plugin has written every file and the runner has
    not yet put the render in place (the plugin's ``leaderboard_written``); disconnected afterwards."""
    from benchmark_leaderboard.generator import leaderboard_written

    connected = []

    def connect(function) -> None:
        def receiver(sender, **kwargs) -> None:
            function()
        connected.append(receiver)
        leaderboard_written.connect(receiver)

    yield connect
    for receiver in connected:
        leaderboard_written.disconnect(receiver)


def test_a_preview_save_puts_the_edited_report_s_page_in_place_before_the_rest_of_the_render(
        archive, tmp_path, at_the_end_of_the_render):
    reports = archive(files(tmp_path))
    output = tmp_path / "site"
    preview_build(reports, output)
    old_page, old_index, old_marker = ((output / name).read_bytes() for name in (PAGE, "index.html", MARKER))
    # The edited report's row moves to the top: its page and the index both change.
    changed = report(model_name="OpenMed/model-b", metrics={"leakage": {**report()["metrics"]["leakage"],
                                                                        "overall": 0.0, "leaked_chars": 0}})
    (reports / "b.report.json").write_text(json.dumps(changed), encoding="utf-8")
    seen = {}
    at_the_end_of_the_render(lambda: seen.update(
        {name: (output / name).read_bytes() for name in (PAGE, "index.html", MARKER)}))
    preview_build(reports, output)
    # While the rest was made, the page was already the new one; the index and the marker were the old ones.
    assert seen[PAGE] != old_page and seen[PAGE] == (output / PAGE).read_bytes()
    assert seen["index.html"] == old_index != (output / "index.html").read_bytes()
    assert seen[MARKER] == old_marker != (output / MARKER).read_bytes()
    fresh = tmp_path / "fresh"
    invoke_build(reports, fresh)
    assert tree_digest(output) == tree_digest(fresh)


def test_a_preview_save_that_fails_after_its_first_page_puts_the_old_page_back(
        archive, tmp_path, at_the_end_of_the_render):
    reports = archive(files(tmp_path))
    output = tmp_path / "site"
    preview_build(reports, output)
    before = tree_digest(output)
    changed = report(model_name="OpenMed/model-b", metadata={"notes": "run again"})
    (reports / "b.report.json").write_text(json.dumps(changed), encoding="utf-8")
    page = []

    def fail() -> None:
        page.append((output / PAGE).read_bytes())
        raise OSError(28, "No space left on device", str(output / "index.html"))

    at_the_end_of_the_render(fail)
    from leaderboard_tools.faults import BuildError

    with pytest.raises(BuildError):
        preview_build(reports, output)
    assert page and page[0] != (output / PAGE).read_bytes()  # the page had been put in place, and went back
    assert tree_digest(output) == before
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["reports", "site"]  # nothing of the build's left


def test_a_page_that_shows_the_file_count_or_a_model_with_no_row_is_made_again_when_it_changes(archive, tmp_path):
    # The index, overridden to show what the board holds beyond its rows: how many files were read and
    # the manifest's models, one of which has no row. A rebuild after either changes must show it.
    overrides = tmp_path / "templates"
    overrides.mkdir()
    shown = ('<p class="held">{{ leaderboard.files_read }} files read; in the manifest: '
             '{{ leaderboard.manifest|sort|join(", ") }}</p>\n')
    index = (ROOT / "theme" / "templates" / "leaderboard.html").read_text(encoding="utf-8")
    (overrides / "leaderboard.html").write_text(index.replace("{% block content %}", "{% block content %}" + shown, 1),
                                                encoding="utf-8")
    reports = archive(files(tmp_path))
    manifest = tmp_path / "models.jsonl"
    manifest.write_text('{"repo_id": "OpenMed/model-b", "family": "PII"}\n', encoding="utf-8")

    def build(output: Path) -> str:
        from leaderboard_tools.runner import build

        build(SETTINGS, str(output), reports_dir=str(reports), manifest=str(manifest), release_tag=TAG,
              extra={"THEME_TEMPLATES_OVERRIDES": [str(overrides)]}, progress=lambda line: None)
        return (output / "index.html").read_text(encoding="utf-8")

    output = tmp_path / "site"
    assert "3 files read; in the manifest: OpenMed/model-b</p>" in build(output)
    (reports / "notes.json").write_text('{"about": "not a report"}', encoding="utf-8")
    assert "4 files read; in the manifest: OpenMed/model-b</p>" in build(output)
    with manifest.open("a", encoding="utf-8") as lines:
        lines.write('{"repo_id": "OpenMed/not-yet-run", "family": "PII"}\n')
    assert "in the manifest: OpenMed/model-b, OpenMed/not-yet-run</p>" in build(output)
    fresh = tmp_path / "fresh"
    build(fresh)
    assert tree_digest(output) == tree_digest(fresh)
