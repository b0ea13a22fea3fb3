"""End to end through the host harness: run all, badge and states, confirmation, hand-off only to idle panes."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World

PY = sys.executable
PLUGIN_DIR = Path(__file__).resolve().parents[2] / "plugins" / "release-checklist"
FAIL = f'{PY} -c "import sys; print(chr(98) + chr(111) + chr(111) + chr(109)); sys.exit(2)"'
PASS = f'{PY} -c "print(42)"'
HANG = f'{PY} -c "import time; print(0, flush=True); time.sleep(60)"'


def world_for(repo, panes=None, language="en", focused=11) -> World:
    panes = panes if panes is not None else [
        PaneSpec(id=11, kind="claude", status="idle", cwd=str(repo)),
        PaneSpec(id=12, kind="shell", status="idle", cwd=str(repo)),
    ]
    return World(workspaces=[WorkspaceSpec(id=1, name="proj", cwd=str(repo), panes=panes)],
                 focused_pane=focused, language=language)


def write_checklist(repo, *items: str) -> None:
    repo.write("RELEASE_CHECKLIST.md", "# Release\n\n" + "\n".join(items) + "\n")
    repo.commit("checklist")


def step_item(host, tree, step_id):
    steps = host.find(tree, "release.steps")
    return next((item for item in (steps or {}).get("items", []) if item["id"] == step_id), None)


def wait_step(host, step_id, predicate, timeout=15.0):
    return host.wait_for_panel(lambda tree: (item := step_item(host, tree, step_id)) and predicate(item),
                               timeout=timeout)


@pytest.fixture
def open_host(tmp_path):
    hosts = []

    def start(repo, world=None) -> PluginHost:
        host = PluginHost(str(PLUGIN_DIR), world=world or world_for(repo), data_dir=tmp_path / "data")
        host.start()
        hosts.append(host)
        host.open_panel()
        host.wait_for_panel(lambda tree: host.find(tree, "release.steps") is not None
                            or host.find(tree, "checklist.problems") is not None, timeout=15)
        return host

    yield start
    for host in hosts:
        host.close()


def test_run_all_shows_states_badge_and_output(make_repo, open_host):
    repo = make_repo()
    write_checklist(repo, f"- [ ] Builds: `{PASS}`", f"- [ ] Lints: `{FAIL}`", "- [ ] Announce it",
                    "- [ ] Push: `git push origin {tag}` #terminal #irreversible")
    host = open_host(repo)
    host.wait_for(lambda: host.badge == "0/4", what="badge 0/4")  # the badge follows the first panel
    host.click("release.run-all")
    tree = wait_step(host, "lints", lambda item: item["tone"] == "error")
    assert step_item(host, tree, "builds")["tone"] == "success"
    assert step_item(host, tree, "builds")["subtitle"].startswith("Passed")
    assert "exit code 2" in step_item(host, tree, "lints")["subtitle"]
    host.wait_for(lambda: host.badge == "1/4", what="badge 1/4")
    host.wait_for(lambda: ("1 check(s) failed.", "error") in host.notifications, what="failure notice")
    tree = host.wait_for_panel(lambda t: host.find(t, "output.fix") is not None)
    assert "boom" in host.texts(tree)  # the failed step's output tail, with "Ask the agent to fix it"
    assert step_item(host, tree, "push")["tone"] == "neutral"  # never run by "Run all checks"
    host.click("release.reset")
    host.wait_for_panel(lambda t: host.find(t, "reset.yes") is not None)
    host.click("reset.yes")
    wait_step(host, "builds", lambda item: item["tone"] == "neutral")
    host.wait_for(lambda: host.badge == "0/4", what="badge back to 0/4")
    assert host.violations == []


def test_irreversible_step_asks_in_the_panel_first(make_repo, open_host):
    repo = make_repo()
    write_checklist(repo, "- [ ] Push: `git push origin {tag}` #terminal #irreversible")
    world = world_for(repo)
    host = open_host(repo, world)
    host.row_action("release.steps", "push", "type")
    tree = host.wait_for_panel(lambda t: host.find(t, "confirm.yes") is not None)
    assert "git push origin v1.1.0" in host.texts(tree)
    host.wait_idle()
    assert host.calls_of("terminal/send") == []
    host.click("confirm.yes")
    call = host.wait_for_call("terminal/send")
    assert call.params["text"] == "git push origin v1.1.0" and call.params.get("submit") is False
    assert call.params["paneId"] == 12  # the idle shell in this repository, not the agent pane
    wait_step(host, "push", lambda item: item["icon"] == "send")
    host.row_action("release.steps", "push", "done")
    host.wait_for(lambda: host.badge == "1/1", what="badge 1/1")
    assert host.violations == []


def test_cancelled_confirmation_does_nothing(make_repo, open_host):
    repo = make_repo()
    marker = Path(str(repo)) / "tagged"
    code = "open(chr(116)+chr(97)+chr(103)+chr(103)+chr(101)+chr(100), chr(119))"  # creates ./tagged
    write_checklist(repo, f'- [ ] Tag: `{PY} -c "{code}"` #irreversible')
    host = open_host(repo)
    host.row_action("release.steps", "tag", "run")
    host.wait_for_panel(lambda t: host.find(t, "confirm.no") is not None)
    host.click("confirm.no")
    host.wait_for_panel(lambda t: host.find(t, "confirm.yes") is None)
    host.wait_idle()
    assert not marker.exists()
    host.row_action("release.steps", "tag", "run")
    host.wait_for_panel(lambda t: host.find(t, "confirm.yes") is not None)
    host.click("confirm.yes")
    wait_step(host, "tag", lambda item: item["tone"] == "success")
    assert marker.exists()


def test_agent_hand_off_only_into_idle_panes(make_repo, open_host):
    repo = make_repo()
    write_checklist(repo, f"- [ ] Lints: `{FAIL}`")
    panes = [PaneSpec(id=11, kind="claude", status="working", cwd=str(repo)),
             PaneSpec(id=12, kind="codex", status="idle", cwd=str(repo))]
    world = world_for(repo, panes)
    host = open_host(repo, world)
    host.row_action("release.steps", "lints", "run")
    wait_step(host, "lints", lambda item: item["tone"] == "error")
    host.row_action("release.steps", "lints", "fix")
    call = host.wait_for_call("prompt/inject")
    assert call.params["target"] == "pane" and call.params["paneId"] == 12
    assert "Lints" in call.params["text"] and "boom" in call.params["text"] and "exit code 2" in call.params["text"]
    host.set_pane_status(12, "thinking")
    host.row_action("release.steps", "lints", "fix")
    host.wait_for(lambda: len(host.calls_of("prompt/inject")) == 2, what="second hand-off")
    assert host.calls_of("prompt/inject")[1].params["target"] == "ask"  # no idle agent: the user picks
    assert panes[0].typed == [] and host.violations == []


def test_stop_ends_a_hanging_check(make_repo, open_host):
    repo = make_repo()
    write_checklist(repo, f"- [ ] Hangs: `{HANG}`")
    host = open_host(repo)
    host.click("release.run-all")
    host.wait_for_panel(lambda t: host.find(t, "release.stop") is not None)
    host.click("release.stop")
    # The check would run for 60 s: a "stopped" step is the Stop button's doing, however loaded the machine.
    item = step_item(host, wait_step(host, "hangs", lambda item: item["subtitle"].startswith("Stopped · ")), "hangs")
    assert (item["icon"], item["tone"]) == ("circle-pause", "neutral")  # stopped is not failed
    host.wait_for(lambda: ("Stopped. Before that: 0 passed, 0 failed, 0 couldn't check.", "info")
                  in host.notifications, what="the stop notice")
    tree = host.wait_for_panel(lambda t: host.find(t, "output.retry") is not None)
    assert host.find(tree, "output.fix") is None  # nothing to fix: it was stopped
    assert [action["id"] for action in step_item(host, tree, "hangs")["actions"]][:1] == ["run"]
    assert not [text for text, _tone in host.notifications if "failed" in text.split(".")[0]]
    assert host.violations == []


def test_malformed_checklist_points_at_the_line(make_repo, open_host):
    repo = make_repo()
    write_checklist(repo, "- [ ] Fine", "- [ ] Tests: `pytest` #chek")
    host = open_host(repo)
    texts = host.texts(host.panel)
    assert "RELEASE_CHECKLIST.md has problems" in texts
    assert "Line 4, column 23: Unknown tag #chek. Did you mean #check?" in texts
    assert host.badge == ""
    host.select("checklist.problems", "problem-0")  # a click on a problem opens the file it is in
    call = host.wait_for_call("host/revealPath")
    assert Path(call.params["path"]).name == "RELEASE_CHECKLIST.md" and Path(call.params["path"]).is_absolute()


def test_writes_the_default_checklist_and_speaks_japanese(make_repo, open_host):
    repo = make_repo(changelog="# Changelog\n\n## 1.1.0\n")
    host = open_host(repo, world_for(repo, language="ja"))
    texts = host.texts(host.panel)
    assert "すべてのチェックを実行" in [host.find(host.panel, "release.run-all")["label"]]
    assert any("既定のチェックリスト" in text for text in texts)
    host.click("checklist.write")
    host.wait_for_panel(lambda t: any(text == "チェックリスト: RELEASE_CHECKLIST.md" for text in host.texts(t)))
    assert (Path(str(repo)) / "RELEASE_CHECKLIST.md").exists()
    assert host.badge == "0/10"


def test_not_a_repository_and_following_focus(make_repo, open_host, tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    repo = make_repo()
    world = World(workspaces=[
        WorkspaceSpec(id=1, name="plain", cwd=str(plain), panes=[PaneSpec(id=11, kind="shell", cwd=str(plain))]),
        WorkspaceSpec(id=2, name="repo", cwd=str(repo), panes=[PaneSpec(id=21, kind="shell", cwd=str(repo))]),
    ], focused_pane=11)
    host = PluginHost(str(PLUGIN_DIR), world=world, data_dir=tmp_path / "data2")
    with host:
        host.open_panel()
        host.wait_for_panel(lambda t: any("is not inside a git repository" in text for text in host.texts(t)))
        host.focus(21)
        host.wait_for_panel(lambda t: host.find(t, "release.steps") is not None)
        assert host.violations == []


def test_every_panel_string_is_translated():
    from release_checklist.text import TEXT

    assert TEXT.missing() == {"ja": [], "ko": [], "zh": []}


def test_run_all_reads_an_edited_checklist(make_repo, open_host):
    repo = make_repo()
    write_checklist(repo, f"- [ ] Builds: `{PASS}`")
    host = open_host(repo)
    repo.write("RELEASE_CHECKLIST.md", f"# Release\n\n- [ ] Builds: `{PASS}`\n- [ ] Lints: `{FAIL}`\n")
    host.click("release.run-all")
    wait_step(host, "lints", lambda item: item["tone"] == "error")
    host.wait_for(lambda: host.badge == "1/2", what="badge 1/2")


def test_skip_with_a_reason_then_switch_version_and_back(make_repo, open_host):
    repo = make_repo()
    write_checklist(repo, "- [ ] Announce it", f"- [ ] Builds: `{PASS}`")
    host = open_host(repo)
    host.row_action("release.steps", "announce-it", "skip")
    host.wait_for_panel(lambda t: host.find(t, "skip.confirm") is not None)
    host.click("skip.confirm")  # no reason yet: refused
    host.wait_for_panel(lambda t: "Write a reason first." in host.texts(t))
    host.type("skip.reason", "no blog this time")
    host.click("skip.confirm")
    wait_step(host, "announce-it", lambda item: item["subtitle"].startswith("Skipped: no blog this time"))
    host.submit("release.version", "2.0.0")
    host.wait_for_panel(lambda t: "Release 2.0.0" in host.texts(t))
    tree = wait_step(host, "announce-it", lambda item: item["tone"] == "neutral")
    history = host.find(tree, "release.history")
    assert [item["id"] for item in history["items"]] == ["1.1.0"]
    host.submit("release.version", "not a version")
    host.wait_for_panel(lambda t: any("is not a version number" in text for text in host.texts(t)))
    host.select("release.history", "1.1.0")
    wait_step(host, "announce-it", lambda item: item["tone"] == "warning")
    assert host.violations == []


@pytest.mark.skipif(sys.platform == "win32", reason="os.kill(pid, 0)")
def test_shutdown_leaves_no_check_running(make_repo, open_host):
    import os

    repo = make_repo()
    code = "import os, time; open(chr(112), chr(119)).write(str(os.getpid())); print(1, flush=True); time.sleep(60)"
    write_checklist(repo, f'- [ ] Hangs: `{PY} -c "{code}"`')
    host = open_host(repo)
    host.click("release.run-all")
    pid_file = Path(str(repo)) / "p"
    host.wait_for(lambda: pid_file.exists() and pid_file.read_text(), what="the check to start")
    pid = int(pid_file.read_text())
    host.shutdown()
    deadline = time.monotonic() + 30  # a wait for the kill, not a speed bound: the check itself sleeps 60 s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        try:
            with open(f"/proc/{pid}/stat") as handle:  # a zombie waiting for its parent counts as gone
                if handle.read().split()[2] == "Z":
                    break
        except OSError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the check kept running after the plugin shut down")


def test_focus_moves_to_another_repository_after_the_running_step(make_repo, tmp_path):
    first, second = make_repo(), make_repo(version="3.0.0")
    write_checklist(first, f"- [ ] Hangs: `{HANG}`")
    world = World(workspaces=[
        WorkspaceSpec(id=1, name="a", cwd=str(first), panes=[PaneSpec(id=11, kind="shell", cwd=str(first))]),
        WorkspaceSpec(id=2, name="b", cwd=str(second), panes=[PaneSpec(id=21, kind="shell", cwd=str(second))]),
    ], focused_pane=11)
    with PluginHost(str(PLUGIN_DIR), world=world, data_dir=tmp_path / "data3") as host:
        host.open_panel()
        host.wait_for_panel(lambda t: host.find(t, "release.steps") is not None)
        host.click("release.run-all")
        host.wait_for_panel(lambda t: host.find(t, "release.stop") is not None)
        host.focus(21)
        host.wait_idle()
        assert "Release 1.1.0" in host.texts(host.panel)  # a running step keeps its repository
        host.click("release.stop")
        host.wait_for_panel(lambda t: "Release 3.0.0" in host.texts(t))
        assert host.violations == []


def test_run_all_counts_what_could_not_be_checked(make_repo, open_host):
    repo = make_repo()
    write_checklist(repo, f"- [ ] Builds: `{PASS}`", f"- [ ] Lints: `{FAIL}`", "- [ ] Docs: `no-such-tool-xyz build`")
    host = open_host(repo)
    host.click("release.run-all")
    tree = wait_step(host, "docs", lambda item: item["tone"] == "warning")
    assert step_item(host, tree, "docs")["subtitle"].startswith(
        "Couldn't check · no-such-tool-xyz is not installed: install it, or set this step's command in "
        "RELEASE_CHECKLIST.md")
    host.wait_for(lambda: ("Checks: 1 passed, 1 failed, 1 couldn't check (the reason is on each step).", "error")
                  in host.notifications, what="the count of checks that could not run")
    host.wait_for(lambda: host.badge == "1/3", what="badge 1/3")


def test_a_typed_version_survives_a_restart_until_it_is_released(make_repo, open_host, tmp_path):
    repo = make_repo()  # pyproject.toml says 1.1.0
    host = open_host(repo)
    host.type("release.version", "2.0.0")
    host.click("release.version-apply")
    host.wait_for_text("Release 2.0.0")
    host.close()
    saved = tmp_path / "data" / "chosen-versions.json"
    assert json.loads(saved.read_text(encoding="utf-8")) == {str(repo.path): "2.0.0"}
    assert not any(path.name == "chosen-versions.json" for path in PLUGIN_DIR.rglob("*.json"))

    again = open_host(repo)
    tree = again.wait_for_text("Release 2.0.0")
    assert any(text.endswith("chosen by you") for text in again.texts(tree))
    again.close()

    repo.git("tag", "-a", "v2.0.0", "-m", "2.0.0")  # released: the choice is forgotten, the next is suggested
    third = open_host(repo)
    tree = third.wait_for_text("Release 2.0.1")
    said = f"{repo.path.name} · suggested: the next after v2.0.0 · pyproject.toml says 1.1.0, older than the " \
           "last release 2.0.0: not used · no version file was read, so the version check cannot confirm a bump"
    assert any(text.startswith(said) for text in third.texts(tree))
    assert json.loads(saved.read_text(encoding="utf-8")) == {}


def test_a_check_handed_to_an_agent_runs_again_when_the_agent_is_idle_again(make_repo, open_host):
    repo = make_repo()
    code = "import os,sys; sys.exit(0 if os.path.exists(chr(102)+chr(105)+chr(120)) else 4)"  # passes once ./fix exists
    write_checklist(repo, f'- [ ] Lints: `{PY} -c "{code}"`')
    host = open_host(repo)
    host.row_action("release.steps", "lints", "run")
    wait_step(host, "lints", lambda item: item["tone"] == "error")
    host.row_action("release.steps", "lints", "fix")
    call = host.wait_for_call("prompt/inject")
    assert call.params["paneId"] == 11 and "Lints" in call.params["text"]
    host.set_pane_status(11, "working")  # the agent works on it…
    seen = len(host.calls)
    host.wait_for_call("workspace/list", after=seen)  # the plugin looked while it worked (it polls on API 1)
    (Path(str(repo)) / "fix").write_text("done", encoding="utf-8")
    host.set_pane_status(11, "idle")  # …and is done: the check runs again by itself
    wait_step(host, "lints", lambda item: item["tone"] == "success")
    # The notice and the panel come on their own ways (the rerun is immediate when the host's event wakes it).
    host.wait_for(lambda: any("is idle again: running \"Lints\" again." in text for text, _level in host.notifications),
                  what="the rerun notice")


def test_a_fix_nobody_worked_on_is_not_rerun(make_repo, open_host):
    from agentty_plugin import Pane, Workspace
    from release_checklist.fix_watch import FixWatch

    statuses = {"now": "idle"}
    reruns = []
    watch = FixWatch(lambda: [Workspace(id=1, panes=[Pane(id=7, kind="claude", status=statuses["now"])])],
                     lambda step_id, pane: reruns.append((step_id, pane.id)))
    watch.watch(7, "lints")
    watch.stop()  # no thread: each poll() below is one look at the panes
    watch.poll()
    assert reruns == [] and watch.watching() == {7: "lints"}  # idle but never busy: not worked on yet
    statuses["now"] = "thinking"
    watch.poll()
    statuses["now"] = "idle"
    watch.poll()
    assert reruns == [("lints", 7)] and watch.watching() == {}


def test_the_repositorys_own_release_document_is_shown_and_adopted(make_repo, open_host):
    repo = make_repo(files={"RELEASING.md": "# Releasing\n\n1. Run `make dist`.\n2. Publish: `twine upload dist/*`\n"})
    host = open_host(repo)
    tree = host.wait_for_text("Checklist: RELEASING.md, this repository's own release document read as steps")
    ids = [item["id"] for item in host.find(tree, "release.steps")["items"]]
    # The document's steps beside the derived checks, its publish command instead of the derived one (issue 26).
    assert ids[:3] == ["working-tree-is-clean", "on-the-release-branch", "in-sync-with-upstream"]
    assert ids.index("run-make-dist") < ids.index("create-the-tag") < ids.index("publish") and ids.count("publish") == 1
    assert step_item(host, tree, "publish")["subtitle"] == "Pending · terminal · irreversible"
    host.click("checklist.write")
    host.wait_for_text("Checklist: RELEASE_CHECKLIST.md")
    text = (Path(str(repo)) / "RELEASE_CHECKLIST.md").read_text(encoding="utf-8")
    assert "- [ ] Publish: `twine upload dist/*` #terminal #irreversible" in text
    assert "- [ ] Working tree is clean: `release-check clean-tree`" in text
    assert ("Wrote RELEASE_CHECKLIST.md. Edit it to fit your release and commit it.", "success") in host.notifications


def test_a_check_printing_200000_lines_is_drawn_within_the_host_limits(make_repo, open_host):
    # Each line wakes the run's tick thread; the panel is drawn at most once per pacer interval, not per line.
    chatty = f'{PY} -c "import sys; [print(n) for n in range(200000)]"'
    repo = make_repo()
    write_checklist(repo, f"- [ ] Chatty: `{chatty}` #timeout=300")
    host = open_host(repo)
    host.row_action("release.steps", "chatty", "run")
    tree = wait_step(host, "chatty", lambda item: item["tone"] == "success", timeout=120)
    assert "199999" in "\n".join(host.texts(tree))  # the end of the output, shown under the passed step
    assert host.violations == []


def test_the_view_draws_a_snapshot_and_never_calls_the_engine(make_repo, data_dir, monkeypatch):
    from release_checklist import ReleaseSession, git_repo
    from release_checklist.release_view import release_of
    from release_checklist.text import TEXT
    from release_checklist.view import State, badge_text, render

    repo = make_repo(tags=("v1.0.0",))
    write_checklist(repo, f"- [ ] Builds: `{PASS}`", "- [ ] Tag: `git tag {tag}` #terminal #irreversible")
    session = ReleaseSession(str(repo), data_dir)
    session.run_step("builds")
    state = State(folder=str(repo), release=release_of(session))

    def engine_called(*_args, **_kwargs):
        raise AssertionError("the view called into the engine")

    monkeypatch.setattr(git_repo, "run_git", engine_called)  # no git while drawing
    for name in ("title_of", "command_of", "statuses", "status", "progress", "step"):
        monkeypatch.setattr(ReleaseSession, name, engine_called)
    session.reset()  # the live release moves on; the snapshot drawn is the one taken
    tree = render(state, TEXT.for_language("en"))
    texts = PluginHost.texts(tree)
    assert "Tag v1.1.0" not in texts and "Tag" in texts and "git tag v1.1.0" in texts  # filled when taken
    assert badge_text(state) == "1/2" and any(text.startswith("Passed") for text in texts)


def test_a_row_click_draws_the_panel_once(make_repo, open_host):
    repo = make_repo()
    write_checklist(repo, f"- [ ] Builds: `{PASS}`", "- [ ] By hand")
    host = open_host(repo)
    host.wait_idle()
    for gesture in (lambda: host.select("release.steps", "builds"),
                    lambda: host.row_action("release.steps", "by-hand", "skip")):
        before = len(host.panels)
        gesture()
        host.wait_idle()
        assert len(host.panels) == before + 1
