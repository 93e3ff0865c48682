"""`invoke gh-pages`: a release render becomes the gh-pages branch of a throwaway local repository."""

from __future__ import annotations

import json

import os
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, run_invoke
from tasks_support import git, small_archive

from benchmark_leaderboard.paths import FEED_PATH
from leaderboard_tools import pages_branch, release

IDENTITY = {"GIT_AUTHOR_NAME": "Release", "GIT_AUTHOR_EMAIL": "release@example.invalid",
            "GIT_COMMITTER_NAME": "Release", "GIT_COMMITTER_EMAIL": "release@example.invalid",
            "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


@pytest.fixture
def repository(tmp_path):
    """A repository with one commit on master and a clean work tree."""
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "--quiet", "--initial-branch", "master")
    (path / "README.md").write_text("the project\n", encoding="utf-8")
    git(path, "add", "README.md")
    git(path, "commit", "--quiet", "-m", "Start")
    return path


def gh_pages(repository: Path, reports: Path, tag: str, *extra: str) -> subprocess.CompletedProcess:
    return run_invoke("--search-root", str(ROOT), "gh-pages", "--release-tag", tag, "--reports-dir", str(reports),
                      "--manifest", str(repository / "none.jsonl"), *extra, cwd=repository, env=IDENTITY)


def publish(tmp_path: Path, reports: Path, tag: str) -> Path:
    output = tmp_path / f"published-{tag}"
    result = run_invoke("--search-root", str(ROOT), "publish", "--release-tag", tag, "--reports-dir", str(reports),
                        "--manifest", str(tmp_path / "none.jsonl"), "--output-dir", str(output), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return output


def verify(tmp_path: Path, reports: Path, folder: Path, tag: str) -> subprocess.CompletedProcess:
    return run_invoke("--search-root", str(ROOT), "verify", "--release-tag", tag, "--reports-dir", str(reports),
                      "--manifest", str(tmp_path / "none.jsonl"), "--output-dir", str(folder), cwd=tmp_path)


def branch_files(repository: Path, ref: str) -> dict[str, bytes]:
    names = git(repository, "ls-tree", "-r", "-z", "--name-only", ref).split("\0")
    return {name: subprocess.run(["git", "-C", str(repository), "show", f"{ref}:{name}"], capture_output=True,
                                 check=True).stdout for name in names if name}


# What the branch's root holds of its own in place of the latest release's: the feed of every kept
# release and the checksums that cover it (tests/test_feed.py).
ROOTS_OWN = (FEED_PATH, release.CHECKSUMS)


def tree_bytes(root: Path) -> dict[str, bytes]:
    """A render's files, but for those the branch's root holds of its own."""
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*"))
            if path.is_file() and path.relative_to(root).as_posix() not in ROOTS_OWN}


def root_of(files: dict[str, bytes]) -> dict[str, bytes]:
    """The branch's root without its releases/ (every kept release and their list: tests/test_releases.py)
    and its own feed and checksums."""
    return {name: data for name, data in files.items() if not name.startswith("releases/") and name not in ROOTS_OWN}


