"""Pelican glue: a generator that decides the leaderboard in ``generate_context`` and writes the site
in ``generate_output``.

``generate_context`` reads and decides: it checks that the output may be written, reads the archive
(``pipeline``) and publishes one immutable ``Leaderboard`` in the context, and the ``BoardView`` of
what the pages show beyond its rows (frontier, sizes, charts); it writes nothing and leaves nothing
running. ``generate_output`` writes every file through ``SiteWriter``: the schemas here; in worker
processes leaderboard.json, uncertainty.json, the page's data file and its chunks for compare, the
CSV downloads, the compare page, the index, each other suite's page and its panel as a script (for
the index's tabs), every family's pages, each suite's metrics for comparing, and the report copies
and pages (with the badge of each suite and model, ``badge``) and a page a model
(``model_pages``), each page rendered with the context as it is then (other plugins may have added
to it); the changes pages and the feed of a build given
a previous leaderboard (``feed``); then it announces every HTML page with ``content_written`` and
its page object (``pages``), removes what an earlier render in the same folder wrote and this one did
not, and writes the render's marker last."""

from __future__ import annotations

from contextlib import contextmanager
from functools import partial
import hashlib
import logging
import sys
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from pelican import signals
from pelican.generators import Generator
from pelican.utils import get_relative_path, path_to_url

from . import exits, workers
from .present import included
from .write import claims, output, work
from .read import validate
from .paths import badge_path
from .present.badge import STYLE, TEMPLATE as BADGE_TEMPLATE, Badge, badge_of, badge_rows, badge_svg
from .paths import CHANGES_PAGE, PREVIOUS_COPY, changes_page_path
from .present.changes_page import ChangesPage, build_changes
from .present.columns import (CELLS, FAMILY_COLUMNS, HASH_SHOWN, NUMERIC_KINDS, TABLES, TOP_CELLS, TOP_COLUMNS,
                              track as column_track)
from .present.feed import CONTENT_TEMPLATE, FeedEntry, feed_bytes, release_entry
from .paths import FEED_PATH
from .decide.history import archive_history
from .present.leaves import metric_leaves
from .paths import model_page_path, model_page_url
from .present.model_pages import ModelIndex, ModelPage, model_details, model_index, model_pages
from .board import Leaderboard
from .decide.pipeline import read_leaderboard, report_of, room_for_nesting
from .one_line import print_problems_on_one_line
from .problems import BuildFailed
from .present.downloads import csv_lines, csv_pieces
from .paths import suite_csv_path
from .present.publish import (ROW_CHUNK, chunk_count, chunk_script, data_script, leaderboard_json, metrics_script,
                              uncertainty_json)
from .settings import Options, checked, options
from .paths import address_of, page_address, report_page_path, report_page_url
from .present.pages import BoardPage, PagePlace, ReportPage, leaderboard_pages
from .formatting import TEMPLATE_FILTERS, short_hash
from .present.view import BoardView, Pager, board_view, pager, report_details, site_nav, suite_rows
from .paths import family_page_path, panel_script_path, suite_home, suite_page_path
from .write.writer import SiteWriter
from .paths import REPORT_COPIES, UNCERTAINTY, DATA_SCRIPT, ROW_CHUNKS, COMPARE_DATA

logger = logging.getLogger(__name__)

# What base.html includes on every page: rendered once for each set of values they read, where their
# source shows that this gives every page the same text (included.py).
SITE_CHROME = ("site_head.html", "site_header.html", "site_footer.html")


@dataclass(frozen=True)
class Written:
    """What one build published: sent with ``leaderboard_written`` once every file is written."""

    rows: int
    suites: int
    families: int
    files: int
    linked: int = 0  # of ``files``, those unchanged since the previous render: linked from it, not written again


# Sent by the generator (the sender) with ``written=Written(...)`` at the end of generate_output:
# how a runner learns what was built without reading the output back.
leaderboard_written = signals.signal("leaderboard_written")


