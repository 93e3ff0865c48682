"""What the templates look up: a report page's details (its ranks, how sure they are, every metric and
metadata value, where each field came from, the model's attributes from the manifest), the index's
extras (each row's fixtures, size, frontier mark and intervals, the suites' charts, the family
pages, the releases the archive covers), the site's navigation, and how a fraction is written as a
percentage.

Every value reaches a template as what it is: a number as a number, text as text (the archive's
text as the archive holds it), so that any template, the theme's or an override, prints it with
autoescaping and may filter, compare or branch on it. The few texts worked out here (a percentage,
an interval, a size) are plain strings of digits and signs; nothing here is markup."""

from __future__ import annotations

import math
from functools import lru_cache
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Sequence

from .chart import Chart, suite_chart
from .display import DECIMALS, isolate, rounded, table_decimals
from .fill import FALLBACK, FIELDS, MANIFEST, Filled
from .leaves import leaves_of, shown
from .pages import report_page_url
from .uncertainty import Uncertainty
from .versions import version_order

if TYPE_CHECKING:
    from .pipeline import Leaderboard

HUNDREDTH = Decimal("0.01")
# The order in which a report page lists the published fields: identity, ranking evidence, provenance.
PUBLISHED = ("suite", "model_family", "model_name", "device", "leakage", "recall", "f1",
             "release_tag", "run_date", "reproducibility_hash", "report_path")


def percent(fraction: float) -> str:
    """A fraction in [0, 1] as a percentage with two decimals, or with every decimal it needs when
    two would round it: 0.0093 -> "0.93", 0.5 -> "50.00", 0.123456 -> "12.3456". Exact, never rounded."""
    return _percent_of(repr(float(fraction)))


# Kept by the fraction's text (-0.0 equals 0.0 but is written "-0.00"): a row's three fractions are
# written on its report page, in its table and in its history, and archives repeat a few thousand values.
@lru_cache(maxsize=1 << 14)
def _percent_of(text: str) -> str:
    value = Decimal(text) * 100
    if value == value.quantize(HUNDREDTH):
        return f"{value:.2f}"
    return f"{value.normalize():f}"


# Kept by the bounds: rows of equal leakage and fixtures share an interval (a build writes each row's
# once, ``interval_texts``; the bounds a page or a test gives otherwise repeat).
@lru_cache(maxsize=1 << 11)
def interval_text(low: float, high: float) -> str:
    """A 95% interval as the tables and pages write it: its bounds as percentages with two
    decimals, the lower rounded down and the upper up, so that what is written holds the interval
    (0.0 to 0.7934506856227626 -> "0.00–79.35")."""
    return _bound_of(repr(float(low)), False) + "–" + _bound_of(repr(float(high)), True)


def _bound_of(text: str, up: bool) -> str:
    """A fraction written as Python writes it (``repr``, not negative: "0.0125", "7.8e-11") as a
    percentage with two decimals, rounded down or ``up``: what Decimal's quantize of the text
    times 100 gives, with integers. Its digits are a whole number N, and the value is N × 10^e;
    in hundredths of a percent it is N × 10^(e + 4)."""
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    number = int(whole + fraction)
    shift = (int(exponent) if exponent else 0) - len(fraction) + 4
    if shift >= 0:
        units = number * 10 ** shift
    else:
        units, rest = divmod(number, 10 ** -shift)
        if up and rest:
            units += 1
    return f"{units // 100}.{units % 100:02d}"


def interval_texts(low: Sequence[float], high: Sequence[float]) -> tuple[str, ...]:
    """Each row's 95% interval of one fraction (bounds ``low`` and ``high``, by the row's index), as
    ``interval_text`` writes it: worked out once a build, for its report page, its family's table,
    the report pages that list it among their neighbours and its model's page alike."""
    return tuple(map(interval_text, low, high))


class Leaf(NamedTuple):
    """One leaf of a report's metrics, metadata or other fields, as a report page lists it: its
    nested keys joined by dots, its value as the report holds it, and that value as JSON text
    (strings without quotes, so that true, null and 0.5 read as written)."""

    key: str
    value: Any
    text: str


def leaves(value: Any) -> tuple[Leaf, ...]:
    """Every leaf of ``value`` (lists, scalars and empty objects are leaves), sorted by its keys."""
    return tuple([Leaf(key, leaf, shown(leaf)) for key, leaf in leaves_of(value)])


