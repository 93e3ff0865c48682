"""The ``invoke`` command of the project's environment: invoke's own program, except that a command
line it cannot read (an unknown task or flag, a missing argument or flag value) ends with one line
and the exit status of unusable input (2, ``exits.UNUSABLE``) instead of invoke's 1, which the
tasks keep for "judged and refused" (``invoke diff``: a row leaks more).

invoke documents this way of changing its command line: a ``Program`` of one's own, bound to the
command's name (invoke's "Reusing Invoke's CLI module as a distinct binary"). It finds ``tasks.py``
as ``invoke`` does, and everything else (``--list``, ``--help TASK``, the tasks' own exits) is
invoke's. ``python -m leaderboard_tools.program install BIN`` writes ``BIN/invoke`` and ``BIN/inv``,
which run it; the Makefile does this once invoke is installed into ``.venv``."""

from __future__ import annotations

import os
import re
import sys

from invoke import Exit, ParseError, Program, __version__

from . import exits

# What invoke's parser says, and how this program says it (one line each, with where to look).
_NEEDS_VALUE = re.compile(r"Flag <Argument: ([\w-]+)[^>]*> needed value and was not given one!")
_NO_VALUE = re.compile(r"Flag <Argument: ([\w-]+)[^>]*> doesn't take any value!")
_UNKNOWN = re.compile(r"No idea what '(.*)' is!")
_MISSING = re.compile(r"'(.+)' did not receive required positional arguments: (.+)")


def _flag(name: str) -> str:
    """A flag as the command line spells it: ``--release-tag``, or ``-k`` for a flag of one letter."""
    return ("-" if len(name) == 1 else "--") + name.replace("_", "-")


def usage_line(error: ParseError) -> str:
    """The one line that says what of the command line could not be read, and where to look."""
    task = getattr(error.context, "name", None)
    said = str(error)
    needs_value, no_value = _NEEDS_VALUE.fullmatch(said), _NO_VALUE.fullmatch(said)
    unknown, missing = _UNKNOWN.fullmatch(said), _MISSING.fullmatch(said)
    if needs_value:
        what = f"{_flag(needs_value.group(1))} needs a value"
    elif no_value:
        what = f"{_flag(no_value.group(1))} takes no value"
    elif missing:
        task = missing.group(1)
        names = [name.strip().strip("'").upper() for name in missing.group(2).split(",")]
        what = f"{task} needs {' and '.join(names)}"
    elif unknown and unknown.group(1).startswith("-"):
        what = f"{unknown.group(1)} is not a flag of {task}" if task else f"{unknown.group(1)} is not a flag of invoke"
    elif unknown and task:
        what = f"{task} takes no argument {unknown.group(1)!r}"
    elif unknown:
        what = f"there is no task named {unknown.group(1)!r}"
    else:
        what = said[:1].lower() + said[1:].rstrip("!")
    if task:
        where = f"invoke --help {task} shows its arguments"
    elif needs_value or no_value or (unknown and unknown.group(1).startswith("-")):
        where = "invoke --help shows invoke's own flags"
    else:
        where = "invoke --list shows the tasks"
    return f"usage: {what}; {where}"


class LeaderboardProgram(Program):
    """invoke's program, with a command line it cannot read ending as unusable input (exit 2), in one line."""

    def parse_core(self, argv):
        with _usage_errors():
            super().parse_core(argv)

    def parse_collection(self):
        with _usage_errors():
            super().parse_collection()

    def parse_tasks(self):
        with _usage_errors():
            super().parse_tasks()

    def parse_cleanup(self):
        with _usage_errors():
            super().parse_cleanup()


class _usage_errors:
    """Within it, invoke's parse errors, and the exits it raises with a message and status 1 while
    reading the command line (``--list`` or ``--collection`` naming nothing), end with status 2."""

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if isinstance(error, ParseError):
            raise Exit(usage_line(error), code=exits.UNUSABLE) from None
        if isinstance(error, Exit) and error.message and error.code == 1:
            raise Exit(f"usage: {error.message}", code=exits.UNUSABLE) from None
        return False


# As invoke's own: the same name, command names and version.
program = LeaderboardProgram(name="Invoke", binary="inv[oke]", binary_names=["invoke", "inv"], version=__version__)

SCRIPT = """#!{python}
# The project's invoke (leaderboard_tools/program.py), written by the Makefile over invoke's own.
import sys
from leaderboard_tools.program import program
if __name__ == "__main__":
    sys.exit(program.run())
"""


def install(bin_dir: str) -> list[str]:
    """Write ``invoke`` and ``inv`` into ``bin_dir`` (an environment's scripts), each running
    ``program`` with this interpreter; returns their paths."""
    written = []
    for name in program.binary_names:
        path = os.path.join(bin_dir, name)
        temporary = path + ".new"
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(SCRIPT.format(python=sys.executable))
        os.chmod(temporary, 0o755)
        os.replace(temporary, path)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] != "install":
        print("usage: python -m leaderboard_tools.program install BIN", file=sys.stderr)
        return exits.UNUSABLE
    install(args[1])
    return exits.DONE


if __name__ == "__main__":
    sys.exit(main())
