"""Every plugin's automatic git paths, driven through the harness, in trapped repositories: no marker appears.

The traps (tests/git_traps.py) reach the repository's config through its own file, `[include]`,
`[includeIf "gitdir:…"]` and a worktree config, with a committed `.gitattributes` and a changed
file; a control run of plain git on each repository proves the traps are live.
"""

from __future__ import annotations

import os

import pytest
from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World
from git_traps import ROUTES, fired, make_trapped_repository, plain_git_fires, use_isolated_git

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WAIT = 60  # a bound for an event on a loaded machine, not a speed target


def plugin(name: str) -> str:
    return os.path.join(REPO, "plugins", name)


@pytest.fixture
def trapped(tmp_path, monkeypatch):
    """(repository, markers) for each route, with HOME and the git environment of the test's own."""
    env = use_isolated_git(monkeypatch, tmp_path / "home")
    found = []
    for route in ROUTES:
        markers = tmp_path / f"markers-{route}"
        markers.mkdir()
        repo = make_trapped_repository(tmp_path / f"work-{route}", route, env, markers)  # a trap program each
        assert plain_git_fires(repo, env, markers), f"the {route} traps are not live"
        found.append((repo, markers))
    return found


def world_in(repo, language: str = "en") -> World:
    session = {"sessionId": "s-1", "title": "Fix the greeting",
               "turns": [{"role": "user", "text": "Change the greeting in app.py to say two."},
                         {"role": "assistant", "text": "I edited app.py so it prints 'two'. Tests pass."}]}
    return World(workspaces=[WorkspaceSpec(1, name="work", cwd=str(repo), panes=[
        PaneSpec(1, kind="claude", status="idle", cwd=str(repo), title="Claude Code", session=session)])],
        focused_pane=1, language=language)


def test_git_status_runs_nothing_a_repository_names(trapped, tmp_path):
    for repo, markers in trapped:
        with PluginHost(plugin("git-status"), world=world_in(repo), data_dir=str(tmp_path / "gs")) as host:
            host.open_panel()
            host.wait_for_text("app.py", timeout=WAIT)
            host.run_command("git-status.refresh")
            host.wait_idle(timeout=WAIT)
        assert fired(markers) == [], repo


def test_session_summarizer_runs_nothing_a_repository_names(trapped, tmp_path):
    for repo, markers in trapped:
        with PluginHost(plugin("session-summarizer"), world=world_in(repo), data_dir=str(tmp_path / "ss")) as host:
            host.open_panel()
            host.wait_for_panel(lambda tree: host.find(tree, "session.summarize") is not None, timeout=WAIT)
            host.click("session.summarize")
            host.wait_for_text("app.py", timeout=WAIT)  # the summary names the file git was asked about
            host.wait_idle(timeout=WAIT)
        assert fired(markers) == [], repo


def _push_step(host):
    steps = host.find(host.panel, "release.steps")
    assert steps is not None, host.texts(host.panel)
    for item in steps.get("items", []):
        typed = any(action.get("id") == "type" for action in item.get("actions", []))
        if typed and "push" in str(item.get("title", "")).lower():
            return item["id"]
    raise AssertionError(f"no push step to preview: {host.texts(host.panel)}")


def test_release_checklist_runs_nothing_a_repository_names(trapped, tmp_path):
    for repo, markers in trapped:
        with PluginHost(plugin("release-checklist"), world=world_in(repo), data_dir=str(tmp_path / "rc")) as host:
            host.open_panel()
            host.wait_for_panel(lambda tree: host.find(tree, "release.steps") is not None, timeout=WAIT)
            # The push preview reads the working tree (status) and the remote's refs.
            host.row_action("release.steps", _push_step(host), "type")
            host.wait_for_text("uncommitted change", timeout=WAIT)
            host.click("release.refresh")
            host.wait_for_panel(lambda tree: host.find(tree, "release.steps") is not None, timeout=WAIT)
            host.wait_idle(timeout=WAIT)
        assert fired(markers) == [], repo


def test_notes_search_runs_nothing_a_repository_names(trapped, tmp_path):
    for repo, markers in trapped:
        notes = tmp_path / "notes"
        notes.mkdir(exist_ok=True)
        (notes / "work.md").write_text("# work\nabout the greeting\n")
        env = {"NOTES_SEARCH_ROOTS": str(notes)}
        with PluginHost(plugin("notes-search"), world=world_in(repo), data_dir=str(tmp_path / "ns"), env=env) as host:
            host.open_panel()
            host.wait_idle(timeout=WAIT)
        assert fired(markers) == [], repo
