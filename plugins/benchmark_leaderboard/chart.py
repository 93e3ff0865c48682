"""The trade-off chart of a suite: leakage (x, percent) against recall (y, percent), and the Pareto
frontier, the rows that no other row of the suite beats on both lower leakage and higher recall.

Pure: rows in, what the chart draws out (marks, ticks, the frontier's step line and, for a crowded
suite, a density grid), every coordinate already written as text with one decimal, so that the
same rows give the same bytes; ``chart.html`` only prints it. Positions are worked out with the
four arithmetic operations on floats (the same on every machine) and grid shades with integers."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Sequence

# The drawing's coordinate system (the SVG's viewBox) and the plot area's margins inside it.
WIDTH, HEIGHT = 640, 320
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 12, 48
PLOT_WIDTH, PLOT_HEIGHT = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
# A crowded suite's density grid: cells across and down the plot, and how many shades of fill.
GRID_COLUMNS, GRID_ROWS = 48, 24
SHADES = 5
# A crowded suite's chart marks its frontier's rows one by one up to this many; a longer frontier
# (rows nearly all alike) is drawn as its step line alone. It bounds a crowded chart's size.
FRONTIER_MARKS = 200
# A tick step is one of these times a power of ten; about this many steps span an axis.
_STEPS = (Decimal(1), Decimal(2), Decimal("2.5"), Decimal(5), Decimal(10))
_TICK_TARGET = 5
# The chart's text alternative names the frontier's rows up to this many, then says how many more.
NAMED = 10
_HUNDRED = Decimal(100)


@dataclass(frozen=True, slots=True)
class Tick:
    at: str  # the tick's coordinate along its axis
    label: str  # the value in percent, as few digits as it needs


@dataclass(frozen=True, slots=True)
class Mark:
    row: int  # the row's index in the global ranking
    cx: str
    cy: str
    frontier: bool


@dataclass(frozen=True, slots=True)
class Cell:
    x: str
    y: str
    count: int
    shade: int  # 1 (fewest rows) to SHADES (the fullest cell)


@dataclass(frozen=True)
class Chart:
    """What a suite's chart draws. ``marks`` holds one mark a row, or, when the suite has more
    rows than the chart may mark, only the frontier's (and ``cells`` the density grid)."""

    rows: int
    marks: tuple[Mark, ...]
    frontier: tuple[int, ...]  # the frontier's row indices, leakage ascending
    step: str  # the frontier as an SVG path: a step line from the lowest leakage to the highest
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    cells: tuple[Cell, ...]
    cell_width: str
    cell_height: str

    # The drawing's frame, for the template: the viewBox and the plot area's edges.
    width, height = WIDTH, HEIGHT
    left, top, right, bottom = LEFT, TOP, LEFT + PLOT_WIDTH, TOP + PLOT_HEIGHT

    @property
    def dense(self) -> bool:
        return bool(self.cells)

    @property
    def named(self) -> tuple[int, ...]:
        """The frontier's rows the text alternative names."""
        return self.frontier[:NAMED]

    @property
    def unnamed(self) -> int:
        return max(0, len(self.frontier) - NAMED)


def frontier(points: Sequence[tuple[float, float]]) -> tuple[int, ...]:
    """The positions in ``points`` (leakage, recall) of the Pareto frontier, leakage ascending: a
    point is on it unless another has leakage ≤ and recall ≥ its own, one of them strictly. Equal
    points are all on it or all off it; ties keep the order of ``points``."""
    order = sorted(range(len(points)), key=lambda i: (points[i][0], -points[i][1], i))
    found: list[int] = []
    best = -math.inf  # the highest recall of any point with strictly lower leakage
    start = 0
    while start < len(order):
        leakage = points[order[start]][0]
        end = start
        while end < len(order) and points[order[end]][0] == leakage:
            end += 1
        top = points[order[start]][1]  # the group's highest recall: it is sorted first
        if top > best:
            found.extend(i for i in order[start:end] if points[i][1] == top)
            best = top
        start = end
    return tuple(found)


def _exact(fraction: float) -> Decimal:
    return Decimal(repr(float(fraction))) * _HUNDRED


