"""Release renders: the tag rule, SHA256SUMS and comparing a published folder with a fresh render.

Reading a folder (``tree_digests``) is the only I/O here; everything else takes data and returns data."""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass

CHECKSUMS = "SHA256SUMS"
# GitHub Pages runs Jekyll on a branch without this file, and Jekyll drops paths that start with "_".
NO_JEKYLL = ".nojekyll"

# v<major>.<minor>.<patch>, then an optional pre-release (-rc.1) and build (+build.5), as Semantic Versioning 2.0.0 spells them.
_NUMBER = r"(?:0|[1-9][0-9]*)"
_PRE_PART = r"(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)"
_BUILD_PART = r"[0-9A-Za-z-]+"
RELEASE_TAG = re.compile(
    rf"v{_NUMBER}\.{_NUMBER}\.{_NUMBER}(?:-{_PRE_PART}(?:\.{_PRE_PART})*)?(?:\+{_BUILD_PART}(?:\.{_BUILD_PART})*)?"
)


def release_tag_problem(tag: str | None) -> str | None:
    """Why ``tag`` cannot name a release, or None when it can."""
    if tag is None or not tag.strip():
        return "a release needs --release-tag vMAJOR.MINOR.PATCH (for example v3.1.0)"
    if RELEASE_TAG.fullmatch(tag) is None:
        return (f"the release tag {tag!r} does not read v<major>.<minor>.<patch> with an optional "
                "-pre-release or +build suffix (for example v3.1.0, v3.2.0-rc.1, v3.2.0+build.7)")
    return None


def tree_digests(root: str) -> dict[str, str]:
    """Every file below ``root``: its POSIX path relative to ``root`` -> its sha256 in hex.

    Symbolic links are not followed; one is recorded as ``symlink:<target>``, which never equals a file's digest."""
    digests: dict[str, str] = {}
    for folder, subfolders, names in os.walk(root):
        subfolders.sort()
        for name in list(subfolders):
            path = os.path.join(folder, name)
            if os.path.islink(path):
                digests[_relative(root, path)] = "symlink:" + os.readlink(path)
                subfolders.remove(name)
        for name in sorted(names):
            path = os.path.join(folder, name)
            if os.path.islink(path):
                digests[_relative(root, path)] = "symlink:" + os.readlink(path)
            else:
                digests[_relative(root, path)] = _sha256_file(path)
    return dict(sorted(digests.items()))


def sha256sums_text(digests: dict[str, str]) -> str:
    """The lines ``sha256sum`` prints for these files, sorted by path; ``sha256sum -c`` reads them back."""
    lines = []
    for path in sorted(digests):
        if "\\" in path or "\n" in path or "\r" in path:
            # sha256sum's escaping: a leading backslash, then \\, \n and \r spelled out.
            escaped = path.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
            lines.append(f"\\{digests[path]}  {escaped}\n")
        else:
            lines.append(f"{digests[path]}  {path}\n")
    return "".join(lines)


@dataclass(frozen=True)
class TreeDifference:
    """How a published folder differs from the expected render (paths relative to both)."""

    added: tuple[str, ...]    # in the published folder, not in the render
    missing: tuple[str, ...]  # in the render, not in the published folder
    changed: tuple[str, ...]  # in both, with different bytes

    def __bool__(self) -> bool:
        return bool(self.added or self.missing or self.changed)

    def lines(self) -> list[str]:
        """One line a file, sorted by path: ``added: P``, ``missing: P`` or ``changed: P``."""
        entries = [(path, "added") for path in self.added]
        entries += [(path, "missing") for path in self.missing]
        entries += [(path, "changed") for path in self.changed]
        return [f"{kind}: {path}" for path, kind in sorted(entries)]


def compare_trees(expected: dict[str, str], published: dict[str, str]) -> TreeDifference:
    """Compare two ``tree_digests`` results: ``expected`` is the fresh render, ``published`` the folder checked."""
    return TreeDifference(
        added=tuple(sorted(set(published) - set(expected))),
        missing=tuple(sorted(set(expected) - set(published))),
        changed=tuple(sorted(path for path in set(expected) & set(published) if expected[path] != published[path])),
    )


def seal_release(folder: str) -> None:
    """Finish a release render in ``folder``: add ``.nojekyll``, then ``SHA256SUMS`` of every other file."""
    with open(os.path.join(folder, NO_JEKYLL), "wb"):
        pass
    digests = tree_digests(folder)
    digests.pop(CHECKSUMS, None)
    with open(os.path.join(folder, CHECKSUMS), "w", encoding="utf-8", newline="\n") as handle:
        handle.write(sha256sums_text(digests))


def _relative(root: str, path: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


def _sha256_file(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
