"""Session summarizer: a faithful, redacted summary of the focused agent session, saved or handed off.

This file only wires the host's events to the controller, session_summarizer/app.py.
"""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
for _extra in (os.path.join(_HERE, "_vendor"), os.path.join(_HERE, "..", "..", "shared")):
    if os.path.isdir(_extra) and _extra not in sys.path:
        sys.path.insert(0, _extra)

try:
    from agentty_plugin import Plugin
except ImportError:  # the bundle lost _vendor/agentty_plugin: still answer Agentty, with one line saying why
    import json

    _WHY = {"en": "This plugin's bundle is incomplete (_vendor/agentty_plugin is missing): install it again.",
            "ja": "このプラグインのバンドルは不完全です（_vendor/agentty_plugin がありません）。入れ直してください。",
            "ko": "이 플러그인의 번들이 불완전합니다(_vendor/agentty_plugin 없음). 다시 설치하세요.",
            "zh": "此插件的打包不完整（缺少 _vendor/agentty_plugin）：请重新安装。"}
    _text = _WHY.get(os.environ.get("AGENTTY_LANGUAGE", "en")[:2], _WHY["en"])

    def _send(message: dict) -> None:  # type: ignore[type-arg]
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    for _line in sys.stdin:
        try:
            _message = json.loads(_line)
        except ValueError:
            continue
        if isinstance(_message, dict) and _message.get("id") is not None and "method" in _message:
            _send({"jsonrpc": "2.0", "id": _message["id"], "result": None})
        if isinstance(_message, dict) and _message.get("method") == "initialize":
            _send({"jsonrpc": "2.0", "id": 1, "method": "ui/setPanel",
                   "params": {"tree": {"type": "text", "text": _text, "style": "error"}}})
        if isinstance(_message, dict) and _message.get("method") == "shutdown":
            break
    sys.exit(0)
from session_summarizer import ids  # noqa: E402
from session_summarizer.app import App  # noqa: E402

plugin = Plugin()
app = App(plugin)

plugin.on_activate(app.activated)
plugin.on_panel_open(app.open)
plugin.on_context_change(app.follow_focus)
plugin.on_shutdown(app.stop)

plugin.command(ids.CMD_SUMMARIZE)(app.summarize_command)
plugin.command(ids.CMD_SUMMARIZE_LLM)(app.summarize_llm_command)
plugin.command(ids.CMD_OPEN)(app.open_command)

plugin.on_event(ids.SUMMARIZE)(app.summarize_clicked)
plugin.on_event(ids.SUMMARIZE_LLM)(app.summarize_llm_clicked)
plugin.on_event(ids.STOP)(app.stop_clicked)
plugin.on_event(ids.USE_LOCAL)(app.use_local_clicked)
plugin.on_event(ids.SAVE)(app.save_clicked)
plugin.on_event(ids.HANDOFF)(app.handoff_clicked)
plugin.on_event(ids.REVEAL)(app.reveal_clicked)
plugin.on_event(ids.INSERT_PANES)(app.pane_row)  # its rows' Insert buttons
plugin.on_event(ids.HISTORY)(app.history_row)  # a click on a row, its Show and Delete buttons

# The settings inputs: each change (debounced by Agentty) and Enter store the value.
plugin.on_event(ids.NOTES_FOLDER)(app.setting_typed)
plugin.on_event(ids.LLM_PROVIDER)(app.setting_typed)
plugin.on_event(ids.LLM_BASE_URL)(app.setting_typed)
plugin.on_event(ids.LLM_MODEL)(app.setting_typed)
plugin.on_event(ids.LLM_KEY_ENV)(app.setting_typed)
plugin.on_event(ids.LLM_CONTEXT_TOKENS)(app.setting_typed)

if __name__ == "__main__":
    plugin.run()
