"""Problems are data: every reason an archive is refused, collected before anything is written."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """One broken rule: the file (relative to its folder), a JSON pointer into it, the rule."""

    file: str
    pointer: str
    rule: str

    def __str__(self) -> str:
        if self.pointer:
            return f"{self.file}: {self.pointer}: {self.rule}"
        return f"{self.file}: {self.rule}"


class BuildRefused(Exception):
    """The inputs cannot form a trustworthy leaderboard; ``problems`` says every reason."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))

    def lines(self) -> list[str]:
        return [str(problem) for problem in self.problems]


def pointer(*parts: object) -> str:
    """The JSON pointer (RFC 6901) of a path of keys and indices; "" is the whole document."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)
