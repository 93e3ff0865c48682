"""Release renders: the tag rule, the render's marker, SHA256SUMS, comparing a published folder with a fresh
render, and the kept releases of the pages branch (their permanent address, the latest, the release list,
and the root's feed of every kept release).

Reading a folder (``tree_digests``, ``release_marker_problem``, ``kept_releases_in``), sealing one (a
release render, or the branch's root) and rendering the release list and the feed with the theme's
templates are the only I/O here; everything else takes data and returns data."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import unicodedata
from dataclasses import dataclass
from typing import Iterable

from benchmark_leaderboard.decide.comparison import compare
from benchmark_leaderboard.decide.fill import BIDI_CONTROL
from benchmark_leaderboard.formatting import TEMPLATE_FILTERS
from benchmark_leaderboard.paths import FEED_PATH, PREVIOUS_COPY
from benchmark_leaderboard.present.badge import TEMPLATE as BADGE_TEMPLATE, absent_badge, badge_svg
from benchmark_leaderboard.present.changes_page import changes_page
from benchmark_leaderboard.present.feed import CONTENT_TEMPLATE, TAG, feed_bytes, release_entry
from benchmark_leaderboard.problems import one_line
from benchmark_leaderboard.read import validate
from benchmark_leaderboard.read.leaderboard_file import UnusableInput, parse_leaderboard
from benchmark_leaderboard.regular_file import NotRegular, opened, read_regular
from benchmark_leaderboard.settings import options
from benchmark_leaderboard.versions import RELEASE_TAG, version_order
from benchmark_leaderboard.write.output import MARKER, marker_bytes, read_marker

CHECKSUMS = "SHA256SUMS"
UNCERTAINTY = "uncertainty.json"
# GitHub Pages runs Jekyll on a branch without this file, and Jekyll drops paths that start with "_".
NO_JEKYLL = ".nojekyll"

_KINDS = ((stat.S_ISFIFO, "fifo"), (stat.S_ISSOCK, "socket"), (stat.S_ISCHR, "character device"),
          (stat.S_ISBLK, "block device"))
# What tree_digests records for a path that is neither a regular file, a folder nor a link.
NOT_REGULAR = "not-a-regular-file:"

def build_tag_problem(tag: str | None) -> str | None:
    """Why ``tag``, given to a build as --release-tag, cannot be the release tag of a row, or None when it
    can (or when no tag is given). A build's tag is any text of one line: not blank, and no control
    character or line break, and no bidirectional control, which no name may hold (fill.BIDI_CONTROL;
    the reference renderer takes any text; a version is required of a release only, ``release_tag_problem``)."""
    if tag is None:
        return None
    if not tag.strip():
        return "--release-tag must not be empty: give the release, such as v3.1.0, or leave the flag out"
    if any(unicodedata.category(char) in ("Cc", "Zl", "Zp") for char in tag):
        return f"--release-tag must be one line without control characters, not {one_line(repr(tag))}"
    if BIDI_CONTROL.search(tag):
        return f"--release-tag must not hold a bidirectional control, not {one_line(repr(tag))}"
    return None


def release_tag_problem(tag: str | None) -> str | None:
    """Why ``tag`` cannot name a release, or None when it can."""
    if tag is None or not tag.strip():
        return "a release needs --release-tag vMAJOR.MINOR.PATCH (for example v3.1.0)"
    if RELEASE_TAG.fullmatch(tag) is None:
        return (f"the release tag {tag!r} does not read v<major>.<minor>.<patch> with an optional "
                "-pre-release or +build suffix (for example v3.1.0, v3.2.0-rc.1, v3.2.0+build.7)")
    return None


def tree_digests(root: str, ignore: tuple[str, ...] = ()) -> dict[str, str]:
    """Every file below ``root``: its POSIX path relative to ``root`` -> its sha256 in hex.

    Names in ``ignore`` are left out at the top level only (a checkout's ``.git``). Symbolic links
    are not followed; one is recorded as ``symlink:<target>``. A FIFO, socket or device is never
    opened: it is recorded as ``not-a-regular-file:<kind>``. Neither ever equals a file's digest.
    An unreadable folder or file raises ``OSError``: a file that cannot be read is no proof."""
    digests: dict[str, str] = {}
    pending = [root]  # a list, not recursion: a render may nest deeper than Python's stack
    while pending:
        folder = pending.pop()
        with os.scandir(folder) as entries:
            listed = sorted(entries, key=lambda entry: entry.name)
        for entry in listed:
            if folder == root and entry.name in ignore:
                continue
            relative = _relative(root, entry.path)
            if entry.is_symlink():
                digests[relative] = "symlink:" + os.readlink(entry.path)
            elif entry.is_dir(follow_symlinks=False):
                pending.append(entry.path)
            elif entry.is_file(follow_symlinks=False):
                digests[relative] = _sha256_file(entry.path)
            else:
                digests[relative] = NOT_REGULAR + _kind(entry.stat(follow_symlinks=False).st_mode)
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
    irregular: tuple[str, ...] = ()  # of those added or changed: a FIFO, socket or device in the published folder

    def __bool__(self) -> bool:
        return bool(self.added or self.missing or self.changed)

    def lines(self) -> list[str]:
        """One line a file, sorted by path: ``added: P``, ``missing: P`` or ``changed: P``, with
        `` (not a regular file)`` after a FIFO, socket or device. A path that holds a control
        character (a newline, say) is shown escaped, so that each file stays on one line."""
        entries = [(path, "added") for path in self.added]
        entries += [(path, "missing") for path in self.missing]
        entries += [(path, "changed") for path in self.changed]
        irregular = set(self.irregular)
        return [f"{kind}: {one_line(path)}" + (" (not a regular file)" if path in irregular and kind != "missing" else "")
                for path, kind in sorted(entries)]


def compare_trees(expected: dict[str, str], published: dict[str, str]) -> TreeDifference:
    """Compare two ``tree_digests`` results: ``expected`` is the fresh render, ``published`` the folder checked."""
    return TreeDifference(
        added=tuple(sorted(set(published) - set(expected))),
        missing=tuple(sorted(set(expected) - set(published))),
        changed=tuple(sorted(path for path in set(expected) & set(published) if expected[path] != published[path])),
        irregular=tuple(sorted(path for path, digest in published.items() if digest.startswith(NOT_REGULAR))),
    )


def release_marker_problem(folder: str, release_tag: str) -> str | None:
    """Why ``folder`` cannot be the render of ``release_tag`` by what its marker records, or None.

    Only the marker is read (a regular file, never through a link): nothing is rendered to know this."""
    if not os.path.lexists(os.path.join(folder, MARKER)):
        return f"{one_line(folder)} is not a release render (it has no {MARKER})"
    marker = read_marker(folder)
    if marker is None:
        return f"{one_line(folder)} is not a release render (its {MARKER} is not a leaderboard render's marker)"
    if marker["release_tag"] is None:
        return f"{one_line(folder)} is not a release render (its {MARKER} records no release tag)"
    if marker["release_tag"] != release_tag:
        return f"{one_line(folder)} is the render of {one_line(marker['release_tag'])}, not of {release_tag}"
    return None


def seal_release(folder: str, release_tag: str) -> None:
    """Finish a release render in ``folder``: its marker (unless the render wrote it already), ``.nojekyll``,
    then ``SHA256SUMS`` of every other file."""
    marker = os.path.join(folder, MARKER)
    if not os.path.lexists(marker):
        with open(marker, "wb") as handle:
            handle.write(marker_bytes(release_tag))
    written = read_marker(folder)
    if written is not None and "files" in written:
        # The marker lists what the render wrote: the two files sealing it are the render's too. A new
        # file, not written through the old one: the render may have linked it from the previous render.
        os.unlink(marker)
        with open(marker, "wb") as handle:
            handle.write(marker_bytes(written["release_tag"], [*written["files"], NO_JEKYLL, CHECKSUMS]))
    with open(os.path.join(folder, NO_JEKYLL), "wb"):
        pass
    digests = tree_digests(folder)
    digests.pop(CHECKSUMS, None)
    with open(os.path.join(folder, CHECKSUMS), "w", encoding="utf-8", errors="surrogateescape", newline="\n") as handle:
        handle.write(sha256sums_text(digests))


def _relative(root: str, path: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


def _sha256_file(path: str) -> str:
    # Should a FIFO or anything else take the file's place after it was listed, it is not read.
    try:
        descriptor, _ = opened(path)
    except NotRegular as error:
        return NOT_REGULAR + _kind(error.mode)
    with open(descriptor, "rb") as handle:
        digest = hashlib.sha256()
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "special file")


# -- Kept releases: the pages branch keeps every release at releases/<tag>/ ------------------------

RELEASES = "releases"
RELEASE_LIST = RELEASES + "/index.html"
RELEASE_LIST_TEMPLATE = "releases.html"


def release_site_url(site_url: str, release_tag: str) -> str:
    """Where a release is published for good, and so the SITEURL of its render: every link of the
    release leads into its own folder, whether it is read there or as the latest at the site's root."""
    return f"{site_url.rstrip('/')}/{RELEASES}/{release_tag}"


def release_settings(site_url: str, release_tag: str) -> dict[str, str]:
    """The Pelican settings that make a render of publishconf.py (whose SITEURL is ``site_url``, the
    site's root) the release ``release_tag``: its permanent address as SITEURL, and as CANONICAL_URL,
    so that each page's canonical link and og:url name the address its sitemap lists, the one a
    citation keeps. The copy of the latest release at the site's root is the same bytes, so it
    names the latest release's own address: search engines find the latest release there. The
    navigation's Releases link leads to the list at the root, and every page's feed link to the
    feed of every release there."""
    address = release_site_url(site_url, release_tag)
    return {"SITEURL": address, "CANONICAL_URL": address,
            "LEADERBOARD_RELEASE_LIST_URL": f"{site_url.rstrip('/')}/{RELEASE_LIST}",
            "LEADERBOARD_SITE_ROOT": site_url.rstrip("/")}


def kept_release_path(release_tag: str) -> str:
    """The folder of a kept release on the pages branch."""
    return f"{RELEASES}/{release_tag}"


def latest_release(tags: Iterable[str]) -> str | None:
    """The highest release tag in version order (not the last published), or None when there is none."""
    return max(tags, key=version_order, default=None)


@dataclass(frozen=True)
class ReleaseSummary:
    """What the release list shows of one kept release."""

    release_tag: str
    latest_run: str  # the latest run_date of its rows
    row_count: int
    has_changes: bool  # its render has a changes page (it was published with --previous)


def release_summary(release_tag: str, leaderboard: dict, has_changes: bool) -> ReleaseSummary:
    """A release's line in the list, from its parsed (and checked) ``leaderboard.json``."""
    return ReleaseSummary(release_tag, max((row["run_date"] for row in leaderboard["rows"]), default=""),
                          leaderboard["row_count"], has_changes)


def theme_environment(settings: dict):
    """Plain Jinja2 with the theme's loader, the site's Jinja options and the theme's filters: what
    renders the pages branch's own files (``settings`` are a release render's Pelican settings)."""
    import jinja2

    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.join(settings["THEME"], "templates")),
                                     **settings.get("JINJA_ENVIRONMENT", {}))
    environment.filters.update(TEMPLATE_FILTERS)
    return environment


