"""No rebuild leaves anything stale (issue 41, must do 5): after every edit of a seeded sequence, a
rebuild into the previous render is, file for file and byte for byte, a fresh build of the same
inputs into a new folder (the render's marker included, and not one file more or less), with one
worker and with two; and the other plugins (the official sitemap, and a plugin of the test's own on
``content_object_init``) see every page object on every rebuild.

Each edit is followed by a rebuild along each path a user takes: the build runner's (``invoke
build``: it renders beside the previous render and links what did not change from it) and
Pelican's own run rendering in place into its output (``pelican content``). Both run in this
process, one build after another, as a preview's rebuilds do; the fresh build they are compared
with runs meanwhile in a process of its own, so that nothing a build keeps in memory can make the
reference stale along with the rebuild.

The archive has two releases (so that models have a history) of six suites and five families, and a
manifest with sizes. The edits, in an order and on targets drawn by ``random.Random(SEED)``: nothing
at all; a page of each render changed by hand (its size and times kept) and another removed; a
report added, removed, renamed; a metric changed so that a row moves across its suite, and one so
that a row moves by a place; a report's bytes changed with its size and times as they were (a copy
that keeps both); a model's family and another's size changed in the manifest; a template of the
theme edited and one overridden (``THEME_TEMPLATES_OVERRIDES``); a Markdown page edited and one
added; ``LEADERBOARD_PAGE_ROWS`` and ``SITENAME`` changed; a previous leaderboard given
(``LEADERBOARD_PREVIOUS_LEADERBOARD``, an earlier build's leaderboard.json), then its bytes replaced
by a later build's. Each edit of the inputs is checked to change what it means to change in the
fresh build, so that no step compares two renders of an edit that did nothing."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import quote

import pytest
from conftest import ROOT

from benchmarks.make_archive import make_archive
from core_support import leftovers, tree_digest

PELICAN = str(Path(sys.executable).parent / "pelican")
SEED = 41
# Models a release, in two releases: 2,000 reports.
MODELS = 1000
RELEASES = 2
# How many differing, missing or extra paths a failure names, of each.
SHOWN = 8
# One compact line a report, keys sorted, as make_archive writes them.
ENCODE = json.JSONEncoder(sort_keys=True).encode

# A plugin of the test's: the save_as of every content object announced with content_object_init
# during one build (Pelican's pages and the leaderboard's), written one a line, in the order
# announced, to the file PAGE_OBJECT_RECORD names, once the build is finalized.
RECORDER = '''\
import os

from pelican import signals

_seen = []


def _start(pelican):
    _seen.clear()


def _record(instance):
    _seen.append(instance.save_as)


def _finish(pelican):
    with open(os.environ["PAGE_OBJECT_RECORD"], "w", encoding="utf-8") as file:
        file.write("".join(save_as + "\\n" for save_as in _seen))


def register():
    signals.initialized.connect(_start)
    signals.content_object_init.connect(_record)
    signals.finalized.connect(_finish)
'''


@pytest.fixture(autouse=True)
def recorder_disconnected_afterwards():
    """Pelican's signals are the process's: once a test here is over, the recorder's receivers are
    disconnected, so that later builds in this process (other tests) run without it."""
    yield
    from pelican import signals

    module = sys.modules.get("page_object_recorder")
    if module is not None:
        signals.initialized.disconnect(module._start)
        signals.content_object_init.disconnect(module._record)
        signals.finalized.disconnect(module._finish)


@dataclass
class Render:
    """A render's folder, every file's digest in it, its leaderboard.json, and the page objects the
    recorder saw."""

    folder: Path
    files: dict[str, str]
    leaderboard: bytes
    objects: list[str]

    @classmethod
    def of(cls, folder: Path, record: Path) -> Render:
        return cls(folder, tree_digest(folder), (folder / "leaderboard.json").read_bytes(), recorded(record))

    def rows(self) -> list[dict]:
        """Its leaderboard's rows, in ranking order."""
        return json.loads(self.leaderboard)["rows"]


@dataclass
class Fresh:
    """A fresh build under way in a process of its own."""

    process: subprocess.Popen
    folder: Path
    record: Path
    what: str

    def render(self) -> Render:
        """The render once the build is done; its folder is removed once read."""
        try:
            output, _ = self.process.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"{self.what} did not end") from None
        assert self.process.returncode == 0, f"{self.what} failed:\n{output}"
        render = Render.of(self.folder, self.record)
        shutil.rmtree(self.folder)
        return render

    def stop(self) -> None:
        """End the build: the test stopped before it needed it."""
        self.process.kill()
        self.process.communicate()


