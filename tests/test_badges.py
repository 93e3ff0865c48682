"""The badges, badge/<anchor>/<model>.svg: one per suite and model, showing its best row of the newest
release it has in the suite with the figures of leaderboard.json; valid SVG (XML, and the Nu checker
as SVG), no script, colours that pass WCAG AA, widths from the committed table of DejaVu Sans's
advances (measured again here, and against what Chromium draws), the same bytes in any time zone,
and shown on each report page with snippets that embed it."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from lxml import etree

from conftest import HASH, ROOT, report, run_invoke, write_archive
from tasks_support import git

from benchmark_leaderboard.formatting import percent
from benchmark_leaderboard.present import badge
from benchmark_leaderboard.versions import version_key
from leaderboard_tools import badge_widths

SITE = "https://openmed.life/docs/eval/benchmark-leaderboard"
RELEASE = f"{SITE}/releases/v1.1.0"
SVG = "{http://www.w3.org/2000/svg}"
VNU = ROOT / ".node" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
HOSTILE = "OpenMed/x<&>\"'[y]"


def scored(name: str, tag: str, leakage: float, **more) -> dict:
    return report(model_name=name, metadata={"synthetic": True, "model_family": "PII", "release_tag": tag,
                                             "reproducibility_hash": HASH},
                  metrics={"leakage": {"overall": leakage}, "exact_span_f1": {"recall": 0.9, "f1": 0.8}}, **more)


# model-a on golden: v1.0.0 (the best leakage of all its rows), and v1.1.0 on cpu and on cuda: its
# badge shows v1.1.0's best row, on cuda. Names that no path or markup may take as they are.
ARCHIVE = {
    "golden/a-v1.report.json": scored("OpenMed/model-a", "v1.0.0", 0.01),
    "golden/a-cpu.report.json": scored("OpenMed/model-a", "v1.1.0", 0.10),
    "golden/a-cuda.report.json": scored("OpenMed/model-a", "v1.1.0", 0.08, device="cuda"),
    "golden/b.report.json": scored("OpenMed/model-b", "v1.1.0", 0.05),
    "golden/pre.report.json": scored("OpenMed/model-b", "v1.1.0-rc.1", 0.02),
    "golden/hostile.report.json": scored(HOSTILE, "v1.1.0", 0.2),
    "golden/up.report.json": scored("../../up", "v1.1.0", 0.3),
    "golden/control.report.json": scored("org/a\x01b", "v1.1.0", 0.4),
    "golden/wide.report.json": scored("医疗/模型", "v1.1.0", 0.5),
    "golden/long.report.json": scored("org/" + "long" * 80, "v1.1.0", 0.6),
    "clinical/a.report.json": scored("OpenMed/model-a", "v1.0.0", 0.03, suite="clinical"),
}


def publish(cwd: Path, reports: Path, output: Path, tag: str = "v1.1.0", **env: str) -> Path:
    result = run_invoke("--search-root", str(ROOT), "publish", "--release-tag", tag, "--reports-dir", str(reports),
                        "--manifest", str(cwd / "none.jsonl"), "--output-dir", str(output), cwd=cwd, env=env)
    assert result.returncode == 0, result.stderr
    return output


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("badges")
    return publish(root, write_archive(root / "reports", ARCHIVE), root / "site")


def badges_of(site: Path) -> dict[str, bytes]:
    return {path.relative_to(site).as_posix(): path.read_bytes() for path in sorted((site / "badge").rglob("*.svg"))}


def texts(svg: bytes) -> tuple[str, str, str]:
    """A badge's label, value and title, as a reader's program reads them."""
    root = etree.fromstring(svg)
    label, value = (element.text for element in root.iter(f"{SVG}text"))
    return label, value, root.find(f"{SVG}title").text


def expected_badges(site: Path) -> dict[tuple[str, str], tuple[dict, int, int]]:
    """Each suite and model of leaderboard.json, its badge row (the first, in the suite's order, of
    its rows of the newest release it has there), that row's position among the suite's rows and
    the suite's row count."""
    document = json.loads((site / "leaderboard.json").read_text(encoding="utf-8"))
    found = {}
    for suite in document["suites"]:
        rows = sorted((row for family in suite["families"] for row in family["rows"]),
                      key=lambda row: document["rows"].index(row))
        for position, row in enumerate(rows, 1):
            key = (row["suite"], row["model_name"])
            newest = max((version_key(other["release_tag"]), other["release_tag"]) for other in rows
                         if (other["suite"], other["model_name"]) == key)
            if key not in found and (version_key(row["release_tag"]), row["release_tag"]) == newest:
                found[key] = (row, position, len(rows))
    return found


