"""An included template's text, rendered once for all the pages that would render it the same.

Every page includes the site's head, header and footer (``base.html``); most of the pages of a build
give them the same values. Jinja's own reading of a template's source (``jinja2.meta``) says which
names it looks up, through every template it includes: its output is a function of those values
alone, unless a filter, test or function it calls is given the whole context. So before any page is
rendered, such a template is wrapped: at each include, the values of its names are looked up; when
each is plain data (text, a number, None) or the very object every page shares (the site's context,
the environment's globals), the text rendered for the same values is reused, and otherwise, or for a
template whose names cannot all be known, it is rendered as usual. Nothing is decided by rendering
sample pages; an override of any of these templates gets the same guarantee."""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from jinja2 import Environment, meta, nodes
from jinja2.utils import _PassArg, missing
from markupsafe import Markup

# The texts kept for one template: distinct sets of values beyond this (a template that prints the
# page's own path, say) stop the reuse for that template, so that memory stays bounded.
MOST_KEPT = 64
_PLAIN = (str, Markup, int, float, bool, type(None))


def reuse_where_sound(environment: Environment, names: tuple[str, ...], shared: Mapping[str, Any]) -> None:
    """Wrap each template of ``names`` (when its source allows it) so that it is rendered once for
    each set of values of the names it reads; ``shared`` is the context every page is rendered in."""
    for name in names:
        template = environment.get_template(name)
        read = names_read(environment, name)
        if read is not None and not hasattr(template.root_render_func, "reused"):
            template.root_render_func = _reusing(template.root_render_func, tuple(sorted(read)), environment, shared)


def names_read(environment: Environment, name: str, seen: frozenset[str] = frozenset()) -> set[str] | None:
    """The names the template ``name`` and every template it includes or imports look up in the
    context; None when that cannot be known from the source (a template named by a variable) or
    when it calls a filter or test that is given the context."""
    source = environment.loader.get_source(environment, name)[0]
    tree = environment.parse(source)
    for node in tree.find_all((nodes.Filter, nodes.Test)):
        table = environment.filters if isinstance(node, nodes.Filter) else environment.tests
        function = table.get(node.name)
        if function is None or getattr(function, "jinja_pass_arg", None) in (_PassArg.context, _PassArg.eval_context):
            return None
    found = set(meta.find_undeclared_variables(tree))
    for included in meta.find_referenced_templates(tree):
        if included is None:
            return None
        if included not in seen:
            inner = names_read(environment, included, seen | {name})
            if inner is None:
                return None
            found |= inner
    return found


def _reusing(render: Any, read: tuple[str, ...], environment: Environment, shared: Mapping[str, Any]) -> Any:
    kept: dict[tuple[Any, ...], list[str]] = {}
    stopped = False

    def reused(context: Any) -> Iterator[str]:
        nonlocal stopped
        key = None if stopped else _key(context, read, environment, shared)
        if key is None:
            yield from render(context)
            return
        pieces = kept.get(key)
        if pieces is None:
            if len(kept) >= MOST_KEPT:
                kept.clear()
                stopped = True
                yield from render(context)
                return
            pieces = kept[key] = list(render(context))
        yield from pieces

    reused.reused = True
    return reused


def _key(context: Any, read: tuple[str, ...], environment: Environment, shared: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """The values of ``read`` in ``context`` as a key, or None when one of them is neither plain
    data nor an object every page shares, or is a function given the context."""
    key: list[Any] = []
    for name in read:
        value = context.resolve_or_missing(name)
        if value is missing:
            key.append((name, None))
        elif type(value) in _PLAIN:
            key.append((name, type(value), value))
        elif value is shared.get(name, missing) or value is environment.globals.get(name, missing):
            if getattr(value, "jinja_pass_arg", None) is not None:
                return None
            key.append((name, id(value)))
        else:
            return None
    return tuple(key)

