"""Badges: a small SVG per suite and model, ``badge/<suite anchor>/<model>.svg``, that a model card
embeds to show the model's standing in that suite, linked to its report page.

A badge shows the model's best row of the newest release it has in the suite (``badge_rows``): its
leakage, its rank in the suite and the suite's row count (as ``leaderboard.json`` orders the
suite's rows), and the release, e.g. ``PHI leakage · golden | 0.34% · #2 of 7 · v3.1.0``. The
address stays the same from release to release (``badge_path``), so a model card that embeds the
site's badge follows each new release, while a release render's badge is that release's, frozen.

Its boxes are as wide as its text, summed from a fixed table of character advances measured once
from DejaVu Sans (``badge_widths.json``, made by ``leaderboard_tools.badge_widths``): no font is
read at build time. A badge's texts and layout are worked out here (``badge_of``) as plain text and
numbers; ``theme/templates/badge.svg`` writes them out, escaped by autoescaping like every value
of every template: a few hundred bytes each."""

from __future__ import annotations

import json
import os
import re
import unicodedata
from array import array
from functools import lru_cache
from types import SimpleNamespace
from typing import Any, NamedTuple, Sequence

from markupsafe import escape

from ..decide.rank import suite_anchors
from ..formatting import NOT_XML, isolate, percent
from ..paths import badge_path, report_page_url
from ..versions import version_order

TEMPLATE = "badge.svg"


class Style(NamedTuple):
    """How every badge is drawn, declared once: the template prints these, and the widths below
    are computed at ``font_size``. The colours pass WCAG AA for their text (tests/test_badges.py):
    white on the label's grey (6.6:1) and on the value's blue, the site's accent (7.1:1)."""

    height: int
    font_size: int
    baseline: int  # the text's y, from the top
    padding: int  # on each side of a text, in px
    font_family: str
    label_fill: str
    value_fill: str
    text_fill: str


STYLE = Style(height=20, font_size=11, baseline=14, padding=6, font_family="DejaVu Sans,Verdana,Geneva,sans-serif",
              label_fill="#555e69", value_fill="#0a58a8", text_fill="#ffffff")
LABEL = "PHI leakage"
SEPARATOR = " \u00b7 "  # a middle dot between the parts of a text


def _load_table() -> tuple[int, int, dict[str, int]]:
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "badge_widths.json"), encoding="utf-8") as handle:
        table = json.load(handle)
    return table["units_per_em"], table["fallback"], {chr(int(code, 16)): width for code, width in table["advances"].items()}


UNITS_PER_EM, UNMEASURED_ADVANCE, _MEASURED = _load_table()


class _Advances(dict):
    """Each character's advance in the font's units: the measured ones, and for any other a rule
    (``advance``), worked out once a character."""

    def __missing__(self, char: str) -> int:
        width = self[char] = advance(char)
        return width


def advance(char: str) -> int:
    """A character's advance in font units: measured, or as wide as the em for a wide East Asian
    character, none for a combining mark, and as wide as the table's fallback (an M) otherwise."""
    if char in _MEASURED:
        return _MEASURED[char]
    if unicodedata.combining(char):
        return 0
    return UNITS_PER_EM if unicodedata.east_asian_width(char) in ("W", "F") else UNMEASURED_ADVANCE


_ADVANCES = _Advances(_MEASURED)


def text_width(text: str) -> int:
    """The width of ``text`` at the badge's font size, in tenths of a pixel (rounded half up)."""
    units = sum(map(_ADVANCES.__getitem__, text))
    return (units * STYLE.font_size * 20 + UNITS_PER_EM) // (2 * UNITS_PER_EM)


# What a badge shows as U+FFFD: what XML 1.0 cannot hold (formatting.NOT_XML), and, a badge being one
# line of text, the controls XML can: tab, line feed and carriage return, DEL and the C1 controls.
_NOT_SHOWN = re.compile(f"[{NOT_XML}\t\n\r\x7f-\x9f]")


