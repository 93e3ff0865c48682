"""The exit statuses of every task and command of the site, in one table: ``pelican content`` with
this plugin, and every task of ``leaderboard_tools`` (which imports them from here).

A script can tell from the status alone what happened: 0 done, 1 the inputs were judged and found
wanting (every reason printed, one a line), 2 something could not be used at all (one line says
what), 128 + N a signal ended it, as shells report it."""

from __future__ import annotations

DONE = 0
"""The task did what it was asked: the site is built, served, removed, verified, published."""

REFUSED = 1
"""The inputs were judged and refused: an archive or manifest that breaks the contract (one line
per problem), a published folder that differs from its render (verify), a row that leaks more than before (diff)."""

UNUSABLE = 2
"""An input or the output cannot be used at all, whatever it holds: a command line that cannot be
read (an unknown task or flag, a missing argument or flag value: ``leaderboard_tools.program``), a
missing reports folder, an output that is not a render of this site, a disk that is full, a port out
of range, a build that holds the output's lock. One line says what."""

LEAKS_MORE = REFUSED
"""``invoke diff`` and a release's checks: a row of the new leaderboard leaks more than the same row
of the old one. CI stops the release."""

INTERRUPTED = 128
"""The base of the statuses of a task ended by a signal: ``interrupted(signum)``."""


def interrupted(signum: int) -> int:
    """The status of a task ended by signal ``signum``: 130 for Ctrl-C (SIGINT), 143 for SIGTERM."""
    return INTERRUPTED + int(signum)


__all__ = ["DONE", "INTERRUPTED", "LEAKS_MORE", "REFUSED", "UNUSABLE", "interrupted"]
