"""One release of one repository: its checklist, the version, step states on disk, and running steps."""
from __future__ import annotations

import contextlib
import dataclasses
import os
import threading
import time
from typing import Callable, Dict, List, Optional, Tuple

from . import git_repo
from .checklist_file import (
    CHECKLIST_FILE_NAME,
    DEFAULT_TAG_FORMAT,
    PLACEHOLDERS,
    ChecklistSpec,
    fill_placeholders,
    parse_checklist,
)
from .command_runner import CommandResult, Outcome, RunningCommand, clean_env, split_command
from .couldnt_check import UNKNOWN_OUTCOMES, couldnt_check
from .default_checklist import default_spec, merge_adopted
from .guide_sections import procedure_text
from .new_file import is_blank_text
from .project_files import ProjectInfo, changelog_version, detect_project
from .publishing import Publishing, detect_publishing, follow_document
from .release_docs import find_release_doc, read_release_doc
from .run_store import RUN_TOKEN, ReleaseRecord, ReleaseSummary, RunStore, StepRecord
from .steps import Step, StepKind, StepState
from .versions import (
    guess_tag_format,
    highest_tagged_version,
    next_version,
    sort_versions,
    tag_for,
    version_from_tag,
    version_key,
)
from .workspace_members import for_release

CHECKLIST_LOCATIONS = (CHECKLIST_FILE_NAME, os.path.join(".github", CHECKLIST_FILE_NAME),
                       os.path.join("docs", CHECKLIST_FILE_NAME))
MAX_CHECKLIST_BYTES = 1_000_000

LineListener = Callable[[str, str], None]  # (step id, output line)
ChangeListener = Callable[[str, StepRecord], None]  # (step id, copy of its new record)


class NotARepository(Exception):
    """The folder is not inside a git work tree."""

    def __init__(self, path: str) -> None:
        super().__init__(f"{path} is not inside a git repository")
        self.path = path


class ConfirmationNeeded(Exception):
    """An irreversible step was asked to run without confirmed=True."""


class SessionBusy(Exception):
    """A step of this release is already running."""


class ProgressNotSaved(OSError):
    """A step's new state could not be written to the data folder (full, read-only, no permission).

    The change is kept in memory (the panel still shows it) unless it was a step starting: a command
    whose "running" mark is not on disk is never started. A run of checks stops here.
    """

    def __init__(self, error: OSError, folder: str) -> None:
        super().__init__(error.errno, error.strerror or str(error), folder)
        self.error = error
        self.folder = folder


@dataclasses.dataclass(frozen=True)
class LoadedChecklist:
    spec: ChecklistSpec
    source: str  # "file" (RELEASE_CHECKLIST.md), "settings" (its settings, derived steps), "adopted"
    #              (the repository's own release document read as steps), "default" (derived) or "blank"
    #              (RELEASE_CHECKLIST.md with nothing in it: derived)
    path: Optional[str]  # the file read, if any
    stamp: Optional[Tuple[float, int]] = None  # the file's mtime and size when read
    project: Optional[ProjectInfo] = None
    tags: Tuple[str, ...] = ()
    tag_format: str = DEFAULT_TAG_FORMAT
    last_release: Optional[Tuple[str, str]] = None  # (tag, version) of the newest release
    publishing: Optional[Publishing] = None  # how a release is published (CI on the tag, a command, by hand)


def _stamp(path: Optional[str]) -> Optional[Tuple[float, int]]:
    try:
        info = os.stat(path) if path else None
    except OSError:
        return None
    return (info.st_mtime, info.st_size) if info else None


def find_checklist_file(repo: str) -> Optional[str]:
    """RELEASE_CHECKLIST.md (at the root, in .github/ or docs/), else the repository's own release document."""
    for relative in CHECKLIST_LOCATIONS:
        path = os.path.join(repo, relative)
        if os.path.isfile(path):
            return path
    return find_release_doc(repo)


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read(MAX_CHECKLIST_BYTES)


def _doc_text(path: str) -> str:
    """The adopted document's procedure (a contributor guide's release section, any other document whole)."""
    return procedure_text(path, _read_text(path))


