"""What changed between two leaderboards, row by row, for ``invoke diff``: the readers that find and
check a leaderboard (``read_source``: a file, a render folder or a git ref) and the formatters that
show the result (``FORMATS``: text, markdown, json). The comparison itself (``compare``, pure) lives in
the plugin (``benchmark_leaderboard.decide.comparison``), where the site's changes page and feed use it too;
how it ends the command is the exit table's (``exits.LEAKS_MORE``).

A row is identified by its suite, model and device; its release tag is not part of the identity, so
that two releases' leaderboards compare row by row. When one leaderboard holds several rows of one
identity (its archive keeps reports of several releases), the row of the newest release tag stands
for it, and between equal tags the first by report path."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any, Callable

from benchmark_leaderboard.decide.comparison import COMPARED_METRICS, IDENTITY, Diff, Identity, MetricChange, Presence, compare
from benchmark_leaderboard.formatting import percent, percent_of
from benchmark_leaderboard.present.change_kinds import KINDS, METRIC_NAMES, summary
from benchmark_leaderboard.problems import one_line
from benchmark_leaderboard.read.leaderboard_file import UnusableInput, parse_leaderboard

# The diff's own document, published under schemas/ beside the leaderboard's schema.
DIFF_SCHEMA = "leaderboard-diff.schema.json"
DIFF_SCHEMA_VERSION = 2  # one list per kind of change (change_kinds.KINDS), named as every format names it


# -- Reading an input: a leaderboard.json, a render folder or a git ref ---------------------------


def read_source(source: str) -> dict[str, Any]:
    """The leaderboard that ``source`` names, parsed and checked against the published schema.

    An existing path is a file or a render folder (its ``leaderboard.json``); anything else is a git
    ref of the repository of the working folder (``gh-pages``, ``gh-pages~1``, a tag, a commit, or
    ``REF:folder/inside``), read from git's objects without checking anything out."""
    return parse_leaderboard(source_bytes(source), source)


def source_bytes(source: str, repository: str | None = None) -> bytes:
    """The bytes of the leaderboard.json that ``source`` names (as ``read_source`` finds it), unchecked;
    a git ref is looked up in ``repository`` (default: the working folder's)."""
    return _read_path(source) if os.path.exists(source) else _read_ref(source, repository)


def _read_path(source: str) -> bytes:
    path = os.path.join(source, "leaderboard.json") if os.path.isdir(source) else source
    if os.path.isdir(source) and not os.path.isfile(path):
        raise UnusableInput(f"{one_line(source)} is a folder without a leaderboard.json")
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise UnusableInput(f"cannot read {one_line(path)}: {error.strerror or error}") from None


def _read_ref(source: str, repository: str | None = None) -> bytes:
    ref, has_path, inside = source.partition(":")
    neither = f"{one_line(source)} is neither a file, a folder nor a git ref"
    if not ref or ref.startswith("-") or "\0" in source:  # an option or a NUL byte cannot name a ref
        raise UnusableInput(neither)
    git = _git if repository is None else lambda *args: _git("-C", repository, *args)
    if git("rev-parse", "--git-dir").returncode != 0:
        where = "the working folder is" if repository is None else f"{one_line(repository)} is"
        raise UnusableInput(f"{neither} ({where} not in a git repository)")
    if git("rev-parse", "--verify", "--quiet", ref + "^{tree}").returncode != 0:
        raise UnusableInput(f"{neither} of the repository " + ("here" if repository is None else one_line(repository)))
    inside = inside.strip("/") if has_path else ""
    spec = f"{ref}:{inside}"
    kind = git("cat-file", "-t", spec)
    if kind.returncode == 0 and kind.stdout.strip() == b"tree":
        spec = f"{ref}:{inside}/leaderboard.json" if inside else f"{ref}:leaderboard.json"
        kind = git("cat-file", "-t", spec)
    if kind.returncode != 0 or kind.stdout.strip() != b"blob":
        raise UnusableInput(f"{one_line(source)} holds no leaderboard.json")
    # cat-file gives the committed bytes as they are (git show could apply a textconv filter).
    return git("cat-file", "blob", spec).stdout