def axis(low: Decimal, high: Decimal) -> tuple[Decimal, Decimal, Decimal]:
    """A readable range for values from ``low`` to ``high`` percent, within 0 to 100: its ends
    and tick step, the step 1, 2, 2.5 or 5 times a power of ten; never empty."""
    span = high - low
    if span <= 0:
        span = Decimal(10)
    raw = span / _TICK_TARGET
    power = Decimal(1).scaleb(raw.adjusted())
    step = next(power * factor for factor in _STEPS if power * factor >= raw)
    start = max(Decimal(0), (low / step).to_integral_value(ROUND_FLOOR) * step)
    end = min(_HUNDRED, (high / step).to_integral_value(ROUND_CEILING) * step)
    if end <= start:
        if end + step <= _HUNDRED:
            end = start + step
        else:
            start = end - step
    return start, end, step


def _text(value: float) -> str:
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _label(value: Decimal) -> str:
    return f"{value.normalize():f}"


def _ticks(start: Decimal, end: Decimal, step: Decimal, place) -> tuple[Tick, ...]:
    ticks = []
    value = start
    while value <= end:
        ticks.append(Tick(_text(place(float(value))), _label(value)))
        value += step
    return tuple(ticks)


def suite_chart(points: Sequence[tuple[float, float]], rows: Sequence[int], max_marks: int) -> Chart:
    """The chart of one suite: ``points`` are its rows' (leakage, recall) fractions and ``rows``
    their indices in the global ranking, in the same order. Above ``max_marks`` rows only the
    frontier is marked, over a grid of cells shaded by how many rows each holds."""
    if not points:
        raise ValueError("a suite has at least one row")
    on_frontier = frontier(points)
    leakages = [_exact(leakage) for leakage, _ in points]
    recalls = [_exact(recall) for _, recall in points]
    x_start, x_end, x_step = axis(Decimal(0), max(leakages))
    y_start, y_end, y_step = axis(min(recalls), max(recalls))
    x_low, x_span = float(x_start), float(x_end - x_start)
    y_low, y_span = float(y_start), float(y_end - y_start)

    def x_of(percent: float) -> float:
        return LEFT + (percent - x_low) / x_span * PLOT_WIDTH

    def y_of(percent: float) -> float:
        return TOP + PLOT_HEIGHT - (percent - y_low) / y_span * PLOT_HEIGHT

    places = [(x_of(leakage * 100), y_of(recall * 100)) for leakage, recall in points]
    frontier_set = set(on_frontier)
    dense = len(points) > max_marks
    # A crowded suite marks its frontier alone, unless the frontier itself is crowded (rows nearly
    # all alike): then its step line and the grid show it.
    shown = range(len(points)) if not dense else sorted(on_frontier) if len(on_frontier) <= FRONTIER_MARKS else ()
    # Frontier marks are drawn last, over the others.
    marks = tuple(sorted((Mark(rows[i], _text(places[i][0]), _text(places[i][1]), i in frontier_set) for i in shown),
                         key=lambda mark: mark.frontier))
    # Equal rows of the frontier are one corner of its line.
    corners: list[tuple[str, str]] = []
    for i in on_frontier:
        corner = (_text(places[i][0]), _text(places[i][1]))
        if not corners or corners[-1] != corner:
            corners.append(corner)
    step = "".join(f"M{x} {y}" if number == 0 else f"H{x}V{y}" for number, (x, y) in enumerate(corners))
    cells: tuple[Cell, ...] = ()
    width, height = PLOT_WIDTH / GRID_COLUMNS, PLOT_HEIGHT / GRID_ROWS
    if dense:
        counts: dict[tuple[int, int], int] = {}
        for x, y in places:
            column = min(GRID_COLUMNS - 1, max(0, int((x - LEFT) / width)))
            line = min(GRID_ROWS - 1, max(0, int((y - TOP) / height)))
            counts[column, line] = counts.get((column, line), 0) + 1
        fullest = math.isqrt(max(counts.values()) * 10**6)
        # Shades grow with the square root of the count, so a few full cells do not wash out the rest.
        cells = tuple(Cell(_text(LEFT + column * width), _text(TOP + line * height), count,
                           max(1, -(-SHADES * math.isqrt(count * 10**6) // fullest)))
                      for (column, line), count in sorted(counts.items(), key=lambda item: (item[0][1], item[0][0])))
    return Chart(
        rows=len(points),
        marks=marks,
        frontier=tuple(rows[i] for i in on_frontier),
        step=step,
        x_ticks=_ticks(x_start, x_end, x_step, x_of),
        y_ticks=_ticks(y_start, y_end, y_step, y_of),
        cells=cells,
        cell_width=_text(width),
        cell_height=_text(height),
    )
