"""Filling a row: every fallback of the contract's table, the manifest, and the value rules."""

from __future__ import annotations

import pytest
from conftest import HASH, report

from core_support import only_row, refusal, write_manifest

OTHER_HASH = "sha256:" + "0123456789abcdef" * 4
MODEL = "OpenMed/model-a"


def meta(drop: tuple[str, ...] = (), **metadata) -> dict:
    """A valid report without the metadata keys ``drop`` and with ``metadata`` merged in."""
    payload = report()
    for key in drop:
        del payload["metadata"][key]
    payload["metadata"].update(metadata)
    return payload


def with_metrics(metrics: dict) -> dict:
    payload = report()
    payload["metrics"] = metrics
    return payload


# model_family: metadata.model_family, metadata.family, the manifest row's family

@pytest.mark.parametrize("metadata, family", [
    ({"model_family": "PII", "family": "NER"}, "PII"),
    ({"model_family": "", "family": "NER"}, "NER"),
    ({"model_family": None, "family": "NER"}, "NER"),
    ({"family": " NER "}, "NER"),
])
def test_family_from_metadata(archive, tmp_path, metadata, family):
    payload = meta(drop=("model_family",), **metadata)
    manifest = write_manifest(tmp_path / "models.jsonl", {"repo_id": MODEL, "family": "Manifest"})
    assert only_row(archive({"a.report.json": payload}), manifest)["model_family"] == family


def test_family_from_the_manifest_row_of_the_model(archive, tmp_path):
    manifest = write_manifest(tmp_path / "models.jsonl", {"repo_id": "OpenMed/other", "family": "Other"},
                              {"repo_id": MODEL, "family": " Manifest "})
    assert only_row(archive({"a.report.json": meta(drop=("model_family",))}), manifest)["model_family"] == "Manifest"


def test_family_missing_everywhere_is_refused(archive, tmp_path):
    manifest = write_manifest(tmp_path / "models.jsonl", {"repo_id": "OpenMed/other", "family": "Other"})
    assert refusal(archive({"a.report.json": meta(drop=("model_family",))}), manifest) == [
        "a.report.json: /metadata/model_family: model family: none given; set metadata.model_family or metadata.family, or a family in the models.jsonl row whose repo_id is the model_name"
    ]


@pytest.mark.parametrize("value, shown", [("  ", '"  "'), (7, "7"), (["PII"], "['PII']")])
def test_a_family_that_is_set_but_not_text_is_refused_not_skipped(archive, tmp_path, value, shown):
    manifest = write_manifest(tmp_path / "models.jsonl", {"repo_id": MODEL, "family": "Manifest"})
    assert refusal(archive({"a.report.json": meta(model_family=value, family="NER")}), manifest) == [
        f"a.report.json: /metadata/model_family: model family: {shown} from /metadata/model_family is not a non-empty string; set metadata.model_family or metadata.family, or a family in the models.jsonl row whose repo_id is the model_name"
    ]


def test_a_manifest_family_that_is_not_text_is_refused(archive, tmp_path):
    manifest = write_manifest(tmp_path / "models.jsonl", {"repo_id": MODEL, "family": ""})
    assert refusal(archive({"a.report.json": meta(drop=("model_family",))}), manifest) == [
        'a.report.json: model family: "" from the models.jsonl (OpenMed/model-a) row is not a non-empty string; set metadata.model_family or metadata.family, or a family in the models.jsonl row whose repo_id is the model_name'
    ]


# release_tag: metadata.release_tag, metadata.release, the --release-tag fallback

@pytest.mark.parametrize("metadata, fallback, tag", [
    ({"release_tag": "v1", "release": "v2"}, "v3", "v1"),
    ({"release_tag": "", "release": "v2"}, "v3", "v2"),
    ({"release": " v2 "}, "v3", "v2"),
    ({}, "v3", "v3"),
    ({"release_tag": None, "release": ""}, " v3 ", "v3"),
])
def test_release_tag_and_its_fallback(archive, metadata, fallback, tag):
    payload = meta(drop=("release_tag",), **metadata)
    assert only_row(archive({"a.report.json": payload}), release_tag=fallback)["release_tag"] == tag


