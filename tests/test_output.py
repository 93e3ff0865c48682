"""What the build writes: leaderboard.json byte for byte, report URLs, canonical report copies,
stale copies, and the real upstream archive against its expected leaderboard.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import HASH, SETTINGS, UPSTREAM, report

from leaderboard_tools.pelican_run import render_into
from leaderboard_tools.runner import build as render_build
from core_support import build, published, write_manifest

OTHER_HASH = "sha256:" + "0123456789abcdef" * 4

EXPECTED_SMALL = """{
  "row_count": 2,
  "rows": [
    {
      "device": "mlx",
      "f1": 0.5,
      "leakage": 0.0,
      "model_family": "NER",
      "model_name": "OpenMed/ner-é",
      "recall": 0.75,
      "release_tag": "v2.0.0",
      "report_path": "notes/ner é#1.report.json",
      "report_url": "reports/notes/ner%20%C3%A9%231.report.json",
      "reproducibility_hash": "sha256:abababababababababababababababababababababababababababababababab",
      "run_date": "2026-06-14",
      "suite": "radiology"
    },
    {
      "device": "cpu",
      "f1": 0.8,
      "leakage": 0.1,
      "model_family": "PII",
      "model_name": "OpenMed/model-a",
      "recall": 0.9,
      "release_tag": "v9.9.9",
      "report_path": "golden.report.json",
      "report_url": "reports/golden.report.json",
      "reproducibility_hash": "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
      "run_date": "2026-06-14",
      "suite": "golden"
    }
  ],
  "schema_version": 1,
  "sort": [
    "leakage:asc",
    "recall:desc"
  ],
  "suites": [
    {
      "families": [
        {
          "name": "PII",
          "rows": [
            {
              "device": "cpu",
              "f1": 0.8,
              "leakage": 0.1,
              "model_family": "PII",
              "model_name": "OpenMed/model-a",
              "recall": 0.9,
              "release_tag": "v9.9.9",
              "report_path": "golden.report.json",
              "report_url": "reports/golden.report.json",
              "reproducibility_hash": "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
              "run_date": "2026-06-14",
              "suite": "golden"
            }
          ]
        }
      ],
      "name": "golden"
    },
    {
      "families": [
        {
          "name": "NER",
          "rows": [
            {
              "device": "mlx",
              "f1": 0.5,
              "leakage": 0.0,
              "model_family": "NER",
              "model_name": "OpenMed/ner-é",
              "recall": 0.75,
              "release_tag": "v2.0.0",
              "report_path": "notes/ner é#1.report.json",
              "report_url": "reports/notes/ner%20%C3%A9%231.report.json",
              "reproducibility_hash": "sha256:abababababababababababababababababababababababababababababababab",
              "run_date": "2026-06-14",
              "suite": "radiology"
            }
          ]
        }
      ],
      "name": "radiology"
    }
  ]
}
"""


def small_archive(archive, tmp_path: Path) -> tuple[Path, Path]:
    ner = report(suite="radiology", model_name="OpenMed/ner-é", device="mlx",
                 metadata={"model_family": "NER", "release_tag": "v2.0.0"},
                 metrics={"leakage": {"overall": 0}, "exact_span_f1": {"recall": 0.75, "f1": 0.5}})
    golden = report()
    del golden["metadata"]["reproducibility_hash"], golden["metadata"]["release_tag"]
    reports = archive({"notes/ner é#1.report.json": ner, "golden.report.json": golden, "aux.json": [1]})
    manifest = write_manifest(tmp_path / "models.jsonl", {"repo_id": "OpenMed/model-a", "reproducibility_hash": OTHER_HASH})
    return reports, manifest


def test_leaderboard_json_of_a_small_archive_byte_for_byte(archive, tmp_path):
    reports, manifest = small_archive(archive, tmp_path)
    render_build(SETTINGS, str(tmp_path / "site"), reports_dir=str(reports), manifest=str(manifest),
                 release_tag="v9.9.9", progress=lambda message: None)
    assert (tmp_path / "site" / "leaderboard.json").read_bytes() == EXPECTED_SMALL.encode("utf-8")


@pytest.mark.parametrize("path, url", [
    ("plain.report.json", "reports/plain.report.json"),
    ("a b/c.report.json", "reports/a%20b/c.report.json"),
    ("q?#%&+=;.report.json", "reports/q%3F%23%25%26%2B%3D%3B.report.json"),
    ("ü/東京.report.json", "reports/%C3%BC/%E6%9D%B1%E4%BA%AC.report.json"),
    ("'\"<>.report.json", "reports/%27%22%3C%3E.report.json"),
    ("keep-_.~/x.report.json", "reports/keep-_.~/x.report.json"),
])
def test_report_url_is_reports_and_the_url_quoted_path(archive, path, url):
    row = published(archive({path: report()}))["rows"][0]
    assert (row["report_path"], row["report_url"]) == (path, url)


CANONICAL_SOURCE = (
    '{"metrics":{"f1":1.0,"recall":1,"leakage_rate":0E0,"extra":[1e2, -0.0, 12345678901234567890]},'
    ' "suite":"s\\u00e9", "suite":"golden","model_name":"m\\ud83d\\ude00","device":"cpu","fixture_count":1,'
    '"generated_at":null,"metadata":{"synthetic":true,"run_date":"2026-01-01","model_family":"F","release_tag":"v",'
    f'"reproducibility_hash":"{HASH}","nested":{{"b":[],"a":{{}}}}}},"note":"</script>\\u2028"}}'
)
CANONICAL_COPY = """{
  "device": "cpu",
  "fixture_count": 1,
  "generated_at": null,
  "metadata": {
    "model_family": "F",
    "nested": {
      "a": {},
      "b": []
    },
    "release_tag": "v",
    "reproducibility_hash": "sha256:abababababababababababababababababababababababababababababababab",
    "run_date": "2026-01-01",
    "synthetic": true
  },
  "metrics": {
    "extra": [
      100.0,
      -0.0,
      12345678901234567890
    ],
    "f1": 1.0,
    "leakage_rate": 0.0,
    "recall": 1
  },
  "model_name": "m\U0001F600",
  "note": "</script>\u2028",
  "suite": "golden"
}
"""


def test_report_copies_are_serialized_like_leaderboard_json(archive, tmp_path):
    reports = archive({"deep/a.report.json": CANONICAL_SOURCE, "aux.json": {"notes": "not copied"}})
    render_build(SETTINGS, str(tmp_path / "site"), reports_dir=str(reports), progress=lambda message: None)
    copies = sorted(path.relative_to(tmp_path / "site" / "reports").as_posix()
                    for path in (tmp_path / "site" / "reports").rglob("*") if path.is_file())
    assert copies == ["deep/a.report.json"]
    assert (tmp_path / "site" / "reports" / "deep" / "a.report.json").read_bytes() == CANONICAL_COPY.encode("utf-8")


def test_a_report_with_a_lone_surrogate_cannot_be_copied_and_is_refused(archive):
    from core_support import refusal
    reports = archive({"a.report.json": report(), "b.report.json": report(note="\ud800")})  # json.dumps writes "\ud800"
    assert refusal(reports) == ["b.report.json: holds text that is not valid Unicode (a lone surrogate escape)"]


def test_stale_report_copies_of_an_earlier_render_are_removed(archive, tmp_path):
    # Rendering twice into the same folder, as `pelican content -o` does, not through the swap.
    site = tmp_path / "site"
    first = archive({"keep.report.json": report(), "gone/old.report.json": report()}, name="first")
    second = archive({"keep.report.json": report(model_name="OpenMed/model-b")}, name="second")
    render_into(SETTINGS, str(site), {"LEADERBOARD_REPORTS_DIR": str(first)})
    assert (site / "reports" / "gone" / "old.report.json").is_file()
    render_into(SETTINGS, str(site), {"LEADERBOARD_REPORTS_DIR": str(second)})
    assert sorted(p.relative_to(site / "reports").as_posix() for p in (site / "reports").rglob("*")) == ["keep.report.json"]
    assert json.loads((site / "reports" / "keep.report.json").read_text())["model_name"] == "OpenMed/model-b"


def test_the_bundled_archive_holds_the_golden_report_and_three_auxiliary_files():
    from conftest import ROOT
    leaderboard = build(ROOT / "content" / "benchmarks", ROOT / "models.jsonl", "v3.1.0")
    assert leaderboard.files_read == 23
    published_paths = {row.report_path for row in leaderboard.rows}
    assert "golden.report.json" in published_paths
    assert not {"low-resource-baseline.json", "edge-sbc-results/2026-08-18-jetson-nano-arm64-proxy.json",
                "edge-sbc-results/2026-08-18-raspberry-pi-5-arm64-proxy.json"} & published_paths


def test_the_upstream_archive_gives_the_expected_leaderboard_json_byte_for_byte(tmp_path):
    render_build(SETTINGS, str(tmp_path / "site"), reports_dir=str(UPSTREAM / "docs" / "benchmarks"),
                 manifest=str(UPSTREAM / "models.jsonl"), release_tag="v3.1.0", progress=lambda message: None)
    assert (tmp_path / "site" / "leaderboard.json").read_bytes() == (UPSTREAM / "expected-leaderboard.json").read_bytes()
    assert sorted(p.name for p in (tmp_path / "site" / "reports").rglob("*")) == ["golden.report.json"]


def test_canonical_writes_what_json_dumps_writes_for_objects_of_scalars_at_any_depth():
    from benchmark_leaderboard.read.canonical import canonical

    row = {"b": "x\ny", "a": 0.1, "c": None, "d": True, "e": -3, "f": "é\u2028<", "g": float("nan")}
    document = {"rows": [row, {}], "suites": [{"families": [{"rows": [row]}]}], "k": [[row]], "n": {"m": row}}

    assert canonical(document) == (json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode()
    assert canonical(row) == (json.dumps(row, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode()
