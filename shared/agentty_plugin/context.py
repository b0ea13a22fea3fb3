"""Typed views of the host's context object: workspace, focused pane, language, pane statuses."""

from __future__ import annotations

from collections.abc import Mapping

from ._record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, List, Optional

SUPPORTED_LANGUAGES = ("en", "ja", "ko", "zh")

# Statuses in which typing into a pane would interrupt the agent or answer its question for it.
# The seed says to treat "working" and "thinking" alike.
BUSY_STATUSES = frozenset({"working", "thinking", "permission", "question"})
AGENT_KINDS = frozenset({"claude", "codex"})


def pane_is_busy(status: Optional[str]) -> bool:
    """True when text must not be typed into a pane with this status."""
    return (status or "") in BUSY_STATUSES


def normalize_language(language: Any) -> str:
    """Map a host or locale language tag ("ja-JP", "zh_Hans", "KO") to en/ja/ko/zh, else "en"."""
    if not isinstance(language, str) or not language:
        return "en"
    base = language.strip().replace("_", "-").split("-")[0].lower()
    return base if base in SUPPORTED_LANGUAGES else "en"


def _str(value: Any) -> Optional[str]:
    return value if isinstance(value, str) else None


def _bool(value: Any) -> bool:
    return value if isinstance(value, bool) else False


class Pane(Record):
    """A terminal pane; cwd, title and session_id are None when permissions hide them."""

    __slots__ = ("id", "kind", "tool", "title", "cwd", "session_id", "status", "running", "raw")
    _fields = __slots__
    _hidden_fields = ("raw",)

    def __init__(
        self,
        id: Any,
        kind: str = "",
        tool: Optional[str] = None,
        title: Optional[str] = None,
        cwd: Optional[str] = None,
        session_id: Optional[str] = None,
        status: str = "",
        running: bool = False,
        raw: Optional[Mapping[str, Any]] = None,
    ) -> None:
        self.id = id
        self.kind = kind
        self.tool = tool
        self.title = title
        self.cwd = cwd
        self.session_id = session_id
        self.status = status
        self.running = running
        self.raw: Mapping[str, Any] = raw or {}

    @classmethod
    def from_wire(cls, data: Any) -> Optional[Pane]:
        if not isinstance(data, Mapping):
            return None
        return cls(
            id=data.get("id"),
            kind=_str(data.get("kind")) or "",
            tool=_str(data.get("tool")),
            title=_str(data.get("title")),
            cwd=_str(data.get("cwd")),
            session_id=_str(data.get("sessionId")),
            status=_str(data.get("status")) or "",
            running=_bool(data.get("running")),
            raw=dict(data),
        )

    @property
    def is_agent(self) -> bool:
        """A Claude Code or Codex pane (other agent CLIs run in shell panes)."""
        return self.kind in AGENT_KINDS

    @property
    def is_busy(self) -> bool:
        return pane_is_busy(self.status)


class Workspace(Record):
    """A workspace (window tab group); name and cwd are None without workspace.read."""

    __slots__ = ("id", "name", "cwd", "active", "panes", "raw")
    _fields = __slots__
    _hidden_fields = ("raw",)

    def __init__(
        self,
        id: Any,
        name: Optional[str] = None,
        cwd: Optional[str] = None,
        active: bool = False,
        panes: Optional[List[Pane]] = None,
        raw: Optional[Mapping[str, Any]] = None,
    ) -> None:
        self.id = id
        self.name = name
        self.cwd = cwd
        self.active = active
        self.panes: List[Pane] = panes or []
        self.raw: Mapping[str, Any] = raw or {}

    @classmethod
    def from_wire(cls, data: Any) -> Optional[Workspace]:
        if not isinstance(data, Mapping):
            return None
        panes_raw = data.get("panes")
        panes = [p for p in (Pane.from_wire(x) for x in panes_raw or []) if p is not None] if isinstance(
            panes_raw, list
        ) else []
        return cls(
            id=data.get("id"),
            name=_str(data.get("name")),
            cwd=_str(data.get("cwd")),
            active=_bool(data.get("active")),
            panes=panes,
            raw=dict(data),
        )


class Context(Record):
    """The focused window's context as the host sent it, filtered by the plugin's permissions."""

    __slots__ = ("workspace", "pane", "language", "raw")
    _fields = __slots__
    _hidden_fields = ("raw",)

    def __init__(
        self,
        workspace: Optional[Workspace] = None,
        pane: Optional[Pane] = None,
        language: str = "en",
        raw: Optional[Mapping[str, Any]] = None,
    ) -> None:
        self.workspace = workspace
        self.pane = pane
        self.language = language
        self.raw: Mapping[str, Any] = raw or {}

    @classmethod
    def from_wire(cls, data: Any, fallback_language: str = "en") -> Context:
        if not isinstance(data, Mapping):
            return cls(language=normalize_language(fallback_language))
        language = data.get("language")
        return cls(
            workspace=Workspace.from_wire(data.get("workspace")),
            pane=Pane.from_wire(data.get("pane")),
            language=normalize_language(language if language else fallback_language),
            raw=dict(data),
        )

    @property
    def cwd(self) -> Optional[str]:
        """The folder the user is working in: the focused pane's, else the workspace's."""
        if self.pane is not None and self.pane.cwd:
            return self.pane.cwd
        if self.workspace is not None and self.workspace.cwd:
            return self.workspace.cwd
        return None


def workspaces_from_wire(data: Any) -> List[Workspace]:
    """Parse a `workspace/list` result, skipping malformed entries."""
    if not isinstance(data, list):
        return []
    return [w for w in (Workspace.from_wire(x) for x in data) if w is not None]
