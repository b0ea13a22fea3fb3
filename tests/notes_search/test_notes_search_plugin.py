"""End-to-end tests: the plugin runs as Agentty starts it, driven through agentty_plugin.testing.PluginHost."""

import json
import os
from pathlib import Path
from urllib.parse import quote

import pytest
from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World
from notes_search_helpers import PLUGIN_DIR, write_note

WAIT = 30  # seconds; generous because the test machine is shared and often loaded


def _results(host, tree):
    node = host.find(tree, "search.results")
    return [item["title"] for item in node["items"]] if node else None


def _has_results(host, expected):
    return lambda tree: _results(host, tree) == expected


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    write_note(
        root,
        "work/zebra.md",
        "---\ntags: [animals]\n---\n# Zebra migration\n\nStripes move north in May.\n",
        2e9,
    )
    write_note(
        root,
        "work/plan.md",
        "---\ntitle: Release plan\nagent: codex\n---\nShip the indexer on Friday.\n",
        2e9 + 1,
    )
    write_note(root, "jp.md", "# 会議メモ\n\n明日の会議は東京で行います。\n", 2e9 + 2)
    write_note(root, "secret.md", "---\ntitle: Locked thing\nlocked: true\n---\nhunter2\n", 2e9 + 3)
    return root


def _start(
    tmp_path: Path,
    notes: Path,
    engine: str = "sqlite",
    language: str = "en",
    pane_kind: str = "claude",
    pane_status: str = "idle",
) -> PluginHost:
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    (data / "settings.json").write_text(json.dumps({"roots": [str(notes)], "engine": engine}))
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    world = World(
        workspaces=[
            WorkspaceSpec(
                id=1,
                name="proj",
                cwd=str(project),
                panes=[
                    PaneSpec(id=11, kind=pane_kind, status=pane_status, cwd=str(project)),
                ],
            )
        ],
        focused_pane=11,
        language=language,
    )
    return PluginHost(str(PLUGIN_DIR), world=world, data_dir=str(data))


def _open_ready(host):
    host.open_panel()
    # Ready means: indexing finished (no spinner) and the recent list is drawn.
    return host.wait_for_panel(
        lambda t: (
            _results(host, t) and '"spinner"' not in json.dumps(t) and "notes · " in " ".join(host.texts(t))
        ),
        timeout=WAIT,
    )


@pytest.mark.parametrize("engine", ["sqlite", "whoosh"])
def test_recent_list_then_as_you_type_with_only_the_newest_query_shown(tmp_path, notes, engine):
    with _start(tmp_path, notes, engine=engine) as host:
        tree = _open_ready(host)
        assert _results(host, tree) == ["Locked thing", "会議メモ", "Release plan", "Zebra migration"]
        assert f"4 notes · {engine}" in host.texts(tree)
        for text in ("z", "ze", "zeb", "stripes mo", "会議", "zebra nor"):
            host.type("search.query", text)

        def newest_query_shown(tree):
            items = host.find(tree, "search.results")["items"]
            return [i["title"] for i in items] == ["Zebra migration"] and items[0]["detail"] == (
                "Stripes move «north» in May."
            )

        host.wait_for_panel(newest_query_shown, timeout=WAIT)
        host.wait_idle(0.5, WAIT)  # once every search has drawn or given up, the newest is still shown
        assert newest_query_shown(host.panel)
        zebra = host.find(host.panel, "search.results")["items"][0]
        assert [a["id"] for a in zebra["actions"]] == ["insert", "continue", "preview", "reveal"]
        host.type("search.query", "tag:animals")  # a filter alone lists recent notes with that tag
        host.wait_for_panel(
            lambda t: _results(host, t) == ["Zebra migration"] and "Recent notes" in host.texts(t),
            timeout=WAIT,
        )
        host.type("search.query", "zebar ")
        host.wait_for_panel(
            lambda t: (
                _results(host, t) == ["Zebra migration"]
                and any("showing results for «zebra»" in text for text in host.texts(t))
            ),
            timeout=WAIT,
        )
        host.type("search.query", "stripes ")
        tree = host.wait_for_panel(
            lambda t: (
                _results(host, t) == ["Zebra migration"]
                and "«Stripes»" in host.find(t, "search.results")["items"][0]["detail"]
            ),
            timeout=WAIT,
        )
        host.type("search.query", "nothingmatcheshere ")
        tree = host.wait_for_panel(_has_results(host, []), timeout=WAIT)
        assert host.find(tree, "search.results")["empty"].startswith("No notes match «nothingmatcheshere»")
        code, _ = host.shutdown()
        assert code == 0
        assert host.violations == []


