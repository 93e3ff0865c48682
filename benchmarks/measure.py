"""Run one command and measure it: wall time and the peak resident memory of its whole process tree."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass

PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
# Known processes are read every FAST seconds; /proc is searched for new descendants every SLOW.
FAST = 0.005
SLOW = 0.05


@dataclass(frozen=True)
class Measured:
    seconds: float
    peak_rss_bytes: int
    returncode: int
    stderr: str


def _parent_of(pid: str) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return None
    # The command name may hold spaces and parentheses: the fields after its closing one are fixed.
    return int(stat[stat.rindex(b")") + 2:].split(b" ", 2)[1])


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            return int(handle.read().split()[1]) * PAGE_SIZE
    except (OSError, IndexError, ValueError):
        return 0


class TreeMemory:
    """Samples the summed resident memory of a process and its descendants until stopped.

    Forked workers share pages with their parent, so the sum overstates what the tree really
    holds: it is a ceiling, the same for every command measured."""

    def __init__(self, root: int):
        self.root = root
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "TreeMemory":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _descendants(self) -> set[int]:
        parents: dict[int, int] = {}
        for name in os.listdir("/proc"):
            if name.isdigit():
                parent = _parent_of(name)
                if parent is not None:
                    parents[int(name)] = parent
        tree = {self.root}
        grew = True
        while grew:
            grew = False
            for pid, parent in parents.items():
                if parent in tree and pid not in tree:
                    tree.add(pid)
                    grew = True
        return tree

    def _run(self) -> None:
        tree = {self.root}
        searched = 0.0
        while not self._stop.is_set():
            now = time.monotonic()
            if now - searched >= SLOW:
                tree = self._descendants()
                searched = now
            self.peak = max(self.peak, sum(_rss(pid) for pid in tree))
            self._stop.wait(FAST)


def run(command: list[str], cwd: str | None = None, env: dict[str, str] | None = None) -> Measured:
    """Run ``command`` to its end; its output is kept, its wall time and tree memory measured."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    with TreeMemory(process.pid) as memory:
        stderr = process.stderr.read() if process.stderr else b""
        _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    # ru_maxrss (KiB) is the largest single process of the tree; the sampled sum catches the rest.
    peak = max(memory.peak, usage.ru_maxrss * 1024)
    return Measured(seconds, peak, process.returncode, stderr.decode("utf-8", "replace"))
