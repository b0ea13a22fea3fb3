"""Where a note may go: whether the focused pane may have it typed in, and which agent and folder a new session gets."""

import os
from typing import TYPE_CHECKING, Optional

from agentty_plugin.context import AGENT_KINDS, Pane

from .sources import expand

if TYPE_CHECKING:
    from .safety import OpenedNote

DEFAULT_AGENT = "claude"  # a new session's agent when neither the note nor the focused pane names one


def insert_refusal(pane: Optional[Pane]) -> Optional[str]:
    """None when the note may be typed into `pane`; else the catalog key that says why not.

    Only an idle, running Claude or Codex pane takes it: typing into a working agent, or into its
    permission or question prompt, would answer that prompt with the note."""
    if pane is None:
        return "insert_no_pane"
    if not pane.is_agent:
        return "insert_not_agent"
    if not pane.running:
        return "insert_not_running"
    if pane.is_busy:
        return "insert_busy"
    return None


def session_agent(note: "OpenedNote", pane: Optional[Pane]) -> str:
    """The note's `agent:` when it is one Agentty runs, else the focused agent's kind, else Claude."""
    if note.meta.agent in AGENT_KINDS:
        return str(note.meta.agent)
    return pane.kind if pane is not None and pane.is_agent else DEFAULT_AGENT


def session_folder(note: "OpenedNote", fallback: Optional[str]) -> Optional[str]:
    """The note's `cwd:` when that folder exists here, else `fallback` (the focused pane's folder)."""
    if note.meta.cwd and os.path.isdir(expand(note.meta.cwd)):
        return expand(note.meta.cwd)
    return fallback
