"""The registry of outputs: every file the leaderboard writes, what makes it (a template, or bytes
made in Python) and what its bytes depend on, listed in ``generate_context`` before anything is
written, and the digest of it; the collision checks, the render's marker, the writing map and
``content_written`` all read it.

A digest is made in two steps. ``plan`` (in ``generate_context``) names each output's own data: the
keys of the rows it shows (``row_keys``: a row's published values and where each came from, where
it stands and how sure that is, the texts the tables write of it, its manifest row, what the release
changed of it), and the board's shape (its suites, families and sizes, its release tags) for what
every page shows; an output made from the whole board has the board's key: every row's key, the
whole manifest and how many files were read. ``Plan.finish`` (in ``generate_output``, once every
generator has added to the context) works out the keys and digests each output's data with what
its template reads (its source and every template it extends, includes or imports, and the values
of the names they look up in the context, ``digests.template_tree``), every setting, and the
plugin's version. An output whose digest cannot be worked out soundly (a value with no stable
encoding) has none, and is always made.

A report's bytes (its canonical copy, ``board.Copies``) are read only by the files made of that
report, and are in their digests alone: a report page's data are its row's key and its copy, the
keys of the rows it lists as its neighbours, of the rows of its history and of its badge's row; a
report's copy, its bytes; a suite's metrics, the keys and copies of its rows; a model page's, the
keys of its rows; a badge's, its row's key; a chunk of rows' data, the keys of its rows. The
templates given the whole board (``leaderboard`` and ``view``: the index, the suites' pages and
panels, the family pages, the compare page, the changes pages) and the files of every row have the
board's key.

The keys are worked out in ``finish`` rather than in ``plan`` so that a preview save's edited
report pages, written before ``finish`` (``generator._write``), wait only for the decision and
not for every row's key: a key is made of the decided board, which nothing changes after
``generate_context``, so it is the same whenever it is made."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from ..paths import (COLUMNS_CSS, COMPARE_DATA, COMPARE_PAGE, DATA_SCRIPT, FEED_PATH, LEADERBOARD_CSV,
                     LEADERBOARD_JSON, NOJS_CSS, PREVIOUS_COPY, REPORT_COPIES, ROW_CHUNKS, SCHEMAS, UNCERTAINTY,
                     badge_path, family_page_path, model_page_path, panel_script_path, report_page_path,
                     suite_csv_path, suite_page_path)
from ..present.board_view import family_pagers, suite_rows
from ..present.publish import ROW_CHUNK, chunk_count
from ..present.report_details import NEAREST_REACH, NEAREST_SHOWN
from ..read import validate
from ..digests import (Unstable, context_digest, digest, filters_digest, plugin_version, plugins_digest,
                       json_text, settings_digest, template_tree)
from . import work

# What renders each kind of output: the name Pelican's ``get_template`` takes (its file is the name
# and ``.html``), or a template's file name.
REPORT, INDEX, FAMILY, COMPARE, MODEL, CHANGES, CHANGES_PAGES = ("report", "leaderboard", "family_page", "compare",
                                                                  "model", "changes", "changes_page")
COLUMNS, NOJS, PANEL, BADGE, FEED_ENTRY = "columns.css", "nojs.css", "panel.js", "badge.svg", "feed_entry.html"

# The names a page's template is given by the page itself (its own digest holds them), beside the context.
PAGE_NAMES = frozenset(("page", "row", "report", "badge", "model", "output_file", "SITEURL", "localsiteurl",
                        "page_name", "current", "panels", "suite", "family", "pager", "shown", "changes", "section",
                        "leaderboard", "view"))
# The context's names that hold the whole board: a template that looks one up depends on every row.
BOARD_NAMES = ("leaderboard", "leaderboard_view", "leaderboard_pages", "leaderboard_history", "leaderboard_changes")


# In an output's data, what stands for the board's key; an int stands for that row's key, a tuple
# of ints for those rows' keys joined, bytes for themselves.
BOARD_KEY = None


@dataclass(slots=True)
class Output:
    path: str
    template: str | None  # what renders it (REPORT, ..., a template's file name), or None: bytes made in Python
    data: tuple  # its own data, each part as BOARD_KEY, a row (int), rows (tuple of ints) or bytes
    # The task of the writing map that makes it (work.py: a row's files are a ReportPages of that
    # row, a model's page a ModelPages of that model), or None: generate_output makes it itself.
    part: Any = None


# The order in which the writing map is given its tasks of each kind (the files made of every row
# first: one worker reads all the rows, the others only those of their own tasks, so that fewer of
# the pages they share with the build's process are copied into them); then the rows' and the models'.
_TASK_ORDER = {work.WholeFiles: 0, work.IndexPage: 1, work.SuitePage: 2, work.FamilyPages: 3, work.SuiteMetrics: 4}


@dataclass
class Plan:
    """Every output of the build by its path, in the order it is written, and, once ``finish`` has
    run, each one's digest (32 hex digits, or None: always made)."""

    outputs: dict[str, Output]
    # What the keys are made of (``row_keys`` and ``board_key``): the board, its view, its changes, its shape.
    board: Any
    view: Any
    changes: Any
    shape: bytes
    digests: dict[str, str | None] = field(default_factory=dict)
    # Once ``finish`` has run: each task of the writing map and the paths it makes, by (its kind, it).
    parts: dict[tuple[type, Any], tuple[Any, list[str]]] = field(default_factory=dict)

    def paths(self) -> list[str]:
        return list(self.digests or self.outputs)

    def tasks(self, make: frozenset[str] | None,
              split: Callable[[Sequence[int]], Iterable[Sequence[int]]]) -> list[Any]:
        """The writing map's tasks that make something of ``make`` (every task, given None): the
        fixed tasks in their kinds' order, then the rows with a file to make and the models with a
        page to make, each list cut by ``split`` (``workers.chunks``) into tasks of their kind.
        Asked once: the parts are let go then."""
        fixed: list[Any] = []
        rows: list[int] = []
        models: list[int] = []
        for part, paths in self.parts.values():
            if part is None or (make is not None and make.isdisjoint(paths)):
                continue
            if isinstance(part, work.ReportPages):
                rows += part.rows
            elif isinstance(part, work.ModelPages):
                models += part.models
            else:
                fixed.append(part)
        fixed.sort(key=lambda part: (_TASK_ORDER[type(part)], part))
        self.parts = {}
        return (fixed + [work.ReportPages(chunk) for chunk in split(rows)]
                + [work.ModelPages(chunk) for chunk in split(models)])

    def finish(self, environment: Any, context: dict[str, Any], settings: dict[str, Any],
               template_files: dict[str, str], pages: Iterable[Any] | None = None) -> None:
        """Each output's digest: its data, its template's source and what that reads in the context,
        every setting and the plugin's version (``template_files``: each template's file, by the name
        the outputs give); given ``pages`` (when another plugin may have changed the page objects as
        they were made, in ``content_object_init``), each page's attributes too."""
        states = {page.save_as: page_state(page) for page in pages} if pages is not None else {}
        keys = row_keys(self.board, self.view, self.changes)
        whole = board_key(self.board, self.changes, self.shape, keys)
        common = settings_digest(settings)
        version = digest(plugin_version(), plugins_digest(settings))
        covered = {name: whole for name in BOARD_NAMES}
        by_template: dict[str | None, bytes | None] = {None: b""}
        try:
            callables = filters_digest(environment)
        except (Unstable, RecursionError):
            callables = None
        parsed: dict[str, Any] = {}
        for name, file in template_files.items():
            tree, names = template_tree(environment, file, parsed)
            read = None if callables is None else context_digest(context, environment, names, covered, PAGE_NAMES,
                                                                 callables)
            by_template[name] = None if read is None else digest(tree, read)
        # What every output of a template shares (the plugin's version, the settings, the template
        # and what it reads), digested once a template; each output's digest adds its own data.
        shared = {name: None if common is None or inputs is None else digest(version, common, inputs,
                                                                              (name or "").encode())
                  for name, inputs in by_template.items()}
        self.digests = {}
        self.parts = {}
        for path, output in self.outputs.items():
            self.parts.setdefault((type(output.part), output.part), (output.part, []))[1].append(path)
            prefix = shared.get(output.template)
            state = states.get(path, b"")
            if prefix is None or state is None:
                self.digests[path] = None
            else:
                own = digest(*(_part_bytes(part, keys, whole) for part in output.data))
                self.digests[path] = digest(prefix, own, state).hex()
        # From here on the digests name every output and the parts what makes each: the rest of
        # what made each is no longer needed.
        self.outputs = {}
        self.board = self.view = self.changes = None


