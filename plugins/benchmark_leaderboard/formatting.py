"""Every number and text as the pages and messages write it, in one place: a fraction as an exact
percentage (``percent``, ``percent_of``), a 95% interval (``interval_text``), a parameter count
(``size_text``), a short hash, the words that open a sentence, a value isolated from the text around
it (``isolate``), text as XML can hold it (``xml_safe``), and the tables' rounding (``rounded``,
``table_decimals``). ``TEMPLATE_FILTERS``
are the ones the theme's templates use as filters.

The tables' rounding: the tables of rows (a suite's best rows, the family tables, their cards) write
a percentage rounded to ``DECIMALS`` decimals, so that every value fits its cell whatever it is (1/7
is 14.285714285714285%); the report page, compare and the data files keep the exact value.
Rounding must not make rows the ranking separates read the same where that matters: rows of a
suite whose leakages differ but read the same at two decimals (the ranking puts them in leakage
order, and a reader would see a tie broken by recall), and rows of equal leakage whose recalls
differ but read the same. Such rows are found in each suite's ranking order: a run of neighbours
whose values read the same is written, every row of it, with as many decimals as tell its
distinct values apart, up to ``MOST_DECIMALS`` (beyond, they read the same, and the rank and the
report page tell them apart). F1 never ranks: it keeps two decimals. The page's script writes the
rows it makes with the same number of decimals, which the page's data carries (``columns``)."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_EVEN, Decimal
from functools import lru_cache
from typing import Any, Callable, Iterable, Sequence

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


HUNDREDTH = Decimal("0.01")


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


_UNITS = ((10**12, "T"), (10**9, "B"), (10**6, "M"), (10**3, "K"))


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


def short_hash(value: str, shown: int) -> str:
    """A reproducibility hash as a table shows it: the first ``shown`` characters after its
    algorithm's name ("sha256:0a1b..." -> "0a1b..."); the report page shows it whole."""
    return value.partition(":")[2][:shown] if ":" in value else value[:shown]


# The theme's filters, in every environment that renders its templates (Pelican's generators, the
# release list): a fraction as a percentage, as every page writes it; a value isolated in text that
# holds no markup (``isolate``).
TEMPLATE_FILTERS: dict[str, Callable[[Any], Any]] = {"percent": percent, "isolate": isolate}


def percent_of(value: Decimal, signed: bool = False) -> str:
    """A fraction as a percentage, exactly: two decimals, or every decimal it needs when two would
    round it (0.0093 -> "0.93", 0.123456 -> "12.3456"); ``signed`` writes a sign in front."""
    scaled = value * 100
    shown = f"{abs(scaled):.2f}" if scaled == scaled.quantize(HUNDREDTH) else f"{abs(scaled).normalize():f}"
    if signed:
        return ("-" if scaled < 0 else "+") + shown
    return ("-" if scaled < 0 else "") + shown


# The characters XML 1.0 cannot hold, even escaped: every one but those of its production Char,
# #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF] (the C0 controls but tab,
# line feed and carriage return; the surrogates; U+FFFE and U+FFFF). A regular expression's class.
NOT_XML = "\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff"
_NOT_XML = re.compile(f"[{NOT_XML}]")


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 cannot hold replaced by U+FFFD (feedgenerator and any
    XML parser refuse them)."""
    return _NOT_XML.sub("\ufffd", text)


def as_sentence(words: str) -> str:
    """``words`` opening a sentence: the first letter a capital, every other letter as it is (Jinja's
    ``capitalize`` lowers them, which made "recall or F1" read "recall or f1")."""
    return words[:1].upper() + words[1:]
