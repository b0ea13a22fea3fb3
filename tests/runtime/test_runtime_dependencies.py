"""A package that fails to import is a clear state: the panel says what is missing and how to fix it, once."""

from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest
from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World
from runtime_helpers import PROBE

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CRAWL_SECONDS = 3.0
# Waits are bounds for an event, not speed targets: the crawl queues a hundred messages, which a
# loaded 2-core machine may take a while to work through before the next one is answered.
WAIT = 60
STDERR_LINE_LIMIT = 40  # one traceback and a few lines; Agentty stops a plugin at 240 lines a second


def crawl(host, seconds=CRAWL_SECONDS, action=None):
    """What a user clicking around a stuck panel does: reopen it, run its command, again and again.

    Real time on purpose: the limit is on how much the plugin writes *over a span of time*, whatever
    the loop does within it; a slower machine only sends fewer events, which makes the bound easier.
    """
    ended = time.monotonic() + seconds
    while time.monotonic() < ended:
        host.open_panel()
        if action is not None:
            action()
        host.wait_for(lambda: True, 0.05)


def explanation(host):
    return " ".join(host.texts(host.panel)) if host.panel else ""


def test_a_handler_that_imports_a_missing_package_shows_the_fix_once(host):
    host.run_command("probe.needs")
    host.wait_for_text("cannot run: a Python package is missing", timeout=WAIT)
    crawl(host, action=lambda: host.run_command("probe.needs"))
    text = explanation(host)
    assert "“probe_missing_package”" in text and "No module named 'probe_missing_package'" in text
    assert "make link PLUGIN=probe" in text and "Restart" in text
    host.run_command("probe.hello", "later")  # the plugin's own panels stay replaced until a restart
    host.wait_for(lambda: any(n[0] == "hello later" for n in host.notifications), WAIT)
    assert "cannot run" in explanation(host)
    missing = [n for n in host.notifications if "probe_missing_package" in n[0]]
    assert missing == [("Runtime Probe: the Python package “probe_missing_package” is missing. "
                        "Open the panel for how to fix it.", "error")]
    assert host.badge == "!"
    assert len(host.stderr_lines) < STDERR_LINE_LIMIT
    assert sum("Traceback" in line for line in host.stderr_lines) == 1
    assert host.violations == []


def test_the_explanation_is_in_the_users_language(world, tmp_path):
    world.language = "ja"
    with PluginHost(PROBE, world=world, data_dir=str(tmp_path / "data")) as host:
        host.open_panel()
        host.run_command("probe.needs")
        host.wait_for_text("Python パッケージが見つかりません", timeout=WAIT)


@pytest.fixture
def git_status_without_git(tmp_path):
    """git-status as a bundle that lost its GitPython: `_vendor/git` is there but cannot be imported."""
    folder = tmp_path / "plugins" / "git-status"
    shutil.copytree(os.path.join(REPO, "plugins", "git-status"), folder,
                    ignore=shutil.ignore_patterns("_vendor", "__pycache__"))
    broken = folder / "_vendor" / "git"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text('raise ImportError("gitdb is missing from this bundle")\n')
    return str(folder)


def test_git_status_with_a_broken_bundle_says_so_instead_of_loading_forever(git_status_without_git, tmp_path):
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "file.txt").write_text("changed\n")
    world = World(workspaces=[WorkspaceSpec(1, cwd=str(repo), panes=[PaneSpec(1, kind="shell", cwd=str(repo))])],
                  focused_pane=1)
    with PluginHost(git_status_without_git, world=world, data_dir=str(tmp_path / "data")) as host:
        host.open_panel()
        host.wait_for_text("cannot run: a Python package is missing", timeout=WAIT)
        crawl(host)
        text = explanation(host)
        assert "Importing “git” failed: ImportError: gitdb is missing from this bundle" in text
        assert "make bundle PLUGIN=git-status" in text and "GitPython==" in text
        assert len([n for n in host.notifications if n[1] == "error"]) == 1
        assert host.badge == "!"
        assert len(host.stderr_lines) < STDERR_LINE_LIMIT, "\n".join(host.stderr_lines)
        assert host.violations == []
