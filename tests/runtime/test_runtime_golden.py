"""Golden wire fixtures: every message shape the runtime writes, and what the harness sends as the host.

Each file in golden/ holds one message as it must appear on the wire (ids replaced by "<id>").
Set AGENTTY_UPDATE_GOLDEN=1 to rewrite them after a deliberate change, then review the diff.
"""

from __future__ import annotations

import json
import os
import pathlib

import pytest

GOLDEN = pathlib.Path(__file__).parent / "golden"


def normalized(message):
    copy = json.loads(json.dumps(message))
    if "id" in copy:
        copy["id"] = "<id>"
    params = copy.get("params")
    if isinstance(params, dict):
        for key in ("dir", "dataDir", "cwd"):
            params.pop(key, None)
        if isinstance(params.get("plugin"), dict):
            params["plugin"].pop("dir", None)
            params["plugin"].pop("dataDir", None)
        if "context" in params:
            params["context"] = "<context>"
    return copy


def check(name, message):
    path = GOLDEN / f"{name}.json"
    actual = normalized(message)
    if os.environ.get("AGENTTY_UPDATE_GOLDEN") or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(json.dumps(actual, ensure_ascii=False, indent=2, sort_keys=True) + "\n")
        if not os.environ.get("AGENTTY_UPDATE_GOLDEN"):
            pytest.fail(f"wrote missing golden file {path.name}; review it and run again")
    assert actual == json.loads(path.read_text())


def first(host, method):
    host.wait_for(lambda: any(m.get("method") == method for m in host.received), 5, method)
    return next(m for m in host.received if m.get("method") == method)


def call(host, method, *args, **kwargs):
    host.run_command("probe.call", {"method": method, "args": list(args), "kwargs": kwargs})


PLUGIN_CALLS = [
    ("call_get_context", "context/get", "get_context", [], {}),
    ("call_host_info", "host/info", "host_info", [], {}),
    ("call_open_url", "host/openUrl", "open_url", ["https://example.com/docs"], {}),
    ("call_reveal_path", "host/revealPath", "reveal_path", ["/tmp"], {}),
    ("call_inject_prompt", "prompt/inject", "inject_prompt", ["Continue the release checklist."],
     {"title": "Release", "target": "ask"}),
    ("call_send_to_terminal", "terminal/send", "send_to_terminal", ["npm test"], {"pane_id": 12}),
    ("call_get_session", "session/get", "get_session", [], {"pane_id": 11, "max_turns": 200}),
    ("call_list_workspaces", "workspace/list", "list_workspaces", [], {}),
    ("call_show_panel", "ui/showPanel", "show_panel", [], {}),
    ("call_notify", "ui/notify", "notify", ["Saved"], {"kind": "success"}),
    ("call_set_badge", "ui/setBadge", "set_badge", ["3/8"], {}),
]


@pytest.mark.parametrize("name,method,function,args,kwargs", PLUGIN_CALLS, ids=[c[0] for c in PLUGIN_CALLS])
def test_plugin_to_host_calls(host, name, method, function, args, kwargs):
    call(host, function, *args, **kwargs)
    check(name, first(host, method))


def test_initialize_answer_and_set_panel(host):
    answer = next(m for m in host.received if "result" in m and m.get("id") == host.sent[0]["id"])
    check("initialize_result", answer)
    check("set_panel", first(host, "ui/setPanel"))


def test_method_not_found_answer(host):
    host.send("some/request", {}, request_id=777)
    host.wait_for(lambda: 777 in host.responses, 5)
    check("error_method_not_found", host.responses[777])


def test_host_to_plugin_messages(host):
    host.run_command("probe.hello", {"x": 1})
    host.click("probe.go")
    host.row_action("probe.rows", "r1", "open")
    host.open_url("agentty://plugin/probe/open?path=%2Fnotes%2Fa.md")
    host.focus(12)
    host.close_panel()
    by_method = {}
    for message in host.sent:
        by_method.setdefault(message["method"], message)
    check("host_initialize", by_method["initialize"])
    check("host_command_execute", by_method["command/execute"])
    check("host_panel_open", by_method["panel/open"])
    check("host_ui_event_click", by_method["ui/event"])
    check("host_ui_event_row_action", [m for m in host.sent if m["method"] == "ui/event"][1])
    check("host_url_open", by_method["url/open"])
    check("host_context_changed", by_method["context/changed"])
    check("host_panel_close", by_method["panel/close"])
