"""The pipeline up to what the site publishes: read → validate → fill → rank → group → how sure each
rank is (``uncertainty``).

``read_leaderboard`` reads every file once, in worker processes (``workers.run``), and returns one
immutable ``Leaderboard``, with the rows' canonical copies and the rows a rebuild read anew beside
it (``Read``), or raises ``BuildRefused`` with every problem of the archive and the
manifest. It writes nothing and leaves nothing running.

The canonical copies (what ``reports/`` publishes, made from the very bytes that were checked) are
kept as one block of bytes with each row's bounds in it, not as an object a row: the processes that
write the pages read their slices of the block without writing to it, so its memory stays shared
with the build's own process instead of being copied into each of them."""

from __future__ import annotations

import json
import sys
from array import array
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterable, NamedTuple, Sequence

from .. import workers
from ..board import Copies, Filled, Leaderboard, Row
from ..problems import BuildRefused, Problem
from ..read import validate
from ..digests import digest, json_text
from ..read.archive import (MAX_DEPTH, Candidate, archive_problems, candidate_problem, checked_root, is_candidate,
                            json_paths, json_value, parse, read_data)
from ..read.canonical import report_copy
from ..read.manifest import Manifest, read_manifest
from ..settings import Options
from .document import leaderboard_json, uncertainty_json
from .fill import fill_row
from .rank import group, places, rank_key
from .uncertainty import extreme_rows, uncertainty_of


@dataclass(frozen=True)
class _ReadJob:
    root: str
    manifest: Manifest
    release_tag: str | None
    remember: bool  # what reading each file made of it is sent back, to be kept (``_known``)


class _Read(NamedTuple):
    """What reading, validating and filling one file made of it."""

    candidate: bool
    problems: tuple[Problem, ...]
    filled: Filled | None
    copy: bytes | None
    row_valid: bool = True  # the filled row passes the leaderboard schema's row definition


# What reading each file made of it, by its path and a digest of its bytes, kept between the builds
# of one process (the preview's, LEADERBOARD_KEEP_READS) while the manifest, the release tag and
# the archive's folder stay the same (``_known_for``): a file is read every build, and only one whose
# bytes changed since the last build is parsed, checked and filled again (the last build's reads
# only are kept). A change of bytes is always seen, whatever the file's size and times say.
_known: dict[tuple[str, bytes], _Read] = {}
_known_for: list[Any] = [None]


@dataclass(frozen=True)
class _Checked:
    """What reading, validating and filling some of the archive's files made of them."""

    candidates: int
    filled: list[Filled]
    copies: bytes  # the canonical copy of each of ``filled``, one after another
    copy_sizes: array  # the length of each
    rows_valid: bool  # every row already passes the leaderboard schema's row definition
    problems: list[Problem]
    learned: list[tuple[tuple[str, bytes], _Read]]  # what was read anew, when the job remembers
    seen: list[tuple[str, bytes]]  # every file's key, when the job remembers
    anew: list[bool]  # of each of ``filled``, whether its file was read anew (not known from an earlier build)
    known: int  # how many of the files were known from an earlier build


class Read(NamedTuple):
    """What ``read_leaderboard`` made: the board, the rows' canonical copies beside it (``Copies``),
    and the rows whose reports this build read anew while it knew the others from an earlier build
    of the same process (the preview's, LEADERBOARD_KEEP_READS): the edited reports, whose files are
    written first. Empty when every report was read anew. Those rows are kept beside the board, not
    in it, since they depend on the process's earlier builds and not on the inputs: they order the
    writing, and no page may show them."""

    leaderboard: Leaderboard
    copies: Copies
    read_anew: tuple[int, ...]