class Published(NamedTuple):
    """A field of a row in leaderboard.json as a report page lists it: its name, its value (a
    number or text, as published), where it came from (``report``, ``manifest``, ``--release-tag
    fallback`` or ``archive``) and the detail of where (the key in the report, the manifest's row,
    the tag)."""

    name: str
    value: Any
    source: str
    detail: str


@lru_cache(maxsize=4096)
def origin(source: str, release_tag: str) -> tuple[str, str]:
    """Where a published field came from, as (kind, detail), from the source ``fill`` recorded."""
    if source.startswith("/"):
        return "report", source[1:].replace("/", ".")
    if source.startswith(MANIFEST):
        return "manifest", source
    if source == FALLBACK:
        return "--release-tag fallback", release_tag
    return "archive", "the report's path in the archive"


class Attribute(NamedTuple):
    """A model attribute from the manifest as a report page lists it: its label, its key in
    models.jsonl, its value as the manifest holds it, and that value as the page writes it."""

    label: str
    key: str
    value: Any
    text: str


class Neighbour(NamedTuple):
    """A row as a report page lists it among the rows it cannot be told apart from: its page's URL
    within the site, its model and device, its rank in its suite, its leakage as a percentage and
    the leakage's 95% interval."""

    url: str
    model_name: str
    device: str
    rank_in_suite: int
    leakage_percent: str
    leakage_interval: str


@dataclass(frozen=True, slots=True)
class ReportDetails:
    """Everything a report page shows about one row beyond the row's own fields (``row``, given
    beside it): where it stands, how sure that is, its tables, what its release changed and its
    history. Numbers are numbers; the percentages and intervals are the texts the page writes."""

    leakage_percent: str  # the exact percentage (``percent``)
    recall_percent: str
    f1_percent: str
    rank: int  # in the whole ranking
    rank_in_suite: int
    rank_in_family: int
    row_count: int  # of the whole ranking
    suite_home: str  # the URL within the site of the row's suite's page (suite_home)
    suite_csv: str  # the suite's CSV, within the site
    fixture_count: int
    thin_evidence: int  # rows with fewer fixtures than this are marked as thin evidence
    thin: bool  # fixture_count < thin_evidence
    frontier: bool  # the row is on its suite's Pareto frontier
    sha256: str  # the canonical copy's SHA-256, 64 hex digits
    published: tuple[Published, ...]  # the row's fields in leaderboard.json, in PUBLISHED order
    attributes: tuple[Attribute, ...]  # the model's attributes in the manifest (none without a row)
    metrics: tuple[Leaf, ...]
    metadata: tuple[Leaf, ...]
    report_fields: tuple[Leaf, ...]  # the report's other top-level fields
    changed: tuple[str, ...]  # what this release changed of the row (none, or no previous leaderboard)
    changed_release: str | None  # the release being compared, when the build names it
    history: Any  # its model's history across the archive's releases (history.ModelHistory; None with one)
    # How sure its rank is (uncertainty): its 95% intervals as the tables write them, the best and
    # worst rank they allow among the suite's ``suite_rows`` rows, how many rows certainly leak
    # less and more, how many it cannot be told apart from, and the nearest of those in the
    # ranking (NEAREST_SHOWN at most).
    leakage_interval: str
    recall_interval: str
    rank_best: int
    rank_worst: int
    suite_rows: int
    better_count: int
    worse_count: int
    alike_count: int
    nearest: tuple[Neighbour, ...]


_FIELD_INDEX = {name: position for position, name in enumerate(FIELDS)}
_PUBLISHED_INDEX = tuple((name, _FIELD_INDEX[name]) for name in PUBLISHED)

# A report page lists at most this many of the rows of its suite it cannot be told apart from, the
# nearest to it in the ranking, looking this many places either way at most: a suite of 100,000
# rows may hold thousands of them (every row's figures are in the suite's CSV and uncertainty.json).
NEAREST_SHOWN = 5
NEAREST_REACH = 500


def neighbour(rows: Any, in_suite: Any, leakage_intervals: Sequence[str], index: int) -> Neighbour:
    """The row at ``index`` as a report page lists it among the rows it cannot be told apart from
    (``leakage_intervals``: each row's, ``interval_texts``)."""
    row = rows[index]
    return Neighbour(report_page_url(row.report_path), row.model_name, row.device, in_suite[index],
                     percent(row.leakage), leakage_intervals[index])


