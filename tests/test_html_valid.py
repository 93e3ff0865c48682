"""Every kind of page the site writes is valid HTML: the Nu HTML Checker (the W3C validator's engine,
installed by `make test` into .node/ at the Makefile's pinned version) finds no error in the index,
a long family's further pages, the report pages, the model pages, compare.html, the changes page and a kind of
change's further pages, the Markdown pages, and a release list, all from one release render run
through the checker at once."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from conftest import HASH, ROOT, report, write_archive

from leaderboard_tools import release
from leaderboard_tools.build_settings import pelican_settings
from leaderboard_tools.runner import build

VNU = ROOT / ".node" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
PUBLISH = str(ROOT / "publishconf.py")
NEW = {"synthetic": True, "model_family": "PII", "release_tag": "v1.1.0", "reproducibility_hash": HASH}


def scored(name: str, leakage: float, recall: float, **changes) -> dict:
    return report(model_name=name, metrics={"leakage": {"overall": leakage}, "exact_span_f1": {"recall": recall, "f1": 0.7}},
                  **changes)


# Before (v1.0.0): a, b and d in golden. After (v1.1.0): a leaks more, b finds more, d is gone, five
# rows are new in golden's PII family (a family longer than a page of 2 rows, and more rows added
# than a page of changes holds), one in golden's NER family and one in another suite; and model-a
# has three more reports, on another device, in another release and in another suite.
OLD = {
    "golden/a.report.json": scored("OpenMed/model-a", 0.10, 0.90),
    "golden/b.report.json": scored("OpenMed/model-b", 0.05, 0.90),
    "golden/d.report.json": scored("OpenMed/model-d", 0.20, 0.70),
}
NEW_ARCHIVE = {
    "golden/a.report.json": scored("OpenMed/model-a", 0.12, 0.90, metadata=NEW),
    "golden/b.report.json": scored("OpenMed/model-b", 0.05, 0.95, metadata=NEW),
    **{f"golden/p{n}.report.json": scored(f"OpenMed/pii-{n}", n / 100, 0.80 + n / 100, metadata=NEW, fixture_count=10 + n)
       for n in range(1, 6)},
    "golden/n.report.json": scored("OpenMed/ner-a", 0.03, 0.85, device="cuda", metadata={**NEW, "model_family": "NER"}),
    "clinical/c.report.json": scored("OpenMed/model-c", 0.01, 0.90, suite="clinical", device="onnx", metadata=NEW),
    # model-a's page: two suites, two devices in golden (which can be told apart), and a history there.
    "golden/a-old.report.json": scored("OpenMed/model-a", 0.11, 0.90),
    "golden/a-cuda.report.json": scored("OpenMed/model-a", 0.40, 0.80, device="cuda", fixture_count=4000, metadata=NEW),
    "clinical/a.report.json": scored("OpenMed/model-a", 0.02, 0.90, suite="clinical", metadata=NEW),
}


def release_render(output: Path, reports: Path, tag: str, **settings) -> Path:
    """A release render (publishconf.py, the release's permanent address), as `invoke publish` makes it."""
    release_settings = release.release_settings(pelican_settings(PUBLISH, {})["SITEURL"], tag)
    build(PUBLISH, str(output), reports_dir=str(reports), manifest=str(output.parent / "none.jsonl"), release_tag=tag,
          extra={**release_settings, **settings}, progress=lambda message: None)
    return output


@pytest.fixture(scope="module")
def checked(tmp_path_factory) -> tuple[Path, dict[str, list[str]]]:
    """The release render and the checker's errors by page (relative path), every page listed."""
    if shutil.which("java") is None or not VNU.is_file():
        pytest.fail(f"the Nu HTML Checker is not installed at {VNU.relative_to(ROOT)}: `make test` installs it (and needs Java)")
    root = tmp_path_factory.mktemp("valid")
    before = release_render(root / "before", write_archive(root / "old", OLD), "v1.0.0")
    site = release_render(root / "site", write_archive(root / "new", NEW_ARCHIVE), "v1.1.0", LEADERBOARD_PAGE_ROWS=2,
                          LEADERBOARD_PREVIOUS_LEADERBOARD=str(before / "leaderboard.json"))
    # The release list the pages branch keeps beside the releases (written by `invoke gh-pages`).
    summaries = [release.release_summary(tag, json.loads((folder / "leaderboard.json").read_text(encoding="utf-8")), changes)
                 for tag, folder, changes in (("v1.0.0", before, False), ("v1.1.0", site, True))]
    (site / release.RELEASES).mkdir()
    (site / release.RELEASE_LIST).write_bytes(release.release_list_page(summaries, pelican_settings(PUBLISH, {})))
    pages = sorted(path for path in site.rglob("*.html"))
    # A page the checker must fault (a checkbox with autocomplete), beside the render: the checker ran.
    canary = root / "canary.html"
    canary.write_text('<!DOCTYPE html>\n<html lang="en">\n<title>x</title>\n<input type="checkbox" autocomplete="off" aria-label="x">\n',
                      encoding="utf-8")
    result = subprocess.run(["java", "-jar", str(VNU), "--errors-only", "--format", "json", "--stdout", str(canary), *map(str, pages)],
                            capture_output=True, encoding="utf-8", timeout=300)
    assert result.stdout, result.stderr
    errors: dict[str, list[str]] = {page.relative_to(site).as_posix(): [] for page in pages}
    faulted = []
    for message in json.loads(result.stdout)["messages"]:
        path = Path(unquote(urlsplit(message.get("url", "")).path))
        if path == canary:
            faulted.append(message["message"])
            continue
        page = path.relative_to(site).as_posix() if path.is_relative_to(site) else str(path)
        errors.setdefault(page, []).append(f"{page}:{message.get('lastLine', '?')}: {message.get('type')}: {message['message']}")
    assert len(faulted) == 1 and faulted[0].startswith("Attribute “autocomplete” is only allowed when the input type is "), faulted
    return site, errors


# Each kind of page the site writes, by the paths of its pages in the render above.
KINDS = {
    "the index": r"index\.html",
    "a long family's further pages": r"suite/[^/]+/\d+/\d+\.html",
    "another suite's page": r"suite/[^/]+/index\.html",
    "the report pages": r"report/.+\.report\.html",
    "the model pages": r"model/.+\.html",
    "compare": r"compare\.html",
    "the changes page": r"changes\.html",
    "a kind of change's further pages": r"changes/[a-z]+/\d+\.html",
    "the Markdown pages": r"(ranking|schema|refresh|adding-reports)\.html",
    "the release list": r"releases/index\.html",
}


def test_the_render_has_every_kind_of_page_and_no_other(checked):
    site, errors = checked
    kinds = {kind: sorted(page for page in errors if re.fullmatch(pattern, page)) for kind, pattern in KINDS.items()}
    assert all(kinds.values()), kinds
    assert len(kinds["the Markdown pages"]) == 4 and len(kinds["the report pages"]) == 12
    assert len(kinds["the model pages"]) == 9
    assert sorted(page for pages in kinds.values() for page in pages) == sorted(errors)


@pytest.mark.parametrize("kind", KINDS)
def test_the_checker_finds_no_error(checked, kind):
    site, errors = checked
    found = [line for page, lines in sorted(errors.items()) if re.fullmatch(KINDS[kind], page) for line in lines]
    assert found == [], f"{len(found)} errors in {kind}:\n" + "\n".join(found)
