"""Fill: turn each report candidate into one leaderboard row, from the report, the manifest or the
``--release-tag`` fallback, and say where every published field came from."""

from __future__ import annotations

import math
import sys
from functools import lru_cache
import re
import unicodedata
from datetime import datetime
from typing import Any, Callable

from ..board import Row, FIELDS, Filled
from ..paths import REPORT_COPIES, url_of
from ..problems import Problem, pointer
from ..read.archive import Candidate, is_utf8
from ..read.manifest import Manifest

HASH = re.compile(r"sha256:[0-9a-f]{64}")
METRIC_PATHS = {
    "leakage": ("leakage.overall", "leakage_rate.overall", "leakage_rate", "critical_leakage_rate"),
    "recall": ("exact_span_f1.recall", "span.recall", "micro.recall", "recall"),
    "f1": ("exact_span_f1.f1", "span.f1", "micro.f1", "micro_f1", "f1"),
}
MANIFEST = "models.jsonl"
TAG_FLAG = "--release-tag"
ARCHIVE = "archive"


def _first_set(options: list[tuple[str, Any]]) -> tuple[str, Any]:
    """The first option whose value is set (truthy); failing that, the last option's value as is
    (like Python's ``a or b``: a null there lets a later fallback in). A problem about a value that
    is null points at the first option, where the field belongs."""
    for source, value in options:
        if value:
            return source, value
    source, value = options[-1]
    return (options[0][0] if value is None else source), value


