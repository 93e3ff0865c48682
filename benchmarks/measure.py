"""Run one command and measure it: wall time, CPU time, and the peak memory of its whole process tree.

Memory is the proportional set size (PSS) summed over the command's process and every descendant
at one instant, and the peak of that sum over the run. PSS charges each page to the processes that
map it in equal shares, so a page that a forked worker still shares with its parent is counted
once in the sum, and a page each process holds alone is counted in full: the sum is what the tree
costs the machine, however it divides its work. A process's PSS is the ``Pss:`` line of
``/proc/PID/smaps_rollup``; its children are listed, thread by thread, in ``/proc/PID/task/TID/children``."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass

# How often a sampled run reads its tree's memory, in seconds. Reading smaps_rollup walks a
# process's page tables, which takes CPU time, so timed runs are never sampled (see run()).
SAMPLE_SECONDS = 0.005


class Unmeasurable(Exception):
    """This system cannot list a process's children or read its PSS; the message is one line."""


@dataclass(frozen=True)
class Measured:
    seconds: float
    cpu_seconds: float  # user and system time of the command and of every descendant it waited for
    peak_pss_bytes: int  # the peak of the tree's summed PSS; 0 when the run was not sampled
    returncode: int
    stderr: str


def children(pid: int) -> list[int]:
    """The processes that ``pid``'s threads started and that still run (none once it has ended)."""
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found: list[int] = []
    for thread in threads:
        try:
            with open(f"/proc/{pid}/task/{thread}/children", "rb") as handle:
                found.extend(int(number) for number in handle.read().split())
        except OSError:  # the thread ended meanwhile
            continue
    return found


def tree(root: int) -> list[int]:
    """``root`` and every process descending from it, parents before children."""
    processes, index = [root], 0
    while index < len(processes):
        processes.extend(children(processes[index]))
        index += 1
    return processes


def pss(pid: int) -> int:
    """The PSS of ``pid`` in bytes; 0 for a process that has ended."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as handle:
            text = handle.read()
    except OSError:
        return 0
    for line in text.splitlines():
        if line.startswith(b"Pss:"):
            return int(line.split()[1]) * 1024
    return 0


def tree_pss(root: int) -> int:
    """The PSS of ``root``'s whole process tree at this instant, every process's share summed."""
    return sum(pss(pid) for pid in tree(root))


def check_supported() -> None:
    """Refuse, in one line, a system whose /proc cannot give what the memory figures need."""
    own = os.getpid()
    if not os.path.exists(f"/proc/{own}/task/{own}/children"):
        raise Unmeasurable("/proc does not list a process's children (a Linux kernel built with "
                           "CONFIG_PROC_CHILDREN is needed to measure a process tree's memory)")
    if pss(own) == 0:
        raise Unmeasurable("/proc/PID/smaps_rollup gives no Pss line (Linux 4.14 or later is needed)")


class TreeMemory:
    """Samples the summed PSS of ``root``'s process tree every SAMPLE_SECONDS until stopped; ``peak``
    is the largest sum seen. A process that starts and ends between two samples is not seen."""

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

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, tree_pss(self.root))
            self._stop.wait(SAMPLE_SECONDS)


class _Unsampled:
    peak = 0

    def __enter__(self) -> "_Unsampled":
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def run(command: list[str], cwd: str | None = None, env: dict[str, str] | None = None, memory: bool = False) -> Measured:
    """Run ``command`` to its end, its standard output discarded and its standard error kept; its wall
    and CPU time are measured, and its tree's memory sampled if ``memory``. Sampling takes CPU time
    that a build using every core would otherwise have, so a run is timed or sampled, never both."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    with TreeMemory(process.pid) if memory else _Unsampled() as sampled:
        stderr = process.stderr.read() if process.stderr else b""
        # wait4 rather than wait: it also gives the CPU time of the command and its descendants.
        _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    return Measured(seconds, usage.ru_utime + usage.ru_stime, sampled.peak, process.returncode,
                    stderr.decode("utf-8", "replace"))

