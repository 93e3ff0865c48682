"""The reviewer's tools in Chromium, served under `default-src 'self'`: sorting by mouse and key,
the address round trip, the size filter, "download these rows", the trade-off chart and its
dimming, compare, the page without JavaScript, opened from disk, on a phone, and axe on every kind
of page the site writes, in light and dark.

One small archive of two suites built once for the module: families long enough for a table to
leave a row to a family page (LEADERBOARD_PAGE_ROWS is 4), sizes from a manifest for some models,
a thin-evidence row, text that a spreadsheet would run as a formula, and a comma and quotes."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path

import pytest

from browser_support import AXE_OPTIONS, base_url, browser, build_site, pages, show_tab, write_manifest  # noqa: F401 - fixtures
from benchmark_leaderboard.board import FIELDS
from benchmark_leaderboard.decide.uncertainty import FIGURES
from conftest import report, write_archive

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")
# Imported before any build: axe reads its script in the locale's encoding, and Pelican sets LOCALE "C".
Axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe

PAGE_ROWS = 4
QUOTED = 'OpenMed/ner, "quoted"'
FORMULA = {"model": "@OpenMed/at-model", "device": "=1+2", "release": "-v9"}
# name: (suite, family, model, device, leakage, recall, f1, fixtures); sizes come from MANIFEST.
REPORTS = {
    "p1": ("alpha", "PII", "OpenMed/pii-large", "cpu", 0.01, 0.95, 0.93, 30),
    "p2": ("alpha", "PII", "OpenMed/pii-small", "cpu", 0.01, 0.90, 0.96, 24),
    "p3": ("alpha", "PII", "OpenMed/pii-mid", "onnx", 0.03, 0.80, 0.85, 12),
    "p4": ("alpha", "PII", FORMULA["model"], FORMULA["device"], 0.04, 0.50, 0.60, 10),
    "p5": ("alpha", "PII", "OpenMed/pii-tiny", "mlx", 0.05, 0.99, 0.97, 5),
    "n1": ("alpha", "NER", "OpenMed/ner-base", "cpu", 0.02, 0.97, 0.90, 40),
    "n2": ("alpha", "NER", QUOTED, "cpu", 0.06, 0.70, 0.75, 15),
    "b1": ("beta", "PII", "OpenMed/pii-large", "cpu", 0.0, 0.92, 0.91, 30),
    "b2": ("beta", "PII", "OpenMed/pii-small", "cpu", 0.02, 0.94, 0.95, 24),
    "b3": ("beta", "PII", "OpenMed/pii-tiny", "mlx", 0.02, 0.85, 0.80, 5),
}
MANIFEST = {"OpenMed/pii-large": 434_000_000, "OpenMed/pii-small": 44_000_000, "OpenMed/pii-mid": 1_200_000_000,
            "OpenMed/ner-base": 278_000_000, QUOTED: 560_000_000}
CANONICAL = {"alpha": {"PII": ["p1", "p2", "p3", "p4", "p5"], "NER": ["n1", "n2"]}, "beta": {"PII": ["b1", "b2", "b3"]}}


def _report(name: str) -> dict:
    suite, family, model, device, leakage, recall, f1, fixtures = REPORTS[name]
    metrics = {"exact_span_f1": {"recall": recall, "f1": f1, "precision": round(f1 + 0.01, 2)}, "leakage": {"overall": leakage}}
    if name == "b1":
        metrics["latency_ms"] = 12
    return report(suite=suite, model_name=model, device=device, fixture_count=fixtures, metrics=metrics, metadata={
        "model_family": family, "release_tag": FORMULA["release"] if name == "p4" else "v1.0.0",
        "reproducibility_hash": "sha256:" + hashlib.sha256(name.encode()).hexdigest()})


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tools")
    reports = write_archive(root / "reports", {f"{spec[0]}/{name}.report.json": _report(name) for name, spec in REPORTS.items()})
    manifest = write_manifest(root / "models.jsonl", [{"repo_id": model, "param_count": count} for model, count in MANIFEST.items()])
    # Compared with a leaderboard of b1 alone, so that there is a changes page whose added rows
    # (all but b1) take two pages.
    previous = write_archive(root / "previous", {"beta/b1.report.json": _report("b1")})
    before = build_site(root / "before", previous, manifest)
    return build_site(root / "site", reports, manifest, LEADERBOARD_PAGE_ROWS=PAGE_ROWS, LEADERBOARD_INDEX_ROWS=PAGE_ROWS,
                      LEADERBOARD_PREVIOUS_LEADERBOARD=str(before / "leaderboard.json"))


@pytest.fixture(scope="module")
def board(site) -> dict:
    """leaderboard.json, each report's row index (``index["p1"]``) in the global ranking, and each
    row's figures in uncertainty.json by its report path (``figures``)."""
    document = json.loads((site / "leaderboard.json").read_text(encoding="utf-8"))
    by_path = {row["report_path"]: position for position, row in enumerate(document["rows"])}
    document["index"] = {name: by_path[f"{spec[0]}/{name}.report.json"] for name, spec in REPORTS.items()}
    document["figures"] = json.loads((site / "uncertainty.json").read_text(encoding="utf-8"))["rows"]
    return document




