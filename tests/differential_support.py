"""Archives for the differential tests: deterministic, seeded, written byte by byte.

Every ``Case`` is one archive (report files, auxiliary files, folders, symbolic links), the
manifest beside it and the ``--release-tag`` fallback. ``expect`` says what the contract
demands of it ("publish", "refuse", or None when the case only probes an edge where the
project must simply do what the reference does); ``culprit`` names the file a refusal must
point at. Nothing here knows how either renderer works: the cases are built from the
contract's rules.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

REPORTS = "reports"
MANIFEST = "models.jsonl"
OUTSIDE = "outside"
NO_FILE = b"\0no manifest file"  # ask Base.case for an archive without models.jsonl


# --- JSON text, including what json.dumps will not write ------------------------------------

@dataclass(frozen=True)
class Raw:
    """JSON text written exactly as given (NaN, 1e400, 5000-digit numbers, deep nesting)."""

    text: str


@dataclass(frozen=True)
class Pairs:
    """An object written with its keys in this order, repeats included."""

    items: tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Style:
    indent: int | None = 2
    ascii_only: bool = False


def json_text(value: Any, style: Style = Style(), depth: int = 0) -> str:
    """``value`` as JSON text in ``style``; dict keys keep their (possibly shuffled) order."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, str):  # a surrogate can only be written as an escape
        return json.dumps(value, ensure_ascii=style.ascii_only or any("\ud800" <= c <= "\udfff" for c in value))
    if value is None or isinstance(value, (bool, int)):
        return json.dumps(value)
    if isinstance(value, float):
        return json.dumps(value)  # NaN, Infinity and -0.0 included
    if isinstance(value, (dict, Pairs)):
        items = list(value.items) if isinstance(value, Pairs) else list(value.items())
        parts = [f"{json_text(key, style)}: {json_text(item, style, depth + 1)}" for key, item in items]
        return _enclose("{", "}", parts, style, depth)
    if isinstance(value, (list, tuple)):
        return _enclose("[", "]", [json_text(item, style, depth + 1) for item in value], style, depth)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def _enclose(opening: str, closing: str, parts: list[str], style: Style, depth: int) -> str:
    if not parts:
        return opening + closing
    if style.indent is None:
        return opening + ", ".join(parts) + closing
    inner = "\n" + " " * (style.indent * (depth + 1))
    return opening + inner + ("," + inner).join(parts) + "\n" + " " * (style.indent * depth) + closing


def random_style(rng: random.Random) -> Style:
    return Style(indent=rng.choice([None, 2, 4, 0]), ascii_only=rng.random() < 0.3)


def shuffled(rng: random.Random, payload: dict[str, Any]) -> dict[str, Any]:
    """The same object with its keys (and nested keys) in a random order."""
    keys = list(payload)
    rng.shuffle(keys)
    return {key: shuffled(rng, payload[key]) if isinstance(payload[key], dict) else payload[key] for key in keys}


# --- The case ---------------------------------------------------------------------------------

@dataclass
class Case:
    name: str
    files: dict[str, bytes] = field(default_factory=dict)  # path in the archive -> bytes
    folders: tuple[str, ...] = ()  # empty folders to create in the archive
    links: tuple[tuple[str, str], ...] = ()  # (link path in the archive, target path below OUTSIDE or REPORTS)
    outside: dict[str, bytes] = field(default_factory=dict)  # files beside the archive, reached only by links
    manifest: bytes | None = None
    release_tag: str | None = None
    expect: str | None = None  # "publish", "refuse" or None
    culprit: str | None = None  # the problem file a refusal must name

    def write(self, root: Path) -> tuple[Path, Path]:
        """Write the case below ``root``; returns the reports folder and the manifest path."""
        reports = root / REPORTS
        reports.mkdir(parents=True)
        for relative, data in self.files.items():
            path = reports / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        for relative in self.folders:
            (reports / relative).mkdir(parents=True, exist_ok=True)
        for relative, data in self.outside.items():
            path = root / OUTSIDE / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        for relative, target in self.links:
            link = reports / relative
            link.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(root / target, link)
        manifest = root / MANIFEST
        if self.manifest is not None:
            manifest.write_bytes(self.manifest)
        return reports, manifest


# --- Valid reports ------------------------------------------------------------------------

# Names that tie once case-folded, that need Unicode, or that carry white space to strip.
SUITES = ["golden", "Golden", "GOLDEN", "edge-sbc", "Edge-SBC", "Straße", "STRASSE", "low resource",
          "ünïcødé 🧪", "Ωmega", "ωmega", "  padded\t", "日本語"]
FAMILIES = ["PII", "pii", "Pii", "NER", "Général", "GÉNÉRAL", "ß", "SS", "İstanbul", "Oncology", " Anatomy ", "🧬"]
DEVICES = ["cpu", "CPU", "mlx-8bit", "mlx-fp", " cuda ", "Core ML", "onnx\u00a0"]
RELEASES = ["v1.0.0", "V1.0.0", "v3.1.0", "v2.0.0-rc.1", " v0.9 ", "release 10"]
LEAKAGES = [0, 0.0, -0.0, 0.05, 0.1, 0.1, 0.1, 1, 1.0, 1 / 3, 1e-9, 0.25, 5e-324]
RECALLS = [0, 0.5, 0.9, 0.9, 0.9, 1, 0.75, 0.123456789, 0.99999999999]
F1S = [0, 0.1, 0.8, 0.85, 1, 0.5]
METRIC_PATHS = {
    "leakage": ("leakage.overall", "leakage_rate.overall", "leakage_rate", "critical_leakage_rate"),
    "recall": ("exact_span_f1.recall", "span.recall", "micro.recall", "recall"),
    "f1": ("exact_span_f1.f1", "span.f1", "micro.f1", "micro_f1", "f1"),
}
VALID_DATES = ["2026-06-14", "2026-06-14T10:00:00Z", "2026-06-14T23:30:00-08:00", "2026-06-14T00:30:00+14:00",
               " 2026-06-14 ", "\t2026-06-14T00:00:00Z\n", "20260614", "2026-W24-1", "2026W241", "2026-06-14 10:00",
               "2026-06-14T10:00:00.123456+00:00", "2026-06-14T10", "2026-06-14T1030", "2024-02-29",
               "0001-01-01", "9999-12-31T23:59:59Z", "2026-06-14T10:00:00,5"]
