"""The trade-off chart: the Pareto frontier on hand-made rows, one linked mark a frontier row in each
suite's SVG (equal to the tables' frontier marks), every other row counted in the cells of a grid
drawn as one path a shade with a legend of the shades, a size bounded whatever the suite's rows,
and the same rows giving the same bytes."""

from __future__ import annotations

import json
import random
import re
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import jinja2
import pytest

from conftest import ROOT, SETTINGS, report, write_archive

from benchmark_leaderboard.decide.uncertainty import wilson
from benchmark_leaderboard.formatting import TEMPLATE_FILTERS
from benchmark_leaderboard.paths import report_page_url
from benchmark_leaderboard.present.chart import (CELL_HEIGHT, GRID_COLUMNS, GRID_ROWS, PLOT_HEIGHT, PLOT_WIDTH, SHADES,
                                                 axis, frontier, shade_of, shade_range, suite_chart)
from benchmark_leaderboard.settings import DEFAULTS
from leaderboard_tools.build_settings import pelican_settings
from leaderboard_tools.runner import build

MARKS = DEFAULTS["LEADERBOARD_CHART_MARKS"]


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


# ---- the shades ------------------------------------------------------------------------------

def test_the_shades_cover_every_count_once_lightest_first_the_fullest_cell_darkest():
    for fullest in range(1, 400):
        ranges = [shade_range(level, fullest) for level in range(1, SHADES + 1)]
        covered = [count for low, high in ranges for count in range(low, high + 1)]
        assert covered == list(range(1, fullest + 1)), fullest  # in order, each count once
        for level, (low, high) in enumerate(ranges, 1):
            assert all(shade_of(count, fullest) == level for count in range(low, high + 1)), fullest
        assert shade_of(fullest, fullest) == SHADES
    assert [shade_range(level, 100) for level in range(1, SHADES + 1)] == [(1, 4), (5, 16), (17, 36), (37, 64), (65, 100)]


# ---- the SVG ---------------------------------------------------------------------------------

EXPECTED_CHART = """<figure class="chart">
<a class="skip-chart" href="#suite-golden-tables">Skip the chart</a>
<svg class="tradeoff" viewBox="0 0 640 320" role="group" aria-labelledby="suite-golden-chart-title" aria-describedby="suite-golden-chart-desc">
<title id="suite-golden-chart-title">Leakage against recall, \u2068golden\u2069</title>
<desc id="suite-golden-chart-desc">3 rows. The frontier, 2 rows, each marked and linked to its report: \u2068OpenMed/a\u2069 on \u2068cpu\u2069, \u2068OpenMed/b\u2069 on \u2068cuda\u2069. \
The other row is counted in a grid of cells shaded by how many rows each holds. The tables below list every row.</desc>
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
<g class="density" aria-hidden="true">
<path class="d5" d="M610 259h14v13h-14z"><title>A cell of 1 row</title></path>
</g>
<path class="step" d="M64.0 98.7H624.0V12.0" aria-hidden="true"/>
<path class="bars" d="M64.0 98.7H624.0M64.0 12.0V272.0M84.3 12.0H624.0M624.0 12.0V272.0" aria-hidden="true"/>
<g class="marks">
<a href="./report/a.report.html" data-row="0" class="frontier"><title>\u2068OpenMed/a\u2069 on \u2068cpu\u2069: leakage 0.00%, recall 90.00%, on the frontier</title><circle cx="64.0" cy="98.7" r="5"/></a>
<a href="./report/b.report.html" data-row="1" class="frontier"><title>\u2068OpenMed/b\u2069 on \u2068cuda\u2069: leakage 5.00%, recall 95.00%, on the frontier</title><circle cx="624.0" cy="12.0" r="5"/></a>
</g>
</svg>
<figcaption>Each mark is a row of <bdi>golden</bdi> on the frontier and links to its report; the line joins them; each mark's bars span \
the 95% intervals of its leakage and recall (cut at the plot's edges). A row is on the frontier when \
no other row of its suite is at least as good on both leakage and recall and better on one (marked <span class="badge frontier">frontier</span> in the tables). \
The shaded cells hold the other rows, the stronger the shade the more rows:
<ul class="shades">
<li><span class="swatch d5"></span>1 row</li>
</ul>
</figcaption>
</figure>"""


