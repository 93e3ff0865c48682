"""What the leaderboard page is made of: its data file, its numbers and its size."""

from __future__ import annotations

import gzip
import html as html_lib
import json
import re
import subprocess
import sys
from collections import namedtuple
from urllib.parse import quote

import pytest

from conftest import HASH, SETTINGS, report

from benchmark_leaderboard.formatting import percent, rounded, table_decimals
from benchmark_leaderboard.present.publish import embedded, unpacked
from core_support import build as build_leaderboard
from benchmark_leaderboard.decide.uncertainty import FIGURES
from benchmarks.make_archive import make_archive
from leaderboard_tools.runner import build


PREFIX, SUFFIX = "window.leaderboardData = ", ";\n"
# What the data file carries beyond the published fields, per row.
EXTRA_FIELDS = ("fixture_count", "frontier", "param_count", "size", "leakage_decimals", "recall_decimals", "f1_decimals", *FIGURES)


def page_data(site) -> dict:
    """The page's data, read back from leaderboard-data.js, which the index's script loads with the
    rows' layer when the rows are first used (the two scripts are deferred from the head; the data
    file's address is the script's data-data, the rows' layer's its data-tables)."""
    html = (site / "index.html").read_text(encoding="utf-8")
    head = html[:html.index("</head>")]
    assert ('<script src="./theme/leaderboard-common.js" defer></script><script src="./theme/leaderboard.js" defer'
            ' data-data="./leaderboard-data.js" data-tables="./theme/leaderboard-tables.js"></script>') in head
    assert '<script src="./leaderboard-data.js"' not in html
    assert 'type="application/json"' not in html  # the data is no longer inside the page
    text = (site / "leaderboard-data.js").read_text(encoding="utf-8")
    assert text.startswith(PREFIX) and text.endswith(SUFFIX)
    data = json.loads(text[len(PREFIX):-len(SUFFIX)])
    data["fields"] = unpacked(data)  # each column packed, read back as its list of values
    return data


def test_the_page_data_is_the_leaderboard_json_content(tmp_path):
    build(SETTINGS, str(tmp_path / "site"), release_tag="v3.1.0", progress=lambda message: None)
    published = json.loads((tmp_path / "site" / "leaderboard.json").read_text(encoding="utf-8"))
    data = page_data(tmp_path / "site")
    fields = data["fields"]
    rows = [{name: fields[name][i] for name in fields if name not in EXTRA_FIELDS} for i in range(data["row_count"])]
    for row in rows:
        row["report_url"] = "reports/" + quote(row["report_path"])
    assert rows == published["rows"]
    assert [column["key"] for column in data["columns"] if column["sortable"]] == [
        "rank", "model_name", "device", "leakage", "recall", "f1", "fixture_count", "param_count", "release_tag",
        "run_date", "reproducibility_hash"]
    assert [suite["anchor"] for suite in data["suites"]] == [
        "suite-clinical-notes", "suite-discharge-summaries", "suite-golden", "suite-radiology"]
    assert (data["thin_evidence"], data["page_rows"], data["more_rows"], data["hash_shown"]) == (10, 50, 50, 12)
    assert data["figures"] == ["method", "fixture_count", "leakage_low", "leakage_high", "recall_low", "recall_high",
                               "suite_rank_best", "suite_rank_worst", "could_be_first"]
    assert data["floats"] == ["leakage", "recall", "f1", "leakage_low", "leakage_high", "recall_low", "recall_high"]
    assert data["rank_range"] == ["suite_rank_best", "suite_rank_worst"]
    # Each row's figures are uncertainty.json's.
    figures = json.loads((tmp_path / "site" / "uncertainty.json").read_text(encoding="utf-8"))["rows"]
    assert [{name: fields[name][i] for name in FIGURES} for i in range(data["row_count"])] == \
        [figures[row["report_path"]] for row in published["rows"]]
    assert {key: data[key] for key in ("row_count", "schema_version", "sort")} == \
        {key: published[key] for key in ("row_count", "schema_version", "sort")}
    assert [{key: suite[key] for key in ("name", "families")} for suite in data["suites"]] == \
        [{"name": s["name"], "families": [f["name"] for f in s["families"]]} for s in published["suites"]]


