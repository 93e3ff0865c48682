"""The compiled validators give the verdicts of jsonschema with the shipped schemas, and what the
build writes as leaderboard.json is valid against the shipped schema."""

from __future__ import annotations

import copy
import json
import random

import fastjsonschema

import pytest

from conftest import HASH, ROOT, report, write_archive

from benchmark_leaderboard.read import validate
from core_support import build as build_leaderboard, leaderboard_bytes

GOOD_ROW = {
    "suite": "golden", "model_family": "PII", "model_name": "OpenMed/a", "device": "cpu", "leakage": 0.1,
    "recall": 0.9, "f1": 0.8, "release_tag": "v1", "run_date": "2026-06-14", "reproducibility_hash": HASH,
    "report_path": "a.report.json", "report_url": "reports/a.report.json",
}


def leaderboard_with(**row_changes):
    row = {**GOOD_ROW, **row_changes}
    return {"row_count": 1, "rows": [row], "schema_version": 1, "sort": ["leakage:asc", "recall:desc"],
            "suites": [{"name": "golden", "families": [{"name": "PII", "rows": [copy.deepcopy(row)]}]}]}


REPORTS = [
    report(),
    report(suite=""), report(suite="   "), report(suite=7), report(model_name=None), report(device="\t"),
    report(fixture_count=True), report(fixture_count=1.0), report(fixture_count=0), report(fixture_count="3"),
    report(metrics=[]), report(generated_at=5), report(generated_at=None),
    report(metadata={"synthetic": "true"}), report(metadata={"synthetic": 1}), report(metadata={"synthetic": False}),
    report(metadata=[]), {"suite": "only"}, [], "text", None,
]
LEADERBOARDS = [
    leaderboard_with(),
    leaderboard_with(suite=" golden"), leaderboard_with(model_family=""), leaderboard_with(device="cpu\n"),
    leaderboard_with(leakage=1.5), leaderboard_with(recall=-0.1), leaderboard_with(f1="0.8"),
    leaderboard_with(run_date="2026-6-14"), leaderboard_with(reproducibility_hash="sha256:AB"),
    leaderboard_with(report_path="a.txt"), leaderboard_with(report_url="a.json"), leaderboard_with(extra=1),
    {**leaderboard_with(), "row_count": 0}, {**leaderboard_with(), "sort": ["recall:desc"]},
    {**leaderboard_with(), "suites": [{"name": "  ", "families": []}]},
]


def compiled_accepts(name, document):
    try:
        validate.compiled(name)(document)
        return True
    except fastjsonschema.JsonSchemaException:
        return False


@pytest.mark.parametrize("name, document", [(validate.REPORT_SCHEMA, d) for d in REPORTS]
                         + [(validate.LEADERBOARD_SCHEMA, d) for d in LEADERBOARDS])
def test_compiled_validator_agrees_with_the_shipped_schema(name, document):
    assert compiled_accepts(name, document) == validate.validator(name).is_valid(document)


def test_the_cases_above_include_rejections_of_every_kind():
    verdicts = [validate.validator(validate.REPORT_SCHEMA).is_valid(d) for d in REPORTS]
    assert verdicts.count(True) == 2  # the plain report and the one with generated_at null
    verdicts = [validate.validator(validate.LEADERBOARD_SCHEMA).is_valid(d) for d in LEADERBOARDS]
    assert verdicts.count(True) == 1


ODD_VALUES = [None, True, False, 0, 1, -1, 1.0, 0.5, 2**64, float("nan"), "", " ", "x", "\u00a0", "\n", [], [1], {},
              {"synthetic": True}, {"synthetic": 1}, {"synthetic": 1.0}, {"synthetic": "true"}]


def test_compiled_validator_agrees_on_two_thousand_mutated_reports():
    """Each shipped-schema field of a good report replaced or removed at random, one to three at a time."""
    pick = random.Random(20261130)
    keys = ["suite", "model_name", "device", "fixture_count", "metrics", "generated_at", "metadata", "extra"]
    agreed, refused = 0, 0
    for _ in range(2000):
        document = report()
        for key in pick.sample(keys, pick.randint(1, 3)):
            if pick.random() < 0.2:
                document.pop(key, None)
            else:
                document[key] = copy.deepcopy(pick.choice(ODD_VALUES))
        expected = validate.validator(validate.REPORT_SCHEMA).is_valid(document)
        assert compiled_accepts(validate.REPORT_SCHEMA, document) == expected, document
        agreed += 1
        refused += not expected
    assert 500 < refused < agreed - 100  # both verdicts were exercised


def test_built_leaderboard_json_is_valid_against_the_shipped_schema(tmp_path):
    files = {f"s{i % 3}/r{i}.report.json": report(suite=f"  suite {i % 3} ", model_name=f"OpenMed/m{i}",
                                                  metadata={"model_family": ["PII", "NER"][i % 2]},
                                                  metrics={"leakage": {"overall": i / 40}})
             for i in range(24)}
    for reports_dir in (write_archive(tmp_path / "reports", files), ROOT / "content" / "benchmarks"):
        built = build_leaderboard(reports_dir, ROOT / "models.jsonl", "v3.1.0")
        published = json.loads(leaderboard_bytes(built))
        assert list(validate.validator(validate.LEADERBOARD_SCHEMA).iter_errors(published)) == []
        assert published["row_count"] == len(built.rows)