class LeaderboardGenerator(Generator):
    """Publishes the archive: ``index.html`` (and ``suite/``, the further pages of long families),
    ``leaderboard.json``, ``uncertainty.json``, ``leaderboard.csv`` and ``suites/`` (a CSV per
    suite), the page's data file ``leaderboard-data.js``, ``compare.html`` and ``compare-data/``,
    ``reports/``, ``schemas/`` and a page per report under ``report/``."""

    def generate_context(self) -> None:
        with _unusable_on_os_error():
            self._decide()

    def generate_output(self, writer) -> None:
        with _unusable_on_os_error():
            self._write()

    def _decide(self) -> None:
        self.options: Options = checked(options(self.settings))
        problem = output.judge(self.output_path, self.settings)
        if problem:
            raise BuildFailed(problem)
        # Rendering into the folder of an earlier render (``pelican content`` does): unchanged files
        # stay, and what that render wrote and this one does not is removed once this one is written;
        # what it did not write (its marker does not list it) is someone else's and stays.
        earlier = output.read_marker(self.output_path)
        self.in_place = earlier is not None
        self.earlier_files = output.render_files(earlier)
        # Pelican's other generators have decided what they write by now (its pages, articles and
        # direct templates): none of it may be a path of the leaderboard's.
        claims.refuse_collisions(claims.pelican_paths(self.context, self.settings), self.options.index_save_as)
        claims.pelican_written.clear()
        logger.info("Reading the archive in %s", self.options.reports_dir)
        self.leaderboard: Leaderboard = read_leaderboard(self.options)
        self.context["leaderboard"] = self.leaderboard
        self.view: BoardView = board_view(self.leaderboard, self.options.thin_evidence, self.options.page_rows,
                                          self.options.chart_marks, self.options.index_rows, self.options.index_tables,
                                          self.options.top_rows)
        self.context["leaderboard_view"] = self.view
        self.context["suite_csv_path"] = suite_csv_path
        self.context["leaderboard_columns"] = FAMILY_COLUMNS
        self.context["leaderboard_cells"] = CELLS
        self.context["top_columns"] = TOP_COLUMNS
        self.context["top_cells"] = TOP_CELLS
        self.context["numeric_kinds"] = NUMERIC_KINDS
        self.context["board_tables"] = TABLES
        self.context["column_track"] = column_track
        self.context["report_page_url"] = report_page_url
        self.context["model_page_url"] = model_page_url
        self.context["family_page_path"] = family_page_path
        self.context["suite_page_path"] = suite_page_path
        self.context["page_address"] = page_address
        self.context["address_of"] = address_of
        # Where the index is written and its URL (LEADERBOARD_INDEX_SAVE_AS, LEADERBOARD_INDEX_URL).
        self.context["leaderboard_index_url"] = self.options.index_url
        self.context["suite_home"] = partial(suite_home, index_url=self.options.index_url)
        self.context["panel_script_path"] = panel_script_path
        self.context["short_hash"] = short_hash
        self.context["hash_shown"] = HASH_SHOWN
        self.context["row_chunk"] = ROW_CHUNK
        # A report page looks its row's history up here; a build given a previous leaderboard has a changes page.
        self.context["leaderboard_history"] = archive_history(self.leaderboard.rows)
        self.changes = build_changes(self.options.previous_leaderboard, self.options.release_tag, self.leaderboard.rows,
                                     self.options.page_rows)
        self.context["leaderboard_changes"] = self.changes
        # A build compared with a previous leaderboard writes the feed of its release (one entry);
        # a release render's pages link the feed of every release at the site's root instead.
        site_url = self.settings.get("SITEURL") or ""
        self.feed: FeedEntry | None = None
        if self.changes is not None:
            self.feed = release_entry(self.changes, self.view.latest_run, site_url)
        self.context["leaderboard_feed_path"] = FEED_PATH if self.feed is not None else None
        self.context["leaderboard_feed_url"] = f"{self.options.site_root}/{FEED_PATH}" if self.options.site_root else None
        # Each row's suite and model has one badge, made of its best row of the newest release it
        # has in the suite; a report page shows its model's, with snippets under the absolute SITEURL.
        self.badge_rows = badge_rows(self.leaderboard.rows, self.leaderboard.places.suite_of)
        self.context["leaderboard_site_url"] = site_url.rstrip("/")
        self.context["badge_style"] = STYLE
        # Every HTML page this build writes, as the page objects Pelican makes (content_object_init
        # is sent for each as it is made): what the templates get as ``page``, what other plugins
        # iterate, and what content_written carries for each page.
        self.places = _board_pages(self.leaderboard, self.view, self.changes, self.settings.get("SITENAME", ""),
                                   self.options.index_save_as, self.options.index_url)
        self.pages = leaderboard_pages(self.leaderboard, self.places, self.settings, self.context)
        # Then a page a model (model_pages), after the report pages.
        self.models: ModelIndex = model_index(self.leaderboard.rows)
        self.pages += model_pages(self.models, self.leaderboard.rows, self.settings, self.context)
        self.context["leaderboard_pages"] = self.pages
        if self.earlier_files is not None:
            claims.refuse_overwriting(self.output_path, self._paths_written(), self.earlier_files)
        logger.info("Ranked %d rows in %d suites", len(self.leaderboard.rows), len(self.leaderboard.suites))

    def _write(self) -> None:
        # The static generator decided what it copies after generate_context: nor may any of that.
        static = list(claims.static_paths(self.context, self.settings, self.theme))
        claims.refuse_collisions(static, self.options.index_save_as)
        board = self.leaderboard
        previous = self.output_path if self.in_place else self.options.previous_render
        site = SiteWriter(self.output_path, previous)
        # The other generators have read the Markdown pages by now, and other plugins may have added
        # to the context since generate_context: pages are rendered with the context as it is now.
        self.context["site_nav"] = site_nav(self.context.get("pages", []))
        places = len(self.places)
        job = _PageJob(board, self.view, self.get_template("report"), self.get_template("leaderboard"),
                       self.get_template("family_page"), self.get_template("compare"),
                       self.env.get_template("columns.css"), self.env.get_template("nojs.css"),
                       self.env.get_template("panel.js"), dict(self.context), self.settings["RELATIVE_URLS"], site,
                       self.options.index_save_as, self.options.index_url,
                       {page.save_as: page for page in self.pages[:places]},
                       self.pages[places:places + len(board.rows)],
                       self.env.get_template(BADGE_TEMPLATE), self.badge_rows,
                       tuple(suite.row_count for suite in board.suites), self.get_template("model"), self.models,
                       self.pages[places + len(board.rows):])
        included.reuse_where_sound(self.env, SITE_CHROME, job.context)
        # The files made of every row first, in one task: one worker reads all the rows, the others
        # only those of their own tasks, so that fewer of the pages they share with this process are
        # copied into them (reading an object writes its reference count).
        tasks: list[Any] = [work.WholeFiles(), work.IndexPage()]
        tasks += [work.SuitePage(s) for s in range(1, len(board.suites))]
        tasks += [work.FamilyPages(s, f) for s, suite in enumerate(board.suites) for f in range(len(suite.families))]
        tasks += [work.SuiteMetrics(s) for s in range(len(board.suites))]
        tasks += [work.ReportPages(rows) for rows in workers.chunks(range(len(board.rows)), self.options.workers)]
        tasks += [work.ModelPages(numbers) for numbers in workers.chunks(range(len(self.models)), self.options.workers)]
        parts = workers.run(_write_counted, tasks, job, self.options.workers)
        written = [path for paths, _ in parts for path in paths]
        linked, linked_before = sum(count for _, count in parts), site.linked
        if self.changes is not None:
            written += _write_changes(job, self.get_template("changes"), self.get_template("changes_page"),
                                      self.changes)
        if self.feed is not None:
            site_url = self.context["leaderboard_site_url"]
            written.append(site.write(FEED_PATH, feed_bytes(
                [self.feed], self.env.get_template(CONTENT_TEMPLATE), site_name=self.settings.get("SITENAME", ""),
                feed_id=f"{self.feed.id}/feed", link=self.feed.link, feed_url=f"{site_url}/{FEED_PATH}",
                language=self.settings.get("DEFAULT_LANG") or "en")))
        for name in validate.SCHEMA_NAMES:
            written.append(site.write("schemas/" + name, validate.schema_text(name).encode("utf-8")))
        files = claims.render_files(self.output_path, written, static, self.settings)
        if self.in_place:
            kept = output.finish_in_place(self.output_path, self.earlier_files, written, files,
                                          self.settings.get("OUTPUT_RETENTION") or ())
            if kept:
                print(output.kept_line(kept), file=sys.stderr)
        written.append(site.write(output.MARKER, output.marker_bytes(self.options.release_tag, files)))
        written.sort()
        linked += site.linked - linked_before
        site.announce(self.pages, self.context)
        families = len({family.name for suite in board.suites for family in suite.families})
        leaderboard_written.send(self, written=Written(len(board.rows), len(board.suites), families, len(written),
                                                       linked))

    def _paths_written(self) -> list[str]:
        """The pages, copies and badges this render writes, for the check against an earlier render."""
        paths = [place.save_as for place in self.places] + ([PREVIOUS_COPY] if self.changes is not None else [])
        paths += [FEED_PATH] if self.feed is not None else []
        board = self.leaderboard
        for index, row in enumerate(board.rows):
            paths += (report_page_path(row.report_path), REPORT_COPIES + row.report_path)
            if self.badge_rows[index] == index:
                paths.append(badge_path(board.suites[board.places.suite_of[index]].anchor, row.model_name))
        paths += [model_page_path(name) for name in self.models.names]
        return paths


