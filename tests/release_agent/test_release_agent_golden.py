"""The wire shapes we emit, compared with golden JSON (RELEASE_AGENT_UPDATE_GOLDEN=1 rewrites the files)."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from acp import RequestError
from release_agent_harness import RecordingClient, checklist, run, run_agent

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("RELEASE_AGENT_UPDATE_GOLDEN") == "1"


def normalize(value: Any, replacements: List[Tuple[str, str]]) -> Any:
    """Machine-specific strings (session id, temp paths, interpreter) become stable placeholders."""
    if isinstance(value, dict):
        return {key: normalize(item, replacements) for key, item in value.items()}
    if isinstance(value, list):
        return [normalize(item, replacements) for item in value]
    if isinstance(value, str):
        for old, new in replacements:
            value = value.replace(old, new)
    return value


def pick(frames: List[Tuple[str, Dict[str, Any]]], test: Callable[[Dict[str, Any]], bool]) -> Dict[str, Any]:
    found = [message for direction, message in frames if direction == "incoming" and test(message)]
    assert found, "no frame of this shape was sent"
    return found[0]


def update_of(tag: str, extra: Optional[Callable[[Dict[str, Any]], bool]] = None) -> Callable[[Dict[str, Any]], bool]:
    def test(message: Dict[str, Any]) -> bool:
        update = message.get("params", {}).get("update", {})
        return (message.get("method") == "session/update" and update.get("sessionUpdate") == tag
                and (extra is None or extra(update)))

    return test


def status_is(status: str) -> Callable[[Dict[str, Any]], bool]:
    return lambda update: update.get("status") == status


def response_to(request_id: int) -> Callable[[Dict[str, Any]], bool]:
    return lambda message: message.get("id") == request_id and "method" not in message


def test_wire_shapes_match_golden_json(tmp_path: Path, make_repo: Callable[..., Path]) -> None:
    repo = make_repo(checklist(
        "Working tree is clean: `release-check clean-tree`",
        'Create the tag {tag}: `git tag -a {tag} -m "Release {version}"` #terminal #irreversible'))
    frames: List[Tuple[str, Dict[str, Any]]] = []
    session = ""

    async def scenario() -> None:
        nonlocal session
        client = RecordingClient()
        async with run_agent(tmp_path, client) as agent:
            await agent.initialize()                                                         # id 0
            session = await agent.new_session(repo)                                          # id 1
            await agent.conn.set_config_option(config_id="mode", session_id=session, value="release")  # id 2
            client.answers = ["reject"]
            await agent.prompt(session, "release 1.4.0")                                     # id 3
            client.answers = ["cancel"]
            await agent.prompt(session, "release 1.4.0")                                     # id 4
            try:
                await agent.prompt("no-such-session", "check")                               # id 5
            except RequestError:
                pass
            frames.extend(agent.frames)

    run(scenario())
    replacements = [(session, "<session>"), (str(repo), "<repo>"), (sys.executable, "<python>")]
    shapes = {
        "initialize_response": pick(frames, response_to(0)),
        "new_session_response": pick(frames, response_to(1)),
        "set_config_option_response": pick(frames, response_to(2)),
        "available_commands_update": pick(frames, update_of("available_commands_update")),
        "plan_update": pick(frames, update_of("plan", lambda u: u["entries"][0]["status"] == "in_progress")),
        "tool_call": pick(frames, update_of("tool_call")),
        "tool_call_update_in_progress": pick(frames, update_of("tool_call_update", status_is("in_progress"))),
        "tool_call_update_output": pick(frames, update_of("tool_call_update", lambda u: "status" not in u)),
        "tool_call_update_completed": pick(frames, update_of("tool_call_update", status_is("completed"))),
        "request_permission": pick(frames, lambda m: m.get("method") == "session/request_permission"),
        "tool_call_update_rejected": pick(frames, update_of("tool_call_update", status_is("failed"))),
        "agent_message_chunk": pick(frames, update_of("agent_message_chunk")),
        "agent_message_chunk_result": pick(frames, update_of(
            "agent_message_chunk", lambda u: "rejected" in u["content"]["text"])),
        "prompt_response_end_turn": pick(frames, response_to(3)),
        "prompt_response_cancelled": pick(frames, response_to(4)),
        "error_unknown_session": pick(frames, response_to(5)),
    }
    GOLDEN.mkdir(exist_ok=True)
    mismatches = []
    for name, message in shapes.items():
        actual = normalize(message, replacements)
        path = GOLDEN / f"{name}.json"
        if UPDATE:
            path.write_text(json.dumps(actual, indent=2, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
            continue
        assert path.exists(), f"missing golden file {path.name}; run with RELEASE_AGENT_UPDATE_GOLDEN=1"
        if json.loads(path.read_text(encoding="utf-8")) != actual:
            mismatches.append(f"{name}: {json.dumps(actual, ensure_ascii=False, sort_keys=True)}")
    assert not mismatches, "wire shapes changed:\n" + "\n".join(mismatches)
