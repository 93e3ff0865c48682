"""Any current Python: the bundled archive builds with every supported CPython this machine has, each
in a virtual environment of its own made from requirements.lock alone, to the same bytes."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from core_support import tree_digest

SUPPORTED = ("3.11", "3.12", "3.13")


def interpreter(version: str) -> tuple[str | None, str]:
    """The ``python<version>`` on the PATH when it runs and is that version, else None and why not."""
    command = shutil.which(f"python{version}")
    if command is None:
        return None, f"python{version} is not on the PATH"
    probe = subprocess.run([command, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True,
                           text=True, timeout=60)
    if probe.returncode != 0 or probe.stdout.strip() != version:
        return None, f"python{version} ({command}) does not run as Python {version}: {' '.join((probe.stderr or probe.stdout).split())[:200]}"
    return command, ""


def test_the_supported_versions_are_those_pyproject_and_the_readme_name():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^requires-python = ">=3\.11"$', text, re.M)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Python 3.11, 3.12 and 3.13" in readme


@pytest.mark.parametrize("version", SUPPORTED)
def test_the_bundled_archive_builds_to_the_same_bytes_with_each_supported_python(version, tmp_path):
    command, why = interpreter(version)
    if command is None:
        pytest.skip(why)
    venv = tmp_path / "venv"
    subprocess.run([command, "-m", "venv", str(venv)], check=True, timeout=300)
    installed = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                                "--no-deps", "-r", str(ROOT / "requirements.lock")], capture_output=True, text=True,
                               timeout=900)
    assert installed.returncode == 0, installed.stderr
    # The project's own folders on the path, as the Makefile's path file puts them (never installed).
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "plugins")])}
    env.pop("PYTHONHOME", None)
    built = {}
    for name, python in (("this", sys.executable), (version, str(venv / "bin" / "python"))):
        output = tmp_path / f"out-{name}"
        result = subprocess.run([python, "-m", "invoke", "--search-root", str(ROOT), "build", "--release-tag", "v3.1.0",
                                 "--output-dir", str(output)], cwd=ROOT, env=env, capture_output=True, text=True,
                                timeout=300)
        assert result.returncode == 0, result.stderr
        built[name] = tree_digest(output)
    assert "sitemap.xml" in built[version] and sum(path.startswith("report/") for path in built[version]) == 20
    assert built[version] == built["this"]