def _part_bytes(part: Any, keys: Sequence[bytes], whole: bytes) -> bytes:
    """What a part of an output's data (``Output.data``) stands for, given the rows' keys and the board's."""
    if part is BOARD_KEY:
        return whole
    if isinstance(part, int):
        return keys[part]
    if isinstance(part, tuple):
        return b"".join(keys[at] for at in part)
    return part


# A page object's attributes that are not its own: the site's settings and context, which the
# digest holds otherwise.
_NOT_STATE = frozenset(("settings", "_context"))


def page_state(page: Any) -> bytes | None:
    """A page object's attributes as they are (what another plugin set on it among them), or None
    when one of them has no stable text."""
    text = repr(sorted((name, value) for name, value in vars(page).items() if name not in _NOT_STATE))
    return None if " at 0x" in text else digest(text.encode("utf-8", "surrogatepass"))


def row_keys(board: Any, view: Any, changes: Any) -> list[bytes]:
    """Each row's key: everything any page or file shows of the row at that index of the ranking,
    but its report's bytes (its canonical copy, which only the files made of the report read: their
    digests hold it beside the key)."""
    rows, ranked, places, sure = board.rows, board.ranked, board.places, board.uncertainty
    notes = changes.notes if changes is not None else {}
    release = changes.release_tag if changes is not None else None
    manifest_keys: dict[str, bytes] = {}
    leakage_decimals, recall_decimals = view.decimals
    keys = []
    for index, filled in enumerate(ranked):
        name = rows[index].model_name
        manifest = manifest_keys.get(name)
        if manifest is None:
            manifest = manifest_keys[name] = json_text(board.manifest.get(name))
        # The row as a plain tuple: its text is the same values, written by tuple's own repr rather
        # than a named tuple's, which is made in Python field by field.
        facts = (index, tuple(filled.row), filled.sources, filled.fixture_count, places.in_suite[index],
                 places.in_family[index], places.suite_of[index], sure.values(index), view.leakage_interval[index],
                 view.recall_interval[index], view.frontier[index], view.param_count[index], leakage_decimals.get(index), recall_decimals.get(index),
                 notes.get(rows[index].report_path), release if rows[index].report_path in notes else None)
        keys.append(digest(repr(facts).encode("utf-8", "surrogatepass"), manifest))
    return keys


