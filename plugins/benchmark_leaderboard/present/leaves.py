"""A report's nested values as its pages list them: every leaf under its keys joined with dots,
each as text (``shown``) or, for compare, as a number where it is a finite one (``metric_value``)."""

from __future__ import annotations

import json
import math
from typing import Any

from ..read.canonical import scalar_text


def leaves_of(value: Any) -> list[tuple[str, Any]]:
    """Every leaf of ``value`` as it is, sorted by its nested keys joined by dots. ``value`` is read
    from a report's canonical copy, whose keys are sorted: where two leaves' keys join the same
    (``{"a.b": 1, "a": {"b": 2}}``), the same one is kept whatever the order of the file."""
    found: list[tuple[str, Any]] = []
    add_leaves(value, "", found)
    found.sort(key=lambda item: item[0])
    return found


def add_leaves(value: Any, prefix: str, found: list[tuple[str, Any]]) -> None:
    """Add every leaf of ``value`` to ``found``, its keys joined by dots after ``prefix``."""
    if not (isinstance(value, dict) and value):
        found.append((prefix, value))
        return
    for key, item in value.items():  # a call a nested object, not a leaf
        name = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(item, dict) and item:
            add_leaves(item, name, found)
        else:
            found.append((name, item))


def shown(value: Any) -> str:
    """A leaf as JSON text (strings without quotes), so that true, null and 0.5 read as written."""
    if type(value) is str:
        return value
    text = scalar_text(value)
    return text if text is not None else json.dumps(value, ensure_ascii=False, sort_keys=True)


def metric_value(value: Any) -> Any:
    """A metric leaf as compare shows it: a finite number stays a number, null stays null, anything
    else (text, true, a list, NaN) is its text as a report page shows it."""
    if value is None or type(value) is int or (type(value) is float and math.isfinite(value)):
        return value
    return shown(value)


def metric_leaves(metrics: Any) -> dict[str, Any]:
    """Every leaf of a report's ``metrics``, by its keys joined with dots (as a report page lists
    them), each a ``metric_value``."""
    return {key: metric_value(value) for key, value in leaves_of(metrics)}
