"""Write: run Pelican into a temporary folder beside the output and swap it in only on success.

A refused or interrupted build leaves the output folder exactly as it was and no temporary folder
behind. This is what ``invoke build`` (and serve, publish, verify) call."""

from __future__ import annotations

import atexit
import gc
import logging
import os
import shutil
import signal
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable

from benchmark_leaderboard import parallel
from benchmark_leaderboard.manifest import ManifestError

# At exit, what the last render left in reference cycles (its parsed reports, rows and pages:
# millions of objects) goes back to the operating system with the process instead of being
# traversed and freed one by one by the final collection: 0.25 s at 10,000 reports.
atexit.register(gc.freeze)


class BuildError(Exception):
    """The build cannot start or finish; the message is one line for the user."""


@dataclass(frozen=True)
class Summary:
    rows: int
    suites: int
    families: int
    files: int
    seconds: float

    def __str__(self) -> str:
        return (f"leaderboard: {self.rows} rows, {self.suites} suites, {self.families} families, "
                f"{self.files} files written in {self.seconds:.2f} s")


def pelican_settings(settings_file: str, overrides: dict[str, Any]) -> dict[str, Any]:
    from pelican.settings import read_settings

    return read_settings(settings_file, override={k: v for k, v in overrides.items() if v is not None})


def render_into(settings_file: str, output_dir: str, overrides: dict[str, Any]) -> tuple[int, int, int]:
    """Run Pelican once with ``output_dir`` as its output; returns the rows, suites and model
    families of the leaderboard it wrote, as the plugin noted them in the settings."""
    from pelican import Pelican

    from benchmark_leaderboard.generator import leaderboard_written

    written = []

    def receiver(sender, **kwargs) -> None:
        written.append(kwargs["written"])

    leaderboard_written.connect(receiver)
    try:
        with collector_paused():
            settings = pelican_settings(settings_file, {**overrides, "OUTPUT_PATH": os.path.abspath(output_dir)})
            Pelican(settings).run()
    finally:
        leaderboard_written.disconnect(receiver)
    if not written:
        raise BuildError("the benchmark_leaderboard plugin did not run: check PLUGIN_PATHS and PLUGINS in the settings")
    return written[-1].rows, written[-1].suites, written[-1].families


def build(
    settings_file: str,
    output_dir: str,
    reports_dir: str | None = None,
    manifest: str | None = None,
    release_tag: str | None = None,
    extra: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    finish: Callable[[str], None] | None = None,
) -> Summary:
    """Render the site into ``output_dir`` atomically. Raises ``BuildRefused`` or ``BuildError``.

    ``finish``, when given, is called with the rendered folder before it replaces the output: what it
    adds (a release's SHA256SUMS) arrives in the same swap."""
    say = progress or (lambda message: print(message, file=sys.stderr))
    started = time.perf_counter()
    overrides = dict(extra or {})
    if reports_dir is not None:
        if not os.path.isdir(reports_dir):
            raise BuildError(f"the reports folder {reports_dir} does not exist" if not os.path.exists(reports_dir)
                             else f"the reports folder {reports_dir} is not a folder")
        overrides["LEADERBOARD_REPORTS_DIR"] = os.path.abspath(reports_dir)
    if manifest is not None:
        if os.path.isdir(manifest):
            raise BuildError(f"the manifest {manifest} is a folder, not a models.jsonl file")
        overrides["LEADERBOARD_MANIFEST"] = os.path.abspath(manifest)
    if release_tag is not None:
        overrides["LEADERBOARD_RELEASE_TAG"] = release_tag
    target = os.path.abspath(output_dir)
    if os.path.exists(target) and not os.path.isdir(target):
        raise BuildError(f"the output {output_dir} exists and is not a folder")
    parent = os.path.dirname(target)
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix="." + os.path.basename(target) + ".new-", dir=parent)
    try:
        say(f"rendering {overrides.get('LEADERBOARD_REPORTS_DIR') or 'the archive named in ' + os.path.basename(settings_file)} into {output_dir}")
        _quiet_pelican()
        try:
            rows, suites, families = render_into(settings_file, staging, overrides)
        except (FileNotFoundError, NotADirectoryError) as error:
            raise BuildError(f"the reports folder {error.args[0] if error.args else ''} does not exist or is not a folder") from None
        except ManifestError as error:
            raise BuildError(str(error)) from None
        except parallel.WorkerFailed as error:
            raise BuildError(f"{error}; its own error is printed above") from None
        if finish is not None:
            finish(staging)
        files = sum(len(names) for _, _, names in os.walk(staging))
        _swap(staging, target)
    finally:
        with signals_deferred():  # a second Ctrl-C must not leave half of the staging folder
            parallel.abandon_all()  # a forked page writer still at work would write into it again
            shutil.rmtree(staging, ignore_errors=True)
    return Summary(rows, suites, families, files, time.perf_counter() - started)


@contextmanager
def collector_paused():
    """No cyclic garbage collection during the block. A render allocates millions of objects (the
    parsed reports, rows, pages) and leaves almost no reference cycles: the collector's passes over
    them cost about a tenth of a second at 10,000 reports and free nothing. It runs again after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextmanager
def signals_deferred():
    """Hold SIGINT and SIGTERM until the block ends, so that it runs to completion; a signal that
    arrived meanwhile is handled (raised) as the block is left."""
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _swap(staging: str, target: str) -> None:
    """Put ``staging`` where ``target`` is; the old render is removed only once the new one is in place.
    An interruption waits until the swap is over: the output is the old render or the new one."""
    with signals_deferred():
        _swap_now(staging, target)


def _swap_now(staging: str, target: str) -> None:
    if os.path.lexists(target):
        old = tempfile.mkdtemp(prefix="." + os.path.basename(target) + ".old-", dir=os.path.dirname(target))
        os.rmdir(old)
        os.rename(target, old)
        try:
            os.rename(staging, target)
        except BaseException:
            os.rename(old, target)
            raise
        remove_tree(old)
    else:
        os.rename(staging, target)


# From this many files on, two processes remove the old render: unlinking is system time, which
# the two CPUs share (20,000 files: 0.9 s instead of 1.4 s on the build machine's disk).
PARALLEL_REMOVAL_FROM = 2000


def remove_tree(path: str) -> None:
    """``shutil.rmtree(path, ignore_errors=True)``; a large tree's files are unlinked by this process
    and a forked child at once, the folders then by this process."""
    files = [os.path.join(folder, name) for folder, _, names in os.walk(path) for name in names]
    if len(files) >= PARALLEL_REMOVAL_FROM:
        try:
            parallel.run_both(lambda: _unlink_all(files[0::2]), lambda: _unlink_all(files[1::2]))
        except parallel.WorkerFailed:
            pass  # whatever the child left, rmtree removes below
    shutil.rmtree(path, ignore_errors=True)


def _unlink_all(paths: list[str]) -> None:
    for path in paths:
        try:
            os.unlink(path)
        except OSError:
            pass


def _quiet_pelican() -> None:
    # Pelican's own progress lines would drown ours; its warnings and errors still show.
    from pelican.log import console

    console.quiet = True
    logging.getLogger("pelican").setLevel(logging.WARNING)
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s", stream=sys.stderr)
