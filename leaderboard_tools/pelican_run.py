"""Run Pelican once, in this process, into a given folder: the site's settings with the build's
overrides, the cyclic collector paused meanwhile, Pelican's own progress lines quiet; what the
plugin's ``leaderboard_written`` signal says it wrote is returned.

Where the output is and what becomes of the folder rendered into is the runner's
(``runner.py``); this module only renders."""

from __future__ import annotations

import atexit
import functools
import gc
import logging
import os
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable

from .build_settings import pelican_settings
from .faults import BuildError

if TYPE_CHECKING:  # imported where Pelican runs: the plugin's generator imports Pelican
    from benchmark_leaderboard.generator import Written


def render_into(settings_file: str, output_dir: str, overrides: dict[str, Any],
                first: Callable[[list[str]], None] | None = None) -> Written:
    """Run Pelican once with ``output_dir`` as its output; returns what the plugin's
    ``leaderboard_written`` signal said of it: the rows, suites and model families of the leaderboard,
    and the files it wrote and linked. ``first``, when given, is called with the paths that the
    plugin's ``leaderboard_first_written`` names (the edited reports' files, written before the rest)."""
    from pelican import Pelican

    from benchmark_leaderboard.generator import leaderboard_first_written, leaderboard_written

    freeze_at_exit()
    written = []

    def receiver(sender, **kwargs) -> None:
        written.append(kwargs["written"])

    def first_receiver(sender, **kwargs) -> None:
        first(kwargs["paths"])

    leaderboard_written.connect(receiver)
    if first is not None:
        leaderboard_first_written.connect(first_receiver)
    try:
        with collector_paused():
            settings = pelican_settings(settings_file, {**overrides, "OUTPUT_PATH": os.path.abspath(output_dir)})
            try:
                Pelican(settings).run()
            except BaseException:
                forget_unfinished_sitemap()
                raise
    finally:
        leaderboard_written.disconnect(receiver)
        leaderboard_first_written.disconnect(first_receiver)
    if not written:
        raise BuildError("the benchmark_leaderboard plugin did not run: check PLUGIN_PATHS and PLUGINS in the settings")
    return written[-1]


def forget_unfinished_sitemap() -> None:
    """pelican-sitemap keeps the build it serves, and the pages queued for that build's sitemap,
    until the build sends ``finalized``, which a build that fails never does: every later build in
    the same process (a preview's rebuild after a refused archive) would write no sitemap and queue
    its pages after the stale ones. After a failed build, the plugin is made to forget it."""
    module = sys.modules.get("pelican.plugins.sitemap.sitemap")
    generator = getattr(module, "generator", None)
    if generator is not None and hasattr(generator, "_main_pelican") and hasattr(generator, "page_queue"):
        generator._main_pelican = None
        generator.page_queue = []


@functools.cache
def freeze_at_exit() -> None:
    """From the first render on (once a process), at exit, what the last render left in reference
    cycles (its parsed reports, rows and pages: millions of objects) goes back to the operating
    system with the process instead of being traversed and freed one by one by the final collection."""
    atexit.register(gc.freeze)


@contextmanager
def collector_paused():
    """No cyclic garbage collection during the block. A render allocates millions of objects (the
    parsed reports, rows, pages) and leaves almost no reference cycles: the collector's passes over
    them free nothing. It runs again after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def quiet_pelican() -> None:
    """Pelican's own progress lines would drown the build's; its warnings and errors still show."""
    from pelican.log import console

    console.quiet = True
    logging.getLogger("pelican").setLevel(logging.WARNING)
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s", stream=sys.stderr)
