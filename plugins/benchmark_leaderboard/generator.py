"""Pelican glue: a generator that decides the leaderboard in ``generate_context`` and writes the site
in ``generate_output``.

``generate_context`` reads and decides: it checks that the output may be written, reads the archive
(``pipeline``) and publishes one immutable ``Leaderboard`` in the context; it writes nothing and
leaves nothing running. ``generate_output`` writes every file through ``SiteWriter``: the index,
leaderboard.json and the schemas here, the report copies and pages in worker processes, each page
rendered with the context as it is then (other plugins may have added to it); then it announces
every file with ``content_written``, removes what an earlier render in the same folder wrote and
this one did not, and writes the render's marker last."""

from __future__ import annotations

import hashlib
import logging
import os
import sys
from dataclasses import dataclass
from typing import Any, Sequence
from urllib.parse import quote

from pelican import signals
from pelican.generators import Generator
from pelican.utils import get_relative_path, path_to_url

from . import exits, output, validate, workers
from .columns import COLUMNS, NUMERIC_KINDS
from .pipeline import Leaderboard, read_leaderboard, report_of, room_for_nesting
from .problems import BuildFailed, BuildRefused, one_line
from .publish import embedded, leaderboard_json
from .settings import Options, options
from .view import ReportPage, percent, report_details, site_nav
from .writer import SiteWriter

logger = logging.getLogger(__name__)

REPORT_PAGES = "report/"
REPORT_COPIES = "reports/"
# The folders that hold only this plugin's files: what an earlier render wrote there and this one
# did not is removed when rendering in place.
OWN_FOLDERS = (REPORT_PAGES, REPORT_COPIES, "schemas/")


@dataclass(frozen=True)
class Written:
    """What one build published: sent with ``leaderboard_written`` once every file is written."""

    rows: int
    suites: int
    families: int
    files: int


# Sent by the generator (the sender) with ``written=Written(...)`` at the end of generate_output:
# how a runner learns what was built without reading the output back.
leaderboard_written = signals.signal("leaderboard_written")


def report_page_path(report_path: str) -> str:
    """Where a report's page is written: ``report/`` and its path, ``.json`` becoming ``.html``."""
    return REPORT_PAGES + report_path[: -len(".json")] + ".html"


def report_page_url(report_path: str) -> str:
    """The URL of a report's page, relative to the site."""
    return quote(report_page_path(report_path))


class LeaderboardGenerator(Generator):
    """Publishes the archive: ``index.html``, ``leaderboard.json``, ``reports/``, ``schemas/`` and
    a page per report under ``report/``."""

    def generate_context(self) -> None:
        self.options: Options = options(self.settings)
        protected = output.protected_folders({**self.settings, "LEADERBOARD_REPORTS_DIR": self.options.reports_dir,
                                              "LEADERBOARD_MANIFEST": self.options.manifest})
        problem = output.output_problem(self.output_path, protected)
        if problem:
            raise BuildFailed(problem)
        # Rendering into the folder of an earlier render (``pelican content`` does): unchanged files
        # stay, and what that render wrote and this one does not is removed once this one is written.
        self.in_place = output.read_marker(self.output_path) is not None
        logger.info("Reading the archive in %s", self.options.reports_dir)
        self.leaderboard: Leaderboard = read_leaderboard(self.options)
        self.context["leaderboard"] = self.leaderboard
        self.context["leaderboard_columns"] = COLUMNS
        self.context["numeric_kinds"] = NUMERIC_KINDS
        self.context["report_page_url"] = report_page_url
        logger.info("Ranked %d rows in %d suites", len(self.leaderboard.rows), len(self.leaderboard.suites))

    def generate_output(self, writer) -> None:
        board = self.leaderboard
        self.env.filters["percent"] = percent
        previous = self.output_path if self.in_place else self.options.previous_render
        site = SiteWriter(self.output_path, previous)
        # The other generators have read the Markdown pages by now, and other plugins may have added
        # to the context since generate_context: pages are rendered with the context as it is now.
        self.context["site_nav"] = site_nav(self.context.get("pages", []))
        job = _PageJob(board, self.get_template("report"), self.get_template("leaderboard"),
                       self.env.get_template("columns.css"), dict(self.context), self.settings["RELATIVE_URLS"], site)
        tasks: list[Any] = ["index"] + workers.chunks(range(len(board.rows)), self.options.workers)
        written = [path for part in workers.run(_write_part, tasks, job, self.options.workers) for path in part]
        for name in validate.SCHEMA_NAMES:
            written.append(site.write("schemas/" + name, validate.schema_text(name).encode("utf-8")))
        written.append(site.write_pieces("leaderboard.json", leaderboard_json(board.rows, board.suites)))
        if self.in_place:
            _remove_stale(self.output_path, set(written))
        written.append(site.write(output.MARKER, output.marker_bytes(self.options.release_tag)))
        written.sort()
        site.announce(written, self.context)
        families = len({family.name for suite in board.suites for family in suite.families})
        leaderboard_written.send(self, written=Written(len(board.rows), len(board.suites), families, len(written)))


