"""Tasks for working on the leaderboard site: ``invoke --list`` shows them."""

from __future__ import annotations

import os
import sys

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


def run_build(reports_dir=None, output_dir="output", manifest=None, release_tag=None, settings=SETTINGS):
    """Render the site; on failure print every problem, one a line, and exit non-zero."""
    try:
        summary = render(settings, output_dir, reports_dir=reports_dir, manifest=manifest, release_tag=release_tag)
    except BuildRefused as refused:
        for line in refused.lines():
            print(line, file=sys.stderr)
        count = len(refused.problems)
        raise Exit(f"build refused: {count} problem{'s' if count != 1 else ''}; {output_dir} is unchanged", code=1)
    except BuildError as error:
        raise Exit(f"build failed: {error}", code=2)
    print(summary, file=sys.stderr)
    return summary


@task(help=BUILD_HELP)
def build(c, reports_dir=None, output_dir="output", manifest=None, release_tag=None):
    """Render the archive into the output folder (index.html, leaderboard.json, reports/, pages)."""
    run_build(reports_dir, output_dir, manifest, release_tag)


@task
def test(c, k=None):
    """Run the whole test suite (pytest), browser tests included."""
    selection = f" -k {k!r}" if k else ""
    c.run(f"{sys.executable} -m pytest{selection}", pty=False)


@task(help={
    "sizes": "comma-separated archive sizes (default: 1000,10000)",
    "runs": "renders per renderer and size, alternating (default: 3)",
    "browser": "measure the largest page in Chromium (default: on)",
})
def bench(c, sizes="1000,10000", runs=3, browser=True):
    """Benchmark against the reference renderer; prints the figures and writes benchmarks/results.md."""
    sys.path.insert(0, HERE)
    from benchmarks.run import main

    flags = "" if (sizes, int(runs), browser) == ("1000,10000", 3, True) else f" --sizes {sizes} --runs {runs}" + ("" if browser else " --no-browser")
    main([int(size) for size in sizes.split(",")], runs=int(runs), browser=browser, command_line="invoke bench" + flags)
