"""Read the model manifest: ``models.jsonl``, one JSON object a line, keyed by ``repo_id``."""

from __future__ import annotations

import json
import os
from typing import Any

from .problems import Problem

Manifest = dict[str, dict[str, Any]]


class ManifestError(Exception):
    """The manifest cannot be used at all (a folder, unreadable, not UTF-8)."""


def read_manifest(path: str | None) -> tuple[Manifest, list[Problem]]:
    """Rows by ``repo_id`` (a later line wins) and the problems of the file's lines.

    A missing file means no fallbacks. Blank lines are skipped. Line numbers count the
    lines as Python's text mode splits them.
    """
    if path is None or not os.path.exists(path):
        return {}, []
    if os.path.isdir(path):
        raise ManifestError(f"the manifest {path} is a folder, not a models.jsonl file")
    name = os.path.basename(path)
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.readlines()
    except UnicodeDecodeError as error:
        raise ManifestError(f"the manifest {path} is not UTF-8 text (byte {error.start})") from None
    except OSError as error:
        raise ManifestError(f"the manifest {path} cannot be read: {error.strerror or error}") from None
    rows: Manifest = {}
    problems: list[Problem] = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        try:
            row = json.loads(text)
        except (ValueError, RecursionError) as error:
            reason = error.msg if isinstance(error, json.JSONDecodeError) else "unusable JSON"
            problems.append(Problem(f"{name} line {number}", "", f"is not valid JSON: {reason}"))
            continue
        if not isinstance(row, dict):
            problems.append(Problem(f"{name} line {number}", "", "must be a JSON object"))
            continue
        repo_id = row.get("repo_id")
        if repo_id is not None:
            rows[str(repo_id)] = row
    return rows, problems
