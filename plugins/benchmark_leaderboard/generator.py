"""Pelican glue: connects the phases to Pelican's, and does nothing else.

``generate_context`` reads and decides (``decide.pipeline``: one immutable ``Leaderboard``; the
board's view, its page objects, the changes page and feed entry of a build given a
previous leaderboard), checks what the build may write (``write.claims``, ``write.output``) and puts
it all in the context; it writes nothing and leaves nothing running. ``generate_output`` hands the
writing map its tasks (``write.work``, ``write.rendering``: every page rendered with the context as
it is then, since other plugins may have added to it), writes the changes pages, the feed and the
schemas, finishes a render in place (``write.output``), announces every page with
``content_written`` (``write.writer``) and writes the render's marker last. ``register`` connects
the generator, the filters and the one-line problems of ``pelican content`` to Pelican's signals."""

from __future__ import annotations

from contextlib import contextmanager
from functools import partial
import logging
import os
import sys
from dataclasses import dataclass
from typing import Any, Iterator

from pelican import signals
from pelican.generators import Generator

from . import exits, workers
from .board import Leaderboard
from .decide.history import archive_history
from .decide.previous import compared_with_previous
from .decide.pipeline import read_leaderboard
from .formatting import TEMPLATE_FILTERS, short_hash
from .one_line import print_problems_on_one_line
from .paths import (CHANGES_PAGE, FEED_PATH, SCHEMAS, address_of, family_page_path, model_page_url, page_address,
                    panel_script_path, report_page_url, suite_csv_path, suite_home, suite_page_path)
from .present import included
from .present.badge import STYLE, TEMPLATE as BADGE_TEMPLATE, badge_rows
from .present.board_view import BoardView, board_view, site_nav
from .present.changes_page import changes_of
from .present.columns import (CELLS, FAMILY_COLUMNS, HASH_SHOWN, NUMERIC_KINDS, TABLES, TOP_CELLS, TOP_COLUMNS,
                              track as column_track)
