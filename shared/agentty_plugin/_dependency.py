"""The panel a plugin shows when a package it needs cannot be imported: what is missing and how to fix it."""

from __future__ import annotations

import os

from . import ui
from .i18n import Translator

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List

TEXT = Translator({
    "en": {
        "title": "{name} cannot run: a Python package is missing",
        "detail": "Importing “{module}” failed: {error}",
        "bundle": "Installed from a bundle or zip: install it again from a complete bundle "
                  "(make bundle PLUGIN={id}, then make install PLUGIN={id}).",
        "link": "Running from a checkout (make link): run make link PLUGIN={id} again; "
                "it fills the folder's _vendor/.",
        "pip": "Or install what it needs for this python3: {command}",
        "restart": "Then press Restart on the plugin in Agentty's Plugins page.",
        "notify": "{name}: the Python package “{module}” is missing. Open the panel for how to fix it.",
    },
    "ja": {
        "title": "{name} を実行できません: Python パッケージが見つかりません",
        "detail": "「{module}」の読み込みに失敗しました: {error}",
        "bundle": "バンドルや zip からインストールした場合: 完全なバンドルから入れ直してください"
                  "（make bundle PLUGIN={id} のあと make install PLUGIN={id}）。",
        "link": "チェックアウトから実行している場合（make link）: "
                "make link PLUGIN={id} をもう一度実行すると _vendor/ が用意されます。",
        "pip": "または、この python3 に必要なものを入れてください: {command}",
        "restart": "そのあと Agentty の「プラグイン」画面でこのプラグインの「再起動」を押してください。",
        "notify": "{name}: Python パッケージ「{module}」が見つかりません。直し方はパネルを開いてください。",
    },
    "ko": {
        "title": "{name}을(를) 실행할 수 없습니다: Python 패키지가 없습니다",
        "detail": "“{module}” 가져오기 실패: {error}",
        "bundle": "번들이나 zip으로 설치했다면: 완전한 번들로 다시 설치하세요"
                  "(make bundle PLUGIN={id} 후 make install PLUGIN={id}).",
        "link": "체크아웃에서 실행 중이라면(make link): "
                "make link PLUGIN={id}를 다시 실행하면 _vendor/ 폴더가 채워집니다.",
        "pip": "또는 이 python3에 필요한 패키지를 설치하세요: {command}",
        "restart": "그런 다음 Agentty의 플러그인 화면에서 이 플러그인의 다시 시작을 누르세요.",
        "notify": "{name}: Python 패키지 “{module}”이(가) 없습니다. 해결 방법은 패널을 여세요.",
    },
    "zh": {
        "title": "{name} 无法运行：缺少一个 Python 包",
        "detail": "导入“{module}”失败：{error}",
        "bundle": "如果是从打包文件或 zip 安装的：请用完整的打包重新安装"
                  "（make bundle PLUGIN={id}，然后 make install PLUGIN={id}）。",
        "link": "如果是从源码目录运行（make link）：再运行一次 make link PLUGIN={id}，它会填好 _vendor/ 文件夹。",
        "pip": "或者为这个 python3 安装所需的包：{command}",
        "restart": "然后在 Agentty 的插件页面中点击该插件的“重新启动”。",
        "notify": "{name}：缺少 Python 包“{module}”。打开面板查看修复方法。",
    },
})


def pinned_packages(plugin_dir: str) -> List[str]:
    """The plugin's direct requirements (`name==version` lines not marked `# via`), for the pip hint.

    A checkout has them in `requirements.txt`; a bundle carries the same file in `_vendor/`, so the
    hint names the real package and version there too, not the name of the module that failed.
    """
    lines: List[str] = []
    for candidate in (os.path.join(plugin_dir, "requirements.txt"),
                      os.path.join(plugin_dir, "_vendor", "requirements.txt")):
        try:
            with open(candidate, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
            break
        except (OSError, UnicodeDecodeError):
            continue
    direct = []
    for line in lines:
        requirement, _, comment = line.partition("#")
        if requirement.strip() and "via" not in comment:
            direct.append(requirement.strip())
    return direct


def _raising_module(error: ImportError) -> str:
    """The module whose import raised a bare ImportError (a broken package raises one with no name)."""
    trace = error.__traceback__
    while trace is not None and trace.tb_next is not None:
        trace = trace.tb_next
    name = trace.tb_frame.f_globals.get("__name__") if trace is not None else None
    return str(name) if name else "?"


class MissingDependency:
    """An import that failed in this process; the plugin cannot work until it is fixed and restarted."""

    def __init__(self, error: ImportError, plugin_id: str, plugin_name: str, plugin_dir: str) -> None:
        self.module = error.name or _raising_module(error)
        self.error = f"{type(error).__name__}: {error}"
        self.plugin_id = plugin_id or "<id>"
        self.plugin_name = plugin_name or plugin_id or "This plugin"
        self.packages = pinned_packages(plugin_dir) if plugin_dir else []

    def _values(self) -> Dict[str, Any]:
        packages = " ".join(f"'{p}'" for p in self.packages) or self.module
        return {"name": self.plugin_name, "module": self.module, "error": self.error, "id": self.plugin_id,
                "command": f"python3 -m pip install --user {packages}"}

    def notification(self, language: str) -> str:
        return TEXT.get(language, "notify", **self._values())

    def panel(self, language: str) -> Dict[str, Any]:
        t = TEXT.for_language(language)
        values = self._values()
        return ui.column([
            ui.text(t("title", **values), style="title"),
            ui.text(t("detail", **values), style="error"),
            ui.text(t("bundle", **values)),
            ui.text(t("link", **values)),
            ui.text(t("pip", **values)),
            ui.text(t("restart", **values)),
        ])
