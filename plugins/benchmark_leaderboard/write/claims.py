"""What the leaderboard claims in the output folder, and who else writes there: the paths of its own
(``claim``: the index, its files and its folders, paths.py), every path Pelican's generators and its
static generator write (``pelican_paths``, ``static_paths``, and ``note_written`` for what Pelican's
writer wrote), and the checks that stop a build before anything is written when two writers would
write one path (``refuse_collisions``) or a render in place would overwrite a file that an earlier
render did not write (``refuse_overwriting``). ``render_files`` lists what a render wrote, for its marker."""

from __future__ import annotations

import fnmatch
import os
import posixpath
from typing import Any, Iterable, Iterator

from ..paths import OWN_FILES, OWN_FOLDERS, ROOT_FILES
from ..present.model_pages import ModelPage
from ..present.pages import BoardPage, ReportPage
from ..problems import BuildFailed, one_line
from . import output


def refuse_collisions(theirs: Iterable[tuple[str, str]], index_save_as: str) -> None:
    """Stop the build, before anything of the leaderboard's is written, when another writer
    (Pelican's generators, its static files) writes a path the leaderboard writes: one line
    naming the path, the setting that sends the other writer there, and the leaderboard's."""
    for path, writer in theirs:
        ours = claim(path, index_save_as)
        if ours is not None:
            raise BuildFailed(f"{path} is written both by {writer} and by the leaderboard ({ours}); "
                              "give one of them another path")


def refuse_overwriting(root: str, paths: Iterable[str], earlier: frozenset[str]) -> None:
    """Rendering in place: a page or copy this render writes (``paths``) where a file lies that the
    earlier render did not write (someone else's) stops the build before anything is written."""
    clashes = [path for path in paths if path not in earlier and os.path.lexists(os.path.join(root, *path.split("/")))]
    if clashes:
        raise BuildFailed(output.overwrite_problem(clashes, one_line(root)))


def render_files(output_path: str, written: list[str], static: list[tuple[str, str]], settings: dict[str, Any]) -> set[str]:
    """Every file this render writes: the plugin's own, what Pelican's writer wrote (the Markdown
    pages), what the static generator copies after this generator (``static``: the theme's static
    files and STATIC_PATHS), and the sitemap the official sitemap plugin writes at the end."""
    files = set(written) | {output.MARKER}
    root = os.path.abspath(output_path)
    for path in pelican_written:
        relative = os.path.relpath(os.path.abspath(path), root)
        if not relative.startswith(os.pardir):
            files.add(relative.replace(os.sep, "/"))
    files.update(path for path, _ in static)
    if any(str(name).rpartition(".")[2] == "sitemap" for name in settings.get("PLUGINS") or []):
        sitemap = settings.get("SITEMAP") or {}
        files.add("sitemap." + (sitemap.get("format") or "xml" if isinstance(sitemap, dict) else "xml"))
    return files


def claim(path: str, index_save_as: str) -> str | None:
    """Why ``path`` (relative to the output, with "/") is the leaderboard's to write, or None."""
    if path == index_save_as:
        return "its index, LEADERBOARD_INDEX_SAVE_AS"
    if path in ROOT_FILES or path in OWN_FILES or path == output.MARKER:
        return f"its file {path}"
    folder = next((folder for folder in OWN_FOLDERS if path.startswith(folder)), None)
    return f"its folder {folder}" if folder else None


# The content Pelican's generators put in the context, and the setting that says where each kind is written.
PELICAN_CONTENT = (("articles", "article", "ARTICLE_SAVE_AS"), ("drafts", "draft", "DRAFT_SAVE_AS"),
                    ("pages", "page", "PAGE_SAVE_AS"), ("hidden_pages", "hidden page", "PAGE_SAVE_AS"),
                    ("draft_pages", "draft page", "DRAFT_PAGE_SAVE_AS"))


def pelican_paths(context: dict[str, Any], settings: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every file Pelican's own generators will write, as (path, what writes it): each direct
    template (``DIRECT_TEMPLATES``, where its ``<NAME>_SAVE_AS`` says), and each article and page
    and their translations."""
    for name in settings.get("DIRECT_TEMPLATES") or ():
        save_as = settings.get(f"{name.upper()}_SAVE_AS", f"{name}.html")
        if save_as:
            yield site_path(save_as), f"Pelican's direct template {name} (DIRECT_TEMPLATES, {name.upper()}_SAVE_AS)"
    for key, kind, setting in PELICAN_CONTENT:
        for content in context.get(key) or ():
            for item in (content, *(getattr(content, "translations", None) or ())):
                if item.save_as:
                    yield site_path(item.save_as), f"Pelican's {kind} {item.relative_source_path} ({setting})"


def static_paths(context: dict[str, Any], settings: dict[str, Any], theme: str) -> Iterator[tuple[str, str]]:
    """Every file the static generator will copy, as (path, what copies it): the theme's static
    files (``THEME_STATIC_PATHS``, under ``THEME_STATIC_DIR``, less what ``IGNORE_FILES`` names) and
    ``STATIC_PATHS``."""
    ignores = settings.get("IGNORE_FILES") or []
    static_dir = settings.get("THEME_STATIC_DIR", "theme")
    theirs = "the theme's static files (THEME_STATIC_PATHS)"
    for name in settings.get("THEME_STATIC_PATHS") or []:
        source = os.path.join(theme, name)
        if os.path.isfile(source):
            yield site_path(os.path.join(static_dir, os.path.basename(name))), theirs
        for folder, folders, names in os.walk(source, followlinks=True):
            folders[:] = sorted(entry for entry in folders if not any(fnmatch.fnmatch(entry, i) for i in ignores))
            inside = os.path.relpath(folder, source)
            for entry in sorted(names):
                if not any(fnmatch.fnmatch(entry, i) for i in ignores):
                    yield site_path(os.path.join(static_dir, inside, entry)), theirs
    for static in context.get("staticfiles") or []:
        yield site_path(static.save_as), f"the static file {static.relative_source_path} (STATIC_PATHS)"


def site_path(path: str) -> str:
    return posixpath.normpath(path.replace(os.sep, "/"))


# What Pelican's writer wrote in this build (content_written from the page generators), for the marker.
pelican_written: list[str] = []


def note_written(path: str, context: Any = None) -> None:
    if not isinstance((context or {}).get("page"), (ReportPage, BoardPage, ModelPage)):  # the plugin's own are in written
        pelican_written.append(path)
