"""A full check turn on a real repository: plan, one tool call per step, streamed output, the closing message."""
from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any, Callable, List, Tuple

from release_agent_harness import RecordingClient, checklist, git, py, run, run_agent

STREAMING = py("import time; [(print('line', i, flush=True), time.sleep(0.4)) for i in range(3)]")
NOISY = py("import sys; sys.stdout.writelines('line %d\\n' % i for i in range(300000))")
FAILING = py("import sys; print('2 problems'); sys.exit(1)")


async def wait_for_commands(client: RecordingClient) -> None:
    """The agent announces its slash commands once, just after session/new."""
    for _ in range(200):
        if client.of_kind("available_commands_update"):
            names = [command.name for command in client.of_kind("available_commands_update")[0].available_commands]
            assert names == ["check", "release", "status", "left", "help"]
            return
        await asyncio.sleep(0.01)
    raise AssertionError("no available_commands_update")


def test_check_turn_streams_plan_tool_calls_and_result(tmp_path: Path, make_repo: Callable[..., Path]) -> None:
    repo = make_repo(checklist(
        "Working tree is clean: `release-check clean-tree`",
        f"Streams output: `{STREAMING}`",
        f"Lint is clean: `{FAILING}`",
        "Write the release notes",
        'Create the tag {tag}: `git tag -a {tag} -m "Release {version}"` #terminal #irreversible',
    ))
    noisy = make_repo(checklist(f"Noisy: `{NOISY}`"), name="noisy")

    async def scenario() -> None:
        client = RecordingClient()
        arrivals: List[Tuple[float, Any]] = []
        client.on_update = lambda update: arrivals.append((time.monotonic(), update))
        async with run_agent(tmp_path, client) as agent:
            await agent.initialize()
            session = await agent.new_session(repo)
            await wait_for_commands(client)
            client.updates.clear()
            arrivals.clear()
            answer = await agent.prompt(session, "check")
            assert answer.stop_reason == "end_turn"

            first = client.updates[0]
            assert first.session_update == "plan"
            assert [entry.content for entry in first.entries] == [
                "Working tree is clean", "Streams output", "Lint is clean", "Write the release notes",
                "Create the tag v1.4.0"]
            assert {entry.status for entry in first.entries} == {"pending"}

            starts = client.of_kind("tool_call")
            assert [call.title for call in starts] == ["Working tree is clean", "Streams output", "Lint is clean"]
            for call in starts:
                assert call.kind == "execute" and call.status == "pending"
                assert [location.path for location in call.locations] == [str(repo)]
                assert call.raw_input["cwd"] == str(repo) and call.raw_input["command"]
            assert starts[0].raw_input["command"] == "release-check clean-tree"

            streamed = starts[1].tool_call_id
            progress = [(at, update) for at, update in arrivals if update.session_update == "tool_call_update"
                        and update.tool_call_id == streamed and update.content]
            live = [(at, update) for at, update in progress if update.status is None]
            final_at, final = progress[-1]
            assert final.status == "completed"
            assert any("line 0" in update.content[0].content.text and "line 2" not in update.content[0].content.text
                       for _at, update in live), "output must arrive while the command still runs"
            assert final_at - live[0][0] > 0.5
            assert "line 2" in final.content[0].content.text

            failed = [update for update in client.of_kind("tool_call_update")
                      if update.tool_call_id == starts[2].tool_call_id and update.status == "failed"]
            assert len(failed) == 1
            shown = failed[0].content[0].content.text
            assert "2 problems" in shown and "exit code 1" in shown
            assert failed[0].raw_output == {"outcome": "failed", "exitCode": 1, "message": "exit code 1"}

            last_plan = client.of_kind("plan")[-1]
            assert [(entry.status, entry.content) for entry in last_plan.entries] == [
                ("completed", "Working tree is clean"), ("completed", "Streams output"),
                ("pending", "Lint is clean — failed"), ("pending", "Write the release notes"),
                ("pending", "Create the tag v1.4.0 — not run in Check only mode")]
            statuses = [entry.status for plan in client.of_kind("plan") for entry in plan.entries[1:2]]
            assert "in_progress" in statuses  # the plan follows the steps as they run

            text = client.message_text()
            assert "1.4.0 (v1.4.0): 2 of 3 checks passed." in text
            assert "Failed: Lint is clean (exit code 1)." in text
            assert client.updates[-1].session_update == "agent_message_chunk"

            # Follow-up questions read the saved progress; nothing runs.
            client.updates.clear()
            assert (await agent.prompt(session, "what's left?")).stop_reason == "end_turn"
            text = client.message_text()
            assert "Left for 1.4.0 (3):" in text and "Lint is clean — failed (exit code 1)" in text
            assert "Working tree is clean" not in text and not client.of_kind("tool_call")
            client.updates.clear()
            assert (await agent.prompt(session, "状態は？")).stop_reason == "end_turn"
            assert "5 件中 2 件のステップが完了" in client.message_text()
            assert "Lint is clean — 失敗 (終了コード 1)" in client.message_text()
            assert [entry.status for entry in client.of_kind("plan")[-1].entries][:2] == ["completed", "completed"]

            # "release" in Check only mode: checks run, nothing irreversible, and it says how to release.
            client.updates.clear()
            assert (await agent.prompt(session, "release 1.4.0")).stop_reason == "end_turn"
            assert not client.permissions
            assert "Check only mode: I did not run 1 step(s) that change things (Create the tag v1.4.0)" \
                in client.message_text()
            # 300,000 lines in about a second: a bounded tail, a handful of throttled updates.
            client.updates.clear()
            session = await agent.new_session(noisy)
            assert (await agent.prompt(session, "check")).stop_reason == "end_turn"
            updates = [update for update in client.of_kind("tool_call_update") if update.content]
            assert 1 <= len(updates) <= 40
            final = updates[-1].content[0].content.text
            assert final.startswith("… 299940 earlier line(s)\n```\n") and "line 299999\n```" in final
            assert len(final) < 4000
        assert git(repo, "tag", "--list") == ""

    run(scenario())
