"""Issue 24 for notes-search, through the real plugin process: a damaged index (random bytes in its
middle), a full disk during the first index, a read-only data folder holding a good index, a data
folder that is a file, two instances on one data folder, and SIGKILL during an index.

Full and read-only folders are real: a small tmpfs and a read-only bind mount (the tests run as root).
Each test asserts what the user sees and what is on disk afterwards."""

import json
import os
import random
import signal
import sqlite3
import subprocess
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, List

import pytest
from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World
from notes_search_helpers import ENGINES, PLUGIN_DIR, write_note

WAIT = 60
# Words each note of the corpus holds, so the index is a few MB: the damage lands in its text.
_WORDS = ["granite", "harbour", "lantern", "meadow", "orchard", "pebble", "quarry", "saddle", "timber", "willow"]


def _mount_works() -> bool:
    if os.geteuid() != 0:
        return False
    probe = Path("/tmp") / f"notes-mount-probe-{os.getpid()}"
    probe.mkdir(exist_ok=True)
    try:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe)], capture_output=True)
        if mounted.returncode:
            return False
        subprocess.run(["umount", str(probe)], check=True)
        return True
    except OSError:
        return False
    finally:
        probe.rmdir()


MOUNTS = _mount_works()
needs_mount = pytest.mark.skipif(not MOUNTS, reason="needs root and mount (a real tmpfs or a read-only bind mount)")


@contextmanager
def _tmpfs(path: Path, size: str) -> Iterator[Path]:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], check=True)
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


@contextmanager
def _read_only(path: Path) -> Iterator[Path]:
    """`path` read-only in place (a bind mount of itself), as a folder remounted read-only looks."""
    subprocess.run(["mount", "--bind", str(path), str(path)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(path)], check=True)
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def _corpus(root: Path, count: int) -> None:
    rng = random.Random(24)
    for index in range(count):
        body = " ".join(rng.choice(_WORDS) + str(rng.randrange(400)) for _ in range(160))
        write_note(root, f"n{index // 500}/note-{index:05d}.md", f"# Note {index}\n\ncommon {body}\n")
    write_note(root, "target.md", "# Zeppelin logbook\n\nthe zeppelin flew over the common fields\n")


def _host(data: Path, root: Path, engine: str, write_settings: bool = True) -> PluginHost:
    if write_settings:
        data.mkdir(parents=True, exist_ok=True)
        (data / "settings.json").write_text(json.dumps({"roots": [str(root)], "engine": engine}))
    world = World(
        workspaces=[WorkspaceSpec(id=1, name="p", cwd=str(root), panes=[PaneSpec(id=11, kind="claude")])],
        focused_pane=11,
    )
    return PluginHost(str(PLUGIN_DIR), world=world, data_dir=str(data))


def _open(host: PluginHost) -> None:
    host.open_panel()
    host.wait_for_panel(lambda t: host.find(t, "search.query") is not None, WAIT)


def _titles(host: PluginHost, tree) -> List[str]:
    node = host.find(tree, "search.results")
    return [item["title"] for item in node["items"]] if node else []


def _text(host: PluginHost, tree) -> str:
    return "\n".join(host.texts(tree))


def _count_line(host: PluginHost, tree, count: int, engine: str) -> bool:
    return f"{count} notes · {engine}" in host.texts(tree)


def _ready(host: PluginHost, count: int, engine: str):
    return host.wait_for_panel(lambda t: _count_line(host, t, count, engine) and '"spinner"' not in json.dumps(t), WAIT)


def _no_raw_errors(host: PluginHost) -> None:
    """No toast or panel line with a raw OS error, a SQLite transaction message or a traceback."""
    shown = [message for message, _kind in host.notifications] + [_text(host, tree) for tree in host.panels]
    for text in shown:
        assert "[Errno" not in text and "transaction" not in text and ".tmp" not in text, text
    assert "Traceback" not in host.stderr_text(), host.stderr_text()[-3000:]
    assert host.violations == []


def _index_file(data: Path) -> Path:
    return data / "index" / "sqlite" / "notes.sqlite3"


def _sound_sqlite_index(data: Path, count: int) -> None:
    """The index on disk passes SQLite's and FTS5's integrity checks and holds `count` notes."""
    db = sqlite3.connect(str(_index_file(data)))
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        db.execute("INSERT INTO notes_fts (notes_fts) VALUES ('integrity-check')")
        db.execute("INSERT INTO notes_head (notes_head) VALUES ('integrity-check')")
        assert db.execute("SELECT count(*) FROM notes").fetchone()[0] == count
    finally:
        db.close()


