"""What the board's pages look up beyond its rows: each row's fixtures, size, frontier mark,
rounded values and intervals as the tables write them, the suites' charts, the family pages' pagers,
the releases the archive covers, and the site's navigation (``BoardView``, made once a build in
``generate_context``). Every value reaches a template as what it is; nothing here is markup."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from ..board import FIELDS, Leaderboard
from ..decide.uncertainty import Uncertainty
from ..formatting import DECIMALS, interval_texts, rounded, size_text, table_decimals
from ..paths import family_page_path
from ..versions import version_order
from .chart import Chart, suite_chart

_LEAKAGE, _RECALL = FIELDS.index("leakage"), FIELDS.index("recall")


@dataclass(frozen=True, slots=True)
class NavLink:
    """A Markdown page in the site's navigation, its URL and title worked out once per build."""

    url: str
    title: str
    page: Any


def site_nav(pages: list[Any]) -> list[NavLink]:
    """The Markdown pages in navigation order (``navorder``), each with its URL and its
    ``navtitle`` (or title)."""
    def order(page: Any):  # as Jinja's sort filter orders them: text ignoring case
        value = getattr(page, "navorder", "")
        return value.lower() if isinstance(value, str) else value

    return [NavLink(page.url, getattr(page, "navtitle", page.title), page) for page in sorted(pages, key=order)]


# The lede lists the release tags the archive covers up to this many; beyond, the first and last.
LEDE_TAGS = 12


@dataclass(frozen=True, slots=True)
class Pager:
    """One page of a long table's rows (a family's, or a kind of change's): page 1 is where the
    table first appears, on the index or on changes.html, the others are pages of their own."""

    number: int
    count: int
    first: int  # the table's row number (1-based) of the page's first row
    last: int
    total: int
    links: tuple[tuple[int, str], ...]  # every page, (number, its URL within the site)
    label: str  # what the links between the pages are called

    @property
    def previous(self) -> str | None:
        return self.links[self.number - 2][1] if self.number > 1 else None

    @property
    def next(self) -> str | None:
        return self.links[self.number][1] if self.number < self.count else None


def pager(suite: Any, family_number: int, page: int, page_rows: int) -> Pager:
    """Page ``page`` of a suite's family ``family_number`` (1-based)."""
    family = suite.families[family_number - 1]
    return pager_of(lambda number: family_page_path(suite.anchor, family_number, number), page, len(family.rows), page_rows,
                    f"Pages of {suite.name}, {family.name}")


