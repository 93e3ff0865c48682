"""Helpers for the browser tests: build a site, serve it on loopback under a strict
Content-Security-Policy, and drive Debian's Chromium through Playwright."""

from __future__ import annotations

from pathlib import Path

import pytest

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


# The leaderboard's script reads the rows (leaderboard-data.js) when they are first needed, and loads
# a suite's panel when its tab is first chosen; these wait for what was asked to be there.
ROWS_READ = "() => { const c = document.querySelector('[data-controls]'); return !c || c.dataset.rows === 'read'; }"
PANELS_LOADED = "() => !document.querySelector('.panel .loading')"


def settle(page, rows: bool = True) -> None:
    """Wait until the leaderboard's script has done what the page's address asked (the chosen
    suite's panel loaded, the rows read if the address filters or sorts); with ``rows``, read the
    rows as a reader's first use of the filter does (focus, then leave it), and wait for them."""
    if not page.evaluate("() => Boolean(document.querySelector('[data-tabs]')) && document.documentElement.classList.contains('js')"):
        return
    if rows:
        page.evaluate("() => { const f = document.getElementById('filter'); const was = document.activeElement;"
                      " f.focus(); f.blur(); if (was && was !== document.body) was.focus(); }")
        page.wait_for_function(ROWS_READ)
    page.wait_for_function(PANELS_LOADED)


def show_tab(page, selector: str) -> None:
    """Choose a suite's tab and wait for its panel to be on the page."""
    page.click(selector)
    page.wait_for_function(PANELS_LOADED)


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


# What axe checks: every WCAG 2.1 A and AA rule.
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}


def build_site(output: Path, reports: Path | None = None, manifest: Path | None = None, release_tag: str = "v3.1.0",
               **settings) -> Path:
    """Render a site into ``output`` (the bundled archive unless ``reports`` is given), with Pelican
    ``settings`` such as ``LEADERBOARD_PAGE_ROWS`` on top of the project's; returns ``output``."""
    from conftest import SETTINGS
    from leaderboard_tools.runner import build

    build(SETTINGS, str(output), reports_dir=str(reports) if reports else None,
          manifest=str(manifest) if manifest else None, release_tag=release_tag, extra=settings,
          progress=lambda message: None)
    return output


def write_manifest(path: Path, rows: list[dict]) -> Path:
    """A models.jsonl of ``rows``, one JSON object a line."""
    import json

    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def launch(playwright_api):
    """A context manager yielding Debian's Chromium, launched through Playwright."""
    import contextlib

    @contextlib.contextmanager
    def launched():
        with playwright_api.sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                yield chromium
            finally:
                chromium.close()

    return launched()


class Pages:
    """Opens watched pages in fresh browser contexts (``open(url, **context_options)``) and closes
    them all at the end."""

    def __init__(self, browser, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.contexts: list = []

    def open(self, path: str, rows: bool = True, **options) -> Watched:
        context = self.browser.new_context(**options)
        context.set_default_timeout(5000)
        self.contexts.append(context)
        watched = Watched(context.new_page())
        if path:
            watched.page.goto(path if path.startswith(("http:", "file:")) else self.base_url + path)
            if options.get("java_script_enabled", True):
                settle(watched.page, rows=rows)
        return watched

    def close(self) -> None:
        for context in self.contexts:
            context.close()


# Fixtures of a browser test module that has a module-scoped ``site`` fixture (the built site):
# the module imports these three by name.
@pytest.fixture(scope="module")
def base_url(site):
    with serve(site) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with launch(pytest.importorskip("playwright.sync_api")) as chromium:
        yield chromium


@pytest.fixture
def pages(browser, base_url):
    opened = Pages(browser, base_url)
    yield opened
    opened.close()
