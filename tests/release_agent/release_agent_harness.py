"""The test harness: the agent as a subprocess behind the official ACP client, plus git and checklist helpers."""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Dict, List, Optional, Tuple

from acp import PROTOCOL_VERSION, Client, spawn_agent_process, text_block
from acp.schema import (
    AllowedOutcome,
    ClientCapabilities,
    DeniedOutcome,
    Implementation,
    RequestPermissionResponse,
)

PLUGIN_DIR = Path(__file__).resolve().parents[2] / "plugins" / "release-checklist"

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
}


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=str(cwd), capture_output=True, text=True,
                          env={**os.environ, **GIT_IDENTITY})
    if done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr}")
    return done.stdout


def checklist(*items: str) -> str:
    return "# Release checklist\nTag format: `v{version}`\n\n" + "\n".join(f"- [ ] {item}" for item in items) + "\n"


def py(code: str) -> str:
    """A check command running this interpreter (no shell: one program and its arguments)."""
    return f"{sys.executable} -c {json.dumps(code)}"


class RecordingClient(Client):
    """A client that records every session/update and answers permission requests from a script."""

    def __init__(self) -> None:
        self.updates: List[Any] = []
        self.permissions: List[Any] = []
        self.answers: List[str] = []  # option ids to pick, in order; "cancel" answers "cancelled"
        self.on_update: Optional[Callable[[Any], None]] = None
        self.permission_gate: Optional[asyncio.Event] = None  # set: answer; unset: keep the request waiting

    async def request_permission(self, options: Any, session_id: str, tool_call: Any, **_: Any) -> Any:
        self.permissions.append(tool_call)
        if self.permission_gate is not None:
            await self.permission_gate.wait()
        answer = self.answers.pop(0) if self.answers else "cancel"
        if answer == "cancel":
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(outcome=AllowedOutcome(outcome="selected", option_id=answer))

    async def session_update(self, session_id: str, update: Any, **_: Any) -> None:
        self.updates.append(update)
        if self.on_update is not None:
            self.on_update(update)

    def of_kind(self, kind: str) -> List[Any]:
        return [update for update in self.updates if update.session_update == kind]

    def message_text(self) -> str:
        return "".join(update.content.text for update in self.of_kind("agent_message_chunk"))


class AgentRun:
    """One agent subprocess plus its client connection, raw frames and stderr log."""

    def __init__(self, conn: Any, process: Any, client: RecordingClient, frames: List[Tuple[str, Dict[str, Any]]],
                 log_path: Path) -> None:
        self.conn = conn
        self.process = process
        self.client = client
        self.frames = frames
        self.log_path = log_path

    async def initialize(self) -> Any:
        return await self.conn.initialize(protocol_version=PROTOCOL_VERSION, client_capabilities=ClientCapabilities(),
                                          client_info=Implementation(name="pytest", version="1"))

    async def new_session(self, cwd: Path) -> str:
        response = await self.conn.new_session(cwd=str(cwd), mcp_servers=[])
        return str(response.session_id)

    async def prompt(self, session_id: str, text: str) -> Any:
        return await self.conn.prompt(session_id=session_id, prompt=[text_block(text)])

    def stderr(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


@contextlib.asynccontextmanager
async def run_agent(tmp_path: Path, client: Optional[RecordingClient] = None) -> AsyncIterator[AgentRun]:
    client = client or RecordingClient()
    frames: List[Tuple[str, Dict[str, Any]]] = []
    log_path = tmp_path / f"agent-stderr-{len(list(tmp_path.glob('agent-stderr-*')))}.log"
    env = {"PYTHONPATH": str(PLUGIN_DIR), "AGENTTY_RELEASE_AGENT_DATA": str(tmp_path / "agent-data"),
           "AGENTTY_RELEASE_AGENT_LOG": "DEBUG", **GIT_IDENTITY}

    def observe(event: Any) -> None:
        frames.append((event.direction.value, event.message))

    with open(log_path, "wb") as log_file:
        async with spawn_agent_process(client, sys.executable, "-m", "release_agent", env=env,
                                       observers=[observe], transport_kwargs={"stderr": log_file}) as (conn, process):
            yield AgentRun(conn, process, client, frames, log_path)


def run(coroutine: Any, timeout: float = 60.0) -> Any:
    """Run one async scenario with a hard time limit (a hung turn fails the test instead of hanging it)."""
    return asyncio.run(asyncio.wait_for(coroutine, timeout))
