"""What the templates look up: a report page's details (its ranks, every metric and metadata value,
where each field came from), the site's navigation, and how a fraction is written as a percentage.
Values are worked out here, ready to print, so that templates only look them up."""

from __future__ import annotations

import json
from functools import lru_cache
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .canonical import scalar_text
from .fill import FALLBACK, FIELDS, MANIFEST, Filled

HUNDREDTH = Decimal("0.01")
# The order in which a report page lists the published fields: identity, ranking evidence, provenance.
PUBLISHED = ("suite", "model_family", "model_name", "device", "leakage", "recall", "f1",
             "release_tag", "run_date", "reproducibility_hash", "report_path")


def percent(fraction: float) -> str:
    """A fraction in [0, 1] as a percentage with two decimals, or with every decimal it needs when
    two would round it: 0.0093 -> "0.93", 0.5 -> "50.00", 0.123456 -> "12.3456". Exact, never rounded."""
    value = Decimal(repr(float(fraction))) * 100
    if value == value.quantize(HUNDREDTH):
        return f"{value:.2f}"
    return f"{value.normalize():f}"


def leaves(value: Any) -> list[tuple[str, str]]:
    """Every leaf of ``value``, sorted, as its nested keys joined by dots and its value ``shown``;
    lists, scalars and empty objects are leaves."""
    found: list[tuple[str, str]] = []
    _add_leaves(value, "", found)
    found.sort()
    return found


def _add_leaves(value: Any, prefix: str, found: list[tuple[str, str]]) -> None:
    if isinstance(value, dict) and value:
        for key, item in value.items():
            _add_leaves(item, f"{prefix}.{key}" if prefix else str(key), found)
    else:
        found.append((prefix, shown(value)))


def shown(value: Any) -> str:
    """A leaf as JSON text (strings without quotes), so that true, null and 0.5 read as written."""
    if type(value) is str:
        return value
    text = scalar_text(value)
    return text if text is not None else json.dumps(value, ensure_ascii=False, sort_keys=True)


@lru_cache(maxsize=4096)
def origin(source: str, release_tag: str) -> tuple[str, str]:
    """Where a published field came from, as (kind, detail): ``report`` and the key in it,
    ``manifest`` and its row, ``--release-tag`` and the tag, or ``archive`` (the file's path)."""
    if source.startswith("/"):
        return "report", source[1:].replace("/", ".")
    if source.startswith(MANIFEST):
        return "manifest", source
    if source == FALLBACK:
        return "--release-tag fallback", release_tag
    return "archive", "the report's path in the archive"


@dataclass(frozen=True, slots=True)
class ReportPage:
    """What base.html needs of a report's page: its title and where it is."""

    title: str
    url: str
    save_as: str


@dataclass(slots=True)
class ReportDetails:
    """Everything a report page shows about one row, each value ready to print (percentages
    written out, metadata leaves as text), so the template only looks values up."""

    row: Any
    leakage_percent: str
    recall_percent: str
    f1_percent: str
    published: list[tuple[str, Any, str, str]]
    rank: int
    rank_in_suite: int
    rank_in_family: int
    row_count: int
    suite_anchor: str
    fixture_count: Any
    metrics: list[tuple[str, str]]
    metadata: list[tuple[str, str]]
    report_fields: list[tuple[str, str]]
    sha256: str


_FIELD_INDEX = {name: position for position, name in enumerate(FIELDS)}
_PUBLISHED_INDEX = tuple(_FIELD_INDEX[name] for name in PUBLISHED)


def report_details(filled: Filled, payload: dict[str, Any], rank: int, rank_in_suite: int, rank_in_family: int,
                   row_count: int, suite_anchor: str, sha256: str) -> ReportDetails:
    """Everything a report page shows about one row, where it stands, and its copy's digest."""
    row = filled.row
    metrics = payload.get("metrics") or {}
    metadata = payload.get("metadata") or {}
    others = {key: value for key, value in payload.items() if key not in ("metrics", "metadata")}
    return ReportDetails(
        row=row,
        leakage_percent=percent(row.leakage),
        recall_percent=percent(row.recall),
        f1_percent=percent(row.f1),
        published=[(PUBLISHED[n], row[i], *origin(filled.sources[i], row.release_tag)) for n, i in enumerate(_PUBLISHED_INDEX)],
        rank=rank,
        rank_in_suite=rank_in_suite,
        rank_in_family=rank_in_family,
        row_count=row_count,
        suite_anchor=suite_anchor,
        fixture_count=filled.fixture_count,
        metrics=leaves(metrics),
        metadata=leaves(metadata),
        report_fields=leaves(others),
        sha256=sha256,
    )


@dataclass(frozen=True, slots=True)
class NavLink:
    """A Markdown page in the site's navigation, its URL and title worked out once per build."""

    url: str
    title: str
    page: Any


def site_nav(pages: list[Any]) -> list[NavLink]:
    """The Markdown pages in navigation order (``navorder``), each with its URL and its
    ``navtitle`` (or title)."""
    def order(page: Any):  # as Jinja's sort filter orders them: text ignoring case
        value = getattr(page, "navorder", "")
        return value.lower() if isinstance(value, str) else value

    return [NavLink(page.url, getattr(page, "navtitle", page.title), page) for page in sorted(pages, key=order)]
