"""The leaderboard's types, which every phase shares: a published row (``Row``, its ``FIELDS``), a
filled row (``Filled``: the row and where its values came from), the ranking's groups (``Suite``,
``Family``), where each row stands (``Places``), the whole decided board (``Leaderboard``) and the
rows' canonical copies beside it (``Copies``). They hold data only; the phases that make them are
read/, decide/, and what shows them present/."""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Any, NamedTuple


class Row(NamedTuple):
    """A published row of leaderboard.json: exactly the schema's fields, in the schema's order."""

    suite: str
    model_family: str
    model_name: str
    device: str
    leakage: float
    recall: float
    f1: float
    release_tag: str
    run_date: str
    reproducibility_hash: str
    report_path: str
    report_url: str


FIELDS = Row._fields


class Filled(NamedTuple):
    """A row and what the build knows of its report beyond the row: where each field came from
    (``sources``, in ``FIELDS`` order) and the report's fixture count. (Its canonical copy is kept,
    with every other copy, in one block of bytes: ``Copies``.)"""

    row: Row
    sources: tuple[str, ...]
    fixture_count: int


@dataclass(frozen=True)
class Family:
    name: str
    rows: tuple[int, ...]  # indices into the global ranking, in ranking order


@dataclass(frozen=True)
class Suite:
    name: str
    anchor: str  # the page's fragment id of the suite's tab panel, unique on the page
    families: tuple[Family, ...]

    @property
    def row_count(self) -> int:
        return sum(len(family.rows) for family in self.families)


@dataclass(frozen=True)
class Places:
    """Where the row at each index of the global ranking stands: overall (its index + 1), in its
    suite and in its family on that suite."""

    in_suite: tuple[int, ...]
    in_family: tuple[int, ...]
    suite_of: tuple[int, ...]  # the index of the row's suite in the grouped suites


@dataclass(frozen=True)
class Leaderboard:
    """Everything the site publishes, decided: the ranked rows, grouped, and where each stands."""

    ranked: tuple[Filled, ...]
    rows: tuple[Row, ...]  # the published rows, in ranking order (``ranked[i].row``)
    suites: tuple[Suite, ...]
    places: Places
    uncertainty: Any  # an uncertainty.Uncertainty: every row's intervals and rank range in its suite, by its index
    files_read: int
    manifest: Any  # the manifest.Manifest the rows were filled from (made before any row: read/)


@dataclass(frozen=True)
class Copies:
    """Every row's canonical copy (what ``reports/`` publishes), one after another in one block of
    bytes, by the row's index in the ranking. Kept beside the ``Leaderboard``, not in it: the
    templates given the board as a whole (the index, the family pages) cannot read a report's bytes,
    so that a change of a report that changes none of its row's figures changes only the files made
    of that report (its copy, its page, its suite's metrics)."""

    block: bytes
    bounds: array  # row ``i``'s copy is ``block[bounds[i]:bounds[i] + sizes[i]]``
    sizes: array

    def of(self, index: int) -> memoryview:
        """The canonical copy of the row at ``index``, as a view of the block (no copy made)."""
        start = self.bounds[index]
        return memoryview(self.block)[start:start + self.sizes[index]]
