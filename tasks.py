"""Tasks for working on the leaderboard site: ``invoke --list`` shows them."""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import subprocess
import sys
import tempfile
from contextlib import contextmanager

from invoke import Exit, Task, task

from benchmark_leaderboard.decide.comparison import previous_release_problem
from benchmark_leaderboard.paths import BADGES, PREVIOUS_COPY
from benchmark_leaderboard.problems import BuildRefused
from benchmark_leaderboard.write.output import one_line
from leaderboard_tools import exits, pages_branch, preview, release, runner
from leaderboard_tools.build_settings import build_overrides, output_refusal, pelican_settings
from leaderboard_tools.clean import clean as clean_output
from leaderboard_tools.faults import BuildError
from leaderboard_tools.interrupts import BuildInterrupted
from leaderboard_tools.runner import build as render

HERE = os.path.dirname(os.path.abspath(__file__))

SETTINGS = os.path.join(HERE, "pelicanconf.py")

# The short flag of every option of every task, in one table: a letter means one thing in every task
# (``-r`` is always --reports-dir), so that the tasks that take build's flags take them the same way.
# An option not listed here has only its long name (test's -k is a letter already).
SHORT_FLAGS = {
    "reports-dir": "r",
    "output-dir": "o",
    "manifest": "m",
    "release-tag": "e",
    "previous": "P",
    "port": "p",
    "bind": "b",
    "format": "f",
    "sizes": "s",
    "runs": "n",
    "work": "w",
}


class FlagsTask(Task):
    """An invoke task whose short flags come from ``SHORT_FLAGS`` rather than from each option's first
    free letter (which made ``-r`` mean --reports-dir in one task and --release-tag in another)."""

    def __init__(self, *args, **kwargs):
        kwargs["auto_shortflags"] = False
        super().__init__(*args, **kwargs)

    def arg_opts(self, name, default, taken_names):
        opts = super().arg_opts(name, default, taken_names)
        short = SHORT_FLAGS.get(opts["names"][0])
        if short is not None and short != opts["names"][0]:
            opts["names"] = [opts["names"][0], short]
        return opts


def task_with_flags(*args, **kwargs):
    """``@task`` with the short flags of ``SHORT_FLAGS``."""
    return task(*args, klass=FlagsTask, **kwargs)

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
    "previous": "the leaderboard this release is compared with for its changes page (changes.html): a leaderboard.json, "
                "a render folder or a git ref (gh-pages:releases/vX.Y.Z); without it, no changes page",
}


def fail(line, code):
    """End the task: ``line`` on stderr (once, even if stderr is a closed pipe), exit status ``code``."""
    say(line)
    raise Exit(code=code)


def run_build(reports_dir=None, output_dir="output", manifest=None, release_tag=None, settings=SETTINGS, finish=None,
              extra=None):
    """Render the site; on failure print every problem, one a line, and exit with a status of ``exits``."""
    refuse_unusable_tag(release_tag)
    try:
        summary = render(settings, output_dir, reports_dir=reports_dir, manifest=manifest, release_tag=release_tag,
                         finish=finish, progress=say, extra=extra)
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


def refuse_unusable_tag(release_tag):
    """Exit 2 with one line unless ``release_tag`` (build's --release-tag) can be a row's release tag."""
    problem = release.build_tag_problem(release_tag)
    if problem:
        fail(f"build refused: {problem}", exits.UNUSABLE)


def refuse_unusable_output(output_dir, reports_dir=None, manifest=None, settings=SETTINGS):
    """Exit 2 with one line unless a build may write into ``output_dir`` (what ``build`` checks first)."""
    try:
        problem = output_refusal(settings, output_dir, build_overrides(reports_dir, manifest))
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