def pager_of(url: Callable[[int], str], page: int, total: int, page_rows: int, label: str) -> Pager:
    """Page ``page`` of a table of ``total`` rows, ``page_rows`` a page, the URL of each page given by ``url``."""
    count = max(1, -(-total // page_rows))
    links = tuple((number, url(number)) for number in range(1, count + 1))
    return Pager(page, count, (page - 1) * page_rows + 1, min(total, page * page_rows), total, links, label)


# Where the script runs, a family's Show more button adds this many rows (or a page's, if fewer).
SHOW_MORE = 100


@dataclass(frozen=True)
class BoardView:
    """What the index, the family pages and the page's data show beyond the published rows, by the
    row's index in the global ranking where it is a row's, worked out once per build."""

    fixture_count: tuple[int, ...]
    param_count: tuple[int | float | None, ...]  # from the manifest; None when unknown
    size: tuple[str, ...]  # param_count written short, "" when unknown
    frontier: tuple[int, ...]  # 1 when the row is on its suite's Pareto frontier, else 0
    thin_evidence: int
    page_rows: int  # a family table's rows a page
    index_rows: int  # a family's top rows on the index and the suites' pages
    index_tables: int  # a suite's families that show their top rows there (the others: heading and link)
    tops: tuple[tuple[int, ...], ...]  # by suite: its best LEADERBOARD_TOP_ROWS rows across its families, in ranking order
    charts: tuple[Chart, ...]  # by suite
    release_tags: tuple[str, ...]  # every release tag of the rows, in version order (versions.version_order)
    latest_run: str  # the largest run_date
    uncertainty: Uncertainty  # every row's intervals and rank range in its suite (the Leaderboard's)
    leakage_interval: tuple[str, ...]  # each row's leakage interval as the pages write it (interval_texts)
    recall_interval: tuple[str, ...]  # and its recall's
    rank_digits: int  # the digits of the largest suite's row count: of the longest rank a table writes
    # The rows whose leakage, and those whose recall, the tables write with more than two decimals
    # (by their index: how many), so that rows the ranking separates do not read the same (display).
    decimals: tuple[dict[int, int], dict[int, int]] = ({}, {})

    @property
    def more_rows(self) -> int:
        """The rows a family's Show more button adds."""
        return min(SHOW_MORE, self.page_rows)

    @property
    def tags_listed(self) -> bool:
        return len(self.release_tags) <= LEDE_TAGS

    def pager(self, suite: Any, family_number: int, page: int = 1) -> Pager:
        """The pager of a family (1-based ``family_number`` in its suite) at ``page``."""
        return pager(suite, family_number, page, self.page_rows)

    def decimals_at(self, field: int, index: int) -> int:
        """The decimals the tables write the percentage at position ``field`` of the row at ``index`` with."""
        found = self.decimals[0] if field == _LEAKAGE else self.decimals[1] if field == _RECALL else None
        return found.get(index, DECIMALS) if found else DECIMALS

    def percent(self, field: int, index: int, fraction: float) -> str:
        """``fraction``, the value at position ``field`` of the row at ``index``, as the tables write
        it (formatting.rounded, with ``decimals_at``); the report page writes it exactly (``percent``)."""
        return rounded(fraction, self.decimals_at(field, index))

    def interval(self, field: int, index: int) -> str:
        """The 95% interval of the fraction at position ``field`` of the row at ``index`` (its leakage
        or its recall), as ``interval_text`` writes it."""
        return self.leakage_interval[index] if field == _LEAKAGE else self.recall_interval[index]


def suite_rows(suite: Any) -> list[int]:
    """A suite's rows, every family's, as indices of the global ranking in ranking order."""
    return sorted(index for family in suite.families for index in family.rows)


def board_view(board: "Leaderboard", thin_evidence: int, page_rows: int, chart_marks: int, index_rows: int,
               index_tables: int, top_rows: int) -> BoardView:
    rows = board.rows
    counts = tuple(param_count(board.manifest.get(row.model_name)) for row in rows)
    frontier = [0] * len(rows)
    charts = []
    tops = []
    sure = board.uncertainty

    def intervals(index: int) -> tuple[float, float, float, float]:
        return sure.leakage_low[index], sure.leakage_high[index], sure.recall_low[index], sure.recall_high[index]

    in_suites = [suite_rows(suite) for suite in board.suites]
    for suite, indices in zip(board.suites, in_suites):
        tops.append(tuple(indices[:top_rows]))
        chart = suite_chart([(rows[i].leakage, rows[i].recall) for i in indices], indices, chart_marks, intervals)
        for index in chart.frontier:
            frontier[index] = 1
        charts.append(chart)
    return BoardView(
        fixture_count=tuple(filled.fixture_count for filled in board.ranked),
        param_count=counts,
        size=tuple(size_text(count) for count in counts),
        frontier=tuple(frontier),
        thin_evidence=thin_evidence,
        page_rows=page_rows,
        index_rows=index_rows,
        index_tables=index_tables,
        tops=tuple(tops),
        charts=tuple(charts),
        release_tags=tuple(sorted({row.release_tag for row in rows}, key=version_order)),
        latest_run=max(row.run_date for row in rows),
        uncertainty=board.uncertainty,
        leakage_interval=interval_texts(sure.leakage_low, sure.leakage_high),
        recall_interval=interval_texts(sure.recall_low, sure.recall_high),
        rank_digits=len(str(max(suite.row_count for suite in board.suites))),
        decimals=table_decimals(rows, in_suites),
    )


def family_pagers(suite: Any, family_number: int, page_rows: int) -> Iterator[Pager]:
    """The pager of each page of a family (numbered from 1 in its suite), from its first page on."""
    count = pager(suite, family_number, 1, page_rows).count
    for number in range(1, count + 1):
        yield pager(suite, family_number, number, page_rows)


def after_the_first(pager_at: Callable[[int], Pager]) -> Iterator[Pager]:
    """Pages 2 and on of a long table (its first page is on the index or on changes.html), each the
    pager ``pager_at`` gives for its number."""
    for number in range(2, pager_at(1).count + 1):
        yield pager_at(number)


def param_count(manifest_row: dict[str, Any] | None) -> int | float | None:
    """The manifest row's ``param_count`` when it is a positive finite number, else None (unknown)."""
    value = manifest_row.get("param_count") if manifest_row else None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) and value > 0 else None
