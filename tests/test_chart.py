"""The trade-off chart: the Pareto frontier on hand-made rows, one linked mark a row in each suite's
SVG, the frontier's marks equal to its rows (and to the tables' frontier marks), a crowded suite
drawn as a density grid, and the same rows giving the same bytes."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

from conftest import SETTINGS, report, write_archive

from benchmark_leaderboard.chart import FRONTIER_MARKS, GRID_COLUMNS, GRID_ROWS, axis, frontier, suite_chart
from leaderboard_tools.runner import build


def render(root: Path, files: dict, **settings) -> str:
    """Build ``files`` as an archive; the index's HTML, and the other suites' panels as the index shows
    them once their tabs are chosen (their panel scripts hold the markup, its links the index's)."""
    import json

    reports = write_archive(root / "reports", files)
    build(SETTINGS, str(root / "site"), reports_dir=str(reports), extra=settings or None, progress=lambda message: None)
    html = (root / "site" / "index.html").read_text(encoding="utf-8")
    for panel in sorted((root / "site" / "suite").glob("*/panel.js")):
        text = panel.read_text(encoding="utf-8")
        html += (f'<section class="panel" id="{panel.parent.name}">' + json.loads(text[text.index("] = ") + 4:text.rindex(";")])
                 + "</section>")
    return html


def scored(leakage: float, recall: float, **changes) -> dict:
    return report(metrics={"leakage": {"overall": leakage}, "exact_span_f1": {"recall": recall, "f1": 0.5}}, **changes)


def charts(html: str) -> dict[str, str]:
    """Each suite's chart (its <figure>), by the suite's anchor."""
    return dict(re.findall(r'<section class="panel" id="([^"]+)".*?(<figure class="chart">.*?</figure>)', html, re.S))


# ---- the frontier ----------------------------------------------------------------------------

@pytest.mark.parametrize("points, expected", [
    pytest.param([(0.3, 0.5)], (0,), id="one row"),
    pytest.param([(0.1, 0.9)] * 4, (0, 1, 2, 3), id="all equal"),
    pytest.param([(0.2, 0.9), (0.1, 0.8), (0.3, 0.95), (0.0, 0.5)], (3, 1, 0, 2), id="a staircase, leakage ascending"),
    # (0.1, 0.8) loses to (0.1, 0.9) at equal leakage; (0.2, 0.9) to (0.1, 0.9) at equal recall;
    # the two equal (0.1, 0.9) rows beat each other on neither, so both are on it.
    pytest.param([(0.1, 0.9), (0.1, 0.8), (0.2, 0.9), (0.1, 0.9), (0.0, 0.5), (0.4, 0.95)], (4, 0, 3, 5), id="ties"),
    pytest.param([(0.0, 1.0), (0.0, 0.2), (0.5, 1.0), (1.0, 0.0)], (0,), id="one row beats every other"),
    pytest.param([(0.0, 0.0), (0.0, 0.0), (1.0, 1.0)], (0, 1, 2), id="equal zeros and a corner"),
])
def test_the_frontier_is_the_rows_no_other_row_beats_on_both(points, expected):
    assert frontier(points) == expected


def test_the_frontier_agrees_with_its_definition_on_many_rows():
    import random

    rng = random.Random(11)
    for _ in range(200):
        points = [(rng.choice((0.0, 0.1, 0.2, 0.3)), rng.choice((0.5, 0.7, 0.9))) for _ in range(rng.randint(1, 12))]

        def beaten(i):
            leakage, recall = points[i]
            return any(other_leakage <= leakage and other_recall >= recall and (other_leakage, other_recall) != (leakage, recall)
                       for other_leakage, other_recall in points)

        assert set(frontier(points)) == {i for i in range(len(points)) if not beaten(i)}, points


@pytest.mark.parametrize("low, high, expected", [
    ("0", "5", ("0", "5", "1")),
    ("0", "7.313", ("0", "8", "2")),
    ("55", "100", ("50", "100", "10")),
    ("0", "0", ("0", "2", "2")),  # every row leaks nothing: the axis still spans something
    ("100", "100", ("98", "100", "2")),  # every row finds everything: the axis ends at 100
    ("0", "0.05", ("0", "0.05", "0.01")),
    ("61.2", "98.71", ("60", "100", "10")),
])
def test_an_axis_is_a_readable_range_within_0_and_100_percent(low, high, expected):
    assert axis(Decimal(low), Decimal(high)) == tuple(Decimal(value) for value in expected)


# ---- the SVG ---------------------------------------------------------------------------------

EXPECTED_CHART = """<figure class="chart">
<a class="skip-chart" href="#suite-golden-tables">Skip the chart</a>
<svg class="tradeoff" viewBox="0 0 640 320" role="group" aria-labelledby="suite-golden-chart-title" aria-describedby="suite-golden-chart-desc">
<title id="suite-golden-chart-title">Leakage against recall, golden</title>
<desc id="suite-golden-chart-desc">3 rows; the frontier: OpenMed/a on cpu, OpenMed/b on cuda; the tables below list every row.</desc>
<g class="grid" aria-hidden="true">
<line x1="64.0" y1="12" x2="64.0" y2="272"/><text class="x-tick" x="64.0" y="288">0%</text>
<line x1="176.0" y1="12" x2="176.0" y2="272"/><text class="x-tick" x="176.0" y="288">1%</text>
<line x1="288.0" y1="12" x2="288.0" y2="272"/><text class="x-tick" x="288.0" y="288">2%</text>
<line x1="400.0" y1="12" x2="400.0" y2="272"/><text class="x-tick" x="400.0" y="288">3%</text>
<line x1="512.0" y1="12" x2="512.0" y2="272"/><text class="x-tick" x="512.0" y="288">4%</text>
<line x1="624.0" y1="12" x2="624.0" y2="272"/><text class="x-tick" x="624.0" y="288">5%</text>
<line x1="64" y1="272.0" x2="624" y2="272.0"/><text class="y-tick" x="58" y="272.0">80%</text>
<line x1="64" y1="185.3" x2="624" y2="185.3"/><text class="y-tick" x="58" y="185.3">85%</text>
<line x1="64" y1="98.7" x2="624" y2="98.7"/><text class="y-tick" x="58" y="98.7">90%</text>
<line x1="64" y1="12.0" x2="624" y2="12.0"/><text class="y-tick" x="58" y="12.0">95%</text>
<text class="x-label" x="344" y="314">Leakage % (lower is better)</text>
<text class="y-label" transform="translate(14 142) rotate(-90)">Recall % (higher is better)</text>
</g>
<path class="step" d="M64.0 98.7H624.0V12.0" aria-hidden="true"/>
<g class="marks">
<a href="./report/c.report.html" data-row="2"><title>OpenMed/c on cpu: leakage 5.00%, recall 80.00%</title><circle cx="624.0" cy="272.0" r="3.5"/></a>
<a href="./report/a.report.html" data-row="0" class="frontier"><title>OpenMed/a on cpu: leakage 0.00%, recall 90.00%, on the frontier</title><circle cx="64.0" cy="98.7" r="5"/></a>
<a href="./report/b.report.html" data-row="1" class="frontier"><title>OpenMed/b on cuda: leakage 5.00%, recall 95.00%, on the frontier</title><circle cx="624.0" cy="12.0" r="5"/></a>
</g>
</svg>
<figcaption>Each mark is a row of golden and links to its report; filled marks joined by the line are the frontier, the rows no other row beats on both lower leakage and higher recall (marked <span class="badge frontier">frontier</span> in the tables).</figcaption>
</figure>"""


def test_a_small_suites_chart_byte_for_byte(tmp_path):
    html = render(tmp_path, {
        "a.report.json": scored(0.0, 0.9, model_name="OpenMed/a"),
        "b.report.json": scored(0.05, 0.95, model_name="OpenMed/b", device="cuda"),
        "c.report.json": scored(0.05, 0.8, model_name="OpenMed/c"),  # beaten by b: same leakage, lower recall
    })
    assert charts(html) == {"suite-golden": EXPECTED_CHART}


def test_each_suite_has_one_linked_mark_a_row_and_its_frontier_marks_are_its_frontier_rows(tmp_path):
    files = {}
    for i in range(40):
        suite = ("alpha", "beta", "gamma")[i % 3]
        files[f"{suite}/m{i:02d}.report.json"] = scored(round((i * 7 % 13) / 100, 4), round(0.5 + (i * 5 % 11) / 25, 4),
                                                        suite=suite, model_name=f"OpenMed/m{i:02d}", device=("cpu", "cuda")[i % 2],
                                                        metadata={"model_family": ("PII", "NER")[i % 2]})
    html = render(tmp_path, files)
    import json
    leaderboard = json.loads((tmp_path / "site" / "leaderboard.json").read_text(encoding="utf-8"))
    rows = leaderboard["rows"]
    drawn = charts(html)
    assert sorted(drawn) == ["suite-alpha", "suite-beta", "suite-gamma"]
    for anchor, chart in drawn.items():
        suite = anchor.removeprefix("suite-")
        in_suite = {i for i, row in enumerate(rows) if row["suite"] == suite}
        marks = re.findall(r'<a href="\./report/([^"]+)\.html" data-row="(\d+)"( class="frontier")?><title>([^<]*)</title><circle ', chart)
        # One mark a row, each linking to that row's report page and naming it.
        assert sorted(int(index) for _, index, _, _ in marks) == sorted(in_suite)
        for page, index, _, title in marks:
            row = rows[int(index)]
            assert page + ".json" == row["report_path"]
            assert title.startswith(f"{row['model_name']} on {row['device']}: leakage ")
        # The frontier's marks are exactly the rows no other row of the suite beats.
        points = {i: (rows[i]["leakage"], rows[i]["recall"]) for i in in_suite}
        expected = {i for i, (leakage, recall) in points.items()
                    if not any(l <= leakage and r >= recall and (l, r) != (leakage, recall) for l, r in points.values())}
        assert {int(index) for _, index, frontier_class, _ in marks if frontier_class} == expected
        # ... and the tables mark the same rows "frontier".
        panel = html[html.index(f'<section class="panel" id="{anchor}"'):]
        panel = panel[:panel.index("</section>")]
        badged = {int(index) for index in re.findall(r'<tr data-row="(\d+)">[^\n]*<span class="badge frontier">', panel)}
        shown = {int(index) for index in re.findall(r'<tr data-row="(\d+)">', panel)}  # the top of each family
        assert badged == expected & shown and shown
        assert f"{len(in_suite)} rows; the frontier: " in chart


def test_a_suite_above_the_mark_budget_is_a_density_grid_with_its_frontier_marked(tmp_path):
    files = {f"r{i:02d}.report.json": scored(round(i % 7 / 50, 4), round(0.6 + i % 5 / 20, 4), model_name=f"OpenMed/m{i:02d}")
             for i in range(30)}
    html = render(tmp_path, files, LEADERBOARD_CHART_MARKS=10)
    chart = charts(html)["suite-golden"]
    cells = re.findall(r'<rect class="d([1-5])" x="[\d.]+" y="[\d.]+" width="11.7" height="10.8"><title>(\d+) rows?</title></rect>', chart)
    assert cells and sum(int(count) for _, count in cells) == 30
    assert len(cells) <= GRID_COLUMNS * GRID_ROWS
    assert max(int(shade) for shade, _ in cells) == 5
    marks = re.findall(r'<a href="[^"]+" data-row="\d+"( class="frontier")?>', chart)
    assert marks and all(marks)  # only the frontier is marked
    assert "30 rows, more than the chart marks one by one (10): it shades a grid of cells by how many rows each holds " \
           "and marks the rows of the frontier; the frontier: " in chart


def test_a_frontier_too_long_to_mark_is_its_line_alone():
    points = [(0.1, 0.9)] * (FRONTIER_MARKS + 1)
    chart = suite_chart(points, list(range(len(points))), max_marks=FRONTIER_MARKS)
    assert chart.dense and chart.marks == () and len(chart.frontier) == FRONTIER_MARKS + 1
    assert chart.step == "M624.0 272.0" and chart.unnamed == FRONTIER_MARKS + 1 - 10


def test_the_same_rows_give_the_same_chart_and_row_order_only_moves_marks():
    points = [(0.01 * (i % 9), 0.5 + 0.01 * (i * 7 % 40)) for i in range(500)]
    first = suite_chart(points, list(range(500)), 2000)
    assert suite_chart(list(points), list(range(500)), 2000) == first
    dense = suite_chart(points, list(range(500)), 100)
    assert suite_chart(list(points), list(range(500)), 100) == dense
    assert all(re.fullmatch(r"\d+\.\d", value) for mark in first.marks for value in (mark.cx, mark.cy))
