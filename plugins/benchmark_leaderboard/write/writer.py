"""Write: the one place where the plugin's files reach the output folder, Pelican's writer.

``SiteWriter`` is the ``pelican.writers.Writer`` of every build the plugin runs in (Pelican's
``get_writer`` signal supplies it): Pelican's own pages go through its ``write_file`` as ever, and
the leaderboard's files through ``write``, ``write_pieces`` and ``replace``; either way a path is
written once a build (``FileOverwriteFailedError`` on a second time, as Pelican's writer refuses),
and a link where a file goes is replaced, never written through.

Every path is joined with Pelican's ``sanitised_join`` (nothing lands outside the output). A file
whose bytes equal the previous render's is not created again: it is linked from there (or, when the
previous render is the output itself, left as it is). That holds for a file given whole and for one
given in pieces (leaderboard.json, the index, the CSVs): the pieces are compared with the previous
render's file as they are written. Worker processes write with this class too; ``announce`` then
sends Pelican's ``content_written`` for every HTML page with its page object, in the build's own
process, where other plugins (a sitemap, a search index) listen.

A folder is made and opened once, and its files are created, read and linked relative to its
descriptor (``dir_fd``): no path is walked again and no folder made or looked up for each file."""

from __future__ import annotations

import os
import stat
from typing import Any, Iterable

from pelican import signals
from pelican.utils import sanitised_join
from pelican.writers import FileOverwriteFailedError, Writer

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_READ_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
# O_NOFOLLOW: rendering in place, a link where a file goes is replaced (see _create), never written through.
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW | getattr(os, "O_BINARY", 0)
_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
# Folders held open at once by one writer (well below the usual limit of 1,024 descriptors);
# beyond, the one opened first is closed.
_MAX_FOLDERS = 256
_NOT_FILES = frozenset(("", ".", ".."))


