"""Pages at scale: every family's rows are on static pages of LEADERBOARD_PAGE_ROWS rows
(suite/<anchor>/<family>/<page>.html), linked to each other, and the index and each suite's page
(suite/<anchor>/index.html) open on the suite's best rows across its families, then show the top of
each family and link to its pages, so that every row is reachable without JavaScript and no page
grows with the archive (the index's own budget is in test_first_view.py).

A build of 100,000 reports at the defaults is too slow for the suite. Instead the largest family
page of a 5,000-report build is taken apart (what every page has, what each row and page link adds)
and the bound at 100,000 reports in 6 suites is worked out from those sizes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from conftest import SETTINGS

from benchmark_leaderboard.settings import DEFAULTS
from benchmarks.make_archive import make_archive
from test_first_view import BUDGET_BYTES
from leaderboard_tools.runner import build

PAGE_ROWS = 45  # families of 100 rows: pages of 45, 45 and 10
MAX_HTML = 10 * 1000 * 1000
ROW = re.compile(r'^<tr data-row="(\d+)">.*\n', re.M)
LINK = re.compile(r'^<li><a href="[^"]*"[^>]*>.*</a></li>\n', re.M)


def render(root: Path, reports: int, **settings) -> Path:
    make_archive(root / "archive", reports)
    build(SETTINGS, str(root / "site"), reports_dir=str(root / "archive" / "reports"),
          manifest=str(root / "archive" / "models.jsonl"), release_tag="v3.0.0", extra=settings,
          progress=lambda message: None)
    return root / "site"


@pytest.fixture(scope="module")
def paged(tmp_path_factory) -> Path:
    """3,000 reports in 6 suites of 5 families (100 rows each), pages of 45 rows."""
    return render(tmp_path_factory.mktemp("paged"), 3000, LEADERBOARD_PAGE_ROWS=PAGE_ROWS)


def family_pages(site: Path) -> list[Path]:
    return sorted((site / "suite").glob("*/*/*.html"))


def suite_pages(site: Path) -> list[Path]:
    return sorted((site / "suite").glob("*/index.html"))


def tables(html: str) -> list[tuple[int, list[int]]]:
    """Each family table of a page: its data-total and the row indices of its body, in order."""
    return [(int(total), [int(index) for index in re.findall(r'^<tr data-row="(\d+)">', body, re.M)])
            for total, body in re.findall(r'<table class="board" data-total="(\d+)">(.*?)</table>', html, re.S)]


def best_rows(html: str) -> list[int]:
    """The row indices of a panel's best rows (its first table of rows)."""
    [body] = re.findall(r'<table class="board top">(.*?)</table>', html, re.S)
    return [int(index) for index in re.findall(r'^<tr data-row="(\d+)">', body, re.M)]


def test_every_row_is_in_exactly_one_static_table_in_its_familys_order(paged):
    leaderboard = json.loads((paged / "leaderboard.json").read_text(encoding="utf-8"))
    index_of = {row["report_path"]: i for i, row in enumerate(leaderboard["rows"])}
    index_html = (paged / "index.html").read_text(encoding="utf-8")
    anchors = re.findall(r'<a id="([^"]+)-tab"', index_html)
    assert len(anchors) == 6 and re.findall(r'<section class="panel" id="([^"]+)"', index_html) == anchors[:1]
    seen: list[int] = []
    top, best = DEFAULTS["LEADERBOARD_INDEX_ROWS"], DEFAULTS["LEADERBOARD_TOP_ROWS"]
    for suite, anchor in zip(leaderboard["suites"], anchors):
        # The suite's panel, on the index or on its own page: first the suite's best rows across its
        # families, in ranking order; then the top of each family, in order.
        panel = index_html if anchor == anchors[0] else (paged / "suite" / anchor / "index.html").read_text(encoding="utf-8")
        assert re.findall(r'<section class="panel" id="([^"]+)"', panel) == [anchor]
        in_suite = sorted(index_of[row["report_path"]] for family in suite["families"] for row in family["rows"])
        assert best_rows(panel) == in_suite[:best]
        on_panel = tables(panel)[1:]  # after the empty table the script copies
        assert len(on_panel) == len(suite["families"]) == 5
        for family_number, family in enumerate(suite["families"], start=1):
            expected = [index_of[row["report_path"]] for row in family["rows"]]
            total, first = on_panel[family_number - 1]
            assert total == len(expected) == 100 and first == expected[:top]
            shown: list[int] = []
            page = 1
            while (paged / "suite" / anchor / str(family_number) / f"{page}.html").is_file():
                [(page_total, rows)] = tables((paged / "suite" / anchor / str(family_number) / f"{page}.html").read_text(encoding="utf-8"))
                assert page_total == total and 0 < len(rows) <= PAGE_ROWS
                shown += rows
                page += 1
            assert page - 1 == 3
            assert shown == expected  # the family's rows, in ranking order, page after page
            seen += shown
    assert sorted(seen) == list(range(3000))  # every row once
    assert len(family_pages(paged)) == 30 * 3 and len(suite_pages(paged)) == 5


