"""What a user put in the output: whatever the last render did not write (its marker lists what it
wrote: a ``CNAME``, a folder of notes someone added) and the names of Pelican's
``OUTPUT_RETENTION``. A build carries it into the new render unchanged; ``clean`` leaves it."""

from __future__ import annotations

import os
import shutil
from typing import Any

from benchmark_leaderboard.write.output import overwrite_problem, read_marker, render_files, unlisted

from .faults import BuildError


def not_written(folder: str, retention: Any) -> list[str]:
    """What the render in ``folder`` did not write (``unlisted``), with the top-level names of
    ``OUTPUT_RETENTION``; for a render whose marker lists no files, only the latter."""
    retention = [name for name in retention or () if isinstance(name, str) and name and "/" not in name]
    files = render_files(read_marker(folder))
    if files is None:
        return sorted(name + ("/" if os.path.isdir(os.path.join(folder, name)) and not os.path.islink(os.path.join(folder, name)) else "")
                      for name in retention if os.path.lexists(os.path.join(folder, name)))
    return unlisted(folder, files, retention)


def carry(previous: str, staging: str, retention: Any, shown: str) -> list[str]:
    """Put what the last render in ``previous`` did not write into the new render in ``staging``,
    unchanged (linked where the file system allows, else copied with its times and mode); returns
    what was carried. A path the new render writes too is someone else's file it would overwrite:
    the build stops, the output unchanged."""
    kept = not_written(previous, retention)
    clashes = [entry for entry in kept if os.path.lexists(os.path.join(staging, *entry.rstrip("/").split("/")))]
    if clashes:
        raise BuildError(overwrite_problem(clashes, shown))
    for entry in kept:
        relative = os.path.join(*entry.rstrip("/").split("/"))
        source, target = os.path.join(previous, relative), os.path.join(staging, relative)
        parent = os.path.dirname(target)
        if not os.path.isdir(parent):
            os.makedirs(parent)
            shutil.copystat(os.path.dirname(source), parent)
        if os.path.isdir(source) and not os.path.islink(source):
            shutil.copytree(source, target, symlinks=True, copy_function=_link_or_copy)
        elif os.path.islink(source):
            os.symlink(os.readlink(source), target)
        else:
            _link_or_copy(source, target)
    return kept


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError:  # another file system, or links not allowed
        shutil.copy2(source, target, follow_symlinks=False)
