"""Past summaries per workspace, kept in one JSON file in the plugin's data folder."""

import json
import os
import threading
import time
from typing import Any, Dict, List, NamedTuple, Optional, Sequence

from agentty_plugin.state import atomic_write_text

FILE_NAME = "history.json"
PER_WORKSPACE = 30
MARKDOWN_LIMIT = 200_000


class HistoryEntry(NamedTuple):  # not a dataclass: the first panel lists these (see view.py)
    id: str
    created: float
    title: str
    agent: str
    session_id: str
    summarizer: str
    markdown: str
    complete: bool = True
    saved_paths: Sequence[str] = ()

    def to_dict(self) -> Dict[str, Any]:
        return dict(self._asdict(), saved_paths=list(self.saved_paths))

    @classmethod
    def from_dict(cls, raw: Any) -> Optional["HistoryEntry"]:
        if not isinstance(raw, dict) or not isinstance(raw.get("markdown"), str):
            return None
        try:
            return cls(
                id=str(raw.get("id") or os.urandom(6).hex()), created=float(raw.get("created") or 0),
                title=str(raw.get("title") or ""), agent=str(raw.get("agent") or ""),
                session_id=str(raw.get("session_id") or ""), summarizer=str(raw.get("summarizer") or "local"),
                markdown=raw["markdown"], complete=bool(raw.get("complete", True)),
                saved_paths=[str(p) for p in raw.get("saved_paths") or [] if isinstance(p, str)],
            )
        except (TypeError, ValueError):
            return None


def workspace_key(cwd: Optional[str], workspace_id: Any = None, name: Optional[str] = None) -> str:
    """Workspaces are keyed by folder because ids change when Agentty restarts."""
    if cwd:
        return "cwd:" + os.path.normpath(cwd)
    if name:
        return "name:" + name
    return "id:" + str(workspace_id if workspace_id is not None else "none")


class History:
    """Thread-safe; writes are atomic (temp file, fsync, rename); a corrupt file is moved aside, not lost."""

    def __init__(self, data_dir: str) -> None:
        self.path = os.path.join(data_dir, FILE_NAME)
        self.problem = ""
        self._lock = threading.Lock()
        self._data: Optional[Dict[str, List[Dict[str, Any]]]] = None

    def _load(self) -> Dict[str, List[Dict[str, Any]]]:
        if self._data is not None:
            return self._data
        data: Dict[str, List[Dict[str, Any]]] = {}
        try:
            with open(self.path, encoding="utf-8") as handle:
                raw = json.load(handle)
            workspaces = raw.get("workspaces") if isinstance(raw, dict) else None
            if not isinstance(workspaces, dict):
                raise ValueError("no workspaces")
            data = {str(k): [e for e in v if isinstance(e, dict)] for k, v in workspaces.items() if isinstance(v, list)}
        except FileNotFoundError:
            pass
        except (OSError, ValueError) as exc:
            aside = self.path + ".corrupt-" + time.strftime("%Y%m%d-%H%M%S")
            try:
                os.replace(self.path, aside)
                self.problem = "history file was unreadable and was moved to " + aside + " (" + str(exc)[:80] + ")"
            except OSError:
                self.problem = "history file is unreadable: " + str(exc)[:80]
        self._data = data
        return data

    def _write(self, data: Dict[str, List[Dict[str, Any]]]) -> None:
        atomic_write_text(self.path, json.dumps({"version": 1, "workspaces": data}, ensure_ascii=False))

    def entries(self, key: str) -> List[HistoryEntry]:
        """Newest first."""
        with self._lock:
            raw = list(self._load().get(key, []))
        entries = [entry for entry in (HistoryEntry.from_dict(item) for item in raw) if entry]
        return sorted(entries, key=lambda entry: entry.created, reverse=True)

    def get(self, key: str, entry_id: str) -> Optional[HistoryEntry]:
        return next((entry for entry in self.entries(key) if entry.id == entry_id), None)

    def add(self, key: str, title: str, agent: str, session_id: str, summarizer: str, markdown: str,
            complete: bool = True) -> HistoryEntry:
        entry = HistoryEntry(id=os.urandom(6).hex(), created=time.time(), title=title[:200], agent=agent,
                             session_id=session_id, summarizer=summarizer, markdown=markdown[:MARKDOWN_LIMIT],
                             complete=complete)
        with self._lock:
            data = self._load()
            items = [entry_dict for entry_dict in data.get(key, []) if entry_dict.get("id") != entry.id]
            items.append(entry.to_dict())
            items.sort(key=lambda item: float(item.get("created") or 0))
            data[key] = items[-PER_WORKSPACE:]
            self._write(data)
        return entry

    def mark_saved(self, key: str, entry_id: str, path: str) -> None:
        with self._lock:
            data = self._load()
            for item in data.get(key, []):
                if item.get("id") == entry_id:
                    item.setdefault("saved_paths", []).append(path)
                    self._write(data)
                    return

    def remove(self, key: str, entry_id: str) -> bool:
        with self._lock:
            data = self._load()
            before = data.get(key, [])
            after = [item for item in before if item.get("id") != entry_id]
            if len(after) == len(before):
                return False
            data[key] = after
            self._write(data)
            return True