class SiteWriter(Writer):
    def __init__(self, output_path: str, settings: dict[str, Any] | None = None, previous: str | None = None,
                 keep_unchanged: bool = False, previous_digests: dict[str, str] | None = None,
                 previous_time: int | None = None) -> None:
        super().__init__(os.path.abspath(output_path), settings)
        self._descriptors: dict[tuple[str, str], int | None] = {}
        # What this build wrote or kept of the leaderboard's, by its path relative to the output (with
        # "/"); Pelican's own pages stay in its ``_written_files``, by their absolute paths.
        self._claimed: set[str] = set()
        self.prepare(previous, keep_unchanged, previous_digests, previous_time)

    def prepare(self, previous: str | None = None, keep_unchanged: bool = False,
                previous_digests: dict[str, str] | None = None, previous_time: int | None = None) -> None:
        """What this build's render is made beside: the previous render (the output itself, when
        rendering in place), what each of its files was made from and when its marker last changed."""
        self.previous = os.path.abspath(previous) if previous else None
        self.in_place = self.previous == self.output_path
        # Rendering beside the previous render for a runner that moves what changed into it: a file
        # made of what the previous one was made of is neither written nor linked (``unchanged``).
        self.keep_unchanged = keep_unchanged
        # What each of the previous render's files was made from (its marker's digests), and when that
        # marker was last changed (its ctime, in ns): ``unchanged`` trusts only files older than it.
        self.previous_digests = previous_digests or {}
        self.previous_time = previous_time
        # The files this writer did not create again: linked from the previous render, or left in place.
        self.linked = 0

    def _open_w(self, filename: str, encoding: str, override: bool = False):
        """Pelican's own pages (``write_file``): a link where a page goes is replaced, never written
        through, and a path the leaderboard wrote is refused as Pelican refuses its own twice."""
        relative = os.path.relpath(os.path.abspath(filename), self.output_path).replace(os.sep, "/")
        if relative in self._claimed:
            raise FileOverwriteFailedError(f'Failed to overwrite "{filename}" as this build has already written it')
        if os.path.islink(filename):
            os.unlink(filename)
        return super()._open_w(filename, encoding, override)

    def _claim(self, relative: str) -> None:
        """Note that this build writes ``relative``; a second time stops it, as Pelican's writer does."""
        if relative in self._claimed:
            raise FileOverwriteFailedError(f'Failed to overwrite "{self._shown(relative)}" as this build has already '
                                           'written it')
        self._claimed.add(relative)

    def claim(self, relatives: Iterable[str]) -> None:
        """Note the files another process of this build wrote (a worker's), as ``_claim`` does."""
        for relative in relatives:
            self._claim(relative)

    def unchanged(self, relative: str, digest: str | None) -> bool:
        """Whether the file ``relative`` need not be made: the previous render made it of the same
        inputs (``digest``, its marker's) and it is still the file that render left. A file's
        change time (ctime) is set by the system whenever its bytes, its name or its links change,
        and no program can set it back, so a file whose ctime is older than the marker's (written
        after every file of its render) is still as that render left it; one changed, replaced or
        restored since is not, and is made again (so is one of the marker's own clock tick). When it
        need not be made, it is kept: left in place, linked from the previous render, or, for a
        runner that moves only what changed (``keep_unchanged``), left to the runner."""
        if digest is None or self.previous is None or self.previous_digests.get(relative) != digest:
            return False
        if relative in self._claimed:
            raise FileOverwriteFailedError(f'Failed to overwrite "{self._shown(relative)}" as this build has already '
                                           'written it')
        folder, _, name = relative.rpartition("/")
        old = self._descriptor(self.previous, folder, make=False)
        if old is None:
            return False
        try:
            status = os.stat(name, dir_fd=old, follow_symlinks=False)
        except OSError:
            return False
        if not stat.S_ISREG(status.st_mode) or self.previous_time is None or status.st_ctime_ns >= self.previous_time:
            return False
        if not (self.in_place or self.keep_unchanged):
            try:
                os.link(name, name, src_dir_fd=old, dst_dir_fd=self._descriptor(self.output_path, folder))
            except OSError:  # another file system, or links not allowed: it is made again
                return False
        self._claimed.add(relative)
        self.linked += 1
        return True

    def keep_unchanged_files(self, digests: dict[str, str | None]) -> list[str]:
        """Keep every file of ``digests`` (each output's, by its path) that ``unchanged`` says need
        not be made, and return their paths, in the order given. The previous render's digests are
        let go then: every other file of the build is made, and they are not kept in memory while
        it is."""
        kept = [relative for relative, digest in digests.items() if self.unchanged(relative, digest)]
        self.previous_digests = {}
        return kept

    def write(self, relative: str, data: bytes) -> str:
        """Write ``data`` as ``relative`` (a POSIX path inside the output); returns ``relative``."""
        folder, _, name = relative.rpartition("/")
        if name in _NOT_FILES:
            raise ValueError(f"not a file's path: {relative!r}")
        self._claim(relative)
        if self.previous is not None:
            old = self._descriptor(self.previous, folder, make=False)
            if old is not None and _holds(name, old, data):
                if self.in_place or self.keep_unchanged:
                    self.linked += 1
                    return relative
                target = self._descriptor(self.output_path, folder)
                try:
                    os.link(name, name, src_dir_fd=old, dst_dir_fd=target)
                    self.linked += 1
                    return relative
                except OSError:  # another file system, or links not allowed: write it
                    pass
        try:
            _write(self._descriptor(self.output_path, folder), name, (data,))
        except OSError as error:  # a full disk, say: the error names the file it was writing
            raise OSError(error.errno, error.strerror, self._shown(relative)) from None
        return relative

    def replace(self, relative: str, data: bytes) -> str:
        """Write ``data`` as ``relative`` whatever the previous render holds there: under a name of
        its own, then renamed over it, so that the file is new (the render's marker, whose change
        time the next render compares every file's with: ``unchanged``)."""
        folder, _, name = relative.rpartition("/")
        self._claim(relative)
        target = self._descriptor(self.output_path, folder)
        written = f".{name}.{os.getpid()}.new"
        try:
            _write(target, written, (data,))
            os.rename(written, name, src_dir_fd=target, dst_dir_fd=target)
        except OSError as error:
            try:
                os.unlink(written, dir_fd=target)
            except OSError:
                pass
            raise OSError(error.errno, error.strerror, self._shown(relative)) from None
        return relative

    def write_pieces(self, relative: str, pieces: Iterable[bytes]) -> str:
        """Write a file given in pieces (leaderboard.json, the index), never held whole. When the
        pieces turn out to be the previous render's file, byte for byte, that file is kept (in
        place) or linked, as ``write`` does."""
        folder, _, name = relative.rpartition("/")
        if name in _NOT_FILES:
            raise ValueError(f"not a file's path: {relative!r}")
        self._claim(relative)
        target = self._descriptor(self.output_path, folder)
        old = self._descriptor(self.previous, folder, make=False) if self.previous is not None else None
        if old is None:
            try:
                _write(target, name, pieces)
            except OSError as error:
                raise OSError(error.errno, error.strerror, self._shown(relative)) from None
            return relative
        beside = self.in_place or self.keep_unchanged
        # In place, the new bytes go to a name of their own beside the old file, which they replace
        # unless they are its bytes; elsewhere, to the file's name, replaced by a link to the old
        # file if they are its bytes.
        written = f".{name}.{os.getpid()}.new" if beside else name
        try:
            try:
                same = _write(target, written, pieces, _Compared(name, old))
            except OSError as error:
                raise OSError(error.errno, error.strerror, self._shown(relative)) from None
            if beside:
                if same:
                    os.unlink(written, dir_fd=target)
                    self.linked += 1
                else:
                    os.rename(written, name, src_dir_fd=target, dst_dir_fd=target)
            elif same:
                linked = f".{name}.{os.getpid()}.link"
                try:
                    os.link(name, linked, src_dir_fd=old, dst_dir_fd=target)
                except OSError:  # another file system, or links not allowed: the written file stays
                    pass
                else:
                    os.rename(linked, name, src_dir_fd=target, dst_dir_fd=target)
                    self.linked += 1
        except BaseException:
            if beside:
                try:
                    os.unlink(written, dir_fd=target)
                except OSError:
                    pass
            raise
        return relative

    def close(self) -> None:
        """Close the folders' descriptors this writer holds. A forked worker holds copies of the
        ones its parent had opened: closing them there leaves the parent's open."""
        descriptors, self._descriptors = self._descriptors, {}
        for descriptor in descriptors.values():
            if descriptor is not None:
                os.close(descriptor)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def _shown(self, relative: str) -> str:
        return os.path.join(self.output_path, *relative.split("/"))

    def _descriptor(self, root: str, folder: str, make: bool = True) -> int | None:
        """The descriptor of ``folder`` (sanitised once) below ``root``, made if ``make``; None when
        it is not there and not to be made."""
        key = (root, folder)
        descriptors = self._descriptors
        if key in descriptors:
            descriptor = descriptors[key]
            if descriptor is not None or not make:
                return descriptor
        path = sanitised_join(root, folder) if folder else root
        if make:
            os.makedirs(path, exist_ok=True)
        try:
            descriptor = os.open(path, _FOLDER_FLAGS)
        except OSError:
            if make:
                raise
            descriptor = None
        if len(descriptors) >= _MAX_FOLDERS:
            held = descriptors.pop(next(iter(descriptors)))
            if held is not None:
                os.close(held)
        descriptors[key] = descriptor
        return descriptor

    def announce(self, pages: Iterable[Any], context: dict[str, Any]) -> None:
        """Send ``content_written`` for each HTML page, as Pelican's writer sends it: the absolute
        path, and the context with the page object as ``page`` (a page kept from the previous
        render too: it is this render's file). Scripts, style sheets and data files are copied like
        Pelican's static files, without it."""
        for page in pages:
            relative = page.save_as
            path = os.path.join(self.output_path, relative.replace("/", os.sep))
            # A copy of the context per page, as Pelican's writer makes one: a plain dict, whose
            # lookups (a sitemap's context.get("page")) cost a fraction of a ChainMap's.
            signals.content_written.send(path, context={**context, "output_file": relative, "page": page})


