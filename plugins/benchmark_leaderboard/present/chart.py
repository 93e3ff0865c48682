"""The trade-off chart of a suite: leakage (x, percent) against recall (y, percent), and the Pareto
frontier, the rows that no other row of the suite beats on both lower leakage and higher recall,
each with bars across its 95% intervals.

Pure: rows in, what the chart draws out, every coordinate already written as text, so that the same
rows give the same bytes; ``chart.html`` only prints it. The chart's size does not grow with the
suite: the frontier's rows are marked one by one (up to ``max_marks``), and every other row is
counted in a cell of a fixed grid over the plot, the cells drawn as one path a shade (at most
``SHADES`` paths, whatever the rows). Positions are worked out with the four arithmetic operations
on floats (the same on every machine), cells and shades with integers."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Callable, Sequence

# The drawing's coordinate system (the SVG's viewBox) and the plot area's margins inside it.
WIDTH, HEIGHT = 640, 320
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 12, 48
PLOT_WIDTH, PLOT_HEIGHT = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
# The grid the rows off the frontier are counted in: cells across and down the plot, each a whole
# number of units wide and high (so a cell's corners are written without decimals).
GRID_COLUMNS, GRID_ROWS = 40, 20
CELL_WIDTH, CELL_HEIGHT = PLOT_WIDTH // GRID_COLUMNS, PLOT_HEIGHT // GRID_ROWS
assert (CELL_WIDTH * GRID_COLUMNS, CELL_HEIGHT * GRID_ROWS) == (PLOT_WIDTH, PLOT_HEIGHT)
# How many shades a cell may take, lightest (fewest rows) first.
SHADES = 5
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
    """A row of the frontier, drawn as a linked mark."""

    row: int  # the row's index in the global ranking
    cx: str
    cy: str


@dataclass(frozen=True, slots=True)
class Shade:
    """The cells of one shade: how many rows such a cell holds (``low`` to ``high``, the legend's
    words), how many cells and rows it has, and its cells as one SVG path."""

    level: int  # 1 (lightest) to SHADES (darkest)
    low: int
    high: int
    cells: int
    rows: int
    path: str


@dataclass(frozen=True)
class Chart:
    """What a suite's chart draws: ``marks``, the frontier's rows one by one (none when the frontier
    is longer than the chart may mark), and ``shades``, the grid's cells holding every other row."""

    rows: int
    max_marks: int  # the most rows the chart marks one by one
    marks: tuple[Mark, ...]  # the frontier's marks, leakage ascending
    frontier: tuple[int, ...]  # the frontier's row indices, leakage ascending
    step: str  # the frontier as an SVG path: a step line from the lowest leakage to the highest
    bars: str  # every mark's 95% intervals as one SVG path: leakage across, recall up and down ("" without)
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    shades: tuple[Shade, ...]  # only those with a cell, lightest first

    # The drawing's frame, for the template: the viewBox and the plot area's edges.
    width, height = WIDTH, HEIGHT
    left, top, right, bottom = LEFT, TOP, LEFT + PLOT_WIDTH, TOP + PLOT_HEIGHT

    @property
    def gridded(self) -> int:
        """How many rows the grid's cells hold: every row that is not marked."""
        return self.rows - len(self.marks)

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


def _text(value: float, decimals: int = 1) -> str:
    text = f"{value:.{decimals}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def _label(value: Decimal) -> str:
    return f"{value.normalize():f}"


def _ticks(start: Decimal, end: Decimal, step: Decimal, place) -> tuple[Tick, ...]:
    ticks = []
    value = start
    while value <= end:
        ticks.append(Tick(_text(place(float(value))), _label(value)))
        value += step
    return tuple(ticks)


def shade_of(count: int, fullest: int) -> int:
    """The shade of a cell of ``count`` rows when the fullest cell holds ``fullest``: the shades
    grow with the square root of the count (so that a few full cells do not wash out the rest),
    the fullest cell the darkest. Integers only: the least level with SHADES² × count ≤
    fullest × level²."""
    return next(level for level in range(1, SHADES + 1) if SHADES * SHADES * count <= fullest * level * level)


def shade_range(level: int, fullest: int) -> tuple[int, int]:
    """The counts of rows a cell of shade ``level`` may hold, least and most (the legend's words);
    the least is above the most when no count has that shade."""
    return fullest * (level - 1) ** 2 // SHADES ** 2 + 1, fullest * level ** 2 // SHADES ** 2


def _step(corners: Sequence[tuple[str, str]]) -> str:
    """A step line through ``corners`` (x ascending, y descending: the frontier, leakage ascending):
    across to the next corner's x, then up to its y. Each command moves, so the line has at most
    one command for each distinct x and each distinct y its corners are written with."""
    path = []
    for x, y in corners:
        if not path:
            path.append(f"M{x} {y}")
            last_x, last_y = x, y
            continue
        if x != last_x:
            path.append(f"H{x}")
        if y != last_y:
            path.append(f"V{y}")
        last_x, last_y = x, y
    return "".join(path)


