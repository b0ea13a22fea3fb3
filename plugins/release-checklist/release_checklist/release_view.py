"""The release as the panel draws it: an immutable snapshot taken from the live session by the controller.

The view reads only this, so drawing never calls into the engine (no git, no session lock taken while
the controller's is held) and a check that changes state mid-render cannot tear a panel.
"""
from __future__ import annotations

import types
from typing import TYPE_CHECKING, Mapping, NamedTuple, Optional, Tuple

if TYPE_CHECKING:
    from .project_files import ProjectInfo
    from .release_session import LoadedChecklist, ReleaseSession
    from .run_store import Damage, StepRecord
    from .steps import Step


class Release(NamedTuple):
    """What the panel shows of one release, frozen at the moment it was taken."""

    repo: str
    version: str
    version_source: str  # "given", "project", "changelog" or "suggested"
    project: ProjectInfo  # frozen
    loaded: LoadedChecklist  # frozen
    steps: Tuple[Step, ...]
    titles: Mapping[str, str]  # step id -> title with placeholders filled
    commands: Mapping[str, Optional[str]]  # step id -> command, prompt or hint, filled
    records: Mapping[str, StepRecord]  # step id -> a copy of its record
    running_step: Optional[str]
    save_error: Optional[OSError]  # why progress cannot be saved now
    state_folder: str
    damage: Tuple[Damage, ...]  # state files moved aside

    def step(self, step_id: str) -> Step:
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(f"no step {step_id!r} in this checklist")

    def title_of(self, step: Step) -> str:
        return self.titles.get(step.id, step.title)

    def command_of(self, step: Step) -> Optional[str]:
        return self.commands.get(step.id, step.command)

    def status(self, step_id: str) -> StepRecord:
        return self.records[step_id]

    def progress(self) -> Tuple[int, int]:
        """(complete steps, all steps), as ReleaseSession.progress() was when the snapshot was taken."""
        from .steps import StepState

        complete = sum(self.records[step.id].state in StepState.COMPLETE for step in self.steps)
        return complete, len(self.steps)


def release_of(session: ReleaseSession) -> Release:
    """Take the snapshot (the controller does, outside its own lock: filling a title may ask git once)."""
    steps = session.steps
    return Release(
        repo=session.repo, version=session.version, version_source=session.version_source,
        project=session.project, loaded=session.loaded, steps=steps,
        titles=types.MappingProxyType({step.id: session.title_of(step) for step in steps}),
        commands=types.MappingProxyType({step.id: session.command_of(step) for step in steps}),
        records=types.MappingProxyType(session.statuses()),
        running_step=session.running_step, save_error=session.save_error, state_folder=session.state_folder,
        damage=tuple(session.store.damage),
    )