def test_release_tag_missing_without_a_fallback_is_refused(archive):
    assert refusal(archive({"a.report.json": meta(drop=("release_tag",))})) == [
        "a.report.json: /metadata/release_tag: release tag: none given; set metadata.release_tag or metadata.release, or build with --release-tag"
    ]


def test_a_blank_release_tag_fallback_is_refused(archive):
    assert refusal(archive({"a.report.json": meta(drop=("release_tag",))}), release_tag=" ") == [
        'a.report.json: release tag: " " from --release-tag is not a non-empty string; set metadata.release_tag or metadata.release, or build with --release-tag'
    ]


# run_date: metadata.run_date, generated_at; the calendar date as written

@pytest.mark.parametrize("written, date", [
    ("2026-06-14T23:30:00Z", "2026-06-14"),
    ("2026-06-14T23:30:00+00:00", "2026-06-14"),
    ("2026-06-14T23:30:00-05:00", "2026-06-14"),
    ("2026-06-14T00:30:00+14:00", "2026-06-14"),
    ("2026-06-14T10:00:00.123456Z", "2026-06-14"),
    ("2026-06-14 10:00", "2026-06-14"),
    ("2026-06-14T10", "2026-06-14"),
    ("2026-06-14", "2026-06-14"),
    ("20260614", "2026-06-14"),
    ("2026-W24-7", "2026-06-14"),
    (" 2026-06-14 ", "2026-06-14"),
])
def test_run_date_is_the_calendar_date_as_written(archive, written, date):
    assert only_row(archive({"a.report.json": report(generated_at=written)}))["run_date"] == date


def test_metadata_run_date_comes_before_generated_at(archive):
    payload = report(generated_at="2026-06-14T00:00:00Z", metadata={"run_date": "2025-01-02"})
    assert only_row(archive({"a.report.json": payload}))["run_date"] == "2025-01-02"


def test_an_empty_metadata_run_date_falls_back_to_generated_at(archive):
    payload = report(generated_at="2026-06-14T00:00:00Z", metadata={"run_date": ""})
    assert only_row(archive({"a.report.json": payload}))["run_date"] == "2026-06-14"


@pytest.mark.parametrize("written", ["June 14 2026", "2026-06-14T00:00:00z", "2026-13-01", "14/06/2026", "  "])
def test_an_unreadable_generated_at_is_refused(archive, written):
    assert refusal(archive({"a.report.json": report(generated_at=written)})) == [
        f'a.report.json: /generated_at: run date: "{written}" from /generated_at is not an ISO 8601 date or date-time; set metadata.run_date or generated_at'
    ]


def test_an_unreadable_metadata_run_date_is_refused_not_skipped(archive):
    payload = report(generated_at="2026-06-14", metadata={"run_date": "yesterday"})
    assert refusal(archive({"a.report.json": payload})) == [
        'a.report.json: /metadata/run_date: run date: "yesterday" from /metadata/run_date is not an ISO 8601 date or date-time; set metadata.run_date or generated_at'
    ]


def test_no_run_date_at_all_is_refused(archive):
    assert refusal(archive({"a.report.json": report(generated_at=None)})) == [
        "a.report.json: /metadata/run_date: run date: none given; set metadata.run_date or generated_at"
    ]


# reproducibility_hash: metadata.reproducibility_hash, metadata.repro_hash, the manifest row's