from .present.feed import CONTENT_TEMPLATE, FeedEntry, feed_bytes, release_entry
from .present.model_pages import ModelIndex, model_index, model_pages
from .present.pages import board_page_specs, leaderboard_pages
from .present.publish import ROW_CHUNK
from .problems import BuildFailed
from .read import validate
from .settings import Options, checked, options
from .write import claims, output, work
from .write.plan import BADGE, COLUMNS, FEED_ENTRY, NOJS, PANEL, Plan, plan
from .write.rendering import PageJob, write_counted, write_changes
from .write.writer import SiteWriter

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
# Sent by the generator with ``paths=[...]`` (relative to the output) once the files of the edited
# reports (``pipeline.Read.read_anew``) are written, before any other task's: how the preview's runner
# puts the edited report's page where the reader is while the rest of the render is made.
leaderboard_first_written = signals.signal("leaderboard_first_written")


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
            self._write(writer)

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
        self.leaderboard: Leaderboard
        # The rows' canonical copies stay beside the board, out of the context: only the files made of a
        # report (its copy, its page, its suite's metrics) read its bytes (board.Copies).
        self.leaderboard, self.copies, self.read_anew = read_leaderboard(self.options)
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
        self.changes = changes_of(compared_with_previous(self.options.previous_leaderboard, self.options.release_tag,
                                                         self.leaderboard.rows), self.options.page_rows)
        self.context["leaderboard_changes"] = self.changes
        # What the site's header links when the build has a changes page (a plain value: a template
        # that reads only this depends on no row).
        self.context["leaderboard_changes_page"] = CHANGES_PAGE if self.changes is not None else None
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
        self.page_specs = board_page_specs(self.leaderboard, self.view, self.changes, self.settings.get("SITENAME", ""),
                                           self.options.index_save_as, self.options.index_url)
        self.pages = leaderboard_pages(self.leaderboard, self.page_specs, self.settings, self.context)
        # Then a page a model (model_pages), after the report pages.
        self.models: ModelIndex = model_index(self.leaderboard.rows)
        self.pages += model_pages(self.models, self.leaderboard.rows, self.settings, self.context)
        self.context["leaderboard_pages"] = self.pages
        # Every file the leaderboard writes, what makes it and what it is made from (write/plan.py).
        self.plan: Plan = plan(self.leaderboard, self.copies, self.view, self.changes, self.feed, self.badge_rows,
                               self.models, self.page_specs, self.options.index_save_as, self.options.index_url)
        if self.earlier_files is not None:
            claims.refuse_overwriting(self.output_path, self.plan.paths(), self.earlier_files)
        logger.info("Ranked %d rows in %d suites", len(self.leaderboard.rows), len(self.leaderboard.suites))

    def _write(self, writer: Any) -> None:
        # The static generator decided what it copies after generate_context: nor may any of that.
        static = list(claims.static_paths(self.context, self.settings, self.theme))
        claims.refuse_collisions(static, self.options.index_save_as)
        board = self.leaderboard
        previous = self.output_path if self.in_place else self.options.previous_render
        # The other generators have read the Markdown pages by now, and other plugins may have added
        # to the context since generate_context: pages are rendered with the context as it is now,
        # and each output's digest counts what its template reads of it.
        self.context["site_nav"] = site_nav(self.context.get("pages", []))
        templates = {name: self.get_template(name).name for name in ("report", "leaderboard", "family_page",
                                                                      "compare", "model", "changes", "changes_page")}
        templates.update({name: name for name in (COLUMNS, NOJS, PANEL)})
        templates[BADGE] = BADGE_TEMPLATE
        templates[FEED_ENTRY] = CONTENT_TEMPLATE
        earlier = output.read_marker(previous) if previous is not None else None
        # Pelican's writer, which the plugin supplies (get_writer); another plugin's first gets one of ours.
        site = writer if isinstance(writer, SiteWriter) else SiteWriter(self.output_path, self.settings)
        site.prepare(previous, self.options.keep_unchanged and not self.in_place, (earlier or {}).get("digests"),
                     output.marker_time(previous) if earlier else None)
        # The writer holds the digests it needs; the rest of the marker is not kept while pages are made.
        del earlier
        output.forget_markers()
        linked_at_start = site.linked
        pages = {page.save_as: page for page in self.pages}
        context = dict(self.context)
        included.reuse_where_sound(self.env, SITE_CHROME, context)

        def page_job(make: frozenset[str] | None) -> PageJob:
            boards = len(self.page_specs)
            return PageJob(board, self.copies, self.view, self.get_template("report"),
                           self.get_template("leaderboard"), self.get_template("family_page"),
                           self.get_template("compare"), self.env.get_template("columns.css"),
                           self.env.get_template("nojs.css"), self.env.get_template("panel.js"), context,
                           self.settings["RELATIVE_URLS"], site, self.options.index_save_as, self.options.index_url,
                           {page.save_as: page for page in self.pages[:boards]},
                           self.pages[boards:boards + len(board.rows)], self.env.get_template(BADGE_TEMPLATE),
                           self.badge_rows, tuple(suite.row_count for suite in board.suites),
                           self.get_template("model"), self.models, self.pages[boards + len(board.rows):], make)

        # A rebuild that knows which reports were edited (the preview's) writes their files first, here,
        # before the digests of the other outputs are worked out and before any of them is kept: the
        # page a reader of the preview waits for does not depend on them. Each of those files is made
        # (or, being the previous render's bytes, linked) as it would be among the others.
        written: list[str] = []
        if self.read_anew and site.previous is not None:
            written, _, _ = write_counted(page_job(None), work.ReportPages(self.read_anew))
            site.announce([pages[path] for path in written if path in pages], self.context)
            leaderboard_first_written.send(self, paths=list(written))
        # A plugin may change a page object as it is made: then each page's digest counts its attributes.
        changed_pages = self.pages if signals.content_object_init.receivers else None
        self.plan.finish(self.env, self.context, self.settings, templates, changed_pages)
        # Beside a previous render, the outputs whose digests say that they would be made again of the
        # same inputs, and whose files are still as that render left them, are kept (SiteWriter.unchanged),
        # here, before any task starts; the writing map is given only the tasks with something else to
        # make. A kept page is this render's file: it is announced with content_written at once.
        make: frozenset[str] | None = None
        if site.previous is not None:
            first = frozenset(written)
            kept = site.keep_unchanged_files({path: found for path, found in self.plan.digests.items()
                                              if path not in first})
            make = frozenset(self.plan.digests).difference(kept, first)
            site.announce([pages[path] for path in kept if path in pages], self.context)
            written += kept
        job = page_job(make)
        tasks = self.plan.tasks(make, lambda items: workers.chunks(items, self.options.workers))

        def arrived(part: tuple[list[str], int, int]) -> None:
            # Each task's files as it ends: a worker's are noted in this process's writer, and its
            # pages announced with content_written, in the order of the tasks.
            paths, _, process = part
            if process != os.getpid():
                site.claim(paths)
            site.announce([pages[path] for path in paths if path in pages], self.context)

        parts = workers.run(write_counted, tasks, job, self.options.workers, arrived)
        written += [path for paths, _, _ in parts for path in paths]
        # What workers linked (this process's own count is its writer's).
        linked = sum(count for _, count, process in parts if process != os.getpid())

        def made(path: str) -> bool:
            return make is None or path in make

        if self.changes is not None:
            changed = [path for path in write_changes(job, self.get_template("changes"),
                                                      self.get_template("changes_page"), self.changes) if made(path)]
            site.announce([pages[path] for path in changed if path in pages], self.context)
            written += changed
        if self.feed is not None and made(FEED_PATH):
            site_url = self.context["leaderboard_site_url"]
            written.append(site.write(FEED_PATH, feed_bytes(
                [self.feed], self.env.get_template(CONTENT_TEMPLATE), site_name=self.settings.get("SITENAME", ""),
                feed_id=f"{self.feed.id}/feed", link=self.feed.link, feed_url=f"{site_url}/{FEED_PATH}",
                language=self.settings.get("DEFAULT_LANG") or "en")))
        for name in validate.SCHEMA_NAMES:
            if made(SCHEMAS + name):
                written.append(site.write(SCHEMAS + name, validate.schema_text(name).encode("utf-8")))
        # What the tasks wrote or kept is what the registry listed, no more and no less.
        unplanned = sorted(set(written) ^ set(self.plan.paths()))
        if unplanned:
            raise BuildFailed(f"the leaderboard's registry of outputs and what it wrote differ: {', '.join(unplanned[:5])}")
        files = claims.render_files(self.output_path, written, static, self.settings)
        if self.in_place:
            kept = output.finish_in_place(self.output_path, self.earlier_files, written, files,
                                          self.settings.get("OUTPUT_RETENTION") or ())
            if kept:
                print(output.kept_line(kept), file=sys.stderr)
        digests = {path: found for path, found in self.plan.digests.items() if found is not None}
        written.append(site.replace(output.MARKER, output.marker_bytes(self.options.release_tag, files, digests)))
        written.sort()
        linked += site.linked - linked_at_start
        families = len({family.name for suite in board.suites for family in suite.families})
        leaderboard_written.send(self, written=Written(len(board.rows), len(board.suites), families, len(written),
                                                       linked))


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


def get_writer(pelican_object):
    return SiteWriter


def _add_filters(generator: Generator) -> None:
    """Every generator's Jinja environment, as Pelican hands it over, gets the theme's filters."""
    generator.env.filters.update(TEMPLATE_FILTERS)


def register() -> None:
    signals.initialized.connect(print_problems_on_one_line)
    signals.generator_init.connect(_add_filters)
    signals.get_generators.connect(get_generators)
    signals.get_writer.connect(get_writer)
    signals.content_written.connect(claims.note_written)
