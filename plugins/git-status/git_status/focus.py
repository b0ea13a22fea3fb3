"""Which folder the panel shows (pinned workspace or the focused pane) and when focus changes call for a refresh."""

from __future__ import annotations

import os
import time
from typing import Any, Optional

REPEAT_GUARD_SECONDS = 3.0


class Session:
    # A plain class, not a dataclass: the controller makes one before the first panel, and importing
    # `dataclasses` would cost that panel about 10 ms.
    def __init__(self) -> None:
        self.panel_open = False
        self.pinned_folder: Optional[str] = None  # a workspace or worktree chosen instead of following focus
        self.pane_status: Optional[str] = None  # the focused pane's last status, to notice an agent finishing
        self.last_title = ""  # the last prompt handed off, and when: a double click must not send it twice
        self.last_sent_at = float("-inf")

    def is_repeat(self, title: str) -> bool:
        return title == self.last_title and time.monotonic() - self.last_sent_at < REPEAT_GUARD_SECONDS

    def sent(self, title: str) -> None:
        self.last_title, self.last_sent_at = title, time.monotonic()

    def folder_for(self, context: Any) -> Optional[str]:
        """The pinned workspace's folder, else the focused pane's folder, else its workspace's."""
        if self.pinned_folder or context is None:
            return self.pinned_folder
        folder: Optional[str] = context.pane.cwd if context.pane is not None else None
        if not folder and context.workspace is not None:
            folder = context.workspace.cwd
        return folder or None

    def agent_stopped(self, context: Any) -> bool:
        """True when the focused agent just left a busy status: it has probably changed files."""
        pane = context.pane
        status = pane.status if pane is not None else None
        stopped = (pane is not None and pane.is_agent and not pane.is_busy
                   and self.pane_status is not None and self.pane_status != status)
        self.pane_status = status
        return bool(stopped)


def reveal_target(root: str, path: str) -> str:
    """The file itself, or for a deleted file the nearest folder that still exists (the host needs one)."""
    target = os.path.join(root, path)
    while not os.path.exists(target) and target.rstrip(os.sep) != root.rstrip(os.sep):
        target = os.path.dirname(target.rstrip(os.sep))
    return target
