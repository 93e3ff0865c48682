"""A permanent address per release: `invoke gh-pages` keeps every release at releases/<tag>/ of a
throwaway repository's pages branch, never rewritten, the highest version at the root and
releases/index.html listing them all; `invoke verify` checks a kept release and the root."""

from __future__ import annotations

import hashlib
import json

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, report, run_invoke, write_archive
from tasks_support import git

from benchmark_leaderboard.paths import FEED_PATH
from leaderboard_tools import release
from leaderboard_tools.build_settings import pelican_settings

SITE = "https://openmed.life/docs/eval/benchmark-leaderboard"
IDENTITY = {"GIT_AUTHOR_NAME": "Release", "GIT_AUTHOR_EMAIL": "release@example.invalid",
            "GIT_COMMITTER_NAME": "Release", "GIT_COMMITTER_EMAIL": "release@example.invalid",
            "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def header(marker: bytes) -> bytes:
    """A render's marker without its list of files: what names the release."""
    document = json.loads(marker)
    assert "index.html" in document.pop("files")
    return (json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8")

def archive_of(tag: str, leakage_a: float, extra: dict | None = None) -> dict:
    metadata = {"release_tag": tag}
    files = {"golden/a.report.json": report(model_name="OpenMed/model-a", metadata=metadata,
                                            metrics={"leakage": {"overall": leakage_a}}),
             "golden/b.report.json": report(model_name="OpenMed/model-b", metadata=metadata,
                                            metrics={"leakage": {"overall": 0.05}})}
    return {**files, **(extra or {})}


ARCHIVES = {
    "v1.0.0": archive_of("v1.0.0", 0.1),
    "v1.1.0": archive_of("v1.1.0", 0.2),
    # Published last, though a lower version than v1.1.0: a patch of v1.0.0 with one row more.
    "v1.0.1": archive_of("v1.0.1", 0.1, {"clinical/c.report.json": report(
        model_name="OpenMed/model-c", suite="clinical", generated_at="2026-07-01T09:30:00Z",
        metadata={"release_tag": "v1.0.1"})}),
}


class Pages:
    """A repository with one commit on master, whose gh-pages branch receives the releases."""

    def __init__(self, root: Path):
        self.root = root
        self.repository = root / "repo"
        self.repository.mkdir()
        git(self.repository, "init", "--quiet", "--initial-branch", "master")
        (self.repository / "README.md").write_text("the project\n", encoding="utf-8")
        git(self.repository, "add", "README.md")
        git(self.repository, "commit", "--quiet", "-m", "Start")
        self.archives = {tag: write_archive(root / "archives" / tag, files) for tag, files in ARCHIVES.items()}

    def gh_pages(self, tag: str, archive: str | None = None, *extra: str) -> subprocess.CompletedProcess:
        return run_invoke("--search-root", str(ROOT), "gh-pages", "--release-tag", tag, "--reports-dir",
                          str(self.archives[archive or tag]), "--manifest", str(self.root / "none.jsonl"), *extra,
                          cwd=self.repository, env=IDENTITY)

    def verify(self, tag: str, folder: Path, archive: str | None = None) -> subprocess.CompletedProcess:
        return run_invoke("--search-root", str(ROOT), "verify", "--release-tag", tag, "--reports-dir",
                          str(self.archives[archive or tag]), "--manifest", str(self.root / "none.jsonl"),
                          "--output-dir", str(folder), cwd=self.root)

    def tip(self) -> str:
        return git(self.repository, "rev-parse", "gh-pages").strip()

    def files(self, ref: str, under: str = "") -> dict[str, bytes]:
        """The blobs of ``ref`` (below ``under``, relative to it), read with git."""
        spec = f"{ref}:{under}" if under else ref
        names = git(self.repository, "ls-tree", "-r", "-z", "--name-only", spec).split("\0")
        return {name: subprocess.run(["git", "-C", str(self.repository), "cat-file", "blob", f"{spec}/{name}" if under
                                      else f"{ref}:{name}"], capture_output=True, check=True).stdout
                for name in names if name}


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """v1.0.0, then v1.1.0 and v1.0.1, each compared with v1.0.0 (its changes page)."""
    made = Pages(tmp_path_factory.mktemp("releases"))
    made.runs = {}
    made.commits = {}
    for tag, extra in (("v1.0.0", ()), ("v1.1.0", ("--previous", "gh-pages:releases/v1.0.0")),
                       ("v1.0.1", ("--previous", "gh-pages:releases/v1.0.0"))):
        made.runs[tag] = made.gh_pages(tag, None, *extra)
        assert made.runs[tag].returncode == 0, made.runs[tag].stderr
        made.commits[tag] = made.tip()
    return made


def test_each_release_is_kept_in_its_folder_and_the_root_holds_the_highest_version(pages):
    tip = pages.commits["v1.0.1"]
    assert git(pages.repository, "log", "--format=%s", "gh-pages").splitlines() == [
        f"Publish the benchmark leaderboard {tag}" for tag in ("v1.0.1", "v1.1.0", "v1.0.0")]
    assert git(pages.repository, "ls-tree", "--name-only", tip, "releases/").split() == [
        "releases/index.html", "releases/v1.0.0", "releases/v1.0.1", "releases/v1.1.0"]
    # The root is v1.1.0 (not v1.0.1, published last), byte for byte, beside releases/, but for the feed
    # of every kept release in place of v1.1.0's own, and the checksum of that feed.
    files = pages.files(tip)
    root = {name: data for name, data in files.items() if not name.startswith("releases/")}
    kept = pages.files(tip, "releases/v1.1.0")
    own = (FEED_PATH, release.CHECKSUMS)
    assert {name: data for name, data in root.items() if name not in own} == \
        {name: data for name, data in kept.items() if name not in own}
    assert root[FEED_PATH].count(b"<entry>") == 3 and kept[FEED_PATH].count(b"<entry>") == 1
    assert root[release.CHECKSUMS].decode() == release.replace_checksum(
        kept[release.CHECKSUMS].decode(), FEED_PATH, hashlib.sha256(root[FEED_PATH]).hexdigest())
    assert header(root[release.MARKER]) == release.marker_bytes("v1.1.0")
    # Each kept release is its own render: its links lead into its own folder.
    for tag in ARCHIVES:
        kept = pages.files(tip, f"releases/{tag}")
        assert header(kept[release.MARKER]) == release.marker_bytes(tag)
        assert f'href="{SITE}/releases/{tag}/theme/leaderboard.css"'.encode() in kept["index.html"]
    assert [run.stderr.splitlines()[-1] for run in pages.runs.values()] == [
        f"gh-pages is now {pages.commits['v1.0.0'][:12]}: v1.0.0 kept at releases/v1.0.0/, the root holds v1.0.0, "
        "1 release in releases/index.html",
        f"gh-pages is now {pages.commits['v1.1.0'][:12]}: v1.1.0 kept at releases/v1.1.0/, the root holds v1.1.0, "
        "2 releases in releases/index.html",
        f"gh-pages is now {pages.commits['v1.0.1'][:12]}: v1.0.1 kept at releases/v1.0.1/, the root holds v1.1.0 "
        "(a higher version), 3 releases in releases/index.html",
    ]


def test_a_kept_release_is_never_rewritten_by_later_releases(pages):
    for tag, first in (("v1.0.0", "v1.0.0"), ("v1.1.0", "v1.1.0")):
        trees = {git(pages.repository, "rev-parse", f"{pages.commits[later]}:releases/{tag}").strip()
                 for later in list(pages.commits)[list(pages.commits).index(first):]}
        assert len(trees) == 1, tag


def test_the_same_tag_again_is_refused_with_other_bytes_and_changes_nothing_with_the_same(pages):
    tip = pages.tip()
    # v1.0.0 of another archive: how many files of the kept v1.0.0 it would change, found without git.
    other = pages.root / "other-v1.0.0"
    published = run_invoke("--search-root", str(ROOT), "publish", "--release-tag", "v1.0.0", "--reports-dir",
                           str(pages.archives["v1.1.0"]), "--manifest", str(pages.root / "none.jsonl"),
                           "--output-dir", str(other), cwd=pages.root)
    assert published.returncode == 0, published.stderr
    kept = pages.files(tip, "releases/v1.0.0")
    fresh = {path.relative_to(other).as_posix(): path.read_bytes() for path in other.rglob("*") if path.is_file()}
    differ = sum(1 for name in set(kept) | set(fresh) if kept.get(name) != fresh.get(name))
    assert differ > 0
    refused = pages.gh_pages("v1.0.0", "v1.1.0")
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr.splitlines()[-1] == (
        f"gh-pages: releases/v1.0.0 on gh-pages already holds v1.0.0 with other bytes ({differ} files differ); "
        "a published release is never rewritten: publish the change under a new release tag")
    assert pages.tip() == tip
    again = pages.gh_pages("v1.0.0")
    assert again.returncode == 0, again.stderr
    assert again.stderr.splitlines()[-1] == "gh-pages already holds this render of v1.0.0: no new commit"
    assert pages.tip() == tip


def main_of(html: bytes) -> str:
    return re.search(r'<main id="main" tabindex="-1">\n(.*)</main>', html.decode("utf-8"), re.S).group(1)


def test_the_release_list_is_newest_first_by_version_with_runs_rows_and_changes(pages):
    html = pages.files(pages.commits["v1.0.1"])["releases/index.html"]
    link = f"{SITE}/releases"
    assert main_of(html) == (
        "<h1>Releases</h1>\n"
        '<p class="lede">Every release of the leaderboard, newest first. Each is kept at its own address, never rewritten '
        "once published: cite it to show the leaderboard as it stood then. The site's root shows the latest, <bdi>v1.1.0</bdi>.</p>\n"
        "<p>Check any of them against the archive at its tag: <code>invoke verify --release-tag TAG --output-dir "
        "releases/TAG</code> in a clone of the pages branch.</p>\n"
        '<div class="table-box" tabindex="0" role="region" aria-label="Releases">\n<table class="evidence">\n'
        '<thead><tr><th scope="col">Release</th><th scope="col">Latest run</th><th scope="col" class="num">Rows</th>'
        '<th scope="col">Changes</th></tr></thead>\n<tbody>\n'
        f'<tr><th scope="row"><a href="{link}/v1.1.0/index.html" dir="auto">v1.1.0</a> <span class="badge">latest</span></th>'
        f'<td>2026-06-14</td><td class="num">2</td><td><a href="{link}/v1.1.0/changes.html">Changes in <bdi>v1.1.0</bdi></a></td></tr>\n'
        f'<tr><th scope="row"><a href="{link}/v1.0.1/index.html" dir="auto">v1.0.1</a></th>'
        f'<td>2026-07-01</td><td class="num">3</td><td><a href="{link}/v1.0.1/changes.html">Changes in <bdi>v1.0.1</bdi></a></td></tr>\n'
        f'<tr><th scope="row"><a href="{link}/v1.0.0/index.html" dir="auto">v1.0.0</a></th>'
        '<td>2026-06-14</td><td class="num">2</td><td><span class="muted">none recorded</span></td></tr>\n'
        "</tbody>\n</table>\n</div>\n")
    assert f'<link rel="canonical" href="{SITE}/releases/index.html">'.encode() in html
    # Every page it links to is on the branch.
    files = pages.files(pages.commits["v1.0.1"])
    for href in re.findall(rf'href="{re.escape(link)}/([^"]+)"', html.decode("utf-8")):
        assert "releases/" + href in files, href


def test_the_list_orders_pre_releases_before_their_release():
    summaries = [release.ReleaseSummary(tag, "2026-01-01", 1, False)
                 for tag in ("v1.9.0", "v1.10.0", "v2.0.0-beta", "v1.10.0-rc.1", "v2.0.0-beta.2")]
    html = release.release_list_page(summaries, pelican_settings(str(ROOT / "publishconf.py"), {})).decode("utf-8")
    assert re.findall(r'<th scope="row"><a href="[^"]+" dir="auto">([^<]+)</a>', html) == [
        "v2.0.0-beta.2", "v2.0.0-beta", "v1.10.0", "v1.10.0-rc.1", "v1.9.0"]
    assert html.count('<span class="badge">latest</span>') == 1 and "v2.0.0-beta.2</a> <span" in html


def test_verify_checks_a_kept_release_and_the_root_of_a_clone(pages):
    clone = pages.root / "clone"
    git(pages.root, "clone", "--quiet", "--branch", "gh-pages", str(pages.repository), str(clone))
    kept = pages.verify("v1.0.0", clone / "releases/v1.0.0")
    assert (kept.returncode, kept.stdout) == (0, ""), kept.stderr
    assert kept.stderr.splitlines()[-1].startswith(f"verified: {clone}/releases/v1.0.0 is identical to the render of v1.0.0 (")
    (clone / "CNAME").write_text("leaderboard.example.org\n", encoding="utf-8")  # as a site's owner adds one
    root = pages.verify("v1.1.0", clone)
    assert (root.returncode, root.stdout) == (0, ""), root.stderr
    assert root.stderr.splitlines()[:4] == [
        f"verify: ignoring .git in {clone}",
        f"verify: ignoring releases in {clone}: the pages branch's own list of releases",
        f"verify: ignoring CNAME in {clone}: the pages branch's custom domain",
        f"verify: comparing with the previous leaderboard it keeps, {clone}/changes/previous-leaderboard.json",
    ]
    assert root.stderr.splitlines()[-1].startswith(f"verified: {clone} is identical to the render of v1.1.0 (")
    # The root is the latest release and no other; a changed kept file is found.
    other = pages.verify("v1.0.1", clone)
    assert (other.returncode, other.stderr.splitlines()) == (1, [f"verify: {clone} is the render of v1.1.0, not of v1.0.1"])
    index = clone / "releases/v1.0.1/index.html"
    index.write_bytes(index.read_bytes().replace(b"model-c", b"model-z"))
    changed = pages.verify("v1.0.1", clone / "releases/v1.0.1")
    assert (changed.returncode, changed.stdout) == (1, "changed: index.html\n")


def latest(repository: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "leaderboard_tools.pages_branch", *args], cwd=repository,
                          capture_output=True, text=True, timeout=60)


def test_latest_release_names_the_highest_version_a_ref_keeps(pages, tmp_path):
    assert latest(pages.repository, "latest-release", "gh-pages").stdout == "v1.1.0\n"
    assert latest(pages.repository, "latest-release", pages.commits["v1.0.0"]).stdout == "v1.0.0\n"
    assert latest(tmp_path, "latest-release", "gh-pages", "--repo", str(pages.repository)).stdout == "v1.1.0\n"
    # The release a new one is compared with: the highest kept strictly before it.
    assert latest(pages.repository, "latest-release", "gh-pages", "--before", "v1.1.0").stdout == "v1.0.1\n"
    assert latest(pages.repository, "latest-release", "gh-pages", "--before", "v1.2.0").stdout == "v1.1.0\n"
    # A ref that keeps no release, or none before the tag: nothing, and no failure.
    for args in (("master",), ("gh-pages", "--before", "v1.0.0")):
        result = latest(pages.repository, "latest-release", *args)
        assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    # A branch not published yet does not exist: one line, exit 2, never an empty answer.
    missing = latest(pages.repository, "latest-release", "nosuch")
    assert (missing.returncode, missing.stdout, missing.stderr) == (
        2, "", "latest-release: nosuch is no branch, tag or commit of . (a branch not published yet does not exist)\n")
    outside = latest(tmp_path, "latest-release", "gh-pages")
    assert (outside.returncode, outside.stdout, outside.stderr) == (2, "", "latest-release: . is not a git repository\n")
    usage = latest(pages.repository, "latest")
    assert (usage.returncode, usage.stderr) == (
        2, "usage: python -m leaderboard_tools.pages_branch latest-release REF [--before TAG] [--repo PATH]\n")
    not_a_tag = latest(pages.repository, "latest-release", "gh-pages", "--before", "latest")
    assert (not_a_tag.returncode, not_a_tag.stdout, not_a_tag.stderr) == (
        2, "", "latest-release: --before 'latest' is not a release tag (vMAJOR.MINOR.PATCH)\n")
    # Its help says what empty output means and what a missing branch is.
    helped = latest(pages.repository, "--help")
    assert helped.returncode == 0 and helped.stderr == ""
    assert "Empty output, exit 0: REF exists and keeps no such release" in " ".join(helped.stdout.split())
    assert "A REF that does not exist (a branch not published yet) is an error: one line, exit 2" in \
        " ".join(helped.stdout.split())
