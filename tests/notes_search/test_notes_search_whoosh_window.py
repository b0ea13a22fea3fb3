"""The whoosh engine's own ranking keeps results right: broad queries ranked in a window of recently
indexed matches with title/alias/tag hits ranked in full, rare-and-common queries looked up at the
rare word's notes, two-letter prefixes from the "starts" field, and the same order as FTS5."""

from pathlib import Path
from typing import List

import pytest
from notes_search.library import NotesLibrary
from notes_search.settings import Settings
from notes_search_helpers import add_filler, titles, write_broad_notes, write_note

pytest.importorskip("whoosh")


def _library(tmp_path: Path, root: Path, engine: str = "whoosh") -> NotesLibrary:
    library = NotesLibrary(str(tmp_path / f"data-{engine}"), Settings(roots=(str(root),), engine=engine))
    assert library.engine_name == engine
    return library


def _titles(library: NotesLibrary, text: str, limit: int = 20) -> List[str]:
    return titles(library.search(text, limit=limit))


@pytest.fixture
def broad_root(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    write_broad_notes(root)
    return root


def test_an_old_note_whose_title_matches_a_broad_query_is_still_found(tmp_path, broad_root, monkeypatch):
    from notes_search.engines.whoosh_engine import WhooshEngine

    library = _library(tmp_path, broad_root)
    try:
        library.refresh()
        assert _titles(library, "plan", limit=5)[0] == "Planning old"  # everything ranked
        monkeypatch.setattr(WhooshEngine, "broad_cap", 12)
        for text in ("plan", "pl", "plan "):  # a longer prefix, a two-letter one, a word
            windowed = _titles(library, text, limit=5)
            assert len(windowed) == 5, text  # a full page, from the most recently indexed matches
            assert windowed[0] == "Planning old", text  # a title hit is ranked however old
            assert "Old body" not in windowed, text  # an old body-only match is outside the window
            assert all(title.startswith("Body ") for title in windowed[1:]), text
        # Editing the old body-only note indexes it again, last: it is in the window now.
        write_note(broad_root, "a-older.md", "# Old body\n\nplan plan plan plans, edited\n", 5000)
        library.refresh()
        assert "Old body" in _titles(library, "plan", limit=5)
        # A query matching fewer notes than the window is looked up in all of them.
        assert _titles(library, "oldest ") == ["Planning old"]
    finally:
        library.close()


def test_a_rare_word_with_a_common_prefix_finds_every_note_with_both(tmp_path, broad_root, monkeypatch):
    from notes_search.engines.whoosh_engine import WhooshEngine

    write_note(broad_root, "c-rare.md", "# Rare one\n\nzanzibar and a plan\n", mtime=100)
    write_note(broad_root, "c-rare-2.md", "# Zanzibar plans\n\nnothing else\n", mtime=150)
    write_note(broad_root, "c-rare-3.md", "# Rare three\n\nzanzibar only\n", mtime=160)
    library = _library(tmp_path, broad_root)
    try:
        library.refresh()
        monkeypatch.setattr(WhooshEngine, "broad_cap", 12)
        # The oldest notes of all, far outside the window of "pl": found through the rare word.
        assert _titles(library, "zanzibar pl") == ["Zanzibar plans", "Rare one"]
        assert _titles(library, "zanzibar plan") == ["Zanzibar plans", "Rare one"]
        assert library.search("zanzibar nothingsuch ").items == []
    finally:
        library.close()


def test_a_narrow_tag_filter_ranks_all_of_its_notes(tmp_path, broad_root, monkeypatch):
    from notes_search.engines.whoosh_engine import WhooshEngine

    write_note(broad_root, "d-tagged.md", "---\ntags: [project]\n---\n# Tagged\n\na plan\n", mtime=10)
    write_note(broad_root, "d-other.md", "---\ntags: [project]\n---\n# Other tagged\n\nno match\n", mtime=11)
    library = _library(tmp_path, broad_root)
    try:
        library.refresh()
        monkeypatch.setattr(WhooshEngine, "broad_cap", 12)
        assert _titles(library, "#project pl") == ["Tagged"]
        assert _titles(library, "tag:project plan ") == ["Tagged"]
    finally:
        library.close()


def test_two_letter_prefixes_count_hits_per_field(tmp_path):
    root = tmp_path / "notes"
    add_filler(root)
    write_note(root, "body.md", "# Something\n\nzebras zebu zeal zero zest in the body\n", mtime=2_000_000)
    write_note(root, "title.md", "# Zebra title\n\nnothing here\n", mtime=1_900_000)
    write_note(root, "tag.md", "---\ntags: [zeta]\n---\n# Tagged note\n\nnothing here\n", mtime=2_100_000)
    write_note(root, "none.md", "# Plain\n\nnot a word start here: amaze\n", mtime=2_200_000)
    library = _library(tmp_path, root)
    try:
        library.refresh()
        # One title hit (weight 8) beats five body hits (1 each); "amaze" is no match.
        found = _titles(library, "ze")
        assert found[0] == "Zebra title" and sorted(found) == ["Something", "Tagged note", "Zebra title"]
        assert _titles(library, "zeb") == ["Zebra title", "Something"]
    finally:
        library.close()


def test_deleted_and_edited_notes_leave_nothing_behind(tmp_path, broad_root):
    library = _library(tmp_path, broad_root)
    try:
        library.refresh()
        write_note(broad_root, "b-00.md", "# Body 0\n\nrewritten without the word\n", mtime=9000)
        (broad_root / "b-01.md").unlink()
        library.refresh()
        found = _titles(library, "pl", limit=50)
        assert "Body 0" not in found and "Body 1" not in found
        assert len(found) == len(set(found)) == 30  # 28 body notes, "Planning old", "Old body"
        assert _titles(library, "rewritten ") == ["Body 0"]
    finally:
        library.close()


@pytest.mark.parametrize(
    "text",
    ["zebra ", "zeb", "ze", "run ", "running ", "release ", "launch checklist", '"quick brown"', '"quick bro', "会議"],
)
def test_ranking_matches_fts5_on_crafted_notes(tmp_path, text):
    root = tmp_path / "notes"
    add_filler(root)
    write_note(root, "work/zebra-title.md", "# Zebra migration\n\nPlanning notes for the move.\n", 2_000_000)
    write_note(
        root,
        "work/zebra-body.md",
        "# Animals\n\nThe zebra, a zebra, another zebra and one more zebra crossed.\n",
        2_000_001,
    )
    write_note(root, "work/zebra-tag.md", "---\ntags: [zebra]\n---\n# Stripes\n\nblack and white\n", 2_000_002)
    write_note(root, "runs.md", "# Training log\n\nI was running every morning.\n", 2_000_003)
    write_note(root, "run-exact.md", "# Sports\n\nA good run every day, we run.\n", 2_000_004)
    write_note(root, "jp/kaigi.md", "# 週次ミーティング\n\n明日の会議は東京で行います。会議室。\n", 2_000_005)
    write_note(root, "jp/kaigi-2.md", "# 会議メモ\n\n短いメモ。\n", 2_000_006)
    write_note(
        root,
        "plan.md",
        "---\ntitle: Release plan\naliases: [Launch checklist]\ntags: [release]\n---\n"
        "The quick brown fox jumps. Brown quick dogs sleep. A release.\n",
        2_000_007,
    )
    write_note(root, "quick.md", "# Quick notes\n\nquick brownies, quick brown bread\n", 2_000_008)
    whoosh = _library(tmp_path, root, "whoosh")
    sqlite = _library(tmp_path, root, "sqlite")
    try:
        whoosh.refresh()
        sqlite.refresh()
        expected = _titles(sqlite, text)
        assert expected, text
        assert _titles(whoosh, text) == expected
    finally:
        whoosh.close()
        sqlite.close()