def load_checklist(repo: str, project: Optional[ProjectInfo] = None, windows: Optional[bool] = None) -> LoadedChecklist:
    """The repository's checklist file (or its own release document), else the default derived from the project.

    Raises ChecklistParseError (with line/column problems) for a malformed RELEASE_CHECKLIST.md, OSError if
    unreadable. A release document that is not a list is passed over (the derived checklist is used).
    """
    path = find_checklist_file(repo)
    stamp = _stamp(path)
    spec: Optional[ChecklistSpec] = None
    source = "default"
    if path is not None and os.path.basename(path) == CHECKLIST_FILE_NAME:
        text = _read_text(path)
        if is_blank_text(text):  # a write cut short (older versions, a full disk): derived steps, and an offer
            source = "blank"  # to write it again, instead of "the file has no steps" for good
        else:
            spec, source = parse_checklist(text, path), "file"
    tags = tuple(git_repo.release_tags(repo))
    settings = spec or ChecklistSpec(())  # (a release document has steps, never settings)
    if project is None:
        first = detect_project(repo, windows, version_file=settings.version_file,
                               version_macro=settings.version_macro)
        tag_format = settings.tag_format or first.tag_format or guess_tag_format(
            tags, [first.name or "", os.path.basename(repo)])
        last = highest_tagged_version(tags, tag_format)
        # Again with the last release known: an older manifest is passed over, and the changelog that
        # names the last release wins over a stale one (jq's NEWS.md over its old ChangeLog).
        project = (detect_project(repo, windows, last_release=last[1], version_file=settings.version_file,
                                  version_macro=settings.version_macro)
                   if last is not None else first)
    else:
        tag_format = settings.tag_format or project.tag_format or guess_tag_format(
            tags, [project.name or "", os.path.basename(repo)])
        last = highest_tagged_version(tags, tag_format)
    if project.workspace and not (settings.tag_format or settings.version_file or project.tag_format):
        # A workspace whose members tag their own releases: the one member ahead of its tags is released.
        member = for_release(repo, project, list(tags), last)
        if member is not None and member.project is not None:
            project, tag_format, last = member.project, member.tag_format, member.last
    if path is not None and source == "default":
        # Read once the release is known: a document's alternative procedures are chosen by its kind.
        spec, source = read_release_doc(_doc_text(path), path, tags, _is_patch(project, last)), "adopted"
    publishing = detect_publishing(repo, project, last[0] if last else tag_for("0.1.0", tag_format))
    if source == "adopted" and path is not None and spec is not None and spec.steps:
        publishing = follow_document(publishing, _doc_text(path), os.path.relpath(path, repo).replace(os.sep, "/"))
    if spec is None or not spec.steps:
        if spec is not None and source == "file":
            source = "settings"
        elif source == "adopted":
            source = "default"  # a release document without a list to follow: the derived steps
        spec = dataclasses.replace(default_spec(repo, project, windows, settings if source == "settings" else None,
                                                tags, publishing), path=path if source == "settings" else None)
    elif source == "adopted":
        # The document's steps sit alongside the derived checks, tag, push and publishing (issue 26).
        spec = merge_adopted(default_spec(repo, project, windows, None, tags, publishing), spec,
                             _doc_text(path) if path else "", publishing)
    return LoadedChecklist(spec, source, path, stamp, project, tags, tag_format, last, publishing)


def _is_patch(project: ProjectInfo, last: Optional[Tuple[str, str]]) -> Optional[bool]:
    """Whether the coming release is a patch release of the last one (same major and minor); a version the
    files do not give is proposed as the next patch. None when there is no last release to compare with."""
    if last is None:
        return None
    coming, previous = version_key(project.version or "") if project.version else None, version_key(last[1])
    if coming is None or previous is None:
        return project.version is None
    return coming[0][:2] == previous[0][:2]


