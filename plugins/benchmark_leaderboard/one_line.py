"""How ``pelican content`` reports a build this plugin stopped: one line a problem, no traceback.

Pelican logs the exception that stopped a build with its traceback, wrapped to the terminal's
width, and exits with the exception's ``exitcode``. A refused archive, a build that cannot go on
and an error of the disk are printed here instead as ``invoke build`` prints them, one line a
problem. The statuses are the exceptions' own (``problems.BuildRefused``, ``problems.BuildFailed``;
the generator gives an ``OSError`` the status of an unusable output): this filter only prints."""

from __future__ import annotations

import logging
import sys

from pelican.utils import maybe_pluralize

from .problems import BuildFailed, BuildRefused, one_line


class ProblemsOnOneLine(logging.Filter):
    """A filter on Pelican's logger: prints a stopped build's problems, one a line, and drops the record."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, BuildRefused):
            count = len(error.problems)
            lines = error.lines() + [f"build refused: {maybe_pluralize(count, 'problem', 'problems')}; nothing was written"]
        elif isinstance(error, BuildFailed):
            lines = [f"build failed: {error}"]
        elif isinstance(error, OSError) and hasattr(error, "exitcode"):
            # A file is written beside its place and then moved there: the place is what a reader knows.
            name = error.filename2 or error.filename
            lines = [f"build failed: {one_line(error.strerror or str(error))}" + (f": {one_line(str(name))}" if name else "")]
        else:
            return True
        for line in lines:
            print(line, file=sys.stderr)
        return False


_FILTER = ProblemsOnOneLine()


def print_problems_on_one_line(pelican_object=None) -> None:
    """Put the filter on Pelican's logger, once (``initialized`` may be sent again by a rebuild)."""
    pelican_logger = logging.getLogger("pelican")
    if _FILTER not in pelican_logger.filters:
        pelican_logger.addFilter(_FILTER)
