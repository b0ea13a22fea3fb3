"""The banner the runtime puts above a plugin's panel when background work failed, in the user's words."""

from __future__ import annotations

from . import ui
from .i18n import Translator

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Mapping

TEXT = Translator({
    "en": {
        "failed": "Something stopped working in the background ({where}): {error}",
        "failed_nowhere": "Something stopped working in the background: {error}",
        "advice": "The panel may be out of date. If it stays that way, press Restart on the plugin in "
                  "Agentty's Plugins page; the plugin log has the details.",
        "dismiss": "Dismiss",
    },
    "ja": {
        "failed": "バックグラウンドの処理が止まりました（{where}）: {error}",
        "failed_nowhere": "バックグラウンドの処理が止まりました: {error}",
        "advice": "パネルの内容が古い可能性があります。直らない場合は Agentty の「プラグイン」画面でこのプラグインの"
                  "「再起動」を押してください。詳細はプラグインのログにあります。",
        "dismiss": "閉じる",
    },
    "ko": {
        "failed": "백그라운드 작업이 멈췄습니다({where}): {error}",
        "failed_nowhere": "백그라운드 작업이 멈췄습니다: {error}",
        "advice": "패널 내용이 오래되었을 수 있습니다. 계속 그렇다면 Agentty의 플러그인 화면에서 이 플러그인의 "
                  "다시 시작을 누르세요. 자세한 내용은 플러그인 로그에 있습니다.",
        "dismiss": "닫기",
    },
    "zh": {
        "failed": "后台工作已停止（{where}）：{error}",
        "failed_nowhere": "后台工作已停止：{error}",
        "advice": "面板内容可能已过时。如果一直如此，请在 Agentty 的插件页面中点击该插件的“重新启动”；"
                  "详细信息在插件日志中。",
        "dismiss": "关闭",
    },
})


def describe_failure(error: BaseException, language: str, where: str = "") -> str:
    """What failed, in words: an OSError as its reason and folder, anything else as its message."""
    if isinstance(error, OSError) and error.errno is not None:
        from .files import describe_os_error

        detail = describe_os_error(error, language)
    else:
        detail = str(error).strip() or error.__class__.__name__
    t = TEXT.for_language(language)
    if where and not where.startswith(("Thread-", "agentty-")):
        return t("failed", where=where, error=detail)
    return t("failed_nowhere", error=detail)


def with_failure_banner(tree: Mapping[str, Any], message: str, language: str, dismiss_id: str) -> Any:
    """The plugin's own tree, below a banner that says what failed and a button to dismiss it."""
    t = TEXT.for_language(language)
    banner = ui.column([
        ui.text(message, style="error"),
        ui.text(t("advice"), style="muted"),
        ui.row([ui.button(dismiss_id, t("dismiss"), icon="x")]),
        ui.divider(),
    ], gap="small")
    return ui.column([banner, dict(tree)])
