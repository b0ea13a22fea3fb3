"""The controller: owns the panel's state and its lock, loads and runs the release, and alone calls the host."""
from __future__ import annotations

import collections
import functools
import os
import re
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Deque, Dict, List, Optional

from agentty_plugin import AgenttyError, CommandCall, Context, Pane, Plugin, UIEvent
from agentty_plugin.panes import busy_agent_panes, idle_agent_pane, pane_label

from . import ids
from .fix_watch import FixWatch
from .text import TEXT
from .view import LIVE_LINES, Confirm, State, Waiting, badge_text, progress_badge, render

if TYPE_CHECKING:
    from .agent_wait import AgentWaiter, PendingWait, WaitStore
    from .chosen_versions import ChosenVersions
    from .release_session import ReleaseSession
    Delivery = Callable[[ReleaseSession], Optional[str]]  # returns the text.py key to notify with

# The engine (release_session and what it imports: the command runner, the checklist parser, the run
# store, git) is imported inside the methods that use it, never at the top: the first panel ("Reading the
# checklist…") must not wait for it (bench_runtime "First panel" table; test_release_checklist_startup.py).

SHELL_KINDS = ("shell",)  # the panes a terminal step is typed into
TICK_SECONDS = 1.0  # while a step runs the panel is redrawn this often, so its elapsed time moves

Handler = Callable[["App", UIEvent, Context], None]


def _click(handler: Handler) -> Handler:
    """A panel event: do it, say so when a step is already running, and draw the panel once afterwards:
    the handler's updates and the engine's changes (a step marked done) in one drawing."""

    @functools.wraps(handler)
    def clicked(self: App, event: UIEvent, context: Context) -> None:
        self._events.depth = getattr(self._events, "depth", 0) + 1
        try:
            handler(self, event, context)
        except KeyError:  # a click on a step the checklist no longer has: show the current checklist
            pass
        except Exception as error:
            if not self._told(error):
                raise
        finally:
            self._events.depth -= 1
        if not self._events.depth:
            self.redraw()

    return clicked


def _text(value: Any) -> str:
    return str(value or "")


# `git tag …` or `git commit …` alone (no shell operator that could add a push): it changes only this clone,
# so its confirmation does not say "cannot be undone".
_LOCAL_ONLY = re.compile(r"git\s+(?:-C\s+\S+\s+)?(?:tag|commit)\b[^;&|`$()<>\n]*")


def _local_only(command: Optional[str]) -> bool:
    return bool(command) and _LOCAL_ONLY.fullmatch(command.strip()) is not None  # type: ignore[union-attr]


