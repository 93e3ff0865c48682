"""How the rendered leaderboard behaves in Chromium: how soon it is interactive, how long the filter
takes to answer a keystroke and a sort to answer a click, and what Lighthouse says of its pages on a
phone and on a desktop. The site is served on the loopback interface only, by the preview's server
(its strict content security policy included), or, for Lighthouse, by a small server that
compresses as a static host does (gzip) under the same policy.

Every time is taken inside the page with the Performance API, so the driver's own latency is not in
it: ``performance.now()`` counts from the start of the navigation, and an event's ``timeStamp`` is
on the same clock. An answer counts as seen when the first frame painted after the page's last
change to it is done."""

from __future__ import annotations

import contextlib
import gzip
import http.server
import json
import mimetypes
import os
import shutil
import statistics
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence
from urllib.parse import unquote, urlsplit

from benchmark_leaderboard.paths import model_path
from leaderboard_tools.preview import serving

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--no-first-run", "--disable-sync",
]
# Letters tried, in order, for a keystroke that hides every row; the first that no row contains is used.
ABSENT_LETTERS = "qzjxwk"
# How long the page may take to answer one keystroke or sort before the probe gives up, in ms.
ANSWER_TIMEOUT_MS = 10_000

# Installed before any script of the page runs. The page's script adds the class "js" to <html>
# once it has attached its handlers; a mutation observer's callback runs when the script that made
# the change has returned, so its time is when the page's script was done. "frame" is the end of
# the first frame painted after that.
WATCH_INTERACTIVE = """(() => {
  const observer = new MutationObserver(() => {
    const root = document.documentElement;
    if (!root || !root.classList.contains('js')) return;
    observer.disconnect();
    const done = performance.now();
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { window.__benchInteractive = {script: done, frame: performance.now()}; };
    requestAnimationFrame(() => channel.port2.postMessage(0));
  });
  observer.observe(document, {attributes: true, attributeFilter: ['class'], subtree: true});
})();"""

NAVIGATION = """() => {
  const n = performance.getEntriesByType('navigation')[0];
  return {dom_content_loaded: n.domContentLoadedEventEnd, load: n.loadEventEnd};
}"""

# Arms a one-shot probe of the next ``event`` (keydown or click) anywhere in the page: the time from
# the event to the end of the first frame painted after the page's last change to <body> (null when
# nothing changed within the timeout). A frame's end is seen by a message posted from its animation
# frame callback: the message is handled once the frame is painted. A change made meanwhile (work the
# page spread over several frames) waits for the next frame. A keystroke counts only once
# #filter-status says something new.
ARM = """([event, statusMustChange, timeout]) => {
  const status = document.querySelector('#filter-status');
  const before = status ? status.textContent : null;
  window.__benchAnswer = new Promise((resolve) => {
    let start = null, changed = false, waiting = false;
    const channel = new MessageChannel();
    const painted = () => requestAnimationFrame(() => channel.port2.postMessage(0));
    channel.port1.onmessage = () => {
      if (changed) { changed = false; painted(); return; }
      observer.disconnect();
      resolve(performance.now() - start);
    };
    const observer = new MutationObserver(() => {
      if (start === null) return;
      if (statusMustChange && status.textContent === before) return;
      if (waiting) { changed = true; return; }
      waiting = true;
      painted();
    });
    observer.observe(document.body, {childList: true, subtree: true, attributes: true, characterData: true});
    document.addEventListener(event, (e) => { start = e.timeStamp; }, {capture: true, once: true});
    setTimeout(() => { observer.disconnect(); resolve(null); }, timeout);
  });
}"""

ROWS_READ = "() => document.querySelector('[data-controls]').dataset.rows === 'read'"

FILTER_SHOWN = """() => {
  const input = document.querySelector('#filter');
  return input !== null && !input.closest('[hidden]') && input.getClientRects().length > 0
    && document.querySelector('#filter-status') !== null;
}"""

