"""The agents' side of a repository: its worktrees, the Agentty panes in each, collisions, and who edited what."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from agentty_plugin import AgenttyError, Workspace

from .attribution import Attribution, SessionResult, attribute
from .location import RepoLocation
from .porcelain import StatusReport
from .worktrees import PaneTag, WorktreeReader, WorktreeReport


@dataclass
class TeamReport:
    root: str  # the repository (any of its worktrees) this was read for
    worktrees: WorktreeReport
    attribution: Attribution = field(default_factory=Attribution)
    panes_state: str = "ok"  # ok | refused | error: whether workspace/list answered
    seconds: float = 0.0


def place_panes(report: WorktreeReport, workspaces: Sequence[Workspace]) -> List[Tuple[PaneTag, Optional[str]]]:
    """Puts every pane whose folder is inside a worktree on that worktree (the deepest one); returns them."""
    placed: List[Tuple[PaneTag, Optional[str]]] = []
    for worktree in report.worktrees:
        worktree.panes = []
    for workspace in workspaces:
        for pane in workspace.panes:
            folder = pane.cwd or workspace.cwd
            home = report.worktree_for(folder)
            if home is None:
                continue
            tag = PaneTag(pane.id, pane.kind, pane.status)
            home.panes.append(tag)
            placed.append((tag, folder))
    return placed


def read_team(location: RepoLocation, reader: WorktreeReader, list_workspaces: Callable[[], List[Workspace]],
              read_sessions: Callable[[List[Tuple[PaneTag, Optional[str]]]], List[SessionResult]],
              known: Optional[Dict[str, StatusReport]] = None) -> TeamReport:
    """Never raises for host or repository problems: each becomes a state the panel explains."""
    started = time.monotonic()
    worktrees = reader.read(location, known or {})
    team = TeamReport(location.root, worktrees)
    if worktrees.state != "ok":
        team.seconds = time.monotonic() - started
        return team
    try:
        workspaces = list_workspaces()
    except AgenttyError as error:
        team.panes_state = "refused" if error.is_permission else "error"
        workspaces = []
    placed = place_panes(worktrees, workspaces)
    agents = [(tag, folder) for tag, folder in placed if tag.is_agent]
    sessions: List[SessionResult] = read_sessions(agents) if agents else []
    team.attribution = attribute(worktrees, sessions)
    team.seconds = time.monotonic() - started
    return team

