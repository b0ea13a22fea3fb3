"""Derive a sensible checklist from the project when the repository has no RELEASE_CHECKLIST.md."""
from __future__ import annotations

import dataclasses
import os
import re
import shlex
from typing import Dict, List, Optional, Sequence

from . import git_repo
from .checklist_file import CHECKLIST_FILE_NAME, ChecklistSpec, _unique_id, format_checklist, parse_checklist
from .new_file import create_text
from .project_files import ProjectInfo, detect_project
from .publishing import (
    COMMAND,
    DISPATCH,
    GO_MODULE,
    GO_PROXY,
    MANUAL,
    RELEASE_EVENT,
    TAG_PUSH,
    Publishing,
    registry_of,
)
from .steps import Step, StepKind
from .versions import guess_tag_format

TEST_TIMEOUT_SECONDS = 1800.0
NO_CHANGELOG = "none"
RELEASE_NOTES_PROMPT = (
    "Draft the release notes for {version} from the commits since the last release tag {previous_tag} "
    "(every commit if there is none): user-facing changes first, grouped as added, changed, fixed. "
    "Show them to me; do not commit, tag, push or publish anything."
)


def default_spec(repo: str, project: Optional[ProjectInfo] = None, windows: Optional[bool] = None,
                 settings: Optional[ChecklistSpec] = None, tags: Optional[Sequence[str]] = None,
                 publishing: Optional[Publishing] = None) -> ChecklistSpec:
    """Clean tree, release branch, upstream, tests, version bump, changelog, free tag, then tag and push.

    settings: a checklist file of settings only (Tests, Changelog, Tag format, …); they win over detection.
    """
    project = project or detect_project(repo, windows)
    settings = settings or ChecklistSpec(())
    steps: List[Step] = [
        Step("", "Working tree is clean", StepKind.CHECK, "release-check clean-tree"),
        Step("", "On the release branch {branch}", StepKind.CHECK,
             "release-check on-branch {branch}"),
        Step("", "In sync with upstream", StepKind.CHECK, "release-check in-sync"),
    ]
    test_command = settings.test_command or project.test_command
    if test_command:
        steps.append(Step("", "Tests pass", StepKind.CHECK, test_command, timeout=TEST_TIMEOUT_SECONDS))
    else:
        # Same title (so the same id) as with a command: adding one later keeps the progress.
        steps.append(Step("", "Tests pass", StepKind.MANUAL))
    workflow_bumps = publishing is not None and publishing.kind == DISPATCH and publishing.tags_itself
    if not workflow_bumps:  # a release workflow given the version bumps it itself: nothing to bump here
        steps.append(Step("", "Version {version} is bumped since the last tag",
                          StepKind.CHECK, "release-check version-bumped {version} {tag} {previous_tag}"))
    changelog = settings.changelog or project.changelog_file
    written_by_ci = publishing is not None and publishing.kind == TAG_PUSH and not settings.changelog and \
        bool(changelog) and publishing.writes_changelog == changelog
    if written_by_ci and publishing is not None:
        # The workflow the tag starts commits the entry itself (after publishing): none is due before tagging.
        steps.append(Step("", "CI writes the changelog entry for {version}", StepKind.MANUAL,
                          f"{', '.join(publishing.workflows)} adds the {{version}} entry to "
                          f"{(changelog or '').replace(os.sep, '/')} after the tag is pushed: check it afterwards."))
    elif changelog and changelog.lower() != NO_CHANGELOG:
        # The file is named in the command, so the check reads the same file the panel names.
        steps.append(Step("", "Changelog has an entry for {version}", StepKind.CHECK,
                          f"release-check changelog-entry {{version}} {shlex.quote(changelog.replace(os.sep, '/'))}"))
    else:
        # Release notes live elsewhere (GitHub Releases): an idle agent drafts them instead of a failed check.
        steps.append(Step("", "Release notes for {version}", StepKind.AGENT, RELEASE_NOTES_PROMPT))
    steps.append(Step("", "Tag {tag} is not taken yet", StepKind.CHECK, "release-check tag-free {tag}"))
    script_tags = publishing is not None and publishing.kind == COMMAND and publishing.tags_itself
    workflow_tags = publishing is not None and publishing.kind == DISPATCH and publishing.tags_from_files
    if workflow_bumps or script_tags or workflow_tags:
        # The release workflow (or the project's publish script) makes the tag itself: a tag made first would
        # make it fail. Only the branch goes up, so what was checked here is what gets released.
        steps.append(Step("", "Push {branch} to {remote}", StepKind.TERMINAL, "git push {remote} {branch}",
                          irreversible=True))
    else:
        steps += [
            Step("", "Create the tag {tag}", StepKind.TERMINAL,
                 'git tag -a {tag} -m "Release {version}"', irreversible=True),
            # Branch and tag in one atomic push: never a tag on the remote whose commit its branch lacks.
            Step("", "Push {branch} and {tag} to {remote} together", StepKind.TERMINAL,
                 "git push --atomic {remote} {branch} {tag}", irreversible=True),
        ]
    steps += publishing_steps(publishing)
    tags = list(tags) if tags is not None else git_repo.release_tags(repo)
    tag_format = settings.tag_format or project.tag_format or (
        guess_tag_format(tags, [project.name or "", os.path.basename(repo)]) if tags else None)
    draft = ChecklistSpec(tuple(steps), "Release checklist", tag_format,
                          settings.release_branch or git_repo.default_branch(repo), None,
                          remote=settings.remote)
    # Read our own text back so step ids are exactly those of the file the user may write later,
    # and progress carries over when they do.
    return parse_checklist(format_checklist(draft))


