"""Release checklist engine: a repository's own checklist, run step by step (plain library, no JSON-RPC).

Used by the Agentty panel (../main.py) and meant to be reused as is by the release ACP agent.

Load a release (one repository, one version)::

    from release_checklist import ReleaseSession, ChecklistParseError, NotARepository

    session = ReleaseSession(repo_path, data_dir, version=None, on_change=None)
    # version=None: read from the root's pyproject.toml / package.json / Cargo.toml / setup.cfg /
    # VERSION / __version__ (a file older than the last release tag is passed over), else the
    # changelog's top entry when it is newer than the last tag, else the next version after it
    # (session.version_source says which: "given", "project", "changelog" or "suggested").
    # Raises NotARepository, ChecklistParseError (.problems: [ChecklistProblem(line, column, code,
    # message, details)]) for a malformed RELEASE_CHECKLIST.md, OSError if it cannot be read.

List the steps (``session.steps`` is a tuple of ``Step``)::

    for step in session.steps:
        step.id                       # stable id derived from the title ("tests-pass")
        step.kind                     # StepKind.CHECK | TERMINAL | AGENT | MANUAL
        session.title_of(step)        # title with {version}, {tag}, … filled in
        session.command_of(step)      # command (check/terminal), prompt (agent) or hint, filled in; or None
        step.irreversible             # ask before doing it (tag, push, publish)
        step.timeout                  # seconds, or None for the default (600 s)
    session.loaded.source             # "file" (RELEASE_CHECKLIST.md), "settings" (its settings, derived steps),
                                      # "adopted" (RELEASING.md & co. read as steps) or "default" (derived)
    session.checklist_changed()       # the file was edited since: make a new ReleaseSession to pick it up
    session.tag, session.repo, session.placeholder_values()

Run steps (blocking; call from a worker thread)::

    record = session.run_step(step_id, on_line=lambda step_id, line: ..., confirmed=False,
                              allow_terminal=False)
    # Runs a CHECK step (or a TERMINAL step with allow_terminal=True, for hosts with no terminal) in
    # its own process group: no shell (shlex split; Windows paths kept), the repo as working folder,
    # clean environment from the user's PATH (command_runner.clean_env), stdin closed, step timeout.
    # on_line gets every output line (stdout+stderr interleaved, colour codes removed) as it is
    # printed, on the thread that called run_step (a reader thread on Windows); keep it quick and
    # throttle your own redraws/updates (a check may print a million lines).
    # Raises ConfirmationNeeded for an irreversible step without confirmed=True, SessionBusy if a
    # step is running, ValueError for a step the plugin does not run, KeyError for an unknown id.
    # A failing/hanging/missing command is not an exception: see record.state / record.outcome.
    session.run_checks(on_line=..., on_step=lambda step: ...)   # every reversible, incomplete check
    session.stop()        # from any thread: kills the running command's whole process tree now
                          # (killpg SIGTERM → SIGKILL after 0.3 s; taskkill /T /F on Windows) and
                          # ends run_checks(); the step ends STOPPED (outcome "stopped").

Step states (``session.status(step_id)`` → ``StepRecord``: state, outcome, exit_code, message, tail
(last lines of output), reason, started_at, finished_at)::

    StepState.PENDING, RUNNING, PASSED, FAILED, SKIPPED, SENT, DONE, INTERRUPTED, UNKNOWN, STOPPED
    outcome (checks): Outcome.PASSED, FAILED, TIMEOUT, STOPPED, NOT_FOUND, ERROR
    session.skip(step_id, reason); session.mark_sent(step_id); session.mark_done(step_id)
    session.reset(step_id) / session.reset()    # one step / the whole release
    session.progress() -> (complete, total); session.is_complete; session.running_step
    session.history() -> [ReleaseSummary(version, tag, created_at, updated_at, completed_at, …)]

State is saved per repository and version under ``<data_dir>/releases/`` with atomic writes after
every change; a step that was running when its process died reads back as INTERRUPTED.

Lower-level pieces, usable on their own: ``parse_checklist``/``format_checklist`` (file format),
``default_spec``/``write_default_checklist`` (derived checklist), ``detect_project`` (version, test
command), ``start_command``/``run_command`` (one command with Stop and a bounded output tail),
``builtin_checks`` (the ``release-check NAME`` commands).
"""
import importlib
from typing import TYPE_CHECKING, Any, Dict