def test_each_suite_and_model_has_one_badge_with_the_figures_of_leaderboard_json(site):
    expected = expected_badges(site)
    anchors = {suite: "suite-" + suite for suite in ("golden", "clinical")}
    files = badges_of(site)
    sure = json.loads((site / "uncertainty.json").read_text(encoding="utf-8"))["rows"]
    assert len(files) == len(expected) == 8
    for (suite, model), (row, position, count) in expected.items():
        path = badge.badge_path(anchors[suite], model)
        label, value, title = texts(files[path])
        shown = badge.xml_text(model)
        # The rank with the best and worst rank its leakage interval allows (uncertainty.json).
        figures = sure[row["report_path"]]
        ranked = f"{position} ({figures['suite_rank_best']}–{figures['suite_rank_worst']})"
        assert label == f"PHI leakage · {suite}"
        assert value == f"{percent(row['leakage'])}% · #{ranked} of {count} · {row['release_tag']}"
        # Each archive value of the title isolated from the words around it (U+2068 ... U+2069).
        assert title == (f"\u2068{shown}\u2069 on \u2068{suite}\u2069: leaks {percent(row['leakage'])}% of protected "
                         f"text (PHI leakage), rank {ranked} of {count} in the suite, release \u2068{row['release_tag']}\u2069")
    # model-a on golden: v1.1.0's best row (cuda, 8%), not v1.0.0's better leakage; model-b: v1.1.0, not its
    # release candidate; on clinical, its own row.
    assert texts(files["badge/suite-golden/OpenMed/model-a.svg"])[1] == "8.00% · #4 (1–10) of 10 · v1.1.0"
    assert texts(files["badge/suite-golden/OpenMed/model-b.svg"])[1] == "5.00% · #3 (1–10) of 10 · v1.1.0"
    assert texts(files["badge/suite-clinical/OpenMed/model-a.svg"])[1] == "3.00% · #1 (1–1) of 1 · v1.0.0"


def test_a_badge_is_small_plain_svg_that_says_itself_in_words(site):
    for path, data in badges_of(site).items():
        root = etree.fromstring(data)  # well-formed XML, whatever the model's name holds
        assert root.tag == f"{SVG}svg" and root.get("role") == "img", path
        assert root[0].tag == f"{SVG}title" and root[0].text, path  # its name, for an image's role
        assert [element.tag for element in root.iter()] == [f"{SVG}{tag}" for tag in ("svg", "title", "rect", "rect", "g",
                                                                                         "text", "text")], path
        assert not [name for element in root.iter() for name in element.attrib if name.startswith("on")], path
        assert b"<script" not in data and b"href" not in data, path
        # A few hundred bytes, and the words of its title.
        assert len(data) - len(root.find(f"{SVG}title").text.encode()) < 600, path
    # A control character is shown as U+FFFD; markup is text.
    assert texts(badges_of(site)[badge.badge_path("suite-golden", "org/a\x01b")])[2].startswith(
        "\u2068org/a\ufffdb\u2069 on \u2068golden\u2069")
    assert texts(badges_of(site)[badge.badge_path("suite-golden", HOSTILE)])[2].startswith(
        f"\u2068{HOSTILE}\u2069 on \u2068golden\u2069")


def test_badges_pass_the_nu_checker_as_svg(site, tmp_path):
    if shutil.which("java") is None or not VNU.is_file():
        pytest.fail(f"the Nu HTML Checker is not installed at {VNU.relative_to(ROOT)}: `make test` installs it (and needs Java)")
    canary = tmp_path / "canary.svg"  # one the checker must fault: it did check
    canary.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><rect bogus="1"/></svg>', encoding="utf-8")
    files = sorted((site / "badge").rglob("*.svg"))
    result = subprocess.run(["java", "-jar", str(VNU), "--svg", "--errors-only", "--format", "json", "--stdout",
                             str(canary), *map(str, files)], capture_output=True, encoding="utf-8", timeout=300)
    messages = json.loads(result.stdout)["messages"]
    assert [message["url"].rsplit("/", 1)[1] for message in messages] == ["canary.svg"], messages


