"""docs/writing-a-plugin.md followed as a learner follows it: every command block passes where it stands.

Each fenced block sits under an HTML comment that says what it is:

    <!-- sample: file <plugin>/<path> -->  a file the reader writes, over what `agentty-plugin new` wrote
    <!-- sample: sh <folder> -->           commands the reader types in <folder> (relative to where they began)
    <!-- sample: run -->                   a snippet that runs on its own (its asserts are the check)
    <!-- sample: fragment -->              shown, not run (a listing, a server, make targets); kept rare

The walk starts in an empty folder and goes through the blocks in order, with this checkout's
`agentty-plugin` and a stock `python3` (this interpreter with -S -E: no pytest, no installed runtime)
first on PATH. Each command block's result is then a test of its own, and a "# N passed" comment in
it must be what the tests print. The one step that needs PyPI (`pip install` of the dependency
example) installs from local wheels only: tests/scaffold/wheels/ (or AGENTTY_GUIDE_WHEELS); without the
wheel there, that step and the ones after it in that plugin are skipped, never passed.
"""

from __future__ import annotations

import os
import re
import runpy
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import pytest
from agentty_plugin.checks import inspect_plugin

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GUIDE = os.path.join(REPO, "docs", "writing-a-plugin.md")
WHEELS = os.environ.get("AGENTTY_GUIDE_WHEELS") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "wheels")
MARKER = re.compile(r"^<!--\s*sample:\s*(file|sh|run|fragment)\b\s*(\S*)\s*-->$")
FENCE = re.compile(r"^```(\w*)")
CLAIMED = re.compile(r"#\s*(\d+) passed")
SUMMARY = re.compile(r"^(?:\d+ failed, )?\d+ passed in [\d.]+ s$", re.MULTILINE)  # agentty_plugin.testrun's


@dataclass
class Block:
    line: int  # of the opening fence, 1-based
    language: str
    text: str
    kind: Optional[str]  # None when unmarked
    target: str  # "<plugin>/<path>" for file, the folder for sh


def read_blocks(path: str = GUIDE) -> List[Block]:
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    blocks: List[Block] = []
    index = 0
    while index < len(lines):
        fence = FENCE.match(lines[index])
        if not fence:
            index += 1
            continue
        start = index
        end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("```"))
        previous = next((lines[i] for i in range(start - 1, -1, -1) if lines[i].strip()), "")
        marker = MARKER.match(previous.strip())
        blocks.append(Block(start + 1, fence.group(1), "\n".join(lines[start + 1:end]) + "\n",
                            marker.group(1) if marker else None, marker.group(2) if marker else ""))
        index = end + 1
    return blocks


BLOCKS = read_blocks()
COMMANDS = [block for block in BLOCKS if block.kind == "sh"]
RUNS = [block for block in BLOCKS if block.kind == "run"]


# ---------------------------------------------------------------------------------------------- the walk

@dataclass
class Outcome:
    returncode: Optional[int]  # None: not run, see `skipped`
    output: str
    skipped: str = ""


def _shims(folder: str) -> str:
    """`agentty-plugin` (this checkout's) and `python3` (stock: no site-packages; pip from local wheels only)."""
    os.makedirs(folder, exist_ok=True)
    scripts = {
        "agentty-plugin": f'exec "{sys.executable}" -m agentty_plugin "$@"\n',
        "python3": (f'if [ "$1" = -m ] && [ "$2" = pip ]; then shift 2; exec "{sys.executable}" -m pip "$@" '
                    f'--no-index --find-links "{WHEELS}" --quiet; fi\n'
                    f'exec "{sys.executable}" -S -E "$@"\n'),
    }
    for name, body in scripts.items():
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("#!/bin/sh\n" + body)
        os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return folder