def resolve(site: Path, page: Path, href: str) -> tuple[Path, str]:
    parts = urlsplit(href)
    return (page.parent / unquote(parts.path)).resolve(), parts.fragment


def navigation(html: str) -> list[tuple[str, str]]:
    """The links of each page navigation, as (text, href), the current page's text marked with a *."""
    found = []
    for nav in re.findall(r'<nav class="pages" data-pages aria-label="[^"]+">(.*?)</nav>', html, re.S):
        found.append([(re.sub(r"<[^>]+>", "", text).replace("Page ", "") + ("*" if 'aria-current="page"' in attrs else ""), href)
                      for href, attrs, text in re.findall(r'<a href="([^"]+)"([^>]*)>(.*?)</a>', nav)])
    return found


def test_the_pages_link_to_each_other_in_pelicans_pagination_style(paged):
    index = paged / "index.html"
    index_html = index.read_text(encoding="utf-8")
    assert navigation(index_html) == []  # the index links each family's pages by one link
    anchor = re.findall(r'<section class="panel" id="([^"]+)"', index_html)[0]
    assert f'<p class="family-all"><a href="./suite/{anchor}/1/1.html">All 100 rows' in index_html
    up = "../../../"
    first = (paged / "suite" / anchor / "1" / "1.html").read_text(encoding="utf-8")
    assert navigation(first) == [[("1*", f"{up}suite/{anchor}/1/1.html"), ("2", f"{up}suite/{anchor}/1/2.html"),
                                  ("3", f"{up}suite/{anchor}/1/3.html"), ("Next rows", f"{up}suite/{anchor}/1/2.html")]]
    assert "<p>Rows 1 to 45 of 100 (page 1 of 3).</p>" in first
    second = (paged / "suite" / anchor / "1" / "2.html").read_text(encoding="utf-8")
    assert navigation(second) == [[("Previous rows", f"{up}suite/{anchor}/1/1.html"), ("1", f"{up}suite/{anchor}/1/1.html"),
                                   ("2*", f"{up}suite/{anchor}/1/2.html"), ("3", f"{up}suite/{anchor}/1/3.html"),
                                   ("Next rows", f"{up}suite/{anchor}/1/3.html")]]
    last = (paged / "suite" / anchor / "1" / "3.html").read_text(encoding="utf-8")
    assert navigation(last)[0][0] == ("Previous rows", f"{up}suite/{anchor}/1/2.html")
    assert navigation(last)[0][-1] == ("3*", f"{up}suite/{anchor}/1/3.html")
    assert "<p>Rows 91 to 100 of 100 (page 3 of 3).</p>" in last
    # Every link of every page leads to a file the build wrote, and a fragment to an id on it.
    for page in [index, *suite_pages(paged), *family_pages(paged)]:
        html = page.read_text(encoding="utf-8")
        for href in re.findall(r'<a href="([^"#][^"]*)"', html):
            target, fragment = resolve(paged, page, href)
            assert target.is_file(), (page, href)
            if fragment:
                assert f'id="{fragment}"' in target.read_text(encoding="utf-8"), (page, href)


