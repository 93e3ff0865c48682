"""Same inputs, same bytes: whatever the time zone, locale, hash seed, file times, directory-listing
order or network; and `pelican content` writes what `invoke build` writes."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SETTINGS, run_invoke

from benchmark_leaderboard.present.publish import embedded
from benchmark_leaderboard.read import archive as archive_module
from core_support import leaderboard_bytes, read as read_in_process, report_copies, tree_digest

BUNDLED = ROOT / "content" / "benchmarks"
MANIFEST = ROOT / "models.jsonl"
BIN = Path(sys.executable).parent


def copy_in_reverse_order(source: Path, target: Path, seed: int) -> None:
    """Copy ``source`` creating entries in reverse order, with shuffled modification times."""
    files = sorted(path for path in source.rglob("*") if path.is_file())
    times = list(range(len(files)))
    random.Random(seed).shuffle(times)
    for path, offset in zip(reversed(files), times):
        copy = target / path.relative_to(source)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)
        stamp = 1_000_000_000 + offset * 86_400 * 37
        os.utime(copy, (stamp, stamp))


def build(reports: Path, output: Path, env: dict[str, str] | None = None, prefix: list[str] | None = None) -> dict[str, str]:
    args = ["build", "--reports-dir", str(reports), "--output-dir", str(output), "--manifest", str(MANIFEST), "--release-tag", "v3.1.0"]
    if prefix:
        result = subprocess.run([*prefix, str(BIN / "invoke"), *args], cwd=ROOT, env={**os.environ, **(env or {})},
                                capture_output=True, text=True, timeout=120)
    else:
        result = run_invoke(*args, env=env)
    assert result.returncode == 0, result.stderr
    return tree_digest(output)


def test_time_zone_locale_hash_seed_file_times_and_listing_order_change_no_byte(tmp_path):
    first = build(BUNDLED, tmp_path / "first", env={"TZ": "UTC", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONHASHSEED": "0"})
    copy_in_reverse_order(BUNDLED, tmp_path / "elsewhere" / "archive copy", seed=3)
    second = build(tmp_path / "elsewhere" / "archive copy", tmp_path / "second",
                   env={"TZ": "Pacific/Kiritimati", "LANG": "tr_TR.UTF-8", "LC_ALL": "de_DE.UTF-8", "PYTHONHASHSEED": "4242"})
    assert len(first) > 40
    assert "sitemap.xml" in first  # the official sitemap plugin (PLUGINS): dated by the data, never the clock
    assert second == first


def _unshare_works() -> str | None:
    if shutil.which("unshare") is None:
        return "unshare is not installed"
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True, text=True)
    return None if probe.returncode == 0 else f"unshare -n is not permitted here: {probe.stderr.strip()}"


def test_a_build_without_any_network_is_the_same(tmp_path):
    reason = _unshare_works()
    if reason:
        pytest.skip(reason)
    offline = build(BUNDLED, tmp_path / "offline", prefix=["unshare", "-n"])
    online = build(BUNDLED, tmp_path / "online")
    assert offline == online


def test_pelican_content_writes_what_invoke_build_writes(tmp_path):
    # There is no default release tag: both are given the bundled archive's, as `make build` passes it.
    result = subprocess.run([str(BIN / "pelican"), "content", "-s", SETTINGS, "-e", 'LEADERBOARD_RELEASE_TAG="v3.1.0"',
                             "-o", str(tmp_path / "pelican")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    invoked = run_invoke("build", "--output-dir", str(tmp_path / "invoke"), "--release-tag", "v3.1.0")
    assert invoked.returncode == 0, invoked.stderr
    assert tree_digest(tmp_path / "pelican") == tree_digest(tmp_path / "invoke")


class ShuffledScandir:
    """``os.scandir`` listing every folder in a shuffled order: ext4 lists by name hash whatever the
    creation order, so a copy alone does not prove that the listing order is ignored."""

    def __init__(self, seed: int):
        self.random = random.Random(seed)
        self.listed = 0
        self.scandir = os.scandir

    def __call__(self, path):
        with self.scandir(path) as listing:
            entries = list(listing)
        self.random.shuffle(entries)
        self.listed += 1
        return _Listing(entries)


class _Listing(list):
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_shuffled_directory_listing_changes_no_byte(monkeypatch, seed):
    expected = read_in_process(BUNDLED, MANIFEST, "v3.1.0")
    shuffled = ShuffledScandir(seed)
    monkeypatch.setattr(archive_module.os, "scandir", shuffled)
    got = read_in_process(BUNDLED, MANIFEST, "v3.1.0")
    assert shuffled.listed >= 7  # every folder of the archive was listed through the shuffle
    assert leaderboard_bytes(got.leaderboard) == leaderboard_bytes(expected.leaderboard)
    assert list(report_copies(got).items()) == list(report_copies(expected).items())
    assert (embedded(got.leaderboard.rows, got.leaderboard.suites)
            == embedded(expected.leaderboard.rows, expected.leaderboard.suites))


def test_the_figures_of_every_row_are_the_same_bytes_for_any_process_and_worker_count(tmp_path):
    # Separate processes (other hash seeds), one worker and two: uncertainty.json and every file made
    # of every row (the CSVs, the page's data and its chunks) come out byte for byte the same.
    from benchmarks.make_archive import make_archive

    make_archive(tmp_path / "archive", 600)
    trees = []
    for workers, seed in ((1, "1"), (2, "987")):
        output = tmp_path / f"out-{workers}"
        result = subprocess.run([str(BIN / "pelican"), "content", "-s", SETTINGS, "-o", str(output),
                                 "-e", f'LEADERBOARD_REPORTS_DIR="{tmp_path / "archive" / "reports"}"',
                                 f'LEADERBOARD_MANIFEST="{tmp_path / "archive" / "models.jsonl"}"',
                                 'LEADERBOARD_RELEASE_TAG="v3.1.0"', f"LEADERBOARD_WORKERS={workers}"],
                                cwd=ROOT, capture_output=True, text=True, timeout=300,
                                env={**os.environ, "PYTHONHASHSEED": seed})
        assert result.returncode == 0, result.stdout + result.stderr
        trees.append({path: digest for path, digest in tree_digest(output).items()
                      if path in ("uncertainty.json", "leaderboard.csv", "leaderboard-data.js")
                      or path.startswith(("suites/", "rows/"))})
    assert "uncertainty.json" in trees[0] and len(trees[0]) > 5
    assert trees[0] == trees[1]
