"""initialize, session/new, the Mode config option and bad input, through the official ACP client."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from acp import RequestError, image_block, resource_link_block, text_block
from release_agent_harness import RecordingClient, run, run_agent


def _error_of(coroutine: Any) -> Any:
    async def capture() -> Any:
        try:
            await coroutine
        except RequestError as error:
            return error
        raise AssertionError("expected a JSON-RPC error")

    return capture()


def test_initialize_negotiates_and_is_honest(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with run_agent(tmp_path) as agent:
            answer = await agent.conn.initialize(protocol_version=7)
            assert answer.protocol_version == 1  # min(client's 7, our 1)
            assert answer.agent_info.name == "agentty-release-agent"
            assert answer.agent_info.title == "Release checklist"
            assert answer.agent_info.version == "0.1.0"
            capabilities = answer.agent_capabilities
            assert capabilities.load_session is False
            prompt = capabilities.prompt_capabilities
            assert (prompt.image, prompt.audio, prompt.embedded_context) == (False, False, False)
            assert answer.auth_methods == []
            assert (await agent.initialize()).protocol_version == 1
            # Methods we do not advertise are refused, not silently "answered".
            error = await _error_of(agent.conn.load_session(cwd=str(tmp_path), session_id="x", mcp_servers=[]))
            assert error.code == -32601

    run(scenario())


def test_sessions_mode_option_and_bad_input(tmp_path: Path, make_repo: Callable[..., Path]) -> None:
    repo = make_repo()
    plain = tmp_path / "not-a-repo"
    plain.mkdir()

    async def scenario() -> None:
        client = RecordingClient()
        async with run_agent(tmp_path, client) as agent:
            await agent.initialize()
            response = await agent.conn.new_session(cwd=str(repo), mcp_servers=[
                {"name": "files", "command": "/bin/false", "args": [], "env": []}])  # accepted, ignored
            session = response.session_id
            assert response.modes is None  # Devin Desktop shows no session modes: a config option instead
            [mode] = response.config_options
            option = mode
            assert (option.id, option.category, option.type) == ("mode", "mode", "select")
            assert option.current_value == "check"
            assert [choice.value for choice in option.options] == ["check", "release"]
            raw_new = next(message for direction, message in agent.frames
                           if direction == "incoming" and message.get("id") == 1)
            assert "modes" not in raw_new["result"]

            changed = await agent.conn.set_config_option(config_id="mode", session_id=session, value="release")
            assert [item.current_value for item in changed.config_options] == ["release"]
            assert len(changed.config_options) == 1  # the complete list, every time
            error = await _error_of(agent.conn.set_config_option(config_id="model", session_id=session, value="x"))
            assert error.code == -32602
            error = await _error_of(agent.conn.set_config_option(config_id="mode", session_id=session, value="yolo"))
            assert error.code == -32602
            error = await _error_of(agent.conn.set_config_option(config_id="mode", session_id="nope", value="check"))
            assert error.code == -32602

            # Unknown session, relative cwd: protocol errors, and the agent keeps serving.
            error = await _error_of(agent.prompt("no-such-session", "check"))
            assert error.code == -32602 and "unknown session" in str(error.data)
            error = await _error_of(agent.conn.new_session(cwd="relative/path", mcp_servers=[]))
            assert error.code == -32602

            # Cancel with nothing running, twice, and for an unknown session: ignored.
            await agent.conn.cancel(session_id=session)
            await agent.conn.cancel(session_id=session)
            await agent.conn.cancel(session_id="no-such-session")

            # An image and a file: we say what we read (text) and still answer the text.
            client.updates.clear()
            answer = await agent.conn.prompt(session_id=session, prompt=[
                image_block("iVBORw0KGgo=", "image/png"), resource_link_block("notes.md", "file:///tmp/notes.md"),
                text_block("help")])
            assert answer.stop_reason == "end_turn"
            text = client.message_text()
            assert "I read text only" in text and "an image" in text and "an attached file" in text
            assert "`release 1.4.0`" in text and "**Release**" in text  # the help, with the current mode

            client.updates.clear()
            answer = await agent.conn.prompt(session_id=session, prompt=[image_block("iVBORw0KGgo=", "image/png")])
            assert answer.stop_reason == "end_turn" and "I read text only" in client.message_text()

            client.updates.clear()
            assert (await agent.prompt(session, "make me a sandwich")).stop_reason == "end_turn"
            assert "did not understand" in client.message_text() and "`status`" in client.message_text()

            client.updates.clear()
            assert (await agent.prompt(session, "何ができるの？")).stop_reason == "end_turn"
            assert "リリースチェックリスト" in client.message_text() and "**リリース**" in client.message_text()

            # A folder that is not a repository: the session exists, every prompt says why nothing runs.
            outside = await agent.new_session(plain)
            client.updates.clear()
            assert (await agent.prompt(outside, "check")).stop_reason == "end_turn"
            assert "not inside a git repository" in client.message_text()
            assert not client.of_kind("tool_call")
        assert "Traceback" not in agent.stderr()

    run(scenario())


def test_a_malformed_checklist_points_at_the_line(tmp_path: Path, make_repo: Callable[..., Path]) -> None:
    repo = make_repo("# Release checklist\n\n- [ ] Tests: `pytest -q` #tset\n")

    async def scenario() -> None:
        client = RecordingClient()
        async with run_agent(tmp_path, client) as agent:
            await agent.initialize()
            session = await agent.new_session(repo)
            for prompt, word in (("check", "problem"), ("チェック", "問題")):
                client.updates.clear()
                assert (await agent.prompt(session, prompt)).stop_reason == "end_turn"
                text = client.message_text()
                assert "RELEASE_CHECKLIST.md" in text and "line 3, column" in text and "#tset" in text
                assert word in text
            assert not client.of_kind("tool_call")

    run(scenario())