def test_insert_goes_to_an_idle_agent_only(tmp_path, notes):
    with _start(tmp_path, notes) as host:
        _open_ready(host)
        zebra = str(notes / "work" / "zebra.md")
        host.row_action("search.results", zebra, "insert")
        host.wait_for(lambda: host.calls_of("prompt/inject"), WAIT)
        call = host.calls_of("prompt/inject")[0]
        assert call.params["target"] == "active" and call.params["submit"] is False
        assert call.params["text"].startswith("Note «Zebra migration» (")
        assert "Stripes move north" in call.params["text"] and "tags:" not in call.params["text"]
        host.wait_for_panel(
            lambda t: any(s.startswith("Inserted «Zebra migration»") for s in host.texts(t)), timeout=WAIT
        )

        host.set_pane_status(11, "working")
        host.row_action("search.results", zebra, "insert")
        host.wait_for_panel(
            lambda t: "The agent is working. Wait until it is idle, then insert the note." in host.texts(t),
            timeout=WAIT,
        )
        host.set_pane_status(11, "permission")
        host.row_action("search.results", zebra, "insert")
        host.wait_for_panel(
            lambda t: any("waiting for a permission" in s for s in host.texts(t)), timeout=WAIT
        )
        assert len(host.calls_of("prompt/inject")) == 1
        assert host.violations == []


def test_insert_refuses_a_shell_pane(tmp_path, notes):
    with _start(tmp_path, notes, pane_kind="shell") as host:
        _open_ready(host)
        host.row_action("search.results", str(notes / "work" / "zebra.md"), "insert")
        host.wait_for_panel(lambda t: any("is a shell pane" in s for s in host.texts(t)), timeout=WAIT)
        assert host.calls_of("prompt/inject") == []


def test_new_session_in_a_new_tab_uses_the_notes_agent_and_workspace_folder(tmp_path, notes):
    with _start(tmp_path, notes) as host:
        _open_ready(host)
        host.row_action("search.results", str(notes / "work" / "plan.md"), "continue")
        call = host.wait_for(lambda: host.calls_of("prompt/inject"), WAIT)[0]
        assert call.params["target"] == "newTab"
        assert call.params["agent"] == "codex"  # from the note's front matter
        assert call.params["cwd"] == str(tmp_path / "project")
        assert "Ship the indexer on Friday." in call.params["text"]
        host.wait_for_panel(
            lambda t: any("Started a new Codex session" in s for s in host.texts(t)), timeout=WAIT
        )


def test_preview_reveal_and_locked_notes(tmp_path, notes):
    with _start(tmp_path, notes) as host:
        _open_ready(host)
        host.select("search.results", str(notes / "jp.md"))
        tree = host.wait_for_panel(lambda t: host.find(t, "preview.back") is not None, timeout=WAIT)
        assert "明日の会議は東京で行います。" in "\n".join(host.texts(tree))
        host.click("preview.reveal")
        call = host.wait_for(lambda: host.calls_of("host/revealPath"), WAIT)[0]
        assert call.params["path"] == str((notes / "jp.md").resolve()) and call.error is None
        host.click("preview.back")
        tree = host.wait_for_panel(lambda t: host.find(t, "preview.back") is None, timeout=WAIT)
        locked = next(i for i in host.find(tree, "search.results")["items"] if i["title"] == "Locked thing")
        assert [a["id"] for a in locked["actions"]] == ["reveal"] and "detail" not in locked
        host.select("search.results", locked["id"])
        host.wait_for_panel(
            lambda t: "The note is locked, so it is not shown or sent." in host.texts(t), timeout=WAIT
        )
        assert not any("hunter2" in s for tree in host.panels for s in host.texts(tree))


def test_links_are_confined_to_the_notes_folders_and_prompt_through_ask(tmp_path, notes):
    outside = write_note(tmp_path / "elsewhere", "private.md", "# Private\n\nkeep out\n")
    (notes / "huge.md").write_bytes(b"# Huge\n" + b"x" * (3 * 1024 * 1024))
    link = "agentty://plugin/notes-search/{}?path={}".format
    with _start(tmp_path, notes) as host:
        _open_ready(host)
        host.open_url("agentty://plugin/notes-search/open?q=zebra")
        tree = host.wait_for_panel(_has_results(host, ["Zebra migration"]), timeout=WAIT)
        assert host.find(tree, "search.query")["value"] == "zebra"

        host.open_url(link("open", quote(str(outside))))
        host.wait_for_panel(
            lambda t: "That file is outside your notes folders, so it was not opened." in host.texts(t),
            timeout=WAIT,
        )
        host.open_url(link("open", quote(f"{notes}/work/../../elsewhere/private.md")))
        host.open_url(link("open", quote(str(notes / "huge.md"))))
        host.wait_for_panel(
            lambda t: "The note is larger than 2048 KB, so it was not opened." in host.texts(t), timeout=WAIT
        )
        assert host.calls_of("prompt/inject") == []

        host.open_url(link("open", quote(str(notes / "work" / "zebra.md"))))
        call = host.wait_for(lambda: host.calls_of("prompt/inject"), WAIT)[0]
        assert call.params["target"] == "ask" and call.params["submit"] is False
        assert call.params["text"].startswith("Note «Zebra migration»")
        host.wait_for_panel(lambda t: host.find(t, "preview.back") is not None, timeout=WAIT)

        host.open_url(link("open", quote("work/plan.md")) + "&preview=1")  # relative to a notes folder
        host.wait_for_panel(lambda t: "Ship the indexer on Friday." in host.texts(t), timeout=WAIT)
        host.open_url(link("continue", quote("work/plan.md")))
        host.wait_for(lambda: len(host.calls_of("prompt/inject")) == 2, WAIT)
        second = host.calls_of("prompt/inject")[1]
        assert second.params["target"] == "ask"
        assert second.params["text"].startswith("Continue working from this note.")
        assert not any("keep out" in s for tree in host.panels for s in host.texts(tree))
        assert host.violations == []


