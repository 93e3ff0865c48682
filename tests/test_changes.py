"""The changes page: `invoke publish --previous OLD` renders "Changes in vX.Y.Z" from the same diff as
`invoke diff`, links it from the navigation and from each changed row's report page, and keeps the
previous leaderboard it compared with; without --previous there is no page and no link."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import HASH, ROOT, SETTINGS, report, run_invoke, write_archive

from benchmark_leaderboard.decide.comparison import compare, standings
from benchmark_leaderboard.present.changes_page import changes_page
from leaderboard_tools import release

SITE = "https://openmed.life/docs/eval/benchmark-leaderboard"
RELEASE = f"{SITE}/releases/v1.1.0"
NEW_METADATA = {"synthetic": True, "model_family": "PII", "release_tag": "v1.1.0", "reproducibility_hash": HASH}

# Before: a (leakage 10%), b (5%), d (20%), all golden, cpu, v1.0.0.
OLD_ARCHIVE = {
    "golden/a.report.json": report(model_name="OpenMed/model-a"),
    "golden/b.report.json": report(model_name="OpenMed/model-b", metrics={"leakage": {"overall": 0.05}}),
    "golden/d.report.json": report(model_name="OpenMed/model-d", metrics={"leakage": {"overall": 0.2},
                                                                           "exact_span_f1": {"recall": 0.7, "f1": 0.6}}),
}
# After, in v1.1.0: a leaks more, b recalls more, d is gone and c (clinical, cuda) is new.
NEW_ARCHIVE = {
    "golden/a.report.json": report(model_name="OpenMed/model-a", metadata=NEW_METADATA, metrics={"leakage": {"overall": 0.12}}),
    "golden/b.report.json": report(model_name="OpenMed/model-b", metadata=NEW_METADATA,
                                   metrics={"leakage": {"overall": 0.05}, "exact_span_f1": {"recall": 0.95, "f1": 0.8}}),
    "clinical/c.report.json": report(model_name="OpenMed/model-c", suite="clinical", device="cuda", metadata=NEW_METADATA,
                                     metrics={"leakage": {"overall": 0.01}}),
}


def publish(cwd: Path, reports: Path, output: Path, tag: str, *extra: str):
    return run_invoke("--search-root", str(ROOT), "publish", "--release-tag", tag, "--reports-dir", str(reports),
                      "--manifest", str(cwd / "none.jsonl"), "--output-dir", str(output), *extra, cwd=cwd)


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """v1.0.0 of the old archive; v1.1.0 of the new one compared with it (the render folder), and without."""
    root = tmp_path_factory.mktemp("changes")
    old, new = write_archive(root / "old", OLD_ARCHIVE), write_archive(root / "new", NEW_ARCHIVE)
    results = {"before": publish(root, old, root / "before", "v1.0.0"),
               "after": publish(root, new, root / "after", "v1.1.0", "--previous", "before"),
               "alone": publish(root, new, root / "alone", "v1.1.0")}
    for name, result in results.items():
        assert result.returncode == 0, (name, result.stderr)
    return root, results


def main_of(html: str) -> str:
    return re.search(r'<main id="main" tabindex="-1">\n(.*)</main>', html, re.S).group(1)


def table(anchor: str, title: str, intro: str, header: str, rows: list[str]) -> str:
    return (f'<section aria-labelledby="{anchor}">\n<h2 id="{anchor}">{title}</h2>\n<p>{intro}</p>\n'
            f'<div class="table-box" tabindex="0" role="region" aria-label="{title}">\n<table class="evidence changes">\n'
            f'<thead><tr><th scope="col">Suite</th><th scope="col">Model</th><th scope="col">Device</th>{header}</tr></thead>\n'
            "<tbody>\n" + "".join(row + "\n" for row in rows) + "</tbody>\n</table>\n</div>\n</section>\n")


def model(path: str, name: str) -> str:
    return f'<th scope="row"><a href="{RELEASE}/report/{path}" dir="auto">{name}</a>'


def cells(*values: str, numeric: tuple[bool, ...]) -> str:
    return "".join(f'<td class="num">{value}</td>' if right else f"<td>{value}</td>" for value, right in zip(values, numeric))


METRIC_HEADER = ('<th scope="col">Metric</th><th scope="col" class="num">Before</th><th scope="col" class="num">After</th>'
                 '<th scope="col" class="num">Change (points)</th>')
PRESENCE_HEADER = "".join(f'<th scope="col" class="num">{name}</th>' for name in ("Rank", "Suite rank", "Leakage", "Recall", "F1"))
METRIC = (False, True, True, True)
A, B, C = ("golden/a.report.html", "OpenMed/model-a"), ("golden/b.report.html", "OpenMed/model-b"), \
    ("clinical/c.report.html", "OpenMed/model-c")

EXPECTED_MAIN = (
    "<h1>Changes in v1.1.0</h1>\n"
    '<p class="lede">Compared with the previous leaderboard (newest release tag v1.0.0): 3 rows then, 3 rows now. '
    "1 row leaks more, 1 row added, 1 row removed, 1 improvement, 2 rank moves, 2 field changes.</p>\n"
    "<p>A row is a suite, model and device; its release tag is not part of it, so the same model on the same suite and "
    "device is compared across releases. Values are percentages; changes are in percentage points. The previous "
    f'leaderboard, exactly as compared: <a href="{RELEASE}/changes/previous-leaderboard.json">'
    "changes/previous-leaderboard.json</a>.</p>\n"
    '<nav aria-label="Kinds of change">\n<ul>\n'
    + "".join(f'<li><a href="#{anchor}">{title}</a> ({count})</li>\n' for anchor, title, count in (
        ("leaks-more", "Leaks more", 1), ("added", "Added", 1), ("removed", "Removed", 1), ("improved", "Improved", 1),
        ("moved", "Rank moves", 2), ("field", "Field changes", 2)))
    + "</ul>\n</nav>\n"
    + table("leaks-more", "Leaks more", "Rows that leak more protected text than before: what stops a release "
            "(invoke diff exits 1).", METRIC_HEADER,
            ["<tr><td><bdi>golden</bdi></td>" + model(*A) + "</th><td><bdi>cpu</bdi></td>"
             + cells("leakage", "10.00%", "12.00%", "+2.00", numeric=METRIC) + "</tr>"])
    + table("added", "Added", "Rows of a suite, model and device the previous leaderboard did not have.", PRESENCE_HEADER,
            ["<tr><td><bdi>clinical</bdi></td>" + model(*C) + "</th><td><bdi>cuda</bdi></td>"
             + cells("1", "1", "1.00%", "90.00%", "80.00%", numeric=(True,) * 5) + "</tr>"])
    + table("removed", "Removed", "Rows of the previous leaderboard this one no longer has (as they stood there).",
            PRESENCE_HEADER,  # a removed row has no page in this release: its model is not a link
            ['<tr><td><bdi>golden</bdi></td><th scope="row"><bdi>OpenMed/model-d</bdi></th><td><bdi>cpu</bdi></td>'
             + cells("3", "3", "20.00%", "70.00%", "60.00%", numeric=(True,) * 5) + "</tr>"])
    + table("improved", "Improved", "Rows that leak less than before, or whose recall or F1 rose.", METRIC_HEADER,
            ["<tr><td><bdi>golden</bdi></td>" + model(*B) + "</th><td><bdi>cpu</bdi></td>"
             + cells("recall", "90.00%", "95.00%", "+5.00", numeric=METRIC) + "</tr>"])
    + table("moved", "Rank moves", "Rows whose rank changed, overall or in their suite.",
            "".join(f'<th scope="col" class="num">{name}</th>' for name in
                    ("Rank before", "Rank after", "Suite rank before", "Suite rank after")),
            ["<tr><td><bdi>golden</bdi></td>" + model(*A) + "</th><td><bdi>cpu</bdi></td>" + cells("2", "3", "2", "2", numeric=(True,) * 4) + "</tr>",
             "<tr><td><bdi>golden</bdi></td>" + model(*B) + "</th><td><bdi>cpu</bdi></td>" + cells("1", "2", "1", "1", numeric=(True,) * 4) + "</tr>"])
    + table("field", "Field changes", "Other published fields of the same row: a renamed report file is the same row "
            "with a new path.", '<th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th>',
            ["<tr><td><bdi>golden</bdi></td>" + model(*A) + "</th><td><bdi>cpu</bdi></td>" + cells("release_tag", "v1.0.0", "v1.1.0",
                                                                                numeric=(False,) * 3) + "</tr>",
             "<tr><td><bdi>golden</bdi></td>" + model(*B) + "</th><td><bdi>cpu</bdi></td>" + cells("release_tag", "v1.0.0", "v1.1.0",
                                                                                numeric=(False,) * 3) + "</tr>"])
)


def test_the_changes_page_lists_every_kind_of_change_what_leaks_more_first(sites):
    root, _ = sites
    html = (root / "after/changes.html").read_text(encoding="utf-8")
    assert main_of(html) == EXPECTED_MAIN
    assert "<title>Changes in v1.1.0 · OpenMed Benchmark Leaderboard</title>" in html
    assert f'<link rel="canonical" href="{RELEASE}/changes.html">' in html


def test_it_says_what_invoke_diff_says_of_the_same_pair(sites):
    root, _ = sites
    result = run_invoke("--search-root", str(ROOT), "diff", "before", "after", cwd=root)
    assert result.returncode == 1  # the same row leaks more
    # The same kinds, named the same, counted the same as the page's headings.
    assert result.stdout.splitlines()[-1] == ("before -> after: 1 row leaks more, 1 row added, 1 row removed, "
                                              "1 improvement, 2 rank moves, 2 field changes")
    assert [line.split()[0] for line in result.stdout.splitlines()[:-1]] == [
        "leaks-more", "added", "removed", "improved", "moved", "moved", "field", "field"]


NAV = f'<li><a href="{RELEASE}/changes.html"{{}}>Changes</a></li>'


def test_the_navigation_and_each_changed_rows_page_link_to_it(sites):
    root, _ = sites
    after = root / "after"
    for page in ("index.html", "compare.html", "ranking.html", "report/golden/b.report.html"):
        assert NAV.format("") in (after / page).read_text(encoding="utf-8").splitlines(), page
    assert NAV.format(' aria-current="page"') in (after / "changes.html").read_text(encoding="utf-8").splitlines()
    every = f' <a href="{RELEASE}/changes.html">Every change</a></p>'
    notes = {path: [line for line in (after / "report" / path).read_text(encoding="utf-8").splitlines()
                    if line.startswith('<p class="changed">')] for path, _ in (A, B, C)}
    assert notes == {
        A[0]: ['<p class="changed">Changed in this release (v1.1.0): leakage 10.00% → 12.00% (+2.00 points); '
               "rank 2 → 3, suite rank 2." + every],
        B[0]: ['<p class="changed">Changed in this release (v1.1.0): recall 90.00% → 95.00% (+5.00 points); '
               "rank 1 → 2, suite rank 1." + every],
        C[0]: ['<p class="changed">Changed in this release (v1.1.0): a new row, rank 1, suite rank 1.' + every],
    }


def test_the_previous_leaderboard_is_kept_exactly_as_compared_and_checksummed(sites):
    root, _ = sites
    kept = root / "after/changes/previous-leaderboard.json"
    assert kept.read_bytes() == (root / "before/leaderboard.json").read_bytes()
    sums = (root / "after" / release.CHECKSUMS).read_text(encoding="utf-8").splitlines()
    assert any(line.endswith("  changes/previous-leaderboard.json") for line in sums)
    assert any(line.endswith("  changes.html") for line in sums)


def test_without_previous_there_is_no_changes_page_and_no_link(sites):
    root, results = sites
    alone = root / "alone"
    assert not (alone / "changes.html").exists() and not (alone / "changes").exists()
    for page in alone.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "changes.html" not in text and 'class="changed"' not in text, page
    assert "changes.html" not in results["alone"].stderr
    assert results["after"].stderr.splitlines()[-1] == (
        f"published v1.1.0 into {root / 'after'}; changes.html compares it with before; check it with: sha256sum -c SHA256SUMS")


def previous_variants(root: Path) -> None:
    """Beside the renders, leaderboards made from v1.0.0's (``before``) that contradict themselves or
    come too late: a row_count of 99, a row held twice (row_count and suites agreeing with the rows),
    and the same rows as of v1.2.0 and of V1.1.0 (the version being published, spelled otherwise)."""
    before = json.loads((root / "before/leaderboard.json").read_text(encoding="utf-8"))
    twice = copy.deepcopy(before)
    twice["rows"].append(twice["rows"][0])
    twice["suites"][0]["families"][0]["rows"].append(twice["rows"][0])
    twice["row_count"] += 1
    variants = {"count.json": {**before, "row_count": 99}, "twice.json": twice}
    for tag in ("v1.2.0", "V1.1.0"):
        text = json.dumps(before).replace('"release_tag": "v1.0.0"', f'"release_tag": "{tag}"')
        variants[f"{tag}.json"] = json.loads(text)
    for name, document in variants.items():
        (root / name).write_text(json.dumps(document), encoding="utf-8")
    (root / "broken.json").write_text("", encoding="utf-8")
    (root / "truncated.json").write_text('{"rows": [{"suite": "golden', encoding="utf-8")


UNUSABLE_PREVIOUS = [
    ("missing.json", "the previous leaderboard missing.json is neither a file, a folder nor a git ref "
                     "(the working folder is not in a git repository)"),
    ("broken.json", "the previous leaderboard broken.json is not JSON: Expecting value at line 1 column 1"),
    ("truncated.json", "the previous leaderboard truncated.json is not JSON: Unterminated string starting at line 1 "
                       "column 21"),
    ("new", "the previous leaderboard new is a folder without a leaderboard.json"),
    ("count.json", "the previous leaderboard count.json contradicts itself: /row_count: is 99, but /rows holds 3 rows"),
    ("twice.json", "the previous leaderboard twice.json contradicts itself: /rows/3: is a second row of the report "
                   "golden/b.report.json (the first is /rows/0): each report is one row"),
    ("v1.2.0.json", "the previous leaderboard v1.2.0.json holds v1.2.0, a later version than v1.1.0: a release is "
                    "compared with an earlier one"),
    ("V1.1.0.json", "the previous leaderboard V1.1.0.json holds V1.1.0, the same version as v1.1.0: a release is "
                    "compared with an earlier one"),
    ("alone", "the previous leaderboard alone holds v1.1.0, the same version as v1.1.0: a release is compared with "
              "an earlier one"),
]


@pytest.mark.parametrize("previous, line", UNUSABLE_PREVIOUS)
def test_an_unusable_previous_leaderboard_is_one_line_and_exit_2_before_any_render(sites, previous, line):
    root, _ = sites
    previous_variants(root)
    result = publish(root, root / "new", root / "never", "v1.1.0", "--previous", previous)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", f"publish: {line}\n")
    assert not (root / "never").exists()


@pytest.mark.parametrize("previous, line", [case for case in UNUSABLE_PREVIOUS
                                            if case[0] in ("broken.json", "count.json", "twice.json")])
def test_a_plain_build_given_such_a_previous_leaderboard_stops_with_one_line_and_writes_nothing(sites, tmp_path,
                                                                                                 previous, line):
    """The plugin's setting is checked as publish checks --previous (but for the order of releases: a
    plain build's tag only fills the reports that carry none): ``pelican content`` stops with exit 2."""
    root, _ = sites
    previous_variants(root)
    result = subprocess.run([str(Path(sys.executable).parent / "pelican"), "content", "-s", SETTINGS, "-o",
                             str(tmp_path / "site"), "-e", f'LEADERBOARD_REPORTS_DIR="{root / "new"}"',
                             'LEADERBOARD_RELEASE_TAG="v1.1.0"', f'LEADERBOARD_PREVIOUS_LEADERBOARD="{root / previous}"'],
                            cwd=ROOT, capture_output=True, encoding="utf-8", timeout=120)
    assert result.returncode == 2, result.stderr
    assert f"build failed: {line.replace(previous, str(root / previous), 1)}" in result.stderr.splitlines()
    assert not (tmp_path / "site").exists()


