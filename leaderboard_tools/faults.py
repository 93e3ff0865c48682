"""What stops a build or a ``clean``, each fault one line for the user, and how an operating-system
error is put into words in those lines (``reason``, the plugin's own, ``problems.reason``).

``tasks.py`` and the preview print ``error.line()`` and exit with the status of ``exits`` that the
fault's kind calls for; a signal is no fault of these (``interrupts.BuildInterrupted``)."""

from __future__ import annotations

import os

from benchmark_leaderboard.problems import reason  # noqa: F401 - the one wording of an OS error, for the tooling


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


def filename(error: OSError) -> str | None:
    """The path an operating-system error names, as text, or None."""
    name = error.filename
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    return name if isinstance(name, str) else None


