"""Ranking (leakage ascending, recall descending, then identity case-insensitively, then path) and
grouping (suites and families by name, case-insensitively)."""

from __future__ import annotations

from conftest import ROOT, report

from core_support import published, ranked_paths


def scored(leakage: float, recall: float, f1: float = 0.5, **changes) -> dict:
    payload = report(**changes)
    payload["metrics"] = {"leakage": {"overall": leakage}, "exact_span_f1": {"recall": recall, "f1": f1}}
    return payload


def tagged(**metadata) -> dict:
    return report(metadata=metadata)


def test_lower_leakage_ranks_first(archive):
    reports = archive({"a.report.json": scored(0.3, 0.9), "b.report.json": scored(0.1, 0.9), "c.report.json": scored(0.2, 0.9)})
    assert ranked_paths(reports) == ["b.report.json", "c.report.json", "a.report.json"]


def test_higher_recall_ranks_first_at_equal_leakage(archive):
    reports = archive({"a.report.json": scored(0.1, 0.7), "b.report.json": scored(0.1, 0.95), "c.report.json": scored(0.1, 0.8)})
    assert ranked_paths(reports) == ["b.report.json", "c.report.json", "a.report.json"]


def test_f1_and_recall_never_outrank_lower_leakage(archive):
    reports = archive({"best-f1.report.json": scored(0.0101, 1.0, f1=1.0), "safest.report.json": scored(0.01, 0.1, f1=0.01)})
    assert ranked_paths(reports) == ["safest.report.json", "best-f1.report.json"]


def test_f1_does_not_break_a_tie(archive):
    reports = archive({"a.report.json": scored(0.1, 0.9, f1=0.1), "b.report.json": scored(0.1, 0.9, f1=0.99)})
    assert ranked_paths(reports) == ["a.report.json", "b.report.json"]


def test_ties_are_broken_by_suite_case_insensitively(archive):
    reports = archive({"1.report.json": report(suite="beta"), "2.report.json": report(suite="Alpha"), "3.report.json": report(suite="alpha2")})
    assert ranked_paths(reports) == ["2.report.json", "3.report.json", "1.report.json"]


def test_ties_are_broken_by_family_case_insensitively(archive):
    reports = archive({"1.report.json": tagged(model_family="pii"), "2.report.json": tagged(model_family="NER"), "3.report.json": tagged(model_family="ocr")})
    assert ranked_paths(reports) == ["2.report.json", "3.report.json", "1.report.json"]


def test_ties_are_broken_by_model_name_case_insensitively(archive):
    reports = archive({"1.report.json": report(model_name="b"), "2.report.json": report(model_name="A"), "3.report.json": report(model_name="a2")})
    assert ranked_paths(reports) == ["2.report.json", "3.report.json", "1.report.json"]


def test_ties_are_broken_by_device_case_insensitively(archive):
    reports = archive({"1.report.json": report(device="mlx"), "2.report.json": report(device="CPU"), "3.report.json": report(device="cuda")})
    assert ranked_paths(reports) == ["2.report.json", "3.report.json", "1.report.json"]


def test_ties_are_broken_by_release_tag_case_insensitively(archive):
    reports = archive({"1.report.json": tagged(release_tag="v3"), "2.report.json": tagged(release_tag="V2"), "3.report.json": tagged(release_tag="v2.1")})
    assert ranked_paths(reports) == ["2.report.json", "3.report.json", "1.report.json"]


def test_tie_breaks_apply_in_order_suite_family_model_device_release(archive):
    reports = archive({
        "1.report.json": report(suite="b", model_name="a", device="a", metadata={"model_family": "a", "release_tag": "a"}),
        "2.report.json": report(suite="a", model_name="a", device="a", metadata={"model_family": "b", "release_tag": "a"}),
        "3.report.json": report(suite="a", model_name="b", device="a", metadata={"model_family": "a", "release_tag": "a"}),
        "4.report.json": report(suite="a", model_name="a", device="b", metadata={"model_family": "a", "release_tag": "a"}),
        "5.report.json": report(suite="a", model_name="a", device="a", metadata={"model_family": "a", "release_tag": "b"}),
        "6.report.json": report(suite="a", model_name="a", device="a", metadata={"model_family": "a", "release_tag": "a"}),
    })
    assert ranked_paths(reports) == ["6.report.json", "5.report.json", "4.report.json", "3.report.json", "2.report.json", "1.report.json"]


def test_casefold_compares_full_case_folding(archive):
    # "STRASSE", "straße" and "strasse" casefold alike, so the report path decides.
    reports = archive({"c.report.json": report(suite="strasse"), "a.report.json": report(suite="straße"),
                       "b.report.json": report(suite="STRASSE"), "d.report.json": report(suite="strassf")})
    assert ranked_paths(reports) == ["a.report.json", "b.report.json", "c.report.json", "d.report.json"]


def test_the_report_path_breaks_a_full_tie_in_code_point_order(archive):
    reports = archive({"b.report.json": report(), "a/z.report.json": report(), "B.report.json": report(), "a-z.report.json": report()})
    assert ranked_paths(reports) == ["B.report.json", "a-z.report.json", "a/z.report.json", "b.report.json"]


def test_stripped_text_is_what_is_compared(archive):
    reports = archive({"1.report.json": report(suite="  zeta"), "2.report.json": report(suite="beta  ")})
    assert ranked_paths(reports) == ["2.report.json", "1.report.json"]


