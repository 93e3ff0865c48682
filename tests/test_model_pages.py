"""A page for every model, model/<model>.html: on an archive where each model has reports in several
suites and on two devices (and some in two releases), every model has one page, which links every
report page of the model, each of which links it back; its ranks, rank ranges and intervals are
uncertainty.json's; it says which of its devices can be told apart, shows its history and its badges
with their snippets; it is a page object like the report pages (in the sitemap, dated by the model's
latest run date); two builds (one worker, two) write the same bytes; and Chromium at 360 px shows
every row whole, without a sideways scroll, with or without JavaScript."""

from __future__ import annotations

import html
import json
import re
from collections import defaultdict
from datetime import datetime, timezone
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from pathlib import Path
from urllib.parse import unquote

import pytest
from lxml import html as lxml_html

from browser_support import build_site, launch, serve, write_manifest
from conftest import HASH, SETTINGS, report, write_archive
from core_support import tree_digest

playwright_api = pytest.importorskip("playwright.sync_api")
# Imported before any build: axe reads its script in the locale's encoding, and Pelican sets LOCALE "C".
Axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe

SITE = "https://openmed.life/docs/eval/benchmark-leaderboard"
SUITES = ("alpha", "beta", "gamma")
MODELS = ("OpenMed/m-one", "OpenMed/m-two", "OpenMed/m-three")


def scored(model: str, suite: str, device: str, tag: str, leakage: float, recall: float, fixtures: int, day: int) -> dict:
    return report(model_name=model, suite=suite, device=device, fixture_count=fixtures,
                  generated_at=f"2026-03-{day:02d}T10:00:00Z",
                  metadata={"synthetic": True, "model_family": "PII", "release_tag": tag, "reproducibility_hash": HASH},
                  metrics={"leakage": {"overall": leakage}, "exact_span_f1": {"recall": recall, "f1": 0.8}})


def archive_files() -> dict[str, dict]:
    """Each model in two or three suites, on cpu (many fixtures: narrow intervals) and on cuda (few:
    wide ones); m-one on alpha in two releases (a history); a model of one report; another family."""
    files = {}
    for m, model in enumerate(MODELS):
        for s, suite in enumerate(SUITES[: 3 - (m == 2)]):
            for device, fixtures, extra in (("cpu", 4000, 0.0), ("cuda", 12, 0.02)):
                leakage = round(0.01 + 0.05 * m + 0.01 * s + extra, 4)
                files[f"{suite}/{m}-{device}.report.json"] = scored(model, suite, device, "v1.1.0", leakage,
                                                                    0.9 - 0.01 * m, fixtures, 1 + m + s)
    files["alpha/0-cpu-old.report.json"] = scored(MODELS[0], "alpha", "cpu", "v1.0.0", 0.03, 0.85, 4000, 20)
    # m-two on beta's cuda leaks far more: its two devices there can be told apart.
    files["beta/1-cuda.report.json"]["metrics"]["leakage"]["overall"] = 0.5
    files["beta/1-cuda.report.json"]["fixture_count"] = 4000
    files["gamma/solo.report.json"] = scored("OpenMed/solo", "gamma", "cpu", "v1.1.0", 0.2, 0.7, 30, 9)
    files["alpha/ner.report.json"] = report(model_name="Other/ner-a", suite="alpha",
                                            metadata={"synthetic": True, "model_family": "NER", "release_tag": "v1.1.0",
                                                      "reproducibility_hash": HASH})
    return files


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[int, Path]:
    """The archive rendered twice, with one worker and with two."""
    root = tmp_path_factory.mktemp("models")
    reports = write_archive(root / "reports", archive_files())
    manifest = write_manifest(root / "models.jsonl", [{"repo_id": MODELS[0], "family": "PII", "param_count": 44000000,
                                                       "license": "apache-2.0"}])
    return {workers: build_site(root / f"site-{workers}", reports, manifest, release_tag="v1.1.0",
                                LEADERBOARD_WORKERS=workers) for workers in (1, 2)}