# The shown tables of a panel: for each family shown, its heading and its rows, each row its cells'
# text by the column's header text.
TABLES = """panel => Array.from(document.getElementById(panel).querySelectorAll('[data-family]'))
  .filter(f => !f.hidden)
  .map(f => [f.querySelector('h3').textContent, Array.from(f.querySelectorAll('tbody tr'), r => Object.fromEntries(
    Array.from(f.querySelector('thead tr').cells, (th, i) => [th.textContent, r.cells[i].textContent]))) ])"""


def tables(page, panel: str) -> list:
    return page.evaluate(TABLES, panel)


def names(page, board, panel: str) -> dict[str, list[str]]:
    """Each shown family's rows as report names (p1, n2, ...), in the order shown."""
    by_model_device = {}
    for name, index in board["index"].items():
        row = board["rows"][index]
        by_model_device[(row["suite"], row["model_name"], row["device"])] = name
    suite = panel.removeprefix("suite-")
    return {family: [by_model_device[(suite, row["Model"].removesuffix(" frontier"), row["Device"])] for row in rows]
            for family, rows in tables(page, panel)}


def sort_states(page, panel: str) -> set[tuple[str, str]]:
    """(header text, aria-sort) of every header cell of the panel's family tables that has aria-sort
    (the suite's best rows above them stay in ranking order)."""
    return {tuple(pair) for pair in page.eval_on_selector_all(
        f"#{panel} [data-family] thead th[aria-sort]", "ths => ths.map(th => [th.textContent, th.getAttribute('aria-sort')])")}


def fragment(page) -> str:
    """The page's address fragment, once what typing changed is written (after the next frame, when
    the page is idle)."""
    return page.evaluate("new Promise(done => requestAnimationFrame(() => setTimeout(() => "
                         "(window.requestIdleCallback || setTimeout)(() => done(location.hash)), 0)))")


def status(page) -> str:
    return page.inner_text("#filter-status")


def show_all(page, panel: str) -> None:
    while page.locator(f"#{panel} .more:not([hidden]) button").count():
        page.locator(f"#{panel} .more:not([hidden]) button").first.click()


def header(page, panel: str, key: str):
    return page.locator(f"#{panel} thead button[data-sort={key}]").first


def test_a_header_sorts_ascending_then_descending_then_in_canonical_order(pages, board, base_url):
    w = pages.open("index.html#suite-alpha")
    page = w.page
    assert names(page, board, "suite-alpha") == {"PII": ["p1", "p2", "p3", "p4"], "NER": ["n1", "n2"]}
    assert sort_states(page, "suite-alpha") == {("Rank", "ascending")}
    assert page.inner_text("#suite-alpha .more:not([hidden])") == "Show 1 more (4 of 5 shown)"
    ranks = {row["Model"]: row["Rank"] for _, rows in tables(page, "suite-alpha") for row in rows}

    header(page, "suite-alpha", "recall").click()
    assert names(page, board, "suite-alpha") == {"PII": ["p4", "p3", "p2", "p1"], "NER": ["n2", "n1"]}
    assert sort_states(page, "suite-alpha") == {("Recall %", "ascending")}
    assert fragment(page) == "#suite-alpha?sort=recall:asc"
    assert status(page) == "Showing all 7 rows. Sorted by Recall %, ascending."
    # The rank column keeps each row's canonical rank.
    assert {row["Model"]: row["Rank"] for _, rows in tables(page, "suite-alpha") for row in rows} == ranks

    header(page, "suite-alpha", "recall").click()
    # p5, the family's best recall, is not in the index's HTML (its 5th row): the sort still finds it.
    assert names(page, board, "suite-alpha") == {"PII": ["p5", "p1", "p2", "p3"], "NER": ["n1", "n2"]}
    assert sort_states(page, "suite-alpha") == {("Recall %", "descending")}
    assert fragment(page) == "#suite-alpha?sort=recall:desc"
    page.click("#suite-alpha .more button")
    assert names(page, board, "suite-alpha")["PII"] == ["p5", "p1", "p2", "p3", "p4"]
    assert not page.is_visible("#suite-alpha .more")

    header(page, "suite-alpha", "recall").click()
    assert names(page, board, "suite-alpha") == {"PII": ["p1", "p2", "p3", "p4"], "NER": ["n1", "n2"]}
    assert sort_states(page, "suite-alpha") == {("Rank", "ascending")}
    assert fragment(page) == "#suite-alpha"
    assert status(page) == "Showing all 7 rows."

    # Text sorts ignoring case, ties keep the canonical order; the rank sorts descending first.
    header(page, "suite-alpha", "device").click()
    assert names(page, board, "suite-alpha") == {"PII": ["p4", "p1", "p2", "p5"], "NER": ["n1", "n2"]}
    header(page, "suite-alpha", "rank").click()
    assert names(page, board, "suite-alpha") == {"PII": ["p5", "p4", "p3", "p2"], "NER": ["n2", "n1"]}
    assert sort_states(page, "suite-alpha") == {("Rank", "descending")}
    # Unknown sizes come last in either direction.
    header(page, "suite-alpha", "param_count").click()
    assert names(page, board, "suite-alpha") == {"PII": ["p2", "p1", "p3", "p4"], "NER": ["n1", "n2"]}
    header(page, "suite-alpha", "param_count").click()
    assert names(page, board, "suite-alpha") == {"PII": ["p3", "p1", "p2", "p4"], "NER": ["n2", "n1"]}
    # The other suite's tables follow the same sort.
    show_tab(page, "#suite-beta-tab")
    assert names(page, board, "suite-beta") == {"PII": ["b1", "b2", "b3"]}
    assert sort_states(page, "suite-beta") == {("Size", "descending")}
    assert fragment(page) == "#suite-beta?sort=param_count:desc"
    w.assert_clean(base_url)


