"""How the tables of rows (a suite's best rows, the family tables, their cards) write a percentage:
rounded to ``DECIMALS`` decimals, so that every value fits its cell whatever it is (1/7 is
14.285714285714285%); the report page, compare and the data files keep the exact value.

Rounding must not make rows the ranking separates read the same where that matters: rows of a
suite whose leakages differ but read the same at two decimals (the ranking puts them in leakage
order, and a reader would see a tie broken by recall), and rows of equal leakage whose recalls
differ but read the same. Such rows are found in each suite's ranking order: a run of neighbours
whose values read the same is written, every row of it, with as many decimals as tell its
distinct values apart, up to ``MOST_DECIMALS`` (beyond, they read the same, and the rank and the
report page tell them apart). F1 never ranks: it keeps two decimals. The page's script writes the
rows it makes with the same number of decimals, which the page's data carries (``columns``)."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from functools import lru_cache
from typing import Any, Iterable, Sequence

DECIMALS = 2
MOST_DECIMALS = 4
# Two fractions further apart than this never read the same at DECIMALS decimals of a percent
# (a value written rounds by at most half its last place): only closer ones are compared as written.
_APART = 10 ** -(DECIMALS + 2) * 2


def rounded(fraction: float, decimals: int = DECIMALS) -> str:
    """A fraction as a percentage with ``decimals`` decimals, the exact decimal value of the float
    (as Python writes it, ``repr``) rounded half to even: 1/7 -> "14.29", 0.5 -> "50.00", and at
    four decimals 1/7 -> "14.2857". Digits, a point and a sign (-0.0 is "-0.00", as ``percent`` writes it)."""
    return _rounded(repr(float(fraction)), decimals)


# Kept by the fraction's text, which tells -0.0 from 0.0: archives repeat a few thousand values.
@lru_cache(maxsize=1 << 14)
def _rounded(text: str, decimals: int) -> str:
    value = Decimal(text) * 100
    return f"{value.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_EVEN):f}"


def _read_alike(a: float, b: float) -> bool:
    return a == b or (abs(a - b) <= _APART and rounded(a) == rounded(b))


def _widen(indices: Sequence[int], values: Sequence[float], found: dict[int, int]) -> None:
    """Rows ``indices`` in ranking order, their ``values`` in that order (monotone): each run of
    neighbours that read the same at DECIMALS decimals though their values differ gets, in
    ``found``, the decimals that tell its distinct values apart (MOST_DECIMALS at most)."""
    start = 0
    for at in range(1, len(indices) + 1):
        if at < len(indices) and _read_alike(values[at - 1], values[at]):
            continue
        distinct = sorted(set(values[start:at]))
        if len(distinct) > 1:
            decimals = DECIMALS + 1
            while decimals < MOST_DECIMALS and any(rounded(a, decimals) == rounded(b, decimals)
                                                   for a, b in zip(distinct, distinct[1:])):
                decimals += 1
            for index in indices[start:at]:
                found[index] = decimals
        start = at


def table_decimals(rows: Sequence[Any], suites: Iterable[Sequence[int]]) -> tuple[dict[int, int], dict[int, int]]:
    """The rows whose leakage, and those whose recall, a table writes with more than DECIMALS
    decimals, by their index in the ranking, and how many; ``suites`` gives each suite's rows in
    ranking order. Every other row's are written with DECIMALS."""
    leakage: dict[int, int] = {}
    recall: dict[int, int] = {}
    for indices in suites:
        leakages = [rows[index].leakage for index in indices]
        _widen(indices, leakages, leakage)
        start = 0  # rows of equal leakage are in recall order (higher first)
        for at in range(1, len(indices) + 1):
            if at == len(indices) or leakages[at] != leakages[start]:
                if at - start > 1:
                    _widen(indices[start:at], [rows[index].recall for index in indices[start:at]], recall)
                start = at
    return leakage, recall


def isolate(text: Any) -> str:
    """A value from the archive in text that holds no markup (a page's ``<title>``, an SVG's, a
    badge's, a feed's title) between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL
    ISOLATE: what ``<bdi>`` is in HTML. It reads in its own direction (its first strong letter's)
    and cannot reorder the text around it (the ``isolate`` filter)."""
    return f"\u2068{text}\u2069"
