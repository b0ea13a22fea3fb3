"""Past summaries per workspace, kept in one JSON file in the plugin's data folder."""

import json
import os
import threading
import time
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from agentty_plugin.files import atomic_write_text

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
        """The entry, or None when any field has the wrong type (the file was changed by hand or damaged)."""
        if not _well_typed(raw):
            return None
        return cls(
            id=raw["id"], created=float(raw["created"]), title=raw.get("title", ""), agent=raw.get("agent", ""),
            session_id=raw.get("session_id", ""), summarizer=raw.get("summarizer", "local"),
            markdown=raw["markdown"], complete=raw.get("complete", True),
            saved_paths=list(raw.get("saved_paths", [])),
        )


_TEXT_FIELDS = ("title", "agent", "session_id", "summarizer")


def _well_typed(raw: Any) -> bool:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not isinstance(raw.get("markdown"), str):
        return False
    created = raw.get("created")
    if isinstance(created, bool) or not isinstance(created, (int, float)) or created != created:
        return False
    if any(not isinstance(raw.get(name, ""), str) for name in _TEXT_FIELDS):
        return False
    saved = raw.get("saved_paths", [])
    return (isinstance(raw.get("complete", True), bool) and isinstance(saved, list)
            and all(isinstance(path, str) for path in saved))


class Problem(NamedTuple):
    """What went wrong with the history file, told by the controller in the user's language."""

    # "damaged": moved aside to `path`; "damaged_in_place": could not be moved (`error` says why);
    # "unreadable": left in place, `error` says why.
    kind: str
    path: str
    kept: int = 0
    error: Optional[OSError] = None


def workspace_key(cwd: Optional[str], workspace_id: Any = None, name: Optional[str] = None) -> str:
    """Workspaces are keyed by folder because ids change when Agentty restarts."""
    if cwd:
        return "cwd:" + os.path.normpath(cwd)
    if name:
        return "name:" + name
    return "id:" + str(workspace_id if workspace_id is not None else "none")


class History:
    """Thread-safe; writes are atomic (temp file, fsync, rename).

    A damaged file (not JSON, or any entry of the wrong type) is moved aside, not lost, and its good
    entries are kept; a file that cannot be read (permissions, I/O) is left where it is (issue 24).
    """

    def __init__(self, data_dir: str) -> None:
        self.path = os.path.join(data_dir, FILE_NAME)
        self.problem: Optional[Problem] = None
        self._lock = threading.Lock()
        self._data: Optional[Dict[str, List[Dict[str, Any]]]] = None

    def _load(self) -> Dict[str, List[Dict[str, Any]]]:
        if self._data is not None:
            return self._data
        try:
            with open(self.path, "rb") as handle:
                raw = json.loads(handle.read().decode("utf-8"))
        except FileNotFoundError:
            raw = {"workspaces": {}}
        except OSError as exc:  # a permission error or an I/O error is not damage: the file stays where it is,
            self.problem = Problem("unreadable", self.path, error=exc)  # and nothing is written over it
            raise
        except ValueError:  # not JSON, or not UTF-8
            raw = None
        if self.problem is not None and self.problem.kind == "unreadable":
            self.problem = None  # readable again
        data, damaged = _valid_entries(raw)
        if damaged:
            self._move_aside(sum(len(items) for items in data.values()))
        self._data = data
        return data

    def _move_aside(self, kept: int) -> None:
        aside = self.path + ".corrupt-" + time.strftime("%Y%m%d-%H%M%S")
        try:
            os.replace(self.path, aside)
        except OSError as exc:  # e.g. a read-only data folder: the good entries are still shown
            self.problem = Problem("damaged_in_place", self.path, kept, error=exc)
            return
        self.problem = Problem("damaged", aside, kept)

    def _write(self, data: Dict[str, List[Dict[str, Any]]]) -> None:
        atomic_write_text(self.path, json.dumps({"version": 1, "workspaces": data}, ensure_ascii=False))

    def entries(self, key: str) -> List[HistoryEntry]:
        """Newest first; none while the file cannot be read (`problem` says why)."""
        with self._lock:
            try:
                raw = list(self._load().get(key, []))
            except OSError:
                return []
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
            items.sort(key=lambda item: float(item["created"]))  # every kept item passed _well_typed
            data[key] = items[-PER_WORKSPACE:]
            self._write(data)
        return entry

    def mark_saved(self, key: str, entry_id: str, path: str) -> None:
        with self._lock:
            data = self._load()
            for item in data.get(key, []):
                if item.get("id") == entry_id:
                    item["saved_paths"] = [*item.get("saved_paths", []), path]
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


def _valid_entries(raw: Any) -> Tuple[Dict[str, List[Dict[str, Any]]], bool]:
    """The well-typed entries of a history document, and whether anything in it was not (damage)."""
    workspaces = raw.get("workspaces") if isinstance(raw, dict) else None
    if not isinstance(workspaces, dict):
        return {}, True
    data: Dict[str, List[Dict[str, Any]]] = {}
    damaged = False
    for key, items in workspaces.items():
        if not isinstance(items, list):
            damaged = True
            continue
        good = [item for item in items if _well_typed(item)]
        damaged = damaged or len(good) != len(items)
        if good:
            data[str(key)] = good
    return data, damaged
