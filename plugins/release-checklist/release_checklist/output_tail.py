"""Split a command's output into lines as it arrives and keep only a bounded tail of them."""
from __future__ import annotations

import collections
import re
from typing import Callable, Deque, List, Optional

# Colour codes and terminal titles are noise in a panel (NO_COLOR is also set for the child).
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")

LineCallback = Callable[[str], None]


def clean_line(raw: bytes, max_chars: int) -> str:
    """Decode one output line for display: no colour codes, only what follows the last carriage return."""
    text = raw.decode("utf-8", "replace")
    if text.endswith("\r"):
        text = text[:-1]
    if "\r" in text:  # a progress bar redrawn in place: the terminal would show the last state
        text = text.rsplit("\r", 1)[1]
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if len(text) > max_chars:
        text = "…" + text[-(max_chars - 1):]
    return text


class OutputTail:
    """Feed it raw chunks; it calls on_line for every line and keeps the last max_lines of them.

    Memory stays bounded whatever the command prints: at most max_lines lines of at most
    max_line_chars characters, plus one unfinished line of at most 4 × max_line_chars bytes.
    """

    def __init__(self, max_lines: int = 200, max_line_chars: int = 2000,
                 on_line: Optional[LineCallback] = None) -> None:
        self.max_lines = max_lines
        self.max_line_chars = max_line_chars
        self.on_line = on_line
        self.total_bytes = 0
        self.total_lines = 0
        self._lines: Deque[str] = collections.deque(maxlen=max_lines)
        self._partial = b""
        self._partial_cut = False

    def feed(self, chunk: bytes) -> None:
        if not chunk:
            return
        self.total_bytes += len(chunk)
        data = self._partial + chunk
        pieces = data.split(b"\n")
        rest = pieces.pop()
        if self._partial_cut and pieces:
            pieces[0] = b"\xe2\x80\xa6" + pieces[0]  # "…": the start of this long line was dropped
            self._partial_cut = False
        self.total_lines += len(pieces)
        # Without a listener only the lines that can still end up in the tail need decoding,
        # which keeps 100 MB of output cheap.
        start = 0 if self.on_line is not None else max(0, len(pieces) - self.max_lines)
        for piece in pieces[start:]:
            self._emit(piece)
        limit = self.max_line_chars * 4
        if len(rest) > limit:
            rest = rest[-limit:]
            self._partial_cut = True
        self._partial = rest

    def close(self) -> None:
        """Emit the last line if the output did not end with a newline."""
        if self._partial:
            piece = (b"\xe2\x80\xa6" if self._partial_cut else b"") + self._partial
            self._partial, self._partial_cut = b"", False
            self.total_lines += 1
            self._emit(piece)

    def _emit(self, piece: bytes) -> None:
        line = clean_line(piece, self.max_line_chars)
        self._lines.append(line)
        if self.on_line is not None:
            self.on_line(line)

    @property
    def lines(self) -> List[str]:
        return list(self._lines)

    @property
    def dropped_lines(self) -> int:
        """Lines printed but no longer in the tail."""
        return max(0, self.total_lines - len(self._lines))

    def text(self, last: Optional[int] = None) -> str:
        lines = self.lines if last is None else self.lines[-last:]
        return "\n".join(lines)
