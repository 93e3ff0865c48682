"""The one safe read of a file the build did not write (a report, the signature bundle, the output's
marker, a release's files): only a regular file is read, opened without following a link (unless
asked) or waiting on a FIFO, checked again once open (it may have been swapped since it was listed),
and never past a size cap when one is given."""

from __future__ import annotations

import errno
import os
import stat

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def kind_of(mode: int) -> str | None:
    """What a file of ``mode`` is, in words ("a FIFO"), when it is not a regular file; else None."""
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


class NotRegular(OSError):
    """What was opened is not a regular file: ``mode`` is its status's, ``kind`` its words."""

    def __init__(self, path: str, mode: int) -> None:
        self.mode = mode
        self.kind = kind_of(mode) or "not a regular file"
        super().__init__(errno.EINVAL, "not a regular file", path)


class TooLarge(OSError):
    """The file holds more than the bytes its reader allows."""


def opened(path: str, follow_links: bool = False, dir_fd: int | None = None) -> tuple[int, os.stat_result]:
    """A descriptor of the regular file at ``path`` and its status. A link is not followed (the open
    fails) unless ``follow_links``; a FIFO does not make the open wait; anything but a regular file
    raises ``NotRegular`` (a folder too), after its descriptor is closed."""
    descriptor = os.open(path, _FLAGS | (0 if follow_links else _NOFOLLOW), dir_fd=dir_fd)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise NotRegular(path, status.st_mode)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor, status


def read_opened(descriptor: int, size: int, limit: int | None = None) -> bytes:
    """The rest of an open regular file whose status gave ``size``: one read when it did not grow
    (asked for a byte more than its size, a regular file answers short only at its end), on to its
    end when it did. ``TooLarge`` when it holds more than ``limit`` bytes, read no further than
    that."""
    if limit is not None and size > limit:
        raise TooLarge(f"holds more than {limit} bytes")
    wanted = size + 1 if limit is None else min(size, limit) + 1
    data = os.read(descriptor, wanted)
    if len(data) < wanted:
        return data
    chunks, held = [data], len(data)
    while limit is None or held <= limit:
        chunk = os.read(descriptor, 1 << 20 if limit is None else min(1 << 20, limit + 1 - held))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        held += len(chunk)
    raise TooLarge(f"holds more than {limit} bytes")


def read_regular(path: str, limit: int | None = None, follow_links: bool = False) -> bytes:
    """The bytes of the regular file at ``path`` (``opened``, then ``read_opened``); raises ``OSError``:
    ``NotRegular``, ``TooLarge`` or the system's."""
    descriptor, status = opened(path, follow_links)
    try:
        return read_opened(descriptor, status.st_size, limit)
    finally:
        os.close(descriptor)
