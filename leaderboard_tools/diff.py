"""What changed between two leaderboards, row by row: a pure comparison of two parsed
``leaderboard.json`` documents (``compare``), the readers that find and check them (``read_source``)
and the formatters that show the result (``FORMATS``: text, markdown, json).

A row is identified by its suite, model and device; its release tag is not part of the identity, so
that two releases' leaderboards compare row by row. When one leaderboard holds several rows of one
identity (its archive keeps reports of several releases), the row of the newest release tag stands
for it, and between equal tags the first by report path."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable

import fastjsonschema

from benchmark_leaderboard import validate
from benchmark_leaderboard.problems import one_line
from leaderboard_tools.exits import DONE, REFUSED
from leaderboard_tools.release import RELEASE_TAG

REGRESSION = REFUSED  # a row leaks more than before: CI stops the release

# The diff's own document, published under schemas/ beside the leaderboard's schema.
DIFF_SCHEMA = "leaderboard-diff.schema.json"
DIFF_SCHEMA_VERSION = 1

IDENTITY = ("suite", "model_name", "device")
METRICS = ("leakage", "recall", "f1")
# The other published fields, in the order a change of them is listed (report_url follows from report_path).
FIELDS = ("model_family", "release_tag", "run_date", "reproducibility_hash", "report_path")

HUNDREDTH = Decimal("0.01")


class UnusableInput(Exception):
    """An input cannot be read as a schema v1 leaderboard; the message is one line for the user."""


# -- The comparison: two parsed documents in, a Diff out ------------------------------------------


@dataclass(frozen=True)
class Identity:
    suite: str
    model_name: str
    device: str

    def sort_key(self) -> tuple[str, ...]:
        """Suite, model, device, case-insensitively (as the ranking's ties), then exactly."""
        return (self.suite.casefold(), self.model_name.casefold(), self.device.casefold(),
                self.suite, self.model_name, self.device)


@dataclass(frozen=True)
class Standing:
    """The row that stands for an identity, and its 1-based positions in ``rows`` and in its suite's rows."""

    row: dict[str, Any]
    rank: int
    suite_rank: int


@dataclass(frozen=True)
class Presence:
    """A row only one side has: added (the new side's standing) or removed (the old side's)."""

    identity: Identity
    standing: Standing


@dataclass(frozen=True)
class MetricChange:
    identity: Identity
    metric: str
    old: float
    new: float

    @property
    def change(self) -> Decimal:
        """new - old, exactly: the decimal values the JSON numbers spell, not their binary difference."""
        return _decimal(self.new) - _decimal(self.old)

    @property
    def is_regression(self) -> bool:
        return self.metric == "leakage" and self.new > self.old


@dataclass(frozen=True)
class FieldChange:
    identity: Identity
    field: str
    old: str
    new: str


@dataclass(frozen=True)
class RankMove:
    identity: Identity
    old_rank: int
    new_rank: int
    old_suite_rank: int
    new_suite_rank: int


@dataclass(frozen=True)
class Side:
    source: str  # as the user named it: a file, a folder or a git ref
    row_count: int


@dataclass(frozen=True)
class Diff:
    """Every change from ``old`` to ``new``; each list sorted by identity (then metric or field order)."""

    old: Side
    new: Side
    added: tuple[Presence, ...]
    removed: tuple[Presence, ...]
    metric_changes: tuple[MetricChange, ...]
    field_changes: tuple[FieldChange, ...]
    rank_moves: tuple[RankMove, ...]

    @property
    def regressions(self) -> tuple[MetricChange, ...]:
        """The leakage changes where the same row leaks more than before."""
        return tuple(change for change in self.metric_changes if change.is_regression)

    def has_changes(self) -> bool:
        return bool(self.added or self.removed or self.metric_changes or self.field_changes or self.rank_moves)

    def exit_code(self) -> int:
        return REGRESSION if self.regressions else DONE


def compare(old_document: dict[str, Any], new_document: dict[str, Any], old_source: str = "OLD",
            new_source: str = "NEW") -> Diff:
    """The changes from one schema v1 leaderboard to another (both already validated)."""
    old, new = standings(old_document), standings(new_document)
    both = sorted(old.keys() & new.keys(), key=Identity.sort_key)
    metric_changes = [MetricChange(key, metric, float(old[key].row[metric]), float(new[key].row[metric]))
                      for key in both for metric in METRICS if old[key].row[metric] != new[key].row[metric]]
    field_changes = [FieldChange(key, field, old[key].row[field], new[key].row[field])
                     for key in both for field in FIELDS if old[key].row[field] != new[key].row[field]]
    rank_moves = [RankMove(key, old[key].rank, new[key].rank, old[key].suite_rank, new[key].suite_rank)
                  for key in both if (old[key].rank, old[key].suite_rank) != (new[key].rank, new[key].suite_rank)]
    return Diff(
        old=Side(old_source, len(old_document["rows"])),
        new=Side(new_source, len(new_document["rows"])),
        added=tuple(Presence(key, new[key]) for key in sorted(new.keys() - old.keys(), key=Identity.sort_key)),
        removed=tuple(Presence(key, old[key]) for key in sorted(old.keys() - new.keys(), key=Identity.sort_key)),
        metric_changes=tuple(metric_changes),
        field_changes=tuple(field_changes),
        rank_moves=tuple(rank_moves),
    )


def standings(document: dict[str, Any]) -> dict[Identity, Standing]:
    """Each identity of a leaderboard and the row that stands for it, with that row's ranks: its
    position in ``rows`` and among the rows of its suite, as ``leaderboard.json`` orders them."""
    chosen: dict[Identity, Standing] = {}
    seen_in_suite: dict[str, int] = {}
    for rank, row in enumerate(document["rows"], start=1):
        seen_in_suite[row["suite"]] = seen_in_suite.get(row["suite"], 0) + 1
        standing = Standing(row, rank, seen_in_suite[row["suite"]])
        key = Identity(*(row[field] for field in IDENTITY))
        if key not in chosen or _stands_before(standing.row, chosen[key].row):
            chosen[key] = standing
    return chosen


def _stands_before(row: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether ``row`` rather than ``other`` (of the same identity) stands for it: a newer release
    tag, or an equal one and an earlier report path."""
    mine, theirs = version_key(row["release_tag"]), version_key(other["release_tag"])
    if mine != theirs:
        return mine > theirs
    return row["report_path"] < other["report_path"]


def version_key(tag: str) -> tuple[Any, ...]:
    """A release tag's place in version order: Semantic Versioning 2.0.0 precedence for tags like
    v3.1.0 or 3.2.0-rc.1 (a pre-release before its release, build metadata ignored); any other
    tag comes before every version, ordered by its text ignoring case."""
    spelled = tag if tag.startswith("v") else "v" + tag
    if RELEASE_TAG.fullmatch(spelled) is None:
        return (0, tag.casefold(), tag)
    core, _, pre_release = spelled[1:].partition("+")[0].partition("-")
    major, minor, patch = (int(number) for number in core.split("."))
    if not pre_release:
        return (1, major, minor, patch, 1, ())
    # Numeric identifiers compare as numbers and before alphanumeric ones; a longer list of equal
    # leading identifiers comes later (tuple order does both).
    parts = tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in pre_release.split("."))
    return (1, major, minor, patch, 0, parts)


def _decimal(value: float) -> Decimal:
    return Decimal(repr(float(value)))


# -- Reading an input: a leaderboard.json, a render folder or a git ref ---------------------------


def read_source(source: str) -> dict[str, Any]:
    """The leaderboard that ``source`` names, parsed and checked against the published schema.

    An existing path is a file or a render folder (its ``leaderboard.json``); anything else is a git
    ref of the repository of the working folder (``gh-pages``, ``gh-pages~1``, a tag, a commit, or
    ``REF:folder/inside``), read from git's objects without checking anything out."""
    if os.path.exists(source):
        data = _read_path(source)
    else:
        data = _read_ref(source)
    return parse_leaderboard(data, source)


def _read_path(source: str) -> bytes:
    path = os.path.join(source, "leaderboard.json") if os.path.isdir(source) else source
    if os.path.isdir(source) and not os.path.isfile(path):
        raise UnusableInput(f"{one_line(source)} is a folder without a leaderboard.json")
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise UnusableInput(f"cannot read {one_line(path)}: {error.strerror or error}") from None


def _read_ref(source: str) -> bytes:
    ref, has_path, inside = source.partition(":")
    neither = f"{one_line(source)} is neither a file, a folder nor a git ref"
    if not ref or ref.startswith("-") or "\0" in source:  # an option or a NUL byte cannot name a ref
        raise UnusableInput(neither)
    if _git("rev-parse", "--git-dir").returncode != 0:
        raise UnusableInput(f"{neither} (the working folder is not in a git repository)")
    if _git("rev-parse", "--verify", "--quiet", ref + "^{tree}").returncode != 0:
        raise UnusableInput(f"{neither} of the repository here")
    inside = inside.strip("/") if has_path else ""
    spec = f"{ref}:{inside}"
    kind = _git("cat-file", "-t", spec)
    if kind.returncode == 0 and kind.stdout.strip() == b"tree":
        spec = f"{ref}:{inside}/leaderboard.json" if inside else f"{ref}:leaderboard.json"
        kind = _git("cat-file", "-t", spec)
    if kind.returncode != 0 or kind.stdout.strip() != b"blob":
        raise UnusableInput(f"{one_line(source)} holds no leaderboard.json")
    # cat-file gives the committed bytes as they are (git show could apply a textconv filter).
    return _git("cat-file", "blob", spec).stdout


def _git(*args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *args], capture_output=True)
    except OSError as error:  # no git at all: nothing can be read as a ref
        return subprocess.CompletedProcess(["git", *args], 127, b"", str(error).encode())


def parse_leaderboard(data: bytes, source: str) -> dict[str, Any]:
    """The bytes of a leaderboard.json as a document, once the published schema accepts it."""
    try:
        document = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise UnusableInput(f"{one_line(source)} is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise UnusableInput(f"{one_line(source)} is not JSON: {error.msg} at line {error.lineno} "
                            f"column {error.colno}") from None
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
    return document


class _NotJSON(ValueError):
    pass


def _no_constant(name: str) -> Any:
    # Python reads NaN and Infinity, which JSON does not have (and NaN passes any minimum and maximum).
    raise _NotJSON(f"{name} is not a JSON number")


def diff_sources(old: str, new: str) -> Diff:
    """Read both inputs, then compare them; raises UnusableInput for the first that cannot be used."""
    return compare(read_source(old), read_source(new), old, new)


# -- Showing a Diff ----------------------------------------------------------------------------------


def percent_of(value: Decimal, signed: bool = False) -> str:
    """A fraction as a percentage, exactly: two decimals, or every decimal it needs when two would
    round it (0.0093 -> "0.93", 0.123456 -> "12.3456"); ``signed`` writes a sign in front."""
    scaled = value * 100
    shown = f"{abs(scaled):.2f}" if scaled == scaled.quantize(HUNDREDTH) else f"{abs(scaled).normalize():f}"
    if signed:
        return ("-" if scaled < 0 else "+") + shown
    return ("-" if scaled < 0 else "") + shown


def percent(fraction: float) -> str:
    return percent_of(_decimal(fraction))


METRIC_NAMES = {"leakage": "leakage", "recall": "recall", "f1": "F1"}


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def summary(diff: Diff) -> str:
    """How many changes of each kind, in the order they are listed; "no changes" when none."""
    parts = [(len(diff.regressions), "leakage regression", "leakage regressions"),
             (len(diff.added), "row added", "rows added"),
             (len(diff.removed), "row removed", "rows removed"),
             (len(diff.metric_changes), "metric change", "metric changes"),
             (len(diff.field_changes), "field change", "field changes"),
             (len(diff.rank_moves), "rank move", "rank moves")]
    said = [_plural(count, one, many) for count, one, many in parts if count]
    return ", ".join(said) if said else "no changes"


def _moved(old: int, new: int) -> str:
    return f"{old} -> {new}" if old != new else f"{old}"


def _metrics_of(row: dict[str, Any]) -> str:
    return ", ".join(f"{METRIC_NAMES[metric]} {percent(row[metric])}%" for metric in METRICS)


def _metric_text(change: MetricChange) -> str:
    return (f"{METRIC_NAMES[change.metric]} {percent(change.old)}% -> {percent(change.new)}% "
            f"({percent_of(change.change, signed=True)} points)")


def text_lines(diff: Diff) -> list[tuple[str, Identity, str]]:
    """Every change as (kind, identity, what changed), in the order the formats list them."""
    lines: list[tuple[str, Identity, str]] = []
    lines += [("regression", change.identity, _metric_text(change)) for change in diff.regressions]
    lines += [("added", item.identity, f"rank {item.standing.rank}, suite rank {item.standing.suite_rank}: "
               + _metrics_of(item.standing.row)) for item in diff.added]
    lines += [("removed", item.identity, f"was rank {item.standing.rank}, suite rank {item.standing.suite_rank}: "
               + _metrics_of(item.standing.row)) for item in diff.removed]
    lines += [("metric", change.identity, _metric_text(change)) for change in diff.metric_changes]
    lines += [("field", change.identity, f"{change.field} {change.old} -> {change.new}") for change in diff.field_changes]
    lines += [("moved", move.identity, f"rank {_moved(move.old_rank, move.new_rank)}, suite rank "
               f"{_moved(move.old_suite_rank, move.new_suite_rank)}") for move in diff.rank_moves]
    return lines


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
                                      *(f"{percent(row[metric])}%" for metric in METRICS)]

    presence_header = ["Rank", "Suite rank", "Leakage", "Recall", "F1"]
    section("Leakage regressions", ["Leakage before", "Leakage after", "Change"], [_RIGHT] * 3,
            [_who(change.identity) + values(change) for change in diff.regressions])
    section("Added rows", presence_header, [_RIGHT] * 5, [presence_row(item) for item in diff.added])
    section("Removed rows", presence_header, [_RIGHT] * 5, [presence_row(item) for item in diff.removed])
    section("Metric changes", metric_header, metric_align, [metric_row(change) for change in diff.metric_changes])
    section("Other changes", ["Field", "Before", "After"], [_LEFT] * 3,
            [_who(change.identity) + [f"`{change.field}`", markdown_cell(change.old), markdown_cell(change.new)]
             for change in diff.field_changes])
    section("Rank moves", ["Rank before", "Rank after", "Suite rank before", "Suite rank after"], [_RIGHT] * 4,
            [_who(move.identity) + [str(move.old_rank), str(move.new_rank), str(move.old_suite_rank),
                                    str(move.new_suite_rank)] for move in diff.rank_moves])
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
        "regression": bool(diff.regressions),
        "regressions": [_metric_document(change) for change in diff.regressions],
        "added": [_presence_document(item) for item in diff.added],
        "removed": [_presence_document(item) for item in diff.removed],
        "metric_changes": [_metric_document(change) for change in diff.metric_changes],
        "field_changes": [{**_identity_fields(change.identity), "field": change.field, "old": change.old, "new": change.new}
                          for change in diff.field_changes],
        "rank_moves": [{**_identity_fields(move.identity), "old_rank": move.old_rank, "new_rank": move.new_rank,
                        "old_suite_rank": move.old_suite_rank, "new_suite_rank": move.new_suite_rank}
                       for move in diff.rank_moves],
    }


def format_json(diff: Diff) -> str:
    """The diff document with sorted keys and a two-space indent, UTF-8 text as is, and a newline."""
    return json.dumps(diff_document(diff), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


FORMATS: dict[str, Callable[[Diff], str]] = {"text": format_text, "markdown": format_markdown, "json": format_json}
