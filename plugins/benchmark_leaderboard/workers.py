"""A plain parallel map: the same function over chunks of work, in worker processes or here.

Results come back in the order of the chunks, so the site's bytes are the same for one process or
many. Workers are forked (they inherit the build's data and compiled templates, nothing is sent to
them but the chunk), ignore Ctrl-C (the build's own process answers it and ends them), die with
the process that started them, and are ended when the map returns or fails: nothing outlives it."""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import os
import signal
from typing import Any, Callable, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")

# What every worker reads, set just before the workers are forked: the data they share.
_shared: Any = None
_PR_SET_PDEATHSIG = 1


def chunks(items: Sequence[T], workers: int) -> list[Sequence[T]]:
    """``items`` in contiguous slices: four a worker, as the standard library's Pool.map sizes its
    chunks, so that a slow slice does not keep one worker busy while the others wait."""
    if not items:
        return []
    count = 1 if workers <= 1 else min(len(items), workers * 4)
    size, extra = divmod(len(items), count)
    slices, start = [], 0
    for number in range(count):
        end = start + size + (number < extra)
        slices.append(items[start:end])
        start = end
    return slices


def run(function: Callable[[Any, T], R], tasks: Sequence[T], shared: Any, workers: int,
        each: Callable[[R], None] | None = None) -> list[R]:
    """``[function(shared, task) for task in tasks]``, computed by up to ``workers`` processes;
    ``each``, when given, is called here with each result as it arrives, in the tasks' order.

    Objects that exist when the map starts stay out of the cyclic collector in this process and in
    the workers (a collection would write to every object's header and so copy every page the
    workers share with this process), and the collector runs during the tasks, whatever the caller
    set: a template's render leaves reference cycles (a macro and the context it was called in),
    which only the collector frees, and it looks only at what the tasks made."""
    global _shared
    was_enabled = gc.isenabled()
    gc.freeze()
    gc.enable()
    try:
        if workers <= 1 or len(tasks) <= 1 or not hasattr(os, "fork"):
            results = []
            for task in tasks:
                results.append(function(shared, task))
                if each is not None:
                    each(results[-1])
            return results
        _shared = shared
        pool = multiprocessing.get_context("fork").Pool(min(workers, len(tasks)), initializer=_started,
                                                        initargs=(os.getpid(),))
        try:
            results = []
            for result in pool.imap(_call, [(function, task) for task in tasks], chunksize=1):
                results.append(result)
                if each is not None:
                    each(result)
            pool.close()  # done: the workers are told to stop, and exit by themselves
        except BaseException:
            pool.terminate()  # failed or interrupted: the workers are ended where they are
            raise
        finally:
            pool.join()
        return results
    finally:
        _shared = None
        if not was_enabled:
            gc.disable()
        gc.unfreeze()


def _call(job: tuple[Callable[[Any, T], R], T]) -> R:
    function, task = job
    return function(_shared, task)


def _started(parent: int) -> None:
    """In each worker: Ctrl-C is the build's to answer, SIGTERM (how a pool stops its workers) ends
    it at once whatever handler the build installed, and it ends when its parent does."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the pool's own shutdown still ends the workers
        pass
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)