def walk(root: str, blocks: List[Block]) -> Dict[int, Outcome]:
    """Write the files and run the command blocks in order, as a reader would; the outcome of each command block."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PATH"] = _shims(os.path.join(os.path.dirname(root), "bin")) + os.pathsep + env.get("PATH", "")
    outcomes: Dict[int, Outcome] = {}
    unavailable: Dict[str, str] = {}  # plugin folder → why its remaining steps cannot be checked here
    for block in blocks:
        if block.kind == "file":
            target = os.path.join(root, block.target)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as handle:
                handle.write(block.text)
        elif block.kind == "sh":
            plugin = block.target.split("/")[0]
            if plugin in unavailable:
                outcomes[block.line] = Outcome(None, "", unavailable[plugin])
                continue
            run = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", block.text],
                                 cwd=os.path.join(root, block.target), env=env, capture_output=True, text=True,
                                 timeout=600)
            output = run.stdout + run.stderr
            if run.returncode != 0 and "pip" in block.text and "No matching distribution" in output:
                unavailable[plugin] = (f"could not check: the guide's pip step needs a local wheel in {WHEELS} "
                                       f"(set AGENTTY_GUIDE_WHEELS): {output.strip().splitlines()[-1]}")
                outcomes[block.line] = Outcome(None, output, unavailable[plugin])
                continue
            outcomes[block.line] = Outcome(run.returncode, output)
    return outcomes


@pytest.fixture(scope="module")
def learner(tmp_path_factory) -> Tuple[str, Dict[int, Outcome]]:
    """The folder a reader worked in, after following the whole guide, and what each command block did."""
    root = str(tmp_path_factory.mktemp("learner") / "work")
    os.makedirs(root)
    return root, walk(root, BLOCKS)


# ---------------------------------------------------------------------------------------------- the page

def test_every_code_block_says_what_it_is():
    unmarked = [block.line for block in BLOCKS if block.kind is None]
    assert unmarked == [], f"blocks at lines {unmarked} of {GUIDE} need a <!-- sample: ... --> comment"
    assert all(block.target.count("/") >= 1 for block in BLOCKS if block.kind == "file")
    assert all(block.language == "sh" for block in BLOCKS if block.kind == "sh")
    assert all(block.language == "python" for block in BLOCKS if block.kind == "run")
    assert len([block for block in BLOCKS if block.kind == "fragment"]) <= 4, "fragments are kept rare"


def test_the_guide_starts_from_new_and_writes_only_into_folders_new_made():
    assert COMMANDS and COMMANDS[0].text.splitlines()[0].startswith("agentty-plugin new ")
    made = set()
    for block in BLOCKS:
        if block.kind == "sh":
            made.update(re.findall(r"^agentty-plugin new (\S+)", block.text, re.MULTILINE))
            assert block.target == "." or block.target in made, f"line {block.line}: {block.target} not made yet"
        elif block.kind == "file":
            assert block.target.split("/")[0] in made, f"line {block.line}: {block.target} before its `new`"


def test_every_plugin_file_is_tested_by_a_later_command_block():
    last_test = {}
    for block in COMMANDS:
        if "tests/run.py" in block.text:
            last_test[block.target] = block.line
    for block in BLOCKS:
        if block.kind == "file":
            plugin = block.target.split("/")[0]
            assert last_test.get(plugin, 0) > block.line, f"line {block.line}: {block.target} is never tested after"


@pytest.mark.parametrize("block", COMMANDS, ids=[f"line-{b.line}-{b.target}" for b in COMMANDS])
def test_a_command_block_passes_where_it_stands(block, learner):
    outcome = learner[1][block.line]
    if outcome.skipped:
        pytest.skip(outcome.skipped)
    assert outcome.returncode == 0, f"guide line {block.line}:\n{block.text}\n{outcome.output}"
    if "tests/run.py" in block.text:
        summaries = SUMMARY.findall(outcome.output)
        assert summaries and "failed" not in " ".join(summaries), outcome.output
        summary = summaries[-1]
        claimed = CLAIMED.search(block.text)
        if claimed:
            assert summary.startswith(f"{claimed.group(1)} passed"), f"guide line {block.line} says " \
                f"{claimed.group(0)!r}; the tests printed {summary!r}"


def test_the_plugins_the_guide_builds_pass_check(learner):
    root = learner[0]
    for plugin in sorted(set(re.findall(r"^agentty-plugin new (\S+)", "".join(b.text for b in COMMANDS), re.M))):
        result = inspect_plugin(os.path.join(root, plugin))
        assert result.problems == [] and result.warnings == [], (plugin, result.problems, result.warnings)


@pytest.mark.parametrize("block", RUNS, ids=[f"line-{b.line}" for b in RUNS])
def test_a_run_block_runs(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "sample.py"
    path.write_text(block.text, encoding="utf-8")
    runpy.run_path(str(path), run_name="__guide_sample__")


def test_a_broken_controller_fails_the_guides_tests(learner, tmp_path):
    """The walk can fail: the guide's own end-to-end test catches a controller that ignores busy panes."""
    folder = str(tmp_path / "todo-finder")
    shutil.copytree(os.path.join(learner[0], "todo-finder"), folder)
    app = os.path.join(folder, "todo_finder", "app.py")
    with open(app, encoding="utf-8") as handle:
        source = handle.read()
    careless = source.replace("pane = idle_agent_pane(folder, context.pane, self.plugin.list_workspaces())",
                              "pane = context.pane  # whatever has focus, busy or not")
    assert careless != source
    with open(app, "w", encoding="utf-8") as handle:
        handle.write(careless)
    run = subprocess.run([sys.executable, "-S", "-E", os.path.join("tests", "run.py"), "tests/test_todo_finder.py"],
                         cwd=folder, capture_output=True, text=True, timeout=600)
    assert run.returncode == 1 and "FAILED tests/test_todo_finder.py::test_a_busy_agent_is_never_typed_into" \
        in run.stdout, run.stdout