@pytest.mark.parametrize("metadata, digest", [
    ({"reproducibility_hash": HASH, "repro_hash": OTHER_HASH}, HASH),
    ({"reproducibility_hash": "", "repro_hash": OTHER_HASH}, OTHER_HASH),
    ({"repro_hash": OTHER_HASH}, OTHER_HASH),
])
def test_hash_from_metadata(archive, tmp_path, metadata, digest):
    manifest = write_manifest(tmp_path / "models.jsonl", {"repo_id": MODEL, "reproducibility_hash": "sha256:" + "f" * 64})
    payload = meta(drop=("reproducibility_hash",), **metadata)
    assert only_row(archive({"a.report.json": payload}), manifest)["reproducibility_hash"] == digest


def test_hash_from_the_manifest(archive, tmp_path):
    manifest = write_manifest(tmp_path / "models.jsonl", {"repo_id": MODEL, "reproducibility_hash": OTHER_HASH})
    payload = meta(drop=("reproducibility_hash",))
    assert only_row(archive({"a.report.json": payload}), manifest)["reproducibility_hash"] == OTHER_HASH


@pytest.mark.parametrize("digest", [
    "sha256:" + "AB" * 32, "sha256:" + "ab" * 31, "sha256:" + "ab" * 33, "SHA256:" + "ab" * 32,
    " " + HASH, HASH + "\n", "md5:" + "ab" * 16, "ab" * 32,
])
def test_a_hash_must_be_sha256_and_64_lower_case_hex_digits(archive, tmp_path, digest):
    # A bad hash in the report is refused even when the manifest holds a good one.
    manifest = write_manifest(tmp_path / "models.jsonl", {"repo_id": MODEL, "reproducibility_hash": HASH})
    lines = refusal(archive({"a.report.json": meta(reproducibility_hash=digest)}), manifest)
    assert len(lines) == 1
    assert lines[0].startswith("a.report.json: /metadata/reproducibility_hash: reproducibility hash: ")
    assert "is not sha256: and 64 lower-case hex digits" in lines[0]


def test_a_bad_hash_in_the_manifest_is_refused(archive, tmp_path):
    manifest = write_manifest(tmp_path / "models.jsonl", {"repo_id": MODEL, "reproducibility_hash": "sha256:abc"})
    assert refusal(archive({"a.report.json": meta(drop=("reproducibility_hash",))}), manifest) == [
        'a.report.json: reproducibility hash: "sha256:abc" from the models.jsonl (OpenMed/model-a) row is not sha256: and 64 lower-case hex digits; set metadata.reproducibility_hash or metadata.repro_hash, or a reproducibility_hash in the models.jsonl row'
    ]


# the manifest

def test_manifest_blank_lines_are_skipped_and_a_later_row_wins(archive, tmp_path):
    manifest = write_manifest(tmp_path / "models.jsonl", "", {"repo_id": MODEL, "family": "First"}, "   ", "",
                              {"repo_id": MODEL, "family": "Second"}, "\t")
    assert only_row(archive({"a.report.json": meta(drop=("model_family",))}), manifest)["model_family"] == "Second"


def test_manifest_lines_that_are_not_json_objects_are_named_by_line_number(archive, tmp_path):
    manifest = write_manifest(tmp_path / "catalog.jsonl", {"repo_id": "x"}, "", "{oops", "[1, 2]", "", "", "", "", "", "", "nope")
    reports = archive({"a.report.json": report(), "b.report.json": report(suite="")})
    assert refusal(reports, manifest) == [
        "catalog.jsonl line 3: is not valid JSON: Expecting property name enclosed in double quotes",
        "catalog.jsonl line 4: must be a JSON object",
        "catalog.jsonl line 11: is not valid JSON: Expecting value",
        "b.report.json: /suite: must not be empty or only white space",
    ]


def test_a_missing_manifest_means_no_fallbacks(archive, tmp_path):
    reports = archive({"a.report.json": report(), "b.report.json": meta(drop=("model_family",))})
    assert refusal(reports, tmp_path / "absent.jsonl") == [
        "b.report.json: /metadata/model_family: model family: none given; set metadata.model_family or metadata.family, or a family in the models.jsonl row whose repo_id is the model_name"
    ]
    assert only_row(archive({"a.report.json": report()}, name="valid"), tmp_path / "absent.jsonl")["model_family"] == "PII"