# Edges of ISO 8601 where only agreement matters: some read, some refused.
DATE_PROBES = VALID_DATES + [
    "2026-06-14Z", "2026-06-14T10:00:00z", "2026-165", "2026-06", "2026-06-14T24:00:00", "２０２６-０６-１４",
    "٢٠٢٦-٠٦-١٤", "2026-06-14T10:00:00.1234567", "+2026-06-14", "2026-13-01", "2026-02-30", "2025-02-29",
    "14/06/2026", "yesterday", "2026-06-14T25:00", "2026-06-14T10:00:00+25:00", "2026-06-14TZ", "Z", "2026-W53-1",
    "2026-W24-8", "2026-06-14T10:00:00+05:30:15", "2026-06-14T10:00:00.5Z", "2026-06-14t10:00", "2026-06-14 ",
    "2026-06-14\u00a0", "\u20032026-06-14", "2026-06-14\x00", "2026-06-14T10:00:00+00:00Z", "2026-6-14", "0000-01-01",
]
FOLDERS = ["", "", "golden/", "edge sbc/", "#tag/", "100%/", "ünï/cødé/", "q'uo\"te/", "a/b/c/d/", ".hidden/",
           "leaderboard.json/", "x.json.d/", "spaces  and\ttabs/", "%2F/"]


def sha(rng: random.Random) -> str:
    return "sha256:" + "".join(rng.choice("0123456789abcdef") for _ in range(64))


def padded(rng: random.Random, text: str) -> str:
    """``text`` with white space around it now and then: the contract strips it."""
    if rng.random() < 0.2:
        return rng.choice([" ", "\t", "\n", "\u3000", "\u2028"]) + text + rng.choice(["", " ", "\r\n", "\u00a0"])
    return text


def set_path(metrics: dict[str, Any], dotted: str, value: Any) -> bool:
    """Put ``value`` at a dotted path unless the path crosses a value already there."""
    *parents, last = dotted.split(".")
    node = metrics
    for part in parents:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            return False
    if last in node:
        return False
    node[last] = value
    return True


def random_metrics(rng: random.Random) -> dict[str, Any]:
    """Metrics with each value at a random accepted path, decoys before (null) and after (junk)."""
    every_path = {path for paths in METRIC_PATHS.values() for path in paths}
    metrics: dict[str, Any] = {}
    for name, pool in (("leakage", LEAKAGES), ("recall", RECALLS), ("f1", F1S)):
        paths = METRIC_PATHS[name]
        index = rng.randrange(len(paths))
        for earlier in paths[:index]:  # absent, null, or a non-object where an object was looked for
            head = earlier.split(".")[0]
            choice = rng.random()
            if head in every_path and head != earlier:
                continue  # an object there would be read as the value of the shorter path
            if choice < 0.2:
                set_path(metrics, earlier, None)
            elif choice < 0.3 and head != earlier and head not in metrics:
                metrics[head] = rng.choice([0.5, "n/a", [1]])
        if not set_path(metrics, paths[index], rng.choice(pool)):
            index = len(paths) - 1  # crossed by a decoy: the last path is always free
            set_path(metrics, paths[index], rng.choice(pool))
        for later in paths[index + 1:]:  # after the first present key: never read
            if rng.random() < 0.2:
                set_path(metrics, later, rng.choice(["junk", 7, None, True, Raw("NaN")]))
    if rng.random() < 0.5:
        set_path(metrics, "precision", rng.choice([0.9, 2, "x"]))
    if rng.random() < 0.3:
        set_path(metrics, "leakage.leaked_chars", rng.randrange(100))
    return metrics


