"""``clean``: remove the render in the output, of it only what its marker lists, and what a killed
build left beside it, under the output's lock (``invoke clean``)."""

from __future__ import annotations

import os
import secrets

from pelican.utils import maybe_pluralize

from benchmark_leaderboard.write.output import counts_as_empty, kept_line, one_line, read_marker, remove_listed

from .build_settings import output_refusal, settings_of
from .exchange import Place, empty_render, remove_tree
from .faults import BuildError, CleanFailed, OutputRefused, filename, reason
from .interrupts import BuildInterrupted, signal_of, sigterm_raises, signals_deferred
from .user_files import not_written


def clean(settings_file: str, output_dir: str) -> str:
    """Remove the render in ``output_dir`` and what a killed build left beside it; returns what was
    done, in one line. Only a render (a folder holding the marker) or an empty folder is removed, under
    the output's lock (a folder without any marker holds nothing a render wrote: nothing is removed,
    and the line says so), and of a render only what it wrote (what its marker lists; the rest, and the
    names of OUTPUT_RETENTION, stay, and the line names them). A link as the output stays, and so does
    the folder it leads to (emptied), as does a mount point."""
    with sigterm_raises():
        try:
            return _clean(settings_file, output_dir)
        except BuildError as error:
            if type(error) is BuildError:
                raise CleanFailed(str(error)) from None
            raise
        except KeyboardInterrupt as interrupt:
            signum = signal_of(interrupt)
            raise BuildInterrupted(signum, f"clean interrupted by {signum.name}; run it again to finish") from None


def _clean(settings_file: str, output_dir: str) -> str:
    shown = one_line(output_dir)
    problem = output_refusal(settings_file, output_dir, unmarked=True)
    if problem:
        raise OutputRefused(problem)
    retention = settings_of(settings_file, {}).get("OUTPUT_RETENTION") or ()
    place = Place(output_dir)
    if not os.path.isdir(place.parent):
        return f"nothing to remove: {shown} does not exist"
    link = os.path.islink(os.path.abspath(output_dir).rstrip(os.sep) or os.sep)
    try:
        with place.locked():
            place.recover()
            problem = output_refusal(settings_file, output_dir, unmarked=True)
            if problem:
                raise OutputRefused(problem)
            if not os.path.lexists(place.target):
                return f"nothing to remove: {shown} does not exist"
            entries = sorted(os.listdir(place.target))
            if read_marker(place.target) is None and not counts_as_empty(entries):
                # No marker: nothing there was written by a render (a clean before left only this).
                return f"nothing to remove: {shown} holds no render of this site; " + _entries_line(place.target, entries)
            kept = not_written(place.target, retention) if read_marker(place.target) is not None else []
            if kept:
                with signals_deferred():
                    remove_listed(place.target, kept)
                return f"removed the render in {shown}; " + kept_line(kept, "left").replace(" the last render ", " it ")
            if link or place.mount:
                empty_render(place.target)
                kept = "the link and the folder it leads to stay" if link else "the folder stays: it is a mount point"
                return f"removed the render in {shown}; {kept}"
            with signals_deferred():
                aside = os.path.join(place.parent, f".{place.name}.old-{secrets.token_hex(6)}")
                os.rename(place.target, aside)
            remove_tree(aside)
            return f"removed {shown}"
    except OSError as error:
        raise CleanFailed(f"cannot remove {one_line(filename(error) or output_dir)}: {reason(error)}") from None


def _entries_line(folder: str, entries: list[str], shown: int = 10) -> str:
    """``its 2 entries stay: CNAME, extra/`` (a folder's name with a slash; past ``shown`` names, how
    many more)."""
    names = [one_line(name) + ("/" if os.path.isdir(os.path.join(folder, name)) and not os.path.islink(os.path.join(folder, name))
                               else "") for name in entries[:shown]]
    more = f" and {len(entries) - shown:,} more" if len(entries) > shown else ""
    return f"its {maybe_pluralize(len(entries), 'entry stays', 'entries stay')}: {', '.join(names)}{more}"
