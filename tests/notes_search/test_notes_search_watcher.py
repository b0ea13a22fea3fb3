"""Saved notes are found without a walk of the folders: the inotify watcher (Linux, through ctypes)
reports saves, moves, deletions and new folders; the plugin indexes them on its own."""

import json
import queue
import sys
from pathlib import Path
from typing import Set

import pytest
from agentty_plugin.testing import PluginHost, World
from notes_search_helpers import PLUGIN_DIR, write_note

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux only")
WAIT = 30  # seconds: only the upper bound of a wait on an event, never a pause


class Changes:
    def __init__(self) -> None:
        self.batches: queue.Queue[Set[str]] = queue.Queue()
        self.lost = 0

    def until(self, expected: Set[str]) -> Set[str]:
        """Collect reported paths until every expected one was reported."""
        seen: Set[str] = set()
        while not expected <= seen:
            seen |= self.batches.get(timeout=WAIT)
        return seen


@pytest.fixture
def watched(tmp_path: Path):
    from notes_search.watcher import NoteWatcher

    root = tmp_path / "notes"
    write_note(root, "old.md", "# Old\n")
    (root / ".obsidian").mkdir()
    changes = Changes()
    watcher = NoteWatcher([str(root)], changes.batches.put, lambda: setattr(changes, "lost", changes.lost + 1))
    assert watcher.start(), watcher.failure
    yield root, changes, watcher
    watcher.close()


def test_saves_moves_deletions_and_new_folders_are_reported(watched):
    root, changes, _watcher = watched
    saved = write_note(root, "new.md", "# New\n")
    assert str(saved) in changes.until({str(saved)})

    moved = root / "renamed.md"
    saved.rename(moved)
    assert changes.until({str(saved), str(moved)}) >= {str(saved), str(moved)}

    (root / "old.md").unlink()
    assert str(root / "old.md") in changes.until({str(root / "old.md")})

    # A folder made and filled after the watch started is watched too.
    deep = write_note(root, "sub/deeper/inside.md", "# Inside\n")
    assert str(deep) in changes.until({str(deep)})
    again = write_note(root, "sub/deeper/second.md", "# Second\n")
    assert str(again) in changes.until({str(again)})


def test_hidden_folders_and_other_files_are_not_reported(watched):
    root, changes, _watcher = watched
    write_note(root, ".obsidian/workspace.md", "x")
    write_note(root, "image.png", "x")
    marker = write_note(root, "marker.md", "# Marker\n")
    assert changes.until({str(marker)}) == {str(marker)}


def test_where_inotify_is_missing_start_says_why(tmp_path, monkeypatch):
    from notes_search import watcher as module

    monkeypatch.setattr(module, "_libc", lambda: None)
    watcher = module.NoteWatcher([str(tmp_path)], lambda paths: None, lambda: None)
    assert watcher.start() is False and watcher.failure


def test_the_plugin_indexes_a_saved_note_without_a_rescan(tmp_path: Path):
    notes = tmp_path / "notes"
    write_note(notes, "first.md", "# First\n\nalpha\n")
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"roots": [str(notes)], "engine": "sqlite"}))
    with PluginHost(str(PLUGIN_DIR), world=World(), data_dir=str(data)) as host:
        host.open_panel()
        host.wait_for_panel(
            lambda t: "1 notes · sqlite" in host.texts(t) or "1 note · sqlite" in host.texts(t), timeout=WAIT
        )
        host.type("search.query", "quokka")
        host.wait_for_panel(lambda t: "«quokka»" in json.dumps(t, ensure_ascii=False), timeout=WAIT)
        write_note(notes, "saved.md", "# Saved later\n\nthe quokka smiles\n")

        def found(tree):
            node = host.find(tree, "search.results")
            return bool(node) and [item["title"] for item in node["items"]] == ["Saved later"]

        host.wait_for_panel(found, timeout=WAIT)


def test_update_paths_adds_changes_and_drops_only_the_named_notes(notes_root: Path, make_library):
    keep = write_note(notes_root, "keep.md", "# Keep\n\nwombat\n", 2_000_000)
    edit = write_note(notes_root, "edit.md", "# Edit\n\nbefore\n", 2_000_001)
    library = make_library(notes_root)
    library.refresh()
    edit.write_text("# Edit\n\nafter\n", encoding="utf-8")
    new = write_note(notes_root, "new.md", "# New\n\nplatypus\n")
    hidden = write_note(notes_root, ".trash/gone.md", "# Hidden\n\nplatypus\n")
    keep.unlink()
    report = library.update_paths([str(edit), str(new), str(hidden), str(keep), "/elsewhere/x.md"])
    assert (report.added, report.changed, report.deleted) == (1, 1, 1)
    assert [i.record.rel_path for i in library.search("platypus ").items] == ["new.md"]
    assert [i.record.rel_path for i in library.search("after ").items] == ["edit.md"]
    assert library.search("wombat ").items == [] and library.count() == 2
    assert library.update_paths([str(edit)]).unchanged == 1
