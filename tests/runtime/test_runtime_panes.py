"""Shared host policy: the idle agent pane for a folder, busy panes, folder containment, display paths."""

from __future__ import annotations

import os

from agentty_plugin import Pane, Workspace
from agentty_plugin.panes import busy_agent_panes, display_path, folder_contains, idle_agent_pane, pane_label


def pane(id, kind="claude", status="idle", cwd=None, title=None):
    return Pane(id=id, kind=kind, status=status, cwd=cwd, title=title, running=True)


def test_folder_contains_resolves_symlinks_and_never_matches_a_sibling_prefix(tmp_path):
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (tmp_path / "repo-other").mkdir()
    link = tmp_path / "via-link"
    link.symlink_to(repo)
    assert folder_contains(str(repo), str(repo / "src"))
    assert folder_contains(str(repo), str(link / "src"))
    assert not folder_contains(str(repo), str(tmp_path / "repo-other"))
    assert not folder_contains(str(repo), None) and not folder_contains(None, str(repo))


def test_the_focused_idle_agent_in_the_folder_comes_first_and_a_busy_one_never(tmp_path):
    repo, elsewhere = str(tmp_path / "repo"), str(tmp_path / "other")
    os.makedirs(repo)
    os.makedirs(elsewhere)
    focused = pane(1, status="working", cwd=repo)
    workspaces = [
        Workspace(id=1, cwd=elsewhere, panes=[pane(2, cwd=elsewhere), pane(3, kind="shell", cwd=repo)]),
        Workspace(id=2, cwd=repo, panes=[focused, pane(4, status="permission"), pane(5, kind="codex", status="idle"),
                                         pane(6, status="idle", cwd=repo)]),
    ]
    assert idle_agent_pane(repo, focused, workspaces).id == 5  # pane 5 works in its workspace's folder
    idle_focused = pane(7, kind="codex", cwd=repo)
    assert idle_agent_pane(repo, idle_focused, workspaces) is idle_focused
    assert idle_agent_pane(repo, None, workspaces, kinds=("shell",)).id == 3
    exited = [Workspace(id=3, panes=[pane(8, status="exited", cwd=elsewhere)])]
    assert idle_agent_pane(elsewhere, focused, exited) is None
    assert [p.id for p in busy_agent_panes(repo, workspaces)] == [1, 4]


def test_labels_and_home_relative_display(tmp_path):
    assert pane_label(pane(12, title="Claude Code")) == "Claude Code (pane 12)"
    assert pane_label(pane(3, kind="shell", title="shell")) == "shell (pane 3)"
    home = tmp_path / "home"
    (home / "code").mkdir(parents=True)
    assert display_path(str(home / "code"), home=str(home)) == os.path.join("~", "code")
    assert display_path(str(home), home=str(home)) == "~"
    assert display_path("/etc/hosts", home=str(home)) == "/etc/hosts"
