"""The leaderboard's types, which every phase shares: a published row (``Row``, its ``FIELDS``), a
filled row (``Filled``: the row and where its values came from), the ranking's groups (``Suite``,
``Family``), where each row stands (``Places``), and the whole decided board (``Leaderboard``). They
hold data only; the phases that make them are read/, decide/, and what shows them present/."""

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
    (``sources``, in ``FIELDS`` order) and the report's fixture count. (Its canonical copy is kept
    by the pipeline, with every other copy, in one block of bytes.)"""

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
    reports_dir: str
    manifest: Any  # the manifest.Manifest the rows were filled from (made before any row: read/)
    copies: bytes  # every row's canonical copy, one after another
    copy_bounds: array  # row ``i``'s copy is ``copies[copy_bounds[i]:copy_bounds[i] + copy_sizes[i]]``
    copy_sizes: array
