"""Pelican glue: a generator that builds the leaderboard, hands it to the theme and writes the site.

Settings (all optional): ``LEADERBOARD_REPORTS_DIR``, ``LEADERBOARD_MANIFEST``,
``LEADERBOARD_RELEASE_TAG``; relative paths are taken from the working folder."""

from __future__ import annotations

import logging
import os
import shutil
from dataclasses import dataclass
from typing import Iterable
from functools import cached_property
from urllib.parse import quote

from pelican import signals
from pelican.contents import Page
from pelican.generators import Generator
from pelican.utils import get_relative_path, path_to_url

from . import validate
from .build import Leaderboard, Part, Standing, build_leaderboard
from .report_page import ReportDetails, percent, report_details

logger = logging.getLogger(__name__)

DEFAULTS = {
    "LEADERBOARD_REPORTS_DIR": "content/benchmarks",
    "LEADERBOARD_MANIFEST": "models.jsonl",
    "LEADERBOARD_RELEASE_TAG": None,
}


@dataclass(frozen=True)
class Written:
    """What one build published: sent with ``leaderboard_written`` once every file is written."""

    rows: int
    suites: int
    families: int


# Sent by the generator (the sender) with ``written=Written(...)`` at the end of generate_output:
# how a runner learns what was built without reading the output back.
leaderboard_written = signals.signal("leaderboard_written")


class ReportPage(Page):
    """One archived report's own page: a Pelican page rendered with the theme's ``report`` template.
    Its metadata holds its ``row``, the rows' ``standing`` and its copy's ``sha256``; what it shows
    is worked out when it is written, by the process that writes it."""

    default_template = "report"

    @cached_property
    def report(self) -> ReportDetails:
        return report_details(self.standing, self.row, self.sha256)


@dataclass(frozen=True, slots=True, eq=False)
class NavLink:
    """A Markdown page in the site's navigation, its URL and title worked out once per build."""

    url: str
    title: str
    page: Page


def report_page_path(report_path: str) -> str:
    """Where a report's page is written: ``report/`` and its path, ``.json`` becoming ``.html``."""
    return "report/" + report_path[: -len(".json")] + ".html"


def report_page_url(report_path: str) -> str:
    """The URL of a report's page, relative to the site."""
    return quote(report_page_path(report_path))


