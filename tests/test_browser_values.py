"""What the data says is what a reader sees, whatever the values, in Chromium at 360 × 640 and
1366 × 768, served under `default-src 'self'`, on an archive nobody wrote by hand: leakage, recall
and F1 of 1/7, 1/9 and 1/11 as a division gives them (and two leakages that read the same at two
decimals), a leakage of 100% on one fixture (the widest interval), a model and a family named in
right-to-left letters, and suites of 8, 3 and 1 rows, the models' sizes from a manifest:

- no text of a value lies outside its cell's box (or a report page's figure's), and no page scrolls
  sideways: the index, a suite's page, a family's page, a report page and compare;
- the right-to-left name is isolated wherever it is shown: the box that isolates its text (a
  ``<bdi>``, or an element with ``dir="auto"``) holds it alone; the page's title isolates it too
  (an archive whose name holds a bidirectional control is refused in one line: test_validate.py);
- each suite's status line counts its own rows, with and without JavaScript;
- the best rows of a suite follow a filter by device and a size range: the best matching rows in
  ranking order with their canonical ranks, and the suite's best again once cleared.

One browser for the module, a context a viewport and JavaScript setting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark_leaderboard.formatting import rounded
from browser_support import base_url, browser, build_site, pages, settle, write_manifest  # noqa: F401 - fixtures
from conftest import report, write_archive

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

VIEWPORTS = [(360, 640), (1366, 768)]
RTL_MODEL = "\u05de\u05d5\u05d3\u05dc-\u0646\u0645\u0648\u0630\u062c 2"  # Hebrew and Arabic letters, then a number
RTL_FAMILY = "\u05de\u05e9\u05e4\u05d7\u05d4"
# clinical-notes: (model, device, leakage, recall, F1, fixtures, size in millions), in no order.
CLINICAL = [
    ("OpenMed/seventh", "cpu", 1 / 7, 1 / 9, 1 / 11, 7, 44),
    ("OpenMed/seventh-onnx", "onnx", 0.142863, 1 / 11, 1 / 7, 70, 434),
    ("OpenMed/ninth", "mlx-fp", 1 / 9, 1 / 7, 1 / 9, 9, 95),
    ("OpenMed/eleventh", "onnx", 1 / 11, 1 / 9, 1 / 7, 11, 90),
    (RTL_MODEL, "onnx", 0.05, 6 / 7, 8 / 9, 24, 60),
    ("OpenMed/clean", "cpu", 0.0, 10 / 11, 10 / 11, 24, 1200),
    ("OpenMed/whole", "onnx", 1.0, 1 / 7, 1 / 9, 1, 20),
    ("OpenMed/cuda", "cuda", 0.02, 0.9, 0.9, 24, 80),
]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("values")
    files, manifest = {}, []
    for n, (model, device, leakage, recall, f1, fixtures, size) in enumerate(CLINICAL):
        files[f"clinical/{n}.report.json"] = report(
            suite="clinical-notes", model_name=model, device=device, fixture_count=fixtures,
            metadata={"model_family": RTL_FAMILY if model == RTL_MODEL else "PII"},
            metrics={"leakage": {"overall": leakage}, "exact_span_f1": {"recall": recall, "f1": f1}})
        manifest.append({"repo_id": model, "param_count": size * 10**6})
    for n in range(3):
        files[f"radiology/{n}.report.json"] = report(suite="radiology", model_name=f"OpenMed/radiology-{n}",
                                                     metrics={"leakage": {"overall": (n + 1) / 7}})
    files["golden.report.json"] = report(suite="golden", model_name=RTL_MODEL, metadata={"model_family": RTL_FAMILY})
    reports = write_archive(root / "reports", files)
    return build_site(root / "site", reports, write_manifest(root / "models.jsonl", manifest))


def published(site: Path) -> dict:
    return json.loads((site / "leaderboard.json").read_text(encoding="utf-8"))


def report_page(site: Path, model: str) -> str:
    """The address of a clinical-notes row's report page, within the site."""
    row = next(row for row in published(site)["rows"] if row["model_name"] == model and row["suite"] == "clinical-notes")
    return "report/" + row["report_path"].removesuffix(".json") + ".html"


def pages_to_check(site: Path) -> list[str]:
    return ["index.html", "suite/suite-golden/index.html", "suite/suite-clinical-notes/1/1.html",
            report_page(site, "OpenMed/seventh"), report_page(site, "OpenMed/whole"), "compare.html#rows=0,1,2,3"]


