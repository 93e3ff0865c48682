"""Helpers for the task tests: a long-running invoke task watched line by line, HTTP on loopback, git."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from email.message import Message
from pathlib import Path

from conftest import ROOT, report

INVOKE = str(Path(sys.executable).parent / "invoke")


class RunningTask:
    """``invoke ARGS`` started in the background; its output (stdout and stderr) is read as it comes."""

    def __init__(self, *args: str, cwd: Path = ROOT):
        self.process = subprocess.Popen([INVOKE, "--search-root", str(ROOT), *args], cwd=cwd, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def wait_for(self, pattern: str, timeout: float = 60) -> re.Match:
        """The first line from now on that matches ``pattern``; fails with everything printed so far."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no line matched {pattern!r} within {timeout} s; output:\n" + self.output()) from None
            if line is None:
                raise AssertionError(f"the task ended (exit {self.process.wait()}) before {pattern!r}; output:\n" + self.output())
            self.lines.append(line)
            match = re.search(pattern, line)
            if match:
                return match

    def output(self) -> str:
        return "\n".join(self.lines)

    def stop(self) -> int:
        """Stop the task as a terminal's Ctrl-C would (SIGINT), and return its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def get(url: str) -> tuple[int, Message, bytes]:
    """GET ``url``: status, headers (names in any case), body (an HTTP error status is returned, not raised)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def small_archive() -> dict[str, object]:
    """Two reports: enough for a leaderboard with a ranking, quick to render."""
    return {
        "golden/a.report.json": report(model_name="OpenMed/model-a"),
        "golden/b.report.json": report(model_name="OpenMed/model-b", metrics={"leakage": {"overall": 0.05}}),
    }


def git(repository: Path, *args: str) -> str:
    """Run git in ``repository`` with a fixed identity; its standard output."""
    environment = {**os.environ, "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
                   "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
                   "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", "-C", str(repository), *args], env=environment, check=True, capture_output=True,
                          text=True).stdout


__all__ = ["RunningTask", "get", "git", "small_archive"]
