"""The dev host's web API against real plugin processes and a real server on 127.0.0.1 (no browser)."""

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
from agentty_devhost.background import BackgroundDevHost
from agentty_devhost.world import default_world
from agentty_plugin.world import INVALID_PANEL, NOTIFICATION_DROPPED


def texts(plugin):
    from agentty_plugin import ui

    return ui.texts(plugin["panel"]) if plugin.get("panel") else []


def shows(fragment):
    """A condition for Api.wait: the probe's panel shows `fragment`."""
    def check(state):
        plugin = next(p for p in state["plugins"] if p["key"] == "probe")
        return any(fragment in text for text in texts(plugin))
    return check


def log_has(kind, predicate=lambda entry: True, key="probe"):
    def check(state):
        plugin = next(p for p in state["plugins"] if p["key"] == key)
        return [e for e in plugin["log"] if e["kind"] == kind and predicate(e)]
    return check


@pytest.fixture
def probe_host(probe_folder, tmp_path, api_factory):
    host = BackgroundDevHost([probe_folder], default_world(str(tmp_path)), str(tmp_path / "data"))
    api = api_factory(host.start())
    try:
        yield api
    finally:
        host.stop()


def test_state_lists_the_plugin_with_its_manifest(probe_host):
    status, state = probe_host.get("/api/state")
    assert status == 200
    probe = state["plugins"][0]
    assert (probe["key"], probe["state"], probe["title"]) == ("probe", "running", "Probe")
    assert "probe.hello" in [c["id"] for c in probe["commands"]]
    assert state["world"]["focusedPane"] == 11
    assert [p["kind"] for p in state["world"]["workspaces"][0]["panes"]] == ["claude", "shell"]


def test_panel_opens_and_click_reaches_the_plugin(probe_host):
    assert probe_host.post("/api/plugins/probe/panel", {"open": True}) == (200, {"ok": True})
    probe_host.wait(shows("ready"), what="the first panel")
    assert probe_host.post("/api/plugins/probe/event", {"element": "probe.go", "event": "click"})[0] == 200
    probe_host.wait(shows("clicked"), what="the panel after the click")
    calls = probe_host.wait(log_has("call", lambda e: e["method"] == "workspace/list"), what="workspace/list")
    assert calls[0]["result"][0]["panes"][0]["id"] == 11
    # what the plugin printed went to stderr, and the page sees it
    probe_host.wait(log_has("stderr", lambda e: "stray print" in e["text"]), what="stderr line")


def test_events_agentty_could_not_send_are_refused(probe_host):
    probe_host.post("/api/plugins/probe/panel", {"open": True})
    probe_host.wait(shows("ready"))
    cases = [
        ({"element": "nope", "event": "click"}, "no element 'nope'"),
        ({"element": "probe.input", "event": "click"}, "does not send click"),
        ({"element": "probe.input", "event": "change", "value": 3}, "string"),
        ({"element": "probe.rows", "event": "select", "item": "r9"}, "no row 'r9'"),
        ({"element": "probe.rows", "event": "action", "item": "r1", "action": "zap"}, "no action 'zap'"),
    ]
    for body, message in cases:
        status, answer = probe_host.post("/api/plugins/probe/event", body)
        assert status == 400 and message in answer["error"], (body, answer)
    assert probe_host.post("/api/plugins/nobody/event", {"element": "x", "event": "click"})[0] == 404


def test_list_select_and_row_action_carry_the_item(probe_host):
    probe_host.post("/api/plugins/probe/panel", {"open": True})
    probe_host.wait(shows("ready"))
    probe_host.post("/api/plugins/probe/event", {"element": "probe.rows", "event": "action", "item": "r1",
                                                 "action": "open"})
    probe_host.wait(shows("row r1 open"), what="the row action")
    probe_host.post("/api/plugins/probe/event", {"element": "probe.input", "event": "submit", "value": "héllo"})
    probe_host.wait(shows("any probe.input=héllo"), what="the submit")