def _text(value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


# Each metric's paths with their keys split once: (path, its keys).
_METRIC_KEYS = {field: tuple((path, tuple(path.split("."))) for path in paths) for field, paths in METRIC_PATHS.items()}


def _metric(metrics: dict[str, Any], paths: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[str, Any]:
    """The first metric path that holds a value (null counts as absent), or ("", None)."""
    for path, keys in paths:
        value: Any = metrics
        for key in keys:
            value = value.get(key) if type(value) is dict else None
        if value is not None:
            return path, value
    return "", None


def _fraction(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) and 0.0 <= number <= 1.0 else None


def run_date(value: str) -> str | None:
    """The calendar date, as written, of an ISO 8601 date or date-time; None when unreadable."""
    text = value.strip()
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(text).date().isoformat()
    except ValueError:
        return None


def fill_row(candidate: Candidate, manifest: Manifest, release_tag: str | None) -> tuple[Filled | None, list[Problem]]:
    """The row of one candidate, or the problems that keep it from being published."""
    payload = candidate.payload
    file = candidate.path
    problems: list[Problem] = []
    fields: dict[str, Any] = {}
    sources: dict[str, str] = {}

    def need(field: str, source: str, value: Any, rule: Callable[[], str]) -> None:
        """Keep ``value`` as ``field``, or note the problem ``rule()`` words (only then worded)."""
        if value is None:
            problems.append(Problem(file, source if source.startswith("/") else "", rule()))
        elif isinstance(value, str) and not is_utf8(value):
            problems.append(Problem(file, source if source.startswith("/") else "", f"{field} is not valid Unicode text"))
        elif field in NAMES and (control := BIDI_CONTROL.search(value)):
            problems.append(Problem(file, source if source.startswith("/") else "", bidi_rule(field, source, control.group())))
        else:
            fields[field] = value
            sources[field] = source

    for field, where in _IDENTITY:
        text = _text(payload.get(field))
        if text is not None:  # the schema names anything else
            need(field, where, text, str)

    metadata = payload.get("metadata")
    metadata = metadata if isinstance(metadata, dict) else {}
    model_name = payload.get("model_name")
    known = manifest.get(model_name) if isinstance(model_name, str) else None
    in_manifest = f"{MANIFEST} ({model_name})"

    source, family = _first_set([("/metadata/model_family", metadata.get("model_family")),
                                 ("/metadata/family", metadata.get("family"))])
    if family is None and known is not None:
        source, family = in_manifest, known.get("family")
    need("model_family", source, _text(family), lambda: (
         f"model family: {_why(family, source)}; set metadata.model_family or metadata.family, or a family in the {MANIFEST} row whose repo_id is the model_name"))

    source, tag = _first_set([("/metadata/release_tag", metadata.get("release_tag")),
                              ("/metadata/release", metadata.get("release")), (TAG_FLAG, release_tag)])
    need("release_tag", source, _text(tag), lambda: (
         f"release tag: {_why(tag, source)}; set metadata.release_tag or metadata.release, or build with --release-tag"))

    source, when = _first_set([("/metadata/run_date", metadata.get("run_date")), ("/generated_at", payload.get("generated_at"))])
    date = run_date(when) if isinstance(when, str) and when.strip() else None
    need("run_date", source, date, lambda: (
         f"run date: {_why(when, source, 'an ISO 8601 date or date-time')}; set metadata.run_date or generated_at"))

    source, digest = _first_set([("/metadata/reproducibility_hash", metadata.get("reproducibility_hash")),
                                 ("/metadata/repro_hash", metadata.get("repro_hash"))])
    if digest is None and known is not None:
        source, digest = in_manifest, known.get("reproducibility_hash")
    valid = digest if isinstance(digest, str) and HASH.fullmatch(digest) else None
    need("reproducibility_hash", source, valid, lambda: (
         f"reproducibility hash: {_why(digest, source, 'sha256: and 64 lower-case hex digits')}; set metadata.reproducibility_hash or metadata.repro_hash, or a reproducibility_hash in the {MANIFEST} row"))

    metrics = payload.get("metrics")
    if isinstance(metrics, dict):  # the schema names anything else
        for field, paths in METRIC_PATHS.items():
            path, value = _metric(metrics, _METRIC_KEYS[field])
            where = _metric_pointer(path) if path else "/metrics"

            def rule() -> str:  # called, if at all, by need() below, before the loop moves on
                if path:
                    return f"{field} must be a number from 0 to 1, found {_shown(value)}"
                return f"{field} is missing: expected a value at " + ", ".join(f"metrics.{p}" for p in paths)

            need(field, where, _fraction(value), rule)

    if problems or len(fields) < len(FIELDS) - 2:
        return None, problems
    fields["report_path"] = file
    fields["report_url"] = REPORT_COPIES + url_of(file)
    sources["report_path"] = sources["report_url"] = ARCHIVE
    # Values that many rows share are kept once (and so pickled once a chunk, and held once).
    for name in _SHARED_VALUES:
        fields[name] = sys.intern(fields[name])
    row = Row(**fields)
    where = tuple(sources[name] for name in FIELDS)
    return Filled(row, _SOURCES.setdefault(where, where), payload.get("fixture_count")), problems


# The fields that name a row (its identity, its family and its release): they are printed beside other
# values on every page, so none may hold a bidirectional control, which would reorder the text after
# it (U+202E RIGHT-TO-LEFT OVERRIDE makes "evil" + U+202E + "gpj.exe" read "evilexe.jpg", and reverses
# a rank printed after it). Right-to-left letters are names like any other: the pages isolate every
# value, so that it cannot reorder what is around it.
NAMES = frozenset({"suite", "model_name", "device", "model_family", "release_tag"})
# The embeddings and overrides (U+202A to U+202E), the isolates (U+2066 to U+2069), the marks
# (U+200E LEFT-TO-RIGHT, U+200F RIGHT-TO-LEFT, U+061C ARABIC LETTER MARK).
BIDI_CONTROL = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def bidi_rule(field: str, source: str, control: str) -> str:
    """The rule a name holding the bidirectional control ``control`` breaks (the name itself is
    not repeated: printed, it would reorder the problem's line)."""
    where = "" if source.startswith("/") else f" (from {TAG_FLAG})" if source == TAG_FLAG else f" (from its {MANIFEST} row)"
    return (f"{field}{where} holds U+{ord(control):04X} {unicodedata.name(control)}, a bidirectional control, which "
            "could reorder the text around it on a page: names may not hold one")


_SHARED_VALUES = ("suite", "model_family", "device", "release_tag", "run_date")
_SOURCES: dict[tuple[str, ...], tuple[str, ...]] = {}


_IDENTITY = tuple((field, pointer(field)) for field in ("suite", "model_name", "device"))


@lru_cache(maxsize=None)
def _metric_pointer(path: str) -> str:
    return pointer("metrics", *path.split("."))


def _shown(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else '"' + value + '"'
    return text if len(text) <= 40 else text[:37] + "..."


def _why(value: Any, source: str, shape: str = "a non-empty string") -> str:
    where = f"from {source}" if source.startswith("/") or source == TAG_FLAG else f"from the {source} row"
    if value is None:
        return "none given"
    return f"{_shown(value)} {where} is not {shape}"