@dataclass
class Site:
    """Everything a build reads, below the test's own folder: the archive and its manifest, a copy
    of the site's settings, Markdown pages and theme, a folder of template overrides, the
    recorder plugin; and the renders."""

    root: Path
    workers: int
    reports: Path = field(init=False)
    manifest: Path = field(init=False)
    settings: Path = field(init=False)
    pages: Path = field(init=False)
    theme: Path = field(init=False)
    overrides: Path = field(init=False)
    previous: Path = field(init=False)
    renders: Path = field(init=False)
    records: Path = field(init=False)
    site_url: str = ""
    first_leaderboard: bytes = b""
    latest: Render | None = None  # the last fresh build
    added: int = 0  # reports and pages added so far, for new names

    def __post_init__(self) -> None:
        root = self.root
        make_archive(root / "archive", MODELS, suites=6, families=5, seed=SEED, releases=RELEASES)
        self.reports, self.manifest = root / "archive" / "reports", root / "archive" / "models.jsonl"
        # A size for every third model of the manifest: the Size column, and the model pages' attributes.
        rows = [json.loads(line) for line in self.manifest.read_text(encoding="utf-8").splitlines()]
        for number, row in enumerate(rows):
            if number % 3 == 0:
                row["param_count"] = (number % 7 + 1) * 22_000_000
        self.write_manifest(rows)
        site = root / "site"
        shutil.copytree(ROOT / "content" / "pages", site / "content" / "pages")
        shutil.copytree(ROOT / "theme", site / "theme")
        self.pages, self.theme = site / "content" / "pages", site / "theme"
        self.overrides = site / "overrides"
        self.overrides.mkdir()
        self.previous = site / "previous" / "leaderboard.json"
        probe = root / "plugin"
        probe.mkdir()
        (probe / "page_object_recorder.py").write_text(RECORDER, encoding="utf-8")
        # The site's own settings (its PATH and THEME are the copies beside it), the archive, the
        # plugins (the project's and the recorder) and the overrides' folder appended.
        self.settings = site / "pelicanconf.py"
        shutil.copyfile(ROOT / "pelicanconf.py", self.settings)
        self.set_settings(
            f"PLUGIN_PATHS = [{str(ROOT / 'plugins')!r}, {str(probe)!r}]",
            'PLUGINS = PLUGINS + ["page_object_recorder"]',
            f"LEADERBOARD_REPORTS_DIR = {str(self.reports)!r}",
            f"LEADERBOARD_MANIFEST = {str(self.manifest)!r}",
            f"LEADERBOARD_WORKERS = {self.workers}",
            f"THEME_TEMPLATES_OVERRIDES = [{str(self.overrides)!r}]")
        self.renders, self.records = root / "renders", root / "records"
        self.renders.mkdir()
        self.records.mkdir()
        from pelican.settings import read_settings

        self.site_url = read_settings(str(self.settings))["SITEURL"]

    # --- the inputs -------------------------------------------------------------------------------

    def set_settings(self, *lines: str) -> None:
        """Settings appended to the settings file, a later one overriding an earlier. (The file only
        grows: Python's cache of the compiled settings is keyed by the file's size and time.)"""
        with open(self.settings, "a", encoding="utf-8") as file:
            file.write("".join(line + "\n" for line in lines))

    def write_manifest(self, rows: list[dict]) -> None:
        self.manifest.write_text("".join(ENCODE(row) + "\n" for row in rows), encoding="utf-8")

    def manifest_rows(self) -> list[dict]:
        return [json.loads(line) for line in self.manifest.read_text(encoding="utf-8").splitlines()]

    def report_files(self) -> list[str]:
        """Every report of the archive, by its path relative to the reports folder, in order."""
        return sorted(path.relative_to(self.reports).as_posix() for path in self.reports.rglob("*.json"))

    def rows(self) -> list[dict]:
        """The rows of the last fresh build, in ranking order."""
        return self.latest.rows()

    # --- the builds -------------------------------------------------------------------------------

    def fresh(self, step: int) -> Fresh:
        """A build of the inputs as they are into a new folder, in a process of its own: `pelican
        content` run in the site's folder, as a user runs it. It runs while this process rebuilds
        (``Fresh.render`` waits for it); the inputs do not change meanwhile."""
        folder, record = self.renders / f"fresh-{step}", self.records / f"fresh-{step}"
        process = subprocess.Popen([PELICAN, "content", "-s", str(self.settings), "-o", str(folder)],
                                   cwd=self.settings.parent, env={**os.environ, "PAGE_OBJECT_RECORD": str(record)},
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, encoding="utf-8")
        return Fresh(process, folder, record, f"the fresh build of step {step}")

    def with_runner(self, folder: Path, record: Path, monkeypatch) -> Render:
        """`invoke build`'s build into ``folder`` (leaderboard_tools.runner.build), in this process."""
        from leaderboard_tools.runner import build

        monkeypatch.setenv("PAGE_OBJECT_RECORD", str(record))
        build(str(self.settings), str(folder), progress=lambda line: None)
        return Render.of(folder, record)

    def with_pelican(self, folder: Path, record: Path, monkeypatch) -> Render:
        """Pelican's own run with ``folder`` as its OUTPUT_PATH, in this process: what `pelican
        content -o FOLDER` does, rendering in place into the render already there."""
        from pelican import Pelican
        from pelican.settings import read_settings

        monkeypatch.setenv("PAGE_OBJECT_RECORD", str(record))
        Pelican(read_settings(str(self.settings), override={"OUTPUT_PATH": str(folder)})).run()
        return Render.of(folder, record)


