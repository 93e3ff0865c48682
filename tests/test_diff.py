"""`invoke diff OLD NEW`: what changed between two leaderboards, row by row, on hand-made pairs."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from urllib.parse import quote

import pytest

from conftest import HASH, ROOT, run_invoke
from tasks_support import git

from benchmark_leaderboard.decide.comparison import KIND_KEYS, Identity, compare
from benchmark_leaderboard.present.change_kinds import KINDS
from benchmark_leaderboard.read import validate
from benchmark_leaderboard.versions import version_key
from leaderboard_tools import diff

OTHER_HASH = "sha256:" + "cd" * 32


def row(suite: str, model: str, device: str, leakage: float, recall: float, f1: float, tag: str = "v1.0.0",
        path: str | None = None, family: str = "PII", run_date: str = "2026-06-14", digest: str = HASH) -> dict:
    """A leaderboard row; its report path is made from its identity unless given."""
    path = path or f"{suite}/{model.rsplit('/', 1)[-1]}-{device}.report.json"
    return {"suite": suite, "model_family": family, "model_name": model, "device": device, "leakage": leakage,
            "recall": recall, "f1": f1, "release_tag": tag, "run_date": run_date, "reproducibility_hash": digest,
            "report_path": path, "report_url": "reports/" + quote(path)}


def leaderboard(*rows: dict) -> dict:
    """A valid schema v1 document of these rows, ranked and grouped as the contract says."""
    ranked = sorted(rows, key=lambda r: (r["leakage"], -r["recall"], r["suite"].casefold(), r["model_family"].casefold(),
                                         r["model_name"].casefold(), r["device"].casefold(), r["release_tag"].casefold(),
                                         r["report_path"]))
    suites = []
    for suite in sorted({r["suite"] for r in ranked}, key=str.casefold):
        in_suite = [r for r in ranked if r["suite"] == suite]
        families = [{"name": family, "rows": [r for r in in_suite if r["model_family"] == family]}
                    for family in sorted({r["model_family"] for r in in_suite}, key=str.casefold)]
        suites.append({"name": suite, "families": families})
    document = {"schema_version": 1, "sort": ["leakage:asc", "recall:desc"], "row_count": len(ranked),
                "rows": ranked, "suites": suites}
    assert validate.leaderboard_problems(document) == []
    return document


def twice(document: dict) -> dict:
    """``document`` with its first row held a second time, its row_count and its suites agreeing:
    a leaderboard only its rows contradict."""
    document = json.loads(json.dumps(document))
    first = document["rows"][0]
    document["rows"].append(first)
    [family] = [family for suite in document["suites"] for family in suite["families"] if first in family["rows"]]
    family["rows"].append(first)
    document["row_count"] += 1
    assert validate.leaderboard_problems(document) == []
    return document


def write(path: Path, document: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def invoke_diff(cwd: Path, *args: str):
    return run_invoke("--search-root", str(ROOT), "diff", *args, cwd=cwd)


A = ("golden", "OpenMed/model-a", "cpu")
B = ("golden", "OpenMed/model-b", "cpu")

# The small pair every format is shown on (and the README's sample): a row that leaks more, a fall in
# F1, an added and a removed row, an improvement in recall, a new release tag, a renamed report file,
# and the rank moves they cause: every kind of change.
OLD = leaderboard(row(*A, 0.1, 0.9, 0.8, path="golden/a.report.json"),
                  row(*B, 0.05, 0.85, 0.82),
                  row("golden", "OpenMed/model-d", "cpu", 0.2, 0.7, 0.6))
NEW = leaderboard(row(*A, 0.12, 0.9, 0.8, tag="v1.1.0", path="golden/a-renamed.report.json"),
                  row(*B, 0.05, 0.875, 0.8),
                  row("clinical", "OpenMed/model-c", "cuda", 0.01, 0.95, 0.9))

TEXT = """\
leaks-more  golden    OpenMed/model-a  cpu   leakage 10.00% -> 12.00% (+2.00 points)
fell        golden    OpenMed/model-b  cpu   F1 82.00% -> 80.00% (-2.00 points)
added       clinical  OpenMed/model-c  cuda  rank 1, suite rank 1: leakage 1.00%, recall 95.00%, F1 90.00%
removed     golden    OpenMed/model-d  cpu   was rank 3, suite rank 3: leakage 20.00%, recall 70.00%, F1 60.00%
improved    golden    OpenMed/model-b  cpu   recall 85.00% -> 87.50% (+2.50 points)
moved       golden    OpenMed/model-a  cpu   rank 2 -> 3, suite rank 2
moved       golden    OpenMed/model-b  cpu   rank 1 -> 2, suite rank 1
field       golden    OpenMed/model-a  cpu   release_tag v1.0.0 -> v1.1.0
field       golden    OpenMed/model-a  cpu   report_path golden/a.report.json -> golden/a-renamed.report.json
old.json -> new.json: 1 row leaks more, 1 fall in recall or F1, 1 row added, 1 row removed, 1 improvement, 2 rank moves, 2 field changes
"""

MARKDOWN = """\
## Leaderboard changes from old.json to new.json

