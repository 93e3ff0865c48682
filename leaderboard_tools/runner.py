"""Write: render into a staging folder beside the output, then exchange the two in one step.

The output belongs to the build only where the build made it: before any work the output is
judged (``benchmark_leaderboard.output.output_problem``), and only a new or empty folder or an
earlier render (a folder holding the render marker) is ever replaced or removed. A symbolic link as
the output is rendered through: its target is exchanged and the link stays a link. The output
keeps its mode. A lock beside the output lets one build (or ``clean``) at a time work on it.

What the last render did not write (its marker lists what it wrote: a ``CNAME``, a folder of notes
someone added) is carried into the new render unchanged, and ``clean`` leaves it; names in Pelican's
``OUTPUT_RETENTION`` are kept the same way. A refused, failed or interrupted build leaves the output as it was; what a killed one left (its
staging folder, or a move into a mount point half done) is finished or removed by the next build,
under the lock. This is what ``invoke build`` (and serve, livereload, publish, verify) call."""

from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import errno
import fcntl
import gc
import logging
import os
import re
import secrets
import shutil
import signal
import stat
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator

from benchmark_leaderboard.manifest import ManifestError
from benchmark_leaderboard.problems import BuildFailed, BuildRefused
from benchmark_leaderboard.output import (INNER_LOCK, INNER_OLD_PREFIX, INNER_STAGING_PREFIX, MARKER, TOKEN,
                                          counts_as_empty, judge, kept_line, marker_bytes, one_line, overwrite_problem,
                                          read_marker, render_files, unlisted)

if TYPE_CHECKING:  # imported where Pelican runs: the plugin's generator imports Pelican
    from benchmark_leaderboard.generator import Written

# At exit, what the last render left in reference cycles (its parsed reports, rows and pages:
# millions of objects) goes back to the operating system with the process instead of being
# traversed and freed one by one by the final collection.
atexit.register(gc.freeze)

# How long a build waits for another build (or clean) of the same output before it gives up, and
# how often it looks again meanwhile.
LOCK_WAIT_SECONDS = 5.0
LOCK_POLL_SECONDS = 0.05


class BuildError(Exception):
    """The build cannot start or finish; the message is one line for the user."""

    def line(self) -> str:
        return f"build failed: {self}"


class OutputRefused(BuildError):
    """The output is not the build's to write or remove; the message is the whole line."""

    def line(self) -> str:
        return str(self)


class OutputBusy(BuildError):
    """Another build (or clean) holds the output's lock; the message is the whole line."""

    def line(self) -> str:
        return str(self)


class CleanFailed(BuildError):
    """``clean`` could not remove the output; the message is one line for the user."""

    def line(self) -> str:
        return f"clean failed: {self}"


class BuildInterrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM ended the build; the output is as it was (or, when the signal came during
    the exchange, which waits for it, the new render). ``line`` says which, ``signum`` which signal."""

    def __init__(self, signum: int, line: str):
        super().__init__(line)
        self.signum = signum

    def line(self) -> str:
        return str(self.args[0])


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that the build's clean-up runs."""


@dataclass(frozen=True)
class Summary:
    rows: int
    suites: int
    families: int
    files: int
    seconds: float
    linked: int = 0  # of ``files``, those unchanged since the last render, linked from it

    def __str__(self) -> str:
        files = f"{_count(self.files, 'file', 'files')} written"
        if self.linked:
            files = (f"{_count(self.files, 'file', 'files')} ({self.files - self.linked:,} written, {self.linked:,} "
                     "linked unchanged from the last render)")
        return (f"leaderboard: {_count(self.rows, 'row', 'rows')}, {_count(self.suites, 'suite', 'suites')}, "
                f"{_count(self.families, 'family', 'families')}, {files} in {self.seconds:.2f} s")


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def pelican_settings(settings_file: str, overrides: dict[str, Any]) -> dict[str, Any]:
    from pelican.settings import read_settings

    return read_settings(settings_file, override={k: v for k, v in overrides.items() if v is not None})


