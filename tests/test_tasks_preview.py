"""`invoke serve`, `invoke livereload` and `invoke clean`, as a user runs them: real HTTP on loopback."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from conftest import ROOT, report, run_invoke, write_archive
from tasks_support import RunningTask, get, small_archive

from leaderboard_tools import preview

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def start(task: str, tmp_path: Path, reports: Path, *extra: str) -> tuple[RunningTask, str]:
    running = RunningTask(task, "--port", "0", "--reports-dir", str(reports), "--manifest", str(tmp_path / "none.jsonl"),
                          "--output-dir", str(tmp_path / "out"), "--release-tag", "v1.0.0", *extra, cwd=tmp_path)
    url = running.wait_for(r"^serving \S+ at (http://127\.0\.0\.1:\d+/) \(Ctrl-C stops\)$").group(1)
    return running, url


def model_names(url: str) -> list[str]:
    status, _, body = get(url + "leaderboard.json")
    assert status == 200
    return [row["model_name"] for row in json.loads(body)["rows"]]


def generation(url: str) -> str:
    return json.loads(get(url + "__livereload")[2])["generation"]


def rename_model(reports: Path, relative: str, name: str) -> None:
    path = reports / relative
    payload = json.loads(path.read_text(encoding="utf-8"))
    payload["model_name"] = name
    path.write_text(json.dumps(payload, indent=2), encoding="utf-8")


def test_serve_builds_and_answers_over_http_on_loopback(tmp_path, archive):
    reports = archive(small_archive())
    running, url = start("serve", tmp_path, reports)
    try:
        status, headers, body = get(url)
        assert status == 200 and headers["Content-Type"] == "text/html"
        assert body == (tmp_path / "out/index.html").read_bytes()
        assert headers["Content-Security-Policy"] == "default-src 'self'"
        assert model_names(url) == ["OpenMed/model-b", "OpenMed/model-a"]
        status, headers, body = get(url + "reports/golden/a.report.json")
        assert status == 200 and headers["Content-Type"] == "application/json"
        assert get(url + "theme/leaderboard.css")[0] == 200
        assert get(url + "missing.html")[0] == 404
        # A plain build has no live-reload script and the plain server no live-reload endpoint.
        assert b"livereload" not in get(url)[2]
        assert get(url + "__livereload")[0] == 404
    finally:
        assert running.stop() == 130  # Ctrl-C: interrupted (exits.py)
    assert running.wait_for("^stopped$")


def test_serve_refuses_an_address_that_is_not_loopback(tmp_path, archive):
    reports = archive(small_archive())
    result = run_invoke("--search-root", str(ROOT), "serve", "--bind", "0.0.0.0", "--reports-dir", str(reports),
                        "--output-dir", str(tmp_path / "out"), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == ("serve refused: --bind 0.0.0.0 is not a loopback address; the preview listens "
                                     "on loopback only (127.0.0.1, ::1 or localhost)")
    assert not (tmp_path / "out").exists()


def test_serve_refuses_a_broken_archive_with_its_problems(tmp_path, archive):
    reports = archive({**small_archive(), "golden/bad.report.json": report(metadata={"synthetic": "true"})})
    result = run_invoke("--search-root", str(ROOT), "serve", "--port", "0", "--reports-dir", str(reports),
                        "--output-dir", str(tmp_path / "out"), cwd=tmp_path)
    assert result.returncode == 1
    assert "golden/bad.report.json: /metadata/synthetic: " in result.stderr
    assert "serving" not in result.stderr


def test_livereload_rebuilds_after_an_edit_and_survives_a_bad_one(tmp_path, archive):
    reports = archive(small_archive())
    running, url = start("livereload", tmp_path, reports)
    try:
        assert model_names(url) == ["OpenMed/model-b", "OpenMed/model-a"]
        page = get(url)[2].decode("utf-8")
        assert '<script src="./theme/livereload.js"></script>' in page
        assert get(url + "theme/livereload.js")[0] == 200
        first = generation(url)

        rename_model(reports, "golden/a.report.json", "OpenMed/model-edited")
        running.wait_for("^rebuilt; open pages reload$")
        assert model_names(url) == ["OpenMed/model-b", "OpenMed/model-edited"]
        second = generation(url)
        assert second != first

        (reports / "golden/a.report.json").write_text("{not json", encoding="utf-8")
        running.wait_for(r"^golden/a\.report\.json: .*JSON")
        running.wait_for(f"^the build failed; still serving the last good site in {tmp_path / 'out'}$")
        assert model_names(url) == ["OpenMed/model-b", "OpenMed/model-edited"]
        assert generation(url) == second  # open pages keep showing the last good site

        write_archive(reports, {"golden/a.report.json": report(model_name="OpenMed/model-fixed")})
        running.wait_for("^rebuilt; open pages reload$")
        assert model_names(url) == ["OpenMed/model-b", "OpenMed/model-fixed"]
        assert generation(url) not in (first, second)
    finally:
        assert running.stop() == 130  # Ctrl-C: interrupted (exits.py)


def test_livereload_picks_up_a_new_report_and_a_manifest_change(tmp_path, archive):
    bare = report(model_name="OpenMed/model-m")
    del bare["metadata"]["model_family"]
    reports = archive(small_archive())
    manifest = tmp_path / "models.jsonl"
    manifest.write_text(json.dumps({"repo_id": "OpenMed/model-m", "family": "Manifest"}) + "\n", encoding="utf-8")
    running = RunningTask("livereload", "--port", "0", "--reports-dir", str(reports), "--manifest", str(manifest),
                          "--output-dir", str(tmp_path / "out"), cwd=tmp_path)
    url = running.wait_for(r"at (http://\S+) ").group(1)
    try:
        write_archive(reports, {"golden/m.report.json": bare})
        running.wait_for("^rebuilt; open pages reload$")
        rows = json.loads(get(url + "leaderboard.json")[2])["rows"]
        assert {row["model_name"]: row["model_family"] for row in rows}["OpenMed/model-m"] == "Manifest"

        manifest.write_text(json.dumps({"repo_id": "OpenMed/model-m", "family": "Renamed"}) + "\n", encoding="utf-8")
        running.wait_for("^rebuilt; open pages reload$")
        rows = json.loads(get(url + "leaderboard.json")[2])["rows"]
        assert {row["model_name"]: row["model_family"] for row in rows}["OpenMed/model-m"] == "Renamed"
    finally:
        assert running.stop() == 130  # Ctrl-C: interrupted (exits.py)


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Chromium is not installed (make test installs it)")
def test_the_open_page_reloads_itself_after_an_edit(tmp_path, archive):
    from playwright.sync_api import sync_playwright

    reports = archive(small_archive())
    running, url = start("livereload", tmp_path, reports)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page()
            blocked: list[str] = []
            page.on("console", lambda message: blocked.append(message.text)
                    if "Content Security Policy" in message.text else None)
            page.goto(url)
            assert page.get_by_text("OpenMed/model-a").count() > 0
            page.wait_for_timeout(700)  # the script has asked the server once
            rename_model(reports, "golden/a.report.json", "OpenMed/model-live")
            # The model's link in its family table (the chart's hidden <title> names it too).
            page.get_by_role("link", name="OpenMed/model-live", exact=True).first.wait_for(timeout=30_000)
            assert page.get_by_text("OpenMed/model-a").count() == 0
            assert blocked == []
            browser.close()
    finally:
        assert running.stop() == 130  # Ctrl-C: interrupted (exits.py)


def test_clean_removes_the_output_and_half_swapped_renders(tmp_path, archive):
    reports = archive(small_archive())
    output = tmp_path / "out"
    assert run_invoke("--search-root", str(ROOT), "build", "--reports-dir", str(reports), "--output-dir", str(output),
                      cwd=tmp_path).returncode == 0
    (tmp_path / ".out.new-0123456789ab").mkdir()  # a staging folder a killed build left
    (tmp_path / "keep.txt").write_text("mine", encoding="utf-8")
    result = run_invoke("--search-root", str(ROOT), "clean", "--output-dir", str(output), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["keep.txt", "reports"]
    again = run_invoke("--search-root", str(ROOT), "clean", "--output-dir", str(output), cwd=tmp_path)
    assert again.returncode == 0
    assert f"nothing to remove: {output} does not exist" in again.stderr


def test_clean_leaves_a_folder_that_is_not_a_render_and_refuses_one_the_build_reads(tmp_path):
    folder = tmp_path / "documents"
    folder.mkdir()
    (folder / "notes.txt").write_text("precious", encoding="utf-8")
    result = run_invoke("--search-root", str(ROOT), "clean", "--output-dir", str(folder), cwd=tmp_path)
    # No render there: nothing to remove, and nothing is.
    assert (result.returncode, result.stderr.splitlines()) == (
        0, [f"nothing to remove: {folder} holds no render of this site; its 1 entry stays: notes.txt"])
    assert [path.name for path in folder.iterdir()] == ["notes.txt"]
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "precious"
    project = run_invoke("--search-root", str(ROOT), "clean", "--output-dir", str(ROOT.parent), cwd=tmp_path)
    assert (project.returncode, project.stderr.strip()) == (2, f"output refused: {ROOT.parent} contains {ROOT / 'content'}, "
                                                            "a folder the build reads; the output must be a folder of its own")


@pytest.mark.parametrize("bind, allowed", [("127.0.0.1", True), ("127.0.0.2", True), ("::1", True), ("localhost", True),
                                           ("0.0.0.0", False), ("::", False), ("192.168.1.4", False), ("example.org", False)])
def test_only_loopback_addresses_are_allowed(bind, allowed):
    assert (preview.loopback_problem(bind) is None) is allowed


def next_changes(changes: preview.Watch, timeout: float = 10) -> list[str]:
    """The watcher's next batch; fails instead of waiting for ever when none comes."""
    batch: list[list[str]] = []
    worker = threading.Thread(target=lambda: batch.append(next(changes)), daemon=True)
    worker.start()
    worker.join(timeout)
    assert batch, f"the watcher reported nothing within {timeout} s"
    return batch[0]


