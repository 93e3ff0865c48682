"""The leaderboard as CSV: ``leaderboard.csv`` (every row of the global ranking) and
``suites/<anchor>.csv`` (a suite's rows, in ranking order). Pure: rows in, bytes out.

RFC 4180: one header line with the published fields in the schema's order (``Row._fields``), then
how sure the row's rank is, as uncertainty.json holds it (``uncertainty.FIGURES``); one line a row,
fields separated by commas, every line ending in CRLF, UTF-8 without a byte order mark. Numbers
are written exactly as leaderboard.json and uncertainty.json write them (Python's ``repr`` of the
float), and true or false as JSON writes them. A text cell is quoted by the standard library's
``csv.writer`` (RFC 4180: when it holds a comma, a double quote, CR or LF, its double quotes
doubled). A text cell that a spreadsheet would run as a formula, one starting with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return, is neutralised as OWASP recommends ("CSV Injection"):
a single quote is put before it and the cell is quoted.

csv.writer quotes either what must be quoted or every text cell, never one chosen cell, so each text
cell is quoted on its own by one of two writers (``_minimal``, ``_always``) and the cells are
joined here: a line is its cells joined by commas and CRLF, which is what csv.writer writes with
``lineterminator="\r\n"``."""

from __future__ import annotations

import csv
from itertools import chain
from typing import Iterable, Iterator, Sequence

from ..board import FIELDS, Row
from ..decide.uncertainty import FIGURES, Uncertainty

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
HEADER = ",".join(FIELDS + FIGURES) + "\r\n"


class _Returned:
    """A file whose ``write`` returns the text: ``writerow`` on it returns the line it wrote."""

    @staticmethod
    def write(text: str) -> str:
        return text


# A cell's writers. Their line ends in CRLF, which they also quote (a writer quotes the characters of
# its line terminator, not CR and LF as such); it is cut off the one cell.
_minimal = csv.writer(_Returned(), lineterminator="\r\n").writerow
_always = csv.writer(_Returned(), quoting=csv.QUOTE_ALL, lineterminator="\r\n").writerow
# The CSV is written in pieces of about this many characters, never held whole.
_PIECE = 1 << 18


def cell(value: object) -> str:
    """One field as the CSV writes it."""
    if type(value) is float:
        return repr(value)
    if type(value) is bool:
        return "true" if value else "false"
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        return _always(["'" + text])[:-2]
    # A line of one empty cell is written '""' (an empty line would be no row); a cell of a longer line is not.
    return _minimal([text])[:-2] if text else ""


def csv_lines(rows: Sequence[Row], uncertainty: Uncertainty) -> list[str]:
    """Each row's line, CRLF included: worked out once for leaderboard.csv and the suites' files.
    A field is written column by column (the published fields', then the figures' columns, in
    ``FIGURES`` order): a column of floats or whole numbers by ``repr``, a column of text or of
    true and false once for each distinct value (suites, families, devices, tags and dates repeat
    across rows)."""
    columns = []
    for values in chain(zip(*rows), uncertainty.columns(slice(None)).values()):
        kinds = set(map(type, values))
        if kinds == {float}:
            columns.append(map(float.__repr__, values))
        elif kinds == {int}:
            columns.append(map(int.__repr__, values))
        elif kinds == {str} or kinds == {bool}:
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


def csv_bytes(rows: Sequence[Row], uncertainty: Uncertainty) -> bytes:
    """The CSV of ``rows`` (the whole ranking, whose figures ``uncertainty`` holds), whole."""
    return b"".join(csv_pieces(csv_lines(rows, uncertainty)))