def render_into(settings_file: str, output_dir: str, overrides: dict[str, Any]) -> Written:
    """Run Pelican once with ``output_dir`` as its output; returns what the plugin's
    ``leaderboard_written`` signal said of it: the rows, suites and model families of the leaderboard,
    and the files it wrote and linked."""
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
    return written[-1]


def build_overrides(reports_dir: str | None = None, manifest: str | None = None, release_tag: str | None = None,
                    extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The Pelican settings the build's flags set; a reports folder or manifest that cannot be one
    is a ``BuildError``."""
    overrides = dict(extra or {})
    if reports_dir is not None:
        if not os.path.isdir(reports_dir):
            raise BuildError(f"the reports folder {one_line(reports_dir)} does not exist" if not os.path.lexists(reports_dir)
                             else f"the reports folder {one_line(reports_dir)} is not a folder")
        overrides["LEADERBOARD_REPORTS_DIR"] = os.path.abspath(reports_dir)
    if manifest is not None:
        if os.path.isdir(manifest):
            raise BuildError(f"the manifest {one_line(manifest)} is a folder, not a models.jsonl file")
        overrides["LEADERBOARD_MANIFEST"] = os.path.abspath(manifest)
    if release_tag is not None:
        overrides["LEADERBOARD_RELEASE_TAG"] = release_tag
    return overrides


def output_refusal(settings_file: str, output_dir: str, overrides: dict[str, Any] | None = None,
                   unmarked: bool = False) -> str | None:
    """Why ``output_dir`` cannot be the output of a build with these settings (with ``unmarked``: be
    cleaned, which a folder without a render can), or None."""
    return judge(output_dir, _settings(settings_file, overrides or {}), unmarked=unmarked)


def _settings(settings_file: str, overrides: dict[str, Any]) -> dict[str, Any]:
    try:
        return pelican_settings(settings_file, overrides)
    except OSError as error:
        raise BuildError(f"cannot read the settings {one_line(settings_file)}: {_reason(error)}") from None


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
    """Render the site into ``output_dir`` atomically. Raises ``BuildRefused`` (the archive),
    ``BuildError`` (one line: ``error.line()``) or ``BuildInterrupted``.

    ``finish``, when given, is called with the rendered folder before it replaces the output: what it
    adds (a release's SHA256SUMS) arrives in the same exchange."""
    started = time.perf_counter()
    run = _Build(settings_file, output_dir, progress or say)
    with _sigterm_raises():
        try:
            rows, suites, families, files, linked = run.run(build_overrides(reports_dir, manifest, release_tag, extra),
                                                            finish)
        except KeyboardInterrupt as interrupt:
            signum = signal.SIGTERM if isinstance(interrupt, _Terminated) else signal.SIGINT
            raise BuildInterrupted(signum, f"build interrupted by {signum.name}; {run.unchanged()}") from None
    return Summary(rows, suites, families, files, time.perf_counter() - started, linked)


def clean(settings_file: str, output_dir: str) -> str:
    """Remove the render in ``output_dir`` and what a killed build left beside it; returns what was
    done, in one line. Only a render (a folder holding the marker) or an empty folder is removed, under
    the output's lock (a folder without any marker holds nothing a render wrote: nothing is removed,
    and the line says so), and of a render only what it wrote (what its marker lists; the rest, and the
    names of OUTPUT_RETENTION, stay, and the line names them). A link as the output stays, and so does
    the folder it leads to (emptied), as does a mount point."""
    with _sigterm_raises():
        try:
            return _clean(settings_file, output_dir)
        except BuildError as error:
            if type(error) is BuildError:
                raise CleanFailed(str(error)) from None
            raise
        except KeyboardInterrupt as interrupt:
            signum = signal.SIGTERM if isinstance(interrupt, _Terminated) else signal.SIGINT
            raise BuildInterrupted(signum, f"clean interrupted by {signum.name}; run it again to finish") from None


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

    def run(self, overrides: dict[str, Any], finish: Callable[[str], None] | None) -> tuple[int, int, int, int, int]:
        place = _Place(self.output_dir)
        self.had_render = read_marker(place.target) is not None
        settings = _settings(self.settings_file, overrides)
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
                self.had_render = read_marker(place.target) is not None
                previous = place.target if self.had_render else None
                mode = place.mode()
                staging = place.make_staging()
                try:
                    source = overrides.get("LEADERBOARD_REPORTS_DIR") or "the archive named in " + os.path.basename(self.settings_file)
                    self.say(f"rendering {one_line(source)} into {self.shown}")
                    _quiet_pelican()
                    try:
                        written = render_into(self.settings_file, staging,
                                              {**overrides, "LEADERBOARD_PREVIOUS_RENDER": previous})
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
                        if previous is not None:
                            kept = _carry(previous, staging, settings.get("OUTPUT_RETENTION") or (), self.shown)
                            if kept:
                                self.say(kept_line(kept))
                    except (ManifestError, BuildFailed) as error:
                        raise BuildError(str(error)) from None
                    except (BuildRefused, BuildError, OSError):
                        raise
                    except Exception as error:
                        # Whatever else the plugin or Pelican raised: one line, never a traceback.
                        raise BuildError(f"{type(error).__name__}: {one_line(str(error))}; {self.shown} is unchanged") from None
                    place.swap(staging, mode)
                finally:
                    with signals_deferred():  # a second Ctrl-C must not leave half of the staging folder
                        place.tidy(staging)
        except OSError as error:
            raise BuildError(self._failure(error, place, staging)) from None
        return written.rows, written.suites, written.families, files, linked

    def _failure(self, error: OSError, place: "_Place", staging: str | None) -> str:
        """One line for an operating-system error: what was being read or written, and why."""
        path = _filename(error)
        written = [place.target, place.lock] + ([staging] if staging else [])
        writing = path is not None and (os.path.abspath(path) == place.parent
                                        or any(_within(os.path.abspath(path), folder) for folder in written))
        if error.errno in (errno.ENOSPC, errno.EDQUOT):
            what = f"no space left on device while writing {one_line(path or staging or place.target)}"
        elif path is None:
            what = _reason(error)
        else:
            what = f"cannot {'write' if writing else 'read'} {one_line(path)}: {_reason(error)}"
        return f"{what}; {self.shown} is unchanged"


class _Place:
    """Where a build writes: the output's real folder (a link's target), its lock, whether it is a
    mount point (then the staging folder, the old render and the lock live inside it)."""

    def __init__(self, output_dir: str):
        self.shown = one_line(output_dir)
        self.target = os.path.realpath(output_dir)
        self.parent, self.name = os.path.split(self.target)
        self.mount = os.path.isdir(self.target) and os.path.ismount(self.target)
        self.lock = os.path.join(self.target, INNER_LOCK) if self.mount else os.path.join(self.parent, f".{self.name}.lock")

    def make_parent(self) -> None:
        try:
            os.makedirs(self.parent, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise BuildError(f"cannot make the folder {one_line(self.parent)}: a part of that path is a file; "
                             f"{self.shown} is unchanged") from None

    @contextmanager
    def locked(self) -> Iterator[None]:
        try:
            descriptor = acquire_lock(self.lock, self.shown)
        except OSError as error:
            if error.errno in (errno.ENOSPC, errno.EDQUOT):
                raise
            raise BuildError(f"cannot write into {one_line(os.path.dirname(self.lock))}: {_reason(error)}; "
                             f"{self.shown} is unchanged") from None
        try:
            yield
        finally:
            release_lock(self.lock, descriptor)

    def recover(self) -> None:
        """Finish or remove what a killed build left (beside the output, or inside a mount point)."""
        recover_beside(self.parent, self.name, self.target)
        if os.path.isdir(self.target) and not os.path.islink(self.target):
            recover_inside(self.target)

    def mode(self) -> int:
        """The output's mode: the one it has, or for a new one what the umask gives a new folder."""
        try:
            return stat.S_IMODE(os.stat(self.target).st_mode)
        except FileNotFoundError:
            mask = os.umask(0)
            os.umask(mask)
            return 0o777 & ~mask

    def make_staging(self) -> str:
        folder, prefix = (self.target, INNER_STAGING_PREFIX) if self.mount else (self.parent, f".{self.name}.new-")
        try:
            return make_folder(folder, prefix)
        except OSError as error:
            if error.errno in (errno.ENOSPC, errno.EDQUOT):
                raise
            raise BuildError(f"cannot write into {one_line(folder)}: {_reason(error)}; {self.shown} is unchanged") from None

    def swap(self, staging: str, mode: int) -> None:
        """Put the render in ``staging`` where the output is; signals wait until it is done."""
        with signals_deferred():
            if self.mount:
                move_into(staging, self.target)
                return
            os.chmod(staging, mode)
            if not os.path.lexists(self.target):
                os.rename(staging, self.target)
                return
            try:
                exchange(staging, self.target)
                return
            except OSError as error:
                if error.errno not in (errno.EBUSY, errno.EXDEV):
                    raise
            # A mount point that ismount() did not see (a bind mount of the same file system): the
            # folder cannot move, so the render is copied inside it and moved in entry by entry.
            inner = make_folder(self.target, INNER_STAGING_PREFIX)
            shutil.copytree(staging, inner, symlinks=True, dirs_exist_ok=True)
            move_into(inner, self.target)

    def tidy(self, staging: str | None) -> None:
        """After the build, whatever happened: the staging folder (a partial render, or the old
        render after the exchange) is removed; in a mount point a half-done move is finished or undone."""
        if staging is not None and not self.mount:
            remove_tree(staging)
        recover_beside(self.parent, self.name, self.target)
        if os.path.isdir(self.target) and not os.path.islink(self.target):
            recover_inside(self.target)


def not_written(folder: str, retention: Any) -> list[str]:
    """What the render in ``folder`` did not write (``unlisted``), with the top-level names of
    ``OUTPUT_RETENTION``; for a render whose marker lists no files, only the latter."""
    retention = [name for name in retention or () if isinstance(name, str) and name and "/" not in name]
    files = render_files(read_marker(folder))
    if files is None:
        return sorted(name + ("/" if os.path.isdir(os.path.join(folder, name)) and not os.path.islink(os.path.join(folder, name)) else "")
                      for name in retention if os.path.lexists(os.path.join(folder, name)))
    return unlisted(folder, files, retention)


def _carry(previous: str, staging: str, retention: Any, shown: str) -> list[str]:
    """Put what the last render in ``previous`` did not write into the new render in ``staging``,
    unchanged (linked where the file system allows, else copied with its times and mode); returns
    what was carried. A path the new render writes too is someone else's file it would overwrite:
    the build stops, the output unchanged."""
    kept = not_written(previous, retention)
    clashes = [entry for entry in kept if os.path.lexists(os.path.join(staging, *entry.rstrip("/").split("/")))]
    if clashes:
        raise BuildError(overwrite_problem(clashes, shown))
    for entry in kept:
        relative = os.path.join(*entry.rstrip("/").split("/"))
        source, target = os.path.join(previous, relative), os.path.join(staging, relative)
        parent = os.path.dirname(target)
        if not os.path.isdir(parent):
            os.makedirs(parent)
            shutil.copystat(os.path.dirname(source), parent)
        if os.path.isdir(source) and not os.path.islink(source):
            shutil.copytree(source, target, symlinks=True, copy_function=_link_or_copy)
        elif os.path.islink(source):
            os.symlink(os.readlink(source), target)
        else:
            _link_or_copy(source, target)
    return kept


def _same_file(folder: str, other: str, name: str) -> bool:
    """Whether ``name`` in ``folder`` is the very file (a link of it) that ``name`` is in ``other``."""
    try:
        return os.path.samestat(os.lstat(os.path.join(folder, name)), os.lstat(os.path.join(other, name)))
    except OSError:
        return False


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError:  # another file system, or links not allowed
        shutil.copy2(source, target, follow_symlinks=False)


def _files_below(folder: str) -> list[str]:
    return [os.path.relpath(os.path.join(top, name), folder).replace(os.sep, "/")
            for top, _, names in os.walk(folder) for name in names]


def _remove_listed(folder: str, kept: list[str]) -> None:
    """Remove every entry of the render in ``folder`` but ``kept`` (what it did not write) and the
    folders that hold them, the marker last (an interrupted removal leaves a render, which the next
    clean finishes)."""
    keep = {entry.rstrip("/") for entry in kept}
    holders = {"/".join(entry.split("/")[:depth]) for entry in keep for depth in range(1, entry.count("/") + 1)}
    for top, folders, names in os.walk(folder, topdown=False):
        relative = os.path.relpath(top, folder).replace(os.sep, "/")
        relative = "" if relative == "." else relative + "/"
        if relative.rstrip("/") in keep or any(relative.startswith(entry + "/") for entry in keep if relative):
            continue
        for name in names + [entry for entry in folders if os.path.islink(os.path.join(top, entry))]:
            path = relative + name
            if path not in keep and path != MARKER and not (relative == "" and name == INNER_LOCK):
                os.unlink(os.path.join(top, name))
        for name in folders:
            path = relative + name
            if path not in keep and path not in holders and not os.path.islink(os.path.join(top, name)):
                try:
                    os.rmdir(os.path.join(top, name))
                except OSError:
                    pass
    marker = os.path.join(folder, MARKER)
    if os.path.lexists(marker):
        os.unlink(marker)


def _clean(settings_file: str, output_dir: str) -> str:
    shown = one_line(output_dir)
    problem = output_refusal(settings_file, output_dir, unmarked=True)
    if problem:
        raise OutputRefused(problem)
    retention = _settings(settings_file, {}).get("OUTPUT_RETENTION") or ()
    place = _Place(output_dir)
    if not os.path.isdir(place.parent):
        return f"nothing to remove: {shown} does not exist"
    link = os.path.islink(os.path.abspath(output_dir).rstrip(os.sep) or os.sep)
    try:
        with place.locked():
            place.recover()
            problem = output_refusal(settings_file, output_dir, unmarked=True)
            if problem:
                raise OutputRefused(problem)
            if not os.path.lexists(place.target):
                return f"nothing to remove: {shown} does not exist"
            entries = sorted(os.listdir(place.target))
            if read_marker(place.target) is None and not counts_as_empty(entries):
                # No marker: nothing there was written by a render (a clean before left only this).
                return f"nothing to remove: {shown} holds no render of this site; " + _entries_line(place.target, entries)
            kept = not_written(place.target, retention) if read_marker(place.target) is not None else []
            if kept:
                with signals_deferred():
                    _remove_listed(place.target, kept)
                return f"removed the render in {shown}; " + kept_line(kept, "left").replace(" the last render ", " it ")
            if link or place.mount:
                empty_render(place.target)
                kept = "the link and the folder it leads to stay" if link else "the folder stays: it is a mount point"
                return f"removed the render in {shown}; {kept}"
            with signals_deferred():
                aside = os.path.join(place.parent, f".{place.name}.old-{secrets.token_hex(6)}")
                os.rename(place.target, aside)
            remove_tree(aside)
            return f"removed {shown}"
    except OSError as error:
        raise CleanFailed(f"cannot remove {one_line(_filename(error) or output_dir)}: {_reason(error)}") from None


def _entries_line(folder: str, entries: list[str], shown: int = 10) -> str:
    """``its 2 entries stay: CNAME, extra/`` (a folder's name with a slash; past ``shown`` names, how
    many more)."""
    names = [one_line(name) + ("/" if os.path.isdir(os.path.join(folder, name)) and not os.path.islink(os.path.join(folder, name))
                               else "") for name in entries[:shown]]
    more = f" and {len(entries) - shown:,} more" if len(entries) > shown else ""
    return f"its {_count(len(entries), 'entry stays', 'entries stay')}: {', '.join(names)}{more}"


# --- the lock -------------------------------------------------------------------------------------

def acquire_lock(path: str, shown: str, wait: float = LOCK_WAIT_SECONDS) -> int:
    """``fcntl.flock`` on the file ``path`` (made if missing); waits ``wait`` seconds for another
    holder, then raises ``OutputBusy``. Returns the descriptor to give ``release_lock``. The holder
    removes the file when it is done; a waiter that got the lock of a file removed meanwhile sees that
    it is no longer at ``path`` and takes the new one."""
    deadline = time.monotonic() + wait
    while True:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        try:
            while True:
                try:
                    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise OutputBusy(f"another build is writing {shown}; try again when it is done") from None
                    time.sleep(LOCK_POLL_SECONDS)
            try:
                current = os.path.samestat(os.fstat(descriptor), os.lstat(path))
            except FileNotFoundError:
                current = False
        except BaseException:
            os.close(descriptor)
            raise
        if current:
            return descriptor
        os.close(descriptor)


def release_lock(path: str, descriptor: int) -> None:
    """Remove the lock file, then let go of the lock (in this order: see ``acquire_lock``)."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    finally:
        os.close(descriptor)


# --- folders the build makes, and what a killed build left ----------------------------------------

def make_folder(parent: str, prefix: str) -> str:
    """A new folder ``parent/prefix<12 hex digits>``, made by this call (never an existing one)."""
    while True:
        path = os.path.join(parent, prefix + secrets.token_hex(6))
        try:
            os.mkdir(path, 0o700)
            return path
        except FileExistsError:
            continue


def recover_beside(parent: str, name: str, target: str) -> None:
    """Remove the staging (``.<name>.new-*``) and old (``.<name>.old-*``) folders a killed build left
    beside the output; only names exactly as the runner makes them. If the output itself is missing (a
    build killed between the two renames of the fallback swap), its old render is put back first."""
    pattern = re.compile(rf"\.{re.escape(name)}\.(new|old)-{TOKEN}")
    try:
        found = sorted(entry for entry in os.listdir(parent) if pattern.fullmatch(entry))
    except OSError:
        return
    if not os.path.lexists(target):
        for entry in found:
            path = os.path.join(parent, entry)
            if ".old-" in entry and not os.path.islink(path) and read_marker(path) is not None:
                os.rename(path, target)
                found.remove(entry)
                break
    for entry in found:
        remove_tree(os.path.join(parent, entry))


def move_into(staging: str, target: str) -> None:
    """Move the render in ``staging`` (a folder inside ``target``) into ``target`` entry by entry: the
    way into a mount point, which cannot be renamed. Not atomic; each step leaves a state that
    ``recover_inside`` finishes or undoes: the old entries go into ``.leaderboard-old-<token>`` (the
    old marker last: while any old entry is in place the output still reads as the old render), then
    the new marker comes first (from then on the move is finished, never undone), then the rest."""
    token = os.path.basename(staging)[len(INNER_STAGING_PREFIX):]
    old = os.path.join(target, INNER_OLD_PREFIX + token)
    os.mkdir(old, 0o700)
    mine = {os.path.basename(staging), os.path.basename(old), INNER_LOCK}
    for name in sorted(os.listdir(target), key=lambda entry: (entry == MARKER, entry)):
        if name not in mine and not _inner_leftover(name):
            os.rename(os.path.join(target, name), os.path.join(old, name))
    _move_entries(staging, target, first=MARKER)
    os.rmdir(staging)


def recover_inside(target: str) -> None:
    """Finish or undo a move into the mount point ``target`` that a killed build began (see
    ``move_into``), then remove what is left of it. A staging folder that still holds its marker next
    to an old folder: the old entries were being moved out, so they go back. An old folder beside a
    staging folder without marker (or none): the new entries were being moved in, so the rest follow."""
    try:
        names = os.listdir(target)
    except OSError:
        return
    tokens = {name[len(prefix):]: None for name in sorted(names) for prefix in (INNER_STAGING_PREFIX, INNER_OLD_PREFIX)
              if name.startswith(prefix) and re.fullmatch(TOKEN, name[len(prefix):])}
    for token in tokens:
        staging = os.path.join(target, INNER_STAGING_PREFIX + token)
        old = os.path.join(target, INNER_OLD_PREFIX + token)
        has_staging = os.path.isdir(staging) and not os.path.islink(staging)
        has_old = os.path.isdir(old) and not os.path.islink(old)
        if has_old and has_staging and read_marker(staging) is not None:
            _move_entries(old, target)  # undo: the old render goes back whole
        elif has_old and has_staging:
            _move_entries(staging, target)  # finish: the new marker is in place already
        for path in (staging, old):
            if os.path.lexists(path):
                remove_tree(path)


def _move_entries(source: str, target: str, first: str | None = None) -> None:
    for name in sorted(os.listdir(source), key=lambda entry: (entry != first, entry)):
        destination = os.path.join(target, name)
        if not os.path.lexists(destination):
            os.rename(os.path.join(source, name), destination)


def _inner_leftover(name: str) -> bool:
    return any(name.startswith(prefix) and re.fullmatch(TOKEN, name[len(prefix):])
               for prefix in (INNER_STAGING_PREFIX, INNER_OLD_PREFIX))


def empty_render(folder: str) -> None:
    """Remove everything in ``folder`` but the folder itself, the marker last (an interrupted removal
    leaves a folder that still reads as a render, which the next clean removes)."""
    for name in sorted(os.listdir(folder)):
        if name not in (MARKER, INNER_LOCK):
            remove_tree(os.path.join(folder, name))
    marker = os.path.join(folder, MARKER)
    if os.path.lexists(marker):
        os.unlink(marker)


def remove_tree(path: str) -> None:
    """Remove ``path`` (a folder with everything below it, or a file or link) without following a link;
    an entry already gone is no error (a concurrent removal, or a killed one that got that far)."""
    def missing_is_fine(function, name, exc_info) -> None:
        if not isinstance(exc_info[1], FileNotFoundError):
            raise exc_info[1]

    try:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, onerror=missing_is_fine)
        else:
            os.unlink(path)
    except FileNotFoundError:
        pass


# --- the exchange ---------------------------------------------------------------------------------

AT_FDCWD = -100
RENAME_EXCHANGE = 2  # linux/fs.h: swap the two names in one step; both must exist
_libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
_renameat2 = getattr(_libc, "renameat2", None)
if _renameat2 is not None:
    _renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    _renameat2.restype = ctypes.c_int


def exchange(staging: str, target: str) -> None:
    """Swap the folders ``staging`` and ``target`` in one step (``renameat2(RENAME_EXCHANGE)``): there is
    never a moment without an output. Where the kernel or file system cannot exchange (EINVAL, ENOSYS,
    or a C library without renameat2), two renames do it instead, with a moment between them without
    an output; a build killed in that moment leaves the old render at ``.<name>.old-*``, which the next
    build puts back (``recover_beside``)."""
    if _renameat2 is not None:
        if _renameat2(AT_FDCWD, os.fsencode(staging), AT_FDCWD, os.fsencode(target), RENAME_EXCHANGE) == 0:
            return
        code = ctypes.get_errno()
        if code not in (errno.EINVAL, errno.ENOSYS):
            raise OSError(code, os.strerror(code), staging, None, target)
    parent, name = os.path.split(target)
    old = os.path.join(parent, f".{name}.old-{secrets.token_hex(6)}")
    os.rename(target, old)
    try:
        os.rename(staging, target)
    except BaseException:
        os.rename(old, target)
        raise
    # The old render now lies at ``old``; the staging name is free. Keep the promise of an exchange:
    # the old render ends up at the staging name, which the caller removes.
    os.rename(old, staging)


# --- signals, settings, small helpers -------------------------------------------------------------

@contextmanager
def _sigterm_raises() -> Iterator[None]:
    """Within it, SIGTERM ends the work like Ctrl-C does, so that its clean-up runs (main thread only:
    elsewhere Python cannot install a handler)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    installer = os.getpid()

    def terminate(signum, frame):
        if os.getpid() != installer:
            # A forked worker inherited this handler: it ends as SIGTERM ends a process, silently
            # (a pool stops its workers with SIGTERM; they must not raise into their own code).
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise _Terminated()

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def collector_paused():
    """No cyclic garbage collection during the block. A render allocates millions of objects (the
    parsed reports, rows, pages) and leaves almost no reference cycles: the collector's passes over
    them free nothing. It runs again after."""
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


def _filename(error: OSError) -> str | None:
    name = error.filename
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    return name if isinstance(name, str) else None


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _reason(error: OSError) -> str:
    reason = error.strerror or str(error)
    return reason[:1].lower() + reason[1:]


def _quiet_pelican() -> None:
    # Pelican's own progress lines would drown ours; its warnings and errors still show.
    from pelican.log import console

    console.quiet = True
    logging.getLogger("pelican").setLevel(logging.WARNING)
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s", stream=sys.stderr)
