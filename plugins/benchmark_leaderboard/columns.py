"""The family tables' columns, declared once: the tables' header and cells (on the index and on the
family pages), the page's data file, the script (which column the filter reads, which ones sort)
and the style (each column's track and its cells' look, found by position) all derive from this
table."""

from __future__ import annotations

from dataclasses import dataclass

from .fill import FIELDS


@dataclass(frozen=True)
class Column:
    key: str  # a field of the published row or of the page's data, "rank" (the row's rank in its suite) or "select"
    label: str  # the header's text
    kind: str  # how a cell is written: select, rank, model, text, date, percent, interval, count, size, hash, copy
    searched: bool = False  # the filter matches its text
    sortable: bool = True  # its header is a button that sorts the table by it (every column of data)
    width: float | None = None  # its track in the row grid, in rem; None: what is left (the model's)
    # Ranks of the largest suite its cell writes (the rank and its range): its track is wider by
    # their digits, as many ch (a digit's width), as the build knows them.
    ranks: int = 0

    @property
    def index(self) -> int:
        """The field's position in a row (rows are tuples), or -1 for a column the row does not hold."""
        return FIELDS.index(self.key) if self.key in FIELDS else -1


COLUMNS: tuple[Column, ...] = (
    # A checkbox that picks the row for comparing; shown only where the script runs.
    Column("select", "Compare", "select", sortable=False, width=2.25),
    # The row's rank in its suite, then the best and worst its leakage interval allows: "3 (1–7)".
    Column("rank", "Rank", "rank", width=2.6, ranks=3),
    # The frontier mark (a row of its suite's Pareto frontier) is shown in this cell.
    Column("model_name", "Model", "model", searched=True),
    Column("device", "Device", "text", searched=True, width=6),
    # The leakage, then its 95% interval: "0.34 (0.10–2.31)".
    Column("leakage", "Leakage %", "interval", width=9),
    Column("recall", "Recall %", "percent", width=5),
    Column("f1", "F1 %", "percent", width=5),
    # The report's fixture count, marked "thin" below LEADERBOARD_THIN_EVIDENCE.
    Column("fixture_count", "Fixtures", "count", width=5),
    # The manifest's param_count, written short (44M, 2.3B); empty when the manifest has none.
    Column("param_count", "Size", "size", width=4.5),
    Column("release_tag", "Release", "text", searched=True, width=6),
    Column("run_date", "Run date", "date", searched=True, width=6.5),
    # Its first HASH_SHOWN hex digits, so that a row stays on one line; the report page shows it
    # whole, and the filter matches the whole of it.
    Column("reproducibility_hash", "Reproducibility hash", "hash", searched=True, width=7.5),
    Column("report_url", "Copy", "copy", sortable=False, width=4.5),
)
# The hex digits of a reproducibility hash a table shows.
HASH_SHOWN = 12
# What each cell of a row is made from, in order: its column's kind and field position.
CELLS: tuple[tuple[str, int], ...] = tuple((column.kind, column.index) for column in COLUMNS)
# The model column takes what is left of a table at least this much wider than the other columns:
# with them, every column fits an 82rem page.
MODEL_MIN_WIDTH = 11
# Right-aligned, tabular figures.
NUMERIC_KINDS = frozenset({"rank", "percent", "interval", "count", "size"})
# Kinds whose cell writes a fraction of the data as a percentage (an interval's after it).
PERCENT_KINDS = frozenset({"percent", "interval"})
# The family is each table's heading, not a column, but the filter matches it too.
SEARCHED_FIELDS: tuple[str, ...] = tuple(column.key for column in COLUMNS if column.searched) + ("model_family",)
# Published fields the page's data file carries, one list of values each in ranking order: every one
# but report_url, which is "reports/" and the URL-quoted report_path. The data lives in its own file,
# not in the page, so it holds the hash too: rows a long table leaves to its other pages are rendered
# and searched from it.
EMBEDDED_FIELDS: tuple[str, ...] = tuple(sorted(set(FIELDS) - {"report_url"}))
