"""The prompts handed to agents: carry on with a step, or fix a failed check (text only, in the user's language)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .steps import StepState
from .view import Translate
from .view_release import result_text

if TYPE_CHECKING:
    from .release_session import ReleaseSession
    from .steps import Step

PROMPT_OUTPUT_LINES = 60


def summary_lines(session: ReleaseSession, t: Translate) -> str:
    lines = []
    for step in session.steps:
        record = session.status(step.id)
        lines.append(f"- [{'x' if record.state in StepState.COMPLETE else ' '}] {session.title_of(step)}"
                     f" ({t('state-' + record.state) if record.state != StepState.SKIPPED else record.state})")
    return "\n".join(lines)


def fix_prompt(session: ReleaseSession, step: Step, t: Translate) -> str:
    record = session.status(step.id)
    return t("prompt_fix", title=session.title_of(step), repo=session.repo, version=session.version,
             command=session.command_of(step) or "", result=result_text(record, t) or record.message,
             output="\n".join(record.tail[-PROMPT_OUTPUT_LINES:]))


def continue_prompt(session: ReleaseSession, step: Step, t: Translate) -> str:
    return t("prompt_continue", repo=session.repo, version=session.version, title=session.title_of(step),
             instructions=session.command_of(step) or "", summary=summary_lines(session, t))
