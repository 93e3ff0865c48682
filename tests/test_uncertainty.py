"""How sure each rank is (issue 26): every row's 95% Wilson score intervals, checked against
references nobody here wrote (statsmodels' implementation, over a grid from n = 1 to n = 10⁹, and
the values Newcombe (1998) published), and each suite's rank ranges and "could be first" marks,
checked against the definition counted pair by pair."""

from __future__ import annotations

import json
import math
import random
import re
from html import unescape
from itertools import product

import pytest
from statsmodels.stats.proportion import proportion_confint

from benchmark_leaderboard.board import Family, Filled, Suite
from benchmark_leaderboard.decide.document import uncertainty_json
from benchmark_leaderboard.decide.uncertainty import FIGURES, METHODS, Z, rank_ranges, told_apart, uncertainty_of, wilson
from benchmark_leaderboard.formatting import percent
from benchmark_leaderboard.problems import BuildRefused
from benchmark_leaderboard.read import validate
from benchmark_leaderboard.read.canonical import canonical
from conftest import ROOT, report
from core_support import build

RATES = (0.0, 1e-12, 1e-9, 1e-6, 0.001, 0.0034, 0.0125, 0.0731, 0.1, 0.25, 1 / 3, 0.4999, 0.5, 0.5001, 0.75, 0.9,
         0.999, 1 - 1e-9, 1.0)
SIZES = (1, 2, 3, 7, 10, 24, 100, 1000, 10**6, 10**9)


def test_z_is_the_standard_normals_0975_quantile():
    from scipy.stats import norm

    assert Z == norm.ppf(0.975)


@pytest.mark.parametrize("rate, n", list(product(RATES, SIZES)))
def test_the_interval_is_statsmodels_wilson_interval(rate, n):
    # A rate over fixtures times their number is a fractional count: statsmodels takes it as it is.
    low, high = proportion_confint(rate * n, n, alpha=0.05, method="wilson")
    ours = wilson(rate, n)

    assert math.isclose(ours[0], low, rel_tol=1e-12, abs_tol=1e-15), (ours, (low, high))
    assert math.isclose(ours[1], high, rel_tol=1e-12, abs_tol=1e-15), (ours, (low, high))


# Newcombe, R. G. (1998). Two-sided confidence intervals for the single proportion: comparison of
# seven methods. Statistics in Medicine 17, 857-872. Table I, method 3 (score method without
# continuity correction), as printed: four decimals.
NEWCOMBE_TABLE_I = [(81, 263, "0.2553", "0.3662"), (15, 148, "0.0624", "0.1605"), (0, 20, "0.0000", "0.1611"),
                    (1, 29, "0.0061", "0.1718")]


@pytest.mark.parametrize("count, n, low, high", NEWCOMBE_TABLE_I)
def test_the_interval_is_newcombes_published_score_interval(count, n, low, high):
    ours = wilson(count / n, n)

    assert (f"{ours[0]:.4f}", f"{ours[1]:.4f}") == (low, high)


@pytest.mark.parametrize("n", SIZES)
def test_the_interval_ends_exactly_at_0_and_1_and_holds_the_rate(n):
    assert wilson(0.0, n)[0] == 0.0
    assert wilson(1.0, n)[1] == 1.0
    rng = random.Random(n)
    for rate in [*RATES, *(rng.random() for _ in range(200))]:
        low, high = wilson(rate, n)
        assert 0.0 <= low <= rate <= high <= 1.0, (rate, n, low, high)


def test_the_golden_reports_upper_bound_is_79_35_percent():
    # 0.00% leakage on 1 fixture: the upper bound is z² / (1 + z²).
    low, high = wilson(0.0, 1)

    assert (low, high) == (0.0, 0.7934506856227626)
    assert percent(high).startswith("79.345")


def brute_force(low, high):
    """Best and worst possible ranks, pair by pair, from the definition."""
    rows = range(len(low))
    best = [1 + sum(1 for b in rows if high[b] < low[a]) for a in rows]
    worst = [len(low) - sum(1 for b in rows if high[a] < low[b]) for a in rows]
    return best, worst