def test_the_page_data_carries_fixtures_sizes_and_the_frontier_of_each_row(tmp_path):
    build(SETTINGS, str(tmp_path / "site"), release_tag="v3.1.0", progress=lambda message: None)
    fields = page_data(tmp_path / "site")["fields"]
    by_path = {path: i for i, path in enumerate(fields["report_path"])}
    # The manifest's 560M model, a model it has no param_count for, and one it does not list.
    onnx = by_path["clinical-notes/legacy/pii-onnx.report.json"]
    assert (fields["param_count"][onnx], fields["size"][onnx], fields["fixture_count"][onnx], fields["frontier"][onnx]) == \
        (560000000, "560M", 24, 1)
    tie = by_path["clinical-notes/tie-suite.report.json"]
    assert (fields["param_count"][tie], fields["size"][tie], fields["frontier"][tie]) == (None, "", 0)
    assert set(fields["frontier"]) == {0, 1}


def test_no_report_text_can_close_the_script_or_open_a_comment(archive):
    hostile = "</script><!--<script>\u2028\u2029&'\""
    reports = archive({"a.report.json": report(suite=hostile, model_name=hostile, device=hostile,
                                               metadata={"model_family": hostile, "release_tag": hostile})})
    board = build_leaderboard(reports)
    text = embedded(board.rows, board.suites)
    assert not re.search(r"[<>&\u2028\u2029]", text)
    data = json.loads(text)
    assert unpacked(data)["model_name"] == [hostile]
    assert data["suites"] == [{"anchor": "suite-script-script", "families": [hostile], "name": hostile}]


@pytest.mark.parametrize("fraction, shown", [
    (0.0, "0.00"), (1.0, "100.00"), (0.5, "50.00"), (0.0093, "0.93"), (0.07313, "7.313"),
    (0.123456, "12.3456"), (1e-05, "0.001"), (0.1 + 0.2, "30.000000000000004"), (1, "100.00"),
])
def test_percentages_have_two_decimals_and_every_further_one_a_value_needs(fraction, shown):
    assert percent(fraction) == shown


def test_a_percentage_is_written_from_its_own_fraction_whatever_came_before():
    # -0.0 equals 0.0 (the schema's minimum of 0 lets it through) but is written with its sign.
    assert [percent(value) for value in (0.0, -0.0, 0.0, -0.0, 0.5, 1, 0.5)] == [
        "0.00", "-0.00", "0.00", "-0.00", "50.00", "100.00", "50.00"]


def test_rows_are_terse_and_show_rounded_percentages_isolated_names_the_short_hash_and_the_json_copy(archive, tmp_path):
    reports = archive({"s/a.report.json": report(metrics={"leakage": {"overall": 0.07313}, "exact_span_f1": {"recall": 0.5, "f1": 0.25}})})
    build(SETTINGS, str(tmp_path / "site"), reports_dir=str(reports), progress=lambda message: None)
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    panel = html[html.index('<section class="panel"'):]  # after the empty table the script copies
    top = panel[panel.index("<tbody>") + len("<tbody>\n"):panel.index("</tbody>")]
    family = panel[panel.index('<div class="family" data-family>'):]
    body = family[family.index("<tbody>") + len("<tbody>\n"):family.index("</tbody>")]
    # The compare box (hidden by nojs.css where the script does not run), the rank and its range, the
    # model (on its suite's frontier: it is the only row; isolated, as every name), its leakage with
    # two decimals (7.313 is 7.31: the report page writes it whole) and the leakage's 95% interval
    # (on 3 fixtures, its bounds rounded outward), its fixtures (3: thin evidence), its size
    # (unknown: empty) and the hash's first 12 digits (the report page shows it whole).
    assert body == ('<tr data-row="0"><td><input type="checkbox" data-compare="0" aria-label="Compare OpenMed/model-a on cpu">'
                    '<td>1 <span class="range">(1–1)</span><th><a href="./report/s/a.report.html" dir="auto">OpenMed/model-a</a> <span class="badge frontier">frontier</span>'
                    '<td><bdi>cpu</bdi><td>7.31 <span class="range">(0.37–62.19)</span><td>50.00<td>25.00<td>3 <span class="badge thin">thin<span class="visually-hidden"> evidence</span></span>'
                    '<td><td><bdi>v1.0.0</bdi><td>2026-06-14<td>' + HASH.partition(":")[2][:12] + '<td><a href="./reports/s/a.report.json">JSON</a>\n')
    # The suite's best rows, first in its panel: the same row, with its family after the model.
    assert top == body.replace("</span><td><bdi>cpu</bdi><td>", "</span><td><bdi>PII</bdi><td><bdi>cpu</bdi><td>")
    page = (tmp_path / "site" / "report" / "s" / "a.report.html").read_text(encoding="utf-8")
    assert "7.313" in page and HASH in page