class ReleaseSession:
    """The engine's entry point; see the package docstring for how the panel and the ACP agent use it."""

    def __init__(self, path: str, data_dir: str, version: Optional[str] = None,
                 on_change: Optional[ChangeListener] = None, env: Optional[Dict[str, str]] = None) -> None:
        repo = git_repo.repo_root(path)
        if repo is None:
            raise NotARepository(path)
        self.repo = repo
        self.store = RunStore(data_dir)
        self.loaded = load_checklist(repo)
        self.project: ProjectInfo = self.loaded.project or detect_project(repo)
        self.on_change = on_change
        self.env = dict(env) if env is not None else clean_env()
        self._lock = threading.RLock()
        self._running: Optional[RunningCommand] = None
        self._running_step: Optional[str] = None
        self._stop_all = threading.Event()
        self._facts: Dict[str, str] = {}
        self._unsaved = False  # a change is in memory only (the data folder refused it); saved whole next time
        self.version_source, self.version = ("given", version) if version else self._choose_version()
        self.record = self._load_record()

    # ----- what the checklist says -----------------------------------------------------------------
    @property
    def spec(self) -> ChecklistSpec:
        return self.loaded.spec

    @property
    def publishing(self) -> Optional[Publishing]:
        """How this release gets published (see publishing.py); None when it could not be read."""
        return self.loaded.publishing

    @property
    def steps(self) -> Tuple[Step, ...]:
        return self.loaded.spec.steps

    def step(self, step_id: str) -> Step:
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(f"no step {step_id!r} in this checklist")

    def placeholder_values(self, refresh: bool = False) -> Dict[str, str]:
        """{version}, {tag}, {previous_tag}, {previous_version}, {branch}, {remote} for this release."""
        with self._lock:
            if refresh:
                self._facts = {}
            return {name: self._fact(name) for name in PLACEHOLDERS}

    def _fact(self, name: str) -> str:
        """One placeholder value; git is asked only for what a title or command actually uses."""
        with self._lock:
            if name in self._facts:
                return self._facts[name]
            if name == "version":
                value = self.version
            elif name in ("tag", "previous_tag", "previous_version"):
                tag_format = self.loaded.tag_format
                previous = highest_tagged_version(git_repo.release_tags(self.repo), tag_format)
                self._facts["tag"] = tag_for(self.version, tag_format)
                self._facts["previous_tag"] = previous[0] if previous else ""
                self._facts["previous_version"] = previous[1] if previous else ""
                value = self._facts[name]
            elif name == "branch":
                value = (self.spec.release_branch or git_repo.default_branch(self.repo)
                         or git_repo.current_branch(self.repo) or "main")
            else:
                value = self.spec.remote or git_repo.upstream_remote(self.repo) or "origin"
            self._facts[name] = value
            return value

    def _fill(self, text: str) -> str:
        names = [name for name in PLACEHOLDERS if "{" + name + "}" in text]
        return fill_placeholders(text, {name: self._fact(name) for name in names})

    @property
    def tag(self) -> str:
        return self._fact("tag")

    def title_of(self, step: Step) -> str:
        return self._fill(step.title) if "{" in step.title else step.title

    def command_of(self, step: Step) -> Optional[str]:
        if step.command is None or "{" not in step.command:
            return step.command
        return self._fill(step.command)

    def argv_of(self, step: Step) -> List[str]:
        """The arguments a check runs with; placeholders are filled per argument, never re-split."""
        return [self._fill(part) if "{" in part else part for part in split_command(step.command or "")]

    def _choose_version(self) -> Tuple[str, str]:
        """(source, version): the project's files, else the changelog's top entry when it is newer than
        the last release, else the next patch after it ("project", "changelog" or "suggested")."""
        last = self.loaded.last_release
        publishing = self.loaded.publishing
        bumped_by_workflow = publishing is not None and publishing.tags_itself and last is not None and \
            version_key(self.project.version or "") == version_key(last[1])
        if self.project.version and not bumped_by_workflow:
            return "project", self.project.version
        top = changelog_version(self.repo, self.project.changelog_file, last[1] if last else None)
        top_key = version_key(top) if top else None
        if top and top_key is not None and (last is None or top_key > version_key(last[1])):  # type: ignore[operator]
            return "changelog", top
        released = sort_versions(version for version in (version_from_tag(tag, self.loaded.tag_format)
                                                         for tag in self.loaded.tags) if version)
        return "suggested", (next_version(last[1], released) if last else None) or "0.1.0"

    # ----- state ----------------------------------------------------------------------------------
    def _load_record(self) -> ReleaseRecord:
        record = self.store.load(self.repo, self.version)
        if record is None:
            return ReleaseRecord(self.repo, self.version)
        if record.recover(RUN_TOKEN):
            with contextlib.suppress(OSError):  # shown all the same; store.save_error says it is not saved
                self.store.save(record)
        return record

    @property
    def state_folder(self) -> str:
        """Where this repository's releases are saved (named in "cannot be saved" messages)."""
        return os.path.dirname(self.store.path_for(self.repo, self.version))

    @property
    def save_error(self) -> Optional[OSError]:
        """Why this release's progress cannot be saved right now (None: it can, as far as we know)."""
        return self.store.save_error

    def checklist_changed(self) -> bool:
        """True when the checklist file was created, edited or removed since it was read."""
        path = find_checklist_file(self.repo)
        return path != self.loaded.path or (path is not None and _stamp(path) != self.loaded.stamp)

    def reload(self) -> None:
        """Read the checklist file and the saved states again (e.g. after the user edited the file)."""
        with self._lock:
            self.loaded = load_checklist(self.repo)
            self.project = self.loaded.project or self.project
            self._facts = {}
            if self._running_step is None:
                self.record = self._load_record()

    def status(self, step_id: str) -> StepRecord:
        """A copy of the step's record (pending if never touched)."""
        with self._lock:
            record = self.record.steps.get(step_id)
            return dataclasses.replace(record, tail=list(record.tail)) if record else StepRecord()

    def statuses(self) -> Dict[str, StepRecord]:
        return {step.id: self.status(step.id) for step in self.steps}

    def progress(self) -> Tuple[int, int]:
        """(complete steps, all steps): complete means passed, done or skipped."""
        with self._lock:
            complete = sum(self.record.steps.get(step.id, StepRecord()).state in StepState.COMPLETE
                           for step in self.steps)
        return complete, len(self.steps)

    @property
    def is_complete(self) -> bool:
        complete, total = self.progress()
        return total > 0 and complete == total

    @property
    def running_step(self) -> Optional[str]:
        return self._running_step

    def history(self) -> List[ReleaseSummary]:
        return self.store.history(self.repo)

    def _update(self, step_id: str, **changes: object) -> StepRecord:
        with self._lock:
            if not self.record.titles:
                # Titles (and the tag, when already known) are kept so the history reads well even
                # after the checklist file changes; computing them must not cost git calls here.
                self.record.tag = self._facts.get("tag", "")
                self.record.titles = {step.id: step.title for step in self.steps}
            if not self.record.tag and "tag" in self._facts:
                self.record.tag = self._facts["tag"]
            record = self.record.step(step_id)
            before = dataclasses.replace(record, tail=list(record.tail)), self.record.completed_at
            for name, value in changes.items():
                setattr(record, name, value)
            self.record.completed_at = (self.record.completed_at or time.time()) if self.is_complete else None
            try:
                if self._unsaved:  # earlier changes are only in memory: the whole record, now that it can be
                    self.store.save(self.record)
                else:
                    self.store.append(self.record, step_id)
                self._unsaved = False
            except OSError as error:
                if record.state == StepState.RUNNING:  # never shown as running: the command will not start
                    self.record.steps[step_id], self.record.completed_at = before
                else:
                    self._unsaved = True
                failure: Optional[ProgressNotSaved] = ProgressNotSaved(error, self.state_folder)
            else:
                failure = None
            current = self.record.step(step_id)
            snapshot = dataclasses.replace(current, tail=list(current.tail))
        if self.on_change is not None:
            self.on_change(step_id, snapshot)
        if failure is not None:
            raise failure
        return snapshot

    def skip(self, step_id: str, reason: str) -> StepRecord:
        self.step(step_id)
        self._refuse_if_running(step_id)
        return self._update(step_id, state=StepState.SKIPPED, reason=reason.strip(), finished_at=time.time())

    def mark_done(self, step_id: str) -> StepRecord:
        self.step(step_id)
        self._refuse_if_running(step_id)
        return self._update(step_id, state=StepState.DONE, finished_at=time.time())

    def mark_sent(self, step_id: str) -> StepRecord:
        """A terminal command was typed or an agent prompt handed over; the user ticks it later."""
        self.step(step_id)
        self._refuse_if_running(step_id)
        return self._update(step_id, state=StepState.SENT, started_at=time.time(), finished_at=None)

    def reset(self, step_id: Optional[str] = None) -> None:
        """Back to pending: one step, or the whole release (which forgets this release's record)."""
        if step_id is not None:
            self.step(step_id)
            self._refuse_if_running(step_id)
            self._update(step_id, state=StepState.PENDING, message="", outcome=None, exit_code=None, tail=[],
                         reason="", started_at=None, finished_at=None, owner=None)
            return
        with self._lock:
            if self._running_step is not None:
                raise SessionBusy("stop the running step before resetting the release")
            try:
                self.store.delete(self.repo, self.version)
            except OSError as error:  # it would all come back at the next start: nothing is reset
                raise ProgressNotSaved(error, self.state_folder) from error
            self.record = ReleaseRecord(self.repo, self.version)
            self._unsaved = False
        if self.on_change is not None:
            for step in self.steps:
                self.on_change(step.id, StepRecord())

    def _refuse_if_running(self, step_id: str) -> None:
        if self._running_step == step_id:
            raise SessionBusy(f"step {step_id} is running; stop it first")

    # ----- running --------------------------------------------------------------------------------
    def run_step(self, step_id: str, on_line: Optional[LineListener] = None, confirmed: bool = False,
                 allow_terminal: bool = False) -> StepRecord:
        """Run a check in its own subprocess and wait; returns the final record. Never raises for a
        failing command (see the record's state/outcome); raises ConfirmationNeeded, SessionBusy,
        ValueError (not a runnable step) and KeyError (unknown step).

        allow_terminal=True also runs #terminal steps this way (for hosts without a terminal, such
        as the ACP agent); such a step still runs without a shell.
        """
        self._stop_all.clear()
        return self._run_step(step_id, on_line, confirmed, allow_terminal)

    def _run_step(self, step_id: str, on_line: Optional[LineListener], confirmed: bool,
                  allow_terminal: bool) -> StepRecord:
        step = self.step(step_id)
        runnable = step.kind == StepKind.CHECK or (allow_terminal and step.kind == StepKind.TERMINAL)
        if not runnable or not step.command:
            raise ValueError(f"step {step_id} is a {step.kind} step; it is not run by the plugin")
        if step.irreversible and not confirmed:
            raise ConfirmationNeeded(f"step {step_id} is irreversible and needs confirmation")
        with self._lock:
            if self._running_step is not None:
                raise SessionBusy(f"step {self._running_step} is running")
            self._running_step = step_id
        try:
            return self._run(step, on_line)
        finally:
            with self._lock:
                self._running = None
                self._running_step = None

    def _run(self, step: Step, on_line: Optional[LineListener]) -> StepRecord:
        started = time.time()
        # The "running" mark must reach the disk before the command starts: it is what turns into
        # "interrupted" if this process dies.
        self._update(step.id, state=StepState.RUNNING, message="", outcome=None, exit_code=None,
                     tail=[], reason="", started_at=started, finished_at=None, owner=RUN_TOKEN)
        try:
            argv = self.argv_of(step)
        except Exception as error:  # bad quotes after an edit: report, never crash the caller
            return self._finish(step, CommandResult(Outcome.ERROR, None, [], 0, 0, 0.0, str(error)))
        unresolved = [part for part in argv if "{" in part and fill_placeholders(part, {}) != part]
        listener = None
        if on_line is not None:
            def listener(line: str) -> None:
                on_line(step.id, line)
        running = RunningCommand(argv, self.repo, self.env, step.timeout, listener)
        with self._lock:
            self._running = running
            stop_now = self._stop_all.is_set()
        if stop_now:
            running.stop()
        result = running.wait()
        if unresolved and not result.passed:
            result = dataclasses.replace(result, message=result.message + f" (unfilled: {' '.join(unresolved)})")
        return self._finish(step, result)

    def _finish(self, step: Step, result: CommandResult) -> StepRecord:
        result = couldnt_check(step, result)
        state = (StepState.PASSED if result.passed else StepState.UNKNOWN if result.outcome in UNKNOWN_OUTCOMES
                 else StepState.STOPPED if result.outcome == Outcome.STOPPED else StepState.FAILED)
        return self._update(step.id, state=state, message=result.message, outcome=result.outcome,
                            exit_code=result.exit_code, tail=result.lines[-80:], finished_at=time.time(), owner=None)

    def checks_to_run(self, include_irreversible: bool = False) -> List[Step]:
        """The checks "Run all checks" would run now: not yet passed/skipped/done, in order."""
        return [step for step in self.steps
                if step.kind == StepKind.CHECK and step.command
                and (include_irreversible or not step.irreversible)
                and self.status(step.id).state not in StepState.COMPLETE]

    def run_checks(self, on_line: Optional[LineListener] = None,
                   on_step: Optional[Callable[[Step], None]] = None) -> Dict[str, StepRecord]:
        """Run every reversible check that is not complete yet, in order, until done or stop().

        A failing check does not end the run: you see every problem at once.
        """
        self._stop_all.clear()
        with self._lock:
            self._facts = {}  # branch, tags and upstream may have changed since the last run
        results: Dict[str, StepRecord] = {}
        for step in self.checks_to_run():
            if self._stop_all.is_set():
                break
            if on_step is not None:
                on_step(step)
            results[step.id] = self._run_step(step.id, on_line, confirmed=False, allow_terminal=False)
        return results

    def stop(self, immediately: bool = False) -> None:
        """Stop the running command (its whole process tree) and end run_checks(). Returns at once.

        immediately=True: SIGKILL at once, for a process about to exit.
        """
        with self._lock:
            self._stop_all.set()
            running = self._running
        if running is not None:
            running.stop(immediately)
