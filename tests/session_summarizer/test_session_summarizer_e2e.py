"""End-to-end: the plugin started as Agentty starts it, driven through the runtime's host harness."""

import json
import os
from pathlib import Path

import pytest
from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World
from session_summarizer_fixtures import PLANTED, bug_fix_session, japanese_session, make_repo, secrets_session
from session_summarizer_llm_server import LLMServer

PLUGIN = str(Path(__file__).resolve().parents[2] / "plugins" / "session-summarizer")


def _world(repo, session, language="en", focused=11, other_status="working"):
    return World(workspaces=[WorkspaceSpec(id=1, name="shop", cwd=str(repo), panes=[
        PaneSpec(id=11, kind="claude", status="idle", cwd=str(repo), title="claude · fix", session=session),
        PaneSpec(id=12, kind="codex", status=other_status, cwd=str(repo), title="codex · tests", session=None),
        PaneSpec(id=13, kind="shell", status="idle", cwd=str(repo), title="zsh"),
    ])], focused_pane=focused, language=language)


def _repo(tmp_path):
    repo = make_repo(tmp_path / "shop", {"src/export/csv_writer.py": "old\n", "tests/test_export.py": "t\n"})
    (repo / "src/export/csv_writer.py").write_text("new\n", encoding="utf-8")
    return repo


def _summary_text(host, tree):
    return "\n".join(host.texts(tree))


def _write_settings(data_dir, notes, **llm):
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "settings.json").write_text(json.dumps({"notes_folder": str(notes), "llm": llm}), encoding="utf-8")


def test_local_summary_save_handoff_and_busy_refusal(tmp_path):
    repo = _repo(tmp_path)
    notes = tmp_path / "notes"
    data = tmp_path / "data"
    _write_settings(data, notes)
    with PluginHost(PLUGIN, world=_world(repo, bug_fix_session(str(repo))), data_dir=str(data)) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: host.find(t, "session.summarize") is not None)
        host.click("session.summarize")
        tree = host.wait_for_panel(lambda t: host.find(t, "summary.save") is not None)
        text = _summary_text(host, tree)
        assert "Goal" in host.texts(tree) and "The CSV export crashes" in text
        assert "• ✓ src/export/csv_writer.py — changed (git)" in text  # no raw backticks (issue 27)
        session_calls = host.calls_of("session/get")
        assert session_calls[0].params == {"paneId": 11, "maxTurns": 2000}

        # Save twice in the same minute: two files, the first never overwritten.
        host.click("summary.save")
        host.wait_for(lambda: len(list(notes.glob("*.md"))) == 1, what="the first note")
        host.wait_for_text("Saved to")  # the note is created first and written after: wait until it is done
        first = next(notes.glob("*.md"))
        first_content = first.read_text(encoding="utf-8")
        host.click("summary.save")
        host.wait_for(lambda: len(list(notes.glob("*.md"))) == 2, what="the second note")
        assert first.read_text(encoding="utf-8") == first_content
        assert first_content.startswith("---\ntitle: \"The CSV export crashes")
        for field in ("date: ", "workspace: \"shop\"", "agent: \"claude\"", "session_id: \"bugfix-42\"",
                      "cwd: " + json.dumps(str(repo)), "tags: [agentty, session-summary]"):
            assert field in first_content
        assert "## Next steps" in first_content
        host.wait_for_text("Saved to")

        # Hand off: a new tab of the same agent, in the same folder, with the summary as its prompt.
        host.click("summary.handoff")
        call = host.wait_for_call("prompt/inject")
        assert call.params["target"] == "newTab" and call.params["cwd"] == str(repo)
        assert call.params["agent"] == "claude" and call.params["submit"] is True
        assert call.params["text"].startswith("Continue the work from this earlier claude session")
        assert "The CSV export crashes" in call.params["text"]

        # A working pane is refused; an idle one gets the text without Enter.
        before = len(host.calls_of("prompt/inject"))
        host.row_action("insert.panes", "12", "insert")
        host.wait_for_text("is busy (working)")
        assert len(host.calls_of("prompt/inject")) == before
        host.row_action("insert.panes", "11", "insert")
        call = host.wait_for_call("prompt/inject", lambda c: c.params.get("target") == "pane")
        assert call.params["paneId"] == 11 and call.params["submit"] is False
        assert host.violations == []


