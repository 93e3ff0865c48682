"""The Pelican generator: it decides in generate_context, writes in generate_output through one
writer that announces every file, and writes the same bytes with one process or many."""

from __future__ import annotations

import multiprocessing
import os
import shutil
from pathlib import Path

from datetime import datetime, timezone

from pelican import Pelican, contents, signals
from pelican.settings import read_settings

from benchmark_leaderboard.generator import LeaderboardGenerator
from benchmarks.make_archive import make_archive
from conftest import ROOT, SETTINGS, report
from core_support import tree_digest
from leaderboard_tools.runner import build


def settings_for(output: Path, reports: Path, **more):
    return read_settings(SETTINGS, override={"OUTPUT_PATH": str(output), "LEADERBOARD_REPORTS_DIR": str(reports),
                                             "LEADERBOARD_RELEASE_TAG": "v1.0.0", **more})


def child_processes() -> list[int]:
    """The processes whose parent is this one (the pool's workers, were any left)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    stat = handle.read()
            except OSError:
                continue
            if int(stat[stat.rindex(b")") + 2:].split(b" ", 2)[1]) == os.getpid():
                found.append(int(entry))
    return found


def test_generate_context_decides_writes_nothing_and_leaves_nothing_running(archive, tmp_path):
    reports = archive({f"s/r{i}.report.json": report(model_name=f"OpenMed/m{i}", metrics={"leakage": {"overall": i / 100}})
                       for i in range(40)})
    output = tmp_path / "out"
    output.mkdir()
    settings = settings_for(output, reports, LEADERBOARD_WORKERS=2)
    context = {**settings, "pages": []}
    generator = LeaderboardGenerator(context=context, settings=settings, path=settings["PATH"],
                                     theme=settings["THEME"], output_path=str(output))

    generator.generate_context()

    assert os.listdir(output) == []
    assert multiprocessing.active_children() == [] and child_processes() == []
    board = context["leaderboard"]
    assert [row.report_path for row in board.rows] == [f"s/r{i}.report.json" for i in range(40)]
    assert board.places.in_suite[:3] == (1, 2, 3)


def run_pelican(settings) -> None:
    Pelican(settings).run()


def test_a_context_value_set_after_the_leaderboard_is_read_reaches_every_report_page(archive, tmp_path):
    reports = archive({f"s/r{i}.report.json": report(model_name=f"OpenMed/m{i}") for i in range(30)})
    theme = tmp_path / "theme"
    shutil.copytree(ROOT / "theme", theme)
    template = theme / "templates" / "report.html"
    template.write_text(template.read_text().replace("{% block content %}", "{% block content %}<p id=late>{{ late_note }}</p>", 1))

    def add_note(generators):  # another plugin, after every generator has read its content
        generators[0].context["late_note"] = "added afterwards"

    signals.all_generators_finalized.connect(add_note)
    try:
        run_pelican(settings_for(tmp_path / "out", reports, THEME=str(theme), LEADERBOARD_WORKERS=2))
    finally:
        signals.all_generators_finalized.disconnect(add_note)
    pages = sorted((tmp_path / "out" / "report").rglob("*.html"))
    assert len(pages) == 30
    assert all("<p id=late>added afterwards</p>" in page.read_text() for page in pages)


def test_a_content_written_receiver_sees_every_html_page_once_with_its_page_object_and_no_asset(archive, tmp_path):
    reports = archive({f"s{i % 3}/r{i}.report.json": report(suite=f"s{i % 3}", model_name=f"OpenMed/m{i}",
                                                             generated_at=f"2026-0{1 + i % 9}-1{i % 10}T08:30:00+02:00")
                       for i in range(25)})
    seen: dict[str, object] = {}

    def written(path, context):
        relative = os.path.relpath(path, tmp_path / "out").replace(os.sep, "/")
        assert relative not in seen
        seen[relative] = context.get("page") or context.get("article")

    signals.content_written.connect(written)
    try:
        run_pelican(settings_for(tmp_path / "out", reports, LEADERBOARD_WORKERS=2, LEADERBOARD_PAGE_ROWS=5))
    finally:
        signals.content_written.disconnect(written)
    on_disk = set(tree_digest(tmp_path / "out"))
    assert sorted(seen) == sorted(path for path in on_disk if path.endswith(".html"))
    assert "suite/suite-s0/1/2.html" in seen  # a long family's further page
    for path, page in seen.items():
        assert isinstance(page, contents.Content), path
        assert page.save_as == path and page.status == "published" and page.title
        assert page.date.tzinfo is not None, path
    pages = {path: page for path, page in seen.items() if path.startswith("report/")}
    assert len(pages) == 25
    for number in range(25):
        page = pages[f"report/s{number % 3}/r{number}.report.html"]
        assert isinstance(page, contents.Page) and page.template == "report"
        assert page.url == f"report/s{number % 3}/r{number}.report.html"
        assert page.title == page.model_name == f"OpenMed/m{number}" and page.suite == f"s{number % 3}"
        assert (page.model_family, page.release_tag, page.report_path) == ("PII", "v1.0.0", f"s{number % 3}/r{number}.report.json")
        assert page.date == datetime(2026, 1 + number % 9, 10 + number % 10, tzinfo=timezone.utc)
    models = {path: page for path, page in seen.items() if path.startswith("model/")}
    assert sorted(models) == sorted(f"model/OpenMed/m{number}.html" for number in range(25))
    for path, page in models.items():
        assert isinstance(page, contents.Page) and page.template == "model" and page.url == path
        report_of_model = pages[f"report/s{int(path[15:-5]) % 3}/r{path[15:-5]}.report.html"]
        assert page.title == page.model_name == report_of_model.model_name and page.date == report_of_model.date
    latest = max(page.date for page in pages.values())
    for path in ("index.html", "compare.html", "suite/suite-s0/1/2.html"):
        assert seen[path].date == latest and seen[path].url == path
    assert seen["ranking.html"].date.tzinfo is not None  # a Markdown page, dated by its own Date:


def test_the_context_lists_every_page_the_plugin_writes_as_page_objects(archive, tmp_path):
    reports = archive({f"s/r{i}.report.json": report(model_name=f"OpenMed/m{i}", metrics={"leakage": {"overall": i / 100}})
                       for i in range(12)})
    output = tmp_path / "out"
    settings = settings_for(output, reports, LEADERBOARD_PAGE_ROWS=5)
    context = {**settings, "pages": []}
    generator = LeaderboardGenerator(context=context, settings=settings, path=settings["PATH"],
                                     theme=settings["THEME"], output_path=str(output))
    generator.generate_context()
    pages = context["leaderboard_pages"]
    assert [page.save_as for page in pages] == (["index.html", "compare.html", "suite/suite-golden/1/1.html",
                                                 "suite/suite-golden/1/2.html", "suite/suite-golden/1/3.html"]
                                                + [f"report/s/r{i}.report.html" for i in range(12)]
                                                + [f"model/OpenMed/m{i}.html" for i in sorted(range(12), key=str)])
    assert all(isinstance(page, contents.Page) and page.template == "report" for page in pages[5:17])
    assert all(isinstance(page, contents.Page) and page.template == "model" for page in pages[17:])
    assert context["pages"] == []  # Pelican would write what is in there a second time


def test_one_process_and_several_write_the_same_bytes_at_3000_reports(tmp_path):
    make_archive(tmp_path / "archive", 3000)
    reports, manifest = tmp_path / "archive" / "reports", tmp_path / "archive" / "models.jsonl"
    trees = []
    for workers in (1, 2):
        output = tmp_path / f"out-{workers}"
        run_pelican(settings_for(output, reports, LEADERBOARD_MANIFEST=str(manifest), LEADERBOARD_WORKERS=workers))
        trees.append(tree_digest(output))
    assert trees[0] == trees[1]
    assert sum(path.startswith("report/") for path in trees[0]) == 3000
    assert {"leaderboard.json", "uncertainty.json", "leaderboard.csv"} <= trees[0].keys()


def test_every_page_s_own_links_resolve_and_report_pages_share_the_included_chrome(archive, tmp_path):
    """Report pages get their folder's head links, header and footer rendered once; at every depth of
    the archive they must lead where the included ones of every other page lead, and read the same."""
    import re
    from urllib.parse import unquote

    reports = archive({"top.report.json": report(model_name="OpenMed/top"),
                       "one/r.report.json": report(model_name="OpenMed/one", suite="s2"),
                       "one/two/three/r.report.json": report(model_name="OpenMed/deep", suite="s3"),
                       **{f"many/r{i}.report.json": report(model_name=f"OpenMed/m{i}", metrics={"leakage": {"overall": i / 100}})
                          for i in range(12)}})
    output = tmp_path / "out"
    run_pelican(settings_for(output, reports, LEADERBOARD_PAGE_ROWS=5))

    def chrome(page: Path) -> list[str]:
        html = page.read_text(encoding="utf-8")
        head = html[html.index('<link rel="icon"'):html.index("</head>")]
        head = head[:head.index('figures.css">') + len('figures.css">')]  # site_head.html: a page may add its own
        header = html[html.index("<body>"):html.index("<main")]
        footer = html[html.index("</main>"):html.index("</footer>")]
        prefix = os.path.relpath(output, page.parent).replace(os.sep, "/")
        return [part.replace(f'"{prefix}/', '"SITE/') for part in (head, header, footer)]

    pages = sorted(output.rglob("*.html"))
    report_pages = [page for page in pages if page.relative_to(output).parts[0] == "report"]
    assert len(report_pages) == 15
    family_page = output / "suite" / "suite-golden" / "1" / "2.html"  # no page of the navigation, as a report page
    assert family_page.is_file()
    for page in report_pages:
        assert chrome(page) == chrome(family_page), page
    for page in pages:
        for target in re.findall(r'(?:href|src)="(?![a-z][a-z0-9+.-]*:)([^"#?]+)', page.read_text(encoding="utf-8")):
            assert (page.parent / unquote(target)).resolve().is_file(), (page, target)


def test_the_changes_pages_are_announced_with_page_objects_dated_by_the_latest_run(archive, tmp_path):
    before = archive({f"s/r{i}.report.json": report(model_name=f"OpenMed/m{i}", metrics={"leakage": {"overall": i / 100}})
                      for i in range(6)}, name="before")
    run_pelican(settings_for(tmp_path / "first", before))
    after = archive({f"s/r{i}.report.json": report(model_name=f"OpenMed/m{i}", generated_at="2026-07-0{}T00:00:00Z".format(1 + i),
                                                   metrics={"leakage": {"overall": (6 - i) / 100}})
                     for i in range(6)}, name="after")
    seen = {}

    def written(path, context):
        seen[os.path.relpath(path, tmp_path / "out").replace(os.sep, "/")] = context["page"]

    signals.content_written.connect(written)
    try:
        run_pelican(settings_for(tmp_path / "out", after, LEADERBOARD_PAGE_ROWS=2,
                                 LEADERBOARD_PREVIOUS_LEADERBOARD=str(tmp_path / "first" / "leaderboard.json")))
    finally:
        signals.content_written.disconnect(written)
    changes = sorted(path for path in seen if path == "changes.html" or path.startswith("changes/"))
    assert changes[0] == "changes.html" and len(changes) > 1
    assert changes == sorted(path.relative_to(tmp_path / "out").as_posix() for path in (tmp_path / "out").rglob("*.html")
                             if path.name == "changes.html" or "changes" in path.parent.parts)
    for path in changes:
        assert isinstance(seen[path], contents.Content) and not isinstance(seen[path], contents.Page)
        assert seen[path].date == datetime(2026, 7, 6, tzinfo=timezone.utc)
    assert seen["changes.html"].title == "Changes in v1.0.0"


def test_a_report_page_object_is_what_pelican_makes_of_its_metadata(tmp_path):
    """Report page objects after the first are made from it (its attributes copied, the row's set
    anew): each must hold exactly what Pelican's Content.__init__ makes of the same metadata."""
    from pelican.contents import Content

    from benchmark_leaderboard.present.pages import ReportPage

    made_pages = []
    listen = lambda page: made_pages.append(page) if isinstance(page, ReportPage) else None  # noqa: E731
    signals.content_object_init.connect(listen)
    try:
        build(SETTINGS, str(tmp_path / "site"), release_tag="v3.1.0", extra={"LEADERBOARD_WORKERS": 1},
              progress=lambda line: None)
    finally:
        signals.content_object_init.disconnect(listen)
    assert len(made_pages) == 20
    for page in made_pages:
        fresh = ReportPage("", dict(page.metadata), settings=page.settings, context=page._context)
        assert page.__dict__ == fresh.__dict__, page.save_as
        assert page.translations is not made_pages[0].translations or page is made_pages[0]
        # The build's settings and context, held as they are (as Pelican's pages hold what they are
        # given), never a copy a page: a sitemap keeps every page object until the build ends.
        assert page.settings is made_pages[0].settings and page._context is made_pages[0]._context
        assert isinstance(page, Content) and page.url == page.metadata["url"] and page.save_as == page.metadata["save_as"]
