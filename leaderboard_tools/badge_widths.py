"""The badges' table of character advances, measured once from a font file and committed:

    python -m leaderboard_tools.badge_widths /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf \\
        > plugins/benchmark_leaderboard/present/badge_widths.json

A badge (``benchmark_leaderboard.badge``) is text drawn in DejaVu Sans at 11 px, and its boxes are
as wide as its text: the build sums each character's advance from this table, as the well-known
badge services do with theirs, and never reads a font. The table holds the advance width of every
character of ``RANGES`` the font has, in the font's units (``units_per_em`` of them to the em),
read from its ``cmap`` and ``hmtx`` tables with fontTools (a test-only package: the build does not
need it, and ``tests/test_badges.py`` measures the font again, when the machine has it, to check
the committed table). DejaVu Sans is the font Debian's Chromium draws with here (``make test``
installs fonts-dejavu-core with it); a reader whose system draws the badge in another font still
sees the text fill its box, since each text element gives its length (``textLength``)."""

from __future__ import annotations

import json
import sys

# The characters measured: Latin (Basic, Latin-1, Extended-A and -B), Greek, Cyrillic and the
# general punctuation (dashes, quotes, the ellipsis). Any other character is as wide as the em
# when it is a wide East Asian one, takes no room when it combines, and is as wide as UNMEASURED_GLYPH
# otherwise (``benchmark_leaderboard.badge.advance``).
RANGES = ((0x20, 0x7E), (0xA0, 0x24F), (0x370, 0x3FF), (0x400, 0x4FF), (0x2010, 0x2027), (0x2030, 0x205E))
UNMEASURED_GLYPH = "M"


def measured(font_path: str) -> dict:
    """The table of the font at ``font_path``: its name and version, its units per em, the advance
    of ``UNMEASURED_GLYPH``, and every measured character's advance by its code point (four or more
    upper-case hex digits)."""
    from fontTools.ttLib import TTFont

    font = TTFont(font_path)
    glyphs = font.getBestCmap()
    metrics = font["hmtx"]
    advances = {f"{code:04X}": metrics[glyphs[code]][0]
                for first, last in RANGES for code in range(first, last + 1) if code in glyphs}
    return {
        "font": f"{font['name'].getDebugName(4)}, {font['name'].getDebugName(5)}",
        "units_per_em": font["head"].unitsPerEm,
        "fallback": metrics[glyphs[ord(UNMEASURED_GLYPH)]][0],
        "advances": advances,
    }


def table_text(table: dict) -> str:
    """The table as committed: JSON, keys sorted, one entry a line."""
    return json.dumps(table, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m leaderboard_tools.badge_widths FONT.ttf > plugins/benchmark_leaderboard/present/badge_widths.json",
              file=sys.stderr)
        return 2
    sys.stdout.write(table_text(measured(args[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
