"""A model's history: the rows of one suite, model and device across the archive's release tags, in
version order (what the report pages and the model pages show of it is present/history.py's).

Pure: ``archive_history`` indexes the ranked rows once per build (in ``generate_context``);
``ArchiveHistory.of`` looks one row's history up for its page."""

from __future__ import annotations

from collections import Counter
from operator import attrgetter
from typing import Sequence

from ..board import Row
from ..versions import version_order


class ArchiveHistory:
    """The archive's rows of each suite, model and device that occur in two release tags or more."""

    def __init__(self, rows: Sequence[Row], groups: dict[tuple[str, str, str], tuple[int, ...]]):
        self._rows = rows
        self._groups = groups

    def of(self, row: Row) -> tuple[Row, ...] | None:
        """The rows of ``row``'s suite, model and device in version order (then by report path), or
        None when they have one release tag."""
        indices = self._groups.get((row.suite, row.model_name, row.device))
        return None if indices is None else tuple(self._rows[i] for i in indices)

    def __len__(self) -> int:
        return len(self._groups)


def archive_history(rows: Sequence[Row]) -> ArchiveHistory:
    """Index ``rows`` (the ranking) by suite, model and device, each group in version order; only the
    groups of two release tags or more are kept, since a single release has no history to show."""
    # Most models have one report a suite and device: the keys are counted first (in C), and only
    # the keys held by more than one row are gathered.
    keys = list(zip(map(attrgetter("suite"), rows), map(attrgetter("model_name"), rows), map(attrgetter("device"), rows)))
    shared = {key for key, count in Counter(keys).items() if count > 1}
    groups: dict[tuple[str, str, str], list[int]] = {}
    if shared:
        for index, key in enumerate(keys):
            if key in shared:
                groups.setdefault(key, []).append(index)
    kept = {}
    for key, indices in groups.items():
        if len({rows[i].release_tag for i in indices}) > 1:
            indices.sort(key=lambda i: (version_order(rows[i].release_tag), rows[i].report_path))
            kept[key] = tuple(indices)
    return ArchiveHistory(rows, kept)
