"""The leaderboard as CSV: ``leaderboard.csv`` (every row of the global ranking) and
``suites/<anchor>.csv`` (a suite's rows, in ranking order). Pure: rows in, bytes out.

RFC 4180: one header line with the published fields in the schema's order (``Row._fields``), one
line a row, fields separated by commas, every line ending in CRLF, UTF-8 without a byte order
mark. Numbers are written exactly as leaderboard.json writes them (Python's ``repr`` of the
float). A text cell is quoted when it holds a comma, a double quote, CR or LF (its double quotes
doubled). A text cell that a spreadsheet would run as a formula, one starting with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return, is neutralised as OWASP recommends ("CSV Injection"):
a single quote is put before it and the cell is quoted."""

from __future__ import annotations

from typing import Iterable, Iterator

from .fill import FIELDS, Row

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NEEDS_QUOTES = (",", '"', "\r", "\n")
LINE_END = "\r\n"
# The CSV is written in pieces of about this many characters, never held whole.
_PIECE = 1 << 18


def cell(value: object) -> str:
    """One field as the CSV writes it."""
    if type(value) is float:
        return repr(value)
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        return '"\'' + text.replace('"', '""') + '"'
    if any(mark in text for mark in NEEDS_QUOTES):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_pieces(rows: Iterable[Row]) -> Iterator[bytes]:
    """The CSV of ``rows``, header first, in pieces of UTF-8 bytes."""
    buffer = [",".join(FIELDS) + LINE_END]
    size = len(buffer[0])
    for row in rows:
        line = ",".join([cell(value) for value in row]) + LINE_END
        buffer.append(line)
        size += len(line)
        if size >= _PIECE:
            yield "".join(buffer).encode("utf-8")
            buffer, size = [], 0
    yield "".join(buffer).encode("utf-8")


def csv_bytes(rows: Iterable[Row]) -> bytes:
    return b"".join(csv_pieces(rows))


def suite_csv_path(anchor: str) -> str:
    """Where a suite's CSV is written."""
    return f"suites/{anchor}.csv"
