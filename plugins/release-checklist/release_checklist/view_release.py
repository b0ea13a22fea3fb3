"""The release in the panel: header, controls, one row per step, a step's output, confirmations, history."""
from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from agentty_plugin import relative_time, ui
from agentty_plugin.files import describe_os_error

from . import ids
from .checklist_file import CHECKLIST_FILE_NAME
from .command_runner import Outcome
from .publishing import COMMAND, DISPATCH, GO_MODULE, MANUAL, RELEASE_EVENT, TAG_PUSH
from .steps import Step, StepKind, StepState
from .versions import tag_for
from .view import State, Translate

if TYPE_CHECKING:
    from .release_view import Release
    from .run_store import Damage, StepRecord

TAIL_LINES = 30  # lines of a finished step's output
MAX_STEP_ROWS = 300
MAX_OUTPUT_CHARS = 8000  # the host cuts any text over 20,000 characters; we keep the end, not the start


def _output_text(lines: List[str], t: Translate) -> str:
    text = "\n".join(lines)
    return ("…" + text[-MAX_OUTPUT_CHARS:]) if len(text) > MAX_OUTPUT_CHARS else (text or t("output_empty"))


STATE_LOOK = {  # state -> (icon, tone)
    StepState.PENDING: ("circle-dot", "neutral"),
    StepState.RUNNING: ("loader-circle", "info"),
    StepState.PASSED: ("circle-check", "success"),
    StepState.DONE: ("circle-check", "success"),
    StepState.FAILED: ("circle-x", "error"),
    StepState.SKIPPED: ("minus", "warning"),
    StepState.SENT: ("send", "info"),
    StepState.INTERRUPTED: ("shield-alert", "warning"),
    StepState.STOPPED: ("circle-pause", "neutral"),
    StepState.UNKNOWN: ("message-circle-question", "warning"),
}


SHOWS_OUTPUT = (StepState.PASSED, StepState.FAILED, StepState.INTERRUPTED, StepState.UNKNOWN, StepState.STOPPED)


def result_text(record: StepRecord, t: Translate) -> str:
    """The outcome of a check in the user's language ("exit code 1", "timed out after 600 s")."""
    if record.outcome == Outcome.FAILED:
        return t("outcome_failed", code=record.exit_code)
    if record.outcome == Outcome.TIMEOUT:
        return t("outcome_timeout", seconds=record.message.rsplit(" ", 2)[-2] if record.message else "?")
    if record.outcome == Outcome.STOPPED:
        return t("outcome_stopped")
    if record.outcome == Outcome.NOT_FOUND:
        return t("outcome_not_installed", program=record.message.rsplit(": ", 1)[-1], file=CHECKLIST_FILE_NAME)
    if record.outcome == Outcome.UNKNOWN:
        return record.message  # the built-in check's own sentence ("Could not reach origin: …")
    if record.outcome == Outcome.ERROR:
        return t("outcome_error", message=record.message)
    return ""


def state_text(record: StepRecord, t: Translate, step: Optional[Step] = None, now: Optional[float] = None) -> str:
    state = record.state
    if state == StepState.RUNNING:
        now = time.time() if now is None else now
        return t("state_running", seconds=int(now - (record.started_at or now)))
    if state == StepState.SKIPPED:
        return t("state_skipped", reason=record.reason) if record.reason else t("state_skipped_no_reason")
    text = t("state_" + state)
    if state in (StepState.FAILED, StepState.UNKNOWN) and record.outcome:
        derived_tests = step is not None and step.id == "tests-pass" and record.outcome == Outcome.NOT_FOUND
        text += " · " + (t("outcome_not_installed_tests", program=record.message.rsplit(": ", 1)[-1],
                           file=CHECKLIST_FILE_NAME) if derived_tests else result_text(record, t))
    if state in (StepState.PASSED, StepState.FAILED, StepState.UNKNOWN, StepState.STOPPED) and record.started_at \
            and record.finished_at:
        text += " · " + t("took", seconds=f"{max(0.0, record.finished_at - record.started_at):.1f}")
    return text