def publishing_steps(publishing: Optional[Publishing]) -> List[Step]:
    """What comes after the push: CI that publishes, the publish command, or publishing by hand."""
    if publishing is None:
        return []
    workflows = ", ".join(publishing.workflows)
    if publishing.kind == TAG_PUSH:
        return [Step("", "CI publishes {tag}", StepKind.MANUAL,
                     f"Pushing {{tag}} starts {workflows}, which publishes the release; check that the run passed.")]
    if publishing.kind == RELEASE_EVENT:
        return [Step("", "Publish the GitHub release for {tag}", StepKind.MANUAL,
                     f"Publishing the GitHub release for {{tag}} starts {workflows}, which publishes the release.")]
    if publishing.kind == DISPATCH and publishing.release_pr:
        return [Step("", "Merge the release pull request", StepKind.MANUAL,
                     f"release-please ({workflows}) keeps a release pull request for {{version}}: merging it bumps "
                     "the version and changelog, creates the tag {tag} and publishes; do not bump, tag or push the "
                     "tag by hand.")]
    if publishing.kind == DISPATCH and publishing.tags_itself:
        return [Step("", "Start the release workflow", StepKind.MANUAL,
                     f"Start {workflows} with the version {{version}}: it bumps and commits the version, publishes "
                     "and creates the tag {tag} itself, so do not bump, tag or push the tag by hand.")]
    if publishing.kind == DISPATCH and publishing.tags_from_files:
        return [Step("", "Start the release workflow", StepKind.MANUAL,
                     f"{workflows} reads {{version}} from the bumped files, creates the tag {{tag}} and publishes; "
                     "it starts when the release is merged or by hand, so do not tag or push the tag by hand.")]
    if publishing.kind == DISPATCH:
        return [Step("", "Start the release workflow", StepKind.MANUAL,
                     f"The release is published by {workflows}, started by hand or by a branch push, "
                     "not by the tag.")]
    if publishing.kind == COMMAND and publishing.command and publishing.tags_itself:
        # The project's script refuses a tag that exists: it publishes, then makes and pushes {tag} itself.
        return [Step("", "Publish {version}, then tag and push {tag}", StepKind.TERMINAL, publishing.command,
                     irreversible=True)]
    if publishing.kind == COMMAND and publishing.command:
        return [Step("", "Publish {version}", StepKind.TERMINAL, publishing.command, irreversible=True)]
    if publishing.kind == MANUAL and publishing.command and publishing.registry:
        # The upload only stages the release (Maven Central's portal without autoPublish): its publishing
        # is a click on the registry's site, and nothing published there can be taken back.
        return [Step("", f"Upload {{version}} to {publishing.registry}", StepKind.TERMINAL, publishing.command,
                     irreversible=True),
                Step("", f"Publish {{version}} on {publishing.registry}", StepKind.MANUAL,
                     f"`{publishing.command}` only stages the release: publish the staged deployment on "
                     f"{publishing.registry}'s site by hand. Once published it cannot be changed or deleted.")]
    if publishing.kind == MANUAL and publishing.document:
        return [Step("", "Publish {version}", StepKind.MANUAL,
                     f"Publish as {publishing.document} describes: its publishing steps are in this checklist.")]
    if publishing.kind == MANUAL:
        return [Step("", "Publish {version}", StepKind.MANUAL,
                     "Publishing is manual: no publish command or release workflow was found for this project.")]
    if publishing.kind == GO_MODULE and publishing.registry == GO_PROXY and publishing.module:
        # The tag is the release; asking the proxy for it makes the proxy (and pkg.go.dev) fetch it now,
        # instead of at its first user's request. No `GOPROXY=… go` prefix: PowerShell and cmd cannot run it,
        # and go's default GOPROXY is proxy.golang.org already.
        return [Step("", "Ask the Go proxy for {tag}", StepKind.TERMINAL,
                     f"go list -m {publishing.module}@{{tag}}")]
    if publishing.kind == GO_MODULE and publishing.registry and publishing.registry != GO_PROXY:
        # Nothing to upload: say that the push is the release, and where it shows (a Go module's
        # proxy fetches on first request: there is nothing to look for; its push confirmation says it).
        return [Step("", f"{publishing.registry} serves {{tag}}", StepKind.MANUAL,
                     f"Pushing {{tag}} is the release: {publishing.registry} serves the tag, nothing is uploaded. "
                     f"Check that {publishing.registry} lists {{version}}.")]
    return []