def report_details(filled: Filled, payload: dict[str, Any], rank: int, rank_in_suite: int, rank_in_family: int,
                   row_count: int, suite_anchor: str, sha256: str, *, suite_csv: str,
                   manifest_row: dict[str, Any] | None, thin_evidence: int, on_frontier: bool, uncertainty: Uncertainty,
                   suite_number: int, rows: Any, in_suite: Any, leakage_intervals: Sequence[str],
                   recall_intervals: Sequence[str], index_url: str = "index.html", changed: tuple[str, ...] = (),
                   changed_release: str | None = None, history: Any = None) -> ReportDetails:
    """Everything a report page shows about one row (at ``rank - 1`` in the ranking), where it
    stands and how sure that is (its suite is number ``suite_number``; the rows it cannot be told
    apart from looked up in ``rows`` and ``in_suite``; every row's intervals as written in
    ``leakage_intervals`` and ``recall_intervals``, ``interval_texts``), the model's attributes in its
    manifest row (none without one), its copy's digest, what its release changed and its history."""
    index = rank - 1
    row = filled.row
    sources, release_tag = filled.sources, row.release_tag
    published = tuple([Published(name, row[i], *origin(sources[i], release_tag)) for name, i in _PUBLISHED_INDEX])
    best, worst, suite_size = uncertainty.best[index], uncertainty.worst[index], uncertainty.suite_size(suite_number)
    nearest = uncertainty.nearest_alike(index, suite_number, rank_in_suite - 1, NEAREST_SHOWN, NEAREST_REACH)
    fixture_count = filled.fixture_count
    return ReportDetails(
        leakage_percent=percent(row.leakage),
        recall_percent=percent(row.recall),
        f1_percent=percent(row.f1),
        rank=rank,
        rank_in_suite=rank_in_suite,
        rank_in_family=rank_in_family,
        row_count=row_count,
        suite_home=suite_home(suite_anchor, suite_number == 0, index_url),
        suite_csv=suite_csv,
        fixture_count=fixture_count,
        thin_evidence=thin_evidence,
        thin=fixture_count < thin_evidence,
        frontier=on_frontier,
        sha256=sha256,
        published=published,
        attributes=tuple(model_attributes(manifest_row)),
        metrics=leaves(payload.get("metrics") or {}),
        metadata=leaves(payload.get("metadata") or {}),
        report_fields=leaves({key: value for key, value in payload.items() if key not in ("metrics", "metadata")}),
        changed=tuple(changed),
        changed_release=changed_release,
        history=history,
        leakage_interval=leakage_intervals[index],
        recall_interval=recall_intervals[index],
        rank_best=best,
        rank_worst=worst,
        suite_rows=suite_size,
        better_count=best - 1,
        worse_count=suite_size - worst,
        alike_count=uncertainty.alike(index),
        nearest=tuple([neighbour(rows, in_suite, leakage_intervals, at) for at in nearest]),
    )


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


# The model attributes a report page shows when its manifest row has them, in this order.
ATTRIBUTES = (("param_count", "Parameters"), ("license", "License"), ("base_model", "Base model"),
              ("task", "Task"), ("released", "Released"))
_UNITS = ((10**12, "T"), (10**9, "B"), (10**6, "M"), (10**3, "K"))
# The lede lists the release tags the archive covers up to this many; beyond, the first and last.
LEDE_TAGS = 12


def param_count(manifest_row: dict[str, Any] | None) -> int | float | None:
    """The manifest row's ``param_count`` when it is a positive finite number, else None (unknown)."""
    value = manifest_row.get("param_count") if manifest_row else None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) and value > 0 else None


@lru_cache(maxsize=1 << 14, typed=True)  # a model's count is shown on each of its rows
def size_text(count: int | float | None) -> str:
    """A parameter count, short: three significant digits at most and K, M, B or T (44000000 ->
    "44M", 2300000000 -> "2.3B", 850 -> "850"); "" for None."""
    if count is None:
        return ""
    value = Decimal(count) if isinstance(count, int) else Decimal(repr(count))
    divisor, letter = next(((unit, name) for unit, name in _UNITS if value >= unit), (1, ""))
    while True:
        shown = _three_digits(value / divisor)
        if shown < 1000 or divisor == _UNITS[0][0]:
            break
        divisor, letter = next((unit, name) for unit, name in reversed(_UNITS) if unit > divisor)
    return f"{shown.normalize():f}" + letter