def recorded(record: Path) -> list[str]:
    """What the recorder wrote for one build; the file is removed, so that a build that does not
    write it again cannot pass with an earlier build's."""
    assert record.is_file(), "the recorder plugin wrote nothing: the build never finalized, or never loaded it"
    objects = record.read_text(encoding="utf-8").splitlines()
    record.unlink()
    return objects


# --- the edits ------------------------------------------------------------------------------------
# Each changes the inputs (drawing what it changes from the generator it is given) and says what it
# did; its check, given the fresh builds before and after it, fails unless the edit changed what it
# means to change.

Check = Callable[[Render, Render], None]


@dataclass(frozen=True)
class Edit:
    name: str
    apply: Callable[[Site, random.Random], tuple[str, Check | None]]


def changed(before: Render, after: Render) -> set[str]:
    """The paths that differ between two renders, or are in one only."""
    return {path for path in before.files.keys() | after.files.keys()
            if before.files.get(path) != after.files.get(path)}


def report_page(report_path: str) -> str:
    return "report/" + report_path[: -len(".json")] + ".html"


def read_report(site: Site, relative: str) -> dict:
    return json.loads((site.reports / relative).read_bytes())


def write_report(site: Site, relative: str, payload: dict) -> None:
    path = site.reports / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(ENCODE(payload).encode() + b"\n")


def set_leakage(payload: dict, leakage: float, recall: float | None = None) -> None:
    payload["metrics"]["leakage"].update(overall=leakage, leaked_chars=round(leakage * 2000))
    if recall is not None:
        payload["metrics"]["exact_span_f1"]["recall"] = recall


def suite_order(rows: list[dict], suite: str) -> list[str]:
    """The report paths of ``suite``'s rows, in ranking order."""
    return [row["report_path"] for row in rows if row["suite"] == suite]


def nothing(site: Site, rng: random.Random) -> tuple[str, Check | None]:
    """No check: with the inputs as they were, the last fresh build is the fresh build of them."""
    return "nothing changed", None


def output_edited_by_hand(site: Site, rng: random.Random) -> tuple[str, Check | None]:
    """In each render rebuilt in place, a report page's bytes changed, its size and times kept, and a
    model page removed: the rebuild must make both again. The inputs are as they were (no check)."""
    rows = site.rows()
    page, model = report_page(rng.choice(rows)["report_path"]), f"model/{rng.choice(rows)['model_name']}.html"
    for render in ("runner", "pelican"):
        folder = site.renders / render
        path = folder / page
        status, data = os.stat(path), path.read_bytes()
        path.write_bytes(data.replace(b"Leakage", b"Leaking", 1))
        os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
        assert path.read_bytes() != data and os.stat(path).st_size == status.st_size
        (folder / model).unlink()
    return f"in the renders, {page} changed (its size and times kept) and {model} removed", None


