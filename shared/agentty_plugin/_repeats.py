"""Folds a log message (or toast) that repeats within a window into one line with a count.

A handler that fails the same way on every poll would otherwise write its traceback many times a
second, and Agentty counts stderr toward the 240 lines/s after which it stops the plugin.
"""

from __future__ import annotations

import collections
import os
import threading

from .clock import system_clock

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, List, Optional

# An identical message is written at most once per this many seconds. AGENTTY_PLUGIN_REPEAT_WINDOW
# sets another: the runtime's end-to-end tests make it an hour, so a loaded machine that takes more
# than 30 s over their loop of failures cannot split it into two windows.
REPEAT_WINDOW = float(os.environ.get("AGENTTY_PLUGIN_REPEAT_WINDOW") or 30.0)
REMEMBERED = 64        # distinct recent messages kept; the oldest is forgotten (and its count reported)


class _Seen:
    __slots__ = ("shown_at", "repeats")

    def __init__(self, shown_at: float) -> None:
        self.shown_at = shown_at
        self.repeats = 0


def summary_line(text: str, repeats: int, window: float) -> str:
    first = text.split("\n", 1)[0]
    if len(first) > 160:
        first = first[:157] + "…"
    return f"agentty-plugin: repeated {repeats} more time(s) within {window:g} s: {first}"


class RepeatFolder:
    """`admit(text)` says which lines to write now: the text the first time, nothing while it repeats."""

    def __init__(self, window: float = REPEAT_WINDOW, clock: Callable[[], float] = system_clock,
                 remembered: int = REMEMBERED) -> None:
        self.window = window
        self._clock = clock
        self._remembered = remembered
        self._seen: collections.OrderedDict[str, _Seen] = collections.OrderedDict()
        self._lock = threading.Lock()

    def admit(self, text: str) -> List[str]:
        """The lines to write for `text`: summaries of repeats whose window closed, then `text` unless folded."""
        with self._lock:
            now = self._clock()
            lines = self._expired(now, keep=text)
            seen = self._seen.get(text)
            if seen is not None and now - seen.shown_at < self.window:
                seen.repeats += 1
                return lines
            if seen is not None and seen.repeats:
                lines.append(summary_line(text, seen.repeats, self.window))
            self._seen[text] = _Seen(now)
            self._seen.move_to_end(text)
            while len(self._seen) > self._remembered:
                old_text, old = self._seen.popitem(last=False)
                if old.repeats:
                    lines.append(summary_line(old_text, old.repeats, self.window))
            lines.append(text)
            return lines

    def flush(self) -> List[str]:
        """Summaries of every repeat not yet reported (at shutdown, so no count is lost)."""
        with self._lock:
            lines = [summary_line(text, seen.repeats, self.window) for text, seen in self._seen.items() if seen.repeats]
            self._seen.clear()
            return lines

    def _expired(self, now: float, keep: Optional[str]) -> List[str]:
        lines: List[str] = []
        for text in [t for t, s in self._seen.items() if t != keep and now - s.shown_at >= self.window]:
            seen = self._seen.pop(text)
            if seen.repeats:
                lines.append(summary_line(text, seen.repeats, self.window))
        return lines