def watcher_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "preview-watcher"]


def test_the_watcher_sees_edits_additions_and_removals_but_not_the_output(tmp_path):
    watched = write_archive(tmp_path / "site", {"a.json": {}, "theme/b.css": "x", "out/index.html": "y"})
    changes = preview.watch([str(watched)], ignore=[str(watched / "out")])
    try:
        # All made before the first next(): the watching began when watch() returned.
        (watched / "a.json").write_text('{"edited": true}', encoding="utf-8")
        (watched / "theme/b.css").unlink()
        (watched / "c.json").write_text("{}", encoding="utf-8")
        (watched / "out/index.html").write_text("changed", encoding="utf-8")
        write_archive(watched, {"theme/b.css~": "editor backup", "theme/.b.css.swp": "", "notes.tmp": "",
                                "__pycache__/x.cpython-311.pyc": "", ".git/HEAD": "", ".out.new-x1y2/index.html": "a render"})
        assert next_changes(changes) == [str(watched / "a.json"), str(watched / "c.json"), str(watched / "theme/b.css")]
        # Ignored changes and then a new folder: only the folder, and then what is put in it.
        (watched / "out/index.html").unlink()
        (watched / ".out.old-x1y2").mkdir()
        (watched / "theme/icons").mkdir()
        assert next_changes(changes) == [str(watched / "theme/icons")]
        (watched / "theme/icons/x.svg").write_text("<svg/>", encoding="utf-8")
        assert next_changes(changes) == [str(watched / "theme/icons/x.svg")]
    finally:
        changes.close()
    assert watcher_threads() == []


