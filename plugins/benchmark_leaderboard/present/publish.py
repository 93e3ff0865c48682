"""Publish: the page scripts' data as bytes (leaderboard-data.js, its chunks for the compare page,
rows/<n>.js, and each suite's metrics for comparing, compare-data/<anchor>.js), made from the ranked
rows. Nothing here writes a file."""

from __future__ import annotations

import json
import math
import os
from itertools import islice, product
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Iterable

from ..board import FIELDS, Row, Suite
from ..decide.document import SCHEMA_VERSION
from ..decide.fill import METRIC_PATHS
from ..decide.rank import SORT
from ..decide.uncertainty import FIGURES, FLOAT_FIELDS, RANK_RANGE
from .columns import EMBEDDED_FIELDS, FAMILY_COLUMNS, HASH_SHOWN, PERCENT_KINDS, TOP_COLUMNS

if TYPE_CHECKING:
    from .board_view import BoardView


_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"})


# A packed column's entry numbers: fixed-width digits of this alphabet, none of which JSON escapes.
DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"


def _key(value: Any) -> tuple[Any, ...]:
    """What makes two values one entry of a column's table: equal and of one type (1, 1.0 and True
    differ), and for floats of one sign (-0.0 and 0.0 are written differently)."""
    if type(value) is float:
        return (float, value, math.copysign(1.0, value))
    return (type(value), value)


def _separator(entries: list[str]) -> str:
    """A character that no entry holds, to join them with: a control character or one of the
    private use area, none of which has a case (lower-casing the joined text keeps every entry's
    bounds)."""
    held = set("".join(entries))
    for code in (*range(0x0A, 0x20), *range(0x01, 0x0A), *range(0xE000, 0xF900)):
        if chr(code) not in held:
            return chr(code)
    raise ValueError("every separator character occurs in the column")  # more than 6,400 distinct characters


def _common_suffix(entries: list[str]) -> str:
    reversed_prefix = os.path.commonprefix([entry[::-1] for entry in entries])
    return reversed_prefix[::-1]


def _entries(values: list[Any]) -> tuple[list[Any], list[int]]:
    """A column's distinct values (by ``_key``) in order of first appearance, and each value's
    entry number. A column of one type of text or whole numbers is its own keys, and a column of
    floats is keyed by each float's exact hexadecimal text (which tells -0.0 from 0.0): both are
    numbered by the dictionary's own loops, not one Python call a value."""
    kinds = set(map(type, values))
    if len(kinds) == 1 and kinds <= {str, int, float}:
        keys = list(map(float.hex, values)) if float in kinds else values
        number = {key: code for code, key in enumerate(dict.fromkeys(keys))}
        table = list(number)
        return (list(map(float.fromhex, table)) if float in kinds else table), list(map(number.__getitem__, keys))
    table: list[Any] = []
    found: dict[tuple[Any, ...], int] = {}
    codes: list[int] = []
    for value in values:
        key = _key(value)
        code = found.get(key)
        if code is None:
            code = found[key] = len(table)
            table.append(value)
        codes.append(code)
    return table, codes


def pack_column(values: list[Any]) -> dict[str, Any]:
    """A column of the page's data, compact and cheap to read: its distinct values once each, in
    order of first appearance (``values``, a list; or, when they are all text, ``text``: them joined
    by ``sep``, a character none holds, after taking off ``affix``, the prefix and suffix they all
    share), and each row's entry number in ``index``, ``width`` digits of ``DIGITS`` a row, most
    significant first (an empty ``index`` and ``width`` 0: row ``i`` is entry ``i``, or entry 0 when
    there is one entry). A page reads a few long strings instead of a value a row: far less to
    parse."""
    table, codes = _entries(values)
    column: dict[str, Any]
    if table and set(map(type, table)) == {str}:
        prefix = os.path.commonprefix(table)
        cut = [value[len(prefix):] for value in table]
        suffix = _common_suffix(cut)
        entries = [value[:len(value) - len(suffix)] for value in cut] if suffix else cut
        sep = _separator(entries)
        column = {"affix": [prefix, suffix], "sep": sep, "text": sep.join(entries)}
    else:
        column = {"values": table}
    if len(table) == len(values) or len(table) == 1:  # every row its own entry, in row order, or all one
        column.update(index="", width=0)
        return column
    width = 1
    while len(DIGITS) ** width < len(table):
        width += 1
    # Entry numbers spelled in order: the product of the digits, most significant first.
    spelled = list(map("".join, islice(product(DIGITS, repeat=width), len(table))))
    column.update(index="".join(map(spelled.__getitem__, codes)), width=width)
    return column


