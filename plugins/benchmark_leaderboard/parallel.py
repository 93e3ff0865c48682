"""Share output work between this process and one forked child: the two cores of the build machine
both write pages. The files written are the same, in parallel or not; only the wall time differs."""

from __future__ import annotations

import gc
import os
import pickle
import sys
import traceback
from typing import Any, Callable, TypeVar

T = TypeVar("T")
U = TypeVar("U")


class WorkerFailed(Exception):
    """The forked half of the work did not finish; its traceback went to standard error."""


def can_fork() -> bool:
    return hasattr(os, "fork") and (os.cpu_count() or 1) > 1


def split(items: list, parent_share: float) -> tuple[list, list]:
    """The parent's items (the first ``parent_share`` of them) and the child's (the rest)."""
    cut = int(len(items) * parent_share)
    return items[:cut], items[cut:]


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
        raise WorkerFailed(f"the forked page writer exited with status {code}")


def map_halves(function: Callable[[list], T], first: list, second: list) -> tuple[T, T]:
    """``(function(first), function(second))``, the second computed in a forked child and sent back
    pickled. Should the child fail in any way (a value pickle cannot carry, a crash), the parent
    computes that half itself: the answer never depends on the fork."""
    if not second:
        return function(first), function(second)
    return both(lambda: function(first), lambda: function(second))


def both(here: Callable[[], T], there: Callable[[], U]) -> tuple[T, U]:
    """``(here(), there())``, ``there`` computed in a forked child at the same time and its value sent
    back pickled; should the child fail in any way, the parent computes it itself."""
    if not can_fork():
        return here(), there()
    reader, writer = os.pipe()
    child = _fork()
    if child == 0:  # pragma: no cover - the child's coverage is not collected
        os.close(reader)
        code = 0
        try:
            with os.fdopen(writer, "wb") as out:
                pickle.dump(there(), out, protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(writer)
    try:
        here_result = here()
    finally:
        with os.fdopen(reader, "rb") as incoming:
            sent = incoming.read()
        code = _joined(child)
    there_result: Any
    if code == 0 and sent:
        try:
            there_result = pickle.loads(sent)
        except Exception:
            there_result = there()
    else:
        there_result = there()
    return here_result, there_result