# Every text node of the page that is shown (not in a title, a template, a script or a box hidden
# from sight) whose text lies outside its cell's box: a table's cell, a card, a report's figure,
# compare's cell. And how far the page scrolls sideways.
OVERFLOWS = """() => {
  const cells = document.querySelectorAll('.board tbody td, .board tbody th, .figures > div, .compare-table td, .compare-table th');
  const out = [];
  for (const cell of cells) {
    if (!cell.getClientRects().length) continue;
    const box = cell.getBoundingClientRect();
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.data.trim() || node.parentElement.closest('.visually-hidden')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        if (r.width && (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1))
          out.push(node.data.trim() + ' outside ' + cell.tagName + ' ' + (cell.textContent || '').trim().slice(0, 40));
      }
    }
    if (cell.scrollWidth > cell.clientWidth + 1) out.push('wider than its box: ' + cell.textContent.trim().slice(0, 60));
  }
  if (document.documentElement.scrollWidth > innerWidth) out.push('the page scrolls sideways');
  return out;
}"""


@pytest.mark.parametrize("width, height", VIEWPORTS)
def test_no_value_leaves_its_cell_and_no_page_scrolls_sideways(site, pages, width, height):
    # The report page's figures too: its leakage is written exactly (14.285714285714285%).
    for path in pages_to_check(site):
        opened = pages.open(path, viewport={"width": width, "height": height})
        opened.page.wait_for_timeout(100)
        assert opened.page.evaluate(OVERFLOWS) == [], path
        opened.assert_clean(pages.base_url)


def test_tables_write_two_decimals_and_more_where_rows_would_read_the_same(site, pages):
    opened = pages.open("suite/suite-clinical-notes/1/1.html", viewport={"width": 1366, "height": 768})
    cells = opened.page.evaluate("() => Array.from(document.querySelectorAll('.board tbody tr'), tr => "
                                 "Array.from(tr.cells, cell => cell.firstChild ? cell.firstChild.textContent.trim() : ''))")
    by_model = {row[2]: row for row in cells}  # the compare column is there (hidden): model at 2
    # 1/7 and 0.142863 read 14.29 at two decimals, but rank apart: 14.2857 and 14.2863.
    assert [by_model["OpenMed/seventh"][4], by_model["OpenMed/seventh-onnx"][4]] == ["14.2857", "14.2863"]
    assert by_model["OpenMed/ninth"][4:7] == ["11.11", "14.29", "11.11"]
    assert by_model["OpenMed/eleventh"][4:7] == ["9.09", "11.11", "14.29"]
    # The page's script writes a row as the build does (formatting.rounded, in leaderboard-common.js).
    values = [1 / 7, 1 / 9, 1 / 11, 0.00125, 0.00135, 0.999999, 0.142863, -0.0]
    index = pages.open("index.html", viewport={"width": 1366, "height": 768})
    assert index.page.evaluate("values => [2, 4].flatMap(d => values.map(v => leaderboardCommon.rounded(v, d)))",
                               values) == [rounded(value, d) for d in (2, 4) for value in values]
    # The report page keeps the exact value.
    report = pages.open(report_page(site, "OpenMed/seventh"), viewport={"width": 1366, "height": 768})
    assert report.page.inner_text(".figures div:first-child dd").startswith("14.285714285714285%")


# Every text node showing ``name``: whether the box that isolates it holds it alone, with its own
# direction (a <bdi>, or an element with dir="auto"), and what it is.
ISOLATION = """name => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.includes(name) || node.parentElement.closest('template, script, title, desc, .visually-hidden')) continue;
    let box = node.parentElement;
    while (box && box.tagName !== 'BDI' && box.getAttribute('dir') !== 'auto' && getComputedStyle(box).display === 'inline')
      box = box.parentElement;
    const isolated = Boolean(box) && (box.tagName === 'BDI' || box.getAttribute('dir') === 'auto') && box.textContent.trim() === name;
    found.push([isolated, (box ? box.parentElement.tagName + '>' + box.tagName : 'none') + ': ' + node.parentElement.closest('p, li, td, th, h1, h2, h3, dd, dt, div, pre, caption').textContent.trim().slice(0, 80)]);
  }
  return found;
}"""


def shown_isolated(opened, name: str) -> list[list]:
    return opened.page.evaluate(ISOLATION, name)


@pytest.mark.parametrize("path", ["index.html", "suite/suite-golden/index.html", "suite/suite-clinical-notes/2/1.html",
                                  "compare.html#rows=0,1,2,3,4"])
