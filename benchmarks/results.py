"""``benchmarks/results.md``, the file both benchmarks write: the benchmark's figures, one block for
each file system its runs wrote to (a disk, tmpfs), side by side, then the profile's sections
(``## CPU per report by phase: NAME``). Each writer replaces its own part and keeps the others."""

from __future__ import annotations

import re
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results.md"
# The heading of the benchmark's figures, followed by the file system its runs wrote to: results.md
# keeps the figures of each file system (a disk, tmpfs) side by side.
TITLE = "# Benchmark results"
SECTION = "## CPU per report by phase: "


def write_figures(results_file: Path, text: str) -> None:
    """Write the benchmark's figures ``text`` (headed ``TITLE, written to <file system>``) into
    ``results_file``: the figures written to other file systems are kept beside these, and the
    profile's sections (``invoke bench --profile``) after them all."""
    previous = _read(results_file)
    blocks = sorted([text, *other_file_systems(previous, text.split("\n", 1)[0])])
    results_file.write_text("\n".join([*blocks, *sections(previous)]), encoding="utf-8")


def write_section(results_file: Path, text: str) -> None:
    """Write the profile's section ``text`` into ``results_file``, in place of the section of the same
    heading or at its end; everything else stays."""
    results_file.write_text(replace_section(_read(results_file), text), encoding="utf-8")


def _read(results_file: Path) -> str:
    return results_file.read_text(encoding="utf-8") if results_file.exists() else ""


def other_file_systems(text: str, heading: str) -> list[str]:
    """The benchmark's figures in a results file's ``text`` whose heading is not ``heading``: those
    written to another file system, each without the profile's sections that follow it (figures
    whose heading names no file system are older than this distinction, and are not kept)."""
    kept = []
    for block in re.split(r"(?m)^(?=" + re.escape(TITLE) + ")", text):
        first = block.split("\n", 1)[0]
        if first.startswith(TITLE + ", written to ") and first != heading:
            kept.append(re.split(r"(?m)^(?=" + re.escape(SECTION) + ")", block)[0].rstrip("\n") + "\n")
    return kept


def sections(text: str) -> list[str]:
    """The profile's sections of a results file's text, in order."""
    parts = re.split(r"(?m)^(?=## )", text)
    return [part.rstrip("\n") + "\n" for part in parts if part.startswith(SECTION)]


def replace_section(text: str, new: str) -> str:
    """``text`` with ``new`` in place of the section of the same heading, or added at its end."""
    heading = new.split("\n", 1)[0]
    parts = re.split(r"(?m)^(?=## )", text)
    kept = [part for part in parts if part.split("\n", 1)[0] != heading]
    body = "".join(kept).rstrip("\n")
    return (body + "\n\n" if body else "") + new
