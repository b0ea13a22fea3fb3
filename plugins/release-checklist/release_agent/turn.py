"""One prompt turn: read the request, run the checklist steps it asks for, and stream plan, tool calls and text.

Cancellation: session/cancel sets `cancel_event` and stops the running command's process tree at once
(ReleaseSession.stop); every wait in the turn races that event, so the turn answers `cancelled` within
a fraction of a second, whatever it was waiting for (a command, a permission answer, git).
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
from typing import Any, Awaitable, Callable, Dict, List, Optional, Sequence, Set, Tuple, TypeVar

from acp import (
    plan_entry,
    start_tool_call,
    text_block,
    tool_content,
    update_agent_message_text,
    update_plan,
    update_tool_call,
)
from acp.interfaces import Client
from acp.schema import PermissionOption, PlanEntryPriority, PlanEntryStatus, ToolCallLocation, ToolCallUpdate
from release_checklist import (
    ChecklistParseError,
    NotARepository,
    ReleaseSession,
    StepKind,
    StepRecord,
    StepState,
)

from . import engine
from .engine import StepView
from .messages import mode_name, say
from .requests import Intent, Request, parse_request
from .session_options import MODE_RELEASE
from .session_state import SessionState
from .step_output import StepOutput, render_output
from .summaries import RunReport, left_text, records_of, run_summary, status_text

log = logging.getLogger("release_agent")

FLUSH_SECONDS = 0.15  # at most ~7 output updates a second per step: live, yet no flood
STOP_GRACE_SECONDS = 0.7  # after Stop, how long we wait for the command to report before answering
_T = TypeVar("_T")


class TurnCancelled(Exception):
    """The client cancelled the turn (session/cancel, or a permission request answered "cancelled")."""


def read_prompt(blocks: Sequence[Any]) -> Tuple[str, List[str]]:
    """The prompt's text, and the kinds of block we cannot use ("image", "audio", "resource")."""
    texts: List[str] = []
    ignored: List[str] = []
    for block in blocks:
        kind = getattr(block, "type", "")
        if kind == "text":
            texts.append(getattr(block, "text", ""))
        elif kind in ("image", "audio"):
            ignored.append(kind)
        else:  # resource_link and embedded resources: files we do not read
            ignored.append("resource")
    return "\n".join(texts).strip(), ignored


