"""The Pages workflow: when it runs, that the project's code runs offline, that every build is compared
with the pages branch's latest release (a pull request in which a row leaks more fails), and that only v* tags keep
a release on the pages branch and deploy it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
import yaml

from conftest import ROOT
from tasks_support import git

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
    ("push", "refs/heads/master", False),
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
def test_only_tags_keep_a_release_and_deploy(workflow, event, ref, deploys):
    """A release lives on the pages branch for good: only a v* tag adds one (master has no release of its
    own), and what is deployed is the branch's tree once the keep job pushed it."""
    deploy, keep = workflow["jobs"]["deploy"], workflow["jobs"]["keep"]
    assert deploy["needs"] == ["build", "keep"] and keep["needs"] == "build"
    assert [step["uses"].split("@")[0] for step in deploy["steps"]] == ["actions/deploy-pages"]
    assert github_condition(deploy["if"], event, ref) is deploys
    assert github_condition(keep["if"], event, ref) is deploys
    uploads = {step["uses"].split("@")[0]: step for step in steps(workflow, "build") if "upload" in step.get("uses", "")}
    assert set(uploads) == {"actions/upload-pages-artifact", "actions/upload-artifact"}
    for upload in uploads.values():
        assert github_condition(upload["if"], event, ref) is deploys
    assert uploads["actions/upload-pages-artifact"]["with"]["path"] == "pages"  # the branch's tree, not the render
    assert uploads["actions/upload-artifact"]["with"]["path"] == "gh-pages.bundle"
    offline = step_running(workflow, "invoke publish")
    assert offline["env"]["KEEP"] == "${{ github.event_name == 'push' && startsWith(github.ref, 'refs/tags/v') }}"
    assert github_condition(offline["env"]["KEEP"][4:-3], event, ref) is deploys


