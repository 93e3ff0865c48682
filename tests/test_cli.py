"""`invoke build` as a user runs it: the summary, exit codes, one stderr line per problem, and an
output folder that is replaced whole or not at all (refused, interrupted by SIGINT or SIGTERM)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, report, run_invoke, write_archive

from benchmarks.make_archive import make_archive
from core_support import leftovers, tree_digest, write_manifest


def build_args(reports: Path, output: Path, *more: str) -> list[str]:
    return ["build", "--reports-dir", str(reports), "--output-dir", str(output), *more]


def test_a_build_prints_its_one_line_summary_and_writes_the_site(archive, tmp_path):
    reports = archive({"a.report.json": report(), "b/c.report.json": report(suite="other", metadata={"model_family": "NER"})})
    output = tmp_path / "site"
    result = run_invoke(*build_args(reports, output))
    assert result.returncode == 0, result.stderr
    files = sum(len(names) for _, _, names in os.walk(output))
    assert re.fullmatch(rf"leaderboard: 2 rows, 2 suites, 2 families, {files} files written in \d+\.\d\d s",
                        result.stderr.splitlines()[-1])
    assert result.stdout == ""
    assert {"index.html", "leaderboard.json", "reports", "report"} <= set(os.listdir(output))
    assert leftovers(output) == []


def test_a_rebuild_says_how_many_of_its_files_it_wrote_and_how_many_it_linked(archive, tmp_path):
    reports = archive({"a.report.json": report(), "b.report.json": report(model_name="OpenMed/model-b")})
    output = tmp_path / "site"
    assert run_invoke(*build_args(reports, output)).returncode == 0
    # Every file of the first render, kept linked here, so that its inodes stay its own.
    first = {}
    for path in sorted(p for p in output.rglob("*") if p.is_file()):
        first[path.relative_to(output).as_posix()] = path.stat().st_ino
        (tmp_path / "kept" / path.relative_to(output)).parent.mkdir(parents=True, exist_ok=True)
        os.link(path, tmp_path / "kept" / path.relative_to(output))
    # One report changes: its page, its copy and the files of every row are written again.
    (reports / "b.report.json").write_text(json.dumps(report(model_name="OpenMed/model-b", device="cuda")), encoding="utf-8")
    result = run_invoke(*build_args(reports, output))
    assert result.returncode == 0, result.stderr
    files = {path.relative_to(output).as_posix(): path.stat().st_ino for path in output.rglob("*") if path.is_file()}
    linked = sum(first.get(relative) == inode for relative, inode in files.items())
    assert 0 < linked < len(files)
    said = re.escape(f"leaderboard: 2 rows, 1 suite, 1 family, {len(files)} files ({len(files) - linked} written, "
                     f"{linked} kept unchanged from the last render) in ") + r"\d+\.\d\d s"
    assert re.fullmatch(said, result.stderr.splitlines()[-1]), result.stderr


def test_every_problem_of_every_file_is_one_line_and_the_build_exits_1(archive, tmp_path):
    broken = report(suite=" ", fixture_count=True, metadata={"synthetic": "true"})
    del broken["metrics"]["leakage"]
    reports = archive({
        "a.report.json": report(),
        "b/broken.report.json": broken,
        "c.json": "{",
        "d.json": b"\xff\xfe{}",
        "e.report.json": [report()],
        "x.json/inside.txt": "a folder named x.json",
        "z.report.json": report(metrics={"exact_span_f1": {"recall": 1.5, "f1": 0.8}}),
    })
    manifest = write_manifest(tmp_path / "models.jsonl", {"repo_id": "OpenMed/x"}, "", "not json")
    output = tmp_path / "site"
    result = run_invoke(*build_args(reports, output, "--manifest", str(manifest)))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"rendering {reports} into {output}",
        "models.jsonl line 3: is not valid JSON: Expecting value",
        "b/broken.report.json: /fixture_count: must be an integer, not true",
        "b/broken.report.json: /metadata/synthetic: must be exactly true: only reports marked synthetic are published",
        "b/broken.report.json: /metrics: leakage is missing: expected a value at metrics.leakage.overall, metrics.leakage_rate.overall, metrics.leakage_rate, metrics.critical_leakage_rate",
        "b/broken.report.json: /suite: must not be empty or only white space",
        "c.json: is not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2",
        "d.json: is not UTF-8 text (byte 0)",
        "e.report.json: a file named *.report.json must hold a JSON object",
        "x.json: is a folder named like a JSON file; it cannot be read",
        "z.report.json: /metrics/exact_span_f1/recall: recall must be a number from 0 to 1, found 1.5",
        f"build refused: 10 problems; {output} is unchanged",
    ]
    assert not output.exists() and leftovers(output) == []


def test_there_is_no_default_release_tag_the_bundled_archive_builds_only_with_its_own(tmp_path):
    output = tmp_path / "site"
    refused = run_invoke("build", "--output-dir", str(output))
    assert refused.returncode == 1
    assert refused.stderr.splitlines() == [
        f"rendering the archive named in pelicanconf.py into {output}",
        "discharge-summaries/legacy/zero-shot.report.json: /metadata/release_tag: release tag: none given; "
        "set metadata.release_tag or metadata.release, or build with --release-tag",
        f"build refused: 1 problem; {output} is unchanged",
    ]
    assert not output.exists() and leftovers(output) == []

    built = run_invoke("build", "--output-dir", str(output), "--release-tag", "v3.1.0")
    assert built.returncode == 0, built.stderr
    rows = json.loads((output / "leaderboard.json").read_text(encoding="utf-8"))["rows"]
    [untagged] = [row for row in rows if row["report_path"] == "discharge-summaries/legacy/zero-shot.report.json"]
    assert untagged["release_tag"] == "v3.1.0"


def test_a_dangling_symlink_is_simply_skipped(archive, tmp_path):
    reports = archive({"a.report.json": report()})
    os.symlink(tmp_path / "nowhere.report.json", reports / "dangling.report.json")
    result = run_invoke(*build_args(reports, tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "site" / "reports").iterdir()) == ["a.report.json"]


@pytest.mark.parametrize("case", ["missing reports", "reports is a file", "manifest is a folder", "output is a file", "manifest not utf-8"])
def test_unusable_inputs_are_one_clear_line_and_exit_2(archive, tmp_path, case):
    reports = archive({"a.report.json": report()})
    output = tmp_path / "site"
    extra: list[str] = []
    if case == "missing reports":
        reports, expected = tmp_path / "absent", f"build failed: the reports folder {tmp_path / 'absent'} does not exist"
    elif case == "reports is a file":
        reports = write_archive(tmp_path, {"file.json": report()}) / "file.json"
        expected = f"build failed: the reports folder {reports} is not a folder"
    elif case == "manifest is a folder":
        (tmp_path / "models.jsonl").mkdir()
        extra, expected = ["--manifest", str(tmp_path / "models.jsonl")], f"build failed: the manifest {tmp_path / 'models.jsonl'} is a folder, not a models.jsonl file"
    elif case == "output is a file":
        output.write_text("not a folder")
        expected = f"output refused: {output} exists and is not a folder"
    else:
        (tmp_path / "models.jsonl").write_bytes(b'{"repo_id": "caf\xe9"}\n')
        extra, expected = ["--manifest", str(tmp_path / "models.jsonl")], f"build failed: the manifest {tmp_path / 'models.jsonl'} is not UTF-8 text (byte 16)"
    result = run_invoke(*build_args(reports, output, *extra))
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == expected
    assert len([line for line in result.stderr.splitlines() if line.startswith(("build failed", "output refused"))]) == 1
    assert "Traceback" not in result.stderr
    assert leftovers(output) == []


def test_a_refused_build_leaves_the_output_byte_identical_and_no_temporary_folder(archive, tmp_path):
    output = tmp_path / "site"
    good = archive({"a.report.json": report()}, name="good")
    assert run_invoke(*build_args(good, output)).returncode == 0
    (output / "hand-made.txt").write_text("kept")
    before = tree_digest(output)
    bad = archive({"a.report.json": report(), "b.report.json": report(metadata={"synthetic": False})}, name="bad")
    result = run_invoke(*build_args(bad, output))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert tree_digest(output) == before
    assert leftovers(output) == []


def test_a_successful_build_replaces_all_the_last_render_wrote_and_keeps_what_it_did_not(archive, tmp_path):
    output = tmp_path / "site"
    assert run_invoke(*build_args(archive({"old.report.json": report()}, name="first"), output)).returncode == 0
    (output / "stray.txt").write_text("someone else's")
    rebuilt = run_invoke(*build_args(archive({"new.report.json": report()}, name="second"), output))
    assert rebuilt.returncode == 0
    assert "kept 1 entry the last render did not write: stray.txt" in rebuilt.stderr.splitlines()
    assert (output / "stray.txt").read_text() == "someone else's"
    assert not (output / "reports" / "old.report.json").exists() and not (output / "report" / "old.report.html").exists()
    assert (output / "reports" / "new.report.json").is_file()
    assert leftovers(output) == []


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_build_leaves_the_old_output_and_no_temporary_folder(archive, tmp_path, signum):
    make_archive(tmp_path / "big", 5000)  # long enough to be interrupted mid-way
    output = tmp_path / "site"
    assert run_invoke(*build_args(archive({"a.report.json": report()}), output)).returncode == 0
    before = tree_digest(output)
    invoke = str(Path(sys.executable).parent / "invoke")
    args = build_args(tmp_path / "big" / "reports", output, "--manifest", str(tmp_path / "big" / "models.jsonl"))
    process = subprocess.Popen([invoke, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        # Wait until Pelican is writing report pages into the staging folder, then interrupt.
        while not any((tmp_path / name / "report").is_dir() for name in leftovers(output)):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the build never started writing"
            time.sleep(0.02)
        process.send_signal(signum)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert leftovers(output) == []
    assert tree_digest(output) == before
    assert process.returncode == 128 + signum, stderr
    assert stderr.splitlines()[-1] == f"build interrupted by {signal.Signals(signum).name}; {output} keeps its last complete render"
    assert "Traceback" not in stderr


def test_the_summary_counts_one_of_each_in_the_singular(archive, tmp_path):
    reports = archive({"a.report.json": report()})
    result = run_invoke(*build_args(reports, tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"leaderboard: 1 row, 1 suite, 1 family, \d+ files written in \d+\.\d\d s",
                        result.stderr.splitlines()[-1])


@pytest.mark.parametrize("tag, line", [
    ("", "build refused: --release-tag must not be empty: give the release, such as v3.1.0, or leave the flag out"),
    ("  ", "build refused: --release-tag must not be empty: give the release, such as v3.1.0, or leave the flag out"),
    ("v3.1.0\nx", "build refused: --release-tag must be one line without control characters, not 'v3.1.0\\nx'"),
    ("v3.1.0\tx", "build refused: --release-tag must be one line without control characters, not 'v3.1.0\\tx'"),
    ("v3.1.0\u2028x", "build refused: --release-tag must be one line without control characters, not 'v3.1.0\\u2028x'"),
    ("v3.1.0\u202ex", "build refused: --release-tag must not hold a bidirectional control, not 'v3.1.0\\u202ex'"),
])
def test_a_release_tag_that_is_not_one_line_of_text_exits_2_with_one_line(tag, line, archive, tmp_path):
    reports = archive({"a.report.json": report(metadata={"release_tag": None})})
    result = run_invoke(*build_args(reports, tmp_path / "site", "--release-tag", tag))
    assert (result.returncode, result.stderr.splitlines()) == (2, [line])
    assert not (tmp_path / "site").exists()


def test_a_release_tag_of_one_line_is_the_tag_of_reports_that_carry_none(archive, tmp_path):
    # As the reference renderer: any text of one line, a version or not.
    payload = report()
    del payload["metadata"]["release_tag"]
    reports = archive({"a.report.json": payload})
    result = run_invoke(*build_args(reports, tmp_path / "site", "--release-tag", "not a tag"))
    assert result.returncode == 0, result.stderr
    assert json.loads((tmp_path / "site" / "leaderboard.json").read_text(encoding="utf-8"))["rows"][0]["release_tag"] == "not a tag"
