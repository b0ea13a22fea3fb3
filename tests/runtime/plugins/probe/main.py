"""A probe plugin for the runtime's tests: every handler records what it saw, commands call the host."""

import asyncio
import json
import os
import subprocess
import sys
import time

from agentty_plugin import AgenttyError, Plugin, ui

plugin = Plugin()
seen = []

# When the pacer gave each panel its turn (its schedule's last_panel, read while that panel is being
# written, before any other may have a turn): what the host's 50 ms rule is about, free of the delays
# of the pipe and of the harness's reader thread. Wrapped before the pacer is made, which reads it once.
panel_turns = []
_write_panel = plugin._send_panel_now


def _record_turn(panel):
    panel_turns.append(plugin._pacer._schedule.last_panel)
    _write_panel(panel)


plugin._send_panel_now = _record_turn


def render(note=""):
    plugin.set_panel(
        ui.column([
            ui.text(note or "ready", "title"),
            ui.input("probe.input", placeholder="type"),
            ui.button("probe.go", "Go", variant="primary"),
            ui.list("probe.rows", [ui.item("r1", "Row 1", actions=[ui.action("open", "Open")])], empty="none"),
            ui.text("seen: " + json.dumps(seen[-5:], ensure_ascii=False), "small"),
        ])
    )


@plugin.on_activate
def activate(info):
    seen.append(["activate", info.plugin.id, info.language, info.api_version])
    gate = os.environ.get("PROBE_ACTIVATE_GATE")
    if gate:
        # Activation lasts until the test creates this file: "slow" without guessing how slow.
        while not os.path.exists(gate):
            time.sleep(0.01)
        seen.append(["activated-late"])


@plugin.on_panel_open
def panel_open(context):
    seen.append(["panel_open", context.language, context.pane.id if context.pane else None])
    print("a stray print that must land in stderr")
    render()


@plugin.on_event("probe.go")
async def go(event, context):
    await asyncio.sleep(0.01)
    workspaces = await plugin.aio.list_workspaces()
    seen.append(["go", len(workspaces)])
    render("clicked")


@plugin.on_event("probe.rows")
def rows(event, context):
    seen.append(["rows", event.event, event.item, event.action])
    render(f"row {event.item} {event.action}")


@plugin.on_any_event
def any_event(event, context):
    seen.append(["any", event.element, event.event, event.value])
    render(f"any {event.element}={event.value}")


@plugin.on_context_change
def context_change(context):
    seen.append(["context", context.pane.status if context.pane else None])
    render(f"context {context.pane.status if context.pane else '-'}")


@plugin.on_url("open")
def open_link(request):
    render(f"url open {request.params.get('q', '')}")


@plugin.on_any_url
def any_link(request):
    render(f"url other {request.path}")


@plugin.command("probe.hello")
def hello(call):
    plugin.notify(f"hello {call.args}")
    plugin.set_badge("1/2")
    render(f"hello {call.args}")


@plugin.command("probe.call")
def call_host(call):
    method = call.args["method"]
    try:
        result = getattr(plugin, method)(*call.args.get("args", []), **call.args.get("kwargs", {}))
        if hasattr(result, "__dataclass_fields__"):
            result = repr(result)
        elif isinstance(result, list):
            result = [repr(r) if hasattr(r, "__dataclass_fields__") else r for r in result]
        render("result " + json.dumps(result, ensure_ascii=False, default=str))
    except AgenttyError as error:
        render(f"error {error.code} {error.message}")


@plugin.command("probe.redraws")
def redraws(call):
    """`count` redraws in a row; the panel says how many renders the runtime actually ran."""
    renders = []
    state = {"n": 0}

    def render():
        if call.args.get("fail"):
            raise ValueError("this render fails on purpose")
        renders.append(state["n"])
        return ui.column([ui.text(f"redraw {state['n']} after {len(renders)} renders", "title")])

    for n in range(int(call.args.get("count", 0))):
        state["n"] = n
        plugin.redraw(render)


@plugin.command("probe.thread-dies")
def thread_dies(call):
    """A worker thread of the plugin's own that raises: the runtime must show it, not only log it."""
    import threading

    def work():
        if call.args and call.args.get("disk_full"):
            raise OSError(28, "No space left on device", os.path.join(os.getcwd(), ".tmp-abc.part"))
        raise RuntimeError("the index writer lost its connection")

    threading.Thread(target=work, name="index-writer").start()


@plugin.command("probe.typed")
def typed(call):
    """The typed results of list_workspaces and get_context, field by field (not their reprs)."""
    workspaces = plugin.list_workspaces()
    context = plugin.get_context()
    report = {
        "workspaces": [[type(w).__name__, w.id, w.name, w.cwd, w.active,
                        [[type(p).__name__, p.id, p.kind, p.status, p.is_agent, p.is_busy, p.session_id]
                         for p in w.panes]] for w in workspaces],
        "context": [type(context).__name__, type(context.pane).__name__, context.pane.id, context.pane.title,
                    context.workspace.id, context.language],
    }
    render("typed " + json.dumps(report, ensure_ascii=False))


@plugin.on_panel_close
def panel_close(context):
    seen.append(["panel_close"])


@plugin.command("probe.burst")
def burst(call):
    for n in range(int(call.args.get("panels", 0))):
        render(f"burst {n}")
    for n in range(int(call.args.get("notes", 0))):
        plugin.notify(f"note {n}")
    first = int(call.args.get("first", 0))
    for n in range(first, first + int(call.args.get("logs", 0))):
        plugin.log(f"log line {n}")


@plugin.command("probe.turns")
def turns(call):
    """How many panels had a turn since the `since`-th, and the shortest gap between two turns."""
    taken = panel_turns[int(call.args.get("since", 0)):]
    gap = min((b - a for a, b in zip(taken, taken[1:])), default=float("inf"))
    render(f"turns {len(taken)} since {len(panel_turns) - len(taken)}, shortest gap {gap * 1000:.3f} ms")


@plugin.command("probe.slow")
def slow(call):
    render("slow started")
    subprocess.run([sys.executable, "-c", "import time; time.sleep(30)"])


@plugin.command("probe.fail")
def fail(call):
    raise RuntimeError("the probe failed on purpose")


@plugin.command("probe.needs")
def needs(call):
    """Stands for any plugin code path that imports a third-party package the install lacks."""
    render("loading")
    import probe_missing_package  # type: ignore[import-not-found]  # noqa: F401


@plugin.on_shutdown
def bye():
    path = os.environ.get("PROBE_SHUTDOWN_MARKER")
    if path:
        with open(path, "w") as handle:
            handle.write("shutdown handler ran")


if __name__ == "__main__":
    plugin.run()
