"""Tasks for working on the leaderboard site: ``invoke --list`` shows them."""

from __future__ import annotations

import os
import signal
import sys
from contextlib import contextmanager

from invoke import Exit, task

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "plugins"))

from benchmark_leaderboard.problems import BuildRefused  # noqa: E402
from benchmark_leaderboard.render import BuildError, build as render  # noqa: E402

SETTINGS = os.path.join(HERE, "pelicanconf.py")
PUBLISH_SETTINGS = os.path.join(HERE, "publishconf.py")
BUILD_HELP = {
    "reports-dir": "folder of archived BenchmarkReport JSON (default: content/benchmarks)",
    "output-dir": "where the site is written (default: output)",
    "manifest": "models.jsonl with family and hash fallbacks (default: models.jsonl)",
    "release-tag": "release tag for reports that carry none (default: pelicanconf's LEADERBOARD_RELEASE_TAG)",
}


EXIT_REFUSED = 1  # the archive or manifest breaks the contract: one line per problem
EXIT_UNUSABLE = 2  # an input or the output cannot be used at all (a missing folder, a folder as manifest)
# Interrupted: 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM), as shells report it.


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that the build's clean-up runs."""


@contextmanager
def sigterm_raises():
    def terminate(signum, frame):
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_build(reports_dir=None, output_dir="output", manifest=None, release_tag=None, settings=SETTINGS):
    """Render the site; on failure print every problem, one a line, and exit non-zero."""
    try:
        with sigterm_raises():
            summary = render(settings, output_dir, reports_dir=reports_dir, manifest=manifest, release_tag=release_tag)
    except KeyboardInterrupt as interrupt:
        number = signal.SIGTERM if isinstance(interrupt, Terminated) else signal.SIGINT
        raise Exit(f"build interrupted by {number.name}; {output_dir} keeps its last complete render", code=128 + number)
    except BuildRefused as refused:
        for line in refused.lines():
            print(line, file=sys.stderr)
        count = len(refused.problems)
        raise Exit(f"build refused: {count} problem{'s' if count != 1 else ''}; {output_dir} is unchanged", code=EXIT_REFUSED)
    except BuildError as error:
        raise Exit(f"build failed: {error}", code=EXIT_UNUSABLE)
    print(summary, file=sys.stderr)
    return summary


@task(help=BUILD_HELP)
def build(c, reports_dir=None, output_dir="output", manifest=None, release_tag=None):
    """Render the archive into the output folder (index.html, leaderboard.json, reports/, pages).

    Prints a one-line summary on stderr. Exit status: 0 built; 1 refused, with one line per problem
    (file: /pointer: rule); 2 an input or the output cannot be used (no reports folder, a folder as
    the manifest, a file as the output); 130 or 143 interrupted by Ctrl-C or SIGTERM. A build that
    does not finish leaves the output folder as it was and no temporary folder beside it.
    """
    run_build(reports_dir, output_dir, manifest, release_tag)


@task
def test(c, k=None):
    """Run the whole test suite (pytest), browser tests included."""
    selection = f" -k {k!r}" if k else ""
    c.run(f"{sys.executable} -m pytest{selection}", pty=False)