@task_with_flags(help=BUILD_HELP)
def build(c, reports_dir=None, output_dir="output", manifest=None, release_tag=None):
    """Render the archive into the output folder (index.html, leaderboard.json, reports/, pages).

    Prints a one-line summary on stderr. Exit status (leaderboard_tools/exits.py): 0 built; 1 refused,
    with one line per problem (file: /pointer: rule); 2 an input or the output cannot be used (no
    reports folder, a folder as the manifest, an output that is not an earlier render, a full disk,
    another build writing it); 130 or 143 interrupted by Ctrl-C or SIGTERM. A build that does not
    finish leaves the output folder as it was and no temporary folder beside it.
    """
    run_build(reports_dir, output_dir, manifest, release_tag)


@task_with_flags(help=SERVE_HELP)
def serve(c, reports_dir=None, output_dir="output", manifest=None, release_tag=None, port=None, bind="127.0.0.1"):
    """Build, then serve the output folder on loopback until Ctrl-C."""
    refuse_public_bind(bind)
    port = checked_port(port)
    run_build(reports_dir, output_dir, manifest, release_tag)
    serve_until_stopped(output_dir, bind, port)


@task_with_flags(help=SERVE_HELP)
def livereload(c, reports_dir=None, output_dir="output", manifest=None, release_tag=None, port=None, bind="127.0.0.1"):
    """Serve like `serve`, rebuild on every change and reload the open page.

    Watched: the reports folder, the manifest, content/, theme/, plugins/ and pelicanconf.py. A change that
    breaks the archive prints its problems, and the last good site stays served."""
    refuse_public_bind(bind)
    port = checked_port(port)
    refuse_unusable_tag(release_tag)
    refuse_unusable_output(output_dir, reports_dir, manifest)  # before anything is watched or served
    # In this process, keeping what the archive's files made when read, until the plugin's code changes.
    rebuilds = preview.Rebuilds(SETTINGS, output_dir, reports_dir, manifest, release_tag, live=True,
                                code=[os.path.join(HERE, "plugins")])
    watched = [reports_dir or os.path.join(HERE, "content", "benchmarks"), manifest or os.path.join(HERE, "models.jsonl"),
               os.path.join(HERE, "content"), os.path.join(HERE, "theme"), os.path.join(HERE, "plugins"), SETTINGS]
    changes_seen = preview.watch(watched, ignore=[output_dir])  # from now on: an edit during the first build counts
    server = None
    with stop_on_sigterm() as stopped:
        try:
            good = rebuilds.run()
            server = start_preview(output_dir, bind, port, live=True)
            if not good:
                say("the first build failed: fix the problems above; the site is rebuilt on the next change")
            say("watching " + ", ".join(shown_path(path) for path in watched))
            for changes in changes_seen:
                say(f"changed: {describe_changes(changes)}; rebuilding")
                if rebuilds.run(changes):
                    server.new_build()
                    say("rebuilt; open pages reload")
                else:
                    say(f"the build failed; still serving the last good site in {output_dir}")
        except KeyboardInterrupt:
            pass
        finally:
            changes_seen.close()
            if server is not None:
                server.shutdown()
    say("stopped")
    raise Exit(code=exits.interrupted(stopped.signum))


@task_with_flags(help={"output-dir": "the rendered folder to remove (default: output)"})
def clean(c, output_dir="output"):
    """Remove the output folder's render, only if it is a render of this site or empty.

    A render holds .leaderboard-render.json, which lists every file it wrote: only those go, and what
    the render did not write stays, named in one line. A folder without that marker holds nothing of
    the site's: it is already clean (one line, exit 0). What a killed build left beside the output goes
    too. A link as the output stays (the folder it leads to is emptied), as does a mount point. Waits for
    a build of the same output, like a build does."""
    try:
        say(clean_output(SETTINGS, output_dir))
    except BuildInterrupted as interrupt:
        fail(interrupt.line(), exits.interrupted(interrupt.signum))
    except BuildError as error:
        fail(error.line(), exits.UNUSABLE)