def test_verify_renders_the_changes_page_again_from_the_copy_the_release_keeps(sites):
    root, _ = sites
    verify = ("--search-root", str(ROOT), "verify", "--release-tag", "v1.1.0", "--reports-dir", str(root / "new"),
              "--manifest", str(root / "none.jsonl"))
    result = run_invoke(*verify, "--output-dir", "after", cwd=root)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        "verify: comparing with the previous leaderboard it keeps, after/changes/previous-leaderboard.json")
    assert result.stderr.splitlines()[-1].startswith("verified: after is identical to the render of v1.1.0 (")
    # Another previous leaderboard gives another changes page (and another kept copy): v1.0.0 without
    # its last row, d, which is then no row removed.
    other = json.loads((root / "before/leaderboard.json").read_text(encoding="utf-8"))
    assert other["rows"][-1]["model_name"] == "OpenMed/model-d"
    other["rows"].pop()
    other["suites"][0]["families"][0]["rows"].pop()
    other["row_count"] -= 1
    (root / "other.json").write_text(json.dumps(other), encoding="utf-8")
    again = run_invoke(*verify, "--output-dir", "after", "--previous", "other.json", cwd=root)
    assert again.returncode == 1
    assert again.stdout.splitlines() == ["changed: SHA256SUMS", "changed: changes.html",
                                         "changed: changes/previous-leaderboard.json",
                                         "changed: feeds/releases.atom.xml"]