@pytest.mark.parametrize("seed", range(40))
def test_rank_ranges_are_the_definitions_pair_by_pair(seed):
    rng = random.Random(seed)
    size = rng.choice([1, 2, 3, 5, 20, 200])
    # Few distinct bounds: many equal bounds and equal intervals (ties), and intervals of one point.
    points = sorted(rng.choice([0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0]) for _ in range(2 * size))
    bounds = [sorted(rng.sample(points, 2)) for _ in range(size)]
    low = [a for a, _ in bounds]
    high = [b for _, b in bounds]

    assert list(rank_ranges(low, high)) == list(brute_force(low, high))


def filled(suite, leakage, recall, fixtures, number):
    from benchmark_leaderboard.board import Row

    row = Row(suite, "F", f"model-{number}", "cpu", leakage, recall, 0.5, "v1", "2026-01-01", "sha256:" + "0" * 64,
              f"{suite}/{number}.report.json", f"reports/{suite}/{number}.report.json")
    return Filled(row, (), fixtures)


@pytest.mark.parametrize("seed", range(20))
def test_a_boards_rank_ranges_and_marks_agree_with_the_intervals_pair_by_pair(seed):
    rng = random.Random(seed)
    ranked = []
    suites = []
    for number in range(rng.choice([1, 2, 3])):
        size = rng.choice([1, 2, 7, 60])
        rows = [filled(f"s{number}", rng.choice([0.0, 0.001, 0.01, 0.05, 0.3, 1.0]), rng.choice([0.5, 0.9, 1.0]),
                       rng.choice([1, 1, 2, 24, 10**6]), len(ranked) + k) for k in range(size)]
        rows.sort(key=lambda item: (item.row.leakage, -item.row.recall))
        suites.append(Suite(f"s{number}", f"suite-s{number}", (Family("F", tuple(range(len(ranked), len(ranked) + size))),)))
        ranked += rows
    result = uncertainty_of(ranked, suites)

    for suite_number, suite in enumerate(suites):
        indices = list(suite.families[0].rows)
        assert list(result.members[result.starts[suite_number]:result.starts[suite_number + 1]]) == indices
        low = [result.leakage_low[i] for i in indices]
        high = [result.leakage_high[i] for i in indices]
        best, worst = brute_force(low, high)
        assert [result.best[i] for i in indices] == best
        assert [result.worst[i] for i in indices] == worst
        assert [result.could_be_first(i) for i in indices] == [b == 1 for b in best]
        assert result.best[indices[0]] == 1  # the first row: no row's interval can lie below its own
        for place, index in enumerate(indices):
            others = [j for j in indices if j != index and not told_apart(low[indices.index(index)], high[indices.index(index)],
                                                                         result.leakage_low[j], result.leakage_high[j])]
            assert result.alike(index) == len(others)
            # The nearest of them in the ranking, the one above first at equal distance.
            nearest = sorted(sorted(others, key=lambda j: (abs(indices.index(j) - place), indices.index(j)))[:4],
                             key=indices.index)
            assert result.nearest_alike(index, suite_number, place, 4, len(indices)) == nearest
    for index, item in enumerate(ranked):
        assert (result.leakage_low[index], result.leakage_high[index]) == wilson(item.row.leakage, item.fixture_count)
        assert (result.recall_low[index], result.recall_high[index]) == wilson(item.row.recall, item.fixture_count)


def test_the_nearest_rows_are_looked_for_only_so_far():
    # The last row's wide interval meets only the first row's, 49 places above it: every row between
    # is certainly better than it.
    ranked = [filled("s", 0.0, 1.0, 1, 0)] + [filled("s", 0.001 * k, 1.0, 10**9, k) for k in range(1, 49)]
    ranked.append(filled("s", 0.9, 1.0, 1, 49))
    result = uncertainty_of(ranked, [Suite("s", "suite-s", (Family("F", tuple(range(50))),))])

    assert (result.best[49], result.worst[49], result.alike(49)) == (49, 50, 1)
    assert result.nearest_alike(49, 0, 49, 10, 49) == [0]
    assert result.nearest_alike(49, 0, 49, 10, 48) == []


def test_the_canonical_ranking_stays_as_it_is(archive):
    # A row on 1 fixture with no leakage ranks first, however wide its interval.
    files = {"thin.report.json": report(fixture_count=1, model_name="OpenMed/thin", metrics={"leakage": {"overall": 0.0}}),
             "wide.report.json": report(fixture_count=1000, model_name="OpenMed/wide", metrics={"leakage": {"overall": 0.001}})}
    board = build(archive(files))

    assert [row.model_name for row in board.rows] == ["OpenMed/thin", "OpenMed/wide"]
    assert [board.uncertainty.best[i] for i in range(2)] == [1, 1]
    assert [board.uncertainty.worst[i] for i in range(2)] == [2, 2]


