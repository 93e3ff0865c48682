"""The required fields of a report candidate and the type rule of each, as exact problem lines."""

from __future__ import annotations

import unicodedata

import pytest
from conftest import report

from core_support import only_row, refusal, write_manifest


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


# Every bidirectional control: the embeddings and overrides, the isolates, the marks.
BIDI_CONTROLS = [*map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A)), "\u200e", "\u200f", "\u061c"]


@pytest.mark.parametrize("control", BIDI_CONTROLS)
def test_a_name_holding_a_bidirectional_control_is_refused_in_one_line_naming_it(archive, control):
    # "evil" + U+202E + "gpj.exe" would read "evilexe.jpg", and reverse the rank printed after it.
    lines = refusal(archive({"a.report.json": report(model_name=f"evil{control}gpj.exe")}))
    name = unicodedata.name(control)
    assert lines == [f"a.report.json: /model_name: model_name holds U+{ord(control):04X} {name}, a bidirectional "
                     "control, which could reorder the text around it on a page: names may not hold one"]
    assert control not in "".join(lines)


@pytest.mark.parametrize("field, payload, pointer", [
    ("suite", {"suite": "clin\u202eical"}, "/suite"),
    ("device", {"device": "\u2067cpu"}, "/device"),
    ("model_family", {"metadata": {"model_family": "PII\u200f"}}, "/metadata/model_family"),
    ("release_tag", {"metadata": {"release_tag": "v1\u202d.0"}}, "/metadata/release_tag"),
])
def test_every_name_of_a_row_is_checked_for_bidirectional_controls(archive, field, payload, pointer):
    lines = refusal(archive({"a.report.json": report(**payload)}))
    assert len(lines) == 1 and lines[0].startswith(f"a.report.json: {pointer}: {field} holds U+")


def test_a_family_from_the_manifest_holding_a_bidirectional_control_is_refused(archive, tmp_path):
    payload = report(metadata={"model_family": None})
    manifest = write_manifest(tmp_path / "models.jsonl", {"repo_id": "OpenMed/model-a", "family": "PII\u202e"})
    assert refusal(archive({"a.report.json": payload}), manifest) == [
        "a.report.json: model_family (from its models.jsonl row) holds U+202E RIGHT-TO-LEFT OVERRIDE, a bidirectional "
        "control, which could reorder the text around it on a page: names may not hold one"]


def test_right_to_left_letters_and_other_text_in_names_are_published(archive):
    # Hebrew and Arabic letters are names like any other (the pages isolate every value), and so
    # are a zero-width joiner and a bidirectional control in a report's free text (its notes).
    name = "OpenMed/\u05de\u05d5\u05d3\u05dc-\u0646\u0645\u0648\u0630\u062c\u200d"
    row = only_row(archive({"a.report.json": report(model_name=name, metadata={"notes": "a\u202eb"})}))
    assert row["model_name"] == name
