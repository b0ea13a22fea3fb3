"""agentty-plugin: write Agentty plugins in Python (JSON-RPC over stdio, API 1 and 2), standard library only.

    from agentty_plugin import Plugin, ui

    plugin = Plugin()

    @plugin.on_panel_open
    def render(context):
        plugin.set_panel(ui.column([ui.text("Hello")]))

    if __name__ == "__main__":
        plugin.run()
"""

from . import ui
from ._generation import Generation
from .context import Context, Pane, Workspace, normalize_language, pane_is_busy
from .errors import AgenttyError
from .events import ActivateInfo, CommandCall, PluginInfo, UIEvent, UrlRequest
from .i18n import Translator, relative_time
from .plugin import API_VERSION, SDK_VERSION, Plugin
from .state import JsonFile

__all__ = [
    "API_VERSION",
    "SDK_VERSION",
    "ActivateInfo",
    "AgenttyError",
    "CommandCall",
    "Context",
    "Generation",
    "JsonFile",
    "Pane",
    "Plugin",
    "PluginInfo",
    "Translator",
    "UIEvent",
    "UrlRequest",
    "Workspace",
    "normalize_language",
    "pane_is_busy",
    "relative_time",
    "ui",
]