@pytest.fixture(scope="module")
def site(sites) -> Path:
    return sites[2]


def published(site: Path) -> dict:
    return json.loads((site / "leaderboard.json").read_text(encoding="utf-8"))


def uncertainty(site: Path) -> dict:
    return json.loads((site / "uncertainty.json").read_text(encoding="utf-8"))["rows"]


def report_page(report_path: str) -> str:
    return "report/" + report_path[: -len(".json")] + ".html"


def model_page(model: str) -> str:
    return f"model/{model}.html"  # every model name here is a plain path (letters, digits, "/", "-")


def rows_by_model(site: Path) -> dict[str, list[dict]]:
    found = defaultdict(list)
    for row in published(site)["rows"]:
        found[row["model_name"]].append(row)
    return found


def links(page: Path) -> list[str]:
    """Every link of the page's main content, as paths within the site."""
    tree = lxml_html.fromstring(page.read_bytes())
    root = page.parent
    site = page
    while not (site / "leaderboard.json").is_file():
        site = site.parent
    return [(root / unquote(href.split("#")[0])).resolve().relative_to(site.resolve()).as_posix()
            for href in tree.xpath("//main//a/@href") if not href.startswith(("https:", "#")) and href.split("#")[0]]


def percent_text(fraction: float) -> str:
    value = Decimal(repr(fraction)) * 100
    return f"{value:.2f}" if value == value.quantize(Decimal("0.01")) else f"{value.normalize():f}"


def interval(low: float, high: float) -> str:
    bound = lambda value, rounding: (Decimal(repr(value)) * 100).quantize(Decimal("0.01"), rounding=rounding)  # noqa: E731
    return f"{bound(low, ROUND_FLOOR)}–{bound(high, ROUND_CEILING)}"


def shown_sections(page: Path) -> list[dict]:
    """Each suite's section of a model's page as a reader sees it: its heading, its rows (the
    report's link and text, then each cell's text) and its paragraphs."""
    tree = lxml_html.fromstring(page.read_bytes())
    sections = []
    for section in tree.xpath("//section[@class='model-suite']"):
        rows = [(row.xpath("th/a/@href")[0], row.xpath("string(th)"), [cell.text_content() for cell in row.xpath("td")])
                for row in section.xpath(".//table[@class='model-rows']/tbody/tr")]
        sections.append({"suite": section.xpath("string(h2)"), "rows": rows,
                         "paragraphs": [" ".join(p.text_content().split()) for p in section.xpath("p")],
                         "figures": [" ".join(c.text_content().split()) for c in section.xpath(".//figcaption")],
                         "codes": [code.xpath("string()") for code in section.xpath(".//pre/code")], "images": section.xpath(".//img/@src")})
    return sections


def test_every_model_has_one_page_linking_every_report_page_of_the_model_which_links_it_back(site):
    models = rows_by_model(site)
    assert sorted(models) == sorted([*MODELS, "OpenMed/solo", "Other/ner-a"])
    assert sorted(path.relative_to(site).as_posix() for path in (site / "model").rglob("*")
                  if path.is_file()) == sorted(model_page(model) for model in models)
    for model, rows in models.items():
        page = site / model_page(model)
        shown = [link for link in links(page) if link.startswith("report/")]
        assert sorted(shown) == sorted(report_page(row["report_path"]) for row in rows), model
        for row in rows:
            report_html = (site / report_page(row["report_path"])).read_text(encoding="utf-8")
            assert model_page(model) in links(site / report_page(row["report_path"]))
            assert f">Every report of <bdi>{html.escape(model)}</bdi></a>: its ranks on every suite" in report_html
    assert len(models["OpenMed/m-one"]) == 7  # three suites, two devices, and alpha's cpu in two releases


