"""The controller: owns the state and its lock, runs summaries in the background; the only module calling the host.

main.py wires the panel's events and the commands to the handlers at the top of App. The panel state is
the immutable `view.State`; `App.update(**changes)` is the only way it changes, and `redraw()` draws it
with `view.render`. What the panel does not show (the summary's session, the fallback local summary, the
saved note's full path) is the controller's own data, beside the state.
"""

import os
import threading
import time
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple

from agentty_plugin import ActivateInfo, AgenttyError, CommandCall, Context, JsonFile, Plugin, UIEvent
from agentty_plugin.context import AGENT_KINDS
from agentty_plugin.errors import TIMED_OUT
from agentty_plugin.panes import display_path, pane_label

from . import ids
from . import llm_settings as settings_module
from .history import History, workspace_key
from .llm_settings import LLMSettings
from .notes import DEFAULT_FOLDER, NoteSaveError, is_relative, resolve_folder
from .text import TEXT
from .view import HistoryRow, LLMView, NotesFolder, State, SummaryView, render

if TYPE_CHECKING:
    # The summarizers, the transcript reader, the git check and the LLM client load when a summary is
    # asked for, not before the first panel (bench/bench_runtime.py: start-up against a minimal plugin).
    from .llm_client import Cancellation, LLMError
    from .local_summary import LocalSummary
    from .session import Session

MAX_TURNS = 2000  # the most session/get hands out
FALLBACK_AGENT = "claude"  # a hand-off from a history entry whose agent is unknown

# Which setting each settings input stores; text fields report each change (debounced by Agentty) and Enter.
SETTING_OF_ELEMENT = {ids.NOTES_FOLDER: "notes_folder", ids.LLM_BASE_URL: "base_url", ids.LLM_MODEL: "model",
                      ids.LLM_KEY_ENV: "key_env", ids.LLM_CONTEXT_TOKENS: "context_tokens",
                      ids.LLM_PROVIDER: "provider"}


class Shown:
    """The summary in the panel, whoever made it. (Plain classes here, not dataclasses: see view.py.)"""

    def __init__(self, markdown: str, source: str, language: str, session: "Session", complete: bool = True,
                 redactions: int = 0, history_id: Optional[str] = None, created: Optional[float] = None,
                 from_history: bool = False) -> None:
        self.markdown = markdown
        self.source = source  # "local" or the model name
        self.language = language
        self.session = session
        self.complete = complete
        self.redactions = redactions
        self.history_id = history_id
        self.created = time.time() if created is None else created
        self.from_history = from_history