def test_the_keyboard_sorts_and_returns_to_the_canonical_order(pages, board, base_url):
    w = pages.open("index.html#suite-alpha")
    page = w.page
    assert page.is_disabled("[data-canonical]")
    header(page, "suite-alpha", "f1").focus()
    page.keyboard.press("Enter")
    assert sort_states(page, "suite-alpha") == {("F1 %", "ascending")}
    assert names(page, board, "suite-alpha") == {"PII": ["p4", "p3", "p1", "p2"], "NER": ["n2", "n1"]}
    page.keyboard.press("Space")
    assert sort_states(page, "suite-alpha") == {("F1 %", "descending")}
    assert names(page, board, "suite-alpha") == {"PII": ["p5", "p2", "p1", "p3"], "NER": ["n1", "n2"]}
    assert page.evaluate("document.activeElement.getAttribute('data-sort')") == "f1"
    page.focus("[data-canonical]")
    page.keyboard.press("Enter")
    assert sort_states(page, "suite-alpha") == {("Rank", "ascending")}
    assert names(page, board, "suite-alpha") == {"PII": ["p1", "p2", "p3", "p4"], "NER": ["n1", "n2"]}
    assert page.is_disabled("[data-canonical]")
    assert fragment(page) == "#suite-alpha"
    w.assert_clean(base_url)


def test_the_address_keeps_tab_filter_sort_size_and_selection_through_back_forward_and_reload(pages, board, base_url):
    index = board["index"]
    w = pages.open(f"index.html#suite-alpha?q=openmed&sort=f1:desc&size=40-500&compare={index['p1']},{index['n1']}")
    page = w.page
    assert page.input_value("#filter") == "openmed"
    assert (page.input_value("#size-min"), page.input_value("#size-max")) == ("40", "500")
    assert sort_states(page, "suite-alpha") == {("F1 %", "descending")}
    assert names(page, board, "suite-alpha") == {"PII": ["p2", "p1"], "NER": ["n1"]}
    assert status(page) == "Showing 3 of 7 rows matching \u201copenmed\u201d with 40 to 500 million parameters. Sorted by F1 %, descending."
    assert page.inner_text("[data-compare-link]") == "Compare selected (2)"
    assert page.is_checked(f"#suite-alpha [data-family] input[data-compare='{index['n1']}']")

    show_tab(page, "#suite-beta-tab")
    assert fragment(page) == f"#suite-beta?q=openmed&sort=f1:desc&size=40-500&compare={index['p1']},{index['n1']}"
    header(page, "suite-beta", "leakage").click()
    page.fill("#filter", "small")
    page.fill("#size-max", "")
    after = f"#suite-beta?q=small&sort=leakage:asc&size=40-&compare={index['p1']},{index['n1']}"
    assert fragment(page) == after
    assert names(page, board, "suite-beta") == {"PII": ["b2"]}
    page.go_back()  # to before the sort: typing replaces the address, clicks add to the history
    assert fragment(page) == f"#suite-beta?q=openmed&sort=f1:desc&size=40-500&compare={index['p1']},{index['n1']}"
    assert sort_states(page, "suite-beta") == {("F1 %", "descending")}
    assert page.input_value("#filter") == "openmed"
    assert page.input_value("#size-max") == "500"
    page.go_back()
    assert page.get_attribute("[role=tab][aria-selected=true]", "aria-controls") == "suite-alpha"
    page.go_forward()
    page.go_forward()
    assert fragment(page) == after
    assert names(page, board, "suite-beta") == {"PII": ["b2"]}
    page.reload()
    assert page.input_value("#filter") == "small"
    assert (page.input_value("#size-min"), page.input_value("#size-max")) == ("40", "")
    assert sort_states(page, "suite-beta") == {("Leakage %", "ascending")}
    assert names(page, board, "suite-beta") == {"PII": ["b2"]}
    assert page.inner_text("[data-compare-link]") == "Compare selected (2)"
    # Nonsense in the address is ignored, never an error.
    page.goto(base_url + "index.html#suite-alpha?sort=nothing:up&size=a-b&compare=x,99999")
    assert sort_states(page, "suite-alpha") == {("Rank", "ascending")}
    assert status(page) == "Showing all 7 rows."
    assert page.inner_text("[data-compare-link]") == "Compare selected (0)"
    w.assert_clean(base_url)