def test_a_small_suites_chart_byte_for_byte(tmp_path):
    html = render(tmp_path, {
        "a.report.json": scored(0.0, 0.9, model_name="OpenMed/a"),
        "b.report.json": scored(0.05, 0.95, model_name="OpenMed/b", device="cuda"),
        "c.report.json": scored(0.05, 0.8, model_name="OpenMed/c"),  # beaten by b: same leakage, lower recall
    })
    assert charts(html) == {"suite-golden": EXPECTED_CHART}


def test_each_suite_marks_its_frontier_rows_linked_and_named_and_counts_the_others_in_its_grid(tmp_path):
    files = {}
    for i in range(40):
        suite = ("alpha", "beta", "gamma")[i % 3]
        files[f"{suite}/m{i:02d}.report.json"] = scored(round((i * 7 % 13) / 100, 4), round(0.5 + (i * 5 % 11) / 25, 4),
                                                        suite=suite, model_name=f"OpenMed/m{i:02d}", device=("cpu", "cuda")[i % 2],
                                                        metadata={"model_family": ("PII", "NER")[i % 2]})
    html = render(tmp_path, files)
    leaderboard = json.loads((tmp_path / "site" / "leaderboard.json").read_text(encoding="utf-8"))
    rows = leaderboard["rows"]
    drawn = charts(html)
    assert sorted(drawn) == ["suite-alpha", "suite-beta", "suite-gamma"]
    for anchor, chart in drawn.items():
        suite = anchor.removeprefix("suite-")
        in_suite = {i for i, row in enumerate(rows) if row["suite"] == suite}
        marks = re.findall(r'<a href="\./report/([^"]+)\.html" data-row="(\d+)" class="frontier"><title>([^<]*)</title><circle ', chart)
        assert len(marks) == chart.count('<a href="./report/') == chart.count("<circle ")
        # The frontier's marks are exactly the rows no other row of the suite beats ...
        points = {i: (rows[i]["leakage"], rows[i]["recall"]) for i in in_suite}
        expected = {i for i, (leakage, recall) in points.items()
                    if not any(l <= leakage and r >= recall and (l, r) != (leakage, recall) for l, r in points.values())}
        assert {int(index) for _, index, _ in marks} == expected
        # ... each linking to its row's report page and naming it ...
        for page, index, title in marks:
            row = rows[int(index)]
            assert page + ".json" == row["report_path"]
            assert title.startswith(f"\u2068{row['model_name']}\u2069 on \u2068{row['device']}\u2069: leakage ")
        # ... and the tables mark the same rows "frontier".
        panel = html[html.index(f'<section class="panel" id="{anchor}"'):]
        panel = panel[:panel.index("</section>")]
        badged = {int(index) for index in re.findall(r'<tr data-row="(\d+)">[^\n]*<span class="badge frontier">', panel)}
        shown = {int(index) for index in re.findall(r'<tr data-row="(\d+)">', panel)}  # the top of each family
        assert badged == expected & shown and shown
        # The others are in the grid, one path a shade.
        others = len(in_suite) - len(expected)
        assert (f"{len(in_suite)} rows. The frontier, {len(expected)} {'row' if len(expected) == 1 else 'rows'}, "
                "each marked and linked to its report: ") in chart
        assert f" The other {others} rows are counted in a grid of cells shaded by how many rows each holds." in chart
        shades = re.findall(r'<path class="d([1-5])" d="((?:M\d+ \d+h\d+v13h-\d+z)+)"><title>A cell of ([^<]+)</title></path>', chart)
        legend = re.findall(r'<li><span class="swatch d([1-5])"></span>([^<]+)</li>', chart)
        assert [(level, held) for level, _, held in shades] == legend and legend
        assert chart.count("<path ") == len(shades) + 2  # and the step line and the marks' interval bars