def test_one_commit_per_release_naming_its_tag(tmp_path, archive, repository):
    reports = archive(small_archive())
    first = gh_pages(repository, reports, "v1.0.0")
    assert first.returncode == 0, first.stderr
    assert git(repository, "log", "--format=%s", "gh-pages").splitlines() == ["Publish the benchmark leaderboard v1.0.0"]
    assert root_of(branch_files(repository, "gh-pages")) == tree_bytes(publish(tmp_path, reports, "v1.0.0"))

    (reports / "golden/a.report.json").write_text(
        (reports / "golden/a.report.json").read_text(encoding="utf-8").replace("model-a", "model-c"), encoding="utf-8")
    second = gh_pages(repository, reports, "v1.1.0-rc.1")
    assert second.returncode == 0, second.stderr
    assert git(repository, "log", "--format=%s", "gh-pages").splitlines() == [
        "Publish the benchmark leaderboard v1.1.0-rc.1", "Publish the benchmark leaderboard v1.0.0"]
    assert git(repository, "rev-list", "--parents", "-n", "1", "gh-pages").split()[1] == \
        git(repository, "rev-parse", "gh-pages~1").strip()
    files = branch_files(repository, "gh-pages")
    # The root is the new release, and keeps the badge of model-a, which it no longer has, saying so.
    dropped = files.pop("badge/suite-golden/OpenMed/model-a.svg")
    assert b">not in v1.1.0-rc.1 \xc2\xb7 10.00% \xc2\xb7 #2 (1\xe2\x80\x932) of 2 \xc2\xb7 v1.0.0</text>" in dropped
    assert root_of(files) == tree_bytes(publish(tmp_path, reports, "v1.1.0-rc.1"))
    assert b"OpenMed/model-c" in files["leaderboard.json"] and "SHA256SUMS" in files and ".nojekyll" in files

    # The user's branch, index and files are untouched.
    assert git(repository, "symbolic-ref", "HEAD").strip() == "refs/heads/master"
    assert git(repository, "status", "--porcelain") == ""
    assert git(repository, "log", "--format=%s", "master").splitlines() == ["Start"]
    assert sorted(path.name for path in repository.iterdir()) == [".git", "README.md"]


def test_the_same_render_again_adds_no_commit(archive, repository):
    reports = archive(small_archive())
    assert gh_pages(repository, reports, "v1.0.0").returncode == 0
    again = gh_pages(repository, reports, "v1.0.0")
    assert again.returncode == 0
    assert "gh-pages already holds this render of v1.0.0: no new commit" in again.stderr
    assert len(git(repository, "log", "--format=%s", "gh-pages").splitlines()) == 1


def test_the_branch_can_be_verified_and_pushed(tmp_path, archive, repository):
    reports = archive(small_archive())
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "--quiet", "--bare", str(remote))
    result = gh_pages(repository, reports, "v2.0.0", "--push", str(remote))
    assert result.returncode == 0, result.stderr
    assert git(remote, "rev-parse", "gh-pages") == git(repository, "rev-parse", "gh-pages")
    # Anyone can check out the pages branch and verify it against the archive.
    checkout = tmp_path / "checkout"
    git(tmp_path, "clone", "--quiet", "--branch", "gh-pages", str(remote), str(checkout))
    verified = verify(tmp_path, reports, checkout, "v2.0.0")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout == ""
    assert verified.stderr.splitlines()[0] == f"verify: ignoring .git in {checkout}"
    assert verified.stderr.splitlines()[-1].startswith(f"verified: {checkout} is identical to the render of v2.0.0 (")
    # The clone is the render of v2.0.0 and of no other release.
    other = verify(tmp_path, reports, checkout, "v2.0.1")
    assert (other.returncode, other.stdout) == (1, "")
    assert other.stderr.splitlines() == [f"verify: {checkout} is the render of v2.0.0, not of v2.0.1"]


def test_a_bad_tag_or_a_checked_out_branch_is_refused(tmp_path, archive, repository):
    reports = archive(small_archive())
    bad = gh_pages(repository, reports, "latest")
    assert bad.returncode == 2 and "release refused: the release tag 'latest'" in bad.stderr
    git(repository, "checkout", "--quiet", "-b", "gh-pages")
    busy = gh_pages(repository, reports, "v1.0.0")
    assert busy.returncode == 2
    assert busy.stderr.strip().splitlines()[-1] == (f"gh-pages: gh-pages is checked out in {os.path.realpath(repository)}; "
                                                    "switch to another branch there first")
    assert git(repository, "log", "--format=%s", "gh-pages").splitlines() == ["Start"]
    elsewhere = gh_pages(tmp_path, reports, "v1.0.0")
    assert elsewhere.returncode == 2 and elsewhere.stderr.strip().endswith("gh-pages: . is not a git repository")