def test_the_size_range_filters_by_millions_of_parameters_with_the_text_filter(pages, board, base_url):
    w = pages.open("index.html#suite-alpha")
    page = w.page
    assert page.is_visible("#size-min") and page.is_visible("#size-max")
    assert {row["Model"]: row["Size"] for _, rows in tables(page, "suite-alpha") for row in rows} == {
        "OpenMed/pii-large frontier": "434M", "OpenMed/pii-small": "44M", "OpenMed/pii-mid": "1.2B", FORMULA["model"]: "",
        "OpenMed/ner-base frontier": "278M", QUOTED: "560M"}
    page.fill("#size-min", "100")
    assert names(page, board, "suite-alpha") == {"PII": ["p1", "p3"], "NER": ["n1", "n2"]}
    assert status(page) == "Showing 4 of 7 rows with at least 100 million parameters."
    assert fragment(page) == "#suite-alpha?size=100-"
    page.fill("#size-max", "500")
    assert names(page, board, "suite-alpha") == {"PII": ["p1"], "NER": ["n1"]}
    assert status(page) == "Showing 2 of 7 rows with 100 to 500 million parameters."
    page.fill("#size-min", "")
    assert names(page, board, "suite-alpha") == {"PII": ["p1", "p2"], "NER": ["n1"]}
    assert status(page) == "Showing 3 of 7 rows with at most 500 million parameters."
    assert page.eval_on_selector_all("[role=tab] [data-count]", "cs => cs.map(c => c.textContent)") == ["3", "2"]
    page.fill("#filter", "small")
    assert status(page) == "Showing 1 of 7 rows matching \u201csmall\u201d with at most 500 million parameters."
    page.fill("#size-max", "1")
    assert status(page) == "No rows match \u201csmall\u201d with at most 1 million parameters."
    assert page.is_visible("#suite-alpha [data-empty]")
    page.fill("#filter", "")
    page.fill("#size-min", "2000")
    page.fill("#size-max", "")
    assert status(page) == "No rows have at least 2000 million parameters."
    # Without a bound, rows of unknown size show again.
    page.fill("#size-min", "")
    assert names(page, board, "suite-alpha") == {"PII": ["p1", "p2", "p3", "p4"], "NER": ["n1", "n2"]}
    assert status(page) == "Showing all 7 rows."
    assert fragment(page) == "#suite-alpha"
    w.assert_clean(base_url)


def test_download_these_rows_gives_the_shown_rows_as_the_builds_csv_writes_them(pages, board, base_url, site):
    published = (site / "leaderboard.csv").read_bytes()
    lines = published.split(b"\r\n")  # no cell of this archive holds a line break
    w = pages.open("index.html#suite-alpha?q=openmed&sort=leakage:desc", accept_downloads=True)
    page = w.page
    # Every matching row of the suite, family by family in the order shown, the one "show more" hides too.
    assert list(names(page, board, "suite-alpha").items()) == [("NER", ["n2", "n1"]), ("PII", ["p5", "p4", "p3", "p1"])]
    with page.expect_download() as download:
        page.click("[data-download]")
    got = Path(download.value.path()).read_bytes()
    assert download.value.suggested_filename == "suite-alpha-rows.csv"
    order = ["n2", "n1", "p5", "p4", "p3", "p1", "p2"]
    assert got == b"\r\n".join([lines[0]] + [lines[board["index"][name] + 1] for name in order]) + b"\r\n"
    parsed = list(csv.reader(io.StringIO(got.decode("utf-8"), newline="")))
    assert parsed[0] == list(FIELDS + FIGURES)
    # The published fields, then the row's figures from uncertainty.json, as JSON writes them.
    figures = json.loads((site / "uncertainty.json").read_text(encoding="utf-8"))["rows"]
    as_text = [[value if isinstance(value, str) else repr(value) for value in map(board["rows"][board["index"][name]].get, FIELDS)]
               + [value if isinstance(value, str) else json.dumps(value)
                  for value in map(figures[board["rows"][board["index"][name]]["report_path"]].get, FIGURES)]
               for name in order]
    formula = order.index("p4")
    for column, value in (("model_name", FORMULA["model"]), ("device", FORMULA["device"]), ("release_tag", FORMULA["release"])):
        position = parsed[0].index(column)
        assert parsed[formula + 1][position] == "'" + value
        as_text[formula][position] = "'" + value
    assert parsed[1:] == as_text
    assert parsed[order.index("n2") + 1][parsed[0].index("model_name")] == QUOTED
    w.assert_clean(base_url)


