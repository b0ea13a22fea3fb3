"""Line framing for JSON-RPC over stdio: a guarded stdout, a size-limited stdin reader, UTF-8 always."""

from __future__ import annotations

import io
import json
import os
import sys
import threading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO, Callable, Iterator, Optional, Tuple

MAX_LINE_BYTES = 16 * 1024 * 1024  # the host refuses longer lines in both directions


def encode_message(message: Any) -> bytes:
    """One JSON object as one UTF-8 line; NaN/Infinity are refused because the host's parser rejects them."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    data = text.encode("utf-8", "surrogatepass") + b"\n"
    if len(data) > MAX_LINE_BYTES:
        raise ValueError(f"message of {len(data):,} bytes is over the host's 16 MB line limit")
    return data


class LineWriter:
    """Writes whole lines to the protocol stream, one writer at a time, flushed per line."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._lock = threading.Lock()
        self.closed = False

    def write_line(self, data: bytes) -> bool:
        with self._lock:
            if self.closed:
                return False
            try:
                self._stream.write(data)
                self._stream.flush()
            except (OSError, ValueError):
                # The host closed our stdout: nothing more can be said to it.
                self.closed = True
                return False
            return True


def claim_stdout() -> BinaryIO:
    """Take the real stdout for the protocol and point fd 1 at stderr.

    Agentty reads stdout as protocol only; a stray print(), a C extension or a child process that
    inherits fd 1 would otherwise corrupt the stream. After this call all of those land in the log.
    """
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        pass
    protocol_fd = os.dup(1)
    os.dup2(2, 1)
    if hasattr(os, "set_inheritable"):
        os.set_inheritable(protocol_fd, False)
    return os.fdopen(protocol_fd, "wb", buffering=io.DEFAULT_BUFFER_SIZE)


def utf8_stderr() -> Any:
    """sys.__stderr__ as UTF-8 and line-buffered whatever the locale (Agentty may start us with LANG unset)."""
    stream = sys.__stderr__
    if stream is None:
        return None
    try:
        stream.reconfigure(encoding="utf-8", errors="backslashreplace", line_buffering=True)
    except (AttributeError, ValueError, io.UnsupportedOperation):
        pass
    return stream


def read_lines(stream: BinaryIO, on_problem: Callable[[str], None]) -> Iterator[Tuple[int, Optional[Any]]]:
    """Yield (line number, decoded JSON object) for each usable line; report and skip the rest.

    Blank lines are skipped quietly; oversized, non-UTF-8, non-JSON and non-object lines are reported.
    The iterator ends at EOF.
    """
    number = 0
    while True:
        try:
            raw = stream.readline(MAX_LINE_BYTES + 1)
        except (OSError, ValueError):
            return
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            # Discard the rest of the oversized line without holding it in memory.
            while True:
                rest = stream.readline(1024 * 1024)
                if not rest or rest.endswith(b"\n"):
                    break
            on_problem(f"line {number}: refused a line over the 16 MB limit")
            continue
        stripped = raw.strip()
        if not stripped:
            continue
        try:
            text = stripped.decode("utf-8")
        except UnicodeDecodeError:
            on_problem(f"line {number}: ignoring a line that is not UTF-8")
            continue
        try:
            message = json.loads(text)
        except ValueError:
            on_problem(f"line {number}: ignoring a line that is not JSON: {text[:120]!r}")
            continue
        if not isinstance(message, dict):
            on_problem(f"line {number}: ignoring a JSON value that is not an object")
            continue
        yield number, message
