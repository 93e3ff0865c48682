"""Pages at scale: a family table longer than LEADERBOARD_PAGE_ROWS shows its first page on the index
and continues on static pages (suite/<anchor>/<family>/<page>.html), so that every row is reachable
without JavaScript and no page grows with the archive.

A build of 100,000 reports at the defaults is too slow for the suite. Instead the largest page of a
5,000-report build is taken apart (what every page has, what each row and page link adds, and what
a chart has besides its cells, line and marks) and the bound at 100,000 reports in 6 suites is
worked out from those sizes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from conftest import SETTINGS

from benchmark_leaderboard.chart import CELL_HEIGHT, GRID_COLUMNS, GRID_ROWS, PLOT_HEIGHT, PLOT_WIDTH
from benchmark_leaderboard.settings import DEFAULTS
from benchmarks.make_archive import make_archive
from leaderboard_tools.runner import build

PAGE_ROWS = 45  # families of 100 rows: pages of 45, 45 and 10
MAX_HTML = 10 * 1000 * 1000
ROW = re.compile(r'^<tr data-row="(\d+)">.*\n', re.M)
MARK = re.compile(r'^<a href="[^"]*" data-row="\d+".*</a>\n', re.M)
CHART = re.compile(r'<figure class="chart">.*?</figure>', re.S)
# A chart's grid (one path a shade, of runs of cells) and its frontier's step line.
SHADE_PATH = re.compile(r'<path class="d\d" d="([^"]*)">')
STEP_PATH = re.compile(r'<path class="step" d="([^"]*)"')
# The longest a run of cells is written, and the longest step line: one a frontier mark (tenths of a
# unit), or, for a frontier too long to mark, one command a distinct x and y in whole units.
RUN = len(f"M624 272h{PLOT_WIDTH}v{CELL_HEIGHT}h-{PLOT_WIDTH}z")
STEP = max(len("H624.0V272.0") * DEFAULTS["LEADERBOARD_CHART_MARKS"], len("M624 272") + len("H624") * (PLOT_WIDTH + PLOT_HEIGHT))
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
    return sorted((site / "suite").rglob("*.html"))


def tables(html: str) -> list[tuple[int, list[int]]]:
    """Each family table of a page: its data-total and the row indices of its body, in order."""
    return [(int(total), [int(index) for index in re.findall(r'^<tr data-row="(\d+)">', body, re.M)])
            for total, body in re.findall(r'<table class="board" data-total="(\d+)">(.*?)</table>', html, re.S)]


def test_every_row_is_in_exactly_one_static_table_in_its_familys_order(paged):
    leaderboard = json.loads((paged / "leaderboard.json").read_text(encoding="utf-8"))
    index_of = {row["report_path"]: i for i, row in enumerate(leaderboard["rows"])}
    index_html = (paged / "index.html").read_text(encoding="utf-8")
    anchors = re.findall(r'<section class="panel" id="([^"]+)"', index_html)
    seen: list[int] = []
    on_index = tables(index_html)
    assert len(on_index) == sum(len(suite["families"]) for suite in leaderboard["suites"]) == 30
    number = 0
    for suite, anchor in zip(leaderboard["suites"], anchors):
        for family_number, family in enumerate(suite["families"], start=1):
            expected = [index_of[row["report_path"]] for row in family["rows"]]
            total, first = on_index[number]
            number += 1
            assert total == len(expected) == 100
            shown = list(first)
            page = 2
            while (paged / "suite" / anchor / str(family_number) / f"{page}.html").is_file():
                [(page_total, rows)] = tables((paged / "suite" / anchor / str(family_number) / f"{page}.html").read_text(encoding="utf-8"))
                assert page_total == total and 0 < len(rows) <= PAGE_ROWS
                shown += rows
                page += 1
            assert (len(first), page - 1) == (PAGE_ROWS, 3)
            assert shown == expected  # the family's rows, in ranking order, page after page
            seen += shown
    assert sorted(seen) == list(range(3000))  # every row once
    assert len(family_pages(paged)) == 30 * 2


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
    navs = navigation(index_html)
    assert len(navs) == 30
    anchor = re.findall(r'<section class="panel" id="([^"]+)"', index_html)[0]
    assert navs[0] == [("1*", f"./index.html#{anchor}"), ("2", f"./suite/{anchor}/1/2.html"),
                       ("3", f"./suite/{anchor}/1/3.html"), ("Next rows", f"./suite/{anchor}/1/2.html")]
    assert "<p>Rows 1 to 45 of 100 (page 1 of 3).</p>" in index_html
    second = (paged / "suite" / anchor / "1" / "2.html").read_text(encoding="utf-8")
    up = "../../../"
    assert navigation(second) == [[("Previous rows", f"{up}index.html#{anchor}"), ("1", f"{up}index.html#{anchor}"),
                                   ("2*", f"{up}suite/{anchor}/1/2.html"), ("3", f"{up}suite/{anchor}/1/3.html"),
                                   ("Next rows", f"{up}suite/{anchor}/1/3.html")]]
    last = (paged / "suite" / anchor / "1" / "3.html").read_text(encoding="utf-8")
    assert navigation(last)[0][0] == ("Previous rows", f"{up}suite/{anchor}/1/2.html")
    assert navigation(last)[0][-1] == ("3*", f"{up}suite/{anchor}/1/3.html")
    assert "<p>Rows 91 to 100 of 100 (page 3 of 3).</p>" in last
    # Every link of every page leads to a file the build wrote, and a fragment to an id on it.
    for page in [index, *family_pages(paged)]:
        html = page.read_text(encoding="utf-8")
        for href in re.findall(r'<a href="([^"#][^"]*)"', html):
            target, fragment = resolve(paged, page, href)
            assert target.is_file(), (page, href)
            if fragment:
                assert f'id="{fragment}"' in target.read_text(encoding="utf-8"), (page, href)


def test_no_page_holds_more_than_a_page_of_rows_a_family(paged):
    for page in [paged / "index.html", *family_pages(paged)]:
        html = page.read_text(encoding="utf-8")
        assert all(len(rows) <= PAGE_ROWS for _, rows in tables(html)), page
        assert len(html.encode("utf-8")) < MAX_HTML
    # Nothing else grows with the archive: a family page is its rows and under 8 kB besides; the index
    # is its rows, its charts and under 100 kB besides (the lede, the controls, 6 tabs, 30 table heads
    # and their page links).
    assert max(len(ROW.sub("", page.read_text(encoding="utf-8")).encode("utf-8")) for page in family_pages(paged)) < 8_000
    index = (paged / "index.html").read_text(encoding="utf-8")
    rest = re.sub(r'<figure class="chart">.*?</figure>', "", ROW.sub("", index), flags=re.S)
    assert len(rest.encode("utf-8")) < 100_000


def encoded(items) -> int:
    return sum(len(item.encode("utf-8")) for item in items)


def longest(items) -> int:
    return max(len(item.encode("utf-8")) for item in items)


NAV = re.compile(r'<nav class="pages" data-pages.*?</nav>\n', re.S)


def test_at_100000_reports_no_html_file_exceeds_10_mb(paged, tmp_path):
    """The bound by arithmetic at the default page size, from a 5,000-report build (a chart is drawn
    the same way whatever its rows: its frontier marked, the other rows in a fixed grid), and from
    the paged build's page links and family pages."""
    page_rows = DEFAULTS["LEADERBOARD_PAGE_ROWS"]
    # Pages long enough for every row to be on the index: each row's bytes are measured there.
    site = render(tmp_path, 5000, LEADERBOARD_PAGE_ROWS=500)
    largest = max(site.rglob("*.html"), key=lambda path: path.stat().st_size)
    assert largest == site / "index.html"
    html = largest.read_text(encoding="utf-8")
    rows = [match.group(0) for match in ROW.finditer(html)]
    charts, marks = CHART.findall(html), MARK.findall(html)
    assert len(rows) == 5000 and len(charts) == 6 and marks and not NAV.search(html)  # every row on the index
    fixed = len(html.encode("utf-8")) - encoded(rows) - encoded(charts)
    # A chart besides its grid, its line and its marks (the frame, the text alternative, the legend).
    chart_fixed = max(len(chart.encode("utf-8")) - encoded(SHADE_PATH.findall(chart)) - encoded(STEP_PATH.findall(chart))
                      - encoded(MARK.findall(chart)) for chart in charts)

    # At 100,000 reports, 6 suites of 5 families of 3,334 rows (make_archive's archive), names and
    # paths are as long (model numbers are zero-padded); only numbers grow: a row's index (in
    # data-row and data-compare) and its rank in its suite by up to 2 digits each, a mark's row index
    # by 1, the ~30 counts of a chart's text (rows, the legend's counts) by 3, and the ~200 counts of
    # the fixed text by 3 at most.
    suites, families = 6, 5
    pages = -(-(-(-100_000 // (suites * families))) // page_rows)
    row, mark = longest(rows) + 2 + 2 + 2, longest(marks) + 1
    chart = chart_fixed + 30 * 3 + GRID_COLUMNS * GRID_ROWS * RUN + STEP + DEFAULTS["LEADERBOARD_CHART_MARKS"] * mark
    # A family's page links: previous, one a page, next, and the nav around them, as the paged build writes them.
    paged_index = (paged / "index.html").read_text(encoding="utf-8")
    navs = NAV.findall(paged_index)
    link = longest(LINK.findall(paged_index))
    nav = max(len(item.encode("utf-8")) - encoded(LINK.findall(item)) for item in navs) + (pages + 2) * link
    index_bound = (fixed + 600 + suites * families * (page_rows * row + nav)
                   + suites * chart)
    assert index_bound < MAX_HTML, f"the index at 100,000 reports could reach {index_bound} bytes"
    # A family page: what every family page has (measured on the paged build) and a page of rows.
    page_fixed = max(len(ROW.sub("", NAV.sub("", page.read_text(encoding="utf-8"))).encode("utf-8")) for page in family_pages(paged))
    page_bound = page_fixed + 100 + page_rows * row + nav
    assert page_bound < MAX_HTML, f"a family page at 100,000 reports could reach {page_bound} bytes"
