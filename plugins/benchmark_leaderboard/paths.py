"""Every path the leaderboard writes and every URL it links, in one place: where each page, copy,
data file and badge is written (relative to the output folder, with "/"), and its URL within the
site (``url_of``). The index's own path and URL are settings (``LEADERBOARD_INDEX_SAVE_AS``,
``LEADERBOARD_INDEX_URL``: settings.py); everything else lives in folders and files that only the
leaderboard writes (``OWN_FOLDERS``, ``OWN_FILES``, ``ROOT_FILES``), which output.py and the
collision check read.

The names of the working files a build into a mount point leaves inside the output
(``INNER_LOCK``, ``INNER_STAGING_PREFIX``, ``INNER_OLD_PREFIX``, ``TOKEN``) are the tooling's
(``leaderboard_tools.exchange`` makes them), but they are declared here: the plugin must know them
to judge an output (one holding only them counts as empty, and a render in place or ``clean`` leaves
them; write/output.py), and the plugin imports nothing of the tooling, which imports the plugin."""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from urllib.parse import quote


# What quote() leaves as it is: a path of only these characters is its own URL.
_PLAIN = re.compile(r"[A-Za-z0-9_.~/-]*")


def url_of(path: str) -> str:
    """The URL of a file at ``path`` (relative to the site): the path itself when quoting would
    change nothing, else the path quoted."""
    return path if _PLAIN.fullmatch(path) else quote(path)


REPORT_PAGES = "report/"


def report_page_path(report_path: str) -> str:
    """Where a report's page is written: ``report/`` and its path, ``.json`` becoming ``.html``."""
    return REPORT_PAGES + report_path[: -len(".json")] + ".html"


def report_page_url(report_path: str) -> str:
    """The URL of a report's page, relative to the site."""
    return url_of(report_page_path(report_path))


def page_address(save_as: str) -> str:
    """The address of the page written as ``save_as``, relative to the site, as the sitemap lists it
    and as its canonical link names it: a folder's ``index.html`` is the folder."""
    return address_of(url_of(save_as))


def address_of(url: str) -> str:
    """The address of the page whose URL within the site is ``url``: a folder's ``index.html`` is the folder."""
    return url[: -len("index.html")] if url == "index.html" or url.endswith("/index.html") else url


def family_page_path(anchor: str, family_number: int, page: int) -> str:
    """Where page ``page`` of a suite's family ``family_number`` (both 1-based) is written."""
    return f"suite/{anchor}/{family_number}/{page}.html"


def suite_page_path(anchor: str) -> str:
    """Where a suite's page is written: the index's panel of that suite, for a reader without the
    script (the index itself is the first suite's)."""
    return f"suite/{anchor}/index.html"


@lru_cache(maxsize=1 << 10)  # every report page asks for its suite's
def suite_home(anchor: str, first: bool, index_url: str = "index.html") -> str:
    """The URL within the site of the page that opens on a suite, with the script or without: the
    index (at ``index_url``) for the first suite, its own page for the others. (The index's address
    with the suite's fragment opens it only where the script runs.)"""
    return index_url if first else suite_page_path(anchor)


def panel_script_path(anchor: str) -> str:
    """Where a suite's panel is written as a script, for the index's tabs to load when first shown."""
    return f"suite/{anchor}/panel.js"


BADGES = "badge/"


# A model name whose badge path is the name itself: folders of letters, digits, "_" and "-", and a
# last part that may hold dots as well (Hugging Face's "org/name-v1.5").
_PLAIN_NAME = re.compile(r"(?:[A-Za-z0-9_-]+/)*[A-Za-z0-9._-]+")


_FOLDER_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


_FILE_SAFE = _FOLDER_SAFE | {"."}


# The longest part of a path a file system is sure to hold (255 bytes, less ".html" or ".svg"), and
# the longest name kept readable; a longer one is written by its digest.
_MOST_PART = 250


_MOST_NAME = 1000