def unpack_column(column: dict[str, Any], row_count: int) -> list[Any]:
    """A packed column's values in row order: what the page's script reads back from it."""
    if "values" in column:
        table = list(column["values"])
    else:
        prefix, suffix = column["affix"]
        table = [prefix + entry + suffix for entry in column["text"].split(column["sep"])]
    width = column["width"]
    if not width:
        return table * row_count if len(table) == 1 else table[:row_count]
    index = column["index"]
    result = []
    for at in range(0, len(index), width):
        code = 0
        for digit in index[at:at + width]:
            code = code * len(DIGITS) + DIGITS.index(digit)
        result.append(table[code])
    return result


def unpacked(data: dict[str, Any]) -> dict[str, list[Any]]:
    """The page's data's ``fields``, every column as its list of values in ranking order."""
    return {name: unpack_column(column, data["row_count"]) for name, column in data["fields"].items()}


def embedded(rows: tuple[Row, ...], suites: tuple[Suite, ...], view: "BoardView | None" = None,
             span: slice | None = None) -> str:
    """The leaderboard for the page's script, compact and column-major: ``fields`` maps each of
    ``EMBEDDED_FIELDS`` (and, given the ``view``, ``fixture_count``, ``param_count`` (null when unknown),
    ``size`` (it written short, as the table shows it), ``frontier`` (1 on the suite's Pareto frontier,
    else 0) and every figure of how sure the row's rank is, as uncertainty.json names them) to its values
    in ranking order, each packed (``pack_column``: row ``i``'s value is
    ``unpacked(data)[name][i]``); ``columns`` is a family table's columns (key, kind, searched, sortable) in the
    order of the cells, ``top_columns`` a suite's best rows' (``<key>_decimals`` gives, for each
    percentage a table writes, the decimals it writes it with); ``published`` is a row's published fields in the schema's order (the compare page's
    lines and the columns of the CSV the page makes of the rows shown); ``suites`` names the suites, their
    anchors (the panels' ids and the compare-data files' names) and their families in the order of the
    page's tabs and tables; ``thin_evidence`` and ``page_rows`` are the build's settings, ``more_rows``
    the rows Show more adds, ``top_rows`` the most best rows a suite shows, ``hash_shown`` the hash's digits a table shows; ``figures`` names the
    figures in the CSV's order (after ``published``), ``floats`` the fields written as floats, and
    ``rank_range`` the two figures of a rank's range. Escaped so that no report text can close a script element or open a
    comment: ``<``, ``>``, ``&``, U+2028 and U+2029 become ``\\u`` escapes, which JSON and JavaScript read
    back unchanged. Given ``span``, only those rows (a chunk's: its row ``i`` is the ranking's
    ``span.start + i``)."""
    span = span or slice(None)
    rows = rows[span]
    index = {name: position for position, name in enumerate(FIELDS)}
    fields: dict[str, Any] = {name: list(map(itemgetter(index[name]), rows)) for name in EMBEDDED_FIELDS}
    data: dict[str, Any] = {
        "columns": [_column(column) for column in FAMILY_COLUMNS],
        "top_columns": [_column(column) for column in TOP_COLUMNS],
        "fields": fields,
        "published": list(FIELDS),
        "row_count": len(rows),
        "schema_version": SCHEMA_VERSION,
        "sort": list(SORT),
        "suites": [{"anchor": suite.anchor, "families": [family.name for family in suite.families], "name": suite.name}
                   for suite in suites],
    }
    if view is not None:
        fields.update(fixture_count=list(view.fixture_count[span]), param_count=list(view.param_count[span]),
                      size=list(view.size[span]), frontier=list(view.frontier[span]))
        fields.update(view.uncertainty.columns(span))
        # The decimals the tables write each percentage with (formatting.table_decimals).
        positions = {column.key: column.index for column in FAMILY_COLUMNS if column.kind in PERCENT_KINDS}
        fields.update({key + "_decimals": [view.decimals_at(at, index) for index in range(len(view.frontier))[span]]
                       for key, at in positions.items()})
        data.update(thin_evidence=view.thin_evidence, page_rows=view.page_rows, more_rows=view.more_rows,
                    hash_shown=HASH_SHOWN, figures=list(FIGURES), floats=[*METRIC_PATHS, *FLOAT_FIELDS],
                    rank_range=list(RANK_RANGE), top_rows=max(map(len, view.tops), default=0))
    data["fields"] = {name: pack_column(values) for name, values in fields.items()}
    return _script_json(data)