def add_report(site: Site, rng: random.Random) -> tuple[str, Check]:
    source = rng.choice(site.report_files())
    payload = read_report(site, source)
    site.added += 1
    name = f"OpenMed/synth-added-{site.added:03d}"
    family = rng.choice(("PII", "NER", "Clinical", "Oncology", "Pharma"))
    payload.update(model_name=name, device="cpu")
    payload["metadata"] = {"synthetic": True, "release_tag": "v3.1.0", "model_family": family,
                           "reproducibility_hash": "sha256:" + f"{site.added:064x}"}
    set_leakage(payload, round(rng.uniform(0.001, 0.1), 4), round(rng.uniform(0.6, 1.0), 4))
    relative = f"v3.1.0/{payload['suite']}/{family}/added-{site.added:03d}.report.json"
    write_report(site, relative, payload)

    def check(before: Render, after: Render) -> None:
        assert report_page(relative) in after.files and f"model/{name}.html" in after.files
    return f"added {relative} ({name}, {family})", check


def remove_report(site: Site, rng: random.Random) -> tuple[str, Check]:
    relative = rng.choice(site.report_files())
    (site.reports / relative).unlink()

    def check(before: Render, after: Render) -> None:
        assert report_page(relative) in before.files and report_page(relative) not in after.files
        assert "reports/" + relative not in after.files
    return f"removed {relative}", check


def rename_report(site: Site, rng: random.Random) -> tuple[str, Check]:
    relative = rng.choice(site.report_files())
    renamed = "renamed/" + relative.replace("/", "-")
    (site.reports / renamed).parent.mkdir(parents=True, exist_ok=True)
    os.rename(site.reports / relative, site.reports / renamed)

    def check(before: Render, after: Render) -> None:
        assert report_page(relative) not in after.files and report_page(renamed) in after.files
    return f"renamed {relative} to {renamed}", check


