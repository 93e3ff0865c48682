"""Share a build between this process and one forked child: the two cores of the build machine both
check reports and write pages. The files written are the same, in parallel or not; only the wall
time differs."""

from __future__ import annotations

import atexit
import gc
import os
import pickle
import signal
import sys
import traceback
from typing import Any, Callable, TypeVar

T = TypeVar("T")


class WorkerFailed(Exception):
    """The forked half of the work did not finish; its traceback went to standard error."""


def can_fork() -> bool:
    return hasattr(os, "fork") and (os.cpu_count() or 1) > 1


def _fork() -> int:
    """``os.fork()``, with the objects that exist now frozen out of the garbage collector: a
    collection in either process would otherwise write to every object's header and so copy every
    shared memory page. The parent calls ``_joined`` once the child is done."""
    sys.stdout.flush()
    sys.stderr.flush()
    gc.freeze()
    return os.fork()


def _joined(child: int) -> int:
    """Wait for ``child``; its exit code. The parent's objects go back to the garbage collector."""
    _, status = os.waitpid(child, 0)
    gc.unfreeze()
    return os.waitstatus_to_exitcode(status)


def run_both(in_parent: Callable[[], None], in_child: Callable[[], None]) -> None:
    """Run ``in_child`` in a forked child and ``in_parent`` here, at the same time; return when both
    are done. Without fork (or with one CPU) the two run one after the other, here."""
    if not can_fork():
        in_child()
        in_parent()
        return
    child = _fork()
    if child == 0:  # pragma: no cover - the child's coverage is not collected
        code = 0
        try:
            in_child()
        except BaseException:
            traceback.print_exc()
            code = 1
        finally:
            sys.stderr.flush()
            os._exit(code)
    try:
        in_parent()
    finally:
        code = _joined(child)
    if code != 0:
        raise WorkerFailed(f"the forked helper exited with status {code}")


class Partner:
    """A forked child that shares a build in two steps. First it computes ``first()`` and sends
    ``share(value)`` here; then it waits: told to ``go(message)``, it runs ``then(value, message)``
    and exits. ``join()`` waits for it; ``abandon()`` kills it.

    Without fork (or with one CPU), or should the child fail before it has sent its share, this
    process computes ``first()`` itself, and ``join()`` runs ``then`` here: the work done is the
    same either way, only where it runs differs."""

    def __init__(self, first: Callable[[], T], share: Callable[[T], Any], then: Callable[[T, Any], None] | None,
                 fork: bool = True) -> None:
        self._first, self._share, self._then = first, share, then
        self._child = 0
        self._from_child = self._to_child = -1
        self._reader: Any = None
        self._value: Any = None
        self._computed_here = False
        self._message: Any = None
        self._told = False
        if not (fork and can_fork()):
            return
        from_child, to_parent = os.pipe()
        from_parent, to_child = os.pipe()
        child = _fork()
        if child == 0:  # pragma: no cover - the child's coverage is not collected
            os.close(from_child)
            os.close(to_child)
            self._serve(to_parent, from_parent)
        os.close(to_parent)
        os.close(from_parent)
        self._child, self._from_child, self._to_child = child, from_child, to_child
        _partners.add(self)

    def _serve(self, to_parent: int, from_parent: int) -> None:  # pragma: no cover - runs in the child
        code = 1
        try:
            value = self._first()
            out = os.fdopen(to_parent, "wb")
            pickle.dump(self._share(value), out, protocol=pickle.HIGHEST_PROTOCOL)
            out.flush()
            # One pickled message, read without waiting for the end of the pipe: a process forked
            # meanwhile holds a copy of its writing end until it exits. No message at all means stop.
            with os.fdopen(from_parent, "rb") as incoming:
                try:
                    message, told = pickle.load(incoming), True
                except EOFError:
                    message, told = None, False
            if told and self._then is not None:
                self._then(value, message)
            # Done: the parent need not wait for this process to tear down its memory.
            out.write(DONE)
            out.flush()
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)

    def shared(self) -> Any:
        """``share(first())``, as the child sent it or as computed here."""
        if self._child:
            self._reader = os.fdopen(self._from_child, "rb")
            self._from_child = -1
            try:
                return pickle.load(self._reader)
            except Exception:
                # The child failed before its share was sent: it is told to stop, and its work is done here.
                self._stop_child()
        self._value = self._first()
        self._computed_here = True
        return self._share(self._value)

    def go(self, message: Any) -> None:
        """Let the child run ``then`` with ``message`` (or ``join`` run it here)."""
        self._told, self._message = True, message
        if self._child:
            descriptor, self._to_child = self._to_child, -1
            with os.fdopen(descriptor, "wb") as out:
                pickle.dump(message, out, protocol=pickle.HIGHEST_PROTOCOL)

    def join(self) -> None:
        """Wait until the child is done (or run ``then`` here); raises ``WorkerFailed`` if it failed."""
        if self._child:
            child, self._child = self._child, 0
            _partners.discard(self)
            if self._to_child >= 0:
                os.close(self._to_child)
                self._to_child = -1
            done = self._reader.read(1) if self._reader is not None else b""
            self._close_reader()
            if done != DONE:
                _joined(child)
                raise WorkerFailed("the forked partner of the build exited with an error")
            gc.unfreeze()
            _reap(child)
        elif self._computed_here and self._told and self._then is not None:
            then, self._then = self._then, None
            then(self._value, self._message)

    def abandon(self) -> None:
        """The build stops: the child is killed wherever it is, and ``then`` will not run here."""
        self._then = None
        if self._child:
            try:
                os.kill(self._child, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._stop_child()

    def _stop_child(self) -> None:
        child, self._child = self._child, 0
        _partners.discard(self)
        for descriptor in (self._from_child, self._to_child):
            if descriptor >= 0:
                os.close(descriptor)
        self._from_child = self._to_child = -1
        self._close_reader()
        _joined(child)

    def _close_reader(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None


DONE = b"\x01"
_partners: set[Partner] = set()
_exiting: set[int] = set()  # children done with their work, perhaps still tearing down


@atexit.register
def _reap_all() -> None:
    """At exit, collect the children done earlier (long gone by now), so that their time counts
    as this process's children's."""
    for pid in list(_exiting):
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
    _exiting.clear()


def _reap(child: int) -> None:
    """Collect the exit of ``child`` if it has exited, and of those done earlier; the others are
    collected on a later call (or by the system once this process exits)."""
    _exiting.add(child)
    for pid in list(_exiting):
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == 0:
                continue
        except ChildProcessError:
            pass
        _exiting.discard(pid)


def abandon_all() -> None:
    """Kill and reap every partner still running: no forked writer outlives the build that made it."""
    for partner in list(_partners):
        partner.abandon()
