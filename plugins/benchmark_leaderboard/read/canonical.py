"""A report's canonical copy, as ``reports/`` publishes it: byte-parity with the reference renderer
(openmed==3.1.0) requires ``json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)`` and a
newline, in UTF-8, the form every published JSON file takes (leaderboard.json's and uncertainty.json's
encoders, decide/document.py, write it too, a row's object by ``flat_text``).

orjson writes that form for almost every report, many times faster than json's own indenting
encoder, which is pure Python; where orjson spells a value otherwise (a float Python writes with an
exponent, which orjson writes as ``1.5e-7`` or as ``0.00001``; NaN and the infinities, which orjson
writes as null) or refuses one (an integer beyond 64 bits, a lone surrogate), the text is made the
slower way, so the bytes are always json's."""

from __future__ import annotations

import json
from typing import Any

import orjson

_ORJSON_OPTIONS = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS
# What orjson may spell otherwise than json, outside the strings of its indented text (where every
# letter is a literal's): a number with an exponent (json's "1e-05" is orjson's "0.00001" or a
# "1.5e-7"), one below 1e-4 written out ("0.00001"), and null (NaN and the infinities come out of
# orjson as null). Numbers of 16 integer digits or more take an exponent in both, as json writes them.
_LITERALS_TEXT = (b"true", b"false")


def outside_strings(text: bytes) -> bytes | None:
    """JSON text without its strings (what lies between their quotes), or None when a string holds
    an escaped quote, which this cannot tell from a string's end (the caller then takes the slow way)."""
    if b'\\"' in text:
        return None
    return b"".join(text.split(b'"')[::2])


def _respelled(text: bytes) -> bool:
    """Whether orjson's indented ``text`` may differ from json's (see above)."""
    bare = outside_strings(text)
    if bare is None:
        return True
    for literal in _LITERALS_TEXT:
        bare = bare.replace(literal, b"")
    return b"e" in bare or b"E" in bare or b"null" in bare or b"0.0000" in bare


def report_copy(payload: Any) -> bytes:
    """The canonical copy of a report, as published under ``reports/``."""
    return canonical(payload)


def canonical(document: Any) -> bytes:
    """Sorted keys, two-space indent, UTF-8 as is, one final newline: the published form.

    The text of ``json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True)``: orjson's
    where it is sure to be the same (see above), else written by ``_indented`` (json's own indenting
    encoder is pure Python and slower; see benchmarks/) for what ``json.load`` makes; anything else,
    or nesting too deep for it, goes to ``json.dumps`` itself."""
    try:
        text = orjson.dumps(document, option=_ORJSON_OPTIONS)
    except (orjson.JSONEncodeError, TypeError):
        pass
    else:
        if not _respelled(text):
            return text + b"\n"
    try:
        parts: list[str] = []
        _indented(document, "\n", parts, {})
        text = "".join(parts)
    except (_NotPlainJson, RecursionError):
        text = json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True)
    return (text + "\n").encode("utf-8")


class _NotPlainJson(Exception):
    """A value ``_indented`` leaves to ``json.dumps``."""


_quoted = json.encoder.encode_basestring  # the C encoder's string quoting, as json.dumps uses
_LITERALS = {True: "true", False: "false", None: "null"}
_INFINITY = float("inf")
_SCALARS = frozenset({str, int, float, bool, type(None)})
# json's C encoder does not indent, but an object of scalars comes out of it indented one level
# when its item separator is a line break and two spaces: '{"a": 1,\n  "b": null}'.
_flat_object = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",\n  ", ": ")).encode


def _indented(value: Any, newline: str, parts: list[str], flat: dict[int, str]) -> None:
    """Append ``value`` as indented JSON to ``parts``; ``newline`` is a line break and the
    indentation of the line ``value`` is on. ``flat`` keeps the text of each object of scalars
    already written (a leaderboard row is written twice), by its id, as if at the top level."""
    kind = type(value)
    if kind is str:
        parts.append(_quoted(value))
    elif kind is dict:
        if not value:
            parts.append("{}")
            return
        identity = id(value)
        body = flat.get(identity)
        if body is None:
            body = flat[identity] = flat_text(value)
        if body is not None:
            # A JSON string never holds a raw line break: the only ones are the separators', which
            # take the indentation of the line.
            parts.append("{" + newline + "  " + (body if newline == "\n" else body.replace("\n", newline)) + newline + "}")
            return
        inner = newline + "  "
        separator = "{" + inner
        for name in sorted(value):
            if type(name) is not str:
                raise _NotPlainJson
            parts.append(separator)
            parts.append(_quoted(name))
            parts.append(": ")
            _indented(value[name], inner, parts, flat)
            separator = "," + inner
        parts.append(newline + "}")
    elif kind is list:
        if not value:
            parts.append("[]")
            return
        inner = newline + "  "
        separator = "[" + inner
        for item in value:
            parts.append(separator)
            _indented(item, inner, parts, flat)
            separator = "," + inner
        parts.append(newline + "]")
    else:
        text = scalar_text(value)
        if text is None:
            raise _NotPlainJson
        parts.append(text)


def flat_text(value: dict[Any, Any]) -> str | None:
    """The items of an object of scalars (a leaderboard row), a line each, as ``canonical`` writes
    them between the braces at the top level; None for an object holding anything else."""
    if all(type(item) in _SCALARS for item in value.values()) and all(type(name) is str for name in value):
        return _flat_object(value)[1:-1]
    return None


def scalar_text(value: Any) -> str | None:
    """true, false, null, an integer or a finite float as ``json.dumps`` writes it; None for
    anything else (NaN and the infinities are left to ``json.dumps`` itself)."""
    kind = type(value)
    if kind is bool or value is None:
        return _LITERALS[value]
    if kind is int:
        return int.__repr__(value)
    if kind is float and value == value and value != _INFINITY and value != -_INFINITY:
        return float.__repr__(value)
    return None
