"""A report page is its template rendered once a shape and filled in (shapes.py): every page must be
exactly what its template renders for it, whatever the archive; a template that branches on a
value instead of a declared choice stops the build; a row macro must print its value once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jinja2
import pytest
from markupsafe import Markup

from conftest import ROOT, SETTINGS
from differential_support import all_cases

from benchmark_leaderboard import shapes
from benchmark_leaderboard.problems import BuildFailed
from benchmarks.make_archive import make_archive
from leaderboard_tools.runner import BuildError, build


@pytest.fixture
def every_page_checked(monkeypatch):
    """Each page of every shape is also rendered by its template and compared, not only the first."""
    page = shapes.PageShapes.page

    def checked(self, namespaces, values):
        for shape in self._shapes.values():
            shape.checked = False
        return page(self, namespaces, values)

    monkeypatch.setattr(shapes.PageShapes, "page", checked)


def test_every_report_page_of_a_varied_archive_is_what_its_template_renders(every_page_checked, tmp_path):
    # Three releases (histories), a previous leaderboard (changed rows), and the bundled archive.
    make_archive(tmp_path / "archive", 300, suites=3, families=4, releases=3)
    first = tmp_path / "first"
    build(SETTINGS, str(first), reports_dir=str(tmp_path / "archive" / "reports"),
          manifest=str(tmp_path / "archive" / "models.jsonl"), release_tag="v3.0.0",
          extra={"LEADERBOARD_WORKERS": 1}, progress=lambda line: None)
    previous = json.loads((first / "leaderboard.json").read_text(encoding="utf-8"))
    for row in previous["rows"][::7]:
        row["leakage"] = row["leakage"] / 2
    (tmp_path / "previous.json").write_text(json.dumps(previous), encoding="utf-8")
    summary = build(SETTINGS, str(tmp_path / "site"), reports_dir=str(tmp_path / "archive" / "reports"),
                    manifest=str(tmp_path / "archive" / "models.jsonl"), release_tag="v3.0.0",
                    extra={"LEADERBOARD_WORKERS": 1, "LEADERBOARD_PREVIOUS_LEADERBOARD": str(tmp_path / "previous.json")},
                    progress=lambda line: None)
    assert summary.rows == 900
    pages = list((tmp_path / "site" / "report").rglob("*.html"))
    assert len(pages) == 900
    assert sum('id="history"' in page.read_text(encoding="utf-8") for page in pages) == 900
    assert any('class="changed"' in page.read_text(encoding="utf-8") for page in pages)
    build(SETTINGS, str(tmp_path / "bundled"), release_tag="v3.1.0", extra={"LEADERBOARD_WORKERS": 1},
          progress=lambda line: None)


def test_every_report_page_of_the_differential_archives_is_what_its_template_renders(every_page_checked, tmp_path):
    built = 0
    for case in all_cases()[::9]:
        if case.expect != "publish":
            continue
        reports, manifest = case.write(tmp_path / case.name)
        build(SETTINGS, str(tmp_path / case.name / "site"), reports_dir=str(reports), manifest=str(manifest),
              release_tag=case.release_tag, extra={"LEADERBOARD_WORKERS": 1}, progress=lambda line: None)
        built += 1
    assert built > 10


def test_a_report_template_that_branches_on_a_value_stops_the_build(tmp_path):
    theme = tmp_path / "theme"
    shutil.copytree(ROOT / "theme", theme)
    template = theme / "templates" / "report.html"
    text = template.read_text(encoding="utf-8")
    template.write_text(text.replace('<h2>Evidence</h2>', '{% if r.rank_in_suite == 1 %}<p>First!</p>{% endif %}<h2>Evidence</h2>'),
                        encoding="utf-8")
    with pytest.raises(BuildError) as refused:
        build(SETTINGS, str(tmp_path / "site"), release_tag="v3.1.0", extra={"THEME": str(theme)},
              progress=lambda line: None)
    assert "the report page's template branches on something that is not one of its declared choices" in refused.value.line()
    assert not (tmp_path / "site").exists()


def test_a_row_macro_must_print_its_value_once():
    environment = jinja2.Environment(autoescape=True)
    macros = environment.from_string("{% macro once(key, value) %}<tr><th>{{ key }}<td>{{ value }}</tr>{% endmacro %}"
                                     "{% macro never(key, value) %}<tr><th>{{ key }}</tr>{% endmacro %}"
                                     "{% macro twice(key, value) %}{{ value }}{{ value }}{% endmacro %}"
                                     "{% macro swapped(key, a, b) %}{{ b }}{{ a }}{% endmacro %}").module
    rows = shapes.RowShapes(macros)
    table = rows.table("once", (Markup("a"), Markup("b&amp;c")), [Markup("1"), "<x>"])
    assert table == "<tr><th>a<td>1</tr><tr><th>b&amp;c<td>&lt;x&gt;</tr>"  # what the plugin did not make is escaped
    assert rows.row("once", (Markup("k"),), Markup("v")) == "<tr><th>k<td>v</tr>"
    for kind in ("never", "twice"):
        with pytest.raises(BuildFailed, match=f"the row macro {kind} of the report page's template must print each of its values once, in order"):
            rows.table(kind, (Markup("a"),), [Markup("1")])
    with pytest.raises(BuildFailed, match="must print each of its values once, in order"):
        rows.row("swapped", (Markup("k"),), Markup("1"), Markup("2"))