@dataclass(frozen=True)
class _PageJob:
    """What every worker shares while writing pages: the leaderboard, the compiled templates and
    the site's context."""

    board: Leaderboard
    view: BoardView
    report_template: Any
    index_template: Any
    family_template: Any
    compare_template: Any
    columns_template: Any
    nojs_template: Any
    panel_template: Any
    context: dict[str, Any]
    relative_urls: bool
    site: SiteWriter
    index_save_as: str  # where the index is written (LEADERBOARD_INDEX_SAVE_AS)
    index_url: str  # and its URL (LEADERBOARD_INDEX_URL)
    board_pages: dict[str, BoardPage]  # the page object of each board page, by where it is written
    report_pages: Sequence[ReportPage]  # the page object of each row's report page, in ranking order
    badge_template: Any
    badge_rows: Any  # for each row, the index of its suite and model's badge row (badge.badge_rows)
    suite_rows: tuple[int, ...]  # each suite's row count
    model_template: Any
    models: ModelIndex  # every model and its rows
    model_pages: Sequence[ModelPage]  # the page object of each model's page, in ``models.names`` order


def _write_counted(job: _PageJob, task: Any) -> tuple[list[str], int]:
    """``_write_part``, and how many of the files it wrote it linked from the previous render (counted
    where the task runs: a worker's writer is its own)."""
    before = job.site.linked
    paths = _write_part(job, task)
    return paths, job.site.linked - before