def shape_key(board: Any, view: Any, changes: Any, index_save_as: str, index_url: str) -> bytes:
    """What every page may show of the board as a whole: its size, its suites and families and their
    sizes, its release tags and latest run, whether it has a changes page, where the index is."""
    suites = tuple((suite.name, suite.anchor, tuple((family.name, len(family.rows)) for family in suite.families))
                   for suite in board.suites)
    facts = (len(board.rows), suites, view.release_tags, view.latest_run, view.rank_digits, changes is not None,
             index_save_as, index_url)
    return digest(repr(facts).encode("utf-8", "surrogatepass"))


def board_key(board: Any, changes: Any, shape: bytes, keys: Sequence[bytes]) -> bytes:
    """The board's key: every row's, the previous leaderboard the changes pages compare with, and
    what else the board holds (how many files were read, the whole manifest, a model with no row
    included). The rows' copies are not in the board (board.Copies): no page given it reads them."""
    return digest(shape, changes.previous_bytes if changes is not None else b"", str(board.files_read).encode(),
                  json_text(board.manifest), *keys)


def plan(board: Any, copies: Any, view: Any, changes: Any, feed: Any, badge_rows: Sequence[int], models: Any,
         page_specs: Iterable[Any], index_save_as: str, index_url: str) -> Plan:
    """The registry of this build's outputs (see the module's docstring), in the order they are written."""
    shape = shape_key(board, view, changes, index_save_as, index_url)
    outputs: dict[str, Output] = {}

    def add(path: str, template: str | None, *data: Any, part: Any = None) -> None:
        if path in outputs:
            raise ValueError(f"the leaderboard writes {path} twice")
        outputs[path] = Output(path, template, data, part)

    rows, places, sure = board.rows, board.places, board.uncertainty
    whole, index_page = work.WholeFiles(), work.IndexPage()
    # The task that writes each board page (the changes pages have none: generate_output writes them).
    board_parts: dict[str, Any] = {index_save_as: index_page, COMPARE_PAGE: whole}
    for number, suite in enumerate(board.suites):
        if number:
            board_parts[suite_page_path(suite.anchor)] = work.SuitePage(number)
        for family_number in range(len(suite.families)):
            part = work.FamilyPages(number, family_number)
            for pager in family_pagers(suite, family_number + 1, view.page_rows):
                board_parts[family_page_path(suite.anchor, family_number + 1, pager.number)] = part
    for spec in page_specs:
        add(spec.save_as, spec.template, BOARD_KEY, part=board_parts.get(spec.save_as))
    for number, suite in enumerate(board.suites[1:], 1):
        add(panel_script_path(suite.anchor), PANEL, BOARD_KEY, part=work.SuitePage(number))
    add(COLUMNS_CSS, COLUMNS, BOARD_KEY, part=index_page)
    add(NOJS_CSS, NOJS, BOARD_KEY, part=index_page)
    for path in (LEADERBOARD_JSON, UNCERTAINTY, DATA_SCRIPT, LEADERBOARD_CSV):
        add(path, None, BOARD_KEY, part=whole)
    for suite in board.suites:
        add(suite_csv_path(suite.anchor), None, BOARD_KEY, part=whole)
    for number in range(chunk_count(len(rows))):
        add(f"{ROW_CHUNKS}{number}.js", None, shape, *range(number * ROW_CHUNK, min((number + 1) * ROW_CHUNK, len(rows))),
            part=whole)
    for number, suite in enumerate(board.suites):
        add(COMPARE_DATA + suite.anchor + ".js", None, shape,
            *(part for index in suite_rows(suite) for part in (index, copies.of(index))),
            part=work.SuiteMetrics(number))
    groups: dict[tuple[str, str, str], list[int]] = {}
    for index, row in enumerate(rows):
        groups.setdefault((row.suite, row.model_name, row.device), []).append(index)
    for index, row in enumerate(rows):
        part = work.ReportPages((index,))
        copy = copies.of(index)
        add(REPORT_COPIES + row.report_path, None, copy, part=part)
        suite_number = places.suite_of[index]
        badge_index = badge_rows[index]
        if badge_index == index:
            add(badge_path(board.suites[suite_number].anchor, row.model_name), BADGE, shape, index, part=part)
        nearest = sure.nearest_alike(index, suite_number, places.in_suite[index] - 1, NEAREST_SHOWN, NEAREST_REACH)
        history = groups[(row.suite, row.model_name, row.device)]
        add(report_page_path(row.report_path), REPORT, shape, index, copy, badge_index, tuple(nearest),
            tuple(history) if len(history) > 1 else b"", part=part)
    for number, name in enumerate(models.names):
        add(model_page_path(name), MODEL, shape, *models.rows[name],
            part=work.ModelPages((number,)))
    if changes is not None:
        add(PREVIOUS_COPY, None, changes.previous_bytes)
    if feed is not None:
        add(FEED_PATH, FEED_ENTRY, BOARD_KEY, changes.previous_bytes if changes is not None else b"")
    for name in validate.SCHEMA_NAMES:
        add(SCHEMAS + name, None, validate.schema_text(name).encode("utf-8"))
    return Plan(outputs, board, view, changes, shape)
