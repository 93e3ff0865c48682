"""The columns of the tables of rows, declared once: a suite's top (its best rows across its
families) and the family tables (on the index and on the family pages). Their header and cells, the
page's data file, the script (which column the filter reads, which ones sort) and the style (each
column's track, its cells' look, found by position, and where a row laid out as a card puts it and
what label it shows there) all derive from this table."""

from __future__ import annotations

from dataclasses import dataclass

from ..board import FIELDS


@dataclass(frozen=True)
class Column:
    key: str  # a field of the published row or of the page's data, "rank" (the row's rank in its suite) or "select"
    label: str  # the header's text
    kind: str  # how a cell is written: select, rank, model, text, date, percent, interval, count, size, hash, copy
    searched: bool = False  # the filter matches its text
    sortable: bool = True  # its header is a button that sorts the table by it (every column of data)
    width: float | None = None  # its track in the row grid, in rem; None: what is left (the model's)
    # Where a table is narrower than its columns (a phone), each row is a card of three lines: 1 the
    # rank and the model, 2 leakage and recall, 3 the rest, smaller. ``card`` is the visible label
    # before the value there (CSS generated text, silent: the column's header names the cell).
    line: int = 3
    card: str = ""
    tables: tuple[str, ...] = ("top", "family")  # the tables that have it: a suite's top, the family tables
    # Ranks of the largest suite its cell writes (the rank and its range): its track is wider by as
    # many digits (RANK_DIGIT rem each) as the largest suite's ranks have.
    ranks: int = 0
    # A column of controls (the checkboxes): what names each row's, words and a field's name in
    # braces for the row's value of it. Its header says it (data-label) to the script, which names
    # the rows it makes so; family_table.html writes the build's rows' names the same way.
    control: str = ""

    @property
    def index(self) -> int:
        """The field's position in a row (rows are tuples), or -1 for a column the row does not hold."""
        return FIELDS.index(self.key) if self.key in FIELDS else -1


COLUMNS: tuple[Column, ...] = (
    # A checkbox that picks the row for comparing; shown only where the script runs.
    Column("select", "Compare", "select", sortable=False, width=2.25, card="Compare ",
           control="Compare {model_name} on {device}"),
    # The row's rank in its suite, then the best and worst its leakage interval allows: "3 (1–7)"
    # (in a table, the range under the rank; on a card, beside it).
    Column("rank", "Rank", "rank", width=2.2, line=1, card="#", ranks=2),
    # The frontier mark (a row of its suite's Pareto frontier) is shown in this cell. A long name
    # wraps at its own breaks (after "-"), and anywhere if it must: it is never cut.
    Column("model_name", "Model", "model", searched=True, line=1),
    # A suite's top holds rows of every family: it names each row's (the family tables are headed by theirs).
    Column("model_family", "Family", "text", width=5.5, card="Family ", tables=("top",)),
    Column("device", "Device", "text", searched=True, width=5.5),
    # The leakage, then its 95% interval: "0.34 (0.10–2.31)" (in a table, the interval under it).
    Column("leakage", "Leakage %", "interval", width=6, line=2, card="Leakage "),
    Column("recall", "Recall %", "percent", width=5, line=2, card="Recall "),
    Column("f1", "F1 %", "percent", width=5, card="F1 "),
    # The report's fixture count, marked "thin" below LEADERBOARD_THIN_EVIDENCE.
    Column("fixture_count", "Fixtures", "count", width=4.75, card="Fixtures "),
    # The manifest's param_count, written short (44M, 2.3B); empty when the manifest has none.
    Column("param_count", "Size", "size", width=4, card="Size "),
    Column("release_tag", "Release", "text", searched=True, width=5.5),
    Column("run_date", "Run date", "date", searched=True, width=6.5, card="Run "),
    # Its first HASH_SHOWN hex digits, so that a row stays short; the report page shows it whole,
    # and the filter matches the whole of it.
    Column("reproducibility_hash", "Reproducibility hash", "hash", searched=True, width=7.5, card="Hash "),
    Column("report_url", "Copy", "copy", sortable=False, width=3.5),
)
# The columns of each table: a family table's (and the page's data, which makes its rows), a suite's top's.
FAMILY_COLUMNS: tuple[Column, ...] = tuple(column for column in COLUMNS if "family" in column.tables)
TOP_COLUMNS: tuple[Column, ...] = tuple(column for column in COLUMNS if "top" in column.tables)
# The hex digits of a reproducibility hash a table shows.
HASH_SHOWN = 12
# What each cell of a row is made from, in order: its column's kind and field position; a family
# table's, a suite's top's.
CELLS: tuple[tuple[str, int], ...] = tuple((column.kind, column.index) for column in FAMILY_COLUMNS)
TOP_CELLS: tuple[tuple[str, int], ...] = tuple((column.kind, column.index) for column in TOP_COLUMNS)
# The model column takes what is left of a table at least this much wider than the other columns
# (Table.width); a table whose box is narrower than that lays its rows out as cards.
MODEL_MIN_WIDTH = 12
# A digit's advance, in rem, at the most in a rank cell's fonts (tabular figures, DejaVu Sans's
# 0.636em: at .875rem the rank's, at .75rem its range's): a column writing ranks is wider by this
# much a digit of the largest suite's ranks (Column.ranks: the most it writes on a line).
RANK_DIGIT = 0.55


@dataclass(frozen=True)
class Table:
    """A kind of table of rows: its columns, how the style finds it, and whether its headers sort."""

    selector: str  # its tables in the style sheets (columns.css, nojs.css)
    columns: tuple[Column, ...]
    sortable: bool  # its headers are buttons that sort it (where the script runs)

    def width(self, digits: int, *, without: str = "") -> float:
        """The least width (rem) at which its columns fit a row on a line, ranks of ``digits`` digits
        written, without the columns of kind ``without``; in a narrower box each row is a card (Column.line)."""
        return round(sum(track(column, digits) for column in self.columns
                         if column.width is not None and column.kind != without) + MODEL_MIN_WIDTH, 4)


def track(column: Column, digits: int) -> float:
    """A fixed column's track (rem) where the longest rank a table writes has ``digits`` digits."""
    return round(column.width + column.ranks * digits * RANK_DIGIT, 4)


# A family table; a suite's top (its best rows), whose headers do not sort: it stays in ranking order.
TABLES: tuple[Table, ...] = (Table(".board:not(.top)", FAMILY_COLUMNS, True), Table(".board.top", TOP_COLUMNS, False))
# Right-aligned, tabular figures.
NUMERIC_KINDS = frozenset({"rank", "percent", "interval", "count", "size"})
# Kinds whose cell writes a fraction of the data as a percentage (an interval's after it).
PERCENT_KINDS = frozenset({"percent", "interval"})
# The family is each family table's heading, not one of its columns, but the filter matches it too.
SEARCHED_FIELDS: tuple[str, ...] = tuple(column.key for column in FAMILY_COLUMNS if column.searched) + ("model_family",)
# Published fields the page's data file carries, one list of values each in ranking order: every one
# but report_url, which is "reports/" and the URL-quoted report_path. The data lives in its own file,
# not in the page, so it holds the hash too: rows a long table leaves to its other pages are rendered
# and searched from it.
EMBEDDED_FIELDS: tuple[str, ...] = tuple(sorted(set(FIELDS) - {"report_url"}))
