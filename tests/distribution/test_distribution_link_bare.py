"""`make link` into a fresh AGENTTY_HOME, then the linked folder run by a bare interpreter: the real first panel.

The checkout is a copy (so the real one's `_vendor/` is never touched); the wheels come from the
cache the real bundles filled, with pip told not to use an index, so nothing leaves the machine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World
from distribution_helpers import REPO, WHEEL_CACHE, clean_env


def copy_checkout(target):
    ignore = shutil.ignore_patterns("_vendor", "__pycache__", "*.pyc", "screenshot.png")
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy2(os.path.join(REPO, name), target / name)
    shutil.copytree(os.path.join(REPO, "shared", "agentty_plugin"), target / "shared" / "agentty_plugin", ignore=ignore)
    shutil.copytree(os.path.join(REPO, "plugins", "git-status"), target / "plugins" / "git-status", ignore=ignore)
    shutil.copytree(WHEEL_CACHE, target / "dist" / ".wheels")


def test_make_link_then_a_bare_python_draws_the_plugins_real_panel(real_bundles, tmp_path):
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    copy_checkout(checkout)
    # The venv exists already: a stamp newer than pyproject.toml stands in for `make venv`.
    stamp = tmp_path / "venv-ready"
    stamp.write_text("")
    home = tmp_path / "agentty-home"
    env = {**os.environ, "AGENTTY_HOME": str(home), "PIP_NO_INDEX": "1"}
    done = subprocess.run(["make", "--no-print-directory", "link", "PLUGIN=git-status", f"PY={sys.executable}",
                           f"STAMP={stamp}"], cwd=checkout, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "git-status linked from" in done.stdout
    state = json.loads((home / "plugins" / "state.json").read_text())
    linked = state["plugins"]["git-status"]["path"]
    assert os.path.realpath(linked) == os.path.realpath(checkout / "plugins" / "git-status")

    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "notes.txt").write_text("untracked\n")
    world = World(workspaces=[WorkspaceSpec(1, cwd=str(repo), panes=[PaneSpec(1, kind="shell", cwd=str(repo))])],
                  focused_pane=1)
    # -S: no site-packages, -E: no PYTHONPATH; only the standard library and what the folder carries.
    with PluginHost(linked, world=world, python=sys.executable, python_args=["-S", "-E"], env=clean_env(),
                    data_dir=str(tmp_path / "data")) as host:
        host.open_panel()
        tree = host.wait_for_text("notes.txt", timeout=30)
        assert not any("cannot run" in text for text in host.texts(tree))
        assert host.badge == "1"
        assert host.violations == []
