"""Templates rendered once a shape and filled for every page: a report page and the rows of its
tables.

An archive's report pages share their markup: what differs from page to page is the report's
values and a few choices the page makes (thin evidence or not, a history or not, how sure its rank
is...). So a report page is rendered by its Jinja template once for each combination of those
choices that occurs (its *shape*), with a placeholder where each value goes, and every page of that
shape is then the shape's text with its own values in place of the placeholders. A row of a table
(a metric, a published field, a model attribute) is likewise its macro's text rendered once for its
fixed parts (the metric's name) with a placeholder for its value. All markup stays in the templates.

Every value goes through ``made`` where it is put in place, as it does in the template: what the
plugin made (escaped once, where it was made) as it is, anything else escaped. A placeholder is text
no escaped value holds (it starts with "<", which escaping always writes "&lt;").

What may choose a page's shape is declared: a template may branch only on the names a page's
values call its choices (``ReportDetails.CHOICES``); everything else it prints is a value. The first
page of every shape is also rendered by the template itself, and the two must be the same bytes:
a template that branches on a value instead stops the build, saying where."""

from __future__ import annotations

import math
import re
from operator import attrgetter, itemgetter
from typing import Any, Callable, Mapping

from markupsafe import Markup, escape

from .problems import BuildFailed

_PLACEHOLDER = re.compile(r"<leaderboard-value (\d+)>")
# Shapes kept at most: a page's choices are few, a table's rows as many as the archive's metric names.
_MOST_SHAPES = 1 << 14


def made(value: Any) -> Any:
    """The ``made`` filter, for a template's ``{% autoescape false %}`` spans: a ``Markup`` (a value
    the plugin made, safe by construction) as it is, an int or a finite float as its digits (what
    escaping would print), anything else escaped."""
    kind = type(value)
    if kind is Markup:
        return value
    if kind is int:
        return int.__repr__(value)
    if kind is float and math.isfinite(value):
        return float.__repr__(value)
    return escape(value)


def placeholder(number: int) -> Markup:
    return Markup(f"<leaderboard-value {number}>")


def _filled(pieces: list[str], values: list[Any]) -> str:
    """``pieces`` with each of ``values`` (one fewer) between two of them, through ``made``."""
    out: list[Any] = [None] * (2 * len(pieces) - 1)
    out[0::2] = pieces
    out[1::2] = [value if type(value) is Markup else made(value) for value in values]
    return "".join(out)


class RowShapes:
    """The rows of a page's tables and lists: a table of rows of one kind (a macro of the theme's
    ``report_parts.html``, given a row's fixed parts, then placeholders for its values, which it must
    print once each, in that order) is rendered once for each list of fixed parts that occurs (the
    metrics' names of a report, say) and kept as the pieces between its values; a table is then its
    pieces with its values between them."""

    def __init__(self, macros: Any) -> None:
        self._macros = macros
        self._shapes: dict[tuple[Any, ...], list[str]] = {}

    def table(self, kind: str, fixed: tuple[Any, ...], values: list[Any], each: int = 1) -> Markup:
        """The rows of the macro ``kind``: row ``n`` for ``fixed[n]`` (the macro's first arguments, a
        tuple, or its first argument) and the next ``each`` of ``values``."""
        key = (kind, each, fixed)
        pieces = self._shapes.get(key)
        if pieces is None:
            if len(self._shapes) >= _MOST_SHAPES:
                self._shapes.clear()
            pieces = self._shapes[key] = self._shape(kind, fixed, each)
        return Markup(_filled(pieces, values))

    def row(self, kind: str, fixed: tuple[Any, ...], *values: Any) -> Markup:
        """One row of the macro ``kind`` for ``fixed`` (its first arguments) and ``values``."""
        return self.table(kind, (fixed,), list(values), len(values))

    def _shape(self, kind: str, fixed: tuple[Any, ...], each: int) -> list[str]:
        macro, slots = getattr(self._macros, kind), [placeholder(number) for number in range(each)]
        pieces = [""]
        for arguments in fixed:
            split = _PLACEHOLDER.split(str(macro(*arguments, *slots) if isinstance(arguments, tuple)
                                           else macro(arguments, *slots)))
            if split[1::2] != [str(number) for number in range(each)]:
                raise BuildFailed(f"the row macro {kind} of the report page's template must print each of its values "
                                  "once, in order")
            pieces[-1] += split[0]
            pieces += split[2::2]
        return pieces