def site_feed_url(settings: dict) -> str:
    """The address of the feed of every release, at the site's root (the branch's root)."""
    return f"{settings['SITEURL'].rstrip('/')}/{FEED_PATH}"


def release_list_page(releases: Iterable[ReleaseSummary], settings: dict) -> bytes:
    """``releases/index.html``: every release, newest first in version order, rendered with the
    theme's ``releases.html`` (``theme_environment``; ``settings`` are the release render's Pelican
    settings, whose SITEURL is the site's root). Its head and footer link the feed at the root, and its
    navigation and footer the list itself, as every page of a release does."""
    ordered = sorted(releases, key=lambda item: version_order(item.release_tag), reverse=True)
    template = theme_environment(settings).get_template(RELEASE_LIST_TEMPLATE)
    names = ("SITENAME", "SITE_DESCRIPTION", "SITEURL", "CANONICAL_URL", "DEFAULT_LANG")
    html = template.render({name: settings.get(name) for name in names}, releases=ordered,
                           latest=ordered[0].release_tag if ordered else None, site_nav=[], page_name="releases",
                           RELEASES=RELEASES, leaderboard_feed_url=site_feed_url(settings),
                           LEADERBOARD_RELEASE_LIST_URL=f"{settings['SITEURL'].rstrip('/')}/{RELEASE_LIST}",
                           leaderboard_index_url=options(settings).index_url)
    return html.encode("utf-8")


