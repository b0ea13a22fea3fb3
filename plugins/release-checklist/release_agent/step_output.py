"""A running step's output: lines arrive on the engine's reader thread, the turn sends a bounded tail of them."""
from __future__ import annotations

import asyncio
import collections
import re
import threading
from typing import Deque, List, Tuple

from .messages import say

TAIL_LINES = 60  # what a tool call shows; the whole output can be 100 MB


class StepOutput:
    """Thread-safe tail of output lines that wakes the event loop at most once per batch of lines."""

    def __init__(self, loop: asyncio.AbstractEventLoop, max_lines: int = TAIL_LINES) -> None:
        self._loop = loop
        self._lock = threading.Lock()
        self._lines: Deque[str] = collections.deque(maxlen=max_lines)
        self._total = 0
        self._wake_pending = False
        self.changed = asyncio.Event()

    def add(self, line: str) -> None:
        """Called from the reader thread for every line; cheap: huge output costs no event-loop work per line."""
        with self._lock:
            self._lines.append(line)
            self._total += 1
            schedule = not self._wake_pending
            self._wake_pending = True
        if schedule:
            try:
                self._loop.call_soon_threadsafe(self._wake)
            except RuntimeError:  # the loop is closing (agent shutting down); the output is moot
                pass

    def _wake(self) -> None:
        with self._lock:
            self._wake_pending = False
        self.changed.set()

    def snapshot(self) -> Tuple[List[str], int]:
        with self._lock:
            return list(self._lines), self._total


def render_output(lines: List[str], total: int, language: str) -> str:
    """The tail as a Markdown code block (clients render tool call text as Markdown)."""
    if not lines:
        return say(language, "out_no_output")
    body = "\n".join(lines)
    longest = max((len(run) for run in re.findall(r"`{3,}", body)), default=2)
    fence = "`" * max(3, longest + 1)
    earlier = total - len(lines)
    header = say(language, "out_earlier_lines", count=earlier) + "\n" if earlier > 0 else ""
    return f"{header}{fence}\n{body}\n{fence}"
