"""Keep each release's step states on disk, per repository and version; a crash or kill -9 loses nothing.

Layout under the data folder, per repository `releases/<repo-name>-<hash>/`:

- `<version>.json`: a snapshot, always replaced atomically (temporary file, fsync, rename), so a
  reader sees the old file or the new one, never half of one;
- `<version>.journal`: one JSON line per step change since that snapshot, each written with a single
  append. This keeps a step's bookkeeping to microseconds (a snapshot costs milliseconds on slow
  disks); a line torn by a crash is ignored, and lines carry their writer's token and sequence
  number so a journal that outlived its snapshot is never replayed twice, even when two processes
  (the panel and the ACP agent) share the folder. Loading folds the journal into a new snapshot.

A step that was "running" when its process died reads back as "interrupted" (ReleaseRecord.recover).
"""
from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import itertools
import json
import os
import re
import sys
import time
import uuid
from typing import Any, Dict, List, Optional, Set

from agentty_plugin.state import atomic_write_text

from .steps import StepState

FORMAT_VERSION = 1
# Identifies this process as a writer: a "running" step saved under another token whose process is
# gone is shown as interrupted; journal lines are numbered per writer.
RUN_TOKEN = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
_SEQUENCE = itertools.count(1)


def process_alive(pid: int) -> bool:
    """Whether a process with this id still runs (a guess on pid reuse, which is rare and harmless here)."""
    if pid <= 0:
        return False
    if sys.platform == "win32":
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined,unused-ignore]
        handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        code = ctypes.c_ulong()
        kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
        kernel32.CloseHandle(handle)
        return code.value == 259  # STILL_ACTIVE
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True

MAX_TAIL_LINES_SAVED = 60


@dataclasses.dataclass
class StepRecord:
    """The saved state of one step in one release."""

    state: str = StepState.PENDING
    message: str = ""  # English summary from the runner ("exit code 1"); the panel localizes by outcome
    outcome: Optional[str] = None  # command_runner.Outcome value for checks
    exit_code: Optional[int] = None
    tail: List[str] = dataclasses.field(default_factory=list)
    reason: str = ""  # why it was skipped
    started_at: Optional[float] = None
    finished_at: Optional[float] = None
    owner: Optional[str] = None  # the run token of the process that marked it running

    def to_json(self) -> Dict[str, Any]:
        return {
            "state": self.state, "message": self.message, "outcome": self.outcome, "exit_code": self.exit_code,
            "tail": self.tail[-MAX_TAIL_LINES_SAVED:], "reason": self.reason, "started_at": self.started_at,
            "finished_at": self.finished_at, "owner": self.owner,
        }

    @classmethod
    def from_json(cls, data: Any) -> StepRecord:
        if not isinstance(data, dict):
            return cls()
        state = data.get("state")
        record = cls(state=state if state in StepState.ALL else StepState.PENDING)
        for name in ("message", "reason"):
            if isinstance(data.get(name), str):
                setattr(record, name, data[name])
        for name in ("outcome", "owner"):
            if isinstance(data.get(name), str):
                setattr(record, name, data[name])
        if isinstance(data.get("exit_code"), int):
            record.exit_code = data["exit_code"]
        for name in ("started_at", "finished_at"):
            if isinstance(data.get(name), (int, float)):
                setattr(record, name, float(data[name]))
        if isinstance(data.get("tail"), list):
            record.tail = [line for line in data["tail"] if isinstance(line, str)][-MAX_TAIL_LINES_SAVED:]
        return record


