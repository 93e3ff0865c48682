"""Every report string is text on the page, never markup: a hostile archive built with the CLI is
parsed back with html.parser, and its structure must match a benign build's."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import report, run_invoke

from benchmark_leaderboard.present.publish import unpacked

HOSTILE = "<img src=x onerror=alert(1)>&amp; \"q\" 'a' </script><!-- \u2028 \u2029 --> <x-evil onclick=\"x()\">"
FIELDS = ("suite", "model_family", "model_name", "device", "release_tag")


class Page(HTMLParser):
    """What a browser would see: every element with its attributes, the text, and script contents."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._in_script: dict[str, str | None] | None = None
        self.comments: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = dict(attrs)
            self.scripts.append((self._in_script, ""))

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = None

    def handle_data(self, data):
        if self._in_script is not None:
            attrs, content = self.scripts[-1]
            self.scripts[-1] = (attrs, content + data)
        else:
            self.text.append(data)

    def handle_comment(self, data):
        self.comments.append(data)

    def attribute_values(self) -> list[str]:
        return [value for _, attrs in self.elements for value in attrs.values() if value]


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


def values(tag: str) -> dict[str, str]:
    return {field: f"{field} {tag}{HOSTILE}" for field in FIELDS}


def archive_of(strings: dict[str, str], file_name: str) -> dict[str, dict]:
    payload = report(suite=strings["suite"], model_name=strings["model_name"], device=strings["device"],
                     metadata={"model_family": strings["model_family"], "release_tag": strings["release_tag"]})
    return {file_name: payload, "plain.report.json": report()}


# A folder "<b onmouseover=x>&amp;\"'<" and a file in it: the report path holds "</script>".
HOSTILE_NAME = "<b onmouseover=x>&amp;\"'</script><!--\u2028\u2029.report.json"


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """The same archive twice: once with hostile strings and file name, once benign."""
    built = {}
    for kind, strings, name in [("hostile", values(""), HOSTILE_NAME), ("benign", {f: f"{f} plain" for f in FIELDS}, "benign.report.json")]:
        root = tmp_path_factory.mktemp(kind)
        for relative, payload in archive_of(strings, name).items():
            (root / "reports" / relative).parent.mkdir(parents=True, exist_ok=True)
            (root / "reports" / relative).write_text(json.dumps(payload), encoding="utf-8")
        result = run_invoke("build", "--reports-dir", str(root / "reports"), "--output-dir", str(root / "site"))
        assert result.returncode == 0, result.stderr
        built[kind] = (root / "site", strings, name)
    return built


def html_files(site: Path) -> list[Path]:
    """The pages that show report text: the leaderboard and each report's page."""
    return [site / "index.html", *sorted((site / "report").rglob("*.html"))]


def structure(page: Page) -> tuple[list[str], set[str]]:
    return [tag for tag, _ in page.elements], {name for _, attrs in page.elements for name in attrs}


def test_the_hostile_site_has_the_benign_sites_elements_and_attributes(sites):
    hostile_site, _, _ = sites["hostile"]
    benign_site, _, _ = sites["benign"]
    hostile_pages, benign_pages = html_files(hostile_site), html_files(benign_site)
    assert len(hostile_pages) == len(benign_pages) == 3  # index.html and one page per report
    for hostile, benign in zip(sorted(hostile_pages, key=lambda p: "plain" in p.name), sorted(benign_pages, key=lambda p: "plain" in p.name)):
        hostile_tags, hostile_attributes = structure(parse(hostile))
        benign_tags, benign_attributes = structure(parse(benign))
        assert hostile_tags == benign_tags, hostile
        assert hostile_attributes == benign_attributes, hostile


def test_no_page_gains_a_script_an_event_attribute_or_a_comment(sites):
    site, _, _ = sites["hostile"]
    for path in html_files(site):
        page = parse(path)
        assert not [name for _, attrs in page.elements for name in attrs if name.startswith("on")], path
        # The one image a page may hold is its model's badge, at an address made of URL-safe characters only.
        images = [attrs for tag, attrs in page.elements if tag == "img"]
        assert all(re.fullmatch(r"(\.\./)*badge/[A-Za-z0-9._~/-]+\.svg", attrs.get("src") or "") for attrs in images), path
        assert len(images) == (1 if "/report/" in path.as_posix() else 0), path
        assert not {"b", "x-evil"} & {tag for tag, _ in page.elements}, path
        assert not any("\u2028" in comment or "onerror" in comment for comment in page.comments), path
        for attrs, content in page.scripts:
            # Only the site's own files: the data file and the behaviour files, none inline.
            assert (attrs.get("src") or "").rsplit("/", 1)[-1] in ("leaderboard-data.js", "leaderboard-common.js", "leaderboard.js"), attrs
            assert content == ""


