"""Local preview: a loopback HTTP server for the output folder, a file watcher (watchfiles), and the rebuilds.

``invoke serve`` and ``invoke livereload`` use these. A live build adds ``theme/livereload/livereload.js``
to the page (the ``LIVERELOAD`` setting); that script polls ``LIVE_PATH`` on the same origin and reloads
the page when the server reports a new build. Normal and release builds never contain it.

``Rebuilds`` renders after each save in the preview's own process, which keeps what reading each
report made of it (``LEADERBOARD_KEEP_READS``): a save parses again only the files it changed, and
the build makes again only the outputs whose inputs changed; the edited reports' own files are
written first and put where the reader is before the rest of the render is merged. Once the plugin's own code changes,
each rebuild runs in a fresh interpreter instead (``python -m leaderboard_tools.preview --settings
FILE --output-dir DIR [...]`` renders once), so that the edited code is what runs."""

from __future__ import annotations

import argparse
import contextlib
import http.server
import ipaddress
import json
import os
import queue
import re
import secrets
import socket
import stat
import subprocess
import sys
import threading
import urllib.parse
from typing import Iterator

import watchfiles

from benchmark_leaderboard.write.output import within

from .exits import DONE, INTERRUPTED

LIVE_PATH = "/__livereload"
# What a live build adds to the settings: the flag the base template checks, and the folder with the script.
LIVERELOAD_SETTINGS = {"LIVERELOAD": True, "THEME_STATIC_PATHS": ["static", "livereload"]}
# Headers of every answer: nothing is cached (an edit shows on reload) and the page gets only same-origin
# resources, so the preview also proves that the site needs nothing inline and nothing from elsewhere.
PREVIEW_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'self'",
    "X-Content-Type-Options": "nosniff",
}
# How long a connection may stay silent (no request yet, or a client that stopped reading) before it is
# closed. Browsers open spare connections and leave them idle; each holds a thread until then, so the
# limit is short, yet far longer than a loopback request needs.
IDLE_TIMEOUT = 5.0
# A percent sign that does not start an escape of two hexadecimal digits.
_BROKEN_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
# How watchfiles groups a burst of changes (an editor's save, a `git checkout`): a batch is complete once
# nothing more changed for _STEP_MS, or after _DEBOUNCE_MS at the most.
_STEP_MS = 50
_DEBOUNCE_MS = 1600
# How long a watcher waits for a change before it reports that none came: its first report tells ``watch``
# that it watches. Waking that often costs nothing, as watchfiles looks at its stop event every _STEP_MS.
_IDLE_MS = 100


def loopback_problem(bind: str) -> str | None:
    """Why the preview must not listen on ``bind``, or None for a loopback address."""
    if bind == "localhost":
        return None
    try:
        address = ipaddress.ip_address(bind)
    except ValueError:
        return f"--bind {bind} is not an IP address; the preview listens on loopback only (127.0.0.1, ::1 or localhost)"
    if not address.is_loopback:
        return f"--bind {bind} is not a loopback address; the preview listens on loopback only (127.0.0.1, ::1 or localhost)"
    return None


def request_path_problem(target: str) -> str | None:
    """Why the request target ``target`` names no file of the served folder, or None when it may.

    The standard handler drops what it cannot use (``..``, a broken escape) and answers another file
    or a traceback (a NUL byte); the preview says 400 Bad Request instead."""
    path = target.split("?", 1)[0].split("#", 1)[0]
    if _BROKEN_ESCAPE.search(path):
        return "the path has a % that does not start a two-digit hexadecimal escape"
    try:
        decoded = urllib.parse.unquote_to_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        return "the path's escapes do not decode as UTF-8"
    if "\x00" in decoded:
        return "the path holds a NUL byte"
    if not decoded.startswith("/"):
        return "the path does not start with /"
    if ".." in decoded.split("/"):
        return "the path leaves the served folder (..)"
    return None


