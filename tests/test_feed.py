"""The feed of releases, feeds/releases.atom.xml: `invoke gh-pages` over three releases of a throwaway
repository puts the feed of every kept release at the branch's root, newest first; each release
published with --previous keeps its own entry. Every feed is valid against the RELAX NG schema of
RFC 4287 (appendix B, tests/data/atom.rng) and its Schematron rules, reads back with feedparser, says
what `invoke diff` says between the same releases, is dated by the data, and is covered by
SHA256SUMS and `invoke verify`."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from pathlib import Path

import feedparser
import pytest
from lxml import etree, html as lxml_html

from conftest import HASH, ROOT, report, run_invoke, write_archive
from tasks_support import git

from benchmark_leaderboard.decide.comparison import compare
from benchmark_leaderboard.formatting import isolate
from benchmark_leaderboard.paths import FEED_PATH
from benchmark_leaderboard.present.change_kinds import KIND
from benchmark_leaderboard.present.changes_page import changes_page
from benchmark_leaderboard.present.feed import LISTED, TAG, feed_bytes, release_entry
from leaderboard_tools import release, runner
from leaderboard_tools.build_settings import pelican_settings

SITE = "https://openmed.life/docs/eval/benchmark-leaderboard"
FEED_URL = f"{SITE}/{FEED_PATH}"
ATOM = "{http://www.w3.org/2005/Atom}"
SCHEMA = etree.RelaxNG(etree.parse(str(ROOT / "tests" / "data" / "atom.rng")))
IDENTITY = {"GIT_AUTHOR_NAME": "Release", "GIT_AUTHOR_EMAIL": "release@example.invalid",
            "GIT_COMMITTER_NAME": "Release", "GIT_COMMITTER_EMAIL": "release@example.invalid",
            "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
TAGS = ("v1.0.0", "v1.1.0", "v1.2.0")


def scored(name: str, tag: str, leakage: float, recall: float = 0.9, day: str = "2026-06-14", **more) -> dict:
    return report(model_name=name, generated_at=f"{day}T08:00:00Z",
                  metadata={"synthetic": True, "model_family": "PII", "release_tag": tag, "reproducibility_hash": HASH},
                  metrics={"leakage": {"overall": leakage}, "exact_span_f1": {"recall": recall, "f1": 0.8}}, **more)


# v1.0.0: a, b and d in golden. v1.1.0: a leaks more, b finds more, d is gone, c is new in clinical.
# v1.2.0: c and b leak more, c recalls less, a leaks less, e is new; its latest run is a day of its own.
ARCHIVES = {
    "v1.0.0": {"golden/a.report.json": scored("OpenMed/model-a", "v1.0.0", 0.10),
               "golden/b.report.json": scored("OpenMed/model-b", "v1.0.0", 0.05),
               "golden/d.report.json": scored("OpenMed/model-d", "v1.0.0", 0.20, 0.7)},
    "v1.1.0": {"golden/a.report.json": scored("OpenMed/model-a", "v1.1.0", 0.12, day="2026-07-01"),
               "golden/b.report.json": scored("OpenMed/model-b", "v1.1.0", 0.05, 0.95),
               "clinical/c.report.json": scored("OpenMed/model-c", "v1.1.0", 0.01, suite="clinical", device="cuda")},
    "v1.2.0": {"golden/a.report.json": scored("OpenMed/model-a", "v1.2.0", 0.08, day="2026-08-02"),
               "golden/b.report.json": scored("OpenMed/model-b", "v1.2.0", 0.06, 0.95),
               "clinical/c.report.json": scored("OpenMed/model-c", "v1.2.0", 0.03, 0.85, suite="clinical", device="cuda",
                                                day="2026-08-09"),
               "golden/e.report.json": scored("OpenMed/model-e", "v1.2.0", 0.02)},
}


class Branch:
    """A repository whose gh-pages branch keeps the three releases, each compared with the one before."""

    def __init__(self, root: Path):
        self.root = root
        self.repository = root / "repo"
        self.repository.mkdir()
        git(self.repository, "init", "--quiet", "--initial-branch", "master")
        git(self.repository, "commit", "--quiet", "--allow-empty", "-m", "Start")
        self.archives = {tag: write_archive(root / "archives" / tag, files) for tag, files in ARCHIVES.items()}

    def invoke(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
        return run_invoke("--search-root", str(ROOT), *args, cwd=cwd or self.repository, env=IDENTITY)

    def gh_pages(self, tag: str, *extra: str) -> subprocess.CompletedProcess:
        return self.invoke("gh-pages", "--release-tag", tag, "--reports-dir", str(self.archives[tag]), "--manifest",
                           str(self.root / "none.jsonl"), *extra)

    def verify(self, tag: str, folder: Path) -> subprocess.CompletedProcess:
        return self.invoke("verify", "--release-tag", tag, "--reports-dir", str(self.archives[tag]), "--manifest",
                           str(self.root / "none.jsonl"), "--output-dir", str(folder), cwd=self.root)

    def blob(self, path: str, ref: str = "gh-pages") -> bytes:
        return subprocess.run(["git", "-C", str(self.repository), "cat-file", "blob", f"{ref}:{path}"],
                              capture_output=True, check=True).stdout


@pytest.fixture(scope="module")
def branch(tmp_path_factory) -> Branch:
    made = Branch(tmp_path_factory.mktemp("feed"))
    for number, tag in enumerate(TAGS):
        extra = ("--previous", f"gh-pages:releases/{TAGS[number - 1]}") if number else ()
        result = made.gh_pages(tag, *extra)
        assert result.returncode == 0, result.stderr
    return made


def parsed(data: bytes) -> etree._Element:
    return etree.fromstring(data)


def entries_of(data: bytes) -> list[etree._Element]:
    return parsed(data).findall(f"{ATOM}entry")


def schematron_rules_hold(feed: etree._Element) -> bool:
    """RFC 4287's two Schematron rules (appendix B's s:rule annotations): a feed has an author unless
    every entry has one, and every entry has an alternate link or content."""
    spaces = {"atom": "http://www.w3.org/2005/Atom"}
    return (bool(feed.xpath("atom:author or not(atom:entry[not(atom:author)])", namespaces=spaces))
            and all(entry.xpath("atom:link[@rel='alternate'] or atom:link[not(@rel)] or atom:content", namespaces=spaces)
                    and entry.xpath("atom:author or ../atom:author or atom:source/atom:author", namespaces=spaces)
                    for entry in feed.findall(f"{ATOM}entry")))


def test_three_releases_give_three_entries_newest_first(branch):
    feed = feedparser.parse(branch.blob(FEED_PATH))
    assert feed.bozo == 0, feed.get("bozo_exception")
    assert feed.version == "atom10"
    assert [entry.id for entry in feed.entries] == [f"{TAG}:releases/{tag}" for tag in reversed(TAGS)]
    assert [entry.title.split(":")[0] for entry in feed.entries] == [isolate(tag) for tag in reversed(TAGS)]
    assert feed.feed.id == f"{TAG}:releases" and feed.feed.title == "OpenMed Benchmark Leaderboard: releases"
    assert [link.href for link in feed.feed.links] == [f"{SITE}/releases/index.html", FEED_URL]
    assert feed.feed.author == "OpenMed"
    # Each entry links the release's permanent changes page; the first release, which has none, its index.
    assert [entry.link for entry in feed.entries] == [f"{SITE}/releases/v1.2.0/changes.html",
                                                      f"{SITE}/releases/v1.1.0/changes.html",
                                                      f"{SITE}/releases/v1.0.0/index.html"]


def test_every_feed_is_valid_against_rfc_4287s_schema_and_rules(branch):
    feeds = {"the root": branch.blob(FEED_PATH), **{tag: branch.blob(f"releases/{tag}/{FEED_PATH}") for tag in TAGS[1:]}}
    for name, data in feeds.items():
        document = parsed(data)
        assert SCHEMA.validate(document), (name, str(SCHEMA.error_log))
        assert schematron_rules_hold(document), name
        assert data.startswith(b'<?xml version="1.0" encoding="utf-8"?>\n<feed xml:lang="en" xmlns="http://www.w3.org/2005/Atom">')
    # The first release was published without --previous: it has no feed of its own.
    listing = git(branch.repository, "ls-tree", "-r", "--name-only", "gh-pages", "releases/v1.0.0/").split()
    assert f"releases/v1.0.0/{FEED_PATH}" not in listing and "releases/v1.0.0/changes.html" not in listing
    # The validator is real: a feed without its id, or with a date that is not one, is refused.
    data = feeds["the root"]
    for broken in (data.replace(f"<id>{TAG}:releases</id>".encode(), b"", 1),
                   re.sub(rb"<updated>[^<]+</updated>", b"<updated>yesterday</updated>", data, count=1)):
        assert broken != data and not SCHEMA.validate(parsed(broken))


def diff_of(branch: Branch, old: str, new: str, form: str) -> str:
    result = branch.invoke("diff", f"gh-pages:releases/{old}", f"gh-pages:releases/{new}", "--format", form)
    assert result.returncode in (0, 1), result.stderr
    return result.stdout


def leaks_of(entry: etree._Element) -> list[tuple[str, str]]:
    """The rows an entry lists as leaking more: each item's words and its link."""
    content = lxml_html.fragment_fromstring(entry.find(f"{ATOM}content").text, create_parent="div")
    return [(" ".join(item.text_content().split()), item.find("a").get("href")) for item in content.iter("li")]


