"""A long leaderboard in Chromium: 2,400 rows in two suites of two families, each table holding only
its first LEADERBOARD_PAGE_ROWS rows on the index (built with LEADERBOARD_INDEX_ROWS as many; the
family's static pages hold every row). With
JavaScript the filter, the sort and "download these rows" cover every row, and a row the index does
not hold is made exactly as the build writes it; without, the family pages reach every row."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from browser_support import PANELS_LOADED, base_url, browser, build_site, pages, write_manifest  # noqa: F401 - fixtures
from conftest import report, write_archive

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

PAGE_ROWS = 100
SUITES, FAMILIES, PER_FAMILY = ("one", "two"), ("NER", "PII"), 600
DEVICES = ("cpu", "cuda", "onnx")


def _archive(root: Path) -> tuple[Path, Path]:
    rng = random.Random(11)
    files, sizes = {}, []
    for suite in SUITES:
        for family in FAMILIES:
            for n in range(PER_FAMILY):
                model = f"OpenMed/{family.lower()}-{suite}-{n:04d}"
                recall = round(rng.uniform(0.5, 1), 3)
                files[f"{suite}/{family}/{n:04d}.report.json"] = report(
                    suite=suite, model_name=model, device=DEVICES[n % len(DEVICES)], fixture_count=rng.randint(1, 40),
                    metadata={"model_family": family},
                    metrics={"exact_span_f1": {"recall": recall, "f1": round(recall - 0.01, 3)},
                             "leakage": {"overall": round(rng.uniform(0, 0.1), 3)}})
                if n % 2:
                    sizes.append({"repo_id": model, "param_count": (n % 7 + 1) * 10_000_000})
    return write_archive(root / "reports", files), write_manifest(root / "models.jsonl", sizes)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("many")
    reports, manifest = _archive(root)
    return build_site(root / "site", reports, manifest, LEADERBOARD_PAGE_ROWS=PAGE_ROWS, LEADERBOARD_INDEX_ROWS=PAGE_ROWS)


@pytest.fixture(scope="module")
def rows(site) -> list[dict]:
    return json.loads((site / "leaderboard.json").read_text(encoding="utf-8"))["rows"]




def family_rows(rows: list[dict], suite: str, family: str) -> list[int]:
    return [i for i, row in enumerate(rows) if row["suite"] == suite and row["model_family"] == family]


def shown(page, panel: str) -> dict[str, list[int]]:
    """Each shown family's rows (their index in the global ranking), in the order shown."""
    return dict(page.eval_on_selector_all(f"#{panel} [data-family]", """fs => fs.filter(f => !f.hidden).map(f =>
        [f.querySelector('h3').textContent, Array.from(f.querySelectorAll('tbody tr'), r => Number(r.getAttribute('data-row')))])"""))


def test_the_index_holds_a_page_of_each_family_and_the_script_shows_more(pages, rows, site):
    html = (site / "index.html").read_text(encoding="utf-8")
    ner = family_rows(rows, "one", "NER")
    assert f'<tr data-row="{ner[PAGE_ROWS - 1]}">' in html and f'<tr data-row="{ner[PAGE_ROWS]}">' not in html
    w = pages.open("index.html#suite-one")
    page = w.page
    assert shown(page, "suite-one") == {"NER": ner[:PAGE_ROWS], "PII": family_rows(rows, "one", "PII")[:PAGE_ROWS]}
    assert page.inner_text("#filter-status") == "Showing all 1200 rows."
    more = page.locator("#suite-one .more button").first
    assert more.inner_text() == f"Show {PAGE_ROWS} more ({PAGE_ROWS} of {PER_FAMILY} shown)"
    # By keyboard: a family's box is laid out only once it scrolls into view (content-visibility),
    # so a click's target can move between aiming and clicking.
    more.press("Enter")
    assert shown(page, "suite-one")["NER"] == ner[:2 * PAGE_ROWS]
    assert more.inner_text() == f"Show {PAGE_ROWS} more ({2 * PAGE_ROWS} of {PER_FAMILY} shown)"
    assert not page.is_visible("#suite-one [data-pages]")
    w.assert_clean(pages.base_url)