def pelican_content(site: Path, reports: Path, *settings: str) -> None:
    """``pelican content`` of ``reports`` (release v1.1.0) into ``site``, rendering in place when
    it holds an earlier render, with ``settings`` (NAME=value) on top."""
    result = subprocess.run([str(Path(sys.executable).parent / "pelican"), "content", "-s", SETTINGS, "-o", str(site),
                             "-e", f'LEADERBOARD_REPORTS_DIR="{reports}"', 'LEADERBOARD_RELEASE_TAG="v1.1.0"', *settings],
                            cwd=ROOT, capture_output=True, encoding="utf-8", timeout=120)
    assert result.returncode == 0, result.stderr


def test_rendering_in_place_without_a_previous_leaderboard_removes_the_changes_page(sites, tmp_path):
    """`pelican content` renders into an earlier render: the changes page of that render goes with its previous."""
    root, _ = sites
    site = tmp_path / "site"
    pelican_content(site, root / "new", f'LEADERBOARD_PREVIOUS_LEADERBOARD="{root / "before/leaderboard.json"}"')
    assert (site / "changes.html").is_file() and (site / "changes/previous-leaderboard.json").is_file()
    pelican_content(site, root / "new")
    assert not (site / "changes.html").exists() and not (site / "changes/previous-leaderboard.json").exists()
    assert "changes.html" not in (site / "index.html").read_text(encoding="utf-8")