# -- The root's feed: every kept release, each compared with the leaderboard before it ---------------


@dataclass(frozen=True)
class KeptRelease:
    """What the root's feed reads of a kept release: its leaderboard.json and, when it was published
    with a changes page, the previous leaderboard it keeps (``changes/previous-leaderboard.json``),
    each parsed and checked; and its uncertainty.json (None when it has none), which the root's
    badges of a model a later release dropped read its rank range from."""

    release_tag: str
    leaderboard: dict
    previous: dict | None
    uncertainty: dict | None = None

    @property
    def has_changes(self) -> bool:
        return self.previous is not None


class KeptReleaseError(Exception):
    """A kept release cannot be read; the message is one line for the user."""


def kept_release(release_tag: str, leaderboard: bytes, previous: bytes | None, where: str,
                 uncertainty: bytes | None = None) -> KeptRelease:
    """A kept release from the bytes of its ``leaderboard.json`` and of the previous leaderboard it
    keeps (None: it has none), each checked against the published schema, and of its
    ``uncertainty.json`` (None: it has none), checked against its own; ``where`` names its folder."""
    try:
        sure = None
        if uncertainty is not None:
            sure = json.loads(uncertainty.decode("utf-8"))
            if validate.uncertainty_problems(sure):
                raise UnusableInput(f"{where}/{UNCERTAINTY} is not the uncertainty.json of a release")
        return KeptRelease(release_tag, parse_leaderboard(leaderboard, f"{where}/leaderboard.json"),
                           None if previous is None else parse_leaderboard(previous, f"{where}/{PREVIOUS_COPY}"), sure)
    except UnusableInput as error:
        raise KeptReleaseError(str(error)) from None
    except ValueError:  # not UTF-8 or not JSON
        raise KeptReleaseError(f"{one_line(where)}/{UNCERTAINTY} is not JSON") from None


