"""What to hand to an agent (review, commit message, branch, commit) and where: an idle agent pane or "ask"."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Iterable, Optional

from agentty_plugin import Pane, Workspace

from . import diffs, prompts
from .history import is_commit_id
from .location import RepoLocation
from .runner import GitRunner
from .snapshot import RepoSnapshot


@dataclass(frozen=True)
class Target:
    target: str  # "pane" or "ask"
    pane_id: Any = None
    reason: str = ""  # for "ask": busy | no-agent


def _inside(folder: Optional[str], root: Optional[str]) -> bool:
    if not folder or not root:
        return False
    folder, root = os.path.realpath(folder), os.path.realpath(root)
    return folder == root or folder.startswith(root.rstrip(os.sep) + os.sep)


def _available(pane: Pane) -> bool:
    """An agent pane we may type into: not busy, and not an agent that has exited."""
    return pane.is_agent and not pane.is_busy and pane.status not in ("exited", "closed")


def choose_target(focused: Optional[Pane], workspaces: Iterable[Workspace], repo_root: Optional[str]) -> Target:
    """Never a busy pane (working, thinking, waiting for a permission or an answer): typing into
    one would interrupt the agent or answer its question with our prompt.

    Order: the focused agent pane if it is idle and in the repository; then any idle agent pane
    working in the repository; otherwise ask the user (the host's Send-to dialog).
    """
    if focused is not None and _available(focused) and (
        repo_root is None or focused.cwd is None or _inside(focused.cwd, repo_root)
    ):
        return Target("pane", focused.id)
    saw_busy_agent = focused is not None and focused.is_agent and focused.is_busy
    for workspace in workspaces:
        for pane in workspace.panes:
            if not pane.is_agent or not _inside(pane.cwd or workspace.cwd, repo_root):
                continue
            if pane.is_busy:
                saw_busy_agent = True
            elif _available(pane):
                return Target("pane", pane.id)
    return Target("ask", reason="busy" if saw_busy_agent else "no-agent")


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
        raise NothingToSend("file.gone", path=path)
    diff = diffs.file_diff(location, runner, change)
    text = prompts.review_file_prompt(location.name, snapshot.status.branch.head, change, diff, language)
    return HandOff(f"Review {path}", text)


def commit_message(snapshot: RepoSnapshot, location: RepoLocation, runner: GitRunner, language: str) -> HandOff:
    if not snapshot.status.staged:
        raise NothingToSend("handoff.nothing_staged")
    diff = diffs.staged_diff(location, runner)
    text = prompts.commit_message_prompt(location.name, snapshot.status.branch.head, diff, language)
    return HandOff("Commit message", text)


def explain_branch(snapshot: RepoSnapshot, location: RepoLocation, runner: GitRunner, language: str) -> HandOff:
    comparison = diffs.branch_comparison(location, runner, snapshot.status.branch)
    if comparison is None:
        raise NothingToSend("handoff.no_base")
    return HandOff(f"Explain {comparison.head}", prompts.explain_branch_prompt(location.name, comparison, language))


def summarize_commit(snapshot: RepoSnapshot, location: RepoLocation, runner: GitRunner, sha: str,
                     language: str) -> HandOff:
    commit = next((c for c in snapshot.commits if c.sha == sha), None)
    if commit is None or not is_commit_id(commit.sha):
        raise NothingToSend("commit.gone")
    details = diffs.commit_details(location, runner, commit.sha)
    return HandOff(f"Summarize {commit.short}",
                   prompts.summarize_commit_prompt(location.name, commit.short, details, language))