def test_the_chart_marks_the_frontier_shades_the_other_rows_and_dims_what_the_filter_hides(pages, board, base_url):
    w = pages.open("index.html#suite-alpha")
    page = w.page
    fields = page.evaluate("window.leaderboardData.fields")
    on_frontier = set()
    for suite in ("alpha", "beta"):
        show_tab(page, f"#suite-{suite}-tab")
        rows = {i for i, row in enumerate(board["rows"]) if row["suite"] == suite}
        # Each mark is a frontier row, linked to its report page and named by its title.
        marks = page.eval_on_selector_all(f"#suite-{suite} svg a.frontier[data-row]", """ms => ms.map(m => [
            Number(m.getAttribute('data-row')), m.getAttribute('href'), m.querySelector('title').textContent])""")
        assert page.eval_on_selector_all(f"#suite-{suite} svg a", "ms => ms.length") == len(marks)
        show_all(page, f"suite-{suite}")
        badged = page.eval_on_selector_all(f"#suite-{suite} [data-family] tbody tr", """rs => rs.filter(r => r.querySelector('.badge.frontier'))
                                             .map(r => Number(r.getAttribute('data-row')))""")
        assert sorted(index for index, _, _ in marks) == sorted(badged) == sorted(i for i in rows if fields["frontier"][i])
        for index, href, title in marks:
            row = board["rows"][index]
            assert href == "./report/" + row["report_path"].removesuffix(".json") + ".html"
            assert title.startswith(f"\u2068{row['model_name']}\u2069 on \u2068{row['device']}\u2069: leakage ")
        assert board["index"]["p1" if suite == "alpha" else "b1"] in badged  # the suite's best row is on it
        on_frontier |= set(badged)
        # The other rows are in the grid's shaded cells, one path a shade, and the legend says what each holds.
        shades = page.eval_on_selector_all(f"#suite-{suite} svg .density path", "ps => ps.map(p => p.getAttribute('class'))")
        legend = page.eval_on_selector_all(f"#suite-{suite} .shades .swatch", "ss => ss.map(s => s.classList[1])")
        assert shades == legend and shades
        fills = page.eval_on_selector_all(f"#suite-{suite} svg .density path", "ps => ps.map(p => getComputedStyle(p).fill)")
        swatches = page.eval_on_selector_all(f"#suite-{suite} .shades .swatch", "ss => ss.map(s => getComputedStyle(s).backgroundColor)")
        assert fills == swatches and all(fill not in ("none", "rgba(0, 0, 0, 0)") for fill in fills)
    show_tab(page, "#suite-alpha-tab")
    # Where each mark is in its chart (the best rows above it follow the filter, so the chart may move).
    boxes = ("ms => ms.map(m => { const b = m.getBoundingClientRect(), c = m.closest('svg').getBoundingClientRect();"
             " return [b.x - c.x, b.y - c.y, b.width, b.height]; })")
    before = page.eval_on_selector_all("#suite-alpha svg [data-row]", boxes)
    page.fill("#filter", "pii-small")
    dimmed = page.eval_on_selector_all("svg .dimmed", "ms => ms.map(m => Number(m.getAttribute('data-row')))")
    assert sorted(dimmed) == sorted(on_frontier - {board["index"]["p2"], board["index"]["b2"]})
    assert board["index"]["b2"] in on_frontier and board["index"]["b2"] not in dimmed
    assert page.eval_on_selector_all("#suite-alpha svg [data-row]", boxes) == before
    page.press("#filter", "Escape")
    assert page.eval_on_selector_all("svg .dimmed", "ms => ms.length") == 0
    w.assert_clean(base_url)


def test_compare_picks_two_to_four_rows_and_shows_them_side_by_side(pages, board, base_url):
    index = board["index"]
    w = pages.open("index.html#suite-alpha")
    page = w.page
    link = page.locator("[data-compare-link]")
    # A real link at all times (to the page that explains comparing), disabled until two rows are picked.
    assert link.inner_text() == "Compare selected (0)" and link.get_attribute("href") == "./compare.html"
    assert link.get_attribute("aria-disabled") == "true"
    page.check(f"#suite-alpha [data-family] input[data-compare='{index['p1']}']")
    assert page.inner_text("#compare-status") == "1 row picked: pick at least 2 to compare."
    assert link.get_attribute("href") == "./compare.html" and link.get_attribute("aria-disabled") == "true"
    page.locator("#suite-alpha [data-family]").get_by_label(f"Compare {QUOTED} on cpu").check()
    # A row in the suite's best rows shows twice: picked in one table, it is picked in both.
    page.locator("#suite-alpha .top").get_by_label("Compare OpenMed/pii-mid on onnx").check()
    assert page.is_checked(f"#suite-alpha [data-family] input[data-compare='{index['p3']}']")
    show_tab(page, "#suite-beta-tab")
    page.locator("#suite-beta [data-family]").get_by_label("Compare OpenMed/pii-large on cpu").check()
    assert page.is_checked(f"#suite-beta .top input[data-compare='{index['b1']}']")
    picked = [index["p1"], index["n2"], index["p3"], index["b1"]]
    assert link.inner_text() == "Compare selected (4)"
    assert link.get_attribute("href") == "./compare.html#rows=" + ",".join(map(str, picked))
    assert fragment(page) == "#suite-beta?compare=" + ",".join(map(str, picked))
    # A fifth row is refused, with a message; nothing else changes.
    fifth = page.locator("#suite-beta [data-family]").get_by_label("Compare OpenMed/pii-small on cpu")
    fifth.click()
    assert not fifth.is_checked()
    assert page.inner_text("#compare-status") == "At most 4 rows can be compared: untick one first."
    assert link.inner_text() == "Compare selected (4)"
    # A sort or a filter keeps the selection.
    header(page, "suite-beta", "recall").click()
    show_tab(page, "#suite-alpha-tab")
    assert page.is_checked(f"#suite-alpha [data-family] input[data-compare='{index['n2']}']")
    page.uncheck(f"#suite-alpha [data-family] input[data-compare='{index['p3']}']")
    assert not page.is_checked(f"#suite-alpha .top input[data-compare='{index['p3']}']")
    picked.remove(index["p3"])
    assert page.inner_text("#compare-status") == "3 rows picked to compare."
    link.click()
    assert page.url == base_url + "compare.html#rows=" + ",".join(map(str, picked))
    compare_page_shows(page, board, picked)
    w.assert_clean(base_url)


