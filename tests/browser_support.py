"""Helpers for the browser tests: build a site, serve it on loopback under a strict
Content-Security-Policy, and drive Debian's Chromium through Playwright."""

from __future__ import annotations

import functools
import http.server
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--no-first-run", "--disable-sync",
]
CSP = "default-src 'self'"
# Collects every Content-Security-Policy violation of the page, before any of its scripts run.
CSP_WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


class _StrictHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files with the site's strictest policy: only the site's own files, nothing inline."""

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # quiet test output
        pass


@contextmanager
def serve(root: Path) -> Iterator[str]:
    """Serve ``root`` on 127.0.0.1 (a free port) and yield its base URL, ending in ``/``."""
    handler = functools.partial(_StrictHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class Watched:
    """A page and everything that went wrong on it: console errors, uncaught errors, CSP
    violations, dialogs opened and requests that left the loopback server or the disk."""

    def __init__(self, page) -> None:
        self.page = page
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("dialog", self._dialog)
        page.on("request", lambda request: self.requests.append(request.url))
        page.add_init_script(CSP_WATCH)

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def violations(self) -> list[str]:
        return self.page.evaluate("window.__cspViolations || []")

    def assert_clean(self, allowed_prefix: str) -> None:
        assert self.errors == [], self.errors
        assert self.dialogs == []
        assert self.violations() == []
        assert [url for url in self.requests if not url.startswith(allowed_prefix)] == []