1 row leaks more, 1 fall in recall or F1, 1 row added, 1 row removed, 1 improvement, 2 rank moves, 2 field changes. \
Values are percentages; changes are in percentage points.

### Leaks more

| Suite | Model | Device | Leakage before | Leakage after | Change |
| --- | --- | --- | ---: | ---: | ---: |
| golden | OpenMed/model-a | cpu | 10.00% | 12.00% | +2.00 |

### Recall or F1 fell

| Suite | Model | Device | Metric | Before | After | Change |
| --- | --- | --- | --- | ---: | ---: | ---: |
| golden | OpenMed/model-b | cpu | F1 | 82.00% | 80.00% | -2.00 |

### Added

| Suite | Model | Device | Rank | Suite rank | Leakage | Recall | F1 |
| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |
| clinical | OpenMed/model-c | cuda | 1 | 1 | 1.00% | 95.00% | 90.00% |

### Removed

| Suite | Model | Device | Rank | Suite rank | Leakage | Recall | F1 |
| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |
| golden | OpenMed/model-d | cpu | 3 | 3 | 20.00% | 70.00% | 60.00% |

### Improved

| Suite | Model | Device | Metric | Before | After | Change |
| --- | --- | --- | --- | ---: | ---: | ---: |
| golden | OpenMed/model-b | cpu | recall | 85.00% | 87.50% | +2.50 |

### Rank moves

| Suite | Model | Device | Rank before | Rank after | Suite rank before | Suite rank after |
| --- | --- | --- | ---: | ---: | ---: | ---: |
| golden | OpenMed/model-a | cpu | 2 | 3 | 2 | 2 |
| golden | OpenMed/model-b | cpu | 1 | 2 | 1 | 1 |

### Field changes

