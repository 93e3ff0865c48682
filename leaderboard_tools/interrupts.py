"""SIGINT and SIGTERM during a build or a ``clean``: SIGTERM ends the work as Ctrl-C does, so that its
clean-up runs; the steps that must not be cut in half hold both signals until they are done; and
what the user is told is a ``BuildInterrupted``, whose signal sets the exit status."""

from __future__ import annotations

import os
import signal
import threading
from contextlib import contextmanager
from typing import Iterator


class BuildInterrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM ended the build; the output is as it was (or, when the signal came during
    the exchange, which waits for it, the new render). ``line`` says which, ``signum`` which signal."""

    def __init__(self, signum: int, line: str):
        super().__init__(line)
        self.signum = signum

    def line(self) -> str:
        return str(self.args[0])


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that the build's clean-up runs."""


def signal_of(interrupt: KeyboardInterrupt) -> signal.Signals:
    """The signal that raised ``interrupt``: SIGTERM within ``sigterm_raises``, else SIGINT."""
    return signal.SIGTERM if isinstance(interrupt, Terminated) else signal.SIGINT


@contextmanager
def sigterm_raises() -> Iterator[None]:
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
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


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
