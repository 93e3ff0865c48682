"""How the rendered leaderboard behaves in Chromium: time until it is interactive, and how long the
filter takes to answer a keystroke. The site is served on the loopback interface only."""

from __future__ import annotations

import json
import os
import statistics
from dataclasses import dataclass
from pathlib import Path

from leaderboard_tools.preview import serving as serve

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--no-first-run", "--disable-sync",
]
# Letters tried, in order, for a keystroke that hides every row; the first that no row contains is used.
ABSENT_LETTERS = "qzjxwk"

SHOWN = "(el) => el !== null && !el.closest('[hidden]') && el.getClientRects().length > 0"
# The page counts as interactive once the suite tabs are shown: the script shows them after it has
# attached its handlers.
INTERACTIVE = """() => {
  const shown = %s;
  if (!shown(document.querySelector('[role=tablist]')) || !document.querySelector('[role=tab]')) return false;
  return performance.now();
}""" % SHOWN
FILTER_SHOWN = "() => (%s)(document.querySelector('#filter')) && document.querySelector('#filter-status') !== null" % SHOWN

NAVIGATION = """() => {
  const n = performance.getEntriesByType('navigation')[0];
  return {dom_content_loaded: n.domContentLoadedEventEnd, load: n.loadEventEnd};
}"""

# Arms a one-shot probe: the time from the keydown of the next keystroke in #filter to the change
# of #filter-status, and to the next frame after that change (null when nothing changes in 10 s).
ARM_KEYSTROKE = """() => {
  const input = document.querySelector('#filter');
  const status = document.querySelector('#filter-status');
  const before = status.textContent;
  window.__keystroke = new Promise((resolve) => {
    let start = null;
    input.addEventListener('keydown', (event) => { start = event.timeStamp; }, {capture: true, once: true});
    const observer = new MutationObserver(() => {
      if (start === null || status.textContent === before) return;
      observer.disconnect();
      const updated = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => {
        resolve({status: updated - start, frame: performance.now() - start});
      }));
    });
    observer.observe(status, {childList: true, characterData: true, subtree: true});
  });
}"""


@dataclass(frozen=True)
class PageFigures:
    interactive_ms: float
    dom_content_loaded_ms: float
    load_ms: float
    keystroke_status_ms: float | None  # median over the keystrokes; None when the page shows no filter
    keystroke_status_max_ms: float | None
    keystroke_frame_ms: float | None
    keystrokes: int


def absent_letter(leaderboard_json: bytes) -> str:
    """A letter that no published row holds, so typing it changes what the filter shows."""
    rows = json.loads(leaderboard_json)["rows"]
    text = " ".join(str(value) for row in rows for value in row.values()).casefold()
    for letter in ABSENT_LETTERS:
        if letter not in text:
            return letter
    raise ValueError("every probe letter occurs in the leaderboard; no keystroke is sure to change the filter")


def measure_page(site: str, loads: int = 3, keystrokes: int = 6, timeout_ms: float = 30_000) -> PageFigures:
    """Load ``site``/index.html ``loads`` times in Chromium; the medians of what the page shows."""
    from playwright.sync_api import sync_playwright

    with open(os.path.join(site, "leaderboard.json"), "rb") as handle:
        letter = absent_letter(handle.read())
    interactive: list[float] = []
    dom: list[float] = []
    load: list[float] = []
    status: list[float] = []
    frame: list[float] = []
    with serve(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for attempt in range(loads):
                page = browser.new_page()
                page.goto(base + "index.html", wait_until="commit", timeout=timeout_ms)
                interactive.append(page.wait_for_function(INTERACTIVE, polling="raf", timeout=timeout_ms).json_value())
                page.wait_for_load_state("load", timeout=timeout_ms)
                timing = page.evaluate(NAVIGATION)
                dom.append(timing["dom_content_loaded"])
                load.append(timing["load"])
                if attempt == loads - 1 and page.evaluate(FILTER_SHOWN):
                    page.focus("#filter")
                    for stroke in range(keystrokes):
                        page.evaluate(ARM_KEYSTROKE)
                        page.keyboard.press(letter if stroke % 2 == 0 else "Backspace")
                        figures = page.evaluate("() => window.__keystroke")
                        if figures is None:  # the status did not change within 10 s
                            continue
                        status.append(figures["status"])
                        frame.append(figures["frame"])
                page.close()
        finally:
            browser.close()
    return PageFigures(
        interactive_ms=statistics.median(interactive),
        dom_content_loaded_ms=statistics.median(dom),
        load_ms=statistics.median(load),
        keystroke_status_ms=statistics.median(status) if status else None,
        keystroke_status_max_ms=max(status) if status else None,
        keystroke_frame_ms=statistics.median(frame) if frame else None,
        keystrokes=len(status),
    )


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks.browser SITE [--loads N]``: the figures of a site built before."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", help="a built site (the folder holding index.html and leaderboard.json)")
    parser.add_argument("--loads", type=int, default=3, help="fresh page loads to take medians over (default 3)")
    parser.add_argument("--keystrokes", type=int, default=6, help="keystrokes timed on the last load (default 6)")
    options = parser.parse_args(argv)
    figures = measure_page(options.site, loads=options.loads, keystrokes=options.keystrokes)
    print(json.dumps(figures.__dict__, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
