"""The controller: owns the panel state and its lock, indexes in the background, searches as the user
types, runs the note buttons and links, and alone calls the host (main.py only wires handlers here)."""

import errno
import os
import threading
import time
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple

from agentty_plugin import ActivateInfo, AgenttyError, CommandCall, Context, Plugin, UIEvent, UrlRequest
from agentty_plugin.state import JsonFile

from . import ids
from .delivery import insert_refusal, session_agent, session_folder
from .settings import ENGINE_CHOICES, MAX_ROOTS, Settings
from .sources import expand
from .text import TEXT
from .view import State, render

if TYPE_CHECKING:
    from .engines import IndexUnwritable
    from .indexer import RefreshReport
    from .library import NotesLibrary
    from .safety import NoteAccessError, OpenedNote
    from .watcher import NoteWatcher

# The index, its engines, the watcher and the note readers (library, engines, watcher, safety,
# prompts) are imported inside the methods that use them, on the worker thread after the first
# panel: importing them first made that panel 2.3x the minimal plugin's (bench_runtime "First panel").

RESCAN_SECONDS = 60.0  # while the panel is open, look for changed notes this often
SEARCH_RESCAN_SECONDS = 15.0  # and when a search runs, if the last look is older than this
# With the folders watched (watcher.py) saves arrive by themselves: the walk of every note (0.9 s of
# stat at 100,000 notes, bench_notes_search) runs only this often, as a safety net, never per search.
WATCHED_RESCAN_SECONDS = 1800.0
PARTIAL_SEARCH_SECONDS = 1.0  # while indexing, re-run the query this often so results fill in
# The worker opens the index once the first panel is out, or this long after activation if the panel
# is not opened: its imports would otherwise compete with that panel for the interpreter.
STARTUP_OPEN_SECONDS = 1.0
# IndexUnwritable's reasons as the error numbers agentty_plugin.files puts into words.
_REASON_ERRNO = {
    "disk_full": errno.ENOSPC,
    "read_only": errno.EROFS,
    "permission": errno.EACCES,
    "not_folder": errno.ENOTDIR,
    "io": errno.EIO,
}
# Another instance holds the index's write lock (Agentty starts a plugin again while the old process
# exits): try again this soon instead of at the next routine rescan.
BUSY_RETRY_SECONDS = 3.0


