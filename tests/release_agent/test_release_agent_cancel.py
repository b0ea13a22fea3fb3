"""session/cancel mid-command and mid-permission, a hanging command, a second prompt, a mode switch mid-turn."""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import pytest
from acp import RequestError, text_block
from acp.schema import InitializeRequest, NewSessionRequest, PromptRequest
from release_agent_harness import PLUGIN_DIR, RecordingClient, checklist, git, py, run, run_agent

PROCESS_TREE = py(
    "import subprocess, sys, os, time; "
    # The grandchild ignores SIGTERM: only the escalation to SIGKILL ends it.
    "child = subprocess.Popen([sys.executable, '-c', "
    "'import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)']); time.sleep(0.2); "
    "print('pids', os.getpid(), child.pid, flush=True); time.sleep(60)")
HANGS = py("import time; print('waiting', flush=True); time.sleep(60)")
PUBLISH = py("print('published')")


def alive(pid: int) -> bool:
    """Running or sleeping; a zombie (killed, not yet reaped) counts as gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def wait_for_text(client: RecordingClient, needle: str, timeout: float = 15.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for update in client.of_kind("tool_call_update"):
            for item in update.content or []:
                if needle in item.content.text:
                    return str(item.content.text)
        await asyncio.sleep(0.01)
    raise AssertionError(f"no output containing {needle!r}")


async def wait_until(condition: Callable[[], Any], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to prove the process tree is gone")
def test_cancel_stops_the_process_tree_and_ends_the_turn_cancelled(tmp_path: Path,
                                                                   make_repo: Callable[..., Path]) -> None:
    repo = make_repo(checklist(f"Long build: `{PROCESS_TREE}`"))
    releasing = make_repo(checklist(
        "Working tree is clean: `release-check clean-tree`",
        'Create the tag {tag}: `git tag -a {tag} -m "Release {version}"` #terminal #irreversible'), name="other")

    async def scenario() -> None:
        client = RecordingClient()
        async with run_agent(tmp_path, client) as agent:
            await agent.initialize()
            session = await agent.new_session(repo)
            turn = asyncio.ensure_future(agent.prompt(session, "check"))
            text = await wait_for_text(client, "pids")
            pids: List[int] = [int(part) for part in text.split("pids", 1)[1].split()[:2]]
            assert all(alive(pid) for pid in pids)
            await agent.conn.cancel(session_id=session)
            # The build would run 60 s: a cancelled answer, and its processes gone, are the cancel's doing.
            answer = await turn
            assert answer.stop_reason == "cancelled"
            await wait_until(lambda: not any(alive(pid) for pid in pids), timeout=30)
            # The tool call was closed (failed) before the turn answered, never left running.
            last = [update for update in client.of_kind("tool_call_update") if update.status][-1]
            assert (last.tool_call_id, last.status) == ("long-build#1", "failed")

            # Cancelling again, after the turn: nothing happens; the session answers the next prompt.
            await agent.conn.cancel(session_id=session)
            await agent.conn.cancel(session_id=session)
            client.updates.clear()
            assert (await agent.prompt(session, "status")).stop_reason == "end_turn"
            assert "- ■ Long build — stopped" in client.message_text()  # the user's Stop, not a failure

            # Cancel while the client still shows a permission request (and never answers it itself).
            other = await agent.new_session(releasing)
            await agent.conn.set_config_option(config_id="mode", session_id=other, value="release")
            client.permission_gate = asyncio.Event()
            turn = asyncio.ensure_future(agent.prompt(other, "release 1.4.0"))
            await wait_until(lambda: client.permissions)
            await agent.conn.cancel(session_id=other)
            answer = await turn  # the client never answers the request: only the cancel can end the turn
            assert answer.stop_reason == "cancelled"
            client.permission_gate.set()  # the late answer ("cancelled") must not disturb anything
            # A later turn on the same session is a barrier: the agent handles messages in order.
            assert (await agent.prompt(other, "status")).stop_reason == "end_turn"
            assert git(releasing, "tag", "--list") == ""
        assert "Traceback" not in agent.stderr()

    run(scenario())


def test_hanging_command_second_prompt_and_mode_switch_mid_turn(tmp_path: Path,
                                                               make_repo: Callable[..., Path]) -> None:
    repo = make_repo(checklist(f"Hangs: `{HANGS}` #timeout=1", f"Publish: `{PUBLISH}` #irreversible"))

    async def scenario() -> None:
        client = RecordingClient()
        async with run_agent(tmp_path, client) as agent:
            await agent.initialize()
            session = await agent.new_session(repo)
            await agent.conn.set_config_option(config_id="mode", session_id=session, value="release")
            turn = asyncio.ensure_future(agent.prompt(session, "release 1.4.0"))
            await wait_for_text(client, "waiting")
            error: Optional[RequestError] = None
            try:
                await agent.prompt(session, "check")
            except RequestError as raised:
                error = raised
            assert error is not None and error.code == -32600  # one turn at a time per session
            await agent.conn.set_config_option(config_id="mode", session_id=session, value="check")
            answer = await turn
            assert answer.stop_reason == "end_turn"
            failed = [update for update in client.of_kind("tool_call_update") if update.status == "failed"]
            assert "timed out after 1 s" in failed[0].content[0].content.text
            assert failed[0].raw_output["outcome"] == "timeout"
            assert "Couldn't check: Hangs (timed out after 1 s)." in client.message_text()  # never "passed"
            assert "The Mode option changed to Check only, so I stopped before “Publish”." in client.message_text()
            assert client.permissions == []
            assert "published" not in str(client.updates)

    run(scenario())


def test_agent_stdout_carries_only_protocol(tmp_path: Path, make_repo: Callable[..., Path]) -> None:
    """The raw byte stream of a whole turn with a noisy step and DEBUG logs: every stdout line is JSON-RPC."""
    repo = make_repo(checklist(f"Noisy: `{py('import sys; print(1); print(2, file=sys.stderr)')}`"))
    # Requests are built from the library's own models, then written as the client would.
    requests = [
        ("initialize", InitializeRequest(protocol_version=1)),
        ("session/new", NewSessionRequest(cwd=str(repo), mcp_servers=[])),
    ]
    env = {**os.environ, "PYTHONPATH": str(PLUGIN_DIR), "AGENTTY_RELEASE_AGENT_LOG": "DEBUG",
           "AGENTTY_RELEASE_AGENT_DATA": str(tmp_path / "data")}
    process = subprocess.Popen([sys.executable, "-m", "release_agent"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    killer = threading.Timer(60, process.kill)  # a hung agent fails the test instead of hanging it
    killer.start()
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    lines: List[bytes] = []

    def send(request_id: int, method: str, params: Any) -> None:
        body = params.model_dump(mode="json", by_alias=True, exclude_none=True)
        frame = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": body}
        process.stdin.write(json.dumps(frame).encode() + b"\n")  # type: ignore[union-attr]
        process.stdin.flush()  # type: ignore[union-attr]

    def read_until(request_id: int) -> Dict[str, Any]:
        while True:
            line = process.stdout.readline()  # type: ignore[union-attr]
            assert line, "the agent closed stdout"
            lines.append(line)
            message = json.loads(line)
            if message.get("id") == request_id and "method" not in message:
                return dict(message)

    try:
        for request_id, (method, params) in enumerate(requests):
            send(request_id, method, params)
            answer = read_until(request_id)
        session_id = answer["result"]["sessionId"]
        send(2, "session/prompt", PromptRequest(session_id=session_id, prompt=[text_block("check")]))
        assert read_until(2)["result"] == {"stopReason": "end_turn"}
        process.stdin.write(b"this is not json\n")
        process.stdin.close()
        rest, errors = process.stdout.read(), process.stderr.read()
        process.wait(timeout=30)
    finally:
        killer.cancel()
        process.kill()
    lines += rest.splitlines()
    assert all(json.loads(line).get("jsonrpc") == "2.0" for line in lines if line.strip())
    assert len(lines) > 5
    assert b"initialize from" in errors and b"release-agent" in errors


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to prove the process tree is gone")
@pytest.mark.parametrize("how", ["stdin closed", "SIGTERM"])
def test_a_client_that_goes_away_leaves_no_command_running(tmp_path: Path, make_repo: Callable[..., Path],
                                                           how: str) -> None:
    repo = make_repo(checklist(f"Long build: `{PROCESS_TREE}`"))

    async def scenario() -> List[int]:
        client = RecordingClient()
        async with run_agent(tmp_path, client) as agent:
            await agent.initialize()
            session = await agent.new_session(repo)
            turn = asyncio.ensure_future(agent.prompt(session, "check"))
            text = await wait_for_text(client, "pids")
            pids = [int(part) for part in text.split("pids", 1)[1].split()[:2]]
            if how == "SIGTERM":
                agent.process.terminate()
                await asyncio.wait_for(agent.process.wait(), 5)
            # Leaving the block closes the agent's stdin (and waits for it to exit).
        turn.cancel()
        await asyncio.gather(turn, return_exceptions=True)
        assert agent.process.returncode is not None
        return pids

    pids = run(scenario())
    deadline = time.monotonic() + 30  # a wait for the kill (the check would sleep 60 s), not a speed bound
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not any(alive(pid) for pid in pids), "the check's process tree outlived the agent"
