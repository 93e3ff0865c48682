"""The CSV downloads: leaderboard.csv and suites/<anchor>.csv, byte for byte on a small archive, read
back with Python's csv module, formula cells neutralised, and linked from the page."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from pathlib import Path

import pytest

from conftest import HASH, SETTINGS, report, write_archive

from benchmark_leaderboard.board import FIELDS
from benchmark_leaderboard.decide.uncertainty import FIGURES
from benchmark_leaderboard.present.downloads import cell
from leaderboard_tools.runner import build

# The published fields in the schema's order, then how sure the row's rank is (uncertainty.json's).
HEADER = ("suite,model_family,model_name,device,leakage,recall,f1,release_tag,run_date,reproducibility_hash,"
          "report_path,report_url,method,fixture_count,leakage_low,leakage_high,recall_low,recall_high,"
          "suite_rank_best,suite_rank_worst,could_be_first\r\n")


def render(root: Path, files: dict | None) -> Path:
    """Build ``files`` as an archive (None: the bundled archive); the site's folder."""
    reports = write_archive(root / "reports", files) if files is not None else None
    build(SETTINGS, str(root / "site"), reports_dir=str(reports) if reports else None, release_tag="v3.1.0",
          progress=lambda message: None)
    return root / "site"


def read_csv(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle, strict=True))


def as_text(row: dict, figures: dict) -> list[str]:
    """A leaderboard.json row and its uncertainty.json figures as its CSV cells: numbers and true or
    false as those files write them."""
    return ([json.dumps(row[name]) if isinstance(row[name], float) else row[name] for name in FIELDS]
            + [figures[name] if isinstance(figures[name], str) else json.dumps(figures[name]) for name in FIGURES])


@pytest.mark.parametrize("value, written", [
    ("plain", "plain"),
    (0.0, "0.0"), (1.0, "1.0"), (1e-05, "1e-05"), (0.1 + 0.2, "0.30000000000000004"), (0.07313, "0.07313"),
    ("a,b", '"a,b"'), ('say "hi"', '"say ""hi"""'), ("two\nlines", '"two\nlines"'), ("cr\rinside", '"cr\rinside"'),
    ("=1+1", "\"'=1+1\""), ("+1", "\"'+1\""), ("-1", "\"'-1\""), ("@SUM(A1)", "\"'@SUM(A1)\""),
    ("\tx", "\"'\tx\""), ("\rx", "\"'\rx\""), ('=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'),
    ("a=b", "a=b"), ("x-1", "x-1"), ("", ""), (True, "true"), (False, "false"), (7, "7"),
])
def test_a_cell_is_quoted_when_it_must_be_and_a_formula_is_neutralised(value, written):
    assert cell(value) == written


def test_every_cell_reads_back_as_its_text_beside_others_on_a_line():
    # Texts of the characters CSV treats specially, at random: a line of three cells reads back as
    # the three texts (a formula's with its single quote), whatever each holds.
    rng = random.Random(4180)
    alphabet = ['"', ",", "\r", "\n", "\t", "=", "+", "-", "@", "'", " ", "a", "é", "\u2028"]
    for _ in range(3000):
        texts = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 6))) for _ in range(3)]
        line = ",".join(map(cell, texts)) + "\r\n"
        expected = ["'" + text if text.startswith(("=", "+", "-", "@", "\t", "\r")) else text for text in texts]
        assert next(csv.reader(io.StringIO(line, newline=""), strict=True)) == expected, line


SMALL = {
    "notes/ner é#1.report.json": report(suite="radiology", model_name='OpenMed/ner-é, "v2"', device="mlx",
                                         metadata={"model_family": "NER", "release_tag": "v2.0.0"},
                                         metrics={"leakage": {"overall": 0}, "exact_span_f1": {"recall": 0.75, "f1": 0.5}}),
    "golden.report.json": report(metrics={"leakage": {"overall": 1e-05}, "exact_span_f1": {"recall": 0.1 + 0.2, "f1": 1}}),
}
EXPECTED_CSV = (
    HEADER
    + 'radiology,NER,"OpenMed/ner-é, ""v2""",mlx,0.0,0.75,0.5,v2.0.0,2026-06-14,' + HASH
    + ",notes/ner é#1.report.json,reports/notes/ner%20%C3%A9%231.report.json"
    + ",wilson-95,3,0.0,0.5614970317550455,0.256092680317462,0.9631588038050152,1,1,true\r\n"
    + "golden,PII,OpenMed/model-a,cpu,1e-05,0.30000000000000004,1.0,v1.0.0,2026-06-14," + HASH
    + ",golden.report.json,reports/golden.report.json"
    + ",wilson-95,3,7.809411174185446e-11,0.5615058017363163,0.05101623024762533,0.7735825824543929,1,1,true\r\n"
)


def test_a_small_archives_csv_byte_for_byte(tmp_path):
    site = render(tmp_path, SMALL)
    assert (site / "leaderboard.csv").read_bytes() == EXPECTED_CSV.encode("utf-8")
    lines = EXPECTED_CSV.split("\r\n")
    assert (site / "suites" / "suite-radiology.csv").read_bytes() == (HEADER + lines[1] + "\r\n").encode("utf-8")
    assert (site / "suites" / "suite-golden.csv").read_bytes() == (HEADER + lines[2] + "\r\n").encode("utf-8")
    assert not (site / "leaderboard.csv").read_bytes().startswith(b"\xef\xbb\xbf")


