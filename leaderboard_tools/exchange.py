"""The output's place: its lock, the staging folder a render is made in (beside the output, or
inside it when it is a mount point), the exchange that puts the render where the output is in one
step, and the finishing or removal of what a killed build left there.

A symbolic link as the output is followed: its target is where the render goes, and the link stays
a link. A lock beside the output lets one build (or ``clean``) at a time work on it."""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import fcntl
import functools
import os
import re
import secrets
import shutil
import stat
import time
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator

from benchmark_leaderboard.paths import INNER_LOCK, INNER_OLD_PREFIX, INNER_STAGING_PREFIX, TOKEN
from benchmark_leaderboard.write.output import MARKER, one_line, read_marker, remove_unwritten

from .faults import BuildError, OutputBusy, reason
from .interrupts import signals_deferred

# How long a build waits for another build (or clean) of the same output before it gives up, and
# how often it looks again meanwhile.
LOCK_WAIT_SECONDS = 5.0
LOCK_POLL_SECONDS = 0.05


class Place:
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
            raise BuildError(f"cannot write into {one_line(os.path.dirname(self.lock))}: {reason(error)}; "
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
            raise BuildError(f"cannot write into {one_line(folder)}: {reason(error)}; {self.shown} is unchanged") from None

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

    def merge(self, staging: str, stale: set[str], retention: Iterable[str]) -> None:
        """Put a render of only what changed (``staging``: the files a build made again, and its
        marker) into the output, which holds the previous render: first the files that render wrote
        and this one does not are removed (``stale``), then each made file replaces its old one (each
        in one step), and the marker comes last. A build killed on the way leaves the old marker,
        which lists every file this build touched, and files newer than it, which the next build
        makes again; signals wait until it is done."""
        with signals_deferred():
            remove_unwritten(self.target, stale, retention)
            for top, _, names in os.walk(staging):
                folder = os.path.relpath(top, staging)
                for name in sorted(names):
                    if folder == os.curdir and name == MARKER:
                        continue
                    destination = os.path.normpath(os.path.join(self.target, folder, name))
                    os.makedirs(os.path.dirname(destination), exist_ok=True)
                    os.replace(os.path.join(top, name), destination)
            os.replace(os.path.join(staging, MARKER), os.path.join(self.target, MARKER))

    def first_files(self, staging: str, earlier: Iterable[str]) -> FirstFiles:
        """What puts a rebuild's first files into the output ahead of the merge (``FirstFiles``)."""
        folder, prefix = (self.target, INNER_OLD_PREFIX) if self.mount else (self.parent, f".{self.name}.old-")
        return FirstFiles(staging, self.target, earlier, lambda: make_folder(folder, prefix))

    def tidy(self, staging: str | None) -> None:
        """After the build, whatever happened: the staging folder (a partial render, or the old
        render after the exchange) is removed; in a mount point a half-done move is finished or undone."""
        if staging is not None and not self.mount:
            remove_tree(staging)
        recover_beside(self.parent, self.name, self.target)
        if os.path.isdir(self.target) and not os.path.islink(self.target):
            recover_inside(self.target)


class FirstFiles:
    """The files a rebuild puts into the output before the rest of its render is merged (the
    preview's edited report pages, which a reader is waiting for): each replaces, in one step, the
    file of the same path that the last render wrote (its marker lists it) and that is still a
    regular file; a path the last render did not write waits for the merge and its checks. The file
    replaced is kept, linked, in a folder of the runner's own beside the output (which a killed
    build leaves to the next one's recovery) until the build ends: a failed build puts every one
    back (``undo``), so that it leaves the output as it was. A build killed between the two leaves
    the old marker and files newer than it, which the next build makes again, as after a merge."""

    def __init__(self, staging: str, target: str, earlier: Iterable[str], make_backups: Callable[[], str]):
        self.staging, self.target = staging, target
        self.earlier = frozenset(earlier)
        self.make_backups = make_backups
        self.backups: str | None = None
        self.moved: list[tuple[str, str]] = []  # each file put in place, and where its old file is kept

    def put(self, paths: Iterable[str]) -> None:
        with signals_deferred():
            for path in paths:
                if path not in self.earlier:
                    continue
                source = os.path.join(self.staging, *path.split("/"))
                destination = os.path.join(self.target, *path.split("/"))
                try:
                    found = os.lstat(destination)
                except FileNotFoundError:
                    continue
                if not stat.S_ISREG(found.st_mode) or not os.path.isfile(source):
                    continue
                if self.backups is None:
                    self.backups = self.make_backups()
                backup = os.path.join(self.backups, str(len(self.moved)))
                os.link(destination, backup, follow_symlinks=False)
                os.replace(source, destination)
                self.moved.append((destination, backup))

    def undo(self) -> None:
        """Every file put in place goes back to what it was."""
        with signals_deferred():
            while self.moved:
                destination, backup = self.moved.pop()
                os.replace(backup, destination)

    def done(self) -> None:
        """The build ended: the old files kept meanwhile go."""
        self.moved = []
        if self.backups is not None:
            remove_tree(self.backups)
            self.backups = None


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


@functools.cache
def _renameat2() -> Callable[..., int] | None:
    """The C library's ``renameat2``, or None where it has none; looked up at the first exchange."""
    function = getattr(ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True), "renameat2", None)
    if function is not None:
        function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
        function.restype = ctypes.c_int
    return function


def exchange(staging: str, target: str) -> None:
    """Swap the folders ``staging`` and ``target`` in one step (``renameat2(RENAME_EXCHANGE)``): there is
    never a moment without an output. Where the kernel or file system cannot exchange (EINVAL, ENOSYS,
    or a C library without renameat2), two renames do it instead, with a moment between them without
    an output; a build killed in that moment leaves the old render at ``.<name>.old-*``, which the next
    build puts back (``recover_beside``)."""
    renameat2 = _renameat2()
    if renameat2 is not None:
        if renameat2(AT_FDCWD, os.fsencode(staging), AT_FDCWD, os.fsencode(target), RENAME_EXCHANGE) == 0:
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