def luminance(colour: str) -> float:
    channels = [int(colour[at:at + 2], 16) / 255 for at in (1, 3, 5)]
    linear = [value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4 for value in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    lighter, darker = sorted((luminance(one), luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_the_text_has_the_contrast_wcag_aa_asks_of_it_on_both_boxes(site):
    root = etree.fromstring(next(iter(badges_of(site).values())))
    text = root.find(f"{SVG}g").get("fill")
    boxes = [rect.get("fill") for rect in root.iter(f"{SVG}rect")]
    assert all(re.fullmatch(r"#[0-9a-f]{6}", colour) for colour in [text, *boxes])
    # 11 px text is not large text: AA asks for 4.5:1.
    assert [round(contrast(text, box), 2) for box in boxes] == [6.58, 7.06]
    assert min(contrast(text, box) for box in boxes) >= 4.5


def test_the_widths_table_is_dejavu_sans_measured_again():
    if not FONT.is_file():
        pytest.skip(f"{FONT} is not on this machine (Debian's fonts-dejavu-core, which make test installs with Chromium)")
    committed = (ROOT / "plugins" / "benchmark_leaderboard" / "present" / "badge_widths.json").read_text(encoding="utf-8")
    assert badge_widths.table_text(badge_widths.measured(str(FONT))) == committed
    assert json.loads(committed)["font"] == "DejaVu Sans, Version 2.37"


def test_the_same_archive_gives_the_same_badges_in_any_time_zone(site, tmp_path):
    other = publish(tmp_path, write_archive(tmp_path / "reports", ARCHIVE), tmp_path / "site", TZ="Pacific/Kiritimati",
                    LC_ALL="C", PYTHONHASHSEED="123")
    assert badges_of(other) == badges_of(site)


def test_the_report_page_shows_its_models_badge_and_snippets_that_embed_it(site):
    page = (site / "report" / "golden" / "a-v1.report.html").read_text(encoding="utf-8")
    section = re.search(r'<section class="cite" aria-labelledby="badge">\n(.*?)</section>', page, re.S).group(1)
    data = (site / "badge/suite-golden/OpenMed/model-a.svg").read_bytes()
    width = etree.fromstring(data).get("width")
    # The model's badge (v1.1.0's row: this page is v1.0.0's), sized as drawn, its words as the alt text.
    assert (f'<p><img src="{RELEASE}/badge/suite-golden/OpenMed/model-a.svg" width="{width}" height="20" '
            f'alt="{html.escape(texts(data)[2], quote=True).replace("&#x27;", "&#39;")}"></p>') in section
    # It says what it shows, and the snippets link where its figures come from: v1.1.0's row on cuda,
    # not this v1.0.0 page.
    source = f"{RELEASE}/report/golden/a-cuda.report.html"
    assert (f"<p>It shows the model's newest row in this suite (its best row of the newest release it has here), whose "
            f'figures come from <a href="{source}">that row\'s report page</a>. To show it on a model card, linked to '
            "that page:</p>") in section
    assert texts(data)[1] == "8.00% · #4 (1–10) of 10 · v1.1.0"  # a-cuda's figures
    codes = snippets(section)
    assert codes == [
        f"[![PHI leakage of OpenMed/model-a on golden]({RELEASE}/badge/suite-golden/OpenMed/model-a.svg)]({source})",
        f'<a href="{source}"><img src="{RELEASE}/badge/suite-golden/OpenMed/model-a.svg" '
        'alt="PHI leakage of OpenMed/model-a on golden"></a>',
    ]
    # A release render names the badge at the site's root, which follows each new release.
    assert f"<code>{SITE}/badge/suite-golden/OpenMed/model-a.svg</code>, follows each new release." in section


def snippets(page: str) -> list[str]:
    """The snippets of a report page as a reader copies them: the text of each code block (the
    names in it are isolated by <bdi>, which copying leaves out)."""
    return [html.unescape(re.sub(r"</?bdi>", "", code)) for code in re.findall(r"<pre><code>(.*?)</code></pre>", page, re.S)]


def test_a_snippet_says_a_hostile_name_as_it_is(site):
    page = (site / "report" / "golden" / "hostile.report.html").read_text(encoding="utf-8")
    markdown, snippet = snippets(page)
    assert markdown.startswith("[![PHI leakage of OpenMed/x<&>\"'\\[y\\] on golden](")
    image = etree.fromstring(snippet.encode(), etree.HTMLParser()).find(".//img")
    assert image.get("alt") == f"PHI leakage of {HOSTILE} on golden"
    assert image.get("src") == f"{RELEASE}/{badge.badge_path('suite-golden', HOSTILE)}"


def test_a_plain_build_gives_snippets_under_its_siteurl_and_no_note(tmp_path):
    reports = write_archive(tmp_path / "reports", {"golden/b.report.json": scored("OpenMed/model-b", "v1.1.0", 0.05)})
    result = run_invoke("--search-root", str(ROOT), "build", "--reports-dir", str(reports), "--manifest", str(tmp_path / "none.jsonl"),
                        "--output-dir", str(tmp_path / "site"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "site" / "report" / "golden" / "b.report.html").read_text(encoding="utf-8")
    assert '<img src="../../badge/suite-golden/OpenMed/model-b.svg"' in page
    assert f"({SITE}/badge/suite-golden/OpenMed/model-b.svg)]({SITE}/report/golden/b.report.html)" in page
    assert "follows each new release" not in page


# -- Addresses, rows and widths ---------------------------------------------------------------------


NAMES = ["OpenMed/OpenMed-PII-SuperClinical-Large-434M-v1-mlx", "a", "a.svg/b", "a.svg", ".", "..", "../x", "a//b", "/a",
         "a/", "", "~", "~7E", "a~b", "a b", "ÄÖ/ü", "医疗/模型", "x" * 250, "x" * 251, "org/" + "y" * 300, "a\x00b", "a\nb",
         "org.x/y.z", "org~2Ex/y.z", "A", "%2E", "a/./b", "a/../b"]


def test_every_model_name_has_a_safe_address_of_its_own():
    paths = [badge.badge_path("suite-s", name) for name in NAMES]
    assert len(set(paths)) == len(NAMES)
    for name, path in zip(NAMES, paths):
        assert re.fullmatch(r"badge/suite-s/[A-Za-z0-9._~/-]+\.svg", path), name
        *folders, file = path[len("badge/suite-s/"):].split("/")
        assert all(folder and "." not in folder for folder in folders), name  # never ".", "..", nor a file's name
        assert all(len(part) <= 255 for part in [*folders, file]), name
        assert path == badge.badge_path("suite-s", name)  # the same name, the same address
    # A plain name is its own address; the others are encoded.
    assert paths[:2] == ["badge/suite-s/OpenMed/OpenMed-PII-SuperClinical-Large-434M-v1-mlx.svg", "badge/suite-s/a.svg"]
    assert dict(zip(NAMES, paths))["a.svg/b"] == "badge/suite-s/a~2Esvg/b.svg"
    assert dict(zip(NAMES, paths))["../x"] == "badge/suite-s/~2E~2E/x.svg"
    assert dict(zip(NAMES, paths))["ÄÖ/ü"] == "badge/suite-s/~C3~84~C3~96/~C3~BC.svg"
    assert re.fullmatch(r"badge/suite-s/~~[0-9a-f]{64}\.svg", dict(zip(NAMES, paths))["org/" + "y" * 300])


class Row:
    def __init__(self, model: str, tag: str):
        self.model_name, self.release_tag = model, tag


def test_a_badge_stands_for_the_best_row_of_the_newest_release():
    rows = [Row("a", "v1.9.0"), Row("a", "v1.10.0-rc.1"), Row("b", "nightly"), Row("a", "v1.10.0"), Row("b", "v0.1.0"),
            Row("a", "v1.10.0"), Row("a", "v1.10.0")]
    assert list(badge.badge_rows(rows, [0, 0, 0, 0, 0, 0, 1])) == [3, 3, 4, 3, 4, 3, 6]


def test_the_rank_range_has_its_place_beside_the_rank():
    made = badge.badge_of("badge/s/m.svg", "golden", "m", 0.0034, 2, 7, "v3.1.0", rank_range="1–4")
    assert made.value == "0.34% · #2 (1–4) of 7 · v3.1.0"
    assert "rank 2 (1–4) of 7 in the suite" in made.title
    plain = badge.badge_of("badge/s/m.svg", "golden", "m", 0.0034, 2, 7, "v3.1.0")
    assert plain.value == "0.34% · #2 of 7 · v3.1.0" and plain.width < made.width


def test_widths_come_from_the_table():
    # DejaVu Sans at 11 px: "PHI leakage" is 12,115 font units wide (2048 to the em), 65.07 px.
    assert sum(badge.advance(char) for char in "PHI leakage") == 12115
    assert badge.text_width("PHI leakage") == 651  # tenths of a pixel, rounded half up
    assert badge.advance("\u0301") == 0 and badge.advance("医") == badge.UNITS_PER_EM
    assert badge.advance("\U0001F600") == badge.UNITS_PER_EM  # an emoji is as wide as East Asian text
    assert badge.advance("\u10d0") == badge.UNMEASURED_ADVANCE  # Georgian: not measured, as wide as an M


@pytest.mark.browser
def test_chromium_draws_each_text_as_wide_as_the_table_says(site):
    from browser_support import launch

    files = [path for path in sorted((site / "badge").rglob("*.svg")) if "~" not in path.name and "~" not in
             path.parent.name]
    with launch(pytest.importorskip("playwright.sync_api")) as chromium:
        page = chromium.new_page()
        for path in files:
            page.goto(path.as_uri())
            # Each text's own length in the browser's font, without the length the badge gives it.
            drawn = page.evaluate("""() => [...document.querySelectorAll('text')].map(text => {
                const given = parseFloat(text.getAttribute('textLength'));
                text.removeAttribute('textLength');
                return [given, text.getComputedTextLength()];
            })""")
            for given, natural in drawn:
                assert abs(given - natural) <= 0.5, (path.name, given, natural)


def test_the_readmes_badge_is_the_bundled_archives(tmp_path):
    result = run_invoke("--search-root", str(ROOT), "build", "--release-tag", "v3.1.0", "--output-dir",
                        str(tmp_path / "site"), cwd=ROOT)
    assert result.returncode == 0, result.stderr
    shown = "badge/suite-clinical-notes/OpenMed/OpenMed-PII-SuperClinical-Large-434M-v1-mlx.svg"
    assert (ROOT / "docs" / "badge.svg").read_bytes() == (tmp_path / "site" / shown).read_bytes()
    assert f"![PHI leakage · clinical-notes | 0.34% · #2 (1–6) of 6 · v3.1.0](docs/badge.svg)" in (ROOT / "README.md").read_text(
        encoding="utf-8")
    assert texts((ROOT / "docs" / "badge.svg").read_bytes())[:2] == ("PHI leakage · clinical-notes", "0.34% · #2 (1–6) of 6 · v3.1.0")


# -- A badge's address keeps answering on the pages branch ---------------------------------------


IDENTITY = {"GIT_AUTHOR_NAME": "Release", "GIT_AUTHOR_EMAIL": "release@example.invalid",
            "GIT_COMMITTER_NAME": "Release", "GIT_COMMITTER_EMAIL": "release@example.invalid",
            "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
DROPPED = "badge/suite-golden/OpenMed/model-c.svg"
# v1.0.0: a, b and c on golden (c third of three). v1.1.0 and v1.2.0: a and b, c dropped. v1.3.0: a alone.
KEPT = {tag: {f"golden/{name}.report.json": scored(f"OpenMed/model-{name}", tag, leakage)
              for name, leakage in (("a", 0.01), ("b", 0.02), ("c", 0.03))[:count]}
        for tag, count in (("v1.0.0", 3), ("v1.1.0", 2), ("v1.2.0", 2), ("v1.3.0", 1))}


def gh_pages(root: Path, repository: Path, tag: str) -> None:
    reports = write_archive(root / "archives" / tag, KEPT[tag])
    result = run_invoke("--search-root", str(ROOT), "gh-pages", "--release-tag", tag, "--reports-dir", str(reports),
                        "--manifest", str(root / "none.jsonl"), "--repo", str(repository), cwd=root, env=IDENTITY)
    assert result.returncode == 0, result.stderr


def blob(repository: Path, path: str) -> bytes | None:
    found = subprocess.run(["git", "-C", str(repository), "cat-file", "blob", f"gh-pages:{path}"], capture_output=True)
    return found.stdout if found.returncode == 0 else None


def test_a_dropped_models_badge_keeps_answering_at_the_root_until_a_maintainer_removes_it(tmp_path):
    repository = tmp_path / "repo"
    git(tmp_path, "init", "--quiet", str(repository))
    gh_pages(tmp_path, repository, "v1.0.0")
    published = blob(repository, DROPPED)
    assert texts(published)[1] == "3.00% · #3 (1–3) of 3 · v1.0.0"
    gh_pages(tmp_path, repository, "v1.1.0")
    # v1.1.0 has no badge of model-c; the root's still answers, saying so, with v1.0.0's standing.
    assert blob(repository, f"releases/v1.1.0/{DROPPED}") is None
    dropped = blob(repository, DROPPED)
    assert texts(dropped) == (
        "PHI leakage · golden", "not in v1.1.0 · 3.00% · #3 (1–3) of 3 · v1.0.0",
        "\u2068OpenMed/model-c\u2069 on \u2068golden\u2069: not in release \u2068v1.1.0\u2069; in its last release, "
        "\u2068v1.0.0\u2069, it leaked 3.00% of protected text (PHI leakage), rank 3 (1–3) of 3 in the suite")
    # Drawn as any badge is: the same label box, its value box as wide as its text.
    assert etree.fromstring(dropped).find(f"{SVG}rect").get("width") == etree.fromstring(published).find(f"{SVG}rect").get("width")
    assert etree.fromstring(dropped).get("width") == str(badge.absent_badge(
        DROPPED, json.loads(blob(repository, "releases/v1.0.0/leaderboard.json")),
        json.loads(blob(repository, "releases/v1.0.0/uncertainty.json")), "v1.1.0").width)
    # A later release without it says it is not in that one; the root's checksums and verify cover it.
    gh_pages(tmp_path, repository, "v1.2.0")
    assert texts(blob(repository, DROPPED))[1] == "not in v1.2.0 · 3.00% · #3 (1–3) of 3 · v1.0.0"
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "--quiet", "--branch", "gh-pages", str(repository), str(clone))
    assert subprocess.run(["sha256sum", "--quiet", "-c", "SHA256SUMS"], cwd=clone).returncode == 0
    assert f"  {DROPPED}\n" in (clone / "SHA256SUMS").read_text(encoding="utf-8")
    verified = run_invoke("--search-root", str(ROOT), "verify", "--release-tag", "v1.2.0", "--reports-dir",
                          str(tmp_path / "archives" / "v1.2.0"), "--manifest", str(tmp_path / "none.jsonl"),
                          "--output-dir", str(clone), cwd=tmp_path)
    assert (verified.returncode, verified.stdout) == (0, ""), verified.stderr
    assert (f"verify: the root's feed lists the 3 releases kept in {clone}/releases; it keeps 1 badge of a model "
            "not in v1.2.0") in verified.stderr.splitlines()
    # A maintainer removes it deliberately, in a commit of the branch: the next release does not bring it back,
    # while model-b, dropped by v1.3.0, keeps its address.
    git(clone, "rm", "--quiet", DROPPED)
    git(clone, "commit", "--quiet", "-m", "Retire model-c's badge")
    git(clone, "push", "--quiet", "origin", "gh-pages")
    gh_pages(tmp_path, repository, "v1.3.0")
    assert blob(repository, DROPPED) is None
    assert texts(blob(repository, "badge/suite-golden/OpenMed/model-b.svg"))[1] == \
        "not in v1.3.0 · 2.00% · #2 (1–2) of 2 · v1.2.0"
