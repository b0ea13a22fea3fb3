"""What the panel does when the user clicks: load the focused repository's release, run, type, hand over.

The host (the runtime's Plugin object) is passed in, so this module never speaks JSON-RPC itself;
main.py only routes the host's messages here.
"""
from __future__ import annotations

import os
import threading
from typing import Any, Callable, Dict, Optional

from agentty_plugin import AgenttyError, Pane, Plugin

from . import git_repo
from .checklist_file import CHECKLIST_FILE_NAME, ChecklistParseError
from .chosen_versions import ChosenVersions
from .default_checklist import write_checklist_file
from .fix_watch import FixWatch
from .handoff import AGENT_KINDS, SHELL_KINDS, busy_agents, choose_pane, pane_name
from .prompts import continue_prompt, fix_prompt
from .push_preview import preview_push
from .redraw_throttle import RedrawThrottle
from .release_session import NotARepository, ReleaseSession, SessionBusy
from .steps import Step, StepState
from .text import TRANSLATOR
from .versions import is_version
from .view import State, badge_text, render

Delivery = Callable[[ReleaseSession], Optional[str]]  # returns the panel_text key to notify with


class ReleasePanel:
    """The panel's state and behaviour; every public method is safe to call from any handler thread."""

    def __init__(self, host: Plugin) -> None:
        self.host = host
        self.view = State()
        self.lock = threading.RLock()  # handlers run on several threads; the view changes under this lock
        self._chosen: Optional[ChosenVersions] = None  # repository -> version the user typed, on disk
        self.typed: Dict[str, str] = {}  # last text of the version and skip-reason inputs
        self.panel_open = False
        self.badge: Optional[str] = None
        self.pending_folder: Optional[str] = None  # focus moved while a step ran: follow it afterwards
        self.throttle = RedrawThrottle(self.draw, interval=0.3)
        self.fix_watch = FixWatch(self.host.list_workspaces, self._rerun_after_fix)

    @property
    def chosen_versions(self) -> ChosenVersions:
        if self._chosen is None:  # the data folder is known once the host said hello
            self._chosen = ChosenVersions(self.host.data_dir)
        return self._chosen

    def t(self, key: str, **values: Any) -> str:
        return str(TRANSLATOR.get(self.host.language, key, **values))

    @property
    def session(self) -> Optional[ReleaseSession]:
        with self.lock:
            return self.view.session

    def draw(self) -> None:
        with self.lock:
            self.view.language = self.host.language
            tree = render(self.view, self.t)
            badge = badge_text(self.view)
        if self.panel_open:
            self.host.set_panel(tree)
        if badge != self.badge:
            self.badge = badge
            self.host.set_badge(badge)

    # ----- following the focused repository ---------------------------------------------------------
    def load(self, folder: Optional[str], version: Optional[str] = None) -> None:
        """Open the release for folder's repository (quick: a few git calls and one file read)."""
        generation = self.host.latest("load")
        view = self.view
        with self.lock:
            if view.session is not None and view.session.running_step is not None:
                self.pending_folder = folder  # a running step keeps its repository until it ends
                return
            self.pending_folder = None
            view.folder, view.not_repo, view.problems, view.read_error = folder, False, [], None
            view.confirm, view.skipping, view.confirm_reset, view.version_error = None, None, False, None
            view.loading = folder is not None and (view.session is None or not folder.startswith(view.session.repo))
        self.draw()
        if folder is None:
            return
        session, problems, error, file = None, [], None, ""
        repo = git_repo.repo_root(folder)
        try:
            if repo is None:
                raise NotARepository(folder)
            kept = None if version else self.chosen_versions.get(repo)
            session = ReleaseSession(repo, self.host.data_dir, version or kept,
                                     on_change=lambda _step, _record: self.throttle.request())
            if kept and git_repo.tag_exists(repo, session.tag):  # released since: back to the project's version
                self.chosen_versions.set(repo, None)
                session = ReleaseSession(repo, self.host.data_dir, None,
                                         on_change=lambda _step, _record: self.throttle.request())
        except NotARepository:
            pass
        except ChecklistParseError as parse_error:
            problems, file = parse_error.problems, parse_error.path or CHECKLIST_FILE_NAME
        except OSError as os_error:
            error = os_error.strerror or str(os_error)
        if not generation.is_current:
            return
        with self.lock:
            view.loading, view.session, view.read_error = False, session, error
            view.problems, view.problems_file = problems, file
            view.not_repo = repo is None
            view.history = session.history() if session else []
            view.live_lines.clear()
        self.draw()

    def follow(self, folder: Optional[str]) -> None:
        if folder and folder == self.view.folder and self.session is not None:
            return
        self.load(folder)

    def reload(self, folder: Optional[str]) -> None:
        session = self.session
        self.load(folder or self.view.folder, session.version if session else None)

    # ----- running checks ---------------------------------------------------------------------------
    def _in_background(self, work: Callable[[], None]) -> None:
        """Run a step off the message loop; redraw every second meanwhile so the elapsed time moves."""
        done = threading.Event()

        def tick() -> None:
            while not done.wait(1.0):
                self.throttle.request()

        def run() -> None:
            try:
                work()
            except SessionBusy:
                self.host.notify(self.t("busy"), "warning")
            finally:
                done.set()
                with self.lock:
                    self.view.history = self.view.session.history() if self.view.session else []
                    pending = self.pending_folder
                if pending is not None and pending != self.view.folder:
                    self.load(pending)
                self.throttle.request()

        threading.Thread(target=tick, name="release-checklist-tick", daemon=True).start()
        threading.Thread(target=run, name="release-checklist-run", daemon=True).start()

    def _on_line(self, _step_id: str, line: str) -> None:
        with self.lock:
            self.view.live_lines.append(line)
        self.throttle.request()

    def select(self, step_id: Optional[str]) -> None:
        with self.lock:
            self.view.selected = step_id
            self.view.live_lines.clear()

    def run_all(self) -> None:
        session = self.session
        if session is None:
            return
        if session.running_step is not None:
            self.host.notify(self.t("busy"), "warning")
            return
        if session.checklist_changed():  # edited since it was read: run what the file says now
            self.load(self.view.folder, session.version)
            session = self.session
            if session is None:
                return
        if not session.checks_to_run():
            self.host.notify(self.t("nothing-to-run"))
            return

        def work() -> None:
            results = session.run_checks(on_line=self._on_line, on_step=lambda step: self.select(step.id))
            failed_ids = [step_id for step_id, record in results.items() if record.state == StepState.FAILED]
            unknown_ids = [step_id for step_id, record in results.items() if record.state == StepState.UNKNOWN]
            failed, unknown = len(failed_ids), len(unknown_ids)
            if failed_ids or unknown_ids:  # the first problem's output, with Retry and "Ask the agent to fix it"
                self.select((failed_ids or unknown_ids)[0])
            if unknown:  # never folded into "passed": the count says how many answers are missing
                passed = sum(record.state == StepState.PASSED for record in results.values())
                self.host.notify(self.t("checks-unknown", passed=passed, failed=failed, unknown=unknown),
                                 "error" if failed else "warning")
            elif failed:
                self.host.notify(self.t("checks-failed", count=failed), "error")
            elif results and all(record.state == StepState.PASSED for record in results.values()):
                self.host.notify(self.t("all-passed"), "success")

        self._in_background(work)

    def run_one(self, step_id: str, confirmed: bool = False) -> None:
        session = self.session
        if session is None:
            return
        if session.running_step is not None:
            self.host.notify(self.t("busy"), "warning")
            return
        self.select(step_id)

        def work() -> None:
            session.run_step(step_id, self._on_line, confirmed=confirmed)

        self._in_background(work)

    def _rerun_after_fix(self, step_id: str, pane: Pane) -> None:
        session = self.session
        if session is None or step_id not in {step.id for step in session.steps}:
            return
        if session.status(step_id).state in StepState.COMPLETE:
            return  # passed or skipped meanwhile: nothing to find out
        self.host.notify(self.t("rerun-after-fix", pane=pane_name(pane), title=session.title_of(session.step(step_id))))
        self.run_one(step_id)
        self.throttle.request()

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
                self.host.notify(self.t(message), "info" if message.startswith("sent") else "warning")
        except AgenttyError as error:
            self.host.notify(self.t("send-failed", error=str(error)), "error")

    def _type_command(self, step_id: str) -> Delivery:
        def deliver(session: ReleaseSession) -> Optional[str]:
            step = session.step(step_id)
            text = session.command_of(step) or ""
            pane = choose_pane(SHELL_KINDS, session.repo, self.host.context.pane, self.host.list_workspaces())
            if pane is None:  # a new shell tab in the repository; a shell never gets Enter from a prompt
                self.host.inject_prompt(text, target="newTab", agent="shell", cwd=session.repo, submit=False,
                                        title=self.t("title", version=session.version))
                return "no-terminal"
            # Enter only when the checklist (#enter) or the user (the toggle) asked for it.
            self.host.send_to_terminal(text, pane_id=pane.id, submit=step.press_enter or self.view.press_enter)
            return "sent-terminal"

        return deliver

    def _hand_over(self, prompt: Callable[[ReleaseSession], str], fixing: Optional[str] = None) -> Delivery:
        """fixing: the failed check the agent is asked to fix; it runs again when that agent is idle again."""
        def deliver(session: ReleaseSession) -> Optional[str]:
            text = prompt(session)
            pane = choose_pane(AGENT_KINDS, session.repo, self.host.context.pane, self.host.list_workspaces())
            title = self.t("title", version=session.version)
            if pane is None:  # every agent pane is busy: let the user pick rather than interrupt one
                self.host.inject_prompt(text, target="ask", cwd=session.repo, title=title)
                return "asked-agent"
            self.host.inject_prompt(text, target="pane", pane_id=pane.id, cwd=session.repo, title=title)
            if fixing is not None:
                self.fix_watch.watch(pane.id, fixing)
            return "sent-agent"

        return deliver

    # ----- one step's actions -----------------------------------------------------------------------
    def do_step(self, step_id: str, action: str, confirmed: bool = False) -> None:
        session = self.session
        if session is None:
            return
        step = session.step(step_id)
        if action in ("run", "retry", "type", "hand") and step.irreversible and self._agent_is_busy(session, step):
            pass  # refused, with the pane named: a tag or push now would publish an agent's half-done work
        elif action in ("run", "retry", "type", "hand") and step.irreversible and not confirmed:
            with self.lock:  # asked in the panel itself, with the exact command shown
                self.view.confirm = {"step": step_id, "action": "run" if action == "retry" else action,
                                     "preview": self._push_preview(session, step_id)}
        elif action in ("run", "retry"):
            self.run_one(step_id, confirmed)
        elif action == "type":
            self._send(self._type_command(step_id), step_id)
        elif action == "hand":
            self._send(self._hand_over(lambda s: continue_prompt(s, s.step(step_id), self.t)), step_id)
        elif action == "fix":
            self._send(self._hand_over(lambda s: fix_prompt(s, s.step(step_id), self.t), fixing=step_id))
        elif action == "done":
            session.mark_done(step_id)
        elif action == "undo":
            session.reset(step_id)
        elif action == "skip":
            with self.lock:
                self.view.skipping, self.view.skip_error = step_id, False
        elif action == "output":
            self.select(step_id)
        self.draw()

    def _agent_is_busy(self, session: ReleaseSession, step: Step) -> bool:
        try:
            busy = busy_agents(session.repo, self.host.list_workspaces())
        except AgenttyError:
            busy = []  # the host could not list panes: nothing known to be busy (the confirmation still asks)
        if not busy:
            return False
        pane = busy[0]
        self.host.notify(self.t("agent-busy", pane=pane_name(pane), status=self.t("pane-" + pane.status),
                                title=session.title_of(step)), "warning")
        with self.lock:
            self.view.confirm = None
        return True

    def _push_preview(self, session: ReleaseSession, step_id: str) -> str:
        """What an irreversible step will do, in words, next to the exact command: what a push sends,
        and a working tree that changed since the checks ran."""
        dirty = git_repo.dirty_paths(session.repo)
        note = self.t("confirm-dirty", count=len(dirty), first=dirty[0]) if dirty else ""
        text = self._what_is_pushed(session, step_id)
        return " ".join(part for part in (text, note) if part)

    def _what_is_pushed(self, session: ReleaseSession, step_id: str) -> str:
        try:
            preview = preview_push(session.repo, session.argv_of(session.step(step_id)))
        except ValueError:  # unreadable quotes: the command itself is shown, that is all we can say
            return ""
        if preview is None:
            return ""
        values = {"remote": preview.remote, "url": preview.url, "branch": ", ".join(preview.branches),
                  "tag": ", ".join(preview.tags), "commits": preview.commits}
        if not preview.remote_exists:
            return self.t("push-no-remote", remote=preview.remote, file=CHECKLIST_FILE_NAME)
        if not preview.branches:
            return self.t("push-tag-only", **values)
        key = "push-preview-new" if preview.commits is None else "push-preview"
        text = self.t(key, **values)
        return text if preview.atomic or not preview.tags else text + " " + self.t("push-not-atomic")

    def confirm(self, yes: bool) -> None:
        with self.lock:
            pending, self.view.confirm = self.view.confirm, None
        if pending and yes:
            self.do_step(pending["step"], pending["action"], confirmed=True)

    def skip(self, reason: str) -> None:
        session, step_id = self.session, self.view.skipping
        if session is None or step_id is None:
            return
        if not reason.strip():
            self.view.skip_error = True
            return
        session.skip(step_id, reason)
        with self.lock:
            self.view.skipping, self.typed["skip.reason"] = None, ""

    def reset_release(self, confirmed: bool) -> None:
        session = self.session
        if confirmed and session is not None:
            session.reset()
        self.view.confirm_reset = False

    def apply_version(self, value: str) -> None:
        session = self.session
        value = value.strip()
        if session is None or not value or value == session.version:
            return
        if not is_version(value):
            self.view.version_error = self.t("version-bad", value=value)
            return
        self.chosen_versions.set(session.repo, value)
        self.load(self.view.folder, value)

    def write_checklist(self) -> None:
        session = self.session
        if session is None:
            return
        try:
            # The checklist shown now: derived, or the repository's own release document converted.
            path = write_checklist_file(session.repo, session.spec)
            self.host.notify(self.t("written", file=os.path.basename(path)), "success")
            self.load(self.view.folder, session.version)
        except FileExistsError:
            self.host.notify(self.t("write-exists", file=CHECKLIST_FILE_NAME), "warning")
        except OSError as error:
            self.host.notify(self.t("write-failed", file=CHECKLIST_FILE_NAME, error=error.strerror or str(error)),
                             "error")

    def reveal_checklist(self) -> None:
        session = self.session
        path = (session.loaded.path if session and session.loaded.path and session.loaded.source != "default"
                else self.view.problems_file)
        if path and os.path.isabs(path):
            self.host.reveal_path(path)
