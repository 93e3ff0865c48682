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
    v3.1.0, V3.1.0 or 3.2.0-rc.1 (a pre-release before its release, build metadata ignored); any
    other tag comes before every version, ordered by its text ignoring case. Tags of one version
    (v3.1.0, V3.1.0, v3.1.0+build.7) have one key: ``version_order`` sorts them too."""
    spelled = "v" + tag[1:] if tag.startswith(("v", "V")) else "v" + tag
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


def version_order(tag: str) -> tuple[Any, ...]:
    """The sort key of a list of release tags in version order: ``version_key``, then the tag's text
    between tags of one version, so that every list of tags has one order."""
    return (version_key(tag), tag)
