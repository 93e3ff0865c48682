"""Publish: the site's data files as bytes (leaderboard.json, the report copies, the page's embedded
data), made from the ranked rows. Nothing here writes a file."""

from __future__ import annotations

import json
from typing import Any, Iterator

from .canonical import canonical, flat_text
from .columns import COLUMNS, EMBEDDED_FIELDS
from .fill import FIELDS, Row
from .rank import SORT, Suite

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


def embedded(rows: tuple[Row, ...], suites: tuple[Suite, ...]) -> str:
    """The leaderboard for the page's ``<script type="application/json">``, compact and column-major:
    ``fields`` maps each of ``EMBEDDED_FIELDS`` to its values in ranking order (row ``i`` is
    ``fields[name][i]``); ``columns`` is the table's columns (key, kind, searched) in the order of
    the cells; ``suites`` names the suites and their families in the order of the page's tabs and
    tables. Escaped so that no report text can close the element or open a comment: ``<``, ``>``,
    ``&``, U+2028 and U+2029 become ``\\u`` escapes, which JSON reads back unchanged."""
    index = {name: position for position, name in enumerate(FIELDS)}
    data = {
        "columns": [{"key": column.key, "kind": column.kind, "searched": column.searched} for column in COLUMNS],
        "fields": {name: [row[index[name]] for row in rows] for name in EMBEDDED_FIELDS},
        "row_count": len(rows),
        "schema_version": SCHEMA_VERSION,
        "sort": list(SORT),
        "suites": [{"families": [family.name for family in suite.families], "name": suite.name} for suite in suites],
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).translate(_SCRIPT_SAFE)