def test_the_manifest_row_is_the_one_whose_repo_id_equals_model_name_exactly(archive, tmp_path):
    manifest = write_manifest(tmp_path / "models.jsonl", {"repo_id": "openmed/model-a", "family": "Lower"},
                              {"repo_id": MODEL + " ", "family": "Spaced"}, {"family": "NoId"})
    assert refusal(archive({"a.report.json": meta(drop=("model_family",))}), manifest)[0].startswith(
        "a.report.json: /metadata/model_family: model family: none given")


# metrics: leakage, recall, f1

LEAKAGE_KEYS = [
    ({"leakage": {"overall": 0.11}, "leakage_rate": {"overall": 0.22}}, 0.11),
    ({"leakage_rate": {"overall": 0.22}, "critical_leakage_rate": 0.44}, 0.22),
    ({"leakage_rate": 0.33, "critical_leakage_rate": 0.44}, 0.33),
    ({"critical_leakage_rate": 0.44}, 0.44),
    ({"leakage": {"overall": None}, "leakage_rate": 0.33}, 0.33),
    ({"leakage": 0.9, "critical_leakage_rate": 0.44}, 0.44),  # leakage is not an object: no leakage.overall
]
RECALL_KEYS = [
    ({"exact_span_f1": {"recall": 0.11}, "span": {"recall": 0.22}}, 0.11),
    ({"span": {"recall": 0.22}, "micro": {"recall": 0.33}}, 0.22),
    ({"micro": {"recall": 0.33}, "recall": 0.44}, 0.33),
    ({"recall": 0.44}, 0.44),
    ({"exact_span_f1": {"recall": None}, "recall": 0.44}, 0.44),
]
F1_KEYS = [
    ({"exact_span_f1": {"f1": 0.11}, "span": {"f1": 0.22}}, 0.11),
    ({"span": {"f1": 0.22}, "micro": {"f1": 0.33}}, 0.22),
    ({"micro": {"f1": 0.33}, "micro_f1": 0.44}, 0.33),
    ({"micro_f1": 0.44, "f1": 0.55}, 0.44),
    ({"f1": 0.55}, 0.55),
    ({"micro_f1": None, "f1": 0.55}, 0.55),
]
OTHERS = {"leakage": {"leakage_rate": 0.5}, "recall": {"recall": 0.5}, "f1": {"f1": 0.5}}


def _metrics_with(field: str, metrics: dict) -> dict:
    merged = {key: value for name, other in OTHERS.items() if name != field for key, value in other.items()}
    return with_metrics({**merged, **metrics})


@pytest.mark.parametrize("field, metrics, value", [("leakage", *case) for case in LEAKAGE_KEYS]
                         + [("recall", *case) for case in RECALL_KEYS] + [("f1", *case) for case in F1_KEYS])
def test_each_metric_is_the_first_key_present_in_order(archive, field, metrics, value):
    assert only_row(archive({"a.report.json": _metrics_with(field, metrics)}))[field] == value


@pytest.mark.parametrize("value", [0, 1, -0.0, 0.0, 1.0, 1e-300])
def test_metric_values_are_published_as_floats(archive, value):
    row = only_row(archive({"a.report.json": _metrics_with("leakage", {"leakage_rate": value})}))
    assert row["leakage"] == value and isinstance(row["leakage"], float)


