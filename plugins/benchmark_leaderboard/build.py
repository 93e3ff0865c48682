"""The whole pipeline without Pelican: read → validate → fill → rank → group → render the JSON.

``build_leaderboard`` either returns everything the site publishes or raises ``BuildRefused`` with
every problem of the archive and the manifest."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Callable

from . import parallel, validate
from .archive import archive_problems, checked_root, json_paths, read_files
from .leaderboard import canonical, copies, document, embedded, flat_text
from .manifest import Manifest, read_manifest
from .problems import BuildRefused, Problem
from .ranking import Suite, group, positions, rank
from .rows import Row, fill_rows


# Below this many files a fork costs more than it saves.
PARALLEL_FROM = 400
# The share of the files this process checks beside a forked partner that checks the rest. When the
# partner only checks, it sends back all it made, and unpickling costs this process some time.
SHARE_BESIDE_CHECKER = 0.55
SHARE_BESIDE_WRITER = 0.5
# When the partner also writes report pages: the share of its own rows' pages this process keeps;
# it sends the others' rows to the partner, as it also writes leaderboard.json, index.html and the
# copies. Measured at 10,000 reports, on a disk and in memory (tmpfs), so that both end together.
PAGES_KEPT = 0.78


@dataclass(frozen=True)
class Standing:
    """Where each row stands among all of them, by report path: what a report page needs to know
    of the other rows."""

    rank_overall: dict[str, int]
    rank_in_suite: dict[str, int]
    rank_in_family: dict[str, int]
    row_count: int
    anchors: dict[str, str]


@dataclass
class Leaderboard:
    ranked: list[Row]
    suites: list[Suite]
    standing: Standing
    digests: dict[str, str]  # the sha256 of each report's canonical copy, by its path
    embedded_json: str
    leaderboard_json: bytes  # the published leaderboard.json: canonical(document)
    files_read: int
    # The canonical copies and the rows whose pages this process writes: all of them, unless a
    # partner writes the others' (the rows of its part carry no report here, only their fields).
    report_copies: dict[str, bytes]
    rows_here: list[Row]
    partner: parallel.Partner | None = None


@dataclass
class CheckedFiles:
    """What the per-file steps (read, validate, fill, copy) make of some of the archive's files."""

    candidate_count: int
    rows: list[Row]
    rows_valid: bool  # every row's fields already pass the leaderboard schema's row definition
    row_texts: list[str | None]  # each row's fields as leaderboard.json writes them (flat_text)
    report_copies: dict[str, bytes]
    digests: dict[str, str]
    problems: list[Problem]

    def without_reports(self) -> CheckedFiles:
        """What the rest of the build needs of these files when their pages and copies are written
        elsewhere: the rows' fields, the copies' digests and the problems."""
        return CheckedFiles(self.candidate_count, [Row(row.fields, {}, None) for row in self.rows], self.rows_valid,
                            self.row_texts, {}, self.digests, self.problems)


def check_files(reports_dir: str, paths: list[str], manifest: Manifest, release_tag: str | None) -> CheckedFiles:
    """Read, validate, fill and copy the files at ``paths``; each file's result depends on it alone."""
    candidates, problems = read_files(reports_dir, paths)
    for candidate in candidates:
        problems += validate.problems_of(validate.REPORT_SCHEMA, candidate.payload, candidate.path)
    rows, fill_problems = fill_rows(candidates, manifest, release_tag)
    report_copies, copy_problems = copies(candidates)
    digests = {path: hashlib.sha256(data).hexdigest() for path, data in report_copies.items()}
    return CheckedFiles(len(candidates), rows, validate.rows_valid(row.fields for row in rows),
                        [flat_text(row.fields) for row in rows], report_copies, digests,
                        problems + fill_problems + copy_problems)


@dataclass
class Part:
    """What one process writes: the pages of these rows and these copies; with the standing of
    every row and the digest of each copy, which the pages show."""

    rows: list[Row]
    report_copies: dict[str, bytes]
    standing: Standing
    digests: dict[str, str]


