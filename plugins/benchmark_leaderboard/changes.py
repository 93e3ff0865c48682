"""What changed between two leaderboards, row by row, and the changes page made of it.

``compare`` is pure: two parsed ``leaderboard.json`` documents in, a ``Diff`` out. ``invoke diff``
(``leaderboard_tools.diff``: its readers and formatters) and the site's changes page both use it, so
that they always say the same thing. ``parse_leaderboard`` turns bytes into a checked document;
``read_previous`` (the only I/O here) reads the previous leaderboard a build is compared with;
``changes_page`` words a Diff for ``changes.html`` and the report pages, ready to print.

A row is identified by its suite, model and device; its release tag is not part of the identity, so
that two releases' leaderboards compare row by row. When one leaderboard holds several rows of one
identity (its archive keeps reports of several releases), the row of the newest release tag stands
for it, and between equal tags the first by report path."""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Iterable, Sequence

import fastjsonschema

from . import validate
from .exits import DONE, REFUSED
from .problems import BuildFailed, json_error_words, one_line
from .versions import RELEASE_TAG, version_key, version_order
from .view import Pager, pages_of, percent

LEAKS_MORE = REFUSED  # the exit status when a row leaks more than before: CI stops the release

IDENTITY = ("suite", "model_name", "device")
METRICS = ("leakage", "recall", "f1")
# The other published fields, in the order a change of them is listed (report_url follows from report_path).
FIELDS = ("model_family", "release_tag", "run_date", "reproducibility_hash", "report_path")
METRIC_NAMES = {"leakage": "leakage", "recall": "recall", "f1": "F1"}

HUNDREDTH = Decimal("0.01")

# Where a build compared with a previous leaderboard writes its changes page, and the exact bytes of
# that previous leaderboard (so that the page can be checked, and verify can render it again).
CHANGES_PAGE = "changes.html"
PREVIOUS_COPY = "changes/previous-leaderboard.json"


@dataclass(frozen=True)
class Kind:
    """A kind of change, named once for every way of showing a Diff: ``key`` (its list in the Diff and in
    ``invoke diff --format json``), ``word`` (the first column of the text format, and the anchor of its
    table on the changes page), ``title`` (its heading in markdown and on the changes page), ``one`` and
    ``many`` (how the summary counts it) and ``intro`` (what it lists, on the changes page)."""

    key: str
    word: str
    title: str
    one: str
    many: str
    intro: str


# Every kind of change, in the order every format lists them: what stops a release first.
KINDS = (
    Kind("leaks_more", "leaks-more", "Leaks more", "row leaks more", "rows leak more",
         "Rows that leak more protected text than before: what stops a release (invoke diff exits 1)."),
    Kind("fell", "fell", "Recall or F1 fell", "fall in recall or F1", "falls in recall or F1",
         "Rows whose recall or F1 is lower than before."),
    Kind("added", "added", "Added", "row added", "rows added",
         "Rows of a suite, model and device the previous leaderboard did not have."),
    Kind("removed", "removed", "Removed", "row removed", "rows removed",
         "Rows of the previous leaderboard this one no longer has (as they stood there)."),
    Kind("improved", "improved", "Improved", "improvement", "improvements",
         "Rows that leak less than before, or whose recall or F1 rose."),
    Kind("rank_moves", "moved", "Rank moves", "rank move", "rank moves",
         "Rows whose rank changed, overall or in their suite."),
    Kind("field_changes", "field", "Field changes", "field change", "field changes",
         "Other published fields of the same row: a renamed report file is the same row with a new path."),
)
KIND = {kind.key: kind for kind in KINDS}


def changes_page_path(anchor: str, page: int) -> str:
    """Where page ``page`` (2 or more) of a kind of change longer than a page is written."""
    return f"changes/{anchor}/{page}.html"


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
    def leaks_more(self) -> bool:
        return self.metric == "leakage" and self.new > self.old

    @property
    def is_improvement(self) -> bool:
        """Less leakage, or more recall or F1."""
        return self.new < self.old if self.metric == "leakage" else self.new > self.old


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
    """Every change from ``old`` to ``new``; each list sorted by identity (then metric or field order).

    ``metric_changes`` holds every metric that differs; each is of exactly one kind: ``leaks_more``,
    ``fell`` or ``improved``."""

    old: Side
    new: Side
    added: tuple[Presence, ...]
    removed: tuple[Presence, ...]
    metric_changes: tuple[MetricChange, ...]
    field_changes: tuple[FieldChange, ...]
    rank_moves: tuple[RankMove, ...]

    @property
    def leaks_more(self) -> tuple[MetricChange, ...]:
        """The leakage changes where the same row leaks more than before."""
        return tuple(change for change in self.metric_changes if change.leaks_more)

    @property
    def fell(self) -> tuple[MetricChange, ...]:
        """The recall and F1 changes where the value is lower than before."""
        return tuple(change for change in self.metric_changes if not change.leaks_more and not change.is_improvement)

    @property
    def improved(self) -> tuple[MetricChange, ...]:
        """Less leakage, or more recall or F1."""
        return tuple(change for change in self.metric_changes if change.is_improvement)

    def of_kind(self, kind: Kind) -> tuple[Any, ...]:
        """The changes of ``kind``, as listed."""
        return getattr(self, kind.key)

    def has_changes(self) -> bool:
        return bool(self.added or self.removed or self.metric_changes or self.field_changes or self.rank_moves)

    def exit_code(self) -> int:
        return LEAKS_MORE if self.leaks_more else DONE


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


