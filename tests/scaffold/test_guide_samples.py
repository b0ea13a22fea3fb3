"""Every code sample in docs/writing-a-plugin.md runs, so the guide cannot rot.

Each fenced ```python block (and each ```json block that is a plugin file) sits under an HTML comment:

    <!-- sample: file <plugin>/<path> -->   a file of a plugin the guide builds (a later block replaces it)
    <!-- sample: test <plugin> -->          a pytest file, run against that plugin as the guide has built it so far
    <!-- sample: run -->                    a snippet that runs on its own (its asserts are the check)
    <!-- sample: fragment -->               a piece of a bigger file, not run (kept rare)

A python block with none of these fails the suite, as does a plugin file no test block runs.
"""

import os
import re
import runpy
import subprocess
import sys
from dataclasses import dataclass
from typing import Dict, List, Optional

import pytest
from agentty_plugin.checks import inspect_plugin
from agentty_plugin.scaffold import TEMPLATE_DIR, vendor_runtime

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GUIDE = os.path.join(REPO, "docs", "writing-a-plugin.md")
MARKER = re.compile(r"^<!--\s*sample:\s*(file|test|run|fragment)\b\s*(\S*)\s*-->$")
FENCE = re.compile(r"^```(\w*)")


@dataclass
class Block:
    line: int  # of the opening fence, 1-based
    language: str
    text: str
    kind: Optional[str]  # None when unmarked
    target: str  # "<plugin>/<path>" for file, "<plugin>" for test


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


@dataclass
class Step:
    """A test block, and the plugin's files as the guide stands at that point."""

    block: Block
    plugin: str
    files: Dict[str, str]


def collect_steps(blocks: List[Block]) -> List[Step]:
    files: Dict[str, Dict[str, str]] = {}
    steps: List[Step] = []
    for block in blocks:
        if block.kind == "file":
            plugin, _, path = block.target.partition("/")
            files.setdefault(plugin, {})[path] = block.text
        elif block.kind == "test":
            steps.append(Step(block, block.target, dict(files.get(block.target, {}))))
    return steps


BLOCKS = read_blocks()
STEPS = collect_steps(BLOCKS)
RUNS = [block for block in BLOCKS if block.kind == "run"]


def test_every_python_block_is_run_or_marked_as_a_fragment():
    unmarked = [block.line for block in BLOCKS if block.language == "python" and block.kind is None]
    assert unmarked == [], f"python blocks at lines {unmarked} of {GUIDE} need a <!-- sample: ... --> comment"
    assert all(block.language in ("python", "json") for block in BLOCKS if block.kind == "file")
    assert all(block.language == "python" for block in BLOCKS if block.kind in ("test", "run"))
    assert len([block for block in BLOCKS if block.kind == "fragment"]) <= 3, "fragments are kept rare"


def test_every_plugin_file_in_the_guide_is_run_by_a_later_test_block():
    last_test = {step.plugin: step.block.line for step in STEPS}
    for block in BLOCKS:
        if block.kind == "file":
            plugin = block.target.split("/")[0]
            assert plugin in last_test and last_test[plugin] > block.line, \
                f"line {block.line}: {block.target} is never run by a test block after it"


def test_the_guide_has_samples_of_each_kind():
    kinds = {block.kind for block in BLOCKS}
    assert {"file", "test", "run"} <= kinds
    assert len(STEPS) >= 5 and len(RUNS) >= 4


def build_plugin(step: Step, root: str) -> str:
    """The plugin folder as `agentty-plugin new` would leave it, with the guide's files written over it."""
    folder = os.path.join(root, step.plugin)
    for path, text in step.files.items():
        target = os.path.join(folder, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(text)
    os.makedirs(os.path.join(folder, "tests"), exist_ok=True)
    with open(os.path.join(TEMPLATE_DIR, "tests", "conftest.py.tmpl"), encoding="utf-8") as handle:
        conftest = handle.read()
    with open(os.path.join(folder, "tests", "conftest.py"), "w", encoding="utf-8") as handle:
        handle.write(conftest)
    vendor_runtime(folder)
    with open(os.path.join(folder, "tests", "test_guide_step.py"), "w", encoding="utf-8") as handle:
        handle.write(step.block.text)
    return folder


@pytest.mark.parametrize("step", STEPS, ids=[f"line-{s.block.line}-{s.plugin}" for s in STEPS])
def test_a_test_block_passes_against_the_plugin_built_so_far(step, tmp_path):
    folder = build_plugin(step, str(tmp_path))
    if "main.py" in step.files:  # before the guide reaches main.py, its tests are of logic and view only
        result = inspect_plugin(folder)
        assert result.problems == [], f"agentty-plugin check at guide line {step.block.line}: {result.problems}"
        assert result.warnings == []
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=folder,
                         env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"guide line {step.block.line}:\n{run.stdout}\n{run.stderr}"
    assert " passed" in run.stdout and "failed" not in run.stdout


@pytest.mark.parametrize("block", RUNS, ids=[f"line-{b.line}" for b in RUNS])
def test_a_run_block_runs(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "sample.py"
    path.write_text(block.text, encoding="utf-8")
    runpy.run_path(str(path), run_name="__guide_sample__")


def test_a_broken_sample_fails_its_step(tmp_path):
    """The machinery above can fail: the guide's own end-to-end test catches a controller that ignores busy panes."""
    step = next(s for s in STEPS if "test_ask_hands_the_todo_to_the_idle_agent" in s.block.text)
    files = dict(step.files)
    files["todo_finder/app.py"] = files["todo_finder/app.py"].replace(
        "pane = idle_agent_pane(folder, context.pane, self.plugin.list_workspaces())",
        "pane = context.pane  # whatever has focus, busy or not")
    folder = build_plugin(Step(step.block, step.plugin, files), str(tmp_path))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=folder,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode != 0 and "test_a_busy_agent_is_never_typed_into" in run.stdout


def test_an_unmarked_block_is_caught(tmp_path):
    guide = tmp_path / "guide.md"
    guide.write_text("Text.\n\n```python\nprint('hello')\n```\n\n<!-- sample: run -->\n```python\nx = 1\n```\n")
    blocks = read_blocks(str(guide))
    assert [(b.line, b.kind) for b in blocks] == [(3, None), (8, "run")]


def test_the_guides_plugins_are_lint_and_type_clean_inside_a_checkout(tmp_path):
    """What a reader copies passes the same ruff and mypy runs as the plugins in plugins/."""
    last = {step.plugin: step for step in STEPS}
    os.symlink(os.path.join(REPO, "shared"), tmp_path / "shared")
    with open(os.path.join(REPO, "pyproject.toml"), encoding="utf-8") as source:
        (tmp_path / "pyproject.toml").write_text(source.read())
    folders = [build_plugin(step, str(tmp_path / "plugins")) for step in last.values()]
    bin_dir = os.path.dirname(sys.executable)
    ruff = subprocess.run([os.path.join(bin_dir, "ruff"), "check", "--extend-exclude", "_vendor", "plugins"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert ruff.returncode == 0, ruff.stdout + ruff.stderr
    for folder in folders:
        mypy = subprocess.run([os.path.join(bin_dir, "mypy"), "--config-file", "../../pyproject.toml", "--exclude",
                               "(^|/)_vendor/", "--no-incremental", "."], cwd=folder, capture_output=True, text=True)
        assert mypy.returncode == 0, folder + "\n" + mypy.stdout + mypy.stderr
