"""The feed of releases: ``feeds/releases.atom.xml``, an Atom 1.0 feed (RFC 4287), newest first,
written with feedgenerator (the library Pelican writes its own feeds with).

An entry is a release and what it changed against the leaderboard it was compared with: its title
counts the kinds of change in the words of ``change_kinds.KINDS`` (``summary``, what ``invoke diff``
and the changes page say), and its content says the same counts in the same words and capitals;
the first release, compared with nothing, is titled and told as the first, with its rows. Its link
is the release's changes page, its content lists the rows that leak more, each linked to its
report page in that release, and it is dated by the release's latest run date, never by the clock. Its id is a tag URI (RFC 4151) of the release's tag under
``TAG``, whose date is a constant: the same release has the same id in every feed that lists it.

A build compared with a previous leaderboard writes a feed of one entry, its own
(``release_entry`` of its changes page); the pages branch's root holds the feed of every kept
release (``leaderboard_tools.release.root_feed``). Pure: entries in, bytes out."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone
from io import StringIO
from typing import Any, Iterable
from urllib.parse import quote

from feedgenerator import Atom1Feed
from pelican.utils import maybe_pluralize

from ..formatting import as_sentence, isolate, xml_safe
from ..paths import CHANGES_PAGE, report_page_url
from ..versions import version_order
from .change_kinds import KIND
from .changes_page import ChangesPage

MEDIA_TYPE = "application/atom+xml"
CONTENT_TEMPLATE = "feed_entry.html"
# Every id of the feed is a tag URI under this one: the site's domain and a date at which it held
# it (RFC 4151), declared once and never changed, so that an id never changes either.
TAG_AUTHORITY = "openmed.life"
TAG_DATE = "2026"
TAG = f"tag:{TAG_AUTHORITY},{TAG_DATE}:benchmark-leaderboard"
AUTHOR = "OpenMed"
SUBTITLE = "Each release of the leaderboard and what it changed, newest first."
# An entry lists this many of the rows that leak more; the others are counted, and on the changes page.
LISTED = 50
# What a tag URI may hold as it is (RFC 4151's pchar, "/" and "?"); anything else is percent-encoded.
_TAG_SAFE = "/?:@!$&'()*+,;=-._~"


@dataclass(frozen=True, slots=True)
class LeakLine:
    """A row that leaks more than before, as an entry lists it."""

    suite: str
    model_name: str
    device: str
    before: str  # percentages, as the changes page writes them
    after: str
    change: str  # percentage points, signed
    url: str  # its report page in the release


@dataclass(frozen=True, slots=True)
class FeedEntry:
    """One release in the feed, ready to print."""

    release: str  # its tag ("this build" for a build without one)
    title: str
    link: str  # its changes page, or its index when it has none
    has_changes_page: bool
    id: str
    updated: str  # its latest run date, YYYY-MM-DD
    summary: str  # how many changes of each kind (changes.summary)
    first: bool  # nothing came before it: every row is new
    previous_tag: str | None  # the newest release tag of the leaderboard it was compared with
    previous_rows: int
    rows: int
    leaks: tuple[LeakLine, ...]  # the first LISTED rows that leak more
    leaks_more: int  # how many rows leak more

    @property
    def summary_sentence(self) -> str:
        """The summary as the content's sentence says it: the title's words and capitals."""
        return as_sentence(self.summary)


def entry_id(release_tag: str | None) -> str:
    """A release's id: ``<TAG>:releases/<tag>`` (``<TAG>:build`` for a build without a tag)."""
    return f"{TAG}:releases/{quote(release_tag, safe=_TAG_SAFE)}" if release_tag else f"{TAG}:build"


def release_entry(changes: ChangesPage, latest_run: str, site_url: str, has_changes_page: bool = True,
                  first: bool = False) -> FeedEntry:
    """The entry of the release whose changes page is ``changes`` (the words and lists of
    ``changes_page.changes_page``), published under ``site_url`` (its permanent address, absolute),
    its rows' latest run date ``latest_run``. Without a changes page (a kept release published
    without one) it links the release's index; ``first``: nothing came before it."""
    release = changes.release_tag or "this build"
    base = site_url.rstrip("/")
    section = next((section for section in changes.sections if section.anchor == KIND["leaks_more"].word), None)
    lines = section.lines if section is not None else ()
    leaks = tuple(LeakLine(line.suite, line.model_name, line.device, line.cells[1], line.cells[2], line.cells[3],
                           f"{base}/{report_page_url(line.report_path)}") for line in lines[:LISTED])
    return FeedEntry(
        release=release,
        # The first release counts its rows, as its content does, not the identities they stand for;
        # the tag is isolated, so that it cannot reorder the counts after it.
        title=(f"{isolate(release)}: the first release, {maybe_pluralize(changes.rows, 'row', 'rows')}" if first
               else f"{isolate(release)}: {changes.summary}"),
        link=f"{base}/{CHANGES_PAGE}" if has_changes_page else f"{base}/index.html",
        has_changes_page=has_changes_page,
        id=entry_id(changes.release_tag),
        updated=latest_run,
        summary=changes.summary,
        first=first,
        previous_tag=changes.previous_tag,
        previous_rows=changes.previous_rows,
        rows=changes.rows,
        leaks=leaks,
        leaks_more=len(lines),
    )


def newest_first(entries: Iterable[FeedEntry]) -> list[FeedEntry]:
    """The entries in the feed's order: the newest release first, in version order."""
    return sorted(entries, key=lambda entry: version_order(entry.release), reverse=True)


def entry_content(entry: FeedEntry, template: Any) -> str:
    """An entry's content, HTML rendered with ``feed_entry.html`` (``template``) from the entry
    alone, so that the same release reads the same in every feed that lists it."""
    html = template.render(entry=entry, leaks_more=KIND["leaks_more"])
    return xml_safe(html)  # an entry's content shows U+FFFD for each character XML cannot hold


def _day(text: str) -> datetime:
    day = date.fromisoformat(text)
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc)


def feed_bytes(entries: Iterable[FeedEntry], template: Any, *, site_name: str, feed_id: str, link: str,
               feed_url: str, language: str = "en") -> bytes:
    """The Atom document of ``entries`` (newest first), its content rendered with ``template``: the
    feed's ``feed_id``, its ``link`` (the page it stands for) and its own address ``feed_url``.
    Dated by its newest entry (there is one at least: an empty feed would be dated by the clock);
    same entries, same bytes."""
    entries = newest_first(entries)
    if not entries:
        raise ValueError("a feed of releases lists one release at least")
    feed = Atom1Feed(title=f"{site_name}: releases", link=link, description=None, language=language,
                     author_name=AUTHOR, subtitle=SUBTITLE, feed_url=feed_url, feed_guid=feed_id)
    for entry in entries:
        feed.add_item(title=entry.title, link=entry.link, description=None, unique_id=entry.id,
                      updateddate=_day(entry.updated), content=entry_content(entry, template))
    text = StringIO()
    feed.write(text, "utf-8")
    return (text.getvalue() + "\n").encode("utf-8")
