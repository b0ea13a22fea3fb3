"""The plugin log on stderr: repeats folded, lines kept within the rate budget, drops counted and reported."""

from __future__ import annotations

import sys

from ._repeats import RepeatFolder

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, List

    from ._pacing import RateBudget

DROP_REPORT_INTERVAL = 1.0  # seconds between "N log lines dropped" reports


class PluginLog:
    """Writes log text to the stream `stream()` returns (the real stderr once the plugin runs)."""

    def __init__(self, budget: RateBudget, clock: Callable[[], float], stream: Callable[[], Any]) -> None:
        self._budget = budget
        self._clock = clock
        self._stream = stream
        self._repeats = RepeatFolder(clock=clock)
        self._last_drop_report = float("-inf")

    def emit(self, text: str) -> None:
        admitted = self._repeats.admit(text)
        if not admitted:
            return  # the same text was written moments ago: counted, and reported once its window closes
        lines = "\n".join(admitted).split("\n")
        if not self._budget.try_log(len(lines)):
            return
        now = self._clock()
        if now - self._last_drop_report > DROP_REPORT_INTERVAL:
            dropped = self._budget.take_dropped()
            if dropped:
                self._last_drop_report = now
                lines.insert(0, f"agentty-plugin: {dropped} log lines dropped to stay under Agentty's rate limit")
        self._write(lines)

    def close(self) -> None:
        """Report the repeats still being counted, so no count is lost when the plugin stops."""
        repeats = self._repeats.flush()
        if repeats:
            self._write(repeats)

    def _write(self, lines: List[str]) -> None:
        stream = self._stream() or sys.__stderr__
        if stream is None:
            return
        try:
            stream.write("\n".join(lines) + "\n")
            stream.flush()
        except (OSError, ValueError):
            pass
