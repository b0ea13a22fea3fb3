"""App with a recording stand-in for the runtime: stale searches, settings and panel limits."""

import json
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

from agentty_plugin import Generation, ui
from notes_search.app import App
from notes_search.text import TEXT
from notes_search.view import State, render
from notes_search_helpers import write_note


class RecordingPlugin:
    """Only what App calls; panels are validated like the host does."""

    def __init__(self) -> None:
        self.language = "en"
        self.panels: List[Dict[str, Any]] = []
        self.notes: List[Any] = []
        self._counters: Dict[str, int] = {}
        self._lock = threading.Lock()

    def latest(self, key: str) -> Generation:
        return Generation(self._counters, key, self._lock)

    def set_panel(self, tree: Dict[str, Any]) -> None:
        ui.validate(tree)
        self.panels.append(tree)

    def notify(self, message: str, kind: str = "info") -> None:
        self.notes.append((message, kind))

    def log(self, *parts: Any) -> None:
        pass


def _titles(app: App) -> List[str]:
    assert app.state.outcome is not None
    return [item.record.title for item in app.state.outcome.items]


def _activated(plugin: RecordingPlugin, tmp_path: Path, root: Path, **settings: Any) -> App:
    """A App started on `root` with a data folder of its own (its worker begins indexing)."""
    app = App(plugin)  # type: ignore[arg-type]
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "settings.json").write_text(json.dumps({"roots": [str(root)], **settings}))
    app.activate(str(tmp_path / "data"))
    return app


def _wait_until(condition: Callable[[], bool], seconds: float = 30, poll: float = 0.02) -> None:
    """Poll until `condition` holds or `seconds` pass (the caller asserts what it needs)."""
    deadline = time.time() + seconds
    while not condition() and time.time() < deadline:
        time.sleep(poll)


def _ready(app: App) -> bool:
    return app.library is not None and app.state.phase == "ready"


def test_a_slow_old_query_never_overwrites_a_newer_one(tmp_path: Path):
    root = tmp_path / "notes"
    write_note(root, "a.md", "# Apple\n\napple pie\n")
    write_note(root, "b.md", "# Banana\n\nbanana bread\n")
    plugin = RecordingPlugin()
    app = _activated(plugin, tmp_path, root)
    _wait_until(lambda: _ready(app))
    assert app.library is not None
    real_search = app.library.search
    apple_searching = threading.Event()
    apple_may_finish = threading.Event()

    def slow_for_apple(text: str, limit: int = 30, focus=None):
        if text.startswith("apple"):
            apple_searching.set()
            apple_may_finish.wait(30)  # the older query finishes last, whatever the machine's speed
        return real_search(text, limit, focus)

    app.library.search = slow_for_apple  # type: ignore[method-assign]
    old = threading.Thread(target=app.search, args=("apple ",))
    old.start()
    assert apple_searching.wait(30)
    app.search("banana ")
    apple_may_finish.set()
    old.join()
    assert _titles(app) == ["Banana"]
    assert app.query == "banana "
    app.shutdown()


def test_the_fullest_panel_stays_within_host_limits():
    from notes_search.library import ResultItem, SearchOutcome
    from notes_search.notes import NoteRecord
    from notes_search.query import parse_query

    records = [
        NoteRecord(f"/n/{i}.md", "/n", f"{i}.md", "t" * 120, ("x",), (), 0, 1, "h", False) for i in range(30)
    ]
    outcome = SearchOutcome(parse_query("t"), [ResultItem(r, "s" * 400) for r in records], "search")
    state = State(
        phase="indexing",
        progress=(5, 10),
        outcome=outcome,
        roots=tuple(f"/r{i}" for i in range(16)),
        engine_name="sqlite",
        message=("error", "x"),
        skipped=3,
    )
    for language in ("en", "ja", "ko", "zh"):
        tree = render(state._replace(language=language), TEXT.for_language(language))
        ui.validate(tree)
        assert ui.count_elements(tree) < 400


def test_while_the_first_index_builds_the_panel_shows_progress_and_search_works(tmp_path: Path, monkeypatch):
    import json as json_

    from notes_search.engines.sqlite_fts import SqliteEngine

    root = tmp_path / "notes"
    for index in range(60):
        write_note(root, f"n{index:02d}.md", f"# Note {index}\n\ncommon words and number{index}\n")
    real_write = SqliteEngine.write_prepared  # what the first index's writer thread calls
    first_batch_written = threading.Event()
    index_may_go_on = threading.Event()

    def held_write(self, prepared, deletes=()):  # a big first index, held after its first batch
        real_write(self, prepared, deletes)
        first_batch_written.set()
        index_may_go_on.wait(30)

    monkeypatch.setattr(SqliteEngine, "batch_size", 10)
    monkeypatch.setattr(SqliteEngine, "write_prepared", held_write)
    plugin = RecordingPlugin()
    app = _activated(plugin, tmp_path, root, engine="sqlite")
    app.panel_opened()
    assert first_batch_written.wait(30)
    _wait_until(lambda: app.library is not None and 0 < app.library.count() < 60)
    assert app.state.phase == "indexing"  # the index is held: it cannot have finished meanwhile
    app.search("common ")  # what is indexed so far is found at once
    assert app.state.phase == "indexing" and 0 < len(_titles(app)) < 60
    shown = json_.dumps(plugin.panels[-1], ensure_ascii=False)
    assert '"spinner"' in shown and "Indexing " in shown and " / 60" in shown
    index_may_go_on.set()
    _wait_until(lambda: app.state.phase == "ready" and app.state.note_count == 60, poll=0.05)
    assert app.state.phase == "ready" and app.state.note_count == 60
    app.search("number59 ")
    assert _titles(app) == ["Note 59"]
    assert '"spinner"' not in json_.dumps(plugin.panels[-1])
    app.shutdown()