class ArchiveMaker:
    """Valid reports, and the manifest rows some of them rely on."""

    def __init__(self, rng: random.Random, release_fallback: str | None):
        self.rng = rng
        self.release_fallback = release_fallback
        self.manifest_rows: dict[str, dict[str, Any]] = {}

    def manifest_row(self, model: str) -> dict[str, Any]:
        if model not in self.manifest_rows:
            rng = self.rng
            row = {"repo_id": model, "family": padded(rng, rng.choice(FAMILIES)), "reproducibility_hash": sha(rng)}
            if rng.random() < 0.3:
                row["display_name"] = "x"
            self.manifest_rows[model] = row
        return self.manifest_rows[model]

    def report(self, index: int) -> dict[str, Any]:
        rng = self.rng
        model = rng.choice(["OpenMed/model-a", "openmed/Model-A", "OpenMed/model-b", "OpenMed/ünï",
                            f"OpenMed/model-{index}", f"OpenMed/model-{index % 7}"])
        uses_manifest = rng.random() < 0.35
        metadata: dict[str, Any] = {"synthetic": True}
        payload: dict[str, Any] = {
            "suite": padded(rng, rng.choice(SUITES)),
            "model_name": model if uses_manifest else padded(rng, model),
            "device": padded(rng, rng.choice(DEVICES)),
            "fixture_count": rng.choice([1, 3, 50, 10**30]),
            "metrics": random_metrics(rng),
            "metadata": metadata,
        }
        family = padded(rng, rng.choice(FAMILIES))
        digest = sha(rng)
        if uses_manifest:
            self.manifest_row(model)
            # Unset, or set to nothing while the next key is absent: the manifest row decides.
            metadata.update(rng.choice([{}, {"model_family": ""}, {"model_family": None}, {"model_family": 0},
                                        {"family": None}]))
            metadata.update(rng.choice([{}, {"reproducibility_hash": None}, {"reproducibility_hash": ""}]))
        else:
            metadata.update(rng.choice([{"model_family": family}, {"family": family},
                                        {"model_family": "", "family": family}, {"model_family": None, "family": family},
                                        {"model_family": family, "family": 42}]))
            metadata.update(rng.choice([{"reproducibility_hash": digest}, {"repro_hash": digest},
                                        {"reproducibility_hash": "", "repro_hash": digest},
                                        {"reproducibility_hash": digest, "repro_hash": "bad"}]))
        release = padded(rng, rng.choice(RELEASES))
        options = [{"release_tag": release}, {"release": release}, {"release_tag": "", "release": release}]
        if self.release_fallback is not None:
            options += [{}, {"release_tag": None}, {"release_tag": "", "release": 0}]
        metadata.update(rng.choice(options))
        when = rng.choice(VALID_DATES)
        placement = rng.randrange(4)
        if placement == 0:
            payload["generated_at"] = when
        elif placement == 1:
            metadata["run_date"] = when
            payload["generated_at"] = rng.choice([None, "not a date", "2020-01-01"])
        elif placement == 2:
            metadata["run_date"] = rng.choice(["", None])
            payload["generated_at"] = when
        else:
            metadata["run_date"] = when
        if rng.random() < 0.2:
            metadata["notes"] = rng.choice(["ünïcødé ✓", "<script>alert(1)</script>", "a\u2028b", 10**400, Raw("NaN"),
                                            Raw("-0.0"), Raw("1E+2"), [1, {"b": None}], "\ud83d\ude00"])
        return payload


def report_name(rng: random.Random, index: int) -> str:
    folder = rng.choice(FOLDERS)
    name = rng.choice([f"{index:03d}.report.json", f"{index:03d}.report.json", f"run {index}.json",
                       f"{index}%20x.json", f"#{index}.json", f"é{index}.json", f"'{index}\".json",
                       f"{index}.REPORT.json", f"Ⅻ{index}.report.json", f"{index}?.json", f".{index}.json"])
    return folder + name


def auxiliary_files(rng: random.Random) -> dict[str, bytes]:
    """Files an archive may hold beside its reports; none of them may change the leaderboard."""
    pool: dict[str, bytes] = {
        "notes.json": b"[1, 2, 3]",
        "config.json": json.dumps({"name": "x", "schema": 1}).encode(),
        "scalar.json": b"42",
        "text.json": b'"just text"',
        "null.json": b"null",
        "empty-object.json": b"{}",
        "README.md": b"# not JSON at all {",
        "data.JSON": b"{not json",  # *.json only, case-sensitive
        "old.json.bak": b"{not json",
        "leaderboard.json": b"{ junk",
        "sub/leaderboard.json": b"\xff\xfe junk",
        "aux-nan.json": b'{"value": NaN, "big": 1e400}',
        "aux-surrogate.json": b'{"note": "\\ud800"}',
        "aux-deep.json": ("[" * 50 + "]" * 50).encode(),
        "aux/huge.json": ("[" + "9" * 4000 + "]").encode(),
        "aux/nested/list-of-reports.json": json.dumps([{"suite": "x", "model_name": "y"}]).encode(),
        "aux/ünï cødé.json": json.dumps({"title": "ünï"}, ensure_ascii=False).encode(),
    }
    names = sorted(pool)
    return {name: pool[name] for name in rng.sample(names, rng.randrange(len(names) + 1))}


def manifest_bytes(rng: random.Random, rows: list[Any]) -> bytes:
    """Rows one a line in a random style: blank lines, CRLF, padding, rows without repo_id."""
    lines = [json_text(shuffled(rng, row) if isinstance(row, dict) else row, Style(indent=None, ascii_only=rng.random() < 0.3))
             for row in rows]
    if rng.random() < 0.5:
        lines.insert(rng.randrange(len(lines) + 1), json.dumps({"family": "no repo id"}))
    if rng.random() < 0.5:
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(["", "   ", "\t"]))
    ending = rng.choice(["\n", "\r\n", "\n"])
    return (ending.join(padded(rng, line) if line.strip() and rng.random() < 0.2 else line for line in lines) + ending).encode()


def add_files(files: dict[str, bytes], extra: dict[str, bytes]) -> None:
    """Add ``extra`` to ``files``, except where a file or a folder of ``files`` already is."""
    for name, data in extra.items():
        if name not in files and not any(path.startswith(name + "/") or name.startswith(path + "/") for path in files):
            files[name] = data


def valid_archive(seed: int, count: int) -> Case:
    rng = random.Random(seed)
    release_fallback = rng.choice([None, "v3.1.0", " v9 "])
    maker = ArchiveMaker(rng, release_fallback)
    files: dict[str, bytes] = {}
    for index in range(count):
        name = report_name(rng, index)
        while name in files:
            name = report_name(rng, index + 1000 * len(files))
        files[name] = json_text(shuffled(rng, maker.report(index)), random_style(rng)).encode()
    add_files(files, auxiliary_files(rng))
    manifest = None
    if maker.manifest_rows or rng.random() < 0.5:
        manifest = manifest_bytes(rng, list(maker.manifest_rows.values()))
    return Case(f"valid-{seed}-{count}rows", files, manifest=manifest, release_tag=release_fallback, expect="publish")


# --- Hostile cases: one rule broken at a time ----------------------------------------------

