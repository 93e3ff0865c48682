"""The writing map's work: each kind of task (work.py) rendered and written, in a worker or here.

``write_counted`` is the function the map runs over the tasks: it finds the task's writer by its
type (``_WRITERS``) and counts the files it linked from the previous render. Every page is its
template rendered in full with the site's context, its page object as ``page`` and ``output_file``,
as Pelican's writer renders a page (``_rendered``), and reaches the output folder through the one
writer (writer.py). ``PageJob`` is what every worker shares: the decided leaderboard, the compiled
templates and the context."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from pelican.utils import get_relative_path, path_to_url

from ..board import Copies, Leaderboard
from ..decide.document import leaderboard_json, uncertainty_json
from ..decide.pipeline import report_of, room_for_nesting
from ..paths import (CHANGES_PAGE, COLUMNS_CSS, COMPARE_DATA, COMPARE_PAGE, DATA_SCRIPT, LEADERBOARD_CSV,
                     LEADERBOARD_JSON, NOJS_CSS, PREVIOUS_COPY, REPORT_COPIES, ROW_CHUNKS, UNCERTAINTY, badge_path,
                     changes_page_path, family_page_path, panel_script_path, report_page_url, suite_csv_path,
                     suite_home, suite_page_path)
from ..present.badge import Badge, badge_of, badge_svg
from ..present.board_view import BoardView, after_the_first, family_pagers, suite_rows
from ..present.changes_page import ChangesPage
from ..present.downloads import csv_lines, csv_pieces
from ..present.leaves import metric_leaves
from ..present.model_pages import ModelIndex, ModelPage, model_details
from ..present.pages import BoardPage, ReportPage
from ..present.publish import chunk_count, chunk_script, data_script, metrics_script
from ..present.report_details import report_details
from . import work
from .writer import SiteWriter



@dataclass(frozen=True)
class PageJob:
    """What every worker shares while writing pages: the leaderboard, the compiled templates and
    the site's context."""

    board: Leaderboard
    copies: Copies  # every row's canonical copy, which only the files made of a report read
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
    # The outputs to make (None: every one); the others the build's process has kept from the
    # previous render before the map started, since their digests say that they would be the same.
    make: frozenset[str] | None


def _kept(job: PageJob, path: str) -> bool:
    """Whether the output at ``path`` was kept from the previous render (is not to be made)."""
    return job.make is not None and path not in job.make


def write_counted(job: PageJob, task: Any) -> tuple[list[str], int, int]:
    """The files ``_write_part`` made, how many of them turned out to be the previous render's bytes
    and were linked or left in place (counted where the task runs: a worker's writer is its own),
    and the process it ran in."""
    before = job.site.linked
    paths = _write_part(job, task)
    if job.make is not None:
        paths = [path for path in paths if path in job.make]
    return paths, job.site.linked - before, os.getpid()


def _write_part(job: PageJob, task: Any) -> list[str]:
    """Write one part of the site: what the task (a kind of work.py) names."""
    return _WRITERS[type(task)](job, task)


def _write_index(job: PageJob, task: work.IndexPage) -> list[str]:
    """The index, the first suite's page (the others are SuitePage tasks), and the style sheets."""
    board, view = job.board, job.view
    written = [job.index_save_as, COLUMNS_CSS, NOJS_CSS]
    if not _kept(job, job.index_save_as):
        _render(job, job.index_template, job.index_save_as, page_name="index", leaderboard=board, view=view,
                current=board.suites[0], panels=True)
    if not _kept(job, COLUMNS_CSS):
        _render(job, job.columns_template, COLUMNS_CSS)
    if not _kept(job, NOJS_CSS):
        _render(job, job.nojs_template, NOJS_CSS)
    return written


def _write_suite(job: PageJob, task: work.SuitePage) -> list[str]:
    """A suite's page, for a reader without the script, and its panel as a script, which the
    index's tabs load when the suite is first shown (its links are the index's)."""
    board, view = job.board, job.view
    suite = board.suites[task.suite]
    page, panel = suite_page_path(suite.anchor), panel_script_path(suite.anchor)
    if not _kept(job, page):
        _render(job, job.index_template, page, page_name="index", leaderboard=board, view=view, current=suite,
                panels=False)
    if not _kept(job, panel):
        _render(job, job.panel_template, panel, page_name="index", leaderboard=board, view=view, suite=suite,
                relative_to=job.index_save_as)
    return [page, panel]


