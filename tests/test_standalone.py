"""The repository stands alone: nothing it runs or tests names a path beside or outside the checkout,
the test data it needs is its own, and so is the synthetic archive maker of the benchmark."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from benchmarks.make_archive import make_archive, release_tags
from core_support import build, leaderboard_bytes, tree_digest

# What a build, a test or the benchmark runs: none of it may read a file outside the repository.
SCANNED = ["tests", "benchmarks", "plugins", "leaderboard_tools", "tasks.py", "Makefile", "pelicanconf.py", "publishconf.py"]
# Ways of naming a path beside or outside the checkout. The patterns are spelled so that this file,
# which is scanned too, does not match them itself. A relative "../" alone is no sign (a page's links
# climb folders of the site); what it climbs to is.
OUTSIDE = [
    (re.compile(r"\.\.[/\\]+(?:\.\.[/\\]+)*shared\b"), "a relative path to the shared folder beside the checkout"),
    (re.compile(r"[/\\]shared[/\\](?:bench|reference|notes|seed|hooks|CONTRACT)"), "the shared folder beside the checkout"),
    (re.compile(r"(?<![\w.])[/]work[/]"), "an absolute path into this machine's work folder"),
    (re.compile(r"\b(?:ROOT|HERE)\.parent\s*/"), "a path joined onto the checkout's parent"),
    (re.compile(r"(?:join\([^)\n]*|/\s*)[\"']\.\.[\"']\s*,\s*[\"']shared"), "a path joined with .. and shared"),
    (re.compile(r"dirname\(\s*(?:HERE|ROOT)\s*\)"), "the checkout's parent folder"),
]


def outside_paths(name: str, text: str) -> list[str]:
    """One line per place in ``text`` that names a path outside the repository."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for pattern, what in OUTSIDE:
            if pattern.search(line):
                found.append(f"{name}:{number}: {what}: {line.strip()}")
    return found


# The planted lines are written with placeholders, filled in when the test runs: this file is scanned too.
PLANTED = """\
MAKE = "{up}/{sibling}/bench/make_archive.py"
UPSTREAM = ROOT{parent} / "{sibling}" / "reference"
include {up}/common.mk
CONTRACT = "/{work}/{sibling}/CONTRACT.md"
HERE_UP = os.path.join(HERE, "{up}", "{sibling}")
PARENT = os.path.{dirname}(HERE)
fine = ROOT / "tests" / "data"  # and a URL path such as /a/{up}/b is no file of ours
"""
FOUND = [
    'planted.py:1: a relative path to the shared folder beside the checkout: MAKE = "{up}/{sibling}/bench/make_archive.py"',
    'planted.py:1: the shared folder beside the checkout: MAKE = "{up}/{sibling}/bench/make_archive.py"',
    'planted.py:2: a path joined onto the checkout\'s parent: UPSTREAM = ROOT{parent} / "{sibling}" / "reference"',
    'planted.py:4: the shared folder beside the checkout: CONTRACT = "/{work}/{sibling}/CONTRACT.md"',
    'planted.py:4: an absolute path into this machine\'s work folder: CONTRACT = "/{work}/{sibling}/CONTRACT.md"',
    'planted.py:5: a path joined with .. and shared: HERE_UP = os.path.join(HERE, "{up}", "{sibling}")',
    "planted.py:6: the checkout's parent folder: PARENT = os.path.{dirname}(HERE)",
]
TOKENS = {"up": "..", "sibling": "sha" "red", "parent": ".parent", "work": "work", "dirname": "dirname"}


def test_the_scan_finds_every_way_of_naming_a_path_outside():
    assert outside_paths("planted.py", PLANTED.format(**TOKENS)) == [line.format(**TOKENS) for line in FOUND]


def test_no_file_that_builds_tests_or_benchmarks_names_a_path_outside_the_repository():
    # Tracked files, and new ones not yet added (ignored ones, such as the benchmark's work folder, are not).
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *SCANNED],
                            cwd=ROOT, capture_output=True, check=True)
    names = sorted(name for name in listed.stdout.decode().split("\0") if name)
    assert "tests/test_standalone.py" in names and "Makefile" in names
    found = []
    for name in names:
        path = ROOT / name
        if not path.is_file():  # deleted in the working tree, not yet in the index
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # not text: names no path
            continue
        found += outside_paths(name, text)
    assert found == []