PartWriter = Callable[[Part], None]


def build_leaderboard(reports_dir: str, manifest_path: str | None, release_tag: str | None,
                      write_part: PartWriter | None = None, before_writing: Callable[[], None] | None = None) -> Leaderboard:
    """Everything the site publishes for this archive, manifest and fallback release tag.

    Large archives are shared with a forked partner, which checks the last part of the files.
    Without ``write_part`` it sends back all it made of them. With it, it keeps the parsed reports
    and the copies; once the archive is accepted (and ``before_writing`` was called here), it is
    sent every row's standing and some of this process's rows, and it calls ``write_part`` with
    the pages and copies it writes while this process goes on. The returned leaderboard then holds
    what is left to write here (``rows_here``, ``report_copies``), and its ``partner`` is to be
    joined once that is written."""
    paths = json_paths(checked_root(reports_dir))
    manifest, manifest_problems = read_manifest(manifest_path)
    share = 1.0 if len(paths) < PARALLEL_FROM else SHARE_BESIDE_WRITER if write_part else SHARE_BESIDE_CHECKER
    cut = int(len(paths) * share)

    def check(part: list[str]) -> CheckedFiles:
        return check_files(reports_dir, part, manifest, release_tag)

    def partner_part(checked: CheckedFiles, sent: tuple[Standing, list[Row], dict[str, str]]) -> None:
        standing, rows, digests = sent
        write_part(Part(checked.rows + rows, checked.report_copies, standing, {**checked.digests, **digests}))

    partner = parallel.Partner(lambda: check(paths[cut:]), CheckedFiles.without_reports if write_part else _whole,
                               partner_part if write_part else None, fork=cut < len(paths))
    try:
        ours = check(paths[:cut])
        theirs = partner.shared()
        # The manifest's lines first (whatever the file is called), then the archive's files in path order.
        file_problems = ours.problems + theirs.problems
        problems = manifest_problems + sorted(set(
            file_problems + archive_problems(paths, ours.candidate_count + theirs.candidate_count, len(file_problems))))
        if problems:
            raise BuildRefused(problems)
        ranked = rank(ours.rows + theirs.rows)
        suites = group(ranked)
        # What is written is checked against the schema it is published with, before anything is.
        doc = document(ranked, suites)
        doc_problems = validate.leaderboard_problems(doc, rows_checked=ours.rows_valid and theirs.rows_valid)
        if doc_problems:
            raise BuildRefused(doc_problems)
        standing = Standing(
            rank_overall=positions(ranked, lambda row: ""),
            rank_in_suite=positions(ranked, lambda row: row.fields["suite"]),
            rank_in_family=positions(ranked, lambda row: row.fields["suite"] + "\0" + row.fields["model_family"]),
            row_count=len(ranked),
            anchors=suite_anchors(suites),
        )
        if before_writing is not None:
            before_writing()
        kept = len(ours.rows) if cut == len(paths) else int(len(ours.rows) * PAGES_KEPT)
        sent = ours.rows[kept:]
        partner.go((standing, sent, {row.fields["report_path"]: ours.digests[row.fields["report_path"]] for row in sent}))
        leaderboard = Leaderboard(
            ranked=ranked,
            suites=suites,
            standing=standing,
            digests={**ours.digests, **theirs.digests},
            embedded_json=embedded(ranked, suites),
            leaderboard_json=canonical(doc, {id(row.fields): text for part in (ours, theirs)
                                             for row, text in zip(part.rows, part.row_texts) if text is not None}),
            files_read=len(paths),
            report_copies=ours.report_copies if write_part else {**ours.report_copies, **theirs.report_copies},
            rows_here=ours.rows[:kept] if write_part else ranked,
            partner=partner if write_part else None,
        )
    except BaseException:
        partner.abandon()
        raise
    if write_part is None:
        partner.join()
    return leaderboard


def _whole(checked: CheckedFiles) -> CheckedFiles:
    return checked


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
