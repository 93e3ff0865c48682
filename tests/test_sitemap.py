"""The official pelican-sitemap, as the site ships it (PLUGINS in pelicanconf.py): sitemap.xml lists
every HTML page and no asset, each dated by the data, and is the same whatever the clock says."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote

from conftest import ROOT, SETTINGS, report

PELICAN = str(Path(sys.executable).parent / "pelican")
SITE = "https://openmed.life/docs/eval/benchmark-leaderboard"
ENTRY = re.compile(r"<url>\n<loc>([^<]*)</loc>\n<lastmod>([^<]*)</lastmod>\n<changefreq>[a-z]+</changefreq>\n"
                   r"<priority>[0-9.]+</priority>\n</url>")


def reports_of_many_dates(archive):
    return archive({f"s{i % 2}/r{i}.report.json": report(suite=f"s{i % 2}", model_name=f"OpenMed/m{i}",
                                                          generated_at=f"2025-{1 + i % 12:02d}-{1 + i:02d}T23:59:00-05:00",
                                                          metrics={"leakage": {"overall": i / 100}})
                    for i in range(14)})


def entries(output: Path) -> dict[str, str]:
    text = (output / "sitemap.xml").read_text(encoding="utf-8")
    found = dict(ENTRY.findall(text))
    assert len(found) == text.count("<url>")
    return found


def test_pelican_content_lists_every_page_no_asset_and_dates_each_report_page_by_its_run_date(archive, tmp_path):
    reports = reports_of_many_dates(archive)
    output = tmp_path / "site"
    result = subprocess.run([PELICAN, "content", "-s", SETTINGS, "-o", str(output), "-e",
                             f'LEADERBOARD_REPORTS_DIR="{reports}"', 'LEADERBOARD_RELEASE_TAG="v1.0.0"',
                             "LEADERBOARD_PAGE_ROWS=3"], cwd=ROOT, capture_output=True, encoding="utf-8", timeout=120)
    assert result.returncode == 0, result.stderr
    found = entries(output)
    pages = sorted(path.relative_to(output).as_posix() for path in output.rglob("*.html"))
    assert len(pages) > 14 + 14 + 5
    assert sorted(found) == sorted(SITE + "/" + quote(re.sub(r"(^|/)index\.html$", r"\1", page)) for page in pages)
    rows = json.loads((output / "leaderboard.json").read_bytes())["rows"]
    assert len(rows) == 14
    for row in rows:
        page = "report/" + row["report_path"][: -len(".json")] + ".html"
        assert found[f"{SITE}/{quote(page)}"] == row["run_date"] + "T00:00:00+00:00", page
        # Its model's page (a report a model here), dated by the model's latest run date: this one's.
        assert found[f"{SITE}/model/{row['model_name']}.html"] == row["run_date"] + "T00:00:00+00:00"
    latest = max(row["run_date"] for row in rows) + "T00:00:00+00:00"
    assert found[SITE + "/"] == found[SITE + "/compare.html"] == latest
    assert found[SITE + "/ranking.html"] == "2026-11-30T00:00:00+00:00"  # its Date:


# One build in a process of its own (nothing another test's in-process build left behind reaches it),
# with the sitemap plugin's clock set to the given time.
UNDER_CLOCK = """
import sys
from datetime import datetime
from pelican import Pelican
from pelican.plugins import sitemap
from pelican.settings import read_settings
settings, output, reports, clock = sys.argv[1:]
sitemap.sitemap.generator.now = datetime.fromisoformat(clock)
Pelican(read_settings(settings, override={"OUTPUT_PATH": output, "LEADERBOARD_REPORTS_DIR": reports,
                                          "LEADERBOARD_RELEASE_TAG": "v1.0.0"})).run()
"""


def test_two_builds_under_different_clocks_write_the_same_sitemap(archive, tmp_path):
    reports = reports_of_many_dates(archive)
    written = []
    for number, clock in enumerate(("1999-01-01T12:00:00", "2042-07-09T03:04:05")):
        # The plugin falls back to the time it was imported for a page without a date: there must be none.
        output = tmp_path / f"out-{number}"
        result = subprocess.run([sys.executable, "-c", UNDER_CLOCK, str(SETTINGS), str(output), str(reports), clock],
                                cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        written.append((output / "sitemap.xml").read_bytes())
        assert b"1999-" not in written[-1] and b"2042-" not in written[-1]
    assert written[0] == written[1]


def test_a_build_after_a_failed_one_in_the_same_process_writes_its_own_sitemap(archive, tmp_path):
    # A preview rebuilds in its own process: after a refused archive, the next good build must still
    # write sitemap.xml, listing its own pages only (pelican-sitemap waits for a build's finalized
    # signal, which a failed build never sends).
    from benchmark_leaderboard.problems import BuildRefused
    from leaderboard_tools.runner import build

    refused = archive({"bad.report.json": report(suite="")}, name="refused")
    good = archive({"kept.report.json": report(model_name="OpenMed/kept")}, name="good")
    try:
        build(SETTINGS, str(tmp_path / "refused-site"), str(refused), release_tag="v1.0.0", progress=lambda line: None)
    except BuildRefused:
        pass
    else:
        raise AssertionError("the archive with an empty suite was not refused")
    build(SETTINGS, str(tmp_path / "site"), str(good), release_tag="v1.0.0", progress=lambda line: None)

    listed = entries(tmp_path / "site")
    assert any(address.endswith("/report/kept.report.html") for address in listed)
    assert not any("refused" in address or "bad.report" in address for address in listed)