@dataclasses.dataclass
class ReleaseRecord:
    """Everything saved about one release of one repository."""

    repo: str
    version: str
    tag: str = ""
    created_at: float = dataclasses.field(default_factory=time.time)
    updated_at: float = dataclasses.field(default_factory=time.time)
    completed_at: Optional[float] = None
    steps: Dict[str, StepRecord] = dataclasses.field(default_factory=dict)
    titles: Dict[str, str] = dataclasses.field(default_factory=dict)  # for the history, if the file changes
    applied: Dict[str, int] = dataclasses.field(default_factory=dict)  # writer token -> last journal line folded in

    def step(self, step_id: str) -> StepRecord:
        return self.steps.setdefault(step_id, StepRecord())

    def recover(self, owner: str) -> List[str]:
        """Turn steps left "running" by a process that is gone into "interrupted"; return their ids."""
        recovered = []
        for step_id, record in self.steps.items():
            if record.state != StepState.RUNNING or record.owner == owner:
                continue
            pid_text = (record.owner or "").split("-", 1)[0]
            if pid_text.isdigit() and int(pid_text) != os.getpid() and process_alive(int(pid_text)):
                continue  # another live process (say the ACP agent) is running it right now
            record.state = StepState.INTERRUPTED
            record.message = "interrupted: the plugin stopped while this step was running"
            record.finished_at = record.finished_at or self.updated_at
            recovered.append(step_id)
        return recovered

    def to_json(self) -> Dict[str, Any]:
        return {
            "format": FORMAT_VERSION, "repo": self.repo, "version": self.version, "tag": self.tag,
            "created_at": self.created_at, "updated_at": self.updated_at, "completed_at": self.completed_at,
            "titles": self.titles, "steps": {key: value.to_json() for key, value in self.steps.items()},
            "applied": self.applied,
        }

    @classmethod
    def from_json(cls, data: Any, repo: str, version: str) -> ReleaseRecord:
        if not isinstance(data, dict):
            raise ValueError("not a release record")
        record = cls(repo=repo, version=version)
        tag = data.get("tag")
        record.tag = tag if isinstance(tag, str) else ""
        for name in ("created_at", "updated_at", "completed_at"):
            if isinstance(data.get(name), (int, float)):
                setattr(record, name, float(data[name]))
        steps = data.get("steps")
        if isinstance(steps, dict):
            record.steps = {str(key): StepRecord.from_json(value) for key, value in steps.items()}
        titles = data.get("titles")
        if isinstance(titles, dict):
            record.titles = {str(key): str(value) for key, value in titles.items()}
        applied = data.get("applied")
        if isinstance(applied, dict):
            record.applied = {str(key): value for key, value in applied.items() if isinstance(value, int)}
        return record


@dataclasses.dataclass(frozen=True)
class ReleaseSummary:
    """One line of a repository's release history."""

    version: str
    tag: str
    created_at: float
    updated_at: float
    completed_at: Optional[float]
    complete_steps: int
    total_steps: int
    failed_steps: int


def atomic_write_json(path: str, data: Any, durable: bool = True) -> None:
    """Write JSON so that readers see the old file or the new one, never a torn one."""
    atomic_write_text(path, json.dumps(data, ensure_ascii=False, indent=1), durable)