class PreviewServer(http.server.ThreadingHTTPServer):
    """Serves ``directory`` as it is at each request (a rebuild swaps the folder under the same name)."""

    daemon_threads = True

    def __init__(self, directory: str, bind: str, port: int, live: bool, quiet: bool = False):
        self.address_family = socket.AF_INET6 if ":" in bind else socket.AF_INET
        self.directory = os.path.abspath(directory)
        self.live = live
        self.quiet = quiet
        self._token = secrets.token_hex(4)  # a restarted server never repeats an earlier build's name
        self._builds = 0
        self._lock = threading.Lock()
        super().__init__((bind, port), PreviewHandler)

    @property
    def generation(self) -> str:
        with self._lock:
            return f"{self._token}-{self._builds}"

    def new_build(self) -> None:
        """A rebuild succeeded: open live pages reload on their next poll."""
        with self._lock:
            self._builds += 1

    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"

    def handle_error(self, request, client_address) -> None:
        """One line instead of the standard traceback; a client that went away is no error at all."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        if not self.quiet:
            print(f"preview: the request from {client_address[0]} failed: {type(error).__name__}: {error}"
                  .encode("unicode_escape").decode("ascii"), file=sys.stderr)


class PreviewHandler(http.server.SimpleHTTPRequestHandler):
    server: PreviewServer
    timeout = IDLE_TIMEOUT
    # Errors are one plain line too: the standard page is HTML written in Python code.
    error_message_format = "%(code)d %(message)s: %(explain)s\n"
    error_content_type = "text/plain; charset=utf-8"

    def __init__(self, request, client_address, server):
        super().__init__(request, client_address, server, directory=server.directory)

    def do_HEAD(self) -> None:
        if self._path_refused():
            return
        super().do_HEAD()

    def do_GET(self) -> None:
        if self._path_refused():
            return
        if self.server.live and self.path.split("?", 1)[0] == LIVE_PATH:
            body = json.dumps({"generation": self.server.generation}).encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def _path_refused(self) -> bool:
        problem = request_path_problem(self.path)
        if problem is None:
            return False
        self.send_error(400, "Bad Request", problem)
        return True

    def send_head(self):
        # A FIFO, socket or device is never opened: opening a FIFO waits for a writer, for ever.
        try:
            mode = os.stat(self.translate_path(self.path)).st_mode
        except (OSError, ValueError):
            mode = None
        if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            self.send_error(404, "File not found", "not a regular file")
            return None
        return super().send_head()

    def end_headers(self) -> None:
        for name, value in PREVIEW_HEADERS.items():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        # Live pages poll twice a second, and an idle connection closed is routine: neither is worth a line.
        # A connection that timed out before its request line has no path.
        if self.server.quiet or getattr(self, "path", "").startswith(LIVE_PATH) or format.startswith("Request timed out"):
            return
        super().log_message(format, *args)


def start_server(directory: str, bind: str, port: int, live: bool = False, quiet: bool = False) -> PreviewServer:
    """Listen now (so the port is known) and answer requests in a background thread."""
    server = PreviewServer(directory, bind, port, live, quiet)
    threading.Thread(target=server.serve_forever, name="preview-server", daemon=True).start()
    return server


@contextlib.contextmanager
def serving(directory: str) -> Iterator[str]:
    """Serve ``directory`` quietly on 127.0.0.1 (a free port), with the preview's strict policy,
    for the duration; yields the base URL. The browser tests and the benchmark use it."""
    server = start_server(directory, "127.0.0.1", 0, quiet=True)
    try:
        yield server.url()
    finally:
        server.shutdown()
        server.server_close()


def watch(paths: list[str], ignore: list[str] = ()) -> Watch:
    """Yield the changed paths (absolute, sorted) each time the watched files change and settle.

    ``paths`` are files or folders, and may not exist yet. Folders in ``ignore`` (the output folder, say),
    the renders being swapped in beside them (``.<name>.new-*``, ``.<name>.old-*``) and editor or bytecode
    leftovers are left out. The watching begins now, not at the first ``next``: a change made in between
    is not missed."""
    return Watch(paths, ignore)


class Watch:
    """The iterator ``watch`` returns. A file is watched through its folder, non-recursively: an editor
    that saves by replacing the file would end a watch on the file itself. A missing path is watched
    through its nearest existing folder, non-recursively too, since that folder may be the whole project
    (the output, ``.venv``, ``.git``); once it appears, it is watched as what it is. watchfiles does the
    watching, in a daemon thread for the recursive folders and one for the others; ``close`` stops them."""

    def __init__(self, paths: list[str], ignore: list[str] = ()):
        self.paths = [os.path.abspath(path) for path in paths]
        self.filter = _Ignored(self.paths, [os.path.abspath(folder) for folder in ignore])
        self.batches: queue.Queue = queue.Queue()
        self.present = self._present()
        self.roots = _roots(self.paths)
        self.watchers = self._start(self.roots)

    def __iter__(self) -> Watch:
        return self

    def __next__(self) -> list[str]:
        while True:
            changes = self._take(None)
            while (more := self._take(_STEP_MS / 1000)) is not None:  # the other thread's share of the same burst
                changes |= more
            present = self._present()
            changes |= present ^ self.present  # a path that appeared or went where no watcher saw it
            self.present = present
            roots = _roots(self.paths)
            if roots != self.roots:  # a watched path appeared or went: watch it as what it is now
                started = self._start(roots)
                _stop(self.watchers)
                self.watchers, self.roots = started, roots
            changes = sorted(path for path in changes if any(within(path, wanted) for wanted in self.paths))
            if changes:
                return changes

    def close(self) -> None:
        _stop(self.watchers)
        self.watchers = []

    def _present(self) -> set[str]:
        return {path for path in self.paths if os.path.lexists(path)}

    def _take(self, timeout: float | None) -> set[str] | None:
        """The next batch of changed paths; None when none came within ``timeout`` (None: wait for one)."""
        try:
            batch = self.batches.get(timeout=timeout)
        except queue.Empty:
            return None
        if isinstance(batch, Exception):
            raise batch
        return batch

    def _start(self, roots: tuple[frozenset[str], frozenset[str]]) -> list[tuple[threading.Thread, threading.Event]]:
        """One watcher for the folders watched recursively and one for the others, both watching on return."""
        watchers = []
        try:
            for recursive, folders in zip((True, False), roots):
                if folders:
                    stop, ready = threading.Event(), threading.Event()
                    thread = threading.Thread(target=self._watching, args=(sorted(folders), recursive, stop, ready),
                                              name="preview-watcher", daemon=True)
                    thread.start()
                    watchers.append((thread, stop, ready))
            for _, _, ready in watchers:
                ready.wait()
        except BaseException:  # Ctrl-C while they start: none is left running
            _stop([(thread, stop) for thread, stop, _ in watchers])
            raise
        return [(thread, stop) for thread, stop, _ in watchers]

    def _watching(self, folders: list[str], recursive: bool, stop: threading.Event, ready: threading.Event) -> None:
        # watchfiles starts watching at the first ``next``; its first batch (empty if nothing changed) says it has.
        try:
            for batch in watchfiles.watch(*folders, watch_filter=self.filter, debounce=_DEBOUNCE_MS, step=_STEP_MS,
                                          stop_event=stop, rust_timeout=_IDLE_MS, yield_on_timeout=True,
                                          recursive=recursive, ignore_permission_denied=True):
                ready.set()
                if batch:
                    self.batches.put({path for _, path in batch})
        except Exception as error:  # raised where the changes are read
            self.batches.put(error)
        finally:
            ready.set()


class _Ignored(watchfiles.DefaultFilter):
    """Passes a change at, below or on the way to a watched path, except in a folder to ignore or in a
    render swapped in beside one, and except what watchfiles leaves out by default (bytecode, editor swap
    and backup files, ``__pycache__``, ``.git``, ``.pytest_cache``, ...) and ``.tmp`` files."""

    ignore_entity_patterns = (*watchfiles.DefaultFilter.ignore_entity_patterns, r"\.tmp$")

    def __init__(self, paths: list[str], ignore: list[str]):
        super().__init__()
        self.paths, self.ignored = paths, ignore
        self.beside = tuple(os.path.join(os.path.dirname(folder), f".{os.path.basename(folder)}.{kind}-")
                            for folder in ignore for kind in ("new", "old"))

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        return (super().__call__(change, path)
                and any(within(path, wanted) or within(wanted, path) for wanted in self.paths)
                and not any(within(path, folder) for folder in self.ignored)
                and not path.startswith(self.beside))


def _roots(paths: list[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The folders to watch recursively (the watched folders) and those to watch alone (the folder of
    each other path, or the nearest existing one), none below a folder watched recursively."""
    recursive, alone = set(), set()
    for path in paths:
        if os.path.isdir(path):
            recursive.add(path)
            continue
        folder = os.path.dirname(path)
        while not os.path.isdir(folder):
            folder = os.path.dirname(folder)
        alone.add(folder)
    recursive = {folder for folder in recursive
                 if not any(other != folder and within(folder, other) for other in recursive)}
    return (frozenset(recursive),
            frozenset(folder for folder in alone if not any(within(folder, other) for other in recursive)))