def test_a_kind_of_change_longer_than_a_page_goes_on_pages_of_its_own_each_row_once(tmp_path):
    """Five rows added with two rows a page: changes.html shows the first two, changes/added/2.html
    and 3.html the others, linked both ways; rendering in place with fewer changes removes a page."""
    from browser_support import build_site

    names = [f"OpenMed/model-{letter}" for letter in "abcde"]  # ranked in this order: leakage 1% to 5%
    old = write_archive(tmp_path / "old", {"golden/z.report.json": report(model_name="OpenMed/model-z",
                                                                          metrics={"leakage": {"overall": 0.5}})})
    new = write_archive(tmp_path / "new", {
        **{f"golden/{name[-1]}.report.json": report(model_name=name, metrics={"leakage": {"overall": (n + 1) / 100}})
           for n, name in enumerate(names)},
        "golden/z.report.json": report(model_name="OpenMed/model-z", metrics={"leakage": {"overall": 0.5}})})
    before = build_site(tmp_path / "before", old, release_tag="v1.0.0")
    site = build_site(tmp_path / "site", new, release_tag="v1.1.0", LEADERBOARD_PAGE_ROWS=2,
                      LEADERBOARD_PREVIOUS_LEADERBOARD=str(before / "leaderboard.json"))

    def added(html: str) -> list[str]:
        section = re.search(r'<section aria-labelledby="added">(.*?)</section>', html, re.S).group(1)
        return re.findall(r'<th scope="row"><a href="[^"]*" dir="auto">([^<]*)</a>', section)

    def pager(number: int, depth: str) -> str:
        CURRENT = ' aria-current="page"'
        links = {1: f"{depth}changes.html#added", 2: f"{depth}changes/added/2.html", 3: f"{depth}changes/added/3.html"}
        first, last = 2 * number - 1, min(5, 2 * number)
        return ('<nav class="pages" data-pages aria-label="Pages of Added">\n'
                f"<p>Rows {first} to {last} of 5 (page {number} of 3).</p>\n<ul>\n"
                + (f'<li><a href="{links[number - 1]}" rel="prev">Previous rows</a></li>\n' if number > 1 else "")
                + "".join(f'<li><a href="{url}"{CURRENT if page == number else ""}>'
                          f'<span class="visually-hidden">Page </span>{page}</a></li>\n' for page, url in links.items())
                + (f'<li><a href="{links[number + 1]}" rel="next">Next rows</a></li>\n' if number < 3 else "")
                + "</ul>\n</nav>\n")

    first = (site / "changes.html").read_text(encoding="utf-8")
    pages = [(site / f"changes/added/{number}.html").read_text(encoding="utf-8") for number in (2, 3)]
    assert [added(html) for html in [first, *pages]] == [names[:2], names[2:4], names[4:]]
    assert '<li><a href="#added">Added</a> (5)</li>' in first  # the count is every row's, not the page's
    assert pager(1, "./") in first
    for number, html in zip((2, 3), pages):
        assert pager(number, "../../") in html
        assert f"<title>Changes in v1.1.0, added: rows {2 * number - 1} to {min(5, 2 * number)} · " in html
        assert '<p class="breadcrumb"><a href="../../changes.html#added">Back to Changes in v1.1.0</a></p>' in html
        assert '<a href="../../changes.html" aria-current="page">Changes</a>' in html
    # The kinds that fit on a page have no pages of their own.
    assert sorted(path.relative_to(site).as_posix() for path in (site / "changes").rglob("*.html")) == [
        "changes/added/2.html", "changes/added/3.html"]

    # In place, against a previous leaderboard that already has two of the five: one page is left.
    middle = build_site(tmp_path / "middle", write_archive(tmp_path / "some", {
        **{f"golden/{name[-1]}.report.json": report(model_name=name, metrics={"leakage": {"overall": (n + 1) / 100}})
           for n, name in enumerate(names[:2])},
        "golden/z.report.json": report(model_name="OpenMed/model-z", metrics={"leakage": {"overall": 0.5}})}),
        release_tag="v1.0.0")
    pelican_content(site, new, "LEADERBOARD_PAGE_ROWS=2", f'LEADERBOARD_PREVIOUS_LEADERBOARD="{middle / "leaderboard.json"}"')
    assert added((site / "changes.html").read_text(encoding="utf-8")) == names[2:4]
    assert added((site / "changes/added/2.html").read_text(encoding="utf-8")) == names[4:]
    assert not (site / "changes/added/3.html").exists()


