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
import errno
import hashlib
import itertools
import json
import os
import re
import sys
import time
import uuid
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

from agentty_plugin.files import atomic_write_text

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
_NUMBER = (int, float)
_STEP_FIELDS = {"message": (str,), "reason": (str,), "outcome": (str, type(None)), "owner": (str, type(None)),
                "exit_code": (int, type(None)), "started_at": (*_NUMBER, type(None)),
                "finished_at": (*_NUMBER, type(None)), "tail": (list,)}
_RECORD_FIELDS = {"format": (int,), "repo": (str,), "version": (str,), "tag": (str,), "created_at": _NUMBER,
                  "updated_at": _NUMBER, "completed_at": (*_NUMBER, type(None)), "titles": (dict,),
                  "steps": (dict,), "applied": (dict,)}


def _check_fields(data: Any, fields: Dict[str, Tuple[type, ...]], what: str) -> None:
    """Raise ValueError for a field of the wrong type: a file changed by hand or by another program is
    damaged as surely as a torn one, and reading it as defaults would silently forget results."""
    if not isinstance(data, dict):
        raise ValueError(f"{what} is a {type(data).__name__}, not an object")
    for name, types in fields.items():
        value = data.get(name)
        if name in data and (not isinstance(value, types) or isinstance(value, bool)):
            raise ValueError(f"{what}: {name!r} is {value!r}")


def check_step_json(data: Any, what: str = "a step") -> None:
    _check_fields(data, _STEP_FIELDS, what)
    if data.get("state") not in StepState.ALL:
        raise ValueError(f"{what}: state {data.get('state')!r} is unknown")
    if not all(isinstance(line, str) for line in data.get("tail", [])):
        raise ValueError(f"{what}: the output is not text")


def check_record_json(data: Any) -> None:
    """ValueError unless data reads as a release record written by this plugin."""
    _check_fields(data, _RECORD_FIELDS, "the record")
    for step_id, step in data.get("steps", {}).items():
        check_step_json(step, f"step {step_id!r}")
    if not all(isinstance(title, str) for title in data.get("titles", {}).values()):
        raise ValueError("the record: a step title is not text")
    if not all(isinstance(seq, int) and not isinstance(seq, bool) for seq in data.get("applied", {}).values()):
        raise ValueError("the record: a journal position is not a number")


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


@dataclasses.dataclass(frozen=True)
class Damage:
    """A state file that could not be read: what it was and where it was kept."""

    file: str  # its name ("1.4.0.json", "1.4.0.journal")
    kept_as: Optional[str]  # the name it was moved to, or None when it could not be moved (read-only folder)
    reason: str  # English, for logs and the ACP agent; the panel words it itself


