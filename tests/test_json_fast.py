"""orjson reads the archive and writes the canonical copies; what it reads and writes must be exactly
what Python's json reads and writes. Differential: every file of every archive of the differential
run (valid, mutated, hostile and probing ones) and seeded random documents full of what the two
libraries spell or read differently (exponents, tiny and huge floats, integers beyond 64 bits, NaN,
control characters, lone surrogates, deep nesting, strings that look like numbers)."""

from __future__ import annotations

import json
import math
import random

import pytest

from benchmark_leaderboard.read.archive import MAX_DEPTH, parse
from benchmark_leaderboard.read.canonical import canonical
from differential_support import all_cases


def same(a, b) -> bool:
    """Equal as JSON values and of the same types all the way down: 1 is not 1.0, -0.0 is not 0.0,
    NaN equals NaN, and objects keep the same key order."""
    if type(a) is not type(b):
        return False
    if type(a) is float:
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if type(a) is dict:
        return list(a) == list(b) and all(same(a[key], b[key]) for key in a)
    if type(a) is list:
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def json_reads(data: bytes):
    """What json reads of ``data`` (as the build did before orjson): (value, None) or (None, error)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return None, error
    try:
        return json.loads(text), None
    except (ValueError, RecursionError) as error:
        return None, error


def json_writes(document) -> bytes | None:
    try:
        return (json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return None


def every_archive_file() -> list[tuple[str, bytes]]:
    return [(f"{case.name}/{path}", data) for case in all_cases() for path, data in sorted(case.files.items())
            if path.endswith(".json")]


def test_parse_reads_every_archive_file_as_json_does():
    checked = refused = 0
    for name, data in every_archive_file():
        value, problem = parse(data, name)
        expected, error = json_reads(data)
        if error is None and not (data.count(b"[") + data.count(b"{") > MAX_DEPTH):
            assert problem is None, name
            assert same(value, expected), name
            checked += 1
        elif error is not None:
            assert value is None and problem is not None, name
            refused += 1
    assert checked > 2000 and refused > 10  # the run holds many of both


def test_canonical_writes_every_archive_report_as_json_does():
    checked = 0
    for name, data in every_archive_file():
        value, error = json_reads(data)
        if error is not None:
            continue
        expected = json_writes(value)
        if expected is None:
            with pytest.raises(UnicodeEncodeError):
                canonical(value)
        else:
            assert canonical(value) == expected, name
        checked += 1
    assert checked > 2000


ODD_STRINGS = ["", "plain", "ünïcødé 🧪", "\u2028\u2029", "\x00\x01\x1f\x7f", "tab\tline\nreturn\r", 'quote " and \\',
               '": 1e5', '": null', "\n  1e-05", "0.00001", "12345678901234567890", "</script>", "\ufeff", "\ud7ff\ue000",
               "\U0010ffff", "a\u0085b"]


def random_float(rng: random.Random) -> float:
    choice = rng.random()
    if choice < 0.2:
        return rng.choice([0.0, -0.0, 1.0, 0.5, 1e-4, 9.999999999999999e-05, 1e-05, 1e15, 1e16, 9999999999999998.0,
                           1e17, 1.5e-7, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 0.1, 1 / 3,
                           float("nan"), float("inf"), float("-inf")])
    if choice < 0.6:
        return rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)
    return rng.random()


def random_value(rng: random.Random, depth: int = 0):
    kind = rng.random()
    if depth > 6 or kind < 0.35:
        return random_float(rng)
    if kind < 0.5:
        return rng.choice([0, -1, 7, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, -2**63 - 1, 10**30,
                           True, False, None])
    if kind < 0.7:
        return rng.choice(ODD_STRINGS) + rng.choice(ODD_STRINGS)
    if kind < 0.85:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(ODD_STRINGS) + str(number): random_value(rng, depth + 1) for number in range(rng.randint(0, 5))}


@pytest.mark.parametrize("seed", range(4))
def test_random_documents_are_written_and_read_as_json_does(seed: int):
    rng = random.Random(seed)
    for _ in range(1500):
        document = {"metrics": random_value(rng), "suite": rng.choice(ODD_STRINGS), "n": random_value(rng)}
        expected = json_writes(document)
        if expected is None:  # a lone surrogate: json cannot write it as UTF-8 either
            with pytest.raises(UnicodeEncodeError):
                canonical(document)
            continue
        assert canonical(document) == expected
        # Read back, and read as written by json's compact and ASCII-only spellings too.
        for text in (expected, json.dumps(document).encode("utf-8"),
                     json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")):
            value, problem = parse(text, "doc.json")
            assert problem is None
            assert same(value, json.loads(text.decode("utf-8")))


def test_documents_orjson_would_read_otherwise_are_read_by_json():
    """An integer beyond 64 bits (orjson makes it a float), NaN and 1e400 (orjson refuses them),
    a lone surrogate escape, a byte-order mark, and bytes that are not UTF-8."""
    cases = {
        b'{"n": 18446744073709551616}': {"n": 18446744073709551616},
        b'{"n": -9223372036854775809}': {"n": -9223372036854775809},
        b'{"n": 123456789012345678901234567890}': {"n": 123456789012345678901234567890},
        b'{"n": NaN, "i": -Infinity}': {"n": float("nan"), "i": float("-inf")},
        b'{"n": 1e400}': {"n": float("inf")},
        b'{"s": "\\ud800"}': {"s": "\ud800"},
        # A run of 19 digits in a string alone is read by orjson; beside a long integer, or beside a
        # string with an escaped quote, the integer is still read as json reads it.
        b'{"id": "1234567890123456789012", "n": 12}': {"id": "1234567890123456789012", "n": 12},
        b'{"id": "1234567890123456789012", "n": 12345678901234567890}':
            {"id": "1234567890123456789012", "n": 12345678901234567890},
        b'{"q": "a \\" 1234567890123456789012", "n": 12345678901234567890}':
            {"q": 'a " 1234567890123456789012', "n": 12345678901234567890},
    }
    for data, expected in cases.items():
        value, problem = parse(data, "doc.json")
        assert problem is None and same(value, expected), data
    for data in (b"\xef\xbb\xbf{}", b'{"s": "\xed\xa0\x80"}', b"{\xff}", b'{"a": 01}'):
        value, problem = parse(data, "doc.json")
        assert value is None and problem is not None and problem.rule.startswith("is not"), data