def step_actions(step: Step, record: StepRecord, running: bool, t: Translate) -> List[Dict[str, Any]]:
    """The row buttons that make sense for this step now (at most three, to keep rows readable)."""
    state = record.state
    if state == StepState.RUNNING:
        return [ui.action(ids.ACT_OUTPUT, icon="scroll-text", tooltip=t("action_output"))]
    actions: List[Dict[str, Any]] = []
    if state in StepState.COMPLETE:
        return [ui.action(ids.ACT_UNDO, icon="undo-2", tooltip=t("action_undo"))]
    if step.kind == StepKind.CHECK and not running:
        failed = state in (StepState.FAILED, StepState.INTERRUPTED, StepState.UNKNOWN)  # not a stop: Run again
        actions.append(ui.action(ids.ACT_RETRY if failed else ids.ACT_RUN, icon="rotate-cw" if failed else "play",
                                 tooltip=t("action_retry" if failed else "action_run")))
        if state in (StepState.FAILED, StepState.UNKNOWN):
            actions.append(ui.action(ids.ACT_FIX, icon="bot", tooltip=t("action_fix")))
    elif step.kind == StepKind.TERMINAL and state != StepState.SENT:
        actions.append(ui.action(ids.ACT_TYPE, icon="square-terminal", tooltip=t("action_type")))
    elif step.kind == StepKind.AGENT and state != StepState.SENT:
        actions.append(ui.action(ids.ACT_HAND, icon="bot", tooltip=t("action_hand")))
    if step.kind != StepKind.CHECK or state == StepState.SENT:
        actions.append(ui.action(ids.ACT_DONE, icon="check", tooltip=t("action_done")))
    actions.append(ui.action(ids.ACT_SKIP, icon="minus", tooltip=t("action_skip")))
    return actions[:3]


def _step_item(release: Release, step: Step, record: StepRecord, running: bool, t: Translate,
               now: Optional[float]) -> Dict[str, Any]:
    icon, tone = STATE_LOOK.get(record.state, ("circle-dot", "neutral"))
    kind = t("kind_" + step.kind) + (" · " + t("irreversible") if step.irreversible else "")
    command = release.command_of(step)
    return ui.item(step.id, release.title_of(step), subtitle=f"{state_text(record, t, step, now)} · {kind}",
                   detail=command[:300] if command else None, icon=icon, tone=tone,
                   actions=step_actions(step, record, running, t))


def _output_block(state: State, release: Release, t: Translate) -> Optional[Dict[str, Any]]:
    running_id = release.running_step
    if running_id is not None:
        step = release.step(running_id)
        lines = list(state.live_lines)
        return ui.column([
            ui.spinner(t("running_step", title=release.title_of(step))),
            ui.text(_output_text(lines, t), "code"),
        ], gap="small")
    if state.selected is None:
        return None
    try:
        step = release.step(state.selected)
    except KeyError:
        return None
    record = release.status(step.id)
    if record.state not in SHOWS_OUTPUT or step.kind != StepKind.CHECK:
        return None
    body = _output_text(record.tail[-TAIL_LINES:], t)
    children: List[Any] = [ui.text(t("output_of", title=release.title_of(step)), "small"), ui.text(body, "code")]
    if record.state != StepState.PASSED:
        children.append(ui.row([
            ui.button(ids.OUTPUT_RETRY, t("action_retry"), icon="rotate-cw", variant="primary"),
            record.state != StepState.STOPPED and ui.button(ids.OUTPUT_FIX, t("action_fix"), icon="bot"),
            ui.button(ids.OUTPUT_SKIP, t("action_skip"), icon="minus", variant="ghost"),
        ], gap="small", wrap=True))
    return ui.column(children, gap="small")


def _publishes(release: Release, step: Step, t: Translate) -> Optional[Dict[str, Any]]:
    """Before a push that carries the tag: the workflows that push starts, which publish the release."""
    publishing = release.loaded.publishing
    command = release.command_of(step) or ""
    tag = tag_for(release.version, release.loaded.tag_format)
    if publishing is None or not command.startswith("git push") or tag not in command.split():
        return None
    if publishing.kind == GO_MODULE and publishing.registry:  # Packagist, SwiftPM, the Go proxy: the tag is it
        return ui.text(t("confirm_registry", tag=tag, registry=publishing.registry), "error")
    if publishing.kind != TAG_PUSH:
        return None
    return ui.text(t("confirm_publishes", tag=tag, workflows=", ".join(publishing.workflows)), "error")


def _waiting(state: State, release: Release, t: Translate) -> Optional[Dict[str, Any]]:
    """A confirmed step held until the repository's agents are idle: what it waits for, and Cancel."""
    waiting = state.waiting
    if waiting is None:
        return None
    try:
        title = release.title_of(release.step(waiting.step))
    except KeyError:
        return None
    status = t("pane_" + waiting.status) if waiting.status else ""
    return ui.section(t("waiting_title"), [
        ui.spinner(t("waiting_for", pane=waiting.pane, status=status, title=title) if waiting.pane
                   else t("waiting_settle", title=title)),
        waiting.resumed and ui.text(t("waiting_resumed"), "muted"),
        ui.button(ids.WAIT_CANCEL, t("wait_cancel"), icon="x", variant="ghost"),
    ])


