"""Session summarizer: a faithful, redacted summary of the focused agent session, saved or handed off."""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
for _extra in (os.path.join(_HERE, "_vendor"), os.path.join(_HERE, "..", "..", "shared")):
    if os.path.isdir(_extra) and _extra not in sys.path:
        sys.path.insert(0, _extra)

from agentty_plugin import ActivateInfo, CommandCall, Context, Plugin, UIEvent  # noqa: E402
from session_summarizer.app import SummarizerApp  # noqa: E402

plugin = Plugin()
app = SummarizerApp(plugin)


@plugin.on_activate
def activate(info: ActivateInfo) -> None:
    app.activate(info.plugin.data_dir or plugin.data_dir)


@plugin.on_panel_open
def panel_open(context: Context) -> None:
    app.refresh_panes()
    app.redraw()


@plugin.on_context_change
def context_changed(context: Context) -> None:
    app.redraw()


@plugin.command("session-summarizer.summarize")
def summarize_command(call: CommandCall) -> None:
    plugin.show_panel()
    app.summarize(use_llm=False)


@plugin.command("session-summarizer.summarize-llm")
def summarize_llm_command(call: CommandCall) -> None:
    plugin.show_panel()
    app.summarize(use_llm=True)


@plugin.command("session-summarizer.open")
def open_command(call: CommandCall) -> None:
    plugin.show_panel()
    app.redraw()


@plugin.on_event("session.summarize")
def summarize_clicked(event: UIEvent, context: Context) -> None:
    app.summarize(use_llm=False)


@plugin.on_event("session.summarizeLlm")
def summarize_llm_clicked(event: UIEvent, context: Context) -> None:
    app.summarize(use_llm=True)


@plugin.on_event("session.stop")
def stop_clicked(event: UIEvent, context: Context) -> None:
    app.stop()


@plugin.on_event("summary.useLocal")
def use_local_clicked(event: UIEvent, context: Context) -> None:
    app.use_local()


@plugin.on_event("summary.save")
def save_clicked(event: UIEvent, context: Context) -> None:
    app.save()


@plugin.on_event("summary.handoff")
def handoff_clicked(event: UIEvent, context: Context) -> None:
    app.handoff()


@plugin.on_event("notes.reveal")
def reveal_clicked(event: UIEvent, context: Context) -> None:
    app.reveal()


@plugin.on_event("insert.panes")
def insert_action(event: UIEvent, context: Context) -> None:
    if event.event == "action" and event.action == "insert" and event.item:
        app.insert(event.item)


@plugin.on_event("history.list")
def history_event(event: UIEvent, context: Context) -> None:
    if not event.item:
        return
    if event.event == "action" and event.action == "delete":
        app.delete_history(event.item)
    elif event.action == "show" or event.event != "action":  # its Show button, or a click on the row
        app.show_history(event.item)


# Text fields report each change (debounced by Agentty) and Enter; both simply store the value.
_SETTINGS = {"notes.folder": "notes_folder", "llm.baseUrl": "base_url", "llm.model": "model",
             "llm.keyEnv": "key_env", "llm.contextTokens": "context_tokens", "llm.provider": "provider"}


@plugin.on_any_event
def setting_changed(event: UIEvent, context: Context) -> None:
    name = _SETTINGS.get(event.element)
    if name and event.event in ("change", "submit"):
        app.set_setting(name, event.value)


@plugin.on_shutdown
def shutdown() -> None:
    app.stop()


if __name__ == "__main__":
    plugin.run()
