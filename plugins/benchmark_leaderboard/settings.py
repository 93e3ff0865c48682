"""The plugin's settings: every default in one table, read once per build into plain options.

Pelican makes its own path settings absolute against the settings file. The plugin's paths are
content paths like ``ARTICLE_PATHS`` and ``STATIC_PATHS``: a relative one is taken from ``PATH``
(the content folder, already absolute), never from the working folder."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from .problems import BuildFailed

# The pins of the reference renderer: the workflow that refreshes models.jsonl, and its key.
DEFAULT_IDENTITY = "https://github.com/maziyarpanahi/openmed/.github/workflows/manifest-refresh.yml@refs/heads/master"
DEFAULT_KEY = "sha256:86eb2319be26d7cabe775ce344cdbc0edcf63fa3ed038b318472755bd19ffed1"

DEFAULTS: dict[str, Any] = {
    # The archive: a folder of BenchmarkReport JSON, relative to PATH.
    "LEADERBOARD_REPORTS_DIR": "benchmarks",
    # The model manifest (models.jsonl), relative to PATH; a missing file means no fallbacks.
    "LEADERBOARD_MANIFEST": os.path.join(os.pardir, "models.jsonl"),
    # The release tag of reports that carry none. There is no default: such a report is refused.
    "LEADERBOARD_RELEASE_TAG": None,
    # Who must have signed the manifest's Sigstore bundle, when one lies beside it.
    "LEADERBOARD_MANIFEST_IDENTITY": DEFAULT_IDENTITY,
    "LEADERBOARD_MANIFEST_KEY": DEFAULT_KEY,
    # Worker processes that read reports and write their pages; None: one a CPU. The output is the
    # same bytes for any number.
    "LEADERBOARD_WORKERS": None,
    # A folder holding the previous render (the build runner sets it): a file whose bytes did not
    # change is linked from there instead of being written again.
    "LEADERBOARD_PREVIOUS_RENDER": None,
    # With a previous render in another folder: True leaves the files that need not be made again
    # out of this render (neither written nor linked), for a runner that moves only what this render
    # wrote into the previous one (leaderboard_tools.runner); False links them from there.
    "LEADERBOARD_KEEP_UNCHANGED": False,
    # True keeps what reading each report made of it between the builds of one process (the
    # preview's): a later build parses, checks and fills again only the files whose bytes changed.
    "LEADERBOARD_KEEP_READS": False,
    # The leaderboard.json of the previous release (relative to PATH; `invoke publish --previous`
    # sets it): the build compares its rows with it and writes changes.html. None: no changes page.
    "LEADERBOARD_PREVIOUS_LEADERBOARD": None,
    # The address of the site's list of releases (releases/index.html of the pages branch), linked from
    # every page's navigation: set by a release render (invoke publish, gh-pages), which knows where it
    # is published; a plain local build knows of no list and links none.
    "LEADERBOARD_RELEASE_LIST_URL": None,
    # The address of the site's root on the pages branch, where the latest release is and the feed of
    # every release (feeds/releases.atom.xml): set by a release render (invoke publish, gh-pages). Its
    # pages link that feed, and its report pages name the badge there, which follows each new release.
    # A plain local build knows of none: it links its own feed, when it writes one.
    "LEADERBOARD_SITE_ROOT": None,
    # Rows whose report has fewer fixtures than this are marked as thin evidence.
    "LEADERBOARD_THIN_EVIDENCE": 10,
    # A family's rows are on static pages of this many rows each (suite/<anchor>/<family>/<page>.html),
    # so no page grows with the archive.
    "LEADERBOARD_PAGE_ROWS": 50,
    # The index (and each suite's page) shows the top this many rows of each family, for its first
    # LEADERBOARD_INDEX_TABLES families, and links every family to its pages: what a reader loads
    # first is bounded whatever the number of rows, suites and families.
    "LEADERBOARD_INDEX_ROWS": 5,
    "LEADERBOARD_INDEX_TABLES": 10,
    # Each suite's panel opens on its best this many rows across its families, in ranking order (at
    # most MOST says, so that the first screen and the first view's budget hold).
    "LEADERBOARD_TOP_ROWS": 5,
    # A suite's chart marks its frontier's rows one by one, each linked to its report, up to this
    # many; a longer frontier is drawn as its line alone. Every row not marked is counted in a grid.
    "LEADERBOARD_CHART_MARKS": 100,
    # Where the leaderboard's index (its first suite's panel, with the tabs of the others) is
    # written, and its URL within the site, as Pelican's own *_SAVE_AS and *_URL settings: a site
    # whose index is Pelican's (a blog's, DIRECT_TEMPLATES = ["index"]) puts it at
    # "leaderboard/index.html". Every other file of the leaderboard is in a folder of its own
    # (report/, reports/, suite/, badge/...) or named for it (leaderboard.json...).
    "LEADERBOARD_INDEX_SAVE_AS": "index.html",
    "LEADERBOARD_INDEX_URL": "index.html",
}
# The least value each whole-number setting may take.
_LEAST = {"LEADERBOARD_THIN_EVIDENCE": 0, "LEADERBOARD_PAGE_ROWS": 1, "LEADERBOARD_INDEX_ROWS": 1,
          "LEADERBOARD_INDEX_TABLES": 1, "LEADERBOARD_TOP_ROWS": 1, "LEADERBOARD_CHART_MARKS": 0}
# The most a whole-number setting may take, where there is one.
MOST = {"LEADERBOARD_TOP_ROWS": 20}


@dataclass(frozen=True)
class Options:
    reports_dir: str
    manifest: str | None
    release_tag: str | None
    manifest_identity: str
    manifest_key: str
    workers: int
    previous_render: str | None
    keep_unchanged: bool
    keep_reads: bool
    previous_leaderboard: str | None
    site_root: str | None
    thin_evidence: int
    page_rows: int
    index_rows: int
    index_tables: int
    top_rows: int
    chart_marks: int
    index_save_as: str
    index_url: str


def options(settings: dict[str, Any]) -> Options:
    """The plugin's options from Pelican's settings, defaults filled in and paths made absolute."""
    value = {key: settings.get(key, default) for key, default in DEFAULTS.items()}
    content = settings.get("PATH") or os.curdir

    def path(key: str) -> str | None:
        given = value[key]
        return None if given is None else os.path.abspath(os.path.join(content, os.fspath(given)))

    workers = value["LEADERBOARD_WORKERS"]
    return Options(
        reports_dir=path("LEADERBOARD_REPORTS_DIR"),
        manifest=path("LEADERBOARD_MANIFEST"),
        release_tag=value["LEADERBOARD_RELEASE_TAG"],
        manifest_identity=value["LEADERBOARD_MANIFEST_IDENTITY"],
        manifest_key=value["LEADERBOARD_MANIFEST_KEY"],
        workers=max(1, int(workers) if workers else len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1),
        previous_render=os.path.abspath(value["LEADERBOARD_PREVIOUS_RENDER"]) if value["LEADERBOARD_PREVIOUS_RENDER"] else None,
        keep_unchanged=bool(value["LEADERBOARD_KEEP_UNCHANGED"]),
        keep_reads=bool(value["LEADERBOARD_KEEP_READS"]),
        previous_leaderboard=path("LEADERBOARD_PREVIOUS_LEADERBOARD"),
        site_root=value["LEADERBOARD_SITE_ROOT"].rstrip("/") if value["LEADERBOARD_SITE_ROOT"] else None,
        thin_evidence=value["LEADERBOARD_THIN_EVIDENCE"],
        page_rows=value["LEADERBOARD_PAGE_ROWS"],
        index_rows=value["LEADERBOARD_INDEX_ROWS"],
        index_tables=value["LEADERBOARD_INDEX_TABLES"],
        top_rows=value["LEADERBOARD_TOP_ROWS"],
        chart_marks=value["LEADERBOARD_CHART_MARKS"],
        index_save_as=value["LEADERBOARD_INDEX_SAVE_AS"],
        index_url=value["LEADERBOARD_INDEX_URL"],
    )


def checked(resolved: Options) -> Options:
    """``resolved``, once its whole-number settings are each a whole number of at least their
    ``_LEAST`` (and at most their ``MOST``); otherwise ``BuildFailed``, one line naming the setting.
    (Reading the options never fails: the build runner reads them too, to know which folders the
    build reads.)"""
    for key, field in (("LEADERBOARD_THIN_EVIDENCE", "thin_evidence"), ("LEADERBOARD_PAGE_ROWS", "page_rows"),
                       ("LEADERBOARD_INDEX_ROWS", "index_rows"), ("LEADERBOARD_INDEX_TABLES", "index_tables"),
                       ("LEADERBOARD_TOP_ROWS", "top_rows"), ("LEADERBOARD_CHART_MARKS", "chart_marks")):
        given = getattr(resolved, field)
        least, most = _LEAST[key], MOST.get(key)
        if isinstance(given, bool) or not isinstance(given, int) or given < least or (most is not None and given > most):
            bounds = f"of at least {least}" if most is None else f"from {least} to {most}"
            raise BuildFailed(f"the setting {key} must be a whole number {bounds}, not {given!r}")
    for key, given in (("LEADERBOARD_INDEX_SAVE_AS", resolved.index_save_as), ("LEADERBOARD_INDEX_URL", resolved.index_url)):
        # A URL may end with "/" (a server that answers a folder with its index.html); where it is
        # written is a file.
        folder = key.endswith("_URL") and isinstance(given, str) and given.endswith("/")
        parts = (given[:-1] if folder else given).split("/") if isinstance(given, str) else []
        if not parts or any(part in ("", ".", "..") for part in parts) or "\\" in given or not (folder or given.endswith(".html")):
            raise BuildFailed(f"the setting {key} must be a path within the site ending in .html, such as "
                              f"leaderboard/index.html, not {given!r}")
    return resolved
