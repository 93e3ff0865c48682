"""leaderboard.json's document as schema v1 defines it: its version, its sort, a row as an object,
and the document made of the ranked and grouped rows, whole or as the view the schema check needs.

A step of its own after rank and group: the pipeline checks the document here before anything is
written, and publish streams the same document's bytes. Pure: rows in, plain JSON data out."""

from __future__ import annotations

from typing import Any

from ..board import FIELDS, Row, Suite
from .rank import SORT

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


def whole_document(rows: tuple[Row, ...], suites: tuple[Suite, ...]) -> dict[str, Any]:
    """leaderboard.json's whole document (what its bytes read back as): for naming every problem of
    rows that were not all valid."""
    objects = [row_object(row) for row in rows]
    return {
        "row_count": len(rows),
        "rows": objects,
        "schema_version": SCHEMA_VERSION,
        "sort": list(SORT),
        "suites": [{"families": [{"name": family.name, "rows": [objects[index] for index in family.rows]}
                                 for family in suite.families], "name": suite.name} for suite in suites],
    }
