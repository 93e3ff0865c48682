"""The family tables' columns, declared once: the index template's header and cells, the page's
embedded data, the script (which column the filter reads, how a column sorts) and the style (each
cell's class is ``c-`` and its key) all derive from this table."""

from __future__ import annotations

from dataclasses import dataclass

from .fill import FIELDS


@dataclass(frozen=True)
class Column:
    key: str  # a field of the published row, or "rank" (the row's rank in its suite)
    label: str  # the header's text
    kind: str  # how a cell is written: rank, model, text, date, percent, hash, copy
    searched: bool = False  # the filter matches its text

    @property
    def index(self) -> int:
        """The field's position in a row (rows are tuples), or -1 for the rank."""
        return FIELDS.index(self.key) if self.key in FIELDS else -1


COLUMNS: tuple[Column, ...] = (
    Column("rank", "Rank", "rank"),
    Column("model_name", "Model", "model", searched=True),
    Column("device", "Device", "text", searched=True),
    Column("leakage", "Leakage %", "percent"),
    Column("recall", "Recall %", "percent"),
    Column("f1", "F1 %", "percent"),
    Column("release_tag", "Release", "text", searched=True),
    Column("run_date", "Run date", "date", searched=True),
    Column("reproducibility_hash", "Reproducibility hash", "hash", searched=True),
    Column("report_url", "Copy", "copy"),
)
# Right-aligned, tabular figures.
NUMERIC_KINDS = frozenset({"rank", "percent"})
# The family is each table's heading, not a column, but the filter matches it too.
SEARCHED_FIELDS: tuple[str, ...] = tuple(column.key for column in COLUMNS if column.searched) + ("model_family",)
# Fields the page's embedded data carries, one list of values each in ranking order: every published
# field but report_url, which is "reports/" and the URL-quoted report_path, and the hash, which the
# script reads from its cell, where the row shows it in full (one copy of 64 random hex digits a row
# is what the page can afford).
EMBEDDED_FIELDS: tuple[str, ...] = tuple(sorted(set(FIELDS) - {"report_url", "reproducibility_hash"}))