# A document's step that the derived steps already do: tagging, pushing.
_TAGS = re.compile(r"^\s*git\s+tag\b")
_PUSHES = re.compile(r"^\s*git\s+push\b")
_TAG_TITLE = re.compile(r"(?i)\b(?:create|make|sign|add|push)\b(?:\s+(?!not\b|without\b)\S+){0,6}?\s+tags?\b|"
                        r"^tag (?:the|it|a|this)\b")
# A document's note that the pushed tag starts the publishing workflow.
_TAG_STARTS_CI = re.compile(r"(?i)^\W*(?:the|this|that|pushing the|a)?\s*(?:new\s+)?tag\b[^.]{0,30}?\b(?:will\s+)?"
                            r"(?:trigger|start|kick\s+off|run)s?\b[^.]{0,40}?\b(?:workflow|ci|github\s+actions?|"
                            r"pipeline|release\s+job)")
# A project's own command that makes the tag: a make/just/rake/npm target or a script named for tagging.
_OWN_TAG = re.compile(r"^(?:make|just|rake|bundle\s+exec\s+rake|npm\s+run|yarn|pnpm|invoke|nox\s+-s|"
                      r"\S*scripts?/)\s*[\w:./-]*(?<![\w])tag(?!s\b)(?:[-_:]?\w*)?\b(?!\s+-d)")
_NEGATED = re.compile(r"(?i)\b(?:not|without|except)\b[^.]*\btag")
_PUBLISHES = re.compile(r"\b(?:cargo|npm|pnpm|yarn|uv|flit|poetry|hatch|pdm|dart|flutter)\s+(?:pub\s+)?publish\b|"
                        r"\btwine\s+upload\b|\bgem\s+push\b|\bnuget\s+push\b|\bmix\s+hex\.publish\b|"
                        r"\bcabal\s+upload\b|\bmvnw?\b[^\n]*\b(?:deploy|release:perform)\b|\bgradlew?\b[^\n]*publish")
_DERIVED_BEFORE = ("working-tree-is-clean", "on-the-release-branch", "in-sync-with-upstream")
_DERIVED_TAGGING = ("create-the-tag", "push-and-to-together", "push-to", "tag-is-created-on-the-github-release-page")


# What a release document says that is not a step: a policy about releases in general ("Release versions follow
# semantic versioning", "Releases are associated with signed tags") and the closing "you're done".
_POLICY = re.compile(r"(?i)^\W*(?:all\s+)?(?:releases?|release\s+(?:versions?|notes|tags?)|versions?|tags?)\b"
                     r"[^.:`]{0,40}?\b(?:are|is|follow|follows|must|should|will)\b")
_DONE = re.compile(r"(?i)(?:\byou'?re|\byou\s+are|\bwe'?re)\s+(?:all\s+)?(?:done|finished)\b|"
                   r"^\W*(?:done|that'?s\s+it|finished)\W*$")
_SIGNED = re.compile(r"\bgit\s+tag\b[^\n`]*?\s(?:-[a-zA-Z]*s[a-zA-Z]*|--sign)\b|(?i:\bsigned\b[^.\n]{0,40}\btags?\b)")
_AUTO_NOTES = re.compile(r"(?i)auto-?generated?\W+release\s+notes|release\s+notes\W+are\W+(?:\w+\W+)?"
                         r"(?:automatically\s+)?(?:auto-?)?generated|--generate-notes|generate_release_notes")
