"""Every command and settings input main.py wires reaches the controller, on a real 154-turn aider session."""

import json
from pathlib import Path

from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World
from corpus_loader import load_cases
from session_summarizer import ids
from session_summarizer_fixtures import make_repo

PLUGIN = Path(__file__).resolve().parents[2] / "plugins" / "session-summarizer"


def _long_session(repo):
    case = next(case for case in load_cases() if case["id"] == "aider-blame-graphs-long")
    return dict(case["session"], agent="claude", cwd=str(repo))


def test_commands_and_every_settings_input_reach_the_controller(tmp_path):
    repo = make_repo(tmp_path / "aider", {"aider/blame.py": "x\n"})
    data = tmp_path / "data"
    world = World(workspaces=[WorkspaceSpec(id=1, name="aider", cwd=str(repo), panes=[
        PaneSpec(id=11, kind="claude", status="idle", cwd=str(repo), title="claude", session=_long_session(repo)),
    ])], focused_pane=11)
    env = {"AGENTTY_TEST_UNSET_KEY": ""}
    with PluginHost(str(PLUGIN), world=world, data_dir=str(data), env=env) as host:
        host.run_command(ids.CMD_OPEN)
        host.wait_for_panel(lambda t: host.find(t, ids.SUMMARIZE) is not None)

        host.run_command(ids.CMD_SUMMARIZE)
        tree = host.wait_for_panel(lambda t: host.find(t, ids.SAVE) is not None)
        assert "Local summary · 154 turns" in " ".join(host.texts(tree))

        host.submit(ids.NOTES_FOLDER, str(tmp_path / "notes"))
        host.click(ids.SAVE)
        host.wait_for_text("Saved to " + str(tmp_path / "notes"))
        host.click(ids.REVEAL)
        call = host.wait_for_call("host/revealPath")
        assert call.params["path"].startswith(str(tmp_path / "notes"))

        host.choose(ids.LLM_PROVIDER, "anthropic")
        host.wait_for_panel(lambda t: host.find(t, ids.LLM_BASE_URL).get("value") == "https://api.anthropic.com")
        host.type(ids.LLM_CONTEXT_TOKENS, "lots")
        host.wait_for_text("Enter a whole number of tokens")
        host.type(ids.LLM_CONTEXT_TOKENS, "16,000")
        host.wait_for_panel(lambda t: host.find(t, ids.LLM_CONTEXT_TOKENS).get("value") == "16000")
        host.type(ids.LLM_MODEL, "claude-test")
        host.type(ids.LLM_BASE_URL, "https://llm.example.invalid")
        host.submit(ids.LLM_KEY_ENV, "AGENTTY_TEST_UNSET_KEY")
        host.wait_for_panel(lambda t: host.find(t, ids.LLM_KEY_ENV).get("value") == "AGENTTY_TEST_UNSET_KEY")

        host.run_command(ids.CMD_SUMMARIZE_LLM)  # Anthropic needs a key: refused before any request
        host.wait_for_text("No key found: the environment variable AGENTTY_TEST_UNSET_KEY is not set.")
        assert host.violations == []
    saved = json.loads((data / "settings.json").read_text(encoding="utf-8"))
    assert saved["notes_folder"] == str(tmp_path / "notes")
    assert {name: saved["llm"][name] for name in ("provider", "base_url", "model", "key_env", "context_tokens")} == {
        "provider": "anthropic", "base_url": "https://llm.example.invalid", "model": "claude-test",
        "key_env": "AGENTTY_TEST_UNSET_KEY", "context_tokens": 16000}