@task_with_flags(help=RELEASE_HELP)
def publish(c, release_tag=None, reports_dir=None, output_dir="output", manifest=None, previous=None):
    """Render a release for its permanent address, with SHA256SUMS over every file.

    publishconf.py's absolute URLs under openmed.life/.../releases/<tag>; with --previous, also its changes
    page (changes.html)."""
    refuse_bad_tag(release_tag)
    with previous_leaderboard("publish", previous, release_tag) as previous_path:
        run_release(release_tag, reports_dir, output_dir, manifest, previous_path)
    compared = f"; changes.html compares it with {one_line(previous)}" if previous else ""
    say(f"published {release_tag} into {output_dir}{compared}; check it with: sha256sum -c {release.CHECKSUMS}")


@task_with_flags(help={**RELEASE_HELP, "output-dir": "the published folder to check (required): a release render, a kept "
            "release (<clone>/releases/vX.Y.Z) or a clone of the pages branch (its root: the latest release)",
            "previous": "the leaderboard the release was compared with (default: the copy it keeps, "
                        "changes/previous-leaderboard.json, when it has one)"})
def verify(c, release_tag=None, reports_dir=None, output_dir=None, manifest=None, previous=None):
    """Render the release again and compare it with a published folder, file by file; exit 0 only if identical."""
    if not output_dir:
        raise Exit("verify needs --output-dir: the published folder to check", code=exits.UNUSABLE)
    if not os.path.isdir(output_dir):
        raise Exit(f"verify: {output_dir} is not a folder", code=exits.UNUSABLE)
    refuse_bad_tag(release_tag)
    # What the folder says it is comes first: the render of another release is refused without a render.
    problem = release.release_marker_problem(output_dir, release_tag)
    if problem:
        raise Exit(f"verify: {problem}", code=exits.REFUSED)
    shown = release.one_line(output_dir)
    # What a folder holds beside the render and is no part of it: the repository of a clone or worktree
    # (a folder, or a worktree's file), and at the pages branch's root its own list of releases and domain.
    beside = ((".git", ""), (release.RELEASES, ": the pages branch's own list of releases"),
              ("CNAME", ": the pages branch's custom domain"))
    ignored = tuple(name for name, _ in beside if os.path.lexists(os.path.join(output_dir, name)))
    for name, why in beside:
        if name in ignored:
            say(f"verify: ignoring {name} in {shown}{why}")
    if previous is None and os.path.isfile(os.path.join(output_dir, PREVIOUS_COPY)):
        previous = os.path.join(output_dir, PREVIOUS_COPY)
        say(f"verify: comparing with the previous leaderboard it keeps, {release.one_line(previous)}")
    # At the pages branch's root, the feed lists every kept release: it is made again from releases/.
    kept = None
    if release.RELEASES in ignored:
        try:
            kept = release.kept_releases_in(os.path.join(output_dir, release.RELEASES))
        except (release.KeptReleaseError, OSError) as error:
            raise Exit(f"verify: the root's feed cannot be made again: {error}", code=exits.UNUSABLE)
    with tempfile.TemporaryDirectory(prefix="leaderboard-verify-") as scratch, \
            previous_leaderboard("verify", previous, release_tag) as previous_path:
        fresh = os.path.join(scratch, "render")
        run_release(release_tag, reports_dir, fresh, manifest, previous_path)
        if kept is not None:
            # The root keeps the badge of a model the latest release dropped, made again from the kept
            # releases: those it holds beside the render's own.
            settings = pelican_settings(PUBLISH_SETTINGS, {})
            badges = release.absent_badges(kept, release_tag, _badges_in(output_dir) - _badges_in(fresh), settings)
            release.seal_root(fresh, kept, settings, badges)
            say(f"verify: the root's feed lists the {len(kept)} release{'s' if len(kept) != 1 else ''} kept in "
                f"{release.one_line(os.path.join(output_dir, release.RELEASES))}"
                + (f"; it keeps {len(badges)} badge{'s' if len(badges) != 1 else ''} of "
                   f"{'a model' if len(badges) == 1 else 'models'} not in {release_tag}" if badges else ""))
        expected = release.tree_digests(fresh)
    try:
        published = release.tree_digests(output_dir, ignore=ignored)
    except OSError as error:
        raise Exit(f"verify: cannot read {release.one_line(error.filename or output_dir)}: {error.strerror or error}",
                   code=exits.UNUSABLE)
    difference = release.compare_trees(expected, published)
    if difference:
        for line in difference.lines():
            print(line)
        count = len(difference.lines())
        raise Exit(f"verify: {output_dir} is not the render of this archive: "
                   f"{count} {'file differs' if count == 1 else 'files differ'} "
                   "(added: only in the folder; missing: only in the render; changed: other bytes)",
                   code=exits.REFUSED)
    say(f"verified: {output_dir} is identical to the render of {release_tag} ({len(expected)} files)")


