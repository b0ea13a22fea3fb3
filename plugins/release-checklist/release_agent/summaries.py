"""The concise texts that end a turn: status, what's left, and the result of a check or release run."""
from __future__ import annotations

import dataclasses
from typing import Dict, List, Mapping, Optional, Tuple

from release_checklist import Outcome, StepRecord, StepState

from .engine import StepView
from .messages import say
from .session_options import MODE_CHECK

_ICONS = {
    StepState.PASSED: "✓", StepState.DONE: "✓", StepState.SKIPPED: "–", StepState.FAILED: "✗",
    StepState.INTERRUPTED: "✗", StepState.RUNNING: "…", StepState.SENT: "→", StepState.PENDING: "○",
    StepState.UNKNOWN: "?", StepState.STOPPED: "■",
}
MAX_FAILURES_LISTED = 5


def why(language: str, record: StepRecord) -> str:
    """Why a step failed, in the user's language (the engine's message is English)."""
    if language == "en" or not record.outcome:
        return record.message
    if record.outcome == Outcome.FAILED and record.exit_code is not None:
        return say(language, "why_exit", code=record.exit_code)
    if record.outcome in (Outcome.TIMEOUT, Outcome.STOPPED):
        return say(language, f"why_{record.outcome}")
    return record.message  # "command not found: x" names the program; better untranslated than vague


def state_line(language: str, view: StepView, record: StepRecord) -> str:
    word = say(language, f"state_{record.state}")
    failed = record.state in (StepState.FAILED, StepState.INTERRUPTED, StepState.UNKNOWN)
    reason = why(language, record)
    detail = f" ({reason})" if failed and reason else ""
    return f"- {_ICONS.get(record.state, '○')} {view.title} — {word}{detail}"


def status_text(language: str, version: str, tag: str, views: List[StepView],
                records: Mapping[str, StepRecord]) -> str:
    complete = sum(records[view.id].state in StepState.COMPLETE for view in views)
    if all(records[view.id].state == StepState.PENDING for view in views):
        return say(language, "status_nothing", version=version)
    lines = [say(language, "status", version=version, tag=tag, complete=complete, total=len(views))]
    lines += [state_line(language, view, records[view.id]) for view in views]
    return "\n".join(lines)


def left_text(language: str, version: str, tag: str, views: List[StepView], records: Mapping[str, StepRecord]) -> str:
    left = [view for view in views if records[view.id].state not in StepState.COMPLETE]
    if not left:
        return say(language, "left_none", version=version, tag=tag)
    lines = [say(language, "left", version=version, count=len(left))]
    lines += [state_line(language, view, records[view.id]) for view in left]
    return "\n".join(lines)


@dataclasses.dataclass
class RunReport:
    """What a check or release turn did, for its closing message."""

    version: str
    tag: str
    mode: str
    releasing: bool  # a release request in Release mode (else: checks only)
    asked_release: bool  # the user asked to release (maybe in Check only mode)
    total_steps: int
    ran: List[Tuple[StepView, StepRecord]] = dataclasses.field(default_factory=list)
    not_in_mode: List[StepView] = dataclasses.field(default_factory=list)
    stopped: Optional[Tuple[str, str]] = None  # (message key, step title) when the run ended early
    complete_steps: int = 0


def run_summary(language: str, report: RunReport) -> str:
    checks = [(view, record) for view, record in report.ran if view.read_only]
    passed = sum(record.state == StepState.PASSED for _view, record in checks)
    failures = [(view, record) for view, record in report.ran if record.state == StepState.FAILED]
    unknown = [(view, record) for view, record in report.ran if record.state == StepState.UNKNOWN]
    if report.stopped is None and report.releasing and report.complete_steps == report.total_steps:
        return say(language, "release_done", version=report.version, tag=report.tag, total=report.total_steps)
    lines: List[str] = []
    if checks:
        lines.append(say(language, "checks_summary", version=report.version, tag=report.tag, passed=passed,
                         total=len(checks)))
    if failures:
        items = [f"{view.title} ({why(language, record)})" if why(language, record) else view.title
                 for view, record in failures[:MAX_FAILURES_LISTED]]
        lines.append(say(language, "failed_list", items="; ".join(items)))
    if unknown:  # could not run (offline, missing tool, timeout): listed apart, never among the passed
        items = [f"{view.title} ({record.message})" if record.message else view.title
                 for view, record in unknown[:MAX_FAILURES_LISTED]]
        lines.append(say(language, "unknown_list", items="; ".join(items)))
    if report.stopped is not None:
        key, title = report.stopped
        lines.append(say(language, key, step=title))
    elif report.asked_release and not report.releasing and report.not_in_mode:
        titles = ", ".join(view.title for view in report.not_in_mode)
        lines.append(say(language, "check_mode_skipped", count=len(report.not_in_mode), titles=titles))
    elif not report.releasing and checks and not failures and not unknown:
        key = "next_switch_mode" if report.mode == MODE_CHECK else "next_release"
        lines.append(say(language, key, version=report.version))
    return "\n".join(lines)


def records_of(views: List[StepView], statuses: Dict[str, StepRecord]) -> Dict[str, StepRecord]:
    return {view.id: statuses.get(view.id, StepRecord()) for view in views}
