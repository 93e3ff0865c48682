"""Problems are data: every reason an archive is refused, collected before anything is written."""

from __future__ import annotations

import json
from dataclasses import dataclass

from . import exits


@dataclass(frozen=True, order=True)
class Problem:
    """One broken rule: the file (relative to its folder), a JSON pointer into it, the rule."""

    file: str
    pointer: str
    rule: str

    def __str__(self) -> str:
        if self.pointer:
            return one_line(f"{self.file}: {self.pointer}: {self.rule}")
        return one_line(f"{self.file}: {self.rule}")


def reason(error: OSError) -> str:
    """Why an operating-system call failed, lower-cased to follow a colon."""
    text = error.strerror or str(error)
    return text[:1].lower() + text[1:]


def one_line(text: str) -> str:
    """``text`` as it can be printed on one line: characters that are not printable (a newline, a
    tab, a terminal escape) are written as Python escapes, everything else as it is. A problem is
    printed this way whatever a file name or a value holds."""
    if text.isprintable():
        return text
    return "".join(character if character.isprintable() else character.encode("unicode_escape").decode("ascii")
                   for character in text)


def json_error_words(error: json.JSONDecodeError) -> str:
    """Where and why JSON text could not be read, in words: ``Expecting value at line 3 column 5``.
    Some of json's reasons end with the word "at" already (``Unterminated string starting at``: the
    position is where the string starts), which is then not written twice."""
    where = f"line {error.lineno} column {error.colno}"
    return f"{error.msg} {where}" if error.msg.endswith(" at") else f"{error.msg} at {where}"


class BuildFailed(Exception):
    """The build cannot go on for a reason that is not a refused archive; the message is one line."""

    exitcode = exits.UNUSABLE  # the status ``pelican content`` exits with (it reads ``exitcode``)

    def __init__(self, message: str):
        super().__init__(one_line(message))


class BuildRefused(Exception):
    """The inputs cannot form a trustworthy leaderboard; ``problems`` says every reason."""

    exitcode = exits.REFUSED

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))

    def lines(self) -> list[str]:
        return [str(problem) for problem in self.problems]


def pointer(*parts: object) -> str:
    """The JSON pointer (RFC 6901) of a path of keys and indices; "" is the whole document."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)
