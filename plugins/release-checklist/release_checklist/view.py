"""The panel as a pure function of the controller's state: render(state, t) -> a UI tree (no host, no I/O)."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Dict

from agentty_plugin import ui
from agentty_plugin.panes import display_path

from . import ids
from .state import State, Translate

if TYPE_CHECKING:
    from .checklist_file import ChecklistProblem

# The release itself is drawn by view_release.py, imported on the first release drawn: the first panel
# ("Reading the checklist…") must not wait for the engine's modules (bench_runtime "First panel" table).


def badge_text(state: State) -> str:
    """"3/8": complete steps of all steps (never more than 8 characters)."""
    if state.release is None:
        return ""
    complete, total = state.release.progress()
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