def test_the_watcher_follows_a_file_through_its_folder_and_paths_that_do_not_exist_yet(tmp_path):
    project = write_archive(tmp_path / "project", {"models.jsonl": "", "other.txt": ""})
    manifest = project / "models.jsonl"
    missing, reports, deep = tmp_path / "none.jsonl", tmp_path / "reports", tmp_path / "deep/er/x.json"
    changes = preview.watch([str(manifest), str(missing), str(reports), str(deep)])
    try:
        # Saved the way many editors save: a new file renamed over the old one, then edited in place.
        (project / "models.jsonl.tmp").write_text("{}\n", encoding="utf-8")
        os.replace(project / "models.jsonl.tmp", manifest)
        (project / "other.txt").write_text("not watched", encoding="utf-8")
        assert next_changes(changes) == [str(manifest)]
        manifest.write_text("{}\n{}\n", encoding="utf-8")
        assert next_changes(changes) == [str(manifest)]
        missing.write_text("{}\n", encoding="utf-8")
        assert next_changes(changes) == [str(missing)]
        reports.mkdir()
        assert next_changes(changes) == [str(reports)]
        (reports / "a.report.json").write_text("{}", encoding="utf-8")  # the new folder is watched as a folder
        assert next_changes(changes) == [str(reports / "a.report.json")]
        write_archive(tmp_path, {"deep/er/x.json": {}})
        assert next_changes(changes) == [str(deep)]
        deep.write_text("[]", encoding="utf-8")
        assert next_changes(changes) == [str(deep)]
    finally:
        changes.close()