def test_requests_from_other_sites_are_refused(probe_host):
    assert probe_host.request("POST", "/api/world/focus", b"paneId=12",
                              headers={"Content-Type": "application/x-www-form-urlencoded"})[0] == 415
    assert probe_host.post("/api/world/focus", {"paneId": 12}, headers={"Origin": "https://evil.example"})[0] == 403
    assert probe_host.request("GET", "/api/state", headers={"Host": "evil.example"})[0] == 403
    _status, state = probe_host.get("/api/state")
    assert state["world"]["focusedPane"] == 11  # nothing above changed the window


def test_notifications_keep_the_700_ms_rule_and_the_badge_shows(probe_host):
    probe_host.post("/api/plugins/probe/panel", {"open": True})
    probe_host.wait(shows("ready"))
    status, _ = probe_host.post("/api/plugins/probe/command", {"command": "probe.hello", "args": "hi"})
    assert status == 200
    probe_host.wait(lambda s: s["plugins"][0]["badge"] == "1/2", what="the badge")
    shown = probe_host.wait(log_has("toast", lambda e: not e["dropped"]), what="a toast")
    assert shown[0]["text"] == "hello hi" and shown[0]["level"] == "info"
    assert probe_host.post("/api/plugins/probe/command", {"command": "probe.nope"})[0] == 400


def test_focus_language_and_pane_edits_send_context_changed(probe_host):
    probe_host.post("/api/plugins/probe/panel", {"open": True})
    probe_host.wait(shows("ready"))
    assert probe_host.post("/api/world/focus", {"paneId": 12})[0] == 200
    probe_host.wait(shows("context shell"), what="context/changed after focus")
    assert probe_host.request("PATCH", "/api/world/panes/12", {"status": "working"})[0] == 200
    probe_host.wait(shows("context working"), what="context/changed after a status edit")
    assert probe_host.request("PATCH", "/api/world/panes/12", {"status": "sleeping"})[0] == 400
    status, answer = probe_host.request("PATCH", "/api/world/panes/11", {"session": {"turns": [{"role": "bot"}]}})
    assert status == 400 and "turns[0]" in answer["error"]
    assert probe_host.post("/api/world/language", {"language": "ja"})[0] == 200
    assert probe_host.post("/api/world/language", {"language": "fr"})[0] == 400
    assert probe_host.post("/api/world/focus", {"paneId": 99})[0] == 400
    status, answer = probe_host.post("/api/world/workspaces/1/panes", {"kind": "codex"})
    assert status == 200
    _status, state = probe_host.get("/api/state")
    assert state["world"]["language"] == "ja"
    panes = state["world"]["workspaces"][0]["panes"]
    assert panes[-1]["id"] == answer["paneId"] and panes[-1]["kind"] == "codex"


def test_links_go_to_the_named_plugin(probe_host):
    probe_host.post("/api/plugins/probe/panel", {"open": True})
    probe_host.wait(shows("ready"))
    status, answer = probe_host.post("/api/links", {"url": "agentty://plugin/probe/open?q=notes"})
    assert (status, answer["plugin"]) == (200, "probe")
    probe_host.wait(shows("url open notes"), what="the link")
    assert probe_host.post("/api/links", {"url": "agentty://plugin/ghost/open"})[0] == 400
    assert probe_host.post("/api/links", {"url": "https://example.com"})[0] == 400


def test_websocket_sends_a_snapshot_then_updates(probe_host):
    import aiohttp

    async def next_plugin_message(socket, predicate):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            message = json.loads((await socket.receive(timeout=10)).data)
            if message["type"] == "plugin" and predicate(message):
                return message
        raise AssertionError("no such update over the WebSocket")

    def logged(message):
        return any(e["kind"] == "stderr" and "log line" in e["text"] for e in message["plugin"]["log"])

    async def run():
        loop = asyncio.get_running_loop()
        async with aiohttp.ClientSession() as session, session.ws_connect(probe_host.url + "/ws") as socket:
            hello = json.loads((await socket.receive(timeout=5)).data)
            assert hello["type"] == "hello" and hello["state"]["plugins"][0]["key"] == "probe"
            await loop.run_in_executor(None, lambda: probe_host.post("/api/plugins/probe/panel", {"open": True}))
            panel_message = await next_plugin_message(socket, lambda m: m["plugin"].get("panel"))
            await loop.run_in_executor(None, lambda: probe_host.post(
                "/api/plugins/probe/command", {"command": "probe.burst", "args": {"logs": 2}}))
            return panel_message, await next_plugin_message(socket, logged)

    panel_message, log_message = asyncio.run(run())
    assert panel_message["key"] == "probe" and panel_message["plugin"]["panelSeq"] >= 1
    assert "panel" not in log_message["plugin"]  # an unchanged tree is not sent again with each log line