def test_the_filter_finds_a_row_the_index_does_not_hold_made_as_the_build_writes_it(pages, rows, site):
    last = family_rows(rows, "two", "PII")[-1]
    html = (site / "index.html").read_text(encoding="utf-8")
    assert f'<tr data-row="{last}">' not in html
    w = pages.open("index.html")
    page = w.page
    page.fill("#filter", rows[last]["model_name"])
    page.wait_for_function(PANELS_LOADED)  # the only matching suite's panel, loaded as it is chosen
    assert page.get_attribute("[role=tab][aria-selected=true]", "aria-controls") == "suite-two"
    assert shown(page, "suite-two") == {"PII": [last]}
    assert page.inner_text("#filter-status") == f"Showing 1 of 1200 rows matching \u201c{rows[last]['model_name']}\u201d."
    made = page.eval_on_selector(f"[data-family] tr[data-row='{last}']", "r => r.outerHTML")
    # The same row on its family's last static page, where the build wrote it: the same markup, but
    # for the links' way to the site's root.
    pages_total = -(-PER_FAMILY // PAGE_ROWS)
    page.goto(pages.base_url + f"suite/suite-two/2/{pages_total}.html")
    written = page.eval_on_selector(f"tr[data-row='{last}']", "r => r.outerHTML")
    assert written.count('href="../../../') == 2
    assert made == written.replace('href="../../../', 'href="./')
    w.assert_clean(pages.base_url)


def test_a_sort_orders_every_row_of_each_family(pages, rows):
    w = pages.open("index.html#suite-one")
    page = w.page
    page.locator("#suite-one thead button[data-sort=recall]").first.click()
    page.locator("#suite-one thead button[data-sort=recall]").first.click()
    for family in FAMILIES:
        members = family_rows(rows, "one", family)
        by_recall = sorted(members, key=lambda i: (-rows[i]["recall"], i))
        assert shown(page, "suite-one")[family] == by_recall[:PAGE_ROWS]
    page.locator("#suite-one .more button").first.press("Enter")
    assert shown(page, "suite-one")["NER"] == sorted(family_rows(rows, "one", "NER"), key=lambda i: (-rows[i]["recall"], i))[:2 * PAGE_ROWS]
    # Sizes: unknown last; the family's smallest known first.
    page.locator("#suite-one thead button[data-sort=param_count]").first.click()
    fields = page.evaluate("window.leaderboardData.fields.param_count")
    members = family_rows(rows, "one", "PII")
    by_size = sorted(members, key=lambda i: (fields[i] is None, fields[i] or 0, i))
    assert shown(page, "suite-one")["PII"] == by_size[:PAGE_ROWS]
    w.assert_clean(pages.base_url)


def test_filter_counts_and_download_cover_every_matching_row(pages, rows, site):
    w = pages.open("index.html#suite-two?q=cuda&size=30-", accept_downloads=True)
    page = w.page
    fields = page.evaluate("window.leaderboardData.fields.param_count")

    def matching(suite: str, family: str | None = None) -> list[int]:
        return [i for i in range(len(rows)) if rows[i]["suite"] == suite and rows[i]["device"] == "cuda"
                and fields[i] is not None and fields[i] >= 30_000_000 and family in (None, rows[i]["model_family"])]

    assert page.eval_on_selector_all("[role=tab] [data-count]", "cs => cs.map(c => Number(c.textContent))") == \
        [len(matching("one")), len(matching("two"))]
    assert shown(page, "suite-two") == {family: matching("two", family)[:PAGE_ROWS] for family in FAMILIES}
    with page.expect_download() as download:
        page.click("[data-download]")
    lines = Path(download.value.path()).read_bytes().split(b"\r\n")
    published = (site / "leaderboard.csv").read_bytes().split(b"\r\n")
    assert lines == [published[0]] + [published[i + 1] for family in FAMILIES for i in matching("two", family)] + [b""]
    w.assert_clean(pages.base_url)


def test_without_javascript_the_family_pages_reach_every_row_in_canonical_order(pages, rows):
    w = pages.open("index.html", java_script_enabled=False)
    page = w.page
    assert shown(page, "suite-one")["PII"] == family_rows(rows, "one", "PII")[:PAGE_ROWS]
    # The family's link leads to its first page, which holds its first rows again; then page after page.
    # Each click is a navigation: the rows are read once the next page has loaded, not from the one left.
    with page.expect_navigation():
        page.click("#suite-one [data-family]:nth-of-type(2) .family-all a")
    seen: list[int] = []
    while True:
        seen += page.eval_on_selector_all("tbody tr", "rs => rs.map(r => Number(r.getAttribute('data-row')))")
        following = page.locator("[data-pages] a[rel=next]")
        if not following.count():
            break
        with page.expect_navigation():
            following.click()
    assert seen == family_rows(rows, "one", "PII")
    assert w.errors == []
