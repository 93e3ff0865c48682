"""The Pages workflow: when it runs, that its build step is offline, and that only master and tags deploy."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
import yaml

from conftest import ROOT

WORKFLOW = ROOT / ".github/workflows/pages.yml"


@pytest.fixture(scope="module")
def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def steps(workflow: dict, job: str) -> list[dict]:
    return workflow["jobs"][job]["steps"]


def step_running(workflow: dict, command: str) -> dict:
    [step] = [step for step in steps(workflow, "build") if command in step.get("run", "")]
    return step


def github_condition(expression: str, event: str, ref: str) -> bool:
    """Evaluate the small part of GitHub's expression language the workflow uses (==, &&, ||, startsWith)."""
    python = expression.replace("&&", " and ").replace("||", " or ")
    python = re.sub(r"startsWith\(([^,]+),\s*([^)]+)\)", r"(\1).startswith(\2)", python)
    python = python.replace("github.event_name", repr(event)).replace("github.ref", repr(ref))
    assert re.fullmatch(r"[\s'()\w/.*=-]*", python.replace(".startswith", "")), python
    return eval(python, {"__builtins__": {}})  # noqa: S307 - only literals and comparisons remain


EVENTS = [
    ("pull_request", "refs/pull/7/merge", False),
    ("push", "refs/heads/master", True),
    ("push", "refs/tags/v3.1.0", True),
    ("push", "refs/tags/v3.2.0-rc.1", True),
    ("push", "refs/heads/feature", False),
    ("workflow_dispatch", "refs/heads/master", False),
]


def test_it_builds_pull_requests_and_publishes_master_and_v_tags(workflow):
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert set(triggers) == {"pull_request", "push"}
    assert triggers["pull_request"] is None or "branches" not in triggers["pull_request"]
    assert triggers["push"] == {"branches": ["master"], "tags": ["v*"]}


@pytest.mark.parametrize("event, ref, deploys", EVENTS)
def test_only_master_and_tags_deploy(workflow, event, ref, deploys):
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert [step["uses"].split("@")[0] for step in deploy["steps"]] == ["actions/deploy-pages"]
    assert github_condition(deploy["if"], event, ref) is deploys
    [upload] = [step for step in steps(workflow, "build") if step.get("uses", "").startswith("actions/upload-pages-artifact")]
    assert github_condition(upload["if"], event, ref) is deploys
    assert upload["with"]["path"] == "site"


def test_only_the_deploy_job_may_write_to_pages(workflow):
    assert workflow["permissions"] == {"contents": "read"}
    assert workflow["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert "permissions" not in workflow["jobs"]["build"]


def test_the_build_renders_publishes_and_verifies_with_the_network_cut(workflow):
    build = steps(workflow, "build")
    assert build[0]["uses"].startswith("actions/checkout@")
    assert build[1]["uses"].startswith("actions/setup-python@") and build[1]["with"]["python-version"] == "3.11"
    assert "-r requirements.lock" in step_running(workflow, "pip install")["run"]
    offline = step_running(workflow, "invoke publish")
    script = offline["run"]
    cut = script.index("unshare --net --")
    assert cut < script.index("invoke publish --release-tag \"$RELEASE_TAG\" --output-dir site")
    assert cut < script.index("invoke verify --release-tag \"$RELEASE_TAG\" --output-dir site")
    assert offline["env"]["RELEASE_TAG"] == "${{ steps.release.outputs.tag }}"
    # Every step that runs the project's code after installing runs it offline.
    for step in build:
        if "invoke" in step.get("run", ""):
            assert "unshare --net" in step["run"], step


@pytest.mark.parametrize("ref_type, ref_name, expected", [("tag", "v3.2.0", "v3.2.0"), ("branch", "master", "v3.1.0")])
def test_a_tag_is_its_own_release_and_master_uses_the_makefiles(workflow, tmp_path, ref_type, ref_name, expected):
    [choose] = [step for step in steps(workflow, "build") if step.get("id") == "release"]
    output = tmp_path / "github_output"
    subprocess.run(["bash", "-e", "-c", choose["run"]], cwd=ROOT, check=True,
                   env={**{k: v for k, v in os.environ.items() if k != "RELEASE_TAG"}, "REF_TYPE": ref_type,
                        "REF_NAME": ref_name, "GITHUB_OUTPUT": str(output)})
    assert output.read_text(encoding="utf-8") == f"tag={expected}\n"


def can_cut_the_network() -> bool:
    if os.geteuid() != 0 or not (ROOT / ".venv/bin/invoke").exists() or not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "--net", "--", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not can_cut_the_network(), reason="needs root, unshare and the project's .venv")
def test_the_offline_step_runs_without_a_network(workflow, tmp_path):
    """Run the workflow's offline step on a copy of the project; as root here, `sudo` is a pass-through."""
    project = tmp_path / "project"
    shutil.copytree(ROOT, project, ignore=shutil.ignore_patterns(".venv", ".git", "output", ".output*", "site",
                                                                   "__pycache__", ".pytest_cache"))
    (project / ".venv").symlink_to(ROOT / ".venv")
    shims = tmp_path / "bin"
    shims.mkdir()
    (shims / "sudo").write_text('#!/bin/sh\nexec "$@"\n', encoding="utf-8")
    (shims / "sudo").chmod(0o755)
    script = step_running(workflow, "invoke publish")["run"]
    result = subprocess.run(["bash", "-e", "-c", script], cwd=project, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PATH": f"{shims}{os.pathsep}{os.environ['PATH']}", "RELEASE_TAG": "v3.1.0"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "verified: site is identical to the render of v3.1.0" in result.stderr
    sums = (project / "site/SHA256SUMS").read_text(encoding="utf-8").splitlines()
    assert len(sums) == sum(1 for path in (project / "site").rglob("*") if path.is_file()) - 1