def test_no_page_holds_more_than_a_page_of_rows_a_family(paged):
    top = DEFAULTS["LEADERBOARD_INDEX_ROWS"]
    for page in [paged / "index.html", *suite_pages(paged)]:
        html = page.read_text(encoding="utf-8")
        assert all(len(rows) <= top for _, rows in tables(html)), page
    for page in family_pages(paged):
        html = page.read_text(encoding="utf-8")
        assert all(len(rows) <= PAGE_ROWS for _, rows in tables(html)), page
        assert len(html.encode("utf-8")) < MAX_HTML
    # Nothing else grows with the archive: a family page is its rows and under 8 kB besides; the index
    # is its rows, its chart and under 60 kB besides (the lede, the controls, 6 tabs, 5 family boxes).
    assert max(len(ROW.sub("", page.read_text(encoding="utf-8")).encode("utf-8")) for page in family_pages(paged)) < 8_000
    index = (paged / "index.html").read_text(encoding="utf-8")
    rest = re.sub(r'<figure class="chart">.*?</figure>', "", ROW.sub("", index), flags=re.S)
    assert len(rest.encode("utf-8")) < 60_000


def encoded(items) -> int:
    return sum(len(item.encode("utf-8")) for item in items)


def longest(items) -> int:
    return max(len(item.encode("utf-8")) for item in items)


NAV = re.compile(r'<nav class="pages" data-pages.*?</nav>\n', re.S)


def test_at_100000_reports_no_html_file_exceeds_10_mb(paged, tmp_path):
    """The bound by arithmetic at the default page size, from a 5,000-report build whose family
    pages hold every row of their family (pages of 500 rows; families of 166 or 167), and from the
    paged build's page links. The index and the suites' pages hold a bounded top of each family
    (test_first_view.py)."""
    page_rows = DEFAULTS["LEADERBOARD_PAGE_ROWS"]
    site = render(tmp_path, 5000, LEADERBOARD_PAGE_ROWS=500)
    pages = family_pages(site)
    # The other large pages, the index and the suites' pages, are bounded by the first view's budget.
    assert max(path.stat().st_size for path in [site / "index.html", *suite_pages(site)]) < BUDGET_BYTES
    rows = [match.group(0) for page in pages for match in ROW.finditer(page.read_text(encoding="utf-8"))]
    assert len(rows) == 5000  # every row on its family's one page

    # At 100,000 reports, 6 suites of 5 families of 3,334 rows (make_archive's archive), names and
    # paths are as long (model numbers are zero-padded); only numbers grow: a row's index (in
    # data-row and data-compare) and its rank in its suite by up to 2 digits each.
    suites, families = 6, 5
    count = -(-(-(-100_000 // (suites * families))) // page_rows)
    row = longest(rows) + 2 + 2 + 2
    # A family's page links: previous, one a page, next, and the nav around them, as the paged build writes them.
    paged_pages = [page.read_text(encoding="utf-8") for page in family_pages(paged)]
    navs = [nav for html in paged_pages for nav in NAV.findall(html)]
    link = max(longest(LINK.findall(html)) for html in paged_pages)
    nav = max(len(item.encode("utf-8")) - encoded(LINK.findall(item)) for item in navs) + (count + 2) * link
    # A family page: what every family page has (measured on the paged build) and a page of rows.
    page_fixed = max(len(ROW.sub("", NAV.sub("", html)).encode("utf-8")) for html in paged_pages)
    page_bound = page_fixed + 100 + page_rows * row + nav
    assert page_bound < MAX_HTML, f"a family page at 100,000 reports could reach {page_bound} bytes"


def test_the_best_rows_are_a_setting_of_one_to_twenty_rows(tmp_path):
    from leaderboard_tools.faults import BuildError

    site = render(tmp_path / "two", 60, LEADERBOARD_TOP_ROWS=2)
    leaderboard = json.loads((site / "leaderboard.json").read_text(encoding="utf-8"))
    first = leaderboard["suites"][0]["name"]
    assert best_rows((site / "index.html").read_text(encoding="utf-8")) == \
        [i for i, row in enumerate(leaderboard["rows"]) if row["suite"] == first][:2]
    for wrong in (0, 21):
        with pytest.raises(BuildError) as error:
            render(tmp_path / str(wrong), 6, LEADERBOARD_TOP_ROWS=wrong)
        assert error.value.line() == f"build failed: the setting LEADERBOARD_TOP_ROWS must be a whole number from 1 to 20, not {wrong}"
        assert not (tmp_path / str(wrong) / "site").exists()
