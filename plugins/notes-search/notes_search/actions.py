"""What the note buttons and links do: insert into the focused agent, start a new session, preview,
reveal, and agentty:// links. Every path is checked by safety.py before it is read or revealed."""

import os
from typing import TYPE_CHECKING, Any, Dict, Optional

from agentty_plugin import AgenttyError, Context, pane_is_busy

from .prompts import continue_prompt, insert_prompt
from .safety import NoteAccessError, OpenedNote, open_note, resolve_note_path
from .sources import expand

if TYPE_CHECKING:
    from .app import NotesApp

AGENTS = ("claude", "codex")


class NoteActions:
    def __init__(self, app: "NotesApp") -> None:
        self.app = app

    def _open(self, path: str, allow_locked: bool = False) -> Optional[OpenedNote]:
        try:
            return open_note(
                path, self.app.state.roots, self.app.settings.max_note_bytes, allow_locked=allow_locked
            )
        except NoteAccessError as problem:
            self.app.say("error", self.app.access_error(problem), notify="error")
        except OSError as problem:
            self.app.say(
                "error", self.app.t("error_missing", path=getattr(problem, "filename", path) or path)
            )
        return None

    def _fresh_context(self, fallback: Context) -> Context:
        try:
            return self.app.plugin.get_context()
        except AgenttyError:
            return fallback

    def _inject(self, note: OpenedNote, text: str, **options: Any) -> Optional[Dict[str, Any]]:
        try:
            result: Dict[str, Any] = self.app.plugin.inject_prompt(
                text, title=note.meta.title[:60], **options
            )
            return result
        except AgenttyError as problem:
            self.app.say("error", self.app.t("error_host", message=problem.message), notify="error")
            return None

    def insert(self, path: str, context: Context) -> None:
        """Type the note into the focused agent, unsent, only if that agent is idle."""
        context = self._fresh_context(context)
        pane = context.pane
        if pane is None:
            self.app.say("error", self.app.t("insert_no_pane"), notify="warning")
            return
        if not pane.is_agent:
            self.app.say("error", self.app.t("insert_not_agent", kind=pane.kind), notify="warning")
            return
        if not pane.running:
            self.app.say("error", self.app.t("insert_not_running"), notify="warning")
            return
        if pane_is_busy(pane.status):
            # Typing into a working agent, or into a permission/question prompt, would answer it.
            status = self.app.t("status_" + str(pane.status))
            self.app.say("error", self.app.t("insert_busy", status=status), notify="warning")
            return
        note = self._open(path)
        if note is None:
            return
        result = self._inject(
            note, insert_prompt(note, self.app.plugin.language), target="active", submit=False
        )
        self._report_sent(result, note, "inserted")

    def start_session(self, path: str, context: Context) -> None:
        """A new agent session in a new tab, in the note's folder of work, starting from the note."""
        note = self._open(path)
        if note is None:
            return
        pane = context.pane
        agent = (
            note.meta.agent
            if note.meta.agent in AGENTS
            else (pane.kind if pane and pane.is_agent else "claude")
        )
        cwd = expand(note.meta.cwd) if note.meta.cwd and os.path.isdir(expand(note.meta.cwd)) else context.cwd
        options: Dict[str, Any] = {"target": "newTab", "agent": agent, "submit": True}
        if cwd:
            options["cwd"] = cwd
        result = self._inject(note, continue_prompt(note, self.app.plugin.language), **options)
        self._report_sent(result, note, "started", agent=agent.capitalize())

    def _report_sent(
        self, result: Optional[Dict[str, Any]], note: OpenedNote, key: str, **values: Any
    ) -> None:
        if result is None:
            return
        if result.get("status") == "asked":
            self.app.say("muted", self.app.t("asked", title=note.meta.title))
        else:
            self.app.say("success", self.app.t(key, title=note.meta.title, **values), notify="success")

    def preview(self, path: str) -> None:
        note = self._open(path, allow_locked=True)
        if note is None:
            return
        if note.meta.locked:
            self.app.say("error", self.app.t("error_locked"))
            return
        with self.app.lock:
            self.app.state.preview = note
            self.app.state.message = None
        self.app.draw()

    def close_preview(self) -> None:
        with self.app.lock:
            self.app.state.preview = None
            self.app.state.message = None
        self.app.draw()

    def reveal(self, path: str) -> None:
        try:
            real = resolve_note_path(path, self.app.state.roots)
            self.app.plugin.reveal_path(real)
        except NoteAccessError as problem:
            self.app.say("error", self.app.access_error(problem), notify="error")
        except AgenttyError as problem:
            self.app.say("error", self.app.t("error_host", message=problem.message))

    def row_action(self, path: Optional[str], action: Optional[str], context: Context) -> None:
        if not path:
            return
        if action == "insert":
            self.insert(path, context)
        elif action == "continue":
            self.start_session(path, context)
        elif action == "preview":
            self.preview(path)
        elif action == "reveal":
            self.reveal(path)

    def preview_button(self, element: str, context: Context) -> None:
        note = self.app.state.preview
        if note is None:
            return
        if element == "preview.insert":
            self.insert(note.path, context)
        elif element == "preview.continue":
            self.start_session(note.path, context)
        elif element == "preview.reveal":
            self.reveal(note.path)

    # -- links ----------------------------------------------------------------------------------------

    def open_link(self, route: str, params: Dict[str, str]) -> None:
        """agentty://plugin/notes-search/open?q=… searches; open?path=… previews the note and offers it to
        an agent (continue?path=… as a "continue from this note" prompt; &preview=1 only previews).

        A link is text from anyone: the path must be a note inside the configured folders (size-capped,
        not locked), and the prompt always goes through Agentty's "Send to…" dialog (target "ask"),
        so a link can never type into a pane by itself."""
        self.app.plugin.show_panel()
        if params.get("q") is not None and not params.get("path"):
            self.app.search(params["q"][:500], set_field=True)
            return
        path = params.get("path", "")
        if not path:
            self.app.say("error", self.app.t("error_invalid"), notify="error")
            return
        note = self._open(path)
        if note is None:
            return
        with self.app.lock:
            self.app.state.preview = note
            self.app.state.message = None
        self.app.draw()
        if params.get("preview", "").lower() in ("1", "true", "yes"):
            return
        language = self.app.plugin.language
        text = continue_prompt(note, language) if route == "continue" else insert_prompt(note, language)
        result = self._inject(note, text, target="ask", submit=False)
        self._report_sent(result, note, "asked")
