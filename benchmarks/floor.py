"""The floor: what rendering an archive costs at the least, done by one plain Python process.

usage: python -m benchmarks.floor REPORTS_DIR OUT

Reads every report (each ``*.json`` file below REPORTS_DIR, in sorted order), parses it, and writes
into OUT, a folder that must not exist yet, its canonical copy, ``OUT/reports/<path>``
(``json.dumps(report, ensure_ascii=False, indent=2, sort_keys=True)`` and a line break), and a small
page, ``OUT/report/<path without .json>.html``, from ``benchmarks/floor.html``. Nothing is checked,
ranked or indexed: what a renderer takes beyond the floor's time is what its other work costs."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from benchmark_leaderboard.problems import one_line
from jinja2 import Environment, FileSystemLoader

HERE = Path(__file__).resolve().parent
TEMPLATE = "floor.html"


class FloorError(Exception):
    """A report cannot be read or parsed, or OUT cannot be written; the message is one line."""


def report_paths(reports_dir: str) -> list[str]:
    """Every ``*.json`` file below ``reports_dir``, as a ``/``-separated relative path, in sorted order."""
    found: list[str] = []
    for folder, folders, names in os.walk(reports_dir):
        folders.sort()
        relative = os.path.relpath(folder, reports_dir)
        prefix = "" if relative == "." else relative.replace(os.sep, "/") + "/"
        found.extend(prefix + name for name in names if name.endswith(".json"))
    return sorted(found)


def write_floor(reports_dir: str, out: str) -> int:
    """Write the floor's copies and pages of ``reports_dir`` into the new folder ``out``; returns how
    many reports it wrote."""
    template = Environment(loader=FileSystemLoader(str(HERE)), autoescape=True,
                           keep_trailing_newline=True).get_template(TEMPLATE)
    paths = report_paths(reports_dir)
    try:
        os.mkdir(out)
    except OSError as error:
        raise FloorError(f"cannot make {one_line(out)}: {error.strerror or error} (OUT must be a new folder)") from None
    made: set[str] = set()
    for relative in paths:
        source = os.path.join(reports_dir, relative)
        try:
            with open(source, "rb") as handle:
                report = json.loads(handle.read())
        except OSError as error:
            raise FloorError(f"cannot read {one_line(source)}: {error.strerror or error}") from None
        except ValueError as error:
            raise FloorError(f"{one_line(source)}: not JSON: {one_line(str(error))}") from None
        copy = f"reports/{relative}"
        page = f"report/{relative[:-len('.json')]}.html"
        up = "../" * page.count("/")
        html = template.render(report=report, copy_url=up + copy)
        for name, text in ((copy, json.dumps(report, ensure_ascii=False, indent=2, sort_keys=True) + "\n"), (page, html)):
            target = os.path.join(out, name)
            folder = os.path.dirname(target)
            try:
                if folder not in made:
                    os.makedirs(folder, exist_ok=True)
                    made.add(folder)
                with open(target, "x", encoding="utf-8") as handle:
                    handle.write(text)
            except OSError as error:
                raise FloorError(f"cannot write {one_line(target)}: {error.strerror or error}") from None
    return len(paths)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("floor: usage: python -m benchmarks.floor REPORTS_DIR OUT", file=sys.stderr)
        return 2
    try:
        written = write_floor(args[0], args[1])
    except FloorError as error:
        print(f"floor: {error}", file=sys.stderr)
        return 2
    print(f"floor: {written} report{'s' if written != 1 else ''} into {one_line(args[1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
