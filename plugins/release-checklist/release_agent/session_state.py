"""What the agent remembers about one ACP session: its repository, mode, language and standing permissions."""
from __future__ import annotations

import dataclasses
from typing import Optional, Protocol, Set

from .session_options import DEFAULT_MODE


class RunningTurn(Protocol):
    """What the session needs of its prompt turn (turn.Turn): a way to cancel it. Named here, not imported,
    so that turn.py (which reads and updates the session) and this module do not import each other."""

    def cancel(self, immediately: bool = False) -> None: ...


@dataclasses.dataclass
class SessionState:
    session_id: str
    cwd: str
    repo: Optional[str]  # the git work tree containing cwd; None when cwd is not in one
    mode: str = DEFAULT_MODE
    language: str = "en"  # the language of the last prompt; answers follow it
    # Steps the user answered "allow for this session" for: asked once, then run without asking.
    always_allowed: Set[str] = dataclasses.field(default_factory=set)
    turn: Optional[RunningTurn] = None  # the prompt turn running now, if any
    turns_started: int = 0
