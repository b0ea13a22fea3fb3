"""Typed views of the host's context object: workspace, focused pane, language, pane statuses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional

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


@dataclass(frozen=True)
class Pane:
    """A terminal pane; cwd, title and session_id are None when permissions hide them."""

    id: Any
    kind: str = ""
    tool: Optional[str] = None
    title: Optional[str] = None
    cwd: Optional[str] = None
    session_id: Optional[str] = None
    status: str = ""
    running: bool = False
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

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


@dataclass(frozen=True)
class Workspace:
    """A workspace (window tab group); name and cwd are None without workspace.read."""

    id: Any
    name: Optional[str] = None
    cwd: Optional[str] = None
    active: bool = False
    panes: List[Pane] = field(default_factory=list)
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

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


@dataclass(frozen=True)
class Context:
    """The focused window's context as the host sent it, filtered by the plugin's permissions."""

    workspace: Optional[Workspace] = None
    pane: Optional[Pane] = None
    language: str = "en"
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

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


def context_dict(context: Context) -> Dict[str, Any]:
    """The raw wire form of a context (for logging or passing on)."""
    return dict(context.raw)
