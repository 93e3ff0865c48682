"""How the rendered leaderboard behaves in Chromium: how soon it is interactive, how long the filter
takes to answer a keystroke and a sort to answer a click. The site is served on the loopback
interface only, by the preview's server (its strict content security policy included).

Every time is taken inside the page with the Performance API, so the driver's own latency is not in
it: ``performance.now()`` counts from the start of the navigation, and an event's ``timeStamp`` is
on the same clock. An answer counts as seen when the first frame painted after the page's last
change to it is done."""

from __future__ import annotations

import json
import os
import statistics
from dataclasses import dataclass

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
    if (table.closest('[hidden]') || !table.tHead || !table.tBodies.length) continue;
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
    sort_buttons: int  # in the header of the longest table shown; 0 when the page cannot sort
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