def test_the_upstream_archive_is_test_data_of_the_repository():
    from conftest import UPSTREAM

    assert UPSTREAM.is_relative_to(ROOT)
    assert sorted(path.relative_to(UPSTREAM).as_posix() for path in UPSTREAM.rglob("*") if path.is_file()) == [
        "README.md",
        "docs/benchmarks/edge-sbc-results/2026-08-18-jetson-nano-arm64-proxy.json",
        "docs/benchmarks/edge-sbc-results/2026-08-18-raspberry-pi-5-arm64-proxy.json",
        "docs/benchmarks/golden.report.json",
        "docs/benchmarks/low-resource-baseline.json",
        "expected-leaderboard.json",
        "models.jsonl",
    ]


# The synthetic archive maker (benchmarks/make_archive.py).

def reports_of(root: Path) -> dict[str, dict]:
    reports = root / "reports"
    return {path.relative_to(reports).as_posix(): json.loads(path.read_text(encoding="utf-8"))
            for path in sorted(reports.rglob("*.report.json"))}


def test_the_same_arguments_write_the_same_bytes_and_another_seed_other_metrics(tmp_path):
    assert make_archive(tmp_path / "a", 40, suites=3, families=2, seed=5, releases=2) == 80
    make_archive(tmp_path / "b", 40, suites=3, families=2, seed=5, releases=2)
    make_archive(tmp_path / "c", 40, suites=3, families=2, seed=6, releases=2)

    assert tree_digest(tmp_path / "a") == tree_digest(tmp_path / "b")
    assert len(tree_digest(tmp_path / "a")) == 81  # 80 reports and models.jsonl
    first, other = reports_of(tmp_path / "a"), reports_of(tmp_path / "c")
    assert first.keys() == other.keys()
    assert sum(first[path]["metrics"] != other[path]["metrics"] for path in first) > 60


def test_a_small_archive_file_by_file(tmp_path):
    make_archive(tmp_path, 4, suites=2, families=2, seed=1)

    assert sorted(reports_of(tmp_path)) == [
        "v3.0.0/suite-01/NER/000002.report.json",
        "v3.0.0/suite-01/PII/000000.report.json",
        "v3.0.0/suite-02/NER/000003.report.json",
        "v3.0.0/suite-02/PII/000001.report.json",
    ]
    assert (tmp_path / "reports" / "v3.0.0" / "suite-02" / "PII" / "000001.report.json").read_text(encoding="utf-8") == (
        '{"device": "cuda", "fixture_count": 11, "generated_at": "2026-02-02T01:07:00Z", "metadata": {"model_family": "PII", '
        '"release_tag": "v3.0.0", "reproducibility_hash": "sha256:0162fd34c50be9d7ec8871f70b394f02e41233b65b08d34570d081d338f120b8", '
        '"synthetic": true}, "metrics": {"exact_span_f1": {"f1": 0.7254, "precision": 0.7982, "recall": 0.6648}, "leakage": '
        '{"leaked_chars": 229, "overall": 0.1147, "total_chars": 2000}}, "model_name": "OpenMed/synth-pii-000001", "suite": "suite-02"}\n'
    )
    assert (tmp_path / "models.jsonl").read_text(encoding="utf-8") == (
        '{"family": "PII", "repo_id": "OpenMed/synth-pii-000000", '
        '"reproducibility_hash": "sha256:727d0da930b8d1e2b8d2f458846698192933834b7340c6283e3333427d10a15b"}\n'
        '{"family": "NER", "repo_id": "OpenMed/synth-ner-000002", '
        '"reproducibility_hash": "sha256:181da43d5981ca2d2a048f38f99218e77b748349b7f0214cb5fe10d6f6b75cbf"}\n'
    )