def _write_part(job: _PageJob, task: Any) -> list[str]:
    """Write one part of the site: what the task (a kind of work.py) names."""
    return _WRITERS[type(task)](job, task)


def _write_index(job: _PageJob, task: work.IndexPage) -> list[str]:
    """The index, the first suite's page (the others are SuitePage tasks), and the style sheets."""
    board, view = job.board, job.view
    return [_render(job, job.index_template, job.index_save_as, page_name="index", leaderboard=board, view=view,
                    current=board.suites[0], panels=True),
            _render(job, job.columns_template, "theme/columns.css"),
            _render(job, job.nojs_template, "theme/nojs.css")]


def _write_suite(job: _PageJob, task: work.SuitePage) -> list[str]:
    """A suite's page, for a reader without the script, and its panel as a script, which the
    index's tabs load when the suite is first shown (its links are the index's)."""
    board, view = job.board, job.view
    suite = board.suites[task.suite]
    return [_render(job, job.index_template, suite_page_path(suite.anchor), page_name="index", leaderboard=board,
                    view=view, current=suite, panels=False),
            _render(job, job.panel_template, panel_script_path(suite.anchor), page_name="index", leaderboard=board,
                    view=view, suite=suite, relative_to=job.index_save_as)]


def _write_whole(job: _PageJob, task: work.WholeFiles) -> list[str]:
    """The files made of every row, and the compare page."""
    board, view = job.board, job.view
    written = [job.site.write_pieces("leaderboard.json", leaderboard_json(board.rows, board.suites)),
               job.site.write_pieces(UNCERTAINTY, uncertainty_json(board.rows, board.uncertainty)),
               job.site.write(DATA_SCRIPT, data_script(board.rows, board.suites, view)),
               *(job.site.write(f"{ROW_CHUNKS}{number}.js", chunk_script(board.rows, board.suites, view, number))
                 for number in range(chunk_count(len(board.rows)))),
               _render(job, job.compare_template, "compare.html", page_name="compare")]
    lines = csv_lines(board.rows, board.uncertainty)
    written.append(job.site.write_pieces("leaderboard.csv", csv_pieces(lines)))
    for suite in board.suites:
        indices = suite_rows(suite)
        written.append(job.site.write_pieces(suite_csv_path(suite.anchor), csv_pieces(lines, indices)))
    return written


