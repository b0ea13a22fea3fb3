"""git-status: the focused repository, its worktrees and who changed what, every workspace, and hand-offs to agents."""
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
from git_status import ids  # noqa: E402
from git_status.app import App  # noqa: E402

plugin = Plugin()
app = App(plugin)  # the state, the readers and every handler: git_status/app.py

plugin.on_activate(app.activate)
plugin.on_panel_open(app.open)
plugin.on_panel_close(app.close)
plugin.on_context_change(app.context_changed)
plugin.on_shutdown(app.stop)

plugin.on_event(ids.REFRESH)(app.refresh_clicked)
plugin.on_event(ids.VIEW)(app.view_chosen)
plugin.on_event(ids.FOLLOW)(app.follow_focus)
plugin.on_event(ids.FILES_CONFLICTED)(app.file_event)  # the four file lists share a handler: the element
plugin.on_event(ids.FILES_STAGED)(app.file_event)  # says which group the file is in (ids.GROUP_OF)
plugin.on_event(ids.FILES_CHANGED)(app.file_event)
plugin.on_event(ids.FILES_UNTRACKED)(app.file_event)
plugin.on_event(ids.COMMITS)(app.commit_event)
plugin.on_event(ids.COMMIT_MESSAGE)(app.commit_message_clicked)
plugin.on_event(ids.EXPLAIN_BRANCH)(app.explain_branch_clicked)
plugin.on_event(ids.COLLISIONS)(app.collision_event)
plugin.on_event(ids.ALL_COLLISIONS)(app.collision_chosen)
plugin.on_event(ids.WORKTREES)(app.worktree_event)
plugin.on_event(ids.WORKSPACES)(app.workspace_chosen)

plugin.command(ids.CMD_OPEN)(app.open_command)
plugin.command(ids.CMD_REFRESH)(app.refresh_command)
plugin.command(ids.CMD_OVERVIEW)(app.overview_command)
plugin.command(ids.CMD_COMMIT_MESSAGE)(app.commit_message_command)
plugin.command(ids.CMD_EXPLAIN_BRANCH)(app.explain_branch_command)

if __name__ == "__main__":
    plugin.run()