def test_a_repo_elsewhere_is_checked_before_any_render_and_holds_the_previous_release(tmp_path, archive, repository):
    reports = archive(small_archive())
    elsewhere = tmp_path / "work"  # the working folder: no repository at all
    elsewhere.mkdir()

    def gh_pages_from(folder: Path, *extra: str) -> subprocess.CompletedProcess:
        return run_invoke("--search-root", str(ROOT), "gh-pages", "--release-tag", extra[0], "--reports-dir",
                          str(reports), "--manifest", str(folder / "none.jsonl"), *extra[1:], cwd=folder, env=IDENTITY)

    # Not a repository: refused in one line, before anything is rendered.
    missing = gh_pages_from(elsewhere, "v1.0.0", "--repo", str(tmp_path / "notarepo"))
    assert (missing.returncode, missing.stderr.splitlines()) == (2, [f"gh-pages: {tmp_path / 'notarepo'} is not a git repository"])
    assert list(elsewhere.iterdir()) == []

    first = gh_pages_from(elsewhere, "v1.0.0", "--repo", str(repository))
    assert first.returncode == 0, first.stderr
    # --previous names a ref of --repo's repository, read there, not in the working folder.
    second = gh_pages_from(elsewhere, "v1.1.0", "--repo", str(repository), "--previous", "gh-pages:releases/v1.0.0")
    assert second.returncode == 0, second.stderr
    files = branch_files(repository, "gh-pages")
    assert "releases/v1.1.0/changes.html" in files and "releases/v1.0.0/changes.html" not in files
    assert files["releases/v1.1.0/changes/previous-leaderboard.json"] == files["releases/v1.0.0/leaderboard.json"]
    # A ref --repo does not hold is refused as invoke diff would, naming that repository.
    unknown = gh_pages_from(elsewhere, "v1.2.0", "--repo", str(repository), "--previous", "nosuchref:releases/v1.0.0")
    assert (unknown.returncode, unknown.stderr.splitlines()) == (2, [
        f"gh-pages: the previous leaderboard nosuchref:releases/v1.0.0 is neither a file, a folder nor a git ref of the "
        f"repository {repository}"])


def test_a_branch_checked_out_in_another_worktree_is_refused(tmp_path, archive, repository):
    reports = archive(small_archive())
    assert gh_pages(repository, reports, "v1.0.0").returncode == 0
    tip = git(repository, "rev-parse", "gh-pages")
    worktree = tmp_path / "pages-worktree"
    git(repository, "worktree", "add", "--quiet", str(worktree), "gh-pages")
    busy = gh_pages(repository, reports, "v1.1.0")
    assert busy.returncode == 2
    assert busy.stderr.strip().splitlines()[-1] == (f"gh-pages: gh-pages is checked out in {os.path.realpath(worktree)}; "
                                                    "switch to another branch there first")
    assert git(repository, "rev-parse", "gh-pages") == tip
    assert git(worktree, "status", "--porcelain") == ""
    # Once that worktree is on another branch, the release goes through.
    git(worktree, "checkout", "--quiet", "--detach")
    assert gh_pages(repository, reports, "v1.1.0").returncode == 0
    assert git(repository, "rev-parse", "gh-pages~1") == tip


def test_a_cname_and_nojekyll_on_the_branch_are_kept(tmp_path, archive, repository):
    reports = archive(small_archive())
    assert gh_pages(repository, reports, "v1.0.0").returncode == 0
    # The site's owner sets a custom domain on the branch itself, as GitHub's settings page does.
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "--quiet", "--branch", "gh-pages", str(repository), str(clone))
    (clone / "CNAME").write_text("leaderboard.example.org\n", encoding="utf-8")
    git(clone, "add", "CNAME")
    git(clone, "commit", "--quiet", "-m", "Custom domain")
    git(clone, "push", "--quiet", "origin", "gh-pages")

    result = gh_pages(repository, reports, "v1.0.1")
    assert result.returncode == 0, result.stderr
    files = branch_files(repository, "gh-pages")
    assert files["CNAME"] == b"leaderboard.example.org\n"
    assert files[".nojekyll"] == b""
    rendered = tree_bytes(publish(tmp_path, reports, "v1.0.1"))
    assert {name: data for name, data in root_of(files).items() if name != "CNAME"} == rendered


