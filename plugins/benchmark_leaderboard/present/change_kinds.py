"""Every kind of change of a Diff (``decide.comparison``) in words, named once for every way of
showing one: the changes page and its feed entry, and ``invoke diff``'s text, markdown and json
formats; with the names of the compared metrics and the summary that counts the changes."""

from __future__ import annotations

from typing import NamedTuple

from pelican.utils import maybe_pluralize

from ..decide.comparison import Diff


class Kind(NamedTuple):
    """A kind of change: ``key`` (its list in the Diff and in ``invoke diff --format json``),
    ``word`` (the first column of the text format, and the anchor of its table on the changes page),
    ``title`` (its heading in markdown, on the changes page and in the feed), ``one`` and ``many``
    (how the summary counts it) and ``intro`` (what it lists, on the changes page and in the feed)."""

    key: str
    word: str
    title: str
    one: str
    many: str
    intro: str


# Every kind of change, in the order every format lists them (comparison.KIND_KEYS).
KINDS = (
    Kind("leaks_more", "leaks-more", "Leaks more", "row leaks more", "rows leak more",
         "Rows that leak more protected text than before: what stops a release (invoke diff exits 1)."),
    Kind("fell", "fell", "Recall or F1 fell", "fall in recall or F1", "falls in recall or F1",
         "Rows whose recall or F1 is lower than before."),
    Kind("added", "added", "Added", "row added", "rows added",
         "Rows of a suite, model and device the previous leaderboard did not have."),
    Kind("removed", "removed", "Removed", "row removed", "rows removed",
         "Rows of the previous leaderboard this one no longer has (as they stood there)."),
    Kind("improved", "improved", "Improved", "improvement", "improvements",
         "Rows that leak less than before, or whose recall or F1 rose."),
    Kind("rank_moves", "moved", "Rank moves", "rank move", "rank moves",
         "Rows whose rank changed, overall or in their suite."),
    Kind("field_changes", "field", "Field changes", "field change", "field changes",
         "Other published fields of the same row: a renamed report file is the same row with a new path."),
)
KIND = {kind.key: kind for kind in KINDS}
METRIC_NAMES = {"leakage": "leakage", "recall": "recall", "f1": "F1"}


def summary(diff: Diff) -> str:
    """How many changes of each kind, in the order they are listed; "no changes" when none."""
    said = [maybe_pluralize(count, kind.one, kind.many) for kind in KINDS if (count := len(diff.of_kind(kind.key)))]
    return ", ".join(said) if said else "no changes"
