"""Host policy every plugin needs once: which pane may take a prompt, what is "in" a folder, how to name it.

    from agentty_plugin.panes import idle_agent_pane, busy_agent_panes, display_path

    pane = idle_agent_pane(repo, plugin.context.pane, plugin.list_workspaces())
    if pane is None:
        plugin.inject_prompt(text, target="newTab", cwd=repo)     # never type into a busy agent
    else:
        plugin.inject_prompt(text, target="pane", pane_id=pane.id)
"""

from __future__ import annotations

import os

from .context import AGENT_KINDS, Pane, Workspace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Collection, Iterable, Iterator, List, Optional, Tuple

# A pane in these states has no live program to type into (Agentty keeps the pane after its agent exits).
GONE_STATUSES = frozenset({"exited", "closed"})


def folder_contains(root: Optional[str], folder: Optional[str]) -> bool:
    """True when `folder` is `root` or lies inside it, after resolving symlinks (so /tmp and /private/tmp agree)."""
    if not root or not folder:
        return False
    try:
        resolved_root = os.path.realpath(root)
        common = os.path.commonpath([os.path.realpath(folder), resolved_root])
    except ValueError:  # different drives on Windows, or a relative path against an absolute one
        return False
    return os.path.normcase(common) == os.path.normcase(resolved_root)


def can_take_text(pane: Pane) -> bool:
    """Not busy (working, thinking, waiting for a permission or an answer) and not exited."""
    return not pane.is_busy and pane.status not in GONE_STATUSES


def panes_with_folders(workspaces: Iterable[Workspace]) -> Iterator[Tuple[Pane, Optional[str]]]:
    """Every pane with the folder it works in: its own cwd, else its workspace's."""
    for workspace in workspaces:
        for pane in workspace.panes:
            yield pane, pane.cwd or workspace.cwd


def idle_agent_pane(
    folder: str,
    focused: Optional[Pane],
    workspaces: Iterable[Workspace],
    kinds: Collection[str] = AGENT_KINDS,
    contains: Callable[[str, Optional[str]], bool] = folder_contains,
) -> Optional[Pane]:
    """The pane to hand a prompt about `folder` to, or None (then open a new tab there).

    The focused pane first, when it is one of `kinds`, free to take text and working in `folder`;
    then the first such pane in workspace order. A busy pane is never chosen: typing into it would
    interrupt the agent or answer its question with our prompt. `contains` lets a caller narrow
    "in this folder" (git-status tells nested worktrees apart).
    """
    if focused is not None and focused.kind in kinds and can_take_text(focused) and contains(folder, focused.cwd):
        return focused
    for pane, pane_folder in panes_with_folders(workspaces):
        if pane.kind in kinds and can_take_text(pane) and contains(folder, pane_folder):
            return pane
    return None


def busy_agent_panes(folder: str, workspaces: Iterable[Workspace],
                     contains: Callable[[str, Optional[str]], bool] = folder_contains) -> List[Pane]:
    """Agent panes at work in `folder`: while one edits the tree, a commit, tag or push may catch half a change."""
    return [pane for pane, pane_folder in panes_with_folders(workspaces)
            if pane.is_agent and pane.is_busy and contains(folder, pane_folder)]


def pane_label(pane: Pane) -> str:
    """How the user knows a pane: its title and number, else its kind and number."""
    title = (pane.title or "").strip()
    return f"{title} (pane {pane.id})" if title and title != pane.kind else f"{pane.kind} (pane {pane.id})"


def display_path(path: str, home: Optional[str] = None) -> str:
    """`path` with the home folder shown as `~` (for display only; never pass the result to the file system)."""
    home = os.path.expanduser("~") if home is None else home
    if home and home not in ("/", os.sep) and folder_contains(home, path):
        rest = os.path.relpath(os.path.realpath(path), os.path.realpath(home))
        return "~" if rest == "." else os.path.join("~", rest)
    return path