class App:
    """The controller, one per plugin process: main.py registers its methods as the handlers of ids.py's
    elements and commands. The panel state is an immutable State; update() is the only way it changes."""

    def __init__(self, plugin: Plugin) -> None:
        self.plugin = plugin
        self.state = State()
        self.library: Optional[NotesLibrary] = None
        self.settings = Settings()
        self.settings_file: Optional[JsonFile] = None
        self.lock = threading.RLock()  # handlers run on several threads; the state changes under this lock
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._drawn = threading.Event()  # the first panel is out: the worker may start its imports
        self._jobs: Dict[str, bool] = {}  # job name -> announce the result when done
        self._panel_open = False
        self._last_refresh = 0.0
        self._worker: Optional[threading.Thread] = None
        self.watcher: Optional[NoteWatcher] = None
        self._searches = 0  # searches that draw, so a background re-run knows it was overtaken
        self.query = ""  # the newest query searched (the results drawn name their own: outcome.query)
        self._retry: Optional[threading.Timer] = None  # a refresh after another instance let go of the index
        self._checked = False  # the index was read in full once since the start (library.check)
        self._recovering = False  # a damaged index was moved aside at open: say so when the new one is made
        self._write_problem: Optional[Tuple[str, str]] = None  # the message of the last failed refresh
        self.data_dir = ""

    # -- helpers -----------------------------------------------------------------------------------

    def t(self, key: str, **values: Any) -> str:
        return TEXT.get(self.plugin.language, key, **values)

    def update(self, **changes: Any) -> None:
        """The only way the state changes: the next snapshot under the lock, then a redraw of it. A change
        that leaves every field as it was draws nothing (a routine rescan runs while the user types)."""
        with self.lock:
            state = self.state
            if all(getattr(state, name) == value for name, value in changes.items()):
                return
            self.state = state._replace(**changes)
            self.redraw()

    def redraw(self) -> None:
        """Draw the current snapshot, with the language and the clock of this moment."""
        with self.lock:
            language = self.plugin.language
            shown = self.state._replace(language=language, now=time.time())
            self.plugin.set_panel(render(shown, TEXT.for_language(language)))
        self._drawn.set()

    def say(self, style: str, text: str, notify: Optional[str] = None) -> None:
        """Show feedback in the panel (and as a toast for results of actions)."""
        self.update(message=(style, text))
        if notify:
            self.plugin.notify(text, notify)

    def access_error(self, problem: "NoteAccessError") -> str:
        return self.t("error_" + problem.reason, path=problem.path, kb=self.settings.max_note_kb)

    # -- lifecycle ---------------------------------------------------------------------------------

    def activated(self, info: ActivateInfo) -> None:
        self.activate(info.plugin.data_dir or self.plugin.data_dir)

    def activate(self, data_dir: str) -> None:
        self.data_dir = data_dir
        try:
            os.makedirs(data_dir, exist_ok=True)
        except OSError as problem:
            # A data folder that is a file, or on a full or read-only disk: the worker's first open
            # fails with these words (and Refresh tries again); the settings are the defaults.
            self.plugin.log("notes-search: the data folder cannot be made:", repr(problem))
        else:
            self.settings_file = JsonFile(os.path.join(data_dir, "settings.json"))
            self.settings = Settings.from_dict(self.settings_file.load({}))
        changes: Dict[str, Any] = {
            "roots": tuple(self.settings.effective_roots()),
            "engine_preference": self.settings.engine,
        }
        if self.settings_file is not None and self.settings_file.last_problem:
            # The unreadable file was kept aside, not overwritten; say so instead of failing.
            self.plugin.log(self.settings_file.last_problem)
            changes["message"] = ("error", self.t("settings_unreadable"))
        self.update(**changes)
        self._worker = threading.Thread(target=self._work, name="notes-index", daemon=True)
        self._worker.start()

    def shutdown(self) -> None:
        self._stopping.set()
        self._wake.set()
        self._drawn.set()
        if self._retry is not None:
            self._retry.cancel()
        self._stop_watching()
        if self._worker is not None:
            self._worker.join(1.0)
        if self.library is not None:
            self.library.close()  # a search or refresh still running finishes first, then it closes

    def panel_opened(self, context: Optional[Context] = None) -> None:
        self._panel_open = True
        self.redraw()
        if self.watcher is None and time.monotonic() - self._last_refresh > 5:
            self.queue("refresh")

    def context_changed(self, context: Optional[Context] = None) -> None:
        """Another pane got the focus: the empty query's related notes follow it (else only redraw)."""
        if self._panel_open and not self.query.strip() and self.library is not None:
            self.search(current=True)
        else:
            self.redraw()  # the language may have changed

    def panel_closed(self, context: Optional[Context] = None) -> None:
        self._panel_open = False

    def queue(self, job: str, announce: bool = False) -> None:
        with self.lock:
            self._jobs[job] = self._jobs.get(job, False) or announce
        self._wake.set()

    # -- background worker: opening the index and keeping it current --------------------------------

    def storage_problem(self, problem: "IndexUnwritable") -> str:
        """A folder that cannot be written, in the user's words: what, where, and what to do."""
        from agentty_plugin.files import describe_os_error

        number = _REASON_ERRNO.get(problem.reason, errno.EIO)
        error = OSError(number, os.strerror(number), problem.folder)
        return describe_os_error(error, self.plugin.language, path=problem.folder)

    def _open_library(self) -> bool:
        from .engines import EngineUnavailable, IndexBusy, IndexCorrupt, IndexUnwritable
        from .library import NotesLibrary

        try:
            library = NotesLibrary(self.data_dir, self.settings, roots=self.state.roots)
        except EngineUnavailable:
            error = self.t("engine_unavailable")
        except IndexUnwritable as problem:
            error = self.t("index_unopened", problem=self.storage_problem(problem))
        except IndexBusy:
            # Another instance holds the index while it makes its tables: try again shortly.
            error = self.t("index_busy")
            self._retry_later()
        except (IndexCorrupt, OSError) as problem:
            error = self.t("index_failed", error=str(problem)[:200])
        else:
            self.library = library
            self.update(engine_name=library.engine_name, note_count=library.count(), phase="indexing")
            if library.fell_back:
                self.say("muted", self.t("engine_fallback", engine=library.engine_name))
            self._say_if_read_only()
            if library.moved_aside:
                self.plugin.log("notes-search: the index was damaged and moved aside:", library.moved_aside)
                self._recovering = True
                self.say("error", self.t("index_damaged"))
            return True
        self.update(phase="failed", error=error)
        return False

    def _say_if_read_only(self) -> None:
        problem = self.library.unwritable() if self.library is not None else None
        if problem is not None:
            self.say("muted", self.t("index_read_only", problem=self.storage_problem(problem)))

    def _retry_later(self) -> None:
        """Run a refresh again in BUSY_RETRY_SECONDS (another instance holds the index meanwhile)."""
        if self._retry is not None and self._retry.is_alive():
            return
        self._retry = threading.Timer(BUSY_RETRY_SECONDS, lambda: self.queue("refresh"))
        self._retry.daemon = True
        self._retry.start()

    def _recover(self, problem: Exception) -> None:
        """The index is damaged: move it aside and build a new one from the notes, saying so."""
        self.plugin.log("notes-search: the index is damaged, rebuilding it:", repr(problem))
        library = self.library
        if library is None:
            return
        self.update(note_count=0, outcome=None, message=("error", self.t("index_damaged")))
        library.reset(damaged=True)
        self.update(engine_name=library.engine_name)
        self._checked = True  # the new index is sound
        self._refresh(rebuild=False, announce=False, recovering=True)

    # -- watching the folders: a saved note is indexed on the watcher's thread, at once ---------------

    def _start_watching(self) -> None:
        from .watcher import NoteWatcher

        self._stop_watching()
        watcher = NoteWatcher(self.state.roots, self._notes_changed, lambda: self.queue("refresh"))
        if watcher.start():
            self.watcher = watcher
        else:
            self.plugin.log("notes-search: folders are walked for changes:", watcher.failure)

    def _stop_watching(self) -> None:
        watcher, self.watcher = self.watcher, None
        if watcher is not None:
            watcher.close()

    def _notes_changed(self, paths: Any) -> None:
        from .engines import IndexBusy, IndexCorrupt, IndexUnwritable

        library = self.library
        if library is None or self._stopping.is_set():
            return
        try:
            report = library.update_paths(paths)
        except IndexBusy:
            self.queue("refresh")  # another program writes the index: the worker retries later
            return
        except IndexCorrupt:
            self.queue("recover")  # the worker moves it aside and rebuilds it
            return
        except IndexUnwritable:
            self.queue("refresh")  # the worker says why, in words
            return
        except Exception as problem:  # keep watching: the next save may well succeed
            self.plugin.log("notes-search: updating saved notes failed:", repr(problem))
            return
        if report.added + report.changed + report.deleted:
            self.update(note_count=library.count())
            self.search(current=True)

    def _routine_refresh_due(self) -> bool:
        if self.watcher is None:
            return self._panel_open
        return time.monotonic() - self._last_refresh > WATCHED_RESCAN_SECONDS

    def _work(self) -> None:
        self._drawn.wait(STARTUP_OPEN_SECONDS)
        if self._stopping.is_set():
            return
        from .engines import IndexBusy, IndexCorrupt, IndexUnwritable

        if self._open_library():
            self.search(current=True)  # what the stored index knows, at once; the refresh follows
            self._start_watching()  # before the walk, so nothing saved meanwhile is missed
            self.queue("refresh")
        while not self._stopping.is_set():
            self._wake.wait(RESCAN_SECONDS)
            self._wake.clear()
            with self.lock:
                jobs, self._jobs = self._jobs, {}
            if not jobs and self._routine_refresh_due():
                jobs = {"refresh": False}
            if not jobs or self._stopping.is_set():
                continue
            try:
                try:
                    self._run_jobs(jobs)
                except IndexCorrupt as problem:
                    self._recover(problem)  # damage found by a query, a write or the check
            except IndexBusy:
                # Another program writes the index: what is indexed stays searchable; retry shortly.
                self._refreshed_count()
                self._say_write_problem("muted", self.t("index_busy"))
                self._retry_later()
            except IndexUnwritable as problem:
                # A full disk, a read-only or unwritable folder: what is indexed stays searchable, and
                # nothing is moved aside; Refresh tries again once the user has made room.
                self.plugin.log("notes-search: the index cannot be written:", repr(problem))
                self._refreshed_count()
                self._say_write_problem("error", self.t("index_unwritable", problem=self.storage_problem(problem)))
            except IndexCorrupt as problem:  # damaged again while being rebuilt: say so, stop there
                self.plugin.log("notes-search: rebuilding the damaged index failed:", repr(problem))
                self.update(phase="ready" if self.library is not None else "failed")
                self.say("error", self.t("index_failed", error=str(problem)[:200]))
            except Exception as problem:  # keep the worker alive: the next job may well succeed
                self.plugin.log("notes-search: indexing failed:", repr(problem))
                self.update(phase="ready" if self.library is not None else "failed")
                self.say("error", self.t("index_failed", error=str(problem)[:200]))

    def _say_write_problem(self, style: str, text: str) -> None:
        self._write_problem = (style, text)  # cleared by the next refresh that works
        self.say(style, text)

    def _refreshed_count(self) -> None:
        """After a refresh stopped short: the count of what the index holds, and the panel out of "indexing"."""
        library = self.library
        count = library.count() if library is not None else 0
        self.update(note_count=count, phase="ready" if library is not None else "failed")

    def _run_jobs(self, jobs: Dict[str, bool]) -> None:
        if "recover" in jobs and self.library is not None:
            from .engines import IndexCorrupt

            raise IndexCorrupt("found by a search")
        if self.library is None:
            if "rebuild" in jobs:
                import shutil

                # Rebuild after a failed open: start from an empty index folder (notes are untouched).
                shutil.rmtree(os.path.join(self.data_dir, "index"), ignore_errors=True)
            if not self._open_library():
                return
            self._start_watching()
        assert self.library is not None
        if "watch" in jobs:
            self._start_watching()  # the folders changed
        if "engine" in jobs:
            self.library.switch_engine(self.settings.engine)
            self.update(engine_name=self.library.engine_name, note_count=self.library.count())
            self._say_if_read_only()
            self.search(current=True)  # results and name of the new engine at once
        self._refresh(rebuild="rebuild" in jobs, announce=any(jobs.values()))
        if not self._checked and not self._stopping.is_set():
            # Once per start, after the refresh: a query may never read the damaged part of an index.
            self._checked = True
            self.library.check()

    def _refresh(self, rebuild: bool, announce: bool, recovering: bool = False) -> None:
        library = self.library
        if library is None:
            return
        if rebuild:
            self.update(note_count=0, phase="indexing")
            library.reset(damaged=False)  # a new, empty index: what was written before cannot fail it
            self.update(engine_name=library.engine_name)
        last_search = [time.monotonic()]
        # A routine rescan that finds nothing new draws nothing (it runs while the user types).
        quiet = not rebuild and not announce and self.state.phase == "ready"

        def progress(done: int, total: int) -> None:
            now = time.monotonic()
            if not total and self.state.phase == "ready":
                return  # a routine rescan that found nothing to write: nothing to draw
            # Once per written batch, in one panel with the re-run results when they are due (a second
            # panel would wait for the next of the runtime's turns, 52 ms apart).
            changes: Dict[str, Any] = {"phase": "indexing", "progress": (done, total)}
            if now - last_search[0] > PARTIAL_SEARCH_SECONDS:
                last_search[0] = now
                self.search(current=True, redraw=False, also=changes)
            else:
                self.update(**changes)

        if not quiet:
            self.update(progress=(0, 0), phase="indexing")
        library.set_roots(list(self.state.roots))
        report = library.refresh(progress=progress, should_stop=self._stopping.is_set)
        self._last_refresh = time.monotonic()
        if report is None or self._stopping.is_set():
            return
        with self.lock:
            before = (self.state.phase, self.state.note_count, self.state.missing_roots, self.state.skipped)
            # One snapshot: a reader that sees "ready" sees the finished count too.
            self.update(
                note_count=library.count(),
                phase="ready",
                missing_roots=tuple(report.missing_roots),
                skipped=report.skipped,
            )
            after = (self.state.phase, self.state.note_count, self.state.missing_roots, self.state.skipped)
        changed = report.added + report.changed + report.renamed + report.deleted
        if changed or before != after or not quiet:
            self.search(current=True)
        if recovering or self._recovering:
            self._recovering = False
            self.say("success", self.t("index_recovered", count=self.state.note_count), notify="success")
        elif announce:
            self._announce(report, rebuild)
        elif self.state.message is not None and self.state.message == self._write_problem:
            self.update(message=None)  # a refresh that worked ends what a failed one said (a full disk, a lock)
        if not self._stopping.is_set():
            library.settle()  # after the panel above: searches meanwhile ask FTS5 (engines/lexicon.py)

    def _announce(self, report: "RefreshReport", rebuild: bool) -> None:
        if rebuild:
            text = self.t("rebuilt", count=self.state.note_count, seconds=round(report.seconds, 1))
        else:
            changed = report.changed + report.renamed
            text = self.t("updated", added=report.added, changed=changed, deleted=report.deleted)
        self.say("success", text, notify="success")

    # -- searching ----------------------------------------------------------------------------------

    def search(
        self,
        text: Any = "",
        redraw: bool = True,
        set_field: bool = False,
        current: bool = False,
        also: Optional[Dict[str, Any]] = None,
    ) -> None:
        """Run a query; only the newest query may replace the results (typing is fast, searches overlap).

        `current` runs the query as it is when the search starts (the worker's re-runs after the index
        changed): read under the lock with the generation, so a re-run can never draw an older text
        over the user's newer search ("an" over "ans" when a refresh ended between two keystrokes).
        A background re-run (redraw=False, while the first index fills in) takes no generation of its
        own: it must never make the user's newest search, running beside it, give up its panel; its
        results are kept only if no other search started meanwhile. `also`: other changes drawn with
        the results, in the same panel (the indexing progress), or alone if the results are dropped."""
        also = also or {}
        text = text if isinstance(text, str) else ""
        with self.lock:
            if current:
                text = self.query
            # Taken under the lock: the order of generations is the order in which self.query is set.
            generation = self.plugin.latest("search") if redraw else None
            if generation is not None:
                self._searches += 1
            started_after = self._searches
            # Not state: a keystroke draws once, with its results. A redraw for the query alone took the
            # panel's turn, and the results then waited for the next one (keystroke -> panel p95 58 ms
            # instead of 16 at 100,000 notes, bench_notes_search).
            self.query = text
            if set_field:
                self.update(field_value=text, preview=None)
        library = self.library
        if library is None:
            if also:
                self.update(**also)
            self.redraw()  # the worker searches again once the index is open
            return
        stale = time.monotonic() - self._last_refresh > SEARCH_RESCAN_SECONDS
        if stale and self.watcher is None and not library.is_refreshing:
            self._last_refresh = time.monotonic()
            self.queue("refresh")  # notes edited since the last look are picked up as the user searches
        # With an empty query, notes about what the focused pane works on come first.
        context = getattr(self.plugin, "context", None)  # test doubles of the plugin may have none
        from .engines import IndexCorrupt

        try:
            outcome = library.search(text, focus=context.cwd if context is not None else None)
        except IndexCorrupt:
            # Damage met by a query: the worker moves the index aside and rebuilds it (said on the panel).
            self.update(message=("error", self.t("index_damaged")), **also)
            self.queue("recover")
            return
        with self.lock:  # checked where the outcome is stored: a newer search cannot slip in between
            overtaken = generation is not None and not generation.is_current
            # A background re-run gives way to a user's search started meanwhile: its panel has the newer results.
            overtaken = overtaken or (generation is None and (self._searches != started_after or self.query != text))
            if overtaken:
                if also:
                    self.update(**also)
                return
            self.update(outcome=outcome, **also)  # one panel per keystroke: its results

    # -- settings -------------------------------------------------------------------------------------

    def _save_settings(self, settings: Settings) -> None:
        """Use the settings now; keep them for the next start if the data folder takes the write."""
        from agentty_plugin.files import describe_os_error

        from .engines import IndexUnwritable

        self.settings = settings
        if self.settings_file is None:
            problem = self.storage_problem(IndexUnwritable("not_folder", self.data_dir))
        else:
            try:
                self.settings_file.save(settings.to_dict())
                return
            except OSError as error:  # never a raw "[Errno 28] …" naming the temp file
                problem = describe_os_error(error, self.plugin.language, path=self.data_dir)
        self.say("error", self.t("settings_unsaved", problem=problem), notify="error")

    def folder_typed(self, value: Any) -> None:
        """Remember the folder field's text: the Add button's click event does not carry it."""
        if isinstance(value, str):
            self.update(folder_draft=value)

    def add_folder(self, value: Any) -> None:
        raw = value if isinstance(value, str) else ""
        path = expand(raw) if raw.strip() and "\x00" not in raw else ""
        self.update(folder_draft=raw)
        if not path or not os.path.isdir(path):
            self.say("error", self.t("folder_not_found", path=raw.strip() or "—"))
            return
        roots = list(self.state.roots)
        if any(os.path.realpath(path) == os.path.realpath(r) for r in roots):
            self.say("error", self.t("folder_duplicate", path=path))
            return
        if len(roots) >= MAX_ROOTS:
            self.say("error", self.t("folder_limit", count=MAX_ROOTS))
            return
        self._set_roots([*roots, path])
        self.update(folder_draft="")
        self.say("success", self.t("folder_added", path=path))

    def remove_folder(self, path: Optional[str]) -> None:
        if path not in self.state.roots:
            return
        self._set_roots([r for r in self.state.roots if r != path])
        self.say("muted", self.t("folder_removed", path=path))

    def _set_roots(self, roots: Any) -> None:
        self.update(roots=tuple(roots))
        self._save_settings(Settings(tuple(roots), self.settings.engine, self.settings.max_note_kb))
        self.queue("refresh")
        self.queue("watch")

    def set_engine(self, value: Any) -> None:
        if value not in ENGINE_CHOICES or value == self.settings.engine:
            return
        self.update(engine_preference=value)
        self._save_settings(Settings(self.settings.roots, value, self.settings.max_note_kb))
        self.queue("engine")

    # -- the note buttons: insert into the focused agent, start a session, preview, reveal ------------
    # Every path is checked by safety.py before it is read or revealed.

    def _open(self, path: str, allow_locked: bool = False) -> "Optional[OpenedNote]":
        from .safety import NoteAccessError, open_note

        try:
            return open_note(path, self.state.roots, self.settings.max_note_bytes, allow_locked=allow_locked)
        except NoteAccessError as problem:
            self.say("error", self.access_error(problem), notify="error")
        except OSError as problem:
            self.say("error", self.t("error_missing", path=getattr(problem, "filename", path) or path))
        return None

    def _fresh_context(self, fallback: Context) -> Context:
        try:
            return self.plugin.get_context()
        except AgenttyError:
            return fallback

    def _inject(self, note: "OpenedNote", text: str, **options: Any) -> Optional[Dict[str, Any]]:
        try:
            result: Dict[str, Any] = self.plugin.inject_prompt(text, title=note.meta.title[:60], **options)
            return result
        except AgenttyError as problem:
            self.say("error", self.t("error_host", message=problem.message), notify="error")
            return None

    def _show_preview(self, note: "OpenedNote") -> None:
        try:
            modified: Optional[float] = os.path.getmtime(note.path)
        except OSError:
            modified = None  # the preview then shows no "modified" line
        self.update(preview=note, preview_mtime=modified, message=None)

    def insert(self, path: str, context: Context) -> None:
        """Type the note into the focused agent, unsent, only if that agent is idle."""
        from .prompts import insert_prompt

        pane = self._fresh_context(context).pane
        refusal = insert_refusal(pane)
        if refusal is not None:
            status = self.t("status_" + str(pane.status)) if pane is not None and pane.is_busy else ""
            kind = pane.kind if pane is not None else ""
            self.say("error", self.t(refusal, kind=kind, status=status), notify="warning")
            return
        note = self._open(path)
        if note is None:
            return
        result = self._inject(note, insert_prompt(note, self.plugin.language), target="active", submit=False)
        self._report_sent(result, note, "inserted")

    def start_session(self, path: str, context: Context) -> None:
        """A new agent session in a new tab, in the note's folder of work, starting from the note."""
        from .prompts import continue_prompt

        note = self._open(path)
        if note is None:
            return
        agent = session_agent(note, context.pane)
        options: Dict[str, Any] = {"target": "newTab", "agent": agent, "submit": True}
        cwd = session_folder(note, context.cwd)
        if cwd:
            options["cwd"] = cwd
        result = self._inject(note, continue_prompt(note, self.plugin.language), **options)
        self._report_sent(result, note, "started", agent=agent.capitalize())

    def _report_sent(self, result: Optional[Dict[str, Any]], note: "OpenedNote", key: str, **values: Any) -> None:
        if result is None:
            return
        if result.get("status") == "asked":
            self.say("muted", self.t("asked", title=note.meta.title))
        else:
            self.say("success", self.t(key, title=note.meta.title, **values), notify="success")

    def preview(self, path: str) -> None:
        note = self._open(path, allow_locked=True)
        if note is None:
            return
        if note.meta.locked:
            self.say("error", self.t("error_locked"))
            return
        self._show_preview(note)

    def close_preview(self) -> None:
        self.update(preview=None, message=None)

    def reveal(self, path: str) -> None:
        from .safety import NoteAccessError, resolve_note_path

        try:
            real = resolve_note_path(path, self.state.roots)
            self.plugin.reveal_path(real)
        except NoteAccessError as problem:
            self.say("error", self.access_error(problem), notify="error")
        except AgenttyError as problem:
            self.say("error", self.t("error_host", message=problem.message))

    # -- handlers: main.py registers each for its ids.py element, command or link ---------------------

    def query_typed(self, event: UIEvent, context: Context) -> None:
        if event.event in ("change", "submit"):
            self.search(event.value)

    def result_event(self, event: UIEvent, context: Context) -> None:
        """A click on a result previews it; its buttons insert, continue, preview or reveal it."""
        path = event.item
        if not path:
            return
        if event.event == "select":
            self.preview(path)
        elif event.event != "action":
            return
        elif event.action == ids.ACTION_INSERT:
            self.insert(path, context)
        elif event.action == ids.ACTION_CONTINUE:
            self.start_session(path, context)
        elif event.action == ids.ACTION_PREVIEW:
            self.preview(path)
        elif event.action == ids.ACTION_REVEAL:
            self.reveal(path)

    def refresh_clicked(self, event: UIEvent, context: Context) -> None:
        self.queue("refresh", announce=True)

    def rebuild_clicked(self, event: UIEvent, context: Context) -> None:
        self.queue("rebuild", announce=True)

    def back_clicked(self, event: UIEvent, context: Context) -> None:
        self.close_preview()

    def preview_insert_clicked(self, event: UIEvent, context: Context) -> None:
        note = self.state.preview
        if note is not None:
            self.insert(note.path, context)

    def preview_continue_clicked(self, event: UIEvent, context: Context) -> None:
        note = self.state.preview
        if note is not None:
            self.start_session(note.path, context)

    def preview_reveal_clicked(self, event: UIEvent, context: Context) -> None:
        note = self.state.preview
        if note is not None:
            self.reveal(note.path)

    def folder_path_event(self, event: UIEvent, context: Context) -> None:
        if event.event == "submit":
            self.add_folder(event.value)
        else:
            self.folder_typed(event.value)

    def folder_add_clicked(self, event: UIEvent, context: Context) -> None:
        self.add_folder(self.state.folder_draft)

    def folder_event(self, event: UIEvent, context: Context) -> None:
        if event.event == "action" and event.action == ids.ACTION_REMOVE:
            self.remove_folder(event.item)

    def engine_chosen(self, event: UIEvent, context: Context) -> None:
        self.set_engine(event.value)

    def open_command(self, call: CommandCall) -> None:
        """notes-search.open, with an optional query: {"query": "…"} (or "q"), or the query as a string."""
        self.plugin.show_panel()
        args = call.args
        query_text = (args.get("query") or args.get("q")) if isinstance(args, dict) else args
        if isinstance(query_text, str):
            self.search(query_text, set_field=True)
        else:
            self.panel_opened()

    def reindex_command(self, call: CommandCall) -> None:
        self.queue("refresh", announce=True)

    def rebuild_command(self, call: CommandCall) -> None:
        self.queue("rebuild", announce=True)

    def link_opened(self, request: UrlRequest) -> None:
        """agentty://plugin/notes-search/open?q=… searches; open?path=… previews the note and offers it to
        an agent (continue?path=… as a "continue from this note" prompt; &preview=1 only previews).

        A link is text from anyone: the path must be a note inside the configured folders (size-capped,
        not locked), and the prompt always goes through Agentty's "Send to…" dialog (target "ask"),
        so a link can never type into a pane by itself."""
        from .prompts import continue_prompt, insert_prompt

        route, params = request.path.strip("/"), request.params
        self.plugin.show_panel()
        if params.get("q") is not None and not params.get("path"):
            self.search(params["q"][:500], set_field=True)
            return
        path = params.get("path", "")
        if not path:
            self.say("error", self.t("error_invalid"), notify="error")
            return
        note = self._open(path)
        if note is None:
            return
        self._show_preview(note)
        if params.get("preview", "").lower() in ("1", "true", "yes"):
            return
        language = self.plugin.language
        text = continue_prompt(note, language) if route == ids.LINK_CONTINUE else insert_prompt(note, language)
        result = self._inject(note, text, target="ask", submit=False)
        self._report_sent(result, note, "asked")
