"""Search behaviour on crafted notes, run on both engines (SQLite FTS5 and whoosh)."""

from pathlib import Path

import pytest
from notes_search_helpers import add_filler, titles, write_note


@pytest.fixture
def library(notes_root: Path, make_library):
    add_filler(notes_root)
    write_note(
        notes_root, "work/zebra-title.md", "# Zebra migration\n\nPlanning notes for the move.\n", 2_000_000
    )
    write_note(
        notes_root,
        "work/zebra-body.md",
        "# Animals\n\nThe zebra, a zebra, another zebra and one more zebra crossed.\n",
        2_000_001,
    )
    write_note(notes_root, "runs.md", "# Training log\n\nI was running every morning.\n", 2_000_002)
    write_note(notes_root, "run-exact.md", "# Sports\n\nA good run every day, we run.\n", 2_000_003)
    write_note(
        notes_root,
        "jp/kaigi.md",
        "---\ntags: [会議, work/meetings]\n---\n# 週次ミーティング\n\n明日の会議は東京で行います。全文検索の話。\n",
        2_000_004,
    )
    write_note(
        notes_root,
        "plan.md",
        "---\ntitle: Release plan\naliases: [Launch checklist]\ntags: [release]\n---\n"
        "The quick brown fox jumps. Brown quick dogs sleep.\n",
        2_000_005,
    )
    write_note(
        notes_root,
        "ko/meeting.md",
        "# 회의록\n\n회의록을 작성했습니다. ＦＵＬＬ　ＷＩＤＴＨ text.\n",
        2_000_006,
    )
    lib = make_library(notes_root)
    report = lib.refresh()
    assert report.added == 19 and report.deleted == 0
    return lib


def test_title_match_ranks_above_repeated_body_matches(library):
    assert titles(library.search("zebra "))[:2] == ["Zebra migration", "Animals"]


def test_exact_word_ranks_above_inflected_form_and_both_are_found(library):
    assert titles(library.search("run ")) == ["Sports", "Training log"]
    assert titles(library.search("running ")) == ["Training log", "Sports"]


def test_as_you_type_prefix_from_two_letters(library):
    assert titles(library.search("zeb")) == ["Zebra migration", "Animals"]
    assert titles(library.search("ze")) == ["Zebra migration", "Animals"]
    assert titles(library.search("trai")) == ["Training log"]
    assert library.search("z").items == []  # one letter is not a prefix yet


def test_phrases_require_adjacent_words(library):
    assert titles(library.search('"quick brown"')) == ["Release plan"]
    assert titles(library.search('"brown quick"')) == ["Release plan"]
    assert library.search('"fox quick"').items == []
    assert titles(library.search('"quick bro')) == ["Release plan"]


def test_aliases_and_tags_are_searchable(library):
    assert titles(library.search("launch checklist")) == ["Release plan"]
    assert titles(library.search("release ")) == ["Release plan"]


def test_cjk_words_and_single_characters(library):
    assert titles(library.search("会議")) == ["週次ミーティング"]
    assert titles(library.search("東京")) == ["週次ミーティング"]
    assert titles(library.search("全文検索")) == ["週次ミーティング"]
    assert titles(library.search("京")) == ["週次ミーティング"]
    assert titles(library.search("회의록")) == ["회의록"]
    assert library.search("京都").items == []


def test_width_folding_between_query_and_note(library):
    assert titles(library.search("full width")) == ["회의록"]
    assert titles(library.search("ｆｕｌｌ")) == ["회의록"]


def test_tag_and_folder_filters(library):
    assert titles(library.search("tag:会議")) == ["週次ミーティング"]
    assert titles(library.search("tag:work ")) == ["週次ミーティング"]  # parent of work/meetings
    assert titles(library.search("tag:wor")) == ["週次ミーティング"]  # still typing: prefix
    assert titles(library.search("#release zebra")) == []
    assert titles(library.search("in:work zebra ")) == ["Zebra migration", "Animals"]
    assert titles(library.search("in:jp 会議")) == ["週次ミーティング"]
    assert library.search("in:nowhere zebra").items == []
    assert titles(library.search("in:notes/work zebra ")) == ["Zebra migration", "Animals"]


def test_empty_query_lists_recent_notes_first(library):
    outcome = library.search("")
    assert outcome.mode == "recent"
    assert titles(outcome)[:3] == ["회의록", "Release plan", "週次ミーティング"]
    assert titles(library.search("in:work")) == ["Animals", "Zebra migration"]


def test_typo_tolerance_only_when_nothing_matches(library):
    outcome = library.search("zebar migraton ")
    assert outcome.corrections == [("zebar", "zebra"), ("migraton", "migration")]
    assert titles(outcome) == ["Zebra migration"]
    assert library.search("zebra ").corrections == []
    assert library.search("qqqqqq ").items == []


def test_snippets_mark_matches_and_keep_original_text(library):
    snippet = library.search("running ").items[0].snippet
    assert "«running»" in snippet
    cjk = library.search("東京").items[0].snippet
    assert "«東京»" in cjk
    wide = library.search("width").items[0].snippet
    assert "«ＷＩＤＴＨ»" in wide
    phrase = library.search('"quick brown"').items[0].snippet
    assert "«quick» «brown»" in phrase


def test_locked_notes_are_found_by_title_only(notes_root, make_library):
    add_filler(notes_root)
    write_note(
        notes_root, "secret.md", "---\ntitle: Bank details\nlocked: true\n---\nThe password is hunter2\n"
    )
    lib = make_library(notes_root)
    lib.refresh()
    assert lib.search("hunter2 ").items == []
    items = lib.search("bank ").items
    assert [i.record.title for i in items] == ["Bank details"]
    assert items[0].record.locked and items[0].snippet == ""
