"""A confirmed tag or push waits for the agents at work in its repository (issue 26): the host's status events
(pane/status, context/changed) end the wait, the panel shows it with Cancel, a commit made meanwhile asks
again, and a restart while waiting loses nothing. Through the harness, driven by events only: the plugin's own
look every few seconds is set to an hour here, and the host's 1.5 s timer answers at once."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World

PLUGIN_DIR = Path(__file__).resolve().parents[2] / "plugins" / "release-checklist"
PUSH = "push-and-to-together"
PUSH_TITLE = "Push main and v1.1.0 to origin together"
WAITING = f'Claude (pane 11) is working in this repository. "{PUSH_TITLE}" starts when it is idle.'
ONLY_EVENTS = {"RELEASE_CHECKLIST_WAIT_POLL_SECONDS": "3600"}


@pytest.fixture
def released_repo(make_repo, with_remote):
    """v1.0.0 released and pushed; then a version bump with its changelog entry, committed but not pushed."""
    repo = make_repo(version="1.0.0", changelog="# Changelog\n\n## 1.0.0\n- First.\n", tags=("v1.0.0",))
    bare = with_remote(repo)
    repo.git("push", "-q", "origin", "v1.0.0")
    repo.write("pyproject.toml", '[project]\nname = "demo"\nversion = "1.1.0"\n')
    repo.write("CHANGELOG.md", "# Changelog\n\n## 1.1.0\n- Second.\n\n## 1.0.0\n- First.\n")
    repo.commit("Release 1.1.0")
    return repo, bare


def world_for(repo, agent_status="working", language="en") -> World:
    panes = [PaneSpec(id=11, kind="claude", status=agent_status, cwd=str(repo), title="Claude"),
             PaneSpec(id=12, kind="shell", status="idle", cwd=str(repo))]
    return World(workspaces=[WorkspaceSpec(id=1, name="proj", cwd=str(repo), panes=panes)], focused_pane=12,
                 api_version=2, language=language)


def start(repo, tmp_path, world) -> PluginHost:
    host = PluginHost(str(PLUGIN_DIR), world=world, data_dir=tmp_path / "data", env=ONLY_EVENTS)
    host.start()
    host.open_panel()
    host.wait_for_panel(lambda tree: host.find(tree, "release.steps") is not None, timeout=15)
    return host


def confirm_push(host) -> None:
    host.row_action("release.steps", PUSH, "type")
    host.wait_for_text("Claude (pane 11) is working in this repository: after you confirm, this waits until the "
                       "agent is idle.")
    host.click("confirm.yes")
    host.wait_for_text(WAITING)


def agent_goes_idle(host, status="idle") -> None:
    """The agent's pane changes status (idle: it finished) and then the host says so (pane/status, as for a
    pane the plugin started; the focused pane's change comes as context/changed instead)."""
    host.world.pane(11).status = status
    host.send("pane/status", {"paneId": 11, "status": status, "running": False, "agent": "claude",
                              "title": "Claude", "cwd": host.world.pane(11).cwd})


def waits_file(tmp_path) -> dict:
    path = tmp_path / "data" / "agent-waits.json"
    return json.loads(path.read_text()) if path.exists() else {}


def test_a_confirmed_push_waits_for_the_agent_and_is_typed_when_it_is_idle(released_repo, tmp_path):
    repo, _bare = released_repo
    host = start(repo, tmp_path, world_for(repo))
    try:
        confirm_push(host)
        tree = host.panel
        assert host.find(tree, "wait.cancel") is not None and host.find(tree, "confirm.yes") is None
        assert waits_file(tmp_path)[str(repo)]["step"] == PUSH
        agent_goes_idle(host, status="permission")  # not idle yet: it asks for a permission
        host.wait_for_text(f'Claude (pane 11) is waiting for a permission in this repository. "{PUSH_TITLE}" '
                           "starts when it is idle.")
        assert host.calls_of("terminal/send") == []  # still busy: nothing typed
        agent_goes_idle(host)
        call = host.wait_for_call("terminal/send")
        assert call.params["text"] == "git push --atomic origin main v1.1.0" and call.params["paneId"] == 12
        host.wait_for(lambda: any("starts now" in text for text, _level in host.notifications), what="wait over")
        host.wait_for_panel(lambda tree: host.find(tree, "wait.cancel") is None)
        assert waits_file(tmp_path) == {}
    finally:
        host.close()


def test_the_focused_agent_going_idle_ends_the_wait(released_repo, tmp_path):
    repo, _bare = released_repo
    world = world_for(repo)
    world.focused_pane = 11
    host = start(repo, tmp_path, world)
    try:
        confirm_push(host)
        host.set_pane_status(11, "idle")  # the focused pane: the host sends context/changed
        assert host.wait_for_call("terminal/send").params["text"] == "git push --atomic origin main v1.1.0"
    finally:
        host.close()