def xml_text(text: str) -> str:
    """``text`` with every character XML 1.0 cannot hold (and every other control character, a
    badge being one line) replaced by U+FFFD."""
    return text if text.isprintable() else _NOT_SHOWN.sub("\ufffd", text)


class Badge(NamedTuple):
    """One badge: its texts (as text: a template escapes them), its layout (whole pixels for the
    boxes, tenths of a pixel for the texts' centres and lengths, written as decimals), its words,
    and what a report page's snippets say of it."""

    path: str  # where it is written, relative to the site (also its URL: only URL-safe characters)
    label: str
    value: str
    title: str  # the badge in words: its <title> (whose role is an image's), and the report page's alt text
    width: int
    label_box: int
    value_box: int
    label_x: str
    value_x: str
    label_length: str
    value_length: str
    # The model's name and the suite's, as a report page's snippets write them in a model card's alt
    # text ("PHI leakage of <model> on <suite>", figures aside: they follow each release), for
    # copying: with Markdown's backslashes and brackets escaped; escaped for an HTML attribute (the
    # page escapes each once more, as it escapes any text). The page isolates each (<bdi>).
    model_markdown: str
    suite_markdown: str
    model_attribute: str
    suite_attribute: str
    # Where its figures come from: the report page of the row it shows, relative to the site, which a
    # report page's snippets link (the row of another release than the page's, maybe).
    source: str = ""


def _tenths(value: int) -> str:
    return f"{value // 10}.{value % 10}"


_MARKDOWN_SPECIAL = ("\\", "[", "]")


def _markdown_alt(text: str) -> str:
    """``text`` as the alt text of a Markdown image: its backslashes and brackets escaped."""
    if any(char in text for char in _MARKDOWN_SPECIAL):
        for char in _MARKDOWN_SPECIAL:
            text = text.replace(char, "\\" + char)
    return text