def _write_metrics(job: _PageJob, task: work.SuiteMetrics) -> list[str]:
    """A suite's metrics for comparing. Each row's copy is read back (a few µs each with orjson):
    keeping every row's metric leaves from the read phase instead cost more memory at 100,000
    reports than half the reference's allows (benchmarks/results.md)."""
    board = job.board
    suite = board.suites[task.suite]
    with room_for_nesting():
        metrics = [(index, metric_leaves(report_of(board, index)[0].get("metrics"))) for index in suite_rows(suite)]
    return [job.site.write(COMPARE_DATA + suite.anchor + ".js", metrics_script(suite, metrics))]


# What writes each kind of work (work.py).
_WRITERS: dict[type, Callable[[Any, Any], list[str]]] = {
    work.WholeFiles: _write_whole, work.IndexPage: _write_index, work.SuitePage: _write_suite,
    work.FamilyPages: lambda job, task: _write_family_pages(job, task.suite, task.family),
    work.SuiteMetrics: _write_metrics, work.ModelPages: lambda job, task: _write_models(job, task.models),
    work.ReportPages: lambda job, task: _write_reports(job, task.rows),
}


def _board_pages(board: Leaderboard, view: BoardView, changes: ChangesPage | None, site_name: str,
                 index_save_as: str, index_url: str) -> list[PagePlace]:
    """Where the pages of the whole board are written, as ``generate_output`` writes them: the
    index, each other suite's page, the compare page, every family's pages, the changes pages."""
    places = [PagePlace(index_save_as, "leaderboard", site_name, index_url)]
    places += [PagePlace(suite_page_path(suite.anchor), "leaderboard", f"{site_name}: {suite.name}")
               for suite in board.suites[1:]]
    places.append(PagePlace("compare.html", "compare", "Compare rows"))
    for suite in board.suites:
        for number, family in enumerate(suite.families, 1):
            places += [PagePlace(family_page_path(suite.anchor, number, pages.number), "family_page",
                                 f"{suite.name}, {family.name}: rows {pages.first} to {pages.last}")
                       for pages in _family_pagers(suite, number, view.page_rows)]
    if changes is not None:
        places.append(PagePlace(CHANGES_PAGE, "changes", changes.title))
        for section in changes.sections:
            places += [PagePlace(changes_page_path(section.anchor, pages.number), "changes_page",
                                 f"{changes.title}, {section.title}: rows {pages.first} to {pages.last}")
                       for pages in _after_the_first(lambda page: changes.pages(section, page))]
    return places


def _write_family_pages(job: _PageJob, suite_number: int, family_number: int) -> list[str]:
    """A family's pages: each the family's table for its slice of rows (the index shows its top)."""
    board, view = job.board, job.view
    suite = board.suites[suite_number]
    family = suite.families[family_number]
    return [_render(job, job.family_template, family_page_path(suite.anchor, family_number + 1, pages.number),
                    leaderboard=board, view=view, suite=suite, family=family, pages=pages,
                    shown=family.rows[pages.first - 1:pages.last])
            for pages in _family_pagers(suite, family_number + 1, view.page_rows)]


