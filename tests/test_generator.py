"""The Pelican generator: every report becomes a Pelican page object rendered with the theme."""

from __future__ import annotations

from pelican.contents import Page
from pelican.settings import read_settings

from benchmark_leaderboard.generator import LeaderboardGenerator
from conftest import SETTINGS, report


def test_every_report_becomes_a_pelican_page_with_the_report_template(archive, tmp_path):
    reports = archive({
        "b/second.report.json": report(model_name="OpenMed/second", metrics={"leakage": {"overall": 0.2}}),
        "a/first.report.json": report(model_name="OpenMed/first"),
    })
    settings = read_settings(SETTINGS, override={"OUTPUT_PATH": str(tmp_path / "out"),
                                                 "LEADERBOARD_REPORTS_DIR": str(reports)})
    context = {**settings, "pages": []}
    generator = LeaderboardGenerator(context=context, settings=settings, path=settings["PATH"],
                                     theme=settings["THEME"], output_path=str(tmp_path / "out"))

    generator.generate_context()

    pages = generator.report_pages
    assert all(isinstance(page, Page) and page.template == "report" for page in pages)
    assert [(page.title, page.save_as, page.url) for page in pages] == [
        ("OpenMed/first", "report/a/first.report.html", "report/a/first.report.html"),
        ("OpenMed/second", "report/b/second.report.html", "report/b/second.report.html"),
    ]
    assert [page.report.rank for page in pages] == [1, 2]
    assert context["report_page_urls"] == {"a/first.report.json": "report/a/first.report.html",
                                           "b/second.report.json": "report/b/second.report.html"}