def _decimal(value: float) -> Decimal:
    return Decimal(repr(float(value)))


# -- Reading a leaderboard's bytes -----------------------------------------------------------------


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
        found.append(f"/row_count: is {document['row_count']}, but /rows holds {len(rows)} "
                     f"{'row' if len(rows) == 1 else 'rows'}")
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


def previous_release_problem(previous: dict[str, Any], release_tag: str | None) -> str | None:
    """Why the release ``release_tag`` (of ``invoke publish``, ``verify`` or ``gh-pages``) cannot be
    compared with the leaderboard ``previous`` (a parsed one), or None: a release is compared with an
    earlier one, so the newest release tag of ``previous``'s rows must come strictly before it in
    version order (``version_key``: v3.1.0 and V3.1.0 are one version). A tag that is no release
    version is not ordered against anything."""
    if release_tag is None or RELEASE_TAG.fullmatch(release_tag) is None:
        return None
    newest = max((row["release_tag"] for row in previous["rows"]), key=version_order)
    if version_key(newest) >= version_key(release_tag):
        said = "the same version as" if version_key(newest) == version_key(release_tag) else "a later version than"
        return f"holds {one_line(newest)}, {said} {release_tag}: a release is compared with an earlier one"
    return None


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


# -- Words shared by every way of showing a Diff ---------------------------------------------------


def percent_of(value: Decimal, signed: bool = False) -> str:
    """A fraction as a percentage, exactly: two decimals, or every decimal it needs when two would
    round it (0.0093 -> "0.93", 0.123456 -> "12.3456"); ``signed`` writes a sign in front."""
    scaled = value * 100
    shown = f"{abs(scaled):.2f}" if scaled == scaled.quantize(HUNDREDTH) else f"{abs(scaled).normalize():f}"
    if signed:
        return ("-" if scaled < 0 else "+") + shown
    return ("-" if scaled < 0 else "") + shown


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def summary(diff: Diff) -> str:
    """How many changes of each kind, in the order they are listed; "no changes" when none."""
    counts = [(len(diff.of_kind(kind)), kind) for kind in KINDS]
    said = [_plural(count, kind.one, kind.many) for count, kind in counts if count]
    return ", ".join(said) if said else "no changes"


def as_sentence(words: str) -> str:
    """``words`` opening a sentence: the first letter a capital, every other letter as it is (Jinja's
    ``capitalize`` lowers them, which made "recall or F1" read "recall or f1")."""
    return words[:1].upper() + words[1:]


# -- The changes page: a Diff worded for changes.html and the report pages -------------------------


@dataclass(frozen=True, slots=True)
class ChangeLine:
    """One row of a table on the changes page: who (and the report path of its page in this build,
    None for a removed row) and the cells after them."""

    suite: str
    model_name: str
    device: str
    report_path: str | None
    cells: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Section:
    """A table of the changes page: its anchor, heading, what it lists, its column headings after
    Suite, Model and Device (numeric ones right-aligned), and its lines."""

    anchor: str
    title: str
    intro: str
    columns: tuple[str, ...]
    numeric: tuple[bool, ...]
    lines: tuple[ChangeLine, ...]


@dataclass(frozen=True)
class ChangesPage:
    """What ``changes.html`` shows, and the note each changed row's report page shows."""

    release_tag: str | None
    previous_rows: int
    previous_tag: str | None  # the newest release tag of the previous leaderboard's rows
    rows: int
    summary: str
    leaks_more: int
    sections: tuple[Section, ...]  # only the kinds of change that occurred, in the order of KINDS
    notes: dict[str, tuple[str, ...]]  # report path of a changed row in this build -> what changed
    previous_bytes: bytes  # the previous leaderboard exactly as compared, published as PREVIOUS_COPY
    page_rows: int  # a kind of change's rows a page: the first page on changes.html, the others under changes/

    @property
    def title(self) -> str:
        return f"Changes in {self.release_tag}" if self.release_tag else "Changes in this build"

    @property
    def summary_sentence(self) -> str:
        """The summary as the page's sentence says it, in the same words and capitals."""
        return as_sentence(self.summary)

    def pages(self, section: Section, page: int = 1) -> Pager:
        """The pager of ``section`` at ``page``: a release that changes many rows keeps every page
        of the site small."""
        return pages_of(lambda number: CHANGES_PAGE + "#" + section.anchor if number == 1
                        else changes_page_path(section.anchor, number),
                        page, len(section.lines), self.page_rows, f"Pages of {section.title}")