def test_each_entry_says_what_invoke_diff_says_between_the_same_releases(branch):
    entries = {entry.find(f"{ATOM}id").text.rsplit("/", 1)[1]: entry for entry in entries_of(branch.blob(FEED_PATH))}
    for old, new in zip(TAGS, TAGS[1:]):
        entry = entries[new]
        summary = diff_of(branch, old, new, "text").splitlines()[-1].split(": ", 1)[1]
        assert entry.find(f"{ATOM}title").text == f"{isolate(new)}: {summary}"
        document = json.loads(diff_of(branch, old, new, "json"))
        rows = {(row["suite"], row["model_name"], row["device"]): row
                for row in json.loads(branch.blob(f"releases/{new}/leaderboard.json"))["rows"]}
        expected = [(f"{leak['model_name']} on {leak['suite']} ({leak['device']}): leakage {leak['old_percent']}% → "
                     f"{leak['new_percent']}% ({leak['change_percent']} points)",
                     f"{SITE}/releases/{new}/report/"
                     + rows[leak["suite"], leak["model_name"], leak["device"]]["report_path"][:-len(".json")] + ".html")
                    for leak in document["leaks_more"]]
        assert expected and leaks_of(entry) == expected
        for _, link in expected:  # each link leads to a report page the release keeps
            assert branch.blob(link[len(SITE) + 1:]).startswith(b"<!doctype html>")
    # The first release: nothing before it, said as such with its rows.
    first = json.loads(branch.blob("releases/v1.0.0/leaderboard.json"))
    assert entries["v1.0.0"].find(f"{ATOM}title").text == f"\u2068v1.0.0\u2069: the first release, {len(first['rows'])} rows"
    assert leaks_of(entries["v1.0.0"]) == []
    assert "No row leaks more than before." in entries["v1.0.0"].find(f"{ATOM}content").text
    # v1.2.0's words name the release it was compared with and the kind of change that stops one.
    content = entries["v1.2.0"].find(f"{ATOM}content").text
    assert content.startswith(f"<p>Compared with <bdi>v1.1.0</bdi>: 3 rows then, 4 rows now. {summary[0].upper()}{summary[1:]}.</p>")
    assert f"<h2>{KIND['leaks_more'].title}</h2>\n<p>{KIND['leaks_more'].intro}</p>" in content