def test_only_the_deploy_job_may_write_to_pages_and_only_the_keep_job_to_the_repository(workflow):
    assert workflow["permissions"] == {"contents": "read"}
    assert workflow["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert workflow["jobs"]["keep"]["permissions"] == {"contents": "write"}
    assert "permissions" not in workflow["jobs"]["build"]
    # The job that can write runs none of the project's code, and only moves the branch forward.
    keep = steps(workflow, "keep")
    assert [step.get("uses", "").split("@")[0] for step in keep] == ["actions/checkout", "actions/download-artifact", ""]
    script = keep[2]["run"]
    for never in (".venv", "invoke", "python", "--force", "+refs/heads/gh-pages:refs/heads/gh-pages", "-f "):
        assert never not in script, never
    assert script.splitlines()[-1] == "git push origin refs/heads/gh-pages:refs/heads/gh-pages"
    assert workflow["jobs"]["keep"]["concurrency"] == {"group": "pages-branch", "cancel-in-progress": False}


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


# What a checkout holds that a fresh clone does not (its environments, renders, caches, the
# benchmark's archives and Lighthouse's reports: .gitignore's), never copied into a test's project.
LOCAL_ONLY = (".venv", ".git", "output", ".output*", "__pycache__", ".pytest_cache", ".node", ".work", ".lighthouse")


class OfflineProject:
    """A copy of the project in its own git repository (no pages branch yet), where the workflow's
    offline step runs as on a runner; as root here, `sudo` is a pass-through."""

    def __init__(self, workflow: dict, tmp_path):
        self.path = tmp_path / "project"
        shutil.copytree(ROOT, self.path, ignore=shutil.ignore_patterns(*LOCAL_ONLY, "site", "pages"))
        (self.path / ".venv").symlink_to(ROOT / ".venv")
        git(self.path, "init", "--quiet", "--initial-branch", "master")
        shims = tmp_path / "bin"
        shims.mkdir()
        (shims / "sudo").write_text('#!/bin/sh\nexec "$@"\n', encoding="utf-8")
        (shims / "sudo").chmod(0o755)
        self.path_variable = f"{shims}{os.pathsep}{os.environ['PATH']}"
        self.summary = tmp_path / "summary.md"
        self.script = step_running(workflow, "invoke publish")["run"]

    def run(self, release_tag: str, event: str = "push", keep: bool = False) -> subprocess.CompletedProcess:
        """The offline step, with what GitHub would set; the job summary starts empty."""
        self.summary.write_text("", encoding="utf-8")
        environment = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
        environment.update(PATH=self.path_variable, RELEASE_TAG=release_tag, EVENT=event, KEEP=str(keep).lower(),
                           GITHUB_STEP_SUMMARY=str(self.summary), GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
        return subprocess.run(["bash", "-e", "-c", self.script], cwd=self.path, capture_output=True, text=True,
                              timeout=300, env=environment)


@pytest.mark.skipif(not can_cut_the_network(), reason="needs root, unshare and the project's .venv")
def test_the_offline_step_runs_without_a_network(workflow, tmp_path):
    project = OfflineProject(workflow, tmp_path)
    result = project.run("v3.1.0")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "verified: site is identical to the render of v3.1.0" in result.stderr
    sums = (project.path / "site/SHA256SUMS").read_text(encoding="utf-8").splitlines()
    assert len(sums) == sum(1 for path in (project.path / "site").rglob("*") if path.is_file()) - 1
    # No pages branch yet: nothing to compare with, so no changes page, and nothing kept.
    assert project.summary.read_text(encoding="utf-8") == "No release on the pages branch yet: nothing to compare v3.1.0 with.\n"
    assert not (project.path / "site/changes.html").exists() and not (project.path / "pages").exists()


@pytest.mark.skipif(not can_cut_the_network(), reason="needs root, unshare and the project's .venv")
def test_a_row_that_leaks_more_fails_a_pull_request_and_a_tag_is_kept_with_its_diff_as_the_summary(workflow, tmp_path):
    project = OfflineProject(workflow, tmp_path)
    kept = project.run("v3.1.0", keep=True)  # the first release: a tag of a repository with no pages branch
    assert kept.returncode == 0, kept.stdout + kept.stderr
    assert git(project.path, "ls-tree", "--name-only", "gh-pages", "releases/").split() == [
        "releases/index.html", "releases/v3.1.0"]
    # The golden suite's only row now leaks a quarter of its text.
    golden = project.path / "content/benchmarks/golden.report.json"
    report = json.loads(golden.read_text(encoding="utf-8"))
    report["metrics"]["leakage"]["overall"] = 0.25
    golden.write_text(json.dumps(report, indent=2), encoding="utf-8")

    pull = project.run("v3.1.0", event="pull_request")
    assert pull.returncode == 1, pull.stdout + pull.stderr
    assert pull.stderr.splitlines()[-1] == "a row leaks more than in v3.1.0: see the job summary"
    summary = project.summary.read_text(encoding="utf-8")
    assert summary.startswith("## Leaderboard changes from gh-pages:releases/v3.1.0 to site\n\n1 row leaks more")
    assert ("| golden | OpenMed/OpenMed-PII-SuperClinical-Small-44M-v1-mlx | mlx-fp | 0.00% | 25.00% | +25.00 |"
            in summary.splitlines())
    # Its render is of master's tag, v3.1.0, kept already: no release before it to be compared with, so no
    # changes page ("Changes in v3.1.0, compared with v3.1.0" would contradict itself); the summary compares.
    assert not (project.path / "site/changes.html").exists()
    assert git(project.path, "ls-tree", "--name-only", "gh-pages", "releases/").split() == [
        "releases/index.html", "releases/v3.1.0"]  # a pull request keeps nothing
    tip = git(project.path, "rev-parse", "gh-pages").strip()

    # Each run is a fresh runner: what the first tag's run left for its upload steps is gone.
    shutil.rmtree(project.path / "pages")
    (project.path / "gh-pages.bundle").unlink()
    tag = project.run("v3.2.0", keep=True)  # a tag is published whatever it changes; its summary says what
    assert tag.returncode == 0, tag.stdout + tag.stderr
    tagged = project.summary.read_text(encoding="utf-8")
    assert tagged.startswith("## Leaderboard changes from gh-pages:releases/v3.1.0 to site\n\n1 row leaks more")
    # Not the pull request's summary byte for byte: the bundled report without a tag of its own takes the build's, v3.2.0.
    assert "| golden | OpenMed/OpenMed-PII-SuperClinical-Small-44M-v1-mlx | mlx-fp | 0.00% | 25.00% | +25.00 |" in tagged
    assert git(project.path, "ls-tree", "--name-only", "gh-pages", "releases/").split() == [
        "releases/index.html", "releases/v3.1.0", "releases/v3.2.0"]
    assert json.loads(git(project.path, "show", "gh-pages:.leaderboard-render.json"))["release_tag"] == "v3.2.0"
    assert "verified: pages/releases/v3.2.0 is identical to the render of v3.2.0" in tag.stderr
    assert "verified: pages is identical to the render of v3.2.0" in tag.stderr
    # The bundle holds the new commit alone, on top of the tip the keep job fetches.
    assert git(project.path, "rev-parse", "gh-pages~1").strip() == tip
    listed = git(project.path, "bundle", "list-heads", "gh-pages.bundle").split()
    assert listed == [git(project.path, "rev-parse", "gh-pages").strip(), "refs/heads/gh-pages"]
    assert git(project.path, "bundle", "verify", "--quiet", "gh-pages.bundle") == ""
    changes = (project.path / "pages/releases/v3.2.0/changes.html").read_text(encoding="utf-8")
    assert "Changes in v3.2.0" in changes and "Leaks more" in changes


def test_the_installed_environment_imports_the_tasks_and_the_plugin_of_its_checkout(workflow, tmp_path):
    """The install step makes an environment in which the later steps' invoke and python -m find the
    checkout's tasks, tooling and plugin: what pip installs from requirements.lock is taken from this
    environment (no network), every other line of the step runs as written."""
    import sysconfig

    [install] = [step for step in steps(workflow, "build") if "pip install" in step.get("run", "")]
    lines = install["run"].strip().splitlines()
    assert lines[0] == "python -m venv .venv" and "pip install" in lines[1] and "-r requirements.lock" in lines[1]
    project = tmp_path / "checkout"
    shutil.copytree(ROOT, project, ignore=shutil.ignore_patterns(*LOCAL_ONLY, "benchmarks"))
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(project / ".venv")], check=True)
    environment = subprocess.run([str(project / ".venv/bin/python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                 capture_output=True, text=True, check=True).stdout.strip()
    # What pip would have installed: this environment's packages, without its own path file.
    with open(os.path.join(environment, "locked-packages.pth"), "w", encoding="utf-8") as paths:
        paths.write(sysconfig.get_path("purelib") + "\n")
    where = [str(project / ".venv/bin/python"), "-c",
             "import tasks, benchmark_leaderboard, leaderboard_tools; print(benchmark_leaderboard.__file__)"]
    before = subprocess.run(where, cwd=project / "content", capture_output=True, text=True)
    assert before.returncode != 0  # pip's packages alone do not reach the checkout
    for line in lines[2:]:
        subprocess.run(["bash", "-e", "-c", line], cwd=project, check=True, capture_output=True)
    after = subprocess.run(where, cwd=project / "content", capture_output=True, text=True)
    assert after.returncode == 0, after.stderr
    assert after.stdout.strip() == str(project / "plugins/benchmark_leaderboard/__init__.py")