def test_a_checkbox_is_named_as_its_column_header_says_for_the_rows_the_script_makes(tmp_path):
    """The compare column's header says how its checkboxes are named (data-label: words, and a field
    in braces), which the script follows for the rows it makes: every checkbox the build wrote reads
    the same, in the family tables and in the suites' best rows."""
    site = tmp_path / "site"
    build(SETTINGS, str(site), release_tag="v3.1.0", progress=lambda message: None)
    html = (site / "index.html").read_text(encoding="utf-8")
    data = page_data(site)["fields"]
    tables = re.findall(r"<table class=\"board[^>]*>.*?</table>", html[html.index('<section class="panel"'):], re.S)
    assert tables
    for table in tables:
        labels = re.findall(r'<th scope="col" data-label="([^"]*)">', table)
        assert labels == ["Compare {model_name} on {device}"]
        boxes = re.findall(r'<input type="checkbox" data-compare="(\d+)" aria-label="([^"]*)">', table)
        assert boxes
        for index, name in boxes:
            made = re.sub(r"\{(\w+)\}", lambda field: str(data[field.group(1)][int(index)]), labels[0])
            assert html_lib.unescape(name) == made


def test_the_script_reads_each_control_and_tab_from_what_the_build_says_not_from_its_text(tmp_path):
    """The columns' names (for "Sorted by ...") come in the page's data as columns.py declares them,
    the same words as the headers' buttons; each suite's tab says its name and its number of rows in
    attributes (data-name, data-rows), which the script reads instead of the tab's text."""
    site = tmp_path / "site"
    build(SETTINGS, str(site), release_tag="v3.1.0", progress=lambda message: None)
    html = (site / "index.html").read_text(encoding="utf-8")
    data = page_data(site)
    buttons = dict(re.findall(r'<button type="button" data-sort="([^"]+)" disabled>([^<]*)</button>', html))
    assert buttons and {column["key"]: column["label"] for column in data["columns"] if column["key"] in buttons} == {
        key: html_lib.unescape(label) for key, label in buttons.items()}
    tabs = re.findall(r'data-name="([^"]*)" data-rows="(\d+)"[^>]*><bdi class="tab-name">([^<]*)</bdi> <span class="count">'
                      r'<span data-count>(\d+)</span>', html)
    assert len(tabs) == 4 and all(name == shown and rows == count for name, rows, shown, count in tabs)
    assert sum(int(rows) for _, rows, _, _ in tabs) == len(json.loads((site / "leaderboard.json").read_text())["rows"])


# What a suite's chart may cost, raw and gzip-compressed, whatever its rows: its frame, a mark a
# frontier row and its other rows' cells (tests/test_chart.py bounds it by arithmetic).
CHART_BYTES, CHART_GZIP_BYTES = 12_000, 3_000


