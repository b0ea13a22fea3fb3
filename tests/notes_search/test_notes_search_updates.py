"""Incremental index updates, persistence, safe walking and note access, on both engines."""

import os
from pathlib import Path

import pytest
from notes_search.safety import NoteAccessError
from notes_search.sources import scan_roots
from notes_search_helpers import add_filler, titles, write_note


def test_changes_additions_deletions_and_renames(notes_root: Path, make_library):
    add_filler(notes_root, 4)
    first = write_note(notes_root, "a.md", "# Apple\n\norchard notes\n", 2_000_000)
    second = write_note(notes_root, "b.md", "# Banana\n\nplantation notes\n", 2_000_001)
    lib = make_library(notes_root)
    assert lib.refresh().added == 6

    unchanged = lib.refresh()
    assert (unchanged.added, unchanged.changed, unchanged.deleted, unchanged.unchanged) == (0, 0, 0, 6)

    first.write_text("# Apple\n\nnow about cider presses\n", encoding="utf-8")
    os.utime(first, (2_000_010, 2_000_010))
    write_note(notes_root, "c.md", "# Cherry\n\nblossom notes\n", 2_000_011)
    (notes_root / "sub").mkdir()
    second.rename(notes_root / "sub" / "b-moved.md")
    report = lib.refresh()
    assert (report.added, report.changed, report.renamed, report.deleted) == (1, 1, 1, 0)
    assert titles(lib.search("cider ")) == ["Apple"]
    assert lib.search("orchard ").items == []
    assert [i.record.rel_path for i in lib.search("plantation ").items] == ["sub/b-moved.md"]
    assert titles(lib.search("in:sub")) == ["Banana"]

    (notes_root / "c.md").unlink()
    report = lib.refresh()
    assert report.deleted == 1
    assert lib.search("blossom ").items == []
    assert lib.count() == 6


def test_index_persists_between_opens(notes_root: Path, make_library):
    write_note(notes_root, "a.md", "# Persistent\n\nkept across restarts\n")
    lib = make_library(notes_root)
    lib.refresh()
    lib.close()
    again = make_library(notes_root)
    assert titles(again.search("restarts ")) == ["Persistent"]
    assert again.refresh().unchanged == 1


def test_removed_root_drops_its_notes(tmp_path: Path, notes_root: Path, make_library):
    other = tmp_path / "other"
    write_note(notes_root, "a.md", "# In main\n\nshared word\n")
    write_note(other, "b.md", "# In other\n\nshared word\n")
    lib = make_library(notes_root)
    lib.set_roots([str(notes_root), str(other)])
    lib.refresh()
    assert sorted(titles(lib.search("shared "))) == ["In main", "In other"]
    lib.set_roots([str(notes_root)])
    assert lib.refresh().deleted == 1
    assert titles(lib.search("shared ")) == ["In main"]


def test_stopped_refresh_keeps_committed_batches_and_resumes(notes_root: Path, make_library):
    for index in range(30):
        write_note(notes_root, f"n{index:02d}.md", f"# Note {index}\n\nbatchword\n")
    lib = make_library(notes_root)
    lib.engine.batch_size = 10
    calls = []
    report = lib.refresh(
        progress=lambda done, total: calls.append((done, total)), should_stop=lambda: len(calls) >= 2
    )
    assert report.stopped and 0 < lib.count() < 30
    assert calls[0] == (0, 30)
    report = lib.refresh()
    assert not report.stopped and lib.count() == 30 and report.added == 30 - report.unchanged


def test_walk_skips_hidden_links_out_of_root_huge_and_binary(tmp_path: Path, notes_root: Path, make_library):
    outside = tmp_path / "outside"
    write_note(outside, "secret.md", "# Outside\n\nleak\n")
    write_note(notes_root, "ok.md", "# Fine\n\nleak is a word here too\n")
    write_note(notes_root, ".git/HEAD.md", "# Hidden\n\nleak\n")
    write_note(notes_root, ".obsidian/x.md", "# Hidden\n\nleak\n")
    write_note(notes_root, "node_modules/pkg/readme.md", "# Vendor\n\nleak\n")
    (notes_root / "link-out").symlink_to(outside, target_is_directory=True)
    (notes_root / "file-out.md").symlink_to(outside / "secret.md")
    (notes_root / "loop").symlink_to(notes_root, target_is_directory=True)
    (notes_root / "huge.md").write_bytes(b"x" * (40 * 1024))
    (notes_root / "binary.md").write_bytes(b"\x00\x01\x02 leak")
    (notes_root / "latin1.md").write_bytes("caf\xe9 leak".encode("latin-1"))
    (notes_root / "image.png").write_bytes(b"\x89PNG")
    scan = scan_roots([str(notes_root)], max_note_bytes=32 * 1024)
    assert sorted(os.path.basename(p) for p in scan.files) == ["binary.md", "latin1.md", "ok.md"]
    assert scan.too_large == 1
    lib = make_library(notes_root, max_note_kb=32)
    report = lib.refresh()
    assert (report.added, report.too_large, report.binary, report.unreadable) == (1, 1, 1, 1)
    assert titles(lib.search("leak ")) == ["Fine"]


def test_open_note_only_inside_roots(tmp_path: Path, notes_root: Path, make_library):
    outside = write_note(tmp_path / "outside", "secret.md", "# Secret\n\nnope\n")
    note = write_note(notes_root, "sub/ok.md", "---\ntitle: Good\n---\nbody text\n")
    write_note(notes_root, ".hidden/h.md", "# H\n")
    write_note(notes_root, "locked.md", "---\nencrypted: true\n---\nx\n")
    (notes_root / "sneaky.md").symlink_to(outside)
    (notes_root / "big.md").write_bytes(b"a" * (20 * 1024))
    (notes_root / "config.json").write_text("{}")
    lib = make_library(notes_root, max_note_kb=16)
    opened = lib.open(str(note))
    assert opened.meta.title == "Good" and opened.body == "body text\n"
    assert lib.open("sub/ok.md").path == str(note.resolve())  # relative to a root
    cases = {
        str(outside): "outside_roots",
        str(notes_root / "sub" / ".." / ".." / "outside" / "secret.md"): "outside_roots",
        str(notes_root / "sneaky.md"): "outside_roots",
        str(notes_root / ".hidden" / "h.md"): "hidden",
        str(notes_root / "missing.md"): "missing",
        str(notes_root / "config.json"): "not_a_note",
        str(notes_root / "big.md"): "too_large",
        str(notes_root / "locked.md"): "locked",
        "": "invalid",
        "a\x00b.md": "invalid",
    }
    for path, reason in cases.items():
        with pytest.raises(NoteAccessError) as caught:
            lib.open(path)
        assert caught.value.reason == reason, path


def test_corrupt_sqlite_index_is_moved_aside_and_rebuilt(tmp_path: Path, notes_root: Path, engine_name: str):
    if engine_name != "sqlite":
        pytest.skip("file-level corruption handling is specific to the SQLite engine")
    from notes_search.library import NotesLibrary
    from notes_search.settings import Settings

    index_dir = tmp_path / "data" / "index" / "sqlite"
    index_dir.mkdir(parents=True)
    (index_dir / "notes.sqlite3").write_bytes(b"this is not a database" * 100)
    write_note(notes_root, "a.md", "# Recovered\n\nworks again\n")
    lib = NotesLibrary(str(tmp_path / "data"), Settings(roots=(str(notes_root),), engine="sqlite"))
    lib.refresh()
    assert titles(lib.search("works ")) == ["Recovered"]
    assert any(".corrupt-" in name for name in os.listdir(index_dir))
    lib.close()
