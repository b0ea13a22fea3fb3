"""What the panel shows, as one object the controller changes under its lock and the view reads."""
from __future__ import annotations

import collections
from typing import TYPE_CHECKING, Any, Callable, Deque, Dict, List, Optional

if TYPE_CHECKING:
    from .checklist_file import ChecklistProblem
    from .release_view import Release
    from .run_store import ReleaseSummary

Translate = Callable[..., str]
LIVE_LINES = 12  # lines of a running step's output shown under the spinner


class State:
    """Everything the panel shows; changed under the controller's lock, read by render()."""

    def __init__(self, folder: Optional[str] = None, release: Optional[Release] = None) -> None:
        self.folder = folder
        self.loading = False
        self.not_repo = False
        self.release = release  # the loaded release as last drawn (a snapshot: the view never sees the engine)
        self.repo_problem = ""  # why there is no repository: not-repo, refused (safe.directory), no-git
        self.problems: List[ChecklistProblem] = []
        self.problems_file = ""
        self.read_error: Optional[str] = None
        self.selected: Optional[str] = None  # step whose output is shown
        self.live_lines: Deque[str] = collections.deque(maxlen=LIVE_LINES)
        self.confirm: Optional[Dict[str, Any]] = None  # {"step", "action": ids.ACT_*, "preview", "local": bool}
        self.confirm_reset = False
        self.skipping: Optional[str] = None
        self.skip_error = False
        self.press_enter = False
        self.version_error: Optional[str] = None
        self.history: List[ReleaseSummary] = []
        self.language = "en"  # for the history's "3 days ago"
        self.now: Optional[float] = None  # when the panel is drawn (elapsed times, "3 days ago"); None: now