def test_the_template_test_is_deleted_before_a_run_with_the_guides_ids():
    """The template's own test clicks the template's button: it is deleted before a step that runs the tests
    with the guide's ids.py (it would otherwise wait out the harness's timeout at every later step)."""
    ids_block = next(b for b in BLOCKS if b.kind == "file" and b.target.endswith("/ids.py"))
    removal = next(b for b in COMMANDS if "rm tests/test_todo_finder.py" in b.text)
    first_run_after = next(b for b in COMMANDS if b.line > ids_block.line and "tests/run.py" in b.text)
    assert removal.line <= first_run_after.line


def test_an_unmarked_block_is_caught(tmp_path):
    guide = tmp_path / "guide.md"
    guide.write_text("Text.\n\n```python\nprint('hello')\n```\n\n<!-- sample: run -->\n```python\nx = 1\n```\n")
    blocks = read_blocks(str(guide))
    assert [(b.line, b.kind) for b in blocks] == [(3, None), (8, "run")]


def test_the_guides_plugins_are_lint_and_type_clean_inside_a_checkout(learner, tmp_path):
    """What a reader copies passes the same ruff and mypy runs as the plugins in plugins/."""
    os.symlink(os.path.join(REPO, "shared"), tmp_path / "shared")
    shutil.copy(os.path.join(REPO, "pyproject.toml"), tmp_path / "pyproject.toml")
    shutil.copytree(learner[0], tmp_path / "plugins")
    bin_dir = os.path.dirname(sys.executable)
    ruff = subprocess.run([os.path.join(bin_dir, "ruff"), "check", "--extend-exclude", "_vendor", "plugins"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert ruff.returncode == 0, ruff.stdout + ruff.stderr
    for folder in sorted(os.listdir(tmp_path / "plugins")):
        mypy = subprocess.run([os.path.join(bin_dir, "mypy"), "--config-file", "../../pyproject.toml", "--exclude",
                               "(^|/)_vendor/", "--no-incremental", "."], cwd=tmp_path / "plugins" / folder,
                              capture_output=True, text=True)
        assert mypy.returncode == 0, folder + "\n" + mypy.stdout + mypy.stderr
