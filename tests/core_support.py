"""Helpers of the core pipeline's tests: build an archive in-process and read back rows or problems."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from benchmark_leaderboard.board import Leaderboard
from benchmark_leaderboard.decide.document import leaderboard_json
from benchmark_leaderboard.decide.pipeline import Read, read_leaderboard, report_of
from benchmark_leaderboard.problems import BuildRefused
from benchmark_leaderboard.settings import options


def build(reports: Path, manifest: Path | None = None, release_tag: str | None = None, workers: int = 1) -> Leaderboard:
    """The plugin's pipeline on an archive, as generate_context runs it (one process unless told)."""
    return read(reports, manifest, release_tag, workers).leaderboard


def read(reports: Path, manifest: Path | None = None, release_tag: str | None = None, workers: int = 1) -> Read:
    """What ``build`` reads: the board, with the rows' canonical copies beside it."""
    return read_leaderboard(options({"LEADERBOARD_REPORTS_DIR": str(reports), "LEADERBOARD_MANIFEST": manifest and str(manifest),
                                     "LEADERBOARD_RELEASE_TAG": release_tag, "LEADERBOARD_WORKERS": workers}))


def leaderboard_bytes(board: Leaderboard) -> bytes:
    return b"".join(leaderboard_json(board.rows, board.suites))


def report_copies(read: Read) -> dict[str, bytes]:
    """The canonical copy of every published report (``read``: what ``read`` returns), by its path, in ranking order."""
    return {row.report_path: report_of(read.copies, index)[1] for index, row in enumerate(read.leaderboard.rows)}


def refusal(reports: Path, manifest: Path | None = None, release_tag: str | None = None) -> list[str]:
    """The problem lines of an archive that must be refused (fails the test when it is accepted)."""
    try:
        build(reports, manifest, release_tag)
    except BuildRefused as refused:
        return refused.lines()
    raise AssertionError("the archive was accepted, but it must be refused")


def published(reports: Path, manifest: Path | None = None, release_tag: str | None = None) -> dict[str, Any]:
    """The parsed leaderboard.json of an archive that must be accepted."""
    return json.loads(leaderboard_bytes(build(reports, manifest, release_tag)))


def only_row(reports: Path, manifest: Path | None = None, release_tag: str | None = None) -> dict[str, Any]:
    rows = published(reports, manifest, release_tag)["rows"]
    assert len(rows) == 1, rows
    return rows[0]


def ranked_paths(reports: Path, manifest: Path | None = None, release_tag: str | None = None) -> list[str]:
    return [row["report_path"] for row in published(reports, manifest, release_tag)["rows"]]


def write_manifest(path: Path, *rows: Any) -> Path:
    """A models.jsonl: dicts are written as JSON lines, strings as they are."""
    path.write_text("".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows), encoding="utf-8")
    return path


def tree_digest(root: Path) -> dict[str, str]:
    """Every file (and link) below ``root`` by relative POSIX path: its SHA-256, or where a link points."""
    found: dict[str, str] = {}
    for folder, folders, files in os.walk(root):
        folders.sort()
        for name in sorted(files + [f for f in folders if os.path.islink(os.path.join(folder, f))]):
            path = os.path.join(folder, name)
            relative = Path(path).relative_to(root).as_posix()
            if os.path.islink(path):
                found[relative] = "link to " + os.readlink(path)
            else:
                found[relative] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return found


def leftovers(output: Path) -> list[str]:
    """Temporary folders a build left beside ``output``."""
    return sorted(name for name in os.listdir(output.parent)
                  if name.startswith(f".{output.name}.new-") or name.startswith(f".{output.name}.old-"))