def _column(column: Any) -> dict[str, Any]:
    return {"key": column.key, "kind": column.kind, "label": column.label, "searched": column.searched,
            "sortable": column.sortable}


def _script_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).translate(_SCRIPT_SAFE)


def data_script(rows: tuple[Row, ...], suites: tuple[Suite, ...], view: "BoardView") -> bytes:
    """leaderboard-data.js: ``window.leaderboardData = <embedded>;``, a same-origin script that the
    compare page loads before its own and the index's script when the reader first filters, sorts
    or downloads (it works from disk and under
    ``default-src 'self'``, which a fetched JSON file would not from disk)."""
    return ("window.leaderboardData = " + embedded(rows, suites, view) + ";\n").encode("utf-8")


# The compare page reads the rows it shows from chunks of this many rows (rows/<n>.js), not from the
# whole leaderboard's data file, so that it costs the same at 100 reports and at 100,000.
ROW_CHUNK = 1000


def chunk_count(row_count: int) -> int:
    return -(-row_count // ROW_CHUNK)


def chunk_script(rows: tuple[Row, ...], suites: tuple[Suite, ...], view: "BoardView", number: int) -> bytes:
    """rows/<number>.js: ``window.leaderboardRows[<number>] = <embedded>;`` of the ROW_CHUNK rows from
    ``number * ROW_CHUNK`` on, added to what the other chunks put there."""
    span = slice(number * ROW_CHUNK, (number + 1) * ROW_CHUNK)
    return ("(window.leaderboardRows = window.leaderboardRows || {})[" + str(number) + "] = "
            + embedded(rows, suites, view, span) + ";\n").encode("utf-8")


def metrics_script(suite: Suite, reports: Iterable[tuple[int, dict[str, Any]]]) -> bytes:
    """compare-data/<anchor>.js of a suite, given each of its rows' index and metric leaves:
    ``window.leaderboardMetrics["<suite>"] = {keys: [every dotted key, sorted], rows: {"<row index>":
    [its value at each key, or null where its report has none]}}``, added to what other suites'
    files put there. Escaped like the page's data."""
    reports = list(reports)
    keys = sorted({key for _, leaves in reports for key in leaves})
    rows = {str(index): [leaves.get(key) for key in keys] for index, leaves in reports}
    return ("window.leaderboardMetrics = window.leaderboardMetrics || {};\nwindow.leaderboardMetrics["
            + _script_json(suite.name) + "] = " + _script_json({"keys": keys, "rows": rows}) + ";\n").encode("utf-8")
