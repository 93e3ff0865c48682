"""What a reader sees first, and every row whole, in Chromium as readers get the pages: at 360 × 640
and 390 × 844 (phones), 1366 × 768 (the most common laptop) and 1920 × 1080, with JavaScript and
without, served under `default-src 'self'`.

Two sites: the bundled archive (OpenMed's real model names, the longest 61 characters) and a
generated one of three suites of four families, whose best rows have names longer than any real
one (one of them with no break in it for 80 characters) and a long device, compared with an
earlier leaderboard so that it has a changes page. On each:

- the index, and a suite's own page, open on the suite's best rows: the first of them lies wholly
  inside the first viewport on a phone, the first three from 1366 × 768 up, and they are the
  suite's first rows in ranking order;
- every row of every table of rows (the best rows and the family tables of the index and of a
  suite's page, a family's page, the changes page, compare) fits the viewport's width, nothing in
  it is wider than its box or cut with an ellipsis, and its visible text holds its whole model
  name, its leakage and its recall (compare: each row's name in the header, and its values on the
  leakage and recall lines);
- no page scrolls sideways and no table box scrolls (a report page's included);
- laid out as cards, the tables are still tables to assistive technology: rows of cells under
  column headers; and axe finds nothing on the pages whose tables become cards or stack, in light
  and dark.

One browser, one context a viewport and JavaScript setting, its page reused from page to page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark_leaderboard.formatting import percent
from browser_support import AXE_OPTIONS, base_url, browser, build_site, settle  # noqa: F401 - fixtures
from conftest import report, write_archive

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")
# Imported before any build: axe reads its script in the locale's encoding, and Pelican sets LOCALE "C".
Axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe

VIEWPORTS = [(360, 640), (390, 844), (1366, 768), (1920, 1080)]
PHONE_WIDTH = 500  # narrower: a phone, whose first screen holds the suite's first row; wider, its first three
# Longer than any of OpenMed's names: one with its own breaks, one with none for 80 characters.
LONG = "OpenMed/OpenMed-PII-SuperClinical-Multilingual-ExtraLarge-Deidentification-1.2B-v2-onnx-int8-android-arm64"
UNBROKEN = "OpenMed/" + "OpenMedPIISuperClinicalMultilingualDeidentificationExtraLargeWithoutAnyBreak1200M"
LONG_DEVICE = "onnx-int8-android-arm64-qnn-hexagon-v73"
SUITES, FAMILIES = ("alpha", "beta", "gamma"), ("PII", "NER", "Clinical", "Oncology")


def _generated(root: Path, *, earlier: bool = False) -> Path:
    """Three suites of four families, four rows each, the best rows of alpha and beta with the long
    names; ``earlier``: the leaderboard compared with, in which LONG leaked less and UNBROKEN and
    every fourth row did not exist yet."""
    files = {}
    for s, suite in enumerate(SUITES):
        for f, family in enumerate(FAMILIES):
            for n in range(4):
                if earlier and n == 3:
                    continue
                files[f"{suite}/{family}/{n}.report.json"] = report(
                    suite=suite, model_name=f"OpenMed/{family.lower()}-{suite}-model-{n}", device=("cpu", "cuda", "onnx")[n % 3],
                    fixture_count=5 + 10 * n, metadata={"model_family": family},
                    metrics={"leakage": {"overall": round(0.01 + 0.003 * (4 * f + n) + 0.001 * s, 4)},
                             "exact_span_f1": {"recall": round(0.95 - 0.01 * n, 4), "f1": round(0.9 - 0.01 * f, 4)}})
    for suite in ("alpha", "beta"):
        files[f"{suite}/long.report.json"] = report(suite=suite, model_name=LONG, device="onnx", fixture_count=40,
                                                    metadata={"model_family": "PII"},
                                                    metrics={"leakage": {"overall": 0.001 if earlier else 0.002},
                                                             "exact_span_f1": {"recall": 0.991, "f1": 0.98}})
    if not earlier:
        files["alpha/unbroken.report.json"] = report(suite="alpha", model_name=UNBROKEN, device=LONG_DEVICE, fixture_count=8,
                                                     metadata={"model_family": "NER"},
                                                     metrics={"leakage": {"overall": 0.005}, "exact_span_f1": {"recall": 0.97, "f1": 0.96}})
    return write_archive(root, files)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The two sites, bundled/ and generated/, in one folder (served as one by browser_support's base_url)."""
    root = tmp_path_factory.mktemp("first-screen")
    build_site(root / "bundled")
    before = build_site(root / "before", _generated(root / "earlier", earlier=True))
    build_site(root / "generated", _generated(root / "archive"),
               LEADERBOARD_PREVIOUS_LEADERBOARD=str(before / "leaderboard.json"))
    return root


