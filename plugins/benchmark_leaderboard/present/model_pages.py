"""A page a model: ``model/<model>.html``, how one model does across the archive's suites, devices
and releases, and how sure each of its ranks is.

``model_index`` groups the ranking's rows by model once a build (in ``generate_context``), and
``model_pages`` makes each model's page object there (a ``ModelPage``, a ``pelican.contents.Page``
dated by the model's latest run date), as ``pages.leaderboard_pages`` makes the report pages'.
``model_details`` works out, for one model, what its page shows, in ``generate_output``: its rows
suite by suite (the suites in the ranking's order, each suite's rows in ranking order, so its best
row first), with their ranks, rank ranges, intervals and whether each could be first (the figures of
``uncertainty.json``), which of its devices can be told apart in each suite, its history there, and
its badge. The page's path is the badges' encoding of the model's name (``paths.model_path``), so a
model's page and its badges are found alike. Everything reaches the template as what it is: the
published row, numbers as numbers, the intervals as the tables write them; no markup."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, NamedTuple, Sequence

from pelican.contents import Page

from ..decide.history import ArchiveHistory
from ..paths import model_page_path, report_page_url, url_of
from .badge import Badge
from .history import LeakageLine, leakage_line
from .pages import run_datetime
from .report_details import Attribute, model_attributes

# The compare page shows two to four rows (theme/static/leaderboard-common.js: COMPARE_MIN, COMPARE_MAX).
COMPARE_MIN = 2
COMPARE_MAX = 4


class ModelPage(Page):
    """The page of one model (``model/<model>.html``), published."""

    default_template = "model"
    default_status = "published"


@dataclass(frozen=True)
class ModelIndex:
    """Every model of the ranking, by name (sorted by their text), and the indices of its rows in
    the ranking, in ranking order."""

    names: tuple[str, ...]
    rows: dict[str, tuple[int, ...]]

    def __len__(self) -> int:
        return len(self.names)


def model_index(rows: Sequence[Any]) -> ModelIndex:
    """Group the ranking ``rows`` by model name."""
    found: dict[str, list[int]] = {}
    for index, row in enumerate(rows):
        indices = found.get(row.model_name)
        if indices is None:
            found[row.model_name] = [index]
        else:
            indices.append(index)
    names = tuple(sorted(found))
    return ModelIndex(names, {name: tuple(found[name]) for name in names})


def model_pages(models: ModelIndex, rows: Sequence[Any], settings: dict[str, Any],
                context: dict[str, Any]) -> list[ModelPage]:
    """A page object a model, in ``models.names`` order, each made by Pelican's ``Content.__init__``
    (which sends ``content_object_init``), dated by the model's latest run date."""
    dates: dict[str, datetime] = {}
    pages = []
    for name in models.names:
        indices = models.rows[name]
        latest = max(rows[index].run_date for index in indices)
        date_of = dates.get(latest)
        if date_of is None:
            date_of = dates[latest] = run_datetime(latest)
        pages.append(model_page(name, rows[indices[0]].model_family, date_of, settings, context))
    return pages


def model_page(model_name: str, family: str, date_of: datetime, settings: dict[str, Any],
               context: dict[str, Any]) -> ModelPage:
    """The page object of a model's page: its title and ``model_name`` are the model's, its
    ``model_family`` its best row's."""
    save_as = model_page_path(model_name)
    metadata = {"title": model_name, "slug": save_as[: -len(".html")], "save_as": save_as, "url": url_of(save_as),
                "date": date_of, "model_name": model_name, "model_family": family}
    return ModelPage("", metadata, settings=settings, context=context)


class ModelRow(NamedTuple):
    """A report of the model, as its page lists it: the published row (its fields as
    leaderboard.json holds them), its index in the ranking, its report page, and its figures in
    ``uncertainty.json`` (its rank in the suite and the best and worst its leakage interval allows,
    whether it could be first, its 95% intervals as the tables write them)."""

    row: Any
    index: int
    url: str
    rank_in_suite: int
    rank_best: int
    rank_worst: int
    could_be_first: bool
    leakage_interval: str
    recall_interval: str


class DevicePair(NamedTuple):
    """Two of the model's devices in a suite, each by its best row there (``better`` ranked above
    ``worse``), and whether one certainly leaks less: their leakage intervals do not overlap."""

    better: ModelRow
    worse: ModelRow
    apart: bool


