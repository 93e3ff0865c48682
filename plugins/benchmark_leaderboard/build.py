"""The whole pipeline without Pelican: read → validate → fill → rank → group → render the JSON.

``build_leaderboard`` either returns everything the site publishes or raises ``BuildRefused`` with
every problem of the archive and the manifest."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from . import validate
from .archive import read_archive
from .leaderboard import canonical, copies, document, embedded
from .manifest import read_manifest
from .problems import BuildRefused, Problem
from .ranking import Suite, group, positions, rank
from .rows import Row, fill_rows


@dataclass
class Leaderboard:
    ranked: list[Row]
    suites: list[Suite]
    leaderboard_json: bytes
    report_copies: dict[str, bytes]
    embedded_json: str
    anchors: dict[str, str]
    rank_overall: dict[str, int]
    rank_in_suite: dict[str, int]
    rank_in_family: dict[str, int]
    files_read: int
    digests: dict[str, str] = field(default_factory=dict)

    @property
    def families(self) -> list[str]:
        return sorted({row.fields["model_family"] for row in self.ranked}, key=str.casefold)


def build_leaderboard(reports_dir: str, manifest_path: str | None, release_tag: str | None) -> Leaderboard:
    """Everything the site publishes for this archive, manifest and fallback release tag."""
    archive = read_archive(reports_dir)
    manifest, problems = read_manifest(manifest_path)
    problems = problems + archive.problems
    for candidate in archive.candidates:
        problems += validate.problems_of(validate.REPORT_SCHEMA, candidate.payload, candidate.path)
    rows, fill_problems = fill_rows(archive.candidates, manifest, release_tag)
    report_copies, copy_problems = copies(archive.candidates)
    problems = sorted(set(problems + fill_problems + copy_problems), key=_order)
    if problems:
        raise BuildRefused(problems)

    ranked = rank(rows)
    suites = group(ranked)
    # leaderboard.json is not validated again here: every row field was checked when it was filled,
    # and checking 2 × N row objects through jsonschema cost more than the rest of the build at
    # 10,000 reports. The tests validate what the build writes against the shipped schema.
    doc = document(ranked, suites)
    return Leaderboard(
        ranked=ranked,
        suites=suites,
        leaderboard_json=canonical(doc),
        report_copies=report_copies,
        embedded_json=embedded(ranked),
        anchors=suite_anchors(suites),
        rank_overall=positions(ranked, lambda row: ""),
        rank_in_suite=positions(ranked, lambda row: row.fields["suite"]),
        rank_in_family=positions(ranked, lambda row: row.fields["suite"] + "\0" + row.fields["model_family"]),
        files_read=archive.files_read,
        digests={path: hashlib.sha256(data).hexdigest() for path, data in report_copies.items()},
    )


def _order(problem: Problem) -> tuple[Any, ...]:
    # The manifest's lines first, then the archive's files in path order.
    return (not problem.file.startswith("models.jsonl"), problem.file, problem.pointer, problem.rule)


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
