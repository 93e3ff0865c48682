"""The output belongs to the build only where the build made it (issue 9, findings 1-4).

A build, publish, serve, livereload or clean writes into or removes only a new or empty folder or an
earlier render (one holding .leaderboard-render.json); the folders the build reads, any folder that
contains one, and git's are refused whatever a marker says, with one line and exit 2, before any work.
A link as the output is rendered through and stays a link; the output keeps its mode."""

from __future__ import annotations

import json
import re
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, report, run_invoke, write_archive

from benchmark_leaderboard.write import output as output_module
from benchmark_leaderboard.write.output import (MARKER, marker_bytes, one_line, output_problem, protected_folders,
                                                read_marker)
from core_support import leftovers, tree_digest

TAG = "v3.1.0"
# Nothing a refused task runs may leave a byte behind, bytecode caches included.
NO_BYTECODE = {"PYTHONDONTWRITEBYTECODE": "1"}
NOT_A_RENDER = ("is not empty and has no valid .leaderboard-render.json, so it is not a render of this site; "
                "choose a new or empty folder, or an earlier render")


def refused_because_it_reads(shown: str, folder: Path, contains: bool = False) -> str:
    relation = "contains" if contains else "is"
    return f"output refused: {shown} {relation} {folder}, a folder the build reads; the output must be a folder of its own"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A home folder holding the user's own files and a fresh clone of the project (with its own .git),
    so that everything a refused task could touch is inside ``tmp_path`` and can be compared."""
    home = write_archive(tmp_path / "home", {".ssh/id_ed25519": "PRIVATE KEY", ".bashrc": "export PS1='$ '\n",
                                             "Documents/thesis.txt": "four years of work"})
    project = home / "project"
    project.mkdir()
    for name in ("pelicanconf.py", "publishconf.py", "tasks.py", "models.jsonl"):
        shutil.copy2(ROOT / name, project / name)
    for name in ("content", "theme", "plugins"):
        shutil.copytree(ROOT / name, project / name, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    return home


def invoke_in(project: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return run_invoke(*args, cwd=project, env=NO_BYTECODE, timeout=60)
    except subprocess.TimeoutExpired:  # serve and livereload that were not refused serve until stopped
        pytest.fail(f"invoke {' '.join(args)} did not stop: it was not refused")


def refusal_cases(home: Path) -> list[tuple[str, list[str], str]]:
    """(what, extra flags, the exact line) for every folder a build must never write into."""
    project = home / "project"
    reports = home / "data" / "reports"
    manifest_folder = home / "meta"
    outside = {"--reports-dir": str(reports), "--manifest": str(manifest_folder / "models.jsonl")}
    flags = [item for pair in outside.items() for item in pair]
    return [
        (".", [], refused_because_it_reads(".", project / "content", contains=True)),
        ("content", [], refused_because_it_reads("content", project / "content")),
        ("plugins", [], refused_because_it_reads("plugins", project / "plugins")),
        ("theme", [], refused_because_it_reads("theme", project / "theme")),
        ("content/benchmarks", [], refused_because_it_reads("content/benchmarks", project / "content" / "benchmarks")),
        (".git", [], f"output refused: .git is the git folder {project / '.git'}; git's files are never an output"),
        (".git/refs", [], f"output refused: .git/refs lies inside the git folder {project / '.git'}; git's files are never an output"),
        (str(reports), flags, refused_because_it_reads(str(reports), reports)),
        (str(reports.parent), flags, refused_because_it_reads(str(reports.parent), reports, contains=True)),
        (str(manifest_folder), flags, refused_because_it_reads(str(manifest_folder), manifest_folder)),
        ("", [], "output refused: the output folder is named by an empty string (an unset variable?); name the folder to write"),
        (str(home), [], refused_because_it_reads(str(home), project / "content", contains=True)),
        ("/", [], refused_because_it_reads("/", project / "content", contains=True)),
        (str(home / "Documents"), [], f"output refused: {home / 'Documents'} {NOT_A_RENDER}"),
    ]


def test_a_build_refuses_every_folder_it_reads_or_does_not_own_and_changes_nothing(home, tmp_path):
    project = home / "project"
    write_archive(home / "data" / "reports", {"a.report.json": report()})
    (home / "meta").mkdir()
    (home / "meta" / "models.jsonl").write_text("", encoding="utf-8")
    before = tree_digest(tmp_path)
    for output, flags, line in refusal_cases(home):
        result = invoke_in(project, "build", "--release-tag", TAG, "--output-dir", output, *flags)
        assert (result.returncode, result.stderr.splitlines(), result.stdout) == (2, [line], ""), output
        assert tree_digest(tmp_path) == before, output


@pytest.mark.parametrize("task", ["publish", "clean", "serve", "livereload"])
def test_publish_clean_serve_and_livereload_refuse_the_same_folders_before_any_work(home, tmp_path, task):
    project = home / "project"
    before = tree_digest(tmp_path)
    flags = {"publish": ["--release-tag", TAG], "clean": [], "serve": ["--port", "0"], "livereload": ["--port", "0"]}[task]
    documents = home / "Documents"
    for output, status, line in [
            (".", 2, refused_because_it_reads(".", project / "content", contains=True)),
            ("", 2, refusal_cases(home)[10][2]),
            # clean has nothing to remove in a folder that holds no render (the build is refused there).
            (str(documents), 0, f"nothing to remove: {documents} holds no render of this site; its 1 entry stays: thesis.txt")
            if task == "clean" else (str(documents), 2, f"output refused: {documents} {NOT_A_RENDER}")]:
        result = invoke_in(project, task, "--output-dir", output, *flags)
        assert (result.returncode, result.stderr.splitlines()) == (status, [line]), output
        assert tree_digest(tmp_path) == before, output


def test_a_folder_that_holds_a_git_entry_is_never_an_output_even_with_a_marker(tmp_path):
    worktree = tmp_path / "worktree"
    worktree.mkdir()
    (worktree / ".git").write_text("gitdir: /elsewhere/.git/worktrees/w\n", encoding="utf-8")
    (worktree / MARKER).write_bytes(marker_bytes(TAG))
    before = tree_digest(tmp_path)
    result = run_invoke("build", "--release-tag", TAG, "--output-dir", str(worktree))
    assert (result.returncode, result.stderr.splitlines()) == (
        2, [f"output refused: {worktree} holds .git: it is a git repository or worktree, never an output"])
    assert tree_digest(tmp_path) == before


def test_a_build_replaces_an_earlier_render_and_an_empty_folder_but_nothing_else(archive, tmp_path):
    reports = archive({"a.report.json": report()})
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run_invoke("build", "--reports-dir", str(reports), "--release-tag", TAG, "--output-dir", str(empty))
    assert result.returncode == 0, result.stderr
    marker = json.loads((empty / MARKER).read_bytes())
    files = marker.pop("files")
    assert files == sorted(tree_digest(empty))  # every file the render wrote
    # and what each of the leaderboard's own was made from: its pages and files, not Pelican's or the theme's
    digests = marker.pop("digests")
    assert {"index.html", "leaderboard.json", "report/a.report.html", "reports/a.report.json"} <= set(digests)
    assert set(digests) < set(files) and not {"adding-reports.html", "sitemap.xml", MARKER} & set(digests)
    assert all(re.fullmatch("[0-9a-f]{32}", found) for found in digests.values())
    assert marker == json.loads(marker_bytes(TAG))
    again = run_invoke("build", "--reports-dir", str(reports), "--release-tag", TAG, "--output-dir", str(empty))
    assert again.returncode == 0, again.stderr

    (empty / MARKER).write_text('{"generator": "someone else"}', encoding="utf-8")  # a marker that is not ours
    before = tree_digest(tmp_path)
    refused = run_invoke("build", "--reports-dir", str(reports), "--release-tag", TAG, "--output-dir", str(empty))
    assert (refused.returncode, refused.stderr.splitlines()) == (2, [f"output refused: {empty} {NOT_A_RENDER}"])
    assert tree_digest(tmp_path) == before


def test_a_link_as_the_output_renders_into_its_target_and_stays_a_link(archive, tmp_path):
    www = tmp_path / "www"
    target = www / "leaderboard"
    first = archive({"old.report.json": report()}, name="first")
    assert run_invoke("build", "--reports-dir", str(first), "--release-tag", TAG, "--output-dir", str(target)).returncode == 0
    (www / "keep.txt").write_text("the web server's own file", encoding="utf-8")
    link = tmp_path / "output"
    link.symlink_to("www/leaderboard", target_is_directory=True)

    second = archive({"new.report.json": report()}, name="second")
    result = run_invoke("build", "--reports-dir", str(second), "--release-tag", TAG, "--output-dir", str(link))
    assert result.returncode == 0, result.stderr

    assert link.is_symlink() and os.readlink(link) == "www/leaderboard"
    assert sorted(path.name for path in (target / "reports").iterdir()) == ["new.report.json"]
    assert (target / MARKER).is_file()
    assert (www / "keep.txt").read_text(encoding="utf-8") == "the web server's own file"
    assert sorted(os.listdir(www)) == ["keep.txt", "leaderboard"]
    assert sorted(os.listdir(tmp_path)) == ["first", "output", "second", "www"]


def test_a_link_to_a_folder_of_someone_else_s_files_is_refused_and_nothing_is_deleted(tmp_path):
    site = write_archive(tmp_path / "www", {"index.html": "hand-made", "img/logo.png": b"\x89PNG"})
    link = tmp_path / "output"
    link.symlink_to(site, target_is_directory=True)
    before = tree_digest(tmp_path)
    result = run_invoke("build", "--release-tag", TAG, "--output-dir", str(link))
    assert (result.returncode, result.stderr.splitlines()) == (2, [f"output refused: {link} {NOT_A_RENDER}"])
    assert tree_digest(tmp_path) == before and link.is_symlink()


def run_with_umask(mask: int, *args: str) -> subprocess.CompletedProcess:
    invoke = str(Path(sys.executable).parent / "invoke")
    return subprocess.run([invoke, *args], cwd=ROOT, capture_output=True, encoding="utf-8", timeout=120,
                          preexec_fn=lambda: os.umask(mask))


def test_a_new_output_gets_the_umask_s_mode_and_an_existing_one_keeps_its_own(archive, tmp_path):
    reports = archive({"a.report.json": report()})
    output = tmp_path / "site"
    assert run_with_umask(0o027, "build", "--reports-dir", str(reports), "--release-tag", TAG,
                          "--output-dir", str(output)).returncode == 0
    assert stat.S_IMODE(output.stat().st_mode) == 0o750

    output.chmod(0o755)
    assert run_with_umask(0o077, "build", "--reports-dir", str(reports), "--release-tag", TAG,
                          "--output-dir", str(output)).returncode == 0
    assert stat.S_IMODE(output.stat().st_mode) == 0o755


# --- clean ----------------------------------------------------------------------------------------

def clean(output: Path) -> subprocess.CompletedProcess:
    return run_invoke("clean", "--output-dir", str(output))


def test_clean_leaves_a_folder_without_a_marker_as_it_is_and_refuses_one_with_a_broken_marker(tmp_path):
    # No marker: nothing there was written by a render, whatever it holds (a leaderboard.json too).
    folder = write_archive(tmp_path / "archive", {"leaderboard.json": {"rows": []}, "a.report.json": report(),
                                                  "notes/README.md": "how these were made"})
    before = tree_digest(tmp_path)
    result = clean(folder)
    assert (result.returncode, result.stderr.splitlines()) == (0, [
        f"nothing to remove: {folder} holds no render of this site; its 3 entries stay: a.report.json, leaderboard.json, notes/"])
    assert tree_digest(tmp_path) == before
    # A marker that is not a render's: maybe a render's, damaged; clean does not judge it empty of the site's.
    (folder / MARKER).write_text("{}", encoding="utf-8")
    before = tree_digest(tmp_path)
    result = clean(folder)
    assert (result.returncode, result.stderr.splitlines()) == (2, [f"output refused: {folder} {NOT_A_RENDER}"])
    assert tree_digest(tmp_path) == before


def test_clean_removes_a_render_an_empty_folder_and_only_the_runner_s_own_leftovers(archive, tmp_path):
    output = tmp_path / "out"
    assert run_invoke("build", "--reports-dir", str(archive({"a.report.json": report()})), "--release-tag", TAG,
                      "--output-dir", str(output)).returncode == 0
    (tmp_path / ".out.new-0123456789ab").mkdir()  # what a killed build leaves
    (tmp_path / ".out.old-ba9876543210").mkdir()
    (tmp_path / ".out.new-mine").mkdir()  # not a name the runner makes
    result = clean(output)
    assert (result.returncode, result.stderr.splitlines()) == (0, [f"removed {output}"])
    assert sorted(os.listdir(tmp_path)) == [".out.new-mine", "reports"]

    output.mkdir()
    assert clean(output).stderr.splitlines() == [f"removed {output}"] and not output.exists()
    assert clean(output).stderr.splitlines() == [f"nothing to remove: {output} does not exist"]


def test_clean_through_a_link_empties_its_target_and_keeps_the_link(archive, tmp_path):
    target = tmp_path / "www" / "leaderboard"
    assert run_invoke("build", "--reports-dir", str(archive({"a.report.json": report()})), "--release-tag", TAG,
                      "--output-dir", str(target)).returncode == 0
    (tmp_path / "www" / "keep.txt").write_text("kept", encoding="utf-8")
    link = tmp_path / "output"
    link.symlink_to(target, target_is_directory=True)
    result = clean(link)
    assert (result.returncode, result.stderr.splitlines()) == (
        0, [f"removed the render in {link}; the link and the folder it leads to stay"])
    assert link.is_symlink() and target.is_dir() and os.listdir(target) == []
    assert (tmp_path / "www" / "keep.txt").read_text(encoding="utf-8") == "kept"


# --- the rules, one by one ------------------------------------------------------------------------

def test_the_marker_is_canonical_json_naming_the_generator_and_the_release():
    assert marker_bytes("v3.1.0") == (b'{\n  "generator": "openmed-benchmark-leaderboard",\n  "marker": 1,\n'
                                      b'  "release_tag": "v3.1.0"\n}\n')
    assert json.loads(marker_bytes(None)) == {"generator": "openmed-benchmark-leaderboard", "marker": 1, "release_tag": None}


@pytest.mark.parametrize("content, valid", [
    (marker_bytes("v1.0.0"), True),
    (marker_bytes(None), True),
    (b'{"generator": "openmed-benchmark-leaderboard", "marker": 1, "release_tag": "v1"}', True),
    (b'{"generator": "openmed-benchmark-leaderboard", "marker": true, "release_tag": "v1"}', False),
    (b'{"generator": "openmed-benchmark-leaderboard", "marker": 2, "release_tag": "v1"}', False),
    (b'{"generator": "sphinx", "marker": 1, "release_tag": "v1"}', False),
    (b'{"generator": "openmed-benchmark-leaderboard", "marker": 1, "release_tag": 3}', False),
    (b'{"generator": "openmed-benchmark-leaderboard", "marker": 1, "release_tag": null, "x": 0}', False),
    (b"[]", False),
    (b"\xff", False),
    (marker_bytes("v1.0.0", ["index.html", "report/a b.html"]), True),
    (b'{"generator": "openmed-benchmark-leaderboard", "marker": 1, "release_tag": null, "files": "index.html"}', False),
    (b'{"generator": "openmed-benchmark-leaderboard", "marker": 1, "release_tag": null, "files": [1]}', False),
    (b" " * 5000 + marker_bytes(None), False),
])
def test_only_a_regular_file_of_the_marker_s_shape_marks_a_render(tmp_path, monkeypatch, content, valid):
    monkeypatch.setattr(output_module, "MARKER_MAX_BYTES", 4096)  # a file larger than the limit is no marker
    (tmp_path / MARKER).write_bytes(content)
    assert (read_marker(str(tmp_path)) is not None) is valid


def test_a_link_fifo_or_folder_named_like_the_marker_is_no_marker_and_is_never_opened(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "real.json").write_bytes(marker_bytes(None))
    linked, fifo, folder = tmp_path / "linked", tmp_path / "fifo", tmp_path / "folder"
    for path in (linked, fifo, folder):
        path.mkdir()
    (linked / MARKER).symlink_to(elsewhere / "real.json")
    os.mkfifo(fifo / MARKER)  # opening it for reading would wait for a writer forever
    (folder / MARKER).mkdir()
    assert [read_marker(str(path)) for path in (linked, fifo, folder, tmp_path / "missing")] == [None] * 4


def test_protected_folders_resolve_relative_reports_and_manifest_against_path(tmp_path):
    settings = {"PATH": str(tmp_path / "content"), "PLUGIN_PATHS": [str(tmp_path / "plugins")],
                "THEME": str(tmp_path / "theme"), "LEADERBOARD_REPORTS_DIR": "benchmarks",
                "LEADERBOARD_MANIFEST": "../models.jsonl"}
    assert protected_folders(settings) == [str(tmp_path / "content"), str(tmp_path / "plugins"), str(tmp_path / "theme"),
                                           str(tmp_path / "content" / "benchmarks"), str(tmp_path)]


def test_an_output_problem_is_one_line_whatever_the_name_holds(tmp_path):
    folder = tmp_path / "a\nb\x1b[31m"
    folder.mkdir()
    (folder / "mine.txt").write_text("x", encoding="utf-8")
    problem = output_problem(str(folder), [])
    assert problem == f"output refused: {tmp_path}/a\\nb\\x1b[31m {NOT_A_RENDER}"
    assert one_line("plain é 東京") == "plain é 東京"


def test_an_output_that_holds_only_a_killed_build_s_working_folders_counts_as_empty(tmp_path):
    (tmp_path / ".leaderboard-staging-0123456789ab").mkdir()
    (tmp_path / ".leaderboard.lock").write_bytes(b"")
    assert output_problem(str(tmp_path), []) is None
    (tmp_path / ".leaderboard-staging-mine").mkdir()
    assert output_problem(str(tmp_path), []) == f"output refused: {tmp_path} {NOT_A_RENDER}"


def test_an_output_inside_the_reports_folder_is_refused_since_its_copies_would_be_read_as_reports(archive, tmp_path):
    reports = archive({"a.report.json": report()})
    inside = reports / "site"
    result = run_invoke("build", "--reports-dir", str(reports), "--output-dir", str(inside), "--release-tag", TAG)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"output refused: {inside} lies inside the reports folder {reports}, where the next build would read its "
        "copies as reports; the output must be a folder of its own"]
    assert not inside.exists()