def compare_page_shows(page, board, picked: list[int]) -> None:
    rows = [board["rows"][i] for i in picked]
    assert page.inner_text("#compare h2") == f"{len(picked)} rows side by side"
    # The metrics table follows once the suites' metric files (loaded as needed) have arrived.
    page.wait_for_function("() => document.querySelectorAll('#compare table').length >= 3")
    grid = page.evaluate("""() => Array.from(document.querySelectorAll('#compare table'), t => [
        t.caption.textContent,
        Array.from(t.tHead.rows[0].cells, c => c.textContent),
        Array.from(t.tBodies[0].rows, r => Array.from(r.cells, c => [c.textContent, c.className])) ])""")
    (caption, head, body), (sure_caption, sure_head, sure_body), (metrics_caption, metrics_head, metrics_body) = grid
    assert (caption, sure_caption, metrics_caption) == ("Published fields", "How sure each rank is", "Metrics")
    assert head == sure_head == metrics_head == ["Field"] + [f"{row['model_name']}{row['suite']} \u00b7 {row['device']}"
                                                             for row in rows]
    # How sure each rank is: the intervals side by side (bounds rounded outward), the rank range,
    # the mark and the method; and each pair, told apart or not.
    from benchmark_leaderboard.formatting import interval_text

    figures = [board["figures"][row["report_path"]] for row in rows]
    sure = {line[0][0].removesuffix(" differs"): [text for text, _ in line[1:]] for line in sure_body}
    assert sure == {
        "Leakage, 95% interval": [interval_text(f["leakage_low"], f["leakage_high"]) + "%" for f in figures],
        "Recall, 95% interval": [interval_text(f["recall_low"], f["recall_high"]) + "%" for f in figures],
        "Rank in its suite could be": [f"{f['suite_rank_best']} to {f['suite_rank_worst']}" for f in figures],
        "Could be first in its suite": ["yes" if f["could_be_first"] else "no" for f in figures],
        "Intervals": [f"Wilson score, n = {f['fixture_count']} fixtures" for f in figures],
    }

    def named(row):
        return f"{row['model_name']} ({row['suite']}, {row['device']})"

    said = []
    for a in range(len(rows)):
        for b in range(a + 1, len(rows)):
            pair = f"{named(rows[a])} and {named(rows[b])}: "
            fa, fb = figures[a], figures[b]
            ia, ib = (interval_text(f["leakage_low"], f["leakage_high"]) + "%" for f in (fa, fb))
            if rows[a]["suite"] != rows[b]["suite"]:
                said.append(pair + "in different suites, never ranked against each other.")
            elif fa["leakage_high"] < fb["leakage_low"]:
                said.append(pair + f"told apart: {named(rows[a])} certainly leaks less ({ia}, wholly below {ib}).")
            elif fb["leakage_high"] < fa["leakage_low"]:
                said.append(pair + f"told apart: {named(rows[b])} certainly leaks less ({ib}, wholly below {ia}).")
            else:
                said.append(pair + f"cannot be told apart: their leakage intervals ({ia} and {ib}) overlap.")
    assert page.inner_text("#compare h3") == "Can they be told apart?"
    assert page.eval_on_selector_all("#compare .told-apart li", "ls => ls.map(l => l.textContent)") == said
    by_field = {line[0][0].split(" ")[0]: line for line in body}
    assert list(by_field) == ["suite", "model_family", "model_name", "device", "leakage", "recall", "f1", "release_tag",
                              "run_date", "reproducibility_hash", "report_path", "report_url", "fixture_count",
                              "param_count", "frontier"]
    from benchmark_leaderboard.formatting import percent

    def best(field: str, pick) -> list[str]:
        value = pick(row[field] for row in rows)
        return ["best" if row[field] == value else "" for row in rows]

    for field, pick, words in (("leakage", min, "lower"), ("recall", max, "higher"), ("f1", max, "higher")):
        line = by_field[field]
        # Equal values are neither different nor better.
        marks = best(field, pick) if len({row[field] for row in rows}) > 1 else [""] * len(rows)
        assert line[0][0] == (f"{field} differs ({words} is better)" if any(marks) else field)
        assert [text for text, _ in line[1:]] == [percent(row[field]) + "%" + (" best" if mark else "")
                                                  for row, mark in zip(rows, marks)]
        assert [name for _, name in line[1:]] == marks
    assert by_field["device"][0][0] == "device" and [text for text, _ in by_field["device"][1:]] == ["cpu"] * len(rows)
    assert by_field["suite"][0][0] == ("suite differs" if len({row["suite"] for row in rows}) > 1 else "suite")
    assert [text for text, _ in by_field["report_url"][1:]] == [row["report_url"] for row in rows]
    keys = [line[0][0].split(" ")[0] for line in metrics_body]
    beta = any(row["suite"] == "beta" for row in rows)  # only b1's report has latency_ms
    assert keys == ["exact_span_f1.f1", "exact_span_f1.precision", "exact_span_f1.recall"] + ["latency_ms"] * beta + ["leakage.overall"]
    if beta:
        latency = next(line for line in metrics_body if line[0][0].startswith("latency_ms"))
        assert [text for text, _ in latency[1:]] == ["12" if row["suite"] == "beta" else "not in this report" for row in rows]
    recall = next(line for line in metrics_body if line[0][0].startswith("exact_span_f1.recall"))
    assert [text for text, _ in recall[1:]] == [repr(row["recall"]) for row in rows]