def test_a_frontier_too_long_to_mark_is_its_line_and_every_row_is_in_the_grid():
    points = [(0.1, 0.9)] * (MARKS + 1)
    chart = suite_chart(points, list(range(len(points))), max_marks=MARKS)
    assert chart.marks == () and len(chart.frontier) == MARKS + 1 and chart.unnamed == MARKS + 1 - 10
    assert chart.step == "M624 272"  # in whole units
    assert [(shade.level, shade.low, shade.high, shade.cells, shade.rows, shade.path) for shade in chart.shades] == [
        (SHADES, (MARKS + 1) * 16 // 25 + 1, MARKS + 1, 1, MARKS + 1, "M610 259h14v13h-14z")]


def test_the_same_rows_give_the_same_chart_and_their_order_only_moves_the_frontiers_ties():
    rng = random.Random(3)
    points = [(rng.randrange(0, 900) / 10000, rng.randrange(5000, 10000) / 10000) for _ in range(3000)]
    first = suite_chart(points, list(range(len(points))), MARKS)
    assert suite_chart(list(points), list(range(len(points))), MARKS) == first
    assert all(re.fullmatch(r"\d+\.\d", value) for mark in first.marks for value in (mark.cx, mark.cy))
    assert sum(shade.rows for shade in first.shades) == first.gridded == len(points) - len(first.marks)
    order = list(range(len(points)))
    rng.shuffle(order)
    shuffled = suite_chart([points[i] for i in order], order, MARKS)
    assert (shuffled.shades, shuffled.step, shuffled.x_ticks, shuffled.y_ticks) == (first.shades, first.step, first.x_ticks, first.y_ticks)
    assert sorted(shuffled.frontier) == sorted(first.frontier)


# ---- bounded whatever the rows -----------------------------------------------------------------

def chart_html(chart, rows) -> str:
    """``chart.html`` for one suite, rendered as the site renders it (the project's Jinja options)."""
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(str(ROOT / "theme" / "templates")),
                                     **pelican_settings(SETTINGS, {})["JINJA_ENVIRONMENT"])
    environment.filters.update(TEMPLATE_FILTERS)
    return environment.get_template("chart.html").render(chart=chart, rows=rows, suite=SimpleNamespace(name="suite-01"),
                                                          anchor="suite-01", SITEURL=".", report_page_url=report_page_url)


def spread(n: int) -> list[tuple[float, float]]:
    """``n`` rows scattered as benchmarks.make_archive scatters them (a quarter leak nothing)."""
    rng = random.Random(n)
    return [(0.0 if i % 4 == 0 else round(0.0001 + rng.random() * 0.15, 4), round(0.55 + rng.random() * 0.45, 4)) for i in range(n)]


def staircase(n: int) -> list[tuple[float, float]]:
    """``n`` rows each leaking more and finding more than the last (six decimals): every one on the frontier."""
    return [(round(i / n * 0.15, 6), round(0.5 + i / n * 0.5, 6)) for i in range(n)]


# Every coordinate of the drawing lies in the viewBox (640 × 320): at most 3 digits before the point.
RUN = len(f"M624 272h{PLOT_WIDTH}v{CELL_HEIGHT}h-{PLOT_WIDTH}z")  # the longest a run of cells is written
STEP_UNMARKED = len("M624 272") + len("H624") * PLOT_WIDTH + len("V272") * PLOT_HEIGHT  # x rises, y falls, whole units
STEP_A_MARK = len("H624.0V272.0")
MAX_TICKS = 8  # an axis's step is at least a fifth of its span, and its ends are rounded out to a step: 7 steps at most
# The frame (the svg, its title and description, the axes' group and two labels, the step line),
# two a tick, the grid's group and two a shade, the marks' interval bars (one path), the marks'
# group and three a mark (a, title, circle).
ELEMENTS = 6 + 2 * 2 * MAX_TICKS + 1 + 2 * SHADES + 1 + 1
# A mark's interval bars, at their longest: across and along, every coordinate to a tenth.
BAR_A_MARK = len("M000.0 000.0H000.0M000.0 000.0V000.0")
# What is not a cell, a mark or the step line: the frame, the ticks, the text alternative (naming at
# most 10 of the frontier's rows), the caption and the legend.
FIXED_BYTES = 4_000
# A mark: its link, row index, title (the model, device, leakage and recall) and circle, at its longest.
LONGEST_MARK = len('<a href="./report/v3.0.0/suite-01/PII/000000.report.html" data-row="0000000" class="frontier"><title>'
                   'OpenMed/synth-pii-000000 on cpu: leakage 100.0000%, recall 100.0000%, on the frontier</title>'
                   '<circle cx="000.0" cy="000.0" r="5"/></a>\n')
# The most a chart can be, whatever its rows (the first view's budget, test_first_view.py, counts on it).
CHART_MOST_BYTES = (FIXED_BYTES + RUN * GRID_COLUMNS * GRID_ROWS + max(STEP_UNMARKED, STEP_A_MARK * MARKS)
                    + (LONGEST_MARK + BAR_A_MARK) * MARKS)
CHART_MOST_SVG_ELEMENTS = ELEMENTS + 3 * MARKS


@pytest.mark.parametrize("points", [
    pytest.param([(0.05, 0.9)], id="1 row"),
    pytest.param(spread(100), id="100 rows"),
    pytest.param(spread(10_000), id="10,000 rows"),
    pytest.param(staircase(100), id="100 rows, all on the frontier"),
    pytest.param(staircase(10_000), id="10,000 rows, all on the frontier"),
])
def test_a_charts_elements_and_bytes_are_bounded_whatever_its_rows(points):
    rows = [SimpleNamespace(model_name=f"OpenMed/synth-pii-{i:06d}", device="cpu", leakage=leakage, recall=recall,
                            report_path=f"v3.0.0/suite-01/PII/{i:06d}.report.json")
            for i, (leakage, recall) in enumerate(points)]
    # Intervals as wide as one fixture gives: every bar as long as the plot lets it be.
    chart = suite_chart(points, list(range(len(points))), MARKS,
                        lambda index: (*wilson(points[index][0], 1), *wilson(points[index][1], 1)))
    html = chart_html(chart, rows)
    svg = html[html.index("<svg "):html.index("</svg>")]
    assert len(chart.bars) <= BAR_A_MARK * len(chart.marks) and bool(chart.bars) == bool(chart.marks)
    assert len(chart.x_ticks) <= MAX_TICKS and len(chart.y_ticks) <= MAX_TICKS
    assert len(chart.marks) <= MARKS and len(chart.shades) <= SHADES
    elements = len(re.findall(r"<[a-z]", svg))
    assert elements <= ELEMENTS + 3 * len(chart.marks) <= CHART_MOST_SVG_ELEMENTS
    # Each shade's path is its runs of side-by-side cells; no more runs than cells with a row.
    runs = [run for shade in chart.shades for run in shade.path.split("M")[1:]]
    assert len(runs) <= sum(shade.cells for shade in chart.shades) <= GRID_COLUMNS * GRID_ROWS
    assert sum(len(shade.path) for shade in chart.shades) <= RUN * len(runs)
    assert len(chart.step) <= (STEP_A_MARK * len(chart.marks) if chart.marks else STEP_UNMARKED)
    mark_lines = re.findall(r"^<a href=.*</a>$", html, re.M)
    assert len(mark_lines) == len(chart.marks)
    longest_mark = LONGEST_MARK
    assert max(map(len, mark_lines), default=0) <= longest_mark
    # What the text alternative and the caption say of the marks and the grid.
    frontier_rows = f"{len(chart.frontier)} {'row' if len(chart.frontier) == 1 else 'rows'}"
    if chart.marks:
        assert f"The frontier, {frontier_rows}, each marked and linked to its report: " in html
    else:
        assert f"The frontier, {frontier_rows}, more than the chart marks one by one ({MARKS}), drawn as its line: " in html
        assert " Every row is counted in a grid of cells shaded by how many rows each holds." in html
        assert f"The line is the frontier of <bdi>suite-01</bdi> ({frontier_rows})." in html
    assert ("<ul class=\"shades\">" in html) == bool(chart.gridded) == bool(chart.shades)
    size = len(html.encode("utf-8"))
    assert size <= FIXED_BYTES + RUN * len(runs) + len(chart.step) + (longest_mark + BAR_A_MARK) * len(chart.marks)
    # ... and so, whatever the rows: about 24 kB for the grid, 3 kB for the line, 29 kB for the marks.
    assert size <= CHART_MOST_BYTES