def test_suites_and_families_are_ordered_case_insensitively_with_rows_in_ranking_order(archive):
    reports = archive({
        "1.report.json": scored(0.5, 0.9, suite="beta", metadata={"model_family": "pii"}),
        "2.report.json": scored(0.1, 0.9, suite="Alpha", metadata={"model_family": "Zero"}),
        "3.report.json": scored(0.2, 0.9, suite="Alpha", metadata={"model_family": "ner"}),
        "4.report.json": scored(0.3, 0.9, suite="Alpha", metadata={"model_family": "ner"}),
        "5.report.json": scored(0.0, 0.9, suite="Alpha", metadata={"model_family": "NER2"}),
        "6.report.json": scored(0.4, 0.9, suite="alpha", metadata={"model_family": "pii"}),
    })
    document = published(reports)
    shape = [(suite["name"], [(family["name"], [row["report_path"] for row in family["rows"]]) for family in suite["families"]])
             for suite in document["suites"]]
    assert shape == [
        ("Alpha", [("ner", ["3.report.json", "4.report.json"]), ("NER2", ["5.report.json"]), ("Zero", ["2.report.json"])]),
        ("alpha", [("pii", ["6.report.json"])]),
        ("beta", [("pii", ["1.report.json"])]),
    ]
    assert [row["report_path"] for row in document["rows"]] == ["5.report.json", "2.report.json", "3.report.json", "4.report.json", "6.report.json", "1.report.json"]


def test_names_equal_but_for_case_stay_apart_in_the_order_the_ranking_meets_them(archive):
    reports = archive({
        "1.report.json": scored(0.2, 0.9, metadata={"model_family": "Ner"}),
        "2.report.json": scored(0.1, 0.9, metadata={"model_family": "NER"}),
        "3.report.json": scored(0.3, 0.9, metadata={"model_family": "ner"}),
    })
    families = [family["name"] for family in published(reports)["suites"][0]["families"]]
    assert families == ["NER", "Ner", "ner"]


BUNDLED_RANKING = [
    "golden.report.json",
    "clinical-notes/legacy/pii-onnx.report.json",
    "clinical-notes/pii-large-mlx.report.json",
    "clinical-notes/pii-small-int8.report.json",
    "clinical-notes/pii-small-cpu.report.json",
    "clinical-notes/tie-suite.report.json",
    "discharge-summaries/tie-suite.report.json",
    "radiology/tie-family-ner.report.json",
    "radiology/tie-family-pii.report.json",
    "radiology/tie-model-a.report.json",
    "radiology/tie-model-b.report.json",
    "radiology/tie-device-cpu.report.json",
    "radiology/tie-device-mlx.report.json",
    "radiology/tie-release-v2.report.json",
    "radiology/tie-release-v3.report.json",
    "radiology/tie-path-a.report.json",
    "radiology/tie-path-b.report.json",
    "discharge-summaries/legacy/zero-shot.report.json",
    "discharge-summaries/micro-keys.report.json",
    "clinical-notes/legacy/ner.report.json",
]


def test_the_bundled_archive_ranks_as_pinned():
    document = published(ROOT / "content" / "benchmarks", ROOT / "models.jsonl", "v3.1.0")
    assert [row["report_path"] for row in document["rows"]] == BUNDLED_RANKING
    assert [(suite["name"], [family["name"] for family in suite["families"]]) for suite in document["suites"]] == [
        ("clinical-notes", ["NER", "PII"]),
        ("discharge-summaries", ["NER", "ZeroShot"]),
        ("golden", ["PII"]),
        ("radiology", ["NER", "PII", "ZeroShot"]),
    ]


def test_suite_anchors_are_unique_even_when_a_suffix_meets_another_suite_s_slug():
    from benchmark_leaderboard.decide.rank import suite_anchors

    assert suite_anchors(["!x 3", "x", "X"]) == ["suite-x-3", "suite-x", "suite-x-2"]
    assert suite_anchors(["x", "X", "x-2", "x 2"]) == ["suite-x", "suite-x-2", "suite-x-2-2", "suite-x-2-3"]
    assert suite_anchors(["日本", "…"]) == ["suite-x", "suite-x-2"]


def test_each_suite_s_panel_and_report_back_link_use_its_own_anchor(archive, tmp_path):
    import re

    from conftest import SETTINGS
    from leaderboard_tools.runner import build as render

    reports = archive({"a.report.json": report(suite="!x 3"), "b.report.json": report(suite="x"),
                       "c.report.json": report(suite="X")})
    render(SETTINGS, str(tmp_path / "site"), reports_dir=str(reports), release_tag="v1.0.0", progress=lambda _: None)
    # The index holds the first suite's panel, each other suite's page its own.
    html = "".join(path.read_text(encoding="utf-8")
                   for path in [tmp_path / "site" / "index.html", *sorted((tmp_path / "site" / "suite").glob("*/index.html"))])
    panels = re.findall(r'<section class="panel" id="([^"]+)"[^>]*>\s*<h2 class="suite-name" id="[^"]+"><bdi>([^<]+?)</bdi> <', html)
    assert len({anchor for anchor, _ in panels}) == 3
    anchor_of = {name: anchor for anchor, name in panels}
    # A report's way back leads to its own suite's page: the index for the first suite (the index's panel).
    first = panels[0][0]
    for path, suite in (("a", "!x 3"), ("b", "x"), ("c", "X")):
        page = (tmp_path / "site" / "report" / f"{path}.report.html").read_text(encoding="utf-8")
        home = "index.html" if anchor_of[suite] == first else f"suite/{anchor_of[suite]}/index.html"
        assert f'<a href="../{home}">Back to <bdi>{suite}</bdi></a>' in page
