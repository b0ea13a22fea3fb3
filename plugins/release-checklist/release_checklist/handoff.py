"""Choose the pane a command or prompt goes to: never one that is busy, preferably in this repository."""
from __future__ import annotations

import os
from typing import Iterable, List, Optional, Sequence

from agentty_plugin import Pane, Workspace

AGENT_KINDS = ("claude", "codex")
SHELL_KINDS = ("shell",)


def _inside(folder: Optional[str], repo: str) -> bool:
    if not folder:
        return False
    try:
        common = os.path.commonpath([os.path.realpath(folder), os.path.realpath(repo)])
    except ValueError:  # different drives on Windows
        return False
    return os.path.normcase(common) == os.path.normcase(os.path.realpath(repo))


def choose_pane(kinds: Sequence[str], repo: str, focused: Optional[Pane],
                workspaces: Iterable[Workspace]) -> Optional[Pane]:
    """The focused pane if it fits, else an idle pane of that kind in the repository, else None.

    A busy pane (working, thinking, waiting for a permission or an answer) is never chosen: typing
    into it would mix our text into someone else's turn.
    """
    candidates: List[Pane] = []
    if focused is not None:
        candidates.append(focused)
    for workspace in workspaces:
        for pane in workspace.panes:
            folder = pane.cwd or workspace.cwd
            if _inside(folder, repo):
                candidates.append(pane)
    for pane in candidates:
        if pane.kind in kinds and not pane.is_busy and (pane is not focused or _inside(pane.cwd, repo) or not pane.cwd):
            return pane
    return None


def busy_agents(repo: str, workspaces: Iterable[Workspace]) -> List[Pane]:
    """Agent panes working in this repository (working, thinking, waiting for a permission or an answer).

    While one of them edits the tree, a tag or a push would publish a half-done change.
    """
    found: List[Pane] = []
    for workspace in workspaces:
        for pane in workspace.panes:
            if pane.kind in AGENT_KINDS and pane.is_busy and _inside(pane.cwd or workspace.cwd, repo):
                found.append(pane)
    return found


def pane_name(pane: Pane) -> str:
    """How the user knows a pane: its title, else its kind and number."""
    title = (pane.title or "").strip()
    return f"{title} (pane {pane.id})" if title and title != pane.kind else f"{pane.kind} (pane {pane.id})"
