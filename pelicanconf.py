"""Pelican settings for the local build: relative URLs, so the site also works opened from disk."""

import os

HERE = os.path.dirname(os.path.abspath(__file__))

SITENAME = "OpenMed Benchmark Leaderboard"
SITE_DESCRIPTION = (
    "OpenMed's archived synthetic de-identification benchmarks, ranked by leaked protected text "
    "(lower first), then by recall."
)
# Where the site is published: canonical links, Open Graph URLs and the sitemap's addresses point
# here in a local build (a release render points them at its permanent address instead: see
# release_settings in leaderboard_tools/release.py). The pages themselves link relatively
# (RELATIVE_URLS: Pelican's writer and the plugin give every page a SITEURL relative to itself), so
# the site also works opened from disk.
CANONICAL_URL = "https://openmed.life/docs/eval/benchmark-leaderboard"
SITEURL = CANONICAL_URL
RELATIVE_URLS = True
PATH = os.path.join(HERE, "content")
OUTPUT_PATH = os.path.join(HERE, "output")
THEME = os.path.join(HERE, "theme")
TIMEZONE = "UTC"
DEFAULT_LANG = "en"
LOCALE = ("C.UTF-8", "C")

PLUGIN_PATHS = [os.path.join(HERE, "plugins")]
# sitemap: the official pelican-sitemap (requirements.lock), a namespace plugin (pelican.plugins.sitemap).
PLUGINS = ["benchmark_leaderboard", "sitemap"]

# sitemap.xml lists every HTML page the build writes (the plugin announces its pages, not its
# scripts or data), each dated by the data: a report's page by its run date, the pages of the whole
# board by the archive's latest run date, a Markdown page by its Date. No clock: same bytes every build.
SITEMAP = {
    "format": "xml",
    "priorities": {"indexes": 1.0, "pages": 0.5, "articles": 0.5},
    "changefreqs": {"indexes": "monthly", "pages": "monthly", "articles": "monthly"},
}

# The archive the site publishes is the plugin's default (benchmark_leaderboard/settings.py):
# content/benchmarks and models.jsonl; `invoke build` flags override them.
# No LEADERBOARD_RELEASE_TAG: a report without a tag of its own is refused unless the build is
# given one (`invoke build --release-tag`; `make build` passes the bundled archive's).

# Only Markdown pages are content; the leaderboard generator writes index.html itself.
ARTICLE_PATHS = ["articles"]
PAGE_PATHS = ["pages"]
STATIC_PATHS = []
DIRECT_TEMPLATES = []
PAGE_SAVE_AS = "{slug}.html"
PAGE_URL = "{slug}.html"
DISPLAY_PAGES_ON_MENU = True
DISPLAY_CATEGORIES_ON_MENU = False

# Same inputs, same bytes: nothing from the clock, no feeds, no per-author or per-tag pages.
FEED_ALL_ATOM = None
FEED_ALL_RSS = None
CATEGORY_FEED_ATOM = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None
TAG_SAVE_AS = ""
TAGS_SAVE_AS = ""
CATEGORY_SAVE_AS = ""
CATEGORIES_SAVE_AS = ""
AUTHOR_SAVE_AS = ""
AUTHORS_SAVE_AS = ""
ARCHIVES_SAVE_AS = ""
CACHE_CONTENT = False
LOAD_CONTENT_CACHE = False
DELETE_OUTPUT_DIRECTORY = False
# Every value a template prints is HTML-escaped unless a template says |safe. Templates are read
# once per build (every build is a new process, live reload's too), not checked on disk per page.
JINJA_ENVIRONMENT = {"trim_blocks": True, "lstrip_blocks": True, "autoescape": True, "auto_reload": False}
MARKDOWN = {
    "extension_configs": {
        "markdown.extensions.extra": {},
        "markdown.extensions.toc": {"permalink": False},
    },
    "output_format": "html5",
}
