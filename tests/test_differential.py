"""The project against the reference renderer (openmed 3.1.0), archive by archive.

On every archive of ``differential_support.all_cases()`` (random valid archives with many rows,
every contract rule broken in turn, and probes at the edges of the rules) both refuse, or both
publish byte-identical ``leaderboard.json`` and identical ``reports/`` trees. The reference runs
in-process, as its command line would run it; an exception it raises, crash or not, is a refusal.

Deliberate differences, kept out of the differential set:
- A folder given as the manifest: the project refuses it (the build cannot start), the reference
  reads no fallbacks from it and carries on.
- A manifest that is not UTF-8 text: both refuse, but the project says so as a ``ManifestError``
  (the build cannot start) rather than as problem lines.
- Nesting close to Python's recursion limit: the reference's command line publishes a report nested
  up to 988 levels deep (measured with openmed 3.1.0 on Python 3.11) and crashes beyond; ``invoke
  build`` refuses from 980 levels on. Either border moves with the depth of the caller's stack, so
  the cases here nest 200 levels (both publish) or 100000 (both refuse), never in between.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from openmed.core.model_registry import load_manifest_rows
from openmed.eval.leaderboard import write_leaderboard

from conftest import ROOT, SETTINGS, UPSTREAM
from differential_support import MANIFEST, Case, all_cases

from core_support import leaderboard_bytes, read as read_leaderboard, report_copies
from benchmark_leaderboard.problems import BuildRefused
from benchmark_leaderboard.read.manifest import ManifestError
from benchmarks.make_archive import make_archive
from leaderboard_tools.faults import BuildError
from leaderboard_tools.runner import build as render_site

pytestmark = pytest.mark.oracle

CASES = all_cases()
BY_NAME = {case.name: case for case in CASES}
# Rendered through Pelican as well: a spread of valid archives and every case with odd paths.
RENDERED = [case for index, case in enumerate(CASES) if case.name.startswith("valid-") and index % 8 == 0] + [
    BY_NAME[name] for name in (
        "links-ignored", "folder-named-leaderboard-json", "leaderboard-json-skipped", "auxiliary-everywhere",
        "escaped-surrogate-pair", "unpublished-numbers-copied", "manifest-missing-file", "file-name-not-utf8",
        "surrogate-in-unpublished-text", "release-fallback-surrogate", "empty-archive", "only-links",
        "folder-named-x.json", "file-invalid-utf8", "manifest-line-not-json", "hash-upper-case",
        "report-named-dot-json", "manifest-not-utf8", "folder-name-not-utf8", "auxiliary-name-not-utf8",
    )
]


@dataclass(frozen=True)
class Outcome:
    """What a renderer made of an archive: why it refused, or what it published."""

    refused: str | None = None
    leaderboard: bytes | None = None
    reports: dict[str, bytes] = field(default_factory=dict)

    def describe(self) -> str:
        if self.refused is not None:
            return "refused: " + self.refused[:2000]
        return f"published {len(self.reports)} reports"


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` by its relative POSIX path, and its bytes; links are not followed."""
    found: dict[str, bytes] = {}
    for parent, folders, names in os.walk(folder):
        for name in names + [name for name in folders if os.path.islink(os.path.join(parent, name))]:
            path = Path(parent, name)
            found[path.relative_to(folder).as_posix()] = b"LINK" if path.is_symlink() else path.read_bytes()
    return found


def run_reference(reports: Path, manifest: Path, release_tag: str | None, output: Path) -> Outcome:
    """The reference's ``main()``, in-process: manifest rows only from a manifest that is a file."""
    try:
        manifest_rows = load_manifest_rows(manifest) if manifest.is_file() else []
        write_leaderboard(reports, output, manifest_rows=manifest_rows, release_tag=release_tag)
    except Exception as error:  # noqa: BLE001 - a crash of the reference is a refusal too
        return Outcome(refused=f"{type(error).__name__}: {error}")
    return Outcome(leaderboard=(output / "leaderboard.json").read_bytes(), reports=tree(output / "reports"))


def run_project(reports: Path, manifest: Path, release_tag: str | None) -> Outcome:
    """The project's pipeline without Pelican; anything but a refusal propagates and fails the test."""
    try:
        read = read_leaderboard(reports, manifest, release_tag)
    except BuildRefused as refused:
        return Outcome(refused="\n".join(refused.lines()))
    except ManifestError as error:
        return Outcome(refused=str(error))
    return Outcome(leaderboard=leaderboard_bytes(read.leaderboard), reports=report_copies(read))


def assert_same(ours: Outcome, reference: Outcome) -> None:
    assert (ours.refused is None) == (reference.refused is None), (
        f"the project {ours.describe()}\nthe reference {reference.describe()}")
    if reference.refused is None:
        assert ours.leaderboard.decode("utf-8") == reference.leaderboard.decode("utf-8")
        assert ours.leaderboard == reference.leaderboard
        assert sorted(ours.reports) == sorted(reference.reports)
        for path, data in reference.reports.items():
            assert ours.reports[path] == data, f"reports/{path} differs"


def assert_case_is_what_it_claims(case: Case, reference: Outcome) -> None:
    """A case meant to be valid (or hostile) really is, by the reference's own verdict."""
    if case.expect == "publish":
        assert reference.refused is None, f"{case.name} was meant to be valid: {reference.refused}"
    elif case.expect == "refuse":
        assert reference.refused is not None, f"{case.name} was meant to break a rule, yet the reference published it"


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_project_and_reference_agree(case: Case, tmp_path: Path):
    reports, manifest = case.write(tmp_path / "archive")
    reference = run_reference(reports, manifest, case.release_tag, tmp_path / "reference")
    assert_case_is_what_it_claims(case, reference)
    assert_same(run_project(reports, manifest, case.release_tag), reference)


