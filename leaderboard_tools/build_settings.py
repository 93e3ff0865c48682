"""The settings a build or a ``clean`` runs with: the site's settings file as Pelican reads it, with
the overrides the build's flags set, and whether those settings let the build have the output.

Reading them runs no generator and writes nothing; ``tasks.py`` reads them before it serves, the
release tasks for the site's address and theme."""

from __future__ import annotations

import os
from typing import Any

from benchmark_leaderboard.write.output import judge, one_line

from .faults import BuildError, reason


def pelican_settings(settings_file: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """Pelican's settings from ``settings_file``, with each override that is not None."""
    from pelican.settings import read_settings

    return read_settings(settings_file, override={k: v for k, v in overrides.items() if v is not None})


def settings_of(settings_file: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """``pelican_settings``; a settings file that cannot be read is a ``BuildError``."""
    try:
        return pelican_settings(settings_file, overrides)
    except OSError as error:
        raise BuildError(f"cannot read the settings {one_line(settings_file)}: {reason(error)}") from None


def build_overrides(reports_dir: str | None = None, manifest: str | None = None, release_tag: str | None = None,
                    extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The Pelican settings the build's flags set; a reports folder or manifest that cannot be one
    is a ``BuildError``."""
    overrides = dict(extra or {})
    if reports_dir is not None:
        if not os.path.isdir(reports_dir):
            raise BuildError(f"the reports folder {one_line(reports_dir)} does not exist" if not os.path.lexists(reports_dir)
                             else f"the reports folder {one_line(reports_dir)} is not a folder")
        overrides["LEADERBOARD_REPORTS_DIR"] = os.path.abspath(reports_dir)
    if manifest is not None:
        if os.path.isdir(manifest):
            raise BuildError(f"the manifest {one_line(manifest)} is a folder, not a models.jsonl file")
        overrides["LEADERBOARD_MANIFEST"] = os.path.abspath(manifest)
    if release_tag is not None:
        overrides["LEADERBOARD_RELEASE_TAG"] = release_tag
    return overrides


def output_refusal(settings_file: str, output_dir: str, overrides: dict[str, Any] | None = None,
                   unmarked: bool = False) -> str | None:
    """Why ``output_dir`` cannot be the output of a build with these settings (with ``unmarked``: be
    cleaned, which a folder without a render can), or None."""
    return judge(output_dir, settings_of(settings_file, overrides or {}), unmarked=unmarked)
