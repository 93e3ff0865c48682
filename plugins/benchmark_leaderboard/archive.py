"""Read: find every JSON file of the reports folder, parse it once, keep the report candidates."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from .problems import Problem

# An object with one of these keys is a report candidate even when its name does not say so.
REPORT_KEYS = frozenset({"suite", "model_name", "fixture_count", "metrics"})
REPORT_SUFFIX = ".report.json"
SKIPPED_NAME = "leaderboard.json"


@dataclass(frozen=True)
class Candidate:
    """A report candidate: its path relative to the reports folder (POSIX) and its parsed JSON."""

    path: str
    payload: dict[str, Any]


def json_paths(root: str) -> list[str]:
    """Relative POSIX paths of every ``*.json`` below ``root``, sorted; links are never followed."""
    found: list[str] = []
    stack = [""]
    while stack:
        relative = stack.pop()
        with os.scandir(os.path.join(root, relative) if relative else root) as entries:
            for entry in entries:
                path = f"{relative}/{entry.name}" if relative else entry.name
                if entry.is_symlink():
                    continue
                if entry.is_dir(follow_symlinks=False):
                    stack.append(path)
                if entry.name.endswith(".json") and entry.name != SKIPPED_NAME:
                    found.append(path)
    found.sort()
    return found


def parse(text: str) -> Any:
    return json.loads(text)


def read_file(root: str, path: str) -> tuple[Any, Problem | None]:
    """The parsed JSON of one file, or the problem that stops it from being read."""
    try:
        with open(os.path.join(root, path), "rb") as handle:
            data = handle.read()
    except IsADirectoryError:
        return None, Problem(path, "", "is a folder named like a JSON file; it cannot be read")
    except OSError as error:
        return None, Problem(path, "", f"cannot be read: {error.strerror or error}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return None, Problem(path, "", f"is not UTF-8 text (byte {error.start})")
    try:
        return parse(text), None
    except json.JSONDecodeError as error:
        return None, Problem(path, "", f"is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}")
    except RecursionError:
        return None, Problem(path, "", "is not usable JSON: nested too deeply")
    except ValueError as error:
        return None, Problem(path, "", f"is not usable JSON: {error}")


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


def read_files(root: str, paths: list[str]) -> tuple[list[Candidate], list[Problem]]:
    """The report candidates among ``paths`` (relative to ``root``) and the problems of the others."""
    candidates: list[Candidate] = []
    problems: list[Problem] = []
    for path in paths:
        payload, problem = read_file(root, path)
        if problem is not None:
            problems.append(problem)
        elif not is_candidate(path, payload):
            continue
        elif not isinstance(payload, dict):
            problems.append(Problem(path, "", "a file named *.report.json must hold a JSON object"))
        elif not is_utf8(path):
            problems.append(Problem(path, "", "the report's path is not UTF-8 text, so it cannot be published or linked"))
        else:
            candidates.append(Candidate(path, payload))
    return candidates, problems


def archive_problems(paths: list[str], candidates: int, problems: int) -> list[Problem]:
    """What is wrong with the archive as a whole: no JSON file at all, or no report among them."""
    if not paths:
        return [Problem(".", "", "the reports folder holds no *.json file")]
    if not candidates and not problems:
        return [Problem(".", "", "the reports folder holds no report: no *.report.json file and no JSON object with suite, model_name, fixture_count or metrics")]
    return []


def checked_root(root: str) -> str:
    """``root``, once it is known to be a folder; raises ``FileNotFoundError`` or ``NotADirectoryError``."""
    if not os.path.isdir(root):
        raise NotADirectoryError(root) if os.path.exists(root) else FileNotFoundError(root)
    return root
