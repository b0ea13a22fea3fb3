"""Errors raised by the runtime: host errors with their JSON-RPC code, and local refusals."""

from __future__ import annotations

# JSON-RPC codes the Agentty host answers with (reference: agentty-host.md §5).
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
PERMISSION_DENIED = -32001
UNAVAILABLE = -32002
# Not a host code: the runtime gave up waiting for an answer.
TIMED_OUT = -32003


class AgenttyError(Exception):
    """A call to the host failed; `code` is the JSON-RPC error code the host answered with."""

    def __init__(self, message: str, code: int = INTERNAL_ERROR, method: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.method = method

    @property
    def is_permission(self) -> bool:
        return self.code == PERMISSION_DENIED

    @property
    def is_unavailable(self) -> bool:
        return self.code == UNAVAILABLE

    @property
    def is_invalid_params(self) -> bool:
        return self.code == INVALID_PARAMS

    @property
    def is_timed_out(self) -> bool:
        """The host did not answer within the plugin's call timeout (not a host code: the runtime's own)."""
        return self.code == TIMED_OUT

    def __repr__(self) -> str:
        return f"AgenttyError({self.message!r}, code={self.code}, method={self.method!r})"