@dataclass
class Base:
    """A small valid archive whose report ``target`` is about to be broken."""

    rng: random.Random
    reports: dict[str, Any]  # path -> payload
    manifest_rows: list[Any]
    release_tag: str | None
    target: str

    @property
    def payload(self) -> dict[str, Any]:
        return self.reports[self.target]

    @property
    def metadata(self) -> dict[str, Any]:
        return self.payload["metadata"]

    def case(self, name: str, expect: str | None = "refuse", culprit: str | None = None, **changes: Any) -> Case:
        files = {path: json_text(payload, random_style(self.rng)).encode() for path, payload in self.reports.items()}
        extra = changes.pop("files", {})
        if changes.pop("beside", False):
            add_files(files, extra)
        else:
            files.update(extra)
        manifest = changes.pop("manifest", None)
        if manifest is None:
            manifest = manifest_bytes(self.rng, self.manifest_rows)
        elif manifest is NO_FILE:
            manifest = None
        return Case(name, files, manifest=manifest, release_tag=changes.pop("release_tag", self.release_tag),
                    expect=expect, culprit=self.target if culprit is None and expect == "refuse" else culprit, **changes)


def base_archive(seed: int) -> Base:
    """One to four valid reports, every field stated in the report itself, and the target among them."""
    rng = random.Random(seed)
    reports: dict[str, Any] = {}
    count = rng.randrange(1, 5)
    for index in range(count):
        reports[report_name(rng, index) if index else rng.choice(["target.report.json", "deep/er/tärget #1.json",
                                                                  "odd 100% 'q'.report.json"])] = {
            "suite": rng.choice(SUITES), "model_name": f"OpenMed/model-{index}", "device": rng.choice(DEVICES),
            "fixture_count": 3, "generated_at": "2026-06-14T00:00:00Z",
            "metadata": {"synthetic": True, "model_family": rng.choice(FAMILIES), "release_tag": rng.choice(RELEASES),
                         "reproducibility_hash": sha(rng)},
            "metrics": {"exact_span_f1": {"recall": rng.choice(RECALLS), "f1": rng.choice(F1S)},
                        "leakage": {"overall": rng.choice(LEAKAGES)}},
        }
    target = next(iter(reports))
    return Base(rng, reports, [{"repo_id": "OpenMed/unused", "family": "X", "reproducibility_hash": sha(rng)}],
                rng.choice([None, "v3.1.0"]), target)


def without_metric(metrics: dict[str, Any], name: str) -> dict[str, Any]:
    kept = {key: value for key, value in metrics.items() if key not in ("leakage", "leakage_rate", "critical_leakage_rate")} \
        if name == "leakage" else {"leakage": metrics["leakage"]}
    if name == "recall":
        kept["exact_span_f1"] = {"f1": 0.5}
    if name == "f1":
        kept["exact_span_f1"] = {"recall": 0.5}
    return kept


BAD_METRICS = {
    "nan": Raw("NaN"), "infinity": Raw("Infinity"), "minus-infinity": Raw("-Infinity"), "1e400": Raw("1e400"),
    "minus-1e400": Raw("-1e400"), "huge-int": 10**400, "5000-digits": Raw("9" * 5000), "above-one": 1.0000001,
    "negative": -0.0001, "two": 2, "true": True, "false": False, "string": "0.1", "list": [0.1], "object": {"v": 0.1},
    "empty-string": "", "blank": "   ",
}
BAD_HASHES = {
    "upper-case": "sha256:" + "AB" * 32, "63-digits": "sha256:" + "a" * 63, "65-digits": "sha256:" + "a" * 65,
    "not-hex": "sha256:" + "g" * 64, "no-prefix": "ab" * 32, "padded": " sha256:" + "ab" * 32,
    "trailing-newline": "sha256:" + "ab" * 32 + "\n", "prefix-case": "SHA256:" + "ab" * 32, "number": 5,
    "list": ["sha256:" + "ab" * 32], "md5": "md5:" + "a" * 32, "unicode-digits": "sha256:" + "٣" * 64,
}
BAD_TEXT = {"null": None, "empty": "", "blank": " \t\n", "number": 7, "list": ["x"], "object": {"x": 1},
            "true": True, "nbsp-only": "\u00a0\u3000"}