class RunStore:
    """Release records for every repository, in one folder."""

    def __init__(self, data_dir: str) -> None:
        self.root = os.path.join(data_dir, "releases")
        self.last_problem: Optional[str] = None  # e.g. a corrupt file that was moved aside
        self._folders: Dict[str, str] = {}

    def repo_folder(self, repo: str) -> str:
        if repo in self._folders:
            return self._folders[repo]
        real = os.path.realpath(repo)
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", os.path.basename(real.rstrip("/\\")) or "repo")[:40]
        digest = hashlib.sha1(os.path.normcase(real).encode("utf-8")).hexdigest()[:10]
        folder = self._folders[repo] = os.path.join(self.root, f"{name}-{digest}")
        return folder

    def path_for(self, repo: str, version: str) -> str:
        """The snapshot file; the journal sits next to it with the .journal suffix."""
        safe = re.sub(r"[^A-Za-z0-9._+-]+", "_", version)[:80] or "unversioned"
        return os.path.join(self.repo_folder(repo), f"{safe}.json")

    @staticmethod
    def _journal(snapshot_path: str) -> str:
        return snapshot_path[: -len(".json")] + ".journal"

    def load(self, repo: str, version: str) -> Optional[ReleaseRecord]:
        """The saved record (snapshot plus journal), or None. An unreadable snapshot is kept as *.corrupt-<time>."""
        record = self._load_path(self.path_for(repo, version), os.path.realpath(repo), version)
        if record is not None and os.path.exists(self._journal(self.path_for(repo, version))):
            self.save(record)  # fold the journal into a fresh snapshot
        return record

    def _load_path(self, path: str, repo: str, version: Optional[str]) -> Optional[ReleaseRecord]:
        record: Optional[ReleaseRecord] = None
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
            found = version or (data.get("version") if isinstance(data, dict) else None)
            if isinstance(found, str):
                record = ReleaseRecord.from_json(data, repo, found)
        except FileNotFoundError:
            pass
        except (OSError, ValueError) as error:
            aside = f"{path}.corrupt-{int(time.time())}"
            with contextlib.suppress(OSError):
                os.replace(path, aside)
            self.last_problem = f"{os.path.basename(path)} could not be read ({error}); kept as {aside}"
        return self._replay(self._journal(path), record, repo, version)

    def _replay(self, journal: str, record: Optional[ReleaseRecord], repo: str,
                version: Optional[str]) -> Optional[ReleaseRecord]:
        try:
            with open(journal, encoding="utf-8", errors="replace") as handle:
                lines = handle.read().splitlines()
        except OSError:
            return record
        for line in lines:
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # the last line may be cut short by a crash
            if not isinstance(entry, dict) or not isinstance(entry.get("seq"), int):
                continue
            writer = str(entry.get("writer", ""))
            if record is None:
                found = version or entry.get("version")
                if not isinstance(found, str):
                    continue
                record = ReleaseRecord.from_json({**entry, "applied": {}, "steps": {}}, repo, found)
            if entry["seq"] <= record.applied.get(writer, 0):
                continue  # already in the snapshot
            record.applied[writer] = entry["seq"]
            if isinstance(entry.get("step"), str):
                record.steps[entry["step"]] = StepRecord.from_json(entry.get("record"))
            completed = entry.get("completed_at")
            record.completed_at = float(completed) if isinstance(completed, (int, float)) else None
            for name in ("tag", "titles", "updated_at"):
                if name in entry:
                    with contextlib.suppress(ValueError):
                        other = ReleaseRecord.from_json({name: entry[name]}, repo, record.version)
                        setattr(record, name, getattr(other, name))
        return record

    def save(self, record: ReleaseRecord, durable: bool = True) -> None:
        """Write a snapshot atomically and drop the journal it replaces."""
        record.updated_at = time.time()
        path = self.path_for(record.repo, record.version)
        atomic_write_json(path, record.to_json(), durable)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._journal(path))

    def append(self, record: ReleaseRecord, step_id: str) -> None:
        """Record one step's new state with a single append (the hot path while checks run)."""
        seq = next(_SEQUENCE)
        record.applied[RUN_TOKEN] = seq
        record.updated_at = time.time()
        entry = {
            "writer": RUN_TOKEN, "seq": seq, "version": record.version, "tag": record.tag,
            "created_at": record.created_at, "updated_at": record.updated_at, "completed_at": record.completed_at,
            "titles": record.titles,
            "step": step_id, "record": record.step(step_id).to_json(),
        }
        line = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
        path = self.path_for(record.repo, record.version)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        descriptor = os.open(self._journal(path), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(descriptor, line)  # one write: the line is there whole, or (after a crash) cut and skipped
        finally:
            os.close(descriptor)

    def delete(self, repo: str, version: str) -> None:
        path = self.path_for(repo, version)
        for target in (path, self._journal(path)):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(target)

    def history(self, repo: str) -> List[ReleaseSummary]:
        """Every release recorded for repo, most recently touched first."""
        folder = self.repo_folder(repo)
        try:
            names = os.listdir(folder)
        except OSError:
            return []
        stems: Set[str] = {name.rsplit(".", 1)[0] for name in names
                           if name.endswith((".json", ".journal")) and not name.startswith(".")}
        summaries = []
        for stem in sorted(stems):
            record = self._load_path(os.path.join(folder, stem + ".json"), os.path.realpath(repo), None)
            if record is None:
                continue
            states = [step.state for step in record.steps.values()]
            summaries.append(ReleaseSummary(
                record.version, record.tag, record.created_at, record.updated_at, record.completed_at,
                sum(state in StepState.COMPLETE for state in states), max(len(record.titles), len(states)),
                sum(state in (StepState.FAILED, StepState.INTERRUPTED) for state in states),
            ))
        summaries.sort(key=lambda summary: summary.updated_at, reverse=True)
        return summaries