@dataclass(frozen=True)
class _PageJob:
    """What every worker shares while writing pages: the leaderboard, the compiled templates and
    the site's context."""

    board: Leaderboard
    report_template: Any
    index_template: Any
    columns_template: Any
    context: dict[str, Any]
    relative_urls: bool
    site: SiteWriter


def _write_part(job: _PageJob, task: Any) -> list[str]:
    """Write one part of the site: ``"index"``, or the copies and pages of a range of rows."""
    if task == "index":
        board = job.board
        return [_render(job, job.index_template, "index.html", page_name="index", leaderboard=board,
                        embedded_json=embedded(board.rows, board.suites)),
                _render(job, job.columns_template, "theme/columns.css")]
    return _write_reports(job, task)


def _render(job: _PageJob, template: Any, save_as: str, **variables: Any) -> str:
    """Render ``template`` with the site's context, as Pelican's writer would (a SITEURL relative
    to the page when the site uses relative URLs), and write it as ``save_as``."""
    context = template.new_context(job.context, shared=True)
    local = context.vars
    local.update(output_file=save_as, **variables)
    if job.relative_urls:
        local["SITEURL"] = local["localsiteurl"] = path_to_url(get_relative_path(save_as))
    html = template.environment.concat(template.root_render_func(context))
    return job.site.write(save_as, html.encode("utf-8"))


def _write_reports(job: _PageJob, indices: Sequence[int]) -> list[str]:
    """The canonical copy and the page of each row at ``indices``."""
    board = job.board
    written: list[str] = []
    site_urls: dict[str, str] = {}
    with room_for_nesting():
        for index in indices:
            filled = board.ranked[index]
            row = filled.row
            payload, copy = report_of(board, index)
            written.append(job.site.write(REPORT_COPIES + row.report_path, copy))
            suite = board.suites[board.standing.suite_of[index]]
            details = report_details(filled, payload, index + 1, board.standing.in_suite[index],
                                     board.standing.in_family[index], len(board.rows), suite.anchor,
                                     hashlib.sha256(copy).hexdigest())
            save_as = report_page_path(row.report_path)
            page = ReportPage(row.model_name, report_page_url(row.report_path), save_as)
            template = job.report_template
            context = template.new_context(job.context, shared=True)
            local = context.vars
            local.update(output_file=save_as, url=page.url, page=page, report=details)
            if job.relative_urls:
                folder = os.path.dirname(save_as)
                if folder not in site_urls:
                    site_urls[folder] = path_to_url(get_relative_path(save_as))
                local["SITEURL"] = local["localsiteurl"] = site_urls[folder]
            html = template.environment.concat(template.root_render_func(context))
            written.append(job.site.write(save_as, html.encode("utf-8")))
    return written


def _remove_stale(output_path: str, written: set[str]) -> None:
    """Rendering in place: remove the files of the plugin's own folders that this render did not
    write (the page and copy of a report removed from the archive), then their empty folders."""
    for own in OWN_FOLDERS:
        top = os.path.join(output_path, own)
        for folder, folders, files in os.walk(top, topdown=False):
            for name in files:
                path = os.path.join(folder, name)
                if os.path.relpath(path, output_path).replace(os.sep, "/") not in written:
                    os.unlink(path)
            for name in folders:
                try:
                    os.rmdir(os.path.join(folder, name))
                except OSError:  # not empty
                    pass


class _ProblemsOnOneLine(logging.Filter):
    """Under ``pelican content``, Pelican logs the exception that stopped a build with its traceback,
    wrapped to the terminal's width. A refused archive or a build that cannot go on is printed
    instead as ``invoke build`` prints it, one line a problem, and Pelican exits with the
    exception's ``exitcode`` (1 refused, 2 failed)."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, BuildRefused):
            count = len(error.problems)
            lines = error.lines() + [f"build refused: {count} problem{'s' if count != 1 else ''}; nothing was written"]
        elif isinstance(error, BuildFailed):
            lines = [f"build failed: {error}"]
        elif isinstance(error, OSError):
            error.exitcode = exits.UNUSABLE
            lines = [f"build failed: {one_line(error.strerror or str(error))}" + (f": {one_line(str(error.filename))}" if error.filename else "")]
        else:
            return True
        for line in lines:
            print(line, file=sys.stderr)
        return False


_ONE_LINE = _ProblemsOnOneLine()


def get_generators(pelican_object):
    return LeaderboardGenerator


def register() -> None:
    signals.get_generators.connect(get_generators)
    pelican_logger = logging.getLogger("pelican")
    if _ONE_LINE not in pelican_logger.filters:
        pelican_logger.addFilter(_ONE_LINE)