def test_folders_can_be_added_and_bad_paths_are_explained(tmp_path, notes):
    extra = tmp_path / "more"
    write_note(extra, "kiwi.md", "# Kiwi\n\nfuzzy fruit\n")
    with _start(tmp_path, notes) as host:
        _open_ready(host)
        host.submit("folders.path", str(tmp_path / "does-not-exist"))
        host.wait_for_panel(lambda t: any(s.startswith("No folder at ") for s in host.texts(t)), timeout=WAIT)
        host.submit("folders.path", str(extra))
        host.wait_for_panel(
            lambda t: any(item["id"] == str(extra) for item in host.find(t, "folders.list")["items"]),
            timeout=WAIT,
        )
        host.type("search.query", "kiwi ")
        host.wait_for_panel(_has_results(host, ["Kiwi"]), timeout=WAIT)
        saved = json.loads((tmp_path / "data" / "settings.json").read_text())
        assert saved["roots"] == [str(notes), str(extra)]
        host.row_action("folders.list", str(extra), "remove")
        host.type("search.query", "kiwi fruit ")
        host.wait_for_panel(
            lambda t: _results(host, t) == [] and "Removed" in " ".join(host.texts(t)), timeout=WAIT
        )


@pytest.mark.parametrize(
    "language, recent", [("ja", "最近のノート"), ("ko", "최근 노트"), ("zh", "最近的笔记")]
)
def test_panel_text_follows_the_language(tmp_path, notes, language, recent):
    with _start(tmp_path, notes, language=language) as host:
        host.open_panel()
        tree = host.wait_for_panel(lambda t: recent in host.texts(t), timeout=WAIT)
        assert host.find(tree, "toolbar.refresh")["label"] != "Refresh"


def test_open_command_with_a_query(tmp_path, notes):
    with _start(tmp_path, notes) as host:
        host.run_command("notes-search.open", {"query": "会議"})
        tree = host.wait_for_panel(_has_results(host, ["会議メモ"]), timeout=WAIT)
        assert host.find(tree, "search.query")["value"] == "会議"
        assert any(c.method == "ui/showPanel" for c in host.calls)


def _python39():
    import glob
    import shutil

    candidates = [
        shutil.which("python3.9"),
        *sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.9*/bin/python3"))),
    ]
    found = next((c for c in candidates if c and _works(c)), None)
    return found


def _works(python):
    import subprocess

    try:  # pyenv shims exist even when the version is not installed
        subprocess.run([python, "-c", "import sqlite3"], check=True, capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return False
    return True


@pytest.mark.skipif(_python39() is None, reason="needs a python3.9 to run the plugin with")
def test_runs_on_plain_python_39_and_falls_back_when_whoosh_is_missing(tmp_path, notes):
    """The user's own python3 (3.9, no packages): whoosh is asked for but missing, so FTS5 is used."""
    host = _start(tmp_path, notes, engine="whoosh")
    host.python = _python39()
    with host:
        tree = _open_ready(host)
        texts = host.texts(tree)
        assert "4 notes · sqlite" in texts
        assert any("not available in this Python; using sqlite" in text for text in texts)
        host.type("search.query", "東京")
        host.wait_for_panel(_has_results(host, ["会議メモ"]), timeout=WAIT)
        assert host.violations == []


def test_engine_switch_and_unreadable_settings_are_handled(tmp_path, notes):
    host = _start(tmp_path, notes)
    settings_file = tmp_path / "data" / "settings.json"
    settings_file.write_text("{not json")
    with host:
        host.open_panel()
        tree = host.wait_for_panel(
            lambda t: '"spinner"' not in json.dumps(t) and _results(host, t) is not None, timeout=WAIT
        )
        assert any(text.startswith("settings.json could not be read") for text in host.texts(tree))
        assert any(name.startswith("settings.json.corrupt-") for name in os.listdir(tmp_path / "data"))
        host.submit("folders.path", str(notes))
        host.choose("settings.engine", "whoosh")
        host.wait_for_panel(lambda t: "4 notes · whoosh" in host.texts(t), timeout=WAIT)
        host.type("search.query", "stripes ")
        host.wait_for_panel(_has_results(host, ["Zebra migration"]), timeout=WAIT)
        assert json.loads(settings_file.read_text())["engine"] == "whoosh"
