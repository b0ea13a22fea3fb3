"""What handlers receive: the records built from `initialize`, `command/execute`, `ui/event` and `url/open`."""

from __future__ import annotations

import os
from collections.abc import Mapping

from ._record import Record
from .context import Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Optional


class PluginInfo(Record):
    """Who we are, from `initialize`: id, name, version, folder and private data folder."""

    __slots__ = ("id", "name", "version", "dir", "data_dir")
    _fields = __slots__

    def __init__(self, id: str = "", name: str = "", version: str = "", dir: str = "", data_dir: str = "") -> None:
        self.id = id
        self.name = name
        self.version = version
        self.dir = dir
        self.data_dir = data_dir


class ActivateInfo(Record):
    """The `initialize` parameters, typed; `raw` holds them as sent."""

    __slots__ = ("api_version", "agentty_version", "plugin", "language", "context", "raw")
    _fields = __slots__
    _hidden_fields = ("raw",)

    def __init__(self, api_version: int, agentty_version: str, plugin: PluginInfo, language: str,
                 context: Context, raw: Optional[Mapping[str, Any]] = None) -> None:
        self.api_version = api_version
        self.agentty_version = agentty_version
        self.plugin = plugin
        self.language = language
        self.context = context
        self.raw: Mapping[str, Any] = raw or {}


class CommandCall(Record):
    """A `command/execute`: the command id, its args (anything JSON) and the context."""

    __slots__ = ("command", "args", "context")
    _fields = __slots__

    def __init__(self, command: str, args: Any, context: Context) -> None:
        self.command = command
        self.args = args
        self.context = context


class UIEvent(Record):
    """A `ui/event`: `item` is a list row's id, `action` a row button's id, `value` what was typed or chosen."""

    __slots__ = ("element", "event", "value", "item", "action", "context", "raw")
    _fields = __slots__
    _hidden_fields = ("raw",)

    def __init__(self, element: str, event: str, value: Any, item: Optional[str], action: Optional[str],
                 context: Context, raw: Optional[Mapping[str, Any]] = None) -> None:
        self.element = element
        self.event = event
        self.value = value
        self.item = item
        self.action = action
        self.context = context
        self.raw: Mapping[str, Any] = raw or {}


class UrlRequest(Record):
    """An `agentty://plugin/<id>/<path>?query` link. Treat everything in it as text from a stranger."""

    __slots__ = ("path", "query", "params", "url", "context")
    _fields = __slots__

    def __init__(self, path: str, query: Any, params: Dict[str, str], url: str, context: Context) -> None:
        self.path = path
        self.query = query
        self.params = params
        self.url = url
        self.context = context


def activate_info(params: Mapping[str, Any], api_version: int, language: str, context: Context) -> ActivateInfo:
    """The `initialize` parameters as an ActivateInfo; what the host left out comes from Agentty's environment."""
    plugin = params.get("plugin") if isinstance(params.get("plugin"), Mapping) else {}
    agentty = params.get("agentty") if isinstance(params.get("agentty"), Mapping) else {}
    assert isinstance(plugin, Mapping) and isinstance(agentty, Mapping)
    return ActivateInfo(
        api_version=api_version,
        agentty_version=str(agentty.get("version", os.environ.get("AGENTTY_VERSION", ""))),
        plugin=PluginInfo(
            id=str(plugin.get("id", os.environ.get("AGENTTY_PLUGIN_ID", ""))),
            name=str(plugin.get("name", "")),
            version=str(plugin.get("version", "")),
            dir=str(plugin.get("dir", os.environ.get("AGENTTY_PLUGIN_DIR", os.getcwd()))),
            data_dir=str(plugin.get("dataDir", os.environ.get("AGENTTY_PLUGIN_DATA", ""))),
        ),
        language=language,
        context=context,
        raw=dict(params),
    )


def url_params(query: Any, url: str) -> Dict[str, str]:
    """The link's query as {name: first value}, whether the host sent a string, an object or only the URL."""
    from urllib.parse import parse_qs, urlsplit

    if isinstance(query, Mapping):
        return {str(k): (str(v[0]) if isinstance(v, list) and v else str(v)) for k, v in query.items()}
    text = query if isinstance(query, str) else urlsplit(url).query if isinstance(url, str) else ""
    return {k: v[0] for k, v in parse_qs(text.lstrip("?"), keep_blank_values=True).items()}