def _badges_in(folder):
    """The paths of the badges a render or the pages branch's root holds, relative to it."""
    badges = os.path.join(folder, BADGES)
    return {BADGES + path for path in release.tree_digests(badges)} if os.path.isdir(badges) else set()


@task_with_flags(help={**{k: v for k, v in RELEASE_HELP.items() if k != "output-dir"}, "repo": "the git repository whose branch receives the render, and where --previous's git ref is read (default: the current folder)",
            "branch": "the branch (default: gh-pages)", "push": "a remote to push the branch to afterwards"},
      name="gh-pages")
def gh_pages(c, release_tag=None, reports_dir=None, manifest=None, repo=".", branch="gh-pages", push=None, previous=None):
    """Keep a release render on the gh-pages branch for good, one commit per release.

    At releases/<tag>/, the latest release (the highest version) at the root with the feed of every
    release (feeds/releases.atom.xml), and releases/index.html listing them all. A release already kept is never rewritten (the same bytes: no commit; other bytes:
    refused)."""
    refuse_bad_tag(release_tag)
    try:  # the repository and its branch first: nothing is rendered for a branch that cannot take it
        pages_branch.check_branch(repo, branch)
    except pages_branch.PagesBranchError as error:
        raise Exit(f"gh-pages: {error}", code=exits.UNUSABLE)
    with tempfile.TemporaryDirectory(prefix="leaderboard-pages-") as scratch, \
            previous_leaderboard("gh-pages", previous, release_tag, repo) as previous_path:
        render_folder = os.path.join(scratch, "render")
        run_release(release_tag, reports_dir, render_folder, manifest, previous_path)
        kept_at = release.kept_release_path(release_tag)
        message = (f"Publish the benchmark leaderboard {release_tag}\n\n"
                   f"Release render of {release_tag}, kept at {kept_at}/; SHA256SUMS lists every file, and\n"
                   f"`invoke verify --release-tag {release_tag} --output-dir <checkout>/{kept_at}` checks it against the archive.\n")
        settings = pelican_settings(PUBLISH_SETTINGS, {})
        try:
            kept = pages_branch.commit_release(repo, render_folder, release_tag, branch, message,
                                               lambda releases: release.release_list_page(releases, settings),
                                               lambda releases: release.root_feed(releases, settings),
                                               lambda releases, latest, paths: release.absent_badges(
                                                   releases, latest, paths, settings))
            if push:
                pages_branch.push(repo, push, branch)
        except pages_branch.PagesBranchError as error:
            raise Exit(f"gh-pages: {error}", code=exits.UNUSABLE)
    root = f"the root holds {kept.latest}" + ("" if kept.latest == release_tag else " (a higher version)")
    if kept.commit is None:
        say(f"{branch} already holds this render of {release_tag}: no new commit")
    else:
        say(f"{branch} is now {kept.commit[:12]}: {release_tag} kept at {kept_at}/, {root}, "
            f"{len(kept.releases)} release{'s' if len(kept.releases) != 1 else ''} in {release.RELEASE_LIST}"
            + (f"; pushed to {push}" if push else ""))


