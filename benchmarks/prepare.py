"""What the benchmark (``run.py``) and the profile (``profile.py``) both stand on: the project's
folder and the work folder, the file system that folder is on, each size's synthetic archive kept
there (made again only when the maker would write other bytes), the archive read into the page cache,
the project's own files compiled to bytecode, the sizes asked for, and the fault that stops either.

Neither imports the other: what both need is here, and in ``results.py`` for results.md."""

from __future__ import annotations

import compileall
import hashlib
import os
import shutil
import time
from pathlib import Path
from typing import Callable

from benchmark_leaderboard.problems import one_line

from .make_archive import make_archive as write_archive

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "benchmarks" / ".work"
MAKER = Path(__file__).resolve().parent / "make_archive.py"
RELEASE_TAG = "v0.0.0-bench"
# In the work folder: when files were last removed there (``run.py``, SETTLE_SECONDS, says why it matters).
REMOVED_AT = "removed-at"


class BenchError(Exception):
    """The benchmark cannot go on (a render failed, a size is not a number); the message is one line."""


def archive_mark(reports: int, releases: int = 1) -> str:
    """What an archive made by the current maker holds in its ``.complete`` file: the maker's source
    and its arguments decide every byte it writes."""
    digest = hashlib.sha256(MAKER.read_bytes()).hexdigest()
    if releases == 1:
        return f"benchmarks/make_archive.py sha256:{digest} n={reports} (the maker's defaults otherwise)\n"
    return (f"benchmarks/make_archive.py sha256:{digest} n={reports // releases} releases={releases} "
            "(the maker's defaults otherwise)\n")


def make_archive(reports: int, work: Path, say: Callable[[str], None], releases: int = 1) -> Path:
    """The synthetic archive of ``reports`` reports below ``work``, made unless an archive that the
    current maker made with the same arguments is there already: ``reports`` models in one release,
    or, given ``releases``, ``reports // releases`` models in each of that many releases (a model a
    page of ``releases`` reports, as an archive of many releases has)."""
    if releases < 1 or reports % releases:
        raise BenchError(f"{reports:,} reports cannot be {releases} releases of the same models: "
                         "give a size that the releases divide")
    folder = work / (f"archive-{reports}" if releases == 1 else f"archive-{reports}-{releases}-releases")
    done, mark = folder / ".complete", archive_mark(reports, releases)
    try:
        if done.read_text(encoding="utf-8") == mark:
            return folder
    except (OSError, UnicodeDecodeError):
        pass
    if os.path.lexists(folder):
        say(f"making the archive of {reports:,} reports again: the maker or its arguments changed")
        shutil.rmtree(folder)
        note_removal(work)
    else:
        say(f"making the archive of {reports:,} reports")
    write_archive(folder, reports // releases, releases=releases)
    done.write_text(mark, encoding="utf-8")
    return folder



# The project's own Python files, run from the checkout (the packages it uses, and the reference,
# were compiled to bytecode by pip when it installed them).
PROJECT_SOURCES = ("plugins", "leaderboard_tools", "tasks.py", "pelicanconf.py", "publishconf.py")


def compile_project(root: Path = ROOT) -> None:
    """Compile the project's own Python files to bytecode once, before the runs, as pip compiled the
    reference's when it installed it: every run then starts as a user's second build does, from the
    cached bytecode, even where the environment keeps Python from writing it
    (PYTHONDONTWRITEBYTECODE) and each run would otherwise compile every module again."""
    for name in PROJECT_SOURCES:
        path = root / name
        if path.is_dir():
            compileall.compile_dir(path, quiet=2)
        elif path.is_file():
            compileall.compile_file(path, quiet=2)


def warm(archive: Path) -> None:
    """Read every file of the archive once, untimed, so that it is in the page cache for the first
    run as for the others."""
    for folder, _, names in os.walk(archive):
        for name in names:
            with open(os.path.join(folder, name), "rb") as handle:
                handle.read()


def file_system(folder: Path) -> str:
    """The type of the file system ``folder`` is on (``ext4``, ``tmpfs``...), from the mount table;
    "unknown" where there is none to read."""
    try:
        mounts = Path("/proc/self/mounts").read_text(encoding="utf-8").splitlines()
    except OSError:
        return "unknown"
    target, best = os.path.realpath(folder), ("", "unknown")
    for line in mounts:
        fields = line.split()
        if len(fields) < 3:
            continue
        point = fields[1].replace("\\040", " ")
        if (target == point or target.startswith(point.rstrip("/") + "/")) and len(point) >= len(best[0]):
            best = (point, fields[2])
    return best[1]


def note_removal(work: Path) -> None:
    """Note in ``work`` that files were removed there just now (once the disk has written it back)."""
    if hasattr(os, "sync"):
        os.sync()
    (work / REMOVED_AT).write_text(f"{time.time()}\n", encoding="utf-8")


def parse_sizes(text: str) -> list[int]:
    """``--sizes``: comma-separated whole numbers of at least 1."""
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 1:
        raise BenchError(f"--sizes must be comma-separated whole numbers of at least 1, not {one_line(text)!r}")
    return sizes