def test_commit_folder_keeps_the_tips_cname_and_nojekyll_when_the_folder_has_none(tmp_path, repository):
    first = tmp_path / "first"
    first.mkdir()
    for name, data in {"index.html": b"one", "CNAME": b"example.org\n", ".nojekyll": b"", "sub/CNAME": b"x"}.items():
        (first / name).parent.mkdir(parents=True, exist_ok=True)
        (first / name).write_bytes(data)
    with pytest.MonkeyPatch.context() as patch:
        for name, value in IDENTITY.items():
            patch.setenv(name, value)
        assert pages_branch.commit_folder(str(repository), str(first), "gh-pages", "First\n")
        second = tmp_path / "second"
        second.mkdir()
        (second / "index.html").write_bytes(b"two")
        assert pages_branch.commit_folder(str(repository), str(second), "gh-pages", "Second\n")
        assert branch_files(repository, "gh-pages") == {"index.html": b"two", "CNAME": b"example.org\n", ".nojekyll": b""}
        # A folder with its own CNAME wins over the tip's.
        (second / "CNAME").write_bytes(b"other.example.org\n")
        assert pages_branch.commit_folder(str(repository), str(second), "gh-pages", "Third\n")
        assert branch_files(repository, "gh-pages")["CNAME"] == b"other.example.org\n"


def test_another_release_of_the_same_archive_is_a_new_commit(archive, repository):
    # Every report carries its own release tag: the render's marker alone names the release.
    reports = archive(small_archive())
    assert gh_pages(repository, reports, "v1.0.0").returncode == 0
    result = gh_pages(repository, reports, "v9.9.9")
    assert result.returncode == 0, result.stderr
    assert git(repository, "log", "--format=%s", "gh-pages").splitlines() == [
        "Publish the benchmark leaderboard v9.9.9", "Publish the benchmark leaderboard v1.0.0"]
    marker = json.loads(branch_files(repository, "gh-pages")[release.MARKER])
    assert (marker["generator"], marker["release_tag"]) == ("openmed-benchmark-leaderboard", "v9.9.9")


def test_a_bare_repository_receives_the_branch_as_any_other(tmp_path, archive):
    """A push mirror or a server's copy has no work tree: the branch is made with git's plumbing and a
    temporary index alone, the same commits as in a repository with one."""
    reports = archive(small_archive())
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "--quiet", "--bare", str(bare))
    first = gh_pages(tmp_path, reports, "v1.0.0", "--repo", str(bare))
    assert first.returncode == 0, first.stderr
    second = gh_pages(tmp_path, reports, "v1.1.0", "--repo", str(bare), "--previous", "gh-pages:releases/v1.0.0")
    assert second.returncode == 0, second.stderr
    assert second.stderr.splitlines()[-1] == (
        f"gh-pages is now {git(bare, 'rev-parse', 'gh-pages')[:12]}: v1.1.0 kept at releases/v1.1.0/, the root holds "
        "v1.1.0, 2 releases in releases/index.html")
    assert git(bare, "ls-tree", "--name-only", "gh-pages", "releases/").split() == [
        "releases/index.html", "releases/v1.0.0", "releases/v1.1.0"]
    # What it holds is the release as published elsewhere, and a clone of it verifies.
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "--quiet", "--branch", "gh-pages", str(bare), str(clone))
    assert tree_bytes(clone / "releases" / "v1.0.0") == tree_bytes(publish(tmp_path, reports, "v1.0.0"))
    verified = verify(tmp_path, reports, clone / "releases" / "v1.1.0", "v1.1.0")
    assert verified.returncode == 0, verified.stderr
