"""Pelican settings for a release render, published under openmed.life: absolute URLs."""

import os
import sys

sys.path.append(os.path.dirname(os.path.abspath(__file__)))

from pelicanconf import *  # noqa: E402,F403

SITEURL = "https://openmed.life/docs/eval/benchmark-leaderboard"
RELATIVE_URLS = False