def _git(*args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *args], capture_output=True)
    except OSError as error:  # no git at all: nothing can be read as a ref
        return subprocess.CompletedProcess(["git", *args], 127, b"", str(error).encode())


def diff_sources(old: str, new: str) -> Diff:
    """Read both inputs, then compare them; raises UnusableInput for the first that cannot be used."""
    return compare(read_source(old), read_source(new), old, new)


# -- Showing a Diff ----------------------------------------------------------------------------------


def _moved(old: int, new: int) -> str:
    return f"{old} -> {new}" if old != new else f"{old}"


def _metrics_of(row: dict[str, Any]) -> str:
    return ", ".join(f"{METRIC_NAMES[metric]} {percent(row[metric])}%" for metric in COMPARED_METRICS)


def _metric_text(change: MetricChange) -> str:
    return (f"{METRIC_NAMES[change.metric]} {percent(change.old)}% -> {percent(change.new)}% "
            f"({percent_of(change.change, signed=True)} points)")


def text_lines(diff: Diff) -> list[tuple[str, Identity, str]]:
    """Every change as (the word of its kind, identity, what changed), in the order of ``KINDS``."""
    details: dict[str, Callable[[Any], str]] = {
        "leaks_more": _metric_text, "fell": _metric_text, "improved": _metric_text,
        "added": lambda item: (f"rank {item.standing.rank}, suite rank {item.standing.suite_rank}: "
                               + _metrics_of(item.standing.row)),
        "removed": lambda item: (f"was rank {item.standing.rank}, suite rank {item.standing.suite_rank}: "
                                 + _metrics_of(item.standing.row)),
        "rank_moves": lambda move: (f"rank {_moved(move.old_rank, move.new_rank)}, suite rank "
                                    f"{_moved(move.old_suite_rank, move.new_suite_rank)}"),
        "field_changes": lambda change: f"{change.field} {change.old} -> {change.new}",
    }
    return [(kind.word, change.identity, details[kind.key](change)) for kind in KINDS for change in diff.of_kind(kind.key)]


