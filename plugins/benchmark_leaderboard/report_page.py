"""What a report page shows: ranks, every metric and metadata value, and where each field came from."""

from __future__ import annotations

import json
from typing import Any, Iterator

from .build import Leaderboard
from .rows import Row


def flatten(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Nested keys joined by dots; lists and scalars are leaves."""
    if isinstance(value, dict) and value:
        for key in value:
            yield from flatten(value[key], f"{prefix}.{key}" if prefix else str(key))
    else:
        yield prefix, value


def shown(value: Any) -> str:
    """A leaf as JSON text (strings without quotes), so that true, null and 0.5 read as written."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)


def report_details(leaderboard: Leaderboard, row: Row) -> dict[str, Any]:
    fields = row.fields
    path = fields["report_path"]
    payload = row.candidate.payload
    metrics = payload.get("metrics") or {}
    metadata = payload.get("metadata") or {}
    return {
        "fields": fields,
        "sources": row.sources,
        "rank": leaderboard.rank_overall[path],
        "rank_in_suite": leaderboard.rank_in_suite[path],
        "rank_in_family": leaderboard.rank_in_family[path],
        "suite_anchor": leaderboard.anchors[fields["suite"]],
        "metrics": sorted((key, shown(value)) for key, value in flatten(metrics)),
        "metadata": sorted((key, shown(value)) for key, value in flatten(metadata)),
        "sha256": leaderboard.digests[path],
        "fixture_count": payload.get("fixture_count"),
        "generated_at": payload.get("generated_at"),
    }
