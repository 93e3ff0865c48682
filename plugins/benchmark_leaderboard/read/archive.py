"""Read: find every JSON file of the reports folder, read each once, keep the report candidates.

Only regular files are read. Links are never followed, and a FIFO, socket or device named like a
JSON file is refused by name without being opened (opening a FIFO waits for a writer, a device can
read forever)."""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass
from typing import Any

import orjson

from ..problems import BuildFailed, Problem, json_error_words
from ..regular_file import NotRegular, kind_of, read_regular
from .canonical import outside_strings

# An object with one of these keys is a report candidate even when its name does not say so.
REPORT_KEYS = frozenset({"suite", "model_name", "fixture_count", "metrics"})
REPORT_SUFFIX = ".report.json"
SKIPPED_NAME = "leaderboard.json"
# The deepest nesting of arrays and objects a published report may have (the document itself is
# level 1). A fixed bound, so that whether a report is published never depends on how deep the
# interpreter's stack happens to be where it is read, encoded or shown.
MAX_DEPTH = 900


@dataclass(frozen=True)
class Candidate:
    """A report candidate: its path relative to the reports folder (POSIX) and its parsed JSON."""

    path: str
    payload: dict[str, Any]


def json_paths(root: str) -> tuple[list[str], list[Problem]]:
    """Relative POSIX paths of every regular ``*.json`` file below ``root``, sorted, and the
    problems of what cannot be searched or read: a folder that cannot be listed, a non-regular
    file named like JSON. Links are never followed."""
    found: list[str] = []
    problems: list[Problem] = []
    stack = [""]
    while stack:
        relative = stack.pop()
        try:
            with os.scandir(os.path.join(root, relative) if relative else root) as listing:
                entries = list(listing)
        except OSError as error:
            problems.append(Problem(relative or ".", "", f"is a folder that cannot be listed: {error.strerror or error}"))
            continue
        for entry in entries:
            name = entry.name
            path = f"{relative}/{name}" if relative else name
            # The listing's own file types (no system call a file); a file's status is asked only
            # to name an odd kind of file.
            try:
                if entry.is_symlink():
                    continue
                folder = entry.is_dir(follow_symlinks=False)
                if folder:
                    stack.append(path)
                if not name.endswith(".json") or name == SKIPPED_NAME:
                    continue
                if folder or entry.is_file(follow_symlinks=False):
                    found.append(path)
                    continue
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError as error:
                problems.append(Problem(path, "", f"cannot be read: {error.strerror or error}"))
                continue
            problems.append(Problem(path, "", f"is {kind_of(mode)} named like a JSON file; only regular files are read"))
    found.sort()
    return found, problems


def read_bytes(root: str, path: str) -> bytes:
    """The bytes of the file at ``path`` below ``root``, read as regular_file.py reads (a path that
    was a regular file when listed may be something else now: ``NotRegular``)."""
    return read_regular(os.path.join(root, path))


def nesting_depth(data: bytes) -> int:
    """How deeply arrays and objects nest in JSON text (1 for ``{}``), strings skipped."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(data):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token in (b"]", b"}"):
            depth -= 1
    return deepest


_BRACKETS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
# What text outside strings may hold where it holds an integer orjson reads otherwise than json
# (beyond 64 bits, 19 digits or more): a run of 19 digits, found in the text with every digit as "0"
# (a regular expression, which tries every place, costs more than orjson's reading).
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_RUN = b"0" * 19


def parse(data: bytes, path: str) -> tuple[Any, Problem | None]:
    """The JSON value of one file's bytes, or the problem that stops it from being read."""
    # Counting brackets is cheap; only a file with many is measured exactly.
    if data.count(b"[") + data.count(b"{") > MAX_DEPTH and nesting_depth(data) > MAX_DEPTH:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as error:
            return None, Problem(path, "", f"is not UTF-8 text (byte {error.start})")
        return None, Problem(path, "", f"is not usable JSON: nested more than {MAX_DEPTH} levels deep")
    try:
        return json_value(data), None
    except UnicodeDecodeError as error:
        return None, Problem(path, "", f"is not UTF-8 text (byte {error.start})")
    except json.JSONDecodeError as error:
        return None, Problem(path, "", f"is not valid JSON: {json_error_words(error)}")
    except RecursionError:  # only text that is not JSON can get here (an unclosed bracket run)
        return None, Problem(path, "", f"is not usable JSON: nested more than {MAX_DEPTH} levels deep")
    except ValueError as error:
        return None, Problem(path, "", f"is not usable JSON: {error}")


def json_value(data: bytes) -> Any:
    """What ``json.loads`` reads of UTF-8 JSON text, and what it raises: orjson reads it where it
    reads it the same, several times faster; text orjson refuses (not UTF-8, NaN, 1e400, a lone
    surrogate escape, invalid JSON) or may read otherwise (a run of 19 digits or more: orjson reads
    an integer beyond 64 bits as a float) is read by json, which also words every problem."""
    # Most text has no such run anywhere, strings included; only text with one is looked at without
    # its strings, which costs more than orjson's reading.
    if _LONG_RUN not in data.translate(_DIGITS_AS_ZERO) or (
            (bare := outside_strings(data)) is not None and _LONG_RUN not in bare.translate(_DIGITS_AS_ZERO)):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    return json.loads(data.decode("utf-8"))


def read_data(root: str, path: str) -> tuple[bytes | None, Problem | None]:
    """One file's bytes, or the problem that stops it from being read."""
    try:
        return read_bytes(root, path), None
    except NotRegular as error:
        if stat.S_ISDIR(error.mode):
            return None, Problem(path, "", "is a folder named like a JSON file; it cannot be read")
        return None, Problem(path, "", f"is {error.kind} named like a JSON file; only regular files are read")
    except OSError as error:
        return None, Problem(path, "", f"cannot be read: {error.strerror or error}")


def is_utf8(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8: a path read from the file system with undecodable
    bytes, or a JSON string with a lone surrogate escape, cannot."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def is_candidate(path: str, payload: Any) -> bool:
    if path.endswith(REPORT_SUFFIX):
        return True
    return isinstance(payload, dict) and not REPORT_KEYS.isdisjoint(payload)


def candidate_problem(path: str, payload: Any) -> Problem | None:
    """Why a candidate cannot be a report before its fields are looked at, or None."""
    if not isinstance(payload, dict):
        return Problem(path, "", "a file named *.report.json must hold a JSON object")
    if not is_utf8(path):
        return Problem(path, "", "the report's path is not UTF-8 text, so it cannot be published or linked")
    return None


def archive_problems(paths: list[str], candidates: int, problems: int) -> list[Problem]:
    """What is wrong with the archive as a whole: no JSON file at all, or no report among them."""
    if not paths and not problems:
        return [Problem(".", "", "the reports folder holds no *.json file")]
    if not candidates and not problems:
        return [Problem(".", "", "the reports folder holds no report: no *.report.json file and no JSON object with suite, model_name, fixture_count or metrics")]
    return []


def checked_root(root: str) -> str:
    """``root``, once it is known to be a folder; the build stops with one line when it is not."""
    if not os.path.isdir(root):
        raise BuildFailed(f"the reports folder {root} is not a folder" if os.path.exists(root)
                          else f"the reports folder {root} does not exist")
    return root