@pytest.fixture(scope="module")
def views(browser):
    """A page a viewport and JavaScript setting, opened once: ``views[(width, height, js)]``."""
    opened = {}
    for width, height in VIEWPORTS:
        for js in (True, False):
            phone = width < PHONE_WIDTH
            context = browser.new_context(viewport={"width": width, "height": height}, java_script_enabled=js,
                                          is_mobile=phone, has_touch=phone)
            context.set_default_timeout(5000)
            opened[(width, height, js)] = context.new_page()
    yield opened
    for page in opened.values():
        page.context.close()


def board(root: Path, name: str) -> dict:
    """The leaderboard.json of the site ``name`` (bundled or generated)."""
    return json.loads((root / name / "leaderboard.json").read_text(encoding="utf-8"))


def suite_rows(document: dict, suite: str) -> list[int]:
    return [i for i, row in enumerate(document["rows"]) if row["suite"] == suite]


def family_page(document: dict, suite: str, model: str) -> str:
    """The first page of the family of ``model`` in ``suite``."""
    anchor = next(s for s in document["suites"] if s["name"] == suite)
    number = next(n for n, family in enumerate(anchor["families"], 1)
                  if any(row["model_name"] == model for row in family["rows"]))
    return f"suite/suite-{suite}/{number}/1.html"


def open_at(page, base_url: str, path: str) -> None:
    page.goto(base_url + path)
    page.wait_for_load_state("load")
    settle(page, rows=False)


# Each shown row of the tables at ``selector``: its box, its text as shown, and what in it is wider
# than its box (text hidden for speech only is clipped on purpose) or cut with an ellipsis. A row
# far from the viewport is not laid out (content-visibility: auto) until a reader scrolls to it: it
# is laid out first, as they would find it.
ROWS = """selector => Array.from(document.querySelectorAll(selector)).filter(r => r.getClientRects().length).map(r => {
  r.style.contentVisibility = 'visible';
  const box = r.getBoundingClientRect();
  const inside = [r, ...r.querySelectorAll('*')].filter(e => e.getClientRects().length && !e.closest('.visually-hidden'));
  return {row: r.dataset.row === undefined ? null : Number(r.dataset.row), top: box.top, bottom: box.bottom,
          left: box.left, right: box.right, text: r.innerText,
          wider: inside.filter(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1).map(e => e.tagName + ': ' + e.textContent.slice(0, 60)),
          cut: inside.filter(e => getComputedStyle(e).textOverflow === 'ellipsis').map(e => e.tagName)};
})"""
PAGE = """() => ({width: innerWidth, height: innerHeight, scroll: document.documentElement.scrollWidth,
  boxes: Array.from(document.querySelectorAll('.table-box')).filter(b => b.getClientRects().length && b.scrollWidth > b.clientWidth + 1)
    .map(b => b.getAttribute('aria-label') || b.getAttribute('aria-labelledby'))})"""


def rows_whole(page, selector: str, document: dict | None, where: str) -> list[dict]:
    """The rows at ``selector``, each checked to fit the viewport's width with nothing wider than its
    box and nothing cut; given the leaderboard, each row's visible text holds its model, leakage and recall."""
    shown = page.evaluate(ROWS, selector)
    width = page.evaluate("innerWidth")
    assert shown, (where, selector)
    for row in shown:
        assert row["left"] >= -0.5 and row["right"] <= width + 0.5, (where, row)
        assert row["wider"] == [] and row["cut"] == [], (where, row)
        if document is not None and row["row"] is not None:
            published = document["rows"][row["row"]]
            for value in (published["model_name"], percent(published["leakage"]), percent(published["recall"])):
                assert value in row["text"], (where, value, row["text"])
    return shown


