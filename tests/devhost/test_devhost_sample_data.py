"""The demo's sample data and the simulated window: real git repositories, real files, checked with git itself."""

import json
import os
import subprocess

import pytest
from agentty_devhost.sample_data import demo_focus, demo_world, ensure_sample_data
from agentty_devhost.watcher import changed_files, fingerprint
from agentty_devhost.world import WorldEditError, WorldEditor, default_world, world_to_json


def git(repo, *args):
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout


def test_shop_app_is_mid_merge_with_every_kind_of_change(sample_data):
    status = git(sample_data.shop_app, "status", "--porcelain=v1")
    lines = set(status.splitlines())
    assert "UU src/prices.py" in lines          # conflicted
    assert "M  README.md" in lines              # staged
    assert " M src/cart.py" in lines            # changed, not staged
    assert {"?? docs/", "?? scratch.txt"} <= lines  # untracked
    assert os.path.exists(os.path.join(sample_data.shop_app, ".git", "MERGE_HEAD"))


def test_release_repo_is_clean_tagged_and_has_a_checklist(sample_data):
    repo = sample_data.release_repo
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "tag").split() == ["v1.2.0"]
    assert git(repo, "rev-list", "--count", "v1.2.0..HEAD").strip() == "2"
    with open(os.path.join(repo, "RELEASE_CHECKLIST.md"), encoding="utf-8") as handle:
        checklist = handle.read()
    assert checklist.count("- [ ]") == 7 and "`release-check clean-tree`" in checklist
    # the checklist's test step passes on the sample library
    result = subprocess.run(["python3", "-m", "unittest", "-q"], cwd=repo, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_notes_are_english_and_japanese_with_front_matter_and_dated(sample_data):
    notes = []
    for base, _dirs, files in os.walk(sample_data.notes):
        notes += [os.path.join(base, name) for name in files]
    assert len(notes) >= 10
    japanese = [n for n in notes if os.sep + "ja" + os.sep in n]
    assert len(japanese) >= 3
    with open(japanese[0], encoding="utf-8") as handle:
        text = handle.read()
    assert text.startswith("---\ntitle: ") and any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff"
                                                   for ch in text)
    weekly = os.path.join(sample_data.notes, "meetings", "2026-11-24-weekly.md")
    assert os.path.getmtime(weekly) > os.path.getmtime(os.path.join(sample_data.notes, "meetings",
                                                                    "retro-october.md"))


def test_recorded_session_is_the_focused_panes_session(sample_data):
    world = demo_world(sample_data)
    pane = world.pane(world.focused_pane)
    assert pane.kind == "claude" and pane.cwd == sample_data.shop_app
    assert len(pane.session["turns"]) == 12 and pane.session["turns"][0]["role"] == "user"
    assert world.pane(21).cwd == sample_data.release_repo
    assert demo_focus(["release-checklist", "other"]) == {"release-checklist": 21}


def test_plugins_are_pointed_at_the_sample_data_without_overwriting_changes(sample_data):
    path = os.path.join(sample_data.plugin_data, "notes-search", "settings.json")
    with open(path, encoding="utf-8") as handle:
        original = handle.read()
    assert json.loads(original)["roots"] == [sample_data.notes]
    try:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump({"roots": ["/elsewhere"]}, handle)
        again = ensure_sample_data(sample_data.root)  # second run: data kept, the user's settings kept
        assert again == sample_data
        with open(path, encoding="utf-8") as handle:
            assert json.load(handle)["roots"] == ["/elsewhere"]
    finally:  # the browser tests share this sample folder
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(original)
    summarizer = os.path.join(sample_data.plugin_data, "session-summarizer", "settings.json")
    with open(summarizer, encoding="utf-8") as handle:
        assert json.load(handle)["notes_folder"].startswith(sample_data.notes)


def test_an_older_sample_folder_is_rebuilt(tmp_path):
    data = ensure_sample_data(str(tmp_path / "demo"))
    stamp = os.path.join(data.root, ".sample-data-version")
    with open(stamp, "w") as handle:
        handle.write("0\n")
    os.remove(os.path.join(data.shop_app, "scratch.txt"))
    ensure_sample_data(data.root)
    assert os.path.exists(os.path.join(data.shop_app, "scratch.txt"))


def test_watcher_sees_edits_additions_and_removals_but_not_caches(tmp_path):
    (tmp_path / "main.py").write_text("x = 1\n")
    (tmp_path / "__pycache__").mkdir()
    before = fingerprint([str(tmp_path)])
    (tmp_path / "__pycache__" / "main.cpython-311.pyc").write_bytes(b"\0")
    (tmp_path / ".hidden.py").write_text("")
    assert changed_files(before, fingerprint([str(tmp_path)])) == []
    (tmp_path / "main.py").write_text("x = 22\n")
    (tmp_path / "new.json").write_text("{}")
    after = fingerprint([str(tmp_path)])
    assert changed_files(before, after) == [str(tmp_path / "main.py"), str(tmp_path / "new.json")]
    (tmp_path / "new.json").unlink()
    assert changed_files(after, fingerprint([str(tmp_path)])) == [str(tmp_path / "new.json")]


def test_window_edits_are_checked_field_by_field(tmp_path):
    editor = WorldEditor(default_world(str(tmp_path)))
    assert editor.edit_pane(11, {"status": "working", "cwd": "/x", "session": None}) is True
    assert editor.edit_pane(12, {"kind": "codex"}) is False
    for changes, message in [
        ({"status": "sleepy"}, "status must be one of"),
        ({"kind": "emacs"}, "kind must be one of"),
        ({"colour": "red"}, "no editable field"),
        ({"session": {"turns": "hi"}}, "session.turns"),
        ({"session": {"turns": [{"role": "user", "text": 5}]}}, "turns[0].text"),
        ({"running": "yes"}, "running must be"),
    ]:
        with pytest.raises(WorldEditError, match=message.replace("[", r"\[").replace("]", r"\]")):
            editor.edit_pane(11, changes)
    with pytest.raises(WorldEditError):
        editor.edit_pane(99, {})
    with pytest.raises(WorldEditError):
        editor.set_language("fr")
    new_pane = editor.add_pane(1, "shell")
    snapshot = world_to_json(editor.world)
    pane = snapshot["workspaces"][0]["panes"][-1]
    assert (pane["id"], pane["kind"], pane["status"]) == (new_pane, "shell", "shell")
    assert snapshot["workspaces"][0]["panes"][0]["status"] == "working"
