"""The one safe read of a file the build did not write (regular_file.py): a regular file's bytes, and
nothing else read, waited on or followed; a cap that is never read past."""

from __future__ import annotations

import os

import pytest

from benchmark_leaderboard.regular_file import NotRegular, TooLarge, read_regular


def test_a_regular_file_is_read_whole_and_up_to_its_cap(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b"x" * 3000)

    assert read_regular(str(path)) == b"x" * 3000
    assert read_regular(str(path), 3000) == b"x" * 3000
    with pytest.raises(TooLarge):
        read_regular(str(path), 2999)


def test_a_fifo_a_folder_and_a_link_are_refused_without_waiting_or_following(tmp_path):
    os.mkfifo(tmp_path / "fifo")  # opening it for reading would wait for a writer
    (tmp_path / "target").write_bytes(b"target\n")
    os.symlink(tmp_path / "target", tmp_path / "link")

    with pytest.raises(NotRegular) as fifo:
        read_regular(str(tmp_path / "fifo"))
    with pytest.raises(NotRegular) as folder:
        read_regular(str(tmp_path))
    with pytest.raises(OSError) as link:
        read_regular(str(tmp_path / "link"))

    assert (fifo.value.kind, folder.value.kind) == ("a FIFO", "a folder")
    assert not isinstance(link.value, NotRegular)  # the open itself refused to follow it
    assert read_regular(str(tmp_path / "link"), follow_links=True) == b"target\n"
