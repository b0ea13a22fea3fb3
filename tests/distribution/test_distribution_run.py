"""End to end: a bundle copied outside the repository runs under interpreters that cannot see the project's packages.

Each bundle runs through the host harness with `python -S` (no site-packages) on the project's Python
and on the oldest and newest CPython 3.9+ found under pyenv: the panel is drawn and a real action works.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from agentty_plugin.distribution.bundle import VENDOR
from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World
from agentty_plugin.world import INVALID_PANEL, NOT_JSON_RPC
from distribution_helpers import clean_env, interpreters, real_plugin_folders

INTERPRETERS = interpreters()


def _copy_outside(bundle_folder, tmp_path):
    target = tmp_path / "elsewhere" / "plugins" / os.path.basename(bundle_folder)
    shutil.copytree(bundle_folder, target)
    return str(target)


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_a_bare_interpreter_cannot_import_the_runtime_on_its_own(interpreter, tmp_path):
    python, args = interpreter
    result = subprocess.run([python, *args, "-c", "import agentty_plugin"], cwd=str(tmp_path), capture_output=True,
                            text=True, env={**os.environ, **clean_env()})
    assert result.returncode != 0 and "ModuleNotFoundError" in result.stderr


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_probe_bundle_runs_with_only_what_it_carries(interpreter, probe_bundle, tmp_path):
    python, args = interpreter
    folder = _copy_outside(probe_bundle.folder, tmp_path)
    with PluginHost(folder, python=python, python_args=args, env=clean_env(), data_dir=str(tmp_path / "data")) as host:
        host.open_panel()
        tree = host.wait_for_panel(lambda t: host.find(t, "probe.greet") is not None, timeout=15)
        texts = " ".join(host.texts(tree))
        assert f"runtime {os.path.join(folder, VENDOR, 'agentty_plugin')}" in texts
        version = texts.split("python ", 1)[1].split()[0]
        host.click("probe.greet")
        tree = host.wait_for_text("hello agentty via", timeout=15)
        greeting = " ".join(host.texts(tree))
        # On 3.9/3.10 tinydep needs the backport that only a marker asked for; newer Pythons do without.
        expected = "backport" if tuple(int(n) for n in version.split(".")[:2]) < (3, 11) else "native"
        assert f"via {expected} (from {os.path.join(folder, VENDOR, 'tinydep')}" in greeting
        assert host.violations == []
        code, _seconds = host.shutdown()
    assert code == 0
    assert "Traceback" not in host.stderr_text()


REAL_PLUGINS = [os.path.basename(p) for p in real_plugin_folders()]


def _world(tmp_path):
    project = tmp_path / "project"
    (project / "notes").mkdir(parents=True)
    (project / "notes" / "welcome.md").write_text("# Welcome\n\nA note about bundles.\n", encoding="utf-8")
    git = ["git", "-C", str(project), "-c", "user.name=Test", "-c", "user.email=test@example.com"]
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "first"], check=True)
    (project / "changed.txt").write_text("not committed\n")
    pane = PaneSpec(id=11, kind="claude", status="idle", cwd=str(project), session={
        "sessionId": "s1", "title": "bundle test", "turns": [{"role": "user", "text": "Please bundle the plugin."},
                                                            {"role": "assistant", "text": "Done: wrote bundle.py."}]})
    return World(workspaces=[WorkspaceSpec(id=1, name="project", cwd=str(project), panes=[pane])], focused_pane=11)


def _search_notes_with_whoosh(host, project):
    host.type("folders.path", str(project / "notes"))
    host.click("folders.add")
    host.wait_for_text("1 note · ", timeout=20)
    host.choose("settings.engine", "whoosh")  # the vendored search library, not the stdlib sqlite engine
    host.wait_for_text("1 note · whoosh", timeout=20)  # indexed again with whoosh before we search
    host.wait_idle(quiet=0.5, timeout=15)
    host.type("search.query", "bundles")
    return ["Welcome", "whoosh"]


# One real action per plugin, using what the plugin vendors where it has something, and the text it must show.
ACTIONS = {
    "notes-search": _search_notes_with_whoosh,
    "git-status": lambda host, project: host.run_command("git-status.refresh") or ["changed.txt", "first"],
    "session-summarizer": lambda host, project: host.run_command("session-summarizer.summarize")
    or ["Please bundle the plugin."],
    "release-checklist": lambda host, project: host.run_command("release-checklist.run-checks")
    or ["changed.txt"],
}


# Real plugins on the oldest and newest CPython only (the probe above covers the venv's Python too).
@pytest.mark.parametrize("interpreter", interpreters(with_venv=False))
@pytest.mark.parametrize("plugin", REAL_PLUGINS)
def test_each_plugin_bundle_draws_its_panel_and_runs_a_command(plugin, interpreter, real_bundles, tmp_path):
    python, args = interpreter
    bundle = real_bundles[plugin]
    folder = _copy_outside(bundle.folder, tmp_path)
    # Every vendored package imports under this interpreter with nothing but the bundle on the path.
    vendor = os.path.join(folder, VENDOR)
    modules = sorted({name[:-3] if name.endswith(".py") else name for name in os.listdir(vendor)
                      if not name.endswith((".dist-info", ".txt"))})
    script = f"import sys; sys.path.insert(0, {vendor!r}); " + "; ".join(f"import {m}" for m in modules)
    result = subprocess.run([python, *args, "-c", script], capture_output=True, text=True,
                            env={**os.environ, **clean_env()}, cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    with PluginHost(folder, world=_world(tmp_path), python=python, python_args=args, env=clean_env(),
                    data_dir=str(tmp_path / "data")) as host:
        host.open_panel()
        host.wait_for_panel(timeout=20)
        host.wait_idle(quiet=0.3, timeout=20)
        action = ACTIONS.get(plugin)
        if action is None:  # a plugin this test does not know yet: its first command must at least run cleanly
            host.run_command(host.manifest.commands[0].id)
            expected = []
        else:
            expected = action(host, tmp_path / "project")
        for text in expected:
            host.wait_for_panel(lambda tree, text=text: any(text in t for t in host.texts(tree)), timeout=20)
        host.wait_idle(quiet=0.3, timeout=20)
        assert host.process is not None and host.process.poll() is None, host.stderr_text()
        assert not [v for v in host.violations if v.code in (NOT_JSON_RPC, INVALID_PANEL)], host.violations
        code, _seconds = host.shutdown()
    assert code == 0
    assert "Traceback" not in host.stderr_text(), host.stderr_text()
