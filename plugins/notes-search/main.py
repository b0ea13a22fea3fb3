"""Notes Search: find Markdown notes as you type and hand one to an agent (Agentty plugin entry point).

This file only wires the host's events to the controller, notes_search/app.py.
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
for _extra in (os.path.join(_HERE, "_vendor"), os.path.join(_HERE, "..", "..", "shared")):
    if os.path.isdir(_extra) and _extra not in sys.path:
        sys.path.insert(0, _extra)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

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
from notes_search import ids  # noqa: E402
from notes_search.app import App  # noqa: E402

plugin = Plugin()
app = App(plugin)  # the state, the index worker and every handler: notes_search/app.py

plugin.on_activate(app.activated)
plugin.on_panel_open(app.panel_opened)
plugin.on_panel_close(app.panel_closed)
plugin.on_context_change(app.context_changed)  # the empty query's related notes follow the focus
plugin.on_shutdown(app.shutdown)

plugin.on_event(ids.QUERY)(app.query_typed)
plugin.on_event(ids.RESULTS)(app.result_event)  # a click on a row previews; its buttons (ids.ACTION_*) act
plugin.on_event(ids.REFRESH)(app.refresh_clicked)
plugin.on_event(ids.REBUILD)(app.rebuild_clicked)
plugin.on_event(ids.PREVIEW_BACK)(app.back_clicked)
plugin.on_event(ids.PREVIEW_INSERT)(app.preview_insert_clicked)
plugin.on_event(ids.PREVIEW_CONTINUE)(app.preview_continue_clicked)
plugin.on_event(ids.PREVIEW_REVEAL)(app.preview_reveal_clicked)
plugin.on_event(ids.FOLDER_PATH)(app.folder_path_event)  # typing is remembered; Enter adds the folder
plugin.on_event(ids.FOLDER_ADD)(app.folder_add_clicked)
plugin.on_event(ids.FOLDERS)(app.folder_event)  # its rows' Remove buttons
plugin.on_event(ids.ENGINE)(app.engine_chosen)

plugin.command(ids.CMD_OPEN)(app.open_command)
plugin.command(ids.CMD_REINDEX)(app.reindex_command)
plugin.command(ids.CMD_REBUILD)(app.rebuild_command)

plugin.on_url(ids.LINK_OPEN)(app.link_opened)
plugin.on_url(ids.LINK_CONTINUE)(app.link_opened)

if __name__ == "__main__":
    plugin.run()