def _stop(watchers: list[tuple[threading.Thread, threading.Event]]) -> None:
    for _, stop in watchers:
        stop.set()
    for thread, _ in watchers:
        thread.join(timeout=1)  # a watcher checks its stop event every _STEP_MS


class Rebuilds:
    """The preview's builds, in this process until the plugin's code changes (see the module's
    docstring). The builds after the server has started use one process: forking workers from a
    process whose server threads run could copy a lock one of them holds."""

    def __init__(self, settings: str, output_dir: str, reports_dir: str | None, manifest: str | None,
                 release_tag: str | None, live: bool, code: list[str]):
        self.settings, self.output_dir = settings, output_dir
        self.reports_dir, self.manifest, self.release_tag = reports_dir, manifest, release_tag
        self.live = live
        self.code = [os.path.abspath(path) for path in code]  # folders whose Python files are the build's code
        self.fresh = False
        self.builds = 0

    def run(self, changes: list[str] = ()) -> bool:
        """One build; whether it replaced the site. Its problems and its summary are printed."""
        # A Python file of the code changed, or a folder appeared there (a new package, whose files
        # the watcher may report only as their folder): the edited code must be what runs.
        if not self.fresh and any((path.endswith(".py") or os.path.isdir(path))
                                  and any(within(os.path.abspath(path), folder) for folder in self.code)
                                  for path in changes):
            self.fresh = True
        if self.fresh:
            command = rebuild_command(self.settings, self.output_dir, self.reports_dir, self.manifest,
                                      self.release_tag, self.live)
            return subprocess.run(command).returncode == 0
        extra = {**(LIVERELOAD_SETTINGS if self.live else {}), "LEADERBOARD_KEEP_READS": True}
        if self.builds:
            extra["LEADERBOARD_WORKERS"] = 1
        self.builds += 1
        status = render_once(self.settings, self.output_dir, self.reports_dir, self.manifest, self.release_tag, extra,
                             first=True)
        if status > INTERRUPTED:  # Ctrl-C or SIGTERM during the build stops the preview, as it stops a fresh one
            raise KeyboardInterrupt
        return status == DONE