def _holds(name: str, folder: int, data: bytes) -> bool:
    """Whether ``name`` in ``folder`` is a regular file (not a link) holding exactly ``data``."""
    try:
        descriptor = os.open(name, _READ_FLAGS, dir_fd=folder)
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


class _Compared:
    """The previous render's file, read alongside what is written, for as long as the two agree."""

    def __init__(self, name: str, folder: int) -> None:
        try:
            self.descriptor: int | None = os.open(name, _READ_FLAGS, dir_fd=folder)
            if not stat.S_ISREG(os.fstat(self.descriptor).st_mode):
                self.stop()
        except OSError:
            self.descriptor = None

    def agrees(self, piece: bytes | memoryview) -> bool:
        """Whether the old file goes on with ``piece``; once it does not, it is not read again."""
        if self.descriptor is None:
            return False
        try:
            same = _read(self.descriptor, len(piece)) == piece
        except OSError:
            same = False
        if not same:
            self.stop()
        return same

    def ended(self) -> bool:
        """Whether the old file ended where the new one did (and agreed all along)."""
        if self.descriptor is None:
            return False
        try:
            return os.read(self.descriptor, 1) == b""
        except OSError:
            return False
        finally:
            self.stop()

    def stop(self) -> None:
        if self.descriptor is not None:
            os.close(self.descriptor)
            self.descriptor = None


def _read(descriptor: int, size: int) -> bytes:
    parts, left = [], size
    while left:
        part = os.read(descriptor, min(left, 1 << 20))
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _create(folder: int, name: str) -> int:
    try:
        return os.open(name, _WRITE_FLAGS, 0o666, dir_fd=folder)
    except OSError:
        # Rendering in place, a link where a file goes is replaced, never written through.
        try:
            is_link = stat.S_ISLNK(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode)
        except OSError:
            is_link = False
        if not is_link:
            raise
        os.unlink(name, dir_fd=folder)
        return os.open(name, _WRITE_FLAGS, 0o666, dir_fd=folder)


def _write(folder: int, name: str, pieces: Iterable[bytes], compared: _Compared | None = None) -> bool:
    """Write ``pieces`` as ``name`` in ``folder``; returns whether they were ``compared``'s file,
    byte for byte."""
    descriptor = _create(folder, name)
    try:
        for piece in pieces:
            view = memoryview(piece)
            if compared is not None and not compared.agrees(view):
                compared = None
            while view:
                view = view[os.write(descriptor, view):]
    except BaseException:
        if compared is not None:
            compared.stop()
        raise
    finally:
        os.close(descriptor)
    return compared is not None and compared.ended()
