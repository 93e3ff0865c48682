"""A model's history as the pages show it: a report page's table of its releases and the sparkline
of its leakage, with the sparkline's text, and the sparkline alone on a model's page.

The sparkline's coordinates are computed here, in the units of its view box with a fixed precision,
so that the template only writes them out. Pure: rows of one suite, model and device (in the order
``decide.history`` gives them) in, values out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..board import Row
from ..formatting import isolate, percent

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
