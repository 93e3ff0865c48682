"""Commit a folder as the whole tree of a branch (gh-pages), with plain git and without touching the
repository's checked-out files, index or current branch."""

from __future__ import annotations

import os
import subprocess
import tempfile

from .release import NO_JEKYLL, one_line

# Bytes in the commit exactly as in the folder, whatever the user's git configuration says.
_GIT = ["git", "-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "-c", "core.fileMode=true"]
# Files of the branch that GitHub Pages reads and a render may not have (CNAME: the site's own domain):
# a new commit keeps the tip's when the folder has none.
KEPT_FROM_TIP = ("CNAME", NO_JEKYLL)


class PagesBranchError(Exception):
    """The branch cannot be updated; the message is one line for the user."""


def commit_folder(repository: str, folder: str, branch: str, message: str) -> str | None:
    """Make ``folder`` the tree of a new commit on ``branch`` (its parent: the branch's tip, if any).

    Returns the new commit's id, or None when the tip already holds exactly this tree."""
    if _git(repository, "rev-parse", "--git-dir", check=False).returncode != 0:
        raise PagesBranchError(f"{repository} is not a git repository")
    ref = "refs/heads/" + branch
    if _git(repository, "check-ref-format", ref, check=False).returncode != 0:
        raise PagesBranchError(f"{branch!r} is not a valid branch name")
    holder = checked_out_in(repository, ref)
    if holder is not None:
        raise PagesBranchError(f"{branch} is checked out in {one_line(holder)}; switch to another branch there first")
    found = _git(repository, "rev-parse", "--verify", "--quiet", ref + "^{commit}", check=False)
    parent = found.stdout.strip() if found.returncode == 0 else None
    with tempfile.TemporaryDirectory(prefix="pages-index-") as scratch:
        env = {**os.environ, "GIT_INDEX_FILE": os.path.join(scratch, "index")}
        # -f: the folder is published whole, whatever .gitignore or a global exclude file says.
        _git(repository, "--work-tree", os.path.abspath(folder), "add", "--all", "--force", ".", env=env)
        if parent is not None:
            _keep_from_tip(repository, parent, env)
        tree = _git(repository, "write-tree", env=env).stdout.strip()
    if parent is not None and _git(repository, "rev-parse", parent + "^{tree}").stdout.strip() == tree:
        return None
    commit = _git(repository, "commit-tree", tree, *(["-p", parent] if parent else []), input=message).stdout.strip()
    # Only move the branch if nobody else did meanwhile (an empty old value: the branch must not exist yet).
    _git(repository, "update-ref", "-m", message.splitlines()[0], ref, commit, parent or "")
    return commit


def checked_out_in(repository: str, ref: str) -> str | None:
    """The worktree of ``repository`` (the main one or any added one) that has ``ref`` checked out, or None.

    Moving such a branch would leave that worktree's files and index behind its HEAD; git refuses it too."""
    listing = _git(repository, "worktree", "list", "--porcelain", "-z").stdout
    for record in listing.split("\0\0"):
        fields = dict(field.split(" ", 1) if " " in field else (field, "") for field in record.split("\0") if field)
        if fields.get("branch") == ref:
            return fields.get("worktree", repository)
    return None


def _keep_from_tip(repository: str, parent: str, env: dict[str, str]) -> None:
    """Add to the index each file of ``KEPT_FROM_TIP`` that the tip's tree has at its root and the folder has not."""
    staged = set(_git(repository, "ls-files", "-z", "--cached", "--", *KEPT_FROM_TIP, env=env).stdout.split("\0"))
    for name in KEPT_FROM_TIP:
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
         check: bool = True) -> subprocess.CompletedProcess:
    completed = subprocess.run([*_GIT, "-C", repository, *args], env=env, input=input, capture_output=True, text=True)
    if check and completed.returncode != 0:
        detail = (completed.stderr.strip() or completed.stdout.strip()).splitlines()
        command = next(arg for arg in args if not arg.startswith(("-", "/")))  # the subcommand
        raise PagesBranchError(f"git {command} failed: {detail[-1] if detail else 'exit ' + str(completed.returncode)}")
    return completed
