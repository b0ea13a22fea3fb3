"""Handlers: every Node SDK handler in snake_case, routing rules, async handlers, errors shown not fatal."""

from __future__ import annotations

import json


def seen_entries(host, tree):
    text = next(t for t in host.texts(tree) if t.startswith("seen:"))
    return json.loads(text[len("seen: "):])


def test_element_handler_takes_the_event_and_any_event_gets_the_rest(host):
    host.row_action("probe.rows", "r1", "open")
    tree = host.wait_for_text("row r1 open")
    assert ["rows", "action", "r1", "open"] in seen_entries(host, tree)
    host.type("probe.input", "hello")
    tree = host.wait_for_text("any probe.input=hello")
    entries = seen_entries(host, tree)
    assert ["any", "probe.input", "change", "hello"] in entries
    # The list had its own handler, so on_any_event never saw it.
    assert not any(e[0] == "any" and e[1] == "probe.rows" for e in entries)


def test_async_handler_awaits_host_calls(host):
    host.click("probe.go")
    tree = host.wait_for_text("clicked")
    assert ["go", 1] in seen_entries(host, tree)


def test_commands_receive_args_and_context(host):
    host.run_command("probe.hello", {"n": 3})
    host.wait_for_text("hello {'n': 3}")
    host.wait_for(lambda: host.badge == "1/2")


def test_context_changes_reach_the_handler_and_plugin_context(host):
    host.set_pane_status(11, "working")
    host.wait_for_text("context working")


def test_url_paths_route_to_their_handler_then_the_fallback(host):
    host.open_url("agentty://plugin/probe/open?q=release%20notes")
    host.wait_for_text("url open release notes")
    host.open_url("agentty://plugin/probe/elsewhere/deep?x=1")
    host.wait_for_text("url other elsewhere/deep")


def test_handler_error_is_logged_with_traceback_notified_and_the_plugin_keeps_running(host):
    host.run_command("probe.fail")
    host.wait_for(lambda: ("the probe failed on purpose", "error") in host.notifications, 5)
    host.wait_for(lambda: "RuntimeError" in host.stderr_text(), 5)  # stderr is read on its own thread
    assert "Traceback" in host.stderr_text() and "RuntimeError" in host.stderr_text()
    host.run_command("probe.hello", "again")
    host.wait_for_text("hello again")


def test_unknown_command_is_logged_not_fatal(host):
    host.send("command/execute", {"command": "probe.nothing", "args": None, "context": host.context()})
    host.wait_for(lambda: "no handler for command probe.nothing" in host.stderr_text(), 5)
    host.run_command("probe.hello", 1)
    host.wait_for_text("hello 1")


def test_panel_close_and_events_before_the_panel_do_not_crash(host):
    host.close_panel()
    # An event for an element of a panel that is closed (a late click): handled like any other.
    host.send("ui/event", {"element": "probe.input", "event": "change", "value": "late", "context": {}})
    host.wait_for_text("any probe.input=late")
    host.open_panel()
    tree = host.wait_for_text("ready")
    seen = next(t for t in host.texts(tree) if t.startswith("seen:"))
    assert seen.index('["panel_close"]') < seen.index('"late"') < seen.rindex('["panel_open"')
    assert "failed" not in host.stderr_text()
