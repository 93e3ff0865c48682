"""The exit statuses of the site's tasks: the plugin's table (``benchmark_leaderboard.exits``), which
``pelican content`` uses too."""

from benchmark_leaderboard.exits import DONE, INTERRUPTED, REFUSED, UNUSABLE, interrupted

__all__ = ["DONE", "INTERRUPTED", "REFUSED", "UNUSABLE", "interrupted"]