def _family_pagers(suite: Any, family_number: int, page_rows: int) -> Iterator[Pager]:
    """The pager of each page of a family (numbered from 1 in its suite), from its first page on."""
    count = pager(suite, family_number, 1, page_rows).count
    for number in range(1, count + 1):
        yield pager(suite, family_number, number, page_rows)


def _write_changes(job: _PageJob, template: Any, page_template: Any, changes: ChangesPage) -> list[str]:
    """changes.html, with the first page of each kind of change; the further pages of the kinds
    longer than a page; and the previous leaderboard it compared with."""
    written = [_render(job, template, CHANGES_PAGE, page_name="changes", changes=changes)]
    for section in changes.sections:
        written += [_render(job, page_template, changes_page_path(section.anchor, pages.number), page_name="changes",
                            changes=changes, section=section, pages=pages,
                            shown=section.lines[pages.first - 1:pages.last])
                    for pages in _after_the_first(lambda number: changes.pages(section, number))]
    written.append(job.site.write(PREVIOUS_COPY, changes.previous_bytes))
    return written


def _after_the_first(pager_at: Callable[[int], Pager]) -> Iterator[Pager]:
    """Pages 2 and on of a long table (its first page is on the index or on changes.html), each the
    pager ``pager_at`` gives for its number."""
    for number in range(2, pager_at(1).count + 1):
        yield pager_at(number)


def _render(job: _PageJob, template: Any, save_as: str, **variables: Any) -> str:
    """Render ``template`` as ``_rendered`` does and write it as ``save_as``."""
    return job.site.write(save_as, _rendered(job, template, save_as, **variables).encode("utf-8"))


def _rendered(job: _PageJob, template: Any, save_as: str, **variables: Any) -> str:
    """``template`` rendered with the site's context for the page ``save_as``, as Pelican's writer
    would (a SITEURL relative to the page when the site uses relative URLs)."""
    return template.environment.concat(_rendered_pieces(job, template, save_as, **variables))


def _rendered_pieces(job: _PageJob, template: Any, save_as: str, **variables: Any) -> Iterator[str]:
    """The text of ``_rendered``, in the pieces the template makes it in: the page's template gets
    its page object as ``page`` (a board page's, found by where it is written) and ``output_file``,
    as Pelican's writer gives them. Given ``relative_to``, its links are written for that page
    instead (a suite's panel script, shown within the index)."""
    relative_to = variables.pop("relative_to", save_as)
    variables["output_file"] = save_as
    if "page" not in variables:
        variables["page"] = job.board_pages.get(save_as)
    if job.relative_urls:
        variables["SITEURL"] = variables["localsiteurl"] = _relative_site_url(relative_to)
    return _in_context(job, template, variables)


def _in_context(job: _PageJob, template: Any, variables: dict[str, Any]) -> Iterator[str]:
    """The pieces of ``template`` rendered with the site's context and ``variables`` over it, as
    ``template.render`` would render them with the two merged (without copying the context)."""
    context = template.new_context(job.context, shared=True)
    context.vars.update(variables)
    return template.root_render_func(context)


def _relative_site_url(save_as: str) -> str:
    """The SITEURL of the page ``save_as`` in a site of relative URLs ("../.." and the like), as
    Pelican's writer gives it to a page."""
    return path_to_url(get_relative_path(save_as))


def _badge(job: _PageJob, index: int) -> Badge:
    """The badge the row at ``index`` stands for (its suite and model's, when it is their badge row)."""
    board = job.board
    row = board.rows[index]
    suite_number = board.places.suite_of[index]
    sure = board.uncertainty
    return badge_of(badge_path(board.suites[suite_number].anchor, row.model_name), row.suite, row.model_name,
                    row.leakage, board.places.in_suite[index], job.suite_rows[suite_number], row.release_tag,
                    f"{sure.best[index]}–{sure.worst[index]}", source=report_page_url(row.report_path))