@contextmanager
def previous_leaderboard(task_name, source, release_tag, repository=None):
    """The path of a file holding the exact bytes of the leaderboard ``source`` names (what ``invoke diff``
    reads: a file, a render folder or a git ref, of ``repository`` when given, else of the working
    folder's), checked first as the build checks it: a schema v1 leaderboard that does not contradict
    itself, whose newest release comes before ``release_tag``; None without a source. An unusable one
    ends the task with one line (exit 2) before anything is rendered."""
    if source is None:
        yield None
        return
    from leaderboard_tools import diff as leaderboard_diff

    try:
        data = leaderboard_diff.source_bytes(source, repository)
        document = leaderboard_diff.parse_leaderboard(data, source)
    except leaderboard_diff.UnusableInput as error:
        fail(f"{task_name}: the previous leaderboard {error}", exits.UNUSABLE)
    problem = previous_release_problem(document, release_tag)
    if problem:
        fail(f"{task_name}: the previous leaderboard {one_line(source)} {problem}", exits.UNUSABLE)
    with tempfile.TemporaryDirectory(prefix="leaderboard-previous-") as scratch:
        path = os.path.join(scratch, "leaderboard.json")
        with open(path, "wb") as handle:
            handle.write(data)
        yield path


def run_release(release_tag, reports_dir, output_dir, manifest, previous=None):
    """A release render: the tag checked, publishconf.py with the release's permanent address as SITEURL and
    canonical address (and the previous leaderboard, when given, for its changes page), then the marker,
    .nojekyll and SHA256SUMS in the same swap."""
    refuse_bad_tag(release_tag)
    site_url = pelican_settings(PUBLISH_SETTINGS, {})["SITEURL"]
    extra = {**release.release_settings(site_url, release_tag), "LEADERBOARD_PREVIOUS_LEADERBOARD": previous}
    return run_build(reports_dir, output_dir, manifest, release_tag, settings=PUBLISH_SETTINGS,
                     finish=lambda folder: release.seal_release(folder, release_tag), extra=extra)


def refuse_bad_tag(release_tag):
    problem = release.release_tag_problem(release_tag)
    if problem:
        raise Exit(f"release refused: {problem}", code=exits.UNUSABLE)


def refuse_public_bind(bind):
    problem = preview.loopback_problem(bind)
    if problem:
        raise Exit(f"serve refused: {problem}", code=exits.UNUSABLE)


def start_preview(output_dir, bind, port, live):
    try:
        server = preview.start_server(output_dir, bind, port, live=live)
    except OSError as error:
        fail(f"cannot listen on {bind}:{port}: {error.strerror or error}", exits.UNUSABLE)
    say(f"serving {output_dir} at {server.url()} (Ctrl-C stops)")
    return server


def serve_until_stopped(output_dir, bind, port):
    """Serve until Ctrl-C or SIGTERM, then shut down and exit as interrupted (130 or 143, ``exits``).
    Either is caught from before the server starts, so that one coming as soon as it is up stops it too."""
    server = None
    with stop_on_sigterm() as stopped:
        try:
            server = start_preview(output_dir, bind, port, live=False)
            signal.pause() if hasattr(signal, "pause") else server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            if server is not None:
                server.shutdown()
    say("stopped")
    raise Exit(code=exits.interrupted(stopped.signum))


class stop_on_sigterm:
    """Within it, SIGTERM stops like Ctrl-C does: the server shuts down cleanly. ``signum`` is the signal
    that stopped it (SIGINT unless SIGTERM came)."""

    def __enter__(self):
        self.signum = signal.SIGINT

        def interrupt(signum, frame):
            self.signum = signum
            raise KeyboardInterrupt
        self.previous = signal.signal(signal.SIGTERM, interrupt)
        return self

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


