"""Reading a leaderboard.json that another build published: its bytes as a checked schema v1
document (``parse_leaderboard``), and the previous leaderboard a build is compared with
(``read_previous``), each refused with one line that says why."""

from __future__ import annotations

import json
from typing import Any

import fastjsonschema
from pelican.utils import maybe_pluralize

from ..problems import BuildFailed, json_error_words, one_line
from . import validate


class UnusableInput(Exception):
    """An input cannot be read as a schema v1 leaderboard; the message is one line for the user."""


def parse_leaderboard(data: bytes, source: str) -> dict[str, Any]:
    """The bytes of a leaderboard.json as a document, once the published schema accepts it; raises
    ``UnusableInput`` (one line naming ``source``) otherwise."""
    try:
        document = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise UnusableInput(f"{one_line(source)} is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise UnusableInput(f"{one_line(source)} is not JSON: {json_error_words(error)}") from None
    except _NotJSON as error:
        raise UnusableInput(f"{one_line(source)} is not JSON: {error}") from None
    try:
        validate.compiled(validate.LEADERBOARD_SCHEMA)(document)
    except fastjsonschema.JsonSchemaException:
        problems = validate.problems_of(validate.LEADERBOARD_SCHEMA, document, source)
        first = problems[0] if problems else None
        where = f"{first.pointer}: {first.rule}" if first and first.pointer else (first.rule if first else "breaks its schema")
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UnusableInput(f"{one_line(source)} is not a schema v1 leaderboard: {one_line(where)}{more}") from None
    contradictions = contradictions_of(document)
    if contradictions:
        more = f" (and {len(contradictions) - 1} more)" if len(contradictions) > 1 else ""
        raise UnusableInput(f"{one_line(source)} contradicts itself: {one_line(contradictions[0])}{more}")
    return document


class _NotJSON(ValueError):
    pass


def _no_constant(name: str) -> Any:
    # Python reads NaN and Infinity, which JSON does not have (and NaN passes any minimum and maximum).
    raise _NotJSON(f"{name} is not a JSON number")


def read_previous(path: str) -> tuple[bytes, dict[str, Any]]:
    """The previous leaderboard a build is compared with (``LEADERBOARD_PREVIOUS_LEADERBOARD``): its
    bytes and its document. A file that cannot be read, is no schema v1 leaderboard or contradicts
    itself (``contradictions_of``) stops the build with one line (``BuildFailed``), before anything
    is written. Its release is not ordered against the build's here: a plain build's tag only fills
    the reports that carry none, while a release's tasks check ``previous_release_problem`` before
    they render."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise BuildFailed(f"cannot read the previous leaderboard {path}: {error.strerror or error}") from None
    try:
        return data, parse_leaderboard(data, path)
    except UnusableInput as error:
        raise BuildFailed(f"the previous leaderboard {error}") from None


def contradictions_of(document: dict[str, Any]) -> list[str]:
    """What a schema v1 leaderboard says that its own rows deny, in document order, one line each
    (``/pointer: rule``); none for one this site wrote. Its ``row_count`` is the number of its rows;
    each report is one row, once (a report's path names it: one leaderboard may hold several rows
    of a suite, model and device, of several releases or report files, never one report twice);
    and ``suites`` groups exactly the rows of ``rows``. The schema cannot say any of this, and a
    comparison made of such a document would count rows that are not there."""
    rows = document["rows"]
    found = []
    if document["row_count"] != len(rows):
        found.append(f"/row_count: is {document['row_count']}, but /rows holds {maybe_pluralize(len(rows), 'row', 'rows')}")
    first: dict[str, int] = {}
    for index, row in enumerate(rows):
        seen = first.setdefault(row["report_path"], index)
        if seen != index:
            found.append(f"/rows/{index}: is a second row of the report {row['report_path']} (the first is "
                         f"/rows/{seen}): each report is one row")
    grouped = sorted(row["report_path"] for suite in document["suites"] for family in suite["families"]
                     for row in family["rows"])
    if grouped != sorted(row["report_path"] for row in rows):
        found.append("/suites: does not group the rows of /rows, each once")
    return found