def test_each_row_shows_its_rank_range_and_intervals_as_uncertainty_json_says_best_first_in_each_suite(site):
    rows, figures = published(site)["rows"], uncertainty(site)
    in_suite = {}
    for suite in SUITES:
        for position, row in enumerate([row for row in rows if row["suite"] == suite], 1):
            in_suite[row["report_path"]] = position
    checked = 0
    for model, own in rows_by_model(site).items():
        sections = shown_sections(site / model_page(model))
        suites = [suite for suite in SUITES if any(row["suite"] == suite for row in own)]
        assert [section["suite"] for section in sections] == suites, model
        for section in sections:
            expected = []
            for row in (row for row in own if row["suite"] == section["suite"]):  # ranking order: its best first
                sure = figures[row["report_path"]]
                expected.append((
                    "../" * model.count("/") + "../" + report_page(row["report_path"]),
                    f"{row['device']} · {row['release_tag']}",
                    [f"{in_suite[row['report_path']]} ({sure['suite_rank_best']}–{sure['suite_rank_worst']})",
                     f"{percent_text(row['leakage'])} ({interval(sure['leakage_low'], sure['leakage_high'])})",
                     f"{percent_text(row['recall'])} ({interval(sure['recall_low'], sure['recall_high'])})",
                     "Yes" if sure["could_be_first"] else "No"]))
                checked += 1
            assert section["rows"] == expected, (model, section["suite"])
    assert checked == len(rows)
    # Both answers occur: some rows could be first, some could not.
    assert {first for first in (figures[row["report_path"]]["could_be_first"] for row in rows)} == {True, False}


def test_a_sentence_says_which_of_its_devices_can_be_told_apart_by_their_intervals(site):
    rows, figures = published(site)["rows"], uncertainty(site)
    said = {}
    for model in MODELS:
        for section in shown_sections(site / model_page(model)):
            best = {}
            for row in rows:
                if row["model_name"] == model and row["suite"] == section["suite"]:
                    best.setdefault(row["device"], row)
            parts = []
            devices = list(best)
            for position, a in enumerate(devices):
                for b in devices[position + 1:]:
                    fa, fb = figures[best[a]["report_path"]], figures[best[b]["report_path"]]
                    apart = fa["leakage_high"] < fb["leakage_low"] or fb["leakage_high"] < fa["leakage_low"]
                    parts.append(f"{a} ({interval(fa['leakage_low'], fa['leakage_high'])}%) "
                                 f"{'certainly leaks less than' if apart else 'cannot be told apart from'} "
                                 f"{b} ({interval(fb['leakage_low'], fb['leakage_high'])}%)")
            sentence = f"Its devices on {section['suite']}, each by its best row's leakage interval: " + "; ".join(parts) + "."
            assert sentence in section["paragraphs"], (model, section["suite"], section["paragraphs"])
            said[(model, section["suite"])] = sentence
    assert any("certainly leaks less than" in sentence for sentence in said.values())
    assert any("cannot be told apart from" in sentence for sentence in said.values())