def test_each_entry_tells_one_story_its_title_and_content_in_the_same_counts_words_and_capitals(branch):
    """Read as a reader of the feed reads it: the title's counts are the content's, word for word."""
    feed = feedparser.parse(branch.blob(FEED_PATH))
    told = {}
    for entry in feed.entries:
        release_tag, said = entry.title.split(": ", 1)
        release_tag = release_tag.strip("\u2068\u2069")  # the tag, isolated from the counts after it
        paragraph = lxml_html.fragment_fromstring(entry.content[0].value, create_parent="div").find("p").text_content()
        told[release_tag] = (said, paragraph)
    # The first release: "the first release" and its rows, in both.
    assert told["v1.0.0"] == ("the first release, 3 rows", "The first release of the leaderboard: 3 rows.")
    # Each later one: the title's summary is the content's sentence, only its first letter a capital.
    assert told["v1.1.0"] == ("1 row leaks more, 1 row added, 1 row removed, 1 improvement, 2 rank moves, 3 field changes",
                              "Compared with v1.0.0: 3 rows then, 3 rows now. 1 row leaks more, 1 row added, "
                              "1 row removed, 1 improvement, 2 rank moves, 3 field changes.")
    said, paragraph = told["v1.2.0"]
    assert "1 fall in recall or F1" in said
    assert paragraph == f"Compared with v1.1.0: 3 rows then, 4 rows now. {said}."
    for release_tag, (title, content) in told.items():  # every count of a title is in its content
        assert re.findall(r"\d+ [a-z]+", title) == re.findall(r"\d+ [a-z]+", content.split(". ", 1)[-1]), release_tag
    # The changes page of the same release says it in the same words.
    changes = branch.blob("releases/v1.2.0/changes.html").decode("utf-8")
    assert f" now. {said}.</p>" in changes