@pytest.mark.parametrize("field, paths", [
    ("leakage", "metrics.leakage.overall, metrics.leakage_rate.overall, metrics.leakage_rate, metrics.critical_leakage_rate"),
    ("recall", "metrics.exact_span_f1.recall, metrics.span.recall, metrics.micro.recall, metrics.recall"),
    ("f1", "metrics.exact_span_f1.f1, metrics.span.f1, metrics.micro.f1, metrics.micro_f1, metrics.f1"),
])
def test_a_missing_metric_is_refused_naming_every_key_looked_for(archive, field, paths):
    assert refusal(archive({"a.report.json": _metrics_with(field, {"other": 0.5})})) == [
        f"a.report.json: /metrics: {field} is missing: expected a value at {paths}"
    ]


@pytest.mark.parametrize("written, shown", [
    ("1.5", "1.5"), ("-0.1", "-0.1"), ("true", "True"), ("false", "False"), ('"0.1"', '"0.1"'),
    ("NaN", "nan"), ("Infinity", "inf"), ("-Infinity", "-inf"), ("1e400", "inf"), ("[0.1]", "[0.1]"), ('{"overall": 0.1}', "{'overall': 0.1}"),
    ("2" + "0" * 400, "2" + "0" * 36 + "..."),
])
def test_a_metric_must_be_a_finite_number_from_0_to_1_and_the_first_present_key_decides(archive, written, shown):
    text = ('{"suite": "golden", "model_name": "m", "device": "cpu", "fixture_count": 1, "generated_at": "2026-01-01", '
            f'"metadata": {{"synthetic": true, "model_family": "PII", "release_tag": "v1", "reproducibility_hash": "{HASH}"}}, '
            f'"metrics": {{"leakage": {{"overall": {written}}}, "leakage_rate": 0.1, "recall": 0.5, "f1": 0.5}}}}')
    assert refusal(archive({"a.report.json": text})) == [
        f"a.report.json: /metrics/leakage/overall: leakage must be a number from 0 to 1, found {shown}"
    ]


def test_problems_of_several_metrics_are_all_listed(archive):
    assert refusal(archive({"a.report.json": with_metrics({"recall": 2, "f1": True})})) == [
        "a.report.json: /metrics: leakage is missing: expected a value at metrics.leakage.overall, metrics.leakage_rate.overall, metrics.leakage_rate, metrics.critical_leakage_rate",
        "a.report.json: /metrics/f1: f1 must be a number from 0 to 1, found True",
        "a.report.json: /metrics/recall: recall must be a number from 0 to 1, found 2",
    ]


def test_a_row_has_exactly_the_published_fields(archive):
    row = only_row(archive({"sub/a.report.json": report(notes="not published", metrics={"precision": 0.7})}))
    assert row == {
        "device": "cpu", "f1": 0.8, "leakage": 0.1, "model_family": "PII", "model_name": MODEL, "recall": 0.9,
        "release_tag": "v1.0.0", "report_path": "sub/a.report.json", "report_url": "reports/sub/a.report.json",
        "reproducibility_hash": HASH, "run_date": "2026-06-14", "suite": "golden",
    }


def test_an_object_at_a_later_key_is_present_and_decides(archive):
    # leakage_rate.overall is null (absent), so leakage_rate itself is the first key present.
    payload = _metrics_with("leakage", {"leakage_rate": {"overall": None}, "critical_leakage_rate": 0.2})
    assert refusal(archive({"a.report.json": payload})) == [
        "a.report.json: /metrics/leakage_rate: leakage must be a number from 0 to 1, found {'overall': None}"
    ]


@pytest.mark.parametrize("path, url", [
    ("sub/a-b_c.~1.report.json", "reports/sub/a-b_c.~1.report.json"),  # nothing to quote: the path as it is
    ("my folder/a b.report.json", "reports/my%20folder/a%20b.report.json"),
    ("é/100%#?.report.json", "reports/%C3%A9/100%25%23%3F.report.json"),
    ("a+b=c&d.report.json", "reports/a%2Bb%3Dc%26d.report.json"),
])
def test_a_report_url_is_its_path_quoted_as_a_url(archive, path, url):
    assert only_row(archive({path: report()}))["report_url"] == url