# Imported on first use (PEP 562): the built-in checks run as `python -m release_checklist.builtin_checks`
# once per step, and should not pay for the whole engine at every start.
_EXPORTS: Dict[str, str] = {
    "CHECKLIST_FILE_NAME": "checklist_file", "ChecklistParseError": "checklist_file",
    "ChecklistProblem": "checklist_file", "ChecklistSpec": "checklist_file", "fill_placeholders": "checklist_file",
    "format_checklist": "checklist_file", "parse_checklist": "checklist_file",
    "CommandResult": "command_runner", "Outcome": "command_runner", "RunningCommand": "command_runner",
    "clean_env": "command_runner", "run_command": "command_runner", "start_command": "command_runner",
    "default_checklist_text": "default_checklist", "default_spec": "default_checklist",
    "write_default_checklist": "default_checklist",
    "ProjectInfo": "project_files", "detect_project": "project_files",
    "ConfirmationNeeded": "release_session", "LoadedChecklist": "release_session",
    "NotARepository": "release_session", "ReleaseSession": "release_session", "SessionBusy": "release_session",
    "load_checklist": "release_session",
    "ReleaseSummary": "run_store", "RunStore": "run_store", "StepRecord": "run_store",
    "Step": "steps", "StepKind": "steps", "StepState": "steps",
}
__all__ = [
    "CHECKLIST_FILE_NAME",
    "ChecklistParseError",
    "ChecklistProblem",
    "ChecklistSpec",
    "CommandResult",
    "ConfirmationNeeded",
    "LoadedChecklist",
    "NotARepository",
    "Outcome",
    "ProjectInfo",
    "ReleaseSession",
    "ReleaseSummary",
    "RunStore",
    "RunningCommand",
    "SessionBusy",
    "Step",
    "StepKind",
    "StepRecord",
    "StepState",
    "clean_env",
    "default_checklist_text",
    "default_spec",
    "detect_project",
    "fill_placeholders",
    "format_checklist",
    "load_checklist",
    "parse_checklist",
    "run_command",
    "start_command",
    "write_default_checklist",
]

if TYPE_CHECKING:
    from .checklist_file import (
        CHECKLIST_FILE_NAME,
        ChecklistParseError,
        ChecklistProblem,
        ChecklistSpec,
        fill_placeholders,
        format_checklist,
        parse_checklist,
    )
    from .command_runner import CommandResult, Outcome, RunningCommand, clean_env, run_command, start_command
    from .default_checklist import default_checklist_text, default_spec, write_default_checklist
    from .project_files import ProjectInfo, detect_project
    from .release_session import (
        ConfirmationNeeded,
        LoadedChecklist,
        NotARepository,
        ReleaseSession,
        SessionBusy,
        load_checklist,
    )
    from .run_store import ReleaseSummary, RunStore, StepRecord
    from .steps import Step, StepKind, StepState


def __getattr__(name: str) -> Any:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        if name in _SUBMODULES:
            return importlib.import_module(f"{__name__}.{name}")
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module_name}"), name)
    globals()[name] = value
    return value


_SUBMODULES = frozenset({
    "builtin_checks", "checklist_file", "chosen_versions", "app", "command_runner", "couldnt_check",
    "default_checklist", "doc_placeholders", "fix_watch", "git_repo", "ids", "markdown_lines", "new_file",
    "output_tail",
    "project_files", "prompts", "publishing", "push_preview", "release_docs", "release_session", "release_view",
    "run_store", "steps", "text", "versions", "view", "view_release",
})
