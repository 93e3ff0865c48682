"""`invoke publish` and `invoke verify`: release renders under openmed.life, SHA256SUMS, tag rule, checks."""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import subprocess
from pathlib import Path
from urllib.parse import quote

import pytest

from conftest import ROOT, report, run_invoke
from tasks_support import small_archive

from leaderboard_tools import release

SITE = "https://openmed.life/docs/eval/benchmark-leaderboard"


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def publish(tmp_path: Path, reports: Path, output: Path, tag: str = "v1.2.3") -> subprocess.CompletedProcess:
    return run_invoke("--search-root", str(ROOT), "publish", "--release-tag", tag, "--reports-dir", str(reports),
                      "--manifest", str(tmp_path / "no-manifest.jsonl"), "--output-dir", str(output), cwd=tmp_path)


def verify(tmp_path: Path, reports: Path, output: Path, tag: str = "v1.2.3", timeout: float = 120) -> subprocess.CompletedProcess:
    return run_invoke("--search-root", str(ROOT), "verify", "--release-tag", tag, "--reports-dir", str(reports),
                      "--manifest", str(tmp_path / "no-manifest.jsonl"), "--output-dir", str(output), cwd=tmp_path,
                      timeout=timeout)


@pytest.fixture
def published(tmp_path, archive):
    reports = archive(small_archive())
    output = tmp_path / "site"
    result = publish(tmp_path, reports, output)
    assert result.returncode == 0, result.stderr
    return reports, output