# --- uncertainty.json ----------------------------------------------------------------------------

BUNDLED = ROOT / "content" / "benchmarks"


def bundled_board():
    return build(BUNDLED, ROOT / "models.jsonl", "v3.1.0")


def test_uncertainty_json_is_the_canonical_form_of_every_rows_figures_by_report_path():
    board = bundled_board()
    text = b"".join(uncertainty_json(board.rows, board.uncertainty))
    document = json.loads(text)

    figures = {row.report_path: dict(zip(FIGURES, board.uncertainty.values(index))) for index, row in enumerate(board.rows)}
    assert text == canonical({"methods": METHODS, "row_count": 20, "rows": figures, "schema_version": 1})
    assert text == (json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8")
    assert list(document["rows"]) == sorted(row.report_path for row in board.rows)
    assert document["row_count"] == len(board.rows) == 20
    assert document["methods"] == {"wilson-95": {"confidence": 0.95, "n": "fixture_count", "name": "Wilson score interval",
                                                 "z": 1.959963984540054}}
    assert list(validate.validator(validate.UNCERTAINTY_SCHEMA).iter_errors(document)) == []
    assert document["rows"]["golden.report.json"] == {
        "could_be_first": True, "fixture_count": 1, "leakage_high": 0.7934506856227626, "leakage_low": 0.0,
        "method": "wilson-95", "recall_high": 1.0, "recall_low": 0.20654931437723745, "suite_rank_best": 1,
        "suite_rank_worst": 1}
    assert document["rows"]["clinical-notes/legacy/ner.report.json"] == {
        "could_be_first": True, "fixture_count": 24, "leakage_high": 0.24521962018135648,
        "leakage_low": 0.01878446337014161, "method": "wilson-95", "recall_high": 0.7782114200993923,
        "recall_low": 0.41488191005341213, "suite_rank_best": 1, "suite_rank_worst": 6}


def test_the_published_schema_is_the_one_checked_and_every_row_figure_is_described():
    schema = json.loads(validate.schema_text(validate.UNCERTAINTY_SCHEMA))

    assert sorted(schema["$defs"]["row"]["required"]) == sorted(FIGURES)
    assert set(schema["$defs"]["row"]["properties"]) == set(FIGURES)
    assert validate.UNCERTAINTY_SCHEMA in validate.SCHEMA_NAMES  # published under schemas/


def test_an_uncertainty_document_that_breaks_its_schema_is_never_written(archive, monkeypatch):
    from benchmark_leaderboard.decide import pipeline

    real = pipeline.uncertainty_json

    def with_a_stray_field(rows, sure, indices=None):
        text = b"".join(real(rows, sure, indices))
        yield text[:-2] + b',\n  "generated": "today"\n}\n'

    monkeypatch.setattr(pipeline, "uncertainty_json", with_a_stray_field)
    with pytest.raises(BuildRefused) as refused:
        build(archive({"a.report.json": report()}))

    assert refused.value.lines() == ["uncertainty.json: /generated: is not a field the schema allows"]


def test_a_figure_out_of_its_bounds_in_any_row_is_caught(archive, monkeypatch):
    # The check sees the rows holding each figure's least and most: a bound broken by the last row
    # of many is found.
    from benchmark_leaderboard.decide import pipeline

    real = pipeline.uncertainty_of

    def with_a_rank_of_0(ranked, suites):
        sure = real(ranked, suites)
        sure.best[len(ranked) - 1] = 0
        return sure

    files = {f"r{k}.report.json": report(model_name=f"OpenMed/m{k}", metrics={"leakage": {"overall": k / 100}})
             for k in range(30)}
    monkeypatch.setattr(pipeline, "uncertainty_of", with_a_rank_of_0)
    with pytest.raises(BuildRefused) as refused:
        build(archive(files))

    assert refused.value.lines() == ["uncertainty.json: /rows/r29.report.json/suite_rank_best: must be at least 1"]


# --- what a reader sees --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def bundled_site(tmp_path_factory):
    from leaderboard_tools.runner import build as render

    site = tmp_path_factory.mktemp("bundled") / "site"
    render(str(ROOT / "pelicanconf.py"), str(site), release_tag="v3.1.0", progress=lambda message: None)
    return site


def text_of(html: str) -> str:
    """Markup as a reader reads it: a block's tags as a space, other tags dropped, entities read,
    white space collapsed."""
    spaced = re.sub(r"</?(?:div|dl|dt|dd|p|ul|li|h[1-6]|table|tr|td|th)\b[^>]*>", " ", html)
    return " ".join(unescape(re.sub(r"<[^>]+>", "", spaced)).split())


def section(page: str, start: str, end: str) -> str:
    """The text from ``start`` to the next ``end`` after it."""
    at = page.index(start)
    return text_of(page[at:page.index(end, at + len(start))])


def test_the_golden_reports_page_says_how_sure_its_rank_is(bundled_site):
    page = (bundled_site / "report" / "golden.report.html").read_text(encoding="utf-8")

    assert section(page, '<dl class="figures">', "</dl>") == (
        "Leakage 0.00% (0.00–79.35) Recall 100.00% (20.65–100.00) F1 100.00% Rank in golden 1 (1–1) "
        "Rank in PII on golden 1 Rank overall 1 of 20 Fixtures 1 thin")
    assert section(page, '<h2 id="how-sure">', "<h2") == (
        "How sure its rank is With 95% confidence, its leakage lies within 0.00–79.35% and its recall within "
        "20.65–100.00%: Wilson score intervals over its 1 fixture, taken as independent draws of equal weight "
        "(how they are made). It is the only row of golden.")


def test_a_clinical_notes_reports_page_names_the_rows_it_cannot_be_told_apart_from(bundled_site):
    page = (bundled_site / "report" / "clinical-notes" / "pii-small-int8.report.html").read_text(encoding="utf-8")

    assert section(page, '<h2 id="how-sure">', "<h2") == (
        "How sure its rank is With 95% confidence, its leakage lies within 0.08–15.87% and its recall within "
        "82.10–99.69%: Wilson score intervals over its 24 fixtures, taken as independent draws of equal weight "
        "(how they are made). Ranked 3 of 6 in clinical-notes, it could rank anywhere from 1 to 6: it could be "
        "first, as no row of the suite certainly leaks less, and none certainly leaks more. It cannot be told apart "
        "from 5 other rows of clinical-notes, whose leakage intervals overlap its own: "
        "OpenMed/OpenMed-PII-Arabic-BigMed-Large-560M-v1-onnx-android on onnx, rank 1: leakage 0.00% (0.00–13.80%) "
        "OpenMed/OpenMed-PII-SuperClinical-Large-434M-v1-mlx on mlx-fp, rank 2: leakage 0.34% (0.00–14.38%) "
        "OpenMed/OpenMed-PII-SuperClinical-Small-44M-v1 on cpu, rank 4: leakage 1.25% (0.08–15.87%) "
        "OpenMed/tie-model on cpu, rank 5: leakage 2.00% (0.20–17.05%) "
        "OpenMed/OpenMed-NER-PharmaDetect-BigMed-278M on cpu, rank 6: leakage 7.31% (1.87–24.53%)")
    links = re.findall(r'<ul class="alike">(.*?)</ul>', page, re.S)[0]
    assert re.findall(r'href="([^"]+)"', links) == [
        "../../report/clinical-notes/legacy/pii-onnx.report.html", "../../report/clinical-notes/pii-large-mlx.report.html",
        "../../report/clinical-notes/pii-small-cpu.report.html", "../../report/clinical-notes/tie-suite.report.html",
        "../../report/clinical-notes/legacy/ner.report.html"]


def test_the_clinical_notes_table_writes_each_rank_range_and_leakage_interval(bundled_site):
    page = (bundled_site / "index.html").read_text(encoding="utf-8")
    panel = page[page.index('<section class="panel" id="suite-clinical-notes"'):]
    panel = panel[:panel.index("</section>")]
    families = panel[panel.index('<div class="families"'):]
    cells = [[text_of(cell) for cell in re.split(r"<t[dh]>", row)[2:6:3]]
             for row in re.findall(r'<tr data-row="\d+">(.*?)(?=<tr|</tbody>)', families, re.S)]

    # Family by family (NER, then PII): the rank and its range; the leakage and its interval.
    assert cells == [["6 (1–6)", "7.31 (1.87–24.53)"], ["1 (1–6)", "0.00 (0.00–13.80)"], ["2 (1–6)", "0.34 (0.00–14.38)"],
                     ["3 (1–6)", "1.25 (0.08–15.87)"], ["4 (1–6)", "1.25 (0.08–15.87)"], ["5 (1–6)", "2.00 (0.20–17.05)"]]
    assert ("3 (1–6): ranked 3rd, could be 1st to 6th within its leakage's 95% interval, in brackets after it."
            in text_of(page))


def test_the_ranking_page_explains_the_method_with_the_golden_reports_bound(bundled_site):
    page = text_of((bundled_site / "ranking.html").read_text(encoding="utf-8"))

    assert ("For example, golden.report.json leaks 0.00% on 1 fixture: its upper bound is z² / (1 + z²) = 79.35%"
            in page)
    assert "It assumes that the fixtures are independent draws of equal weight." in page
    assert "A range that starts at 1 means the row could be first" in page


def test_an_intervals_bounds_are_written_rounded_outward_as_decimal_rounds_their_text():
    from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

    from benchmark_leaderboard.formatting import interval_text

    rng = random.Random(5)
    fractions = [0.0, 1.0, 0.5, 0.29, 0.0125, 7.8e-11, 5e-324, 0.9999999999999999, *(rng.random() for _ in range(2000)),
                 *(rng.random() * 10 ** -rng.randrange(0, 20) for _ in range(2000))]

    def bound(fraction, rounding):
        return f"{(Decimal(repr(fraction)) * 100).quantize(Decimal('0.01'), rounding=rounding):.2f}"

    for low, high in zip(fractions, fractions[1:]):
        assert interval_text(low, high) == bound(low, ROUND_FLOOR) + "–" + bound(high, ROUND_CEILING), (low, high)


def test_a_report_page_lists_the_nearest_rows_it_cannot_be_told_apart_from_and_says_where_the_rest_are(bundled_site):
    # The ten rows of radiology leak 2.00% each on 24 fixtures: each is alike to the nine others.
    page = (bundled_site / "report" / "radiology" / "tie-model-a.report.html").read_text(encoding="utf-8")
    said = section(page, '<h2 id="how-sure">', "<h2")

    assert said.endswith(
        "It cannot be told apart from 9 other rows of radiology, whose leakage intervals overlap its own; the 5 nearest "
        "to it in the ranking: OpenMed/tie-model on cpu, rank 1: leakage 2.00% (0.20–17.05%) OpenMed/tie-model on cpu, "
        "rank 2: leakage 2.00% (0.20–17.05%) OpenMed/Tie-Model-B on cpu, rank 4: leakage 2.00% (0.20–17.05%) "
        "OpenMed/tie-model-c on cpu, rank 5: leakage 2.00% (0.20–17.05%) OpenMed/tie-model-c on MLX-8bit, rank 6: "
        "leakage 2.00% (0.20–17.05%) The other 4, and every row's interval and rank range, are in radiology as CSV and "
        "in uncertainty.json.")
    rest = page[page.index("The other 4,"):]
    assert re.findall(r'href="([^"]+)"', rest[:rest.index("</p>")]) == ["../../suites/suite-radiology.csv",
                                                                           "../../uncertainty.json"]


@pytest.mark.parametrize("count", [10**20, 10**30, 10**400])
def test_any_whole_number_of_fixtures_gives_an_interval_and_is_published_as_given(archive, count):
    # JSON's integers have no bound: past what a double holds, the interval is the rate itself.
    board = build(archive({"a.report.json": report(fixture_count=count, metrics={"leakage": {"overall": 0.1}})}))
    document = json.loads(b"".join(uncertainty_json(board.rows, board.uncertainty)))["rows"]["a.report.json"]

    assert document["fixture_count"] == count
    assert math.isclose(document["leakage_low"], 0.1, rel_tol=1e-9) and math.isclose(document["leakage_high"], 0.1, rel_tol=1e-9)
    assert document["leakage_low"] <= 0.1 <= document["leakage_high"]


def test_each_rows_interval_texts_are_those_interval_text_writes():
    # Worked out once a build (formatting.interval_texts) and shared by every page that writes them.
    from array import array

    from benchmark_leaderboard.formatting import interval_text, interval_texts

    rng = random.Random(11)
    low = array("d", [0.0, 5e-324, *(rng.random() / 2 for _ in range(500))])
    high = array("d", [0.5, 1.0, *(0.5 + rng.random() / 2 for _ in range(500))])

    assert interval_texts(low, high) == tuple(interval_text(a, b) for a, b in zip(low, high))