class _Namespace:
    """What a shape's template sees of one of a page's variables (``path`` names it, and the
    attributes that led to it): its choices as they are, a placeholder for each value, numbered in
    the order the template first prints it (``refs``: where each is), and a namespace of its own
    for an object of values within it (a named tuple, such as a report's escaped text)."""

    def __init__(self, path: tuple[str, ...], source: Any, choices: frozenset[str], refs: list[tuple[str, ...]]) -> None:
        self._path, self._source, self._choices, self._refs = path, source, choices, refs

    def __getattr__(self, attribute: str) -> Any:
        real = getattr(self._source, attribute)  # an attribute the object lacks fails here, as in the template
        if attribute in self._choices:
            return real
        path = (*self._path, attribute)
        if isinstance(real, tuple) and hasattr(real, "_fields"):
            return _Namespace(path, real, self._choices, self._refs)
        return _numbered(self._refs, path)

    def __bool__(self) -> bool:
        return True


def _numbered(refs: list[tuple[str, ...]], path: tuple[str, ...]) -> Markup:
    if path not in refs:
        refs.append(path)
    return placeholder(refs.index(path))


class _Shape:
    """A page's shape: the pieces of its text between its values, and how to read the values in
    their order: from each variable, the attributes its placeholders stand for (dotted), read at
    once; from the single values, theirs."""

    def __init__(self, text: str, refs: list[tuple[str, ...]]) -> None:
        split = _PLACEHOLDER.split(text)  # piece, number, piece, number, ..., piece
        self.pieces = split[0::2]
        groups: dict[str, list[int]] = {}
        for number, path in enumerate(refs):
            groups.setdefault(path[0], []).append(number)
        self.readers: list[tuple[str, Callable[[Any], tuple[Any, ...]] | None]] = []
        read: list[int] = []  # the ref each value read stands for, in reading order
        for root, numbers in groups.items():
            attributes = [".".join(refs[number][1:]) for number in numbers]
            if attributes[0]:  # a variable's attributes (a single value has none)
                get = attrgetter(*attributes, *attributes) if len(attributes) == 1 else attrgetter(*attributes)
                self.readers.append((root, get))
                read += numbers + (numbers if len(numbers) == 1 else [])
            else:
                self.readers.append((root, None))
                read += numbers
        position = {}
        for at, number in enumerate(read):
            position.setdefault(number, at)
        order = [position[int(number)] for number in split[1::2]]
        self.order = itemgetter(*order, *order) if len(order) == 1 else itemgetter(*order) if order else None
        self.single = len(order) == 1
        self.checked = False

    def text(self, namespaces: Mapping[str, Any], values: Mapping[str, Any]) -> str:
        found: list[Any] = []
        for root, get in self.readers:
            if get is None:
                found.append(values[root])
            else:
                found += get(namespaces[root])
        if self.order is None:
            return self.pieces[0]
        ordered = self.order(found)
        return _filled(self.pieces, ordered[:1] if self.single else ordered)


class PageShapes:
    """A template's pages by shape. ``page`` gives a page's text from its variables: a mapping of
    names to the objects the template reads (``namespaces``: their values by attribute, their
    choices as they are) and to single values (``values``); ``choices`` names the attributes that
    choose the shape (their values, in order, are its key); ``name`` says what the pages are.
    ``render`` renders the template itself
    for the same variables (with ``placeholders``, a shape's text), for the shape and its check."""

    def __init__(self, render: Callable[[Mapping[str, Any]], str], choices: tuple[str, ...], choosing: str,
                 name: str) -> None:
        self._render = render
        self._name = name  # what the pages are, for a refusal
        self._choices = frozenset(choices)
        self._choice_names = choices
        self._choosing = choosing  # the variable whose choices key the shape
        self._shapes: dict[tuple[Any, ...], _Shape] = {}

    def page(self, namespaces: Mapping[str, Any], values: Mapping[str, Any]) -> str:
        chooser = namespaces[self._choosing]
        key = tuple([getattr(chooser, name) for name in self._choice_names])
        shape = self._shapes.get(key)
        if shape is None:
            if len(self._shapes) >= _MOST_SHAPES:
                self._shapes.clear()
            refs: list[tuple[str, ...]] = []
            variables: dict[str, Any] = {name: _Namespace((name,), source, self._choices, refs)
                                         for name, source in namespaces.items()}
            variables.update({name: _numbered(refs, (name,)) for name in values})
            shape = self._shapes[key] = _Shape(self._render(variables), refs)
        text = shape.text(namespaces, values)
        if not shape.checked:
            rendered = self._render({**namespaces, **values})
            if rendered != text:
                at = next((n for n, (a, b) in enumerate(zip(rendered, text)) if a != b), min(len(rendered), len(text)))
                raise BuildFailed(f"the {self._name}'s template branches on something that is not one of its declared "
                                  f"choices: its page differs from its shape's at character {at} "
                                  f"({rendered[max(0, at - 40):at + 40]!r})")
            shape.checked = True
        return text
