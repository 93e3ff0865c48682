"""The kinds of work the writing map gives its workers: a small named tuple a kind, each naming
what it writes, so that the generator dispatches on the task's type and the profile names its
phases by the task's ``kind``. Plain data, pickled to a worker as it is."""

from __future__ import annotations

from typing import NamedTuple


class WholeFiles(NamedTuple):
    """The files made of every row: leaderboard.json, uncertainty.json, the page's data file and
    its chunks, the CSV downloads, and the compare page."""

    kind = "whole"


class IndexPage(NamedTuple):
    """The index (the first suite's page, with the tabs of the others) and the style sheets made
    of the column table."""

    kind = "index"


class SuitePage(NamedTuple):
    """Another suite's page, for a reader without the script, and its panel as a script."""

    suite: int
    kind = "suite"


class FamilyPages(NamedTuple):
    """A family's pages, each a slice of its table (numbers of the suite and of the family in it)."""

    suite: int
    family: int
    kind = "pages"


class SuiteMetrics(NamedTuple):
    """A suite's metrics for comparing (compare-data/<anchor>.js)."""

    suite: int
    kind = "compare"


class ReportPages(NamedTuple):
    """The canonical copies, pages and badges of a range of rows, in ranking order."""

    rows: range
    kind = "reports"


class ModelPages(NamedTuple):
    """The pages of a range of models, in the order the build lists them."""

    models: range
    kind = "models"