def _cells(coordinates: Sequence[tuple[float, float]]) -> dict[tuple[int, int], int]:
    """How many of ``coordinates`` (SVG coordinates inside the plot) each cell of the grid holds, by the
    cell's (grid row, column); only cells that hold one. A place on a cell's edge counts in the cell
    to its right or below, the plot's right and bottom edges in the last cells."""
    counts: dict[tuple[int, int], int] = {}
    for x, y in coordinates:
        column = min(GRID_COLUMNS - 1, max(0, math.floor((x - LEFT) / CELL_WIDTH)))
        line = min(GRID_ROWS - 1, max(0, math.floor((y - TOP) / CELL_HEIGHT)))
        counts[line, column] = counts.get((line, column), 0) + 1
    return counts


def _shades(counts: dict[tuple[int, int], int]) -> tuple[Shade, ...]:
    """The grid's cells, one path a shade: each run of side-by-side cells of the same shade is one
    rectangle of the path, written in whole units, top to bottom and left to right."""
    if not counts:
        return ()
    fullest = max(counts.values())
    levels = {cell: shade_of(count, fullest) for cell, count in counts.items()}
    runs: dict[int, list[str]] = {}
    cells = sorted(counts)
    start = 0
    while start < len(cells):
        line, first = cells[start]
        level = levels[cells[start]]
        end = start + 1
        while (end < len(cells) and cells[end] == (line, first + end - start) and levels[cells[end]] == level):
            end += 1
        width = (end - start) * CELL_WIDTH
        runs.setdefault(level, []).append(f"M{LEFT + first * CELL_WIDTH} {TOP + line * CELL_HEIGHT}h{width}v{CELL_HEIGHT}h-{width}z")
        start = end
    return tuple(Shade(level, *shade_range(level, fullest), sum(1 for cell in cells if levels[cell] == level),
                       sum(counts[cell] for cell in cells if levels[cell] == level), "".join(runs[level]))
                 for level in sorted(runs))


def _bars(place: tuple[float, float], bounds: tuple[float, float, float, float], x_of, y_of) -> str:
    """A mark's interval bars at ``place``: across from its leakage's lower bound to its upper, and
    down from its recall's upper bound to its lower, each within the plot (a tenth of a unit)."""
    leakage_low, leakage_high, recall_low, recall_high = bounds
    x, y = _text(place[0]), _text(place[1])

    def across(value: float) -> str:
        return _text(min(LEFT + PLOT_WIDTH, max(LEFT, x_of(value * 100))))

    def along(value: float) -> str:
        return _text(min(TOP + PLOT_HEIGHT, max(TOP, y_of(value * 100))))

    left, right, top, bottom = across(leakage_low), across(leakage_high), along(recall_high), along(recall_low)
    return (f"M{left} {y}H{right}" if left != right else "") + (f"M{x} {top}V{bottom}" if top != bottom else "")


def suite_chart(points: Sequence[tuple[float, float]], rows: Sequence[int], max_marks: int,
                intervals: Callable[[int], tuple[float, float, float, float]] | None = None) -> Chart:
    """The chart of one suite: ``points`` are its rows' (leakage, recall) fractions and ``rows``
    their indices in the global ranking, in the same order. The frontier's rows are marked when
    there are at most ``max_marks`` of them; every row not marked is counted in the grid. Given
    ``intervals`` (a row's index in the ranking -> its leakage's and its recall's 95% interval, as
    fractions: low, high, low, high), each mark has a bar across its leakage interval and one
    along its recall interval, cut at the plot's edges."""
    if not points:
        raise ValueError("a suite has at least one row")
    on_frontier = frontier(points)
    # A float's exact decimal keeps its order: only the extremes are written as decimals.
    leakages = [leakage for leakage, _ in points]
    recalls = [recall for _, recall in points]
    x_start, x_end, x_step = axis(Decimal(0), _exact(max(leakages)))
    y_start, y_end, y_step = axis(_exact(min(recalls)), _exact(max(recalls)))
    x_low, x_span = float(x_start), float(x_end - x_start)
    y_low, y_span = float(y_start), float(y_end - y_start)

    def x_of(percent: float) -> float:
        return LEFT + (percent - x_low) / x_span * PLOT_WIDTH

    def y_of(percent: float) -> float:
        return TOP + PLOT_HEIGHT - (percent - y_low) / y_span * PLOT_HEIGHT

    coordinates = [(x_of(leakage * 100), y_of(recall * 100)) for leakage, recall in points]
    marked = on_frontier if len(on_frontier) <= max_marks else ()
    marks = tuple(Mark(rows[i], _text(coordinates[i][0]), _text(coordinates[i][1])) for i in marked)
    bars = "".join(_bars(coordinates[i], intervals(rows[i]), x_of, y_of) for i in marked) if intervals else ""
    # A marked frontier's line runs through its marks' centres (a tenth of a unit); a frontier too
    # long to mark is written in whole units, which bounds its line by the plot's width and height.
    decimals = 1 if marked else 0
    step = _step([(_text(coordinates[i][0], decimals), _text(coordinates[i][1], decimals)) for i in on_frontier])
    in_marks = set(marked)
    return Chart(
        rows=len(points),
        max_marks=max_marks,
        marks=marks,
        frontier=tuple(rows[i] for i in on_frontier),
        step=step,
        bars=bars,
        x_ticks=_ticks(x_start, x_end, x_step, x_of),
        y_ticks=_ticks(y_start, y_end, y_step, y_of),
        shades=_shades(_cells([xy for i, xy in enumerate(coordinates) if i not in in_marks])),
    )
