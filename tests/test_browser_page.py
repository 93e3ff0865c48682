"""The leaderboard page and report pages in Chromium, served under `default-src 'self'`."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from browser_support import CHROMIUM, CHROMIUM_ARGS, ROWS_READ, Watched, serve, settle, show_tab
from conftest import SETTINGS, report, write_archive

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")
# Imported before any build: axe reads its script in the locale's encoding, and Pelican sets LOCALE "C".
Axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe

SUITES = ["clinical-notes", "discharge-summaries", "golden", "radiology"]
COUNTS = [6, 3, 1, 10]
HOSTILE = {
    "suite": "<b>suite</b></script><!--",
    "family": "Fam\"ily' & <i>co</i>",
    "model": "</script><script>window.pwned=1</script>",
    "device": "<img src=x onerror=window.pwned=2>",
    "release": "v1\"onmouseover=\"window.pwned=3\u2028<!--",
    "file": "we<i>rd&'\" name.report.json",
}

# A model's page with a history (two releases on one device) and two devices on one suite, and the
# hostile model's page.
MODEL_PAGE = "model/OpenMed/tie-model-d.html"
HOSTILE_MODEL_PAGE = "model/~3C/script~3E~3Cscript~3Ewindow~2Epwned~3D1~3C/script~3E.html"


def _build(reports: Path | None, output: Path, release_tag: str = "v3.1.0") -> Path:
    from leaderboard_tools.runner import build

    build(SETTINGS, str(output), reports_dir=str(reports) if reports else None, release_tag=release_tag,
          progress=lambda message: None)
    return output


@pytest.fixture(scope="session")
def sites(tmp_path_factory) -> Path:
    """The bundled archive's site under bundled/, a hostile archive's under hostile/."""
    root = tmp_path_factory.mktemp("sites")
    _build(None, root / "bundled")
    hostile = write_archive(root / "hostile-archive", {
        f"{HOSTILE['suite']}/{HOSTILE['file']}": report(
            suite=HOSTILE["suite"], model_name=HOSTILE["model"], device=HOSTILE["device"],
            metadata={"model_family": HOSTILE["family"], "release_tag": HOSTILE["release"], "note": "</script><!--\u2029"}),
        "plain/ok.report.json": report(suite="plain", model_name="OpenMed/plain-model"),
    })
    _build(hostile, root / "hostile")
    return root


@pytest.fixture(scope="session")
def base_url(sites) -> str:
    with serve(sites) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    # Module-scoped: Playwright's sync API allows one running instance, and other modules start their own.
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser, base_url):
    """``open_page(path, **context_options)``: a watched page at ``path`` of the served sites."""
    contexts = []

    def open_(path: str, rows: bool = True, **options) -> Watched:
        context = browser.new_context(**options)
        context.set_default_timeout(5000)
        contexts.append(context)
        watched = Watched(context.new_page())
        if path:
            watched.page.goto(path if ":" in path else base_url + path)
            if options.get("java_script_enabled", True):
                settle(watched.page, rows=rows)
        return watched

    yield open_
    for context in contexts:
        context.close()


# A table row's cells by their column's header text.
ROW_BY_HEADER = """r => Object.fromEntries(Array.from(r.closest('table').tHead.rows[0].cells,
                                                (th, i) => [th.textContent, r.cells[i].textContent]))"""


def selected_tab(page) -> str:
    return page.get_attribute("[role=tab][aria-selected=true]", "aria-controls")


def shown_panels(page) -> list[str]:
    return page.eval_on_selector_all("[role=tabpanel]", "ps => ps.filter(p => !p.hidden).map(p => p.id)")


def visible_rows(page) -> int:
    """The rows shown in the family tables (a suite's best rows, above them, stay as they are)."""
    return page.eval_on_selector_all("[data-family] tbody tr", "rs => rs.filter(r => r.offsetParent !== null).length")


def tab_counts(page) -> list[str]:
    return page.eval_on_selector_all("[role=tab] [data-count]", "cs => cs.map(c => c.textContent)")


def fragment(page) -> str:
    """The page's address fragment, once what typing changed is written (after the next frame, when
    the page is idle)."""
    return page.evaluate("new Promise(done => requestAnimationFrame(() => setTimeout(() => "
                         "(window.requestIdleCallback || setTimeout)(() => done(location.hash)), 0)))")


def test_tabs_follow_the_aria_pattern_and_show_one_panel(open_page, base_url):
    w = open_page("bundled/index.html")
    page = w.page
    tabs = page.locator("[role=tab]")
    assert tabs.all_text_contents() == [f"{name} {count} rows" for name, count in zip(SUITES, COUNTS)]
    assert page.eval_on_selector_all("[role=tab]", "ts => ts.map(t => [t.tabIndex, t.getAttribute('aria-selected')])") == \
        [[0, "true"], [-1, "false"], [-1, "false"], [-1, "false"]]
    assert shown_panels(page) == ["suite-clinical-notes"]
    assert page.get_attribute("#suite-clinical-notes", "aria-labelledby") == "suite-clinical-notes-tab"
    assert page.get_attribute("#suite-radiology-tab", "aria-controls") == "suite-radiology"
    assert visible_rows(page) == 6
    # Only the first suite's panel is in the page as served; another's is loaded when first chosen.
    assert page.eval_on_selector("#suite-radiology", "p => p.children.length") == 0

    show_tab(page, "#suite-radiology-tab")
    assert selected_tab(page) == "suite-radiology"
    assert shown_panels(page) == ["suite-radiology"]
    # The top LEADERBOARD_INDEX_ROWS (5) rows of each family: 5 of its 8 zero-shot rows and 2 others.
    assert visible_rows(page) == 7
    assert page.eval_on_selector_all("[role=tab]", "ts => ts.map(t => t.tabIndex)") == [-1, -1, -1, 0]
    assert fragment(page) == "#suite-radiology"
    w.assert_clean(base_url)


def test_arrow_keys_wrap_home_and_end_and_focus_follows(open_page, base_url):
    w = open_page("bundled/index.html")
    page = w.page
    page.focus("#suite-clinical-notes-tab")
    focused = lambda: page.evaluate("document.activeElement.id")  # noqa: E731
    page.keyboard.press("ArrowLeft")
    assert (selected_tab(page), focused()) == ("suite-radiology", "suite-radiology-tab")
    page.keyboard.press("ArrowRight")
    assert (selected_tab(page), focused()) == ("suite-clinical-notes", "suite-clinical-notes-tab")
    page.keyboard.press("ArrowRight")
    assert (selected_tab(page), focused()) == ("suite-discharge-summaries", "suite-discharge-summaries-tab")
    page.keyboard.press("End")
    assert (selected_tab(page), focused()) == ("suite-radiology", "suite-radiology-tab")
    page.keyboard.press("Home")
    assert (selected_tab(page), focused()) == ("suite-clinical-notes", "suite-clinical-notes-tab")
    assert shown_panels(page) == ["suite-clinical-notes"]
    # Tab leaves the tab list for the panel: one stop for the whole list (roving tabindex).
    page.keyboard.press("Tab")
    assert focused() == "suite-clinical-notes"
    w.assert_clean(base_url)


def test_a_tab_address_reopens_it_and_back_forward_move_between_tabs(open_page, base_url):
    w = open_page("bundled/index.html#suite-golden")
    page = w.page
    assert selected_tab(page) == "suite-golden"
    assert shown_panels(page) == ["suite-golden"]
    show_tab(page, "#suite-radiology-tab")
    show_tab(page, "#suite-discharge-summaries-tab")
    page.go_back()
    assert (fragment(page), selected_tab(page)) == ("#suite-radiology", "suite-radiology")
    page.go_back()
    assert (fragment(page), selected_tab(page)) == ("#suite-golden", "suite-golden")
    page.go_forward()
    assert selected_tab(page) == "suite-radiology"
    assert shown_panels(page) == ["suite-radiology"]
    w.assert_clean(base_url)


def test_filter_counts_rows_in_its_status_and_tabs_and_escape_clears(open_page, base_url):
    w = open_page("bundled/index.html")
    page = w.page
    status = page.locator("#filter-status")
    assert status.get_attribute("role") == "status" and status.get_attribute("aria-live") == "polite"
    assert status.inner_text() == "Showing all 6 rows."
    page.fill("#filter", "TIE-model CPU")
    assert status.inner_text() == "Showing 1 of 6 rows matching \u201cTIE-model CPU\u201d."
    assert tab_counts(page) == ["1", "1", "0", "9"]
    assert visible_rows(page) == 1
    assert fragment(page) == "#suite-clinical-notes?q=TIE-model%20CPU"
    page.fill("#filter", "no such model")
    assert status.inner_text() == "No rows match \u201cno such model\u201d."
    assert page.is_visible("#suite-clinical-notes [data-empty]")
    page.press("#filter", "Escape")
    assert page.input_value("#filter") == ""
    assert status.inner_text() == "Showing all 6 rows."
    assert tab_counts(page) == [str(count) for count in COUNTS]
    assert visible_rows(page) == 6
    assert fragment(page) == "#suite-clinical-notes"
    w.assert_clean(base_url)


def test_filter_searches_family_device_release_date_and_whole_hash(open_page, base_url, sites):
    rows = json.loads((sites / "bundled" / "leaderboard.json").read_text())["rows"]
    int8 = next(row for row in rows if row["model_name"].endswith("-int8"))
    w = open_page("bundled/index.html")
    page = w.page
    for query, counts in [("zeroshot", ["0", "1", "0", "8"]), ("mlx-8BIT", ["0", "0", "0", "1"]),
                          ("v2.0.0", ["0", "0", "1", "0"]), ("2026-02-11", ["1", "0", "0", "0"]),
                          (int8["reproducibility_hash"].upper(), ["1", "0", "0", "0"]),
                          ("radiology", ["0", "0", "0", "0"])]:  # the suite is chosen by tab, not searched
        page.fill("#filter", query)
        assert tab_counts(page) == counts, query
    w.assert_clean(base_url)


def test_a_chosen_tab_without_match_gives_way_to_the_first_tab_with_one(open_page, base_url):
    w = open_page("bundled/index.html#suite-golden")
    page = w.page
    page.fill("#filter", "zeroshot")
    assert selected_tab(page) == "suite-discharge-summaries"
    assert shown_panels(page) == ["suite-discharge-summaries"]
    assert fragment(page) == "#suite-discharge-summaries?q=zeroshot"
    page.fill("#filter", "zeroshot mlx")
    assert selected_tab(page) == "suite-radiology"
    assert page.evaluate("document.activeElement.id") == "filter"
    w.assert_clean(base_url)


def test_the_filter_is_part_of_the_address(open_page, base_url):
    w = open_page("bundled/index.html#suite-radiology?q=tie-model-c")
    page = w.page
    assert page.input_value("#filter") == "tie-model-c"
    assert selected_tab(page) == "suite-radiology"
    assert visible_rows(page) == 2
    assert page.inner_text("#filter-status") == "Showing 2 of 10 rows matching \u201ctie-model-c\u201d."
    page.goto(base_url + "bundled/index.html#?q=int8")
    assert selected_tab(page) == "suite-clinical-notes"
    assert visible_rows(page) == 1
    w.assert_clean(base_url)


def test_without_javascript_every_suite_and_row_shows(open_page, base_url):
    w = open_page("bundled/index.html", java_script_enabled=False)
    page = w.page
    # No tabs announced, no controls that cannot work: the suites are links to their pages.
    assert page.locator("[role=tab], [role=tablist], [role=tabpanel]").count() == 0
    assert not page.is_visible("#filter")
    links = page.eval_on_selector_all("[data-tabs] a", "as => as.map(a => [a.textContent, a.getAttribute('aria-current')])")
    assert links == [[f"{name} {count} rows", "page" if name == SUITES[0] else None] for name, count in zip(SUITES, COUNTS)]
    assert page.locator("section.panel").evaluate_all("ps => ps.map(p => p.id)") == ["suite-clinical-notes"]
    assert page.eval_on_selector_all("input[data-compare]", "bs => bs.filter(b => b.offsetParent !== null).length") == 0
    seen: list[str] = []
    for name in SUITES:
        page.click(f"[data-tabs] a >> text={name}")
        assert page.locator("section.panel").evaluate_all("ps => ps.map(p => p.id)") == [f"suite-{name}"]
        assert page.is_visible(f"[data-tabs] a[aria-current=page] >> text={name}")
        # Each family's top rows, then a link to the family's pages, which hold every row.
        families = page.eval_on_selector_all(".family", "fs => fs.map(f => [Array.from(f.querySelectorAll('tbody th a'), a => a.href), "
                                             "(f.querySelector('.family-all a') || {}).href || null])")
        for shown, href in families:
            assert 0 < len(shown) <= 5
            if href:
                family_page = page.context.new_page()
                family_page.goto(href)
                seen += family_page.eval_on_selector_all("tbody th a", "as => as.map(a => a.href)")
                assert family_page.eval_on_selector_all("input[data-compare]", "bs => bs.filter(b => b.offsetParent !== null).length") == 0
                family_page.close()
            else:
                seen += shown
    assert len(set(seen)) == 20
    assert w.errors == []


def test_the_page_works_opened_from_disk(open_page, sites):
    index = (sites / "bundled" / "index.html").as_uri()
    w = open_page(index)
    page = w.page
    assert shown_panels(page) == ["suite-clinical-notes"]
    show_tab(page, "#suite-golden-tab")
    page.fill("#filter", "int8")
    assert selected_tab(page) == "suite-clinical-notes"
    assert page.inner_text("#filter-status") == "Showing 1 of 6 rows matching \u201cint8\u201d."
    page.press("#filter", "Escape")
    page.go_back()
    assert selected_tab(page) == "suite-clinical-notes"
    page.click("#suite-clinical-notes tbody th a >> nth=0")
    assert page.url.startswith((sites / "bundled" / "report").as_uri())
    w.assert_clean("file://")


def test_every_row_links_to_its_report_page_which_shows_its_evidence(open_page, base_url, sites):
    w = open_page("bundled/index.html#suite-radiology")
    page = w.page
    for name in SUITES[1:3]:
        show_tab(page, f"#suite-{name}-tab")
    links = page.eval_on_selector_all("[data-family] tbody th a", "as => as.map(a => a.href)")
    # The top rows of every family of every suite (radiology's zero-shot family shows 5 of its 8).
    assert len(links) == 17 and all(link.startswith(base_url + "bundled/report/") for link in links)
    # Each suite's best rows (5 of clinical-notes's 6 and of radiology's 10, and every row of the
    # other two) link to the same pages.
    best = page.eval_on_selector_all(".top tbody th a", "as => as.map(a => a.href)")
    assert len(best) == 5 + 3 + 1 + 5 and set(best) <= set(links)
    copies = page.eval_on_selector_all("[data-family] tbody td a", "as => as.map(a => [a.textContent, a.href])")
    assert len(copies) == 17 and {text for text, _ in copies} == {"JSON"}
    assert [href for _, href in copies] == [link.replace("/bundled/report/", "/bundled/reports/")[:-len("html")] + "json"
                                           for link in links]
    show_tab(page, "#suite-clinical-notes-tab")
    page.click("#suite-clinical-notes tbody >> text=OpenMed/OpenMed-PII-SuperClinical-Small-44M-v1-onnx-int8")
    assert page.url == base_url + "bundled/report/clinical-notes/pii-small-int8.report.html"
    text = page.inner_text("main")
    copy = (sites / "bundled" / "reports" / "clinical-notes" / "pii-small-int8.report.json").read_bytes()
    assert hashlib.sha256(copy).hexdigest() in text
    for label, value in [("Rank in clinical-notes", "3"), ("Rank overall", "4 of 20")]:
        assert f"{label}\n{value}" in text
    published = page.eval_on_selector_all("[aria-label='Published row'] tbody tr",
                                          "rs => rs.map(r => Array.from(r.cells, c => c.textContent))")
    assert [row[0] for row in published] == ["suite", "model_family", "model_name", "device", "leakage", "recall",
                                             "f1", "release_tag", "run_date", "reproducibility_hash", "report_path"]
    assert all(row[2] in ("report", "manifest", "--release-tag fallback", "archive") for row in published)
    json_link = page.eval_on_selector("text=reports/clinical-notes/pii-small-int8.report.json", "a => a.href")
    assert json_link == base_url + "bundled/reports/clinical-notes/pii-small-int8.report.json"
    assert page.request.get(json_link).body() == copy
    # The way back leads to the report's own suite: the index for the first suite, its own page for
    # the others, with the script or without.
    page.click("text=Back to clinical-notes")
    assert page.url == base_url + "bundled/index.html"
    assert selected_tab(page) == "suite-clinical-notes"
    page.goto(base_url + "bundled/report/radiology/tie-model-a.report.html")
    page.click("text=Back to radiology")
    assert page.url == base_url + "bundled/suite/suite-radiology/index.html"
    assert page.eval_on_selector_all("section.panel", "ps => ps.map(p => p.id)") == ["suite-radiology"]
    w.assert_clean(base_url)


def test_a_manifest_and_fallback_field_say_where_they_came_from(open_page, base_url):
    w = open_page("bundled/report/golden.report.html")
    cells = w.page.eval_on_selector_all("[aria-label='Published row'] tbody tr",
                                        "rs => Object.fromEntries(rs.map(r => [r.cells[0].textContent, [r.cells[2].textContent, r.cells[3].textContent]]))")
    assert cells["release_tag"] == ["report", "metadata.release_tag"]
    assert cells["model_family"][0] == "manifest"
    assert cells["leakage"] == ["report", "metrics.leakage.overall"]
    w.assert_clean(base_url)


def test_a_hostile_archive_renders_as_text_and_runs_nothing(open_page, base_url, sites):
    for url in (base_url + "hostile/index.html", (sites / "hostile" / "index.html").as_uri()):
        w = open_page(url)
        page = w.page
        assert page.evaluate("window.pwned") is None
        tab_names = page.eval_on_selector_all("[role=tab] .tab-name", "ts => ts.map(t => t.textContent)")
        assert tab_names == [HOSTILE["suite"], "plain"]
        page.click("[role=tab] >> nth=0")
        row = page.eval_on_selector("tbody tr", ROW_BY_HEADER)
        # The suite's only row is its frontier.
        assert (row["Model"], row["Device"], row["Release"]) == (HOSTILE["model"] + " frontier", HOSTILE["device"], HOSTILE["release"])
        assert page.inner_text(".family h3") == HOSTILE["family"]
        page.fill("#filter", "onerror=window")
        assert page.inner_text("#filter-status") == "Showing 1 of 1 row matching \u201conerror=window\u201d."
        show_tab(page, "[role=tab] >> nth=1")  # a panel loaded from its script
        assert page.eval_on_selector("#suite-plain tbody tr", ROW_BY_HEADER)["Model"] == "OpenMed/plain-model frontier"
        show_tab(page, "[role=tab] >> nth=0")
        page.click("tbody th a")
        assert page.evaluate("window.pwned") is None
        assert page.inner_text("h1") == HOSTILE["model"]
        assert HOSTILE["file"] in page.inner_text("main")
        page.click("text=Every report of")  # its model's page, and from there back to the report
        assert page.evaluate("window.pwned") is None
        assert page.inner_text("h1") == HOSTILE["model"]
        assert page.inner_text(".model-rows tbody th") == f"{HOSTILE['device']} · {HOSTILE['release']}"
        page.click(".model-rows tbody th a")
        assert page.inner_text("h1") == HOSTILE["model"] and HOSTILE["file"] in page.inner_text("main")
        page.click("text=Back to")
        page.wait_for_selector("[role=tabpanel]", state="attached")  # the script has wired the new page
        assert selected_tab(page) == page.evaluate("document.querySelector('[role=tabpanel]').id")
        assert w.dialogs == [] and w.errors == []
    w.assert_clean("file://")


def test_a_phone_never_scrolls_the_page_sideways(open_page, base_url):
    for path in ("bundled/index.html", "bundled/report/clinical-notes/legacy/pii-onnx.report.html",
                 "bundled/schema.html", "hostile/index.html", f"bundled/{MODEL_PAGE}", f"hostile/{HOSTILE_MODEL_PAGE}"):
        w = open_page(path, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        assert w.page.evaluate("document.documentElement.scrollWidth") <= 390, path
        w.assert_clean(base_url)


def test_every_page_loads_without_error_or_policy_violation(open_page, base_url, sites):
    pages = ["bundled/index.html", "bundled/ranking.html", "bundled/schema.html", "bundled/refresh.html",
             "bundled/adding-reports.html", "bundled/report/golden.report.html", f"bundled/{MODEL_PAGE}"]
    w = open_page("")
    for path in pages:
        response = w.page.goto(base_url + path)
        assert response.status == 200 and response.headers["content-security-policy"] == "default-src 'self'"
        assert w.page.get_attribute("link[rel=canonical]", "href").startswith("https://")
        assert w.page.get_attribute("meta[property='og:title']", "content")
        assert w.page.get_attribute("meta[name=description]", "content")
    nav = w.page.eval_on_selector_all("nav a", "as => as.map(a => a.textContent)")
    assert nav == ["Leaderboard", "Ranking", "Schema v1", "Refresh and release", "Add a report", "Compare", "leaderboard.json"]
    w.assert_clean(base_url)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_wcag_aa_violation(open_page, base_url, scheme):
    axe = Axe()
    options = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
    found = {}
    for path, action in [("bundled/index.html", None), ("bundled/index.html#suite-radiology?q=zeroshot", None),
                         ("bundled/index.html", "filter"), ("bundled/report/golden.report.html", None),
                         ("bundled/ranking.html", None), ("hostile/index.html", None), (f"bundled/{MODEL_PAGE}", None),
                         (f"hostile/{HOSTILE_MODEL_PAGE}", None)]:
        w = open_page(path, color_scheme=scheme)
        if action == "filter":
            w.page.fill("#filter", "nothing matches this")
        results = axe.run(w.page, options=options)
        assert results.response["testEngine"]["name"] == "axe-core"
        found[path + (action or "")] = [(v["id"], [n["target"] for n in v["nodes"]]) for v in results.response["violations"]]
    assert found == {key: [] for key in found}


# Layout shifts that no input caused, summed, from the page's first paint on (the CLS of Lighthouse
# and the Web Vitals counts only these).
WATCH_SHIFTS = """
window.__shifts = 0;
new PerformanceObserver(list => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts += e.value; })
  .observe({type: 'layout-shift', buffered: true});
"""


def test_the_page_is_ready_without_the_rows_and_reads_them_and_other_panels_on_first_use(open_page, base_url):
    w = open_page("bundled/index.html", rows=False)
    page = w.page
    page.wait_for_load_state("load")
    page.wait_for_function("() => document.documentElement.classList.contains('js')")
    assert not any(url.endswith("leaderboard-data.js") or url.endswith("panel.js") for url in w.requests)
    assert page.evaluate("typeof window.leaderboardData") == "undefined"
    assert page.eval_on_selector("[data-controls]", "c => c.dataset.rows || null") is None
    page.focus("#filter")  # turning to the filter reads the rows
    page.wait_for_function(ROWS_READ)
    assert [url for url in w.requests if url.endswith("leaderboard-data.js")] == [base_url + "bundled/leaderboard-data.js"]
    show_tab(page, "#suite-golden-tab")
    assert [url for url in w.requests if url.endswith("panel.js")] == [base_url + "bundled/suite/suite-golden/panel.js"]
    show_tab(page, "#suite-clinical-notes-tab")
    show_tab(page, "#suite-golden-tab")  # loaded once
    assert len([url for url in w.requests if url.endswith("panel.js")]) == 1
    w.assert_clean(base_url)


def test_a_sort_pressed_before_the_rows_are_read_is_done_once_they_are(open_page, base_url):
    w = open_page("bundled/index.html", rows=False)
    page = w.page
    page.click("#suite-clinical-notes thead button[data-sort=recall]")
    page.wait_for_function(ROWS_READ)
    assert page.inner_text("#filter-status") == "Showing all 6 rows. Sorted by Recall %, ascending."
    assert fragment(page) == "#suite-clinical-notes?sort=recall:asc"
    w.assert_clean(base_url)


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_nothing_moves_when_the_script_starts_reads_the_rows_or_shows_more(open_page, base_url, viewport):
    w = open_page("", viewport=viewport)
    page = w.page
    page.add_init_script(WATCH_SHIFTS)
    page.goto(base_url + "bundled/index.html")
    page.wait_for_load_state("load")
    settle(page)  # the rows read, as when the reader turns to the filter
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert page.evaluate("window.__shifts") == 0
    w = open_page("", viewport=viewport)
    w.page.add_init_script(WATCH_SHIFTS)
    w.page.goto(base_url + "bundled/compare.html#rows=0,1")
    w.page.wait_for_selector("#compare table")
    w.page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert w.page.evaluate("window.__shifts") == 0


def test_a_table_row_at_1280_px_is_a_line_of_cells_whose_name_wraps_whole_and_its_hash_short(open_page, base_url, sites):
    w = open_page("bundled/index.html", viewport={"width": 1280, "height": 800})
    page = w.page
    rows = json.loads((sites / "bundled" / "leaderboard.json").read_text())["rows"]
    for anchor in SUITES:
        show_tab(page, f"#suite-{anchor}-tab")
        # Every cell of a row (the best rows' and the families') side by side, starting on one line;
        # only the model's name takes more lines when it is long (it is never cut).
        laid = page.eval_on_selector_all(f"#suite-{anchor} tbody tr", """rs => rs.map(r => {
            const cells = Array.from(r.cells);
            const model = r.querySelector('th');
            const line = parseFloat(getComputedStyle(r.cells[1]).lineHeight);
            const height = c => { const range = document.createRange(); range.selectNodeContents(c); return range.getBoundingClientRect().height; };
            return {row: Number(r.dataset.row), tops: new Set(cells.map(c => Math.round(c.getBoundingClientRect().top))).size,
                    others: Math.max(...cells.filter(c => c !== model).map(height)), line: line,
                    name: model.querySelector('a').textContent, cut: model.scrollWidth > model.clientWidth
                      || getComputedStyle(model).textOverflow === 'ellipsis' || getComputedStyle(model.querySelector('a')).textOverflow === 'ellipsis'};
        })""")
        assert laid and all(row["tops"] == 1 and not row["cut"] for row in laid), (anchor, laid)
        # Every other cell holds a line, or two: a rank's range and a leakage's interval stand under the value.
        assert all(row["others"] <= 2 * row["line"] + 1 for row in laid), (anchor, laid)
        assert [row["name"] for row in laid] == [rows[row["row"]]["model_name"] for row in laid]
    shown = page.eval_on_selector_all("#suite-clinical-notes [data-family] tbody tr", ROW_BY_HEADER.replace("r =>", "rs => rs.map(r =>") + ")")
    whole = {row["reproducibility_hash"] for row in rows}
    assert shown and all(len(row["Reproducibility hash"]) == 12 for row in shown)
    assert all(any(h.partition(":")[2].startswith(row["Reproducibility hash"]) for h in whole) for row in shown)
    w.assert_clean(base_url)