# "Create a release named `1.11.1`, creating the `1.11.1` tag" on GitHub's release page: the tag is made there.
_PAGE_TAG = re.compile(r"(?i)\bcreat(?:e|es|ing)\s+(?:the\s+|a\s+)?(?:new\s+)?(?:`[^`\n]{1,40}`\s+|\{tag\}\s+)?tag\b")
_ON_GITHUB = re.compile(r"(?i)\bgithub\b(?!\s+actions)|releases/new|release page")
_TAG_COMMAND = re.compile(r"\bgit\s+tag\b")
_HTML_BREAK = re.compile(r"\s*<br\s*/?>\s*", re.IGNORECASE)


def _not_a_step(step: Step) -> bool:
    text = " ".join(re.sub(r"[*_`]|\[\^?\d+\]", "", step.title).split())
    return bool(_DONE.search(text) or (_POLICY.search(text) and not step.command))


def merge_adopted(derived: ChecklistSpec, document: ChecklistSpec, text: str = "",
                  publishing: Optional[Publishing] = None) -> ChecklistSpec:
    """A release document's steps alongside the derived ones: the derived checks (clean tree, branch,
    upstream) first, the document's steps up to its tagging, the derived tests, version, changelog and
    tag checks, the derived tag and push (the document's own tag and push commands are the same steps),
    publishing (the document's publish command, if it has one, instead of the derived one), then the
    document's steps after its tagging.

    text: the document itself. A tag it signs (`git tag -s`, "signed tags") is signed here too; release
    notes it has GitHub generate need no drafting; a tag it creates on GitHub's release page is not made
    and pushed locally first. Policies and "you're done" are no steps; raw <br> never reaches a title."""
    # What a dropped "the tag will trigger the workflow" note adds ("This requires a review from a maintainer.")
    # goes with the derived "CI publishes" step.
    ci_notes = " ".join((step.command or "")[len(step.title):].strip(" .:\n") + "." for step in document.steps
                        if _done_by_ci(step, publishing) and _TAG_STARTS_CI.search(step.title) and step.command
                        and step.command.startswith(step.title) and len(step.command) > len(step.title) + 2)
    document = dataclasses.replace(document, steps=tuple(
        dataclasses.replace(step, title=_HTML_BREAK.sub(" ", step.title).strip(),
                            command=_HTML_BREAK.sub(" ", step.command) if step.command else step.command)
        for step in document.steps if not _not_a_step(step) and not _done_by_ci(step, publishing)))
    page_tag = any(_PAGE_TAG.search(said) and _ON_GITHUB.search(said) and not _TAG_COMMAND.search(said)
                   for said in (f"{step.title} {step.command or ''}" for step in document.steps))
    derived = _follow_document(derived, text, page_tag)
    by_id = {step.id: step for step in derived.steps}
    before: List[Step] = []
    after: List[Step] = []
    tagged = False
    test_command = next((step.command for step in derived.steps if step.id == "tests-pass"), None)
    own_tag: Optional[Step] = None  # the project's own tagging command, in the derived tag's place
    for step in document.steps:
        command = step.command if step.kind in (StepKind.TERMINAL, StepKind.CHECK) else None
        if command and own_tag is None and _OWN_TAG.search(command) and not _TAGS.match(command):
            # `rake release:tag_version`, `make tag`: it makes this release's tag (signed, annotated as the project
            # wants), so it stands where the derived "Create the tag" would, after the checks.
            own_tag, tagged = step, True
            continue
        tagging = bool(command and (_TAGS.match(command) or _PUSHES.match(command))) or (
            not command and _TAG_TITLE.search(step.title) is not None and not _NEGATED.search(step.title))
        if tagging:
            tagged = True
            if command or not _own_commands(step):
                continue  # the derived tag and push do it, with this release's tag
            before.append(step)  # the project's own way to tag ("make tag VERSION=…"), kept before the derived
            continue
        if command and test_command and " ".join(command.split()) == " ".join(test_command.split()):
            continue
        (after if tagged or (command and _PUBLISHES.search(command)) else before).append(step)
    # Only a step that runs the publish command stands for the derived one; a manual step that shows it in its
    # notes ("release to PyPI::" then `$ twine upload dist/…`) leaves the runnable publish step in place.
    publishes = any(step.command and step.kind != StepKind.MANUAL and _PUBLISHES.search(step.command)
                    for step in document.steps)
    checks = [step for step in derived.steps if step.id not in _DERIVED_BEFORE and step.id not in _DERIVED_TAGGING
              and step.id not in ("publish",) and not _is_publishing_step(step)]
    publish_steps = [step for step in derived.steps if _is_publishing_step(step) and not publishes]
    tagging_steps = [own_tag if step_id == "create-the-tag" and own_tag is not None else by_id[step_id]
                     for step_id in _DERIVED_TAGGING if step_id in by_id]
    if ci_notes:
        publish_steps = [dataclasses.replace(step, command=f"{step.command} {ci_notes}")
                         if step.id == "ci-publishes" and step.command else step for step in publish_steps]
    steps = ([by_id[step_id] for step_id in _DERIVED_BEFORE if step_id in by_id] + before + checks
             + tagging_steps + publish_steps + after)
    used: Dict[str, int] = {}
    unique = [dataclasses.replace(step, id=_unique_id(step.id, used)) for step in steps]
    return dataclasses.replace(derived, steps=tuple(unique), title=document.title, path=document.path)