def rebuild_command(settings: str, output_dir: str, reports_dir: str | None, manifest: str | None,
                    release_tag: str | None, live: bool) -> list[str]:
    """The command that renders once in a fresh interpreter (see ``main``)."""
    command = [sys.executable, "-m", "leaderboard_tools.preview", "--settings", settings, "--output-dir", output_dir]
    for flag, value in (("--reports-dir", reports_dir), ("--manifest", manifest), ("--release-tag", release_tag)):
        if value is not None:
            command += [flag, value]
    return command + (["--live"] if live else [])


def main(argv: list[str] | None = None) -> int:
    """Render once; exit 0 when the site was replaced, 1 when the archive was refused, 2 when the build failed."""
    parser = argparse.ArgumentParser(prog="python -m leaderboard_tools.preview", description=main.__doc__)
    parser.add_argument("--settings", required=True)
    parser.add_argument("--output-dir", required=True)
    parser.add_argument("--reports-dir")
    parser.add_argument("--manifest")
    parser.add_argument("--release-tag")
    parser.add_argument("--live", action="store_true", help="add the live-reload script to every page")
    options = parser.parse_args(argv)
    return render_once(options.settings, options.output_dir, options.reports_dir, options.manifest,
                       options.release_tag, LIVERELOAD_SETTINGS if options.live else None)


def render_once(settings: str, output_dir: str, reports_dir: str | None, manifest: str | None,
                release_tag: str | None, extra: dict | None, first: bool = False) -> int:
    """Render once and print its problems or its summary; the exit status (``exits``). With ``first``,
    the edited reports' files go into the output ahead of the rest (``runner.build``)."""
    from benchmark_leaderboard.problems import BuildRefused
    from . import exits
    from .faults import BuildError
    from .interrupts import BuildInterrupted
    from .runner import build, say

    try:
        summary = build(settings, output_dir, reports_dir=reports_dir, manifest=manifest, release_tag=release_tag,
                        extra=extra, first=first)
    except BuildInterrupted as interrupt:
        say(interrupt.line())
        return exits.interrupted(interrupt.signum)
    except BuildRefused as refused:
        for line in refused.lines():
            say(line)
        return exits.REFUSED
    except BuildError as error:
        say(error.line())
        return exits.UNUSABLE
    say(str(summary))
    return exits.DONE


if __name__ == "__main__":
    sys.exit(main())