def test_every_report_is_synthetic_and_half_the_models_rely_on_the_manifest(tmp_path):
    make_archive(tmp_path, 100, releases=2)
    reports = reports_of(tmp_path)
    manifest = {json.loads(line)["repo_id"] for line in (tmp_path / "models.jsonl").read_text(encoding="utf-8").splitlines()}

    assert all(report["metadata"]["synthetic"] is True for report in reports.values())
    relying = {report["model_name"] for report in reports.values() if not {"model_family", "family"} & set(report["metadata"])}
    assert relying == manifest and len(manifest) == 50
    # The project publishes it without a --release-tag: every report carries its own.
    leaderboard = json.loads(leaderboard_bytes(build(tmp_path / "reports", tmp_path / "models.jsonl")))
    assert leaderboard["row_count"] == 200
    assert {row["release_tag"] for row in leaderboard["rows"]} == {"v3.0.0", "v3.1.0"}


def test_every_model_is_in_every_release_with_metrics_that_drift_a_little(tmp_path):
    make_archive(tmp_path / "one", 60)
    make_archive(tmp_path / "three", 60, releases=3)
    one, three = reports_of(tmp_path / "one"), reports_of(tmp_path / "three")

    assert release_tags(3) == ["v3.0.0", "v3.1.0", "v3.2.0"]
    # More releases only add folders: the first release and the manifest are the same.
    assert {path: report for path, report in three.items() if path.startswith("v3.0.0/")} == one
    assert (tmp_path / "one" / "models.jsonl").read_bytes() == (tmp_path / "three" / "models.jsonl").read_bytes()
    by_model: dict[str, dict[str, dict]] = {}
    for report in three.values():
        by_model.setdefault(report["model_name"], {})[report["metadata"]["release_tag"]] = report
    assert len(by_model) == 60 and all(sorted(releases) == release_tags(3) for releases in by_model.values())
    changed = 0
    for releases in by_model.values():
        first = releases["v3.0.0"]["metrics"]
        for tag in ("v3.1.0", "v3.2.0"):
            later = releases[tag]["metrics"]
            assert abs(later["exact_span_f1"]["recall"] - first["exact_span_f1"]["recall"]) < 0.021
            assert abs(later["leakage"]["overall"] - first["leakage"]["overall"]) < 0.011
            assert (later["leakage"]["overall"] == 0) == (first["leakage"]["overall"] == 0)
            changed += later != first
    assert changed == 120


def make_archive_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "benchmarks.make_archive", *args], cwd=ROOT, capture_output=True,
                          encoding="utf-8", timeout=60)


def test_the_command_line_writes_the_archive_and_says_so_in_one_line(tmp_path):
    result = make_archive_cli(str(tmp_path / "out"), "3", "--suites", "1", "--families", "1", "--seed", "2", "--releases", "2")

    assert (result.returncode, result.stdout) == (0, "")
    assert result.stderr == f"make_archive: 6 reports in {tmp_path / 'out' / 'reports'}\n"
    assert len(reports_of(tmp_path / "out")) == 6


@pytest.mark.parametrize("args, line", [
    (["0"], "make_archive: N must be at least 1, not 0"),
    (["2", "--releases", "0"], "make_archive: --releases must be at least 1, not 0"),
    (["many"], "make_archive: argument n: invalid int value: 'many'"),
    ([], "make_archive: the following arguments are required: n"),
])
def test_a_mistake_on_the_command_line_is_one_line_and_exit_2(tmp_path, args, line):
    result = make_archive_cli(str(tmp_path / "out"), *args)

    assert (result.returncode, result.stdout, result.stderr) == (2, "", line + "\n")
    assert not (tmp_path / "out").exists()


def test_it_never_writes_into_an_archive_already_there_nor_past_a_file(tmp_path):
    make_archive(tmp_path / "old", 2)
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    before = tree_digest(tmp_path / "old")

    again = make_archive_cli(str(tmp_path / "old"), "2")
    blocked = make_archive_cli(str(tmp_path / "file"), "2")

    assert (again.returncode, again.stderr) == (2, f"make_archive: {tmp_path / 'old' / 'reports'} already holds files; choose a new folder\n")
    assert tree_digest(tmp_path / "old") == before
    assert blocked.returncode == 2 and len(blocked.stderr.splitlines()) == 1
    assert blocked.stderr.startswith(f"make_archive: cannot write {tmp_path / 'file'}")


def test_a_path_with_a_line_break_is_printed_on_one_line(tmp_path):
    result = make_archive_cli(str(tmp_path / "two\nlines"), "1")

    assert result.returncode == 0
    assert result.stderr == f"make_archive: 1 report in {tmp_path}/two\\nlines/reports\n"