def _write_whole(job: PageJob, task: work.WholeFiles) -> list[str]:
    """The files made of every row, and the compare page."""
    board, view = job.board, job.view
    if not _kept(job, LEADERBOARD_JSON):
        job.site.write_pieces(LEADERBOARD_JSON, leaderboard_json(board.rows, board.suites))
    if not _kept(job, UNCERTAINTY):
        job.site.write_pieces(UNCERTAINTY, uncertainty_json(board.rows, board.uncertainty))
    if not _kept(job, DATA_SCRIPT):
        job.site.write(DATA_SCRIPT, data_script(board.rows, board.suites, view))
    chunks = [f"{ROW_CHUNKS}{number}.js" for number in range(chunk_count(len(board.rows)))]
    for number, chunk in enumerate(chunks):
        if not _kept(job, chunk):
            job.site.write(chunk, chunk_script(board.rows, board.suites, view, number))
    if not _kept(job, COMPARE_PAGE):
        _render(job, job.compare_template, COMPARE_PAGE, page_name="compare")
    csvs = [(LEADERBOARD_CSV, None)] + [(suite_csv_path(suite.anchor), suite) for suite in board.suites]
    made = [(path, suite) for path, suite in csvs if not _kept(job, path)]
    if made:
        lines = csv_lines(board.rows, board.uncertainty)
        for path, suite in made:
            job.site.write_pieces(path, csv_pieces(lines, None if suite is None else suite_rows(suite)))
    return [LEADERBOARD_JSON, UNCERTAINTY, DATA_SCRIPT, *chunks, COMPARE_PAGE, *(path for path, _ in csvs)]


def _write_metrics(job: PageJob, task: work.SuiteMetrics) -> list[str]:
    """A suite's metrics for comparing, each row's read back from its canonical copy: the build keeps
    the copies' bytes, not every report's parsed metrics, whose memory grows with the archive."""
    board = job.board
    suite = board.suites[task.suite]
    path = COMPARE_DATA + suite.anchor + ".js"
    if _kept(job, path):
        return [path]
    with room_for_nesting():
        metrics = [(index, metric_leaves(report_of(job.copies, index)[0].get("metrics"))) for index in suite_rows(suite)]
    return [job.site.write(path, metrics_script(suite, metrics))]


# What writes each kind of work (work.py).
_WRITERS: dict[type, Callable[[Any, Any], list[str]]] = {
    work.WholeFiles: _write_whole, work.IndexPage: _write_index, work.SuitePage: _write_suite,
    work.FamilyPages: lambda job, task: _write_family_pages(job, task.suite, task.family),
    work.SuiteMetrics: _write_metrics, work.ModelPages: lambda job, task: _write_models(job, task.models),
    work.ReportPages: lambda job, task: _write_reports(job, task.rows),
}


def _write_family_pages(job: PageJob, suite_number: int, family_number: int) -> list[str]:
    """A family's pages: each the family's table for its slice of rows (the index shows its top)."""
    board, view = job.board, job.view
    suite = board.suites[suite_number]
    family = suite.families[family_number]
    written = []
    for pager in family_pagers(suite, family_number + 1, view.page_rows):
        path = family_page_path(suite.anchor, family_number + 1, pager.number)
        written.append(path)
        if not _kept(job, path):
            _render(job, job.family_template, path, leaderboard=board, view=view, suite=suite, family=family,
                    pager=pager, shown=family.rows[pager.first - 1:pager.last])
    return written


