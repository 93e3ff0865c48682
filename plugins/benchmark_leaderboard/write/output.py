"""Which folder a build may write into or remove: only a new or empty one, or an earlier render.

A render marks itself with ``MARKER`` at its root (as Sphinx writes ``.buildinfo``); a folder
without it holds someone else's files and is never replaced or removed. The marker also lists every
file the render wrote: whatever else is in the folder (a ``CNAME``, notes) was put there by someone
else, and a rebuild or ``clean`` leaves it (``unlisted``). Some folders are never
an output whatever a marker says: those the build reads (the content, the plugins, the theme,
the reports, the manifest's folder), any folder that contains one of them (so the project, its
parents, ``/``), and anything of git's.

This module is the output folder's one owner: it judges a folder before anything is written
(``judge``), makes and reads the marker (``marker_bytes``, ``read_marker``), and removes what a
render in place no longer writes (``remove_unwritten``, ``remove_stale``) and what ``clean``
removes (``remove_listed``), never a file that a render did not write. Writing the files themselves
is writer.py's; nothing of Pelican's here but its ``maybe_pluralize``."""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from typing import Any, Iterable

from pelican.utils import maybe_pluralize

from ..paths import INNER_LOCK, INNER_OLD_PREFIX, INNER_STAGING_PREFIX, OWN_FILES, OWN_FOLDERS, TOKEN
from ..problems import one_line, reason
from ..regular_file import opened, read_opened
from ..settings import options

MARKER = ".leaderboard-render.json"
GENERATOR = "openmed-benchmark-leaderboard"
MARKER_VERSION = 1
# A marker lists every file of its render (about 120 bytes a report); a file of that name larger
# than this is not one, and is never read.
MARKER_MAX_BYTES = 1 << 28

# How much of each end of a path too long for the system a problem shows.
LONG_NAME_SHOWN = 40
# The working files of a build into a mount point (paths.INNER_LOCK and the rest) are the build's own:
# an output holding only them counts as empty, and the next build finishes or undoes what they record.
_INNER_LEFTOVER = re.compile(rf"(?:{re.escape(INNER_STAGING_PREFIX)}|{re.escape(INNER_OLD_PREFIX)}){TOKEN}")


