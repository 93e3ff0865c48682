"""The build as a whole, what ``tasks.py`` calls: judge the output, render into a staging folder
under the output's lock, carry what a user put there into the new render, and exchange the two in
one step; a summary line for the user.

The output belongs to the build only where the build made it: before any work the output is
judged (``benchmark_leaderboard.write.output.judge``), and only a new or empty folder or an
earlier render (a folder holding the render marker) is ever replaced or removed. The output keeps
its mode. A refused, failed or interrupted build leaves the output as it was; what a killed one left
(its staging folder, or a move into a mount point half done) is finished or removed by the next
build, under the lock. This is what ``invoke build`` (and serve, livereload, publish, verify) call.

Its parts: ``build_settings`` (the settings and the flags' overrides), ``pelican_run`` (one run of
Pelican into a folder), ``exchange`` (the lock, the staging folder, the exchange, what a killed
build left), ``user_files`` (what the last render did not write), ``interrupts`` (SIGINT and
SIGTERM), ``faults`` (the lines a build stops with); ``clean`` is beside it."""

from __future__ import annotations

import errno
import os
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

from pelican.utils import maybe_pluralize

from benchmark_leaderboard.problems import BuildFailed, BuildRefused
from benchmark_leaderboard.read.manifest import ManifestError
from benchmark_leaderboard.write.output import (MARKER, judge, kept_line, marker_bytes, one_line, overwrite_problem,
                                                read_marker, within)

from .build_settings import build_overrides, settings_of
from .exchange import Place
from .faults import BuildError, OutputRefused, filename, reason
from .interrupts import BuildInterrupted, signal_of, sigterm_raises, signals_deferred
from .pelican_run import quiet_pelican, render_into
from .user_files import carry, not_written


@dataclass(frozen=True)
class Summary:
    rows: int
    suites: int
    families: int
    files: int
    seconds: float
    linked: int = 0  # of ``files``, those the last render made of the same inputs: left in place, or linked from it

    def __str__(self) -> str:
        files = f"{_count(self.files, 'file', 'files')} written"
        if self.linked:
            files = (f"{_count(self.files, 'file', 'files')} ({self.files - self.linked:,} written, {self.linked:,} "
                     "kept unchanged from the last render)")
        return (f"leaderboard: {_count(self.rows, 'row', 'rows')}, {_count(self.suites, 'suite', 'suites')}, "
                f"{_count(self.families, 'family', 'families')}, {files} in {self.seconds:.2f} s")


_count = maybe_pluralize


def build(
    settings_file: str,
    output_dir: str,
    reports_dir: str | None = None,
    manifest: str | None = None,
    release_tag: str | None = None,
    extra: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    finish: Callable[[str], None] | None = None,
    first: bool = False,
) -> Summary:
    """Render the site into ``output_dir`` atomically. Raises ``BuildRefused`` (the archive),
    ``BuildError`` (one line: ``error.line()``) or ``BuildInterrupted``.

    ``finish``, when given, is called with the rendered folder before it replaces the output: what it
    adds (a release's SHA256SUMS) arrives in the same exchange. With ``first`` (the preview's), a
    rebuild puts the edited reports' files into the output as soon as they are written, ahead of the
    rest of the render (``exchange.FirstFiles``); a failed build puts the old ones back."""
    started = time.perf_counter()
    run = _Build(settings_file, output_dir, progress or say)
    with sigterm_raises():
        try:
            rows, suites, families, files, linked = run.run(build_overrides(reports_dir, manifest, release_tag, extra),
                                                            finish, first)
        except KeyboardInterrupt as interrupt:
            signum = signal_of(interrupt)
            raise BuildInterrupted(signum, f"build interrupted by {signum.name}; {run.unchanged()}") from None
    return Summary(rows, suites, families, files, time.perf_counter() - started, linked)


