"""A report page's details: what report.html looks up beyond the page object, its ranks (overall, in
its suite and family), how sure they are, its nearest neighbours, every metric and metadata value,
where each published field came from, and the model's attributes from the manifest.

Every value reaches a template as what it is: a number as a number, text as text (the archive's
text as the archive holds it), so that any template, the theme's or an override, prints it with
autoescaping and may filter, compare or branch on it. The few texts worked out here are plain
strings of digits and signs (formatting.py writes them); nothing here is markup."""

from __future__ import annotations

from functools import lru_cache
from dataclasses import dataclass
from typing import Any, NamedTuple, Sequence

from ..board import FIELDS, Filled, Row
from ..decide.fill import TAG_FLAG, MANIFEST
from ..decide.uncertainty import Uncertainty
from ..formatting import percent, size_text
from ..paths import report_page_url, suite_home
from .board_view import param_count
from .history import ModelHistory, model_history
from .leaves import leaves_of, shown

# The order in which a report page lists the published fields: identity, ranking evidence, provenance.
PUBLISHED = ("suite", "model_family", "model_name", "device", "leakage", "recall", "f1",
             "release_tag", "run_date", "reproducibility_hash", "report_path")


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
    if source == TAG_FLAG:
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
    history: ModelHistory | None  # its model's history across the archive's releases (None with one)
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
                   changed_release: str | None = None, history: Sequence[Row] | None = None) -> ReportDetails:
    """Everything a report page shows about one row (at ``rank - 1`` in the ranking), where it
    stands and how sure that is (its suite is number ``suite_number``; the rows it cannot be told
    apart from looked up in ``rows`` and ``in_suite``; every row's intervals as written in
    ``leakage_intervals`` and ``recall_intervals``, ``interval_texts``), the model's attributes in its
    manifest row (none without one), its copy's digest, what its release changed and its history (the rows
    of its suite, model and device across releases, ``decide.history``'s; None with one release)."""
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
        history=None if history is None else model_history(history, row.report_path),
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


# The model attributes a report page shows when its manifest row has them, in this order.
ATTRIBUTES = (("param_count", "Parameters"), ("license", "License"), ("base_model", "Base model"),
              ("task", "Task"), ("released", "Released"))


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