class App:
    """The controller, one per plugin process: main.py registers its methods as the handlers of ids.py's
    elements and commands."""

    def __init__(self, plugin: Plugin) -> None:
        self.plugin = plugin
        self.state = State()
        self.lock = threading.RLock()  # handlers run on worker threads, beside the summary thread
        # The controller's own data, changed under the lock too.
        self.shown: Optional[Shown] = None  # the summary in the panel, with the session it came from
        self.fallback: Optional[LocalSummary] = None  # the local summary made alongside an LLM run
        self.fallback_session: Optional[Session] = None
        self.last_saved_path = ""
        self._run_thread: Optional[int] = None  # the summarize thread, while a run is going
        self._held: Optional[Tuple[str, str]] = None  # that run's message, shown when it ends
        self.cancellation: Optional[Cancellation] = None
        self.settings_file: Optional[JsonFile] = None
        self.history: Optional[History] = None
        self.settings: Dict[str, Any] = {"notes_folder": DEFAULT_FOLDER, "llm": LLMSettings().to_dict()}
        self._warmed = False

    # ------------------------------------------------------------------ handlers (wired in main.py)

    def activated(self, info: ActivateInfo) -> None:
        self.activate(info.plugin.data_dir or self.plugin.data_dir)

    def open(self, context: Context) -> None:
        with self.lock:
            shown = self.shown
        if shown is not None:
            self.refresh_panes()  # the insert list is only shown beside a summary; the first panel need not wait
        self.redraw()
        self._warm_up()

    def follow_focus(self, context: Context) -> None:
        self.update(**self.history_view())  # another workspace has its own history

    def summarize_command(self, call: CommandCall) -> None:
        self.plugin.show_panel()
        self.summarize(use_llm=False)

    def summarize_llm_command(self, call: CommandCall) -> None:
        self.plugin.show_panel()
        self.summarize(use_llm=True)

    def open_command(self, call: CommandCall) -> None:
        self.plugin.show_panel()
        self.redraw()

    def summarize_clicked(self, event: UIEvent, context: Context) -> None:
        self.summarize(use_llm=False)

    def summarize_llm_clicked(self, event: UIEvent, context: Context) -> None:
        self.summarize(use_llm=True)

    def stop_clicked(self, event: UIEvent, context: Context) -> None:
        self.stop()

    def use_local_clicked(self, event: UIEvent, context: Context) -> None:
        self.use_local()

    def save_clicked(self, event: UIEvent, context: Context) -> None:
        self.save()

    def handoff_clicked(self, event: UIEvent, context: Context) -> None:
        self.handoff()

    def reveal_clicked(self, event: UIEvent, context: Context) -> None:
        self.reveal()

    def pane_row(self, event: UIEvent, context: Context) -> None:
        if event.event == "action" and event.action == ids.ACTION_INSERT and event.item:
            self.insert(event.item)

    def history_row(self, event: UIEvent, context: Context) -> None:
        if not event.item:
            return
        if event.event == "action" and event.action == ids.ACTION_DELETE:
            self.delete_history(event.item)
        elif event.action == ids.ACTION_SHOW or event.event != "action":  # its Show button, or a click on the row
            self.show_history(event.item)

    def setting_typed(self, event: UIEvent, context: Context) -> None:
        name = SETTING_OF_ELEMENT.get(event.element)
        if name and event.event in ("change", "submit"):
            self.set_setting(name, event.value)

    # ------------------------------------------------------------------ setup and drawing

    def activate(self, data_dir: str) -> None:
        path = os.path.join(data_dir, "settings.json")
        self.settings_file = JsonFile(path)
        loaded, problem = _read_settings(path)
        if loaded is not None:
            if "notes_folder" in loaded:
                self.settings["notes_folder"] = loaded["notes_folder"]
            self.settings["llm"] = LLMSettings.from_dict(loaded.get("llm")).to_dict()
        if problem is not None:
            # Damaged settings are never dropped silently: the notes folder and the LLM settings the
            # user chose are gone until they set them again, so they are told where the old file is.
            self.say(problem[0], "warning", notify=True, path=display_path(problem[1]),
                     reason=self.describe(problem[2], problem[1], reading=True) if problem[2] else "")
        self.history = History(data_dir)
        self.update(**self.history_view(), **self.settings_view())

    @property
    def llm(self) -> LLMSettings:
        return LLMSettings.from_dict(self.settings.get("llm"))

    def describe(self, error: OSError, path: str, reading: bool = False) -> str:
        """An OSError in the user's words: what happened to `path` and what to do."""
        from agentty_plugin.files import describe_os_error

        return describe_os_error(error, self.plugin.language, path, reading=reading)

    def history_problem(self) -> str:
        problem = self.history.problem if self.history is not None else None
        if problem is None:
            return ""
        reason = (self.describe(problem.error, problem.path, reading=problem.kind == "unreadable")
                  if problem.error else "")
        return self.t("history_" + problem.kind, path=display_path(problem.path), kept=problem.kept,
                      reason=reason)

    def t(self, key: str, **values: Any) -> str:
        return str(TEXT.get(self.plugin.language, key, **values))

    def update(self, **changes: Any) -> None:
        """The only way the state changes: the next snapshot under the lock, then a redraw of it."""
        with self.lock:
            self.state = self.state._replace(**changes)
            self.redraw()

    def redraw(self) -> None:
        """Draw the current snapshot with the language, clock and focused pane of this moment. The runtime's
        pacer sends at most one panel per 50 ms, and always the newest."""
        with self.lock:  # under the lock, so that a newer state is never overtaken by an older panel
            context = self.plugin.context
            language = self.plugin.language
            shown = self.state._replace(language=language, now=time.time(), pane=context.pane if context else None)
            self.plugin.set_panel(render(shown, TEXT.for_language(language)))

    def history_view(self) -> Dict[str, Any]:
        """The history rows of the focused workspace and the history file's problem, for update()."""
        if self.history is None:
            return {"history": None, "history_problem": ""}
        rows = tuple(HistoryRow(entry.id, entry.title, entry.created, entry.summarizer, entry.complete)
                     for entry in self.history.entries(self.workspace_key()))
        return {"history": rows, "history_problem": self.history_problem()}

    def settings_view(self) -> Dict[str, Any]:
        """The notes folder and LLM settings as the panel shows them, for update()."""
        llm = self.llm
        return {"notes": _notes_folder(str(self.settings.get("notes_folder") or "")),
                "llm": LLMView(llm.provider, llm.base_url, llm.model, llm.key_env,
                               bool(llm.key_env and os.environ.get(llm.key_env)), llm.context_tokens)}

    def say(self, key: str, tone: str = "info", notify: bool = False, **values: Any) -> None:
        text = self.t(key, **values)
        with self.lock:
            if self._run_thread == threading.get_ident():
                # A run's outcome appears with the end of the run (busy cleared in the same update), so the
                # panel never shows the message beside a still-disabled Summarize button.
                self._held = (text, tone)
            else:
                self.update(message=text, message_tone=tone)
        if notify:
            self.plugin.notify(text, "success" if tone == "success" else tone)

    def workspace_key(self) -> str:
        workspace = self.plugin.context.workspace if self.plugin.context else None
        if workspace is None:
            return workspace_key(None)
        return workspace_key(workspace.cwd, workspace.id, workspace.name)

    def save_settings(self) -> None:
        if self.settings_file is None:
            return
        try:
            self.settings_file.save(self.settings)
        except OSError as exc:  # the setting still applies until Agentty restarts
            self.say("settings_unsaved", "error", notify=True,
                     reason=self.describe(exc, os.path.dirname(self.settings_file.path)))

    def _warm_up(self) -> None:
        """Once the first panel is out, load the local summarizer, so the first Summarize does not wait for it."""
        with self.lock:
            if self._warmed:
                return
            self._warmed = True
        threading.Thread(target=_import_summarizer, name="import-summarizer", daemon=True).start()

    # ------------------------------------------------------------------ summarizing

    def summarize(self, use_llm: bool) -> None:
        with self.lock:
            if self.state.busy:
                return
            self.update(busy="reading", message="", streaming="")
        if use_llm:
            # httpx takes ~180 ms to import: start now so it overlaps reading the session.
            threading.Thread(target=_import_http_client, name="import-httpx", daemon=True).start()
        threading.Thread(target=self._run, args=(use_llm,), name="summarize", daemon=True).start()

    def _run(self, use_llm: bool) -> None:
        with self.lock:
            self._run_thread, self._held = threading.get_ident(), None
        try:
            session = self._read_session()
            if session is None:
                return
            from .local_summary import summarize  # loading since the first panel; here the wait overlaps the read

            self.update(busy="local")
            local = summarize(session)
            if not use_llm:
                self._show(Shown(local.markdown, "local", local.language, session))
                return
            with self.lock:
                self.fallback, self.fallback_session = local, session
            self.update(can_use_local=True)
            self._run_llm(session, local)
        except Exception as exc:  # never leave the panel spinning; the user can simply retry
            self.plugin.log("summarize failed:", repr(exc))
            self.say("error_failed", "error", message=type(exc).__name__)
        finally:
            with self.lock:
                self.cancellation = None
                held, self._held, self._run_thread = self._held, None, None
                if held is None:
                    self.update(busy="")
                else:
                    self.update(busy="", message=held[0], message_tone=held[1])
            self.refresh_panes()

    def _read_session(self) -> Optional["Session"]:
        from .session import parse_session

        context = self.plugin.context
        pane = context.pane if context else None
        if pane is None:
            self.say("pane_none", "warning")
            return None
        if not pane.is_agent:
            self.say("pane_shell", "warning")
            return None
        try:
            raw = self.plugin.get_session(pane_id=pane.id, max_turns=MAX_TURNS)
        except AgenttyError as error:
            self._say_session_error(error)
            return None
        session = parse_session(raw)
        if not session.cwd and pane.cwd:
            session.cwd = pane.cwd
        if not session.agent:
            session.agent = pane.kind
        if session.is_empty:
            self.say("error_empty", "warning")
            return None
        return session

    def _say_session_error(self, error: AgenttyError) -> None:
        """Each way `session/get` fails, told with what the user can do about it."""
        if error.is_permission:
            self.say("error_permission", "error", notify=True)
        elif error.is_unavailable and "window" in error.message.lower():
            self.say("error_no_window", "warning")
        elif error.is_unavailable:
            self.say("error_no_session", "warning")
        elif error.is_invalid_params:
            self.say("error_pane_gone", "warning")
        elif error.code == TIMED_OUT:  # the runtime names no predicate for it
            self.say("error_timed_out", "warning")
        else:
            self.say("error_host", "error", message=error.message or str(error.code))

    def _run_llm(self, session: "Session", local: "LocalSummary") -> None:
        from .llm_client import Cancellation
        from .llm_settings import read_key
        from .llm_summary import summarize_with_llm
        from .summary_text import phrase

        settings = self.llm
        wrong = settings_module.problems(settings)
        if wrong:
            self.say("llm_settings", "error", fields=", ".join(self.t("settings_" + _FIELD_KEYS[w]) for w in wrong))
            return
        key = read_key(settings.key_env) if settings.key_env else None
        if not key and settings.provider == settings_module.ANTHROPIC:
            self.say("llm_no_key", "error", env=settings.key_env or "?")
            return
        cancellation = Cancellation()
        with self.lock:
            self.cancellation = cancellation
            self.update(busy="connect", progress={"model": settings.model})

        def progress(stage: str, index: int, total: int) -> None:
            self.update(busy="merge" if stage == "merge" else ("part" if total > 1 else "connect"),
                        progress={"index": index, "total": total, "model": settings.model}, streaming="")

        def streamed(text: str) -> None:
            self.update(streaming=text)

        try:
            outcome = summarize_with_llm(session, settings, key, local.language, local.files, progress, streamed,
                                         cancellation)
        except ImportError:
            self.say("llm_missing", "error")
            return
        if outcome.markdown.strip():
            markdown = outcome.markdown
            if not outcome.complete:
                markdown += "\n\n> " + phrase(local.language, "incomplete", reason=_reason(outcome.error)) + "\n"
            self._show(Shown(markdown, settings.model, local.language, session, outcome.complete,
                             outcome.redactions))
        if outcome.error is not None:
            self._say_llm_error(outcome.error, settings)

    def _say_llm_error(self, error: "LLMError", settings: LLMSettings) -> None:
        kind = error.kind
        if kind == "rate_limited" and error.retry_after is not None:
            self.say("llm_rate_limited", "error", seconds=round(error.retry_after))
        elif kind == "rate_limited":
            self.say("llm_rate_limited_unknown", "error")
        elif kind == "no_server":
            self.say("llm_no_server", "error", url=settings.base_url)
        elif kind == "auth":
            self.say("llm_auth", "error", status=error.status or "", env=settings.key_env or "?")
        elif kind == "http":
            self.say("llm_http", "error", status=error.status or "", detail=error.detail[:200])
        elif kind == "stopped":
            self.say("llm_stopped", "info")
        elif kind in ("malformed", "server_error"):
            self.say("llm_" + kind, "error", detail=error.detail[:200])
        else:
            self.say("llm_" + kind, "error")

    def stop(self) -> None:
        with self.lock:
            cancellation = self.cancellation
        if cancellation is not None:
            cancellation.cancel()

    def use_local(self) -> None:
        with self.lock:
            local, session = self.fallback, self.fallback_session
        if local is None or session is None:
            return
        self._show(Shown(local.markdown, "local", local.language, session))
        self.update(message="")

    def _show(self, shown: Shown) -> None:
        if self.history is not None:
            session = shown.session
            title = _title_of(shown.markdown, session)
            try:
                entry = self.history.add(self.workspace_key(), title, session.agent, session.session_id, shown.source,
                                         shown.markdown, shown.complete)
                shown.history_id = entry.id
            except OSError as exc:  # the summary is still shown; the user learns it is not kept
                self.plugin.log("history not written:", exc)
                self.say("history_unsaved", "warning", reason=self.describe(exc, os.path.dirname(self.history.path)))
        with self.lock:
            self.shown = shown
            self.update(summary=_summary_view(shown), streaming="", **self.history_view())

    # ------------------------------------------------------------------ using the result

    def save(self) -> None:
        from .notes import NoteInfo, save_note

        with self.lock:
            shown = self.shown
        if shown is None:
            return
        workspace = self.plugin.context.workspace if self.plugin.context else None
        info = NoteInfo(title=_title_of(shown.markdown, shown.session),
                        workspace=(workspace.name or "") if workspace else "", agent=shown.session.agent,
                        session_id=shown.session.session_id, cwd=shown.session.cwd, summarizer=shown.source,
                        incomplete=not shown.complete)
        try:
            path = save_note(str(self.settings.get("notes_folder") or ""), shown.markdown, info)
        except NoteSaveError as error:
            if error.error is not None:  # the disk said no: why, in words, and what to do
                self.say("save_cannot", "error", notify=True, reason=self.describe(error.error, error.path))
            else:
                known = ("empty", "relative", "not_a_folder")
                key = "save_" + error.kind if error.kind in known else "save_failed"
                self.say(key, "error", notify=True, path=display_path(error.path), detail=error.detail)
            self.redraw()
            return
        if self.history is not None and shown.history_id:
            try:
                self.history.mark_saved(self.workspace_key(), shown.history_id, path)
            except OSError:
                pass
        with self.lock:
            self.last_saved_path = path
            self.update(last_saved=display_path(path), **self.history_view())
        self.say("save_ok", "success", notify=True, path=path)

    def reveal(self) -> None:
        if self.last_saved_path:
            try:
                self.plugin.reveal_path(self.last_saved_path)
            except AgenttyError as error:
                self.say("save_failed", "error", detail=str(error))
                self.redraw()

    def handoff(self) -> None:
        from .handoff import handoff_prompt

        with self.lock:
            shown = self.shown
        if shown is None:
            return
        session = shown.session
        agent = session.agent if session.agent in AGENT_KINDS else FALLBACK_AGENT
        text = handoff_prompt(shown.markdown, shown.language, agent, session.cwd)
        # The user asked for a new session that starts from this summary, so it is sent as the opening
        # prompt (submit); nothing is interrupted, since the tab is new.
        options: Dict[str, Any] = {"title": _title_of(shown.markdown, session)[:60], "target": "newTab",
                                   "agent": agent, "submit": True}
        if session.cwd:
            options["cwd"] = session.cwd
        try:
            answer = self.plugin.inject_prompt(text, **options)
        except AgenttyError as error:
            self.say("handoff_failed", "error", notify=True, message=str(error))
        else:
            if answer.get("status") == "asked":
                self.say("handoff_asked", "info")
            else:
                self.say("handoff_sent", "success", notify=True, agent=agent)
        self.redraw()

    def refresh_panes(self) -> None:
        """Panes of the focused workspace, with fresh statuses, for the insert list."""
        context = self.plugin.context
        workspace = context.workspace if context else None
        try:
            workspaces = self.plugin.list_workspaces()
        except AgenttyError:
            return
        chosen = next((w for w in workspaces if workspace is not None and w.id == workspace.id), None)
        chosen = chosen or next((w for w in workspaces if w.active), None)
        self.update(panes=tuple(chosen.panes) if chosen else ())

    def insert(self, pane_id: str) -> None:
        from .handoff import handoff_prompt

        with self.lock:
            shown = self.shown
        if shown is None:
            return
        self.refresh_panes()  # the status must be current: never type into a pane that is working
        pane = next((p for p in self.state.panes if str(p.id) == pane_id), None)
        if pane is None:
            self.say("insert_failed", "warning", message=pane_id)
        elif pane.is_busy:
            self.say("insert_busy", "warning", notify=True, title=pane_label(pane), status=pane.status)
        else:
            text = handoff_prompt(shown.markdown, shown.language, shown.session.agent, shown.session.cwd)
            try:
                answer = self.plugin.inject_prompt(text, target="pane", pane_id=pane.id, submit=False)
            except AgenttyError as error:
                self.say("insert_failed", "error", message=str(error))
            else:
                key = "insert_asked" if answer.get("status") == "asked" else "insert_sent"
                self.say(key, "success" if key == "insert_sent" else "info", title=pane_label(pane))
        self.redraw()

    # ------------------------------------------------------------------ history and settings

    def show_history(self, entry_id: str) -> None:
        from .session import Session

        entry = self.history.get(self.workspace_key(), entry_id) if self.history else None
        if entry is None:
            return
        context = self.plugin.context
        workspace = context.workspace if context else None
        session = Session(agent=entry.agent, session_id=entry.session_id,
                          cwd=(workspace.cwd or "") if workspace else "")
        language = _language_of(entry.markdown)
        shown = Shown(entry.markdown, entry.summarizer, language, session, entry.complete,
                      history_id=entry.id, created=entry.created, from_history=True)
        with self.lock:
            self.shown = shown
            self.update(summary=_summary_view(shown), message="")

    def delete_history(self, entry_id: str) -> None:
        if self.history is not None:
            try:
                self.history.remove(self.workspace_key(), entry_id)
            except OSError as exc:
                self.say("history_undeleted", "error", notify=True,
                         reason=self.describe(exc, os.path.dirname(self.history.path)))
        self.update(**self.history_view())

    def set_setting(self, name: str, value: Any) -> None:
        if name == "notes_folder":
            self.settings["notes_folder"] = str(value or "").strip()
        else:
            llm = dict(self.settings.get("llm") or {})
            if name == "provider" and value in settings_module.PROVIDERS and value != llm.get("provider"):
                llm = settings_module.for_provider(value).to_dict()
            elif name == "context_tokens":
                text = str(value or "").replace(",", "").replace("_", "").strip()
                if not text.isdigit():
                    self.say("settings_invalid_number", "warning")
                    return
                llm["context_tokens"] = int(text)
            elif name in ("base_url", "model", "key_env"):
                llm[name] = str(value or "").strip()
            self.settings["llm"] = LLMSettings.from_dict(llm).to_dict()
            with self.lock:
                if self.state.message == self.t("settings_invalid_number"):
                    self.update(message="")
        self.save_settings()
        self.update(**self.settings_view())


