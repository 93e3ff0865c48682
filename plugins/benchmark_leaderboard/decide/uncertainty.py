"""How sure each rank is: a 95% interval of every row's leakage and recall, and, in each suite, the
ranks its leakage interval allows. A step after rank and group; the canonical ranking stays as it is.

The unit of evidence is the fixture. A rate over a report's fixtures is a mean of per-fixture rates
in [0, 1], whose variance is at most that of a Bernoulli mean with the same rate; so the Wilson
score interval with n = ``fixture_count`` (fixtures taken as independent draws of equal weight) is
the widest the evidence can need: a conservative interval that needs nothing the report lacks.

Row A is certainly better than row B when A's leakage interval lies wholly below B's (A's upper
bound below B's lower bound). In its suite a row's best possible rank is 1 plus the rows certainly
better than it, its worst the suite's size minus the rows it is certainly better than; a row whose
best possible rank is 1 could be first (no row of its suite is certainly better). Each suite is
counted with two sorted lists of bounds and a bisection a row: n log n, not n².

Closed form, in IEEE double precision with the four operations and the square root, each correctly
rounded, in a fixed order: the same bits on every machine. Everything is kept in arrays by the
row's index in the global ranking, so that other modules (a page, a badge) read a row's figures by
its index."""

from __future__ import annotations

import math
from array import array
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any, Sequence

from ..board import Filled, Suite

# The 0.975 quantile of the standard normal distribution: a two-sided 95% interval.
Z = 1.959963984540054
CONFIDENCE = 0.95
_ZZ = Z * Z
# The most fixtures an interval is computed with: a report's fixture_count may be any whole number,
# and one this large already makes the interval its rate itself, to a double's precision (2(n + z²)
# must stay a finite float).
MOST_N = 1e300
# How the intervals are made, named where they are published (uncertainty.json, the CSVs).
METHOD = "wilson-95"
METHOD_NAME = "Wilson score interval"
# A row's published figures, in this order: the columns the CSVs add after the schema v1 fields,
# and the fields of each row of uncertainty.json.
FIGURES = ("method", "fixture_count", "leakage_low", "leakage_high", "recall_low", "recall_high",
          "suite_rank_best", "suite_rank_worst", "could_be_first")
# The figures that are floats, as leaderboard.json's fractions are (a CSV writes them as Python does),
# and the two that make a row's rank range.
FLOAT_FIELDS = ("leakage_low", "leakage_high", "recall_low", "recall_high")
RANK_RANGE = ("suite_rank_best", "suite_rank_worst")
# uncertainty.json: its version, and how its intervals are made (its ``methods``, by the name a
# row's ``method`` gives).
SCHEMA_VERSION = 1
METHODS = {METHOD: {"confidence": CONFIDENCE, "n": "fixture_count", "name": METHOD_NAME, "z": Z}}


