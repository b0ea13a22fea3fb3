"""The controller's readers (git, worktrees, workspaces, agents' sessions) and its change poller, made together."""

from __future__ import annotations

from typing import Any, Callable, Optional

from .location import RepoLocation
from .overview import OverviewReader
from .poller import ChangePoller
from .runner import GitRunner
from .sessions import SessionReader
from .worktrees import WorktreeReader


class Readers:
    """The controller builds one on first use, after the first panel is out: importing these modules
    (dataclasses and the git runner) is most of what
    made git-status's first panel 3x the minimal plugin's (bench_runtime "First panel" table)."""

    def __init__(self, plugin: Any, shown_location: Callable[[], Optional[RepoLocation]],
                 on_change: Callable[[str], None]) -> None:
        self.runner = GitRunner()
        self.overview = OverviewReader(self.runner)
        self.worktrees = WorktreeReader(self.runner)
        self.sessions = SessionReader(plugin)
        self.poller = ChangePoller(shown_location, on_change)
