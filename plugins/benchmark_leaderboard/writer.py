"""Write: the one place where the plugin's files reach the output folder.

Every path is joined with Pelican's ``sanitised_join`` (nothing lands outside the output). A file
whose bytes equal the previous render's is not created again: it is linked from there (or, when the
previous render is the output itself, left as it is). Worker processes write with this class too;
``announce`` then sends Pelican's ``content_written`` for every HTML page with its page object, in
the build's own process, where other plugins (a sitemap, a search index) listen."""

from __future__ import annotations

import os
import stat
from typing import Any, Iterable

from pelican import signals
from pelican.utils import sanitised_join

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)


class SiteWriter:
    def __init__(self, output_path: str, previous: str | None = None) -> None:
        self.output_path = os.path.abspath(output_path)
        self.previous = os.path.abspath(previous) if previous else None
        self.in_place = self.previous == self.output_path
        self._folders: set[str] = set()
        self._joined_folders: dict[tuple[str, str], str] = {}

    def write(self, relative: str, data: bytes) -> str:
        """Write ``data`` as ``relative`` (a POSIX path inside the output); returns ``relative``."""
        target = self._joined(self.output_path, relative)
        if self.previous is not None:
            old = self._joined(self.previous, relative)
            if _holds(old, data):
                if self.in_place:
                    return relative
                self._folder(target)
                try:
                    os.link(old, target)
                    return relative
                except OSError:  # another file system, or links not allowed: write it
                    pass
        self._folder(target)
        if self.in_place:
            _unlink_link(target)
        _write(target, [data])
        return relative

    def write_pieces(self, relative: str, pieces: Iterable[bytes]) -> str:
        """Write a file given in pieces (leaderboard.json), never held whole; always written."""
        target = sanitised_join(self.output_path, relative)
        self._folder(target)
        if self.in_place:
            _unlink_link(target)
        _write(target, pieces)
        return relative

    def _joined(self, root: str, relative: str) -> str:
        """``sanitised_join(root, relative)``, the folder of ``relative`` sanitised once for all the
        files written into it."""
        folder, _, name = relative.rpartition("/")
        if name in ("", ".", ".."):
            return sanitised_join(root, relative)
        key = (root, folder)
        joined = self._joined_folders.get(key)
        if joined is None:
            joined = self._joined_folders[key] = sanitised_join(root, folder) if folder else os.path.abspath(root)
        return os.path.join(joined, name)

    def _folder(self, target: str) -> None:
        folder = os.path.dirname(target)
        if folder not in self._folders:
            os.makedirs(folder, exist_ok=True)
            self._folders.add(folder)

    def announce(self, pages: Iterable[Any], context: dict[str, Any]) -> None:
        """Send ``content_written`` for each HTML page, as Pelican's writer sends it: the absolute
        path, and the context with the page object as ``page``. Scripts, style sheets and data
        files are copied like Pelican's static files, without it."""
        for page in pages:
            relative = page.save_as
            path = os.path.join(self.output_path, relative.replace("/", os.sep))
            # A copy of the context per page, as Pelican's writer makes one: a plain dict, whose
            # lookups (a sitemap's context.get("page")) cost a fraction of a ChainMap's.
            signals.content_written.send(path, context={**context, "output_file": relative, "page": page})


def _holds(path: str, data: bytes) -> bool:
    """Whether ``path`` is a regular file (not a link) holding exactly ``data``."""
    try:
        descriptor = os.open(path, _READ_FLAGS)
    except OSError:
        return False
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode) or status.st_size != len(data):
            return False
        return os.read(descriptor, len(data) + 1) == data
    except OSError:
        return False
    finally:
        os.close(descriptor)


def _unlink_link(path: str) -> None:
    # Rendering in place, a link where a file goes is replaced, never written through.
    if os.path.islink(path):
        os.unlink(path)


def _write(target: str, pieces: Iterable[bytes]) -> None:
    descriptor = os.open(target, _WRITE_FLAGS, 0o666)
    try:
        for piece in pieces:
            view = memoryview(piece)
            while view:
                view = view[os.write(descriptor, view):]
    except OSError as error:  # a full disk, say: the error names the file it was writing
        raise OSError(error.errno, error.strerror, target) from None
    finally:
        os.close(descriptor)
