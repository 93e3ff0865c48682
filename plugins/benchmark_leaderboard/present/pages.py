"""Page objects: every HTML page the plugin writes, as the ``pelican.contents`` objects that
Pelican's own generators make, for the theme and for other plugins (a sitemap, a search index).

A report's page is a ``ReportPage`` (a ``Page`` whose template is ``report``) dated by the report's
run date; the index, a long family's further pages, the compare page and the changes pages are
``BoardPage`` objects (a ``Content``, as Pelican's index pages are no ``Page``) dated by the
archive's latest run date. ``leaderboard_pages`` makes them all, in ``generate_context``, as
Pelican's own generators make their pages there; the generator keeps the list as ``pages`` and in
the context as ``leaderboard_pages``, for the theme and for other plugins."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timezone
from typing import Any, NamedTuple

from pelican.contents import Content, Page

from ..board import Leaderboard
from ..paths import (CHANGES_PAGE, COMPARE_PAGE, REPORT_PAGES, changes_page_path, family_page_path, report_page_path,
                     suite_page_path, url_of)
from .board_view import BoardView, after_the_first, family_pagers
from .changes_page import ChangesPage



class ReportPage(Page):
    """The page of one published report (``report/<its path>.html``), published."""

    default_template = "report"
    default_status = "published"


class BoardPage(Content):
    """A page of the whole board: the index, a family's further page, the compare page, a changes page."""

    default_template = "leaderboard"
    mandatory_properties = ("title",)
    default_status = "published"


class PageSpec(NamedTuple):
    """A board page, decided in generate_context: where it is written, its template and title, and
    its URL when that is not where it is written (the index's LEADERBOARD_INDEX_URL)."""

    save_as: str
    template: str
    title: str
    url: str | None = None


def run_datetime(run_date: str) -> datetime:
    """A row's run date (``YYYY-MM-DD``) as the page's date: that day's midnight, in UTC."""
    day = date.fromisoformat(run_date)
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc)


def leaderboard_pages(board: Any, specs: Sequence[PageSpec], settings: dict[str, Any],
                      context: dict[str, Any]) -> list[Content]:
    """Every HTML page the plugin writes, as the page objects Pelican makes of their metadata, in
    writing order: the board pages, then a page a published row in ranking order. Each is made by
    Pelican's ``Content.__init__``, which sends ``content_object_init`` for it: a handler sees
    every page fresh, with its own metadata, and what it sets on one page is on that page alone."""
    latest = max((row.run_date for row in board.rows), default=None)
    latest_date = run_datetime(latest) if latest else None
    pages: list[Content] = [board_page(spec, latest_date, settings, context) for spec in specs]
    dates: dict[str, datetime] = {}  # a run date's page date, made once a date
    suites, suite_of = board.suites, board.places.suite_of
    for index, row in enumerate(board.rows):
        date_of = dates.get(row.run_date)
        if date_of is None:
            date_of = dates[row.run_date] = run_datetime(row.run_date)
        pages.append(report_page(row, suites[suite_of[index]].name, date_of, settings, context))
    return pages


def board_page(spec: PageSpec, latest: datetime | None, settings: dict[str, Any],
               context: dict[str, Any]) -> BoardPage:
    """The page object of a board page, dated by the archive's latest run date."""
    metadata = {"title": spec.title, "slug": spec.save_as[: -len(".html")], "save_as": spec.save_as,
                "url": spec.url or url_of(spec.save_as), "status": "published", "template": spec.template}
    if latest is not None:
        metadata["date"] = latest
    return BoardPage("", metadata, settings=settings, context=context)


def report_page(row: Any, suite_name: str, date_of: datetime, settings: dict[str, Any],
                context: dict[str, Any]) -> ReportPage:
    """The page object of a row's report page, dated by its run date: its metadata are the row's
    identity (title, model, family, suite, release, report path) and where the page is written: ten
    entries, as a dict of ten takes half the memory of one of eleven and a sitemap keeps every page
    object until the build ends (the template, ``report``, and the status are the class's defaults)."""
    save_as = report_page_path(row.report_path)
    metadata = {"title": row.model_name, "slug": save_as[len(REPORT_PAGES): -len(".html")], "save_as": save_as,
                "url": url_of(save_as), "date": date_of, "model_name": row.model_name,
                "model_family": row.model_family, "suite": suite_name,
                "release_tag": row.release_tag, "report_path": row.report_path}
    return ReportPage("", metadata, settings=settings, context=context)


def board_page_specs(board: Leaderboard, view: BoardView, changes: ChangesPage | None, site_name: str,
                 index_save_as: str, index_url: str) -> list[PageSpec]:
    """Where the pages of the whole board are written, as ``generate_output`` writes them: the
    index, each other suite's page, the compare page, every family's pages, the changes pages."""
    specs = [PageSpec(index_save_as, "leaderboard", site_name, index_url)]
    specs += [PageSpec(suite_page_path(suite.anchor), "leaderboard", f"{site_name}: {suite.name}")
               for suite in board.suites[1:]]
    specs.append(PageSpec(COMPARE_PAGE, "compare", "Compare rows"))
    for suite in board.suites:
        for number, family in enumerate(suite.families, 1):
            specs += [PageSpec(family_page_path(suite.anchor, number, pager.number), "family_page",
                                 f"{suite.name}, {family.name}: rows {pager.first} to {pager.last}")
                       for pager in family_pagers(suite, number, view.page_rows)]
    if changes is not None:
        specs.append(PageSpec(CHANGES_PAGE, "changes", changes.title))
        for section in changes.sections:
            specs += [PageSpec(changes_page_path(section.anchor, pager.number), "changes_page",
                                 f"{changes.title}, {section.title}: rows {pager.first} to {pager.last}")
                       for pager in after_the_first(lambda page: changes.pager(section, page))]
    return specs