def format_text(diff: Diff) -> str:
    """One line per change, in aligned columns (kind, suite, model, device, what changed), then a
    line naming both inputs and counting the changes."""
    rows = [(kind, one_line(key.suite), one_line(key.model_name), one_line(key.device), one_line(detail))
            for kind, key, detail in text_lines(diff)]
    widths = [max((len(row[column]) for row in rows), default=0) for column in range(4)]
    out = ["  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths)) + "  " + row[4] for row in rows]
    out.append(f"{one_line(diff.old.source)} -> {one_line(diff.new.source)}: {summary(diff)}")
    return "\n".join(out) + "\n"


_MARKDOWN_SPECIAL = set("\\`*_[]<>|~&")


def markdown_cell(text: str) -> str:
    """Text shown as itself in a GitHub table cell: markup characters escaped, one line."""
    return "".join("\\" + c if c in _MARKDOWN_SPECIAL else c for c in one_line(text))


def _table(header: list[str], align: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |",
            *("| " + " | ".join(row) + " |" for row in rows)]


def _who(key: Identity) -> list[str]:
    return [markdown_cell(key.suite), markdown_cell(key.model_name), markdown_cell(key.device)]


_WHO = ["Suite", "Model", "Device"]
_LEFT, _RIGHT = "---", "---:"


def format_markdown(diff: Diff) -> str:
    """A heading naming both inputs, the counts, then one table per kind of change that occurred:
    what a GitHub job summary or pull-request comment renders well."""
    out = [f"## Leaderboard changes from {markdown_cell(diff.old.source)} to {markdown_cell(diff.new.source)}", ""]
    if not diff.has_changes():
        return "\n".join(out + ["No changes."]) + "\n"
    out += [summary(diff) + ". Values are percentages; changes are in percentage points.", ""]

    def section(title: str, header: list[str], align: list[str], rows: list[list[str]]) -> None:
        if rows:
            out.extend([f"### {title}", "", *_table(_WHO + header, [_LEFT] * 3 + align, rows), ""])

    metric_header = ["Metric", "Before", "After", "Change"]
    metric_align = [_LEFT, _RIGHT, _RIGHT, _RIGHT]

    def values(change: MetricChange) -> list[str]:
        return [f"{percent(change.old)}%", f"{percent(change.new)}%", percent_of(change.change, signed=True)]

    def metric_row(change: MetricChange) -> list[str]:
        return _who(change.identity) + [METRIC_NAMES[change.metric], *values(change)]

    def presence_row(item: Presence) -> list[str]:
        row = item.standing.row
        return _who(item.identity) + [str(item.standing.rank), str(item.standing.suite_rank),
                                      *(f"{percent(row[metric])}%" for metric in COMPARED_METRICS)]

    presence_header = ["Rank", "Suite rank", "Leakage", "Recall", "F1"]
    tables: dict[str, tuple[list[str], list[str], Callable[[Any], list[str]]]] = {
        "leaks_more": (["Leakage before", "Leakage after", "Change"], [_RIGHT] * 3,
                       lambda change: _who(change.identity) + values(change)),
        "fell": (metric_header, metric_align, metric_row),
        "added": (presence_header, [_RIGHT] * 5, presence_row),
        "removed": (presence_header, [_RIGHT] * 5, presence_row),
        "improved": (metric_header, metric_align, metric_row),
        "rank_moves": (["Rank before", "Rank after", "Suite rank before", "Suite rank after"], [_RIGHT] * 4,
                       lambda move: _who(move.identity) + [str(move.old_rank), str(move.new_rank),
                                                           str(move.old_suite_rank), str(move.new_suite_rank)]),
        "field_changes": (["Field", "Before", "After"], [_LEFT] * 3,
                          lambda change: _who(change.identity) + [f"`{change.field}`", markdown_cell(change.old),
                                                                  markdown_cell(change.new)]),
    }
    for kind in KINDS:
        header, align, row_of = tables[kind.key]
        section(kind.title, header, align, [row_of(change) for change in diff.of_kind(kind.key)])
    return "\n".join(out[:-1]) + "\n"


def _identity_fields(key: Identity) -> dict[str, str]:
    return {field: getattr(key, field) for field in IDENTITY}


def _metric_document(change: MetricChange) -> dict[str, Any]:
    return {**_identity_fields(change.identity), "metric": change.metric, "old": change.old, "new": change.new,
            "change": float(change.change), "old_percent": percent(change.old), "new_percent": percent(change.new),
            "change_percent": percent_of(change.change, signed=True)}


def _presence_document(item: Presence) -> dict[str, Any]:
    return {**_identity_fields(item.identity), "rank": item.standing.rank, "suite_rank": item.standing.suite_rank,
            "row": item.standing.row}


def diff_document(diff: Diff) -> dict[str, Any]:
    """The Diff as the document that ``schemas/leaderboard-diff.schema.json`` describes."""
    return {
        "schema_version": DIFF_SCHEMA_VERSION,
        "old": {"source": diff.old.source, "row_count": diff.old.row_count},
        "new": {"source": diff.new.source, "row_count": diff.new.row_count},
        "leaks_more": [_metric_document(change) for change in diff.leaks_more],
        "fell": [_metric_document(change) for change in diff.fell],
        "added": [_presence_document(item) for item in diff.added],
        "removed": [_presence_document(item) for item in diff.removed],
        "improved": [_metric_document(change) for change in diff.improved],
        "rank_moves": [{**_identity_fields(move.identity), "old_rank": move.old_rank, "new_rank": move.new_rank,
                        "old_suite_rank": move.old_suite_rank, "new_suite_rank": move.new_suite_rank}
                       for move in diff.rank_moves],
        "field_changes": [{**_identity_fields(change.identity), "field": change.field, "old": change.old, "new": change.new}
                          for change in diff.field_changes],
    }


def format_json(diff: Diff) -> str:
    """The diff document with sorted keys and a two-space indent, UTF-8 text as is, and a newline."""
    return json.dumps(diff_document(diff), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


FORMATS: dict[str, Callable[[Diff], str]] = {"text": format_text, "markdown": format_markdown, "json": format_json}