def test_a_right_to_left_name_is_isolated_wherever_it_is_shown(site, pages, path):
    opened = pages.open(path, viewport={"width": 1366, "height": 768})
    if path.startswith("compare"):
        opened.page.wait_for_selector(".compare-table")
    for name in (RTL_MODEL, RTL_FAMILY):
        found = shown_isolated(opened, name)
        assert [where for isolated, where in found if not isolated] == [], (path, name)
    assert any(isolated for isolated, _ in shown_isolated(opened, RTL_MODEL if "2/1" not in path else RTL_FAMILY))
    if "2/1" in path:  # the family's own page: its title names the family, isolated
        assert f"\u2068{RTL_FAMILY}\u2069" in opened.page.title()


def test_a_right_to_left_name_is_isolated_on_report_pages(site, pages):
    # Its own page, and the page of a row of its suite that cannot be told apart from it.
    for path in (report_page(site, RTL_MODEL), report_page(site, "OpenMed/cuda")):
        opened = pages.open(path, viewport={"width": 1366, "height": 768})
        found = shown_isolated(opened, RTL_MODEL)
        assert found and all(isolated for isolated, _ in found), (path, found)
    assert f"\u2068{RTL_MODEL}\u2069" in pages.open(report_page(site, RTL_MODEL)).page.title()


def status(opened) -> str:
    return opened.page.inner_text("#filter-status") if opened.page.evaluate("() => document.documentElement.classList.contains('js')") \
        else opened.page.evaluate("() => document.getElementById('filter-status').textContent")


def test_each_suites_status_line_counts_its_own_rows_with_and_without_javascript(site, pages):
    for js in (True, False):
        for path, line in (("index.html", "Showing all 8 rows."), ("suite/suite-golden/index.html", "Showing all 1 row."),
                           ("suite/suite-radiology/index.html", "Showing all 3 rows.")):
            opened = pages.open(path, rows=False, java_script_enabled=js, viewport={"width": 1366, "height": 768})
            assert status(opened) == line, (path, js)
    opened = pages.open("index.html", rows=False, viewport={"width": 1366, "height": 768})
    page = opened.page
    for tab, line in (("#suite-radiology-tab", "Showing all 3 rows."), ("#suite-golden-tab", "Showing all 1 row."),
                      ("#suite-clinical-notes-tab", "Showing all 8 rows.")):
        page.click(tab)
        page.wait_for_function("() => !document.querySelector('.panel .loading')")
        assert status(opened) == line
    page.fill("#filter", "onnx")
    page.wait_for_function("() => document.getElementById('filter-status').textContent.includes('matching')")
    assert status(opened) == "Showing 4 of 8 rows matching \u201connx\u201d."
    page.click("#suite-radiology-tab")
    assert status(opened) == "No rows match \u201connx\u201d."
    opened.assert_clean(pages.base_url)


def best_rows(page) -> list[tuple[str, str, str]]:
    """The shown suite's best rows: each row's rank (without its range), model and device."""
    return [tuple(row) for row in page.evaluate(
        "() => Array.from(document.querySelectorAll('.panel:not([hidden]) table.board.top tbody tr'), tr =>"
        " [tr.cells[1].firstChild.textContent.trim(), tr.cells[2].textContent.trim().replace(/ frontier$/, ''),"
        " tr.cells[4].textContent.trim()])")]