| Suite | Model | Device | Field | Before | After |
| --- | --- | --- | --- | --- | --- |
| golden | OpenMed/model-a | cpu | `release_tag` | v1.0.0 | v1.1.0 |
| golden | OpenMed/model-a | cpu | `report_path` | golden/a.report.json | golden/a-renamed.report.json |
"""


def _identity(suite: str, model: str, device: str) -> dict:
    return {"suite": suite, "model_name": model, "device": device}


LEAKAGE_CHANGE = {**_identity(*A), "metric": "leakage", "old": 0.1, "new": 0.12, "change": 0.02,
                  "old_percent": "10.00", "new_percent": "12.00", "change_percent": "+2.00"}
JSON = {
    "schema_version": 2,
    "old": {"source": "old.json", "row_count": 3},
    "new": {"source": "new.json", "row_count": 3},
    "leaks_more": [LEAKAGE_CHANGE],
    "fell": [{**_identity(*B), "metric": "f1", "old": 0.82, "new": 0.8, "change": -0.02,
              "old_percent": "82.00", "new_percent": "80.00", "change_percent": "-2.00"}],
    "added": [{**_identity("clinical", "OpenMed/model-c", "cuda"), "rank": 1, "suite_rank": 1, "row": NEW["rows"][0]}],
    "removed": [{**_identity("golden", "OpenMed/model-d", "cpu"), "rank": 3, "suite_rank": 3, "row": OLD["rows"][2]}],
    "improved": [{**_identity(*B), "metric": "recall", "old": 0.85, "new": 0.875, "change": 0.025,
                  "old_percent": "85.00", "new_percent": "87.50", "change_percent": "+2.50"}],
    "field_changes": [{**_identity(*A), "field": "release_tag", "old": "v1.0.0", "new": "v1.1.0"},
                      {**_identity(*A), "field": "report_path", "old": "golden/a.report.json",
                       "new": "golden/a-renamed.report.json"}],
    "rank_moves": [{**_identity(*A), "old_rank": 2, "new_rank": 3, "old_suite_rank": 2, "new_suite_rank": 2},
                   {**_identity(*B), "old_rank": 1, "new_rank": 2, "old_suite_rank": 1, "new_suite_rank": 1}],
}


@pytest.fixture
def pair(tmp_path):
    write(tmp_path / "old.json", OLD)
    write(tmp_path / "new.json", NEW)
    return tmp_path


def test_every_kind_of_change_is_worded_once_in_the_comparisons_order():
    assert tuple(kind.key for kind in KINDS) == KIND_KEYS
    assert len({kind.word for kind in KINDS}) == len({kind.title for kind in KINDS}) == len(KINDS)


def test_text_lists_each_change_on_an_aligned_line_a_row_that_leaks_more_first_and_exits_1(pair):
    result = invoke_diff(pair, "old.json", "new.json")
    assert (result.returncode, result.stdout, result.stderr) == (1, TEXT, "")


def test_markdown_has_a_table_per_kind_of_change(pair, monkeypatch):
    monkeypatch.chdir(pair)
    assert diff.format_markdown(diff.diff_sources("old.json", "new.json")) == MARKDOWN


def test_json_is_sorted_indented_and_valid_against_its_published_schema(pair):
    result = invoke_diff(pair, "old.json", "new.json", "--format", "json")
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout == json.dumps(JSON, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    assert list(validate.validator(diff.DIFF_SCHEMA).iter_errors(json.loads(result.stdout))) == []


def test_the_diff_schema_is_published_with_the_others_and_reads_like_the_leaderboards():
    assert diff.DIFF_SCHEMA in validate.SCHEMA_NAMES
    schema = json.loads(validate.schema_text(diff.DIFF_SCHEMA))
    leaderboard_schema = json.loads(validate.schema_text(validate.LEADERBOARD_SCHEMA))
    assert schema["$schema"] == leaderboard_schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == leaderboard_schema["$id"].replace("leaderboard.schema.json", diff.DIFF_SCHEMA)
    # A row that leaks more with a fall in leakage, a fall that is a rise, an improvement that is a fall: broken.
    checker = validate.validator(diff.DIFF_SCHEMA)
    assert not checker.is_valid({**JSON, "leaks_more": [{**LEAKAGE_CHANGE, "new": 0.05, "change": -0.05,
                                                         "change_percent": "-5.00"}]})
    assert not checker.is_valid({**JSON, "fell": JSON["improved"]})
    assert not checker.is_valid({**JSON, "improved": JSON["fell"]})
    assert not checker.is_valid({**JSON, "fell": [LEAKAGE_CHANGE]})


def test_identical_inputs_have_no_changes_and_exit_0(tmp_path):
    write(tmp_path / "a.json", OLD)
    write(tmp_path / "site" / "leaderboard.json", OLD)  # a render folder: its leaderboard.json
    text = invoke_diff(tmp_path, "a.json", "site")
    assert (text.returncode, text.stdout, text.stderr) == (0, "a.json -> site: no changes\n", "")
    markdown = invoke_diff(tmp_path, "a.json", "site", "--format", "markdown")
    assert (markdown.returncode, markdown.stdout) == (0, "## Leaderboard changes from a.json to site\n\nNo changes.\n")
    assert diff.format_json(compare(OLD, OLD, "a.json", "site")) == json.dumps(
        {"schema_version": 2, "old": {"source": "a.json", "row_count": 3}, "new": {"source": "site", "row_count": 3},
         "leaks_more": [], "fell": [], "added": [], "removed": [], "improved": [], "field_changes": [],
         "rank_moves": []}, indent=2, sort_keys=True) + "\n"


def test_less_leakage_and_other_changes_where_no_row_leaks_more_exit_0():
    changes = compare(NEW, leaderboard(row(*A, 0.11, 0.9, 0.8, tag="v1.1.0", path="golden/a-renamed.report.json"),
                                       row(*B, 0.05, 0.875, 0.8)), "old.json", "new.json")
    assert (changes.exit_code(), diff.format_text(changes)) == (0, """\
