"""Host calls: wire shapes, results, and host errors raised as AgenttyError with their codes."""

from __future__ import annotations

import time
from typing import Any, Dict, List, Tuple

import pytest
from agentty_plugin import AgenttyError
from agentty_plugin._calls import HostCalls
from agentty_plugin._workers import Reply
from agentty_plugin.errors import TIMED_OUT
from agentty_plugin.testing import PluginHost
from runtime_helpers import PROBE, make_world


def call(host, method, *args, **kwargs):
    before = len(host.panels)
    host.run_command("probe.call", {"method": method, "args": list(args), "kwargs": kwargs})
    tree = host.wait_for_panel(lambda t: any(s.startswith(("result", "error")) for s in host.texts(t)), after=before)
    return next(s for s in host.texts(tree) if s.startswith(("result", "error")))


def test_get_session_sends_pane_and_max_turns_and_returns_the_last_turns(host):
    text = call(host, "get_session", pane_id=11, max_turns=5)
    params = host.calls_of("session/get")[-1].params
    assert params == {"paneId": 11, "maxTurns": 5}
    assert '"turnCount": 300' in text and "turn 299" in text and "turn 294" not in text


def test_max_turns_is_clamped_to_the_hosts_maximum(host):
    call(host, "get_session", max_turns=50000)
    assert host.calls_of("session/get")[-1].params == {"maxTurns": 2000}


def host_error_shown(host, method):
    """What the host answered the plugin's last `method` call, as the probe shows an AgenttyError."""
    answer = host.calls_of(method)[-1].error
    return f"error {answer['code']} {answer['message']}"


def test_session_of_a_pane_without_one_is_unavailable(host):
    text = call(host, "get_session", pane_id=12)
    assert host.calls_of("session/get")[-1].params == {"paneId": 12}
    # The host's code and message reach the handler unchanged, as AgenttyError.code / .message.
    assert text == host_error_shown(host, "session/get") and text.startswith("error -32002 ")


def test_a_session_error_set_in_the_world_reaches_the_handler_with_its_code(host):
    host.world.pane(11).session_error = (-32001, "the user turned session reading off")
    assert call(host, "get_session", pane_id=11) == "error -32001 the user turned session reading off"


def test_unknown_pane_is_invalid_params(host):
    text = call(host, "send_to_terminal", "ls", pane_id=999)
    assert host.calls_of("terminal/send")[-1].params == {"text": "ls", "submit": False, "paneId": 999}
    assert text == host_error_shown(host, "terminal/send") and text.startswith("error -32602 ")
    assert host.world.pane(12).typed == []  # nothing was typed anywhere else instead


def test_inject_prompt_maps_snake_case_options_to_the_wire(host):
    call(host, "inject_prompt", "Review this", target="newTab", agent="codex", cwd="/tmp", title="Review", submit=False)
    params = host.calls_of("prompt/inject")[-1].params
    assert params == {"text": "Review this", "target": "newTab", "agent": "codex", "cwd": "/tmp",
                      "title": "Review", "submit": False}


def test_send_to_terminal_defaults_to_no_enter(host):
    call(host, "send_to_terminal", "echo hi", pane_id=12)
    assert host.calls_of("terminal/send")[-1].params == {"text": "echo hi", "submit": False, "paneId": 12}
    assert host.world.pane(12).typed == [("echo hi", False)]


def test_list_workspaces_and_context_are_typed(host):
    import json

    host.run_command("probe.typed")
    tree = host.wait_for_text("typed ")
    report = json.loads(next(s for s in host.texts(tree) if s.startswith("typed "))[len("typed "):])
    workspace = ["Workspace", 1, "project", host.world.workspaces[0].cwd, True]
    panes = [["Pane", 11, "claude", "idle", True, False, "s-1"],
             ["Pane", 12, "shell", "shell", False, False, None],
             ["Pane", 13, "codex", "working", True, True, None]]
    assert report["workspaces"] == [[*workspace, panes]]
    assert report["context"] == ["Context", "Pane", 11, "Claude Code", 1, "en"]


