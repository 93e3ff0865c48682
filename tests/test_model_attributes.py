"""Model attributes, evidence and freshness: the manifest's parameter count, license, base model,
task and release date on a report page (nothing, and no failure, without a manifest row), the size
column and the data's param_count, the fixtures column and its thin-evidence mark with the reason on
the report page, and the lede's release tags (version order) and latest run date."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import HASH, SETTINGS, report, write_archive
from core_support import write_manifest

from benchmark_leaderboard.formatting import size_text
from benchmark_leaderboard.present.publish import unpacked
from benchmark_leaderboard.present.report_details import model_attributes
from leaderboard_tools.runner import build

FULL = {"repo_id": "OpenMed/model-a", "family": "PII", "param_count": 44000000, "license": "apache-2.0",
        "base_model": "OpenMed/base-44M", "task": "token-classification", "released": "2026-04-14", "tier": "Small"}


def render(root: Path, files: dict, manifest: list | None = None, **settings) -> Path:
    """Build ``files`` (with ``manifest`` as models.jsonl, or no manifest file at all); the site."""
    reports = write_archive(root / "reports", files)
    path = write_manifest(root / "models.jsonl", *manifest) if manifest is not None else root / "absent.jsonl"
    build(SETTINGS, str(root / "site"), reports_dir=str(reports), manifest=str(path), extra=settings or None,
          progress=lambda message: None)
    return root / "site"


def page(site: Path, report_path: str) -> str:
    return (site / "report" / (report_path[: -len(".json")] + ".html")).read_text(encoding="utf-8")


def model_section(html: str) -> str | None:
    if "<h2>Model</h2>" not in html:
        return None
    return html[html.index("<h2>Model</h2>"):html.index("<h2>Published row</h2>")]


def page_data(site: Path) -> dict:
    text = (site / "leaderboard-data.js").read_text(encoding="utf-8")
    data = json.loads(text.removeprefix("window.leaderboardData = ").removesuffix(";\n"))
    data["fields"] = unpacked(data)  # each column packed, read back as its list of values
    return data


def cells(html: str, report_path: str) -> list[str]:
    """The cells of a row of the index's family tables, as written (end tags left out). (A row of
    the suite's best rows shows first, in a table that has a family column more.)"""
    line = [line for line in html.splitlines() if f'href="./reports/{report_path}"' in line and line.startswith("<tr ")][-1]
    return re.split(r"<t[dh]>", line)[1:]


EXPECTED_MODEL = """<h2>Model</h2>
<div class="table-box" tabindex="0" role="region" aria-label="Model attributes">
<table class="evidence">
<caption>From the <code>models.jsonl</code> manifest: its row whose <code>repo_id</code> is <code dir="auto">OpenMed/model-a</code>.</caption>
<thead><tr><th scope="col">Attribute</th><th scope="col">Value</th><th scope="col">Manifest key</th></tr></thead>
<tbody>
<tr><th scope="row">Parameters</th><td><bdi>44M (44,000,000)</bdi></td><td><code>param_count</code></td></tr>
<tr><th scope="row">License</th><td><bdi>apache-2.0</bdi></td><td><code>license</code></td></tr>
<tr><th scope="row">Base model</th><td><bdi>OpenMed/base-44M</bdi></td><td><code>base_model</code></td></tr>
<tr><th scope="row">Task</th><td><bdi>token-classification</bdi></td><td><code>task</code></td></tr>
<tr><th scope="row">Released</th><td><bdi>2026-04-14</bdi></td><td><code>released</code></td></tr>
</tbody>
</table>
</div>
"""


def test_a_report_page_shows_the_models_attributes_with_the_manifest_as_their_source(tmp_path):
    site = render(tmp_path, {"a.report.json": report(), "b.report.json": report(model_name="OpenMed/unlisted")}, [FULL])
    assert model_section(page(site, "a.report.json")) == EXPECTED_MODEL
    # A model the manifest does not list: no attributes, and the page is written all the same.
    assert model_section(page(site, "b.report.json")) is None
    assert "<h2>Metrics</h2>" in page(site, "b.report.json")