removed   clinical  OpenMed/model-c  cuda  was rank 1, suite rank 1: leakage 1.00%, recall 95.00%, F1 90.00%
improved  golden    OpenMed/model-a  cpu   leakage 12.00% -> 11.00% (-1.00 points)
moved     golden    OpenMed/model-a  cpu   rank 3 -> 2, suite rank 2
moved     golden    OpenMed/model-b  cpu   rank 2 -> 1, suite rank 1
old.json -> new.json: 1 row removed, 1 improvement, 2 rank moves
""")


def test_every_other_field_is_a_change_of_the_same_row_and_a_renamed_file_is_not_a_new_row():
    old = leaderboard(row(*A, 0.1, 0.9, 0.8, path="golden/a.report.json"))
    new = leaderboard(row(*A, 0.1, 0.9, 0.8, tag="v2.0.0", path="golden/renamed/a.report.json", family="Clinical PII",
                          run_date="2026-07-01", digest=OTHER_HASH))
    changes = compare(old, new)
    assert (changes.added, changes.removed, changes.metric_changes, changes.rank_moves) == ((), (), (), ())
    assert [line for _, _, line in diff.text_lines(changes)] == [
        "model_family PII -> Clinical PII",
        "release_tag v1.0.0 -> v2.0.0",
        "run_date 2026-06-14 -> 2026-07-01",
        f"reproducibility_hash {HASH} -> {OTHER_HASH}",
        "report_path golden/a.report.json -> golden/renamed/a.report.json",
    ]
    assert changes.exit_code() == 0


def test_every_metric_change_shows_old_new_and_the_exact_change():
    old = leaderboard(row(*A, 0.1, 0.3, 0.0093))
    new = leaderboard(row(*A, 0.2, 0.1, 0.123456))
    changes = compare(old, new)
    assert [(kind, line) for kind, _, line in diff.text_lines(changes)] == [
        ("leaks-more", "leakage 10.00% -> 20.00% (+10.00 points)"),
        # 0.1 - 0.3 is -0.19999999999999998 in binary; the change shown is the decimal one.
        ("fell", "recall 30.00% -> 10.00% (-20.00 points)"),
        ("improved", "F1 0.93% -> 12.3456% (+11.4156 points)"),
    ]
    assert [change.change for change in changes.metric_changes] == [
        Decimal("0.1"), Decimal("-0.2"), Decimal("0.114156")]
    assert json.loads(diff.format_json(changes))["fell"][0]["change"] == -0.2


def test_equal_leakage_does_not_leak_more_and_recall_orders_the_tie():
    # Both rows leak 5% before and after; recall alone swaps them.
    old = leaderboard(row(*A, 0.05, 0.9, 0.8), row(*B, 0.05, 0.8, 0.8))
    new = leaderboard(row(*A, 0.05, 0.7, 0.8), row(*B, 0.05, 0.8, 0.8))
    changes = compare(old, new)
    assert changes.leaks_more == () and changes.exit_code() == 0
    assert [(kind, key.model_name, line) for kind, key, line in diff.text_lines(changes)] == [
        ("fell", "OpenMed/model-a", "recall 90.00% -> 70.00% (-20.00 points)"),
        ("moved", "OpenMed/model-a", "rank 1 -> 2, suite rank 1 -> 2"),
        ("moved", "OpenMed/model-b", "rank 2 -> 1, suite rank 2 -> 1"),
    ]


def test_two_rows_that_leak_more_in_a_tie_are_listed_by_suite_model_and_device_ignoring_case():
    old = leaderboard(row("golden", "openmed/B", "cpu", 0.05, 0.9, 0.8), row("golden", "OpenMed/a", "cpu", 0.05, 0.9, 0.8),
                      row("Clinical", "x", "cpu", 0.05, 0.9, 0.8), row("golden", "OpenMed/a", "CUDA", 0.05, 0.9, 0.8))
    new = leaderboard(*(dict(r, leakage=0.06) for r in old["rows"]))
    changes = compare(old, new)
    assert [(key.suite, key.model_name, key.device) for key in (change.identity for change in changes.leaks_more)] == [
        ("Clinical", "x", "cpu"), ("golden", "OpenMed/a", "cpu"), ("golden", "OpenMed/a", "CUDA"),
        ("golden", "openmed/B", "cpu")]
    assert changes.rank_moves == () and changes.exit_code() == 1


def test_a_row_in_two_releases_of_one_file_is_compared_by_its_newest_release():
    old = leaderboard(row(*A, 0.1, 0.9, 0.8, tag="v1.9.0", path="v1.9/a.json"),
                      row(*A, 0.3, 0.9, 0.8, tag="v1.10.0", path="v1.10/a.json"),
                      row(*A, 0.0, 0.9, 0.8, tag="v1.10.0-rc.1", path="rc/a.json"))
    new = leaderboard(row(*A, 0.3, 0.9, 0.8, tag="v1.10.0", path="v1.10/a.json"))
    changes = compare(old, new)
    # v1.10.0 stands for the row (v1.9.0 is older, a release candidate comes before its release):
    # nothing changed but its rank, 3 of 3 before and 1 of 1 now.
    assert (changes.added, changes.removed, changes.metric_changes, changes.field_changes) == ((), (), (), ())
    assert [(move.old_rank, move.new_rank) for move in changes.rank_moves] == [(3, 1)]
    # Between equal tags, the first report path stands for it.
    tied = leaderboard(row(*A, 0.2, 0.9, 0.8, tag="v1.10.0", path="b.json"), row(*A, 0.3, 0.9, 0.8, tag="v1.10.0", path="a.json"))
    assert [(c.metric, c.old, c.new) for c in compare(tied, new).metric_changes] == []
    assert [(c.field, c.old, c.new) for c in compare(tied, new).field_changes] == [("report_path", "a.json", "v1.10/a.json")]


def test_version_order_is_semantic_versioning_with_pre_releases_before_their_release():
    ordered = ["nightly", "v1.0.0-alpha", "v1.0.0-alpha.1", "v1.0.0-alpha.beta", "v1.0.0-beta", "v1.0.0-beta.2",
               "v1.0.0-beta.11", "v1.0.0-rc.1", "v1.0.0", "v1.2.0", "v1.10.0", "2.0.0", "v10.0.0"]
    assert sorted(reversed(ordered), key=version_key) == ordered
    assert version_key("v1.0.0+build.7") == version_key("v1.0.0")
    # A capital V is a version's v, as a missing one is: one version, one key.
    assert version_key("V1.2.0") == version_key("v1.2.0") == version_key("1.2.0")
    assert sorted(["V2.9.0", "v2.0.0", "V10.0.0", "nightly"], key=version_key) == ["nightly", "v2.0.0", "V2.9.0", "V10.0.0"]


def test_every_list_of_release_tags_has_one_order_shared_by_the_site_and_its_tools():
    from benchmark_leaderboard.versions import version_order

    from leaderboard_tools import release

    tags = ["v2.0.0", "V2.9.0", "v2.9.0", "v2.9.0+build.1", "v10.0.0-rc.1", "V10.0.0"]
    assert sorted(reversed(tags), key=version_order) == ["v2.0.0", "V2.9.0", "v2.9.0", "v2.9.0+build.1", "v10.0.0-rc.1",
                                                         "V10.0.0"]
    assert release.latest_release(tags) == "V10.0.0"


def test_a_line_stays_one_line_and_markdown_shows_markup_as_text():
    old = leaderboard(row("golden", "Open|Med/<b>*x*</b>", "cpu", 0.1, 0.9, 0.8))
    new = leaderboard(row("golden", "Open|Med/<b>*x*</b>", "cpu", 0.1, 0.9, 0.8, family="line\nbreak"))
    assert diff.format_text(compare(old, new, "old\tfile", "new")).splitlines() == [
        r"field  golden  Open|Med/<b>*x*</b>  cpu  model_family PII -> line\nbreak",
        r"old\tfile -> new: 1 field change",
    ]
    assert r"| golden | Open\|Med/\<b\>\*x\*\</b\> | cpu | `model_family` | PII | line\\nbreak |" in \
        diff.format_markdown(compare(old, new)).splitlines()


def test_the_core_takes_documents_and_keeps_the_identity_without_the_release_tag():
    changes = compare(OLD, NEW, "old.json", "new.json")
    assert changes.leaks_more[0].identity == Identity(*A)
    assert diff.format_text(changes) == TEXT
    assert diff.format_markdown(changes) == MARKDOWN
    assert json.loads(diff.format_json(changes)) == JSON


@pytest.mark.parametrize("name, content, line", [
    ("missing.json", None,
     "diff: missing.json is neither a file, a folder nor a git ref (the working folder is not in a git repository)"),
    ("empty", "", None),
    ("broken.json", "{\"rows\": [", "diff: broken.json is not JSON: Expecting value at line 1 column 11"),
    ("truncated.json", "{\"rows\": [{\"suite\": \"gold",
     "diff: truncated.json is not JSON: Unterminated string starting at line 1 column 21"),
    ("count.json", leaderboard(row(*A, 0.1, 0.9, 0.8), row(*B, 0.05, 0.85, 0.82)) | {"row_count": 99},
     "diff: count.json contradicts itself: /row_count: is 99, but /rows holds 2 rows"),
    ("twice.json", twice(leaderboard(row(*A, 0.1, 0.9, 0.8), row(*B, 0.05, 0.85, 0.82))),
     "diff: twice.json contradicts itself: /rows/2: is a second row of the report golden/model-b-cpu.report.json (the "
     "first is /rows/0): each report is one row"),
    ("ungrouped.json", leaderboard(row(*A, 0.1, 0.9, 0.8)) | {"suites": leaderboard(row(*B, 0.05, 0.85, 0.82))["suites"]},
     "diff: ungrouped.json contradicts itself: /suites: does not group the rows of /rows, each once"),
    ("latin.json", b"\xff{}", "diff: latin.json is not UTF-8 text"),
    ("nan.json", json.dumps(leaderboard(row(*A, 0.1, 0.9, 0.8)) | {"rows": [row(*A, float("nan"), 0.9, 0.8)]}),
     "diff: nan.json is not JSON: NaN is not a JSON number"),
    ("array.json", [], "diff: array.json is not a schema v1 leaderboard: must be a JSON object"),
    ("leaky.json", leaderboard(row(*A, 0.1, 0.9, 0.8)) | {"rows": [row(*A, 1.5, 0.9, 0.8)]},
     "diff: leaky.json is not a schema v1 leaderboard: /rows/0/leakage: must be at most 1"),
    ("v2.json", leaderboard(row(*A, 0.1, 0.9, 0.8)) | {"schema_version": 2, "extra": True},
     "diff: v2.json is not a schema v1 leaderboard: /extra: is not a field the schema allows (and 1 more)"),
])
def test_an_input_that_cannot_be_used_is_named_in_one_line(tmp_path, monkeypatch, name, content, line):
    write(tmp_path / "good.json", OLD)
    if name == "empty":
        (tmp_path / name).mkdir()
        line = "diff: empty is a folder without a leaderboard.json"
    elif isinstance(content, bytes):
        (tmp_path / name).write_bytes(content)
    elif isinstance(content, str):
        (tmp_path / name).write_text(content, encoding="utf-8")
    elif content is not None:
        write(tmp_path / name, content)
    monkeypatch.chdir(tmp_path)
    for old, new in ((name, "good.json"), ("good.json", name)):
        with pytest.raises(diff.UnusableInput) as refused:
            diff.diff_sources(old, new)
        assert f"diff: {refused.value}" == line


def test_an_input_that_cannot_be_used_is_exit_2_with_one_line_and_nothing_else(tmp_path):
    write(tmp_path / "good.json", OLD)
    write(tmp_path / "leaky.json", leaderboard(row(*A, 0.1, 0.9, 0.8)) | {"rows": [row(*A, 1.5, 0.9, 0.8)]})
    missing = invoke_diff(tmp_path, "missing.json", "good.json")
    assert (missing.returncode, missing.stdout, missing.stderr) == (2, "", "diff: missing.json is neither a file, a folder "
                                                                         "nor a git ref (the working folder is not in a git repository)\n")
    leaky = invoke_diff(tmp_path, "good.json", "leaky.json")
    assert (leaky.returncode, leaky.stdout, leaky.stderr) == (
        2, "", "diff: leaky.json is not a schema v1 leaderboard: /rows/0/leakage: must be at most 1\n")
    # A leaderboard its own rows contradict is not compared: neither as it says nor as its rows are.
    write(tmp_path / "count.json", OLD | {"row_count": 99})
    write(tmp_path / "twice.json", twice(OLD))
    count = invoke_diff(tmp_path, "count.json", "good.json")
    assert (count.returncode, count.stdout, count.stderr) == (
        2, "", "diff: count.json contradicts itself: /row_count: is 99, but /rows holds 3 rows\n")
    held_twice = invoke_diff(tmp_path, "good.json", "twice.json")
    assert (held_twice.returncode, held_twice.stdout, held_twice.stderr) == (
        2, "", "diff: twice.json contradicts itself: /rows/3: is a second row of the report golden/model-b-cpu.report.json "
               "(the first is /rows/0): each report is one row\n")


def test_an_unknown_format_is_exit_2(pair):
    result = invoke_diff(pair, "old.json", "new.json", "--format", "html")
    assert (result.returncode, result.stdout, result.stderr) == (
        2, "", "diff: --format must be one of text, markdown, json, not 'html'\n")


@pytest.fixture
def pages(tmp_path):
    """A repository on master whose gh-pages branch has two commits: OLD, then NEW with OLD kept
    under releases/v1.0.0/."""
    repository = tmp_path / "repo"
    repository.mkdir()
    git(repository, "init", "--quiet", "--initial-branch", "master")
    (repository / "README.md").write_text("the project\n", encoding="utf-8")
    git(repository, "add", "README.md")
    git(repository, "commit", "--quiet", "-m", "Start")
    git(repository, "checkout", "--quiet", "--orphan", "gh-pages")
    git(repository, "rm", "--quiet", "--cached", "README.md")
    (repository / "README.md").unlink()
    write(repository / "leaderboard.json", OLD)
    git(repository, "add", "leaderboard.json")
    git(repository, "commit", "--quiet", "-m", "Publish v1.0.0")
    write(repository / "releases" / "v1.0.0" / "leaderboard.json", OLD)
    write(repository / "leaderboard.json", NEW)
    git(repository, "add", "leaderboard.json", "releases")
    git(repository, "commit", "--quiet", "-m", "Publish v1.1.0")
    git(repository, "checkout", "--quiet", "master")
    git(repository, "tag", "v1.1.0", "gh-pages")
    return repository


def test_git_refs_of_the_pages_branch_are_read_from_the_working_folders_repository(pages, monkeypatch):
    result = invoke_diff(pages, "gh-pages~1", "gh-pages")
    assert (result.returncode, result.stdout, result.stderr) == (1, TEXT.replace("old.json -> new.json", "gh-pages~1 -> gh-pages"), "")
    monkeypatch.chdir(pages)
    # A release kept in a folder of the branch, and a tag with the file named.
    kept = diff.diff_sources("gh-pages:releases/v1.0.0", "v1.1.0:leaderboard.json")
    assert diff.format_text(kept) == TEXT.replace("old.json -> new.json", "gh-pages:releases/v1.0.0 -> v1.1.0:leaderboard.json")
    assert diff.format_text(diff.diff_sources("v1.1.0", "gh-pages")) == "v1.1.0 -> gh-pages: no changes\n"
    # Nothing was checked out: master's files are as they were.
    assert git(pages, "status", "--porcelain") == "" and sorted(p.name for p in pages.iterdir()) == [".git", "README.md"]


@pytest.mark.parametrize("source, line", [
    ("gh-pages~5", "diff: gh-pages~5 is neither a file, a folder nor a git ref of the repository here"),
    ("master", "diff: master holds no leaderboard.json"),
    ("gh-pages:releases/v9.9.9", "diff: gh-pages:releases/v9.9.9 holds no leaderboard.json"),
])
def test_a_ref_that_does_not_exist_or_holds_no_leaderboard_is_named_in_one_line(pages, monkeypatch, source, line):
    monkeypatch.chdir(pages)
    with pytest.raises(diff.UnusableInput) as refused:
        diff.diff_sources(source, "gh-pages")
    assert f"diff: {refused.value}" == line


def test_a_ref_that_does_not_exist_is_exit_2(pages):
    result = invoke_diff(pages, "gh-pages", "gh-pages~5")
    assert (result.returncode, result.stdout, result.stderr) == (
        2, "", "diff: gh-pages~5 is neither a file, a folder nor a git ref of the repository here\n")


def test_an_existing_path_is_a_path_even_when_a_ref_has_its_name(pages, monkeypatch):
    write(pages / "gh-pages", OLD)
    monkeypatch.chdir(pages)
    assert diff.format_text(diff.diff_sources("gh-pages", "gh-pages~1")) == "gh-pages -> gh-pages~1: no changes\n"
    assert diff.diff_sources("gh-pages~1", "gh-pages:").has_changes()  # the ref itself, by its tree