def page_fits(page, where: str) -> None:
    found = page.evaluate(PAGE)
    assert found["scroll"] <= found["width"] and found["boxes"] == [], (where, found)


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_the_first_screen_holds_the_suites_best_rows(views, site, base_url, viewport, js):
    page = views[(*viewport, js)]
    wanted = 1 if viewport[0] < PHONE_WIDTH else 3
    for name, suite, path in (("bundled", "clinical-notes", "index.html"), ("generated", "alpha", "index.html"),
                              ("generated", "beta", "suite/suite-beta/index.html")):
        document = board(site, name)
        open_at(page, base_url, f"{name}/{path}")
        where = f"{name}/{path} at {viewport}, js {js}"
        best = rows_whole(page, f"#suite-{suite} .top tbody tr", document, where)
        # The suite's first rows in ranking order, across its families, the first of them at the top.
        assert [row["row"] for row in best] == suite_rows(document, suite)[:5], where
        for row in best[:wanted]:
            assert row["top"] >= 0 and row["bottom"] <= viewport[1], (where, row)
        page_fits(page, where)


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_every_row_of_every_table_of_rows_is_whole_within_the_width(views, site, base_url, viewport, js):
    page = views[(*viewport, js)]
    document = board(site, "generated")
    long_family = family_page(document, "alpha", UNBROKEN)
    for path, selector in (("bundled/index.html", ".panel tbody tr"), ("generated/index.html", ".panel tbody tr"),
                           ("generated/suite/suite-beta/index.html", ".panel tbody tr"),
                           (f"generated/{long_family}", "table.board tbody tr"),
                           ("generated/changes.html", "table.changes tbody tr")):
        open_at(page, base_url, path)
        where = f"{path} at {viewport}, js {js}"
        rows = rows_whole(page, selector, board(site, path.partition("/")[0]), where)
        if path.endswith("changes.html"):
            for name in (LONG, UNBROKEN):  # LONG leaks more than before, UNBROKEN is added
                assert any(name in row["text"] for row in rows), (where, name)
        page_fits(page, where)
    # Compare, where the script runs: a column a row, its name whole in the header, its figures on
    # the leakage and recall lines.
    if js:
        picked = suite_rows(document, "alpha")[:4]
        open_at(page, base_url, "generated/compare.html#rows=" + ",".join(map(str, picked)))
        page.wait_for_function("() => document.querySelectorAll('#compare table').length >= 2")
        where = f"compare at {viewport}"
        lines = {row["text"].split()[0]: row["text"] for row in rows_whole(page, "#compare table tr", None, where)}
        for index in picked:
            published = document["rows"][index]
            assert published["model_name"] in lines["Field"], (where, lines["Field"])
            assert percent(published["leakage"]) + "%" in lines["leakage"] and percent(published["recall"]) + "%" in lines["recall"]
        page_fits(page, where)
    # A report page: no table and no text cut, its name whole.
    index = document["rows"].index(next(row for row in document["rows"] if row["model_name"] == UNBROKEN))
    open_at(page, base_url, "generated/report/" + document["rows"][index]["report_path"].removesuffix(".json") + ".html")
    where = f"the report of {UNBROKEN} at {viewport}, js {js}"
    assert page.evaluate("() => { const h = document.querySelector('h1'); return [h.textContent, h.scrollWidth <= h.clientWidth]; }") == \
        [UNBROKEN, True], where
    page_fits(page, where)


def test_rows_laid_out_as_cards_are_still_rows_of_cells_under_their_column_headers(views, base_url):
    page = views[(360, 640, True)]
    open_at(page, base_url, "bundled/index.html")
    assert page.evaluate("getComputedStyle(document.querySelector('.top tbody tr')).display") == "flex"  # a card
    tree = page.locator("#suite-clinical-notes .top table").aria_snapshot()
    assert '- columnheader "Leakage %"' in tree and '- columnheader "Recall %"' in tree
    assert '- rowheader "OpenMed/OpenMed-PII-Arabic-BigMed-Large-560M-v1-onnx-android frontier"' in tree
    # The card's labels and units are shown, not spoken: a cell's name is its value alone.
    assert '- cell "0.00 (0.00–13.80)"' in tree and '- cell "96.12"' in tree and "Leakage 0.00" not in tree


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_wcag_aa_violation_in_the_phone_layout(browser, site, base_url, scheme):
    """The pages whose tables become cards or stack on a phone, in light and dark (the other axe
    tests read them at a laptop's width)."""
    document = board(site, "generated")
    picked = ",".join(map(str, suite_rows(document, "alpha")[:4]))
    report_page = "report/" + document["rows"][0]["report_path"].removesuffix(".json") + ".html"
    found = {}
    context = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True, color_scheme=scheme)
    page = context.new_page()
    for path in ("index.html", "suite/suite-beta/index.html", family_page(document, "alpha", UNBROKEN), "changes.html",
                 f"compare.html#rows={picked}", report_page):
        open_at(page, base_url, "generated/" + path)
        if path.startswith("compare"):
            page.wait_for_function("() => document.querySelectorAll('#compare table').length >= 2")
        results = Axe().run(page, options=AXE_OPTIONS)
        found[path] = [(v["id"], [n["target"] for n in v["nodes"]]) for v in results.response["violations"]]
    context.close()
    assert found == {path: [] for path in found}
