"""The writer: a file whose bytes equal the previous render's is linked from there (or, rendering in
place, left as it is), whether it is given whole or in pieces; otherwise it is written; a link where
a file goes is replaced, never written through."""

from __future__ import annotations

import os

from conftest import report, run_invoke

from benchmark_leaderboard.write.writer import SiteWriter

PIECES = [b'{"rows": [', b"1, 2", b"]}\n"]


def write_both(site: SiteWriter, relative: str, pieces: list[bytes]) -> None:
    site.write_pieces(relative, iter(pieces))
    site.write(relative.replace(".json", ".bin"), b"".join(pieces))


def test_unchanged_files_are_linked_from_the_previous_render_and_changed_ones_written(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    first = SiteWriter(str(old))
    write_both(first, "a/b/same.json", PIECES)
    write_both(first, "a/b/changed.json", PIECES)
    write_both(first, "shorter.json", PIECES)
    first.close()

    site = SiteWriter(str(new), previous=str(old))
    write_both(site, "a/b/same.json", PIECES)
    write_both(site, "a/b/changed.json", [b'{"rows": [', b"1, 3", b"]}\n"])
    write_both(site, "shorter.json", PIECES[:2])
    write_both(site, "a/fresh.json", PIECES)
    site.close()

    for name in ("a/b/same.json", "a/b/same.bin"):
        assert (new / name).stat().st_ino == (old / name).stat().st_ino
    for name in ("a/b/changed.json", "a/b/changed.bin", "shorter.json", "shorter.bin"):
        assert (new / name).stat().st_ino != (old / name).stat().st_ino
        assert (old / name).read_bytes() == b"".join(PIECES)  # the previous render is left as it was
    assert (new / "a/b/changed.json").read_bytes() == b'{"rows": [1, 3]}\n'
    assert (new / "shorter.json").read_bytes() == b'{"rows": [1, 2'
    assert (new / "a/fresh.json").read_bytes() == b"".join(PIECES)
    assert sorted(os.listdir(new / "a" / "b")) == ["changed.bin", "changed.json", "same.bin", "same.json"]


def test_in_place_an_unchanged_file_is_left_alone_a_changed_one_replaced_and_a_link_not_written_through(tmp_path):
    site_path = tmp_path / "site"
    first = SiteWriter(str(site_path))
    write_both(first, "same.json", PIECES)
    write_both(first, "changed.json", PIECES)
    first.close()
    outside = tmp_path / "outside.json"
    outside.write_bytes(b"not the site's\n")
    os.symlink(outside, site_path / "linked.json")
    os.symlink(outside, site_path / "linked.bin")
    inode = (site_path / "same.json").stat().st_ino

    site = SiteWriter(str(site_path), previous=str(site_path))
    write_both(site, "same.json", PIECES)
    write_both(site, "changed.json", [b"new\n"])
    write_both(site, "linked.json", PIECES)
    site.close()

    assert (site_path / "same.json").stat().st_ino == inode
    assert (site_path / "changed.json").read_bytes() == (site_path / "changed.bin").read_bytes() == b"new\n"
    for name in ("linked.json", "linked.bin"):
        assert not (site_path / name).is_symlink() and (site_path / name).read_bytes() == b"".join(PIECES)
    assert outside.read_bytes() == b"not the site's\n"
    assert sorted(os.listdir(site_path)) == ["changed.bin", "changed.json", "linked.bin", "linked.json",
                                             "same.bin", "same.json"]  # no temporary file is left


def test_a_rebuild_links_the_index_the_leaderboard_and_the_csvs_from_the_previous_render(archive, tmp_path):
    reports = archive({"a.report.json": report(), "b.report.json": report(model_name="OpenMed/b")})
    output = tmp_path / "site"
    build = ("build", "--reports-dir", str(reports), "--output-dir", str(output), "--release-tag", "v1.0.0")
    assert run_invoke(*build).returncode == 0
    names = ["index.html", "leaderboard.json", "leaderboard.csv", "leaderboard-data.js", "reports/a.report.json",
             "report/a.report.html"]
    names += sorted("suites/" + name for name in os.listdir(output / "suites"))
    before = {name: (output / name).stat().st_ino for name in names}
    assert run_invoke(*build).returncode == 0
    assert {name: (output / name).stat().st_ino for name in names} == before


def test_a_writer_holding_its_most_folders_closes_the_first_it_opened_and_still_writes_everywhere(tmp_path, monkeypatch):
    from benchmark_leaderboard.write import writer

    monkeypatch.setattr(writer, "_MAX_FOLDERS", 2)
    open_before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    site = SiteWriter(str(tmp_path / "site"))
    for round_ in range(2):
        for folder in ("a", "b", "c"):
            site.write(f"{folder}/{round_}.txt", folder.encode())
            assert len(site._descriptors) <= 2
    site.close()
    assert sorted(str(path.relative_to(tmp_path / "site")) for path in (tmp_path / "site").rglob("*.txt")) == [
        "a/0.txt", "a/1.txt", "b/0.txt", "b/1.txt", "c/0.txt", "c/1.txt"]
    if open_before is not None:
        assert len(os.listdir("/proc/self/fd")) == open_before  # every folder's descriptor is closed
