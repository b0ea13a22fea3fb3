"""Requests waiting for the host's answer, filed under their JSON-RPC id (ids count up from 1 per plugin)."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Mapping

from .errors import INTERNAL_ERROR, AgenttyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict

    from ._workers import Reply


class PendingRequests:
    """Each request's Reply until its answer arrives; an answer to an unknown id is ignored (as the Node SDK does)."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self._pending: Dict[int, Reply] = {}
        self._lock = threading.Lock()

    def file(self, reply: Reply) -> int:
        """Take the next request id and file `reply` under it until the host answers."""
        request_id = next(self._ids)
        with self._lock:
            self._pending[request_id] = reply
        reply.add_done_callback(lambda _f: self._forget(request_id))
        return request_id

    def _forget(self, request_id: int) -> None:
        with self._lock:
            self._pending.pop(request_id, None)

    def resolve(self, message: Mapping[str, Any]) -> None:
        """Settle the Reply of an answer: its result, or AgenttyError with the host's code and message."""
        request_id = message.get("id")
        with self._lock:
            future = self._pending.get(request_id) if isinstance(request_id, int) else None
        if future is None or future.done():
            return
        error = message.get("error")
        if isinstance(error, Mapping):
            code = error.get("code")
            future.set_exception(AgenttyError(
                str(error.get("message", "error")), code if isinstance(code, int) else INTERNAL_ERROR))
        else:
            future.set_result(message.get("result"))

    def fail_all(self, reason: str) -> None:
        """At shutdown: nobody will answer now, so no handler may wait on."""
        with self._lock:
            pending = list(self._pending.values())
        for future in pending:
            if not future.done():
                future.set_exception(AgenttyError(reason, INTERNAL_ERROR))
