"""The FTS5 engine's lexicon: it always lists exactly FTS5's words (or says it is stale), a long prefix
searched through it finds what FTS5's own prefix merge finds, an update keeps the index, and bm25() is
skipped only when its counting would read more entries than BM25_POSTINGS."""

import platform
import sqlite3
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, List, Optional, Set, Tuple

import pytest
from notes_search.engines import lexicon
from notes_search.engines.sqlite_fts import SqliteEngine
from notes_search.library import NotesLibrary
from notes_search.settings import Settings
from notes_search_helpers import sqlite_library, titles, write_note

WORDS = ["meeting", "meetings", "meet", "meetup", "metre", "code", "block", "blocks", "blockade", "plan"]


@contextmanager
def _refreshed(tmp_path: Path, count: int) -> Iterator[NotesLibrary]:
    """A library over `count` corpus notes in tmp_path/notes, after its first refresh; closed after."""
    root = tmp_path / "notes"
    _write_corpus(root, count)
    library = sqlite_library(tmp_path, root)
    try:
        library.refresh()
        yield library
    finally:
        library.close()


def _fts_words(engine: SqliteEngine) -> Set[str]:
    rows = engine._reader.execute("SELECT term FROM lexicon_source").fetchall()
    return {term for (term,) in rows}


def _lexicon_words(engine: SqliteEngine) -> Set[str]:
    return {term for (term,) in engine._reader.execute("SELECT term FROM lexicon").fetchall()}


def _words_of(index: int) -> List[str]:
    return [WORDS[(index * 3 + k) % len(WORDS)] for k in range(4)]


def _write_corpus(root: Path, count: int) -> None:
    for index in range(count):
        words = " ".join(_words_of(index))
        write_note(root, f"n/{index:03d}.md", f"# Note {index}\n\n{words} e-mail-{index} 会議室\n", mtime=1000 + index)


def _titles_with(prefix: str, count: int) -> List[str]:
    return sorted(f"Note {i}" for i in range(count) if any(w.startswith(prefix) for w in _words_of(i)))


def _write_plan_notes(root: Path) -> None:
    """An older note saying "plan" five times ("First"), six newer ones saying it once: BM25 puts the
    older first, newest-first order does not."""
    write_note(root, "a.md", "# First\n\nplan plan plan plan plan\n", mtime=1000)
    for index in range(6):
        write_note(root, f"b{index}.md", f"# Other {index}\n\nplan once and more words here\n", mtime=2000 + index)


def test_small_writes_keep_the_lexicon_complete_with_every_word_fts5_has(tmp_path: Path) -> None:
    root = tmp_path / "notes"
    with _refreshed(tmp_path, 12) as library:
        engine = library.engine
        assert lexicon.is_complete(engine._reader)
        assert _lexicon_words(engine) == _fts_words(engine)
        write_note(root, "n/new.md", "# Fresh\n\nzeppelin blockchain\n", mtime=5000)
        library.update_paths([str(root / "n" / "new.md")])
        assert {"zeppelin", "blockchain", "fresh"} <= _lexicon_words(engine)
        assert _lexicon_words(engine) >= _fts_words(engine)
        docs = dict(engine._reader.execute("SELECT term, docs FROM lexicon").fetchall())
        counted = dict(engine._reader.execute("SELECT term, doc FROM lexicon_source").fetchall())
        assert docs["meeting"] == counted["meeting"]  # each note counted once, whatever its fields