# The sort buttons of the longest table in the panel shown: their count, and the first few marked
# so that the driver can click them as a user would.
MARK_SORT_BUTTONS = """(wanted) => {
  let best = null;
  for (const table of document.querySelectorAll('table')) {
    // A table that sorts (a suite's best rows keep the ranking's order: their headers do not sort).
    if (table.closest('[hidden]') || !table.tHead || !table.tBodies.length || !table.tHead.querySelector('th button')) continue;
    if (best === null || table.tBodies[0].rows.length > best.tBodies[0].rows.length) best = table;
  }
  if (best === null) return 0;
  const buttons = Array.from(best.tHead.querySelectorAll('th button'));
  buttons.slice(0, wanted).forEach((button, i) => button.setAttribute('data-bench-sort', String(i)));
  return buttons.length;
}"""
# Sorts timed: the first column's button twice (one way, then the other), then the second column's.
SORT_CLICKS = (0, 0, 1)


@dataclass(frozen=True)
class PageFigures:
    loads: int
    interactive_ms: float  # the page's script done, median over the loads
    interactive_frame_ms: float  # the end of the first frame painted after it, median over the loads
    dom_content_loaded_ms: float
    load_ms: float
    filter_shown: bool
    keystrokes: int  # keystrokes answered within ANSWER_TIMEOUT_MS
    keystroke_median_ms: float | None  # None when no keystroke was answered
    keystroke_worst_ms: float | None
    sort_buttons: int  # in the header of the longest table shown that sorts; 0 when the page cannot sort
    sorts: int  # sorts answered within ANSWER_TIMEOUT_MS
    sort_worst_ms: float | None


def absent_letter(leaderboard_json: bytes) -> str:
    """A letter that no published row holds, so typing it changes what the filter shows."""
    rows = json.loads(leaderboard_json)["rows"]
    text = " ".join(str(value) for row in rows for value in row.values()).casefold()
    for letter in ABSENT_LETTERS:
        if letter not in text:
            return letter
    raise ValueError("every probe letter occurs in the leaderboard; no keystroke is sure to change the filter")


def _answer(page, event: str, status_must_change: bool, act) -> float | None:
    page.evaluate(ARM, [event, status_must_change, ANSWER_TIMEOUT_MS])
    act()
    return page.evaluate("() => window.__benchAnswer")


