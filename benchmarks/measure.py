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
    cpu_seconds: float  # user and system time of the command and every child it waited for
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


def _private(pid: int) -> int:
    """The resident memory that ``pid`` holds alone (not shared with its parent or anyone else)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as handle:
            text = handle.read()
    except OSError:
        return 0
    total = 0
    for line in text.splitlines():
        if line.startswith((b"Private_Clean:", b"Private_Dirty:")):
            total += int(line.split()[1]) * 1024
    return total


class TreeMemory:
    """Samples the resident memory of a command's process tree until stopped: all of the root
    process, plus what each descendant holds privately. A forked child shares its parent's pages
    until either writes to them, so counting the child's whole RSS would count those pages twice."""

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
        return tree - {self.root}

    def _run(self) -> None:
        descendants: set[int] = set()
        searched = 0.0
        while not self._stop.is_set():
            now = time.monotonic()
            if now - searched >= SLOW:
                descendants = self._descendants()
                searched = now
            self.peak = max(self.peak, _rss(self.root) + sum(_private(pid) for pid in descendants))
            self._stop.wait(FAST)


def run(command: list[str], cwd: str | None = None, env: dict[str, str] | None = None, memory: bool = True) -> Measured:
    """Run ``command`` to its end; its output is kept, its wall time measured, and its tree's
    memory sampled if ``memory``. The sampling takes CPU time (reading /proc/PID/smaps_rollup walks a
    process's page tables): on two cores it slowed a build that uses both by 14%, and a renderer
    that uses one not at all. So the benchmark times runs that are not sampled."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    with TreeMemory(process.pid) if memory else _Unsampled() as sampled:
        stderr = process.stderr.read() if process.stderr else b""
        _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    # ru_maxrss (KiB) is the largest single process of the tree; the sampled sum catches the rest.
    peak = max(sampled.peak, usage.ru_maxrss * 1024)
    return Measured(seconds, usage.ru_utime + usage.ru_stime, peak, process.returncode, stderr.decode("utf-8", "replace"))


class _Unsampled:
    peak = 0

    def __enter__(self) -> "_Unsampled":
        return self

    def __exit__(self, *exc: object) -> None:
        pass