def test_a_first_index_in_bulk_leaves_it_stale_until_settle_fills_it(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(SqliteEngine, "batch_size", 5)  # full batches of a first index are bulk writes
    with _refreshed(tmp_path, 23) as library:
        engine = library.engine
        assert not lexicon.is_complete(engine._reader)
        assert engine.completions("meeti", 32) is None  # stale: callers ask FTS5 itself
        stale = sorted(titles(library.search("meeti", limit=50)))
        assert stale == _titles_with("meeti", 23)
        library.settle()
        assert lexicon.is_complete(engine._reader)
        assert _lexicon_words(engine) == _fts_words(engine)
        holding = {word: sum(word in _words_of(i) for i in range(23)) for word in ("meeting", "meetings")}
        assert engine.completions("meeti", 32) == sorted(holding.items())
        assert sorted(titles(library.search("meeti", limit=50))) == stale


@pytest.mark.parametrize(
    "query",
    [
        *("meeti", "meeting", "meetu", "block", "blocka", "bloc", "code bloc", "code block", '"code block', "meetz"),
        *("mee", "meet", "blo", "code blo", '"code blo', "会議"),  # no 3- or 4-letter prefix index
    ],
)
def test_a_long_prefix_through_the_lexicon_finds_what_the_fts5_merge_finds(
    tmp_path: Path, monkeypatch, query: str
) -> None:
    with _refreshed(tmp_path, 40) as library:
        assert library.engine.completions("meeti", 32) is not None
        through_lexicon = sorted(titles(library.search(query, limit=100)))
        monkeypatch.setattr(SqliteEngine, "completions", lambda self, prefix, limit: None)
        monkeypatch.setattr(SqliteEngine, "frequent", lambda self, prefix, limit: None)
        merged = sorted(titles(library.search(query, limit=100)))
        assert through_lexicon == merged
        if query != "meetz":
            assert merged  # the comparison is about something


def _common_words(prefix: str, limit: int) -> Optional[List[Tuple[str, int]]]:
    found = [(w, 5000) for w in sorted(WORDS) if w.startswith(prefix)]  # common: worth naming
    return found if len(found) <= limit else None


def test_the_expression_names_the_words_of_a_long_prefix_and_keeps_short_ones(tmp_path: Path) -> None:
    from notes_search.engines.sqlite_fts import PrefixWords, match_expression
    from notes_search.query import parse_query

    words = PrefixWords((2, 3, 4), _common_words)  # an index of 0.2.1: prefix='2 3 4'
    assert match_expression(parse_query("meeti"), words=words) == '("meeting" OR "meetings")'
    assert match_expression(parse_query("meet"), words=words) == '"meet"*'  # the prefix index has it
    assert match_expression(parse_query("blockz"), words=words) == '"blockz"'  # no word: no match
    assert match_expression(parse_query("code bloc"), words=words) == '"code" AND "bloc"*'
    assert match_expression(parse_query('"code block'), words=words) == (
        '(("code" + "block") OR ("code" + "blockade") OR ("code" + "blocks"))'
    )


def test_without_a_prefix_index_a_short_prefix_is_its_words_or_its_most_common_ones(tmp_path: Path) -> None:
    from notes_search.engines.sqlite_fts import FREQUENT_WORDS, WORD_COMPLETIONS, PrefixWords, match_expression
    from notes_search.query import parse_query

    many = [f"blok{n:03d}" for n in range(WORD_COMPLETIONS + 1)]  # more words than are named one by one

    def completions(prefix: str, limit: int) -> Optional[List[Tuple[str, int]]]:
        return None if prefix == "blok" else _common_words(prefix, limit)

    def frequent(prefix: str, limit: int) -> Optional[List[Tuple[str, int]]]:
        return [(word, 100 - n) for n, word in enumerate(many) if word.startswith(prefix)][:limit]

    body = PrefixWords((2, 3), completions, frequent)  # a new index: no 4-letter prefix index
    # Few words start so: all of them, so the result is what the prefix index found.
    assert match_expression(parse_query("meet"), words=body) == '("meet" OR "meeting" OR "meetings" OR "meetup")'
    assert match_expression(parse_query("zzzz"), words=body) == '"zzzz"'  # none: matches nothing
    # Too many: the most common ones, as whoosh does.
    expected = "({})".format(" OR ".join(f'"{word}"' for word in many[:FREQUENT_WORDS]))
    assert match_expression(parse_query("blok"), words=body) == expected
    assert match_expression(parse_query("mee"), words=body) == '"mee"*'  # three letters: indexed
    assert match_expression(parse_query("me"), words=body) == '"me"*'
    # Rare words: merged, which costs less than naming them and ranks as the prefix index did.
    rare = PrefixWords((2, 3), lambda prefix, limit: [("meet", 3), ("meeting", 40)], frequent)
    assert match_expression(parse_query("meet"), words=rare) == '"meet"*'
    # Five letters and more: as with the old index (named only when a merge would cost more).
    assert match_expression(parse_query("meeti"), words=body) == '("meeting" OR "meetings")'
    # While the lexicon is stale, FTS5 merges the lists as it would for a long prefix.
    assert match_expression(parse_query("meet"), words=PrefixWords((2, 3))) == '"meet"*'


def test_the_engine_names_the_most_common_words_only_when_a_merge_would_read_too_many_entries(
    tmp_path: Path,
) -> None:
    from notes_search.engines import sqlite_fts

    engine = SqliteEngine(str(tmp_path / "index"))
    try:
        limit = sqlite_fts.ENTRIES_PER_WORD * sqlite_fts.WORD_COMPLETIONS
        words = [(f"blok{n:03d}", 1 + limit // 40) for n in range(40)]  # 40 words, just over the limit
        with engine._lock:
            engine._db.execute("BEGIN")
            engine._db.executemany("INSERT INTO lexicon VALUES (?, ?)", words)
            engine._db.execute("COMMIT")
            engine._generation += 1
        assert engine.frequent("blok", 16) == sorted(words)[:16]  # equal counts: in word order
        assert engine.frequent("blok03", 16) is None  # ten of them: a merge reads few enough entries
    finally:
        engine.close()


def test_the_most_common_words_of_a_prefix_include_the_word_itself(tmp_path: Path) -> None:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE lexicon (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID")
    db.executemany("INSERT INTO lexicon VALUES (?, ?)", [("tarx", 1), ("tarxa", 50), ("tarxb", 40), ("tarxc", 30)])
    assert lexicon.most_common(db, "tarx", 2) == [("tarxa", 50), ("tarxb", 40), ("tarx", 1)]
    assert lexicon.most_common(db, "tarxa", 2) == [("tarxa", 50)]
    assert lexicon.most_common(db, "tarz", 2) == []


def test_an_index_of_the_previous_schema_is_made_again(tmp_path: Path) -> None:
    """Schema 14 splits words differently (combining marks stay inside words): an index of 13 is
    indexed again rather than searched with words its queries no longer produce."""
    root = tmp_path / "notes"
    _write_corpus(root, 15)
    library = sqlite_library(tmp_path, root)
    library.refresh()
    path = library.engine.path
    library.close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 13")
    db.commit()
    db.close()
    library = sqlite_library(tmp_path, root)
    try:
        engine = library.engine
        assert engine.count() == 0
        report = library.refresh()
        assert report is not None and report.added == 15
        library.settle()
        assert _lexicon_words(engine) == _fts_words(engine)
        assert sorted(titles(library.search("meeti", limit=50))) == _titles_with("meeti", 15)
    finally:
        library.close()


def test_bm25_is_skipped_only_when_counting_would_read_more_than_the_limit(tmp_path: Path, monkeypatch) -> None:
    from notes_search.engines import sqlite_fts
    from notes_search.query import parse_query

    root = tmp_path / "notes"
    _write_plan_notes(root)
    library = sqlite_library(tmp_path, root)
    try:
        library.refresh()
        engine = library.engine
        assert engine._bm25_affordable(parse_query("plan ")) is True
        assert titles(library.search("plan ", limit=3))[0] == "First"
        monkeypatch.setattr(sqlite_fts, "BM25_POSTINGS", 6)  # "plan" is in 7 notes
        assert engine._bm25_affordable(parse_query("plan ")) is False
        assert engine._bm25_affordable(parse_query("first")) is True
        newest_first = titles(library.search("plan ", limit=3))
        assert newest_first == ["Other 5", "Other 4", "Other 3"]
    finally:
        library.close()


@pytest.mark.parametrize("engine_name", ["sqlite", "whoosh"])
def test_both_engines_order_a_costly_query_newest_first_alike(tmp_path: Path, monkeypatch, engine_name: str) -> None:
    pytest.importorskip("whoosh")
    from notes_search.engines import sqlite_fts, whoosh_engine

    root = tmp_path / "notes"
    _write_plan_notes(root)
    write_note(root, "plans.md", "# Plans\n\nnothing here\n", mtime=900)  # a title hit still ranks first
    library = NotesLibrary(str(tmp_path / engine_name), Settings(roots=(str(root),), engine=engine_name))
    try:
        library.refresh()
        assert titles(library.search("plan ", limit=3))[:2] == ["Plans", "First"]
        monkeypatch.setattr(sqlite_fts, "BM25_POSTINGS", 6)
        monkeypatch.setattr(whoosh_engine, "BM25_POSTINGS", 6)
        assert titles(library.search("plan ", limit=4)) == ["Plans", "Other 5", "Other 4", "Other 3"]
    finally:
        library.close()


def test_a_full_batch_after_the_first_index_leaves_the_words_to_settle(tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "notes"
    with _refreshed(tmp_path, 4) as library:
        engine = library.engine
        assert lexicon.is_complete(engine._reader)
        monkeypatch.setattr(SqliteEngine, "batch_size", 5)
        for index in range(4, 16):  # a second refresh of 12 new notes: two full batches and a rest
            write_note(root, f"n/{index:03d}.md", f"# Later {index}\n\nquokka{index} meeting\n", mtime=9000 + index)
        library.refresh()
        assert not lexicon.is_complete(engine._reader)  # Python did not tokenize 10 notes one by one
        assert engine.completions("quokk", 32) is None
        assert len(titles(library.search("quokk", limit=50))) == 12  # FTS5 answers meanwhile
        library.settle()
        assert _lexicon_words(engine) == _fts_words(engine)
        assert len(titles(library.search("quokk", limit=50))) == 12


def test_a_word_in_no_note_is_corrected_without_a_failed_search_first(tmp_path: Path, monkeypatch) -> None:
    from notes_search.query import parse_query

    root = tmp_path / "notes"
    with _refreshed(tmp_path, 12) as library:
        engine = library.engine
        searched: List[str] = []
        real_search = SqliteEngine.search

        def counting(self, query, limit):
            searched.append(query.text)
            return real_search(self, query, limit)

        monkeypatch.setattr(SqliteEngine, "search", counting)
        outcome = library.search("code bolck")
        assert outcome.corrections == [("bolck", "block")]
        with_code = [i for i in range(12) if "code" in _words_of(i)]
        both = sorted(f"Note {i}" for i in with_code if any(w.startswith("block") for w in _words_of(i)))
        assert both and sorted(titles(outcome)) == both
        assert len(searched) == 1  # only the corrected query was searched
        searched.clear()
        assert titles(library.search("code blo"))  # a known prefix: searched at once, no correction
        assert len(searched) == 1
        # A word only a removed note held stays in the lexicon: it is searched (and found in no note).
        write_note(root, "n/gone.md", "# Gone\n\nzyzzyva\n", mtime=7000)
        library.refresh()
        (root / "n" / "gone.md").unlink()
        library.refresh()
        searched.clear()
        assert titles(library.search("zyzzyv")) == []
        assert searched and not engine.matches_nothing(parse_query("zyzzyv"))


def test_settle_after_close_does_nothing_and_raises_nothing(tmp_path: Path) -> None:
    root = tmp_path / "notes"
    _write_corpus(root, 3)
    library = sqlite_library(tmp_path, root)
    library.refresh()
    library.close()
    library.settle()  # the worker may settle just as the plugin shuts down


def test_a_new_index_has_no_four_letter_body_index_and_an_older_one_keeps_its_own(tmp_path: Path, monkeypatch) -> None:
    from notes_search.engines import sqlite_fts

    root = tmp_path / "notes"
    _write_corpus(root, 20)
    new = sqlite_library(tmp_path / "new", root)
    try:
        assert new.engine._body_words.indexed == (2, 3)
        assert new.engine._heading_words.indexed == (2, 3, 4)
        new.refresh()
        new.settle()
        found_new = sorted(titles(new.search("meet", limit=50)))
    finally:
        new.close()
    monkeypatch.setattr(sqlite_fts, "BODY_PREFIX_INDEXES", (2, 3, 4))  # as 0.2.1 made it
    old = sqlite_library(tmp_path / "old", root)
    old.refresh()
    old.close()
    monkeypatch.undo()
    reopened = sqlite_library(tmp_path / "old", root)  # the update opens the older file as it is
    try:
        assert reopened.engine._body_words.indexed == (2, 3, 4)
        assert sorted(titles(reopened.search("meet", limit=50))) == found_new == _titles_with("meet", 20)
    finally:
        reopened.close()


def test_a_bulk_write_binds_as_many_values_per_statement_as_this_sqlite_allows(tmp_path: Path) -> None:
    from notes_search.engines import sqlite_fts

    engine = SqliteEngine(str(tmp_path / "index"))
    try:
        expected = sqlite_fts._BULK_VARIABLES if sqlite3.sqlite_version_info >= (3, 32) else sqlite_fts._SQL_VARIABLES
        assert engine._variables == expected
        old_build = sqlite3.connect(":memory:")
        if hasattr(old_build, "setlimit"):  # Python 3.11+: as an SQLite built with the old limit of 999
            old_build.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 999)
            assert sqlite_fts._variable_limit(old_build) == sqlite_fts._SQL_VARIABLES
        old_build.close()
    finally:
        engine.close()


def test_the_memory_a_first_index_freed_is_handed_back_once_the_lexicon_is_filled(tmp_path: Path, monkeypatch) -> None:
    from notes_search import library as library_module
    from notes_search.memory import release_freed_memory

    if sys.platform.startswith("linux") and "glibc" in " ".join(platform.libc_ver()):
        assert release_freed_memory() is True
    released: List[bool] = []
    monkeypatch.setattr(library_module, "release_freed_memory", lambda: released.append(True) or True)
    root = tmp_path / "notes"
    _write_corpus(root, 12)
    library = sqlite_library(tmp_path, root)
    try:
        library.engine.batch_size = 5  # a first index in full batches: the lexicon is left to settle()
        library.refresh()
        library.settle()
        assert released == [True]
        library.settle()  # nothing left to do: nothing to hand back
        assert released == [True]
    finally:
        library.close()
