"""An included template is rendered once for the pages that give it the same values, and only where
its own source shows that this is sound: every page still gets exactly what Jinja would render."""

from __future__ import annotations

import jinja2
import pytest

from benchmark_leaderboard.present.included import MOST_KEPT, names_read, reuse_where_sound

PAGE = '{% extends "base.html" %}'
BASE = '<head>{% include "chrome.html" %}</head>'


class Counted:
    """A page-specific object (as a page object is): not shared by the pages."""

    def __init__(self, name: str) -> None:
        self.name = name


def environment(chrome: str, **more: str) -> jinja2.Environment:
    templates = {"page.html": PAGE, "base.html": BASE, "chrome.html": chrome, **more}
    env = jinja2.Environment(loader=jinja2.DictLoader(templates), autoescape=True)
    env.filters["who"] = jinja2.pass_context(lambda context, value: context.get("output_file"))
    return env


def renders(env: jinja2.Environment, shared: dict, pages: list[dict]) -> tuple[list[str], int]:
    """Each page rendered with ``shared`` as the site's context, and how often chrome.html ran."""
    chrome = env.get_template("chrome.html")
    original = chrome.root_render_func
    count = 0

    def counting(context):
        nonlocal count
        count += 1
        yield from original(context)

    chrome.root_render_func = counting
    reuse_where_sound(env, ("chrome.html",), shared)
    template = env.get_template("page.html")
    texts = []
    for variables in pages:
        context = template.new_context(shared, shared=True)
        context.vars.update(variables)
        texts.append(env.concat(template.root_render_func(context)))
    return texts, count


def plain(env: jinja2.Environment, shared: dict, pages: list[dict]) -> list[str]:
    return [env.get_template("page.html").render({**shared, **variables}) for variables in pages]


def test_a_chrome_that_reads_only_what_pages_share_is_rendered_once_per_set_of_values():
    env = environment("<title>{{ SITENAME }}</title><a href='{{ SITEURL }}/x'>{% for l in nav %}{{ l }}{% endfor %}</a>")
    shared = {"SITENAME": "A & B", "nav": ["p", "q"]}
    pages = [{"SITEURL": ".", "output_file": f"a{i}.html"} for i in range(50)]
    pages += [{"SITEURL": "..", "output_file": f"d/b{i}.html"} for i in range(50)]
    texts, count = renders(env, shared, pages)
    assert texts == plain(environment(env.loader.mapping["chrome.html"]), shared, pages)
    assert count == 2  # one text for "." and one for ".."


def test_a_chrome_that_reads_a_page_specific_value_is_rendered_for_every_page():
    env = environment("<meta content='{{ output_file }}'><b>{{ page.name }}</b>")
    pages = [{"output_file": f"a{i}.html", "page": Counted(f"p{i}")} for i in range(10)]
    texts, count = renders(env, {}, pages)
    assert texts == [f"<head><meta content='a{i}.html'><b>p{i}</b></head>" for i in range(10)]
    assert count == 10


def test_a_filter_given_the_context_or_a_template_named_at_run_time_is_never_reused():
    env = environment("{{ 'x'|who }}")
    assert names_read(env, "chrome.html") is None
    pages = [{"output_file": f"a{i}.html"} for i in range(5)]
    texts, count = renders(env, {}, pages)
    assert texts == [f"<head>a{i}.html</head>" for i in range(5)] and count == 5
    dynamic = environment("{% include which %}", **{"one.html": "1", "two.html": "2"})
    assert names_read(dynamic, "chrome.html") is None
    texts, _ = renders(dynamic, {}, [{"which": "one.html"}, {"which": "two.html"}])
    assert texts == ["<head>1</head>", "<head>2</head>"]


def test_what_an_included_template_includes_counts_among_the_names_it_reads():
    env = environment('<i>{{ SITENAME }}</i>{% include "inner.html" %}', **{"inner.html": "{{ output_file }}"})
    assert names_read(env, "chrome.html") == {"SITENAME", "output_file"}
    pages = [{"output_file": f"a{i}.html"} for i in range(3)]
    texts, count = renders(env, {"SITENAME": "S"}, pages)
    assert texts == [f"<head><i>S</i>a{i}.html</head>" for i in range(3)] and count == 3


def test_values_equal_in_python_but_printed_differently_are_not_confused():
    env = environment("{{ flag }}")
    pages = [{"flag": 1}, {"flag": True}, {"flag": 1.0}, {"flag": "1"}]
    texts, count = renders(env, {}, pages)
    assert texts == ["<head>1</head>", "<head>True</head>", "<head>1.0</head>", "<head>1</head>"] and count == 4


@pytest.mark.parametrize("extra", [1, 40])
def test_past_the_most_texts_kept_every_page_is_still_right(extra):
    env = environment("{{ SITEURL }}")
    pages = [{"SITEURL": f"v{i % (MOST_KEPT + extra)}"} for i in range(3 * (MOST_KEPT + extra))]
    texts, count = renders(env, {}, pages)
    assert texts == [f"<head>{page['SITEURL']}</head>" for page in pages]
    assert MOST_KEPT < count <= len(pages)