_FIELD_KEYS = {"base_url": "base_url", "model": "model", "key_env": "key_env"}


def _read_settings(path: str) -> Tuple[Optional[Dict[str, Any]], Optional[Tuple[str, str, Optional[OSError]]]]:
    """The stored settings, and what went wrong (message key, path, error) when they cannot be used.

    A file that is not JSON or holds a value of the wrong type is damaged: it is moved aside (kept for
    the user) and the defaults apply. A file that cannot be read (permissions, I/O) is left in place.
    """
    import json

    try:
        with open(path, "rb") as handle:
            loaded = json.loads(handle.read().decode("utf-8"))
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, ("settings_unreadable", path, exc)
    except ValueError:
        loaded = None
    folder = loaded.get("notes_folder", "") if isinstance(loaded, dict) else None
    if isinstance(loaded, dict) and isinstance(folder, str) and settings_module.well_typed(loaded.get("llm", {})):
        return loaded, None
    aside = path + ".corrupt-" + time.strftime("%Y%m%d-%H%M%S")
    try:
        os.replace(path, aside)
    except OSError as exc:
        return None, ("settings_damaged_in_place", path, exc)
    return None, ("settings_damaged", aside, None)


def _summary_view(shown: Shown) -> SummaryView:
    return SummaryView(shown.markdown, shown.source, shown.session.turn_count, shown.complete, shown.redactions,
                       shown.from_history, shown.created)


