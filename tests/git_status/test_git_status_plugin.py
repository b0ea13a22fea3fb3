"""End to end: the plugin started as Agentty starts it, driven through the runtime's host harness."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest
from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World
from git_status_support import PLUGIN_DIR, commit_all, git, write


def items(tree: Dict[str, Any], list_id: str) -> List[str]:
    node = PluginHost.find(tree, list_id)
    return [entry["id"] for entry in node["items"]] if node else []


def world_for(*folders: Path, language: str = "en", status: str = "idle") -> World:
    workspaces = [
        WorkspaceSpec(id=n + 1, name=f"ws{n + 1}", cwd=str(folder),
                      panes=[PaneSpec(id=(n + 1) * 10 + 1, kind="claude", status=status, cwd=str(folder))])
        for n, folder in enumerate(folders)
    ]
    return World(workspaces=workspaces, focused_pane=11, language=language)


@pytest.fixture
def dirty(repo: Path) -> Path:
    write(repo / "README.md", "# demo\nunstaged line\n")
    write(repo / "src" / "app.py", "print('staged')\n")
    git(repo, "add", "src/app.py")
    write(repo / "todo.txt", "untracked\n")
    return repo


def start(world: World, tmp_path: Path) -> PluginHost:
    return PluginHost(str(PLUGIN_DIR), world=world, data_dir=str(tmp_path / "data"))


def test_panel_shows_groups_badge_and_never_changes_the_repo(dirty: Path, tmp_path: Path) -> None:
    index = dirty / ".git" / "index"
    before = (git(dirty, "--no-optional-locks", "status", "--porcelain=v2", "--branch"), index.stat().st_mtime_ns)
    with start(world_for(dirty), tmp_path) as host:
        host.open_panel()
        tree = host.wait_for_panel(lambda t: host.find(t, "files.changed") is not None)
        # The first panel is drawn before any git call: a toolbar and a spinner.
        first = host.panels[0]
        assert host.find(first, "toolbar.refresh") and any(n.get("type") == "spinner" for n in first["children"])
        assert items(tree, "files.staged") == ["src/app.py"]
        assert items(tree, "files.changed") == ["README.md"]
        assert items(tree, "files.untracked") == ["todo.txt"]
        assert "main" in host.texts(tree) and items(tree, "commits.recent")
        host.wait_for(lambda: host.badge == "3", what="badge 3")
        assert host.violations == []
        code, _ = host.shutdown()
        assert code == 0
    after = (git(dirty, "--no-optional-locks", "status", "--porcelain=v2", "--branch"), index.stat().st_mtime_ns)
    assert after == before


def test_follows_focus_between_repositories(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    write(other / "x.txt", "x\n")
    commit_all(other, "x")
    git(other, "checkout", "-q", "-b", "agent-work")
    with start(world_for(repo, other), tmp_path) as host:
        host.open_panel()
        host.wait_for_text("main")
        host.focus(21)
        host.wait_for_text("agent-work")
        host.focus(11)
        tree = host.wait_for_panel(lambda t: "main" in host.texts(t))
        assert "agent-work" not in host.texts(tree)
        assert host.violations == []


def test_refreshes_by_itself_when_the_repository_changes(repo: Path, tmp_path: Path) -> None:
    with start(world_for(repo), tmp_path) as host:
        host.open_panel()
        host.wait_for_text("Nothing to commit")
        git(repo, "checkout", "-q", "-b", "switched-by-agent")
        host.wait_for_text("switched-by-agent", timeout=10)
        write(repo / "fresh.txt", "new\n")
        tree = host.wait_for_panel(lambda t: items(t, "files.untracked") == ["fresh.txt"], timeout=10)
        assert tree and host.badge == "1"
        git(repo, "add", "fresh.txt")
        git(repo, "commit", "-q", "-m", "fresh")
        host.wait_for_text("Nothing to commit", timeout=10)
        host.wait_for(lambda: host.badge == "", what="badge cleared")
        assert host.violations == []


def test_review_goes_to_the_idle_agent_with_the_diff(dirty: Path, tmp_path: Path) -> None:
    with start(world_for(dirty), tmp_path) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: items(t, "files.changed") == ["README.md"])
        host.row_action("files.changed", "README.md", "review")
        call = host.wait_for_call("prompt/inject")
        assert call.params["target"] == "pane" and call.params["paneId"] == 11
        assert "+unstaged line" in call.params["text"] and "README.md" in call.params["text"]
        pane = host.world.pane(11)
        host.wait_for(lambda: pane.typed, what="typed prompt")
        assert host.violations == []


def test_busy_agent_is_never_typed_into(dirty: Path, tmp_path: Path) -> None:
    with start(world_for(dirty, status="working"), tmp_path) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: items(t, "files.staged") == ["src/app.py"])
        host.click("handoff.commit-message")
        call = host.wait_for_call("prompt/inject")
        # A new tab opened in this repository, with the same kind of agent as the busy one.
        assert (call.params["target"], call.params["cwd"], call.params["agent"]) == ("newTab", str(dirty), "claude")
        assert "print('staged')" in call.params["text"] and "unstaged line" not in call.params["text"]
        host.wait_for_text("is busy, so it was not interrupted")
        assert host.world.pane(11).typed == [] and host.violations == []


def test_explain_branch_and_summarize_commit(repo: Path, tmp_path: Path) -> None:
    git(repo, "checkout", "-q", "-b", "topic")
    write(repo / "topic.txt", "topic work\n")
    commit_all(repo, "add topic work")
    sha = git(repo, "rev-parse", "HEAD").strip()
    with start(world_for(repo), tmp_path) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: sha in items(t, "commits.recent"))
        host.click("handoff.explain-branch")
        explain = host.wait_for_call("prompt/inject")
        assert "compared with main" in explain.params["text"] and "+topic work" in explain.params["text"]
        count = len(host.calls)
        host.row_action("commits.recent", sha, "summarize")
        summary = host.wait_for_call("prompt/inject", after=count)
        assert sha[:7] in summary.params["text"] and "add topic work" in summary.params["text"]
        assert host.violations == []


def test_reveal_a_file_and_a_deleted_file(dirty: Path, tmp_path: Path) -> None:
    (dirty / "src" / "app.py").unlink()
    git(dirty, "rm", "-q", "--cached", "src/app.py")
    with start(world_for(dirty), tmp_path) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: "src/app.py" in items(t, "files.staged"))
        host.row_action("files.changed", "README.md", "reveal")
        host.wait_for_call("host/revealPath", lambda c: c.params["path"] == str(dirty / "README.md"))
        count = len(host.calls)
        host.row_action("files.staged", "src/app.py", "reveal")
        host.wait_for_call("host/revealPath", lambda c: c.params["path"] == str(dirty / "src"), after=count)
        assert host.violations == []


def test_workspaces_overview_and_pinning(dirty: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    write(other / "x.txt", "x\n")
    commit_all(other, "x")
    git(other, "checkout", "-q", "-b", "feature-b")
    plain = tmp_path / "plain"
    plain.mkdir()
    with start(world_for(dirty, other, plain), tmp_path) as host:
        host.open_panel()
        host.wait_for_text("main")
        host.choose("toolbar.view", "workspaces")
        tree = host.wait_for_panel(lambda t: items(t, "workspaces.list") == ["1", "2", "3"])
        text = " ".join(host.texts(tree))
        assert "3 changed" in text and "feature-b · clean" in text and "not inside a git repository" in text
        host.select("workspaces.list", "2")
        tree = host.wait_for_panel(lambda t: host.find(t, "toolbar.follow") and "feature-b" in host.texts(t))
        assert "Showing workspace ws2" in host.texts(tree)
        host.click("toolbar.follow")
        host.wait_for_panel(lambda t: host.find(t, "toolbar.follow") is None and "main" in host.texts(t))
        assert host.violations == []


def test_not_a_repository_in_each_language(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    plain = tmp_path / "plain"
    plain.mkdir()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    with start(world_for(plain, language="ko"), tmp_path) as host:
        host.open_panel()
        tree = host.wait_for_text("git 저장소 안에 있지 않습니다")
        assert host.find(tree, "toolbar.refresh") and host.badge == ""
        for language, expected in (("ja", "git リポジトリの中ではありません"), ("zh", "不在 git 仓库中"),
                                   ("en", "is not inside a git repository")):
            host.set_language(language)
            host.wait_for_text(expected)
        assert host.violations == []


def test_repository_deleted_while_shown(repo: Path, tmp_path: Path) -> None:
    write(repo / "x.txt", "x\n")
    with start(world_for(repo), tmp_path) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: items(t, "files.untracked") == ["x.txt"])
        subprocess.run(["rm", "-rf", str(repo)], check=True)
        host.click("toolbar.refresh")
        host.wait_for_text("no longer exists")
        host.wait_for(lambda: host.badge == "", what="badge cleared")
        assert host.violations == [] and host.process is not None and host.process.poll() is None


def test_huge_change_lists_stay_within_host_limits(repo: Path, tmp_path: Path) -> None:
    for n in range(1500):
        (repo / f"new{n:04}.txt").write_text("x\n")
    for n in range(300):
        write(repo / "src" / f"m{n}.py", "x\n")
    git(repo, "add", "src")
    with start(world_for(repo), tmp_path) as host:
        host.open_panel()
        tree = host.wait_for_text("and 1440 more", timeout=20)
        assert len(items(tree, "files.untracked")) == 60 and "and 240 more" in host.texts(tree)
        host.wait_for(lambda: host.badge == "1800", what="badge 1800")
        assert host.violations == []


def test_first_panel_does_not_wait_for_git(repo: Path, tmp_path: Path) -> None:
    # Every git call blocks until the gate file exists: the first panel must come anyway, showing
    # that the repository is being read, and the real status once git may answer.
    gate = tmp_path / "git-may-run"
    gated = write(tmp_path / "gated-git", f'#!/bin/sh\nwhile [ ! -e "{gate}" ]; do sleep 0.01; done\n'
                                          f'exec "{shutil.which("git")}" "$@"\n')
    gated.chmod(0o755)
    with PluginHost(str(PLUGIN_DIR), world=world_for(repo), data_dir=str(tmp_path / "data"),
                    env={"GIT_PYTHON_GIT_EXECUTABLE": str(gated)}) as host:
        host.open_panel()
        first = host.wait_for_panel(timeout=60)
        assert not any("Nothing to commit" in text for text in host.texts(first))
        assert any("Reading" in text for text in host.texts(first)), host.texts(first)
        gate.write_text("")
        host.wait_for_text("Nothing to commit", timeout=60)
        assert host.violations == []


def test_commands_work_without_the_panel(dirty: Path, repo: Path, tmp_path: Path) -> None:
    with start(world_for(dirty), tmp_path) as host:
        host.run_command("git-status.refresh")
        host.wait_for(lambda: host.badge == "3", what="badge 3")
        host.run_command("git-status.commit-message")
        call = host.wait_for_call("prompt/inject")
        assert call.params["paneId"] == 11 and "print('staged')" in call.params["text"]
        host.run_command("git-status.open")
        host.wait_for_call("ui/showPanel")
        assert host.violations == []


def test_nothing_staged_is_said_clearly(repo: Path, tmp_path: Path) -> None:
    with start(world_for(repo, language="ja"), tmp_path) as host:
        host.run_command("git-status.commit-message")
        host.wait_for(lambda: any("ステージされていません" in m for m, _ in host.notifications), what="notice")
        assert host.calls_of("prompt/inject") == [] and host.violations == []


def test_badge_appears_before_the_panel_is_opened(dirty: Path, tmp_path: Path) -> None:
    with start(world_for(dirty), tmp_path) as host:
        host.wait_for(lambda: host.badge == "3", timeout=10, what="badge 3 without a panel")
        assert host.panels == [] and host.violations == []


def test_refreshes_when_the_focused_agent_stops_working(repo: Path, tmp_path: Path) -> None:
    with start(world_for(repo), tmp_path) as host:
        host.open_panel()
        host.wait_for_text("Nothing to commit")
        host.set_pane_status(11, "working")
        # An edit inside an existing file changes no git metadata; the agent stopping is the cue.
        write(repo / "README.md", "# edited by the agent\n")
        host.set_pane_status(11, "idle")
        host.wait_for_panel(lambda t: items(t, "files.changed") == ["README.md"], timeout=60)
        assert host.violations == []


def test_missing_git_binary_is_a_clear_state(repo: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    host = PluginHost(str(PLUGIN_DIR), world=world_for(repo, language="zh"), data_dir=str(tmp_path / "data"),
                      env={"PATH": str(empty)})
    with host:
        host.open_panel()
        host.wait_for_text("未安装 git")
        assert host.badge == "" and host.violations == []


def test_safe_directory_refusal_is_explained(repo: Path, tmp_path: Path) -> None:
    host = PluginHost(str(PLUGIN_DIR), world=world_for(repo), data_dir=str(tmp_path / "data"),
                      env={"GIT_TEST_ASSUME_DIFFERENT_OWNER": "1"})  # git's switch: "owned by someone else"
    with host:
        host.open_panel()
        tree = host.wait_for_text("safe.directory")
        assert any("Git refused to read" in text for text in host.texts(tree)) and host.violations == []


def test_double_click_sends_one_prompt(dirty: Path, tmp_path: Path) -> None:
    with start(world_for(dirty), tmp_path) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: items(t, "files.staged") == ["src/app.py"])
        host.click("handoff.commit-message")
        host.click("handoff.commit-message")
        host.wait_for_call("prompt/inject")
        host.wait_idle(quiet=0.5)
        assert len(host.calls_of("prompt/inject")) == 1 and host.violations == []
