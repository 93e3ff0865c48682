"""Page objects: every HTML page the plugin writes, as the ``pelican.contents`` objects that
Pelican's own generators make, for the theme and for other plugins (a sitemap, a search index).

A report's page is a ``ReportPage`` (a ``Page`` whose template is ``report``) dated by the report's
run date; the index, a long family's further pages, the compare page and the changes pages are
``BoardPage`` objects (a ``Content``, as Pelican's index pages are no ``Page``) dated by the
archive's latest run date. ``LeaderboardPages`` is the list of them all that the generator puts in
the context: a sequence whose report pages are made when they are read, one at a time, so that an
archive of any size costs no memory for them and a worker makes only the pages it renders."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from datetime import date, datetime, timezone
from typing import Any, NamedTuple

from pelican import signals
from pelican.contents import Content, Page

from .fill import url_of

REPORT_PAGES = "report/"


class ReportPage(Page):
    """The page of one published report (``report/<its path>.html``), published."""

    default_template = "report"
    default_status = "published"


class BoardPage(Content):
    """A page of the whole board: the index, a family's further page, the compare page, a changes page."""

    default_template = "leaderboard"
    mandatory_properties = ("title",)
    default_status = "published"


class PagePlace(NamedTuple):
    """A board page, decided in generate_context: where it is written, its template and title."""

    save_as: str
    template: str
    title: str


def report_page_path(report_path: str) -> str:
    """Where a report's page is written: ``report/`` and its path, ``.json`` becoming ``.html``."""
    return REPORT_PAGES + report_path[: -len(".json")] + ".html"


def report_page_url(report_path: str) -> str:
    """The URL of a report's page, relative to the site."""
    return url_of(report_page_path(report_path))


def page_address(save_as: str) -> str:
    """The address of the page written as ``save_as``, relative to the site, as the sitemap lists it
    and as its canonical link names it: a folder's ``index.html`` is the folder."""
    url = url_of(save_as)
    return url[: -len("index.html")] if url == "index.html" or url.endswith("/index.html") else url


def run_datetime(run_date: str) -> datetime:
    """A row's run date (``YYYY-MM-DD``) as the page's date: that day's midnight, in UTC."""
    day = date.fromisoformat(run_date)
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc)


class LeaderboardPages(Sequence):
    """Every HTML page the plugin writes, in writing order: the board pages, then a page a published
    row in ranking order. Indexing or iterating makes each page object as it is read (Pelican's
    ``Content.__init__`` runs, and ``content_object_init`` is sent); none is kept."""

    def __init__(self, board: Any, places: Sequence[PagePlace], settings: dict[str, Any], context: dict[str, Any]):
        self._rows = board.rows
        self._suites = board.suites
        self._suite_of = board.standing.suite_of
        self._places = tuple(places)
        self._settings = settings
        self._context = context
        self._dates: dict[str, tuple[datetime, str]] = {}  # a run date's page date and its text
        self._prototype: dict[str, Any] | None = None  # the attributes of the first report page made
        self._mutable: tuple[str, ...] = ()  # those that hold a list, a dict or a set
        latest = max((row.run_date for row in self._rows), default=None)
        self.latest = run_datetime(latest) if latest else None

    @property
    def places(self) -> tuple[PagePlace, ...]:
        """Where the board pages are written, in order (no page object made)."""
        return self._places

    def __len__(self) -> int:
        return len(self._places) + len(self._rows)

    def __getitem__(self, item: int | slice) -> Any:
        if isinstance(item, slice):
            return [self[number] for number in range(*item.indices(len(self)))]
        if item < 0:
            item += len(self)
        if not 0 <= item < len(self):
            raise IndexError(item)
        if item < len(self._places):
            return self.board_page(item)
        return self.report(item - len(self._places))

    def board_page(self, number: int) -> BoardPage:
        place = self._places[number]
        metadata = {"title": place.title, "slug": place.save_as[: -len(".html")], "save_as": place.save_as,
                    "url": url_of(place.save_as), "status": "published", "template": place.template}
        if self.latest is not None:
            metadata["date"] = self.latest
        return BoardPage("", metadata, settings=self._settings, context=self._context)

    def report(self, index: int) -> ReportPage:
        """The page of the row at ``index`` in ranking order: what ``ReportPage(...)`` makes of its
        metadata, made from the first report page made (a copy of its attributes, those of the row
        set anew: what Pelican's ``Content.__init__`` derives from them, the date's text once a
        date), with ``content_object_init`` sent as Pelican sends it."""
        row = self._rows[index]
        dated = self._dates.get(row.run_date)
        save_as = report_page_path(row.report_path)
        # Ten entries at most: a sitemap plugin keeps every page object until the end of the build, and
        # a dict of ten entries takes half the memory of one of eleven to twenty-one. The template
        # (``report``) and the status (``published``) are the class's defaults.
        metadata = {"title": row.model_name, "slug": save_as[len(REPORT_PAGES): -len(".html")], "save_as": save_as,
                    "url": url_of(save_as), "date": dated[0] if dated else run_datetime(row.run_date),
                    "model_name": row.model_name, "model_family": row.model_family,
                    "suite": self._suites[self._suite_of[index]].name, "release_tag": row.release_tag,
                    "report_path": row.report_path}
        if self._prototype is None or dated is None:
            page = ReportPage("", metadata, settings=self._settings, context=self._context)
            self._dates[row.run_date] = (page.date, page.locale_date)
            if self._prototype is None:
                self._prototype = page.__dict__
                # Its settings and context are the build's own, which Pelican gives every page as
                # they are: only what it makes anew for each page is copied (a copy of the context
                # a page would hold the build's context twice over at 100,000 pages).
                self._mutable = tuple(name for name, value in page.__dict__.items()
                                      if isinstance(value, (list, dict, set))
                                      and value is not self._settings and value is not self._context
                                      and name != "metadata")
            return page
        page = ReportPage.__new__(ReportPage)
        attributes = page.__dict__
        attributes.update(self._prototype)
        attributes.update(metadata)
        del attributes["save_as"], attributes["url"]
        attributes["override_save_as"], attributes["override_url"] = metadata["save_as"], metadata["url"]
        attributes["metadata"] = metadata
        attributes["date"], attributes["locale_date"] = dated
        for name in self._mutable:  # a list of its own, as each page has (translations, authors)
            attributes[name] = copy.copy(attributes[name])
        signals.content_object_init.send(page)
        return page