def kept_releases_in(folder: str) -> list[KeptRelease]:
    """The releases a clone of the pages branch keeps in ``folder`` (its ``releases/``): each folder
    named like a release tag, read as ``kept_release``; in version order."""
    found = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if RELEASE_TAG.fullmatch(name) is None or not os.path.isdir(path) or os.path.islink(path):
            continue
        where = f"{RELEASES}/{name}"
        try:
            leaderboard = read_regular(os.path.join(path, "leaderboard.json"))
            previous, uncertainty = (_optional_file(os.path.join(path, *file.split("/")))
                                     for file in (PREVIOUS_COPY, UNCERTAINTY))
        except OSError as error:
            raise KeptReleaseError(f"cannot read {one_line(where)}: {error.strerror or error}") from None
        found.append(kept_release(name, leaderboard, previous, where, uncertainty))
    return sorted(found, key=lambda kept: version_order(kept.release_tag))


def _optional_file(path: str) -> bytes | None:
    """The bytes of the regular file at ``path``, or None when there is none."""
    if not os.path.isfile(path):
        return None
    return read_regular(path)


def absent_badges(kept: Iterable[KeptRelease], latest: str, paths: Iterable[str], settings: dict) -> dict[str, bytes]:
    """The badges the pages branch's root keeps at addresses the latest release ``latest`` no longer
    writes (``paths``: badges the root held before, a model it dropped): each says "not in <latest>"
    with the standing of the newest kept release that has it, so that an address once given out
    keeps answering until a maintainer removes it from the branch. A path no kept release has a
    badge at is left out. ``settings`` are a release render's Pelican settings (its theme)."""
    releases = sorted(kept, key=lambda item: version_order(item.release_tag), reverse=True)
    template = theme_environment(settings).get_template(BADGE_TEMPLATE)
    made = {}
    for path in sorted(paths):
        for release in releases:
            badge = absent_badge(path, release.leaderboard, release.uncertainty, latest)
            if badge is not None:
                made[path] = badge_svg(template, badge)
                break
    return made