def test_every_hostile_string_reads_back_exactly_on_the_leaderboard(sites):
    site, strings, name = sites["hostile"]
    # The index shows its first suite; each other suite has a page, and a panel script of the same markup.
    suite_pages = sorted((site / "suite").glob("*/index.html"))
    pages = [parse(path) for path in [site / "index.html", *suite_pages]]
    text = "".join(piece for page in pages for piece in page.text)
    for field in ("suite", "model_family", "model_name", "device", "release_tag"):
        assert strings[field] in text, field
    script = (site / "leaderboard-data.js").read_text(encoding="utf-8")
    assert not re.search(r"[<>&\u2028\u2029]", script)  # no report text can close a script or open a comment
    for panel in sorted((site / "suite").glob("*/panel.js")):
        assert not re.search(r"[<>&'\u2028\u2029]", panel.read_text(encoding="utf-8")), panel
    data = json.loads(script.removeprefix("window.leaderboardData = ").removesuffix(";\n"))
    leaderboard = json.loads((site / "leaderboard.json").read_text(encoding="utf-8"))
    for field, column in unpacked(data).items():
        if field in leaderboard["rows"][0]:  # a published field (the others are what the page adds)
            assert column == [row[field] for row in leaderboard["rows"]], field
    hostile_row = next(row for row in leaderboard["rows"] if row["report_path"] == name)
    assert {field: hostile_row[field] for field in FIELDS} == strings
    # The link to the hostile report's copy is its URL-quoted path, whole.
    assert f"reports/{hostile_row['report_url'][len('reports/'):]}" in " ".join(
        value for page in pages for value in page.attribute_values())


def test_every_hostile_string_reads_back_exactly_on_its_report_page(sites):
    site, strings, name = sites["hostile"]
    page_path = site / "report" / (name[: -len(".json")] + ".html")
    assert page_path.is_file()
    page = parse(page_path)
    text = "".join(page.text)
    for field in FIELDS:
        assert strings[field] in text, field
    assert name in text  # the report path, shown as text
    assert (site / "reports" / name).is_file()
    assert json.loads((site / "reports" / name).read_text(encoding="utf-8"))["model_name"] == strings["model_name"]


def test_the_page_values_are_the_archive_values_as_they_are_not_markup():
    # A template gets the archive's text as text and its numbers as numbers: autoescaping escapes
    # them where they are printed, and a theme author may filter, compare or branch on them.
    from markupsafe import Markup

    from benchmark_leaderboard.present.report_details import Leaf, leaves, origin
    from benchmark_leaderboard.formatting import percent

    assert percent(0.5) == "50.00" and type(percent(0.5)) is str
    found = leaves({"a<b": {"c": HOSTILE}, "n": 0.5, "t": True, "x": float("nan"), "i": 10**30})
    assert found == (Leaf("a<b.c", HOSTILE, HOSTILE), Leaf("i", 10**30, "1000000000000000000000000000000"),
                     Leaf("n", 0.5, "0.5"), Leaf("t", True, "true"), Leaf("x", found[4].value, "NaN"))
    assert not any(isinstance(part, Markup) for leaf in found for part in leaf)
    kind, detail = origin("models.jsonl (" + HOSTILE + ")", "v1.0.0")
    assert (kind, detail) == ("manifest", "models.jsonl (" + HOSTILE + ")") and type(detail) is str


def test_every_template_of_the_theme_autoescapes_everything_it_prints():
    # No span of a template turns autoescaping off, and nothing is printed as markup by a filter
    # that would skip escaping: a value from the archive is always escaped where it is printed. A
    # Markdown page's content is HTML the site's own authors wrote, printed as Pelican's themes do.
    templates = Path(__file__).resolve().parent.parent / "theme" / "templates"
    checked = 0
    for template in sorted(templates.glob("*.*")):
        source = template.read_text()
        assert "autoescape" not in source, template.name
        for printed in re.findall(r"\{\{(.*?)\}\}", source, re.S):
            if printed.strip() != "page.content|safe":
                assert not re.search(r"\|\s*(safe|made|escaped)\b", printed), f"{template.name}: {{{{{printed}}}}}"
            checked += 1
    assert checked > 200
