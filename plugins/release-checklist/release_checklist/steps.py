"""The vocabulary of a checklist: step kinds, step states and the Step record itself."""
from __future__ import annotations

import dataclasses
from typing import Optional, Tuple


class StepKind:
    """What kind of step an item is; the value is what the checklist file's `#tag` says."""

    CHECK = "check"  # the plugin runs the command itself, in its own subprocess; the exit code decides
    TERMINAL = "terminal"  # the command is typed into the user's terminal (Enter only when asked)
    AGENT = "agent"  # a prompt handed to an agent pane that is not busy
    MANUAL = "manual"  # the user ticks it off by hand

    ALL: Tuple[str, ...] = (CHECK, TERMINAL, AGENT, MANUAL)


class StepState:
    """Where one step stands for one release."""

    PENDING = "pending"
    RUNNING = "running"
    PASSED = "passed"  # a check exited 0
    FAILED = "failed"  # a check exited non-zero or could not start
    SKIPPED = "skipped"  # the user skipped it, with a reason
    SENT = "sent"  # typed into a terminal or handed to an agent; waits for the user's tick
    DONE = "done"  # ticked off by the user
    INTERRUPTED = "interrupted"  # was running when the process died (crash, kill -9)
    # A check that could not run: no network, a missing tool, a timeout. Never counted as passed.
    UNKNOWN = "unknown"

    STOPPED = "stopped"  # the user pressed Stop while it ran: neither passed nor failed

    ALL: Tuple[str, ...] = (PENDING, RUNNING, PASSED, FAILED, SKIPPED, SENT, DONE, INTERRUPTED, UNKNOWN, STOPPED)
    # States that count as "this step is behind us" for progress and for "release complete".
    COMPLETE: Tuple[str, ...] = (PASSED, SKIPPED, DONE)


@dataclasses.dataclass(frozen=True)
class Step:
    """One item of a checklist, as written in the file (placeholders not yet filled)."""

    id: str
    title: str
    kind: str
    command: Optional[str] = None  # check/terminal: the command; agent: the prompt; manual: a hint
    irreversible: bool = False
    timeout: Optional[float] = None  # seconds; None means the runner's default
    press_enter: bool = False  # terminal steps only: the file asked for Enter (`#enter`)
    line: int = 0  # 1-based line in the checklist file (0 for a derived default)

    @property
    def runs_itself(self) -> bool:
        """True when the plugin runs this step in its own subprocess."""
        return self.kind == StepKind.CHECK