def test_its_name_family_size_history_badges_and_compare_links(site):
    page = site / model_page(MODELS[0])
    tree = lxml_html.fromstring(page.read_bytes())
    assert tree.xpath("string(//h1)") == MODELS[0]
    assert tree.xpath("string(//title)") == f"\u2068{MODELS[0]}\u2069 · OpenMed Benchmark Leaderboard"  # isolated
    lede = " ".join(tree.xpath("string(//p[@class='lede'])").split())
    assert lede == "PII · 7 reports in 3 suites · on cpu, cuda · releases v1.0.0, v1.1.0 · latest run 2026-03-20"
    attributes = [[" ".join(cell.text_content().split()) for cell in row] for row in tree.xpath("//table[@class='evidence']/tbody/tr")]
    assert attributes == [["Parameters", "44M (44,000,000)", "param_count"], ["License", "apache-2.0", "license"]]
    sections = {section["suite"]: section for section in shown_sections(page)}
    rows = published(site)["rows"]
    alpha = [row for row in rows if row["model_name"] == MODELS[0] and row["suite"] == "alpha" and row["device"] == "cpu"]
    old, new = sorted(alpha, key=lambda row: row["release_tag"])
    before, after = percent_text(old["leakage"]), percent_text(new["leakage"])
    assert sections["alpha"]["figures"] == [f"On cpu: Leakage by release, from {before}% in \u2068v1.0.0\u2069 to {after}% "
                                            f"in \u2068v1.1.0\u2069: \u2068v1.0.0\u2069 {before}%, \u2068v1.1.0\u2069 {after}%"]
    assert sections["beta"]["figures"] == []  # one release there: no history
    for suite, section in sections.items():
        badge = f"badge/suite-{suite}/{MODELS[0]}.svg"
        assert (site / badge).is_file() and section["images"] == ["../../" + badge]
        # As a reader copies them: the text of each code block (its names' <bdi> are not part of it).
        assert section["codes"] == [
            f"[![PHI leakage of {MODELS[0]} on {suite}]({SITE}/{badge})]({SITE}/{model_page(MODELS[0])})",
            f'<a href="{SITE}/{model_page(MODELS[0])}"><img src="{SITE}/{badge}" alt="PHI leakage of {MODELS[0]} on {suite}"></a>']
    # Compare: its rows of a suite (two to four), and its best row of each suite, named by their
    # places in the ranking as the index's Compare selected link names them.
    compares = [href for href in tree.xpath("//main//a/@href") if href.startswith("../../compare.html#rows=")]
    chosen = [[rows[int(number)] for number in href.split("=")[1].split(",")] for href in compares]
    assert chosen[0] == [next(row for row in rows if row["model_name"] == MODELS[0] and row["suite"] == suite)
                         for suite in SUITES]
    assert [[row["suite"] for row in rows_of] for rows_of in chosen[1:]] == [["alpha"] * 3, ["beta"] * 2, ["gamma"] * 2]
    assert all(row["model_name"] == MODELS[0] for rows_of in chosen for row in rows_of)
    solo = lxml_html.fromstring((site / model_page("OpenMed/solo")).read_bytes())
    assert not [href for href in solo.xpath("//main//a/@href") if "compare.html" in href]  # one row: nothing to compare


def test_the_model_page_is_a_page_object_in_the_sitemap_dated_by_its_latest_run(site):
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    found = dict(re.findall(r"<loc>([^<]*)</loc>\n<lastmod>([^<]*)</lastmod>", sitemap))
    for model, rows in rows_by_model(site).items():
        assert found[f"{SITE}/{model_page(model)}"] == max(row["run_date"] for row in rows) + "T00:00:00+00:00", model


def test_the_context_holds_a_model_page_object_for_each_model_after_the_report_pages(tmp_path):
    from pelican import contents
    from pelican.settings import read_settings

    from benchmark_leaderboard.generator import LeaderboardGenerator
    from benchmark_leaderboard.present.model_pages import ModelPage

    reports = write_archive(tmp_path / "reports", archive_files())
    settings = read_settings(SETTINGS, override={"OUTPUT_PATH": str(tmp_path / "out"), "LEADERBOARD_REPORTS_DIR": str(reports),
                                                 "LEADERBOARD_RELEASE_TAG": "v1.1.0"})
    context = {**settings, "pages": []}
    generator = LeaderboardGenerator(context=context, settings=settings, path=settings["PATH"], theme=settings["THEME"],
                                     output_path=str(tmp_path / "out"))
    generator.generate_context()
    pages = [page for page in context["leaderboard_pages"] if isinstance(page, ModelPage)]
    rows = context["leaderboard"].rows
    assert context["leaderboard_pages"][-len(pages):] == pages
    assert [page.save_as for page in pages] == sorted(model_page(model) for model in {row.model_name for row in rows})
    for page in pages:
        own = [row for row in rows if row.model_name == page.model_name]
        assert isinstance(page, contents.Page) and page.template == "model" and page.status == "published"
        assert page.title == page.model_name and page.url == page.save_as and page.model_family == own[0].model_family
        assert page.date == datetime.fromisoformat(max(row.run_date for row in own)).replace(tzinfo=timezone.utc)


