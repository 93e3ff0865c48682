"""Commit a folder as the whole tree of a branch (gh-pages), with plain git and without touching the
repository's checked-out files, index or current branch."""

from __future__ import annotations

import os
import subprocess
import tempfile

# Bytes in the commit exactly as in the folder, whatever the user's git configuration says.
_GIT = ["git", "-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "-c", "core.fileMode=true"]


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
    head = _git(repository, "symbolic-ref", "--quiet", "HEAD", check=False).stdout.strip()
    if head == ref:
        raise PagesBranchError(f"{branch} is checked out in {repository}; switch to another branch first")
    found = _git(repository, "rev-parse", "--verify", "--quiet", ref + "^{commit}", check=False)
    parent = found.stdout.strip() if found.returncode == 0 else None
    with tempfile.TemporaryDirectory(prefix="pages-index-") as scratch:
        env = {**os.environ, "GIT_INDEX_FILE": os.path.join(scratch, "index")}
        # -f: the folder is published whole, whatever .gitignore or a global exclude file says.
        _git(repository, "--work-tree", os.path.abspath(folder), "add", "--all", "--force", ".", env=env)
        tree = _git(repository, "write-tree", env=env).stdout.strip()
    if parent is not None and _git(repository, "rev-parse", parent + "^{tree}").stdout.strip() == tree:
        return None
    commit = _git(repository, "commit-tree", tree, *(["-p", parent] if parent else []), input=message).stdout.strip()
    # Only move the branch if nobody else did meanwhile (an empty old value: the branch must not exist yet).
    _git(repository, "update-ref", "-m", message.splitlines()[0], ref, commit, parent or "")
    return commit


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
