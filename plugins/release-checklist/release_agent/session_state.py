"""What the agent remembers about one ACP session: its repository, mode, language and standing permissions."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Optional, Set

from .session_options import DEFAULT_MODE

if TYPE_CHECKING:
    from .turn import Turn


@dataclasses.dataclass
class SessionState:
    session_id: str
    cwd: str
    repo: Optional[str]  # the git work tree containing cwd; None when cwd is not in one
    mode: str = DEFAULT_MODE
    language: str = "en"  # the language of the last prompt; answers follow it
    # Steps the user answered "allow for this session" for: asked once, then run without asking.
    always_allowed: Set[str] = dataclasses.field(default_factory=set)
    turn: Optional[Turn] = None  # the prompt turn running now, if any
    turns_started: int = 0