# -- The page's words, from two documents: no build needed -----------------------------------------


def document(*rows: tuple[str, float, float, float]) -> dict:
    """A leaderboard of golden/cpu rows (model, leakage, recall, F1), in the order given (already ranked)."""
    made = [{"suite": "golden", "model_family": "PII", "model_name": name, "device": "cpu", "leakage": leakage,
             "recall": recall, "f1": f1, "release_tag": "v1.0.0", "run_date": "2026-06-14", "reproducibility_hash": HASH,
             "report_path": f"{name}.report.json", "report_url": f"reports/{name}.report.json"}
            for name, leakage, recall, f1 in rows]
    return {"rows": made}


def test_a_row_that_leaks_more_comes_before_a_fall_in_recall_whatever_the_rows_names():
    old = document(("a", 0.1, 0.9, 0.8), ("z", 0.2, 0.9, 0.8))
    new = document(("a", 0.1, 0.8, 0.8), ("z", 0.3, 0.9, 0.8))
    page = changes_page(compare(old, new), new, old, b"{}", "v2.0.0", 50)
    assert [(section.anchor, section.title, [(line.model_name, line.cells) for line in section.lines])
            for section in page.sections] == [
        ("leaks-more", "Leaks more", [("z", ("leakage", "20.00%", "30.00%", "+10.00"))]),
        ("fell", "Recall or F1 fell", [("a", ("recall", "90.00%", "80.00%", "-10.00"))]),
    ]
    assert page.summary == "1 row leaks more, 1 fall in recall or F1"
    assert page.leaks_more == 1 and page.title == "Changes in v2.0.0"
    assert page.notes == {"z.report.json": ("leakage 20.00% → 30.00% (+10.00 points)",),
                          "a.report.json": ("recall 90.00% → 80.00% (-10.00 points)",)}


def test_identical_leaderboards_have_a_page_that_says_so_and_no_notes():
    same = document(("a", 0.1, 0.9, 0.8))
    page = changes_page(compare(same, same), same, same, b"{}", None, 50)
    assert (page.sections, page.notes, page.summary, page.title) == ((), {}, "no changes", "Changes in this build")


def test_a_changed_rows_note_goes_to_the_report_that_stands_for_it():
    # Two releases of one row in the new leaderboard: the newest (v1.10.0, not v1.9.0) stands for it.
    old = document(("a", 0.1, 0.9, 0.8))
    new = document(("a", 0.1, 0.9, 0.8), ("a", 0.2, 0.9, 0.8))
    new["rows"][0].update(release_tag="v1.9.0", report_path="v1.9.0/a.report.json")
    new["rows"][1].update(release_tag="v1.10.0", report_path="v1.10.0/a.report.json")
    page = changes_page(compare(old, new), new, old, b"{}", "v1.10.0", 50)
    assert list(page.notes) == ["v1.10.0/a.report.json"]
    assert [standing.row["release_tag"] for standing in standings(new).values()] == ["v1.10.0"]
