"""Rank and group: leakage ascending, recall descending, then identity; suites and families by name."""

from __future__ import annotations

import re
from typing import Any, Iterable

from ..board import Family, Filled, Places, Suite

SORT = ("leakage:asc", "recall:desc")


def rank_key(filled: Filled) -> tuple[Any, ...]:
    """Lower leakage first, then higher recall; F1 never decides. Ties: identity, case-insensitive."""
    row = filled.row
    return (
        row.leakage,
        -row.recall,
        row.suite.casefold(),
        row.model_family.casefold(),
        row.model_name.casefold(),
        row.device.casefold(),
        row.release_tag.casefold(),
        row.report_path,
    )


def _by_name(indices: Iterable[int], name_of) -> list[tuple[str, list[int]]]:
    """Indices split by name, each part in ranking order, parts ordered case-insensitively by name
    (names equal but for case keep the order in which the ranking first meets them)."""
    parts: dict[str, list[int]] = {}
    for index in indices:
        parts.setdefault(name_of(index), []).append(index)
    return sorted(parts.items(), key=lambda item: item[0].casefold())


def group(ranked: tuple[Filled, ...]) -> tuple[Suite, ...]:
    """The ranked rows as suites of model families, each suite with its unique anchor."""
    by_suite = _by_name(range(len(ranked)), lambda index: ranked[index].row.suite)
    anchors = suite_anchors([name for name, _ in by_suite])
    return tuple(
        Suite(name, anchors[position],
              tuple(Family(family, tuple(rows)) for family, rows in _by_name(indices, lambda index: ranked[index].row.model_family)))
        for position, (name, indices) in enumerate(by_suite)
    )


def suite_anchors(names: list[str]) -> list[str]:
    """A readable fragment id per suite name, ``suite-`` and its slug, made unique by the first free
    ``-2``, ``-3``… (checked against every id already given, the suffixed ones too)."""
    anchors: list[str] = []
    taken: set[str] = set()
    for name in names:
        # Not pelican.utils.slugify: it strips markup from the name ("a<b>c" is "ac") and transliterates
        # it ("é" is "e"), which would move the published anchors of such suites.
        base = "suite-" + (re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-") or "x")
        anchor, number = base, 1
        while anchor in taken:
            number += 1
            anchor = f"{base}-{number}"
        taken.add(anchor)
        anchors.append(anchor)
    return anchors


def places(ranked: tuple[Filled, ...], suites: tuple[Suite, ...]) -> Places:
    in_suite = [0] * len(ranked)
    in_family = [0] * len(ranked)
    suite_of = [0] * len(ranked)
    for position, suite in enumerate(suites):
        for family in suite.families:
            for place, index in enumerate(family.rows, start=1):
                in_family[index] = place
                suite_of[index] = position
        for place, index in enumerate(sorted(index for family in suite.families for index in family.rows), start=1):
            in_suite[index] = place
    return Places(tuple(in_suite), tuple(in_family), tuple(suite_of))