def hostile_cases(seed: int) -> Iterator[Case]:
    """Every rule of the contract broken in turn, each in an archive that is otherwise valid."""
    def fresh() -> Base:
        nonlocal seed
        seed += 1
        return base_archive(seed)

    # metadata.synthetic must be exactly true.
    for label, value in {"false": False, "string-true": "true", "one": 1, "float-one": 1.0, "null": None,
                         "list": [True], "string-yes": "yes"}.items():
        base = fresh()
        base.metadata["synthetic"] = value
        yield base.case(f"synthetic-{label}")
    base = fresh()
    del base.metadata["synthetic"]
    yield base.case("synthetic-missing")
    for label, value in {"missing": ..., "null": None, "list": [], "string": "synthetic", "true": True}.items():
        base = fresh()
        if value is ...:
            del base.payload["metadata"]
        else:
            base.payload["metadata"] = value
        yield base.case(f"metadata-{label}")

    # fixture_count: a positive integer, not a boolean.
    for label, value in {"true": True, "false": False, "float": 1.0, "float-3": Raw("3.0"), "exponent": Raw("3e0"),
                         "zero": 0, "negative": -1, "string": "3", "null": None, "missing": ...}.items():
        base = fresh()
        if value is ...:
            del base.payload["fixture_count"]
        else:
            base.payload["fixture_count"] = value
        yield base.case(f"fixture-count-{label}")

    # suite, model_name, device: non-empty text.
    for key in ("suite", "model_name", "device"):
        for label, value in {**BAD_TEXT, "missing": ...}.items():
            base = fresh()
            if value is ...:
                del base.payload[key]
            else:
                base.payload[key] = value
            yield base.case(f"{key}-{label}")

    # metrics: an object, each value found, finite, in [0, 1], not a boolean.
    for label, value in {"null": None, "list": [0.1], "string": "x", "missing": ...}.items():
        base = fresh()
        if value is ...:
            del base.payload["metrics"]
        else:
            base.payload["metrics"] = value
        yield base.case(f"metrics-{label}")
    for metric in METRIC_PATHS:
        base = fresh()
        base.payload["metrics"] = without_metric(base.payload["metrics"], metric)
        yield base.case(f"{metric}-missing")
        base = fresh()
        metrics = without_metric(base.payload["metrics"], metric)
        for path in METRIC_PATHS[metric]:
            set_path(metrics, path, None)
        base.payload["metrics"] = metrics
        yield base.case(f"{metric}-all-null")
        for label, value in BAD_METRICS.items():
            base = fresh()
            metrics = without_metric(base.payload["metrics"], metric)
            path = base.rng.choice(METRIC_PATHS[metric])
            set_path(metrics, path, value)
            base.payload["metrics"] = metrics
            yield base.case(f"{metric}-{label}-at-{path}")
        # The first key present decides, even when a later one would be valid.
        base = fresh()
        metrics = without_metric(base.payload["metrics"], metric)
        first, last = METRIC_PATHS[metric][0], METRIC_PATHS[metric][-1]
        set_path(metrics, first, "0.5")
        set_path(metrics, last, 0.5)
        base.payload["metrics"] = metrics
        yield base.case(f"{metric}-first-key-decides")

    # generated_at: a string or null.
    for label, value in {"number": 20260614, "object": {}, "true": True, "list": ["2026-06-14"]}.items():
        base = fresh()
        base.metadata["run_date"] = "2026-06-14"
        base.payload["generated_at"] = value
        yield base.case(f"generated-at-{label}")

    # model family: from the report, else the manifest row of model_name.
    for label, metadata in {"none": {}, "empty": {"model_family": ""}, "blank": {"model_family": "   "},
                            "blank-hides-family": {"model_family": " ", "family": "PII"},
                            "number": {"model_family": 7}, "list": {"family": ["PII"]},
                            "empty-both": {"model_family": "", "family": ""}}.items():
        base = fresh()
        base.metadata.pop("model_family")
        base.metadata.update(metadata)
        yield base.case(f"family-{label}")
    for label, family in {"number": 7, "null": None, "blank": "  ", "list": ["PII"], "missing": ...,
                          "surrogate": "\ud800"}.items():
        base = fresh()
        base.metadata.pop("model_family")
        row = {"repo_id": base.payload["model_name"], "reproducibility_hash": sha(base.rng)}
        if family is not ...:
            row["family"] = family
        base.manifest_rows.append(row)
        yield base.case(f"manifest-family-{label}")
    base = fresh()
    base.metadata.pop("model_family")
    base.manifest_rows.append({"repo_id": " " + base.payload["model_name"], "family": "PII"})
    yield base.case("manifest-repo-id-padded")
    base = fresh()
    base.metadata.pop("model_family")
    base.manifest_rows.append({"repo_id": base.payload["model_name"].upper(), "family": "PII"})
    yield base.case("manifest-repo-id-other-case")

    # release tag: from the report, else --release-tag.
    for label, metadata in {"none": {}, "blank": {"release_tag": "  "}, "number": {"release_tag": 3},
                            "list": {"release": ["v1"]}, "blank-hides-release": {"release_tag": "\t", "release": "v1"}}.items():
        base = fresh()
        base.metadata.pop("release_tag")
        base.metadata.update(metadata)
        yield base.case(f"release-{label}", release_tag=None)
    for label, fallback in {"blank": "   ", "surrogate": "\udcff"}.items():
        base = fresh()
        base.metadata.pop("release_tag")
        yield base.case(f"release-fallback-{label}", release_tag=fallback)

    # run date: an ISO 8601 date or date-time.
    for label, value in {"month-13": "2026-13-01", "february-30": "2026-02-30", "words": "yesterday",
                         "hour-25": "2026-06-14T25:00", "number": 20260614, "slashes": "14/06/2026",
                         "blank": "   ", "lower-z": "2026-06-14T10:00:00z", "list": ["2026-06-14"]}.items():
        base = fresh()
        base.metadata["run_date"] = value
        yield base.case(f"run-date-{label}")
    base = fresh()
    del base.payload["generated_at"]
    yield base.case("run-date-none")
    base = fresh()
    base.payload["generated_at"] = ""
    yield base.case("run-date-empty-generated-at")
    base = fresh()
    base.payload["generated_at"] = None
    base.metadata["run_date"] = ""
    yield base.case("run-date-empty-and-null")

    # reproducibility hash: sha256: and 64 lower-case hex digits, from the report or the manifest.
    for label, value in BAD_HASHES.items():
        base = fresh()
        base.metadata["reproducibility_hash"] = value
        yield base.case(f"hash-{label}")
    for label, value in {"upper-case": "sha256:" + "AB" * 32, "number": 1, "missing": ...}.items():
        base = fresh()
        del base.metadata["reproducibility_hash"]
        row = {"repo_id": base.payload["model_name"], "family": "PII"}
        if value is not ...:
            row["reproducibility_hash"] = value
        base.manifest_rows.append(row)
        yield base.case(f"manifest-hash-{label}")
    base = fresh()
    base.metadata["reproducibility_hash"] = ""
    base.metadata["repro_hash"] = "sha256:" + "AB" * 32
    yield base.case("hash-empty-then-bad-repro-hash")

    # Text that UTF-8 cannot carry: lone surrogate escapes.
    for label, change in {"suite": ("suite", "golden\ud800"), "model-name": ("model_name", "\udfffOpenMed/x"),
                          "device": ("device", "cpu\udc80")}.items():
        base = fresh()
        base.payload[change[0]] = change[1]
        yield base.case(f"surrogate-in-{label}")
    base = fresh()
    base.metadata["notes"] = "unpaired \ud800 escape"
    yield base.case("surrogate-in-unpublished-text")
    base = fresh()
    base.metadata["family"] = base.metadata.pop("model_family") + "\ud834"
    yield base.case("surrogate-in-family")
    base = fresh()
    base.payload["metrics"]["\udc00"] = 1
    yield base.case("surrogate-in-key")

    # Files that are not UTF-8 JSON.
    def spliced(payload: dict[str, Any], text: bytes) -> bytes:
        """The report with ``text`` added as its last member."""
        return json_text(payload, Style()).encode().rstrip()[:-1] + b", " + text + b"}"

    broken_files: dict[str, Callable[[dict[str, Any]], bytes]] = {
        "bom": lambda payload: b"\xef\xbb\xbf" + json_text(payload).encode(),
        "utf16": lambda payload: json_text(payload).encode("utf-16"),
        "invalid-utf8": lambda payload: spliced(payload, b'"note": "caf\xe9"'),
        "encoded-surrogate": lambda payload: spliced(payload, b'"note": "\xed\xa0\x80"'),
        "truncated": lambda payload: json_text(payload).encode()[:40],
        "empty": lambda payload: b"",
        "blank": lambda payload: b"  \n",
        "trailing-comma": lambda payload: json_text(payload).encode().rstrip()[:-1] + b", }",
        "single-quotes": lambda payload: json_text(payload).encode().replace(b'"', b"'"),
        "comment": lambda payload: b"// report\n" + json_text(payload).encode(),
        "two-documents": lambda payload: json_text(payload).encode() * 2,
        "raw-control-character": lambda payload: spliced(payload, b'"note": "a\x01b"'),
        "raw-newline-in-text": lambda payload: spliced(payload, b'"note": "a\nb"'),
        "deep-nesting": lambda payload: spliced(payload, b'"deep": ' + b"[" * 100000 + b"]" * 100000),
        "5000-digit-number": lambda payload: spliced(payload, b'"big": ' + b"1" * 5000),
    }
    for label, broken in broken_files.items():
        base = fresh()
        yield base.case(f"file-{label}", files={base.target: broken(base.payload)})

    # Duplicate keys: the last one counts.
    base = fresh()
    metadata = base.metadata
    yield base.case("duplicate-key-last-not-synthetic", files={base.target: json_text(
        {**base.payload, "metadata": Pairs((*metadata.items(), ("synthetic", False)))}).encode()})
    base = fresh()
    yield base.case("duplicate-key-last-bad-suite", files={base.target: json_text(
        Pairs((*base.payload.items(), ("suite", "")))).encode()})

    # Report candidates that are not objects, or lack every report key.
    for label, data in {"array": b"[]", "scalar": b"1", "null": b"null", "string": b'"report"', "no-keys": b'{"name": "x"}',
                        "empty-object": b"{}", "metadata-only": b'{"metadata": {"synthetic": true}}'}.items():
        base = fresh()
        name = "extra/" + label + ".report.json"
        yield base.case(f"report-file-{label}", files={name: data}, culprit=name)
    for label, data in {"suite-only": b'{"suite": "golden"}', "metrics-only": b'{"metrics": {}}',
                        "fixture-count-only": b'{"fixture_count": 1}', "model-name-only": b'{"model_name": "x"}'}.items():
        base = fresh()
        name = "extra/" + label + ".json"
        yield base.case(f"candidate-{label}", files={name: data}, culprit=name)

    # Auxiliary files that are still not JSON.
    for label, data in {"invalid": b"{oops", "bom": b"\xef\xbb\xbf[]", "deep-nesting": b"[" * 100000 + b"]" * 100000,
                        "5000-digits": b"[" + b"7" * 5000 + b"]", "invalid-utf8": b'["\xff"]', "empty": b"",
                        "nan-word": b"[nan]"}.items():
        base = fresh()
        name = "notes/aux " + label + ".json"
        yield base.case(f"auxiliary-{label}", files={name: data}, culprit=name)

    # Folders named like JSON files.
    for name in ("x.json", "nested/folder.report.json"):
        base = fresh()
        yield base.case(f"folder-named-{name.replace('/', '-')}", folders=(name,), culprit=name)
    base = fresh()
    yield base.case("folder-named-json-holding-a-report", culprit="holder.json",
                    files={"holder.json/inside.report.json": json_text(base.payload).encode()})

    # A candidate file whose name is not UTF-8.
    base = fresh()
    name = "caf\udce9.report.json"
    yield base.case("file-name-not-utf8", files={name: json_text(base.payload).encode()}, culprit=name)
    base = fresh()
    name = "\udcff\udcfe/ok.report.json"
    yield base.case("folder-name-not-utf8", files={name: json_text(base.payload).encode()}, culprit=name)

    # Manifest lines that are not JSON objects.
    for label, line in {"not-json": "{oops", "array": "[1, 2]", "null": "null", "number": "5", "string": '"OpenMed/x"',
                        "true": "true", "deep": "[" * 100000 + "]" * 100000, "nan-word": "nan",
                        "two-objects": '{"repo_id": "a"} {"repo_id": "b"}', "bom": "\ufeff{}"}.items():
        base = fresh()
        lines = [json.dumps(row) for row in base.manifest_rows]
        position = base.rng.randrange(len(lines) + 1)
        lines.insert(position, line)
        manifest = ("\n".join(lines) + "\n").encode()
        yield base.case(f"manifest-line-{label}", manifest=manifest, culprit=f"{MANIFEST} line {position + 1}")

    base = fresh()
    yield base.case("manifest-not-utf8", manifest=b'{"repo_id": "caf\xe9"}\n', culprit=MANIFEST)
    base = fresh()
    yield base.case("manifest-utf16", manifest="\n".join(json.dumps(row) for row in base.manifest_rows).encode("utf-16"),
                    culprit=MANIFEST)

    # Archives with nothing to publish.
    yield Case("empty-archive", expect="refuse", culprit=".")
    yield Case("only-empty-folders", folders=("a/b", "c"), expect="refuse", culprit=".")
    yield Case("only-leaderboard-json", files={"leaderboard.json": b"{ junk", "a/leaderboard.json": b"[]"},
               expect="refuse", culprit=".")
    yield Case("only-auxiliary", files={"list.json": b"[{\"suite\": \"x\"}]", "n.json": b"3", "s.json": b'"x"',
                                        "o.json": b'{"title": "not a report"}', "null.json": b"null", "readme.txt": b"{"},
               expect="refuse", culprit=".")
    report = json_text(base_archive(seed).payload).encode()
    yield Case("only-links", outside={"r.report.json": report, "dir/r.report.json": report},
               links=(("link.report.json", f"{OUTSIDE}/r.report.json"), ("linked-dir", f"{OUTSIDE}/dir")),
               expect="refuse", culprit=".")
    yield Case("only-reports-in-linked-folder", outside={"dir/a.report.json": report}, files={"aux.json": b"[]"},
               links=(("dir", f"{OUTSIDE}/dir"),), expect="refuse", culprit=".")


