"""How fast the leaderboard page is in Chromium: time to interactive and time to answer a keystroke.

    python benchmarks/page_speed.py OUTPUT_DIR [--runs N]

``measure(output_dir)`` serves a built site on loopback under the site's strict
Content-Security-Policy, opens ``index.html`` in Chromium (Playwright) and returns a dict:

- ``time_to_interactive_ms``: from navigation start until the page's script has wired the tabs
  (the moment the tab list is shown), the median of ``runs`` fresh loads;
- ``keystroke_ms``: for each step of a fixed series of filter queries (each applied to the state
  the step before it left), the median time from the ``input`` event until the browser has
  produced the next frame (``requestAnimationFrame`` and then a task), so it includes the style,
  layout and paint that the change causes, not only the script;
- ``keystroke_breakdown_ms``: Chromium's own split of that work for each step (script, style
  recalculation, layout), the medians of the ``Performance.getMetrics`` counters' growth;
- ``typed_ms``: the Event Timing API's duration (input to next paint) of each key of a query typed
  with real key presses, as Chromium itself reports it;
- ``rows``: the number of rows on the page.

The figures depend on the machine; compare them on one machine, before and after a change.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import statistics
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

# Each step: a label and the filter text typed (replacing the previous one) in the first tab.
STEPS = [
    ("narrow: one model number", "model-00012"),
    ("clear after narrow (every row reappears)", ""),
    ("cpu (from all rows)", "cpu"),
    ("onnx (another tab takes over)", "onnx"),
    ("cpu (back to the first tab)", "cpu"),
    ("no match", "no such model"),
    ("cpu (from no match)", "cpu"),
    ("clear", ""),
]
TYPED = "cpu"
CSP = "default-src 'self'"

# Runs before the page's own scripts: notes when the tab list is first shown (the script's last step).
READY_WATCH = """
(function () {
  window.__interactiveAt = null;
  var observer = new MutationObserver(function () {
    var tablist = document.querySelector("[role=tablist]");
    if (tablist && !tablist.hidden && window.__interactiveAt === null) {
      window.__interactiveAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, {attributes: true, attributeFilter: ["hidden"], subtree: true});
  window.__eventTimings = [];
  try {
    new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (entry) {
        window.__eventTimings.push({name: entry.name, duration: entry.duration,
                                    processing: entry.processingEnd - entry.processingStart});
      });
    }).observe({type: "event", durationThreshold: 16, buffered: true});
  } catch (error) { /* no Event Timing API */ }
})();
"""

# Sets the filter's text, fires its input event and waits for the next frame; returns milliseconds.
KEYSTROKE = """
async (text) => {
  const input = document.getElementById("filter");
  input.value = text;
  const start = performance.now();
  input.dispatchEvent(new Event("input", {bubbles: true}));
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  return performance.now() - start;
}
"""

COUNTERS = {"script": "ScriptDuration", "style": "RecalcStyleDuration", "layout": "LayoutDuration"}


class _Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        pass


@contextmanager
def _serve(root: Path) -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _chromium() -> str | None:
    """Debian's Chromium when it is installed (or $CHROMIUM), else Playwright's own browser."""
    return os.environ.get("CHROMIUM") or shutil.which("chromium")


def _metrics(cdp) -> dict[str, float]:
    values = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {key: values.get(name, 0.0) * 1000 for key, name in COUNTERS.items()}


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def measure(output_dir: str | os.PathLike, runs: int = 5) -> dict:
    """Time to interactive and keystroke times of ``output_dir``/index.html in Chromium (see module doc)."""
    from playwright.sync_api import sync_playwright

    root = Path(output_dir)
    if not (root / "index.html").is_file():
        raise FileNotFoundError(f"{root} has no index.html: build the site first")
    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--no-first-run", "--disable-sync"]
    with _serve(root) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=_chromium(), args=args)
        try:
            ready: list[float] = []
            steps: dict[str, list[float]] = {label: [] for label, _ in STEPS}
            split: dict[str, dict[str, list[float]]] = {label: {k: [] for k in COUNTERS} for label, _ in STEPS}
            typed: list[list[float]] = []
            rows = 0
            for _ in range(runs):
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                page = context.new_page()
                page.add_init_script(READY_WATCH)
                page.goto(base + "index.html", wait_until="load")
                page.wait_for_function("window.__interactiveAt !== null", timeout=60000)
                ready.append(page.evaluate("window.__interactiveAt"))
                rows = page.evaluate("document.querySelectorAll('tbody tr').length")
                cdp = context.new_cdp_session(page)
                cdp.send("Performance.enable")
                for label, text in STEPS:
                    before = _metrics(cdp)
                    steps[label].append(page.evaluate(KEYSTROKE, text))
                    after = _metrics(cdp)
                    for key in COUNTERS:
                        split[label][key].append(after[key] - before[key])
                # Real key presses, one at a time, timed by Chromium's Event Timing API.
                page.evaluate(KEYSTROKE, "no such model")
                page.focus("#filter")
                page.keyboard.press("Escape")
                page.evaluate("window.__eventTimings = []")
                for key in TYPED:
                    page.keyboard.press(key)
                    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)))")
                page.keyboard.press("Escape")
                page.wait_for_timeout(100)
                timings = page.evaluate("window.__eventTimings")
                typed.append([t["duration"] for t in timings if t["name"] in ("keydown", "keypress", "keyup", "input")])
                context.close()
        finally:
            browser.close()
    return {
        "rows": rows,
        "runs": runs,
        "time_to_interactive_ms": _median(ready),
        "keystroke_ms": {label: _median(values) for label, values in steps.items()},
        "keystroke_max_ms": max(_median(values) for values in steps.values()),
        "keystroke_breakdown_ms": {label: {k: _median(v) for k, v in parts.items()} for label, parts in split.items()},
        "typed_ms": {"slowest_event_per_run": [round(max(t), 1) if t else None for t in typed],
                     "note": "Event Timing entries of 16 ms or more while typing %r then Escape" % TYPED},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output_dir", help="a built site (the folder holding index.html)")
    parser.add_argument("--runs", type=int, default=5, help="fresh page loads to take medians over (default 5)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args(argv)
    figures = measure(options.output_dir, runs=options.runs)
    if options.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{figures['rows']} rows, medians of {figures['runs']} loads")
    print(f"time to interactive: {figures['time_to_interactive_ms']:.1f} ms")
    print("keystroke, input event to next frame (script / style / layout):")
    for label, value in figures["keystroke_ms"].items():
        parts = figures["keystroke_breakdown_ms"][label]
        print(f"  {value:7.1f} ms  {label!s:44} ({parts['script']:.1f} / {parts['style']:.1f} / {parts['layout']:.1f})")
    print(f"slowest keystroke: {figures['keystroke_max_ms']:.1f} ms")
    print(f"typed {TYPED!r} + Escape, slowest Event Timing entry per load (ms): {figures['typed_ms']['slowest_event_per_run']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
