"""End to end: engine switches while typing, the reindex and rebuild commands, a note deleted
between search and click, a vanished folder, and no writes into the notes folder."""

import json
import shutil
from pathlib import Path

from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World
from notes_search_helpers import PLUGIN_DIR, add_filler, write_note
from test_notes_search_bad_input import snapshot

WAIT = 30


def _host(tmp_path: Path, roots, engine: str = "sqlite") -> PluginHost:
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    (data / "settings.json").write_text(json.dumps({"roots": [str(r) for r in roots], "engine": engine}))
    world = World(
        workspaces=[WorkspaceSpec(id=1, name="p", cwd=str(tmp_path), panes=[PaneSpec(id=11, kind="claude")])],
        focused_pane=11,
    )
    return PluginHost(str(PLUGIN_DIR), world=world, data_dir=str(data))


def _titles(host, tree):
    node = host.find(tree, "search.results")
    return [item["title"] for item in node["items"]] if node else None


def _ready(host):
    host.open_panel()
    return host.wait_for_panel(
        lambda t: _titles(host, t) and '"spinner"' not in json.dumps(t) and "·" in " ".join(host.texts(t)),
        timeout=WAIT,
    )


def test_switching_the_engine_while_typing_never_fails_a_search(tmp_path):
    root = tmp_path / "notes"
    add_filler(root, 20)
    write_note(root, "t.md", "# Target note\n\nneedle here\n")
    with _host(tmp_path, [root]) as host:
        _ready(host)
        for round_ in range(4):
            host.choose("settings.engine", "whoosh" if round_ % 2 == 0 else "sqlite")
            for text in ("n", "ne", "nee", "need", "needl", "needle "):
                host.type("search.query", text)
        host.wait_for_panel(
            lambda t: _titles(host, t) == ["Target note"] and "21 notes · sqlite" in host.texts(t), timeout=WAIT
        )
        host.type("search.query", "needle ")
        host.wait_for_panel(lambda t: _titles(host, t) == ["Target note"], timeout=WAIT)
        stderr = host.stderr_text()
        assert "closed" not in stderr and "Traceback" not in stderr, stderr
        assert not [n for n in host.notifications if n[1] == "error"]
        assert host.violations == []


def test_reindex_picks_up_changes_and_rebuild_starts_over(tmp_path):
    root = tmp_path / "notes"
    write_note(root, "one.md", "# Only note\n\nsingular word\n")
    with _host(tmp_path, [root]) as host:
        tree = _ready(host)
        assert "1 note · sqlite" in host.texts(tree)  # singular, not "1 notes"
        host.type("search.query", "singular ")
        one = "1 result for «singular» · "
        host.wait_for_panel(lambda t: any(s.startswith(one) for s in host.texts(t)), timeout=WAIT)
        write_note(root, "two.md", "# Second note\n\nsingular too\n")
        host.run_command("notes-search.reindex")
        host.wait_for_panel(
            lambda t: sorted(_titles(host, t) or []) == ["Only note", "Second note"],
            timeout=WAIT,
        )
        host.wait_for(lambda: ("Index updated: 1 added, 0 changed, 0 removed.", "success") in host.notifications, WAIT)
        assert any(s.startswith("2 results for «singular» · ") for s in host.texts(host.panel))
        host.run_command("notes-search.rebuild")
        host.wait_for(lambda: any(m.startswith("Index rebuilt: 2 notes in") for m, _ in host.notifications), WAIT)
        assert host.violations == []


def test_a_note_deleted_between_search_and_click_gets_a_message(tmp_path):
    root = tmp_path / "notes"
    note = write_note(root, "brief.md", "# Brief\n\nvanishing act\n")
    write_note(root, "other.md", "# Other\n\nstays\n")
    with _host(tmp_path, [root]) as host:
        _ready(host)
        host.type("search.query", "vanishing ")
        host.wait_for_panel(lambda t: _titles(host, t) == ["Brief"], timeout=WAIT)
        note.unlink()
        host.select("search.results", str(note))
        host.wait_for_panel(lambda t: any(s.startswith("The note is gone") for s in host.texts(t)), timeout=WAIT)
        host.row_action("search.results", str(note), "insert")
        host.row_action("search.results", str(note), "continue")
        host.wait_idle(0.5, WAIT)
        assert host.calls_of("prompt/inject") == []
        assert host.process is not None and host.process.poll() is None
        assert host.violations == []


def test_a_vanished_folder_is_shown_and_searching_goes_on_without_writing_to_notes(tmp_path):
    root = tmp_path / "notes"
    usb = tmp_path / "usb"
    add_filler(root, 5)
    write_note(root, "kept.md", "# Kept\n\nshared term\n")
    write_note(usb, "away.md", "# Away\n\nshared term\n")
    before = snapshot(root)
    with _host(tmp_path, [root, usb]) as host:
        _ready(host)
        host.type("search.query", "shared ")
        host.wait_for_panel(lambda t: sorted(_titles(host, t) or []) == ["Away", "Kept"], timeout=WAIT)
        shutil.move(str(usb), str(tmp_path / "unplugged"))
        host.click("toolbar.refresh")
        tree = host.wait_for_panel(
            lambda t: _titles(host, t) == ["Kept"] and f"Folder not found: {usb}" in host.texts(t), timeout=WAIT
        )
        host.select("search.results", str(root / "kept.md"))
        host.wait_for_panel(lambda t: host.find(t, "preview.back") is not None, timeout=WAIT)
        host.click("preview.reveal")
        host.wait_for(lambda: host.calls_of("host/revealPath"), WAIT)
        assert tree is not None and host.violations == []
    assert snapshot(root) == before