def _done_by_ci(step: Step, publishing: Optional[Publishing]) -> bool:
    """A document's publish step (`npm publish`) that the workflow the tag push starts runs itself: the derived
    "CI publishes" step stands for it, so it is not offered to be done twice."""
    if publishing is None or publishing.kind != TAG_PUSH:
        return False
    if step.kind == StepKind.MANUAL and _TAG_STARTS_CI.search(step.title):
        return True  # "The tag will trigger the `publish` GitHub workflow": what "CI publishes" says
    if not publishing.runs:
        return False
    said = _PUBLISHES.search(f"{step.title} {step.command or ''}")
    return said is not None and registry_of(said.group(0)) in publishing.runs


def _follow_document(derived: ChecklistSpec, text: str, page_tag: bool) -> ChecklistSpec:
    """The derived steps as the document has them done: a signed tag, no drafted notes when GitHub generates
    them, and no local tag and push when the tag is created on the release page."""
    steps: List[Step] = []
    for step in derived.steps:
        if step.id == "release-notes-for" and step.kind == StepKind.AGENT and _AUTO_NOTES.search(text):
            continue
        if step.id == "create-the-tag" and page_tag:
            steps.append(Step("tag-is-created-on-the-github-release-page", "Tag {tag} is created on the GitHub "
                              "release page", StepKind.MANUAL, "The release document creates {tag} when the GitHub "
                              "release is published: do not tag or push the tag locally."))
            continue
        if step.id == "push-and-to-together" and page_tag:
            continue
        if step.id == "create-the-tag" and step.command and _SIGNED.search(text):
            step = dataclasses.replace(step, command=step.command.replace("git tag -a ", "git tag -s -a ", 1))
        steps.append(step)
    return dataclasses.replace(derived, steps=tuple(steps))


def _own_commands(step: Step) -> bool:
    """A manual step's hint runs something other than git tag/push (a project's `make tag`)."""
    spans = re.findall(r"`+([^`]+)`+", step.command or "")
    lines = [line.strip() for line in (step.command or "").splitlines()[1:] if line.strip()
             and not line.strip().startswith(("```", "~~~", "#"))]
    return any(not _TAGS.match(text) and not _PUSHES.match(text) and re.match(r"[\w./-]+\s", text + " ")
               for text in spans + lines if re.match(r"^(?:make|just|\./|scripts/|npm|cargo|python|uv|tox)", text))


def _is_publishing_step(step: Step) -> bool:
    return step.id in ("publish", "ci-publishes", "publish-the-github-release-for", "start-the-release-workflow",
                       "merge-the-release-pull-request",
                       "ask-the-go-proxy-for") or step.id.endswith("-serves") or \
        step.id.startswith(("upload-to-", "publish-on-"))


def default_checklist_text(repo: str, project: Optional[ProjectInfo] = None) -> str:
    """The default checklist as the Markdown a user would commit."""
    return format_checklist(default_spec(repo, project))


def write_checklist_file(repo: str, spec: ChecklistSpec, replace_blank: bool = False) -> str:
    """Create RELEASE_CHECKLIST.md from spec (the derived or an adopted checklist); never overwrites
    (replace_blank: except a file with nothing in it, such as the 0 bytes a failed write left).

    Raises FileExistsError if the file is already there, OSError if it cannot be written.
    """
    path = os.path.join(repo, CHECKLIST_FILE_NAME)
    # One line per step: a hint adopted from a release document may span several.
    steps = tuple(dataclasses.replace(step, command=" ".join(step.command.split()) if step.command else None)
                  for step in spec.steps)
    text = format_checklist(dataclasses.replace(spec, steps=steps))
    parse_checklist(text, path)  # what we write must read back; fail here rather than in the panel
    # Atomic, and a checklist someone wrote a second ago is never replaced.
    create_text(path, text, replace_blank)
    return path


def write_default_checklist(repo: str, project: Optional[ProjectInfo] = None) -> str:
    """Create RELEASE_CHECKLIST.md with the derived checklist (never overwrites); return its path."""
    return write_checklist_file(repo, default_spec(repo, project))