# What `make test` adds to what building needs (requirements-test.lock; pyproject.toml's test extra),
# by the name each is imported by: the test suite and the benchmark need every one.
TEST_PACKAGES = ("pytest", "playwright", "axe_playwright_python", "openmed", "yaml", "statsmodels", "lxml", "feedparser",
                 "fontTools")


def require_test_packages(task_name):
    """End the task with one line (exit 2), before any work, unless the test packages are installed."""
    missing = [name for name in TEST_PACKAGES if importlib.util.find_spec(name) is None]
    if missing:
        fail(f"{task_name}: the test packages are not installed ({', '.join(missing)} missing; make build installs "
             f"only what building needs): run make test once, which installs requirements-test.lock", exits.UNUSABLE)


@task_with_flags(help={"k": "only the tests whose names match this pytest -k expression"})
def test(c, k=None):
    """Run the whole test suite (pytest), browser tests included; `make test` installs what it needs first."""
    require_test_packages("test")
    selection = f" -k {k!r}" if k else ""
    c.run(f"{sys.executable} -m pytest{selection}", pty=False)


@task_with_flags(help={
    "sizes": "comma-separated archive sizes, in reports (default: 10000,100000)",
    "runs": "timed renders of each renderer per size and situation, alternating (default: 3)",
    "browser": "measure the project's page of the largest archive in Chromium (default: on)",
    "profile": "instead, the CPU per report of each phase of a build and a rebuild (benchmarks/profile.py)",
    "label": "with --profile, the name of its section in benchmarks/results.md (default: current)",
    "work": "the folder the archives and the runs (or the profiled builds) are written to (default: benchmarks/.work); one on tmpfs leaves the disk out",
    "releases": "with --profile, each size's reports as this many releases of the same models: a model page of as many reports (default: 1)",
})
def bench(c, sizes=None, runs=None, browser=True, profile=False, label=None, work=None, releases=None):
    """Benchmark against the reference renderer; prints the figures and writes benchmarks/results.md.

    Needs the test packages (make test installs them), which have the reference renderer; --profile
    measures the project alone and needs only what building needs."""
    if releases is not None and not profile:
        fail("bench: --releases is an option of --profile", exits.UNUSABLE)
    if not profile:
        require_test_packages("bench")
    # In a process of its own, started here: `python -m` puts this folder first on the module path,
    # so that `benchmarks` is this project's and not an installed package of the same name.
    flags = (["--sizes", str(sizes)] if sizes is not None else [])
    flags += ["--work", str(work)] if work is not None else []
    if profile:
        module = "benchmarks.profile"
        flags += ["--label", str(label)] if label is not None else []
        flags += ["--releases", str(releases)] if releases is not None else []
    else:
        module = "benchmarks.run"
        flags += (["--runs", str(runs)] if runs is not None else []) + ([] if browser else ["--no-browser"])
    process = subprocess.Popen([sys.executable, "-m", module, *flags], cwd=HERE)
    while True:
        try:
            status = process.wait()
            break
        except KeyboardInterrupt:  # the benchmark answers Ctrl-C itself: it removes its runs' folders first
            continue
    if status:
        raise Exit(code=status)


@task_with_flags(help={
    "old": "the leaderboard before: a leaderboard.json, a render folder, or a git ref (gh-pages~1, v3.1.0, REF:releases/vX.Y.Z)",
    "new": "the leaderboard after, named the same ways",
    "format": "text (default), markdown (for a GitHub job summary) or json (schemas/leaderboard-diff.schema.json)",
})
def diff(c, old, new, format="text"):
    """What changed from OLD to NEW, row by row (a row: suite, model, device), rows that leak more first.

    The kinds of change, in order: leaks-more, fell (recall or F1), added, removed, improved, moved (rank),
    field. Exit status: 0 no row leaks more than before; 1 a row leaks more; 2 an input cannot be used (one line)."""
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
