"""What to hand to an agent (review, commit message, branch, commit) and where: an idle agent pane or "ask"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, Optional, Tuple

from agentty_plugin import Pane, Workspace
from agentty_plugin.panes import busy_agent_panes, folder_contains, idle_agent_pane

from . import diffs, prompts
from .history import is_commit_id
from .location import RepoLocation
from .runner import GitRunner
from .snapshot import RepoSnapshot
from .worktrees import WorktreeReport, WorktreeState


@dataclass(frozen=True)
class Target:
    target: str  # "pane" or "newTab"
    pane_id: Any = None
    reason: str = ""  # for "newTab": busy | no-agent
    cwd: Optional[str] = None  # for "newTab": the worktree to open it in
    agent: str = "claude"


def choose_target(focused: Optional[Pane], workspaces: Iterable[Workspace], repo_root: str,
                  worktrees: Optional[WorktreeReport] = None) -> Target:
    """Never a busy pane (working, thinking, waiting for a permission or an answer): typing into
    one would interrupt the agent or answer its question with our prompt.

    Order (the runtime's `idle_agent_pane`): the focused agent pane if it is idle and in this worktree;
    then any idle agent pane working in this worktree; otherwise a new tab opened in the worktree. A pane
    in another worktree nested inside this one's folder is not "in" this one (`worktrees` tells them apart).
    """
    workspaces = list(workspaces)
    home = worktrees.worktree_for(repo_root) if worktrees is not None else None

    def here(root: str, folder: Optional[str]) -> bool:
        if home is not None and worktrees is not None:
            return worktrees.worktree_for(folder) is home
        return folder_contains(root, folder)

    idle = idle_agent_pane(repo_root, focused, workspaces, contains=here)
    if idle is not None:
        return Target("pane", idle.id)
    busy = busy_agent_panes(repo_root, workspaces, contains=here)
    if focused is not None and focused.is_agent and focused.is_busy and here(repo_root, focused.cwd):
        busy.insert(0, focused)
    # The same kind of agent as the busy one here, so the user's choice of agent is kept.
    busy_kind = busy[0].kind if busy else None
    return Target("newTab", reason="busy" if busy_kind else "no-agent", cwd=repo_root, agent=busy_kind or "claude")


def deliver(inject: Callable[..., Dict[str, Any]], request: HandOff, target: Target,
            worktree_name: str) -> Tuple[str, Dict[str, Any]]:
    """Sends the prompt where `choose_target` said; returns the panel message (key, values) saying where it went."""
    if target.target == "pane":
        result = inject(request.text, title=request.title, target="pane", pane_id=target.pane_id)
    else:
        result = inject(request.text, title=request.title, target="newTab", cwd=target.cwd, agent=target.agent)
    if result.get("status") != "sent":
        return "handoff_asked", {}  # Agentty chose to ask the user (e.g. long after the last click)
    if target.target == "pane":
        return "handoff_sent", {"pane": result.get("paneId", target.pane_id)}
    return ("handoff_new_tab_busy" if target.reason == "busy" else "handoff_new_tab"), {"name": worktree_name}


class NothingToSend(Exception):
    """There is nothing to hand over; `key` names the panel message that says why."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


@dataclass(frozen=True)
class HandOff:
    title: str  # the host shows it on the pane / Send-to dialog
    text: str


def review_file(snapshot: RepoSnapshot, location: RepoLocation, runner: GitRunner, group: str, path: str,
                language: str) -> HandOff:
    change = next((f for f in getattr(snapshot.status, group) if f.display == path), None)
    if change is None:
        raise NothingToSend("file_gone", path=path)
    diff = diffs.file_diff(location, runner, change)
    text = prompts.review_file_prompt(location.name, snapshot.status.branch.head, change, diff, language)
    return HandOff(f"Review {path}", text)


def resolve_conflict(snapshot: RepoSnapshot, location: RepoLocation, runner: GitRunner, path: str,
                     language: str) -> HandOff:
    change = next((f for f in snapshot.status.conflicted if f.display == path), None)
    if change is None:
        raise NothingToSend("file_gone", path=path)
    diff = diffs.file_diff(location, runner, change)
    operation = snapshot.operation.kind if snapshot.operation else None
    text = prompts.resolve_conflict_prompt(location.name, snapshot.status.branch.head, change, operation, diff,
                                           language)
    return HandOff(f"Resolve {path}", text)


def review_worktree(worktree: WorktreeState, base: Optional[str], runner: GitRunner, language: str) -> HandOff:
    """Everything a worktree changed since its merge base with the base branch (committed, staged, unstaged)."""
    location = worktree.location
    if location is None or worktree.state != "ok":
        raise NothingToSend("file_gone", path=worktree.name)
    if base is None or base.startswith("-"):
        raise NothingToSend("handoff_no_base")
    found = runner.run(location.root, ["merge-base", "--end-of-options", base, "HEAD"], ok_statuses=(0, 1))
    merge_base = found.text.strip()
    if not is_commit_id(merge_base):
        raise NothingToSend("handoff_no_base")
    diff = diffs.worktree_diff(location, runner, merge_base, untracked=sorted(worktree.untracked))
    if diff.empty:
        raise NothingToSend("handoff_nothing_to_review", name=worktree.name, base=base)
    return HandOff(f"Review {worktree.name}",
                   prompts.review_worktree_prompt(location.name, worktree.entry.branch, base, diff, language))


def commit_message(snapshot: RepoSnapshot, location: RepoLocation, runner: GitRunner, language: str) -> HandOff:
    if not snapshot.status.staged:
        raise NothingToSend("handoff_nothing_staged")
    diff = diffs.staged_diff(location, runner)
    text = prompts.commit_message_prompt(location.name, snapshot.status.branch.head, diff, language)
    return HandOff("Commit message", text)


def explain_branch(snapshot: RepoSnapshot, location: RepoLocation, runner: GitRunner, language: str) -> HandOff:
    comparison = diffs.branch_comparison(location, runner, snapshot.status.branch)
    if comparison is None:
        raise NothingToSend("handoff_no_base")
    return HandOff(f"Explain {comparison.head}", prompts.explain_branch_prompt(location.name, comparison, language))


def summarize_commit(snapshot: RepoSnapshot, location: RepoLocation, runner: GitRunner, sha: str,
                     language: str) -> HandOff:
    commit = next((c for c in snapshot.commits if c.sha == sha), None)
    if commit is None or not is_commit_id(commit.sha):
        raise NothingToSend("commit_gone")
    details = diffs.commit_details(location, runner, commit.sha)
    return HandOff(f"Summarize {commit.short}",
                   prompts.summarize_commit_prompt(location.name, commit.short, details, language))
