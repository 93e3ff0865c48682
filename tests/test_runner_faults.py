"""Nothing half-done survives, and every fault is one line (issue 9, findings 5-7 and 14).

Killed, interrupted and concurrent builds, a mount point as the output, a full disk, an output
that cannot be written or read, a path too long, a port out of range, a closed stderr: each as a
user meets it, through ``invoke`` in a subprocess. Disk full is real: a small tmpfs (root only)."""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import ROOT, report, run_invoke, write_archive

from benchmark_leaderboard.write.output import MARKER, marker_bytes
from benchmarks.make_archive import make_archive
from core_support import leftovers, tree_digest
from leaderboard_tools import exchange, exits

TAG = "v3.1.0"
INVOKE = str(Path(sys.executable).parent / "invoke")
# Drops root's power to read and write any file, so that a folder's mode binds the build as it binds a user.
AS_A_USER = ["setpriv", "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search"] if os.geteuid() == 0 else []


def build_args(reports: Path, output: Path, *more: str) -> list[str]:
    return ["build", "--reports-dir", str(reports), "--output-dir", str(output), "--release-tag", TAG, *more]


def small(archive, name: str, model: str = "OpenMed/model-a") -> Path:
    return archive({"a.report.json": report(model_name=model), "b/c.report.json": report(suite="other")}, name=name)


BIG = 5000  # reports: a build long enough to be caught mid-way, on a quick machine too


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> tuple[Path, Path]:
    """An archive of BIG reports (its reports folder and manifest)."""
    folder = tmp_path_factory.mktemp("big")
    make_archive(folder, BIG)
    return folder / "reports", folder / "models.jsonl"


