"""The speed-ups of the FTS5 engine and the snippets keep results right: broad queries ranked in a
window of recent matches, ASCII bodies handed to FTS5 unsplit, fast first build, snippet word starts."""

import sqlite3
import threading
import time
from pathlib import Path
from typing import Dict, Iterable, List, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from notes_search.engines.base import FileState, IndexBusy, SearchEngine
from notes_search.indexer import refresh_index
from notes_search.notes import IndexDocument, build_document
from notes_search.query import parse_query
from notes_search.snippets import make_snippet
from notes_search.tokens import fold, tokens, unsplit_for_fts5
from notes_search_helpers import sqlite_library, titles, write_broad_notes, write_note


def test_a_broad_query_is_ranked_among_its_most_recently_indexed_matches(tmp_path: Path, monkeypatch) -> None:
    from notes_search.engines.sqlite_fts import SqliteEngine

    root = tmp_path / "notes"
    write_broad_notes(root)
    library = sqlite_library(tmp_path, root)
    try:
        library.refresh()
        exact = titles(library.search("plan", limit=5))
        assert exact[0] == "Planning old"  # everything ranked: the title hit wins
        monkeypatch.setattr(SqliteEngine, "broad_cap", 12)
        windowed = titles(library.search("plan", limit=5))
        assert len(windowed) == 5  # a full page, from the 12 most recently indexed matches
        # A title, alias or tag hit is ranked in full, however old: it still comes first.
        assert windowed[0] == "Planning old"
        # An old note that matches only in its body is outside the window.
        assert "Old body" not in windowed
        assert all(title.startswith("Body ") for title in windowed[1:])
        # Editing the old note re-indexes it (a new rowid): it is recent again and its title hit wins.
        write_note(root, "a-old.md", "# Planning old\n\nplanning in the title, edited\n", mtime=5000)
        library.refresh()
        assert library.search("plan", limit=5).items[0].record.title == "Planning old"
        # A query matching fewer notes than the window is looked up in all of them.
        assert titles(library.search("edited")) == ["Planning old"]
        assert "Old body" in titles(library.search("only plans", limit=5))
    finally:
        library.close()


def test_old_alias_and_tag_hits_come_from_the_heading_table_and_leave_with_their_note(
    tmp_path: Path, monkeypatch
) -> None:
    from notes_search.engines.sqlite_fts import SqliteEngine

    root = tmp_path / "notes"
    write_note(root, "old-alias.md", "---\naliases: [Zephyr plan]\n---\nnothing else here\n", mtime=900)
    write_note(root, "old-tag.md", "---\ntags: [planet]\n---\nnor here\n", mtime=950)
    for index in range(30):
        write_note(root, f"b-{index:02d}.md", f"# Body {index}\n\nplans and a plan {index}\n", mtime=2000 + index)
    monkeypatch.setattr(SqliteEngine, "broad_cap", 12)
    library = sqlite_library(tmp_path, root)
    try:
        library.refresh()
        found = titles(library.search("pla", limit=5))
        # Both old notes match only in their alias or tag, far outside the 12 newest matches.
        assert set(found[:2]) == {"old-alias", "old-tag"}, found
        (root / "old-alias.md").unlink()
        library.refresh()
        found = titles(library.search("pla", limit=5))
        assert found[0] == "old-tag" and "old-alias" not in found
        engine = library.engine
        notes = engine._reader.execute("SELECT count(*) FROM notes").fetchone()[0]
        headings = engine._reader.execute("SELECT count(*) FROM notes_head").fetchone()[0]
        assert notes == headings == 31
    finally:
        library.close()


def test_an_ascii_body_given_unsplit_is_tokenized_like_the_python_split(tmp_path: Path) -> None:
    root = tmp_path / "notes"
    text = "# Mixed_Case\n\nfoo_bar e-mail **bold** `code` [[link]] x1y2 done.\n"
    path = write_note(root, "n.md", text)
    raw = path.read_bytes()
    split = build_document(str(path), str(root), raw, 1)
    unsplit = build_document(str(path), str(root), raw, 1, unsplit_body=True)
    assert unsplit.fields["body"] != split.fields["body"]
    assert tokens(unsplit.fields["body"]) == split.fields["body"].split()
    japanese = build_document(str(path), str(root), "会議室 “meeting”\n".encode(), 1, unsplit_body=True)
    assert japanese.fields["body"] == " 会議 議室 室  “meeting”\n"  # CJK pre-split, the rest left to FTS5
    marked = build_document(str(path), str(root), "x\u0301y z\n".encode(), 1, unsplit_body=True)
    assert marked.fields["body"] == "x\u0301y z"  # a combining mark left after folding: split in Python, in the word
    library = sqlite_library(tmp_path, root)
    try:
        library.refresh()
        for query in ("foo ", "bar ", "mail ", "bold ", "code ", "link ", "x1y2 ", "x1"):
            assert titles(library.search(query)) == ["Mixed_Case"], query
    finally:
        library.close()