def test_a_shared_comparison_opens_alone_and_is_usable_by_keyboard(pages, board, base_url):
    index = board["index"]
    picked = [index["b1"], index["n1"], index["p1"]]
    w = pages.open("compare.html#rows=" + ",".join(map(str, picked)))
    page = w.page
    assert not page.is_visible("[data-compare-help]")
    compare_page_shows(page, board, picked)
    assert page.eval_on_selector_all("#compare tbody tr", "rs => rs.filter(r => !r.hidden).length") == 15 + 5 + 5
    page.focus("[data-only-differing]")
    page.keyboard.press("Space")
    shown = page.eval_on_selector_all("#compare tbody tr", "rs => rs.filter(r => !r.hidden).map(r => r.cells[0].textContent.split(' ')[0])")
    assert "device" not in shown and "run_date" not in shown and "suite" in shown and "leakage" in shown
    page.focus(f"button[data-remove='{index['n1']}']")
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == f"#rows={index['b1']},{index['p1']}"
    assert page.evaluate("document.activeElement.id") == "compare-heading"
    assert page.inner_text("#compare h2") == "2 rows side by side"
    page.go_back()
    assert page.inner_text("#compare h2") == "3 rows side by side"
    page.goto(base_url + f"compare.html#rows={index['b1']}")
    assert page.inner_text("#compare h2") == "Nothing to compare yet"
    assert "This address names only one row." in page.inner_text("#compare")
    page.goto(base_url + "compare.html#rows=nonsense")
    assert "This address names no row." in page.inner_text("#compare")
    w.assert_clean(base_url)


def test_without_javascript_every_row_is_reachable_in_canonical_order(pages, board, base_url):
    w = pages.open("index.html", java_script_enabled=False)
    page = w.page
    assert not page.is_visible("[data-controls]")
    assert page.eval_on_selector_all("thead button[data-sort]", "bs => bs.every(b => b.disabled)")
    assert page.eval_on_selector_all("input[data-compare]", "bs => bs.filter(b => b.offsetParent !== null).length") == 0
    seen = []
    for suite, families in CANONICAL.items():
        page.click(f"[data-tabs] a[data-panel=suite-{suite}]")  # the suites are links to their pages
        shown = names(page, board, f"suite-{suite}")
        assert shown == {family: rows[:PAGE_ROWS] for family, rows in families.items()}
        seen += [name for rows in shown.values() for name in rows]
        assert sort_states(page, f"suite-{suite}") == {("Rank", "ascending")} or not shown
    page.click("[data-tabs] a[data-panel=suite-alpha]")
    # A family longer than the index shows links to its pages: the first again, then the rest.
    page.click("#suite-alpha .family-all a")
    assert page.eval_on_selector_all("tbody tr", "rs => rs.map(r => Number(r.getAttribute('data-row')))") == \
        [board["index"][name] for name in ("p1", "p2", "p3", "p4")]
    page.click("[data-pages] a[rel=next]")
    rows = page.eval_on_selector_all("tbody tr", "rs => rs.map(r => Number(r.getAttribute('data-row')))")
    assert rows == [board["index"]["p5"]]
    seen.append("p5")
    assert sorted(seen) == sorted(REPORTS)
    page.goto(base_url + "compare.html")
    assert page.is_visible("[data-compare-help]") and not page.is_visible("#compare")
    assert w.errors == []


def test_sort_filter_and_compare_work_opened_from_disk(pages, board, site):
    w = pages.open((site / "index.html").as_uri() + "#suite-alpha", accept_downloads=True)
    page = w.page
    header(page, "suite-alpha", "recall").click()
    assert names(page, board, "suite-alpha") == {"PII": ["p4", "p3", "p2", "p1"], "NER": ["n2", "n1"]}
    page.fill("#filter", "pii")
    with page.expect_download() as download:
        page.click("[data-download]")
    assert Path(download.value.path()).read_bytes().count(b"\r\n") == 1 + 5
    picked = [board["index"]["p2"], board["index"]["p1"]]
    for row in picked:
        page.check(f"#suite-alpha [data-family] input[data-compare='{row}']")
    page.click("[data-compare-link]")
    assert page.url == (site / "compare.html").as_uri() + "#rows=" + ",".join(map(str, picked))
    compare_page_shows(page, board, picked)
    w.assert_clean("file://")