# --- Edges where only agreement is asked -----------------------------------------------------

def probe_cases(seed: int) -> Iterator[Case]:
    """Inputs at the edges of the rules; the project must do exactly what the reference does."""
    def fresh() -> Base:
        nonlocal seed
        seed += 1
        return base_archive(seed)

    for index, value in enumerate(DATE_PROBES):
        for where in ("run_date", "generated_at"):
            base = fresh()
            if where == "run_date":
                base.metadata["run_date"] = value
            else:
                base.payload["generated_at"] = value
            yield base.case(f"date-probe-{index:02d}-{where}", expect=None, culprit=base.target)

    # Manifest fallbacks keyed by repo_id as text.
    for label, (repo_id, model_name) in {"int": (5, "5"), "true": (True, "True"), "float": (1.5, "1.5"),
                                         "null": (None, "None"), "list": ([1], "[1]")}.items():
        base = fresh()
        base.payload["model_name"] = model_name
        base.metadata.pop("model_family")
        del base.metadata["reproducibility_hash"]
        base.manifest_rows.append({"repo_id": repo_id, "family": "From manifest", "reproducibility_hash": sha(base.rng)})
        yield base.case(f"manifest-repo-id-{label}", expect=None, culprit=base.target)
    base = fresh()
    base.metadata.pop("model_family")
    model = base.payload["model_name"]
    base.manifest_rows += [{"repo_id": model, "family": "Earlier"}, {"repo_id": model, "family": "Later wins"}]
    yield base.case("manifest-later-line-wins", expect="publish")
    base = fresh()
    base.metadata.pop("model_family")
    model = base.payload["model_name"]
    base.manifest_rows += [{"repo_id": model, "family": "Earlier"}, {"repo_id": model, "note": "no family"}]
    yield base.case("manifest-later-line-without-family", expect=None, culprit=base.target)
    base = fresh()
    base.metadata.pop("model_family")
    base.manifest_rows.append({"repo_id": base.payload["model_name"], "family": "  Padded family\t"})
    yield base.case("manifest-family-padded", expect="publish")
    base = fresh()
    base.manifest_rows.append({"repo_id": base.payload["model_name"], "family": "Ignored", "reproducibility_hash": "bad"})
    yield base.case("manifest-ignored-when-report-says", expect="publish")
    base = fresh()
    base.manifest_rows.append({"repo_id": "unused", "family": "\ud800"})
    yield base.case("manifest-unused-surrogate", expect="publish")
    base = fresh()
    yield base.case("manifest-missing-file", manifest=NO_FILE, expect="publish")
    base = fresh()
    yield base.case("manifest-empty-file", manifest=b"\n\n  \n", expect="publish")
    base = fresh()
    yield base.case("manifest-cr-line-endings", manifest=("\r".join(json.dumps(r) for r in base.manifest_rows) + "\r").encode(),
                    expect="publish")
    base = fresh()
    base.metadata.pop("model_family")
    model = base.payload["model_name"]
    line = json.dumps({"repo_id": model, "family": "Sep\u2028arated"}, ensure_ascii=False)
    yield base.case("manifest-line-separator-in-text", manifest=(line + "\n").encode(), expect="publish")

    # Text the contract keeps: surrogate pairs, NaN and huge numbers where no metric is read.
    base = fresh()
    base.payload["suite"] = "emoji \ud83d\ude00"
    yield base.case("escaped-surrogate-pair", expect="publish",
                    files={base.target: json_text(base.payload, Style(ascii_only=True)).encode()})
    base = fresh()
    base.metadata["extra"] = {"nan": Raw("NaN"), "inf": Raw("-Infinity"), "big": 10**400, "tiny": Raw("1e-400"),
                              "negative-zero": Raw("-0.0"), "exp": Raw("1E5")}
    base.payload["fixture_count"] = 10**100
    yield base.case("unpublished-numbers-copied", expect="publish")
    base = fresh()
    base.metadata["extra"] = Raw("[" * 200 + "]" * 200)
    yield base.case("moderate-nesting", expect="publish")
    base = fresh()
    base.payload["metrics"] = {"leakage": {"overall": Raw("-0.0")}, "exact_span_f1": {"recall": Raw("1E0"), "f1": Raw("0e5")}}
    yield base.case("metric-number-spellings", expect="publish")
    base = fresh()
    base.payload["metrics"] = {"leakage": {"overall": Raw("0.99999999999999999999")}, "recall": Raw("1.0000000000000000001"),
                               "f1": Raw("5e-324")}
    yield base.case("metric-rounding-at-edges", expect=None, culprit=base.target)
    base = fresh()
    yield base.case("duplicate-key-last-valid", expect="publish", files={base.target: json_text(
        Pairs((("metadata", {"synthetic": False}), *base.payload.items()))).encode()})
    base = fresh()
    yield base.case("bom-free-crlf-file", expect="publish",
                    files={base.target: json_text(base.payload).replace("\n", "\r\n").encode()})
    base = fresh()
    base.payload["suite"] = "\u00a0\u2003golden\u3000"
    base.payload["device"] = "\x1ccpu\x1f"
    yield base.case("unicode-white-space-stripped", expect="publish")
    base = fresh()
    base.payload["suite"] = "zero\u200bwidth"
    base.payload["device"] = "\u200b"
    yield base.case("zero-width-space-is-text", expect="publish")

    # Links are never followed, broken or not; leaderboard.json is skipped wherever it is.
    base = fresh()
    report = json_text(base.payload).encode()
    yield base.case("links-ignored", expect="publish",
                    outside={"r.report.json": report, "bad.json": b"{oops", "dir/r.report.json": report},
                    links=(("link.report.json", f"{OUTSIDE}/r.report.json"), ("bad-link.json", f"{OUTSIDE}/bad.json"),
                           ("broken.report.json", f"{OUTSIDE}/missing.json"), ("linked-dir", f"{OUTSIDE}/dir"),
                           ("leaderboard.json", f"{OUTSIDE}/bad.json"), ("inside.json", f"{REPORTS}/{base.target}"),
                           ("loop", REPORTS)))
    base = fresh()
    yield base.case("leaderboard-json-skipped", expect="publish",
                    files={"leaderboard.json": b"\xff junk", "deep/leaderboard.json": b'{"suite": ""}'})
    base = fresh()
    yield base.case("folder-named-leaderboard-json", expect="publish",
                    files={"leaderboard.json/inner.report.json": json_text({**base.payload, "suite": "inner"}).encode()})
    base = fresh()
    yield base.case("report-named-dot-json", expect="publish", files={".json": json_text({**base.payload, "suite": "dot"}).encode()})
    base = fresh()
    yield base.case("auxiliary-name-not-utf8", expect="publish", files={"caf\udce9/notes \udcff.json": b"[1]"})
    base = fresh()
    yield base.case("auxiliary-everywhere", expect="publish", files=auxiliary_files(random.Random(seed)), beside=True)