def test_hints_for_shell_pane_and_missing_session(tmp_path):
    repo = _repo(tmp_path)
    world = _world(repo, None, focused=13)
    with PluginHost(PLUGIN, world=world, data_dir=str(tmp_path / "d")) as host:
        host.open_panel()
        tree = host.wait_for_text("The focused pane is a shell")
        assert host.find(tree, "session.summarize")["disabled"] is True
        host.run_command("session-summarizer.summarize")
        host.wait_for_text("it has no agent session")
        host.focus(11)  # a claude pane whose session does not exist yet: session/get answers -32002
        host.wait_for_panel(lambda t: not host.find(t, "session.summarize").get("disabled"))
        host.click("session.summarize")
        host.wait_for_text("This pane has no session yet")
        assert host.calls_of("session/get")
        assert host.violations == []


def test_empty_session_and_unwritable_folder(tmp_path):
    repo = _repo(tmp_path)
    data = tmp_path / "data"
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    _write_settings(data, blocker / "notes")  # a folder inside a file cannot exist
    empty = {"sessionId": "e", "turns": []}
    world = _world(repo, empty)
    with PluginHost(PLUGIN, world=world, data_dir=str(data)) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: host.find(t, "session.summarize") is not None)
        host.click("session.summarize")
        host.wait_for_text("no turns yet")
        world.pane(11).session = bug_fix_session(str(repo))
        host.click("session.summarize")
        host.wait_for_panel(lambda t: host.find(t, "summary.save") is not None)
        host.click("summary.save")
        tree = host.wait_for_text("is not a folder")
        assert host.find(tree, "summary.save") is not None  # the summary is still there
        assert ("error" in [kind for _, kind in host.notifications])
        host.type("notes.folder", str(tmp_path / "ok-notes"))
        host.wait_for_panel(lambda t: host.find(t, "notes.folder").get("value") == str(tmp_path / "ok-notes"))
        host.click("summary.save")
        host.wait_for(lambda: list((tmp_path / "ok-notes").glob("*.md")), what="the note in the new folder")
        assert host.violations == []


def test_japanese_panel_and_summary(tmp_path):
    repo = make_repo(tmp_path / "web", {"auth/login.ts": "x\n"})
    with PluginHost(PLUGIN, world=_world(repo, japanese_session(str(repo)), language="ja"),
                    data_dir=str(tmp_path / "d")) as host:
        host.open_panel()
        host.wait_for_text("要約")
        host.run_command("session-summarizer.summarize")
        tree = host.wait_for_panel(lambda t: host.find(t, "summary.save") is not None)
        text = _summary_text(host, tree)
        assert "目的" in host.texts(tree) and "次のステップ" in host.texts(tree)
        assert "ノートに保存" in text and "新しいタブで続ける" in text
        host.click("summary.handoff")
        call = host.wait_for_call("prompt/inject")
        assert call.params["text"].startswith("以前の claude セッション")


def test_history_survives_a_restart(tmp_path):
    repo = _repo(tmp_path)
    data = tmp_path / "data"
    world = _world(repo, bug_fix_session(str(repo)))
    with PluginHost(PLUGIN, world=world, data_dir=str(data)) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: host.find(t, "session.summarize") is not None)
        host.click("session.summarize")
        tree = host.wait_for_panel(lambda t: len(host.find(t, "history.list")["items"]) == 1)
        entry_id = host.find(tree, "history.list")["items"][0]["id"]
    with PluginHost(PLUGIN, world=_world(repo, bug_fix_session(str(repo))), data_dir=str(data)) as host:
        host.open_panel()
        tree = host.wait_for_panel(lambda t: host.find(t, "history.list") is not None)
        items = host.find(tree, "history.list")["items"]
        assert [item["id"] for item in items] == [entry_id]
        assert items[0]["title"].startswith("The CSV export crashes")
        host.row_action("history.list", entry_id, "show")
        tree = host.wait_for_text("From history")
        assert "What was done" in host.texts(tree)
        host.row_action("history.list", entry_id, "delete")
        host.wait_for_panel(lambda t: host.find(t, "history.list")["items"] == [])


@pytest.fixture(scope="module")
def llm_server():
    with LLMServer() as server:
        yield server


