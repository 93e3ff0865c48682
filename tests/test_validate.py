"""The required fields of a report candidate and the type rule of each, as exact problem lines."""

from __future__ import annotations

import pytest
from conftest import report

from core_support import only_row, refusal


def without(key: str, payload: dict | None = None) -> dict:
    payload = payload or report()
    del payload[key]
    return payload


@pytest.mark.parametrize("key", ["suite", "model_name", "device", "fixture_count", "metrics", "metadata"])
def test_each_required_field_must_be_present(archive, key):
    lines = refusal(archive({"a.report.json": without(key)}))
    assert f"a.report.json: /{key}: is required" in lines


@pytest.mark.parametrize("key", ["suite", "model_name", "device"])
@pytest.mark.parametrize("value, rule", [
    ("", "must not be empty or only white space"),
    (" \t\n", "must not be empty or only white space"),
    (5, "must be a string"),
    (None, "must be a string"),
    (["cpu"], "must be a string"),
    (True, "must be a string, not true"),
])
def test_text_fields_must_be_non_empty_strings(archive, key, value, rule):
    assert refusal(archive({"a.report.json": report(**{key: value})})) == [f"a.report.json: /{key}: {rule}"]


def test_text_fields_are_published_with_white_space_stripped(archive):
    row = only_row(archive({"a.report.json": report(suite=" golden\n", model_name="\tOpenMed/model-a ", device="  cpu  ")}))
    assert (row["suite"], row["model_name"], row["device"]) == ("golden", "OpenMed/model-a", "cpu")


@pytest.mark.parametrize("value, rule", [
    (0, "must be at least 1"),
    (-3, "must be at least 1"),
    (True, "must be an integer, not true"),
    (False, "must be an integer, not false"),
    (2.0, "must be an integer"),
    (1.5, "must be an integer"),
    ("3", "must be an integer"),
    (None, "must be an integer"),
])
def test_fixture_count_must_be_a_positive_integer_not_a_boolean(archive, value, rule):
    assert refusal(archive({"a.report.json": report(fixture_count=value)})) == [f"a.report.json: /fixture_count: {rule}"]


@pytest.mark.parametrize("count", [1, 10**30])
def test_any_positive_integer_is_a_fixture_count(archive, count):
    assert only_row(archive({"a.report.json": report(fixture_count=count)}))["report_path"] == "a.report.json"


@pytest.mark.parametrize("value, rule", [([], "must be a JSON object"), (None, "must be a JSON object"), ("{}", "must be a JSON object")])
def test_metrics_must_be_an_object(archive, value, rule):
    assert refusal(archive({"a.report.json": report(metrics=value)})) == [f"a.report.json: /metrics: {rule}"]


def test_metadata_must_be_an_object_and_nothing_is_filled_from_anything_else(archive):
    assert refusal(archive({"a.report.json": report(metadata=["synthetic"])})) == [
        "a.report.json: /metadata: must be a JSON object",
        "a.report.json: /metadata/model_family: model family: none given; set metadata.model_family or metadata.family, or a family in the models.jsonl row whose repo_id is the model_name",
        "a.report.json: /metadata/release_tag: release tag: none given; set metadata.release_tag or metadata.release, or build with --release-tag",
        "a.report.json: /metadata/reproducibility_hash: reproducibility hash: none given; set metadata.reproducibility_hash or metadata.repro_hash, or a reproducibility_hash in the models.jsonl row",
    ]


def test_generated_at_may_be_null_or_absent_when_run_date_is_given(archive):
    dated = report(generated_at=None, metadata={"run_date": "2026-02-03"})
    undated = without("generated_at", report(metadata={"run_date": "2026-02-04"}))
    assert only_row(archive({"a.report.json": dated}, name="dated"))["run_date"] == "2026-02-03"
    assert only_row(archive({"a.report.json": undated}, name="undated"))["run_date"] == "2026-02-04"


@pytest.mark.parametrize("value, shown", [(20260614, "20260614"), (True, "True"), ({"date": "2026-06-14"}, "{'date': '2026-06-14'}")])
def test_generated_at_must_be_a_string_or_null(archive, value, shown):
    rule = "must be a string or null, not true" if value is True else "must be a string or null"
    assert refusal(archive({"a.report.json": report(generated_at=value)})) == [
        f"a.report.json: /generated_at: {rule}",
        f"a.report.json: /generated_at: run date: {shown} from /generated_at is not an ISO 8601 date or date-time; set metadata.run_date or generated_at",
    ]


@pytest.mark.parametrize("value", ["true", 1, 1.0, False, None, "yes", [True], {"value": True}])
def test_synthetic_must_be_exactly_true(archive, value):
    assert refusal(archive({"a.report.json": report(metadata={"synthetic": value})})) == [
        "a.report.json: /metadata/synthetic: must be exactly true: only reports marked synthetic are published"
    ]


def test_synthetic_must_be_present(archive):
    payload = report()
    del payload["metadata"]["synthetic"]
    assert refusal(archive({"a.report.json": payload})) == ["a.report.json: /metadata/synthetic: is required"]


def test_every_problem_of_one_file_is_listed_in_pointer_order(archive):
    payload = without("metrics", report(suite="", fixture_count=0, device=None, metadata={"synthetic": "true"}))
    assert refusal(archive({"a.report.json": payload})) == [
        "a.report.json: /device: must be a string",
        "a.report.json: /fixture_count: must be at least 1",
        "a.report.json: /metadata/synthetic: must be exactly true: only reports marked synthetic are published",
        "a.report.json: /metrics: is required",
        "a.report.json: /suite: must not be empty or only white space",
    ]


def test_a_problem_names_the_file_by_its_path_relative_to_the_reports_folder(archive):
    payload = report(metrics={"leakage": {"overall": 2}})
    assert refusal(archive({"sub dir/a~b.report.json": payload})) == [
        "sub dir/a~b.report.json: /metrics/leakage/overall: leakage must be a number from 0 to 1, found 2"
    ]