@pytest.mark.oracle
def test_index_is_no_larger_than_the_reference_renderers_at_1000_rows(tmp_path):
    """The page budget: at 1,000 rows the index is no larger than openmed 3.1.0's page raw, and,
    without its chart (which that page does not have), gzip-compressed too; the charts (the
    index's and the other suites' pages') cost at most their budget a mark. The data the script
    reads is a file of its own (leaderboard-data.js)."""
    make_archive(tmp_path / "a", 1000)
    subprocess.run([sys.executable, "-m", "openmed.eval.leaderboard", "--reports-dir", str(tmp_path / "a" / "reports"),
                    "--output-dir", str(tmp_path / "reference"), "--manifest", str(tmp_path / "a" / "models.jsonl"),
                    "--release-tag", "v1.0.0"], check=True, capture_output=True)
    build(SETTINGS, str(tmp_path / "ours"), reports_dir=str(tmp_path / "a" / "reports"),
          manifest=str(tmp_path / "a" / "models.jsonl"), release_tag="v1.0.0", progress=lambda message: None)
    ours = (tmp_path / "ours" / "index.html").read_bytes()
    reference = (tmp_path / "reference" / "index.html").read_bytes()
    assert len(ours) <= len(reference)
    assert len(re.findall(rb'<figure class="chart">.*?</figure>', ours, re.S)) == 1
    suite_pages = sorted((tmp_path / "ours" / "suite").glob("*/index.html"))
    charts = [chart for page in [ours, *(path.read_bytes() for path in suite_pages)]
              for chart in re.findall(rb'<figure class="chart">.*?</figure>', page, re.S)]
    assert len(charts) == 6
    tables = re.sub(rb'<figure class="chart">.*?</figure>', b"", ours, flags=re.S)
    for level in (6, 9):
        assert len(gzip.compress(tables, level, mtime=0)) <= len(gzip.compress(reference, level, mtime=0))
    # A chart marks its frontier's rows: every row a table badges as frontier is a mark.
    marks = {int(row) for chart in charts for row in re.findall(rb'<a href="[^"]*" data-row="(\d+)" class="frontier">', chart)}
    badged = {int(row) for row in re.findall(rb'<tr data-row="(\d+)">[^\n]*<span class="badge frontier">', tables)}
    assert badged <= marks and badged
    assert sum(map(len, charts)) <= CHART_BYTES * len(charts)
    assert len(gzip.compress(b"".join(charts), 9, mtime=0)) <= CHART_GZIP_BYTES * len(charts)


@pytest.mark.parametrize("values", [
    [],
    ["only"],
    ["same", "same", "same"],
    ["a", "aa", "aaa", "a"],  # one entry is the whole prefix
    ["xa", "xba", "xa"],  # the suffix is taken after the prefix, never overlapping it
    ["", "", "b"],
    ["line\nbreak", "\x0b\x0c", "tab\there", "\ue000private"],  # the first separators taken
    [1, 1.0, True, None, 0.0, -0.0, 1, False],  # equal values of other types or signs stay apart
    [0.1 * n for n in range(70)] * 2,  # more entries than one digit numbers
    [f"OpenMed/m-{n:05d}" for n in range(5000)][::-1] * 2,  # three digits a row
])
def test_a_packed_column_reads_back_as_its_values(values):
    from benchmark_leaderboard.present.publish import pack_column, unpack_column

    column = pack_column(values)
    back = unpack_column(json.loads(json.dumps(column)), len(values))
    assert [(type(value), repr(value)) for value in back] == [(type(value), repr(value)) for value in values]


