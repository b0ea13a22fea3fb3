"""Worktrees, collisions, agent tags and hand-off targets end to end: the plugin process in the host harness."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Dict, Optional

from agentty_plugin.testing import HostCall, PaneSpec, PluginHost, WorkspaceSpec, World
from git_status_support import PLUGIN_DIR, write

SHARED_DIR = PLUGIN_DIR.parent.parent / "shared"


def claude_session(*texts: str) -> Dict[str, Any]:
    return {"sessionId": "s", "turns": [{"role": "user", "text": "go"}] + [{"role": "assistant", "text": t}
                                                                          for t in texts]}


def team_world(paths: Dict[str, Path], focused: int = 12, b_status: str = "working") -> World:
    """Pane 12: Claude, idle, in feature-a, says it updated src/app.py. Pane 13: Codex in feature-b
    (busy by default), whose patch touched src/app.py. Pane 14: Claude, idle, in clean-c, mentions
    a file outside the repository. Pane 15: a shell in main."""
    a, b, c = paths["feature-a"], paths["feature-b"], paths["clean-c"]
    panes = [
        PaneSpec(id=12, kind="claude", status="idle", cwd=str(a),
                 session=claude_session("I'll change the greeting.\n⏺ Update(src/app.py)\n  ⎿ Updated 1 line")),
        PaneSpec(id=13, kind="codex", status=b_status, cwd=str(b / "src"),
                 session=claude_session(f"*** Begin Patch\n*** Update File: {b / 'src' / 'app.py'}\n*** End Patch",
                                        "Edited ../docs.md")),
        PaneSpec(id=14, kind="claude", status="idle", cwd=str(c),
                 session=claude_session("Edited /etc/hosts and ~/notes/todo.md for you")),
        PaneSpec(id=15, kind="shell", status="idle", cwd=str(paths["main"])),
    ]
    return World(workspaces=[WorkspaceSpec(id=1, name="agents", cwd=str(paths["main"]), panes=panes)],
                 focused_pane=focused)


def start(world: World, tmp_path: Path, plugin_dir: Path = PLUGIN_DIR, **env: str) -> PluginHost:
    return PluginHost(str(plugin_dir), world=world, data_dir=str(tmp_path / "data"),
                      env={"GIT_STATUS_REOPEN_WAIT_MS": "10000", **env})


def row(tree: Dict[str, Any], list_id: str, item: str) -> Optional[Dict[str, Any]]:
    node = PluginHost.find(tree, list_id)
    return next((entry for entry in node["items"] if entry["id"] == item), None) if node else None


def subtitle(tree: Dict[str, Any], list_id: str, item: str) -> str:
    found = row(tree, list_id, item)
    return str(found.get("subtitle", "")) if found else ""


def test_worktrees_collisions_tags_and_targets(team_repo: Dict[str, Path], tmp_path: Path) -> None:
    a, b = team_repo["feature-a"], team_repo["feature-b"]
    with start(team_world(team_repo), tmp_path) as host:
        host.open_panel()
        # The focused worktree (feature-a): its changed file is flagged and tagged.
        tree = host.wait_for_panel(lambda t: "edited by" in subtitle(t, "files.changed", "src/app.py"))
        note = subtitle(tree, "files.changed", "src/app.py")
        assert "⚠ also changed in feature-b" in note and "edited by Claude · pane 12?" in note
        assert "Codex" not in note  # pane 13 edited feature-b's copy, not this one
        assert any("is a hint" in text for text in host.texts(tree))
        host.wait_for(lambda: host.badge == "1 ⚠1", what="badge with the collision count")

        host.choose("toolbar.view", "worktrees")
        tree = host.wait_for_panel(lambda t: host.find(t, "worktrees.list") is not None)
        listed = [entry["id"] for entry in host.find(tree, "worktrees.list")["items"]]  # type: ignore[index]
        assert listed == [str(team_repo[n]) for n in ("main", "feature-a", "feature-b", "clean-c", "gone-d")]
        assert "main worktree" in subtitle(tree, "worktrees.list", str(team_repo["main"]))
        assert "Shell · pane 15 (idle)" in subtitle(tree, "worktrees.list", str(team_repo["main"]))
        a_row = subtitle(tree, "worktrees.list", str(a))
        assert "1 changed" in a_row and "⚠ 1 also changed elsewhere" in a_row and "Claude · pane 12 (idle)" in a_row
        b_row = subtitle(tree, "worktrees.list", str(b))
        assert "+1 −0 vs main" in b_row and "Codex · pane 13 (working)" in b_row and "⚠ 1" in b_row
        assert "clean" in subtitle(tree, "worktrees.list", str(team_repo["clean-c"]))
        assert "folder missing" in subtitle(tree, "worktrees.list", str(team_repo["gone-d"]))
        assert "feature-a, feature-b" in subtitle(tree, "collisions.all", "src/app.py")

        # Selecting feature-b shows its status; its committed-only collision gets its own section.
        host.select("worktrees.list", str(b))
        tree = host.wait_for_panel(lambda t: "edited by" in subtitle(t, "files.changed", "docs.md")
                                   and row(t, "collisions.list", "src/app.py") is not None)
        assert "Showing worktree feature-b" in host.texts(tree)
        assert "edited by Codex · pane 13?" in subtitle(tree, "files.changed", "docs.md")
        assert "also changed in feature-a" in subtitle(tree, "collisions.list", "src/app.py")

        # Its only agent is busy: the review goes to a new Codex tab there, never into pane 13.
        host.row_action("files.changed", "docs.md", "review")
        call = host.wait_for_call("prompt/inject")
        assert (call.params["target"], call.params["cwd"], call.params["agent"]) == ("newTab", str(b), "codex")
        assert "docs, edited by b" in call.params["text"]
        host.wait_for_text("The agent in feature-b is busy")
        assert host.world.pane(13).typed == []

        # Back to feature-a: the idle Claude there gets the commit-message request... once staged.
        host.click("toolbar.follow")
        host.wait_for_panel(lambda t: host.find(t, "toolbar.follow") is None and row(t, "files.changed", "src/app.py"))
        count = len(host.calls)
        host.row_action("files.changed", "src/app.py", "review")
        call = host.wait_for_call("prompt/inject", after=count)
        assert (call.params["target"], call.params["paneId"]) == ("pane", 12)
        assert host.world.pane(14).typed == [] and host.world.pane(15).typed == []
        assert host.violations == []


def test_a_busy_pane_is_never_chosen_even_when_focused(team_repo: Dict[str, Path], tmp_path: Path) -> None:
    with start(team_world(team_repo, focused=13, b_status="permission"), tmp_path) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: row(t, "files.changed", "docs.md") is not None)
        host.row_action("files.changed", "docs.md", "review")
        call = host.wait_for_call("prompt/inject")
        assert call.params["target"] == "newTab" and call.params["cwd"] == str(team_repo["feature-b"])
        assert host.world.pane(13).typed == [] and host.violations == []


def test_resolve_a_conflict_goes_to_the_idle_agent_of_that_worktree(team_repo: Dict[str, Path],
                                                                    tmp_path: Path) -> None:
    from git_status_support import commit_all, git

    a = team_repo["feature-a"]
    commit_all(a, "agent a: greet")
    git(a, "merge", "feature-b", check=False)  # both changed src/app.py: a conflict
    with start(team_world(team_repo), tmp_path) as host:
        host.open_panel()
        tree = host.wait_for_panel(lambda t: row(t, "files.conflicted", "src/app.py") is not None)
        actions = [x["id"] for x in row(tree, "files.conflicted", "src/app.py")["actions"]]  # type: ignore[index]
        assert "resolve" in actions
        host.row_action("files.conflicted", "src/app.py", "resolve")
        call = host.wait_for_call("prompt/inject")
        assert (call.params["target"], call.params["paneId"]) == ("pane", 12)
        text = call.params["text"]
        assert "Resolve the merge conflict in `src/app.py`" in text and "a merge is in progress" in text
        assert "agent b" in text and host.violations == []


class SilentSessions(PluginHost):
    """A host that never answers `silent` methods (a stuck Agentty), everything else as usual."""

    silent = ("session/get",)

    def _handle(self, message: Dict[str, Any], arrived: float) -> None:
        if message.get("method") in self.silent:
            with self._changed:
                self.calls.append(HostCall(str(message["method"]), message.get("params") or {}, at=arrived))
                self._changed.notify_all()
            return
        super()._handle(message, arrived)


def test_session_get_timing_out_shows_a_hint_and_never_hangs(team_repo: Dict[str, Path], tmp_path: Path) -> None:
    host = SilentSessions(str(PLUGIN_DIR), world=team_world(team_repo), data_dir=str(tmp_path / "data"))
    with host:
        host.open_panel()
        tree = host.wait_for_text("did not hand over an agent's session in time")
        note = subtitle(tree, "files.changed", "src/app.py")
        assert "⚠ also changed in feature-b" in note and "edited by" not in note  # collisions still shown
        host.choose("toolbar.view", "worktrees")
        tree = host.wait_for_panel(lambda t: host.find(t, "worktrees.list") is not None)
        assert "did not hand over" in " ".join(host.texts(tree)) and host.violations == []


class SilentWorkspaces(SilentSessions):
    silent = ("workspace/list",)


def test_workspace_list_never_answered_still_lists_worktrees(team_repo: Dict[str, Path], tmp_path: Path) -> None:
    host = SilentWorkspaces(str(PLUGIN_DIR), world=team_world(team_repo), data_dir=str(tmp_path / "data"))
    with host:
        host.open_panel()
        host.wait_for_panel(lambda t: row(t, "files.changed", "src/app.py") is not None)
        host.choose("toolbar.view", "worktrees")
        tree = host.wait_for_text("did not list its panes")
        assert "⚠ 1 also changed elsewhere" in subtitle(tree, "worktrees.list", str(team_repo["feature-a"]))
        assert host.calls_of("session/get") == [] and host.violations == []


def test_session_get_refused_is_said_once_and_not_asked_again(team_repo: Dict[str, Path], tmp_path: Path) -> None:
    # The same plugin, installed without session.read: Agentty refuses session/get.
    copy = tmp_path / "installed" / "git-status"
    shutil.copytree(PLUGIN_DIR, copy, ignore=shutil.ignore_patterns("__pycache__", "_vendor"))
    manifest = copy / "agentty-plugin.json"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(', "session.read"', ""), encoding="utf-8")
    with start(team_world(team_repo), tmp_path, copy, PYTHONPATH=str(SHARED_DIR)) as host:
        host.open_panel()
        tree = host.wait_for_text("needs permission to read agent sessions")
        assert "edited by" not in subtitle(tree, "files.changed", "src/app.py")
        asked = len(host.calls_of("session/get"))
        host.click("toolbar.refresh")
        host.wait_for(lambda: len(host.calls_of("workspace/list")) >= 2, what="a second read")
        host.wait_idle(quiet=0.3)
        assert len(host.calls_of("session/get")) == asked  # not asked again after the refusal
        assert set(host.violations) == {"called session/get without the session.read permission"}


def test_reopen_draws_the_fresh_status_first(team_repo: Dict[str, Path], tmp_path: Path) -> None:
    with start(team_world(team_repo), tmp_path) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: row(t, "files.changed", "src/app.py") is not None)
        host.wait_idle(quiet=0.3)
        host.close_panel()
        write(team_repo["feature-a"] / "while-closed.txt", "new\n")
        before = len(host.panels)
        host.open_panel()
        host.wait_for_panel(lambda t: row(t, "files.untracked", "while-closed.txt") is not None, after=before)
        # The first panel after reopening is the fresh one: no stale redraw took the pacing slot.
        assert row(host.panels[before], "files.untracked", "while-closed.txt") is not None
        assert host.violations == []



def test_a_collision_leads_to_the_worktree_and_the_file(team_repo: Dict[str, Path], tmp_path: Path) -> None:
    with start(team_world(team_repo, focused=15), tmp_path) as host:  # focus on the main worktree's shell
        host.open_panel()
        host.wait_for_text("Nothing to commit")
        host.choose("toolbar.view", "worktrees")
        host.wait_for_panel(lambda t: row(t, "collisions.all", "src/app.py") is not None)
        host.select("collisions.all", "src/app.py")
        tree = host.wait_for_panel(lambda t: "Showing worktree feature-a" in host.texts(t)
                                   and row(t, "collisions.list", "src/app.py") is not None)
        assert "also changed in feature-b" in subtitle(tree, "files.changed", "src/app.py")
        host.row_action("collisions.list", "src/app.py", "reveal")
        host.wait_for_call("host/revealPath",
                           lambda c: c.params["path"] == str(team_repo["feature-a"] / "src" / "app.py"))
        assert host.violations == []


def test_review_a_whole_worktree_from_its_row(team_repo: Dict[str, Path], tmp_path: Path) -> None:
    with start(team_world(team_repo, focused=15), tmp_path) as host:
        host.open_panel()
        host.wait_for_text("Nothing to commit")
        host.choose("toolbar.view", "worktrees")
        tree = host.wait_for_panel(lambda t: row(t, "worktrees.list", str(team_repo["feature-b"])) is not None)
        assert "actions" not in row(tree, "worktrees.list", str(team_repo["clean-c"]))  # type: ignore[operator]
        host.row_action("worktrees.list", str(team_repo["feature-b"]), "review")
        call = host.wait_for_call("prompt/inject")
        # Committed and uncommitted work since feature-b left main, to a new Codex tab (pane 13 is busy).
        assert "+print('agent b')" in call.params["text"] and "+docs, edited by b" in call.params["text"]
        assert "since it left main" in call.params["text"]
        assert (call.params["target"], call.params["cwd"], call.params["agent"]) == (
            "newTab", str(team_repo["feature-b"]), "codex")
        count = len(host.calls)
        host.row_action("worktrees.list", str(team_repo["feature-a"]), "review")
        call = host.wait_for_call("prompt/inject", after=count)
        assert (call.params["target"], call.params["paneId"]) == ("pane", 12)
        assert "+print('agent a')" in call.params["text"]
        # New files are part of the work too, though git diff leaves them out.
        write(team_repo["clean-c"] / "plan.md", "the plan of agent c\n")
        host.click("toolbar.refresh")
        host.wait_for_panel(lambda t: "actions" in (row(t, "worktrees.list", str(team_repo["clean-c"])) or {}))
        count = len(host.calls)
        host.row_action("worktrees.list", str(team_repo["clean-c"]), "review")
        call = host.wait_for_call("prompt/inject", after=count)
        assert "+the plan of agent c" in call.params["text"] and call.params["paneId"] == 14
        assert host.world.pane(13).typed == [] and host.violations == []