def move_across_suite(site: Site, rng: random.Random) -> tuple[str, Check]:
    rows = site.rows()
    suite = rng.choice(sorted({row["suite"] for row in rows}))
    order = suite_order(rows, suite)
    relative = rng.choice(order[len(order) * 3 // 4:])
    payload = read_report(site, relative)
    set_leakage(payload, 0.0, 1.0)
    write_report(site, relative, payload)
    was = order.index(relative)

    def check(before: Render, after: Render) -> None:
        now = suite_order(after.rows(), suite).index(relative)
        assert now < len(order) // 4 < was, (was, now)
    return f"{relative}: leakage 0 and recall 1, from place {was + 1} of {len(order)} in {suite} to its top", check


def move_by_a_place(site: Site, rng: random.Random) -> tuple[str, Check]:
    rows = site.rows()
    by_path = {row["report_path"]: row for row in rows}
    suite = rng.choice(sorted({row["suite"] for row in rows}))
    order = suite_order(rows, suite)
    # A row in the middle whose neighbour above leaks strictly less: given the neighbour's leakage
    # and a little more recall, it passes it and nothing else.
    candidates = [place for place in range(len(order) // 4, len(order) * 3 // 4)
                  if by_path[order[place - 1]]["leakage"] < by_path[order[place]]["leakage"]
                  and by_path[order[place - 1]]["recall"] < 0.999]
    place = rng.choice(candidates)
    relative, above = order[place], by_path[order[place - 1]]
    payload = read_report(site, relative)
    set_leakage(payload, above["leakage"], round(above["recall"] + 0.0001, 4))
    write_report(site, relative, payload)

    def check(before: Render, after: Render) -> None:
        now = suite_order(after.rows(), suite)
        assert now.index(relative) == place - 1 and now.index(above["report_path"]) == place
    return f"{relative}: from place {place + 1} to {place} in {suite}", check


def same_size_and_times(site: Site, rng: random.Random) -> tuple[str, Check]:
    """A report copied over another with other bytes of the same size, its times put back as a copy
    that keeps them would (cp -p): only the bytes say it changed."""
    files = site.report_files()
    while True:
        relative = rng.choice(files)
        path = site.reports / relative
        old = path.read_bytes()
        payload = json.loads(old)
        # A leakage of four decimals for one of four decimals: the same length, another rank.
        if len(str(payload["metrics"]["leakage"]["overall"])) == 6:
            for _ in range(50):
                leakage = round(rng.uniform(0.001, 0.099), 4)
                set_leakage(payload, leakage)
                new = ENCODE(payload).encode() + b"\n"
                if len(new) == len(old) and new != old:
                    break
            else:
                continue
            break
    status = os.stat(path)
    scratch = site.root / "copy.report.json"
    scratch.write_bytes(new)
    shutil.copyfile(scratch, path)  # over the file itself, as cp does: the same inode
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    scratch.unlink()
    again = os.stat(path)
    assert (again.st_size, again.st_mtime_ns, again.st_ino) == (status.st_size, status.st_mtime_ns, status.st_ino)
    assert path.read_bytes() == new != old

    def check(before: Render, after: Render) -> None:
        assert {"reports/" + relative, report_page(relative), "leaderboard.json"} <= changed(before, after)
    return f"{relative}: leakage {leakage}, the same size and times", check


def manifest_family(site: Site, rng: random.Random) -> tuple[str, Check]:
    rows = site.manifest_rows()
    # A model named in the manifest whose reports name no family: its family is the manifest's.
    published = {row["model_name"]: row["model_family"] for row in site.rows()}
    candidates = [number for number, row in enumerate(rows) if published.get(row["repo_id"]) == row["family"]]
    row = rows[rng.choice(candidates)]
    old = row["family"]
    row["family"] = rng.choice(sorted({"PII", "NER", "Clinical", "Oncology", "Pharma"} - {old}))
    site.write_manifest(rows)
    model, family = row["repo_id"], row["family"]

    def check(before: Render, after: Render) -> None:
        rows_now = after.rows()
        assert {row["model_family"] for row in rows_now if row["model_name"] == model} == {family}
    return f"models.jsonl: {model}'s family from {old} to {family}", check


def manifest_size(site: Site, rng: random.Random) -> tuple[str, Check]:
    rows = site.manifest_rows()
    row = rows[rng.choice([number for number, row in enumerate(rows) if "param_count" in row])]
    old = row["param_count"]
    row["param_count"] = old + rng.randrange(1, 50) * 1_000_000
    site.write_manifest(rows)
    model = row["repo_id"]

    def check(before: Render, after: Render) -> None:
        assert f"model/{model}.html" in changed(before, after)
    return f"models.jsonl: {model}'s param_count from {old:,} to {row['param_count']:,}", check


def edit_theme_template(site: Site, rng: random.Random) -> tuple[str, Check]:
    """The theme's footer, which every page includes."""
    path = site.theme / "templates" / "site_footer.html"
    text = path.read_text(encoding="utf-8")
    sentence = "The same archive always renders the same bytes."
    assert sentence in text
    path.write_text(text.replace(sentence, f"{sentence} Edition {rng.randrange(100, 1000)}."), encoding="utf-8")

    def check(before: Render, after: Render) -> None:
        rows = after.rows()
        assert {"index.html", "ranking.html", report_page(rows[-1]["report_path"])} <= changed(before, after)
    return "theme/templates/site_footer.html: a sentence longer", check


def override_template(site: Site, rng: random.Random) -> tuple[str, Check]:
    """An override of the model attributes' table, which report and model pages include."""
    text = (site.theme / "templates" / "model_attributes.html").read_text(encoding="utf-8")
    caption = "<caption>From the <code>models.jsonl</code> manifest"
    assert caption in text
    reworded = "<caption>As the manifest says (from the <code>models.jsonl</code> manifest"
    (site.overrides / "model_attributes.html").write_text(text.replace(caption, reworded), encoding="utf-8")
    sized = [row["repo_id"] for row in site.manifest_rows() if "param_count" in row]

    def check(before: Render, after: Render) -> None:
        assert f"model/{sized[0]}.html" in changed(before, after)
    return "overrides/model_attributes.html: the theme's, its caption reworded", check


def edit_markdown_page(site: Site, rng: random.Random) -> tuple[str, Check]:
    path = site.pages / "ranking.md"
    text = path.read_text(encoding="utf-8")
    sentence = "Every published row is ranked by two numbers taken from its report:"
    assert sentence in text
    path.write_text(text.replace(sentence, f"Every published row (rule {rng.randrange(10, 100)}) is ranked by two "
                                           "numbers taken from its report:"), encoding="utf-8")

    def check(before: Render, after: Render) -> None:
        assert "ranking.html" in changed(before, after)
    return "content/pages/ranking.md: a sentence of its body", check


def add_markdown_page(site: Site, rng: random.Random) -> tuple[str, Check]:
    site.added += 1
    slug = f"notes-{site.added:03d}"
    (site.pages / f"{slug}.md").write_text(f"Title: Notes {site.added}\nSlug: {slug}\nDate: 2026-10-01\n"
                                           f"Navtitle: Notes\nNavorder: 9\n\nWhat changed in the archive.\n",
                                           encoding="utf-8")

    def check(before: Render, after: Render) -> None:
        assert {f"{slug}.html", "index.html", "sitemap.xml"} <= changed(before, after)
    return f"content/pages/{slug}.md added (in every page's navigation)", check


def page_rows(site: Site, rng: random.Random) -> tuple[str, Check]:
    rows = rng.choice((7, 9, 13))
    site.set_settings(f"LEADERBOARD_PAGE_ROWS = {rows}")

    def check(before: Render, after: Render) -> None:
        pages = [path for path in after.files.keys() - before.files.keys() if path.startswith("suite/")]
        assert pages, "no family page was added"
    return f"LEADERBOARD_PAGE_ROWS = {rows}", check


def site_name(site: Site, rng: random.Random) -> tuple[str, Check]:
    name = f"OpenMed Leaderboard {rng.randrange(100, 1000)}"
    site.set_settings(f"SITENAME = {name!r}")

    def check(before: Render, after: Render) -> None:
        assert {"index.html", "compare.html", "ranking.html"} <= changed(before, after)
    return f"SITENAME = {name!r}", check


def previous_leaderboard(site: Site, rng: random.Random) -> tuple[str, Check]:
    site.previous.parent.mkdir(parents=True, exist_ok=True)
    site.previous.write_bytes(site.first_leaderboard)
    site.set_settings(f"LEADERBOARD_PREVIOUS_LEADERBOARD = {str(site.previous)!r}")

    def check(before: Render, after: Render) -> None:
        assert "changes.html" not in before.files and "changes.html" in after.files
    return "LEADERBOARD_PREVIOUS_LEADERBOARD: the first build's leaderboard.json", check


def newer_previous_leaderboard(site: Site, rng: random.Random) -> tuple[str, Check]:
    """The previous leaderboard's file, at the same path, replaced by the last build's."""
    site.previous.write_bytes(site.latest.leaderboard)

    def check(before: Render, after: Render) -> None:
        assert "changes.html" in changed(before, after)
    return "the previous leaderboard's bytes replaced by the last build's leaderboard.json", check


EDITS = [Edit(function.__name__, function) for function in (
    nothing, output_edited_by_hand, add_report, remove_report, rename_report, move_across_suite, move_by_a_place,
    same_size_and_times, manifest_family, manifest_size, edit_theme_template, override_template, edit_markdown_page,
    add_markdown_page, page_rows, site_name, previous_leaderboard, newer_previous_leaderboard)]


def sequence(rng: random.Random) -> list[Edit]:
    """Every edit once, in an order drawn by ``rng``; the previous leaderboard is given before its
    bytes are replaced."""
    edits = list(EDITS)
    rng.shuffle(edits)
    names = [edit.name for edit in edits]
    given, replaced = names.index("previous_leaderboard"), names.index("newer_previous_leaderboard")
    if replaced < given:
        edits[given], edits[replaced] = edits[replaced], edits[given]
    return edits


# --- the checks -----------------------------------------------------------------------------------

def differences(rebuilt: Render, fresh: Render) -> str | None:
    """What tells a rebuild from the fresh build: the first few paths that differ, that only the
    fresh build has, that only the rebuild has; None when there is nothing."""
    differ = sorted(path for path in rebuilt.files.keys() & fresh.files.keys()
                    if rebuilt.files[path] != fresh.files[path])
    missing = sorted(fresh.files.keys() - rebuilt.files.keys())
    extra = sorted(rebuilt.files.keys() - fresh.files.keys())
    parts = [f"{len(paths)} {what}: " + ", ".join(paths[:SHOWN]) + (", ..." if len(paths) > SHOWN else "")
             for what, paths in (("differ", differ), ("missing from the rebuild", missing),
                                 ("only in the rebuild (stale)", extra)) if paths]
    return "; ".join(parts) or None


def html_pages(render: Render) -> set[str]:
    """Every page of a render (each has a page object: Pelican's pages and the leaderboard's)."""
    return {path for path in render.files if path.endswith(".html")}


def sitemap_addresses(folder: Path) -> set[str]:
    return set(re.findall(r"<loc>([^<]*)</loc>", (folder / "sitemap.xml").read_text(encoding="utf-8")))


def address(site_url: str, page: str) -> str:
    return site_url + "/" + quote(re.sub(r"(^|/)index\.html$", r"\1", page))


def assert_same_as_fresh(site: Site, rebuilt: Render, fresh: Render, when: str) -> None:
    """The rebuild holds exactly the fresh build's files, each with its bytes; its sitemap lists
    every HTML page it holds; and a page object was announced for each of them, as many as the
    fresh build announced."""
    difference = differences(rebuilt, fresh)
    if difference:
        pytest.fail(f"{when}: the rebuild in place is not the fresh build: {difference}", pytrace=False)
    assert ".leaderboard-render.json" in rebuilt.files
    if leftovers(rebuilt.folder):
        pytest.fail(f"{when}: left beside the render: {leftovers(rebuilt.folder)}", pytrace=False)
    pages = html_pages(rebuilt)
    listed = sitemap_addresses(rebuilt.folder)
    expected = {address(site.site_url, page) for page in pages}
    if listed != expected:
        pytest.fail(f"{when}: the sitemap lists {sorted(listed - expected)[:SHOWN]}, which are no page, and misses "
                    f"{sorted(expected - listed)[:SHOWN]}", pytrace=False)
    announced = sorted(rebuilt.objects)
    if announced != sorted(fresh.objects) or set(announced) != pages or len(announced) != len(pages):
        pytest.fail(f"{when}: content_object_init announced {len(announced)} page objects for {len(pages)} pages "
                    f"(the fresh build: {len(fresh.objects)}); none for {sorted(pages - set(announced))[:SHOWN]}, "
                    f"others for {sorted(set(announced) - pages)[:SHOWN]}", pytrace=False)


def rebuilt_along_both_paths(site: Site, fresh: Fresh | Render, monkeypatch) -> tuple[Render, list[tuple[str, Render]]]:
    """The fresh build (under way, or done already), and the rebuild of each path into its render
    meanwhile: the build runner's into renders/runner, Pelican's own in place into renders/pelican."""
    try:
        rebuilt = [(folder.name, build(folder, site.records / folder.name, monkeypatch))
                   for folder, build in ((site.renders / "runner", site.with_runner),
                                         (site.renders / "pelican", site.with_pelican))]
    except BaseException:
        if isinstance(fresh, Fresh):
            fresh.stop()
        raise
    return fresh.render() if isinstance(fresh, Fresh) else fresh, rebuilt


@pytest.mark.parametrize("workers", [1, 2])
def test_every_rebuild_in_place_is_byte_for_byte_a_fresh_build_of_the_same_inputs(tmp_path, monkeypatch, workers):
    site = Site(tmp_path, workers)
    rng = random.Random(SEED)
    # The first build of each path, into a new folder.
    fresh, first = rebuilt_along_both_paths(site, site.fresh(0), monkeypatch)
    assert sum(page.startswith("model/") for page in fresh.files) == MODELS  # a page a model
    assert sum(page.startswith("report/") for page in fresh.files) == MODELS * RELEASES  # a page a report
    for path, render in first:
        assert_same_as_fresh(site, render, fresh, f"the first build, by {path}")
    site.latest, site.first_leaderboard = fresh, fresh.leaderboard

    for step, edit in enumerate(sequence(rng), start=1):
        what, check = edit.apply(site, rng)
        when = f"step {step} of seed {SEED}, {workers} worker(s), {edit.name} ({what})"
        before = site.latest
        fresh, rebuilt = rebuilt_along_both_paths(site, before if check is None else site.fresh(step), monkeypatch)
        try:
            if check is not None:
                check(before, fresh)
        except AssertionError as error:
            raise AssertionError(f"{when}: the edit did not change what it means to change in a fresh build: "
                                 f"{error}") from None
        for path, render in rebuilt:
            assert_same_as_fresh(site, render, fresh, f"{when}, rebuilt by {path}")
        site.latest = fresh