class App:
    """One per plugin process: main.py registers its methods as the handlers of ids.py's elements and commands.

    Every public method is safe to call from any handler thread; the state changes under `lock`.
    """

    def __init__(self, plugin: Plugin) -> None:
        self.plugin = plugin
        self.state = State()
        self._session: Optional[ReleaseSession] = None  # the live release; never handed to the view
        self.lock = threading.RLock()  # handlers run on several threads; the state changes under this lock
        self._chosen: Optional[ChosenVersions] = None  # repository -> version the user typed, on disk
        self.typed: Dict[str, str] = {}  # last text of the version and skip-reason inputs
        self.panel_open = False
        self.badge: Optional[str] = None
        self._live: Deque[str] = collections.deque(maxlen=LIVE_LINES)  # the running step's last lines
        self._events = threading.local()  # .depth > 0 while this thread handles a panel event: drawn at its end
        self.pending_folder: Optional[str] = None  # focus moved while a step ran: follow it afterwards
        self._changed = threading.Event()  # a running step printed or changed state: draw soon
        self.fix_watch = FixWatch(self.plugin.list_workspaces, self._rerun_after_fix)
        self._waiter: Optional[AgentWaiter] = None  # the confirmed step held until the agents are idle
        self._pending_wait: Optional[PendingWait] = None
        self._waits: Optional[WaitStore] = None

    @property
    def chosen_versions(self) -> ChosenVersions:
        from .chosen_versions import ChosenVersions

        with self.lock:
            if self._chosen is None:  # the data folder is known once the host said hello
                self._chosen = ChosenVersions(self.plugin.data_dir)
            return self._chosen

    @property
    def wait_store(self) -> WaitStore:
        from .agent_wait import WaitStore

        with self.lock:
            if self._waits is None:
                self._waits = WaitStore(self.plugin.data_dir)
            return self._waits

    def t(self, key: str, **values: Any) -> str:
        return str(TEXT.get(self.plugin.language, key, **values))

    @property
    def session(self) -> Optional[ReleaseSession]:
        """The live release (the engine); the panel draws its snapshot, state.release."""
        with self.lock:
            return self._session

    def update(self, **changes: Any) -> None:
        """The only way the state changes: the next snapshot, under the lock, then a redraw of it."""
        with self.lock:
            self.state = self.state._replace(**changes)
        if not getattr(self._events, "depth", 0):  # inside a panel event, the event draws once at its end
            self.redraw()

    def redraw(self) -> None:
        """Draw the current snapshot when the panel's turn comes (once per turn, however often asked: a
        check printing thousands of lines a second costs one render per turn), and the badge."""
        with self.lock:
            shown = self.panel_open
        if shown:
            self.plugin.redraw(self._tree)
        else:
            session = self.session
            self._set_badge("" if session is None else progress_badge(*session.progress()))

    def _tree(self) -> Dict[str, Any]:
        """The panel now: the state with the release as it is this moment (a snapshot the controller takes
        outside its own lock; the view never calls the engine), the language and the clock."""
        session = self.session
        release = None
        if session is not None:
            from .release_view import release_of

            release = release_of(session)
        language = self.plugin.language
        with self.lock:
            drawn = self.state._replace(release=release if self._session is session else None, language=language,
                                        now=time.time(), live_lines=tuple(self._live))
        tree = render(drawn, TEXT.for_language(language))
        self._set_badge(badge_text(drawn))
        return tree

    def _set_badge(self, badge: str) -> None:
        with self.lock:
            if badge == self.badge:
                return
            self.badge = badge
        self.plugin.set_badge(badge)

    def _mark_changed(self, *_args: Any) -> None:
        self._changed.set()

    # ----- the panel and the focused repository -------------------------------------------------------
    def open(self, context: Context) -> None:
        with self.lock:
            self.panel_open = True
            same = context.cwd == self.state.folder and self._session is not None
        if same:
            self.redraw()
        else:
            self.load(context.cwd)

    def close(self, _context: Context) -> None:
        with self.lock:
            self.panel_open = False

    def context_changed(self, context: Context) -> None:
        self._wake_waiter()  # the focused pane's status may have changed: a held step looks again
        self.follow(context.cwd)  # the release follows the focused pane's repository
        self.fix_watch.wake()  # …and an agent fixing a failed check may be done (its step in the session followed)

    def pane_status_changed(self, _params: Any) -> None:
        self._wake_waiter()  # an agent this plugin handed work to changed status
        self.fix_watch.wake()

    def shutdown(self) -> None:
        self.stop(immediately=True)  # never leave a check's process tree behind
        with self.lock:
            waiter = self._waiter
        if waiter is not None:
            waiter.stop()  # the wait stays on disk: the next start picks it up again

    def load(self, folder: Optional[str], version: Optional[str] = None) -> None:
        """Open the release for folder's repository (quick: a few git calls and one file read)."""
        generation = self.plugin.latest("load")
        with self.lock:
            running = self._session is not None and self._session.running_step is not None
            held = self._session is not None and self._waiter is not None and not (
                folder and folder.startswith(self._session.repo))
            if running or held:
                self.pending_folder = folder  # a running or held step keeps its repository until it ends
                return
            self.pending_folder = None
            loading = folder is not None and (self._session is None or not folder.startswith(self._session.repo))
        # Drawn at once, before the engine is imported.
        self.update(folder=folder, not_repo=False, problems=(), read_error=None, confirm=None, skipping=None,
                    confirm_reset=False, version_error=None, loading=loading)
        if folder is None:
            return
        from . import git_repo
        from .checklist_file import CHECKLIST_FILE_NAME, ChecklistParseError
        from .release_session import NotARepository, ReleaseSession

        session, problems, error, file = None, [], None, ""
        repo, where = git_repo.locate(folder)
        try:
            if repo is None:
                raise NotARepository(folder)
            kept = None if version else self.chosen_versions.get(repo)
            self._tell_chosen_damage()
            session = ReleaseSession(repo, self.plugin.data_dir, version or kept, on_change=self._mark_changed)
            if kept and git_repo.tag_exists(repo, session.tag):  # released since: back to the project's version
                self._choose(repo, None)
                session = ReleaseSession(repo, self.plugin.data_dir, None, on_change=self._mark_changed)
        except NotARepository:
            pass
        except ChecklistParseError as parse_error:
            problems, file = parse_error.problems, parse_error.path or CHECKLIST_FILE_NAME
        except OSError as os_error:
            # Reading the checklist or the project files (a save that fails never lands here).
            from agentty_plugin.files import describe_os_error

            error = describe_os_error(os_error, self.plugin.language, reading=True)
        history = session.history() if session else []
        if not generation.is_current:
            return
        with self.lock:
            self._session = session
            self._live.clear()
        self.update(loading=False, read_error=error, problems=tuple(problems), problems_file=file,
                    not_repo=repo is None, repo_problem=where, history=tuple(history))
        with self.lock:
            pending = self._pending_wait
        if pending is not None and (session is None or session.version != pending.version):
            self._end_wait()  # another version now: the step confirmed for the old one must not run for it
            self.plugin.notify(self.t("wait_version_changed", version=pending.version), "warning")
        if session is not None:
            self._resume_wait(session)

    def follow(self, folder: Optional[str]) -> None:
        with self.lock:
            if folder and folder == self.state.folder and self._session is not None:
                return
        self.load(folder)

    def reload(self, folder: Optional[str]) -> None:
        with self.lock:
            session, shown = self._session, self.state.folder
        self.load(folder or shown, session.version if session else None)

    def _shown_folder(self) -> Optional[str]:
        with self.lock:
            return self.state.folder

    def _ensure_loaded(self, context: Context) -> None:
        if self.session is None:
            self.load(context.cwd)

    # ----- panel events (main.py wires each ids.py element to one of these) -----------------------------
    @_click
    def version_event(self, event: UIEvent, _context: Context) -> None:
        if event.event == "change":
            with self.lock:
                self.typed[ids.VERSION] = _text(event.value)  # kept until "Use version" is pressed (not drawn)
        else:
            self.apply_version(_text(event.value))

    @_click
    def version_applied(self, _event: UIEvent, _context: Context) -> None:
        with self.lock:
            typed = self.typed.get(ids.VERSION, "")
        self.apply_version(typed)

    @_click
    def step_event(self, event: UIEvent, _context: Context) -> None:
        if event.event == "action" and event.item and event.action:
            self.do_step(event.item, event.action)
        elif event.item:
            self.select(event.item)

    @_click
    def run_all_clicked(self, _event: UIEvent, _context: Context) -> None:
        self.run_all()

    @_click
    def stop_clicked(self, _event: UIEvent, _context: Context) -> None:
        self.stop()

    @_click
    def refresh_clicked(self, _event: UIEvent, context: Context) -> None:
        self.reload(context.cwd)

    @_click
    def enter_toggled(self, event: UIEvent, _context: Context) -> None:
        self.update(press_enter=bool(event.value))

    @_click
    def reset_clicked(self, _event: UIEvent, _context: Context) -> None:
        self.update(confirm_reset=True)

    @_click
    def reset_answered(self, event: UIEvent, _context: Context) -> None:
        self.reset_release(event.element == ids.RESET_YES)

    @_click
    def confirm_answered(self, event: UIEvent, _context: Context) -> None:
        self.confirm(event.element == ids.CONFIRM_YES)

    @_click
    def skip_reason_event(self, event: UIEvent, _context: Context) -> None:
        if event.event == "submit":
            self.skip(_text(event.value))
        elif event.event == "change":
            with self.lock:
                self.typed[ids.SKIP_REASON] = _text(event.value)  # kept until "Skip" is pressed

    @_click
    def skip_confirmed(self, event: UIEvent, _context: Context) -> None:
        with self.lock:
            typed = self.typed.get(ids.SKIP_REASON, "")
        self.skip(_text(event.value) or typed)

    @_click
    def wait_cancelled(self, _event: UIEvent, _context: Context) -> None:
        self.cancel_wait()

    @_click
    def skip_cancelled(self, _event: UIEvent, _context: Context) -> None:
        self.update(skipping=None)

    @_click
    def output_retry(self, _event: UIEvent, _context: Context) -> None:
        self._on_shown_step(ids.ACT_RETRY)

    @_click
    def output_fix(self, _event: UIEvent, _context: Context) -> None:
        self._on_shown_step(ids.ACT_FIX)

    @_click
    def output_skip(self, _event: UIEvent, _context: Context) -> None:
        self._on_shown_step(ids.ACT_SKIP)

    def _on_shown_step(self, action: str) -> None:
        with self.lock:
            selected = self.state.selected
        if selected:
            self.do_step(selected, action)

    @_click
    def history_chosen(self, event: UIEvent, _context: Context) -> None:
        if event.item:
            self.apply_version(event.item)

    @_click
    def write_clicked(self, _event: UIEvent, _context: Context) -> None:
        self.write_checklist()

    @_click
    def reveal_clicked(self, _event: UIEvent, _context: Context) -> None:
        self.reveal_checklist()

    @_click
    def problem_chosen(self, _event: UIEvent, _context: Context) -> None:
        self.reveal_checklist()  # a problem's line and column are in its text: the file is what to open

    # ----- commands ---------------------------------------------------------------------------------
    def open_command(self, _call: CommandCall) -> None:
        self.plugin.show_panel()

    def run_checks_command(self, call: CommandCall) -> None:
        self._ensure_loaded(call.context)
        self.plugin.show_panel()
        self.run_all()

    def stop_command(self, _call: CommandCall) -> None:
        self.stop()

    def write_default_command(self, call: CommandCall) -> None:
        self._ensure_loaded(call.context)
        self.write_checklist()

    # ----- running checks ---------------------------------------------------------------------------
    def _in_background(self, work: Callable[[], None]) -> None:
        """Run a step off the message loop; redraw on its output, and every second so the elapsed time moves."""
        done = threading.Event()

        def tick() -> None:
            while not done.is_set():
                self._changed.wait(TICK_SECONDS)
                self._changed.clear()
                if done.is_set():
                    return
                self.redraw()

        def run() -> None:
            try:
                work()
            except Exception as error:
                if not self._told(error):  # never a thread that dies silently: the runtime's failure banner
                    self.plugin.report_failure(error, self.t("run_where"))
            finally:
                done.set()
                self._changed.set()  # wakes the tick thread, which ends
                with self.lock:
                    session = self._session
                history = session.history() if session else []
                self.update(history=tuple(history))
                with self.lock:
                    pending, shown = self.pending_folder, self.state.folder
                if pending is not None and pending != shown:
                    self.load(pending)

        threading.Thread(target=tick, name="release-checklist-tick", daemon=True).start()
        threading.Thread(target=run, name="release-checklist-run", daemon=True).start()

    def _told(self, error: Exception) -> bool:
        """Tell the user about an error the engine raises on purpose; False for anything else."""
        from .release_session import ProgressNotSaved, SessionBusy  # only a session raises them

        if isinstance(error, SessionBusy):
            self.plugin.notify(self.t("busy"), "warning")
        elif isinstance(error, ProgressNotSaved):  # the panel keeps saying so until a save works again
            self.plugin.notify(self.t("not_saved_stopped", problem=self.describe(error.error, error.folder)), "error")
        else:
            return False
        return True

    def describe(self, error: OSError, path: str) -> str:
        """An OSError in the user's words, naming the folder (home-relative) and what to do."""
        from agentty_plugin.files import describe_os_error

        return describe_os_error(error, self.plugin.language, path)

    def _on_line(self, _step_id: str, line: str) -> None:
        # Kept in the controller's buffer and copied into the state drawn (as the release is), not one
        # update per line: a check printing 200,000 lines took 2.0-2.25x the engine alone in the panel
        # that way, against 0.93x (bench_release_checklist chatty_panel, 2 x 3 runs). Rendered when the
        # panel's turn comes, once per turn.
        with self.lock:
            self._live.append(line)
            shown = self.panel_open
        if shown:
            self.plugin.redraw(self._tree)

    def select(self, step_id: Optional[str]) -> None:
        with self.lock:
            self._live.clear()
        self.update(selected=step_id)

    def run_all(self) -> None:
        from .steps import StepState

        session = self.session
        if session is None:
            return
        if session.running_step is not None:
            self.plugin.notify(self.t("busy"), "warning")
            return
        if session.checklist_changed():  # edited since it was read: run what the file says now
            self.load(self._shown_folder(), session.version)
            session = self.session
            if session is None:
                return
        if not session.checks_to_run():
            self.plugin.notify(self._nothing_to_run(session))
            return
        running = session

        def work() -> None:
            results = running.run_checks(on_line=self._on_line, on_step=lambda step: self.select(step.id))
            failed_ids = [step_id for step_id, record in results.items() if record.state == StepState.FAILED]
            unknown_ids = [step_id for step_id, record in results.items() if record.state == StepState.UNKNOWN]
            failed, unknown = len(failed_ids), len(unknown_ids)
            passed = sum(record.state == StepState.PASSED for record in results.values())
            if failed_ids or unknown_ids:  # the first problem's output, with Retry and "Ask the agent to fix it"
                self.select((failed_ids or unknown_ids)[0])
            if any(record.state == StepState.STOPPED for record in results.values()):  # the user's Stop: no failure
                self.plugin.notify(self.t("checks_stopped", passed=passed, failed=failed, unknown=unknown))
            elif unknown:  # never folded into "passed": the count says how many answers are missing
                self.plugin.notify(self.t("checks_unknown", passed=passed, failed=failed, unknown=unknown),
                                 "error" if failed else "warning")
            elif failed:
                self.plugin.notify(self.t("checks_failed", count=failed), "error")
            elif results and all(record.state == StepState.PASSED for record in results.values()):
                self.plugin.notify(self.t("all_passed"), "success")

        self._in_background(work)

    def _nothing_to_run(self, session: ReleaseSession) -> str:
        """Why Run all has nothing to do, and what is left of the release: "every check passed" only when
        every check did (an adopted document may have none, or the user skipped them)."""
        from .steps import StepKind, StepState

        statuses = session.statuses()
        checks = [step for step in session.steps if step.kind == StepKind.CHECK and step.command]
        skipped = sum(statuses[step.id].state != StepState.PASSED for step in checks)
        first = (self.t("no_checks") if not checks else self.t("checks_done_skipped", skipped=skipped) if skipped
                 else self.t("checks_done"))
        left = [step for step in session.steps if statuses[step.id].state not in StepState.COMPLETE]
        if not left:
            return first + " " + self.t("steps_left_none")
        return first + " " + self.t("steps_left", count=len(left), title=session.title_of(left[0]))

    def run_one(self, step_id: str, confirmed: bool = False) -> None:
        session = self.session
        if session is None:
            return
        if session.running_step is not None:
            self.plugin.notify(self.t("busy"), "warning")
            return
        self.select(step_id)

        def work() -> None:
            session.run_step(step_id, self._on_line, confirmed=confirmed)

        self._in_background(work)

    def _rerun_after_fix(self, step_id: str, pane: Pane) -> None:
        from .steps import StepState

        session = self.session
        if session is None or step_id not in {step.id for step in session.steps}:
            return
        if session.status(step_id).state in StepState.COMPLETE:
            return  # passed or skipped meanwhile: nothing to find out
        title = session.title_of(session.step(step_id))
        self.plugin.notify(self.t("rerun_after_fix", pane=pane_label(pane), title=title))
        self.run_one(step_id)
        self.redraw()

    def stop(self, immediately: bool = False) -> None:
        if immediately:
            self.fix_watch.stop()
        session = self.session
        if session is not None:
            session.stop(immediately)

    # ----- handing things to the terminal and to agents ------------------------------------------------
    def _send(self, deliver: Delivery, step_id: Optional[str] = None) -> None:
        """Type or hand something over, mark the step sent, and tell the user how it went."""
        session = self.session
        if session is None:
            return
        try:
            message = deliver(session)
            if step_id is not None:
                session.mark_sent(step_id)
            if message:
                self.plugin.notify(self.t(message), "info" if message.startswith("sent") else "warning")
        except AgenttyError as error:
            self.plugin.notify(self.t("send_failed", error=str(error)), "error")

    def _type_command(self, step_id: str, after_wait: bool = False) -> Delivery:
        """after_wait: typed when the agents went idle, maybe minutes after the user's click; a host that
        no longer lets the plugin type into the user's terminal then gets a new shell tab instead."""
        def deliver(session: ReleaseSession) -> Optional[str]:
            step = session.step(step_id)
            text = session.command_of(step) or ""
            pane = idle_agent_pane(session.repo, self.plugin.context.pane, self.plugin.list_workspaces(),
                                   kinds=SHELL_KINDS)
            if pane is None:  # a new shell tab in the repository; a shell never gets Enter from a prompt
                self.plugin.inject_prompt(text, target="newTab", agent="shell", cwd=session.repo, submit=False,
                                        title=self.t("title", version=session.version))
                return "no_terminal"
            with self.lock:
                press_enter = self.state.press_enter
            # Enter only when the checklist (#enter) or the user (the toggle) asked for it.
            try:
                self.plugin.send_to_terminal(text, pane_id=pane.id, submit=step.press_enter or press_enter)
            except AgenttyError:
                if not after_wait:
                    raise
                self.plugin.inject_prompt(text, target="newTab", agent="shell", cwd=session.repo, submit=False,
                                          title=self.t("title", version=session.version))
                return "no_terminal"
            return "sent_terminal"

        return deliver

    def _hand_over(self, prompt: Callable[[ReleaseSession], str], fixing: Optional[str] = None) -> Delivery:
        """fixing: the failed check the agent is asked to fix; it runs again when that agent is idle again."""
        def deliver(session: ReleaseSession) -> Optional[str]:
            text = prompt(session)
            pane = idle_agent_pane(session.repo, self.plugin.context.pane, self.plugin.list_workspaces())
            title = self.t("title", version=session.version)
            if pane is None:  # every agent pane is busy: let the user pick rather than interrupt one
                self.plugin.inject_prompt(text, target="ask", cwd=session.repo, title=title)
                return "asked_agent"
            self.plugin.inject_prompt(text, target="pane", pane_id=pane.id, cwd=session.repo, title=title)
            if fixing is not None:
                self.fix_watch.watch(pane.id, fixing)
            return "sent_agent"

        return deliver

    # ----- one step's actions -----------------------------------------------------------------------
    def do_step(self, step_id: str, action: str, confirmed: bool = False, after_wait: bool = False) -> None:
        """One row action (ids.ACT_*) on one step; the panel event that asked for it draws the result.

        An irreversible step asks first; confirmed while an agent works in the repository, it waits for the
        agents to be idle (a tag or push now would publish an agent's half-done work) and then runs."""
        from .prompts import continue_prompt, fix_prompt

        session = self.session
        if session is None:
            return
        step = session.step(step_id)
        held = action in ids.STARTS_WORK and step.irreversible
        waiting = self._waiting_step() if held else None
        if waiting is not None:
            self.plugin.notify(self.t("wait_already", title=session.title_of(session.step(waiting))), "warning")
        elif held and not confirmed:
            busy = self._busy_panes(session)
            preview = self._push_preview(session, step_id)
            if busy:
                preview = " ".join(part for part in (preview, self.t(
                    "confirm_busy", pane=pane_label(busy[0]), status=self.t("pane_" + busy[0].status))) if part)
            # Asked in the panel itself, with the exact command shown.
            self.update(confirm=Confirm(step_id, ids.ACT_RUN if action == ids.ACT_RETRY else action, preview,
                                        _local_only(session.command_of(step))))
        elif held and not after_wait and self._busy_panes(session):
            self._start_wait(session, step_id, ids.ACT_RUN if action == ids.ACT_RETRY else action)
        elif action in (ids.ACT_RUN, ids.ACT_RETRY):
            self.run_one(step_id, confirmed)
        elif action == ids.ACT_TYPE:
            self._send(self._type_command(step_id, after_wait), step_id)
        elif action == ids.ACT_HAND:
            self._send(self._hand_over(lambda s: continue_prompt(s, s.step(step_id), self.t)), step_id)
        elif action == ids.ACT_FIX:
            self._send(self._hand_over(lambda s: fix_prompt(s, s.step(step_id), self.t), fixing=step_id))
        elif action == ids.ACT_DONE:
            session.mark_done(step_id)
        elif action == ids.ACT_UNDO:
            session.reset(step_id)
        elif action == ids.ACT_SKIP:
            self.update(skipping=step_id, skip_error=False)
        elif action == ids.ACT_OUTPUT:
            self.select(step_id)
        # Not drawn here: every caller is a panel event, and _click draws once after it.

    # ----- holding a confirmed step until the agents are idle (agent_wait.py) ---------------------------
    def _busy_panes(self, session: ReleaseSession) -> List[Pane]:
        try:
            return busy_agent_panes(session.repo, self.plugin.list_workspaces())
        except AgenttyError:
            return []  # the host could not list panes: nothing known to be busy (the confirmation still asks)

    def _waiting_step(self) -> Optional[str]:
        with self.lock:
            return self.state.waiting.step if self.state.waiting is not None else None

    def _start_wait(self, session: ReleaseSession, step_id: str, action: str) -> None:
        """Hold the confirmed step: kept on disk (a restart loses nothing), shown with Cancel, run when idle."""
        from . import git_repo
        from .agent_wait import PendingWait

        pending = PendingWait(session.version, step_id, action, git_repo.head_commit(session.repo) or "")
        try:
            self.wait_store.put(session.repo, pending)
        except OSError as error:  # waited for all the same, until the plugin stops
            self.plugin.notify(self.t("wait_not_saved", problem=self.describe(error, self.plugin.data_dir)),
                               "warning")
        self._hold(session, pending, resumed=False)

    def _resume_wait(self, session: ReleaseSession) -> None:
        """A wait kept from before a restart, for this repository and version: held again."""
        from .steps import StepState

        with self.lock:
            if self._waiter is not None:
                return
        pending = self.wait_store.get(session.repo)
        if pending is None or pending.version != session.version:
            return
        try:
            done = session.status(pending.step).state in StepState.COMPLETE
        except KeyError:
            done = True  # the checklist no longer has that step
        if done:
            self._forget_wait(session.repo)
            return
        self._hold(session, pending, resumed=True)

    def _hold(self, session: ReleaseSession, pending: PendingWait, resumed: bool) -> None:
        from .agent_wait import AgentWaiter

        def still_busy(panes: List[Pane]) -> None:
            with self.lock:
                waiting = self.state.waiting
            if waiting is not None and waiter is self._waiter:
                self.update(waiting=waiting._replace(pane=pane_label(panes[0]), status=panes[0].status))

        def failed(error: BaseException) -> None:
            self._end_wait(waiter)
            if not (isinstance(error, Exception) and self._told(error)):
                self.plugin.report_failure(error, self.t("waiting_title"))

        waiter = AgentWaiter(lambda: busy_agent_panes(session.repo, self.plugin.list_workspaces()), self._settle,
                             lambda: self._wait_over(waiter), still_busy, failed)
        busy = self._busy_panes(session)
        with self.lock:
            old, self._waiter, self._pending_wait = self._waiter, waiter, pending
        if old is not None:
            old.stop()
        self.update(confirm=None, waiting=Waiting(pending.step, pending.action,
                                                  pane_label(busy[0]) if busy else "",
                                                  busy[0].status if busy else "", resumed))
        waiter.start()

    def _settle(self) -> None:
        """Wait SETTLE_MS: the host's timer (API 2), else a plain wait that Cancel and shutdown cut short."""
        from .agent_wait import SETTLE_MS

        try:
            self.plugin.timer(SETTLE_MS)
        except AgenttyError:
            with self.lock:
                waiter = self._waiter
            if waiter is not None:
                waiter.stopped.wait(SETTLE_MS / 1000)

    def _wake_waiter(self) -> None:
        with self.lock:
            waiter = self._waiter
        if waiter is not None:
            waiter.wake()

    def _end_wait(self, waiter: Optional[AgentWaiter] = None) -> Optional[PendingWait]:
        """Stop holding (the given waiter's wait only, if one is named); the wait it held, or None."""
        with self.lock:
            if self._waiter is None or (waiter is not None and waiter is not self._waiter):
                return None
            current, pending = self._waiter, self._pending_wait
            self._waiter, self._pending_wait = None, None
        current.stop()
        session = self.session
        if session is not None:
            self._forget_wait(session.repo)
        self.update(waiting=None)
        return pending

    def _forget_wait(self, repo: str) -> None:
        try:
            self.wait_store.put(repo, None)
        except OSError:
            pass  # a stale wait is checked against the step's state and HEAD when it is read back

    def cancel_wait(self) -> None:
        session = self.session
        pending = self._end_wait()
        if pending is not None and session is not None:
            self.plugin.notify(self.t("wait_cancelled", title=session.title_of(session.step(pending.step))))
        self._follow_pending()

    def _wait_over(self, waiter: AgentWaiter) -> None:
        """The agents are idle: run the held step, unless a commit came meanwhile (then it asks again)."""
        from . import git_repo
        from .steps import StepState

        session = self.session
        pending = self._end_wait(waiter)
        if pending is None or session is None:
            return
        try:
            step = session.step(pending.step)
        except KeyError:
            return
        title = session.title_of(step)
        if session.status(step.id).state in StepState.COMPLETE or session.version != pending.version:
            pass  # ticked or skipped by hand meanwhile: nothing left to start
        elif (git_repo.head_commit(session.repo) or "") != pending.head:
            self.plugin.notify(self.t("wait_head_moved", title=title), "warning")
            self.update(confirm=Confirm(step.id, pending.action, self._push_preview(session, step.id),
                                        _local_only(session.command_of(step))))
        else:
            self.plugin.notify(self.t("wait_over", title=title))
            self.do_step(step.id, pending.action, confirmed=True, after_wait=True)
        self.redraw()
        self._follow_pending()

    def _follow_pending(self) -> None:
        with self.lock:
            pending, shown = self.pending_folder, self.state.folder
        if pending is not None and pending != shown:
            self.load(pending)

    def _push_preview(self, session: ReleaseSession, step_id: str) -> str:
        """What an irreversible step will do, in words, next to the exact command: what a push sends,
        and a working tree that changed since the checks ran."""
        from . import git_repo

        dirty = git_repo.dirty_paths(session.repo)
        note = self.t("confirm_dirty", count=len(dirty), first=dirty[0]) if dirty else ""
        text = self._what_is_pushed(session, step_id)
        return " ".join(part for part in (text, note) if part)

    def _what_is_pushed(self, session: ReleaseSession, step_id: str) -> str:
        from .checklist_file import CHECKLIST_FILE_NAME
        from .push_preview import preview_push

        try:
            preview = preview_push(session.repo, session.argv_of(session.step(step_id)), (session.tag,))
        except ValueError:  # unreadable quotes: the command itself is shown, that is all we can say
            return ""
        if preview is None:
            return ""
        values = {"remote": preview.remote, "url": preview.url, "branch": ", ".join(preview.branches),
                  "tag": ", ".join(preview.tags), "commits": preview.commits}
        if not preview.remote_exists:
            return self.t("push_no_remote", remote=preview.remote, file=CHECKLIST_FILE_NAME)
        if not preview.branches:
            key = "push_tag_only"
        elif not preview.tags:  # each ref is named once, as what it is: a branch here, a tag below
            key = "push_branch_new" if preview.commits is None else "push_branch"
        else:
            key = "push_preview_new" if preview.commits is None else "push_preview"
        parts = [self.t(key, **values)]
        if preview.tags and preview.branches and not preview.atomic:
            parts.append(self.t("push_not_atomic"))
        if preview.missing_tags:  # never described as if it existed: the push would fail on it
            parts.append(self.t("push_tag_missing", tag=", ".join(preview.missing_tags)))
        return " ".join(parts)

    def confirm(self, yes: bool) -> None:
        with self.lock:
            pending = self.state.confirm
            self.update(confirm=None)
        if pending and yes:
            self.do_step(pending.step, pending.action, confirmed=True)

    def skip(self, reason: str) -> None:
        with self.lock:
            session, step_id = self._session, self.state.skipping
            if session is None or step_id is None:
                return
            if not reason.strip():
                self.update(skip_error=True)
                return
        session.skip(step_id, reason)
        with self.lock:
            self.typed[ids.SKIP_REASON] = ""
        self.update(skipping=None)

    def reset_release(self, confirmed: bool) -> None:
        session = self.session
        if confirmed and session is not None:
            session.reset()
        self.update(confirm_reset=False)

    def apply_version(self, value: str) -> None:
        from .versions import is_version

        session = self.session
        value = value.strip()
        if session is None or not value or value == session.version:
            return
        if not is_version(value):
            self.update(version_error=self.t("version_bad", value=value))
            return
        self._choose(session.repo, value)
        self.load(self._shown_folder(), value)

    def _choose(self, repo: str, version: Optional[str]) -> None:
        try:
            self.chosen_versions.set(repo, version)
        except OSError as error:  # used all the same until the plugin stops
            problem = self.describe(error, self.plugin.data_dir)
            self.plugin.notify(self.t("chosen_not_saved", problem=problem), "warning")

    def _tell_chosen_damage(self) -> None:
        damage = self.chosen_versions.take_damage()
        if damage is not None:
            file, kept = damage
            self.plugin.notify(self.t("chosen_damaged" if kept else "chosen_damaged_left", file=file, kept=kept),
                             "warning")

    def write_checklist(self) -> None:
        from .checklist_file import CHECKLIST_FILE_NAME
        from .default_checklist import write_checklist_file

        session = self.session
        if session is None:
            return
        try:
            # The checklist shown now: derived, or the repository's own release document converted; over
            # a blank RELEASE_CHECKLIST.md (left by a write that failed) once the user asks again.
            path = write_checklist_file(session.repo, session.spec, replace_blank=session.loaded.source == "blank")
            self.plugin.notify(self.t("written", file=os.path.basename(path)), "success")
            self.load(self._shown_folder(), session.version)
        except FileExistsError:
            self.plugin.notify(self.t("write_exists", file=CHECKLIST_FILE_NAME), "warning")
        except OSError as error:
            self.plugin.notify(self.t("write_failed", file=CHECKLIST_FILE_NAME,
                                    problem=self.describe(error, session.repo)), "error")

    def reveal_checklist(self) -> None:
        with self.lock:
            session, problems_file = self._session, self.state.problems_file
        path = (session.loaded.path if session and session.loaded.path and session.loaded.source != "default"
                else problems_file)
        if path and os.path.isabs(path):
            self.plugin.reveal_path(path)
