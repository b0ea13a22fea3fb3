"""Notes Search: find Markdown notes as you type and hand one to an agent (Agentty plugin entry point)."""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
for _extra in (os.path.join(_HERE, "_vendor"), os.path.join(_HERE, "..", "..", "shared")):
    if os.path.isdir(_extra) and _extra not in sys.path:
        sys.path.insert(0, _extra)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from agentty_plugin import ActivateInfo, CommandCall, Context, Plugin, UIEvent, UrlRequest  # noqa: E402
from notes_search.app import NotesApp  # noqa: E402

plugin = Plugin()
app = NotesApp(plugin)


@plugin.on_activate
def activate(info: ActivateInfo) -> None:
    app.activate(info.plugin.data_dir or plugin.data_dir)


@plugin.on_panel_open
def panel_open(context: Context) -> None:
    app.panel_opened()


@plugin.on_panel_close
def panel_close(context: Context) -> None:
    app.panel_closed()


@plugin.on_context_change
def context_changed(context: Context) -> None:
    app.context_changed()


@plugin.on_event("search.query")
def query(event: UIEvent, context: Context) -> None:
    if event.event in ("change", "submit"):
        app.search(event.value)


@plugin.on_event("search.results")
def result(event: UIEvent, context: Context) -> None:
    if event.event == "select" and event.item:
        app.actions.preview(event.item)
    elif event.event == "action":
        app.actions.row_action(event.item, event.action, context)


@plugin.on_event("toolbar.refresh")
def refresh(event: UIEvent, context: Context) -> None:
    app.queue("refresh", announce=True)


@plugin.on_event("toolbar.rebuild")
def rebuild(event: UIEvent, context: Context) -> None:
    app.queue("rebuild", announce=True)


@plugin.on_event("preview.back")
def back(event: UIEvent, context: Context) -> None:
    app.actions.close_preview()


@plugin.on_event("preview.insert")
@plugin.on_event("preview.continue")
@plugin.on_event("preview.reveal")
def preview_button(event: UIEvent, context: Context) -> None:
    app.actions.preview_button(event.element, context)


@plugin.on_event("folders.path")
def folder_typed(event: UIEvent, context: Context) -> None:
    if event.event == "submit":
        app.add_folder(event.value)
    else:
        app.folder_typed(event.value)


@plugin.on_event("folders.add")
def folder_add(event: UIEvent, context: Context) -> None:
    app.add_folder(app.state.folder_draft)


@plugin.on_event("folders.list")
def folder_remove(event: UIEvent, context: Context) -> None:
    if event.event == "action" and event.action == "remove":
        app.remove_folder(event.item)


@plugin.on_event("settings.engine")
def engine(event: UIEvent, context: Context) -> None:
    app.set_engine(event.value)


@plugin.command("notes-search.open")
def open_panel(call: CommandCall) -> None:
    plugin.show_panel()
    query_text = (call.args.get("query") or call.args.get("q")) if isinstance(call.args, dict) else call.args
    if isinstance(query_text, str):
        app.search(query_text, set_field=True)
    else:
        app.panel_opened()


@plugin.command("notes-search.reindex")
def reindex_command(call: CommandCall) -> None:
    app.queue("refresh", announce=True)


@plugin.command("notes-search.rebuild")
def rebuild_command(call: CommandCall) -> None:
    app.queue("rebuild", announce=True)


@plugin.on_url("open")
@plugin.on_url("continue")
def link(request: UrlRequest) -> None:
    app.actions.open_link(request.path.strip("/"), request.params)


@plugin.on_shutdown
def shutdown() -> None:
    app.shutdown()


if __name__ == "__main__":
    plugin.run()
