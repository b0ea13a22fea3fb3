"""Issue 24 through the real plugin: damaged state files, a full notes folder and read-only folders.

Each test asserts what the user sees (panel and toasts: what happened, what to do, never `[Errno`)
and what is on disk afterwards (no 0-byte note, the damaged file kept aside, good files untouched).
"""

import json
import os
from pathlib import Path

from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World
from session_summarizer_disks import full_folder, read_only_folder
from session_summarizer_fixtures import bug_fix_session, make_repo

PLUGIN = str(Path(__file__).resolve().parents[2] / "plugins" / "session-summarizer")


def _world(repo: Path) -> World:
    return World(workspaces=[WorkspaceSpec(id=1, name="shop", cwd=str(repo), panes=[
        PaneSpec(id=11, kind="claude", status="idle", cwd=str(repo), title="claude · fix",
                 session=bug_fix_session(str(repo))),
    ])], focused_pane=11)


def _entry(entry_id: str, created: object, title: str) -> dict:
    return {"id": entry_id, "created": created, "title": title, "agent": "claude", "session_id": "s",
            "summarizer": "local", "markdown": "# Summary\n\n## Goal\n- " + title + "\n", "complete": True,
            "saved_paths": []}


def _summarize(host: PluginHost) -> None:
    host.open_panel()
    host.wait_for_panel(lambda t: host.find(t, "session.summarize") is not None)
    host.click("session.summarize")
    host.wait_for_panel(lambda t: host.find(t, "summary.save") is not None)


def _everything_shown(host: PluginHost) -> str:
    panels = " ".join(" ".join(host.texts(tree)) for tree in host.panels)
    return panels + " " + " ".join(message for message, _ in host.notifications)


def _assert_no_raw_errors(host: PluginHost) -> None:
    shown = _everything_shown(host)
    assert "Errno" not in shown and ".part" not in shown and ".tmp-" not in shown, shown


def test_a_history_entry_of_the_wrong_type_is_moved_aside_and_summarize_keeps_working(tmp_path):
    repo = make_repo(tmp_path / "shop", {"src/export/csv_writer.py": "x\n"})
    data = tmp_path / "data"
    data.mkdir()
    key = "cwd:" + os.path.normpath(str(repo))
    damaged = json.dumps({"version": 1, "workspaces": {key: [
        _entry("good1", 1_700_000_000.0, "Earlier summary that was fine"),
        _entry("bad1", "yesterday", "Edited by hand"),
    ]}})
    (data / "history.json").write_text(damaged, encoding="utf-8")
    with PluginHost(PLUGIN, world=_world(repo), data_dir=str(data)) as host:
        _summarize(host)
        host.wait_for_text("The history file was damaged")
        tree = host.wait_for_text("Earlier summary that was fine")  # the good entry is still listed
        assert "Summarizing failed" not in " ".join(host.texts(tree))
        host.click("session.summarize")  # and again: every Summarize works, not only the first
        host.wait_idle()
        assert not any("Summarizing failed" in text for text in host.texts(host.panels[-1]))
        _assert_no_raw_errors(host)
    aside = list(data.glob("history.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == damaged  # kept as it was
    kept = json.loads((data / "history.json").read_text(encoding="utf-8"))["workspaces"][key]
    assert next(item["id"] for item in kept) == "good1" and len(kept) == 3
    assert all(isinstance(item["created"], float) for item in kept)


def test_damaged_settings_are_moved_aside_with_a_message(tmp_path):
    repo = make_repo(tmp_path / "shop", {"a.py": "x\n"})
    data = tmp_path / "data"
    data.mkdir()
    damaged = json.dumps({"notes_folder": 5, "llm": {"model": "gpt-x"}})
    (data / "settings.json").write_text(damaged, encoding="utf-8")
    with PluginHost(PLUGIN, world=_world(repo), data_dir=str(data)) as host:
        host.open_panel()
        tree = host.wait_for_text("The settings file was damaged")
        assert "set them again" in " ".join(host.texts(tree))
        host.wait_for(lambda: any("settings file was damaged" in m for m, _ in host.notifications), what="a toast")
        host.click("session.summarize")
        host.wait_for_panel(lambda t: host.find(t, "summary.save") is not None)
    aside = list(data.glob("settings.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == damaged
    assert not (data / "settings.json").exists()  # nothing was chosen since; the defaults apply


def test_save_into_a_full_notes_folder_leaves_no_empty_note_and_says_what_to_do(tmp_path):
    repo = make_repo(tmp_path / "shop", {"a.py": "x\n"})
    data = tmp_path / "data"
    data.mkdir()
    with full_folder(tmp_path / "notes") as notes:
        (data / "settings.json").write_text(json.dumps({"notes_folder": str(notes)}), encoding="utf-8")
        before = {path.name: path.read_bytes() for path in notes.iterdir()}
        with PluginHost(PLUGIN, world=_world(repo), data_dir=str(data)) as host:
            _summarize(host)
            host.click("summary.save")
            tree = host.wait_for_text("disk is full")
            shown = " ".join(host.texts(tree))
            assert "The note was not saved" in shown and "Free some space" in shown and str(notes) in shown
            assert any("disk is full" in message and kind == "error" for message, kind in host.notifications)
            _assert_no_raw_errors(host)
            assert host.find(tree, "summary.save") is not None  # the summary is still there to retry
        after = {path.name: path.read_bytes() for path in notes.iterdir()}
        assert after == before  # no 0-byte note, no temp file, the filler untouched


def test_save_into_a_read_only_folder_leaves_the_old_notes_as_they_were(tmp_path):
    repo = make_repo(tmp_path / "shop", {"a.py": "x\n"})
    data = tmp_path / "data"
    data.mkdir()
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "older.md").write_text("# An older note\n", encoding="utf-8")
    (data / "settings.json").write_text(json.dumps({"notes_folder": str(notes)}), encoding="utf-8")
    with read_only_folder(notes), PluginHost(PLUGIN, world=_world(repo), data_dir=str(data)) as host:
        _summarize(host)
        host.click("summary.save")
        tree = host.wait_for_panel(lambda t: any("The note was not saved" in s for s in host.texts(t)))
        shown = " ".join(host.texts(tree))
        assert "read-only" in shown or "no permission" in shown, shown
        assert "choose another folder" in shown.lower()
        _assert_no_raw_errors(host)
    assert sorted(path.name for path in notes.iterdir()) == ["older.md"]
    assert (notes / "older.md").read_text(encoding="utf-8") == "# An older note\n"


def test_a_read_only_data_folder_shows_the_summary_and_says_history_and_settings_are_not_kept(tmp_path):
    repo = make_repo(tmp_path / "shop", {"a.py": "x\n"})
    data = tmp_path / "data"
    data.mkdir()
    good = json.dumps({"notes_folder": str(tmp_path / "notes")})
    (data / "settings.json").write_text(good, encoding="utf-8")
    with read_only_folder(data), PluginHost(PLUGIN, world=_world(repo), data_dir=str(data)) as host:
        _summarize(host)
        host.wait_for_text("could not be kept in the history")
        host.type("notes.folder", str(tmp_path / "elsewhere"))
        host.wait_for_text("could not be saved")
        host.click("summary.save")  # the typed folder applies for now
        host.wait_for(lambda: list((tmp_path / "elsewhere").glob("*.md")), what="the note in the typed folder")
        _assert_no_raw_errors(host)
    assert sorted(path.name for path in data.iterdir()) == ["settings.json"]
    assert (data / "settings.json").read_text(encoding="utf-8") == good
