"""A synthetic archive of BenchmarkReports for the benchmark and the tests: same arguments, same bytes.

usage: python -m benchmarks.make_archive OUT N [--suites K] [--families F] [--seed S] [--releases R]

Writes ``OUT/reports/<release>/<suite>/<family>/<model number>.report.json`` and ``OUT/models.jsonl``.
The archive holds N models; each release (v3.0.0, v3.1.0, ... for R releases) has one report of
every model, with metrics that drift a little from one release to the next, so that a release's
history can be followed model by model. Every report is marked synthetic and carries its release
tag; half of the models rely on the manifest for their family and reproducibility hash (the others
name them in their metadata, under both spellings the contract accepts). The first release is the
same whatever R is: more releases only add folders.

Nothing is derived from the clock or the machine; the random numbers come from ``--seed``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
from pathlib import Path

FAMILIES = ("PII", "NER", "Clinical", "Oncology", "Pharma", "Genomics", "Anatomy", "Radiology")
DEVICES = ("cpu", "cuda", "mlx-fp", "mlx-8bit", "onnx", "coreml")
# How far a metric moves from a model's first release in any later one.
DRIFT = 0.02
# One compact line a report, keys sorted: json's C encoder writes it (indenting takes its pure-Python
# one), and one encoder serves every report (json.dumps with arguments makes a new one per call).
ENCODE = json.JSONEncoder(sort_keys=True).encode


def release_tags(releases: int) -> list[str]:
    """The release tags of an archive of ``releases`` releases: v3.0.0, v3.1.0, v3.2.0, ..."""
    return [f"v3.{minor}.0" for minor in range(releases)]


def family_names(families: int) -> list[str]:
    named = list(FAMILIES[:families])
    return named + [f"Family-{number:02d}" for number in range(len(named), families)]


def _unit(value: float) -> float:
    """``value`` kept within [0, 1] and rounded to four decimals, as archived metrics are."""
    return round(min(1.0, max(0.0, value)), 4)


def make_archive(out: Path, n: int, suites: int = 6, families: int = 5, seed: int = 7, releases: int = 1) -> int:
    """Write the archive of ``n`` models in ``releases`` releases below ``out``; returns how many
    reports it wrote (``n * releases``). ``out/reports`` must not hold anything yet."""
    for name, value in (("N", n), ("--suites", suites), ("--families", families), ("--releases", releases)):
        if value < 1:
            raise ValueError(f"{name} must be at least 1, not {value}")
    reports = Path(out) / "reports"
    if reports.is_dir() and any(reports.iterdir()):
        raise ValueError(f"{reports} already holds files; choose a new folder")
    rng = random.Random(seed)
    suite_names = [f"suite-{number + 1:02d}" for number in range(suites)]
    family_list = family_names(families)

    # Each model and its first release's metrics: drawn once, in model order.
    models = []
    for i in range(n):
        family = family_list[(i // suites) % families]
        model = f"OpenMed/synth-{family.lower()}-{i:06d}"
        digest = "sha256:" + hashlib.sha256(f"{model} {seed}".encode()).hexdigest()
        leakage = 0.0 if i % 4 == 0 else 0.0001 + rng.random() * 0.15
        models.append((suite_names[i % suites], family, model, digest,
                       leakage, 0.55 + rng.random() * 0.45, 0.6 + rng.random() * 0.4))

    manifest = [ENCODE({"family": family, "repo_id": model, "reproducibility_hash": digest})
                for i, (_, family, model, digest, *_) in enumerate(models) if i % 2 == 0]
    reports.mkdir(parents=True, exist_ok=True)
    (Path(out) / "models.jsonl").write_text("".join(line + "\n" for line in manifest), encoding="utf-8")

    for minor, tag in enumerate(release_tags(releases)):
        folders = set()
        for i, (suite, family, model, digest, leakage, recall, precision) in enumerate(models):
            if minor:  # later releases drift from the first; a model leaks something in all of them or in none
                leakage = leakage and max(0.0001, leakage + rng.uniform(-DRIFT, DRIFT) / 2)
                recall += rng.uniform(-DRIFT, DRIFT)
                precision += rng.uniform(-DRIFT, DRIFT)
            leakage, recall, precision = _unit(leakage), _unit(recall), _unit(precision)
            metadata: dict = {"synthetic": True, "release_tag": tag}
            if i % 4 == 1:
                metadata["model_family"], metadata["reproducibility_hash"] = family, digest
            elif i % 4 == 3:
                metadata["family"], metadata["repro_hash"] = family, digest
            payload = {
                "device": DEVICES[i % len(DEVICES)],
                "fixture_count": 10 + i % 90,
                "generated_at": f"2026-{1 + (minor * 2 + i % 2) % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i * 7 % 60:02d}:00Z",
                "metadata": metadata,
                "metrics": {
                    "exact_span_f1": {
                        "f1": round(2 * precision * recall / (precision + recall), 4) if precision + recall else 0.0,
                        "precision": precision,
                        "recall": recall,
                    },
                    "leakage": {"leaked_chars": round(leakage * 2000), "overall": leakage, "total_chars": 2000},
                },
                "model_name": model,
                "suite": suite,
            }
            folder = f"{reports}/{tag}/{suite}/{family}"
            if folder not in folders:
                os.makedirs(folder, exist_ok=True)
                folders.add(folder)
            # Plain descriptors, as creating the files is most of the work; O_EXCL: nothing is overwritten.
            handle = os.open(f"{folder}/{i:06d}.report.json", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            try:
                os.write(handle, ENCODE(payload).encode() + b"\n")
            finally:
                os.close(handle)
    return n * releases


def _say(message: str) -> None:
    """One line on stderr whatever a path holds: control characters are printed escaped."""
    print("make_archive: " + "".join(c if c.isprintable() else repr(c)[1:-1] for c in message), file=sys.stderr)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        """A usage mistake is one line and exit 2, like every other fault of the project's tools."""
        _say(message)
        sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="python -m benchmarks.make_archive", description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to write reports/ and models.jsonl into")
    parser.add_argument("n", type=int, help="how many models (reports per release)")
    parser.add_argument("--suites", type=int, default=6, help="how many suites (default: 6)")
    parser.add_argument("--families", type=int, default=5, help="how many model families (default: 5)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the metrics (default: 7)")
    parser.add_argument("--releases", type=int, default=1, help="how many releases, v3.0.0 onwards (default: 1)")
    args = parser.parse_args(argv)
    try:
        written = make_archive(args.out, args.n, args.suites, args.families, args.seed, args.releases)
    except ValueError as error:
        _say(str(error))
        return 2
    except OSError as error:
        _say(f"cannot write {error.filename or args.out}: {error.strerror or error}")
        return 2
    _say(f"{written} report{'s' if written != 1 else ''} in {args.out / 'reports'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
