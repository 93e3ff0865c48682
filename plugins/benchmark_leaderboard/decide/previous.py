"""A build compared with the previous leaderboard (``LEADERBOARD_PREVIOUS_LEADERBOARD``): the file read
by ``read.leaderboard_file.read_previous`` and compared row by row with this build's ranked rows
(``comparison.compare``); what the changes page and the feed show of it is present's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..read.leaderboard_file import read_previous
from .comparison import Diff, compare


@dataclass(frozen=True)
class Compared:
    """This build's rows compared with the previous leaderboard's."""

    diff: Diff
    current: dict[str, Any]  # this build's rows, as the comparison reads a leaderboard: {"rows": [...]}
    previous: dict[str, Any]  # the previous leaderboard's document
    previous_bytes: bytes  # its bytes, exactly as read
    release_tag: str | None  # the build's release tag


def compared_with_previous(previous_path: str | None, release_tag: str | None, rows: Sequence[Any]) -> Compared | None:
    """The build's ranked ``rows`` (``board.Row``) compared with the leaderboard at ``previous_path``;
    None without one: nothing compared, and nothing guessed."""
    if previous_path is None:
        return None
    data, previous = read_previous(previous_path)
    current = {"rows": [row._asdict() for row in rows]}
    return Compared(compare(previous, current, previous_path, release_tag or "this build"), current, previous, data,
                    release_tag)
