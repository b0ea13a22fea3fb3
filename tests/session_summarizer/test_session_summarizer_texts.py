"""Panel and summary texts exist in all four languages, and history/notes files behave."""

import json
from pathlib import Path

from session_summarizer.history import PER_WORKSPACE, History, workspace_key
from session_summarizer.notes import NoteInfo, NoteSaveError, save_note, slug
from session_summarizer.summary_text import _TEXT as SUMMARY_TEXT
from session_summarizer.text import TEXT
from session_summarizer.view import markdown_nodes


def test_every_panel_text_is_translated():
    assert TEXT.missing() == {"ja": [], "ko": [], "zh": []}
    for language in ("ja", "ko", "zh"):
        assert set(SUMMARY_TEXT[language]) == set(SUMMARY_TEXT["en"])
        for key, english in SUMMARY_TEXT["en"].items():
            assert SUMMARY_TEXT[language][key].count("{") == english.count("{"), (language, key)


def test_markdown_becomes_title_and_text_nodes():
    nodes = markdown_nodes("# Session summary\n\n_3 turns_\n\n## Goal\n\nFix it.\n\n## Next steps\n\n- a\n- b\n")
    assert [(n["text"], n.get("style")) for n in nodes] == [
        ("3 turns", "muted"), ("Goal", "title"), ("Fix it.", "body"), ("Next steps", "title"), ("• a\n• b", "body")]


def test_notes_never_overwrite_and_report_bad_folders(tmp_path):
    info = NoteInfo(title="Fix the CSV export: commas", workspace="shop", agent="claude", session_id="s1",
                    cwd="/repo \"quoted\"")
    first = save_note(str(tmp_path / "notes"), "# S\n\nbody with sk-proj-Zq81mNpW3xLr7TyUv2sKd9QeBh4FjA6c\n", info)
    second = save_note(str(tmp_path / "notes"), "# S\n\nother\n", info)
    assert first != second and first.endswith("-fix-the-csv-export-commas.md") and second.endswith("-2.md")
    text = Path(first).read_text(encoding="utf-8")
    assert text.startswith("---\ntitle: \"Fix the CSV export: commas\"\n")
    assert 'cwd: "/repo \\"quoted\\""' in text and "sk-proj-" not in text
    assert Path(second).read_text(encoding="utf-8").endswith("other\n")
    for folder, kind in (("", "empty"), (str(tmp_path / "notes" / first.rsplit("/", 1)[1]), "not_a_folder"),
                         ("/sys/agentty-notes-test", "unwritable")):
        try:
            save_note(folder, "x", info)
        except NoteSaveError as error:
            assert error.kind == kind, folder
        else:
            raise AssertionError("saved into " + folder)
    assert slug("ログイン修正 / v2?") == "ログイン修正-v2"
    assert slug("???") == "session"


def test_history_is_per_workspace_capped_and_survives_corruption(tmp_path):
    history = History(str(tmp_path))
    key = workspace_key("/work/shop", 3, "shop")
    other = workspace_key(None, 4, None)
    for number in range(PER_WORKSPACE + 5):
        history.add(key, "t" + str(number), "claude", "s", "local", "# md " + str(number))
    history.add(other, "elsewhere", "codex", "s2", "llama3.1", "# other")
    entries = History(str(tmp_path)).entries(key)
    assert len(entries) == PER_WORKSPACE and entries[0].title == "t" + str(PER_WORKSPACE + 4)
    assert [e.title for e in History(str(tmp_path)).entries(other)] == ["elsewhere"]
    history.mark_saved(key, entries[0].id, "/n/a.md")
    assert History(str(tmp_path)).get(key, entries[0].id).saved_paths == ["/n/a.md"]
    assert history.remove(key, entries[0].id) and not history.remove(key, "missing")
    (tmp_path / "history.json").write_text("{broken", encoding="utf-8")
    fresh = History(str(tmp_path))
    assert fresh.entries(key) == [] and fresh.problem is not None and fresh.problem.kind == "damaged"
    assert list(tmp_path.glob("history.json.corrupt-*")) == [Path(fresh.problem.path)]
    fresh.add(key, "new", "claude", "s", "local", "# md")
    assert json.loads((tmp_path / "history.json").read_text(encoding="utf-8"))["version"] == 1