def _aside(data: Path) -> List[str]:
    found = []
    for _folder, dirs, files in os.walk(data):
        found += [name for name in dirs + files if ".corrupt-" in name]
    return found


def _damage_middle(path: Path) -> None:
    """256 KB of random bytes in the middle of the file (its header and its end stay as they were)."""
    size = path.stat().st_size
    assert size > 3 * 256 * 1024, size
    with open(path, "r+b") as handle:
        handle.seek(size // 2 - 128 * 1024)
        handle.write(random.Random(28).randbytes(256 * 1024))


def _largest_file(folder: Path) -> Path:
    return max((p for p in folder.iterdir() if p.is_file()), key=lambda p: p.stat().st_size)


# -- damage -----------------------------------------------------------------------------------------


def test_random_bytes_in_the_middle_of_the_sqlite_index_are_moved_aside_and_rebuilt_by_themselves(tmp_path):
    root, data = tmp_path / "notes", tmp_path / "data"
    _corpus(root, 1500)
    with _host(data, root, "sqlite") as host:
        _open(host)
        _ready(host, 1501, "sqlite")
    _damage_middle(_index_file(data))
    db = sqlite3.connect(str(_index_file(data)))
    try:
        assert db.execute("PRAGMA quick_check").fetchall() != [("ok",)]  # the damage is real
    except sqlite3.DatabaseError:
        pass
    finally:
        db.close()
    with _host(data, root, "sqlite", write_settings=False) as host:
        _open(host)
        host.type("search.query", "zeppelin ")
        host.wait_for(lambda: any("moved aside and rebuilt" in m for m, _ in host.notifications), WAIT)
        tree = host.wait_for_panel(lambda t: _titles(host, t) == ["Zeppelin logbook"], WAIT)
        assert _count_line(host, tree, 1501, "sqlite")
        _no_raw_errors(host)
    assert len([name for name in _aside(data) if name.startswith("notes.sqlite3.corrupt-")]) == 1
    _sound_sqlite_index(data, 1501)


def test_random_bytes_in_the_whoosh_index_need_at_most_one_press_of_rebuild(tmp_path):
    root, data = tmp_path / "notes", tmp_path / "data"
    _corpus(root, 1500)
    with _host(data, root, "whoosh") as host:
        _open(host)
        _ready(host, 1501, "whoosh")
    _damage_middle(_largest_file(data / "index" / "whoosh"))
    with _host(data, root, "whoosh", write_settings=False) as host:
        _open(host)
        for query in ("zeppelin ", "common ", "gra", "willow1"):
            host.type("search.query", query)
        host.wait_idle(0.5, WAIT)
        host.type("search.query", "zeppelin ")
        tree = host.wait_for_panel(lambda t: '"spinner"' not in json.dumps(t), WAIT)
        if _titles(host, tree) != ["Zeppelin logbook"] or not _count_line(host, tree, 1501, "whoosh"):
            host.click("toolbar.rebuild")  # the one press the issue allows
            host.wait_for(lambda: any(m.startswith("Index rebuilt: 1501 notes") for m, _ in host.notifications), WAIT)
            host.type("search.query", "zeppelin  ")
            host.wait_for_panel(lambda t: _titles(host, t) == ["Zeppelin logbook"], WAIT)
        _no_raw_errors(host)
    with _host(data, root, "whoosh", write_settings=False) as host:  # and it stays sound on the next start
        _open(host)
        _ready(host, 1501, "whoosh")
        host.type("search.query", "zeppelin ")
        host.wait_for_panel(lambda t: _titles(host, t) == ["Zeppelin logbook"], WAIT)
        _no_raw_errors(host)


@pytest.mark.parametrize("engine", ENGINES)
def test_rebuild_after_a_write_failed_half_way_starts_over(tmp_path, engine):
    """The library level: a transaction left open by a failed write never fails Rebuild."""
    from notes_search.library import NotesLibrary
    from notes_search.settings import Settings

    root = tmp_path / "notes"
    _corpus(root, 20)
    library = NotesLibrary(str(tmp_path / "data"), Settings(roots=(str(root),), engine=engine))
    try:
        library.refresh()
        if engine == "sqlite":
            library.engine._db.execute("BEGIN")  # type: ignore[attr-defined]  # what a failed write leaves
        report = library.refresh(rebuild=True)
        assert report is not None and report.added == 21
        assert [i.record.title for i in library.search("zeppelin ").items] == ["Zeppelin logbook"]
    finally:
        library.close()


def test_a_malformed_answer_is_damage_and_a_lock_or_full_disk_is_not(tmp_path):
    from notes_search.engines import IndexBusy, IndexCorrupt, IndexUnwritable
    from notes_search.engines.sqlite_fts import SqliteEngine

    engine = SqliteEngine(str(tmp_path / "index"))
    try:
        for message, kind in (
            ("database disk image is malformed", IndexCorrupt),
            ("file is not a database", IndexCorrupt),
            ("database is locked", IndexBusy),
            ("database or disk is full", IndexUnwritable),
            ("attempt to write a readonly database", IndexUnwritable),
        ):
            assert isinstance(engine.translate(sqlite3.OperationalError(message)), kind), message
        assert isinstance(engine.translate(OSError(28, "No space left on device")), IndexUnwritable)
        assert engine.translate(ValueError("a bug")) is None
    finally:
        engine.close()


# -- a full disk -------------------------------------------------------------------------------------


@needs_mount
@pytest.mark.parametrize("engine", ENGINES)
def test_a_full_disk_during_the_first_index_says_so_and_refresh_finishes_once_there_is_room(tmp_path, engine):
    root = tmp_path / "notes"
    _corpus(root, 2500)
    with _tmpfs(tmp_path / "disk", "1m") as disk:
        data = disk / "data"
        with _host(data, root, engine) as host:
            _open(host)
            folder = str(data / "index" / engine)
            said = f"Could not save to {folder}: the disk is full"
            tree = host.wait_for_panel(lambda t: said in _text(host, t), WAIT)
            text = _text(host, tree)
            assert "Free some space there" in text
            assert "cannot rollback" not in text and '"spinner"' not in json.dumps(tree)
            assert not _aside(data)  # a full disk never moves the index aside
            subprocess.run(["mount", "-o", "remount,size=256m", str(disk)], check=True)  # the user makes room
            host.click("toolbar.refresh")
            _ready(host, 2501, engine)
            host.type("search.query", "zeppelin ")
            tree = host.wait_for_panel(lambda t: _titles(host, t) == ["Zeppelin logbook"], WAIT)
            assert "disk is full" not in _text(host, tree)  # the message went with the problem
            _no_raw_errors(host)
        assert not _aside(data)
        if engine == "sqlite":
            _sound_sqlite_index(data, 2501)


# -- a read-only data folder --------------------------------------------------------------------------


@needs_mount
@pytest.mark.parametrize("engine", ENGINES)
def test_a_read_only_data_folder_with_a_good_index_is_searched_and_never_moved_aside(tmp_path, engine):
    root, data = tmp_path / "notes", tmp_path / "data"
    _corpus(root, 300)
    with _host(data, root, engine) as host:
        _open(host)
        _ready(host, 301, engine)
    before = {p: p.stat().st_size for p in data.rglob("*") if p.is_file()}
    write_note(root, "later.md", "# Written later\n\nzeppelin again\n")
    with _read_only(data), _host(data, root, engine, write_settings=False) as host:
        _open(host)
        tree = host.wait_for_panel(lambda t: "the folder is read-only" in _text(host, t), WAIT)
        assert "Searching the index as it is" in _text(host, tree) or "could not be updated" in _text(host, tree)
        host.type("search.query", "zeppelin ")
        tree = host.wait_for_panel(lambda t: _titles(host, t) == ["Zeppelin logbook"], WAIT)
        host.choose("settings.engine", "whoosh" if engine == "sqlite" else "sqlite")
        host.wait_for(lambda: any("could not be saved" in m for m, _ in host.notifications), WAIT)
        _no_raw_errors(host)
    assert {p: p.stat().st_size for p in data.rglob("*") if p.is_file()} == before
    assert not _aside(data)


# -- a data folder that is a file ---------------------------------------------------------------------


def test_an_index_folder_that_is_a_file_is_a_clear_state_and_refresh_recovers(tmp_path):
    root, data = tmp_path / "notes", tmp_path / "data"
    _corpus(root, 10)
    data.mkdir()
    (data / "index").write_text("not a folder")
    with _host(data, root, "sqlite") as host:
        _open(host)
        tree = host.wait_for_panel(lambda t: "a file is in the way where a folder should be" in _text(host, t), WAIT)
        assert str(data / "index") in _text(host, tree)
        assert "Opening the notes index" not in _text(host, tree)
        (data / "index").unlink()  # what the message asks for
        host.click("toolbar.refresh")
        _ready(host, 11, "sqlite")
        _no_raw_errors(host)


def test_a_data_folder_that_is_a_file_is_a_clear_state(tmp_path, monkeypatch):
    from agentty_plugin import host as host_module

    root, data = tmp_path / "notes", tmp_path / "data"
    _corpus(root, 10)
    data.write_text("not a folder")
    real_makedirs = os.makedirs

    def makedirs(path, *args, **kwargs):  # the harness makes the data folder; Agentty's was a file
        if os.path.abspath(path) != str(data):
            real_makedirs(path, *args, **kwargs)

    monkeypatch.setattr(host_module.os, "makedirs", makedirs)
    with _host(data, root, "sqlite", write_settings=False) as host:
        _open(host)
        tree = host.wait_for_panel(lambda t: "a file is in the way where a folder should be" in _text(host, t), WAIT)
        assert "Opening the notes index" not in _text(host, tree)
        host.click("toolbar.refresh")
        host.wait_idle(0.5, WAIT)
        assert "a file is in the way where a folder should be" in _text(host, host.panel)
        _no_raw_errors(host)
    assert data.read_text() == "not a folder"


# -- two instances, and SIGKILL --------------------------------------------------------------------------


def _indexing(host: PluginHost, tree) -> bool:
    for text in host.texts(tree):
        if text.startswith("Indexing "):
            done, total = text[len("Indexing ") :].rstrip("…").split(" / ")
            return 0 < int(done) < int(total)
    return False


@pytest.mark.parametrize("engine", ENGINES)
def test_a_second_instance_started_while_the_first_indexes_corrupts_nothing(tmp_path, engine):
    root, data = tmp_path / "notes", tmp_path / "data"
    _corpus(root, 6000)
    first = _host(data, root, engine)
    second = _host(data, root, engine, write_settings=False)
    with first:
        _open(first)
        first.wait_for_panel(lambda t: _indexing(first, t), WAIT)
        assert first.process is not None
        os.kill(first.process.pid, signal.SIGSTOP)  # held mid-index, perhaps inside a write
        try:
            with second:
                _open(second)
                # The second opens the index while the first is stopped with part of it written.
                tree = second.wait_for_panel(lambda t: any(" notes · " in s for s in second.texts(t)), WAIT)
                shown = [s for s in second.texts(tree) if " notes · " in s]
                assert shown and int(shown[0].split()[0]) < 6001, shown  # the overlap really happened
                os.kill(first.process.pid, signal.SIGCONT)
                _ready(second, 6001, engine)
                _ready(first, 6001, engine)
                for host in (first, second):
                    host.type("search.query", "zeppelin ")
                    host.wait_for_panel(lambda t, h=host: _titles(h, t) == ["Zeppelin logbook"], WAIT)
                    assert not [n for n in host.notifications if n[1] == "error"], host.notifications
                    _no_raw_errors(host)
        finally:
            os.kill(first.process.pid, signal.SIGCONT)
    assert not _aside(data)
    if engine == "sqlite":
        _sound_sqlite_index(data, 6001)


def _killed_mid_index(data, root, engine, write_settings=True):
    """SIGKILL the plugin once its panel shows an index under way."""
    with _host(data, root, engine, write_settings=write_settings) as host:
        _open(host)
        host.wait_for_panel(lambda t: _indexing(host, t), WAIT)
        assert host.process is not None
        host.process.kill()
        host.process.wait()


@pytest.mark.parametrize("engine", ENGINES)
def test_sigkill_during_the_first_index_and_during_an_update_then_a_restart_is_whole(tmp_path, engine):
    root, data = tmp_path / "notes", tmp_path / "data"
    _corpus(root, 4000)
    _killed_mid_index(data, root, engine)
    with _host(data, root, engine, write_settings=False) as host:
        _open(host)
        _ready(host, 4001, engine)
    for index in range(4000, 6500):  # an update large enough to be caught mid-way at the next start
        write_note(root, f"more/extra-{index}.md", f"# Extra {index}\n\nadded later common words\n")
    _killed_mid_index(data, root, engine, write_settings=False)
    with _host(data, root, engine, write_settings=False) as host:
        _open(host)
        _ready(host, 6501, engine)
        host.type("search.query", "zeppelin ")
        host.wait_for_panel(lambda t: _titles(host, t) == ["Zeppelin logbook"], WAIT)
        _no_raw_errors(host)
    assert not _aside(data)
    if engine == "sqlite":
        _sound_sqlite_index(data, 6501)
