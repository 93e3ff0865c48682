"""Release tags: the rule a release's tag must follow and the order of tags, declared once for the
site (the history of a model, the changes page) and its tooling (diff, release list, pages branch)."""

from __future__ import annotations

import re
from typing import Any

# v<major>.<minor>.<patch>, then an optional pre-release (-rc.1) and build (+build.5), as Semantic Versioning 2.0.0 spells them.
_NUMBER = r"(?:0|[1-9][0-9]*)"
_PRE_PART = r"(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)"
_BUILD_PART = r"[0-9A-Za-z-]+"
RELEASE_TAG = re.compile(
    rf"v{_NUMBER}\.{_NUMBER}\.{_NUMBER}(?:-{_PRE_PART}(?:\.{_PRE_PART})*)?(?:\+{_BUILD_PART}(?:\.{_BUILD_PART})*)?"
)


def version_key(tag: str) -> tuple[Any, ...]:
    """A release tag's place in version order: Semantic Versioning 2.0.0 precedence for tags like
    v3.1.0 or 3.2.0-rc.1 (a pre-release before its release, build metadata ignored); any other
    tag comes before every version, ordered by its text ignoring case."""
    spelled = tag if tag.startswith("v") else "v" + tag
    if RELEASE_TAG.fullmatch(spelled) is None:
        return (0, tag.casefold(), tag)
    core, _, pre_release = spelled[1:].partition("+")[0].partition("-")
    major, minor, patch = (int(number) for number in core.split("."))
    if not pre_release:
        return (1, major, minor, patch, 1, ())
    # Numeric identifiers compare as numbers and before alphanumeric ones; a longer list of equal
    # leading identifiers comes later (tuple order does both).
    parts = tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in pre_release.split("."))
    return (1, major, minor, patch, 0, parts)