def root_feed(kept: Iterable[KeptRelease], settings: dict) -> bytes:
    """``feeds/releases.atom.xml`` at the pages branch's root: an entry per kept release, newest first,
    each compared with the previous leaderboard it keeps (what its changes page shows, and so what
    its own feed's entry says), or, kept without one, with the kept release before it in version
    order (the first with nothing: every row added). ``settings`` are a release render's Pelican
    settings, whose SITEURL is the site's root. The kept releases alone decide it: ``invoke verify``
    makes it again from a clone's ``releases/``."""
    site_url = settings["SITEURL"].rstrip("/")
    entries = []
    before: KeptRelease | None = None
    for release in sorted(kept, key=lambda item: version_order(item.release_tag)):
        previous = release.previous if release.previous is not None else (before.leaderboard if before else None)
        compared_with = previous if previous is not None else {"rows": []}
        diff = compare(compared_with, release.leaderboard)
        page = changes_page(diff, release.leaderboard, compared_with, b"", release.release_tag, 1)
        latest_run = max(row["run_date"] for row in release.leaderboard["rows"])
        entries.append(release_entry(page, latest_run, release_site_url(site_url, release.release_tag),
                                     has_changes_page=release.has_changes, first=previous is None))
        before = release
    template = theme_environment(settings).get_template(CONTENT_TEMPLATE)
    return feed_bytes(entries, template, site_name=settings.get("SITENAME", ""), feed_id=f"{TAG}:releases",
                      link=f"{site_url}/{RELEASE_LIST}", feed_url=site_feed_url(settings),
                      language=settings.get("DEFAULT_LANG") or "en")


def replace_checksum(sums: str, path: str, digest: str) -> str:
    """``SHA256SUMS`` text (``sha256sums_text``) with the line of ``path`` holding ``digest``,
    added in its place when there was none: the same text as ``sha256sums_text`` of the files with
    that one changed."""
    lines = sums.splitlines(keepends=True)
    kept = [line for line in lines if _sums_path(line) != path]
    kept.append(sha256sums_text({path: digest}))
    return "".join(sorted(kept, key=_sums_path))


def _sums_path(line: str) -> str:
    """The path a line of ``sha256sums_text`` names, as it is (escaped lines read back)."""
    if not line.startswith("\\"):
        return line[66:].rstrip("\n")
    escaped = line[67:].rstrip("\n")
    return escaped.replace("\\\\", "\0").replace("\\n", "\n").replace("\\r", "\r").replace("\0", "\\")


def root_sums(sums: str, files: dict[str, bytes]) -> str:
    """The root's ``SHA256SUMS``: the latest release's (``sums``) with the line of each of the root's
    own ``files`` (its feed, the badges of dropped models) for their bytes."""
    for path, data in sorted(files.items()):
        sums = replace_checksum(sums, path, hashlib.sha256(data).hexdigest())
    return sums


def seal_root(folder: str, kept: Iterable[KeptRelease], settings: dict, badges: dict[str, bytes] | None = None) -> None:
    """Make the release render in ``folder`` the pages branch's root it is published as: the feed of
    every kept release (``root_feed``) in place of its own, the ``badges`` of dropped models
    (``absent_badges``) beside its own, and its ``SHA256SUMS`` covering them."""
    files = {FEED_PATH: root_feed(kept, settings), **(badges or {})}
    for path, data in files.items():
        target = os.path.join(folder, *path.split("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as handle:
            handle.write(data)
    sums = os.path.join(folder, CHECKSUMS)
    with open(sums, encoding="utf-8", errors="surrogateescape", newline="") as handle:
        text = handle.read()
    with open(sums, "w", encoding="utf-8", errors="surrogateescape", newline="\n") as handle:
        handle.write(root_sums(text, files))