class RunStore:
    """Release records for every repository, in one folder.

    A write that fails raises the OSError and leaves `save_error` set (cleared by the next write that
    works); reading never raises for damage: the file is moved aside and `damage` says so.
    """

    def __init__(self, data_dir: str) -> None:
        self.root = os.path.join(data_dir, "releases")
        self.damage: List[Damage] = []  # files moved aside (or that could not be) since this store was made
        self.save_error: Optional[OSError] = None  # the last write failed with this; None once one works
        self._folders: Dict[str, str] = {}

    @property
    def last_problem(self) -> Optional[str]:
        """The newest damage in English (kept for callers that print it, such as the ACP agent)."""
        if not self.damage:
            return None
        damage = self.damage[-1]
        kept = f"kept as {damage.kept_as}" if damage.kept_as else "left in place"
        return f"{damage.file} could not be read ({damage.reason}); {kept}"

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
        """The saved record (snapshot plus journal), or None. A damaged snapshot or journal is moved aside
        (*.corrupt-<time>) and listed in `damage`; whatever could be read is kept.

        The journal is folded into a fresh snapshot; when that cannot be written (a full or read-only
        data folder) the record is still returned, `save_error` says why, and the journal stays.
        """
        path = self.path_for(repo, version)
        journal = self._journal(path)
        record, bad_lines = self._load_path(path, os.path.realpath(repo), version)
        if record is None or not os.path.exists(journal):
            return record
        with contextlib.suppress(OSError):
            self.save(record, drop_journal=not bad_lines)  # fold the journal into a fresh snapshot
            if bad_lines:  # its good lines are in the snapshot now; the rest is kept for whoever looks
                self._move_aside(journal, f"{bad_lines} line(s) could not be read")
        return record

    def _move_aside(self, path: str, reason: str) -> None:
        aside: Optional[str] = f"{path}.corrupt-{int(time.time())}"
        try:
            os.replace(path, aside)  # type: ignore[arg-type]
        except OSError:
            aside = None  # a read-only folder: left where it is, and said so
        self.damage.append(Damage(os.path.basename(path), os.path.basename(aside) if aside else None, reason))

    def _load_path(self, path: str, repo: str, version: Optional[str],
                   repair: bool = True) -> Tuple[Optional[ReleaseRecord], int]:
        """(record or None, journal lines that could not be read)."""
        record: Optional[ReleaseRecord] = None
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
            check_record_json(data)
            found = version or data.get("version")
            if isinstance(found, str):
                record = ReleaseRecord.from_json(data, repo, found)
        except FileNotFoundError:
            pass
        except ValueError as error:  # torn, not JSON, or wrong types: damage (UnicodeDecodeError too)
            if repair:
                self._move_aside(path, str(error))
        except OSError as error:  # the folder, not the file: never moved aside as if it were damaged
            self.save_error = error
        return self._replay(self._journal(path), record, repo, version)

    def _replay(self, journal: str, record: Optional[ReleaseRecord], repo: str,
                version: Optional[str]) -> Tuple[Optional[ReleaseRecord], int]:
        try:
            with open(journal, encoding="utf-8", errors="replace") as handle:
                lines = handle.read().splitlines()
        except OSError:
            return record, 0
        bad = 0
        for line in lines:
            try:
                entry = json.loads(line)
                _check_fields(entry, {"seq": (int,), "step": (str,), "version": (str,), **{
                    name: _RECORD_FIELDS[name] for name in ("tag", "created_at", "updated_at", "completed_at",
                                                              "titles")}}, "a journal line")
                if "record" in entry:
                    check_step_json(entry["record"], "a journal line's step")
                if not isinstance(entry.get("seq"), int):
                    raise ValueError("a journal line without its number")
            except ValueError:
                bad += 1  # a line cut short by a crash or a full disk, or changed by hand
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
                    other = ReleaseRecord.from_json({name: entry[name]}, repo, record.version)
                    setattr(record, name, getattr(other, name))
        return record, bad

    def save(self, record: ReleaseRecord, durable: bool = True, drop_journal: bool = True) -> None:
        """Write a snapshot atomically and drop the journal it replaces."""
        record.updated_at = time.time()
        path = self.path_for(record.repo, record.version)
        with self._noting_failure():
            atomic_write_json(path, record.to_json(), durable)
            if drop_journal:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self._journal(path))

    def append(self, record: ReleaseRecord, step_id: str) -> None:
        """Record one step's new state with a single append (the hot path while checks run).

        On a full disk the journal is cut back to where it was, so the next line (once there is
        room) never continues a torn one.
        """
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
        with self._noting_failure():
            os.makedirs(os.path.dirname(path), exist_ok=True)
            descriptor = os.open(self._journal(path), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                size = os.fstat(descriptor).st_size
                try:
                    # One write: the line is there whole, or (after a crash) cut and skipped.
                    if os.write(descriptor, line) != len(line):
                        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), os.path.dirname(path))
                except OSError:
                    with contextlib.suppress(OSError):
                        os.ftruncate(descriptor, size)
                    raise
            finally:
                os.close(descriptor)

    @contextlib.contextmanager
    def _noting_failure(self) -> Iterator[None]:
        try:
            yield
        except OSError as error:
            self.save_error = error
            raise
        self.save_error = None

    def delete(self, repo: str, version: str) -> None:
        path = self.path_for(repo, version)
        with self._noting_failure():
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
            record, _bad = self._load_path(os.path.join(folder, stem + ".json"), os.path.realpath(repo), None,
                                           repair=False)
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
