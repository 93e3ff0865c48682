"""Tasks for working on the leaderboard site: ``invoke --list`` shows them."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile

from invoke import Exit, task

from benchmark_leaderboard.output import one_line
from benchmark_leaderboard.problems import BuildRefused
from leaderboard_tools import exits, pages_branch, preview, release, runner
from leaderboard_tools.runner import BuildError, BuildInterrupted, build as render

HERE = os.path.dirname(os.path.abspath(__file__))

SETTINGS = os.path.join(HERE, "pelicanconf.py")
PUBLISH_SETTINGS = os.path.join(HERE, "publishconf.py")
BUILD_HELP = {
    "reports-dir": "folder of archived BenchmarkReport JSON (default: content/benchmarks)",
    "output-dir": "where the site is written (default: output)",
    "manifest": "models.jsonl with family and hash fallbacks (default: models.jsonl)",
    "release-tag": "release tag for reports that carry none (no default: without it, such a report is refused)",
}
SERVE_HELP = {
    **BUILD_HELP,
    "port": "the port to listen on, 0 to 65535 (default: 8000; 0 picks a free one)",
    "bind": "the loopback address to listen on (default: 127.0.0.1)",
}
RELEASE_HELP = {
    **BUILD_HELP,
    "release-tag": "the release: v<major>.<minor>.<patch>[-pre][+build]; also the tag of reports that carry none",
}


def fail(line, code):
    """End the task: ``line`` on stderr (once, even if stderr is a closed pipe), exit status ``code``."""
    say(line)
    raise Exit(code=code)


def run_build(reports_dir=None, output_dir="output", manifest=None, release_tag=None, settings=SETTINGS, finish=None):
    """Render the site; on failure print every problem, one a line, and exit with a status of ``exits``."""
    try:
        summary = render(settings, output_dir, reports_dir=reports_dir, manifest=manifest, release_tag=release_tag,
                         finish=finish, progress=say)
    except BuildInterrupted as interrupt:
        fail(interrupt.line(), exits.interrupted(interrupt.signum))
    except BuildRefused as refused:
        for line in refused.lines():
            say(line)
        count = len(refused.problems)
        fail(f"build refused: {count} problem{'s' if count != 1 else ''}; {one_line(output_dir)} is unchanged", exits.REFUSED)
    except BuildError as error:
        fail(error.line(), exits.UNUSABLE)
    say(str(summary))
    return summary


def refuse_unusable_output(output_dir, reports_dir=None, manifest=None, settings=SETTINGS):
    """Exit 2 with one line unless a build may write into ``output_dir`` (what ``build`` checks first)."""
    try:
        problem = runner.output_refusal(settings, output_dir, runner.build_overrides(reports_dir, manifest))
    except BuildError as error:
        fail(error.line(), exits.UNUSABLE)
    if problem:
        fail(problem, exits.UNUSABLE)


def checked_port(port):
    """``--port`` as a number from 0 to 65535 (default 8000); anything else ends the task with one line."""
    text = "8000" if port is None else str(port).strip()
    if re.fullmatch(r"[0-9]{1,5}", text) is None or int(text) > 65535:
        fail(f"serve refused: --port must be a whole number from 0 to 65535 (0 picks a free one), not {one_line(text)}",
             exits.UNUSABLE)
    return int(text)


@task(help=BUILD_HELP)
def build(c, reports_dir=None, output_dir="output", manifest=None, release_tag=None):
    """Render the archive into the output folder (index.html, leaderboard.json, reports/, pages).

    Prints a one-line summary on stderr. Exit status (leaderboard_tools/exits.py): 0 built; 1 refused,
    with one line per problem (file: /pointer: rule); 2 an input or the output cannot be used (no
    reports folder, a folder as the manifest, an output that is not an earlier render, a full disk,
    another build writing it); 130 or 143 interrupted by Ctrl-C or SIGTERM. A build that does not
    finish leaves the output folder as it was and no temporary folder beside it.
    """
    run_build(reports_dir, output_dir, manifest, release_tag)


@task(help=SERVE_HELP)
def serve(c, reports_dir=None, output_dir="output", manifest=None, release_tag=None, port=None, bind="127.0.0.1"):
    """Build, then serve the output folder on loopback until Ctrl-C."""
    refuse_public_bind(bind)
    port = checked_port(port)
    run_build(reports_dir, output_dir, manifest, release_tag)
    server = start_preview(output_dir, bind, port, live=False)
    wait_until_stopped(server)


@task(help=SERVE_HELP)
def livereload(c, reports_dir=None, output_dir="output", manifest=None, release_tag=None, port=None, bind="127.0.0.1"):
    """Serve like `serve`, rebuild on every change and reload the open page.

    Watched: the reports folder, the manifest, content/, theme/, plugins/ and pelicanconf.py. A change that
    breaks the archive prints its problems, and the last good site stays served."""
    refuse_public_bind(bind)
    port = checked_port(port)
    refuse_unusable_output(output_dir, reports_dir, manifest)  # before anything is watched or served
    command = preview.rebuild_command(SETTINGS, output_dir, reports_dir, manifest, release_tag, live=True)

    def rebuild() -> bool:
        # A fresh interpreter each time, so that edits to the plugin's code count too.
        return subprocess.run(command).returncode == 0

    watched = [reports_dir or os.path.join(HERE, "content", "benchmarks"), manifest or os.path.join(HERE, "models.jsonl"),
               os.path.join(HERE, "content"), os.path.join(HERE, "theme"), os.path.join(HERE, "plugins"), SETTINGS]
    changes_seen = preview.watch(watched, ignore=[output_dir])  # from now on: an edit during the first build counts
    server = None
    with stop_on_sigterm():
        try:
            good = rebuild()
            server = start_preview(output_dir, bind, port, live=True)
            if not good:
                say("the first build failed: fix the problems above; the site is rebuilt on the next change")
            say("watching " + ", ".join(shown_path(path) for path in watched))
            for changes in changes_seen:
                say(f"changed: {describe_changes(changes)}; rebuilding")
                if rebuild():
                    server.new_build()
                    say("rebuilt; open pages reload")
                else:
                    say(f"the build failed; still serving the last good site in {output_dir}")
        except KeyboardInterrupt:
            pass
        finally:
            if server is not None:
                server.shutdown()
    say("stopped")


@task(help={"output-dir": "the rendered folder to remove (default: output)"})
def clean(c, output_dir="output"):
    """Remove the output folder, only if it is a render of this site (it holds .leaderboard-render.json)
    or empty, and what a killed build left beside it. A link as the output stays (the folder it leads
    to is emptied), as does a mount point. Waits for a build of the same output, like a build does."""
    try:
        say(runner.clean(SETTINGS, output_dir))
    except BuildInterrupted as interrupt:
        fail(interrupt.line(), exits.interrupted(interrupt.signum))
    except BuildError as error:
        fail(error.line(), exits.UNUSABLE)


@task(help=RELEASE_HELP)
def publish(c, release_tag=None, reports_dir=None, output_dir="output", manifest=None):
    """Render a release with publishconf.py (absolute URLs under openmed.life) and write SHA256SUMS."""
    run_release(release_tag, reports_dir, output_dir, manifest)
    say(f"published {release_tag} into {output_dir}; check it with: sha256sum -c {release.CHECKSUMS}")


@task(help={**RELEASE_HELP, "output-dir": "the published folder to check (required)"})
def verify(c, release_tag=None, reports_dir=None, output_dir=None, manifest=None):
    """Render the release again and compare it with a published folder, file by file; exit 0 only if identical."""
    if not output_dir:
        raise Exit("verify needs --output-dir: the published folder to check", code=2)
    if not os.path.isdir(output_dir):
        raise Exit(f"verify: {output_dir} is not a folder", code=2)
    refuse_bad_tag(release_tag)
    # What the folder says it is comes first: the render of another release is refused without a render.
    problem = release.release_marker_problem(output_dir, release_tag)
    if problem:
        raise Exit(f"verify: {problem}", code=1)
    ignored = (".git",) if os.path.lexists(os.path.join(output_dir, ".git")) else ()
    if ignored:  # a clone or worktree of the pages branch: its repository (a folder, or a worktree's file) is no part of the render
        say(f"verify: ignoring .git in {release.one_line(output_dir)}")
    with tempfile.TemporaryDirectory(prefix="leaderboard-verify-") as scratch:
        fresh = os.path.join(scratch, "render")
        run_release(release_tag, reports_dir, fresh, manifest)
        expected = release.tree_digests(fresh)
    try:
        published = release.tree_digests(output_dir, ignore=ignored)
    except OSError as error:
        raise Exit(f"verify: cannot read {release.one_line(error.filename or output_dir)}: {error.strerror or error}",
                   code=2)
    difference = release.compare_trees(expected, published)
    if difference:
        for line in difference.lines():
            print(line)
        count = len(difference.lines())
        raise Exit(f"verify: {output_dir} is not the render of this archive: {count} file{'s' if count != 1 else ''} "
                   "differ (added: only in the folder; missing: only in the render; changed: other bytes)", code=1)
    say(f"verified: {output_dir} is identical to the render of {release_tag} ({len(expected)} files)")


@task(help={**{k: v for k, v in RELEASE_HELP.items() if k != "output-dir"}, "repo": "the git repository whose branch receives the render (default: the current folder)",
            "branch": "the branch (default: gh-pages)", "push": "a remote to push the branch to afterwards"},
      name="gh-pages")
def gh_pages(c, release_tag=None, reports_dir=None, manifest=None, repo=".", branch="gh-pages", push=None):
    """Commit a release render as the whole tree of the gh-pages branch: one commit per release."""
    with tempfile.TemporaryDirectory(prefix="leaderboard-pages-") as scratch:
        render_folder = os.path.join(scratch, "render")
        run_release(release_tag, reports_dir, render_folder, manifest)
        message = (f"Publish the benchmark leaderboard {release_tag}\n\n"
                   f"Release render of {release_tag}; SHA256SUMS lists every file, and\n"
                   f"`invoke verify --release-tag {release_tag} --output-dir <checkout>` checks it against the archive.\n")
        try:
            commit = pages_branch.commit_folder(repo, render_folder, branch, message)
            if push:
                pages_branch.push(repo, push, branch)
        except pages_branch.PagesBranchError as error:
            raise Exit(f"gh-pages: {error}", code=2)
    if commit is None:
        say(f"{branch} already holds this render of {release_tag}: no new commit")
    else:
        say(f"{branch} is now {commit[:12]}: the render of {release_tag}" + (f"; pushed to {push}" if push else ""))


def run_release(release_tag, reports_dir, output_dir, manifest):
    """A release render: the tag checked, publishconf.py, then the marker, .nojekyll and SHA256SUMS in the same swap."""
    refuse_bad_tag(release_tag)
    return run_build(reports_dir, output_dir, manifest, release_tag, settings=PUBLISH_SETTINGS,
                     finish=lambda folder: release.seal_release(folder, release_tag))


def refuse_bad_tag(release_tag):
    problem = release.release_tag_problem(release_tag)
    if problem:
        raise Exit(f"release refused: {problem}", code=2)


def refuse_public_bind(bind):
    problem = preview.loopback_problem(bind)
    if problem:
        raise Exit(f"serve refused: {problem}", code=2)


def start_preview(output_dir, bind, port, live):
    try:
        server = preview.start_server(output_dir, bind, port, live=live)
    except OSError as error:
        fail(f"cannot listen on {bind}:{port}: {error.strerror or error}", exits.UNUSABLE)
    say(f"serving {output_dir} at {server.url()} (Ctrl-C stops)")
    return server


def wait_until_stopped(server):
    with stop_on_sigterm():
        try:
            signal.pause() if hasattr(signal, "pause") else server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.shutdown()
    say("stopped")


class stop_on_sigterm:
    """Within it, SIGTERM stops like Ctrl-C does: the server shuts down cleanly."""

    def __enter__(self):
        def interrupt(signum, frame):
            raise KeyboardInterrupt
        self.previous = signal.signal(signal.SIGTERM, interrupt)

    def __exit__(self, *exc):
        signal.signal(signal.SIGTERM, self.previous)


def describe_changes(changes, shown=3):
    names = [shown_path(path) for path in changes[:shown]]
    return ", ".join(names) + (f" and {len(changes) - shown} more" if len(changes) > shown else "")


def shown_path(path):
    """A path as the user would type it: relative to the working folder when below it, else absolute."""
    relative = os.path.relpath(path)
    return os.path.abspath(path) if relative.startswith("..") else relative


def say(message):
    runner.say(message)


@task
def test(c, k=None):
    """Run the whole test suite (pytest), browser tests included."""
    selection = f" -k {k!r}" if k else ""
    c.run(f"{sys.executable} -m pytest{selection}", pty=False)


@task(help={
    "sizes": "comma-separated archive sizes, in reports (default: 10000,100000)",
    "runs": "timed renders of each renderer per size and situation, alternating (default: 3)",
    "browser": "measure the project's page of the largest archive in Chromium (default: on)",
})
def bench(c, sizes=None, runs=None, browser=True):
    """Benchmark against the reference renderer (issue 10, item 7); prints the figures and writes benchmarks/results.md."""
    # In a process of its own, started here: `python -m` puts this folder first on the module path,
    # so that `benchmarks` is this project's and not an installed package of the same name.
    flags = (["--sizes", str(sizes)] if sizes is not None else []) + (["--runs", str(runs)] if runs is not None else [])
    flags += [] if browser else ["--no-browser"]
    process = subprocess.Popen([sys.executable, "-m", "benchmarks.run", *flags], cwd=HERE)
    while True:
        try:
            status = process.wait()
            break
        except KeyboardInterrupt:  # the benchmark answers Ctrl-C itself: it removes its runs' folders first
            continue
    if status:
        raise Exit(code=status)


@task(help={
    "old": "the leaderboard before: a leaderboard.json, a render folder, or a git ref (gh-pages~1, v3.1.0, REF:releases/vX.Y.Z)",
    "new": "the leaderboard after, named the same ways",
    "format": "text (default), markdown (for a GitHub job summary) or json (schemas/leaderboard-diff.schema.json)",
})
def diff(c, old, new, format="text"):
    """What changed from OLD to NEW, row by row (a row: suite, model, device), leakage regressions first.

    Exit status: 0 no row leaks more than before; 1 a leakage regression; 2 an input cannot be used (one line)."""
    from leaderboard_tools import diff as leaderboard_diff

    if format not in leaderboard_diff.FORMATS:
        fail(f"diff: --format must be one of {', '.join(leaderboard_diff.FORMATS)}, not {one_line(repr(format))}",
             exits.UNUSABLE)
    try:
        result = leaderboard_diff.diff_sources(old, new)
    except leaderboard_diff.UnusableInput as error:
        fail(f"diff: {error}", exits.UNUSABLE)
    try:
        sys.stdout.write(leaderboard_diff.FORMATS[format](result))
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (| head): nothing more to say, the status still tells
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if result.exit_code():
        raise Exit(code=result.exit_code())
