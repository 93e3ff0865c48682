"""What the leaderboard page is made of: its embedded data, its numbers and its size."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from urllib.parse import quote

import pytest

from conftest import HASH, SETTINGS, report

from benchmark_leaderboard.publish import embedded
from core_support import build as build_leaderboard
from benchmarks.make_archive import make_archive
from leaderboard_tools.runner import build
from benchmark_leaderboard.view import percent


def _embedded(html: str) -> str:
    match = re.search(r'<script type="application/json" id="leaderboard-data">(.*?)</script>', html, re.S)
    assert match, "the page embeds no leaderboard data"
    return match.group(1)


def test_the_embedded_data_is_the_leaderboard_json_content(tmp_path):
    build(SETTINGS, str(tmp_path / "site"), release_tag="v3.1.0", progress=lambda message: None)
    published = json.loads((tmp_path / "site" / "leaderboard.json").read_text(encoding="utf-8"))
    data = json.loads(_embedded((tmp_path / "site" / "index.html").read_text(encoding="utf-8")))
    fields = data["fields"]
    rows = [{name: fields[name][i] for name in fields} for i in range(data["row_count"])]
    # The hash is not repeated in the data: each row of the table shows it in full.
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    shown = {path: digest for digest, path in re.findall(r'<td>(sha256:[0-9a-f]{64})<td><a href="\./reports/([^"]+)">JSON</a>', html)}
    for row in rows:
        row["report_url"] = "reports/" + quote(row["report_path"])
        row["reproducibility_hash"] = shown[quote(row["report_path"])]
    assert rows == published["rows"]
    assert {key: data[key] for key in ("row_count", "schema_version", "sort")} == \
        {key: published[key] for key in ("row_count", "schema_version", "sort")}
    assert data["suites"] == [{"name": s["name"], "families": [f["name"] for f in s["families"]]} for s in published["suites"]]


def test_no_report_text_can_close_the_script_or_open_a_comment(archive):
    hostile = "</script><!--<script>\u2028\u2029&'\""
    reports = archive({"a.report.json": report(suite=hostile, model_name=hostile, device=hostile,
                                               metadata={"model_family": hostile, "release_tag": hostile})})
    board = build_leaderboard(reports)
    text = embedded(board.rows, board.suites)
    assert not re.search(r"[<>&\u2028\u2029]", text)
    data = json.loads(text)
    assert data["fields"]["model_name"] == [hostile] and data["suites"] == [{"families": [hostile], "name": hostile}]


@pytest.mark.parametrize("fraction, shown", [
    (0.0, "0.00"), (1.0, "100.00"), (0.5, "50.00"), (0.0093, "0.93"), (0.07313, "7.313"),
    (0.123456, "12.3456"), (1e-05, "0.001"), (0.1 + 0.2, "30.000000000000004"), (1, "100.00"),
])
def test_percentages_have_two_decimals_and_every_further_one_a_value_needs(fraction, shown):
    assert percent(fraction) == shown


def test_rows_are_terse_and_show_exact_percentages_the_whole_hash_and_the_json_copy(archive, tmp_path):
    reports = archive({"s/a.report.json": report(metrics={"leakage": {"overall": 0.07313}, "exact_span_f1": {"recall": 0.5, "f1": 0.25}})})
    build(SETTINGS, str(tmp_path / "site"), reports_dir=str(reports), progress=lambda message: None)
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    body = html[html.index("<tbody>") + len("<tbody>\n"):html.index("</tbody>")]
    assert body == ('<tr><td>1<th><a href="./report/s/a.report.html">OpenMed/model-a</a><td>cpu<td>7.313<td>50.00<td>25.00'
                    '<td>v1.0.0<td>2026-06-14<td>' + HASH + '<td><a href="./reports/s/a.report.json">JSON</a>\n')


@pytest.mark.oracle
def test_index_is_no_larger_than_the_reference_renderers_at_1000_rows(tmp_path):
    """The page budget: at 1,000 rows, raw and gzip-compressed, no larger than openmed 3.1.0's page."""
    make_archive(tmp_path / "a", 1000)
    subprocess.run([sys.executable, "-m", "openmed.eval.leaderboard", "--reports-dir", str(tmp_path / "a" / "reports"),
                    "--output-dir", str(tmp_path / "reference"), "--manifest", str(tmp_path / "a" / "models.jsonl"),
                    "--release-tag", "v1.0.0"], check=True, capture_output=True)
    build(SETTINGS, str(tmp_path / "ours"), reports_dir=str(tmp_path / "a" / "reports"),
          manifest=str(tmp_path / "a" / "models.jsonl"), release_tag="v1.0.0", progress=lambda message: None)
    ours = (tmp_path / "ours" / "index.html").read_bytes()
    reference = (tmp_path / "reference" / "index.html").read_bytes()
    assert len(ours) <= len(reference)
    for level in (6, 9):
        assert len(gzip.compress(ours, level, mtime=0)) <= len(gzip.compress(reference, level, mtime=0))