def _fts5_tokens(connection: sqlite3.Connection, text: str) -> List[str]:
    connection.execute("DELETE FROM t")
    connection.execute("INSERT INTO t (rowid, x) VALUES (1, ?)", (text,))
    return [term for (term,) in connection.execute("SELECT term FROM v ORDER BY offset")]


# Letters, digits and separators from ASCII and the ranges the shortcut accepts, plus CJK, Hangul and
# characters it must refuse (combining marks, Cyrillic, private use, unassigned).
_MIXED = st.text(
    alphabet=st.sampled_from(
        list("ab Z9_-.\n\t'")
        + list("éøßæĳ“”‘’—–…•«»")
        + list("　、。「」〜")
        + list("会議室東京かなカナ한국어")
        + ["\u0301", "\u0308", "ж", "Ω", "\ue000", "\U0001f600", "ǰ", "İ", "ｶ", "①"]
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(_MIXED)
def test_text_handed_to_fts5_unsplit_gets_the_tokens_the_python_split_makes(text: str) -> None:
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='unicode61 remove_diacritics 0')")
    connection.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    folded = fold(text)
    unsplit = unsplit_for_fts5(folded)
    if unsplit is not None:
        assert _fts5_tokens(connection, unsplit) == tokens(folded)
    connection.close()


def test_the_first_build_skips_fsync_and_normal_durability_returns(tmp_path: Path, monkeypatch) -> None:
    from notes_search.engines.sqlite_fts import SqliteEngine

    root = tmp_path / "notes"
    for index in range(25):
        write_note(root, f"n{index:02d}.md", f"# Note {index}\n\nword{index}\n")
    monkeypatch.setattr(SqliteEngine, "batch_size", 10)
    library = sqlite_library(tmp_path, root)
    engine = library.engine
    assert isinstance(engine, SqliteEngine)
    seen = []
    real = SqliteEngine._set_durability

    def spy(self: SqliteEngine, batch: int) -> None:
        real(self, batch)
        seen.append(self._db.execute("PRAGMA synchronous").fetchone()[0])

    monkeypatch.setattr(SqliteEngine, "_set_durability", spy)
    try:
        library.refresh()
        assert seen[:2] == [0, 0] and seen[-1] == 1  # OFF for full batches, NORMAL for the last one
        write_note(root, "n00.md", "# Note 0\n\nchanged\n")
        library.refresh()
        assert seen[-1] == 1 and library.count() == 25
        assert titles(library.search("changed ")) == ["Note 0"]
    finally:
        library.close()


def test_snippet_marks_only_words_that_start_with_the_term() -> None:
    text = "explanation of the plan; foo_planet and replanned, Plans again"
    snippet = make_snippet(text, parse_query("plan").terms)
    assert "«plan»" in snippet and "«planet»" in snippet and "«Plans»" in snippet
    assert "ex«" not in snippet and "re«" not in snippet
    assert "explanation" in snippet and "replanned" in snippet


def test_snippet_cleans_markup_around_and_between_marks_once() -> None:
    text = "# Heading\n\nSome **plan** and `planner`   notes,\n\n[[planning]] done"
    snippet = make_snippet(text, parse_query("plan").terms)
    assert snippet == "Heading Some «plan» and «planner» notes, «planning» done"


class _RecordingEngine(SearchEngine):
    """Engine double that logs the order in which writes finish (they run on the writer thread)."""

    batch_size = 2

    def __init__(self, known: Dict[str, FileState], fail_on: int = 0) -> None:
        self.known = known
        self.fail_on = fail_on
        self.log: List[str] = []
        self.writes = 0

    def known_files(self) -> Dict[str, FileState]:
        return dict(self.known)

    def write(self, upserts: Sequence[IndexDocument], deletes: Iterable[str] = ()) -> None:
        self.writes += 1
        time.sleep(0.05)  # slow enough that the next batch is parsed meanwhile
        if self.writes == self.fail_on:
            raise IndexBusy("another program holds the index")
        self.log.append("write " + ",".join(sorted(Path(d.record.path).stem for d in upserts)))

    def rename(self, old_path: str, document: IndexDocument) -> None:
        self.log.append(f"rename {Path(old_path).stem}->{Path(document.record.path).stem}")


def test_batches_commit_in_order_in_the_background_and_a_rename_waits_for_them(tmp_path: Path) -> None:
    root = tmp_path / "notes"
    for name in ("a", "b", "c", "d", "e"):
        write_note(root, f"{name}.md", f"# {name}\n\nnote {name}\n", mtime=1000)
    moved = write_note(root, "z-moved.md", "# moved\n\nsame bytes as before\n", mtime=1000)
    digest = build_document(str(moved), str(root), moved.read_bytes(), 1).record.content_hash
    engine = _RecordingEngine({str(root / "gone.md"): FileState(1, 1, digest)})
    report = refresh_index(engine, [str(root)])
    assert (report.added, report.renamed, report.deleted) == (5, 1, 0)
    # Every batch committed before the call returned, in order; the rename came after the batch
    # before it had committed (it is parsed last, so after all of them).
    assert engine.log == ["write a,b", "write c,d", "write e", "rename gone->z-moved"]


def test_a_write_failing_on_the_writer_thread_reaches_the_caller(tmp_path: Path) -> None:
    root = tmp_path / "notes"
    for name in ("a", "b", "c", "d", "e"):
        write_note(root, f"{name}.md", f"# {name}\n\nnote {name}\n", mtime=1000)
    engine = _RecordingEngine({}, fail_on=2)
    with pytest.raises(IndexBusy):
        refresh_index(engine, [str(root)])
    assert engine.log == ["write a,b"]  # the batch before the failure stays committed


class _HeldEngine(_RecordingEngine):
    """Its first write waits until released: how far may parsing run ahead of a slow commit?"""

    def __init__(self) -> None:
        super().__init__({})
        self.prepared = 0
        self.first_write_started = threading.Event()
        self.release = threading.Event()

    def prepare_write(self, upserts: Sequence[IndexDocument]) -> object:
        self.prepared += 1
        return super().prepare_write(upserts)

    def write(self, upserts: Sequence[IndexDocument], deletes: Iterable[str] = ()) -> None:
        if self.writes == 0:
            self.first_write_started.set()
            assert self.release.wait(60)
        super().write(upserts, deletes)


def test_parsing_runs_ahead_of_a_slow_commit_by_a_bounded_number_of_batches(tmp_path: Path, monkeypatch) -> None:
    import queue

    from notes_search import indexer

    blocked = threading.Event()
    engine = _HeldEngine()

    class WatchedQueue(queue.Queue):  # tells when a batch has to wait for room behind the held write
        def put(self, item, block=True, timeout=None):  # type: ignore[no-untyped-def]
            if self.full() and engine.first_write_started.is_set():
                blocked.set()  # the writer takes nothing more until released: it stays full
            super().put(item, block, timeout)

    monkeypatch.setattr(indexer.queue, "Queue", WatchedQueue)
    root = tmp_path / "notes"
    for number in range(20):
        write_note(root, f"n{number:02d}.md", f"# n{number}\n\nnote {number}\n", mtime=1000)
    done: List[object] = []
    thread = threading.Thread(target=lambda: done.append(refresh_index(engine, [str(root)])))
    thread.start()
    assert engine.first_write_started.wait(60)
    assert blocked.wait(60)  # the parser stopped: the queue is full
    # The batch being written, WRITE_QUEUE waiting, and the one parsed and waiting to be queued.
    assert engine.prepared == 1 + indexer.WRITE_QUEUE + 1
    assert not done
    engine.release.set()
    thread.join(60)
    assert len(engine.log) == 10 and engine.log[0] == "write n00,n01"  # every batch, in order


def test_a_rename_onto_a_stale_indexed_path_leaves_no_orphaned_text_rows(tmp_path: Path) -> None:
    from notes_search.engines.sqlite_fts import SqliteEngine

    root = tmp_path / "notes"
    note = "---\ntitle: Moving plan\n---\nthe same words\n"
    old = write_note(root, "a.md", note)
    stale = write_note(root, "b.md", "---\ntitle: Stale\n---\nolder words\n")
    engine = SqliteEngine(str(tmp_path / "index"))
    try:
        engine.write([build_document(str(p), str(root), p.read_bytes(), 1) for p in (old, stale)])
        moved = build_document(str(stale), str(root), note.encode(), 2)
        engine.rename(str(old), moved)
        counts = [
            engine._reader.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("notes", "notes_fts", "notes_head")
        ]
        assert counts == [1, 1, 1]
        assert [hit.record.path for hit in engine.search(parse_query("older"), 5)] == []
        assert [hit.record.path for hit in engine.search(parse_query("moving"), 5)] == [str(stale)]
    finally:
        engine.close()


def test_a_new_index_file_has_pages_that_hold_an_fts5_index_page(tmp_path: Path) -> None:
    from notes_search.engines.sqlite_fts import SqliteEngine

    engine = SqliteEngine(str(tmp_path / "index"))
    try:
        (page_size,) = engine._db.execute("PRAGMA page_size").fetchone()
        ((_, pgsz),) = engine._db.execute("SELECT k, v FROM notes_fts_config WHERE k = 'pgsz'").fetchall()
        assert page_size >= int(pgsz)  # no overflow chain per FTS5 leaf page
    finally:
        engine.close()