def test_compare_data_holds_every_metric_leaf_of_each_row_as_its_report_was_read(archive, tmp_path):
    """compare-data/<suite's anchor>.js: every dotted key of the suite's reports' metrics, sorted, and each row's
    value at each (null where its report has none): finite numbers as numbers (an integer beyond any
    float exactly), anything else as the text a report page shows. Where two leaves' keys join the
    same, the one the report's canonical copy lists last is kept, whatever the order of its file."""
    metrics = {"a.b": 2, "a": {"b": 3}, "big": 10 ** 400, "flag": True, "list": [1, "x"]}
    reports = archive({"s/a.report.json": report(model_name="OpenMed/model-a", metrics=metrics),
                       "s/b.report.json": report(model_name="OpenMed/model-b", metrics={"only_b": {"n": 0.25}})})
    assert list(json.loads((reports / "s" / "a.report.json").read_text())["metrics"])[-5:] == list(metrics)
    build(SETTINGS, str(tmp_path / "site"), reports_dir=str(reports), progress=lambda message: None)
    board = json.loads((tmp_path / "site" / "leaderboard.json").read_text(encoding="utf-8"))
    suite = board["rows"][0]["suite"]
    script = (tmp_path / "site" / "compare-data" / f"suite-{suite}.js").read_text(encoding="utf-8")
    head = f"window.leaderboardMetrics = window.leaderboardMetrics || {{}};\nwindow.leaderboardMetrics[{json.dumps(suite)}] = "
    assert script.startswith(head) and script.endswith(";\n")
    data = json.loads(script[len(head):-2])
    base = {key: value for key, value in _leaves(report()["metrics"]).items()}
    keys = sorted({*base, "a.b", "big", "flag", "list", "only_b.n"})
    assert data["keys"] == keys
    index = {row["model_name"]: str(number) for number, row in enumerate(board["rows"])}
    a = dict(base, **{"a.b": 2, "big": 10 ** 400, "flag": "true", "list": '[1, "x"]'})
    b = dict(base, **{"only_b.n": 0.25})
    assert data["rows"] == {index["OpenMed/model-a"]: [a.get(key) for key in keys],
                            index["OpenMed/model-b"]: [b.get(key) for key in keys]}


def _leaves(value, prefix=""):
    found = {}
    for key, item in value.items():
        name = f"{prefix}.{key}" if prefix else key
        found.update(_leaves(item, name) if isinstance(item, dict) and item else {name: item})
    return found


@pytest.mark.parametrize("fraction, decimals, shown", [
    (1 / 7, 2, "14.29"), (1 / 9, 2, "11.11"), (1 / 11, 2, "9.09"), (1 / 7, 4, "14.2857"), (0.5, 2, "50.00"),
    (1, 2, "100.00"), (0.00125, 2, "0.12"), (0.00135, 2, "0.14"), (-0.0, 2, "-0.00"), (0.0, 2, "0.00"), (0.999999, 2, "100.00"),
])
def test_a_table_rounds_a_percentage_half_to_even_on_the_value_as_written(fraction, decimals, shown):
    assert rounded(fraction, decimals) == shown


def test_rows_the_ranking_separates_get_the_decimals_that_tell_them_apart_up_to_four():
    row = namedtuple("row", "leakage recall")
    rows = [row(0.1, 0.9),                                       # 10.00: apart from its neighbours
            row(1 / 7, 0.9), row(1 / 7 + 1e-9, 0.4),             # 14.29, apart only beyond four decimals
            row(0.142863, 0.5),                                  # 14.29 too: 14.2857, 14.2857, 14.2863
            row(0.2, 0.95 + 1e-6), row(0.2, 0.95), row(0.2, 0.9),  # equal leakage; recalls 95.00, 95.00, 90.00
            row(0.3, 0.5)]
    leakage, recall = table_decimals(rows, [range(len(rows))])
    assert leakage == {1: 4, 2: 4, 3: 4} and recall == {4: 4, 5: 4}
    assert [rounded(rows[i].leakage, leakage.get(i, 2)) for i in range(4)] == ["10.00", "14.2857", "14.2857", "14.2863"]
    # Each suite is its own ranking: the same values in two suites of one row each read at two decimals.
    assert table_decimals(rows[1:3], [[0], [1]]) == ({}, {})