class LeaderboardGenerator(Generator):
    """Reads the archive in ``generate_context`` (refusing it before anything is written) and
    writes ``index.html``, ``leaderboard.json``, ``reports/``, ``schemas/`` and the report pages."""

    def generate_context(self) -> None:
        self.env.filters["percent"] = percent
        self._folders_made: set[str] = set()
        option = {key: self.settings.get(key, value) for key, value in DEFAULTS.items()}
        # The other generators have read the Markdown pages by now; their URLs are Pelican
        # properties, worked out again at each use, so the navigation computes them once. It is
        # set before the build, whose forked partner writes report pages with this context.
        self.context["site_nav"] = site_nav(self.context.get("pages", []))
        logger.info("Reading the archive in %s", option["LEADERBOARD_REPORTS_DIR"])
        self.leaderboard = build_leaderboard(
            option["LEADERBOARD_REPORTS_DIR"], option["LEADERBOARD_MANIFEST"], option["LEADERBOARD_RELEASE_TAG"],
            write_part=self._write_partner_part, before_writing=self._remove_stale_copies,
        )
        standing, digests = self.leaderboard.standing, self.leaderboard.digests
        # The pages this process writes (the partner makes its own); the index links to all of them.
        self.report_pages = [self._report_page(row, standing, digests[row.fields["report_path"]])
                             for row in self.leaderboard.rows_here]
        self.context["leaderboard"] = self.leaderboard
        self.context["report_page_urls"] = {row.fields["report_path"]: report_page_url(row.fields["report_path"])
                                            for row in self.leaderboard.ranked}
        logger.info("Ranked %d rows in %d suites", len(self.leaderboard.ranked), len(self.leaderboard.suites))

    def _report_page(self, row, standing: Standing, sha256: str) -> ReportPage:
        path = report_page_path(row.fields["report_path"])
        # The slug is the page's path: unique, and Pelican need not make one from the title (half
        # of the time it takes to make a page).
        metadata = {"title": row.fields["model_name"], "slug": path[: -len(".html")], "save_as": path,
                    "url": report_page_url(row.fields["report_path"]), "row": row, "standing": standing, "sha256": sha256}
        return ReportPage("", metadata=metadata, settings=self.settings, source_path=None, context=self.context)

    def _write_partner_part(self, part: Part) -> None:
        """The report pages and copies that the build's forked partner writes. The pages are kept
        until it exits: freeing thousands of them one by one would only delay the end of the build."""
        self._write_copies(part.report_copies.items())
        self.report_pages = [self._report_page(row, part.standing, part.digests[row.fields["report_path"]])
                             for row in part.rows]
        self._write_report_pages(self.report_pages)

    def _remove_stale_copies(self) -> None:
        """Once the archive is accepted, before anything is written: the copies of an earlier render
        into the same folder go (``pelican content`` renders in place; ``invoke build`` never does)."""
        reports = os.path.join(self.output_path, "reports")
        if os.path.lexists(reports):
            shutil.rmtree(reports) if os.path.isdir(reports) and not os.path.islink(reports) else os.unlink(reports)

    def generate_output(self, writer) -> None:
        leaderboard: Leaderboard = self.leaderboard
        partner = leaderboard.partner
        try:
            relative = self.settings["RELATIVE_URLS"]
            writer.write_file("index.html", self.get_template("leaderboard"), self.context, relative_urls=relative,
                              page_name="index", leaderboard=leaderboard)
            self._write_bytes("leaderboard.json", leaderboard.leaderboard_json)
            for name in validate.SCHEMA_NAMES:
                self._write_bytes("schemas/" + name, validate.schema_text(name).encode("utf-8"))
            self._write_copies(leaderboard.report_copies.items())
            self._write_report_pages(self.report_pages)
        except BaseException:
            if partner is not None:
                partner.abandon()
            raise
        if partner is not None:
            partner.join()
        families = {family.name for suite in leaderboard.suites for family in suite.families}
        leaderboard_written.send(self, written=Written(len(leaderboard.ranked), len(leaderboard.suites), len(families)))

    def _write_copies(self, copies: Iterable[tuple[str, bytes]]) -> None:
        for path, data in copies:
            self._write_bytes("reports/" + path, data)

    def _write_report_pages(self, pages: list[ReportPage]) -> None:
        """Each page through the theme's report template, compiled once, with the context Pelican's
        Writer would give it (the site context, a relative SITEURL, ``page`` and ``url``)."""
        template = self.get_template("report")
        relative = self.settings["RELATIVE_URLS"]
        site = {**template.globals, **self.context}
        site.setdefault("localsiteurl", None)
        site_urls: dict[str, str] = {}
        concat = self.env.concat
        for page in pages:
            # The site context is shared by every page, not copied: each page's own values are the
            # context's variables, which a template reads before the shared ones.
            context = template.new_context(site, shared=True)
            local = context.vars
            local.update(output_file=page.save_as, url=page.url, page=page)
            if relative:
                folder = os.path.dirname(page.save_as)
                if folder not in site_urls:
                    site_urls[folder] = path_to_url(get_relative_path(page.save_as))
                local["SITEURL"] = local["localsiteurl"] = site_urls[folder]
            try:
                html = concat(template.root_render_func(context))
            except Exception:
                self.env.handle_exception()
            self._write_bytes(page.save_as, html.encode("utf-8"))

    def _write_bytes(self, relative: str, data: bytes) -> None:
        target = os.path.join(self.output_path, *relative.split("/"))
        folder = os.path.dirname(target)
        if folder not in self._folders_made:
            os.makedirs(folder, exist_ok=True)
            self._folders_made.add(folder)
        # Three system calls a file (Python's open() adds three more), for 2 × N files.
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), 0o666)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(descriptor, view):]
        finally:
            os.close(descriptor)


def site_nav(pages: list[Page]) -> list[NavLink]:
    """The Markdown pages in navigation order (``navorder``), each with its URL and its
    ``navtitle`` (or title)."""
    def order(page: Page):  # as Jinja's sort filter orders them: text ignoring case
        value = page.navorder
        return value.lower() if isinstance(value, str) else value

    return [NavLink(page.url, getattr(page, "navtitle", page.title), page) for page in sorted(pages, key=order)]


def get_generators(pelican_object):
    return LeaderboardGenerator


def register() -> None:
    signals.get_generators.connect(get_generators)
