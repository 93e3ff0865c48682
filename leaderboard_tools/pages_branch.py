"""Commit to a branch (gh-pages) with plain git, without touching the repository's checked-out files,
index or current branch: a folder as the branch's whole tree (``commit_folder``), or a release kept
for good beside the others (``commit_release``: ``releases/<tag>/``, the latest at the root, the
list of releases, and at the root the feed of every release). ``python -m leaderboard_tools.pages_branch
latest-release REF [--before TAG]`` prints the latest release a pages branch keeps, or the latest
before TAG (the workflow compares a new release with it); ``--help`` says what empty output means."""

from __future__ import annotations

# Not ghp-import (what Pelican's tasks.py template uses): its commit replaces the branch's whole tree
# (fast-import's deleteall), so it cannot keep releases/<tag>/ beside the others, and it moves the
# branch (to the remote's, then to its commit) without a compare-and-swap of the old tip.

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Callable, Sequence

from pelican.utils import maybe_pluralize

from benchmark_leaderboard.paths import BADGES, FEED_PATH, PREVIOUS_COPY
from benchmark_leaderboard.versions import RELEASE_TAG, version_key, version_order

from . import exits
from .release import (CHECKSUMS, MARKER, NO_JEKYLL, RELEASE_LIST, RELEASES, UNCERTAINTY, KeptRelease,
                      KeptReleaseError, ReleaseSummary, kept_release, kept_release_path, latest_release, one_line,
                      release_summary, root_sums)