def test_plain_builds_carry_no_live_reload_script(tmp_path, archive):
    reports = archive(small_archive())
    result = run_invoke("--search-root", str(ROOT), "build", "--reports-dir", str(reports), "--output-dir",
                        str(tmp_path / "out"), cwd=tmp_path)
    assert result.returncode == 0
    for page in (tmp_path / "out").rglob("*.html"):
        assert "livereload" not in page.read_text(encoding="utf-8"), page
    assert not (tmp_path / "out/theme/livereload.js").exists()


def raw_request(url: str, request: bytes, timeout: float = 10) -> bytes:
    """Send ``request`` as is on a fresh connection and read the whole answer."""
    host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=timeout) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


STRICT_HEADERS = (b"Cache-Control: no-store\r\nContent-Security-Policy: default-src 'self'\r\n"
                  b"X-Content-Type-Options: nosniff\r\n")


@pytest.mark.parametrize("task", ["serve", "livereload"])
def test_a_bad_path_gets_400_bad_request_with_the_strict_headers(tmp_path, archive, task):
    reports = archive(small_archive())
    running, url = start(task, tmp_path, reports)
    try:
        for path, why in [(b"/%00", "the path holds a NUL byte"),
                          (b"/index.html%00.txt", "the path holds a NUL byte"),
                          (b"/%ff.html", "the path's escapes do not decode as UTF-8"),
                          (b"/%zz", "the path has a % that does not start a two-digit hexadecimal escape"),
                          (b"/../../etc/passwd", "the path leaves the served folder (..)"),
                          (b"/reports/%2e%2e/%2E%2E/index.html", "the path leaves the served folder (..)")]:
            for method in (b"GET", b"HEAD"):
                answer = raw_request(url, method + b" " + path + b" HTTP/1.1\r\nHost: x\r\n\r\n")
                head, _, body = answer.partition(b"\r\n\r\n")
                assert head.split(b"\r\n")[0] == b"HTTP/1.0 400 Bad Request", (method, path, answer)
                assert STRICT_HEADERS in head + b"\r\n", answer
                assert b"Content-Type: text/plain; charset=utf-8\r\n" in head + b"\r\n"
                assert body == (f"400 Bad Request: {why}\n".encode() if method == b"GET" else b"")
        # The server is still there and still answers good paths.
        assert get(url + "index.html")[0] == 200
        assert get(url + "reports/golden/a.report.json")[0] == 200
    finally:
        assert running.stop() == 130  # Ctrl-C: interrupted (exits.py)
    running.wait_for("^stopped$")
    assert not any("Traceback" in line or "Exception occurred" in line for line in running.lines), running.output()


