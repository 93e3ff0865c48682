"""Rank and group: leakage ascending, recall descending, then identity; suites and families by name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from .rows import Row

SORT = ["leakage:asc", "recall:desc"]


def rank_key(row: Row) -> tuple[Any, ...]:
    """Lower leakage first, then higher recall; F1 never decides. Ties: identity, case-insensitive."""
    f = row.fields
    return (
        f["leakage"],
        -f["recall"],
        f["suite"].casefold(),
        f["model_family"].casefold(),
        f["model_name"].casefold(),
        f["device"].casefold(),
        f["release_tag"].casefold(),
        f["report_path"],
    )


def rank(rows: Iterable[Row]) -> list[Row]:
    return sorted(rows, key=rank_key)


@dataclass(frozen=True)
class Family:
    name: str
    rows: list[Row]


@dataclass(frozen=True)
class Suite:
    name: str
    families: list[Family]

    @property
    def row_count(self) -> int:
        return sum(len(family.rows) for family in self.families)


def _by_name(ranked: Iterable[Row], field: str) -> list[tuple[str, list[Row]]]:
    """Rows split by ``field``, each part in ranking order, parts ordered case-insensitively by name
    (names equal but for case keep the order in which the ranking first meets them)."""
    parts: dict[str, list[Row]] = {}
    for row in ranked:
        parts.setdefault(row.fields[field], []).append(row)
    return sorted(parts.items(), key=lambda item: item[0].casefold())


def group(ranked: list[Row]) -> list[Suite]:
    """The ranked rows as suites of model families."""
    return [
        Suite(suite, [Family(family, family_rows) for family, family_rows in _by_name(suite_rows, "model_family")])
        for suite, suite_rows in _by_name(ranked, "suite")
    ]


def positions(ranked: list[Row], key: Callable[[Row], str]) -> dict[str, int]:
    """Each row's 1-based rank among the rows that share ``key`` (by report path)."""
    seen: dict[str, int] = {}
    result: dict[str, int] = {}
    for row in ranked:
        group_name = key(row)
        seen[group_name] = seen.get(group_name, 0) + 1
        result[row.fields["report_path"]] = seen[group_name]
    return result