class Turn:
    def __init__(self, conn: Client, session: SessionState, data_dir: str) -> None:
        self.conn = conn
        self.session = session
        self.data_dir = data_dir
        session.turns_started += 1
        self.number = session.turns_started
        self.language = session.language
        self.cancel_event = asyncio.Event()
        self.release: Optional[ReleaseSession] = None
        self.views: List[StepView] = []
        self.plan: Dict[str, Tuple[PlanEntryStatus, str]] = {}
        self._open_calls: Dict[str, StepView] = {}  # tool calls started and not yet finished
        self._last_plan: List[Any] = []

    # ----- cancellation -----------------------------------------------------------------------
    def cancel(self, immediately: bool = False) -> None:
        """session/cancel: idempotent, returns at once. immediately=True (the agent is exiting): SIGKILL now."""
        self.cancel_event.set()
        release = self.release
        if release is not None:
            release.stop(immediately)  # kills the running command's whole process tree now

    async def _race(self, awaitable: Awaitable[_T]) -> _T:
        """Await something, unless the turn is cancelled first (then raise TurnCancelled)."""
        task = asyncio.ensure_future(awaitable)
        if self.cancel_event.is_set():
            task.cancel()
            raise TurnCancelled
        cancelled = asyncio.ensure_future(self.cancel_event.wait())
        try:
            await asyncio.wait({task, cancelled}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            cancelled.cancel()
        if task.done():
            return task.result()
        task.cancel()
        raise TurnCancelled

    async def _in_thread(self, function: Callable[..., _T], *args: Any) -> _T:
        return await self._race(asyncio.get_running_loop().run_in_executor(None, function, *args))

    # ----- sending ----------------------------------------------------------------------------
    async def _send(self, update: Any) -> None:
        await self.conn.session_update(session_id=self.session.session_id, update=update)

    async def _say(self, text: str) -> None:
        if text:
            await self._send(update_agent_message_text(text))

    async def _send_plan(self) -> None:
        entries = []
        for view in self.views:
            status, note = self.plan.get(view.id, ("pending", ""))
            priority: PlanEntryPriority = "high" if view.irreversible else "medium" if view.runs_here else "low"
            entries.append(plan_entry(f"{view.title} — {note}" if note else view.title, priority=priority,
                                      status=status))
        if entries == self._last_plan:
            return  # the plan is always sent whole; an identical one tells the client nothing
        self._last_plan = entries
        await self._send(update_plan(entries))

    def _location(self) -> List[ToolCallLocation]:
        return [ToolCallLocation(path=self.session.repo or self.session.cwd)]

    # ----- the turn ---------------------------------------------------------------------------
    async def run(self, blocks: Sequence[Any]) -> str:
        """Run the turn; returns the stop reason ("end_turn" or "cancelled")."""
        try:
            stop_reason = await self._run(blocks)
        except TurnCancelled:
            await self._close_open_calls()
            return "cancelled"
        # A cancel that came in as the last step ended still gets the answer the client waits for.
        return "cancelled" if self.cancel_event.is_set() else stop_reason

    async def _run(self, blocks: Sequence[Any]) -> str:
        text, ignored = read_prompt(blocks)
        request = parse_request(text, self.session.language)
        self.language = self.session.language = request.language
        preface = ""
        if ignored:
            what = ", ".join(sorted({say(self.language, f"what_{kind}") for kind in ignored}))
            preface = say(self.language, "unsupported", what=what)
        if request.intent in (Intent.HELP, Intent.EMPTY, Intent.UNKNOWN):
            unknown = say(self.language, "unknown", text=text[:200]) if request.intent == Intent.UNKNOWN else ""
            await self._say(preface + unknown + self._help())
            return "end_turn"
        if self.session.repo is None:
            await self._say(preface + say(self.language, "not_repo", cwd=self.session.cwd))
            return "end_turn"
        await self._say(preface)
        opened = await self._open(request)
        if opened is None:
            return "end_turn"
        if request.intent in (Intent.STATUS, Intent.REMAINING):
            await self._report(request)
            return "end_turn"
        await self._run_steps(request)
        return "end_turn"

    def _help(self) -> str:
        return say(self.language, "help", mode=mode_name(self.language, self.session.mode))

    async def _open(self, request: Request) -> Optional[ReleaseSession]:
        repo = self.session.repo or self.session.cwd
        try:
            release, views = await self._in_thread(_open_release, repo, self.data_dir, request.version)
        except NotARepository:
            await self._say(say(self.language, "not_repo", cwd=self.session.cwd))
            return None
        except ChecklistParseError as error:
            path = os.path.relpath(error.path, repo) if error.path else "RELEASE_CHECKLIST.md"
            lines = [say(self.language, "bad_checklist", path=path, count=len(error.problems))]
            lines += [f"- {problem}" for problem in error.problems[:20]]
            await self._say("\n".join(lines))
            return None
        except OSError as error:
            await self._say(say(self.language, "unreadable", error=error))
            return None
        self.release, self.views = release, views
        if self.cancel_event.is_set():  # a cancel that arrived while we were opening: stop before any step
            raise TurnCancelled
        return release

    def _records(self) -> Dict[str, StepRecord]:
        assert self.release is not None
        return records_of(self.views, self.release.statuses())

    async def _report(self, request: Request) -> None:
        assert self.release is not None
        records = self._records()
        for view in self.views:
            state = records[view.id].state
            status: PlanEntryStatus = ("completed" if state in StepState.COMPLETE
                                       else "in_progress" if state == StepState.RUNNING else "pending")
            note = say(self.language, "plan_failed") if state in (StepState.FAILED, StepState.INTERRUPTED,
                                                                    StepState.UNKNOWN) else ""
            self.plan[view.id] = (status, note)
        await self._send_plan()
        version, tag = self.release.version, self.release.tag
        if request.intent == Intent.STATUS:
            await self._say(status_text(self.language, version, tag, self.views, records))
        else:
            await self._say(left_text(self.language, version, tag, self.views, records))

    async def _run_steps(self, request: Request) -> None:
        release = self.release
        assert release is not None
        releasing = request.intent == Intent.RELEASE and self.session.mode == MODE_RELEASE
        records = self._records()
        complete = [records[view.id].state in StepState.COMPLETE for view in self.views]
        # Checks before the last change already made (a tag created, a manual step ticked) keep their
        # result: the release itself changed what they look at ("tag is free" fails once it is not).
        last_change = max((index for index, view in enumerate(self.views) if complete[index] and not view.read_only),
                          default=-1)
        keep = {view.id for index, view in enumerate(self.views)
                if complete[index] and (not view.read_only or index < last_change)}
        done_note = say(self.language, "plan_done_before")
        for view in self.views:  # steps kept as they are show their saved state
            self.plan[view.id] = ("completed", done_note) if view.id in keep else ("pending", "")
        await self._send_plan()
        report = RunReport(release.version, release.tag, self.session.mode, releasing,
                           request.intent == Intent.RELEASE, len(self.views))
        if all(complete) and last_change >= 0:  # released (a checks-only checklist is simply checked again)
            await self._say(say(self.language, "release_done", version=release.version, tag=release.tag,
                                total=len(self.views)))
            return
        intro = say(self.language, "suggested_version", version=release.version) \
            if release.version_source == "suggested" and request.version is None else ""
        source = engine.checklist_path(release) or say(self.language, "source_default")
        to_run = [view for view in self.views if view.id not in keep and (releasing or view.read_only)]
        opening = "opening_release" if releasing else "opening_check"
        await self._say(intro + say(self.language, opening, version=release.version, tag=release.tag, source=source,
                                    count=len(to_run)))
        for index, view in enumerate(self.views):
            if self.cancel_event.is_set():
                raise TurnCancelled
            if view.id in keep:
                continue  # a tag that exists, a manual step ticked earlier: never done twice
            if view.read_only:
                report.ran.append((view, await self._run_command_step(view)))
                continue
            if not releasing:
                if view.runs_here or view.irreversible:  # manual steps are not "changes"; they just wait
                    report.not_in_mode.append(view)
                    self.plan[view.id] = ("pending", say(self.language, "plan_not_in_mode"))
                continue
            if self.session.mode != MODE_RELEASE:  # switched to Check only during the turn
                report.stopped = ("mode_changed", view.title)
                break
            earlier = self._records()
            if any(earlier[other.id].state not in StepState.COMPLETE for other in self.views[:index]):
                report.stopped = ("blocked", view.title)
                break
            if view.runs_here:
                allowed = await self._permission(view) if view.irreversible else True
                if not allowed:
                    report.stopped = ("declined", view.title)
                    break
                result = await self._run_command_step(view)
                report.ran.append((view, result))
                if result.state != StepState.PASSED:
                    break
            elif not await self._manual_step(view):
                report.stopped = ("not_yet", view.title)
                break
        await self._send_plan()
        records = self._records()
        report.complete_steps = sum(records[view.id].state in StepState.COMPLETE for view in self.views)
        await self._say(run_summary(self.language, report))

    # ----- one step -----------------------------------------------------------------------------
    def _call_id(self, view: StepView) -> str:
        return f"{view.id}#{self.number}"

    async def _start_call(self, view: StepView, kind: Any, content: Optional[str] = None) -> str:
        call_id = self._call_id(view)
        if call_id in self._open_calls:
            return call_id
        raw_input: Dict[str, Any] = {"command": view.command, "cwd": self.session.repo}
        if view.runs_here and self.release is not None:
            raw_input["argv"] = engine.argv_of(self.release, view.id)
        self._open_calls[call_id] = view
        await self._send(start_tool_call(
            call_id, view.title, kind=kind, status="pending", raw_input=raw_input, locations=self._location(),
            content=[tool_content(text_block(content))] if content else None))
        return call_id

    async def _finish_call(self, call_id: str, status: Any, text: str, raw_output: Any = None) -> None:
        self._open_calls.pop(call_id, None)
        await self._send(update_tool_call(call_id, status=status, content=[tool_content(text_block(text))],
                                          raw_output=raw_output))

    async def _close_open_calls(self) -> None:
        """After a cancel: every started tool call ends as failed ("Stopped"), then the plan is resent."""
        for call_id, view in list(self._open_calls.items()):
            await self._finish_call(call_id, "failed", say(self.language, "out_stopped"))
            if self.plan.get(view.id, ("pending", ""))[0] == "in_progress":
                self.plan[view.id] = ("pending", say(self.language, "out_stopped"))
        if self.views:
            await self._send_plan()

    async def _run_command_step(self, view: StepView) -> StepRecord:
        release = self.release
        assert release is not None
        call_id = await self._start_call(view, "execute")
        self.plan[view.id] = ("in_progress", "")
        await self._send_plan()
        await self._send(update_tool_call(call_id, status="in_progress"))
        loop = asyncio.get_running_loop()
        output = StepOutput(loop)
        finished = loop.run_in_executor(None, _run_step_safely, release, view.id, output.add)
        while not finished.done():
            waiter = asyncio.ensure_future(output.changed.wait())
            stopper = asyncio.ensure_future(self.cancel_event.wait())
            waiting: Set[asyncio.Future[Any]] = {finished, waiter, stopper}
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            stopper.cancel()
            if self.cancel_event.is_set():
                release.stop()
                # Give the command a moment to report its end, but never keep the client waiting long.
                await asyncio.wait({finished}, timeout=STOP_GRACE_SECONDS)
                raise TurnCancelled
            if output.changed.is_set() and not finished.done():
                output.changed.clear()
                lines, total = output.snapshot()
                await self._send(update_tool_call(call_id, content=[tool_content(text_block(
                    render_output(lines, total, self.language)))]))
                try:  # throttle, but wake at once for a cancel
                    await asyncio.wait_for(self.cancel_event.wait(), timeout=FLUSH_SECONDS)
                except asyncio.TimeoutError:
                    pass
        record = finished.result()
        lines, total = output.snapshot()
        if not lines and record.tail:
            lines, total = list(record.tail), len(record.tail)
        text = render_output(lines, total, self.language)
        if record.message:
            text += f"\n\n{record.message}"
        passed = record.state == StepState.PASSED
        self.plan[view.id] = ("completed", "") if passed else ("pending", say(self.language, "plan_failed"))
        await self._finish_call(call_id, "completed" if passed else "failed", text, raw_output={
            "outcome": record.outcome, "exitCode": record.exit_code, "message": record.message,
        })
        await self._send_plan()
        if self.cancel_event.is_set():  # the cancel and the command's end crossed: still a cancelled turn
            raise TurnCancelled
        return record

    async def _permission(self, view: StepView) -> bool:
        """Ask before an irreversible step; True to run it. A cancelled request cancels the turn."""
        call_id = await self._start_call(view, "execute")
        if view.id in self.session.always_allowed:
            return True
        words = self.language
        options = [
            PermissionOption(option_id="allow-once", name=say(words, "opt_allow_once"), kind="allow_once"),
            PermissionOption(option_id="allow-always", name=say(words, "opt_allow_always"), kind="allow_always"),
            PermissionOption(option_id="reject", name=say(words, "opt_reject"), kind="reject_once"),
        ]
        answer = await self._ask(call_id, say(self.language, "perm_irreversible", title=view.title), view, options)
        if answer == "allow-always":
            self.session.always_allowed.add(view.id)
        if answer in ("allow-once", "allow-always"):
            return True
        await self._finish_call(call_id, "failed", say(self.language, "out_rejected"))
        return False

    async def _manual_step(self, view: StepView) -> bool:
        """A step only the user can do (manual, agent prompt, shell command): ask whether it is done."""
        if view.kind == StepKind.AGENT and view.command:
            hint = say(self.language, "agent_hint", prompt=view.command)
        elif view.needs_shell and view.command:
            hint = say(self.language, "terminal_hint", command=view.command)
        elif view.command:
            hint = say(self.language, "manual_hint", hint=view.command)
        else:
            hint = say(self.language, "manual_no_hint")
        call_id = await self._start_call(view, "other", hint)
        options = [
            PermissionOption(option_id="done", name=say(self.language, "opt_done"), kind="allow_once"),
            PermissionOption(option_id="not-yet", name=say(self.language, "opt_not_yet"), kind="reject_once"),
        ]
        if await self._ask(call_id, say(self.language, "perm_manual", title=view.title), view, options) != "done":
            await self._finish_call(call_id, "failed", hint)
            return False
        assert self.release is not None
        await self._in_thread(engine.mark_done, self.release, view.id)
        self.plan[view.id] = ("completed", "")
        await self._finish_call(call_id, "completed", say(self.language, "state_done"))
        await self._send_plan()
        return True

    async def _ask(self, call_id: str, title: str, view: StepView, options: List[PermissionOption]) -> str:
        """The chosen option id ("" if the client could not ask); raises TurnCancelled if the client cancelled."""
        tool_call = ToolCallUpdate(tool_call_id=call_id, title=title, status="pending",
                                   raw_input={"command": view.command, "cwd": self.session.repo})
        try:
            response = await self._race(self.conn.request_permission(
                session_id=self.session.session_id, tool_call=tool_call, options=options))
        except TurnCancelled:
            raise
        except Exception as error:  # a client that cannot ask: never run an irreversible step unasked
            log.warning("session/request_permission failed (%s); treating it as a rejection", error)
            return ""
        outcome = response.outcome
        if outcome.outcome == "cancelled":
            raise TurnCancelled
        return str(getattr(outcome, "option_id", ""))


def _open_release(repo: str, data_dir: str, version: Optional[str]) -> Tuple[ReleaseSession, List[StepView]]:
    """Open the release and fill in step titles (git calls): one worker-thread hop for both."""
    release = engine.open_release(repo, data_dir, version)
    if version is None and release.version_source == "suggested":
        # No version in the project files: continue the release the user worked on last, if any.
        history = release.history()
        if history and history[0].version != release.version:
            release = engine.open_release(repo, data_dir, history[0].version)
    return release, engine.describe_steps(release)


def _run_step_safely(release: ReleaseSession, step_id: str, on_line: Callable[[str], None]) -> StepRecord:
    """engine.run_step, with engine refusals (busy, not runnable) turned into a failed record, and a data
    folder that refuses the step's state into words (the check's own result when it did run)."""
    from release_checklist.release_session import ProgressNotSaved

    try:
        return engine.run_step(release, step_id, on_line, confirmed=True)
    except ProgressNotSaved as error:
        from agentty_plugin.files import describe_os_error

        note = describe_os_error(error.error, "en", error.folder)
        record = release.status(step_id)
        if record.state in (StepState.PENDING, StepState.RUNNING):  # refused before it started: it never ran
            return StepRecord(state=StepState.UNKNOWN, message=note)
        return dataclasses.replace(record, message=f"{record.message} ({note})" if record.message else note)
    except Exception as error:
        log.exception("step %s could not run", step_id)
        return StepRecord(state=StepState.FAILED, message=str(error) or type(error).__name__)
