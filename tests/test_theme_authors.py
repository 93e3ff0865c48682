"""Ordinary Pelican for theme and plugin authors: an override of any template, in plain Jinja, gives
every page its own output whatever the number of workers; a plugin sees every page object as
itself, found the documented way; and nothing another writer writes is overwritten."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest

from conftest import ROOT, SETTINGS
from core_support import tree_digest
from leaderboard_tools.runner import build

PELICAN = str(Path(sys.executable).parent / "pelican")
BUNDLED = ROOT / "content" / "benchmarks"
MANIFEST = ROOT / "models.jsonl"

# What the theme author adds to a copy of report.html: filters, a comparison on a number, a branch
# on a value, the page object, and a mark another plugin set on the page.
REPORT_ADDITIONS = """{% block content %}
<p class="t-upper">{{ row.model_name|upper }}</p>
<p class="t-replace">{{ row.model_name|replace("OpenMed/", "") }}</p>
<p class="t-truncate">{{ row.model_name|truncate(30) }}</p>
{% if report.fixture_count > 10 %}<p class="t-many">MANY</p>{% endif %}
{% if row.device == "coreml" %}<p class="t-coreml">MARKED</p>{% endif %}
<p class="t-title">{{ page.title }}</p>
<p class="t-date">{{ page.date.year }}</p>
{% if page.mlx_mark %}<p class="t-mlx">MLX</p>{% endif %}
{% macro shout(text) %}{{ text|upper }}!{% endmacro %}<p class="t-macro">{{ shout(row.device) }}</p>
{% include "t_part.html" %}
<p class="t-range">{% for i in range(3) %}{{ i }}{% endfor %}</p>
{% set ns = namespace(count=0) %}{% for leaf in report.metrics %}{% set ns.count = ns.count + 1 %}{% endfor %}
<p class="t-namespace">{{ ns.count }} of {{ report.metrics|length }}</p>
<p class="t-global">{{ site_motto }}</p>
<p class="t-lipsum">{{ lipsum is defined }}</p>
"""
# What the site's settings give every template (Pelican's JINJA_GLOBALS), which the override prints.
GLOBALS = {"site_motto": "Less leakage, more recall"}
# A template of the author's own that the override includes: it sees the page's variables.
PART = '<p class="t-include">{{ row.report_path }} {{ page.save_as }}</p>\n'

HEAD_ADDITION = '<meta name="t-output" content="{{ output_file }}">\n'

# A plugin as plugin authors write them: it marks a page in content_object_init from the page's
# own metadata, and records, the documented way, every page object the leaderboard made (the
# context's leaderboard_pages, once every generator has read its content) and every page written.
PLUGIN = '''
import json
from pelican import signals

seen = {"init": [], "pages": [], "written": []}


def reset(pelican):
    for found in seen.values():
        found.clear()


def mark(page):
    model = getattr(page, "model_name", None)
    if model is not None:
        seen["init"].append(page.save_as)
        if model.endswith("-mlx"):
            page.mlx_mark = True


def read_pages(generators):
    context = generators[0].context
    seen["pages"] = [(page.save_as, type(page).__name__, str(page.date)) for page in context["leaderboard_pages"]]


def written(path, context):
    page = context.get("page")
    if page is not None and getattr(page, "model_name", None) is not None:
        seen["written"].append((context["output_file"], page.save_as, bool(getattr(page, "mlx_mark", False))))


def register():
    signals.initialized.connect(reset)
    signals.content_object_init.connect(mark)
    signals.all_generators_finalized.connect(read_pages)
    signals.content_written.connect(written)
'''


@pytest.fixture(scope="module", autouse=True)
def plugin_let_go():
    """Pelican connects a plugin's receivers for the life of the process: once this module's builds
    are done, the test plugin's are disconnected, so that a later build in the same test process
    (whose page digests count page objects only where content_object_init has receivers) runs
    without it, as a build of its own settings would."""
    yield
    from pelican import signals

    plugin = sys.modules.pop("mark_mlx", None)
    if plugin is not None:
        for signal, receiver in ((signals.initialized, plugin.reset), (signals.content_object_init, plugin.mark),
                                 (signals.all_generators_finalized, plugin.read_pages),
                                 (signals.content_written, plugin.written)):
            signal.disconnect(receiver)


def override_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "overrides"
    folder.mkdir()
    report = (ROOT / "theme" / "templates" / "report.html").read_text(encoding="utf-8")
    assert report.count("{% block content %}\n") == 1
    (folder / "report.html").write_text(report.replace("{% block content %}\n", REPORT_ADDITIONS), encoding="utf-8")
    (folder / "t_part.html").write_text(PART, encoding="utf-8")
    head = (ROOT / "theme" / "templates" / "site_head.html").read_text(encoding="utf-8")
    (folder / "site_head.html").write_text(head + HEAD_ADDITION, encoding="utf-8")
    return folder


def plugin_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "mark_mlx.py").write_text(PLUGIN, encoding="utf-8")
    return folder


def render(output: Path, overrides: Path, plugins: Path, workers: int) -> None:
    build(SETTINGS, str(output), str(BUNDLED), str(MANIFEST), "v3.1.0",
          extra={"THEME_TEMPLATES_OVERRIDES": [str(overrides)], "LEADERBOARD_WORKERS": workers, "JINJA_GLOBALS": GLOBALS,
                 "PLUGIN_PATHS": [str(ROOT / "plugins"), str(plugins)],
                 "PLUGINS": ["benchmark_leaderboard", "sitemap", "mark_mlx"]}, progress=lambda line: None)


def texts(page: str, name: str) -> list[str]:
    return [html.unescape(text) for text in re.findall(rf'<p class="{name}">(.*?)</p>', page)]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("authors")
    overrides, plugins = override_folder(tmp_path), plugin_folder(tmp_path)
    sites, seen = {}, {}
    for workers in (1, 2):
        sites[workers] = tmp_path / f"site-{workers}"
        render(sites[workers], overrides, plugins, workers)
        plugin = sys.modules["mark_mlx"]
        seen[workers] = {key: list(value) for key, value in plugin.seen.items()}
    return sites, seen


def test_an_override_in_plain_jinja_gives_every_report_page_its_own_values(rendered):
    sites, _ = rendered
    site = sites[2]
    rows = json.loads((site / "leaderboard.json").read_text(encoding="utf-8"))["rows"]
    truncate = jinja2.Environment().from_string("{{ name|truncate(30) }}")
    many, coreml = 0, 0
    for row in rows:
        save_as = "report/" + row["report_path"][: -len(".json")] + ".html"
        page = (site / save_as).read_text(encoding="utf-8")
        copy = json.loads((site / "reports" / row["report_path"]).read_text(encoding="utf-8"))
        name = row["model_name"]
        assert texts(page, "t-upper") == [name.upper()]
        assert texts(page, "t-replace") == [name.replace("OpenMed/", "")]
        assert texts(page, "t-truncate") == [truncate.render(name=name)]
        assert texts(page, "t-many") == (["MANY"] if copy["fixture_count"] > 10 else [])
        assert texts(page, "t-coreml") == (["MARKED"] if row["device"] == "coreml" else [])
        assert texts(page, "t-title") == [name]
        assert texts(page, "t-date") == [row["run_date"][:4]]
        assert texts(page, "t-macro") == [row["device"].upper() + "!"]
        assert texts(page, "t-include") == [f"{row['report_path']} {save_as}"]
        assert re.findall(r'<meta name="t-output" content="([^"]*)">', page) == [save_as]
        # Jinja's globals (range, namespace, lipsum) and the site's JINJA_GLOBALS, as on any page Pelican renders.
        assert texts(page, "t-range") == ["012"]
        [counted] = texts(page, "t-namespace")
        assert re.fullmatch(r"([1-9][0-9]*) of \1", counted), counted
        assert texts(page, "t-global") == [GLOBALS["site_motto"]]
        assert texts(page, "t-lipsum") == ["True"]
        many += copy["fixture_count"] > 10
        coreml += row["device"] == "coreml"
    # Both sides of each branch occur in the bundled archive, so each assertion above can fail.
    assert 0 < many < len(rows) and 0 < coreml < len(rows)
    assert "<p class=\"t-coreml\">MARKED</p>" in (site / "report/discharge-summaries/micro-keys.report.html").read_text()


def test_every_other_page_gets_its_own_output_file_in_an_overridden_head(rendered):
    sites, _ = rendered
    site = sites[1]
    for relative in ("index.html", "compare.html", "ranking.html", "suite/suite-golden/index.html"):
        page = (site / relative).read_text(encoding="utf-8")
        assert re.findall(r'<meta name="t-output" content="([^"]*)">', page) == [relative], relative


def test_one_worker_and_two_write_the_same_bytes_with_an_override(rendered):
    sites, _ = rendered
    assert tree_digest(sites[1]) == tree_digest(sites[2])


def test_a_plugin_marks_each_page_from_its_own_metadata_and_only_that_page(rendered):
    sites, seen = rendered
    rows = json.loads((sites[1] / "leaderboard.json").read_text(encoding="utf-8"))["rows"]
    mlx = {"report/" + row["report_path"][: -len(".json")] + ".html" for row in rows if row["model_name"].endswith("-mlx")}
    assert len(mlx) == 2
    # A model's page has its model_name too (the model's): the plugin marks those of the -mlx models.
    models = {f"model/{row['model_name']}.html" for row in rows}
    mlx_models = {f"model/{row['model_name']}.html" for row in rows if row["model_name"].endswith("-mlx")}
    assert len(mlx_models) == 2
    for workers in (1, 2):
        site = sites[workers]
        marked = {path.relative_to(site).as_posix() for path in (site / "report").rglob("*.html")
                  if '<p class="t-mlx">MLX</p>' in path.read_text(encoding="utf-8")}
        assert marked == mlx
        # content_object_init saw every report page and every model's page once, as itself;
        # content_written carried each page object for its own file, with its own mark.
        assert sorted(seen[workers]["init"]) == sorted({"report/" + row["report_path"][:-5] + ".html" for row in rows} | models)
        written = seen[workers]["written"]
        assert sorted(output for output, _, _ in written) == sorted(seen[workers]["init"])
        assert all(output == save_as for output, save_as, _ in written)
        assert {output for output, _, mark in written if mark} == mlx | mlx_models


def test_a_plugin_finds_every_page_object_in_the_context_once_generators_are_finalized(rendered):
    sites, seen = rendered
    pages = seen[1]["pages"]
    site = sites[1]
    html_files = sorted(path.relative_to(site).as_posix() for path in site.rglob("*.html"))
    markdown = {"adding-reports.html", "ranking.html", "refresh.html", "schema.html"}
    assert sorted(save_as for save_as, _, _ in pages) == [path for path in html_files if path not in markdown]
    kinds = {kind for _, kind, _ in pages}
    assert kinds == {"BoardPage", "ReportPage", "ModelPage"}
    golden = next(date for save_as, _, date in pages if save_as == "report/golden.report.html")
    assert golden.startswith("2026-")  # dated by the report's run date, not the clock


def pelican_content(output: Path, *settings: str) -> subprocess.CompletedProcess:
    return subprocess.run([PELICAN, "content", "-s", SETTINGS, "-o", str(output), "-e", 'LEADERBOARD_RELEASE_TAG="v3.1.0"',
                           *settings], cwd=ROOT, capture_output=True, encoding="utf-8", timeout=120)


def test_pelicans_own_index_stops_the_build_in_one_line_and_the_earlier_render_stays(tmp_path):
    site = tmp_path / "site"
    assert pelican_content(site).returncode == 0
    before = tree_digest(site)

    result = pelican_content(site, 'DIRECT_TEMPLATES=["index"]')

    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "build failed: index.html is written both by Pelican's direct template index (DIRECT_TEMPLATES, "
        "INDEX_SAVE_AS) and by the leaderboard (its index, LEADERBOARD_INDEX_SAVE_AS); give one of them another path"]
    assert tree_digest(site) == before


def test_a_static_file_at_a_leaderboard_path_stops_the_build_before_it_writes(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "pages", content / "pages")
    (content / "leaderboard.json").write_text("{}\n", encoding="utf-8")
    site = tmp_path / "site"

    result = pelican_content(site, f'PATH="{content}"', f'LEADERBOARD_REPORTS_DIR="{BUNDLED}"',
                             f'LEADERBOARD_MANIFEST="{MANIFEST}"', 'STATIC_PATHS=["leaderboard.json"]')

    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "build failed: leaderboard.json is written both by the static file leaderboard.json (STATIC_PATHS) and by the "
        "leaderboard (its file leaderboard.json); give one of them another path"]
    assert not (site / "index.html").exists() and not (site / "report").exists()


def test_a_site_with_pelicans_index_puts_the_leaderboard_at_a_path_of_its_own(tmp_path):
    site = tmp_path / "site"
    result = pelican_content(site, 'DIRECT_TEMPLATES=["index"]', 'LEADERBOARD_INDEX_SAVE_AS="leaderboard/index.html"',
                             'LEADERBOARD_INDEX_URL="leaderboard/index.html"')

    assert result.returncode == 0, result.stderr
    index = (site / "leaderboard" / "index.html").read_text(encoding="utf-8")
    assert 'class="board top"' in index and 'class="board top"' not in (site / "index.html").read_text(encoding="utf-8")
    # Every link of the leaderboard's index, and of a report page's way back, reaches a file of the site.
    links = set(re.findall(r'(?:href|src)="(\.\./[^"#?]*)', index))
    assert len(links) > 30
    for link in sorted(links):
        assert (site / "leaderboard" / link).resolve().is_file(), link
    report = (site / "report" / "clinical-notes" / "tie-suite.report.html").read_text(encoding="utf-8")
    assert '<a href="../../leaderboard/index.html">Back to <bdi>clinical-notes</bdi></a>' in report  # the first suite's home
    assert '<link rel="canonical" href="https://openmed.life/docs/eval/benchmark-leaderboard/leaderboard/">' in index


@pytest.mark.parametrize("value", ["/index.html", "../index.html", "leaderboard/", "board.htm", "a//b.html"])
def test_an_index_path_outside_the_site_or_not_a_page_is_refused_in_one_line(tmp_path, value):
    result = pelican_content(tmp_path / "site", f'LEADERBOARD_INDEX_SAVE_AS="{value}"')
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "build failed: the setting LEADERBOARD_INDEX_SAVE_AS must be a path within the site ending in .html, such as "
        f"leaderboard/index.html, not {value!r}"]


def test_the_readmes_worked_override_builds_and_says_what_each_page_shows(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Changing the theme"):readme.index("### For plugin authors")]
    snippet = re.search(r"```jinja\n(.*?)```", section, re.S).group(1)
    overrides = tmp_path / "overrides"
    overrides.mkdir()
    report = (ROOT / "theme" / "templates" / "report.html").read_text(encoding="utf-8")
    (overrides / "report.html").write_text(report.replace("{% block content %}\n", "{% block content %}\n" + snippet),
                                           encoding="utf-8")
    site = tmp_path / "site"
    build(SETTINGS, str(site), str(BUNDLED), str(MANIFEST), "v3.1.0",
          extra={"THEME_TEMPLATES_OVERRIDES": [str(overrides)], "LEADERBOARD_WORKERS": 2}, progress=lambda line: None)

    rows = json.loads((site / "leaderboard.json").read_text(encoding="utf-8"))["rows"]
    for row in rows:
        page = (site / "report" / (row["report_path"][: -len(".json")] + ".html")).read_text(encoding="utf-8")
        fixtures = json.loads((site / "reports" / row["report_path"]).read_text(encoding="utf-8"))["fixture_count"]
        lines = [html.unescape(line) for line in re.findall(r"<p>(.*?)</p>", page.split('<p class="breadcrumb">')[0])]
        assert lines == ([row["model_name"].replace("OpenMed/", "").upper()]
                         + (["Enough fixtures"] if fixtures > 10 else [])
                         + (["Runs on Apple's Core ML"] if row["device"] == "coreml" else [])
                         + [f"{row['model_name']}, run {row['run_date'][:4]}"]), row["report_path"]