def test_plugin_restarts_when_its_files_change(probe_folder, tmp_path, api_factory):
    folder = tmp_path / "probe"
    shutil.copytree(probe_folder, folder)
    host = BackgroundDevHost([str(folder)], default_world(str(tmp_path)), str(tmp_path / "data"), watch=True)
    api = api_factory(host.start())
    try:
        api.post("/api/plugins/probe/panel", {"open": True})
        api.wait(shows("ready"))
        main = folder / "main.py"
        main.write_text(main.read_text().replace('note or "ready"', 'note or "edited and reloaded"'))
        api.wait(shows("edited and reloaded"), timeout=20, what="the restarted plugin's panel")
        restarted = api.wait(log_has("lifecycle", lambda e: "main.py changed" in e["text"]), what="restart entry")
        assert restarted
        assert api.plugin("probe")["restarts"] >= 1
        assert api.post("/api/plugins/probe/restart")[1] == {"ok": True, "state": "running"}
    finally:
        host.stop()


def test_a_broken_folder_is_shown_not_fatal(probe_folder, tmp_path, api_factory):
    broken = tmp_path / "broken-one"
    broken.mkdir()
    (broken / "agentty-plugin.json").write_text('{"id": "broken-one", "name": "", "version": "1"}')
    host = BackgroundDevHost([str(broken), probe_folder], default_world(str(tmp_path)), str(tmp_path / "data"))
    api = api_factory(host.start())
    try:
        _status, state = api.get("/api/state")
        broken_state = next(p for p in state["plugins"] if p["key"] == "broken-one")
        assert broken_state["state"] == "invalid" and "version" in broken_state["problem"]
        assert api.plugin("probe")["state"] == "running"
        status, _answer = api.post("/api/plugins/broken-one/event", {"element": "x", "event": "click"})
        assert status == 400
    finally:
        host.stop()


def test_crashed_plugin_is_reported_with_its_exit_code(tmp_path, api_factory):
    folder = tmp_path / "crasher"
    folder.mkdir()
    (folder / "agentty-plugin.json").write_text(json.dumps(
        {"id": "crasher", "name": "Crasher", "version": "0.1.0", "runtime": "python", "main": "main.py"}))
    (folder / "main.py").write_text('import sys\nsys.stderr.write("boom: cannot start\\n")\nsys.exit(3)\n')
    host = BackgroundDevHost([str(folder)], default_world(str(tmp_path)), str(tmp_path / "data"))
    api = api_factory(host.start())
    try:
        api.wait(lambda s: s["plugins"][0]["state"] == "failed", what="the crash")
        plugin = api.plugin("crasher")
        assert plugin["exitCode"] == 3
        assert any("boom" in e.get("text", "") for e in plugin["log"] if e["kind"] == "stderr")
    finally:
        host.stop()


