"""The exit statuses of the site's tasks: the plugin's table (``benchmark_leaderboard.exits``), which
``pelican content`` uses too."""

from benchmark_leaderboard.exits import DONE, INTERRUPTED, LEAKS_MORE, REFUSED, UNUSABLE, interrupted

__all__ = ["DONE", "INTERRUPTED", "LEAKS_MORE", "REFUSED", "UNUSABLE", "interrupted"]
