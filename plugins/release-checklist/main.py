"""release-checklist: the focused repository's own release checklist, checked step by step, carried by agents."""
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
from release_checklist import ids  # noqa: E402
from release_checklist.app import App  # noqa: E402

plugin = Plugin()
app = App(plugin)  # the state, the release and every handler: release_checklist/app.py

plugin.on_panel_open(app.open)
plugin.on_panel_close(app.close)
plugin.on_context_change(app.context_changed)
plugin.on_pane_status(app.pane_status_changed)
plugin.on_shutdown(app.shutdown)

plugin.on_event(ids.REFRESH)(app.refresh_clicked)
plugin.on_event(ids.VERSION)(app.version_event)
plugin.on_event(ids.VERSION_APPLY)(app.version_applied)
plugin.on_event(ids.RUN_ALL)(app.run_all_clicked)
plugin.on_event(ids.STOP)(app.stop_clicked)
plugin.on_event(ids.RESET)(app.reset_clicked)
plugin.on_event(ids.RESET_YES)(app.reset_answered)  # yes and no share a handler: the element says which
plugin.on_event(ids.RESET_NO)(app.reset_answered)
plugin.on_event(ids.STEPS)(app.step_event)  # a row click, or one of its ids.ACT_* buttons
plugin.on_event(ids.ENTER)(app.enter_toggled)
plugin.on_event(ids.HISTORY)(app.history_chosen)
plugin.on_event(ids.CONFIRM_YES)(app.confirm_answered)
plugin.on_event(ids.CONFIRM_NO)(app.confirm_answered)
plugin.on_event(ids.SKIP_REASON)(app.skip_reason_event)
plugin.on_event(ids.SKIP_CONFIRM)(app.skip_confirmed)
plugin.on_event(ids.SKIP_CANCEL)(app.skip_cancelled)
plugin.on_event(ids.WAIT_CANCEL)(app.wait_cancelled)
plugin.on_event(ids.OUTPUT_RETRY)(app.output_retry)
plugin.on_event(ids.OUTPUT_FIX)(app.output_fix)
plugin.on_event(ids.OUTPUT_SKIP)(app.output_skip)
plugin.on_event(ids.PROBLEMS)(app.problem_chosen)
plugin.on_event(ids.WRITE)(app.write_clicked)
plugin.on_event(ids.REVEAL)(app.reveal_clicked)

plugin.command(ids.CMD_OPEN)(app.open_command)
plugin.command(ids.CMD_RUN_CHECKS)(app.run_checks_command)
plugin.command(ids.CMD_STOP)(app.stop_command)
plugin.command(ids.CMD_WRITE_DEFAULT)(app.write_default_command)

if __name__ == "__main__":
    plugin.run()
