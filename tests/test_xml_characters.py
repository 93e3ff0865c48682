"""The characters XML 1.0 cannot hold, declared once (formatting.NOT_XML): exactly those an XML
parser refuses, over every code point of the Basic Multilingual Plane and the edges beyond it; the
feed replaces them, and a badge, one line of text, replaces them and the controls XML can hold."""

from __future__ import annotations

from lxml import etree

from benchmark_leaderboard.formatting import xml_safe
from benchmark_leaderboard.present.badge import xml_text


def parses(char: str) -> bool:
    try:
        etree.fromstring(f"<a>&#x{ord(char):x};</a>".encode("ascii"))
    except etree.XMLSyntaxError:
        return False
    return True


CODE_POINTS = [*range(0x10000), 0x10000, 0x1F600, 0x10FFFF]


def test_exactly_what_xml_refuses_is_replaced():
    refused = [code for code in CODE_POINTS if not parses(chr(code))]
    replaced = [code for code in CODE_POINTS if xml_safe(chr(code)) != chr(code)]

    assert replaced == refused
    assert {xml_safe(chr(code)) for code in refused} == {"\ufffd"}
    assert xml_safe("tab\there\nand\r") == "tab\there\nand\r"


def test_a_badge_replaces_as_well_the_controls_that_break_its_one_line():
    one_line_controls = {0x09, 0x0A, 0x0D, *range(0x7F, 0xA0)}
    for code in CODE_POINTS:
        char = chr(code)
        expected = "\ufffd" if code in one_line_controls or xml_safe(char) != char else char
        assert xml_text(char) == expected, hex(code)