ODD_VALUES = [None, "", " ", "\t\n", 0, 1, -1, 2, True, False, 0.5, Raw("-0.0"), Raw("NaN"), Raw("1e400"), 10**400, [],
              {}, [None], {"overall": 0.5}, "0.5", "2026-06-14", " 2026-06-14T10:00:00Z ", "20260614", "2026-W24-1",
              "sha256:" + "ab" * 32, "SHA256:" + "ab" * 32, "golden", "GOLDEN ", "ünï", "\ud800", "\ud83d\ude00",
              "OpenMed/model-a", "v1.0.0"]
FIELDS = ["suite", "model_name", "device", "fixture_count", "generated_at", "metadata", "metrics",
          "metadata.synthetic", "metadata.model_family", "metadata.family", "metadata.release_tag", "metadata.release",
          "metadata.run_date", "metadata.reproducibility_hash", "metadata.repro_hash", "metrics.leakage",
          "metrics.leakage.overall", "metrics.leakage_rate", "metrics.critical_leakage_rate", "metrics.exact_span_f1",
          "metrics.exact_span_f1.recall", "metrics.span.recall", "metrics.micro.recall", "metrics.recall",
          "metrics.exact_span_f1.f1", "metrics.micro_f1", "metrics.f1"]


def mutated_archive(seed: int) -> Case:
    """A valid archive with one to three fields of its reports set to odd values or removed."""
    rng = random.Random(seed)
    release_fallback = rng.choice([None, "v3.1.0", " "])
    maker = ArchiveMaker(rng, release_fallback)
    reports = {report_name(rng, index): maker.report(index) for index in range(rng.randrange(1, 6))}
    for _ in range(rng.randrange(1, 4)):
        payload = reports[rng.choice(sorted(reports))]
        *parents, last = rng.choice(FIELDS).split(".")
        node: Any = payload
        for part in parents:
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, dict):
            if rng.random() < 0.2:
                node.pop(last, None)
            else:
                node[last] = rng.choice(ODD_VALUES)
    files = {name: json_text(payload, random_style(rng)).encode() for name, payload in reports.items()}
    rows = list(maker.manifest_rows.values())
    if rows and rng.random() < 0.5:
        row = rng.choice(rows)
        row[rng.choice(["family", "reproducibility_hash", "repo_id"])] = rng.choice(ODD_VALUES)
    return Case(f"mutated-{seed}", files, manifest=manifest_bytes(rng, rows), release_tag=release_fallback)


def all_cases() -> list[Case]:
    """Every case of the differential run, in a fixed order; names are unique."""
    cases: list[Case] = []
    counts = [1, 2, 3, 5, 8, 13, 21, 40, 60]
    for seed in range(120):
        cases.append(valid_archive(1000 + seed, counts[seed % len(counts)]))
    cases += [mutated_archive(3000 + seed) for seed in range(150)]
    cases += hostile_cases(5000)
    cases += probe_cases(9000)
    names = [case.name for case in cases]
    duplicates = {name for name in names if names.count(name) > 1}
    assert not duplicates, duplicates
    return cases
