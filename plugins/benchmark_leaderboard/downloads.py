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

import re
from typing import Iterable, Iterator, Sequence

from .fill import FIELDS, Row

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
HEADER = ",".join(FIELDS) + "\r\n"
# A cell holding one of these is quoted.
_NEEDS_QUOTES = re.compile(r'[",\r\n]').search
# The CSV is written in pieces of about this many characters, never held whole.
_PIECE = 1 << 18


def cell(value: object) -> str:
    """One field as the CSV writes it."""
    if type(value) is float:
        return repr(value)
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        return '"\'' + text.replace('"', '""') + '"'
    if _NEEDS_QUOTES(text):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_lines(rows: Iterable[Row]) -> list[str]:
    """Each row's line, CRLF included: worked out once for leaderboard.csv and the suites' files.
    A field is written column by column: a column of floats by ``repr``, a column of text once for
    each distinct value (suites, families, devices, tags and dates repeat across rows)."""
    columns = []
    for values in zip(*rows):
        kinds = set(map(type, values))
        if kinds == {float}:
            columns.append(map(float.__repr__, values))
        elif kinds == {str}:
            columns.append(map({value: cell(value) for value in set(values)}.__getitem__, values))
        else:
            columns.append(map(cell, values))
    return [line + "\r\n" for line in map(",".join, zip(*columns))]


def csv_pieces(lines: Sequence[str], indices: Iterable[int] | None = None) -> Iterator[bytes]:
    """The CSV of the rows whose ``lines`` are at ``indices`` (every row when None), header first,
    in pieces of UTF-8 bytes."""
    buffer, size = [HEADER], len(HEADER)
    for line in (lines if indices is None else (lines[index] for index in indices)):
        buffer.append(line)
        size += len(line)
        if size >= _PIECE:
            yield "".join(buffer).encode("utf-8")
            buffer, size = [], 0
    yield "".join(buffer).encode("utf-8")


def csv_bytes(rows: Iterable[Row]) -> bytes:
    """The CSV of ``rows``, whole."""
    return b"".join(csv_pieces(csv_lines(rows)))


def suite_csv_path(anchor: str) -> str:
    """Where a suite's CSV is written."""
    return f"suites/{anchor}.csv"
