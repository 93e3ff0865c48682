"""The page's script writes numbers as the build does: leaderboard-common.js's percent, rounded,
interval and floatText against formatting.py's percent, rounded and interval_text and Python's repr,
over many values (random fractions, short decimals, halves that round to even, the smallest and
largest floats, negative zero), run in node."""

from __future__ import annotations

import json
import random
import shutil
import subprocess

import pytest

from benchmark_leaderboard.formatting import MOST_DECIMALS, interval_text, percent, rounded
from conftest import ROOT

COMMON = ROOT / "theme" / "static" / "leaderboard-common.js"
# Runs the script with no page data, then writes each function's text of every value, as JSON.
RUN = """
const fs = require("fs");
global.window = {};
eval(fs.readFileSync(process.argv[1], "utf8"));
const c = window.leaderboardCommon;
const given = JSON.parse(fs.readFileSync(0, "utf8"));
const decimals = given.decimals;
process.stdout.write(JSON.stringify({
  percent: given.fractions.map(c.percent),
  rounded: given.fractions.map((x) => decimals.map((d) => c.rounded(x, d))),
  floatText: given.floats.map(c.floatText),
  interval: given.intervals.map(([low, high]) => c.interval(low, high)),
}));
"""


def fractions() -> list[float]:
    rng = random.Random(20260614)
    found = [0.0, -0.0, 1.0, 0.5, 5e-324, 1e-05, 1e-4, 0.1 + 0.2, 1 / 7, 2 / 3, 0.999999999, 2 ** -30,
             0.00125, 0.00135, 0.123455, 0.123465, 0.0000125, 0.7934506856227626, 0.9999999999999999]
    found += [rng.random() for _ in range(2000)]
    found += [round(rng.random(), rng.randrange(1, 9)) for _ in range(2000)]  # short decimals: ties
    found += [rng.randrange(0, 10 ** 6) / 10 ** rng.randrange(4, 9) for _ in range(1000)]
    found += [rng.random() * 10.0 ** -rng.randrange(1, 300) for _ in range(500)]
    return [value for value in found if value <= 1.0]


def written_by_the_script(given: dict) -> dict:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the script's formatting cannot be run outside a browser")
    done = subprocess.run([node, "-e", RUN, str(COMMON)], input=json.dumps(given), capture_output=True, text=True,
                          check=True, timeout=120)
    return json.loads(done.stdout)


def test_the_script_writes_every_number_as_the_build_does():
    values = [value for value in fractions() if not (value == 0 and str(value).startswith("-"))]  # -0.0: below
    floats = values + [-value for value in values] + [1e16, 1.5e16, 123456789012345.6, 1e22, 1e300, 2.5e-5]
    positive = sorted(value for value in values if value >= 0)
    rng = random.Random(7)
    pairs = [sorted((rng.choice(positive), rng.choice(positive))) for _ in range(2000)] + [[0.0, 0.0], [0.0, 1.0]]
    decimals = list(range(2, MOST_DECIMALS + 1))
    given = {"fractions": values, "floats": floats, "intervals": pairs, "decimals": decimals}
    written = written_by_the_script(given)

    assert written["percent"] == [percent(value) for value in values]
    assert written["rounded"] == [[rounded(value, places) for places in decimals] for value in values]
    assert written["floatText"] == [repr(value) for value in floats]
    assert written["interval"] == [interval_text(low, high) for low, high in pairs]


def test_negative_zero_as_an_exact_percentage():
    written = written_by_the_script({"fractions": [-0.0], "floats": [], "intervals": [], "decimals": [2]})

    assert written["percent"] == [percent(-0.0)] == ["-0.00"]
    assert written["rounded"] == [[rounded(-0.0, 2)]] == [["-0.00"]]