def start(*args: str) -> subprocess.Popen:
    """``invoke ARGS`` in its own process group (so that a signal can go to the whole group, as a
    terminal's Ctrl-C does), its stderr captured."""
    return subprocess.Popen([INVOKE, *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def wait_for_staging(process: subprocess.Popen, output: Path, timeout: float = 120) -> None:
    """Until the build is writing report pages into its staging folder beside ``output``."""
    deadline = time.monotonic() + timeout
    while not any((output.parent / name / "report").is_dir() for name in leftovers(output)):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the build never started writing"
        time.sleep(0.01)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def report_copies(output: Path) -> list[str]:
    return sorted(path.relative_to(output / "reports").as_posix() for path in (output / "reports").rglob("*.json"))


def nothing_of_the_build_beside(output: Path) -> list[str]:
    return sorted(name for name in os.listdir(output.parent) if name.startswith(f".{output.name}."))


@contextmanager
def tmpfs(path: Path, *options: str):
    """A tmpfs mounted at ``path`` for the block (root only: skipped elsewhere), unmounted after."""
    path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join(options), "tmpfs", str(path)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=True)


# --- killed, interrupted, concurrent --------------------------------------------------------------

def test_a_build_killed_mid_way_leaves_the_output_whole_and_the_next_build_removes_what_it_left(archive, tmp_path, big):
    reports, manifest = big
    output = tmp_path / "site"
    assert run_invoke(*build_args(small(archive, "first"), output)).returncode == 0
    before = tree_digest(output)
    process = start(*build_args(reports, output, "--manifest", str(manifest)))
    try:
        wait_for_staging(process, output)
        os.killpg(process.pid, signal.SIGKILL)  # the build and every worker it forked
        process.wait()
    finally:
        stop(process)
    # The exchange is one step: the output is the earlier render, or (if the kill came after it) the new one.
    assert tree_digest(output) == before or len(report_copies(output)) == BIG
    assert (output / MARKER).is_file()

    result = run_invoke(*build_args(small(archive, "second", "OpenMed/model-z"), output))
    assert result.returncode == 0, result.stderr
    assert nothing_of_the_build_beside(output) == []
    assert report_copies(output) == ["a.report.json", "b/c.report.json"]


@pytest.mark.parametrize("earlier", [True, False], ids=["with an earlier render", "first build"])
def test_ctrl_c_to_the_process_group_ends_the_build_with_one_line_and_130(archive, tmp_path, big, earlier):
    reports, manifest = big
    output = tmp_path / "site"
    if earlier:
        assert run_invoke(*build_args(small(archive, "first"), output)).returncode == 0
    before = tree_digest(output) if earlier else None
    process = start(*build_args(reports, output, "--manifest", str(manifest)))
    try:
        wait_for_staging(process, output)
        os.killpg(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    finally:
        stop(process)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    expected = (f"{output} keeps its last complete render" if earlier
                else f"there was no earlier render, and {output} is as it was")
    assert stderr.splitlines() == [f"rendering {reports} into {output}", f"build interrupted by SIGINT; {expected}"]
    assert nothing_of_the_build_beside(output) == []
    if earlier:
        assert tree_digest(output) == before
    else:
        assert not output.exists()


def test_a_build_waits_for_the_output_s_lock_then_stops_with_one_line(archive, tmp_path):
    output = tmp_path / "site"
    reports = small(archive, "reports")
    assert run_invoke(*build_args(reports, output)).returncode == 0
    before = tree_digest(output)
    descriptor = os.open(tmp_path / ".site.lock", os.O_RDWR | os.O_CREAT)
    waiting: list[subprocess.Popen] = []
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)  # as another build holds it
        waited = time.monotonic()
        waiting = [start(*build_args(reports, output)), start("clean", "--output-dir", str(output))]
        outcomes = [(process.wait(timeout=120), process.stderr.read().splitlines()) for process in waiting]
        waited = time.monotonic() - waited
    finally:
        os.close(descriptor)
        for process in waiting:
            stop(process)
    busy = f"another build is writing {output}; try again when it is done"
    assert outcomes == [(exits.UNUSABLE, [busy])] * 2
    assert waited >= exchange.LOCK_WAIT_SECONDS
    assert tree_digest(output) == before
    assert run_invoke(*build_args(reports, output)).returncode == 0  # once the lock is free


def test_a_second_build_into_the_same_output_waits_for_the_first_and_they_never_mix(archive, tmp_path, big):
    reports, manifest = big
    output = tmp_path / "site"
    other = small(archive, "small")
    first = start(*build_args(reports, output, "--manifest", str(manifest)))
    second = None
    stagings_at_once = 0
    try:
        wait_for_staging(first, output)
        second = start(*build_args(other, output))
        while first.poll() is None or second.poll() is None:
            stagings_at_once = max(stagings_at_once, sum(".new-" in name for name in leftovers(output)))
            time.sleep(0.005)
        outcomes = [(process.returncode, process.stderr.read()) for process in (first, second)]
    finally:
        stop(first)
        if second is not None:
            stop(second)
    assert stagings_at_once == 1  # the second renders only once the first is done
    assert outcomes[0][0] == 0, outcomes[0][1]
    busy = f"another build is writing {output}; try again when it is done"
    if outcomes[1][0] == 0:  # it waited: its render is the last one
        assert report_copies(output) == ["a.report.json", "b/c.report.json"]
    else:
        assert outcomes[1] == (exits.UNUSABLE, busy + "\n")
        assert len(report_copies(output)) == BIG
    assert "Traceback" not in outcomes[0][1] + outcomes[1][1]
    assert nothing_of_the_build_beside(output) == []


def test_clean_during_a_build_waits_for_it_and_neither_crashes(tmp_path, big):
    reports, manifest = big
    output = tmp_path / "site"
    process = start(*build_args(reports, output, "--manifest", str(manifest)))
    try:
        wait_for_staging(process, output)
        cleaned = run_invoke("clean", "--output-dir", str(output))
        _, stderr = process.communicate(timeout=120)
    finally:
        stop(process)
    assert process.returncode == 0, stderr
    assert "Traceback" not in stderr + cleaned.stderr
    if cleaned.returncode == 0:  # it got the lock once the build was done
        assert cleaned.stderr.splitlines() == [f"removed {output}"] and not output.exists()
    else:
        assert cleaned.stderr.splitlines() == [f"another build is writing {output}; try again when it is done"]
        assert len(report_copies(output)) == BIG
    assert nothing_of_the_build_beside(output) == []


def test_a_swap_killed_between_its_two_renames_is_put_back_by_the_next_build(archive, tmp_path):
    output = tmp_path / "site"
    assert run_invoke(*build_args(small(archive, "first"), output)).returncode == 0
    before = tree_digest(output)
    output.rename(tmp_path / ".site.old-0123456789ab")  # where the fallback swap keeps it for a moment
    (tmp_path / ".site.new-ba9876543210").mkdir()
    refused = archive({"a.report.json": report(metadata={"synthetic": False})}, name="refused")
    result = run_invoke(*build_args(refused, output))
    assert result.returncode == exits.REFUSED, result.stderr
    assert tree_digest(output) == before
    assert nothing_of_the_build_beside(output) == []


# --- mount points ---------------------------------------------------------------------------------

def test_a_mount_point_as_the_output_builds_and_rebuilds_to_exactly_the_new_render(archive, tmp_path):
    first, second = small(archive, "first"), small(archive, "second", "OpenMed/model-z")
    reference = tmp_path / "reference"
    assert run_invoke(*build_args(second, reference)).returncode == 0
    with tmpfs(tmp_path / "volume", "size=16m") as volume:
        for reports in (first, second):
            result = run_invoke(*build_args(reports, volume))
            assert result.returncode == 0, result.stderr
        assert os.path.ismount(volume)
        assert tree_digest(volume) == tree_digest(reference)
        cleaned = run_invoke("clean", "--output-dir", str(volume))
        assert (cleaned.returncode, cleaned.stderr.splitlines()) == (
            0, [f"removed the render in {volume}; the folder stays: it is a mount point"])
        assert os.listdir(volume) == [] and os.path.ismount(volume)


def render_files(folder: Path, files: dict[str, str], tag: str | None = None) -> None:
    write_archive(folder, files)
    (folder / MARKER).write_bytes(marker_bytes(tag))


def files_of(folder: Path) -> dict[str, str]:
    return {path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8") if path.name != MARKER else "marker"
            for path in sorted(folder.rglob("*")) if path.is_file()}


OLD = {"index.html": "old index", "reports/x.report.json": "old x"}
NEW = {"index.html": "new index", "reports/y.report.json": "new y", "report/y.html": "new page"}


def test_a_move_into_a_mount_point_killed_while_the_old_render_went_out_is_undone(tmp_path):
    target = tmp_path / "volume"
    render_files(target, {"index.html": "old index"})  # the old marker goes out last: it is still here
    write_archive(target / ".leaderboard-old-0123456789ab", {"reports/x.report.json": "old x"})
    render_files(target / ".leaderboard-staging-0123456789ab", NEW)
    exchange.recover_inside(str(target))
    assert files_of(target) == {**OLD, MARKER: "marker"}


def test_a_move_into_a_mount_point_killed_while_the_new_render_came_in_is_finished(tmp_path):
    target = tmp_path / "volume"
    render_files(target, {"index.html": "new index"})  # the new marker comes in first
    render_files(target / ".leaderboard-old-0123456789ab", OLD)
    write_archive(target / ".leaderboard-staging-0123456789ab", {"reports/y.report.json": "new y", "report/y.html": "new page"})
    exchange.recover_inside(str(target))
    assert files_of(target) == {**NEW, MARKER: "marker"}


def test_a_staging_folder_of_a_render_killed_before_any_move_is_removed(tmp_path):
    target = tmp_path / "volume"
    render_files(target, OLD)
    write_archive(target / ".leaderboard-staging-0123456789ab", {"index.html": "half a render"})
    exchange.recover_inside(str(target))
    assert files_of(target) == {**OLD, MARKER: "marker"}


@pytest.mark.parametrize("exchange_supported", [True, False], ids=["renameat2", "two renames"])
def test_the_exchange_swaps_two_folders(tmp_path, monkeypatch, exchange_supported):
    if not exchange_supported:
        monkeypatch.setattr(exchange, "_renameat2", lambda: None)
    write_archive(tmp_path / "staging", {"new.txt": "new"})
    write_archive(tmp_path / "site", {"old.txt": "old"})
    exchange.exchange(str(tmp_path / "staging"), str(tmp_path / "site"))
    assert files_of(tmp_path / "site") == {"new.txt": "new"}
    assert files_of(tmp_path / "staging") == {"old.txt": "old"}
    assert sorted(os.listdir(tmp_path)) == ["site", "staging"]


def test_removing_a_tree_removes_all_of_it_and_nothing_it_links_to(tmp_path):
    outside = write_archive(tmp_path / "outside", {"keep.txt": "kept"})
    old = write_archive(tmp_path / "old", {f"f{index % 7}/{index}.html": "x" for index in range(50)})
    (old / "linked-folder").symlink_to(outside, target_is_directory=True)
    (old / "f0" / "linked-file").symlink_to(outside / "keep.txt")
    exchange.remove_tree(str(old))
    exchange.remove_tree(str(old))  # already gone: no error
    assert not old.exists() and (outside / "keep.txt").read_text(encoding="utf-8") == "kept"


def test_importing_the_tooling_runs_nothing():
    # Only a build registers what runs at exit (gc.freeze, at its first render) and looks up libc's
    # renameat2 (at its first exchange): importing any module of leaderboard_tools does neither.
    code = ("import atexit, pkgutil, importlib, benchmark_leaderboard, leaderboard_tools\n"
            "before = atexit._ncallbacks()\n"
            "for module in pkgutil.iter_modules(leaderboard_tools.__path__):\n"
            "    importlib.import_module('leaderboard_tools.' + module.name)\n"
            "from leaderboard_tools import exchange\n"
            "print(atexit._ncallbacks() - before, exchange._renameat2.cache_info().currsize)\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["0", "0"]


# --- one line, never a traceback ------------------------------------------------------------------

def test_a_full_disk_is_one_line_exit_2_and_the_earlier_render_stays(archive, tmp_path):
    first = archive({f"r{index}.report.json": report(model_name=f"OpenMed/a-{index}") for index in range(40)}, name="first")
    second = archive({f"r{index}.report.json": report(model_name=f"OpenMed/b-{index}") for index in range(40)}, name="second")
    with tmpfs(tmp_path / "disk", "size=8m") as disk:
        output = disk / "site"
        assert run_invoke(*build_args(first, output)).returncode == 0
        status = os.statvfs(disk)
        used = (status.f_blocks - status.f_bfree) * status.f_frsize
        # Room for one render and a half: the second cannot be written beside the first.
        subprocess.run(["mount", "-o", f"remount,size={used * 3 // 2 // 1024}k", str(disk)], check=True)
        before = tree_digest(output)
        result = run_invoke(*build_args(second, output))
        lines = result.stderr.splitlines()
        assert result.returncode == exits.UNUSABLE and len(lines) == 2, result.stderr
        assert lines[0] == f"rendering {second} into {output}"
        assert re.fullmatch(rf"build failed: no space left on device while writing {re.escape(str(disk))}/\S+; "
                            rf"{re.escape(str(output))} is unchanged", lines[1]), lines[1]
        assert tree_digest(output) == before
        assert nothing_of_the_build_beside(output) == []


def test_an_output_on_a_read_only_file_system_is_one_line(archive, tmp_path):
    with tmpfs(tmp_path / "readonly", "size=1m", "ro") as readonly:
        result = run_invoke(*build_args(small(archive, "reports"), readonly / "site"))
    assert (result.returncode, result.stderr.splitlines()) == (exits.UNUSABLE, [
        f"build failed: cannot write into {readonly}: read-only file system; {readonly / 'site'} is unchanged"])


@pytest.mark.skipif(os.geteuid() == 0 and shutil.which("setpriv") is None, reason="root without setpriv reads everything")
def test_an_output_whose_parent_is_not_writable_is_one_line(archive, tmp_path):
    reports = small(archive, "reports")
    parent = tmp_path / "www"
    parent.mkdir()
    parent.chmod(0o555)
    try:
        result = subprocess.run([*AS_A_USER, INVOKE, *build_args(reports, parent / "site")], cwd=ROOT,
                                capture_output=True, text=True, timeout=120)
    finally:
        parent.chmod(0o755)
    assert (result.returncode, result.stderr.splitlines()) == (exits.UNUSABLE, [
        f"build failed: cannot write into {parent}: permission denied; {parent / 'site'} is unchanged"])
    assert os.listdir(parent) == []


@pytest.mark.skipif(os.geteuid() == 0 and shutil.which("setpriv") is None, reason="root without setpriv reads everything")
def test_an_output_that_cannot_be_read_is_one_line_and_stays(archive, tmp_path):
    output = write_archive(tmp_path / "site", {"private.txt": "mine"})
    output.chmod(0o000)
    try:
        result = subprocess.run([*AS_A_USER, INVOKE, *build_args(small(archive, "reports"), output)], cwd=ROOT,
                                capture_output=True, text=True, timeout=120)
    finally:
        output.chmod(0o755)
    assert (result.returncode, result.stderr.splitlines()) == (
        exits.UNUSABLE, [f"output refused: cannot list {output}: permission denied"])
    assert os.listdir(output) == ["private.txt"]


def test_an_output_below_a_file_is_one_line(archive, tmp_path):
    (tmp_path / "notes.txt").write_text("a file", encoding="utf-8")
    result = run_invoke(*build_args(small(archive, "reports"), tmp_path / "notes.txt" / "site"))
    assert (result.returncode, result.stderr.splitlines()) == (exits.UNUSABLE, [
        f"output refused: {tmp_path / 'notes.txt' / 'site'} cannot be a folder: {tmp_path / 'notes.txt'} is a file"])


@pytest.mark.parametrize("shape", ["path", "name"])
def test_an_output_path_longer_than_the_system_allows_is_one_line(archive, tmp_path, shape):
    long = tmp_path / ("a/" * (os.pathconf("/", "PC_PATH_MAX") // 2 + 8) if shape == "path" else "n" * 300)
    result = run_invoke(*build_args(small(archive, "reports"), long))
    lines = result.stderr.splitlines()
    assert result.returncode == exits.UNUSABLE and len(lines) == 1, result.stderr
    assert re.fullmatch(r"output refused: \S{40}\.\.\.\S{40} \(\d+ characters\) is a longer path or name than this "
                        r"system allows", lines[0]), lines[0]


@pytest.mark.parametrize("port", ["70000", "-1", "abc", "80.5"])
def test_serve_refuses_a_port_out_of_range_with_one_line_before_building(archive, tmp_path, port):
    output = tmp_path / "site"
    try:
        result = run_invoke("serve", "--reports-dir", str(small(archive, "reports")), "--output-dir", str(output),
                            "--release-tag", TAG, f"--port={port}", timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"serve --port {port} kept serving")
    assert (result.returncode, result.stderr.splitlines()) == (exits.UNUSABLE, [
        f"serve refused: --port must be a whole number from 0 to 65535 (0 picks a free one), not {port}"])
    assert not output.exists()


def test_a_build_whose_stderr_nobody_reads_any_more_still_succeeds(archive, tmp_path):
    output = tmp_path / "site"
    process = subprocess.Popen([INVOKE, *build_args(small(archive, "reports"), output)], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    process.stderr.close()  # every line the build prints now meets a closed pipe
    assert process.wait(timeout=120) == exits.DONE
    assert report_copies(output) == ["a.report.json", "b/c.report.json"]


def test_the_exit_statuses_are_one_table():
    assert (exits.DONE, exits.REFUSED, exits.UNUSABLE) == (0, 1, 2)
    assert (exits.interrupted(signal.SIGINT), exits.interrupted(signal.SIGTERM)) == (130, 143)
