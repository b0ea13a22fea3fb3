"""Data-loss and failure paths through the real plugin subprocess: the notes folder and failing session/get."""

import json
import os
from pathlib import Path

import pytest
from agentty_plugin.errors import INVALID_PARAMS, PERMISSION_DENIED
from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World
from session_summarizer_fixtures import bug_fix_session, make_repo

PLUGIN = Path(__file__).resolve().parents[2] / "plugins" / "session-summarizer"


def _world(repo, session, window_open=True, session_error=None):
    return World(workspaces=[WorkspaceSpec(id=1, name="shop", cwd=str(repo), panes=[
        PaneSpec(id=11, kind="claude", status="idle", cwd=str(repo), title="claude · fix", session=session,
                 session_error=session_error),
    ])], focused_pane=11, window_open=window_open)


def _plugin_folder_entries():
    return sorted(os.listdir(PLUGIN))


@pytest.mark.parametrize("typed", ["notes", "agentty test", "./deep/notes"])
def test_a_relative_notes_folder_is_taken_from_home_never_the_plugin_folder(tmp_path, typed):
    home = tmp_path / "home"
    home.mkdir()
    repo = make_repo(tmp_path / "shop", {"src/export/csv_writer.py": "x\n"})
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"notes_folder": typed}), encoding="utf-8")
    before = _plugin_folder_entries()
    expected = os.path.normpath(os.path.join(str(home), typed))
    with PluginHost(str(PLUGIN), world=_world(repo, bug_fix_session(str(repo))), data_dir=str(data),
                    env={"HOME": str(home)}) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: host.find(t, "session.summarize") is not None)
        host.click("session.summarize")
        host.wait_for_panel(lambda t: host.find(t, "summary.save") is not None)
        host.wait_for_text("Notes go to " + expected)  # shown resolved before anything is written
        host.click("summary.save")
        host.wait_for(lambda: list(Path(expected).glob("*.md")), what="the note under the home folder")
        host.wait_for_text("Saved to " + expected)
        assert host.violations == []
    assert _plugin_folder_entries() == before
    assert not (PLUGIN / typed).exists()


def test_tilde_is_expanded_and_an_unknown_user_is_refused(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    repo = make_repo(tmp_path / "shop", {"a.py": "x\n"})
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"notes_folder": "~/n"}), encoding="utf-8")
    before = _plugin_folder_entries()
    with PluginHost(str(PLUGIN), world=_world(repo, bug_fix_session(str(repo))), data_dir=str(data),
                    env={"HOME": str(home)}) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: host.find(t, "session.summarize") is not None)
        host.click("session.summarize")
        host.wait_for_panel(lambda t: host.find(t, "summary.save") is not None)
        host.click("summary.save")
        host.wait_for(lambda: list((home / "n").glob("*.md")), what="the note in ~/n")
        host.type("notes.folder", "~no-such-user-agentty/notes")
        host.wait_for_text("cannot be resolved")
        host.click("summary.save")
        host.wait_for(lambda: any("cannot be resolved" in m for m, _ in host.notifications), what="the refusal")
        assert len(list((home / "n").glob("*.md"))) == 1
    assert _plugin_folder_entries() == before


@pytest.mark.parametrize("code, message, shown", [
    (PERMISSION_DENIED, 'session/get needs the "session.read" permission in agentty-plugin.json',
     "Update or reinstall the plugin"),
    (INVALID_PARAMS, "no pane 11", "That pane is gone"),
])
def test_a_failing_session_get_is_told_with_what_to_do(tmp_path, code, message, shown):
    repo = make_repo(tmp_path / "shop", {"a.py": "x\n"})
    world = _world(repo, bug_fix_session(str(repo)), session_error=(code, message))
    with PluginHost(str(PLUGIN), world=world, data_dir=str(tmp_path / "d")) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: host.find(t, "session.summarize") is not None)
        host.click("session.summarize")
        tree = host.wait_for_text(shown)
        assert not host.find(tree, "session.summarize").get("disabled")  # the user can retry
        assert host.calls_of("session/get")


def test_no_window_is_told_apart_from_no_session(tmp_path):
    repo = make_repo(tmp_path / "shop", {"a.py": "x\n"})
    world = _world(repo, bug_fix_session(str(repo)), window_open=False)
    with PluginHost(str(PLUGIN), world=world, data_dir=str(tmp_path / "d")) as host:
        host.open_panel()
        host.wait_for_panel(lambda t: host.find(t, "session.summarize") is not None)
        host.click("session.summarize")
        host.wait_for_text("No Agentty window is open")
        world.window_open = True
        host.click("session.summarize")
        host.wait_for_panel(lambda t: host.find(t, "summary.save") is not None)
        assert host.violations == []