def write_changes(job: PageJob, template: Any, page_template: Any, changes: ChangesPage) -> list[str]:
    """changes.html, with the first page of each kind of change; the further pages of the kinds
    longer than a page; and the previous leaderboard it compared with."""
    written = [CHANGES_PAGE]
    if not _kept(job, CHANGES_PAGE):
        _render(job, template, CHANGES_PAGE, page_name="changes", changes=changes)
    for section in changes.sections:
        for pager in after_the_first(lambda number: changes.pager(section, number)):
            path = changes_page_path(section.anchor, pager.number)
            written.append(path)
            if not _kept(job, path):
                _render(job, page_template, path, page_name="changes", changes=changes, section=section, pager=pager,
                        shown=section.lines[pager.first - 1:pager.last])
    written.append(PREVIOUS_COPY)
    if not _kept(job, PREVIOUS_COPY):
        job.site.write(PREVIOUS_COPY, changes.previous_bytes)
    return written


def _render(job: PageJob, template: Any, save_as: str, **variables: Any) -> str:
    """Render ``template`` as ``_rendered`` does and write it as ``save_as``."""
    return job.site.write(save_as, _rendered(job, template, save_as, **variables).encode("utf-8"))


def _rendered(job: PageJob, template: Any, save_as: str, **variables: Any) -> str:
    """``template`` rendered with the site's context for the page ``save_as``, as Pelican's writer
    renders a page: with ``template.render``, so with Jinja's globals, the site's JINJA_GLOBALS and
    Jinja's own messages for a template's errors; the page's template gets its page object as
    ``page`` (a board page's, found by where it is written) and ``output_file``, and a SITEURL
    relative to the page when the site uses relative URLs. Given ``relative_to``, its links are
    written for that page instead (a suite's panel script, shown within the index)."""
    relative_to = variables.pop("relative_to", save_as)
    variables["output_file"] = save_as
    if "page" not in variables:
        variables["page"] = job.board_pages.get(save_as)
    if job.relative_urls:
        variables["SITEURL"] = variables["localsiteurl"] = _relative_site_url(relative_to)
    return template.render(job.context, **variables)


def _relative_site_url(save_as: str) -> str:
    """The SITEURL of the page ``save_as`` in a site of relative URLs ("../.." and the like), as
    Pelican's writer gives it to a page."""
    return path_to_url(get_relative_path(save_as))


def _badge(job: PageJob, index: int) -> Badge:
    """The badge the row at ``index`` stands for (its suite and model's, when it is their badge row)."""
    board = job.board
    row = board.rows[index]
    suite_number = board.places.suite_of[index]
    sure = board.uncertainty
    return badge_of(badge_path(board.suites[suite_number].anchor, row.model_name), row.suite, row.model_name,
                    row.leakage, board.places.in_suite[index], job.suite_rows[suite_number], row.release_tag,
                    f"{sure.best[index]}–{sure.worst[index]}", source=report_page_url(row.report_path))


def _badge_svg(job: PageJob, badge: Badge) -> bytes:
    """A badge's SVG, from the theme's badge.svg (``badge.badge_svg``)."""
    return badge_svg(job.badge_template, badge)


def _write_reports(job: PageJob, indices: Sequence[int]) -> list[str]:
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
            page = job.report_pages[index]
            copy_path = REPORT_COPIES + row.report_path
            written.append(copy_path)
            badge_index = badge_rows[index]
            badge_file = badge_path(board.suites[places.suite_of[badge_index]].anchor, board.rows[badge_index].model_name)
            copy_kept, page_kept = _kept(job, copy_path), _kept(job, page.save_as)
            badge_kept = badge_index != index or _kept(job, badge_file)
            if badge_index == index:
                written.append(badge_file)
            written.append(page.save_as)
            if copy_kept and page_kept and badge_kept:
                continue
            payload, copy = report_of(job.copies, index)
            if not copy_kept:
                job.site.write(copy_path, copy)
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
            badge = _badge(job, badge_index)
            if not badge_kept:
                job.site.write(badge.path, _badge_svg(job, badge))
            if not page_kept:
                _render(job, template, page.save_as, page=page, row=row, report=details, badge=badge)
    return written


def _write_models(job: PageJob, numbers: Sequence[int]) -> list[str]:
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
        page = job.model_pages[number]
        written.append(page.save_as)
        if _kept(job, page.save_as):
            continue
        details = model_details(name, models.rows[name], board, job.view, board.manifest.get(name), home, history,
                                badge, job.badge_rows, tag_order)
        _render(job, job.model_template, page.save_as, page=page, model=details)
    return written