def read_leaderboard(options: Options) -> Read:
    root = checked_root(options.reports_dir)
    paths, path_problems = json_paths(root)
    manifest, manifest_problems = read_manifest(options.manifest, identity=options.manifest_identity,
                                                key=options.manifest_key)
    job = _ReadJob(root, manifest, options.release_tag, options.keep_reads)
    under = (root, json_text(manifest), options.release_tag)
    if not options.keep_reads or _known_for[0] != under:
        _known.clear()
        _known_for[0] = under if options.keep_reads else None
    parts = workers.run(_check, workers.chunks(paths, options.workers), job, options.workers)
    if options.keep_reads:
        # Only what this build read is kept: a file's earlier bytes (an edit undone) are read anew.
        kept = {key: _known[key] for part in parts for key in part.seen if key in _known}
        _known.clear()
        _known.update(kept)
        for part in parts:
            _known.update(part.learned)
    file_problems = path_problems + [problem for part in parts for problem in part.problems]
    candidates = sum(part.candidates for part in parts)
    rows_valid = all(part.rows_valid for part in parts)
    # The manifest's problems first (whatever the file is called), then the archive's, in path order.
    problems = manifest_problems + sorted(set(file_problems + archive_problems(paths, candidates, len(file_problems))))
    if problems:
        raise BuildRefused(problems)
    copies = b"".join(part.copies for part in parts)
    # The edited reports of a rebuild in the preview's process: read anew while others were known.
    some_known = any(part.known for part in parts)
    numbered, start = [], 0  # each row with where its copy starts in ``copies``, its size, and whether read anew
    for part in parts:
        for filled, size, anew in zip(part.filled, part.copy_sizes, part.anew):
            numbered.append((filled, start, size, anew and some_known))
            start += size
    del parts
    numbered.sort(key=lambda item: rank_key(item[0]))
    ranked = tuple(item[0] for item in numbered)
    copy_bounds = array("Q", (item[1] for item in numbered))
    copy_sizes = array("Q", (item[2] for item in numbered))
    read_anew = tuple(index for index, item in enumerate(numbered) if item[3])
    del numbered
    rows = tuple(filled.row for filled in ranked)
    suites = group(ranked)
    # What is written is checked against the schema it is published with, before anything is: the
    # text of the very encoder that writes it, read back. Every row was checked on its own by the
    # workers, so the document with the first row of each list checks the rest of it; when a row
    # failed, the whole text is read back to name every problem.
    if not rows_valid:
        raise BuildRefused(validate.leaderboard_problems(_read_back(leaderboard_json(rows, suites))))
    document_problems = validate.leaderboard_problems(_read_back(leaderboard_json(rows, suites, first_only=True)))
    if document_problems:
        raise BuildRefused(document_problems)
    # How sure each rank is, and its text checked as leaderboard.json's is: every row's figures are
    # made by the same code, so the rows holding each figure's least and most are the ones to check.
    sure = uncertainty_of(ranked, suites)
    sure_problems = validate.uncertainty_problems(_read_back(uncertainty_json(rows, sure, extreme_rows(sure))))
    if sure_problems:
        raise BuildRefused(sure_problems)
    return Read(Leaderboard(ranked, rows, suites, places(ranked, suites), sure, len(paths), manifest),
                Copies(copies, copy_bounds, copy_sizes), read_anew)


def _read_back(pieces: Iterable[bytes]) -> Any:
    """A published document's text as JSON reads it (json's own parser, which keeps what orjson
    would refuse: NaN, the infinities, integers beyond 64 bits)."""
    return json.loads(b"".join(pieces))


def report_of(copies: Copies, index: int) -> tuple[Any, bytes]:
    """The report of the row at ``index`` of the ranking, as published: its JSON and its canonical
    copy. The build keeps only the copy's bytes (compact beside the parsed report) and reads the
    report back from them for its page."""
    copy = bytes(copies.of(index))
    return json_value(copy), copy


def _check(job: _ReadJob, paths: Sequence[str]) -> _Checked:
    """Read, validate and fill the files at ``paths``; each file's result depends on it alone (on its
    path and bytes: one already known, ``_known``, is not parsed again)."""
    filled: list[Filled] = []
    copies: list[bytes] = []
    valid = True
    problems: list[Problem] = []
    learned: list[tuple[tuple[str, bytes], _Read]] = []
    seen: list[tuple[str, bytes]] = []
    anew: list[bool] = []
    candidates = known = 0
    with room_for_nesting():
        for path in paths:
            data, problem = read_data(job.root, path)
            if problem is not None:
                problems.append(problem)
                continue
            key = (path, digest(data))
            read = _known.get(key)
            fresh = read is None
            if fresh:
                read = _read(job, path, data)
                if job.remember:
                    learned.append((key, read))
            known += not fresh
            if job.remember:
                seen.append(key)
            candidates += read.candidate
            problems += read.problems
            if read.filled is not None:
                filled.append(read.filled)
                copies.append(read.copy)
                anew.append(fresh)
                valid = valid and read.row_valid
    return _Checked(candidates, filled, b"".join(copies), array("Q", map(len, copies)), valid, problems, learned,
                    seen, anew, known)


def _read(job: _ReadJob, path: str, data: bytes) -> _Read:
    """What one file's bytes make: whether it is a report, its problems, its filled row and copy."""
    payload, problem = parse(data, path)
    if problem is not None:
        return _Read(False, (problem,), None, None)
    if not is_candidate(path, payload):
        return _Read(False, (), None, None)
    problem = candidate_problem(path, payload)
    if problem is not None:
        return _Read(True, (problem,), None, None)
    problems = validate.problems_of(validate.REPORT_SCHEMA, payload, path)
    try:
        copy = report_copy(payload)
    except UnicodeEncodeError:
        problems.append(Problem(path, "", "holds text that is not valid Unicode (a lone surrogate escape)"))
        copy = None
    row, found = fill_row(Candidate(path, payload), job.manifest, job.release_tag)
    problems += found
    if row is None or copy is None:
        return _Read(True, tuple(problems), None, None)
    # Whether the row is one the leaderboard schema allows, checked once a read: a file known from
    # an earlier build is not checked again.
    return _Read(True, tuple(problems), row, copy, validate.rows_valid((dict(zip(Row._fields, row.row)),)))


@contextmanager
def room_for_nesting():
    """Reading, copying and showing a report walk it level by level; a report may nest up to
    ``MAX_DEPTH`` levels wherever the call stack already is, so the interpreter's limit is raised
    for the block to leave room for that."""
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, 3 * MAX_DEPTH + 1000))
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)