def test_publish_checksums_every_other_file_in_sha256sum_format(published):
    _, output = published
    files = tree_bytes(output)
    expected = "".join(f"{hashlib.sha256(data).hexdigest()}  {path}\n"
                       for path, data in sorted(files.items()) if path != "SHA256SUMS")
    assert files["SHA256SUMS"].decode("utf-8") == expected
    assert {"index.html", "leaderboard.json", "uncertainty.json", "schemas/uncertainty.schema.json", ".nojekyll",
            "reports/golden/a.report.json", "report/golden/a.report.html", "sitemap.xml"} <= set(files)
    # GNU sha256sum reads the file back and finds every file intact.
    checked = subprocess.run(["sha256sum", "--check", "--strict", "SHA256SUMS"], cwd=output, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count(": OK\n") == len(files) - 1


def test_publish_uses_absolute_urls_under_openmed_life(published):
    _, output = published
    index = (output / "index.html").read_text(encoding="utf-8")
    # Its links and its canonical address lead into the release's permanent address (releases/<tag>/
    # on the pages branch).
    assert f'<link rel="canonical" href="{SITE}/releases/v1.2.3/">' in index
    assert f'<meta property="og:url" content="{SITE}/releases/v1.2.3/">' in index
    assert f'href="{SITE}/releases/v1.2.3/theme/leaderboard.css"' in index
    page = (output / "report/golden/a.report.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{SITE}/releases/v1.2.3/report/golden/a.report.html">' in page
    assert f'href="{SITE}/releases/v1.2.3/theme/leaderboard.css"' in page
    # Nothing on a published page points at a relative asset or page.
    for html in (index, page):
        for link in re.findall(r'(?:href|src)="([^"]*)"', html):
            assert link.startswith((SITE + "/", "#")), link
    # The live-reload script of `invoke livereload` never reaches a release.
    assert "livereload" not in index and not (output / "theme/livereload.js").exists()


CANONICAL_LINK = re.compile(r'<link rel="canonical" href="([^"]*)">')
OG_URL = re.compile(r'<meta property="og:url" content="([^"]*)">')
SITEMAP_LOC = re.compile(r"<loc>([^<]*)</loc>")


def test_every_page_of_a_release_declares_the_permanent_address_its_sitemap_lists(tmp_path, archive):
    # The bundled archive as `invoke publish -e v3.1.0 --previous OLD` renders it: every kind of page
    # (the index, the suites' and families' pages, a page a report, compare, the changes page, the
    # Markdown pages) names its own address under releases/v3.1.0/ as canonical and as og:url, the
    # address the sitemap lists for it: a cited release page stays what was cited.
    old = publish(tmp_path, archive(small_archive()), tmp_path / "old", tag="v3.0.0")
    assert old.returncode == 0, old.stderr
    output = tmp_path / "site"
    result = run_invoke("--search-root", str(ROOT), "publish", "-e", "v3.1.0", "--previous", str(tmp_path / "old"),
                        "--output-dir", str(output), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    release_url = f"{SITE}/releases/v3.1.0/"
    declared = {}
    for page in sorted(output.rglob("*.html")):
        relative = page.relative_to(output).as_posix()
        html = page.read_text(encoding="utf-8")
        [canonical], [og_url] = CANONICAL_LINK.findall(html), OG_URL.findall(html)
        address = release_url + quote(re.sub(r"(^|/)index\.html$", r"\1", relative))
        assert (canonical, og_url) == (address, address), relative
        declared[relative] = canonical
    kinds = {"index.html", "compare.html", "changes.html", "ranking.html", "suite/suite-radiology/index.html",
             "suite/suite-radiology/1/1.html", "report/golden.report.html"}
    assert kinds <= set(declared)
    sitemap = (output / "sitemap.xml").read_text(encoding="utf-8")
    assert sorted(SITEMAP_LOC.findall(sitemap)) == sorted(declared.values())


def test_a_release_over_a_build_of_its_tag_writes_nothing_through_the_old_files_and_counts_what_it_linked(tmp_path, archive):
    reports = archive(small_archive())
    output = tmp_path / "site"
    built = run_invoke("--search-root", str(ROOT), "build", "--release-tag", "v1.2.3", "--reports-dir", str(reports),
                       "--manifest", str(tmp_path / "no-manifest.jsonl"), "--output-dir", str(output), cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    # Every file of the build, kept linked beside it: what the release may link, and must never write into.
    kept = tmp_path / "kept"
    before = {}
    for path in sorted(p for p in output.rglob("*") if p.is_file()):
        relative = path.relative_to(output).as_posix()
        before[relative] = (path.stat().st_ino, path.read_bytes())
        (kept / relative).parent.mkdir(parents=True, exist_ok=True)
        os.link(path, kept / relative)
    result = publish(tmp_path, reports, output)
    assert result.returncode == 0, result.stderr
    assert tree_bytes(kept) == {relative: data for relative, (_, data) in before.items()}
    files = {path.relative_to(output).as_posix(): path.stat().st_ino for path in output.rglob("*") if path.is_file()}
    linked = sum(before.get(relative, (None,))[0] == inode for relative, inode in files.items())
    assert 0 < linked and files[release.MARKER] != before[release.MARKER][0]
    assert re.fullmatch(re.escape(f"leaderboard: 2 rows, 1 suite, 1 family, {len(files)} files ({len(files) - linked} "
                                  f"written, {linked} kept unchanged from the last render) in ") + r"\d+\.\d\d s",
                        result.stderr.splitlines()[-2]), result.stderr


def test_publish_twice_gives_identical_bytes(published, tmp_path):
    reports, output = published
    again = tmp_path / "again"
    assert publish(tmp_path, reports, again).returncode == 0
    assert tree_bytes(again) == tree_bytes(output)


def test_verify_passes_on_a_fresh_publish(published, tmp_path):
    reports, output = published
    result = verify(tmp_path, reports, output)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert f"verified: {output} is identical to the render of v1.2.3" in result.stderr


def test_verify_lists_every_added_missing_and_changed_file(published, tmp_path):
    reports, output = published
    page = output / "index.html"
    page.write_bytes(page.read_bytes().replace(b"model-a", b"model-z"))
    (output / "reports/golden/b.report.json").unlink()
    (output / "extra.html").write_text("not from the archive", encoding="utf-8")
    figures = output / "uncertainty.json"
    figures.write_bytes(figures.read_bytes().replace(b'"suite_rank_worst": 2', b'"suite_rank_worst": 1', 1))
    result = verify(tmp_path, reports, output)
    assert result.returncode == 1
    assert result.stdout.splitlines() == ["added: extra.html", "changed: index.html",
                                          "missing: reports/golden/b.report.json", "changed: uncertainty.json"]
    assert "is not the render of this archive: 4 files differ" in result.stderr


def test_verify_counts_one_file_that_differs_in_the_singular(published, tmp_path):
    reports, output = published
    (output / "extra.html").write_text("not from the archive", encoding="utf-8")
    result = verify(tmp_path, reports, output)
    assert (result.returncode, result.stdout.splitlines()) == (1, ["added: extra.html"])
    assert result.stderr.splitlines()[-1] == (
        f"verify: {output} is not the render of this archive: 1 file differs "
        "(added: only in the folder; missing: only in the render; changed: other bytes)")


def test_verify_notices_a_changed_archive(published, tmp_path):
    reports, output = published
    (reports / "golden/a.report.json").write_text(
        (reports / "golden/a.report.json").read_text(encoding="utf-8").replace("model-a", "model-c"), encoding="utf-8")
    result = verify(tmp_path, reports, output)
    assert result.returncode == 1
    assert "changed: leaderboard.json" in result.stdout.splitlines()
    assert "changed: SHA256SUMS" in result.stdout.splitlines()


def test_verify_against_another_release_fails_before_any_render(published, tmp_path):
    # Every report carries its own tag: only the render's marker tells v1.2.3's render from v1.2.4's.
    reports, output = published
    marker = json.loads((output / release.MARKER).read_bytes())
    assert {"index.html", "SHA256SUMS", ".nojekyll", release.MARKER} <= set(marker.pop("files"))
    assert marker == {"generator": "openmed-benchmark-leaderboard", "marker": 1, "release_tag": "v1.2.3"}
    result = verify(tmp_path, reports, output, tag="v1.2.4")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [f"verify: {output} is the render of v1.2.3, not of v1.2.4"]


def test_verify_with_another_fallback_tag_fails(tmp_path, archive):
    untagged = report(model_name="OpenMed/model-u")
    del untagged["metadata"]["release_tag"]
    reports = archive({**small_archive(), "golden/u.report.json": untagged})
    output = tmp_path / "site"
    assert publish(tmp_path, reports, output, tag="v1.2.3").returncode == 0
    assert '"release_tag": "v1.2.3"' in (output / "leaderboard.json").read_text(encoding="utf-8")
    result = verify(tmp_path, reports, output, tag="v1.2.4")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [f"verify: {output} is the render of v1.2.3, not of v1.2.4"]


@pytest.mark.parametrize("marker, why", [
    (None, "it has no .leaderboard-render.json"),
    (b'{"generator": "another-generator", "marker": 1, "release_tag": "v1.2.3"}',
     "its .leaderboard-render.json is not a leaderboard render's marker"),
    (b"not json", "its .leaderboard-render.json is not a leaderboard render's marker"),
    ("fifo", "its .leaderboard-render.json is not a leaderboard render's marker"),
    (release.marker_bytes(None), "its .leaderboard-render.json records no release tag"),
])
def test_verify_refuses_a_folder_that_is_not_a_release_render(published, tmp_path, marker, why):
    reports, output = published
    path = output / release.MARKER
    path.unlink()
    if marker == "fifo":
        os.mkfifo(path)  # never opened: the check would wait for a writer for ever
    elif marker is not None:
        path.write_bytes(marker)
    result = verify(tmp_path, reports, output, timeout=60)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [f"verify: {output} is not a release render ({why})"]


def test_verify_ignores_a_worktrees_git_file_and_says_so(published, tmp_path):
    reports, output = published
    (output / ".git").write_text("gitdir: /elsewhere/.git/worktrees/site\n", encoding="utf-8")
    result = verify(tmp_path, reports, output)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stderr.splitlines()[0] == f"verify: ignoring .git in {output}"
    # Only the folder's own .git: one deeper down is a file like any other.
    (output / "reports/.git").mkdir()
    (output / "reports/.git/HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    deeper = verify(tmp_path, reports, output)
    assert deeper.returncode == 1
    assert deeper.stdout.splitlines() == ["added: reports/.git/HEAD"]


def test_verify_reports_a_fifo_or_socket_without_opening_it(published, tmp_path):
    reports, output = published
    (output / "index.html").unlink()
    os.mkfifo(output / "index.html")
    os.mkfifo(output / "x.report.json")
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(output / "reports/golden/s.json"))
        result = verify(tmp_path, reports, output, timeout=60)
    assert result.returncode == 1
    assert result.stdout.splitlines() == ["changed: index.html (not a regular file)",
                                          "added: reports/golden/s.json (not a regular file)",
                                          "added: x.report.json (not a regular file)"]
    assert "is not the render of this archive: 3 files differ" in result.stderr


def test_a_file_name_with_a_newline_stays_on_one_line(published, tmp_path):
    reports, output = published
    (output / "new\nline.html").write_text("x", encoding="utf-8")
    result = verify(tmp_path, reports, output)
    assert result.returncode == 1
    assert result.stdout == "added: new\\nline.html\n"


@pytest.mark.parametrize("tag", ["1.2.3", "v1.2", "release"])
def test_publish_refuses_a_bad_tag_and_writes_nothing(tmp_path, archive, tag):
    reports = archive(small_archive())
    result = publish(tmp_path, reports, tmp_path / "site", tag=tag)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1] == (
        f"release refused: the release tag {tag!r} does not read v<major>.<minor>.<patch> with an optional "
        "-pre-release or +build suffix (for example v3.1.0, v3.2.0-rc.1, v3.2.0+build.7)")
    assert not (tmp_path / "site").exists()


def test_publish_without_a_tag_is_refused(tmp_path):
    result = run_invoke("--search-root", str(ROOT), "publish", "--output-dir", str(tmp_path / "site"), cwd=tmp_path)
    assert result.returncode == 2
    assert "release refused: a release needs --release-tag vMAJOR.MINOR.PATCH (for example v3.1.0)" in result.stderr
    assert not (tmp_path / "site").exists()


def test_verify_without_an_output_folder_is_refused(tmp_path):
    result = run_invoke("--search-root", str(ROOT), "verify", "--release-tag", "v1.0.0", cwd=tmp_path)
    assert result.returncode == 2
    assert "verify needs --output-dir: the published folder to check" in result.stderr


def test_a_refused_archive_leaves_the_published_folder_alone(published, tmp_path):
    reports, output = published
    before = tree_bytes(output)
    (reports / "golden/broken.report.json").write_text("{", encoding="utf-8")
    result = publish(tmp_path, reports, output, tag="v1.2.4")
    assert result.returncode == 1
    assert "golden/broken.report.json: " in result.stderr
    assert tree_bytes(output) == before


@pytest.mark.parametrize("tag", ["v0.0.0", "v3.1.0", "v10.20.30", "v1.0.0-rc.1", "v1.0.0-alpha-beta.0.x7",
                                 "v1.0.0+build.5", "v1.0.0-rc.1+sha.5114f85", "v1.0.0+001"])
def test_release_tags_that_are_accepted(tag):
    assert release.release_tag_problem(tag) is None


@pytest.mark.parametrize("tag", ["1.2.3", "v1.2", "v01.2.3", "v1.2.3-", "v1.2.3+", "V1.2.3", "v1.2.3 ", "release",
                                 "v1.0.0-01", "v1.0.0-rc..1", "v1.0.0+a..b", "v1.0.0_rc1", "", None])
def test_release_tags_that_are_refused(tag):
    assert release.release_tag_problem(tag) is not None


def test_sha256sums_escapes_paths_as_sha256sum_does():
    digests = {"b.txt": "1" * 64, "a\\b.txt": "2" * 64, "new\nline": "3" * 64}
    assert release.sha256sums_text(digests) == ("\\" + "2" * 64 + "  a\\\\b.txt\n" + "1" * 64 + "  b.txt\n"
                                                 + "\\" + "3" * 64 + "  new\\nline\n")


def test_compare_trees_names_each_kind_of_difference():
    expected = {"same": "1", "changed": "2", "missing": "3"}
    published = {"same": "1", "changed": "9", "added": "4"}
    difference = release.compare_trees(expected, published)
    assert difference.lines() == ["added: added", "changed: changed", "missing: missing"]
    assert not release.compare_trees(expected, dict(expected))


def test_a_symbolic_link_never_passes_for_the_file(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real/a.txt").write_text("a", encoding="utf-8")
    (tmp_path / "linked").mkdir()
    (tmp_path / "linked/a.txt").symlink_to(tmp_path / "real/a.txt")
    difference = release.compare_trees(release.tree_digests(tmp_path / "real"), release.tree_digests(tmp_path / "linked"))
    assert difference.lines() == ["changed: a.txt"]


def test_a_release_render_links_the_releases_list_in_every_page_s_navigation_and_a_local_build_does_not(published, tmp_path):
    reports, output = published
    link = f'<li><a href="{SITE}/releases/index.html">Releases</a></li>'
    pages = sorted(output.rglob("*.html"))
    assert any(page.parts[-3:-1] == ("report", "golden") for page in pages)
    for page in pages:
        assert page.read_text(encoding="utf-8").count(link) == 1, page
    local = tmp_path / "local"
    result = run_invoke("build", "--reports-dir", str(reports), "--manifest", str(tmp_path / "no-manifest.jsonl"),
                        "--release-tag", "v1.2.3", "--output-dir", str(local))
    assert result.returncode == 0, result.stderr
    assert not any("releases/index.html" in page.read_text(encoding="utf-8") for page in local.rglob("*.html"))