def test_an_entry_is_dated_by_its_releases_latest_run_never_by_the_clock(branch):
    data = branch.blob(FEED_PATH)
    for entry in entries_of(data):
        tag = entry.find(f"{ATOM}id").text.rsplit("/", 1)[1]
        runs = [row["run_date"] for row in json.loads(branch.blob(f"releases/{tag}/leaderboard.json"))["rows"]]
        assert entry.find(f"{ATOM}updated").text == f"{max(runs)}T00:00:00+00:00"
    assert [entry.find(f"{ATOM}updated").text for entry in entries_of(data)] == [
        "2026-08-09T00:00:00+00:00", "2026-07-01T00:00:00+00:00", "2026-06-14T00:00:00+00:00"]
    assert parsed(data).find(f"{ATOM}updated").text == "2026-08-09T00:00:00+00:00"
    assert b"<published>" not in data


def test_a_release_reads_the_same_in_its_own_feed_and_at_the_root(branch):
    root = branch.blob(FEED_PATH)
    for tag in TAGS[1:]:
        own = branch.blob(f"releases/{tag}/{FEED_PATH}")
        feed = parsed(own)
        assert feed.find(f"{ATOM}id").text == f"{TAG}:releases/{tag}/feed"
        assert [link.get("href") for link in feed.findall(f"{ATOM}link")] == [
            f"{SITE}/releases/{tag}/changes.html", f"{SITE}/releases/{tag}/{FEED_PATH}"]
        # Its one entry is the root's entry of that release, byte for byte (same id, words, date).
        (entry,) = re.findall(rb"<entry>.*?</entry>", own, re.S)
        assert entry in root
    assert re.fullmatch(r"tag:openmed\.life,2026:benchmark-leaderboard", TAG)


def test_every_page_of_a_release_links_the_sites_feed(branch):
    link = (f'<link rel="alternate" type="application/atom+xml" title="OpenMed Benchmark Leaderboard: releases" '
            f'href="{FEED_URL}">').encode()
    pages = [name for name in git(branch.repository, "ls-tree", "-r", "--name-only", "gh-pages").split()
             if name.endswith(".html")]
    assert len(pages) > 30 and "releases/index.html" in pages and "releases/v1.2.0/changes.html" in pages
    # Seen, not only in the head: each such page links it in its footer, beside every release.
    follow = (f'<p class="follow"><a href="{FEED_URL}" type="application/atom+xml">Follow releases (Atom)</a> · '
              f'<a href="{SITE}/releases/index.html">every release</a> · ').encode()
    for name in pages:
        head, body = branch.blob(name).split(b"</head>")
        assert head.count(b"application/atom+xml") == 1 and link in head, name
        footer = body[body.index(b'<footer class="site-footer">'):]
        assert body.count(b"Follow releases (Atom)") == 1 and follow in footer, name


