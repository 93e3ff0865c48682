"""leaderboard.json and uncertainty.json: each published document's one encoder, made from the ranked
rows and their figures; the pipeline checks what these encoders write, and the writer writes it.

Byte-parity with the reference renderer (openmed==3.1.0) requires both files in ``json.dumps``'s
form, ``json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True)`` and a newline, in
UTF-8 (``read/canonical.py`` writes that form for a report's copy). These encoders write the same
text in pieces, without ever building the whole document: a row's object is spelled once by
``flat_text`` (json's own C encoder) and each key's value as json writes it. Pure: rows in, bytes out."""

from __future__ import annotations

import json
from typing import Iterable, Iterator, Sequence

from ..board import FIELDS, Row, Suite
from ..read.canonical import flat_text
from .rank import SORT
from .uncertainty import FIGURES, METHOD, METHODS, SCHEMA_VERSION as UNCERTAINTY_VERSION, Uncertainty

SCHEMA_VERSION = 1


def leaderboard_json(rows: tuple[Row, ...], suites: tuple[Suite, ...], first_only: bool = False) -> Iterator[bytes]:
    """leaderboard.json in pieces, a few hundred rows each: ``row_count``, ``rows``,
    ``schema_version``, ``sort``, ``suites``, as json.dumps writes the document. Each row's text is
    worked out once; it is written twice (in ``rows`` and in its family). With ``first_only``, the
    same document with only the first row of each list (``row_count`` still counts every row): what
    the pipeline checks once every row was checked on its own."""
    texts: dict[int, str] = {}

    def row_text(index: int) -> str:
        text = texts.get(index)
        if text is None:
            text = texts[index] = flat_text(dict(zip(FIELDS, rows[index])))
        return text

    def row_list(indices: Sequence[int], indent: str) -> Iterator[str]:
        inner = indent + "  "
        separator = "\n" + inner
        for count, index in enumerate(indices[:1] if first_only else indices):
            body = row_text(index).replace("\n", "\n" + inner)
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

    return _in_pieces(pieces())


def uncertainty_json(rows: Sequence[Row], uncertainty: Uncertainty, indices: Iterable[int] | None = None) -> Iterator[bytes]:
    """uncertainty.json in pieces: ``methods``, ``row_count``, ``rows`` (each row's figures by its
    report_path, sorted), ``schema_version``, as json.dumps writes the document: each row's object is
    written in turn from its figures, its keys in sorted order as ``_ROW_TEXT`` spells them (floats as
    ``repr`` writes them, as json.dumps does). Given ``indices``, only those rows of the ranking
    (``row_count`` still counts every row): what the pipeline checks."""
    methods = json.dumps(METHODS, ensure_ascii=False, indent=2, sort_keys=True).replace("\n", "\n  ")
    paths = [row.report_path for row in rows]
    order = sorted(range(len(rows)) if indices is None else indices, key=paths.__getitem__)
    sure = uncertainty
    counts, best, worst = sure.fixture_count, sure.best, sure.worst
    leakage_low, leakage_high, recall_low, recall_high = sure.leakage_low, sure.leakage_high, sure.recall_low, sure.recall_high
    method = json.dumps(METHOD)
    quoted = json.encoder.encode_basestring  # the C encoder's quoting, with ensure_ascii=False

    def pieces() -> Iterator[str]:
        yield '{\n  "methods": ' + methods + ',\n  "row_count": ' + str(len(rows)) + ',\n  "rows": {'
        separator = "\n    "
        for index in order:
            first = best[index]
            yield separator + quoted(paths[index]) + _ROW_TEXT % (
                "true" if first == 1 else "false", counts[index], float.__repr__(leakage_high[index]),
                float.__repr__(leakage_low[index]), method, float.__repr__(recall_high[index]),
                float.__repr__(recall_low[index]), first, worst[index])
            separator = ",\n    "
        yield ("\n  }" if order else "}") + ',\n  "schema_version": ' + str(UNCERTAINTY_VERSION) + "\n}\n"

    return _in_pieces(pieces())


# A row of uncertainty.json, its figures' names sorted, each value's place a %s or %d.
_ROW_TEXT = (": {\n" + ",\n".join(f'      "{name}": ' + ("%d" if name in ("fixture_count", "suite_rank_best", "suite_rank_worst")
                                                           else "%s") for name in sorted(FIGURES))
             + "\n    }")


def _in_pieces(texts: Iterable[str]) -> Iterator[bytes]:
    """``texts`` joined and encoded in pieces of about a quarter of a megabyte."""
    buffer: list[str] = []
    size = 0
    for text in texts:
        buffer.append(text)
        size += len(text)
        if size >= 1 << 18:
            yield "".join(buffer).encode("utf-8")
            buffer, size = [], 0
    yield "".join(buffer).encode("utf-8")