class ModelSuite(NamedTuple):
    """The model in one suite: its rows in ranking order (its best first), the suite's row count,
    where the suite's page is, every pair of its devices there, its history on each device that has
    one, the compare page on its best rows (two to four; None with one row) and its badge."""

    name: str
    home: str
    suite_rows: int
    rows: tuple[ModelRow, ...]
    devices: tuple[str, ...]  # in the order of their best rows
    pairs: tuple[DevicePair, ...]
    histories: tuple[tuple[str, LeakageLine], ...]  # (device, its history), in ``devices`` order
    compare: str | None  # compare.html and its address naming the rows
    compared: int  # how many rows that is
    badge: Badge


class ModelDetails(NamedTuple):
    """Everything a model's page shows: its name, families (its best row's first), manifest
    attributes, each suite it has reports in, its devices, release tags (in version order) and
    latest run date, and the compare page on its best row of each suite (up to four; None with one
    suite)."""

    name: str
    families: tuple[str, ...]
    attributes: tuple[Attribute, ...]
    report_count: int
    suites: tuple[ModelSuite, ...]
    devices: tuple[str, ...]
    release_tags: tuple[str, ...]
    latest_run: str
    compare: str | None
    compared: int


def compare_address(indices: Sequence[int]) -> str:
    """The compare page's address naming the rows at ``indices`` of the ranking (as the index's
    Compare selected link writes it)."""
    return "compare.html#rows=" + ",".join(map(str, indices))


def model_details(name: str, indices: Sequence[int], board: Any, view: Any, manifest_row: dict[str, Any] | None,
                  suite_home: Callable[[int], str], history: ArchiveHistory | None,
                  badge_of_row: Callable[[int], Badge], badge_rows: Sequence[int],
                  tag_order: dict[str, int]) -> ModelDetails:
    """What the page of the model ``name`` shows, its rows at ``indices`` of the ranking (in ranking
    order); ``view`` (the board's ``BoardView``) holds each row's intervals as the tables write them,
    ``suite_home`` gives the URL of suite number s's page, ``badge_of_row`` the badge of a suite and
    model's badge row (``badge_rows`` gives each row's), ``tag_order`` each release tag's place in
    version order."""
    rows, places, sure = board.rows, board.places, board.uncertainty
    leakage_intervals, recall_intervals = view.leakage_interval, view.recall_interval
    by_suite: dict[int, list[int]] = {}
    for index in indices:
        by_suite.setdefault(places.suite_of[index], []).append(index)
    suites = []
    for number in sorted(by_suite):
        shown = [ModelRow(rows[index], index, report_page_url(rows[index].report_path), places.in_suite[index],
                          sure.best[index], sure.worst[index], sure.best[index] == 1,
                          leakage_intervals[index], recall_intervals[index])
                 for index in by_suite[number]]
        best: dict[str, ModelRow] = {}
        for row in shown:
            best.setdefault(row.row.device, row)
        devices = tuple(best)
        pairs = tuple(DevicePair(best[a], best[b], sure.told_apart(best[a].index, best[b].index))
                      for position, a in enumerate(devices) for b in devices[position + 1:])
        histories = []
        if history is not None:
            for device in devices:
                releases = history.of(best[device].row)
                if releases is not None:
                    histories.append((device, leakage_line(releases)))
        compared = shown[:COMPARE_MAX]
        first = shown[0]
        suites.append(ModelSuite(first.row.suite, suite_home(number), sure.suite_size(number), tuple(shown), devices,
                                 pairs, tuple(histories),
                                 compare_address([row.index for row in compared]) if len(compared) >= COMPARE_MIN else None,
                                 len(compared), badge_of_row(badge_rows[first.index])))
    families = tuple(dict.fromkeys(rows[index].model_family for index in indices))
    bests = [suite.rows[0].index for suite in suites][:COMPARE_MAX]
    return ModelDetails(
        name=name,
        families=families,
        attributes=tuple(model_attributes(manifest_row)),
        report_count=len(indices),
        suites=tuple(suites),
        devices=tuple(sorted({rows[index].device for index in indices})),
        release_tags=tuple(sorted({rows[index].release_tag for index in indices}, key=tag_order.__getitem__)),
        latest_run=max(rows[index].run_date for index in indices),
        compare=compare_address(bests) if len(bests) >= COMPARE_MIN else None,
        compared=len(bests),
    )