def test_without_a_manifest_no_page_shows_attributes_and_nothing_fails(tmp_path):
    site = render(tmp_path, {"a.report.json": report()}, manifest=None)
    assert model_section(page(site, "a.report.json")) is None
    assert page_data(site)["fields"]["param_count"] == [None]
    assert cells((site / "index.html").read_text(encoding="utf-8"), "a.report.json")[8] == ""


def test_attributes_that_are_null_empty_or_not_a_count_are_left_out():
    odd = {"param_count": "44M", "license": "  ", "base_model": None, "task": 7, "released": "2026-01-02"}
    assert model_attributes(odd) == [("Task", "task", 7, "7"), ("Released", "released", "2026-01-02", "2026-01-02")]
    for count in (True, -5, 0, float("nan"), float("inf"), [44]):
        assert model_attributes({"param_count": count}) == []
    assert model_attributes({"param_count": 2.5e9}) == [("Parameters", "param_count", 2.5e9, "2.5B (2500000000.0)")]
    assert model_attributes(None) == [] and model_attributes({}) == []


@pytest.mark.parametrize("count, shown", [
    (44000000, "44M"), (2300000000, "2.3B"), (560000000, "560M"), (1234567890, "1.23B"), (999500000, "1B"),
    (999499999, "999M"), (850, "850"), (1000, "1K"), (12345, "12.3K"), (1.5e12, "1.5T"), (4.4e7, "44M"), (None, ""),
])
def test_a_size_is_written_short(count, shown):
    assert size_text(count) == shown


def test_the_index_shows_each_rows_size_and_the_data_carries_its_param_count(tmp_path):
    big = {**FULL, "repo_id": "OpenMed/big", "param_count": 2300000000}
    site = render(tmp_path, {"a.report.json": report(), "big.report.json": report(model_name="OpenMed/big"),
                             "none.report.json": report(model_name="OpenMed/none")},
                  [FULL, big, {"repo_id": "OpenMed/none", "param_count": None}])
    html = (site / "index.html").read_text(encoding="utf-8")
    headers = re.findall(r'data-sort="([a-z_]+)" disabled>([^<]+)</button>', html[:html.index("</thead>")])
    assert ("param_count", "Size") in headers and ("fixture_count", "Fixtures") in headers
    assert [cells(html, name)[8] for name in ("a.report.json", "big.report.json", "none.report.json")] == ["44M", "2.3B", ""]
    fields = page_data(site)["fields"]
    by_path = dict(zip(fields["report_path"], fields["param_count"]))
    assert by_path == {"a.report.json": 44000000, "big.report.json": 2300000000, "none.report.json": None}


THIN = '<span class="badge thin">thin<span class="visually-hidden"> evidence</span></span>'


def test_rows_below_the_threshold_are_marked_thin_with_the_reason_on_their_page(tmp_path):
    files = {f"f{count}.report.json": report(model_name=f"OpenMed/f{count}", fixture_count=count) for count in (1, 9, 10, 250)}
    site = render(tmp_path, files)
    html = (site / "index.html").read_text(encoding="utf-8")
    assert [cells(html, f"f{count}.report.json")[7] for count in (1, 9, 10, 250)] == [
        "1 " + THIN, "9 " + THIN, "10", "250"]
    assert page_data(site)["fields"]["fixture_count"] == [1, 10, 250, 9]  # equal rows rank by path: f1, f10, f250, f9
    note = re.compile(r'<p class="evidence-note">(.*?)</p>')
    assert note.search(page(site, "f9.report.json")).group(1).startswith(
        "This row is based on 9 fixtures; rows below 10 are marked as thin evidence, and this one is: read its figures with care.")
    assert note.search(page(site, "f1.report.json")).group(1).startswith("This row is based on 1 fixture; rows below 10")
    assert note.search(page(site, "f10.report.json")).group(1).startswith(
        "This row is based on 10 fixtures; rows below 10 are marked as thin evidence.")
    assert '<div><dt>Fixtures</dt><dd>9 <span class="badge thin">thin</span></dd></div>' in page(site, "f9.report.json")


