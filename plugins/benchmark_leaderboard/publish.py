"""Publish: the site's data files as bytes (leaderboard.json, the report copies, the page's data
file leaderboard-data.js and each suite's metrics for comparing, compare-data/<anchor>.js), made
from the ranked rows. Nothing here writes a file."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from .canonical import canonical, flat_text
from .columns import COLUMNS, EMBEDDED_FIELDS
from .fill import FIELDS, Row
from .rank import SORT, Suite
from .view import leaves_of, shown

if TYPE_CHECKING:
    from .view import BoardView

SCHEMA_VERSION = 1


def row_object(row: Row) -> dict[str, Any]:
    return dict(zip(FIELDS, row))


def document_view(rows: tuple[Row, ...], suites: tuple[Suite, ...]) -> dict[str, Any]:
    """leaderboard.json's document with only the first row of each list: what the schema check needs
    once every row was checked on its own (a family's rows are the same objects as in ``rows``)."""
    return {
        "row_count": len(rows),
        "rows": [row_object(row) for row in rows[:1]],
        "schema_version": SCHEMA_VERSION,
        "sort": list(SORT),
        "suites": [{"families": [{"name": family.name, "rows": [row_object(rows[family.rows[0]])]}
                                 for family in suite.families], "name": suite.name} for suite in suites],
    }


def leaderboard_json(rows: tuple[Row, ...], suites: tuple[Suite, ...]) -> Iterator[bytes]:
    """leaderboard.json in pieces, a few hundred rows each: exactly ``canonical`` of the document
    (``row_count``, ``rows``, ``schema_version``, ``sort``, ``suites``), which is never built whole.
    Each row's text is worked out once; it is written twice (in ``rows`` and in its family)."""
    texts = [flat_text(row_object(row)) for row in rows]

    def row_list(indices, indent: str) -> Iterator[str]:
        inner = indent + "  "
        separator = "\n" + inner
        for count, index in enumerate(indices):
            body = texts[index].replace("\n", "\n" + inner)
            yield ("," if count else "") + separator + "{\n" + inner + "  " + body + "\n" + inner + "}"
        yield "\n" + indent + "]"

    def pieces() -> Iterator[str]:
        yield '{\n  "row_count": ' + str(len(rows)) + ',\n  "rows": ['
        yield from row_list(range(len(rows)), "  ")
        yield (',\n  "schema_version": ' + str(SCHEMA_VERSION) + ',\n  "sort": [\n'
               + ",\n".join("    " + json.dumps(key) for key in SORT) + '\n  ],\n  "suites": [')
        for number, suite in enumerate(suites):
            yield ("," if number else "") + '\n    {\n      "families": ['
            for count, family in enumerate(suite.families):
                yield (("," if count else "") + "\n        {\n          \"name\": "
                       + json.dumps(family.name, ensure_ascii=False) + ',\n          "rows": [')
                yield from row_list(family.rows, "          ")
                yield "\n        }"
            yield '\n      ],\n      "name": ' + json.dumps(suite.name, ensure_ascii=False) + "\n    }"
        yield "\n  ]\n}\n"

    buffer: list[str] = []
    size = 0
    for piece in pieces():
        buffer.append(piece)
        size += len(piece)
        if size >= 1 << 18:
            yield "".join(buffer).encode("utf-8")
            buffer, size = [], 0
    yield "".join(buffer).encode("utf-8")


def report_copy(payload: Any) -> bytes:
    """The canonical copy of a report, as published under ``reports/``."""
    return canonical(payload)


_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def embedded(rows: tuple[Row, ...], suites: tuple[Suite, ...], view: "BoardView | None" = None) -> str:
    """The leaderboard for the page's script, compact and column-major: ``fields`` maps each of
    ``EMBEDDED_FIELDS`` (and, given the ``view``, ``fixture_count``, ``param_count`` (null when
    unknown), ``size`` (it written short, as the table shows it) and ``frontier`` (1 on the suite's
    Pareto frontier, else 0)) to its values in ranking order (row ``i`` is ``fields[name][i]``);
    ``columns`` is the table's columns (key, kind, searched, sortable) in the order of the cells;
    ``published`` is a row's published fields in the schema's order (the compare page's lines and
    the columns of the CSV the page makes of the rows shown); ``suites`` names the suites, their
    anchors (the panels' ids and the compare-data files' names) and their families in the order of
    the page's tabs and tables; ``thin_evidence`` and
    ``page_rows`` are the build's settings. Escaped so that no report text can close a script
    element or open a comment: ``<``, ``>``, ``&``, U+2028 and U+2029 become ``\\u`` escapes, which
    JSON and JavaScript read back unchanged."""
    index = {name: position for position, name in enumerate(FIELDS)}
    fields: dict[str, Any] = {name: [row[index[name]] for row in rows] for name in EMBEDDED_FIELDS}
    data: dict[str, Any] = {
        "columns": [{"key": column.key, "kind": column.kind, "searched": column.searched, "sortable": column.sortable}
                    for column in COLUMNS],
        "fields": fields,
        "published": list(FIELDS),
        "row_count": len(rows),
        "schema_version": SCHEMA_VERSION,
        "sort": list(SORT),
        "suites": [{"anchor": suite.anchor, "families": [family.name for family in suite.families], "name": suite.name}
                   for suite in suites],
    }
    if view is not None:
        fields.update(fixture_count=list(view.fixture_count), param_count=list(view.param_count),
                      size=list(view.size), frontier=list(view.frontier))
        data.update(thin_evidence=view.thin_evidence, page_rows=view.page_rows)
    return _script_json(data)


def _script_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).translate(_SCRIPT_SAFE)


def data_script(rows: tuple[Row, ...], suites: tuple[Suite, ...], view: "BoardView") -> bytes:
    """leaderboard-data.js: ``window.leaderboardData = <embedded>;``, a same-origin script that the
    index and the compare page load before their own (it works from disk and under
    ``default-src 'self'``, which a fetched JSON file would not from disk)."""
    return ("window.leaderboardData = " + embedded(rows, suites, view) + ";\n").encode("utf-8")


def metric_value(value: Any) -> Any:
    """A metric leaf as compare shows it: a finite number stays a number, null stays null, anything
    else (text, true, a list, NaN) is its text as a report page shows it."""
    if value is None or (type(value) in (int, float) and math.isfinite(value)):
        return value
    return shown(value)


def metric_leaves(metrics: Any) -> dict[str, Any]:
    """Every leaf of a report's ``metrics``, by its keys joined with dots (as a report page lists
    them), each a ``metric_value``."""
    return {key: metric_value(value) for key, value in leaves_of(metrics)}


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