def _encoded(part: str, safe: frozenset[str]) -> str:
    """``part`` of a model name with every character not in ``safe`` written as ``~`` and two
    upper-case hex digits a byte of its UTF-8 (``~`` itself too: ``~7E``); an empty part is ``~``."""
    if not part:
        return "~"
    return "".join(char if char in safe else "".join(f"~{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))
                   for char in part)


def badge_path(anchor: str, model_name: str) -> str:
    """Where the badge of ``model_name`` in the suite of ``anchor`` is written, relative to the
    site: ``badge/<anchor>/<model>.svg``, the model's part of the path as ``model_path`` writes it."""
    return f"{BADGES}{anchor}/{model_path(model_name)}.svg"


def model_path(model_name: str) -> str:
    """A model's part of the paths written for it (its badges, its page), without a suffix: the
    model's parts (split at ``/``) as folders. Its characters are letters, digits, ``.``, ``_``,
    ``-``, ``~`` and ``/`` only, so a path made of it is its own URL. One name, one path, and two
    names never share one: a folder never holds a dot (so no folder is ``.`` or ``..`` or a file's
    name), any other character is encoded (``_encoded``), and a name too long for that is written
    as ``~~`` and its SHA-256, which no encoding makes (``~~`` occurs in none)."""
    if len(model_name) <= _MOST_PART and _PLAIN_NAME.fullmatch(model_name):
        return model_name
    *folders, last = model_name.split("/")
    parts = [_encoded(folder, _FOLDER_SAFE) for folder in folders] + [_encoded(last, _FILE_SAFE)]
    if max(map(len, parts)) > _MOST_PART or sum(map(len, parts)) > _MOST_NAME:
        return "~~" + hashlib.sha256(model_name.encode("utf-8", "surrogatepass")).hexdigest()
    return "/".join(parts)


def suite_csv_path(anchor: str) -> str:
    """Where a suite's CSV is written."""
    return f"suites/{anchor}.csv"


MODEL_PAGES = "model/"


def model_page_path(model_name: str) -> str:
    """Where a model's page is written: ``model/`` and its name as its badges encode it, ``.html``."""
    return f"{MODEL_PAGES}{model_path(model_name)}.html"


def model_page_url(model_name: str) -> str:
    """The URL of a model's page, relative to the site (its path: only URL-safe characters)."""
    return url_of(model_page_path(model_name))


FEED_PATH = "feeds/releases.atom.xml"


CHANGES_PAGE = "changes.html"


PREVIOUS_COPY = "changes/previous-leaderboard.json"


def changes_page_path(anchor: str, page: int) -> str:
    """Where page ``page`` (2 or more) of a kind of change longer than a page is written."""
    return f"changes/{anchor}/{page}.html"


REPORT_COPIES = "reports/"


UNCERTAINTY = "uncertainty.json"


DATA_SCRIPT = "leaderboard-data.js"


ROW_CHUNKS = "rows/"


COMPARE_DATA = "compare-data/"


# The folders that hold only this plugin's files: what an earlier render wrote there and this one
# did not is removed when rendering in place.
LEADERBOARD_JSON = "leaderboard.json"
LEADERBOARD_CSV = "leaderboard.csv"
COMPARE_PAGE = "compare.html"
SCHEMAS = "schemas/"
# The style sheets made from the columns' table, beside the theme's own static files.
COLUMNS_CSS = "theme/columns.css"
NOJS_CSS = "theme/nojs.css"
OWN_FOLDERS = (REPORT_PAGES, REPORT_COPIES, SCHEMAS, "suite/", "suites/", COMPARE_DATA, ROW_CHUNKS, "changes/",
               BADGES, MODEL_PAGES)


# Files of the plugin's own that a render writes only sometimes (a build compared with a previous leaderboard).
OWN_FILES = (CHANGES_PAGE, FEED_PATH)


# The files outside those folders that every render writes (the index aside: LEADERBOARD_INDEX_SAVE_AS).
ROOT_FILES = (LEADERBOARD_JSON, UNCERTAINTY, DATA_SCRIPT, LEADERBOARD_CSV, COMPARE_PAGE, COLUMNS_CSS, NOJS_CSS)


# What a build into a mount point leaves inside the output while it works (leaderboard_tools.exchange
# makes them; a killed build may leave them behind): its lock, and its staging and old folders, each
# a prefix and a TOKEN. The random part of every name the tooling makes: 12 lower-case hex digits.
INNER_LOCK = ".leaderboard.lock"
INNER_STAGING_PREFIX = ".leaderboard-staging-"
INNER_OLD_PREFIX = ".leaderboard-old-"
TOKEN = "[0-9a-f]{12}"
