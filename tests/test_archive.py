"""Which files of the reports folder are read, in which order, and which of them are reports."""

from __future__ import annotations

import json
import os

import pytest
from conftest import report

from benchmark_leaderboard.read.archive import MAX_DEPTH, json_paths
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


def test_a_truncated_string_is_named_where_it_starts_and_at_is_said_once(archive):
    reports = archive({"a.report.json": report(), "aux.json": '{\n  "suite": "gold'})
    assert refusal(reports) == ["aux.json: is not valid JSON: Unterminated string starting at line 2 column 12"]


def test_paths_are_sorted_in_posix_order_of_the_relative_path(archive):
    files = ["b.json", "a/z.json", "a.json", "A.json", "a-b.json", "a/b/c.json", "é.json", "Z/a.json", "_.json"]
    reports = archive({name: [] for name in reversed(files)})
    assert json_paths(str(reports)) == (sorted(files), [])
    assert json_paths(str(reports))[0] == ["A.json", "Z/a.json", "_.json", "a-b.json", "a.json", "a/b/c.json", "a/z.json", "b.json", "é.json"]


def test_symlinked_files_and_folders_are_never_followed(archive, tmp_path):
    outside = archive({"secret.report.json": report(model_name="OpenMed/outside"), "broken.json": "{"}, name="outside")
    reports = archive({"inside.report.json": report()})
    os.symlink(outside / "secret.report.json", reports / "linked.report.json")
    os.symlink(outside / "broken.json", reports / "broken.json")
    os.symlink(outside, reports / "linked-folder")
    os.symlink(reports, reports / "loop")
    os.symlink(tmp_path / "nowhere.report.json", reports / "dangling.report.json")
    assert json_paths(str(reports)) == (["inside.report.json"], [])
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
    assert refusal(reports) == [f"deep.json: is not usable JSON: nested more than {MAX_DEPTH} levels deep"]


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


def test_a_fifo_named_like_a_report_is_refused_by_name_without_being_opened(archive):
    reports = archive({"a.report.json": report()})
    os.mkfifo(reports / "x.report.json")  # opening it for reading would wait for a writer forever
    os.mkfifo(reports / "aux.json")
    assert refusal(reports) == [
        "aux.json: is a FIFO named like a JSON file; only regular files are read",
        "x.report.json: is a FIFO named like a JSON file; only regular files are read",
    ]


def test_a_device_named_like_a_report_is_refused_by_name(archive):
    reports = archive({"a.report.json": report()})
    os.symlink("/dev/zero", reports / "linked.report.json")  # a link: never followed, so not read
    if os.geteuid() == 0:
        os.mknod(reports / "zero.report.json", 0o600 | __import__("stat").S_IFCHR, os.makedev(1, 5))
        assert refusal(reports) == ["zero.report.json: is a character device named like a JSON file; only regular files are read"]
    else:
        assert ranked_paths(reports) == ["a.report.json"]


def test_a_folder_that_cannot_be_listed_is_one_problem(archive, monkeypatch):
    from benchmark_leaderboard.read import archive as archive_module

    reports = archive({"a.report.json": report(), "locked/b.report.json": report()})
    real_scandir = os.scandir

    def scandir(path):  # as for a folder without read permission (root reads any folder)
        if os.path.basename(path) == "locked":
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.setattr(archive_module.os, "scandir", scandir)
    assert refusal(reports) == ["locked: is a folder that cannot be listed: Permission denied"]


def test_a_file_name_with_a_line_break_stays_on_one_line(archive):
    reports = archive({"a.report.json": report(), "bad\nname.report.json": report(suite="")})
    assert refusal(reports) == ["bad\\nname.report.json: /suite: must not be empty or only white space"]


def nested(depth: int) -> bytes:
    """A valid report whose "deep" field nests arrays so that the report has ``depth`` levels."""
    text = json.dumps(report())
    return (text[:-1] + ', "deep": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}").encode()


def test_nesting_is_published_up_to_the_limit_and_refused_beyond_it(archive):
    reports = archive({"a.report.json": nested(MAX_DEPTH)})
    assert ranked_paths(reports) == ["a.report.json"]
    reports = archive({"a.report.json": nested(MAX_DEPTH + 1)}, name="deeper")
    assert refusal(reports) == [f"a.report.json: is not usable JSON: nested more than {MAX_DEPTH} levels deep"]


def test_a_deep_report_gets_the_same_answer_alone_or_among_many_and_however_deep_the_stack(archive):
    import sys

    alone = archive({"a.report.json": nested(MAX_DEPTH)}, name="alone")
    many = archive({**{f"r{i:03d}.report.json": report(model_name=f"OpenMed/m{i}") for i in range(300)},
                    "a.report.json": nested(MAX_DEPTH)}, name="many")
    from core_support import build

    def deep_call(levels: int):
        return deep_call(levels - 1) if levels else build(many, workers=2)

    assert "a.report.json" in ranked_paths(alone)
    assert "a.report.json" in [row.report_path for row in deep_call(sys.getrecursionlimit() // 2).rows]