def test_with_the_folders_watched_a_search_never_asks_for_a_walk(tmp_path: Path):
    root = tmp_path / "notes"
    write_note(root, "a.md", "# Apple\n\napple pie\n")
    app = _activated(RecordingPlugin(), tmp_path, root)
    _wait_until(lambda: _ready(app))
    asked: List[str] = []
    app.queue = lambda job, announce=False: asked.append(job)  # type: ignore[method-assign]
    app._last_refresh = 0.0  # the last walk is long ago
    assert app.watcher is not None  # Linux: inotify through ctypes
    app.search("apple ")
    assert asked == [] and _titles(app) == ["Apple"]
    watcher, app.watcher = app.watcher, None  # where nothing watches, a stale search asks for a walk
    app.search("apple ")
    assert asked == ["refresh"]
    app.watcher = watcher
    app.shutdown()


def test_a_rerun_after_the_index_changed_never_draws_an_older_text_over_a_newer_search(tmp_path: Path):
    """The worker re-runs the current query when a refresh ends; a keystroke landing at that moment
    ("an" -> "ans") must end with the results for "ans" (once the panel stayed on "an")."""
    root = tmp_path / "notes"
    write_note(root, "a.md", "# Answer\n\nanswers here\n")
    write_note(root, "b.md", "# Another\n\nanother thing\n")
    plugin = RecordingPlugin()
    app = _activated(plugin, tmp_path, root)
    _wait_until(lambda: _ready(app))
    app.search("an")
    rerun_done = threading.Event()
    real_latest = plugin.latest
    hooked = [False]

    def latest(key: str) -> Generation:
        # The user's "ans" has taken its generation: the worker's re-run starts right then, on its own thread.
        generation = real_latest(key)
        if not hooked[0] and key == "search":
            hooked[0] = True
            threading.Thread(target=lambda: (app.search(current=True), rerun_done.set())).start()
            rerun_done.wait(0.5)  # code that takes the generation outside its lock lets the re-run finish here
        return generation

    plugin.latest = latest  # type: ignore[method-assign]
    app.search("ans")
    assert rerun_done.wait(30)
    assert app.query == "ans"
    assert app.state.outcome is not None and app.state.outcome.query.text == "ans"
    app.shutdown()


def test_after_a_first_index_in_bulk_the_app_fills_the_lexicon(tmp_path: Path, monkeypatch):
    from notes_search.engines import lexicon
    from notes_search.engines.sqlite_fts import SqliteEngine

    monkeypatch.setattr(SqliteEngine, "batch_size", 5)  # 12 notes: two full (bulk) batches
    root = tmp_path / "notes"
    for index in range(12):
        write_note(root, f"n{index:02d}.md", f"# Note {index}\n\nmeeting minutes {index}\n")
    plugin = RecordingPlugin()
    app = _activated(plugin, tmp_path, root, engine="sqlite")
    try:

        def filled() -> bool:
            library = app.library
            return library is not None and app.state.note_count == 12 and lexicon.is_complete(library.engine._reader)

        _wait_until(filled)
        assert filled()
        assert app.library is not None and app.library.engine.completions("meeti", 32) == [("meeting", 12)]
    finally:
        app.shutdown()


def test_the_panel_while_indexing_shows_progress_not_a_stale_count_and_never_no_match_beside_results():
    from notes_search.library import ResultItem, SearchOutcome
    from notes_search.notes import NoteRecord
    from notes_search.query import parse_query

    t = TEXT.for_language("en")
    record = NoteRecord("/n/a.md", "/n", "a.md", "Alpha", (), (), 0, 1, "h", False)
    one = SearchOutcome(parse_query("alpha"), [ResultItem(record, "")], "search")
    none = SearchOutcome(parse_query("zzz"), [], "search")
    indexing = State(phase="indexing", progress=(17_500, 20_000), note_count=0, engine_name="sqlite", outcome=one)
    texts = json.dumps(render(indexing, t), ensure_ascii=False)
    assert "Indexing 17500 / 20000" in texts and "0 notes" not in texts
    assert "No notes match" not in texts and "1 result for «alpha»" in texts
    ready = State(phase="ready", note_count=20_000, engine_name="sqlite", outcome=none)
    texts = json.dumps(render(ready, t), ensure_ascii=False)
    assert "20000 notes · sqlite" in texts and "No notes match «zzz»" in texts