def _notes_folder(typed: str) -> NotesFolder:
    """Where a relative or ~ folder really goes, worked out here because the view does no I/O."""
    if not is_relative(typed) and not typed.strip().startswith("~"):
        return NotesFolder(typed)
    try:
        return NotesFolder(typed, resolved=resolve_folder(typed))
    except NoteSaveError:
        return NotesFolder(typed, unresolvable=True)


def _reason(error: Optional["LLMError"]) -> str:
    return error.kind.replace("_", " ") if error else "cut"


def _title_of(markdown: str, session: "Session") -> str:
    """The goal line makes the best title; the session's own title is the fallback."""
    lines = markdown.split("\n")
    for index, line in enumerate(lines):
        if line.startswith("## "):
            for following in lines[index + 1:]:
                cleaned = following.strip().lstrip("-*• ").strip()
                if cleaned and not cleaned.startswith("#"):
                    return cleaned[:100]
            break
    return session.title or "Session summary"


def _import_summarizer() -> None:
    from . import local_summary  # noqa: F401


def _import_http_client() -> None:
    try:
        import httpx  # noqa: F401
    except ImportError:
        pass  # reported where it is used, with the rest of the LLM errors


def _language_of(markdown: str) -> str:
    from .language import detect_language

    return detect_language([markdown])