def wilson(rate: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval (low, high) of a rate in [0, 1] observed over ``n`` draws,
    within [0, 1]: exactly 0 below a rate of 0 and exactly 1 above a rate of 1.

    With x = rate × n, the bounds are (2x + z² ∓ z√(z² + 4x(1 − rate))) / (2(n + z²)). The lower
    one is written without the subtraction, as 2x·rate / (2x + z² + z√(…)) (the same value: the
    product of the two roots' numerators is 4x·rate·(n + z²)), so that it loses no digits for a
    small rate and is exactly 0 at 0. A rate above one half is computed as one minus the interval
    of q = 1 − rate (exact there, and 1 − q is the rate again), so that the interval of 1 ends at
    exactly 1. Written out once, without calls: it runs twice a row."""
    if n > MOST_N:  # a report may give any whole number; beyond this the interval is its rate to a double's precision
        n = MOST_N
    if rate > 0.5:
        rate, mirrored = 1.0 - rate, True
    else:
        mirrored = False
    count = rate * n
    outer = 2.0 * count + _ZZ + Z * math.sqrt(_ZZ + 4.0 * count * (1.0 - rate))
    low, high = 2.0 * count * rate / outer, outer / (2.0 * (n + _ZZ))
    if mirrored:
        low, high = 1.0 - high, 1.0 - low
    return (low if low > 0.0 else 0.0), (high if high < 1.0 else 1.0)


def rank_ranges(low: Sequence[float], high: Sequence[float]) -> tuple[list[int], list[int]]:
    """Within one suite, given each row's interval, each row's best and worst possible rank: best,
    1 plus the rows whose upper bound is below its lower bound; worst, the number of rows whose
    lower bound is not above its upper bound (its own included)."""
    uppers = sorted(high)
    lowers = sorted(low)
    return ([1 + bisect_left(uppers, bound) for bound in low],
            [bisect_right(lowers, bound) for bound in high])


def told_apart(low_a: float, high_a: float, low_b: float, high_b: float) -> bool:
    """Whether one of two intervals lies wholly below the other: one row certainly better."""
    return high_a < low_b or high_b < low_a


@dataclass(frozen=True)
class Uncertainty:
    """Every row's intervals and rank range, by the row's index in the global ranking; and the rows
    of each suite in ranking order (``members[starts[s]:starts[s + 1]]``), to walk a row's suite."""

    fixture_count: tuple[int, ...]  # n of each row's intervals, as its report gives it (any whole number)
    leakage_low: array
    leakage_high: array
    recall_low: array
    recall_high: array
    best: array  # the best possible rank in the row's suite
    worst: array  # the worst possible rank in the row's suite
    members: array
    starts: array

    def suite_size(self, suite: int) -> int:
        """The rows of suite number ``suite``."""
        return self.starts[suite + 1] - self.starts[suite]

    def could_be_first(self, index: int) -> bool:
        """The row's best possible rank in its suite is 1: no row of its suite is certainly better."""
        return self.best[index] == 1

    def told_apart(self, a: int, b: int) -> bool:
        """Whether one of the two rows is certainly better than the other (by leakage)."""
        return told_apart(self.leakage_low[a], self.leakage_high[a], self.leakage_low[b], self.leakage_high[b])

    def alike(self, index: int) -> int:
        """How many other rows of its suite the row cannot be told apart from: those neither
        certainly better nor certainly worse."""
        return self.worst[index] - self.best[index]

    def values(self, index: int) -> tuple[Any, ...]:
        """The row's published figures, in ``FIGURES`` order."""
        return (METHOD, self.fixture_count[index], self.leakage_low[index], self.leakage_high[index],
                self.recall_low[index], self.recall_high[index], self.best[index], self.worst[index],
                self.best[index] == 1)

    def columns(self, span: slice) -> dict[str, list[Any]]:
        """Each figure's values for the rows of the ranking in ``span``, by the figure's name, in
        ``FIGURES`` order."""
        best = self.best[span]
        found = {"method": [METHOD] * len(best), "fixture_count": list(self.fixture_count[span]),
                 "leakage_low": self.leakage_low[span].tolist(), "leakage_high": self.leakage_high[span].tolist(),
                 "recall_low": self.recall_low[span].tolist(), "recall_high": self.recall_high[span].tolist(),
                 "suite_rank_best": best.tolist(), "suite_rank_worst": self.worst[span].tolist(),
                 "could_be_first": [first == 1 for first in best]}
        return {name: found[name] for name in FIGURES}

    def nearest_alike(self, index: int, suite: int, place: int, most: int, reach: int) -> list[int]:
        """Up to ``most`` rows of suite number ``suite`` that the row at ``index`` (at ``place``,
        0-based, in its suite's ranking) cannot be told apart from, the nearest to it in the
        ranking (at equal distance, the one ranked above first), looking at most ``reach`` places
        either way; in ranking order."""
        if most <= 0:
            return []
        start, end = self.starts[suite], self.starts[suite + 1]
        members = self.members
        low, high = self.leakage_low[index], self.leakage_high[index]
        lows, highs = self.leakage_low, self.leakage_high
        found: list[int] = []
        for distance in range(1, reach + 1):
            above, below = start + place - distance, start + place + distance
            if above < start and below >= end:
                break
            for at in (above, below):
                if start <= at < end:
                    other = members[at]
                    if not (highs[other] < low or high < lows[other]):
                        found.append(at)
                        if len(found) == most:
                            return [members[at] for at in sorted(found)]
        return [members[at] for at in sorted(found)]


def uncertainty_of(ranked: Sequence[Filled], suites: Sequence[Suite]) -> Uncertainty:
    """The intervals of every row and the rank ranges within each suite."""
    counts = tuple(filled.fixture_count for filled in ranked)
    leakage_low, leakage_high, recall_low, recall_high = array("d"), array("d"), array("d"), array("d")
    for filled in ranked:
        row, n = filled.row, filled.fixture_count
        low, high = wilson(row.leakage, n)
        leakage_low.append(low)
        leakage_high.append(high)
        low, high = wilson(row.recall, n)
        recall_low.append(low)
        recall_high.append(high)
    best = array("Q", bytes(8 * len(ranked)))
    worst = array("Q", bytes(8 * len(ranked)))
    members = array("Q")
    starts = array("Q", [0])
    for suite in suites:
        indices = sorted(index for family in suite.families for index in family.rows)
        low = [leakage_low[index] for index in indices]
        high = [leakage_high[index] for index in indices]
        bests, worsts = rank_ranges(low, high)
        for index, first, last in zip(indices, bests, worsts):
            best[index] = first
            worst[index] = last
        members.extend(indices)
        starts.append(len(members))
    return Uncertainty(counts, leakage_low, leakage_high, recall_low, recall_high, best, worst, members, starts)


def extreme_rows(uncertainty: Uncertainty) -> list[int]:
    """The first row and the rows holding the least and the most of each figure: every row's
    figures are of one type, made by the same code, so these are the rows that could break a bound
    of the schema; with them, checking the document checks what every row publishes."""
    found = {0}
    for values in (uncertainty.fixture_count, uncertainty.leakage_low, uncertainty.leakage_high, uncertainty.recall_low,
                   uncertainty.recall_high, uncertainty.best, uncertainty.worst):
        found.add(values.index(min(values)))
        found.add(values.index(max(values)))
    return sorted(found)
