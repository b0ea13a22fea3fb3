"""The ACP agent: initialize, sessions with a Mode option, prompt turns that run the release checklist, cancel."""
from __future__ import annotations

import asyncio
import logging
import os
import uuid
from typing import Any, Dict, List, Optional

from acp import PROTOCOL_VERSION, RequestError
from acp.helpers import update_available_commands
from acp.interfaces import Client
from acp.schema import (
    AgentCapabilities,
    AvailableCommand,
    AvailableCommandInput,
    Implementation,
    InitializeResponse,
    McpCapabilities,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
    SetSessionConfigOptionResponse,
    UnstructuredCommandInput,
)

from . import __version__, engine
from .session_options import config_options, validated_mode
from .session_state import SessionState
from .turn import Turn

log = logging.getLogger("release_agent")

AGENT_NAME = "agentty-release-agent"
AGENT_TITLE = "Release checklist"
# Sent right after session/new: a client must have the session id before updates for it arrive.
COMMANDS_DELAY_SECONDS = 0.05


def _commands() -> List[AvailableCommand]:
    def command(name: str, description: str, hint: Optional[str] = None) -> AvailableCommand:
        given = AvailableCommandInput(root=UnstructuredCommandInput(hint=hint)) if hint else None
        return AvailableCommand(name=name, description=description, input=given)

    return [
        command("check", "Run the read-only release checks", "version, e.g. 1.4.0 (optional)"),
        command("release", "Run every step; asks before tagging or pushing", "version, e.g. 1.4.0"),
        command("status", "Where the release stands", "version (optional)"),
        command("left", "The steps still to do", "version (optional)"),
        command("help", "What this agent can do"),
    ]


class ReleaseAgent:
    """Implements the agent side of ACP (acp.interfaces.Agent) for the release checklist.

    Only what is advertised is implemented: no session/load, no session modes, no authentication;
    the library answers those methods with -32601.
    """

    def __init__(self, data_dir: Optional[str] = None) -> None:
        self.data_dir = data_dir or engine.default_data_dir()
        self.sessions: Dict[str, SessionState] = {}
        self._conn: Optional[Client] = None
        self._background: set[asyncio.Task[None]] = set()

    def on_connect(self, conn: Client) -> None:
        self._conn = conn

    @property
    def conn(self) -> Client:
        if self._conn is None:
            raise RequestError.internal_error({"reason": "not connected"})
        return self._conn

    async def initialize(self, protocol_version: int, client_capabilities: Any = None, client_info: Any = None,
                         **_: Any) -> InitializeResponse:
        # Spec: answer the client's version if we support it, else our latest (we speak only 1).
        version = min(protocol_version, PROTOCOL_VERSION) if protocol_version >= 1 else PROTOCOL_VERSION
        name = getattr(client_info, "name", None) or "an unnamed client"
        log.info("initialize from %s (protocol %s, answering %s)", name, protocol_version, version)
        return InitializeResponse(
            protocol_version=version,
            agent_capabilities=AgentCapabilities(
                load_session=False,
                prompt_capabilities=PromptCapabilities(image=False, audio=False, embedded_context=False),
                mcp_capabilities=McpCapabilities(http=False, sse=False),
            ),
            auth_methods=[],
            agent_info=Implementation(name=AGENT_NAME, title=AGENT_TITLE, version=__version__),
        )

    async def new_session(self, cwd: str, mcp_servers: Optional[List[Any]] = None, **_: Any) -> NewSessionResponse:
        if not cwd or not os.path.isabs(cwd):
            raise RequestError.invalid_params({"cwd": cwd, "reason": "cwd must be an absolute path"})
        # MCP servers are accepted (the client passes its own) and not used: no step needs them.
        repo = await asyncio.get_running_loop().run_in_executor(None, engine.find_repo, cwd)
        session = SessionState(session_id=uuid.uuid4().hex, cwd=cwd, repo=repo)
        self.sessions[session.session_id] = session
        log.info("session %s in %s (repository: %s; %d MCP server(s) ignored)", session.session_id, cwd,
                 repo or "none", len(mcp_servers or []))
        self._later(self._announce_commands(session.session_id))
        return NewSessionResponse(session_id=session.session_id, config_options=config_options(session.mode))

    async def set_config_option(self, config_id: str, session_id: str, value: Any,
                                **_: Any) -> SetSessionConfigOptionResponse:
        session = self._session(session_id)
        session.mode = validated_mode(config_id, value)
        log.info("session %s: mode is now %s", session_id, session.mode)
        return SetSessionConfigOptionResponse(config_options=config_options(session.mode))

    async def prompt(self, session_id: str, prompt: List[Any], **_: Any) -> PromptResponse:
        session = self._session(session_id)
        if session.turn is not None:
            raise RequestError.invalid_request({"sessionId": session_id,
                                                "reason": "a prompt turn is already running in this session"})
        turn = Turn(self.conn, session, self.data_dir)
        session.turn = turn  # set before the first await, so a cancel right behind the prompt finds it
        try:
            stop_reason = await turn.run(prompt)
        except asyncio.CancelledError:  # the connection is closing: leave no command running
            turn.cancel(immediately=True)
            raise
        except Exception as error:  # never a crashed turn: say what happened, keep the session usable
            log.exception("turn failed in session %s", session_id)
            stop_reason = "cancelled" if turn.cancel_event.is_set() else "end_turn"
            try:
                await turn.conn.session_update(session_id=session_id, update=_error_message(turn, error))
            except Exception:
                log.exception("could not report the failure")
        finally:
            session.turn = None
        return PromptResponse(stop_reason=stop_reason)  # type: ignore[arg-type]

    async def cancel(self, session_id: str, **_: Any) -> None:
        session = self.sessions.get(session_id)
        if session is None:
            log.info("session/cancel for unknown session %s ignored", session_id)
        elif session.turn is None:
            log.info("session/cancel for %s with no turn running: nothing to stop", session_id)
        else:
            session.turn.cancel()

    def shutdown(self) -> None:
        """The client went away or the agent was told to quit: kill every running command now."""
        for session in self.sessions.values():
            if session.turn is not None:
                session.turn.cancel(immediately=True)

    # ----- helpers ----------------------------------------------------------------------------
    def _session(self, session_id: str) -> SessionState:
        session = self.sessions.get(session_id)
        if session is None:
            raise RequestError.invalid_params({"sessionId": session_id,
                                               "reason": "unknown session; create one with session/new"})
        return session

    def _later(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _announce_commands(self, session_id: str) -> None:
        await asyncio.sleep(COMMANDS_DELAY_SECONDS)
        try:
            await self.conn.session_update(session_id=session_id, update=update_available_commands(_commands()))
        except Exception as error:  # the client left already; nothing to announce to
            log.info("could not announce commands: %s", error)


def _error_message(turn: Turn, error: Exception) -> Any:
    from acp import update_agent_message_text

    from .messages import say

    return update_agent_message_text(say(turn.language, "internal_error", error=type(error).__name__))