def test_the_best_rows_follow_the_filter_and_the_size_range_and_come_back_when_cleared(site, pages):
    rows = [row for row in published(site)["rows"] if row["suite"] == "clinical-notes"]
    ranked = [(str(rank), row["model_name"], row["device"]) for rank, row in enumerate(rows, 1)]
    sizes = {model: size for model, *_, size in CLINICAL}
    opened = pages.open("index.html", viewport={"width": 1366, "height": 768})
    page = opened.page
    assert best_rows(page) == ranked[:5]
    page.fill("#filter", "onnx")
    page.wait_for_function("() => document.querySelector('[data-top-count]').textContent.includes('match')")
    onnx = [row for row in ranked if row[2] == "onnx"]
    assert best_rows(page) == onnx[:5] and len(onnx) == 4
    assert page.inner_text("[data-top-count]") == "Its 4 rows that match"
    page.fill("#size-max", "100")
    page.wait_for_function("() => document.getElementById('filter-status').textContent.includes('million')")
    small_onnx = [row for row in onnx if sizes[row[1]] <= 100]
    assert best_rows(page) == small_onnx and 1 < len(small_onnx) < len(onnx)
    # Typing writes the address once the answer is painted and the page is idle.
    page.wait_for_function("() => location.hash.includes('size=-100')")
    assert "size=-100" in page.url and "q=onnx" in page.url
    # The address keeps the view: opened again, the same best rows.
    again = pages.open(page.url.removeprefix(pages.base_url), viewport={"width": 1366, "height": 768})
    again.page.wait_for_function("() => document.querySelector('[data-top-count]').textContent.includes('match')")
    assert best_rows(again.page) == small_onnx
    # A size range alone: the best five of the rows of at most 100M parameters, then cleared.
    page.fill("#filter", "")
    page.wait_for_function("() => !document.getElementById('filter-status').textContent.includes('matching')")
    small = [row for row in ranked if sizes[row[1]] <= 100]
    assert best_rows(page) == small[:5] and len(small) > 5
    assert page.inner_text("[data-top-count]") == f"The best 5 of its {len(small)} rows that match"
    page.fill("#size-max", "")
    page.wait_for_function("() => document.getElementById('filter-status').textContent === 'Showing all 8 rows.'")
    assert best_rows(page) == ranked[:5]
    assert page.inner_text("[data-top-count]") == "Its best 5 of 8 rows"
    opened.assert_clean(pages.base_url)


def test_what_a_range_means_is_on_a_phones_first_screen_before_the_rows(site, pages):
    for js in (True, False):
        opened = pages.open("index.html", rows=False, java_script_enabled=js, viewport={"width": 360, "height": 640})
        page = opened.page
        key = page.locator(".panel .range-key")
        box = key.bounding_box()
        first_row = page.locator(".panel table.board.top tbody tr").first.bounding_box()
        assert box["y"] + box["height"] <= first_row["y"] and first_row["y"] + first_row["height"] <= 640
        assert key.inner_text() == "3 (1–6): ranked 3rd, could be 1st to 6th within its leakage's 95% interval, in brackets after it."
        # Assistive technology reads it as the best rows' description.
        region = page.locator(".panel .table-box[aria-describedby]").first
        assert page.evaluate("id => document.getElementById(id).className", region.get_attribute("aria-describedby")) == "range-key"


def test_every_link_of_the_header_is_whole_on_a_phone(site, pages):
    for width in (320, 360):
        opened = pages.open("index.html", rows=False, viewport={"width": width, "height": 640})
        page = opened.page
        links = page.evaluate("() => Array.from(document.querySelectorAll('.site-header a:not(.skip-link)'), a => {"
                              " const r = a.getBoundingClientRect(); return [a.textContent.trim(), r.left, r.right]; })")
        assert len(links) >= 6
        assert [text for text, left, right in links if left < 0 or right > width] == [], width
        assert page.evaluate("() => Array.from(document.querySelectorAll('.site-header, .site-header *'))"
                             ".every(e => e.scrollWidth <= e.clientWidth + 1 || getComputedStyle(e).display === 'inline')")


NUMBERS = {1: "one line", 2: "two lines", 3: "three lines", 4: "four lines"}


def test_the_readmes_screenshots_say_what_the_index_shows(tmp_path, pages):
    # Each screenshot's alt text says on how many lines the site's name and navigation are, as the
    # bundled archive's index lays them out at the screenshot's width.
    from conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    alts = dict((path, alt) for alt, path in __import__("re").findall(r"!\[([^\]]*)\]\((docs/screenshot-[a-z]+\.png)\)", readme))
    index = (build_site(tmp_path / "bundled") / "index.html").as_uri()
    lines = "() => { const tops = new Set(); for (const e of document.querySelectorAll(SELECTOR)) tops.add(Math.round(e.getBoundingClientRect().top)); return tops.size; }"
    for path, (width, height) in (("docs/screenshot-phone.png", (390, 844)), ("docs/screenshot-laptop.png", (1366, 768))):
        page = pages.open(index, rows=False, viewport={"width": width, "height": height}).page
        name = page.evaluate(lines.replace("SELECTOR", "'.site-header .brand'"))
        navigation = page.evaluate(lines.replace("SELECTOR", "'.site-header nav li'"))
        together = page.evaluate(lines.replace("SELECTOR", "'.site-header .brand, .site-header nav li'"))
        said = (f"the site's name and its navigation on {NUMBERS[together]}" if together == name
                else f"the site's name on {NUMBERS[name]}, then its navigation on {NUMBERS[navigation]}")
        assert said in alts[path], (path, said)
        assert ("a line saying what a rank's brackets" in alts[path]) == page.is_visible(".panel .range-key")
