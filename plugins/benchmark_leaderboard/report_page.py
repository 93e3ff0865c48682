"""What the pages show beyond the published rows: a report page's ranks, every metric and metadata
value, where each field came from; and how a fraction is written as a percentage."""

from __future__ import annotations

import json
from functools import lru_cache
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .build import Standing
from .leaderboard import scalar_text
from .rows import FALLBACK, MANIFEST, Row

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


@dataclass(slots=True)
class ReportDetails:
    """Everything a report page shows about one row, each value ready to print (percentages
    written out, metadata leaves as text), so the template only looks values up."""

    fields: dict[str, Any]
    model_name: str
    model_family: str
    suite: str
    device: str
    release_tag: str
    run_date: str
    report_url: str
    leakage_percent: str
    recall_percent: str
    f1_percent: str
    published: list[tuple[str, Any, str, str]]
    rank: int
    rank_in_suite: int
    rank_in_family: int
    row_count: int
    suite_anchor: str
    metrics: list[tuple[str, str]]
    metadata: list[tuple[str, str]]
    report_fields: list[tuple[str, str]]
    sha256: str


def report_details(standing: Standing, row: Row, sha256: str) -> ReportDetails:
    """Everything a report page shows about one row, where it stands, and its copy's digest."""
    fields = row.fields
    path = fields["report_path"]
    payload = row.candidate.payload
    metrics = payload.get("metrics") or {}
    metadata = payload.get("metadata") or {}
    others = {key: value for key, value in payload.items() if key not in ("metrics", "metadata")}
    return ReportDetails(
        fields=fields,
        model_name=fields["model_name"],
        model_family=fields["model_family"],
        suite=fields["suite"],
        device=fields["device"],
        release_tag=fields["release_tag"],
        run_date=fields["run_date"],
        report_url=fields["report_url"],
        leakage_percent=percent(fields["leakage"]),
        recall_percent=percent(fields["recall"]),
        f1_percent=percent(fields["f1"]),
        published=[(name, fields[name], *origin(row.sources[name], fields["release_tag"])) for name in PUBLISHED],
        rank=standing.rank_overall[path],
        rank_in_suite=standing.rank_in_suite[path],
        rank_in_family=standing.rank_in_family[path],
        row_count=standing.row_count,
        suite_anchor=standing.anchors[fields["suite"]],
        metrics=leaves(metrics),
        metadata=leaves(metadata),
        report_fields=leaves(others),
        sha256=sha256,
    )