def _confirmation(state: State, release: Release, t: Translate) -> Optional[Dict[str, Any]]:
    if state.confirm_reset:
        return ui.section(t("reset"), [
            ui.text(t("reset_confirm", version=release.version)),
            ui.row([ui.button(ids.RESET_YES, t("yes_reset"), icon="trash-2", variant="danger"),
                    ui.button(ids.RESET_NO, t("cancel"), variant="ghost")], gap="small"),
        ])
    if state.confirm is not None:
        step = release.step(state.confirm.step)
        local = "_local" if state.confirm.local else ""  # a local tag can be deleted: not "cannot be undone"
        return ui.section(t("confirm_title" + local), [
            ui.text(t("confirm_" + state.confirm.action + local, title=release.title_of(step)), "error"),
            ui.text(release.command_of(step) or "", "code"),
            bool(state.confirm.preview) and ui.text(state.confirm.preview, "small"),
            _publishes(release, step, t),
            ui.row([ui.button(ids.CONFIRM_YES, t("confirm_yes"), icon="zap", variant="danger"),
                    ui.button(ids.CONFIRM_NO, t("cancel"), variant="ghost")], gap="small"),
        ])
    if state.skipping is not None:
        step = release.step(state.skipping)
        return ui.section(t("skip_title", title=release.title_of(step)), [
            ui.input(ids.SKIP_REASON, placeholder=t("skip_reason")),
            state.skip_error and ui.text(t("skip_needs_reason"), "error"),
            ui.row([ui.button(ids.SKIP_CONFIRM, t("skip_confirm"), icon="minus", variant="primary"),
                    ui.button(ids.SKIP_CANCEL, t("cancel"), variant="ghost")], gap="small"),
        ])
    return None


def release_tree(state: State, release: Release, t: Translate) -> Dict[str, Any]:
    complete, total = release.progress()
    running = release.running_step is not None
    statuses = release.records
    source = version_line(release, t)
    failed = sum(record.state == StepState.FAILED for record in statuses.values())
    header = ui.row([
        ui.text(t("title", version=release.version), "title"),
        ui.badge(f"{complete}/{total}", "success" if complete == total and total else "error" if failed else "info"),
        ui.button(ids.REFRESH, t("refresh"), icon="refresh-cw", variant="ghost", disabled=running),
    ], gap="small")
    repo_name = os.path.basename(release.repo)
    shown_path = release.loaded.path if release.loaded.source != "default" else None
    checklist_line = (t("source_" + release.loaded.source, file=os.path.relpath(shown_path, release.repo))
                      if shown_path else t("source_default"))
    writable = release.loaded.source in ("default", "adopted", "blank")
    controls = ui.row([
        ui.button(ids.RUN_ALL, t("run_all"), icon="play", variant="primary", disabled=running),
        running and ui.button(ids.STOP, t("stop"), icon="square", variant="danger"),
        ui.button(ids.RESET, t("reset"), icon="undo-2", variant="ghost", disabled=running),
    ], gap="small", wrap=True)
    # The host draws at most 2,000 elements; a step row costs up to four, so very long lists are cut.
    steps = [_step_item(release, step, statuses[step.id], running, t, state.now)
             for step in release.steps[:MAX_STEP_ROWS]]
    hidden = len(release.steps) - len(steps)
    has_terminal = any(step.kind == StepKind.TERMINAL for step in release.steps)
    publishes = publishing_line(release, t)
    return ui.column([
        header,
        ui.text(f"{repo_name} · {source}", "small"),
        ui.row([ui.input(ids.VERSION, placeholder=t("version"), value=release.version),
                ui.button(ids.VERSION_APPLY, t("version_apply"), variant="ghost", disabled=running)],
               gap="small"),
        state.version_error and ui.text(state.version_error, "error"),
        bool(publishes) and ui.text(publishes, "small"),
        controls,
        release.save_error is not None and ui.text(t("not_saved", problem=describe_os_error(
            release.save_error, state.language, release.state_folder)), "error"),
        _waiting(state, release, t),
        _confirmation(state, release, t),
        _output_block(state, release, t),
        ui.section(t("steps"), [
            ui.list(ids.STEPS, steps, empty=t("empty")),
            hidden > 0 and ui.text(t("steps_hidden", count=hidden), "muted"),
            has_terminal and ui.toggle(ids.ENTER, t("enter_toggle"), state.press_enter),
        ]),
        ui.row([
            ui.text(checklist_line, "muted"),
            release.loaded.source == "file" and ui.button(ids.REVEAL, t("reveal"), icon="file-text",
                                                          variant="ghost"),
            writable and ui.button(
                ids.WRITE, t({"adopted": "adopt", "blank": "write_again"}.get(release.loaded.source, "write_default")),
                icon="file-plus", variant="ghost"),
        ], gap="small", wrap=True),
        *[ui.text(damage_text(damage, t), "muted") for damage in release.damage[-3:]],
        _history(state, release, t),
    ])