def _three_digits(value: Decimal) -> Decimal:
    digits = len(str(int(value))) if value >= 1 else 1
    return value.quantize(Decimal(1).scaleb(-max(0, 3 - digits)), rounding=ROUND_HALF_EVEN)


def model_attributes(manifest_row: dict[str, Any] | None) -> list[Attribute]:
    """The ``ATTRIBUTES`` a manifest row has; null and empty values are left out, and so is a
    ``param_count`` that is not a positive number (written short, then exactly: "44M (44,000,000)")."""
    found: list[Attribute] = []
    if not manifest_row:
        return found
    for key, label in ATTRIBUTES:
        value = manifest_row.get(key)
        if key == "param_count":
            count = param_count(manifest_row)
            if count is not None:
                exact = f"{count:,}" if isinstance(count, int) else shown(count)
                found.append(Attribute(label, key, count, f"{size_text(count)} ({exact})"))
            continue
        text = value.strip() if isinstance(value, str) else None if value is None else shown(value)
        if text:
            found.append(Attribute(label, key, value, text))
    return found


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


def family_page_path(anchor: str, family_number: int, page: int) -> str:
    """Where page ``page`` of a suite's family ``family_number`` (both 1-based) is written."""
    return f"suite/{anchor}/{family_number}/{page}.html"


def page_url(anchor: str, family_number: int, page: int) -> str:
    """The URL within the site of a family's page."""
    return family_page_path(anchor, family_number, page)


def suite_page_path(anchor: str) -> str:
    """Where a suite's page is written: the index's panel of that suite, for a reader without the
    script (the index itself is the first suite's)."""
    return f"suite/{anchor}/index.html"


@lru_cache(maxsize=1 << 10)  # every report page asks for its suite's
def suite_home(anchor: str, first: bool, index_url: str = "index.html") -> str:
    """The URL within the site of the page that opens on a suite, with the script or without: the
    index (at ``index_url``) for the first suite, its own page for the others. (The index's address
    with the suite's fragment opens it only where the script runs.)"""
    return index_url if first else suite_page_path(anchor)


def panel_script_path(anchor: str) -> str:
    """Where a suite's panel is written as a script, for the index's tabs to load when first shown."""
    return f"suite/{anchor}/panel.js"


def short_hash(value: str, shown: int) -> str:
    """A reproducibility hash as a table shows it: the first ``shown`` characters after its
    algorithm's name ("sha256:0a1b..." -> "0a1b..."); the report page shows it whole."""
    return value.partition(":")[2][:shown] if ":" in value else value[:shown]


def pager(suite: Any, family_number: int, page: int, page_rows: int) -> Pager:
    """Page ``page`` of a suite's family ``family_number`` (1-based)."""
    family = suite.families[family_number - 1]
    return pages_of(lambda number: page_url(suite.anchor, family_number, number), page, len(family.rows), page_rows,
                    f"Pages of {suite.name}, {family.name}")


def pages_of(url: Callable[[int], str], page: int, total: int, page_rows: int, label: str) -> Pager:
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

    def pages(self, suite: Any, family_number: int, page: int = 1) -> Pager:
        """The pager of a family (1-based ``family_number`` in its suite) at ``page``."""
        return pager(suite, family_number, page, self.page_rows)

    def places(self, field: int, index: int) -> int:
        """The decimals the tables write the percentage at position ``field`` of the row at ``index`` with."""
        found = self.decimals[0] if field == _LEAKAGE else self.decimals[1] if field == _RECALL else None
        return found.get(index, DECIMALS) if found else DECIMALS

    def percent(self, field: int, index: int, fraction: float) -> str:
        """``fraction``, the value at position ``field`` of the row at ``index``, as the tables write
        it (display.rounded, with ``places``); the report page writes it exactly (``percent``)."""
        return rounded(fraction, self.places(field, index))

    def interval(self, field: int, index: int) -> str:
        """The 95% interval of the fraction at position ``field`` of the row at ``index`` (its leakage
        or its recall), as ``interval_text`` writes it."""
        return self.leakage_interval[index] if field == _LEAKAGE else self.recall_interval[index]


_LEAKAGE, _RECALL = FIELDS.index("leakage"), FIELDS.index("recall")


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


# The theme's filters, in every environment that renders its templates (Pelican's generators, the
# release list): a fraction as a percentage, as every page writes it; a value isolated in text that
# holds no markup (display.isolate).
TEMPLATE_FILTERS: dict[str, Callable[[Any], Any]] = {"percent": percent, "isolate": isolate}
