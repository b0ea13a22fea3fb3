"""The plugin's own stdout and stderr once it runs: every print becomes a log line on stderr, within the budget."""

from __future__ import annotations

import json
import threading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable


class BudgetedLog:
    """A text stream for sys.stdout/sys.stderr inside the plugin: each complete line goes to `emit` (the log)."""

    def __init__(self, emit: Callable[[str], None]) -> None:
        self._emit = emit
        self._buffer = ""
        self._lock = threading.Lock()
        self.encoding = "utf-8"
        self.errors = "backslashreplace"

    def write(self, text: str) -> int:
        with self._lock:
            self._buffer += text
            if "\n" not in self._buffer:
                if len(self._buffer) > 8192:
                    text_out, self._buffer = self._buffer, ""
                    self._emit(text_out)
                return len(text)
            complete, self._buffer = self._buffer.rsplit("\n", 1)
        self._emit(complete)
        return len(text)

    def flush(self) -> None:
        with self._lock:
            rest, self._buffer = self._buffer, ""
        if rest:
            self._emit(rest)

    def isatty(self) -> bool:
        return False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return 2


def log_part(part: Any) -> str:
    """One argument of `plugin.log(...)` as text: strings as they are, the rest as JSON where possible."""
    if isinstance(part, str):
        return part
    try:
        return json.dumps(part, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(part)