def test_the_roots_feed_is_verified_from_the_kept_releases_and_covered_by_its_checksums(branch):
    clone = branch.root / "clone"
    git(branch.root, "clone", "--quiet", "--branch", "gh-pages", str(branch.repository), str(clone))
    assert subprocess.run(["sha256sum", "--quiet", "-c", release.CHECKSUMS], cwd=clone).returncode == 0
    sums = (clone / release.CHECKSUMS).read_text(encoding="utf-8")
    assert f"{hashlib.sha256((clone / FEED_PATH).read_bytes()).hexdigest()}  {FEED_PATH}\n" in sums
    assert FEED_PATH in json.loads((clone / release.MARKER).read_text(encoding="utf-8"))["files"]
    verified = branch.verify("v1.2.0", clone)
    assert (verified.returncode, verified.stdout) == (0, ""), verified.stderr
    # model-d, dropped by v1.1.0, keeps its badge at the root (tests/test_badges.py).
    assert (f"verify: the root's feed lists the 3 releases kept in {clone}/releases; it keeps 1 badge of a model "
            "not in v1.2.0") in verified.stderr.splitlines()
    kept = branch.verify("v1.1.0", clone / "releases" / "v1.1.0")
    assert kept.returncode == 0, kept.stderr
    # The root's feed depends on the kept releases: another previous leaderboard kept by v1.2.0 is another feed.
    kept_previous = clone / "releases" / "v1.2.0" / "changes" / "previous-leaderboard.json"
    kept_previous.write_bytes(kept_previous.read_bytes().replace(b"OpenMed/model-c", b"OpenMed/model-z"))
    changed = branch.verify("v1.2.0", clone)
    assert (changed.returncode, changed.stdout) == (1, "changed: SHA256SUMS\nchanged: feeds/releases.atom.xml\n")
    # And a feed edited at the root is found.
    kept_previous.write_bytes(kept_previous.read_bytes().replace(b"OpenMed/model-z", b"OpenMed/model-c"))
    feed = clone / FEED_PATH
    feed.write_bytes(feed.read_bytes().replace(b"rows leak more", b"rows leak less"))
    edited = branch.verify("v1.2.0", clone)
    assert (edited.returncode, edited.stdout) == (1, "changed: feeds/releases.atom.xml\n")


def build(output: Path, reports: Path, **settings) -> Path:
    runner.build(str(ROOT / "pelicanconf.py"), str(output), reports_dir=str(reports),
                 manifest=str(output.parent / "none.jsonl"), extra=settings, progress=lambda line: None)
    return output


def test_a_plain_build_writes_a_feed_only_when_it_has_a_previous_leaderboard(tmp_path):
    before = build(tmp_path / "before", write_archive(tmp_path / "old", ARCHIVES["v1.0.0"]))
    after = build(tmp_path / "after", write_archive(tmp_path / "new", ARCHIVES["v1.1.0"]),
                  LEADERBOARD_PREVIOUS_LEADERBOARD=str(before / "leaderboard.json"))
    assert not (before / "feeds").exists()
    for page in before.rglob("*.html"):
        assert b"application/atom+xml" not in page.read_bytes(), page
    feed = parsed((after / FEED_PATH).read_bytes())
    assert SCHEMA.validate(feed) and schematron_rules_hold(feed)
    (entry,) = feed.findall(f"{ATOM}entry")
    # A build given no release tag (its reports carry their own) is "this build", as on its changes page.
    assert entry.find(f"{ATOM}title").text == ("\u2068this build\u2069: 1 row leaks more, 1 row added, 1 row removed, 1 improvement, "
                                               "2 rank moves, 3 field changes")
    assert entry.find(f"{ATOM}id").text == f"{TAG}:build"
    # Under the build's SITEURL (the canonical address), its pages linking it relatively.
    assert entry.find(f"{ATOM}link").get("href") == f"{SITE}/changes.html"
    assert b'type="application/atom+xml" title="OpenMed Benchmark Leaderboard: releases" href="./feeds/releases.atom.xml">' \
        in (after / "index.html").read_bytes()
    assert b'href="../../feeds/releases.atom.xml">' in (after / "report" / "golden" / "a.report.html").read_bytes()
    # Every page that links it in its head links it where a reader sees it; a build without a feed, nowhere.
    for page in after.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        href = re.search(r'<link rel="alternate" type="application/atom\+xml" [^>]*href="([^"]+)">', html).group(1)
        assert f'<a href="{href}" type="application/atom+xml">Follow releases (Atom)</a>' in html, page
    assert not any(b"Follow releases" in page.read_bytes() for page in before.rglob("*.html"))
    assert FEED_PATH in json.loads((after / release.MARKER).read_text(encoding="utf-8"))["files"]