def test_llm_summary_streams_and_never_sends_secrets(tmp_path, llm_server):
    repo = _repo(tmp_path)
    data = tmp_path / "data"
    _write_settings(data, tmp_path / "notes", provider="anthropic", base_url=llm_server.base_url, model="slow",
                    key_env="SUMMARIZER_E2E_KEY")
    env = {"SUMMARIZER_E2E_KEY": "test-key-not-secret"}
    with PluginHost(PLUGIN, world=_world(repo, secrets_session(str(repo))), data_dir=str(data), env=env) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: host.find(t, "session.summarizeLlm") is not None)
        host.click("session.summarizeLlm")
        # While streaming, the panel shows partial text and a Stop button.
        host.wait_for_panel(lambda t: host.find(t, "session.stop") is not None and "Goal" in host.texts(t))
        tree = host.wait_for_panel(lambda t: host.find(t, "summary.save") is not None, timeout=20)
        text = _summary_text(host, tree)
        assert "slow · 3 turns" in text and "secrets removed before sending" in text
        assert "redaction markers seen:" in text
        sent = json.dumps(llm_server.requests[-1], ensure_ascii=False)
        for name, secret in PLANTED.items():
            assert secret not in sent, name
        assert llm_server.requests[-1]["headers"]["x-api-key"] == "test-key-not-secret"
        panel_dump = json.dumps(host.panels, ensure_ascii=False)
        assert "test-key-not-secret" not in panel_dump
        assert "test-key-not-secret" not in (data / "settings.json").read_text(encoding="utf-8")
        assert host.violations == []


def test_llm_failure_offers_the_local_summary(tmp_path, llm_server):
    repo = _repo(tmp_path)
    data = tmp_path / "data"
    _write_settings(data, tmp_path / "notes", provider="openai", base_url=llm_server.base_url, model="ratelimit",
                    key_env="")
    with PluginHost(PLUGIN, world=_world(repo, bug_fix_session(str(repo))), data_dir=str(data)) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: host.find(t, "session.summarizeLlm") is not None)
        host.click("session.summarizeLlm")
        tree = host.wait_for_text("Try again in 17 s")
        assert host.find(tree, "summary.useLocal") is not None
        host.click("summary.useLocal")
        tree = host.wait_for_text("Local summary")
        assert "Goal" in host.texts(tree)


def test_cut_stream_is_kept_and_marked_incomplete(tmp_path, llm_server):
    repo = _repo(tmp_path)
    data = tmp_path / "data"
    notes = tmp_path / "notes"
    _write_settings(data, notes, provider="openai", base_url=llm_server.base_url, model="cut", key_env="")
    with PluginHost(PLUGIN, world=_world(repo, bug_fix_session(str(repo))), data_dir=str(data)) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: host.find(t, "session.summarizeLlm") is not None)
        host.click("session.summarizeLlm")
        tree = host.wait_for_text("The stream was cut off before the end.")
        text = _summary_text(host, tree)
        assert "Goal" in host.texts(tree) and "Incomplete: the summary was cut short (cut)." in text
        host.click("summary.save")
        host.wait_for(lambda: list(notes.glob("*.md")), what="the note")
        host.wait_for_text("Saved to")
        saved = next(notes.glob("*.md")).read_text(encoding="utf-8")
        assert "incomplete: true" in saved and "## Goal" in saved


def test_stop_keeps_what_arrived(tmp_path, llm_server):
    repo = _repo(tmp_path)
    data = tmp_path / "data"
    _write_settings(data, tmp_path / "notes", provider="openai", base_url=llm_server.base_url, model="stall",
                    key_env="")
    with PluginHost(PLUGIN, world=_world(repo, bug_fix_session(str(repo))), data_dir=str(data)) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: host.find(t, "session.summarizeLlm") is not None)
        host.click("session.summarizeLlm")
        host.wait_for_panel(lambda t: host.find(t, "session.stop") is not None and "Goal" in host.texts(t))
        host.click("session.stop")
        tree = host.wait_for_text("Stopped.")
        assert host.find(tree, "session.stop") is None
        assert "Goal" in host.texts(tree) and "Incomplete: only what arrived is shown." in host.texts(tree)
        assert host.violations == []
    assert os.path.isdir(data)


def test_pane_closed_before_its_session_was_read(tmp_path):
    repo = _repo(tmp_path)
    world = _world(repo, bug_fix_session(str(repo)))
    with PluginHost(PLUGIN, world=world, data_dir=str(tmp_path / "d")) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: host.find(t, "session.summarize") is not None)
        world.workspaces[0].panes.pop(0)  # the focused pane closes just before the click
        host.click("session.summarize")
        tree = host.wait_for_text("Focus a Claude or Codex pane")
        assert host.find(tree, "session.summarize")["disabled"] is True
        assert host.calls_of("session/get") == []
        assert host.violations == []