# Two lock files: what building needs, and what only the tests and the benchmark add.

def locked(name: str) -> dict[str, str]:
    """The packages a lock file pins: normalized name -> exact version."""
    pins = {}
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            package, version = line.split("==")
            pins[normalized(package)] = version
    return pins


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirements_of(package: str) -> set[str]:
    """What an installed package needs, whatever extra is asked for (none is)."""
    from importlib import metadata

    from packaging.requirements import Requirement

    needed = set()
    for text in metadata.requires(package) or []:
        requirement = Requirement(text)
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            needed.add(normalized(requirement.name))
    return needed


def test_each_lock_is_exact_and_complete_and_the_build_needs_nothing_of_the_tests():
    from importlib import metadata

    build, tests = locked("requirements.lock"), locked("requirements-test.lock")
    assert not build.keys() & tests.keys()
    assert {"pelican", "jinja2", "markdown", "jsonschema", "fastjsonschema", "cryptography", "invoke"} <= build.keys()
    assert {"pytest", "playwright", "axe-playwright-python", "openmed", "pyyaml"} <= tests.keys()
    for package, version in {**build, **tests}.items():
        assert metadata.version(package) == version, package  # this environment was installed from them
    # pip --no-deps installs them: every dependency must be pinned, the build's among the build's own.
    assert {(package, need) for package in build for need in requirements_of(package) if need not in build} == set()
    assert {(package, need) for package in tests for need in requirements_of(package) if need not in build | tests.keys()} == set()


def test_pyproject_names_the_locked_versions():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    build, tests = locked("requirements.lock"), locked("requirements-test.lock")
    for declared, pins in ((project["dependencies"], build), (project["optional-dependencies"]["test"], tests)):
        for requirement in declared:
            package, version = requirement.split("==")
            assert pins.get(normalized(package)) == version, requirement


def make_dry_run(*args: str) -> list[str]:
    """What ``make ARGS`` would run; the environment counts as installed unless ``-B`` is given."""
    installed = [] if "-B" in args else ["-o", ".venv/.installed-build-lock", "-o", ".venv/.installed-test-lock"]
    result = subprocess.run(["make", "--no-print-directory", "-n", *installed, *args], cwd=ROOT, capture_output=True,
                            encoding="utf-8", env={"PATH": "/usr/bin:/bin"}, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_make_passes_the_bundled_archives_release_tag_to_build_serve_and_livereload():
    assert make_dry_run("build") == [".venv/bin/invoke build --release-tag v3.1.0"]
    assert make_dry_run("serve") == [".venv/bin/invoke serve --release-tag v3.1.0"]
    assert make_dry_run("livereload") == [".venv/bin/invoke livereload --release-tag v3.1.0"]
    assert make_dry_run("build", "RELEASE_TAG=v3.2.0") == [".venv/bin/invoke build --release-tag v3.2.0"]
    release_tag = subprocess.run(["make", "--no-print-directory", "-s", "release-tag"], cwd=ROOT, capture_output=True,
                                 encoding="utf-8", env={"PATH": "/usr/bin:/bin"}, timeout=60)
    assert (release_tag.returncode, release_tag.stdout) == (0, "v3.1.0\n")


def test_make_build_installs_only_the_build_lock_and_make_test_both():
    build, tests = make_dry_run("-B", ".venv/.installed-build-lock"), make_dry_run("-B", ".venv/.installed-test-lock")
    installs = [line for line in build + tests if " pip install " in line]

    assert [line.split(" -r ")[1] for line in build if " pip install " in line] == ["requirements.lock"]
    assert [line.split(" -r ")[1] for line in tests if " pip install " in line] == ["requirements.lock", "requirements-test.lock"]
    assert all("--no-deps" in line for line in installs)
    # The project's path file is in place only while pip is not running: with the project's folder
    # first on the path, a package pip builds from its source (jieba, of the test lock) fails to build.
    for lines in (build, tests):
        steps = ["remove" if line.startswith("rm -f") else "write" if '"w").write' in line else "pip"
                 for line in lines if "openmed-leaderboard.pth" in line or " pip install " in line]
        assert steps == ["remove", "pip", "write"] * (len(steps) // 3) and steps, lines