def test_the_feed_has_the_same_bytes_across_runs_and_time_zones(tmp_path):
    old = write_archive(tmp_path / "old", ARCHIVES["v1.0.0"])
    new = write_archive(tmp_path / "new", ARCHIVES["v1.1.0"])
    before = tmp_path / "before"
    assert run_invoke("--search-root", str(ROOT), "publish", "--release-tag", "v1.0.0", "--reports-dir", str(old),
                      "--manifest", str(tmp_path / "none.jsonl"), "--output-dir", str(before), cwd=tmp_path).returncode == 0
    feeds = set()
    for zone in ("UTC", "Pacific/Kiritimati", "America/Anchorage"):
        output = tmp_path / ("after-" + zone.replace("/", "-"))
        result = run_invoke("--search-root", str(ROOT), "publish", "--release-tag", "v1.1.0", "--reports-dir", str(new),
                            "--manifest", str(tmp_path / "none.jsonl"), "--output-dir", str(output), "--previous",
                            str(before), cwd=tmp_path, env={"TZ": zone})
        assert result.returncode == 0, result.stderr
        feeds.add((output / FEED_PATH).read_bytes())
    assert len(feeds) == 1


# -- The entries themselves, from two leaderboards ------------------------------------------------


def leaderboard(rows: list[dict]) -> dict:
    return {"rows": rows}


def row(model: str, leakage: float, suite: str = "golden", tag: str = "v2.0.0") -> dict:
    return {"suite": suite, "model_family": "PII", "model_name": model, "device": "cpu", "leakage": leakage, "recall": 0.9,
            "f1": 0.8, "release_tag": tag, "run_date": "2026-06-14", "reproducibility_hash": HASH,
            "report_path": f"{suite}/{model}.report.json", "report_url": f"reports/{suite}/{model}.report.json"}


def entry_of(old: list[dict], new: list[dict]):
    previous, current = leaderboard(old), leaderboard(new)
    page = changes_page(compare(previous, current), current, previous, b"", "v2.0.0", 50)
    return release_entry(page, "2026-06-14", f"{SITE}/releases/v2.0.0")


def template():
    return release.theme_environment(pelican_settings(str(ROOT / "publishconf.py"), {})).get_template("feed_entry.html")


def test_an_entry_lists_the_first_rows_that_leak_more_and_counts_the_others():
    old = [row(f"m{number:03d}", 0.1) for number in range(LISTED + 7)]
    new = [row(f"m{number:03d}", 0.2) for number in range(LISTED + 7)]
    entry = entry_of(old, new)
    assert entry.leaks_more == LISTED + 7 and len(entry.leaks) == LISTED
    assert entry.title == f"\u2068v2.0.0\u2069: {LISTED + 7} rows leak more"
    data = feed_bytes([entry], template(), site_name="S", feed_id=f"{TAG}:test", link=SITE, feed_url=FEED_URL)
    (content,) = [element.find(f"{ATOM}content").text for element in entries_of(data)]
    assert content.count("<li>") == LISTED and "<p>And 7 more on the changes page.</p>" in content
    assert SCHEMA.validate(parsed(data))


def test_text_xml_cannot_hold_is_shown_as_a_replacement_character():
    entry = entry_of([row("a\x01b", 0.1)], [row("a\x01b", 0.2)])
    data = feed_bytes([entry], template(), site_name="S", feed_id=f"{TAG}:test", link=SITE, feed_url=FEED_URL)
    assert SCHEMA.validate(parsed(data))
    assert "a\ufffdb</a> on <bdi>golden</bdi> (<bdi>cpu</bdi>)" in entries_of(data)[0].find(f"{ATOM}content").text


def test_a_feed_of_no_release_is_refused_rather_than_dated_by_the_clock():
    with pytest.raises(ValueError, match="one release at least"):
        feed_bytes([], template(), site_name="S", feed_id=f"{TAG}:test", link=SITE, feed_url=FEED_URL)