def test_one_worker_and_two_write_the_same_bytes(sites):
    one, two = tree_digest(sites[1]), tree_digest(sites[2])
    assert sum(path.startswith("model/") for path in one) == 5
    assert one == two


def test_a_model_page_s_path_is_its_badges_encoding_of_the_name():
    from benchmark_leaderboard.paths import badge_path
    from benchmark_leaderboard.paths import model_page_path

    names = ["OpenMed/a", "a.svg/b", "..", "../x", "a b", "医疗/模型", "x" * 251, "org/" + "y" * 300, "a\x00b", "~"]
    paths = [model_page_path(name) for name in names]
    assert len(set(paths)) == len(names)
    for name, path in zip(names, paths):
        assert re.fullmatch(r"model/[A-Za-z0-9._~/-]+\.html", path), name
        assert path[len("model/"): -len(".html")] == badge_path("s", name)[len("badge/s/"): -len(".svg")], name
        assert all(part and len(part) <= 255 and part not in (".", "..") for part in path.split("/")), name


# -- In Chromium ----------------------------------------------------------------------------------

# Every row of the model's tables as Chromium shows it: its box, whether each cell lies within it
# and shows all it holds (nothing cut or scrolled), and each cell's text after the label the style
# writes before it (generated text, which innerText leaves out).
ROWS_SHOWN = """() => Array.from(document.querySelectorAll('.model-rows tbody tr'), row => {
  const box = row.getBoundingClientRect();
  const whole = Array.from(row.cells, cell => {
    const own = cell.getBoundingClientRect();
    return own.left >= box.left - 0.5 && own.right <= box.right + 0.5 && cell.scrollWidth <= cell.clientWidth + 1;
  });
  const label = cell => (getComputedStyle(cell, '::before').content.match(/^"(.*)" \\/ ""$/) || [null, ''])[1];
  return {left: box.left, right: box.right, whole: whole.every(Boolean),
          cells: Array.from(row.cells, cell => label(cell) + cell.innerText.trim())};
})"""


@pytest.fixture(scope="module")
def browser():
    with launch(playwright_api) as chromium:
        yield chromium


@pytest.mark.browser
@pytest.mark.parametrize("script", [True, False])
def test_chromium_at_360_px_shows_every_row_whole_without_a_sideways_scroll(browser, site, script):
    with serve(site) as base:
        context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                      java_script_enabled=script)
        try:
            page = context.new_page()
            page.goto(base + model_page(MODELS[0]))
            rows = page.evaluate(ROWS_SHOWN)
            assert len(rows) == 7
            for row in rows:
                assert row["left"] >= 0 and row["right"] <= 360 and row["whole"], row
            # Each row is a card: the report, then each figure after its column's label.
            assert rows[0]["cells"] == ["cpu · v1.1.0", "Rank in suite 1 (1–3)", "Leakage % 1.00 (0.73–1.36)",
                                        "Recall % 90.00 (89.03–90.90)", "Could be first Yes"]
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
        finally:
            context.close()


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_wcag_aa_violation_on_a_model_page(browser, site, scheme):
    with serve(site) as base:
        context = browser.new_context(color_scheme=scheme)
        try:
            page = context.new_page()
            page.goto(base + model_page(MODELS[0]))
            page.click("summary")  # a badge's snippets, shown
            results = Axe().run(page, options={"runOnly": {"type": "tag",
                                                           "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}})
            assert results.response["testEngine"]["name"] == "axe-core"
            assert [(v["id"], [n["target"] for n in v["nodes"]]) for v in results.response["violations"]] == []
        finally:
            context.close()