@lru_cache(maxsize=1024)
def _label(suite_shown: str) -> tuple[str, int, int]:
    """A suite's label, the same on each of its badges: its text, the text's width (tenths of a
    pixel), and its box (whole pixels)."""
    label = LABEL + SEPARATOR + suite_shown
    length = text_width(label)
    return label, length, -(-length // 10) + 2 * STYLE.padding


def badge_of(path: str, suite: str, model_name: str, leakage: float, rank: int, suite_rows: int, release_tag: str,
             rank_range: str | None = None, absent_from: str | None = None, source: str = "") -> Badge:
    """The badge at ``path`` of ``model_name`` in ``suite``: its row's ``leakage``, ``rank`` in the
    suite of ``suite_rows`` rows, and ``release_tag``. ``rank_range`` (such as ``1–4``), when a
    build knows how sure the rank is, stands beside the rank: ``#2 (1–4) of 7``. ``absent_from``:
    the release the model is no longer in, which the badge says first (``not in v3.2.0 · 0.34% · #2
    of 7 · v3.1.0``), the figures being those of its last release, ``release_tag``. ``source``: the
    report page of the row it shows (``Badge.source``). Characters XML cannot hold are shown as
    U+FFFD (``xml_text``)."""
    suite_shown, tag_shown, model = xml_text(suite), xml_text(release_tag), xml_text(model_name)
    shown = percent(leakage)
    ranked = f"{rank} ({rank_range})" if rank_range else str(rank)
    label, label_length, label_box = _label(suite_shown)
    value = f"{shown}%{SEPARATOR}#{ranked} of {suite_rows}{SEPARATOR}{tag_shown}"
    # The title (what a reader's tooltip and a screen reader say) isolates each archive value from the
    # words and figures around it (formatting.isolate); the drawn texts are measured as they are.
    model_words, suite_words, tag_words = isolate(model), isolate(suite_shown), isolate(tag_shown)
    title = (f"{model_words} on {suite_words}: leaks {shown}% of protected text (PHI leakage), rank {ranked} "
             f"of {suite_rows} in the suite, release {tag_words}")
    if absent_from is not None:
        absent_shown = xml_text(absent_from)
        value = f"not in {absent_shown}{SEPARATOR}{value}"
        title = (f"{model_words} on {suite_words}: not in release {isolate(absent_shown)}; in its last release, "
                 f"{tag_words}, it leaked {shown}% of protected text (PHI leakage), rank {ranked} of {suite_rows} in "
                 "the suite")
    value_length = text_width(value)
    value_box = -(-value_length // 10) + 2 * STYLE.padding
    return Badge(path, label, value, title, label_box + value_box, label_box, value_box, _tenths(label_box * 5),
                 _tenths(label_box * 10 + value_box * 5), _tenths(label_length), _tenths(value_length),
                 _markdown_alt(model), _markdown_alt(suite_shown), _attribute_text(model),
                 _attribute_text(suite_shown), source)


def badge_svg(template: Any, badge: Badge) -> bytes:
    """A badge's SVG: ``template`` (the theme's badge.svg) rendered with the style every badge shares
    and the badge's fields, by the build and by the pages branch's root alike."""
    return template.render({**_STYLE_FIELDS, **badge._asdict()}).encode("utf-8")


_STYLE_FIELDS = STYLE._asdict()


def _attribute_text(text: str) -> str:
    """``text`` escaped for an HTML attribute value, as a snippet to copy writes it."""
    return str(escape(text))


def badge_rows(rows: Sequence[Any], suite_of: Sequence[int]) -> array:
    """For each row (in ranking order), the index of its suite and model's badge row: the first
    (best) of the model's rows in that suite whose release tag is the newest it has there (in
    version order, then by the tag's text). What it keeps meanwhile is a dict a suite from the
    model's name (the row's own text) to an index: a few bytes a row."""
    orders: dict[str, tuple[Any, str]] = {}

    def order(tag: str) -> tuple[Any, str]:
        found = orders.get(tag)
        if found is None:
            found = orders[tag] = version_order(tag)
        return found

    best: dict[int, dict[str, int]] = {}
    for index, row in enumerate(rows):
        models = best.get(suite_of[index])
        if models is None:
            models = best[suite_of[index]] = {}
        found = models.setdefault(row.model_name, index)
        if found != index and order(row.release_tag) > order(rows[found].release_tag):
            models[row.model_name] = index
    return array("q", (best[suite_of[index]][row.model_name] for index, row in enumerate(rows)))


# -- Where a badge is written --------------------------------------------------------------------


def absent_badge(path: str, document: dict[str, Any], uncertainty: dict[str, Any] | None,
                 absent_from: str) -> Badge | None:
    """The badge at ``path`` as the leaderboard ``document`` (a parsed ``leaderboard.json``, with its
    ``uncertainty.json`` when it has one) showed it, saying it is not in the release ``absent_from``:
    what the pages branch's root keeps at the address of a model a later release dropped, so that a
    model card embedding it still shows an image, and says why its figures stopped. None when that
    leaderboard has no badge at ``path``. Its suites' anchors, rows and ranks are the leaderboard's,
    as the build that wrote it made them (``suite_anchors``, ``badge_rows``)."""
    names = [suite["name"] for suite in document["suites"]]
    anchors = suite_anchors(names)
    position = {name: number for number, name in enumerate(names)}
    rows = [SimpleNamespace(**row) for row in document["rows"]]
    suite_of = [position[row.suite] for row in rows]
    chosen = badge_rows(rows, suite_of)
    for index, row in enumerate(rows):
        if chosen[index] != index or badge_path(anchors[suite_of[index]], row.model_name) != path:
            continue
        in_suite = [other for other in range(len(rows)) if suite_of[other] == suite_of[index]]
        sure = (uncertainty or {}).get("rows", {}).get(row.report_path)
        rank_range = f"{sure['suite_rank_best']}–{sure['suite_rank_worst']}" if sure else None
        return badge_of(path, row.suite, row.model_name, row.leakage, in_suite.index(index) + 1, len(in_suite),
                        row.release_tag, rank_range, absent_from, report_page_url(row.report_path))
    return None