def test_cancel_ends_the_wait_and_nothing_starts(released_repo, tmp_path):
    repo, _bare = released_repo
    host = start(repo, tmp_path, world_for(repo))
    try:
        confirm_push(host)
        host.click("wait.cancel")
        host.wait_for(lambda: (f'"{PUSH_TITLE}" will not start: the wait was cancelled.', "info")
                      in host.notifications, what="cancelled notice")
        assert waits_file(tmp_path) == {}
        agent_goes_idle(host)
        host.wait_idle()
        assert host.calls_of("terminal/send") == [] and host.find(host.panel, "wait.cancel") is None
    finally:
        host.close()


def test_a_restart_while_waiting_loses_nothing(released_repo, tmp_path):
    repo, _bare = released_repo
    host = start(repo, tmp_path, world_for(repo))
    try:
        confirm_push(host)
    finally:
        host.close()  # Agentty stops the plugin while it waits
    assert waits_file(tmp_path)[str(repo)]["action"] == "type"
    again = start(repo, tmp_path, world_for(repo))
    try:
        again.wait_for_text(WAITING)
        again.wait_for_text("Kept from before Agentty restarted the plugin.")
        assert again.calls_of("terminal/send") == []
        agent_goes_idle(again)
        assert again.wait_for_call("terminal/send").params["text"] == "git push --atomic origin main v1.1.0"
    finally:
        again.close()


def test_a_commit_made_while_waiting_asks_again_instead_of_pushing_it(released_repo, tmp_path):
    repo, _bare = released_repo
    host = start(repo, tmp_path, world_for(repo))
    try:
        confirm_push(host)
        repo.write("notes.txt", "the agent's last edit\n")
        repo.commit("agent: one more change")  # the agent committed before going idle
        agent_goes_idle(host)
        host.wait_for_text("Sends 2 commit(s) on main and the tag v1.1.0 to origin", timeout=15)
        assert host.find(host.panel, "confirm.yes") is not None
        assert any("A commit was made while" in text for text, _level in host.notifications)
        assert host.calls_of("terminal/send") == []
    finally:
        host.close()


@pytest.mark.parametrize("language, waiting", [
    ("ja", "Claude (pane 11) がこのリポジトリで作業中です。"),
    ("ko", "Claude (pane 11)이(가) 이 저장소에서 작업 중 상태입니다."),
    ("zh", "Claude (pane 11) 正在此仓库中工作。"),
])
def test_the_wait_is_shown_in_the_users_language(released_repo, tmp_path, language, waiting):
    repo, _bare = released_repo
    host = start(repo, tmp_path, world_for(repo, language=language))
    try:
        host.row_action("release.steps", PUSH, "type")
        host.wait_for_panel(lambda tree: host.find(tree, "confirm.yes") is not None)
        host.click("confirm.yes")
        tree = host.wait_for_panel(lambda tree: host.find(tree, "wait.cancel") is not None)
        assert any(text.startswith(waiting) for text in host.texts(tree)), host.texts(tree)
    finally:
        host.close()


def test_choosing_another_version_ends_the_wait_without_starting_anything(released_repo, tmp_path):
    repo, _bare = released_repo
    host = start(repo, tmp_path, world_for(repo))
    try:
        confirm_push(host)
        host.type("release.version", "1.2.0")
        host.click("release.version-apply")
        host.wait_for(lambda: ("The wait for the agent was for version 1.1.0: it ended, and nothing started.",
                               "warning") in host.notifications, what="wait ended by the version change")
        assert waits_file(tmp_path) == {}
        agent_goes_idle(host)
        host.wait_idle()
        assert host.calls_of("terminal/send") == [] and host.find(host.panel, "wait.cancel") is None
    finally:
        host.close()


def test_a_check_handed_to_an_agent_runs_again_on_the_hosts_status_events(make_repo, tmp_path):
    """The fix-and-rerun watch wakes on pane/status and context/changed too (its own look is an hour away here):
    the agent working and then idle is seen when the host says so, not at the next poll."""
    repo = make_repo()
    code = "import os,sys; sys.exit(0 if os.path.exists(chr(102)+chr(105)+chr(120)) else 4)"  # passes once ./fix exists
    repo.write("RELEASE_CHECKLIST.md", f'# Release\n\n- [ ] Lints: `{sys.executable} -c "{code}"`\n')
    repo.commit("checklist")
    host = start(repo, tmp_path, world_for(repo, agent_status="idle"))
    try:
        host.row_action("release.steps", "lints", "run")
        host.wait_for_panel(lambda tree: any(item["id"] == "lints" and item["tone"] == "error"
                                             for item in host.find(tree, "release.steps")["items"]))
        host.row_action("release.steps", "lints", "fix")
        assert host.wait_for_call("prompt/inject").params["paneId"] == 11
        agent_goes_idle(host, status="working")  # pane/status: the agent works on it…
        host.wait_idle()
        (Path(str(repo)) / "fix").write_text("done", encoding="utf-8")
        agent_goes_idle(host)  # …and is done: the check runs again at once
        host.wait_for_panel(lambda tree: any(item["id"] == "lints" and item["tone"] == "success"
                                             for item in host.find(tree, "release.steps")["items"]), timeout=10)
    finally:
        host.close()