def marker_bytes(release_tag: str | None, files: Iterable[str] | None = None,
                 digests: dict[str, str] | None = None) -> bytes:
    """The marker's bytes: canonical JSON, like ``leaderboard.json``, naming the release rendered
    and, when given, every file the render wrote (POSIX paths relative to the render, the marker's
    own among them, sorted) and the digest of what each of the leaderboard's own files was made
    from (write/plan.py), by which the next render in place knows what it need not make again."""
    document: dict[str, Any] = {"generator": GENERATOR, "marker": MARKER_VERSION, "release_tag": release_tag}
    if files is not None:
        document["files"] = sorted(set(files) | {MARKER})
    if digests:
        document["digests"] = digests
    return (json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8")


def marker_time(folder: str) -> int | None:
    """When the marker of ``folder`` was last changed (its ctime, in ns), or None without one."""
    try:
        return os.lstat(os.path.join(folder, MARKER)).st_ctime_ns
    except OSError:
        return None


# The last markers read, by where they are and their file's identity and times: a build judges its
# output several times, and a large render's marker is parsed once.
_read: dict[tuple[str, int, int, int, int, int], dict[str, Any]] = {}


def read_marker(folder: str) -> dict[str, Any] | None:
    """The marker of ``folder`` when it holds one, else None. Only a regular file is read: a link, a
    FIFO or a device of that name is not a marker (a FIFO would block, a device never end)."""
    path = os.path.join(folder, MARKER)
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        # If the file was swapped for a link or a FIFO since lstat, opening it fails or says so.
        descriptor, status = opened(path)
    except OSError:
        return None
    try:
        key = (os.path.abspath(path), status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)
        if key in _read:
            return _read[key]
        data = read_opened(descriptor, status.st_size, MARKER_MAX_BYTES)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not (isinstance(document, dict) and set(document) - {"files", "digests"} == {"generator", "marker", "release_tag"}
            and document["generator"] == GENERATOR
            and type(document["marker"]) is int and document["marker"] == MARKER_VERSION
            and (document["release_tag"] is None or isinstance(document["release_tag"], str))
            and ("files" not in document or (isinstance(document["files"], list)
                                             and all(isinstance(name, str) for name in document["files"])))
            and ("digests" not in document or (isinstance(document["digests"], dict)
                                               and all(isinstance(value, str) for value in document["digests"].values())))):
        return None
    _read.clear()
    _read[key] = document
    return document


def forget_markers() -> None:
    """Let go of the markers ``read_marker`` keeps: once a build has taken what it needs of its
    previous render's marker, the rest is not held while its pages are made."""
    _read.clear()


def render_files(marker: dict[str, Any] | None) -> frozenset[str] | None:
    """The files a render wrote, as its marker lists them; None for a marker that lists none (written
    before markers did: everything in such a render counts as its own)."""
    if marker is None or "files" not in marker:
        return None
    return frozenset(marker["files"])


def unlisted(folder: str, files: Iterable[str], retention: Iterable[str] = ()) -> list[str]:
    """What is in ``folder`` that the render that wrote ``files`` did not write, sorted: files and
    links by their path, a folder holding nothing it wrote by its path and ``/``; the build's own
    working files (``counts_as_empty``) left out. Top-level names in ``retention`` (Pelican's
    ``OUTPUT_RETENTION``) count as not written whatever the list says. Links are never followed."""
    retained = {name for name in retention if isinstance(name, str) and name and "/" not in name}
    written = set(files) - retained
    folders = {""}
    for name in written:
        parts = name.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folders.add("/".join(parts[:depth]))
    found: list[str] = []
    pending = [""]
    while pending:
        relative = pending.pop()
        with os.scandir(os.path.join(folder, relative) if relative else folder) as listing:
            entries = [(entry.name, entry.is_dir(follow_symlinks=False)) for entry in listing]
        for name, is_folder in entries:
            path = f"{relative}/{name}" if relative else name
            if not relative and counts_as_empty([name]):
                continue
            if is_folder and path in folders:
                pending.append(path)
            elif is_folder:
                found.append(path + "/")
            elif path not in written:
                found.append(path)
    return sorted(found)


def overwrite_problem(clashes: list[str], shown: str) -> str:
    """Why a build stops when its render would write where someone else's files lie (``clashes``,
    paths the last render did not write), in one line; ``shown`` is the output as named."""
    them = "it" if len(clashes) == 1 else "them"
    return (f"the render writes {', '.join(one_line(path) for path in clashes)}, which the last render did not write: "
            f"move {them} out of the output first; {shown} is unchanged")


def kept_line(entries: list[str], what: str = "kept") -> str:
    """The line that names what ``unlisted`` found: ``kept 2 entries the last render did not write:
    CNAME, extra/`` (each name on one line)."""
    count = len(entries)
    return (f"{what} {maybe_pluralize(count, 'entry', 'entries')} the last render did not write: "
            + ", ".join(one_line(entry) for entry in entries))


def protected_folders(settings: dict[str, Any]) -> list[str]:
    """The folders a build reads, from Pelican settings: ``PATH``, each of ``PLUGIN_PATHS``,
    ``THEME``, ``LEADERBOARD_REPORTS_DIR`` and the folder of ``LEADERBOARD_MANIFEST`` (those two
    taken relative to ``PATH`` when relative, their defaults filled in as the plugin reads them).
    Absolute, in that order, each once."""
    resolved = options(settings)
    found: list[str] = []

    def add(folder: Any) -> None:
        if isinstance(folder, str) and folder:
            folder = os.path.abspath(folder)
            if folder not in found:
                found.append(folder)

    add(settings.get("PATH"))
    for folder in settings.get("PLUGIN_PATHS") or []:
        add(folder)
    add(settings.get("THEME"))
    add(resolved.reports_dir)
    if resolved.manifest:
        add(os.path.dirname(resolved.manifest))
    return found


def judge(output: str, settings: dict[str, Any], unmarked: bool = False) -> str | None:
    """Why ``output`` can be neither rendered into nor removed by a build with these Pelican
    settings, in one line, or None: ``output_problem`` with the folders the build reads."""
    return output_problem(output, protected_folders(settings), archive=options(settings).reports_dir, unmarked=unmarked)


def counts_as_empty(names: Iterable[str]) -> bool:
    """True when a folder's entries are only the build's own working files (a mount point's lock and
    the staging and old folders of a build into it)."""
    return all(name == INNER_LOCK or _INNER_LEFTOVER.fullmatch(name) for name in names)


def within(path: str, folder: str) -> bool:
    """``path`` is ``folder`` or lies below it (both absolute, and resolved alike)."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def output_problem(output: str, protected: Iterable[str], archive: str | None = None, unmarked: bool = False) -> str | None:
    """Why ``output`` can be neither rendered into nor removed, in one line, or None when it can:
    it is new, an empty folder, or an earlier render (a folder holding a valid marker); with
    ``unmarked`` (what ``clean`` asks: it removes nothing there) also a folder without any marker,
    which holds nothing a render wrote. A link is judged by where it leads. ``protected`` are the
    folders the build reads (``protected_folders``); no output lies inside ``archive``, the reports
    folder, whose next reading would take the render's copies for reports."""
    if output == "":
        return "output refused: the output folder is named by an empty string (an unset variable?); name the folder to write"
    shown = one_line(output)
    real = os.path.realpath(output)
    for folder in protected:
        folder = os.path.realpath(folder)
        if real == folder:
            return f"output refused: {shown} is {one_line(folder)}, a folder the build reads; the output must be a folder of its own"
        if within(folder, real):
            return f"output refused: {shown} contains {one_line(folder)}, a folder the build reads; the output must be a folder of its own"
    if archive and within(real, os.path.realpath(archive)):
        return (f"output refused: {shown} lies inside the reports folder {one_line(os.path.realpath(archive))}, where the "
                "next build would read its copies as reports; the output must be a folder of its own")
    parts = real.split(os.sep)
    if ".git" in parts:
        git = os.sep.join(parts[: parts.index(".git") + 1]) or os.sep
        where = "is the git folder" if git == real else "lies inside the git folder"
        return f"output refused: {shown} {where} {one_line(git)}; git's files are never an output"
    try:
        status = os.stat(real)
    except FileNotFoundError:
        return None  # a new folder (a dangling link: its target is made)
    except NotADirectoryError:
        return f"output refused: {shown} cannot be a folder: {one_line(_file_above(real))} is a file"
    except OSError as error:
        if error.errno != errno.ENAMETOOLONG:
            return f"output refused: cannot look at {shown}: {reason(error)}"
        # Shown in part: the whole path would be a line of thousands of characters.
        short = shown if len(shown) <= 2 * LONG_NAME_SHOWN else f"{shown[:LONG_NAME_SHOWN]}...{shown[-LONG_NAME_SHOWN:]}"
        return f"output refused: {short} ({len(real)} characters) is a longer path or name than this system allows"
    if not stat.S_ISDIR(status.st_mode):
        return f"output refused: {shown} exists and is not a folder"
    if os.path.lexists(os.path.join(real, ".git")):
        return f"output refused: {shown} holds .git: it is a git repository or worktree, never an output"
    try:
        names = os.listdir(real)
    except OSError as error:
        return f"output refused: cannot list {shown}: {reason(error)}"
    if counts_as_empty(names) or read_marker(real) is not None:
        return None
    if unmarked and MARKER not in names:
        return None
    return (f"output refused: {shown} is not empty and has no valid {MARKER}, so it is not a render of this site; "
            "choose a new or empty folder, or an earlier render")


def _file_above(path: str) -> str:
    """The nearest folder-to-be above ``path`` that exists and is not a folder."""
    above = os.path.dirname(path)
    while above != os.path.dirname(above) and not (os.path.lexists(above) and not os.path.isdir(above)):
        above = os.path.dirname(above)
    return above


def finish_in_place(output_path: str, earlier_files: frozenset[str] | None, written: Iterable[str],
                    files: Iterable[str], retention: Iterable[str]) -> list[str]:
    """Rendering into an earlier render, once every file of this one is written and before its
    marker: remove what the earlier render wrote and this one did not (what its marker lists; or, for
    a marker that lists nothing, what this render's own folders hold beyond what it wrote). Returns
    the entries this render did not write and leaves where they are (someone else's), for one line."""
    files = frozenset(files)
    if earlier_files is None:
        remove_stale(output_path, set(written))
    else:
        remove_unwritten(output_path, earlier_files - files, retention)
    return unlisted(output_path, files, retention)


def remove_stale(output_path: str, written: set[str]) -> None:
    """Rendering in place: remove the files of the plugin's own folders that this render did not
    write (the page and copy of a report removed from the archive), then their empty folders, and
    the ``OWN_FILES`` it did not write (the changes page of a build that had a previous leaderboard)."""
    for own in OWN_FILES:
        path = os.path.join(output_path, own)
        if own not in written and os.path.isfile(path) and not os.path.islink(path):
            os.unlink(path)
    for own in OWN_FOLDERS:
        top = os.path.join(output_path, own)
        for folder, folders, files in os.walk(top, topdown=False):
            for name in files:
                path = os.path.join(folder, name)
                if os.path.relpath(path, output_path).replace(os.sep, "/") not in written:
                    os.unlink(path)
            for name in folders:
                try:
                    os.rmdir(os.path.join(folder, name))
                except OSError:  # not empty
                    pass
        try:
            os.rmdir(top)  # an own folder this render wrote nothing into
        except OSError:  # not empty, or not there
            pass


def remove_unwritten(output_path: str, stale: set[str], retention: Iterable[str]) -> None:
    """Rendering in place: remove the files the earlier render wrote and this one did not (its
    marker lists them), then their folders that are left empty; never a folder, never what
    ``OUTPUT_RETENTION`` names."""
    retained = set(retention)
    folders: set[str] = set()
    for relative in sorted(stale):
        if relative == MARKER or relative.split("/")[0] in retained:
            continue
        path = os.path.join(output_path, *relative.split("/"))
        try:
            if not stat.S_ISDIR(os.lstat(path).st_mode):
                os.unlink(path)
        except FileNotFoundError:
            pass
        parts = relative.split("/")[:-1]
        folders.update("/".join(parts[:depth]) for depth in range(1, len(parts) + 1))
    for folder in sorted(folders, key=lambda name: name.count("/"), reverse=True):
        try:
            os.rmdir(os.path.join(output_path, *folder.split("/")))
        except OSError:  # not empty (it holds what this render or someone else wrote), or gone
            pass


def remove_listed(folder: str, kept: list[str]) -> None:
    """Remove every entry of the render in ``folder`` but ``kept`` (what it did not write) and the
    folders that hold them, the marker last (an interrupted removal leaves a render, which the next
    clean finishes)."""
    keep = {entry.rstrip("/") for entry in kept}
    holders = {"/".join(entry.split("/")[:depth]) for entry in keep for depth in range(1, entry.count("/") + 1)}
    for top, folders, names in os.walk(folder, topdown=False):
        relative = os.path.relpath(top, folder).replace(os.sep, "/")
        relative = "" if relative == "." else relative + "/"
        if relative.rstrip("/") in keep or any(relative.startswith(entry + "/") for entry in keep if relative):
            continue
        for name in names + [entry for entry in folders if os.path.islink(os.path.join(top, entry))]:
            path = relative + name
            if path not in keep and path != MARKER and not (relative == "" and name == INNER_LOCK):
                os.unlink(os.path.join(top, name))
        for name in folders:
            path = relative + name
            if path not in keep and path not in holders and not os.path.islink(os.path.join(top, name)):
                try:
                    os.rmdir(os.path.join(top, name))
                except OSError:
                    pass
    marker = os.path.join(folder, MARKER)
    if os.path.lexists(marker):
        os.unlink(marker)
