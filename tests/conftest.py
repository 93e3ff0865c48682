"""Shared test helpers: the project's paths, report builders and a way to run the CLI."""

from __future__ import annotations

import copy
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

SETTINGS = str(ROOT / "pelicanconf.py")
# The upstream OpenMed archive (its docs/benchmarks/, models.jsonl and the leaderboard.json the
# reference renderer writes for it with --release-tag v3.1.0), kept as test data.
UPSTREAM = ROOT / "tests" / "data" / "openmed-archive"

HASH = "sha256:" + "ab" * 32

BASE_REPORT: dict[str, Any] = {
    "suite": "golden",
    "model_name": "OpenMed/model-a",
    "device": "cpu",
    "fixture_count": 3,
    "generated_at": "2026-06-14T00:00:00Z",
    "metadata": {"synthetic": True, "model_family": "PII", "release_tag": "v1.0.0", "reproducibility_hash": HASH},
    "metrics": {"exact_span_f1": {"recall": 0.9, "f1": 0.8}, "leakage": {"overall": 0.1}},
}


def pytest_configure(config: pytest.Config) -> None:
    """Several tests press Ctrl-C (SIGINT) on a build or a server they started, as a terminal would.
    A shell without job control (a background job, ``nohup``) starts commands with SIGINT ignored,
    and every child inherits that, so that no SIGINT could reach them: the test run then takes
    SIGINT back, and the children it starts get it as they would from a terminal."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def report(**changes: Any) -> dict[str, Any]:
    """A valid report with top-level ``changes``; ``metadata``/``metrics`` given are merged in."""
    payload = copy.deepcopy(BASE_REPORT)
    for key, value in changes.items():
        if key in ("metadata", "metrics") and isinstance(value, dict) and isinstance(payload.get(key), dict):
            payload[key].update(value)
        else:
            payload[key] = value
    return payload


def write_archive(root: Path, files: dict[str, Any]) -> Path:
    """Write ``files`` (relative path -> JSON value, or str/bytes written as is) below ``root``."""
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_text(json.dumps(content, indent=2), encoding="utf-8")
    return root


def run_invoke(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``invoke ARGS`` as a user would, from the project's virtual environment."""
    invoke = str(Path(sys.executable).parent / "invoke")
    return subprocess.run([invoke, *args], cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True,
                          encoding="utf-8", timeout=timeout)


@pytest.fixture
def archive(tmp_path: Path):
    """A factory: ``archive({path: payload})`` writes a reports folder and returns its path."""
    def make(files: dict[str, Any], name: str = "reports") -> Path:
        return write_archive(tmp_path / name, files)
    return make