def measure_page(site: str, loads: int = 3, keystrokes: int = 6, timeout_ms: float = 60_000) -> PageFigures:
    """Load ``site``/index.html ``loads`` times in Chromium, each in a fresh page; on the last load,
    type ``keystrokes`` keys into the filter (a letter no row holds, then Backspace, in turn) and
    click the sort buttons of SORT_CLICKS, if the page has them."""
    from playwright.sync_api import sync_playwright

    with open(os.path.join(site, "leaderboard.json"), "rb") as handle:
        letter = absent_letter(handle.read())
    interactive: list[float] = []
    interactive_frame: list[float] = []
    dom: list[float] = []
    load: list[float] = []
    typed: list[float] = []
    sorted_: list[float] = []
    filter_shown, sort_buttons = False, 0
    with serving(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context()
            context.add_init_script(WATCH_INTERACTIVE)
            for attempt in range(loads):
                page = context.new_page()
                page.goto(base + "index.html", wait_until="commit", timeout=timeout_ms)
                times = page.wait_for_function("() => window.__benchInteractive", polling=100, timeout=timeout_ms).json_value()
                interactive.append(times["script"])
                interactive_frame.append(times["frame"])
                page.wait_for_load_state("load", timeout=timeout_ms)
                timing = page.evaluate(NAVIGATION)
                dom.append(timing["dom_content_loaded"])
                load.append(timing["load"])
                if attempt == loads - 1:
                    filter_shown = page.evaluate(FILTER_SHOWN)
                    if filter_shown:
                        page.focus("#filter")
                        # The page reads its rows when the filter is first used: the keystrokes
                        # are timed once they are read.
                        page.wait_for_function(ROWS_READ, polling=100, timeout=timeout_ms)
                        for stroke in range(keystrokes):
                            key = letter if stroke % 2 == 0 else "Backspace"
                            answer = _answer(page, "keydown", True, lambda: page.keyboard.press(key))
                            if answer is not None:
                                typed.append(answer)
                        page.keyboard.press("Escape")
                    sort_buttons = page.evaluate(MARK_SORT_BUTTONS, max(SORT_CLICKS) + 1)
                    if sort_buttons:
                        for index in SORT_CLICKS:
                            selector = f"[data-bench-sort='{index}']"
                            if page.locator(selector).count():
                                answer = _answer(page, "click", False, lambda: page.click(selector))
                                if answer is not None:
                                    sorted_.append(answer)
                page.close()
        finally:
            browser.close()
    return PageFigures(
        loads=loads,
        interactive_ms=statistics.median(interactive),
        interactive_frame_ms=statistics.median(interactive_frame),
        dom_content_loaded_ms=statistics.median(dom),
        load_ms=statistics.median(load),
        filter_shown=filter_shown,
        keystrokes=len(typed),
        keystroke_median_ms=statistics.median(typed) if typed else None,
        keystroke_worst_ms=max(typed) if typed else None,
        sort_buttons=sort_buttons,
        sorts=len(sorted_),
        sort_worst_ms=max(sorted_) if sorted_ else None,
    )


# --- Lighthouse ----------------------------------------------------------------------------------

LIGHTHOUSE_VERSION = "12.2.3"
# Where `npm install` puts Lighthouse when LIGHTHOUSE names no installed copy (the folder is ignored by git).
LIGHTHOUSE_FOLDER = Path(__file__).resolve().parent / ".lighthouse"
LIGHTHOUSE_FLAGS = ["--headless", *CHROMIUM_ARGS]
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
PRESETS = ("mobile", "desktop")
CSP = "default-src 'self'"


class _Handler(http.server.BaseHTTPRequestHandler):
    """GET and HEAD of the site's files, gzip-compressed when the client accepts it, under the
    strict policy; a folder's index.html for the folder."""

    server: "_GzipServer"

    def do_GET(self) -> None:
        self._send(body=True)

    def do_HEAD(self) -> None:
        self._send(body=False)

    def _send(self, body: bool) -> None:
        path = unquote(urlsplit(self.path).path)
        target = (self.server.root / path.lstrip("/")).resolve()
        if target.is_dir():
            target = target / "index.html"
        if self.server.root not in target.parents or not target.is_file():
            self.send_error(404)
            return
        data = target.read_bytes()
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind in ("application/javascript", "application/json", "image/svg+xml"):
            kind += "; charset=utf-8"
        compressed = "gzip" in self.headers.get("Accept-Encoding", "")
        if compressed:
            data = self.server.compressed(target, data)
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Cache-Control", "max-age=600")
        if compressed:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        if body:
            self.wfile.write(data)

    def log_message(self, format: str, *args) -> None:
        pass


class _GzipServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, root: Path):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.root = root.resolve()
        self._cache: dict[Path, bytes] = {}
        self._lock = threading.Lock()

    def compressed(self, path: Path, data: bytes) -> bytes:
        with self._lock:
            if path not in self._cache:
                self._cache[path] = gzip.compress(data, 6, mtime=0)
            return self._cache[path]