def publishing_line(release: Release, t: Translate) -> str:
    """How this release gets published, in the user's language: the workflow a tag push (or a GitHub
    release) starts, the publish command, the registry that serves the tag, a staged upload, or by hand."""
    publishing = release.loaded.publishing
    if publishing is None:
        return ""
    tag = tag_for(release.version, release.loaded.tag_format)
    workflows = ", ".join(publishing.workflows)
    if publishing.kind == DISPATCH and publishing.release_pr:
        return t("publish_release_pr", workflows=workflows, version=release.version, tag=tag)
    if publishing.kind == DISPATCH and publishing.tags_itself:
        return t("publish_ci_dispatch_tags", workflows=workflows, version=release.version, tag=tag)
    if publishing.kind == DISPATCH and publishing.tags_from_files:
        return t("publish_ci_dispatch_tags_files", workflows=workflows, version=release.version, tag=tag)
    if publishing.kind in (TAG_PUSH, RELEASE_EVENT, DISPATCH):
        key = {TAG_PUSH: "publish_ci_tag", RELEASE_EVENT: "publish_ci_release", DISPATCH: "publish_ci_dispatch"}
        return t(key[publishing.kind], workflows=workflows, tag=tag)
    if publishing.kind == COMMAND and publishing.command and publishing.tags_itself:
        return t("publish_command_tags", command=publishing.command.replace("{version}", release.version), tag=tag)
    if publishing.kind == COMMAND and publishing.command:
        return t("publish_command", command=publishing.command.replace("{version}", release.version))
    if publishing.kind == GO_MODULE and publishing.registry:
        return t("publish_registry", tag=tag, registry=publishing.registry)
    if publishing.kind == MANUAL and publishing.document:
        return t("publish_document", file=publishing.document)
    if publishing.kind == MANUAL and publishing.command and publishing.registry:
        return t("publish_staged", command=publishing.command, registry=publishing.registry)
    return t("publish_manual") if publishing.kind == MANUAL else ""


def damage_text(damage: Damage, t: Translate) -> str:
    """A state file that was damaged, where it went, and what that means for the results."""
    if damage.kept_as:
        return t("state_damaged", file=damage.file, kept=damage.kept_as)
    return t("state_damaged_left", file=damage.file)


def version_line(release: Release, t: Translate) -> str:
    """Where the version comes from, and which manifests were passed over and why."""
    project, last = release.project, release.loaded.last_release
    source = release.version_source
    if source == "project":
        text = t("version_from", file=(project.version_file or "?").replace(os.sep, "/"))
    elif source == "changelog":
        text = t("version_from_changelog", file=(project.changelog_file or "?").replace(os.sep, "/"),
                 tag=last[0] if last else "")
    elif source == "given":
        text = t("version_given")
    elif last:
        text = t("version_next", tag=last[0])
    else:
        text = t("version_suggested")
    if project.version_from_tags not in (None, "tags") and source != "project":
        text += " · " + t("version_tags", tool=project.version_from_tags)
    # No file holds the version (and the tag is not it): the version check can only say "couldn't check".
    unchecked = project.version is None and project.version_from_tags in (None, "tags") and \
        not any(ignored.reason == "unreadable" for ignored in project.ignored)
    for ignored in project.ignored[:2]:
        key = "version_unreadable" if ignored.reason == "unreadable" else "version_ignored"
        text += " · " + t(key, file=ignored.file, version=ignored.version, last=last[1] if last else "")
    if unchecked:
        text += " · " + t("version_unchecked")  # the version check says "couldn't check", never "passed"
    if project.changelog_stopped:
        text += " · " + t("changelog_not_kept", file=project.changelog_stopped[0],
                          version=project.changelog_stopped[1], last=last[0] if last else "")
    return text


def _history(state: State, release: Release, t: Translate) -> Dict[str, Any]:
    now = state.now or time.time()
    items = []
    for summary in state.history:
        if summary.version == release.version:
            continue
        when = relative_time(now - summary.updated_at, state.language)
        subtitle = (t("history_complete", when=when) if summary.completed_at
                    else t("history_line", complete=summary.complete_steps, total=summary.total_steps, when=when))
        items.append(ui.item(summary.version, summary.tag or summary.version, subtitle=subtitle,
                             icon="tag" if summary.completed_at else "history",
                             tone="success" if summary.completed_at else "neutral"))
    return ui.section(t("history"), [ui.list(ids.HISTORY, items[:20], empty=t("history_empty"))])