def test_a_call_without_its_permission_raises_minus_32001(tmp_path):
    import json
    import shutil

    folder = tmp_path / "probe"
    shutil.copytree(PROBE, folder)
    manifest = json.loads((folder / "agentty-plugin.json").read_text())
    manifest["permissions"] = []
    (folder / "agentty-plugin.json").write_text(json.dumps(manifest))
    with PluginHost(str(folder), world=make_world(tmp_path), data_dir=str(tmp_path / "d")) as host:
        host.open_panel()
        host.wait_for_text("ready")
        text = call(host, "get_session")
        assert text.startswith("error -32001") and "session.read" in text
        # Without workspace.read the context hides folders and titles, as Agentty does.
        assert "cwd=None" in call(host, "get_context") and "title=None" in call(host, "get_context")


@pytest.mark.parametrize("method,args", [("storage_get", ["k"]), ("copy", ["text"]), ("timer", [100])])
def test_api_2_calls_fail_clearly_on_an_api_1_host(host, method, args):
    text = call(host, method, *args)
    assert text.startswith("error -32601") and "API 2" in text
    assert host.calls_of(method) == []


def test_api_2_calls_work_on_an_api_2_host(tmp_path):
    world = make_world(tmp_path)
    world.api_version = 2
    with PluginHost(PROBE, world=world, data_dir=str(tmp_path / "d")) as host:
        host.open_panel()
        host.wait_for_text("ready")
        assert call(host, "storage_set", "notes.root", {"path": "/x"}) == "result null"
        assert call(host, "storage_get", "notes.root") == 'result {"path": "/x"}'
        assert call(host, "storage_keys") == 'result ["notes.root"]'
        call(host, "copy", "clip")
        assert host.clipboard == "clip"
        assert call(host, "timer", 100) == 'result {"elapsedMs": 100}'


def test_badge_longer_than_8_characters_is_refused_before_sending(host):
    host.run_command("probe.call", {"method": "set_badge", "args": ["123456789"]})
    host.wait_for(lambda: any(kind == "error" and "longer than 8" in msg for msg, kind in host.notifications), 5)
    assert host.calls_of("ui/setBadge") == []
    assert host.badge == ""


# ---------------------------------------------------------------- plugin.within(seconds): one deadline for many

class HeldCalls(HostCalls):
    """The calls part of a plugin whose requests are answered only when the test says so."""

    call_timeout = 60.0

    def __init__(self) -> None:
        self.sent: List[Tuple[str, Dict[str, Any], Reply]] = []

    def _request(self, method, params, min_api=1):
        reply = Reply()
        self.sent.append((method, params, reply))
        return reply


def test_calls_within_a_deadline_are_in_flight_together_and_answer_in_time_or_time_out():
    calls = HeldCalls()
    soon = calls.within(0.0)  # a deadline already over: answered calls still give their answer, others time out
    first = soon.start("get_session", 3, 10)
    second = soon.start("get_session", 4)
    assert [(m, p) for m, p, _r in calls.sent] == [("session/get", {"paneId": 3, "maxTurns": 10}),
                                                  ("session/get", {"paneId": 4})]  # both sent before any wait
    calls.sent[0][2].set_result({"turns": [{"role": "user"}]})
    assert first.result() == {"turns": [{"role": "user"}]}
    started = time.monotonic()
    with pytest.raises(AgenttyError) as late:
        second.result()  # at once, not after the plugin's 60 s call_timeout
    assert late.value.code == TIMED_OUT and late.value.method == "session/get"
    assert soon.deadline <= started


def test_a_host_error_within_a_deadline_is_the_hosts_error():
    calls = HeldCalls()
    pending = calls.within(30).start("get_session", 9)
    calls.sent[0][2].set_exception(AgenttyError("needs session.read", -32001, "session/get"))
    with pytest.raises(AgenttyError) as refused:
        pending.result()
    assert refused.value.is_permission


def test_a_blocking_call_within_a_deadline_and_an_unknown_name():
    calls = HeldCalls()
    soon = calls.within(0.0)  # already over: the blocking form raises at once instead of waiting 60 s
    with pytest.raises(AgenttyError) as late:
        soon.list_workspaces()
    assert late.value.code == TIMED_OUT and calls.sent[0][0] == "workspace/list"
    with pytest.raises(AttributeError):
        soon.start("no_such_call")
