"""The one place that talks to the release_checklist engine: open a release, describe its steps, run one.

Everything here blocks (git calls, subprocesses); the agent calls it from worker threads.
"""
from __future__ import annotations

import dataclasses
import os
import sys
from typing import Callable, List, Optional

from release_checklist import ReleaseSession, StepKind, StepRecord, StepState, git_repo
from release_checklist.checklist_file import SHELL_OPERATORS
from release_checklist.command_runner import CommandError, split_command

DATA_DIR_VARIABLE = "AGENTTY_RELEASE_AGENT_DATA"
PANEL_PLUGIN_ID = "release-checklist"
COMPLETE_STATES = StepState.COMPLETE
# Characters a POSIX shell would expand; a #terminal command using them was written for a shell.
_SHELL_CHARACTERS = set("*?$`~|&;<>")


@dataclasses.dataclass(frozen=True)
class StepView:
    """One step as the agent shows and runs it, placeholders filled in."""

    id: str
    title: str
    kind: str  # StepKind value
    command: Optional[str]  # check/terminal command, agent prompt or manual hint
    irreversible: bool
    runs_here: bool  # the agent runs it in its own subprocess
    needs_shell: bool  # a #terminal command the agent cannot run without a shell: the user runs it

    @property
    def read_only(self) -> bool:
        """What Check only mode runs: the checklist's reversible checks."""
        return self.kind == StepKind.CHECK and not self.irreversible and self.runs_here


def default_data_dir() -> str:
    """Where release progress is kept.

    $AGENTTY_RELEASE_AGENT_DATA wins. Otherwise, when the Agentty panel plugin is installed, its data
    folder is shared, so "status" here and the panel agree; else a per-user state folder.
    """
    configured = os.environ.get(DATA_DIR_VARIABLE, "").strip()
    if configured:
        return os.path.abspath(os.path.expanduser(configured))
    panel = os.path.join(os.path.expanduser("~"), ".agentty", "plugin-data", PANEL_PLUGIN_ID)
    if os.path.isdir(panel):
        return panel
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.join(os.path.expanduser("~"), "AppData", "Local")
        return os.path.join(base, "agentty-release-agent")
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "agentty-release-agent")


def find_repo(cwd: str) -> Optional[str]:
    """The top of the git work tree containing cwd, or None."""
    return git_repo.repo_root(cwd)


def open_release(cwd: str, data_dir: str, version: Optional[str]) -> ReleaseSession:
    """Load the repository's checklist and saved progress for version (None: from the project files).

    Raises NotARepository, ChecklistParseError or OSError, as the engine does.
    """
    return ReleaseSession(cwd, data_dir, version=version)


def checklist_path(release: ReleaseSession) -> Optional[str]:
    """The checklist file relative to the repository, or None for the default derived from the project."""
    path = release.loaded.path if release.loaded.source != "default" else None
    return os.path.relpath(path, release.repo) if path else None


def needs_shell(command: Optional[str]) -> bool:
    if not command:
        return False
    try:
        tokens = split_command(command)
    except CommandError:
        return True
    return any(token in SHELL_OPERATORS or _SHELL_CHARACTERS.intersection(token) for token in tokens)


def describe_steps(release: ReleaseSession) -> List[StepView]:
    views = []
    for step in release.steps:
        command = release.command_of(step)
        shell = step.kind == StepKind.TERMINAL and needs_shell(step.command)
        # Devin Desktop gives agents no terminal, so #terminal steps run in our own subprocess
        # (without a shell, like checks); only ones that need a shell are handed to the user.
        runs_here = bool(command) and (step.kind == StepKind.CHECK or (step.kind == StepKind.TERMINAL and not shell))
        views.append(StepView(step.id, release.title_of(step), step.kind, command, step.irreversible,
                              runs_here, shell))
    return views


def argv_of(release: ReleaseSession, step_id: str) -> List[str]:
    try:
        return release.argv_of(release.step(step_id))
    except CommandError:
        return []


def run_step(release: ReleaseSession, step_id: str, on_line: Callable[[str], None], confirmed: bool) -> StepRecord:
    """Run one step to its end (or until release.stop()); a failing command is a FAILED record, not an error."""
    return release.run_step(step_id, on_line=lambda _step_id, line: on_line(line), confirmed=confirmed,
                            allow_terminal=True)


def mark_done(release: ReleaseSession, step_id: str) -> StepRecord:
    return release.mark_done(step_id)


def status_of(release: ReleaseSession, step_id: str) -> StepRecord:
    return release.status(step_id)
