"""The panel as a pure function of the controller's state: render(state, t) -> a UI tree (no host, no I/O).

State is the snapshot the controller (app.py) replaces whole with App.update(**changes), under its lock.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable, Dict, NamedTuple, Optional, Tuple

from agentty_plugin import ui
from agentty_plugin.panes import display_path

from . import ids

if TYPE_CHECKING:
    from .checklist_file import ChecklistProblem
    from .release_view import Release
    from .run_store import ReleaseSummary

Translate = Callable[..., str]
LIVE_LINES = 12  # lines of a running step's output shown under the spinner


class Confirm(NamedTuple):
    """An irreversible step waiting for "Yes, do it" in the panel."""

    step: str
    action: str  # ids.ACT_*
    preview: str = ""  # what it will do, in words (what a push sends)
    local: bool = False  # it changes only this clone (a local tag): no "cannot be undone"


class Waiting(NamedTuple):
    """A confirmed irreversible step held until the agents at work in the repository are idle."""

    step: str
    action: str  # ids.ACT_*
    pane: str = ""  # the busy pane, as the user knows it ("Claude (pane 11)")
    status: str = ""  # its status: working, thinking, permission, question
    resumed: bool = False  # kept from before the plugin restarted


class State(NamedTuple):
    """Everything the panel shows: an immutable snapshot (a NamedTuple: a dataclass costs the first panel
    start-up time). The controller replaces it with App.update(**changes); render() only reads it."""

    folder: Optional[str] = None
    loading: bool = False
    not_repo: bool = False
    repo_problem: str = ""  # why there is no repository: not-repo, refused (safe.directory), no-git
    problems: Tuple[ChecklistProblem, ...] = ()
    problems_file: str = ""
    read_error: Optional[str] = None
    selected: Optional[str] = None  # step whose output is shown
    confirm: Optional[Confirm] = None
    waiting: Optional[Waiting] = None
    confirm_reset: bool = False
    skipping: Optional[str] = None
    skip_error: bool = False
    press_enter: bool = False
    version_error: Optional[str] = None
    history: Tuple[ReleaseSummary, ...] = ()
    # Filled for each drawing by the controller, never stored: the release as it is now (a snapshot of
    # the live session: the view never sees the engine), the running step's last lines, the language
    # and the clock.
    release: Optional[Release] = None
    live_lines: Tuple[str, ...] = ()  # the running step's last LIVE_LINES lines
    language: str = "en"  # for the history's "3 days ago"
    now: Optional[float] = None  # when the panel is drawn (elapsed times, "3 days ago"); None: now


# The release itself is drawn by view_release.py, imported on the first release drawn: the first panel
# ("Reading the checklist…") must not wait for the engine's modules (bench_runtime "First panel" table).


def badge_text(state: State) -> str:
    """"3/8": complete steps of all steps (never more than 8 characters); "" with no release."""
    return progress_badge(*state.release.progress()) if state.release is not None else ""


def progress_badge(complete: int, total: int) -> str:
    text = f"{complete}/{total}"
    return text if len(text) <= 8 else f"{complete}"[:8]


def problem_text(problem: ChecklistProblem, t: Translate) -> str:
    details = dict(problem.details)
    key = "p_" + problem.code.replace("-", "_")
    if problem.code == "unknown-tag" and details.get("suggestion"):
        key = "p_unknown_tag_hint"
    message = t(key, **details)
    if message == key:  # a code without a translation: the English sentence is better than nothing
        message = problem.message
    return t("problem_line", line=problem.line, column=problem.column, message=message)


def render(state: State, t: Translate) -> Dict[str, Any]:
    """The whole panel for the current state."""
    if state.folder is None:
        return ui.column([ui.text(t("title_no_version"), "title"), ui.text(t("no_pane"), "muted")])
    header = ui.row([ui.text(t("title_no_version"), "title"),
                     ui.button(ids.REFRESH, t("refresh"), icon="refresh-cw", variant="ghost")], gap="small")
    if state.loading:
        return ui.column([header, ui.spinner(t("loading"))])
    if state.not_repo:
        # Git's own refusal is not "no repository": the user can fix it, and the words say how.
        key = {"refused": "git_refused", "no-git": "git_missing"}.get(state.repo_problem, "not_repo")
        return ui.column([header, ui.text(t(key, folder=display_path(state.folder)),
                                          "muted" if key == "not_repo" else "error")])
    if state.read_error is not None:
        return ui.column([header, ui.text(t("read_failed", error=state.read_error), "error")])
    if state.problems:
        items = [ui.item(f"problem-{index}", problem_text(problem, t), icon="circle-x", tone="error")
                 for index, problem in enumerate(state.problems[:100])]
        return ui.column([
            header,
            ui.text(t("problems_title", file=os.path.basename(state.problems_file) or "RELEASE_CHECKLIST.md"), "error"),
            ui.list(ids.PROBLEMS, items),
            ui.button(ids.REVEAL, t("reveal"), icon="file-text"),
        ])
    if state.release is None:
        return ui.column([header, ui.spinner(t("loading"))])
    from .view_release import release_tree

    return release_tree(state, state.release, t)
