"""A command line that cannot be read, as the project's ``invoke`` answers it: an unknown task or flag,
a missing argument or flag value ends with one line on stderr and exit 2 (unusable input), never 1,
which ``invoke diff`` keeps for a row that leaks more."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, run_invoke

from benchmark_leaderboard import exits
from leaderboard_tools import program


@pytest.mark.parametrize("args, line", [
    (["diff"], "usage: diff needs OLD and NEW; invoke --help diff shows its arguments"),
    (["diff", "old.json"], "usage: diff needs NEW; invoke --help diff shows its arguments"),
    (["diff", "-f"], "usage: --format needs a value; invoke --help diff shows its arguments"),
    (["diff", "old.json", "new.json", "--format"], "usage: --format needs a value; invoke --help diff shows its arguments"),
    (["diff", "old.json", "new.json", "more.json"], "usage: diff takes no argument 'more.json'; invoke --help diff shows its arguments"),
    (["build", "--bogus"], "usage: --bogus is not a flag of build; invoke --help build shows its arguments"),
    (["build", "--release-tag"], "usage: --release-tag needs a value; invoke --help build shows its arguments"),
    (["clean", "output"], "usage: clean takes no argument 'output'; invoke --help clean shows its arguments"),
    (["nosuchtask"], "usage: there is no task named 'nosuchtask'; invoke --list shows the tasks"),
    (["--help", "nosuchtask"], "usage: there is no task named 'nosuchtask'; invoke --list shows the tasks"),
    (["--bogus"], "usage: --bogus is not a flag of invoke; invoke --help shows invoke's own flags"),
    (["--search-root"], "usage: --search-root needs a value; invoke --help shows invoke's own flags"),
])
def test_a_command_line_that_cannot_be_read_exits_2_with_one_line(args, line, tmp_path):
    result = run_invoke("--search-root", str(ROOT), *args, cwd=tmp_path) if args[0] != "--search-root" else \
        run_invoke(*args, cwd=ROOT)
    assert (result.returncode, result.stderr.splitlines(), result.stdout) == (exits.UNUSABLE, [line], "")
    assert sorted(path.name for path in tmp_path.iterdir()) == []  # nothing was run


def run_program(capsys, *args: str) -> tuple[int, str, str]:
    """The program that ``.venv/bin/invoke`` runs, run here: its exit status, stdout and stderr."""
    with pytest.raises(SystemExit) as ended:
        program.program.run(["invoke", "--search-root", str(ROOT), *args])
    said = capsys.readouterr()
    return ended.value.code or 0, said.out, said.err


def test_every_flag_of_every_task_given_without_its_value_exits_2(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _, listing, _ = run_program(capsys, "--list")
    tasks = re.findall(r"^  (\S+)  ", listing, re.M)
    assert {"build", "diff", "test", "gh-pages"} <= set(tasks)
    flags = []
    for task in tasks:
        shown = run_program(capsys, "--help", task)[1].split("Options:\n", 1)[1]
        for short, long in re.findall(r"^  (?:(-\w) STRING)?(?:, )?(?:(--[\w-]+)=STRING)?", shown, re.M):
            if short or long:
                flags.append((task, long or short))
    assert {("build", "--output-dir"), ("bench", "--sizes"), ("test", "-k"), ("diff", "--format")} <= set(flags)
    for task, flag in flags:
        assert run_program(capsys, task, flag) == (
            exits.UNUSABLE, "", f"usage: {flag} needs a value; invoke --help {task} shows its arguments\n"), (task, flag)
    for task in tasks:
        # (diff's arguments first: a word where an argument is missing is taken as that argument)
        args = ["old.json", "new.json"] if task == "diff" else []
        assert run_program(capsys, task, *args, "--no-such-flag") == (
            exits.UNUSABLE, "", f"usage: --no-such-flag is not a flag of {task}; invoke --help {task} shows its arguments\n")
    assert list(tmp_path.iterdir()) == []


def test_a_task_still_sets_its_own_status_and_list_still_lists(tmp_path):
    # Only the command line's errors changed: what a task decides is its own (diff's 2 for a missing file).
    result = run_invoke("--search-root", str(ROOT), "diff", "old.json", "new.json", cwd=tmp_path)
    assert (result.returncode, result.stderr.splitlines()) == (
        exits.UNUSABLE, ["diff: old.json is neither a file, a folder nor a git ref (the working folder is not in a git repository)"])
    listed = run_invoke("--search-root", str(ROOT), "--list", cwd=tmp_path)
    assert listed.returncode == exits.DONE and "diff" in listed.stdout


def test_the_program_the_makefile_installs_is_the_projects(tmp_path):
    # What `python -m leaderboard_tools.program install BIN` writes runs this program, whatever BIN is.
    written = program.install(str(tmp_path))
    assert [Path(path).name for path in written] == ["invoke", "inv"]
    for path in written:
        result = subprocess.run([path, "--search-root", str(ROOT), "nosuchtask"], cwd=tmp_path, capture_output=True,
                                text=True, timeout=60)
        assert (result.returncode, result.stderr) == (
            exits.UNUSABLE, "usage: there is no task named 'nosuchtask'; invoke --list shows the tasks\n")
    assert Path(written[0]).read_text(encoding="utf-8").startswith(f"#!{sys.executable}\n")
    # The environment's own invoke, which every other test runs, is this program too.
    assert (Path(sys.executable).parent / "invoke").read_text(encoding="utf-8") == Path(written[0]).read_text(encoding="utf-8")


def test_the_makefile_writes_the_program_after_every_install_of_packages():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipes = re.findall(r"^(\S+):[^\n]*\n((?:\t[^\n]*\n)+)", makefile, re.M)
    installing = {target: recipe for target, recipe in recipes if "$(PIP_INSTALL)" in recipe}
    assert set(installing) == {"$(BUILD_STAMP)", "$(TEST_STAMP)"}
    for target, recipe in installing.items():
        assert recipe.index("$(INSTALL_PROGRAM)") > recipe.rindex("$(PIP_INSTALL)"), target
    assert re.search(r"^\$\(BUILD_STAMP\):.*leaderboard_tools/program\.py", makefile, re.M)
    assert "INSTALL_PROGRAM = $(BIN)/python -m leaderboard_tools.program install $(BIN)" in makefile