@contextlib.contextmanager
def serving_gzip(site: str) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 as a static host does (gzip, the strict policy); yields the base URL."""
    server = _GzipServer(Path(site))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def lighthouse_command() -> list[str]:
    """How to run Lighthouse: the copy LIGHTHOUSE names (its cli.js, or a folder holding
    node_modules/lighthouse), else the one in LIGHTHOUSE_FOLDER, installed there by npm first if
    it is missing."""
    given = os.environ.get("LIGHTHOUSE")
    folder = Path(given) if given else LIGHTHOUSE_FOLDER
    cli = folder if folder.suffix == ".js" else folder / "node_modules" / "lighthouse" / "cli" / "index.js"
    if not cli.is_file():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("Lighthouse needs Node and npm, and npm is not installed")
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run([npm, "install", "--prefix", str(folder), "--no-audit", "--no-fund", "--silent",
                        f"lighthouse@{LIGHTHOUSE_VERSION}"], check=True, stdout=subprocess.DEVNULL)
    return [shutil.which("node") or "node", str(cli)]


@dataclass(frozen=True)
class LighthouseFigures:
    page: str  # what was measured, as the results table names it
    preset: str  # mobile or desktop
    scores: tuple[int, ...]  # CATEGORIES' scores, 0 to 100
    lcp_ms: float
    tbt_ms: float
    cls: float
    dom_size: int


def run_lighthouse(url: str, preset: str, command: Sequence[str] | None = None, timeout: float = 600) -> dict:
    """Lighthouse's report (its JSON) of ``url`` on the ``preset`` (mobile: Lighthouse's default,
    a slow 4G network and a 4x slower CPU, simulated; desktop: its desktop preset)."""
    argv = [*(command or lighthouse_command()), url, "--output=json", "--output-path=stdout", "--quiet",
            "--only-categories=" + ",".join(CATEGORIES), "--chrome-flags=" + " ".join(LIGHTHOUSE_FLAGS)]
    if preset == "desktop":
        argv.append("--preset=desktop")
    env = dict(os.environ, CHROME_PATH=CHROMIUM)
    done = subprocess.run(argv, check=True, capture_output=True, text=True, timeout=timeout, env=env)
    return json.loads(done.stdout)


def lighthouse_figures(page: str, preset: str, result: dict) -> LighthouseFigures:
    audits = result["audits"]
    return LighthouseFigures(
        page=page, preset=preset,
        scores=tuple(round(100 * (result["categories"][name]["score"] or 0)) for name in CATEGORIES),
        lcp_ms=audits["largest-contentful-paint"]["numericValue"],
        tbt_ms=audits["total-blocking-time"]["numericValue"],
        cls=audits["cumulative-layout-shift"]["numericValue"],
        dom_size=int(audits["dom-size"]["numericValue"]),
    )


def site_pages(site: str) -> list[tuple[str, str]]:
    """The pages of a site Lighthouse looks at: the index, a family page, a report page, compare
    (with two rows named) and the first row's model's page, as (what, path)."""
    root = Path(site)
    found = [("index", "index.html")]
    family = sorted((root / "suite").glob("*/1/1.html"))
    if family:
        found.append(("a family page", family[0].relative_to(root).as_posix()))
    reports = json.loads((root / "leaderboard.json").read_text(encoding="utf-8"))["rows"]
    if reports:
        path = reports[0]["report_path"]
        found.append(("a report page", "report/" + path[:-len(".json")] + ".html"))
    found.append(("compare, two rows", "compare.html#rows=0,1" if len(reports) > 1 else "compare.html"))
    if reports:
        found.append(("a model page", f"model/{model_path(reports[0]['model_name'])}.html"))
    return found


def measure_lighthouse(sites: Sequence[tuple[str, str]], presets: Sequence[str] = PRESETS,
                       every_page_of: str | None = None) -> list[LighthouseFigures]:
    """Lighthouse on the index of each (label, site) and, for the site labelled ``every_page_of``
    (the first if None), on each of its site_pages, with each preset."""
    command = lighthouse_command()
    figures = []
    chosen = every_page_of if every_page_of is not None else sites[0][0]
    for label, site in sites:
        pages = site_pages(site) if label == chosen else [("index", "index.html")]
        with serving_gzip(site) as base:
            for what, path in pages:
                name = f"{what}, {label}"
                for preset in presets:
                    figures.append(lighthouse_figures(name, preset, run_lighthouse(base + path, preset, command)))
    return figures


def lighthouse_table(figures: Sequence[LighthouseFigures]) -> list[str]:
    """The figures as a Markdown table, a line a page and preset."""
    lines = ["| page | preset | performance | accessibility | best practices | SEO | LCP | TBT | CLS | DOM elements |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for figure in figures:
        lines.append(f"| {figure.page} | {figure.preset} | " + " | ".join(str(score) for score in figure.scores)
                     + f" | {figure.lcp_ms / 1000:.1f} s | {figure.tbt_ms:,.0f} ms | {figure.cls:.3f} | {figure.dom_size:,} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks.browser SITE [--loads N]``: the figures of a site built before;
    ``python -m benchmarks.browser --lighthouse SITE...``: Lighthouse's on each site's index, and on
    every kind of page of the first."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sites", nargs="+", help="built sites (folders holding index.html and leaderboard.json)")
    parser.add_argument("--loads", type=int, default=3, help="fresh page loads to take medians over (default 3)")
    parser.add_argument("--keystrokes", type=int, default=6, help="keystrokes timed on the last load (default 6)")
    parser.add_argument("--lighthouse", action="store_true", help="run Lighthouse (mobile and desktop) instead")
    options = parser.parse_args(argv)
    if options.lighthouse:
        figures = measure_lighthouse([(os.path.basename(os.path.normpath(site)), site) for site in options.sites])
        print("\n".join(lighthouse_table(figures)))
        return 0
    figures = measure_page(options.sites[0], loads=options.loads, keystrokes=options.keystrokes)
    print(json.dumps(figures.__dict__, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
