"""Incremental parser for Server-Sent Events, fed one line at a time as a stream arrives."""

from dataclasses import dataclass
from typing import List, Optional


@dataclass(frozen=True)
class ServerEvent:
    event: str  # "message" when the server named none
    data: str


class EventParser:
    """Collects `event:` and `data:` fields and emits an event at each blank line, per the SSE format."""

    def __init__(self) -> None:
        self._event = ""
        self._data: List[str] = []
        self._has_data = False

    def feed(self, line: str) -> Optional[ServerEvent]:
        line = line.rstrip("\r\n")
        if line == "":
            return self._dispatch()
        if line.startswith(":"):
            return None  # a comment, used by servers as keep-alive
        name, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
            self._has_data = True
        return None  # id, retry and unknown fields do not matter for a one-shot stream

    def flush(self) -> Optional[ServerEvent]:
        """The event left when the stream ends without a final blank line."""
        return self._dispatch()

    def _dispatch(self) -> Optional[ServerEvent]:
        if not self._has_data:
            self._event = ""
            return None
        event = ServerEvent(event=self._event or "message", data="\n".join(self._data))
        self._event, self._data, self._has_data = "", [], False
        return event
