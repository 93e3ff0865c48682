"""The whole pipeline without Pelican: read → validate → fill → rank → group → render the JSON.

``build_leaderboard`` either returns everything the site publishes or raises ``BuildRefused`` with
every problem of the archive and the manifest."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from . import parallel, validate
from .archive import Candidate, archive_problems, checked_root, json_paths, read_files
from .leaderboard import canonical, copies, document, embedded
from .manifest import Manifest, read_manifest
from .problems import BuildRefused, Problem
from .ranking import Suite, group, positions, rank
from .rows import Row, fill_rows


# Below this many files a fork costs more than it saves.
PARALLEL_FROM = 400


@dataclass
class Leaderboard:
    ranked: list[Row]
    suites: list[Suite]
    report_copies: dict[str, bytes]
    embedded_json: str
    anchors: dict[str, str]
    rank_overall: dict[str, int]
    rank_in_suite: dict[str, int]
    rank_in_family: dict[str, int]
    files_read: int
    digests: dict[str, str] = field(default_factory=dict)
    leaderboard_json: bytes = b""  # the published leaderboard.json: canonical(document)


@dataclass
class CheckedFiles:
    """What the per-file steps (read, validate, fill, copy) make of some of the archive's files."""

    candidates: list[Candidate]
    rows: list[Row]
    report_copies: dict[str, bytes]
    problems: list[Problem]


def check_files(reports_dir: str, paths: list[str], manifest: Manifest, release_tag: str | None) -> CheckedFiles:
    """Read, validate, fill and copy the files at ``paths``; each file's result depends on it alone."""
    candidates, problems = read_files(reports_dir, paths)
    for candidate in candidates:
        problems += validate.problems_of(validate.REPORT_SCHEMA, candidate.payload, candidate.path)
    rows, fill_problems = fill_rows(candidates, manifest, release_tag)
    report_copies, copy_problems = copies(candidates)
    return CheckedFiles(candidates, rows, report_copies, problems + fill_problems + copy_problems)


def build_leaderboard(reports_dir: str, manifest_path: str | None, release_tag: str | None) -> Leaderboard:
    """Everything the site publishes for this archive, manifest and fallback release tag."""
    paths = json_paths(checked_root(reports_dir))
    manifest, manifest_problems = read_manifest(manifest_path)
    # Large archives: a forked child checks the second half of the files while this process checks
    # the first; the halves are joined in path order, so the result is the same either way.
    # The parent takes a little more than half: the child also pickles its half and the parent
    # unpickles it (measured at 10,000 reports: 55% waits least; 60% no better).
    half = len(paths) * 11 // 20 if len(paths) >= PARALLEL_FROM else len(paths)
    first, second = parallel.map_halves(lambda part: check_files(reports_dir, part, manifest, release_tag),
                                        paths[:half], paths[half:])
    rows = first.rows + second.rows
    candidates = len(first.candidates) + len(second.candidates)
    file_problems = first.problems + second.problems
    # The manifest's lines first (whatever the file is called), then the archive's files in path order.
    problems = manifest_problems + sorted(set(file_problems + archive_problems(paths, candidates, len(file_problems))))
    if problems:
        raise BuildRefused(problems)
    report_copies = {**first.report_copies, **second.report_copies}

    ranked = rank(rows)
    suites = group(ranked)
    doc = document(ranked, suites)

    def published() -> tuple[bytes, str, dict[str, str]]:
        return (canonical(doc), embedded(ranked, suites),
                {path: hashlib.sha256(data).hexdigest() for path, data in report_copies.items()})

    # What is written is checked against the schema it is published with; for large archives a
    # forked child checks while this process serializes.
    if len(paths) >= PARALLEL_FROM:
        made, doc_problems = parallel.both(published, lambda: validate.leaderboard_problems(doc))
    else:
        doc_problems = validate.leaderboard_problems(doc)
        made = None if doc_problems else published()
    if doc_problems:
        raise BuildRefused(doc_problems)
    leaderboard_json, embedded_json, digests = made
    return Leaderboard(
        ranked=ranked,
        suites=suites,
        report_copies=report_copies,
        leaderboard_json=leaderboard_json,
        embedded_json=embedded_json,
        anchors=suite_anchors(suites),
        rank_overall=positions(ranked, lambda row: ""),
        rank_in_suite=positions(ranked, lambda row: row.fields["suite"]),
        rank_in_family=positions(ranked, lambda row: row.fields["suite"] + "\0" + row.fields["model_family"]),
        files_read=len(paths),
        digests=digests,
    )


def suite_anchors(suites: list[Suite]) -> dict[str, str]:
    """A readable, unique fragment id per suite name: ``suite-`` and its slug."""
    anchors: dict[str, str] = {}
    taken: set[str] = set()
    for index, suite in enumerate(suites, start=1):
        slug = re.sub(r"[^a-z0-9]+", "-", suite.name.casefold()).strip("-") or str(index)
        anchor = f"suite-{slug}"
        if anchor in taken:
            anchor = f"suite-{slug}-{index}"
        taken.add(anchor)
        anchors[suite.name] = anchor
    return anchors