def test_a_phone_never_scrolls_the_page_sideways(pages, board, base_url):
    index = board["index"]
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    for path in (f"index.html#suite-alpha?q=openmed&sort=recall:desc&size=1-&compare={index['p1']}",
                 f"compare.html#rows={index['p1']},{index['n2']},{index['b1']},{index['p4']}",
                 "suite/suite-alpha/2/2.html", "report/alpha/p4.report.html", "changes.html", "changes/added/2.html"):
        w = pages.open(path, **phone)
        assert w.page.evaluate("document.documentElement.scrollWidth") <= 390, path
        w.assert_clean(base_url)


def _every_control_shown(page, index) -> None:
    """The index with each of its controls in use: a filter, a size bound, a sort, a row picked,
    a fifth row refused, the Show more button and the canonical-order control enabled."""
    page.fill("#filter", "openmed")
    page.fill("#size-max", "2000")
    header(page, "suite-alpha", "f1").click()
    for name in ("p1", "p2", "p3", "n1"):
        page.check(f"#suite-alpha [data-family] input[data-compare='{index[name]}']")
    page.fill("#size-max", "")
    page.locator(f"#suite-alpha [data-family] input[data-compare='{index['p4']}']").click()
    assert page.is_visible("#suite-alpha .more button")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_wcag_aa_violation_on_any_kind_of_page(pages, board, scheme):
    axe = Axe()
    index = board["index"]
    found = {}
    # test_browser_page.py checks the index as it opens and with a filter that matches nothing.
    for path, action in [("index.html#suite-alpha", "controls"),
                         (f"compare.html#rows={index['p1']},{index['n2']},{index['b1']},{index['p4']}", "differing"),
                         ("compare.html", None), ("report/beta/b1.report.html", None), ("suite/suite-alpha/2/2.html", None),
                         ("ranking.html", None), ("schema.html", None), ("refresh.html", None), ("adding-reports.html", None),
                         ("changes.html", None), ("changes/added/2.html", None)]:
        w = pages.open(path, color_scheme=scheme)
        if action == "controls":
            _every_control_shown(w.page, index)
        elif action == "differing":  # a line of equal values hidden
            w.page.check("[data-only-differing]")
            assert w.page.locator("#compare tbody tr[hidden]").count() > 0
        results = axe.run(w.page, options=AXE_OPTIONS)
        assert results.response["testEngine"]["name"] == "axe-core"
        found[path + (action or "")] = [(v["id"], [n["target"] for n in v["nodes"]]) for v in results.response["violations"]]
    assert found == {key: [] for key in found}


def test_compare_shows_the_intervals_and_which_rows_can_be_told_apart(pages, tmp_path):
    # Two rows measured on a million fixtures each, 1% and 2%: told apart; one row on a single
    # fixture between them: told apart from neither.
    files = {"s/a.report.json": report(model_name="OpenMed/sure-low", fixture_count=10**6, metrics={"leakage": {"overall": 0.01}}),
             "s/b.report.json": report(model_name="OpenMed/sure-high", fixture_count=10**6, metrics={"leakage": {"overall": 0.02}}),
             "s/c.report.json": report(model_name="OpenMed/thin", fixture_count=1, metrics={"leakage": {"overall": 0.015}})}
    site = build_site(tmp_path / "site", write_archive(tmp_path / "reports", files))
    w = pages.open((site / "compare.html").as_uri() + "#rows=0,1,2")
    page = w.page
    page.wait_for_function("() => document.querySelectorAll('#compare table').length >= 3")
    sure = page.evaluate("""() => Array.from(document.querySelectorAll('#compare table')[1].tBodies[0].rows,
        r => Array.from(r.cells, c => c.textContent))""")
    assert sure == [
        ["Leakage, 95% interval differs", "0.98–1.02%", "0.00–79.96%", "1.97–2.03%"],
        ["Recall, 95% interval differs", "89.94–90.06%", "16.77–99.76%", "89.94–90.06%"],
        ["Rank in its suite could be differs", "1 to 2", "1 to 3", "2 to 3"],
        ["Could be first in its suite differs", "yes", "yes", "no"],
        ["Intervals differs", "Wilson score, n = 1000000 fixtures", "Wilson score, n = 1 fixture",
         "Wilson score, n = 1000000 fixtures"],
    ]
    assert page.eval_on_selector_all("#compare .told-apart li", "ls => ls.map(l => l.textContent)") == [
        "OpenMed/sure-low (golden, cpu) and OpenMed/thin (golden, cpu): cannot be told apart: their leakage intervals "
        "(0.98–1.02% and 0.00–79.96%) overlap.",
        "OpenMed/sure-low (golden, cpu) and OpenMed/sure-high (golden, cpu): told apart: OpenMed/sure-low (golden, cpu) "
        "certainly leaks less (0.98–1.02%, wholly below 1.97–2.03%).",
        "OpenMed/thin (golden, cpu) and OpenMed/sure-high (golden, cpu): cannot be told apart: their leakage intervals "
        "(0.00–79.96% and 1.97–2.03%) overlap.",
    ]
