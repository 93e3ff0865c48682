"""Helpers for the browser tests: build a site, serve it on loopback under a strict
Content-Security-Policy, and drive Debian's Chromium through Playwright."""

from __future__ import annotations

from pathlib import Path

from leaderboard_tools.preview import serving

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


def serve(root: Path):
    """Serve ``root`` on 127.0.0.1 with the site's strictest policy (only its own files, nothing
    inline), as the preview does; a context manager yielding the base URL, ending in ``/``."""
    return serving(str(root))


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