def _running(pid):
    """Alive and not a zombie (an orphan's exit status may wait for a container's init to reap it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/status") as status:
            return not any(line.startswith("State:") and "Z" in line.split()[1] for line in status)
    except OSError:
        return False


def test_command_line_prints_the_url_and_stops_on_ctrl_c(probe_folder, tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "agentty_plugin", "dev", "--port", "0", "--data-dir", str(tmp_path / "data"),
         "--cwd", str(tmp_path), probe_folder],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p)))
    try:
        line = process.stdout.readline()
        assert line.startswith("Agentty dev host: http://127.0.0.1:"), line + process.stderr.read()
        started = ""
        while "lifecycle: started (pid" not in started:
            started = process.stderr.readline()
            assert started, "the dev host ended before starting its plugin"
        plugin_pid = int(started.rsplit("pid ", 1)[1].rstrip(")\n"))
        process.send_signal(signal.SIGINT)
        assert process.wait(15) == 0
        rest = process.stderr.read()
        assert "stopping the plugins" in rest and rest.rstrip().endswith("stopped") and "Traceback" not in rest
        # Ctrl-C stops the plugins with the host: none is left running behind it.
        assert not _running(plugin_pid)
    finally:
        if process.poll() is None:
            process.kill()


def test_dev_subcommand_explains_its_options():
    result = subprocess.run([sys.executable, "-m", "agentty_plugin", "dev", "--help"], capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p)))
    assert result.returncode == 0 and "--sample-data" in result.stdout


RAW_PLUGIN = r'''
import json, sys

def send(message):
    sys.stdout.write(json.dumps(dict(message, jsonrpc="2.0")) + "\n")
    sys.stdout.flush()

for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") == "initialize":
        send({"id": message["id"], "result": {}})
    elif message.get("method") == "panel/open":
        # No runtime here to pace things: two notifications 0 ms apart, and a tree Agentty refuses.
        send({"method": "ui/notify", "params": {"message": "first", "kind": "success"}})
        send({"method": "ui/notify", "params": {"message": "second", "kind": "info"}})
        send({"id": 1, "method": "ui/setPanel", "params": {"tree": {"type": "marquee"}}})
    elif message.get("method") == "shutdown":
        break
'''


def test_dropped_notifications_and_violations_are_shown(tmp_path, api_factory):
    folder = tmp_path / "raw"
    folder.mkdir()
    (folder / "agentty-plugin.json").write_text(json.dumps(
        {"id": "raw", "name": "Raw", "version": "0.1.0", "runtime": "python", "main": "main.py"}))
    (folder / "main.py").write_text(RAW_PLUGIN)
    host = BackgroundDevHost([str(folder)], default_world(str(tmp_path)), str(tmp_path / "data"))
    api = api_factory(host.start())
    try:
        api.post("/api/plugins/raw/panel", {"open": True})
        toasts = api.wait(log_has("toast", key="raw"), what="notifications")
        api.wait(log_has("toast", lambda e: e["dropped"], key="raw"), what="the dropped notification")
        plugin = api.plugin("raw")
        toasts = [(e["text"], e["dropped"]) for e in plugin["log"] if e["kind"] == "toast"]
        assert toasts == [("first", False), ("second", True)]
        violations = {e["code"]: e["text"] for e in plugin["log"] if e["kind"] == "violation"}
        assert set(violations) == {NOTIFICATION_DROPPED, INVALID_PANEL}, violations
        assert "marquee" in violations[INVALID_PANEL]  # the words name the element the host refused
        refused = [e for e in plugin["log"] if e["kind"] == "call" and e["method"] == "ui/setPanel"]
        assert refused == []  # panels are not logged as calls; the refusal shows as a violation instead
    finally:
        host.stop()


def test_an_agent_pane_works_on_a_submitted_prompt_then_finishes(probe_host, monkeypatch):
    from agentty_devhost import app

    monkeypatch.setattr(app, "AGENT_WORK_SECONDS", 0.5)
    probe_host.post("/api/plugins/probe/panel", {"open": True})
    probe_host.wait(shows("ready"))
    probe_host.post("/api/plugins/probe/command", {"command": "probe.call", "args": {
        "method": "inject_prompt", "args": ["Run the tests"], "kwargs": {"target": "active"}}})

    def pane_11(state):
        return state["world"]["workspaces"][0]["panes"][0]

    probe_host.wait(lambda s: pane_11(s)["status"] == "working", what="the agent to start working")
    assert pane_11(probe_host.get("/api/state")[1])["typed"] == [{"text": "Run the tests", "submitted": True}]
    probe_host.wait(shows("context working"), what="context/changed while working")
    probe_host.wait(lambda s: pane_11(s)["status"] == "finished", what="the agent to finish")
    probe_host.wait(shows("context finished"), what="context/changed when finished")