# Bytes in the commit exactly as in the folder, whatever the user's git configuration says.
_GIT = ["git", "-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "-c", "core.fileMode=true"]
# Files of the branch that GitHub Pages reads and a render may not have (CNAME: the site's own domain):
# a new commit keeps the tip's when the folder has none.
KEPT_FROM_TIP = ("CNAME", NO_JEKYLL)


class PagesBranchError(Exception):
    """The branch cannot be updated; the message is one line for the user."""


class ReleaseRewritten(PagesBranchError):
    """The release is kept on the branch already, with other bytes: a published release is never rewritten."""


def commit_folder(repository: str, folder: str, branch: str, message: str) -> str | None:
    """Make ``folder`` the tree of a new commit on ``branch`` (its parent: the branch's tip, if any).

    Returns the new commit's id, or None when the tip already holds exactly this tree."""
    ref, parent = _branch(repository, branch)
    with tempfile.TemporaryDirectory(prefix="pages-index-") as scratch:
        env = {**os.environ, "GIT_INDEX_FILE": os.path.join(scratch, "index")}
        # -f: the folder is published whole, whatever .gitignore or a global exclude file says.
        _git(repository, "--work-tree", os.path.abspath(folder), "add", "--all", "--force", ".", env=env)
        if parent is not None:
            _keep_from_tip(repository, parent, env)
        tree = _git(repository, "write-tree", env=env).stdout.strip()
    if parent is not None and _git(repository, "rev-parse", parent + "^{tree}").stdout.strip() == tree:
        return None
    return _commit(repository, ref, parent, tree, message)


def check_branch(repository: str, branch: str) -> None:
    """Raise ``PagesBranchError`` (one line) unless ``branch`` of ``repository`` can receive a commit:
    what a task checks before it renders anything."""
    _branch(repository, branch)


def _branch(repository: str, branch: str) -> tuple[str, str | None]:
    """The branch's full ref and its tip (None when it does not exist yet), once the repository is
    one, the name is valid and no worktree has the branch checked out."""
    if _git(repository, "rev-parse", "--git-dir", check=False).returncode != 0:
        raise PagesBranchError(f"{one_line(repository)} is not a git repository")
    ref = "refs/heads/" + branch
    if _git(repository, "check-ref-format", ref, check=False).returncode != 0:
        raise PagesBranchError(f"{one_line(repr(branch))} is not a valid branch name")
    holder = checked_out_in(repository, ref)
    if holder is not None:
        raise PagesBranchError(f"{branch} is checked out in {one_line(holder)}; switch to another branch there first")
    found = _git(repository, "rev-parse", "--verify", "--quiet", ref + "^{commit}", check=False)
    return ref, found.stdout.strip() if found.returncode == 0 else None


def _commit(repository: str, ref: str, parent: str | None, tree: str, message: str) -> str:
    commit = _git(repository, "commit-tree", tree, *(["-p", parent] if parent else []), input=message).stdout.strip()
    # Only move the branch if nobody else did meanwhile (an empty old value: the branch must not exist yet).
    _git(repository, "update-ref", "-m", message.splitlines()[0], ref, commit, parent or "")
    return commit


@dataclass(frozen=True)
class Kept:
    """What ``commit_release`` did: the new commit (None when the branch held it all already), the
    release at the branch's root, and every release the branch keeps, newest first."""

    commit: str | None
    latest: str
    releases: tuple[str, ...]


def commit_release(repository: str, folder: str, release_tag: str, branch: str, message: str,
                   list_page: Callable[[list[ReleaseSummary]], bytes],
                   root_feed: Callable[[list[KeptRelease]], bytes] | None = None,
                   absent_badges: Callable[[list[KeptRelease], str, set[str]], dict[str, bytes]] | None = None) -> Kept:
    """Keep the release render in ``folder`` at ``releases/<release_tag>/`` on ``branch``, beside
    the releases the tip keeps, in a new commit whose root is the latest release (the highest
    version) and whose ``releases/index.html`` is ``list_page`` of every kept release. Given
    ``root_feed``, the root's ``feeds/releases.atom.xml`` is ``root_feed`` of every kept release,
    in place of the latest's own, and the root's ``SHA256SUMS`` covers it. Given
    ``absent_badges``, each badge the tip's root holds and the latest release does not write (a
    model it dropped) stays, as ``absent_badges`` of every kept release, the latest and those
    paths makes it ("not in <latest>"), covered by the root's ``SHA256SUMS`` too; one it cannot make
    stays as the tip holds it. Only a commit that removes a badge from the branch removes it.

    A release the tip keeps already is never rewritten: the same bytes again change nothing (no
    commit when nothing else changed either), other bytes raise ``ReleaseRewritten``. The tip's
    CNAME (and .nojekyll) stay at the root when the render has none."""
    ref, parent = _branch(repository, branch)
    kept = kept_releases(repository, parent) if parent else {}
    with tempfile.TemporaryDirectory(prefix="pages-index-") as scratch:
        render_env = {**os.environ, "GIT_INDEX_FILE": os.path.join(scratch, "render-index")}
        # -f: the folder is published whole, whatever .gitignore or a global exclude file says.
        _git(repository, "--work-tree", os.path.abspath(folder), "add", "--all", "--force", ".", env=render_env)
        render_tree = _git(repository, "write-tree", env=render_env).stdout.strip()
        if release_tag in kept and kept[release_tag] != render_tree:
            differ = _git(repository, "diff-tree", "-r", "--no-renames", "--name-only", "-z", kept[release_tag],
                          render_tree).stdout.strip("\0").split("\0")
            raise ReleaseRewritten(
                f"{kept_release_path(release_tag)} on {branch} already holds {release_tag} with other bytes "
                f"({maybe_pluralize(len(differ), 'file differs', 'files differ')}); a published release is never "
                "rewritten: publish the change under a new release tag")
        trees = {**kept, release_tag: render_tree}
        latest = latest_release(trees)
        env = {**os.environ, "GIT_INDEX_FILE": os.path.join(scratch, "index")}
        _git(repository, "read-tree", trees[latest], env=env)
        for tag in sorted(trees):
            # -i: into the temporary index alone. A --prefix read is a merge, which otherwise checks
            # a work tree a bare repository (a push mirror, a server's copy) does not have.
            _git(repository, "read-tree", "-i", f"--prefix={kept_release_path(tag)}/", trees[tag], env=env)
        releases = [_kept(repository, tag, tree) for tag, tree in sorted(trees.items())]
        summaries = [release_summary(item.release_tag, item.leaderboard, item.has_changes) for item in releases]
        _add_blob(repository, RELEASE_LIST, list_page(summaries), env)
        own: dict[str, bytes] = {}  # the root's own files, in place of or beside the latest release's
        if root_feed is not None:
            own[FEED_PATH] = root_feed(releases)
        if absent_badges is not None and parent is not None:
            gone = _paths_under(repository, parent, BADGES) - _paths_under(repository, trees[latest], BADGES)
            own.update(absent_badges(releases, latest, gone))
            _keep_from_tip(repository, parent, env, sorted(gone - own.keys()))
        if own:
            for path, data in sorted(own.items()):
                _add_blob(repository, path, data, env)
            sums = _git_bytes(repository, "cat-file", "blob", f"{trees[latest]}:{CHECKSUMS}").decode("utf-8", "surrogateescape")
            _add_blob(repository, CHECKSUMS, root_sums(sums, own).encode("utf-8", "surrogateescape"), env)
        if parent is not None:
            _keep_from_tip(repository, parent, env)
        tree = _git(repository, "write-tree", env=env).stdout.strip()
    ordered = tuple(sorted(trees, key=version_order, reverse=True))
    if parent is not None and _git(repository, "rev-parse", parent + "^{tree}").stdout.strip() == tree:
        return Kept(None, latest, ordered)
    return Kept(_commit(repository, ref, parent, tree, message), latest, ordered)


def _paths_under(repository: str, tree: str, folder: str) -> set[str]:
    """The paths of every file of ``tree`` below ``folder`` (which ends with ``/``)."""
    listing = _git(repository, "ls-tree", "-r", "-z", "--name-only", tree, "--", folder).stdout
    return {path for path in listing.split("\0") if path}


def kept_releases(repository: str, commit: str) -> dict[str, str]:
    """The releases ``commit`` keeps: each folder of ``releases/`` named like a release tag -> its tree id."""
    listing = _git(repository, "ls-tree", "-z", commit, "--", RELEASES + "/", check=False)
    kept = {}
    for entry in listing.stdout.split("\0"):
        if not entry:
            continue
        info, _, path = entry.partition("\t")
        mode, kind, identity = info.split()
        name = path[len(RELEASES) + 1:]
        if kind == "tree" and RELEASE_TAG.fullmatch(name):
            kept[name] = identity
    return kept


def _add_blob(repository: str, path: str, data: bytes, env: dict[str, str]) -> None:
    """Put ``data`` at ``path`` in the index of ``env`` (a regular file)."""
    blob = _git(repository, "hash-object", "-w", "--stdin", input_bytes=data).stdout.strip()
    _git(repository, "update-index", "--add", "--cacheinfo", f"100644,{blob},{path}", env=env)


def _kept(repository: str, release_tag: str, tree: str) -> KeptRelease:
    """A kept release, read from its tree: its marker must name it, its leaderboard.json (and the
    previous leaderboard it keeps, when it was published with a changes page) must be schema v1
    leaderboards."""
    where = kept_release_path(release_tag)
    marker = _git(repository, "cat-file", "blob", f"{tree}:{MARKER}", check=False)
    try:
        recorded = json.loads(marker.stdout).get("release_tag") if marker.returncode == 0 else None
    except (ValueError, AttributeError):
        recorded = None
    if recorded != release_tag:
        raise PagesBranchError(f"{where} is not the render of {release_tag} (its {MARKER} says otherwise or is missing)")
    data = _git_bytes(repository, "cat-file", "blob", f"{tree}:leaderboard.json")
    previous, uncertainty = (_git_bytes(repository, "cat-file", "blob", f"{tree}:{file}")
                             if _git(repository, "cat-file", "-e", f"{tree}:{file}", check=False).returncode == 0 else None
                             for file in (PREVIOUS_COPY, UNCERTAINTY))
    try:
        return kept_release(release_tag, data, previous, where, uncertainty)
    except KeptReleaseError as error:
        raise PagesBranchError(str(error)) from None


def checked_out_in(repository: str, ref: str) -> str | None:
    """The worktree of ``repository`` (the main one or any added one) that has ``ref`` checked out, or None.

    Moving such a branch would leave that worktree's files and index behind its HEAD; git refuses it too."""
    listing = _git(repository, "worktree", "list", "--porcelain", "-z").stdout
    for record in listing.split("\0\0"):
        fields = dict(field.split(" ", 1) if " " in field else (field, "") for field in record.split("\0") if field)
        if fields.get("branch") == ref:
            return fields.get("worktree", repository)
    return None


def _keep_from_tip(repository: str, parent: str, env: dict[str, str], names: Sequence[str] = KEPT_FROM_TIP) -> None:
    """Add to the index each file of ``names`` (``KEPT_FROM_TIP`` unless given) that the tip's tree
    has and the index has not."""
    if not names:
        return
    staged = set(_git(repository, "ls-files", "-z", "--cached", "--", *names, env=env).stdout.split("\0"))
    for name in names:
        if name in staged:
            continue
        entry = _git(repository, "ls-tree", "-z", parent, "--", name).stdout.rstrip("\0")
        if not entry:
            continue
        info, _, path = entry.partition("\t")
        mode, kind, blob = info.split()
        if kind == "blob" and path == name:
            _git(repository, "update-index", "--add", "--cacheinfo", f"{mode},{blob},{name}", env=env)


def push(repository: str, remote: str, branch: str) -> None:
    _git(repository, "push", remote, f"refs/heads/{branch}:refs/heads/{branch}")


def _git(repository: str, *args: str, env: dict[str, str] | None = None, input: str | None = None,
         check: bool = True, input_bytes: bytes | None = None) -> subprocess.CompletedProcess:
    if input_bytes is not None:  # bytes in, text out: what hash-object needs for a page
        completed = subprocess.run([*_GIT, "-C", repository, *args], env=env, input=input_bytes, capture_output=True)
        completed.stdout, completed.stderr = completed.stdout.decode(), completed.stderr.decode(errors="replace")
    else:
        completed = subprocess.run([*_GIT, "-C", repository, *args], env=env, input=input, capture_output=True,
                                   text=True, errors="surrogateescape")
    if check and completed.returncode != 0:
        detail = (completed.stderr.strip() or completed.stdout.strip()).splitlines()
        command = next(arg for arg in args if not arg.startswith(("-", "/")))  # the subcommand
        raise PagesBranchError(f"git {command} failed: {one_line(detail[-1]) if detail else 'exit ' + str(completed.returncode)}")
    return completed


def _git_bytes(repository: str, *args: str) -> bytes:
    """A git command's standard output as bytes (a blob exactly as committed)."""
    completed = subprocess.run([*_GIT, "-C", repository, *args], capture_output=True)
    if completed.returncode != 0:
        detail = completed.stderr.decode(errors="replace").strip().splitlines()
        raise PagesBranchError(f"git {args[0]} failed: {one_line(detail[-1]) if detail else 'exit ' + str(completed.returncode)}")
    return completed.stdout


USAGE = "usage: python -m leaderboard_tools.pages_branch latest-release REF [--before TAG] [--repo PATH]"
HELP = f"""{USAGE}

Prints, on one line, the highest release (in version order) that REF of the repository at PATH
(default: the current folder) keeps under releases/; with --before TAG, the highest that comes
strictly before TAG, the release TAG is compared with when it is published.

Empty output, exit 0: REF exists and keeps no such release (the first release, or none before TAG).
A REF that does not exist (a branch not published yet) is an error: one line, exit 2; a workflow
checks that the branch exists before it asks.
"""


def main(argv: list[str] | None = None) -> int:
    """``latest-release REF [--before TAG] [--repo PATH]``: the latest release REF keeps under releases/
    (before TAG, when given), printed on one line; nothing when it keeps none; one line and exit 2
    when REF does not exist (``HELP`` says each)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if any(arg in ("-h", "--help") for arg in args):
        print(HELP, end="")
        return exits.DONE
    options = {"--repo": ".", "--before": None}
    positional = []
    while args:
        arg = args.pop(0)
        if arg in options and args:
            options[arg] = args.pop(0)
        else:
            positional.append(arg)
    if len(positional) != 2 or positional[0] != "latest-release":
        print(USAGE, file=sys.stderr)
        return exits.UNUSABLE
    ref, repository, before = positional[1], options["--repo"], options["--before"]
    if before is not None and RELEASE_TAG.fullmatch(before) is None:
        print(f"latest-release: --before {one_line(repr(before))} is not a release tag (vMAJOR.MINOR.PATCH)", file=sys.stderr)
        return exits.UNUSABLE
    if _git(repository, "rev-parse", "--git-dir", check=False).returncode != 0:
        print(f"latest-release: {one_line(repository)} is not a git repository", file=sys.stderr)
        return exits.UNUSABLE
    found = _git(repository, "rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}", check=False)
    if found.returncode != 0:
        print(f"latest-release: {one_line(ref)} is no branch, tag or commit of {one_line(repository)} "
              "(a branch not published yet does not exist)", file=sys.stderr)
        return exits.UNUSABLE
    kept = kept_releases(repository, found.stdout.strip())
    if before is not None:
        kept = [tag for tag in kept if version_key(tag) < version_key(before)]
    latest = latest_release(kept)
    if latest:
        print(latest)
    return exits.DONE


if __name__ == "__main__":
    sys.exit(main())
