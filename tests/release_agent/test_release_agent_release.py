"""Release turns: permission before irreversible steps, granted, rejected, or cancelled by the client."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from release_agent_harness import RecordingClient, checklist, git, run, run_agent

RELEASE_STEPS = checklist(
    "Working tree is clean: `release-check clean-tree`",
    "Tag {tag} is not taken yet: `release-check tag-free {tag}`",
    'Create the tag {tag}: `git tag -a {tag} -m "Release {version}"` #terminal #irreversible',
    "Push the tag to {remote}: `git push {remote} {tag}` #terminal #irreversible",
)


def origin_tags(repo: Path) -> str:
    return git(repo, "ls-remote", "--tags", "origin")


def test_release_with_permission_granted_on_the_default_checklist(tmp_path: Path,
                                                                  make_repo: Callable[..., Path]) -> None:
    repo = make_repo()  # no RELEASE_CHECKLIST.md: the default derived from the project

    async def scenario() -> None:
        client = RecordingClient()
        async with run_agent(tmp_path, client) as agent:
            await agent.initialize()
            session = await agent.new_session(repo)
            await agent.conn.set_config_option(config_id="mode", session_id=session, value="release")
            # The default has a manual "Tests pass" step (no test command here): the user confirms it.
            # The publish command needs a shell (build && upload): the user runs it and says when it is done.
            client.answers = ["done", "allow-once", "allow-always", "done"]
            answer = await agent.prompt(session, "release 1.4.0")
            assert answer.stop_reason == "end_turn", client.message_text()
            titles = [call.title for call in client.permissions]
            assert titles[0].startswith("Tests pass") and titles[0].endswith(": is it done?")
            assert titles[1:3] == ["Create the tag v1.4.0 (cannot be undone)",
                                   "Push main and v1.4.0 to origin together (cannot be undone)"]
            assert titles[3].startswith("Publish 1.4.0") and len(titles) == 4, titles
            request = next(message for direction, message in agent.frames
                           if message.get("method") == "session/request_permission")
            assert [(option["optionId"], option["kind"]) for option in request["params"]["options"]] == [
                ("done", "allow_once"), ("not-yet", "reject_once")]
            request = [message for direction, message in agent.frames
                       if message.get("method") == "session/request_permission"][1]
            assert [(option["optionId"], option["kind"]) for option in request["params"]["options"]] == [
                ("allow-once", "allow_once"), ("allow-always", "allow_always"), ("reject", "reject_once")]
            assert request["params"]["toolCall"]["rawInput"]["command"] == 'git tag -a v1.4.0 -m "Release 1.4.0"'
            assert "Release 1.4.0 (v1.4.0) is complete: all 10 steps are done." in client.message_text()
            assert git(repo, "tag", "--list") == "v1.4.0\n"
            assert "refs/tags/v1.4.0" in origin_tags(repo)
            assert git(repo, "cat-file", "-p", "v1.4.0").strip().endswith("Release 1.4.0")
            last_plan = client.of_kind("plan")[-1]
            assert {entry.status for entry in last_plan.entries} == {"completed"}

            # Again: nothing irreversible runs twice, nobody is asked.
            client.permissions.clear()
            client.updates.clear()
            assert (await agent.prompt(session, "release 1.4.0")).stop_reason == "end_turn"
            assert client.permissions == []
            assert "is complete" in client.message_text()

            # Another version in the same session: "allow for this session" covers the push, not the tag.
            client.permissions.clear()
            client.answers = ["done", "allow-once", "done"]
            # The bump touches the version file as well: since issue 26, a version the VERSION file does not
            # say fails the version check (before, the changelog alone passed it: a false pass).
            (repo / "VERSION").write_text("1.5.0\n", encoding="utf-8")
            (repo / "CHANGELOG.md").write_text("# Changelog\n\n## 1.5.0\n- More.\n", encoding="utf-8")
            git(repo, "commit", "-qam", "1.5.0")  # not pushed: the release push carries it with the tag
            assert (await agent.prompt(session, "release 1.5.0")).stop_reason == "end_turn"
            titles = [call.title for call in client.permissions]
            assert titles[1] == "Create the tag v1.5.0 (cannot be undone)" and titles[2].startswith("Publish 1.5.0")
            head = git(repo, "rev-parse", "HEAD").strip()
            assert git(repo, "ls-remote", "origin", "refs/heads/main").split()[0] == head
            assert git(repo, "ls-remote", "origin", "refs/tags/v1.5.0^{}").split()[0] == head

    run(scenario())


def test_release_rejected_or_cancelled_leaves_no_tag(tmp_path: Path, make_repo: Callable[..., Path]) -> None:
    repo = make_repo(RELEASE_STEPS)

    async def scenario() -> None:
        client = RecordingClient()
        async with run_agent(tmp_path, client) as agent:
            await agent.initialize()
            session = await agent.new_session(repo)
            await agent.conn.set_config_option(config_id="mode", session_id=session, value="release")

            client.answers = ["reject"]
            assert (await agent.prompt(session, "release 1.4.0")).stop_reason == "end_turn"
            assert [call.title for call in client.permissions] == ["Create the tag v1.4.0 (cannot be undone)"]
            assert "You rejected “Create the tag v1.4.0”, so I stopped there" in client.message_text()
            rejected = [update for update in client.of_kind("tool_call_update") if update.status == "failed"]
            assert [update.tool_call_id for update in rejected] == ["create-the-tag#1"]
            assert git(repo, "tag", "--list") == ""
            assert all(call.title != "Push the tag to origin" for call in client.of_kind("tool_call"))

            # The client answers the permission request with "cancelled": the turn ends cancelled.
            client.updates.clear()
            client.permissions.clear()
            client.answers = ["cancel"]
            assert (await agent.prompt(session, "release 1.4.0")).stop_reason == "cancelled"
            assert len(client.permissions) == 1
            closed = [update for update in client.of_kind("tool_call_update") if update.status == "failed"]
            assert [update.tool_call_id for update in closed] == ["create-the-tag#2"]
            assert git(repo, "tag", "--list") == "" and "v1.4.0" not in origin_tags(repo)

            # The session still works, and the progress shows what is left.
            client.updates.clear()
            assert (await agent.prompt(session, "残りは？")).stop_reason == "end_turn"
            text = client.message_text()
            assert "1.4.0 の残り（2 件）" in text and "Create the tag v1.4.0" in text

    run(scenario())
