"""A model's history: the rows of one suite, model and device across the archive's release tags, in
version order, for the report pages (a small table and a sparkline of leakage) and the model's page
(the sparkline and its text).

Pure: ``archive_history`` indexes the ranked rows once per build (in ``generate_context``);
``ArchiveHistory.of`` looks one row's history up for its page, worked out then, ready to print. The
sparkline's coordinates are computed here, in the units of its view box with a fixed precision, so
that the template only writes them out."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from operator import attrgetter
from typing import Sequence

from ..board import Row
from ..formatting import isolate, percent
from ..versions import version_order

# The sparkline's view box, and the margin that keeps its line and dots inside it.
SPARK_WIDTH = 120
SPARK_HEIGHT = 32
SPARK_MARGIN = 3
# Decimals of every coordinate written into the SVG.
SPARK_DECIMALS = 1


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One row of the history: a report of the same suite, model and device, and its point."""

    release_tag: str
    report_path: str
    leakage_percent: str
    recall_percent: str
    f1_percent: str
    current: bool  # the report whose page shows the history
    x: str
    y: str


@dataclass(frozen=True, slots=True)
class ModelHistory:
    entries: tuple[HistoryEntry, ...]  # in version order, then by report path
    points: str  # the sparkline's polyline: "x,y x,y ..."
    label: str  # the sparkline's text alternative
    width: int = SPARK_WIDTH
    height: int = SPARK_HEIGHT


@dataclass(frozen=True, slots=True)
class LeakageLine:
    """A suite, model and device's leakage across its releases, as a model's page draws it: the
    sparkline (``ModelHistory``'s) and its text."""

    points: str
    label: str
    releases: int
    width: int = SPARK_WIDTH
    height: int = SPARK_HEIGHT


class ArchiveHistory:
    """The archive's rows of each suite, model and device that occur in two release tags or more."""

    def __init__(self, rows: Sequence[Row], groups: dict[tuple[str, str, str], tuple[int, ...]]):
        self._rows = rows
        self._groups = groups

    def of(self, row: Row) -> ModelHistory | None:
        """The history of ``row``'s suite, model and device, or None when it has one release tag."""
        indices = self._groups.get((row.suite, row.model_name, row.device))
        return None if indices is None else model_history([self._rows[i] for i in indices], row.report_path)

    def line_of(self, row: Row) -> LeakageLine | None:
        """The leakage line of ``row``'s suite, model and device, as the model's page draws it, or
        None when it has one release tag."""
        indices = self._groups.get((row.suite, row.model_name, row.device))
        return None if indices is None else leakage_line([self._rows[i] for i in indices])

    def __len__(self) -> int:
        return len(self._groups)


def archive_history(rows: Sequence[Row]) -> ArchiveHistory:
    """Index ``rows`` (the ranking) by suite, model and device, each group in version order; only the
    groups of two release tags or more are kept, since a single release has no history to show."""
    # Most models have one report a suite and device: the keys are counted first (in C), and only
    # the keys held by more than one row are gathered.
    keys = list(zip(map(attrgetter("suite"), rows), map(attrgetter("model_name"), rows), map(attrgetter("device"), rows)))
    shared = {key for key, count in Counter(keys).items() if count > 1}
    groups: dict[tuple[str, str, str], list[int]] = {}
    if shared:
        for index, key in enumerate(keys):
            if key in shared:
                groups.setdefault(key, []).append(index)
    kept = {}
    for key, indices in groups.items():
        if len({rows[i].release_tag for i in indices}) > 1:
            indices.sort(key=lambda i: (version_order(rows[i].release_tag), rows[i].report_path))
            kept[key] = tuple(indices)
    return ArchiveHistory(rows, kept)


def _coordinate(value: float) -> str:
    return f"{value:.{SPARK_DECIMALS}f}"


def _points(rows: Sequence[Row]) -> list[tuple[str, str]]:
    """The sparkline's point of each of ``rows`` (one suite, model and device, in order), spanning
    the view box: the first report at the left, the last at the right, the least leakage at the
    bottom and the most at the top (a flat line mid-height when all are equal)."""
    inner_width = SPARK_WIDTH - 2 * SPARK_MARGIN
    inner_height = SPARK_HEIGHT - 2 * SPARK_MARGIN
    low = min(row.leakage for row in rows)
    high = max(row.leakage for row in rows)
    last = max(len(rows) - 1, 1)
    points = []
    for number, row in enumerate(rows):
        share = (row.leakage - low) / (high - low) if high > low else 0.5
        points.append((_coordinate(SPARK_MARGIN + inner_width * number / last),
                       _coordinate(SPARK_MARGIN + inner_height * (1 - share))))
    return points


def _label(shown: Sequence[tuple[str, str]]) -> str:
    """The sparkline's text alternative, from each report's (release tag, leakage percentage): each
    tag isolated from the figures beside it (formatting.isolate), as the label holds no markup."""
    return (f"Leakage by release, from {shown[0][1]}% in {isolate(shown[0][0])} to {shown[-1][1]}% in "
            f"{isolate(shown[-1][0])}: " + ", ".join(f"{isolate(tag)} {leakage}%" for tag, leakage in shown))


def model_history(rows: Sequence[Row], current_path: str) -> ModelHistory:
    """The history of ``rows`` (one suite, model and device, in order), ``current_path`` the report
    whose page shows it, and its sparkline (``_points``)."""
    entries = [HistoryEntry(row.release_tag, row.report_path, percent(row.leakage), percent(row.recall),
                            percent(row.f1), row.report_path == current_path, x, y)
               for row, (x, y) in zip(rows, _points(rows))]
    label = _label([(entry.release_tag, entry.leakage_percent) for entry in entries])
    return ModelHistory(tuple(entries), " ".join(f"{entry.x},{entry.y}" for entry in entries), label)


def leakage_line(rows: Sequence[Row]) -> LeakageLine:
    """The sparkline of ``rows`` (one suite, model and device, in order) and its text alone, as a
    model's page draws it (its table lists each report)."""
    return LeakageLine(" ".join(f"{x},{y}" for x, y in _points(rows)),
                       _label([(row.release_tag, percent(row.leakage)) for row in rows]), len(rows))
