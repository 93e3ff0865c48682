"""leaderboard.json is checked against its shipped schema before it is written."""

from __future__ import annotations

import copy
import json

import pytest

from core_support import build, leaderboard_bytes
from benchmark_leaderboard.problems import BuildRefused
from benchmark_leaderboard.read import validate
from conftest import report
from test_fast_validation import GOOD_ROW


def test_a_built_leaderboard_passes_its_schema(archive):
    board = build(archive({"a.report.json": report()}))

    assert validate.leaderboard_problems(json.loads(leaderboard_bytes(board))) == []


def test_every_violation_of_the_leaderboard_schema_is_named(archive):
    board = build(archive({"a.report.json": report()}))
    broken = copy.deepcopy(json.loads(leaderboard_bytes(board)))
    broken["rows"][0]["reproducibility_hash"] = "sha256:ABC"
    broken["rows"][0]["extra"] = 1
    broken["suites"][0]["families"][0]["rows"][0]["leakage"] = 1.5
    del broken["sort"]

    assert [str(problem) for problem in validate.leaderboard_problems(broken)] == [
        "leaderboard.json: /rows/0/extra: is not a field the schema allows",
        "leaderboard.json: /rows/0/reproducibility_hash: must match ^sha256:[0-9a-f]{64}$",
        "leaderboard.json: /sort: is required",
        "leaderboard.json: /suites/0/families/0/rows/0/leakage: must be at most 1",
    ]


def test_a_leaderboard_that_breaks_its_schema_is_never_written(archive, monkeypatch):
    def with_a_stray_field(rows, suites, first_only=False):
        text = b"".join(real_encoder(rows, suites, first_only))
        yield text[:-2] + b',\n  "generated": "today"\n}\n'

    from benchmark_leaderboard.decide import pipeline

    real_encoder = pipeline.leaderboard_json
    monkeypatch.setattr(pipeline, "leaderboard_json", with_a_stray_field)
    with pytest.raises(BuildRefused) as refused:
        build(archive({"a.report.json": report()}))

    assert refused.value.lines() == ["leaderboard.json: /generated: is not a field the schema allows"]


def _shared_rows(document):
    """The document as the build makes it: each family row is the very object in ``rows``."""
    by_path = {row["report_path"]: row for row in document["rows"]}
    for suite in document["suites"]:
        for family in suite["families"]:
            family["rows"] = [by_path[row["report_path"]] for row in family["rows"]]
    return document


def _two_row_board(archive):
    files = {"a.report.json": report(), "b.report.json": report(model_name="OpenMed/other")}
    board = build(archive(files))
    return _shared_rows(json.loads(leaderboard_bytes(board)))


def test_a_family_row_that_is_its_own_object_is_still_checked(archive):
    document = _two_row_board(archive)
    family = document["suites"][0]["families"][0]
    family["rows"][1] = {**family["rows"][1], "recall": -0.5}  # no longer one of the checked rows

    assert [str(problem) for problem in validate.leaderboard_problems(document)] == [
        "leaderboard.json: /suites/0/families/0/rows/1/recall: must be at least 0",
    ]


def test_a_family_without_rows_is_refused_when_the_rows_are_shared(archive):
    document = _two_row_board(archive)
    document["suites"][0]["families"][0]["rows"] = []

    assert [str(problem) for problem in validate.leaderboard_problems(document)] == [
        "leaderboard.json: /suites/0/families/0/rows: breaks the schema rule 'minItems'",
    ]


def test_shared_rows_are_checked_once_and_broken_ones_in_both_places(archive):
    document = _two_row_board(archive)
    document["rows"][1]["f1"] = 2

    assert [str(problem) for problem in validate.leaderboard_problems(document)] == [
        "leaderboard.json: /rows/1/f1: must be at most 1",
        "leaderboard.json: /suites/0/families/0/rows/1/f1: must be at most 1",
    ]


def test_valid_rows_do_not_hide_a_broken_skeleton(archive):
    document = _two_row_board(archive)
    assert validate.rows_valid(document["rows"])
    document["row_count"] = 0

    assert [str(problem) for problem in validate.leaderboard_problems(document)] == [
        "leaderboard.json: /row_count: must be at least 1",
    ]


def test_a_row_that_breaks_the_row_definition_is_not_valid():
    row = {**json.loads(json.dumps(GOOD_ROW)), "run_date": "2026-6-14"}

    assert validate.rows_valid([GOOD_ROW]) and not validate.rows_valid([GOOD_ROW, row])
