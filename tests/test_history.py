"""A model's history on its report page: the same suite, model and device in the archive's other
release tags (leakage, recall, F1 per release, in version order, linked) and a sparkline of leakage;
nothing for a model of one release."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from urllib.parse import quote

import pytest

from conftest import HASH, ROOT, run_invoke

from benchmark_leaderboard.board import Row
from benchmark_leaderboard.decide.history import archive_history
from benchmark_leaderboard.present.history import model_history
from benchmarks.make_archive import make_archive


def row(tag: str, leakage: float, recall: float = 0.9, f1: float = 0.8, model: str = "OpenMed/a", path: str | None = None,
        suite: str = "golden", device: str = "cpu") -> Row:
    path = path or f"{tag}/{model.rsplit('/', 1)[-1]}.report.json"
    return Row(suite, "PII", model, device, leakage, recall, f1, tag, "2026-06-14", HASH, path, "reports/" + quote(path))


def test_the_sparkline_spans_its_box_least_leakage_at_the_bottom():
    history = model_history([row("v1.0.0", 0.1), row("v1.1.0", 0.3), row("v1.2.0", 0.2)], "v1.1.0/a.report.json")
    # The view box is 120 by 32 with a margin of 3: x from 3 to 117, y from 29 (least) to 3 (most).
    assert history.points == "3.0,29.0 60.0,3.0 117.0,16.0"
    assert [(entry.release_tag, entry.leakage_percent, entry.recall_percent, entry.f1_percent, entry.current)
            for entry in history.entries] == [("v1.0.0", "10.00", "90.00", "80.00", False),
                                              ("v1.1.0", "30.00", "90.00", "80.00", True),
                                              ("v1.2.0", "20.00", "90.00", "80.00", False)]
    # Each release tag isolated from the figures beside it (U+2068 ... U+2069).
    assert history.label == ("Leakage by release, from 10.00% in \u2068v1.0.0\u2069 to 20.00% in \u2068v1.2.0\u2069: "
                             "\u2068v1.0.0\u2069 10.00%, \u2068v1.1.0\u2069 30.00%, \u2068v1.2.0\u2069 20.00%")


def test_equal_leakage_is_a_flat_line_at_mid_height_with_fixed_precision():
    history = model_history([row("v1.0.0", 0.05), row("v2.0.0", 0.05), row("v3.0.0", 0.05), row("v4.0.0", 0.05)], "")
    assert history.points == "3.0,16.0 41.0,16.0 79.0,16.0 117.0,16.0"
    assert not any(entry.current for entry in history.entries)


def test_the_archive_is_indexed_once_in_version_order_and_one_release_has_no_history():
    rows = [row("v1.10.0", 0.1), row("v1.9.0", 0.2), row("v1.10.0-rc.1", 0.3), row("nightly", 0.4),
            # Two reports of one release, and a model of one release: no history.
            row("v1.0.0", 0.1, model="OpenMed/b", path="x/b.report.json"), row("v1.0.0", 0.2, model="OpenMed/b", path="y/b.report.json"),
            row("v1.0.0", 0.1, model="OpenMed/c"),
            # Same model, another device: a history of its own.
            row("v1.0.0", 0.1, device="cuda"), row("v2.0.0", 0.2, device="cuda")]
    history = archive_history(rows)
    assert len(history) == 2
    assert [row.release_tag for row in history.of(rows[0])] == ["nightly", "v1.9.0", "v1.10.0-rc.1", "v1.10.0"]
    assert [entry.current for entry in model_history(history.of(rows[1]), rows[1].report_path).entries] == [False, True, False, False]
    assert history.of(rows[4]) is None and history.of(rows[6]) is None
    assert [row.release_tag for row in history.of(rows[7])] == ["v1.0.0", "v2.0.0"]


@pytest.fixture(scope="module")
def three_releases(tmp_path_factory):
    """Four models in three releases (v3.0.0, v3.1.0, v3.2.0), built with relative URLs."""
    root = tmp_path_factory.mktemp("history")
    make_archive(root / "archive", 4, suites=2, families=1, releases=3)
    result = run_invoke("--search-root", str(ROOT), "build", "--release-tag", "v3.2.0", "--reports-dir",
                        str(root / "archive/reports"), "--manifest", str(root / "archive/models.jsonl"),
                        "--output-dir", str(root / "site"), cwd=root)
    assert result.returncode == 0, result.stderr
    return root / "site"


def percent(value: float) -> str:
    return f"{Decimal(repr(value)) * 100:.2f}"  # make_archive's metrics have four decimals: exact in two


def section(html: str) -> str:
    match = re.search(r'<h2 id="history">History</h2>\n(.*?</table>\n</div>\n)', html, re.S)
    assert match, "no history on the page"
    return match.group(1)


def test_a_report_page_shows_its_model_in_every_release_with_a_sparkline(three_releases):
    site = three_releases
    rows = json.loads((site / "leaderboard.json").read_text(encoding="utf-8"))["rows"]
    model = "OpenMed/synth-pii-000001"
    mine = sorted((r for r in rows if r["model_name"] == model), key=lambda r: r["release_tag"])
    assert [r["release_tag"] for r in mine] == ["v3.0.0", "v3.1.0", "v3.2.0"]
    current = mine[1]
    page = site / "report" / current["report_path"].replace(".json", ".html")
    html = section(page.read_text(encoding="utf-8"))

    low, high = min(r["leakage"] for r in mine), max(r["leakage"] for r in mine)
    points = [(3 + 114 * n / 2, 3 + 26 * (1 - (r["leakage"] - low) / (high - low))) for n, r in enumerate(mine)]
    label = (f"Leakage by release, from {percent(mine[0]['leakage'])}% in \u2068v3.0.0\u2069 to "
             f"{percent(mine[2]['leakage'])}% in \u2068v3.2.0\u2069: "
             + ", ".join(f"\u2068{r['release_tag']}\u2069 {percent(r['leakage'])}%" for r in mine))
    link = "../../../../report/{}/suite-02/PII/000001.report.html"
    expected = (
        f"<p><bdi>{model}</bdi> on <bdi>suite-02</bdi> (<bdi>{current['device']}</bdi>) in every release of the archive, "
        "in version order.</p>\n"
        f'<svg class="sparkline" viewBox="0 0 120 32" width="120" height="32" role="img" aria-label="{label}">\n'
        f"<title>{label}</title>\n"
        f'<polyline points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in points)}" fill="none" stroke="currentColor" '
        'stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round"/>\n'
        + "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{2.5 if n == 1 else 1.5}" fill="currentColor"/>\n'
                  for n, (x, y) in enumerate(points))
        + "</svg>\n"
        '<div class="table-box" tabindex="0" role="region" aria-label="History">\n<table class="evidence">\n'
        '<thead><tr><th scope="col">Release</th><th scope="col" class="num">Leakage</th><th scope="col" class="num">'
        'Recall</th><th scope="col" class="num">F1</th></tr></thead>\n<tbody>\n'
        + "".join('<tr><th scope="row">'
                  + ('<span aria-current="page">v3.1.0</span> <span class="muted">(this report)</span>' if r is current
                     else f'<a href="{link.format(r["release_tag"])}">{r["release_tag"]}</a>')
                  + "</th>" + "".join(f'<td class="num">{percent(r[m])}%</td>' for m in ("leakage", "recall", "f1"))
                  + "</tr>\n" for r in mine)
        + "</tbody>\n</table>\n</div>\n")
    assert html == expected
    # Every link leads to a page the build wrote.
    for href in re.findall(r'href="([^"]+)"', html):
        assert (page.parent / href).resolve().is_file(), href


def test_every_report_page_of_a_model_in_three_releases_has_its_history(three_releases):
    pages = sorted((three_releases / "report").rglob("*.html"))
    assert len(pages) == 12
    for page in pages:
        assert section(page.read_text(encoding="utf-8")).count('<tr><th scope="row">') == 3, page


def test_a_model_of_one_release_has_no_history(tmp_path):
    make_archive(tmp_path / "archive", 4, suites=2, families=1, releases=1)
    result = run_invoke("--search-root", str(ROOT), "build", "--release-tag", "v3.0.0", "--reports-dir",
                        str(tmp_path / "archive/reports"), "--manifest", str(tmp_path / "archive/models.jsonl"),
                        "--output-dir", str(tmp_path / "site"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    pages = sorted(Path(tmp_path / "site/report").rglob("*.html"))
    assert len(pages) == 4
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "History" not in text and "<svg" not in text, page
