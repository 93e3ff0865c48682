"""The comparison of two leaderboards, row by row: two parsed ``leaderboard.json`` documents in, a
``Diff`` out, and nothing read, written or worded. The changes page and the feed of a build
(``changes_page``) and ``invoke diff`` (``leaderboard_tools.diff``) all show this one comparison, in
the words of ``present.change_kinds``, so they always say the same thing; how a Diff ends a
command is ``exits.LEAKS_MORE``.

A row is identified by its suite, model and device; its release tag is not part of the identity, so
that two releases' leaderboards compare row by row. When one leaderboard holds several rows of one
identity (its archive keeps reports of several releases), the row of the newest release tag stands
for it, and between equal tags the first by report path."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ..exits import DONE, LEAKS_MORE
from ..problems import one_line
from ..versions import RELEASE_TAG, version_key, version_order

IDENTITY = ("suite", "model_name", "device")
COMPARED_METRICS = ("leakage", "recall", "f1")
# The other published fields, in the order a change of them is listed (report_url follows from report_path).
COMPARED_FIELDS = ("model_family", "release_tag", "run_date", "reproducibility_hash", "report_path")


# Every kind of change, by its list in the Diff (and in ``invoke diff --format json``), in the order
# every format lists them: what stops a release first. How each is worded is present/change_kinds.py's.
KIND_KEYS = ("leaks_more", "fell", "added", "removed", "improved", "rank_moves", "field_changes")


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

    def of_kind(self, key: str) -> tuple[Any, ...]:
        """The changes of the kind ``key`` (one of ``KIND_KEYS``), as listed."""
        return getattr(self, key)

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
                      for key in both for metric in COMPARED_METRICS if old[key].row[metric] != new[key].row[metric]]
    field_changes = [FieldChange(key, field, old[key].row[field], new[key].row[field])
                     for key in both for field in COMPARED_FIELDS if old[key].row[field] != new[key].row[field]]
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