def _badge_svg(job: _PageJob, badge: Badge) -> bytes:
    """A badge's SVG, from the theme's badge.svg (``badge.badge_svg``)."""
    return badge_svg(job.badge_template, badge)


def _write_reports(job: _PageJob, indices: Sequence[int]) -> list[str]:
    """The canonical copy and the page of each row at ``indices``, and the badge of each that is
    its suite and model's badge row. Each page is its template rendered in full, with the site's
    context, the page object, the row, its details and its badge."""
    board = job.board
    badge_rows = job.badge_rows
    places, uncertainty = board.places, board.uncertainty
    written: list[str] = []
    template = job.report_template
    changes = job.context.get("leaderboard_changes")
    history = job.context.get("leaderboard_history")
    with room_for_nesting():
        for index in indices:
            filled = board.ranked[index]
            row = filled.row
            payload, copy = report_of(board, index)
            written.append(job.site.write(REPORT_COPIES + row.report_path, copy))
            page = job.report_pages[index]
            suite_number = places.suite_of[index]
            suite = board.suites[suite_number]
            notes = changes.notes.get(row.report_path) if changes else None
            details = report_details(filled, payload, index + 1, places.in_suite[index], places.in_family[index],
                                     len(board.rows), suite.anchor, hashlib.sha256(copy).hexdigest(),
                                     suite_csv=suite_csv_path(suite.anchor),
                                     manifest_row=board.manifest.get(row.model_name),
                                     thin_evidence=job.view.thin_evidence, on_frontier=bool(job.view.frontier[index]),
                                     uncertainty=uncertainty, suite_number=suite_number, rows=board.rows,
                                     in_suite=places.in_suite, leakage_intervals=job.view.leakage_interval,
                                     recall_intervals=job.view.recall_interval, index_url=job.index_url,
                                     changed=tuple(notes or ()),
                                     changed_release=changes.release_tag if notes else None,
                                     history=history.of(row) if history else None)
            badge_index = badge_rows[index]
            badge = _badge(job, badge_index)
            if badge_index == index:
                written.append(job.site.write(badge.path, _badge_svg(job, badge)))
            written.append(_render(job, template, page.save_as, page=page, row=row, report=details, badge=badge))
    return written


def _write_models(job: _PageJob, numbers: Sequence[int]) -> list[str]:
    """The page of each model at ``numbers`` of the model index: its template rendered with the
    site's context, its page object and its details (model_pages.model_details)."""
    board, models = job.board, job.models
    history = job.context.get("leaderboard_history")
    anchors = [suite.anchor for suite in board.suites]

    def home(number: int) -> str:
        return suite_home(anchors[number], number == 0, job.index_url)

    def badge(index: int) -> Badge:
        return _badge(job, index)

    tag_order = {tag: place for place, tag in enumerate(job.view.release_tags)}
    written = []
    for number in numbers:
        name = models.names[number]
        details = model_details(name, models.rows[name], board, job.view, board.manifest.get(name), home, history,
                                badge, job.badge_rows, tag_order)
        page = job.model_pages[number]
        written.append(_render(job, job.model_template, page.save_as, page=page, model=details))
    return written


@contextmanager
def _unusable_on_os_error() -> Iterator[None]:
    """An error of the disk (full, read-only, gone) stops ``pelican content`` with the status of an
    unusable output; the error itself goes on, so that a runner sees what it is."""
    try:
        yield
    except OSError as error:
        error.exitcode = exits.UNUSABLE
        raise


def get_generators(pelican_object):
    return LeaderboardGenerator


def _add_filters(generator: Generator) -> None:
    """Every generator's Jinja environment, as Pelican hands it over, gets the theme's filters."""
    generator.env.filters.update(TEMPLATE_FILTERS)


def register() -> None:
    signals.initialized.connect(print_problems_on_one_line)
    signals.generator_init.connect(_add_filters)
    signals.get_generators.connect(get_generators)
    signals.content_written.connect(claims.note_written)
