"""Derive a sensible checklist from the project when the repository has no RELEASE_CHECKLIST.md."""
from __future__ import annotations

import os
from typing import List, Optional

from . import git_repo
from .checklist_file import CHECKLIST_FILE_NAME, ChecklistSpec, format_checklist, parse_checklist
from .project_files import ProjectInfo, detect_project
from .steps import Step, StepKind
from .versions import guess_tag_format

TEST_TIMEOUT_SECONDS = 1800.0


def default_spec(repo: str, project: Optional[ProjectInfo] = None, windows: Optional[bool] = None) -> ChecklistSpec:
    """Clean tree, release branch, upstream, tests, version bump, changelog, free tag, then tag and push."""
    project = project or detect_project(repo, windows)
    steps: List[Step] = [
        Step("", "Working tree is clean", StepKind.CHECK, "release-check clean-tree"),
        Step("", "On the release branch {branch}", StepKind.CHECK,
             "release-check on-branch {branch}"),
        Step("", "In sync with upstream", StepKind.CHECK, "release-check in-sync"),
    ]
    if project.test_command:
        steps.append(Step("", "Tests pass", StepKind.CHECK, project.test_command,
                          timeout=TEST_TIMEOUT_SECONDS))
    else:
        # Same title (so the same id) as with a command: adding one later keeps the progress.
        steps.append(Step("", "Tests pass", StepKind.MANUAL))
    steps += [
        Step("", "Version {version} is bumped since the last tag",
             StepKind.CHECK, "release-check version-bumped {version} {tag}"),
        Step("", "Changelog has an entry for {version}", StepKind.CHECK,
             "release-check changelog-entry {version}"),
        Step("", "Tag {tag} is not taken yet", StepKind.CHECK, "release-check tag-free {tag}"),
        Step("", "Create the tag {tag}", StepKind.TERMINAL,
             'git tag -a {tag} -m "Release {version}"', irreversible=True),
        # Branch and tag in one atomic push: never a tag on the remote whose commit its branch lacks.
        Step("", "Push {branch} and {tag} to {remote} together", StepKind.TERMINAL,
             "git push --atomic {remote} {branch} {tag}", irreversible=True),
    ]
    tags = git_repo.tags(repo)
    tag_format = guess_tag_format(tags) if tags else None
    draft = ChecklistSpec(tuple(steps), "Release checklist", tag_format, git_repo.default_branch(repo), None)
    # Read our own text back so step ids are exactly those of the file the user may write later,
    # and progress carries over when they do.
    return parse_checklist(format_checklist(draft))


def default_checklist_text(repo: str, project: Optional[ProjectInfo] = None) -> str:
    """The default checklist as the Markdown a user would commit."""
    return format_checklist(default_spec(repo, project))


def write_default_checklist(repo: str, project: Optional[ProjectInfo] = None) -> str:
    """Create RELEASE_CHECKLIST.md in repo (never overwrites); return its path.

    Raises FileExistsError if the file is already there, OSError if it cannot be written.
    """
    path = os.path.join(repo, CHECKLIST_FILE_NAME)
    text = default_checklist_text(repo, project)
    parse_checklist(text, path)  # what we write must read back; fail here rather than in the panel
    # "x" mode: a checklist someone wrote a second ago is never replaced.
    with open(path, "x", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    return path