def test_the_csv_module_reads_back_every_row_of_leaderboard_json_in_order(tmp_path):
    site = render(tmp_path, None)
    published = json.loads((site / "leaderboard.json").read_text(encoding="utf-8"))
    figures = json.loads((site / "uncertainty.json").read_text(encoding="utf-8"))["rows"]
    table = read_csv(site / "leaderboard.csv")
    assert table[0] == list(FIELDS + FIGURES)
    assert table[1:] == [as_text(row, figures[row["report_path"]]) for row in published["rows"]]
    # Each suite's file: its rows, in ranking order, and together every row once.
    anchors = re.findall(r'<a id="([^"]+)-tab"', (site / "index.html").read_text(encoding="utf-8"))  # a tab a suite
    seen = []
    for suite, anchor in zip(published["suites"], anchors):
        rows = read_csv(site / "suites" / f"{anchor}.csv")
        assert rows[0] == list(FIELDS + FIGURES)
        expected = [as_text(row, figures[row["report_path"]]) for row in published["rows"] if row["suite"] == suite["name"]]
        assert rows[1:] == expected and len(expected) == sum(len(family["rows"]) for family in suite["families"])
        seen += rows[1:]
    assert sorted(seen) == sorted(table[1:])
    assert sorted(path.name for path in (site / "suites").iterdir()) == sorted(f"{anchor}.csv" for anchor in anchors)


def test_a_hostile_archives_formula_cells_are_neutralised_and_read_back(tmp_path):
    hostile = {
        "suite": "=cmd|' /C calc'!A0", "model_name": '+HYPERLINK("http://example.invalid","x")', "device": "-2+3",
        "model_family": "@SUM(A1:A9)", "release_tag": "=1,\"2\"\nthree",
    }
    files = {
        "\t=tab.report.json": report(suite=hostile["suite"], model_name=hostile["model_name"], device=hostile["device"],
                                     metadata={"model_family": hostile["model_family"], "release_tag": hostile["release_tag"]}),
        "-dash/\ra.report.json": report(model_name="OpenMed/plain"),
        "plain.report.json": report(model_name="OpenMed/other", metrics={"leakage": {"overall": 0.5}}),
    }
    site = render(tmp_path, files)
    published = json.loads((site / "leaderboard.json").read_text(encoding="utf-8"))
    figures = json.loads((site / "uncertainty.json").read_text(encoding="utf-8"))["rows"]
    table = read_csv(site / "leaderboard.csv")
    assert len(table) == 4
    for row, cells in zip(published["rows"], table[1:]):
        for name, value, written in zip(FIELDS + FIGURES, as_text(row, figures[row["report_path"]]), cells):
            if value[:1] in ("=", "+", "-", "@", "\t", "\r"):
                assert written == "'" + value, name  # the spreadsheet shows it as text
            else:
                assert written == value, name
    raw = (site / "leaderboard.csv").read_bytes().decode("utf-8")
    hostile_row = next(row for row in published["rows"] if row["report_path"] == "\t=tab.report.json")
    assert {name: hostile_row[name] for name in hostile} == hostile
    assert "\"'=cmd|' /C calc'!A0\",\"'@SUM(A1:A9)\",\"'+HYPERLINK(\"\"http://example.invalid\"\",\"\"x\"\")\",\"'-2+3\"," in raw
    assert ",\"'\t=tab.report.json\"," in raw and ",\"'-dash/\ra.report.json\"," in raw
    # No cell, as the csv module (or a spreadsheet) splits the file, starts a formula.
    assert not [cell for row in table for cell in row if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]


def test_the_page_links_the_downloads(tmp_path):
    site = render(tmp_path, SMALL)
    html = (site / "index.html").read_text(encoding="utf-8")
    downloads = html[html.index('<div class="downloads">'):]
    downloads = downloads[:downloads.index("</div>")]
    assert re.findall(r'<li><a href="([^"]+)">', downloads) == ["./leaderboard.json", "./leaderboard.csv"]
    # In each suite's panel: the index's (the first suite's) and the other suites' pages'.
    # Link texts as a reader reads them (a suite's name is isolated in <bdi>).
    html = re.sub(r"</?bdi>", "", html)
    assert re.findall(r'<p class="suite-download"><a href="([^"]+)">([^<]+)</a>', html) == [
        ("./suites/suite-golden.csv", "golden as CSV")]
    radiology = (site / "suite" / "suite-radiology" / "index.html").read_text(encoding="utf-8")
    radiology = re.sub(r"</?bdi>", "", radiology)
    assert re.findall(r'<p class="suite-download"><a href="([^"]+)">([^<]+)</a>', radiology) == [
        ("../../suites/suite-radiology.csv", "radiology as CSV")]
    for link in ("leaderboard.csv", "suites/suite-golden.csv", "suites/suite-radiology.csv"):
        assert (site / link).is_file()