@pytest.mark.parametrize("case", RENDERED, ids=[case.name for case in RENDERED])
def test_rendered_site_matches_reference(case: Case, tmp_path: Path):
    reports, manifest = case.write(tmp_path / "archive")
    reference = run_reference(reports, manifest, case.release_tag, tmp_path / "reference")
    site = tmp_path / "site"
    try:
        render_site(SETTINGS, str(site), reports_dir=str(reports), manifest=str(manifest),
                    release_tag=case.release_tag, progress=lambda message: None)
    except (BuildRefused, BuildError) as error:
        ours = Outcome(refused=str(error))
        assert not site.exists(), "a refused build must write nothing"
    else:
        ours = Outcome(leaderboard=(site / "leaderboard.json").read_bytes(), reports=tree(site / "reports"))
        assert (site / "index.html").is_file()
    assert_same(ours, reference)


def run_command(*args: str) -> subprocess.CompletedProcess:
    """Run a command from the checkout; its output is read as UTF-8 whatever locale an earlier
    in-process Pelican build (LOCALE = C) left behind."""
    return subprocess.run(args, cwd=ROOT, capture_output=True, encoding="utf-8", errors="replace", timeout=120)


# Both command lines, as a user runs them (a padded --release-tag fallback included).
COMMAND_LINE = [BY_NAME[name] for name in ("valid-1008-60rows", "links-ignored", "manifest-line-not-json", "file-bom")]


@pytest.mark.parametrize("case", COMMAND_LINE, ids=[case.name for case in COMMAND_LINE])
def test_command_lines_agree(case: Case, tmp_path: Path):
    """``invoke build`` against ``python -m openmed.eval.leaderboard``: this is what the harness stands for."""
    reports, manifest = case.write(tmp_path / "archive")
    tag = ["--release-tag", case.release_tag or "v0"]
    reference = run_command(sys.executable, "-m", "openmed.eval.leaderboard", "--reports-dir", str(reports),
                            "--output-dir", str(tmp_path / "reference"), "--manifest", str(manifest), *tag)
    ours = run_command(str(Path(sys.executable).parent / "invoke"), "build", "--reports-dir", str(reports),
                       "--output-dir", str(tmp_path / "site"), "--manifest", str(manifest), *tag)
    assert (ours.returncode == 0) == (reference.returncode == 0), ours.stderr + reference.stderr
    if reference.returncode == 0:
        assert (tmp_path / "site" / "leaderboard.json").read_bytes() == (tmp_path / "reference" / "leaderboard.json").read_bytes()
        assert tree(tmp_path / "site" / "reports") == tree(tmp_path / "reference" / "reports")
    else:
        assert ours.returncode == 1 and "Traceback" not in ours.stderr and not (tmp_path / "site").exists()
    assert case.expect == ("publish" if reference.returncode == 0 else "refuse")


@pytest.mark.parametrize("release_tag", ["v3.1.0", None])
def test_upstream_archive_agrees(release_tag: str | None, tmp_path: Path):
    reports, manifest = UPSTREAM / "docs" / "benchmarks", UPSTREAM / MANIFEST
    reference = run_reference(reports, manifest, release_tag, tmp_path / "reference")
    assert reference.refused is None
    assert_same(run_project(reports, manifest, release_tag), reference)


def test_large_benchmark_archive_agrees(tmp_path: Path):
    """The benchmark's archive: 750 models in two releases, half of them filled from the manifest."""
    make_archive(tmp_path / "bench", 750, suites=7, families=6, seed=11, releases=2)
    reports, manifest = tmp_path / "bench" / "reports", tmp_path / "bench" / MANIFEST
    reference = run_reference(reports, manifest, None, tmp_path / "reference")
    assert reference.refused is None and len(reference.reports) == 1500
    assert_same(run_project(reports, manifest, None), reference)


NAMED = [case for case in CASES if case.culprit is not None]


@pytest.mark.parametrize("case", NAMED, ids=[case.name for case in NAMED])
def test_refusal_names_the_offending_file(case: Case, tmp_path: Path):
    """Every refusal of a hostile archive has a problem line naming the file that broke the rule."""
    reports, manifest = case.write(tmp_path / "archive")
    try:
        read_leaderboard(reports, manifest, case.release_tag)
    except BuildRefused as refused:
        assert refused.problems, "a refusal without a problem"
        files = [problem.file for problem in refused.problems]
        assert case.culprit in files, "\n".join(refused.lines())
        for line in refused.lines():
            assert "Traceback" not in line and str(tmp_path) not in line, line
    except ManifestError as error:
        assert case.culprit == MANIFEST and str(manifest) in str(error)
    else:
        assert case.expect is None, f"{case.name} breaks a rule, yet the project published it"


def test_the_cases_cover_what_they_must():
    """The differential set is no smaller than promised: many rows, both verdicts, odd paths."""
    valid = [case for case in CASES if case.expect == "publish"]
    hostile = [case for case in CASES if case.expect == "refuse"]
    assert len(CASES) >= 400 and len(valid) >= 100 and len(hostile) >= 150
    assert max(len(case.files) for case in valid) >= 60
    paths = [path for case in CASES for path in case.files]
    for mark in (" ", "#", "%", "'", '"', "é", "\udce9", "/"):
        assert any(mark in path for path in paths), mark
    assert any(case.links for case in valid) and any(case.folders for case in hostile)
    assert any(case.manifest is None for case in valid) and any(case.release_tag is None for case in valid)
