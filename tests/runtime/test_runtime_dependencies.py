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
def bundled_probe_with_a_broken_package(tmp_path):
    """The probe as a bundle: its runtime and a package in `_vendor/`, the package broken, and the
    pinned requirements where `make bundle` keeps them (`_vendor/requirements.txt`), none at the root."""
    folder = tmp_path / "plugins" / "probe"
    shutil.copytree(PROBE, folder, ignore=shutil.ignore_patterns("_vendor", "__pycache__"))
    vendor = folder / "_vendor"
    shutil.copytree(os.path.join(REPO, "shared", "agentty_plugin"), vendor / "agentty_plugin",
                    ignore=shutil.ignore_patterns("__pycache__"))
    broken = vendor / "probe_missing_package"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text('raise ImportError("probe_helpers is missing from this bundle")\n')
    (vendor / "requirements.txt").write_text("probe-missing-package==4.5.6\n"
                                             "probe-helpers==1.0  # via probe-missing-package\n")
    main = folder / "main.py"
    main.write_text("import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "
                    "'_vendor'))\n" + main.read_text())
    return str(folder)


def test_a_broken_bundle_names_the_pinned_package_it_carries(bundled_probe_with_a_broken_package, tmp_path):
    pane = PaneSpec(1, kind="shell", cwd=str(tmp_path))
    world = World(workspaces=[WorkspaceSpec(1, cwd=str(tmp_path), panes=[pane])], focused_pane=1)
    with PluginHost(bundled_probe_with_a_broken_package, world=world, data_dir=str(tmp_path / "data")) as host:
        host.open_panel()
        host.run_command("probe.needs")
        host.wait_for_text("cannot run: a Python package is missing", timeout=WAIT)
        crawl(host, action=lambda: host.run_command("probe.needs"))
        text = explanation(host)
        assert "ImportError: probe_helpers is missing from this bundle" in text
        # The real package and version from the bundle's pinned requirements, never the module's name.
        assert "pip install --user 'probe-missing-package==4.5.6'" in text
        assert "probe-helpers" not in text
        assert len([n for n in host.notifications if n[1] == "error"]) == 1
        assert host.badge == "!"
        assert len(host.stderr_lines) < STDERR_LINE_LIMIT, "\n".join(host.stderr_lines)
        assert host.violations == []


@pytest.mark.parametrize("plugin_id", ["git-status", "notes-search", "session-summarizer", "release-checklist"])
def test_a_bundle_without_its_runtime_still_answers_and_says_so(plugin_id, tmp_path):
    """`_vendor/agentty_plugin` gone: main.py's standard-library fallback answers the host with one line."""
    import json

    folder = tmp_path / plugin_id
    shutil.copytree(os.path.join(REPO, "plugins", plugin_id), folder,
                    ignore=shutil.ignore_patterns("_vendor", "__pycache__"))
    (folder / "_vendor").mkdir()  # a bundle whose runtime folder was lost; ../../shared is not there
    requests = [{"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {"apiVersion": 1, "language": "ja"}},
                {"jsonrpc": "2.0", "method": "panel/open", "params": {}},
                {"jsonrpc": "2.0", "id": 8, "method": "shutdown"}]
    done = subprocess.run([os.environ.get("PYTHON_FOR_PLUGINS", "python3"), "main.py"], cwd=folder,
                          input="\n".join(json.dumps(r) for r in requests) + "\n", capture_output=True, text=True,
                          timeout=60, env={**os.environ, "AGENTTY_LANGUAGE": "ja", "PYTHONPATH": ""})
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert {"jsonrpc": "2.0", "id": 7, "result": None} in lines and {"jsonrpc": "2.0", "id": 8, "result": None} in lines
    panels = [m for m in lines if m.get("method") == "ui/setPanel"]
    assert len(panels) == 1 and "バンドルは不完全" in panels[0]["params"]["tree"]["text"]
    assert "Traceback" not in done.stderr
