"""Read the model manifest: ``models.jsonl``, one JSON object a line, keyed by ``repo_id``.

When a signature bundle lies beside it (``models.jsonl.sigstore.json``), the manifest is used only
if the bundle vouches for the very bytes read here (``signature.py``)."""

from __future__ import annotations

import json
import os
import stat
import sys
from typing import Any, Mapping

from ..problems import BuildFailed, Problem, one_line
from . import signature

Manifest = dict[str, dict[str, Any]]


class ManifestError(BuildFailed):
    """The manifest cannot be used at all (a folder, unreadable, not UTF-8), or the pins it is
    checked against are not usable."""


def read_manifest(path: str | None, identity: str = signature.DEFAULT_IDENTITY, key: str = signature.DEFAULT_KEY,
                  environ: Mapping[str, str] = os.environ) -> tuple[Manifest, list[Problem]]:
    """Rows by ``repo_id`` (a later line wins) and the problems of the file's lines.

    A missing file means no fallbacks, and a warning on stderr saying where it was looked for. The file is read once; when its signature bundle lies
    beside it, the bundle is checked against those bytes first, with ``identity`` and ``key`` as
    the pins, and a bundle that does not vouch for them is the only problem: no row of the manifest
    is used. ``OPENMED_SKIP_MODEL_VERIFY`` set to a true value in ``environ`` skips that check,
    with a warning on stderr. Blank lines are skipped. Line numbers count the lines as Python's
    text mode splits them.
    """
    refused = signature.pin_problem(identity, key)
    if refused:
        raise ManifestError(refused)
    if path is None:
        return {}, []
    if not os.path.lexists(path):
        # The reference's outcome (no fallbacks: an archive that needs none still renders), said once.
        print(f"warning: the manifest {one_line(os.path.basename(path))} was not found (looked for "
              f"{one_line(os.path.abspath(path))}): no report gets a family or hash from it", file=sys.stderr)
        return {}, []
    if os.path.isdir(path):
        raise ManifestError(f"the manifest {path} is a folder, not a models.jsonl file")
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise ManifestError(f"the manifest {path} is not a regular file")
    name = os.path.basename(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise ManifestError(f"the manifest {path} cannot be read: {error.strerror or error}") from None
    if signature.bundle_present(path):
        if signature.skip_requested(environ):
            print(f"warning: {signature.SKIP_VARIABLE} is set: {one_line(name)} is used without checking "
                  f"its signature bundle {one_line(os.path.basename(signature.bundle_path(path)))}",
                  file=sys.stderr)
        else:
            problems = signature.bundle_problems(path, data, identity, key)
            if problems:
                return {}, problems
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ManifestError(f"the manifest {path} is not UTF-8 text (byte {error.start})") from None
    rows: Manifest = {}
    problems: list[Problem] = []
    # Text mode's universal newlines: \r\n and a lone \r end a line as \n does.
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped:
            continue
        try:
            row = json.loads(stripped)
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