_ARROW = " \u2192 "
_METRIC_COLUMNS = ("Metric", "Before", "After", "Change (points)")
_PRESENCE_COLUMNS = ("Rank", "Suite rank", "Leakage", "Recall", "F1")


def _moved(old: int, new: int) -> str:
    return f"{old}{_ARROW}{new}" if old != new else f"{old}"


def _metric_cells(change: MetricChange) -> tuple[str, ...]:
    return (METRIC_NAMES[change.metric], f"{percent(change.old)}%", f"{percent(change.new)}%",
            percent_of(change.change, signed=True))


def _presence_cells(standing: Standing) -> tuple[str, ...]:
    row = standing.row
    return (str(standing.rank), str(standing.suite_rank), *(f"{percent(row[metric])}%" for metric in METRICS))


def changes_page(diff: Diff, new_document: dict[str, Any], previous_document: dict[str, Any],
                 previous_bytes: bytes, release_tag: str | None, page_rows: int) -> ChangesPage:
    """The changes page of ``diff`` (from ``previous_document`` to ``new_document``, this build's)."""
    pages = {key: standing.row["report_path"] for key, standing in standings(new_document).items()}

    def line(key: Identity, cells: Iterable[str], page: bool = True) -> ChangeLine:
        return ChangeLine(key.suite, key.model_name, key.device, pages.get(key) if page else None, tuple(cells))

    right = (False, True, True, True)
    metric = lambda changes: (_METRIC_COLUMNS, right, tuple(line(c.identity, _metric_cells(c)) for c in changes))
    tables = {
        "leaks_more": metric(diff.leaks_more),
        "fell": metric(diff.fell),
        "added": (_PRESENCE_COLUMNS, (True,) * 5, tuple(line(p.identity, _presence_cells(p.standing)) for p in diff.added)),
        "removed": (_PRESENCE_COLUMNS, (True,) * 5,
                    tuple(line(p.identity, _presence_cells(p.standing), page=False) for p in diff.removed)),
        "improved": metric(diff.improved),
        "rank_moves": (("Rank before", "Rank after", "Suite rank before", "Suite rank after"), (True,) * 4,
                       tuple(line(m.identity, (str(m.old_rank), str(m.new_rank), str(m.old_suite_rank),
                                               str(m.new_suite_rank))) for m in diff.rank_moves)),
        "field_changes": (("Field", "Before", "After"), (False,) * 3,
                          tuple(line(f.identity, (f.field, f.old, f.new)) for f in diff.field_changes)),
    }
    sections = [Section(kind.word, kind.title, kind.intro, *tables[kind.key]) for kind in KINDS]
    tags = [row["release_tag"] for row in previous_document["rows"]]
    return ChangesPage(
        release_tag=release_tag,
        previous_rows=diff.old.row_count,
        previous_tag=max(tags, key=version_order) if tags else None,
        rows=diff.new.row_count,
        summary=summary(diff),
        leaks_more=len(diff.leaks_more),
        sections=tuple(section for section in sections if section.lines),
        notes=_notes(diff, pages),
        previous_bytes=previous_bytes,
        page_rows=page_rows,
    )


def _notes(diff: Diff, pages: dict[Identity, str]) -> dict[str, tuple[str, ...]]:
    """What changed of each row of this build, by its report path: new, its metrics, its ranks."""
    said: dict[Identity, list[str]] = {}
    for item in diff.added:
        said.setdefault(item.identity, []).append(
            f"a new row, rank {item.standing.rank}, suite rank {item.standing.suite_rank}")
    for change in diff.metric_changes:
        said.setdefault(change.identity, []).append(
            f"{METRIC_NAMES[change.metric]} {percent(change.old)}%{_ARROW}{percent(change.new)}% "
            f"({percent_of(change.change, signed=True)} points)")
    for move in diff.rank_moves:
        said.setdefault(move.identity, []).append(
            f"rank {_moved(move.old_rank, move.new_rank)}, suite rank {_moved(move.old_suite_rank, move.new_suite_rank)}")
    return {pages[key]: tuple(words) for key, words in said.items()}


def build_changes(previous_path: str | None, release_tag: str | None, rows: Sequence[Any],
                  page_rows: int) -> ChangesPage | None:
    """The changes page of a build whose ranked ``rows`` (``fill.Row``) are compared with the
    leaderboard at ``previous_path`` (``LEADERBOARD_PREVIOUS_LEADERBOARD``), ``page_rows`` rows of
    each kind of change a page; None without one: no page, and nothing guessed."""
    if previous_path is None:
        return None
    data, previous = read_previous(previous_path)
    current = {"rows": [row._asdict() for row in rows]}
    diff = compare(previous, current, previous_path, release_tag or "this build")
    return changes_page(diff, current, previous, data, release_tag, page_rows)