def test_the_thin_evidence_threshold_is_a_setting(tmp_path):
    site = render(tmp_path, {"f9.report.json": report(fixture_count=9), "f4.report.json": report(fixture_count=4)},
                  LEADERBOARD_THIN_EVIDENCE=5)
    html = (site / "index.html").read_text(encoding="utf-8")
    assert (cells(html, "f9.report.json")[7], cells(html, "f4.report.json")[7]) == ("9", "4 " + THIN)
    assert page_data(site)["thin_evidence"] == 5
    assert "rows below 5 are marked as thin evidence." in page(site, "f9.report.json")


def test_a_setting_that_is_not_a_whole_number_stops_the_build_with_one_line(tmp_path):
    from leaderboard_tools.faults import BuildError

    with pytest.raises(BuildError) as error:
        render(tmp_path, {"a.report.json": report()}, LEADERBOARD_PAGE_ROWS=0)
    assert error.value.line() == "build failed: the setting LEADERBOARD_PAGE_ROWS must be a whole number of at least 1, not 0"
    assert not (tmp_path / "site").exists()


def lede(html: str) -> str:
    """The index's lede as a reader reads it (its release tags are isolated in <bdi>)."""
    return re.sub(r"</?bdi>", "", re.findall(r'<p class="lede">(.*?)</p>', html)[1])


def test_the_lede_names_the_release_tags_in_version_order_and_the_latest_run_date(tmp_path):
    files = {f"r{n}.report.json": report(model_name=f"OpenMed/m{n}", generated_at=date, metadata={"release_tag": tag})
             for n, (tag, date) in enumerate([("v3.10.0", "2026-01-05T23:59:59-08:00"), ("v3.9.0", "2026-03-01"),
                                              ("v3.10.0", "2025-12-31"), ("V3.9.1", "2026-02-28T10:00:00Z"),
                                              ("v3.2.0", "2025-01-01")])}
    html = (render(tmp_path, files) / "index.html").read_text(encoding="utf-8")
    # A capital V is a version's v: V3.9.1 comes after v3.9.0, not before every version.
    assert lede(html).startswith("Covers releases v3.2.0, v3.9.0, V3.9.1, v3.10.0; latest run 2026-03-01. ")


def test_a_lede_with_many_release_tags_names_the_first_and_the_last(tmp_path):
    files = {f"r{n}.report.json": report(model_name=f"OpenMed/m{n}", metadata={"release_tag": f"v1.{n}.0"}) for n in range(13)}
    html = (render(tmp_path, files) / "index.html").read_text(encoding="utf-8")
    assert lede(html).startswith("Covers 13 releases, from v1.0.0 to v1.12.0; latest run 2026-06-14. ")
    one = (render(tmp_path / "one", {"a.report.json": report()}) / "index.html").read_text(encoding="utf-8")
    assert lede(one).startswith("Covers release v1.0.0; latest run 2026-06-14. ")


def test_the_lede_orders_tags_as_the_project_does_a_pre_release_before_its_release(tmp_path):
    files = {f"r{n}.report.json": report(model_name=f"OpenMed/m{n}", metadata={"release_tag": tag})
             for n, tag in enumerate(["v3.10.0", "v3.9.0", "v3.9.0-rc.1", "nightly", "3.9.0"])}
    html = (render(tmp_path, files) / "index.html").read_text(encoding="utf-8")
    assert lede(html).startswith("Covers releases nightly, v3.9.0-rc.1, 3.9.0, v3.9.0, v3.10.0; latest run 2026-06-14. ")
