"""The issue's "Bad input, nothing lost" list, item by item, on both engines where it applies:
unreadable files, a 50 MB file, the file-count cap, a locked or corrupt index, and no writes into
the notes folders."""

import os
import sqlite3
from pathlib import Path

import pytest
from notes_search import indexer
from notes_search.library import NotesLibrary
from notes_search.safety import NoteAccessError
from notes_search.settings import Settings
from notes_search.sources import scan_roots
from notes_search_helpers import add_filler, titles, write_note


def snapshot(root: Path) -> dict:
    """Every entry under root with its size and modification time: any write would change it."""
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            found[os.path.relpath(path, root)] = (info.st_size, info.st_mtime_ns, info.st_mode)
    return found


def test_an_unreadable_file_is_counted_and_the_others_are_indexed(notes_root, make_library, monkeypatch):
    write_note(notes_root, "ok.md", "# Readable\n\nplain words\n")
    write_note(notes_root, "denied.md", "# Denied\n\nplain words\n")
    real_read = indexer._read

    def read(stat):
        if stat.path.endswith("denied.md"):  # tests run as root here, so chmod 000 would not stop a read
            raise PermissionError(13, "Permission denied", stat.path)
        return real_read(stat)

    monkeypatch.setattr(indexer, "_read", read)
    lib = make_library(notes_root)
    report = lib.refresh()
    assert (report.added, report.unreadable, report.skipped) == (1, 1, 1)
    assert titles(lib.search("plain ")) == ["Readable"]


def test_a_50_mb_file_is_skipped_unread_and_refused_when_opened(notes_root, make_library):
    write_note(notes_root, "small.md", "# Small\n\nfifty megabytes nearby\n")
    huge = notes_root / "huge.md"
    with open(huge, "wb") as handle:  # sparse: 50 MB of size without 50 MB of disk
        handle.truncate(50 * 1024 * 1024)
    lib = make_library(notes_root)
    report = lib.refresh()
    assert (report.added, report.too_large) == (1, 1)
    assert titles(lib.search("fifty ")) == ["Small"]
    with pytest.raises(NoteAccessError) as caught:
        lib.open(str(huge))
    assert caught.value.reason == "too_large"


def test_a_huge_number_of_files_is_capped_and_counted(notes_root):
    for index in range(30):
        write_note(notes_root, f"n{index:02d}.md", "# n\n")
    scan = scan_roots([str(notes_root)], max_files=20)
    assert (len(scan.files), scan.too_many) == (20, 10)


def test_a_vanished_root_is_reported_and_nothing_else_breaks(tmp_path, notes_root, make_library):
    write_note(notes_root, "kept.md", "# Kept\n\nstill here\n")
    gone = tmp_path / "unplugged"
    write_note(gone, "away.md", "# Away\n\nstill here\n")
    lib = make_library(notes_root, roots=(str(notes_root), str(gone)))
    assert lib.refresh().added == 2
    gone.rename(tmp_path / "elsewhere")
    report = lib.refresh()
    assert report.missing_roots == [str(gone)]
    assert titles(lib.search("still ")) == ["Kept"]


def test_a_locked_sqlite_index_keeps_serving_searches_and_updates_later(notes_root, tmp_path):
    from notes_search.engines import IndexBusy

    write_note(notes_root, "a.md", "# First\n\nshared word\n")
    lib = NotesLibrary(str(tmp_path / "data"), Settings(roots=(str(notes_root),), engine="sqlite"))
    lib.refresh()
    lib.engine._db.execute("PRAGMA busy_timeout = 100")  # type: ignore[attr-defined]
    other = sqlite3.connect(str(tmp_path / "data" / "index" / "sqlite" / "notes.sqlite3"), isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # what a second plugin process writing the index looks like
    write_note(notes_root, "b.md", "# Second\n\nshared word\n")
    try:
        with pytest.raises(IndexBusy):
            lib.refresh()
        assert titles(lib.search("shared ")) == ["First"]  # reads still work meanwhile
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert lib.refresh().added == 1
    assert sorted(titles(lib.search("shared "))) == ["First", "Second"]
    lib.close()


def test_a_locked_whoosh_index_keeps_serving_searches(notes_root, tmp_path):
    from notes_search.engines import IndexBusy
    from whoosh import index

    write_note(notes_root, "a.md", "# First\n\nshared word\n")
    lib = NotesLibrary(str(tmp_path / "data"), Settings(roots=(str(notes_root),), engine="whoosh"))
    lib.refresh()
    writer = index.open_dir(str(tmp_path / "data" / "index" / "whoosh")).writer()  # holds the lock
    write_note(notes_root, "b.md", "# Second\n\nshared word\n")
    try:
        with pytest.raises(IndexBusy):
            lib.refresh()
        assert titles(lib.search("shared ")) == ["First"]
    finally:
        writer.cancel()
    assert lib.refresh().added == 1
    lib.close()


def test_a_corrupt_whoosh_index_is_rebuilt(notes_root, tmp_path):
    write_note(notes_root, "a.md", "# Recovered\n\nworks again\n")
    data = tmp_path / "data"
    lib = NotesLibrary(str(data), Settings(roots=(str(notes_root),), engine="whoosh"))
    lib.refresh()
    lib.close()
    for path in (data / "index" / "whoosh").iterdir():
        if path.name != "schema-version":
            path.write_bytes(b"garbage" * 50)
    lib = NotesLibrary(str(data), Settings(roots=(str(notes_root),), engine="whoosh"))
    assert lib.refresh().added == 1
    assert titles(lib.search("works ")) == ["Recovered"]
    lib.close()


def test_indexing_searching_and_opening_never_write_into_the_notes_folder(notes_root, make_library):
    add_filler(notes_root, 5)
    write_note(notes_root, "a.md", "---\ntitle: Front\ntags: [x]\n---\nbody words\n")
    (notes_root / "bad.md").write_bytes(b"\xff\xfe not utf-8")
    (notes_root / "bin.md").write_bytes(b"\x00\x01")
    before = snapshot(notes_root)
    lib = make_library(notes_root)
    lib.refresh()
    lib.search("body ")
    lib.search("bod")
    lib.search("")
    lib.open(str(notes_root / "a.md"))
    lib.refresh(rebuild=True)
    lib.close()
    assert snapshot(notes_root) == before