class _Build:
    """One build's state, so that an interruption can say what the output holds."""

    def __init__(self, settings_file: str, output_dir: str, say: Callable[[str], None]):
        self.settings_file = settings_file
        self.output_dir = output_dir
        self.shown = one_line(output_dir)
        self.say = say
        self.had_render: bool | None = None  # not known until the output has been judged

    def unchanged(self) -> str:
        if self.had_render is False:
            return f"there was no earlier render, and {self.shown} is as it was"
        return f"{self.shown} keeps its last complete render"

    def run(self, overrides: dict[str, Any], finish: Callable[[str], None] | None,
            first: bool = False) -> tuple[int, int, int, int, int]:
        place = Place(self.output_dir)
        self.had_render = read_marker(place.target) is not None
        settings = settings_of(self.settings_file, overrides)
        problem = judge(self.output_dir, settings)
        if problem:
            raise OutputRefused(problem)
        staging = None
        try:
            place.make_parent()
            with place.locked():
                place.recover()
                problem = judge(self.output_dir, settings)  # the output may have changed meanwhile
                if problem:
                    raise OutputRefused(problem)
                earlier = read_marker(place.target)
                self.had_render = earlier is not None
                previous = place.target if self.had_render else None
                # Into an earlier render that lists its files (and not for a release, whose seal
                # covers every file): only what changed is rendered, and moved into it. Only its
                # list of files is kept meanwhile: the build reads the digests it needs itself.
                earlier_files = earlier.get("files") if earlier is not None else None
                del earlier
                only_changes = previous is not None and finish is None and earlier_files is not None
                mode = place.mode()
                staging = place.make_staging()
                ahead = place.first_files(staging, earlier_files) if first and only_changes else None
                merged = False
                try:
                    source = overrides.get("LEADERBOARD_REPORTS_DIR") or "the archive named in " + os.path.basename(self.settings_file)
                    self.say(f"rendering {one_line(source)} into {self.shown}")
                    quiet_pelican()
                    try:
                        written = render_into(self.settings_file, staging,
                                              {**overrides, "LEADERBOARD_PREVIOUS_RENDER": previous,
                                               "LEADERBOARD_KEEP_UNCHANGED": only_changes},
                                              ahead.put if ahead is not None else None)
                        if not os.path.lexists(os.path.join(staging, MARKER)):
                            # The generator marks its render last; a plugin that did not is marked here.
                            tag = settings.get("LEADERBOARD_RELEASE_TAG")
                            _write_new(os.path.join(staging, MARKER), marker_bytes(tag if isinstance(tag, str) else None,
                                                                                   _files_below(staging)))
                        linked = written.linked
                        if finish is not None:
                            marker_linked = previous is not None and _same_file(staging, previous, MARKER)
                            finish(staging)
                            # A release's seal replaces the marker the render may have linked.
                            linked -= marker_linked and not _same_file(staging, previous, MARKER)
                        files = sum(len(names) for _, _, names in os.walk(staging))
                        if only_changes:
                            made = read_marker(staging)
                            if made is None or "files" not in made:
                                raise BuildError(f"the render did not mark itself; {self.shown} is unchanged")
                            files = len(made["files"])
                            stale = set(earlier_files) - set(made["files"])
                            retention = settings.get("OUTPUT_RETENTION") or ()
                            kept = not_written(place.target, retention)
                            clashes = [entry for entry in kept
                                       if os.path.lexists(os.path.join(staging, *entry.rstrip("/").split("/")))]
                            if clashes:
                                raise BuildError(overwrite_problem(clashes, self.shown))
                            if kept:
                                self.say(kept_line(kept))
                        elif previous is not None:
                            kept = carry(previous, staging, settings.get("OUTPUT_RETENTION") or (), self.shown)
                            if kept:
                                self.say(kept_line(kept))
                    except (ManifestError, BuildFailed) as error:
                        raise BuildError(str(error)) from None
                    except (BuildRefused, BuildError, OSError):
                        raise
                    except Exception as error:
                        # Whatever else the plugin or Pelican raised: one line, never a traceback.
                        raise BuildError(f"{type(error).__name__}: {one_line(str(error))}; {self.shown} is unchanged") from None
                    if only_changes:
                        place.merge(staging, stale, retention)
                    else:
                        place.swap(staging, mode)
                    merged = True
                finally:
                    with signals_deferred():  # a second Ctrl-C must not leave half of the staging folder
                        if ahead is not None:
                            if not merged:
                                ahead.undo()
                            ahead.done()
                        place.tidy(staging)
        except OSError as error:
            raise BuildError(self._failure(error, place, staging)) from None
        return written.rows, written.suites, written.families, files, linked

    def _failure(self, error: OSError, place: Place, staging: str | None) -> str:
        """One line for an operating-system error: what was being read or written, and why."""
        path = filename(error)
        written = [place.target, place.lock] + ([staging] if staging else [])
        writing = path is not None and (os.path.abspath(path) == place.parent
                                        or any(within(os.path.abspath(path), folder) for folder in written))
        if error.errno in (errno.ENOSPC, errno.EDQUOT):
            what = f"no space left on device while writing {one_line(path or staging or place.target)}"
        elif path is None:
            what = reason(error)
        else:
            what = f"cannot {'write' if writing else 'read'} {one_line(path)}: {reason(error)}"
        return f"{what}; {self.shown} is unchanged"


def _same_file(folder: str, other: str, name: str) -> bool:
    """Whether ``name`` in ``folder`` is the very file (a link of it) that ``name`` is in ``other``."""
    try:
        return os.path.samestat(os.lstat(os.path.join(folder, name)), os.lstat(os.path.join(other, name)))
    except OSError:
        return False


def _files_below(folder: str) -> list[str]:
    return [os.path.relpath(os.path.join(top, name), folder).replace(os.sep, "/")
            for top, _, names in os.walk(folder) for name in names]


def say(message: str) -> None:
    """Print a line on stderr. If nobody reads stderr any more (a closed pipe), the line is dropped and
    so is everything after it: no BrokenPipeError, not even when Python flushes stderr at exit."""
    try:
        print(message, file=sys.stderr, flush=True)
    except BrokenPipeError:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stderr.fileno())
        except (OSError, ValueError):
            pass


def _write_new(path: str, data: bytes) -> None:
    with open(path, "xb") as file:
        file.write(data)