def test_idle_connections_are_closed_after_the_idle_timeout(tmp_path, archive):
    reports = archive(small_archive())
    running, url = start("serve", tmp_path, reports)
    host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    try:
        # Twenty connections that never send a request, and one that stops half-way through its request line.
        idle = [socket.create_connection((host, int(port))) for _ in range(20)]
        idle[-1].sendall(b"GET /index.ht")
        deadline = time.monotonic() + preview.IDLE_TIMEOUT + 5
        for connection in idle:
            connection.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                assert connection.recv(1024) == b""  # closed by the server, with nothing sent
            finally:
                connection.close()
        assert time.monotonic() < deadline
        assert get(url)[0] == 200
    finally:
        assert running.stop() == 130  # Ctrl-C: interrupted (exits.py)
    running.wait_for("^stopped$")
    assert not any("Traceback" in line or "timed out" in line for line in running.lines), running.output()


def test_the_watcher_only_looks_at_a_fifo_and_never_opens_it(tmp_path):
    watched = write_archive(tmp_path / "site", {"a.json": {}})
    fifo = watched / "x.report.json"
    os.mkfifo(fifo)
    # A folder holding a FIFO, and the FIFO as a watched path of its own (a manifest, say).
    for paths, touched in (([watched], [fifo, watched / "a.json"]), ([fifo], [fifo])):
        started: list[preview.Watch] = []
        worker = threading.Thread(target=lambda: started.append(preview.watch([str(path) for path in paths])), daemon=True)
        worker.start()
        worker.join(timeout=10)  # opening the FIFO for reading would wait for a writer for ever
        assert started, "the watcher hangs on a FIFO"
        try:
            for path in touched:
                os.utime(path)
            assert next_changes(started[0]) == sorted(str(path) for path in touched)
        finally:
            started[0].close()


@pytest.mark.parametrize("target, problem", [
    ("/index.html", None), ("/report/golden/a%20b.report.html?x=%zz#y", None), ("/caf%C3%A9/", None),
    ("/%00", "the path holds a NUL byte"), ("/a%0", "the path has a % that does not start a two-digit hexadecimal escape"),
    ("/%C3", "the path's escapes do not decode as UTF-8"), ("/a/../b", "the path leaves the served folder (..)"),
    ("index.html", "the path does not start with /")])
def test_request_path_problems(target, problem):
    assert preview.request_path_problem(target) == problem


@pytest.mark.parametrize("changed, fresh", [("plugins/x.py", True), ("plugins/newpackage", True),
                                            ("reports/a.report.json", False), ("plugins/notes.txt", False)])
def test_a_rebuild_runs_in_a_fresh_interpreter_once_the_plugins_code_changed(tmp_path, monkeypatch, changed, fresh):
    (tmp_path / "plugins" / "newpackage").mkdir(parents=True)
    ran = []
    monkeypatch.setattr(preview.subprocess, "run", lambda command: ran.append(("fresh", command)) or
                        subprocess.CompletedProcess(command, 0))
    monkeypatch.setattr(preview, "render_once", lambda *args, **options: ran.append(("here", args[-1])) or 0)
    rebuilds = preview.Rebuilds("pelicanconf.py", "out", None, None, None, live=False, code=[str(tmp_path / "plugins")])
    assert rebuilds.run() and rebuilds.run([str(tmp_path / changed)]) and rebuilds.run()
    assert [where for where, _ in ran] == ["here"] + (["fresh", "fresh"] if fresh else ["here", "here"])
    assert ran[0][1] == {"LEADERBOARD_KEEP_READS": True}
