"""The changes page: a Diff (``comparison``) worded (``change_kinds``) for ``changes.html``, its further pages and the
note of each changed row's report page, ready to print."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ..decide.comparison import COMPARED_METRICS, Diff, Identity, MetricChange, Standing, standings
from ..decide.previous import Compared
from ..formatting import as_sentence, percent, percent_of
from ..paths import CHANGES_PAGE, changes_page_path
from ..versions import version_order
from .board_view import Pager, pager_of
from .change_kinds import KINDS, METRIC_NAMES, summary


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

    def pager(self, section: Section, page: int = 1) -> Pager:
        """The pager of ``section`` at ``page``: a release that changes many rows keeps every page
        of the site small."""
        return pager_of(lambda number: CHANGES_PAGE + "#" + section.anchor if number == 1
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
    return (str(standing.rank), str(standing.suite_rank), *(f"{percent(row[metric])}%" for metric in COMPARED_METRICS))


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


def changes_of(compared: Compared | None, page_rows: int) -> ChangesPage | None:
    """The changes page of a build compared with the previous leaderboard
    (``decide.previous.compared_with_previous``), ``page_rows`` rows of each kind of change a page;
    None for a build compared with none: no page."""
    if compared is None:
        return None
    return changes_page(compared.diff, compared.current, compared.previous, compared.previous_bytes,
                        compared.release_tag, page_rows)
