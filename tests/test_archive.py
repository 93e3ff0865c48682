"""Which files of the reports folder are read, in which order, and which of them are reports."""

from __future__ import annotations

import json
import os

import pytest
from conftest import report

from benchmark_leaderboard.archive import json_paths, read_files
from core_support import published, ranked_paths, refusal


def test_every_report_json_is_a_candidate_even_without_report_keys(archive):
    reports = archive({"good.report.json": report(), "empty.report.json": {}})
    assert "empty.report.json: /suite: is required" in refusal(reports)


@pytest.mark.parametrize("payload", [[report()], "\"report\"", 3, None, True])  # a str is written as is
def test_a_report_json_that_is_not_an_object_is_refused(archive, payload):
    reports = archive({"good.report.json": report(), "odd.report.json": payload})
    assert refusal(reports) == ["odd.report.json: a file named *.report.json must hold a JSON object"]


@pytest.mark.parametrize("key", ["suite", "model_name", "fixture_count", "metrics"])
def test_other_json_with_one_report_key_is_a_candidate(archive, key):
    reports = archive({"good.report.json": report(), "other.json": {key: report()[key]}})
    lines = refusal(reports)
    assert lines and all(line.startswith("other.json: ") for line in lines)


def test_other_json_with_all_report_keys_is_published(archive):
    reports = archive({"a.report.json": report(), "plain.json": report(model_name="OpenMed/plain")})
    assert ranked_paths(reports) == ["a.report.json", "plain.json"]


@pytest.mark.parametrize("payload", [[report()], [], "\"text\"", 12, 0.5, None, False, {}, {"device": "cpu", "notes": "x"}])
def test_other_json_that_is_not_a_report_object_is_ignored(archive, payload):
    reports = archive({"a.report.json": report(), "aux.json": payload})
    assert ranked_paths(reports) == ["a.report.json"]


def test_leaderboard_json_is_skipped_at_any_depth(archive):
    reports = archive({"a.report.json": report(), "leaderboard.json": "{ not json", "old/leaderboard.json": {"suite": 1}})
    assert ranked_paths(reports) == ["a.report.json"]


def test_only_files_ending_in_json_are_read(archive):
    reports = archive({"a.report.json": report(), "notes.txt": "{", "b.report.json.bak": "{", "c.JSON": "{", "d.jsonl": "{"})
    assert ranked_paths(reports) == ["a.report.json"]


def test_hidden_files_and_folders_are_read_like_any_other(archive):
    reports = archive({".hidden.report.json": report(), ".dot/a.report.json": report()})
    assert ranked_paths(reports) == [".dot/a.report.json", ".hidden.report.json"]


def test_an_auxiliary_file_that_is_not_json_still_fails_the_build(archive):
    reports = archive({"a.report.json": report(), "aux.json": "{oops"})
    assert refusal(reports) == ["aux.json: is not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2"]


def test_paths_are_sorted_in_posix_order_of_the_relative_path(archive):
    files = ["b.json", "a/z.json", "a.json", "A.json", "a-b.json", "a/b/c.json", "é.json", "Z/a.json", "_.json"]
    reports = archive({name: [] for name in reversed(files)})
    assert json_paths(str(reports)) == sorted(files)
    assert json_paths(str(reports)) == ["A.json", "Z/a.json", "_.json", "a-b.json", "a.json", "a/b/c.json", "a/z.json", "b.json", "é.json"]


def test_symlinked_files_and_folders_are_never_followed(archive, tmp_path):
    outside = archive({"secret.report.json": report(model_name="OpenMed/outside"), "broken.json": "{"}, name="outside")
    reports = archive({"inside.report.json": report()})
    os.symlink(outside / "secret.report.json", reports / "linked.report.json")
    os.symlink(outside / "broken.json", reports / "broken.json")
    os.symlink(outside, reports / "linked-folder")
    os.symlink(reports, reports / "loop")
    os.symlink(tmp_path / "nowhere.report.json", reports / "dangling.report.json")
    paths = json_paths(str(reports))
    candidates, problems = read_files(str(reports), paths)
    assert [candidate.path for candidate in candidates] == ["inside.report.json"]
    assert problems == [] and len(paths) == 1
    assert ranked_paths(reports) == ["inside.report.json"]


def test_a_folder_named_like_a_json_file_fails_the_build(archive):
    reports = archive({"a.report.json": report(), "x.json/inner.report.json": report()})
    assert refusal(reports) == ["x.json: is a folder named like a JSON file; it cannot be read"]


def test_a_file_that_is_not_utf8_fails_the_build(archive):
    reports = archive({"a.report.json": report(), "latin1.json": '{"suite": "caf\u00e9"}'.encode("latin-1")})
    assert refusal(reports) == ["latin1.json: is not UTF-8 text (byte 14)"]


def test_a_utf8_byte_order_mark_is_not_json(archive):
    reports = archive({"a.report.json": b"\xef\xbb\xbf" + json.dumps(report()).encode()})
    assert refusal(reports) == ["a.report.json: is not valid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig) at line 1 column 1"]


def test_json_nested_too_deeply_is_one_problem_not_a_crash(archive):
    reports = archive({"a.report.json": report(), "deep.json": "[" * 100_000 + "]" * 100_000})
    assert refusal(reports) == ["deep.json: is not usable JSON: nested too deeply"]


def test_an_archive_without_json_files_is_refused(archive):
    reports = archive({"readme.txt": "nothing here"})
    assert refusal(reports) == [".: the reports folder holds no *.json file"]


def test_an_archive_without_candidates_is_refused(archive):
    reports = archive({"aux.json": {"notes": "no report"}, "list.json": []})
    assert refusal(reports) == [
        ".: the reports folder holds no report: no *.report.json file and no JSON object with suite, model_name, fixture_count or metrics"
    ]


def test_one_row_per_candidate(archive):
    reports = archive({f"r{index}.report.json": report() for index in range(3)} | {"same.json": report()})
    assert published(reports)["row_count"] == 4
