"""How a release gets published: a CI workflow a tag push (or a GitHub release) starts, the ecosystem's
publish command, or by hand. Read from .github/workflows/*.yml and the project files, without a YAML library.
"""
from __future__ import annotations

import dataclasses
import fnmatch
import json
import os
import re
from typing import Dict, List, Optional, Tuple

from .project_files import ProjectInfo
from .repo_text import read_text

TAG_PUSH = "ci-tag"  # pushing the tag starts a workflow that publishes
RELEASE_EVENT = "ci-release"  # publishing a GitHub release for the tag starts it
DISPATCH = "ci-dispatch"  # a workflow started by hand (or by a branch push) publishes; the tag is not the trigger
COMMAND = "command"  # the ecosystem's publish command, typed by the maintainer
GO_MODULE = "go"  # the pushed tag itself is the release: a registry serves it (Go proxy, Packagist, SwiftPM)
MANUAL = "manual"  # nothing found: publishing is manual

# Steps of a workflow that publish something: package registries, release pages, images.
_PUBLISHES = re.compile(
    r"pypa/gh-action-pypi-publish|\btwine\s+upload|\buv\s+publish|\bflit\s+publish|\bhatch\s+publish|"
    r"\bpoetry\s+publish|\bpdm\s+publish|\bnpm\s+publish|\bpnpm\s+(?:-r\s+|--recursive\s+)?publish|"
    r"\byarn\s+(?:npm\s+)?publish|--publishOnly|"
    # the project's own release tool run through the package manager (`yarn release-tool publish --provenance`)
    r"\b(?:yarn|pnpm|npx|bunx?)\s+(?:run\s+)?[\w@/.:-]+\s+publish\b|\bpublish\b[^\n]*\s--provenance\b|"
    r"\bci-publish\b|changesets/action|\bcargo\s+publish|"
    r"\bcargo\s+release\b|goreleaser|softprops/action-gh-release|\bgh\s+release\s+(?:create|upload)|"
    r"actions/create-release|ncipollo/release-action|create-gh-release|upload-rust-binary|"
    r"docker/build-push-action|\bdocker\s+push|scripts/publish|\bjreleaser\b|release-please|"
    r"semantic-release|\bnpx\s+np\b|\bgem\s+push|\bmvn\b[^\n]*\bdeploy\b|gradle[^\n]*publish|"
    r"\brake\s+release\b|rubygems/release-gem|\bmix\s+hex\.publish|\bcabal\s+upload|"
    r"\b(?:dart|flutter)\s+pub\s+publish|\bnuget\s+push|gradle-publish|publishToMavenCentral|"
    # actions that attach built files to the GitHub release (skx/github-action-publish-binaries,
    # svenstaro/upload-release-action, actions/upload-release-asset, shogo82148/actions-upload-release-asset)
    r"\buses:\s*[\w.-]+/[\w.-]*(?:publish-binar|upload-release|release-asset)[\w.-]*@|"
    # a reusable workflow that publishes (dart-lang/ecosystem/.github/workflows/publish.yaml@main)
    r"\buses:\s*[\w.-]+/[\w.-]+/\.github/workflows/[\w./-]*(?:publish|release)[\w.-]*\.ya?ml@")
_WORKFLOW_SUFFIXES = (".yml", ".yaml")
MAX_WORKFLOW_BYTES = 300_000


@dataclasses.dataclass(frozen=True)
class Publishing:
    kind: str  # one of the constants above
    workflows: Tuple[str, ...] = ()  # relative paths of the workflows that publish, for the CI kinds
    command: Optional[str] = None  # the publish command, for COMMAND (for MANUAL: an upload that only stages)
    registry: Optional[str] = None  # what serves the pushed tag, for GO_MODULE ("Packagist"); where a
    #                                 staged upload is published by hand, for MANUAL ("Maven Central")
    module: Optional[str] = None  # a Go module's path, for the proxy fetch after the push
    document: Optional[str] = None  # for MANUAL: the adopted release document whose steps publish it
    tags_itself: bool = False  # for DISPATCH: the workflow bumps, commits and tags the release itself;
    #                            for COMMAND: the project's publish script tags and pushes the tag itself
    release_pr: bool = False  # for DISPATCH: release-please opens a release PR; merging it bumps, tags, publishes
    tags_from_files: bool = False  # for DISPATCH: the workflow makes the tag from the version bumped in the files
    #                                (axios's publish.yml on the release PR's merge): only the branch is pushed
    runs: Tuple[str, ...] = ()  # for TAG_PUSH: the registries its workflows publish to ("npm", "pypi"; registry_of)
    # for TAG_PUSH: the changelog file a workflow the tag starts writes and commits itself (babel's
    # "Add vX to CHANGELOG.md" after publishing), so no entry is expected before tagging
    writes_changelog: Optional[str] = None


# The registry a publishing command or action uploads to, by the words that name it.
_REGISTRIES = (("npm", re.compile(r"\b(?:npm|pnpm|yarn|changesets|lerna)\b")),
               ("pypi", re.compile(r"\b(?:twine|uv|flit|hatch|poetry|pdm)\s+(?:publish|upload)|pypi-publish")),
               ("crates", re.compile(r"\bcargo\s+(?:publish|release)")),
               ("rubygems", re.compile(r"\bgem\s+push|release-gem|\brake\s+release")),
               ("hex", re.compile(r"\bhex\.publish")), ("nuget", re.compile(r"\bnuget\s+push")),
               ("pub", re.compile(r"\bpub\s+publish")), ("hackage", re.compile(r"\bcabal\s+upload")))


def registry_of(said: str) -> Optional[str]:
    """"npm" for `npm publish` or changesets, "pypi" for twine/uv/the PyPI action, …; None for others."""
    return next((name for name, pattern in _REGISTRIES if pattern.search(said)), None)


# Registries that serve a pushed tag as the release, with nothing to upload.
GO_PROXY = "Go module proxy"
TAG_REGISTRIES = (("go", GO_PROXY), ("php", "Packagist"), ("swift", "Swift Package Manager"))


@dataclasses.dataclass
class _Triggers:
    tag_patterns: List[str] = dataclasses.field(default_factory=list)  # push of tags matching these
    every_push: bool = False  # `on: push` without filters: tags too
    release: bool = False
    dispatch: bool = False
    branch_push: bool = False


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _inline_list(text: str) -> List[str]:
    text = text.split(" #", 1)[0].strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    return [item.strip().strip("'\"") for item in text.split(",") if item.strip()]


def _block(lines: List[str], start: int) -> Tuple[List[str], int]:
    """The lines indented under lines[start] (comments and blank lines kept out), and where they end."""
    base = _indent(lines[start])
    body: List[str] = []
    index = start + 1
    while index < len(lines):
        line = lines[index]
        if line.strip() and not line.lstrip().startswith("#"):
            if _indent(line) <= base:
                break
            body.append(line)
        index += 1
    return body, index


def read_triggers(text: str) -> _Triggers:
    """The events of a workflow's `on:` that matter for releases."""
    triggers = _Triggers()
    lines = text.splitlines()
    for number, line in enumerate(lines):
        match = re.match(r"""^(?:on|"on"|'on'|true)\s*:\s*(.*)$""", line)
        if not match:
            continue
        inline = match.group(1).split(" #", 1)[0].strip()
        if inline:
            events = _inline_list(inline)
            triggers.every_push = "push" in events
            triggers.release = "release" in events
            triggers.dispatch = "workflow_dispatch" in events
            return triggers
        body, _end = _block(lines, number)
        if not body:
            return triggers
        level = min(_indent(entry) for entry in body)
        for index, entry in enumerate(body):
            if _indent(entry) != level:
                continue
            key, _, value = entry.strip().partition(":")
            key = key.strip().strip("'\"")
            if key == "release":
                triggers.release = True
            elif key == "workflow_dispatch":
                triggers.dispatch = True
            elif key == "push":
                _read_push(body, index, value, triggers)
        return triggers
    return triggers


def _read_push(body: List[str], index: int, value: str, triggers: _Triggers) -> None:
    filters, _end = _block(body, index)
    if not filters:
        triggers.every_push = True
        return
    level = min(_indent(entry) for entry in filters)
    keys: Dict[str, List[str]] = {}
    for position, entry in enumerate(filters):
        if _indent(entry) != level:
            continue
        key, _, rest = entry.strip().partition(":")
        if entry.lstrip().startswith("-"):
            continue  # an item of the key above, written at the key's own indent (read with it below)
        listed = _block(filters, position)[0] or _items_at_level(filters, position)
        items = _inline_list(rest) if rest.strip() else [
            item.split(" #", 1)[0].strip()[1:].strip().strip("'\"") for item in listed
            if item.strip().startswith("-")]
        keys[key.strip()] = items
    if "tags" in keys:
        triggers.tag_patterns += keys["tags"] or ["*"]
    elif "tags-ignore" in keys:
        triggers.tag_patterns.append("*")
    if "branches" in keys or "branches-ignore" in keys:
        triggers.branch_push = True
    elif "tags" not in keys and "tags-ignore" not in keys:
        triggers.every_push = True  # only paths filters: every push, tags included


def _items_at_level(lines: List[str], start: int) -> List[str]:
    """The `- item` lines right after lines[start] at its own indent: YAML lets a key's list sit there
    ("tags:" over "- hatch-v*" in the same column)."""
    items: List[str] = []
    for line in lines[start + 1:]:
        if _indent(line) != _indent(lines[start]) or not line.lstrip().startswith("-"):
            break
        items.append(line)
    return items


def _glob(pattern: str) -> re.Pattern[str]:
    """GitHub's filter pattern as a regex: * (not /), ** (anything), [0-9] classes, and ? and + after a
    character (zero or one, one or more of it)."""
    out: List[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "[":
            end = pattern.find("]", index + 1)
            if end < 0:
                out.append(re.escape(char))
            else:
                out.append("[" + pattern[index + 1:end].replace("\\", "\\\\") + "]")
                index = end
        elif char in "?+" and out:
            out.append(char)
        else:
            out.append(re.escape(char))
        index += 1
    return re.compile("".join(out) + r"\Z")


def _tag_matches(patterns: List[str], tag: str) -> bool:
    positive = [pattern for pattern in patterns if not pattern.startswith("!")]
    negative = [pattern[1:] for pattern in patterns if pattern.startswith("!")]
    try:
        return (any(_glob(pattern).match(tag) for pattern in positive)
                and not any(_glob(pattern).match(tag) for pattern in negative))
    except re.error:
        return any(fnmatch.fnmatchcase(tag, pattern) for pattern in positive)


def read_workflows(repo: str) -> List[Tuple[str, _Triggers, bool, str]]:
    """(relative path, triggers, publishes something, text) of each workflow file."""
    folder = os.path.join(repo, ".github", "workflows")
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    found = []
    for name in names:
        if not name.endswith(_WORKFLOW_SUFFIXES):
            continue
        read = read_text(os.path.join(folder, name), MAX_WORKFLOW_BYTES)
        if read is None:
            continue
        text = read
        triggers = read_triggers(text)
        # A job commented out is no step (furo's `# publish-pypi:` job with its `# - uses: …pypi-publish`).
        text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
        publishes = (_PUBLISHES.search(text) is not None or _runs_publishing_script(repo, text)) and \
            not _rehearsal(text)
        found.append((f".github/workflows/{name}", triggers, publishes, text))
    return found


# A test registry: an upload there (and the release page the same run makes) is a rehearsal of publishing.
# (only where an upload is pointed at it: a job's name or description may say test.pypi.org too)
_TEST_REGISTRY = re.compile(r"(?:repository[-_]url\s*:|--repository-url[= ])\s*['\"]?https?://test\.pypi\.org|"
                            r"(?:--repository|-r)[= ]+testpypi\b|--dry-run\b")


def _rehearsal(text: str) -> bool:
    """Every upload of the workflow to a package registry goes to a test registry (TestPyPI): it publishes
    nothing real, and the GitHub release it makes with the same files does not put the package where its
    users install it from."""
    uploads = [match for match in _PUBLISHES.finditer(text) if registry_of(match.group(0))]
    return bool(uploads) and len(_TEST_REGISTRY.findall(text)) >= len(uploads)


# A step running one of the repository's own scripts: `run: ./Push.ps1`, `run: pwsh ./eng/push.ps1`, `run: bash
# scripts/release.sh`.
_RUN_SCRIPT = re.compile(r"^\s*(?:-\s*)?run\s*:\s*(?:(?:pwsh|powershell|bash|sh)\s+(?:-\w+\s+)*)?"
                         r"(?:\./)?([\w./-]+\.(?:ps1|sh|bash))\b", re.MULTILINE)
MAX_SCRIPT_BYTES = 200_000


def _runs_publishing_script(repo: str, text: str) -> bool:
    """A workflow step runs a script of the repository that publishes (AutoMapper's and Respawn's Push.ps1 run
    `dotnet nuget push`): the workflow publishes through it."""
    for script in dict.fromkeys(_RUN_SCRIPT.findall(text)):
        if script.startswith("/") or ".." in script.split("/"):
            continue  # only the repository's own files
        body = read_text(os.path.join(repo, script), MAX_SCRIPT_BYTES)
        if body is not None and _PUBLISHES.search(body):
            return True
    return False


def detect_publishing(repo: str, project: ProjectInfo, tag: str) -> Publishing:
    """How tag gets published (tag: the release's tag, or one in the same format)."""
    workflows = read_workflows(repo)
    on_tag = tuple(path for path, triggers, publishes, text in workflows if publishes and (
        _tag_matches(triggers.tag_patterns, tag) or (triggers.every_push and "refs/tags" in text)))
    if on_tag:
        texts = {path: text for path, _triggers, _publishes, text in workflows}
        script = own_publish_script(repo, project) if all(_notes_only(texts[path]) for path in on_tag) else None
        if script:  # the tag only gets its GitHub release; the project's own script publishes the package
            return Publishing(COMMAND, command=script[0], tags_itself=script[1])
        uploads = tuple(path for path in on_tag if not _notes_only(texts[path]))
        on_tag = uploads or on_tag  # a workflow that only drafts the release notes is not what publishes it
        runs = sorted({registry for path in on_tag for match in _PUBLISHES.finditer(texts[path])
                       for registry in [registry_of(match.group(0))] if registry})
        writes = next((project.changelog_file for path in on_tag
                       if commits_changelog(texts[path], project.changelog_file)), None)
        return Publishing(TAG_PUSH, on_tag, runs=tuple(runs), writes_changelog=writes)
    on_release = tuple(path for path, triggers, publishes, _text in workflows if publishes and triggers.release)
    if on_release:
        return Publishing(RELEASE_EVENT, on_release)
    by_hand = tuple(path for path, triggers, publishes, text in workflows
                    if publishes and (triggers.dispatch or triggers.branch_push)
                    and re.search(r"(?i)releas|publish|deploy", os.path.basename(path)))
    if by_hand:
        texts = {path: text for path, _triggers, _publishes, text in workflows}
        release_pr = any(_RELEASE_PR.search(texts[path]) for path in by_hand)
        itself = release_pr or any(tags_itself(texts[path]) for path in by_hand)
        from_files = not itself and any(_TAG_FROM_FILES.search(texts[path]) for path in by_hand)
        return Publishing(DISPATCH, by_hand, tags_itself=itself, release_pr=release_pr, tags_from_files=from_files)
    command = publish_command(repo, project)
    if command:
        return Publishing(COMMAND, command=command)
    for ecosystem, registry in TAG_REGISTRIES:
        if ecosystem in project.ecosystems:
            return Publishing(GO_MODULE, registry=registry, module=go_module(repo) if ecosystem == "go" else None)
    staged = staged_upload(repo, project)
    if staged:  # an upload that only stages the release: publishing it is a click on the registry's site
        return Publishing(MANUAL, command=staged[0], registry=staged[1])
    return Publishing(MANUAL)


# What a workflow does when it only writes the tag's GitHub release page (notes, no package, no built files).
_NOTES_ONLY = re.compile(r"create-gh-release|actions/create-release|\bgh\s+release\s+create\b")
_SCRIPT_FOLDERS = ("bin", "script", "scripts")
_SCRIPT_DOCS = ("CONTRIBUTING.md", "CONTRIBUTING.rst", "RELEASING.md", "RELEASING.rst", "RELEASE.md", "README.md",
                "docs/CONTRIBUTING.md", ".github/CONTRIBUTING.md")
_DOC_PLACEHOLDER = re.compile(r"<([^<>\n]{1,40})>")


def _notes_only(text: str) -> bool:
    """Every publishing step of the workflow only makes the GitHub release (its notes), nothing is uploaded."""
    found = [match.group(0) for match in _PUBLISHES.finditer(text)]
    # softprops/action-gh-release uploads only what its `files:` input names
    notes = _NOTES_ONLY if re.search(r"^\s*files\s*:", text, re.MULTILINE) else _NOTES_ONLY_OR_RELEASE_ACTION
    return bool(found) and all(notes.search(said) for said in found) and "gh release upload" not in text


_NOTES_ONLY_OR_RELEASE_ACTION = re.compile(_NOTES_ONLY.pattern + r"|softprops/action-gh-release")


def commits_changelog(text: str, changelog: Optional[str]) -> bool:
    """The workflow adds the changelog file to a commit of its own (`git add CHANGELOG.md`, a commit message
    or an auto-commit action's file pattern naming it): the release's entry is written by CI, after the tag."""
    if not changelog:
        return False
    name = re.escape(os.path.basename(changelog.replace(os.sep, "/")))
    pattern = rf"(?:\bgit\s+(?:add|commit)\b|\bfile_pattern\s*:)[^\n]*(?<![\w.-]){name}(?![\w.-])"
    return re.search(pattern, text) is not None and re.search(r"\bgit\s+push\b|git-auto-commit", text) is not None


def own_publish_script(repo: str, project: ProjectInfo) -> Optional[Tuple[str, bool]]:
    """The project's own publish script (bin/publish, scripts/publish.sh) as its documentation runs it
    ("bin/publish <NAME OF CRATE> <VERSION>", the placeholders filled), or its bare path, and whether it
    tags and pushes the tag itself (then a tag made first makes it stop); None without one."""
    script = None
    for folder in _SCRIPT_FOLDERS:
        for name in sorted(_listdir(os.path.join(repo, folder))):
            if os.path.splitext(name)[0].lower() == "publish" and os.path.isfile(os.path.join(repo, folder, name)):
                script = f"{folder}/{name}"
                break
        if script:
            break
    if script is None:
        return None
    body = _read(os.path.join(repo, script), 200_000)
    tags = re.search(r"\bgit\s+tag\b", body) is not None and re.search(r"\bgit\s+push\b", body) is not None
    usage = re.compile(rf"(?:\./)?{re.escape(script)}\b[^`\n]*")
    for document in _SCRIPT_DOCS:
        for match in usage.finditer(_read(os.path.join(repo, document), 500_000)):
            said = match.group(0).strip()
            if "dry-run" in said or "--help" in said or re.search(r"\s-[a-z]\b", said):
                continue
            return _DOC_PLACEHOLDER.sub(lambda found: _fill_usage(found.group(1), project), said), tags
    return script, tags


def _fill_usage(placeholder: str, project: ProjectInfo) -> str:
    lowered = placeholder.lower()
    if "version" in lowered:
        return "{version}"
    if project.name and re.search(r"crate|package|name|project|module", lowered):
        return project.name
    return f"<{placeholder}>"


# A dispatch workflow that takes the version as its input, commits the bump and makes the tag (or the
# GitHub release that creates it) itself: pino's publish-release.yml, release-it and np runs in CI.
_VERSION_INPUT = re.compile(r"\$\{\{\s*(?:github\.event\.)?inputs\.(?:version|release[-_]?version|new[-_]?version)\b")
_COMMITS = re.compile(r"\bgit\s+commit\b|\bnpm\s+version\b|\byarn\s+version\b|\brelease-it\b|\bnpx\s+np\b")
_TAGS = re.compile(r"\bgit\s+tag\b|\bgit\s+push\b[^\n]*--(?:follow-)?tags\b|\bnpm\s+version\b|\brelease-it\b|"
                   r"\bgh\s+release\s+create\b|action-gh-release|actions/create-release|ncipollo/release-action|"
                   r"(?:\s-t|--tag|tag_name:|tag:)\s*v?\$\{\{\s*(?:github\.event\.)?inputs\.")


# A tag (or a GitHub release, which makes its tag) named after a version an earlier step read from the project's
# files: `tag: "v${{ steps.package-version.outputs.current-version }}"`, `git tag v${{ env.VERSION }}`.
# Or the shell reads it right there: git tag "v$(node -p "require('./package.json').version")", $(jq -r .version …).
_TAG_FROM_FILES = re.compile(r"(?:\btag(?:_name)?\s*:\s*|\bgit\s+tag\s+(?:-[-\w]+\s+)*)[\"']?v?"
                             r"(?:\$\{\{\s*(?:steps|needs|env)\.[^}]*version[^}]*\}\}|"
                             r"\$\((?:node\s+-p|jq\s+-r|npm\s+pkg\s+get|cargo\s+pkgid|python3?\s+-c)[^\n]{0,80}?version)",
                             re.IGNORECASE)


_RELEASE_PR = re.compile(r"release-please-action|\brelease-please\s+(?:release-pr|github-release)\b")


def tags_itself(text: str) -> bool:
    """The workflow is given the version, commits the bump and creates the tag: the maintainer only starts it."""
    return bool(_VERSION_INPUT.search(text) and _COMMITS.search(text) and _TAGS.search(text))


def follow_document(publishing: Publishing, text: str, document: str) -> Publishing:
    """With the project's own release procedure adopted: a generic publish command the document never
    uses, when the document publishes some other way (a CI server, a registry's portal), is not offered;
    publishing is the document's steps."""
    if publishing.kind != COMMAND or not publishing.command:
        return publishing
    from .release_docs import doc_signals

    # Each program of a chained command (`python3 -m build && twine upload dist/*`): the document uses the
    # command when it names any of them publishing.
    named = any(re.search(rf"(?i)\b{re.escape(program)}w?\b[^\n`]*\b(?:publish|deploy|upload|push|release)", text)
                for program in _programs(publishing.command) if program)
    if named or not (doc_signals(text)["publish"] or re.search(r"(?i)\bdeploy", text)):
        return publishing
    return Publishing(MANUAL, document=document)


def _programs(command: str) -> List[str]:
    """The program of each part of a chained command: pwsh ./build.ps1 -> build.ps1, python3 -m build -> build."""
    found = []
    for part in re.split(r"&&|\|\||;", command):
        words = part.split()
        if not words:
            continue
        program = os.path.basename(words[0]).rstrip("w")
        if program in ("pwsh", "python3", "python", "dotnet") and len(words) > 1:
            program = os.path.basename(words[2] if words[1] == "-m" and len(words) > 2 else words[1])
        found.append(program)
    return found


def go_module(repo: str) -> Optional[str]:
    """The module path go.mod declares (example.com/mod/v2), for `go list -m path@tag` through the proxy."""
    match = re.search(r"^\s*module\s+(\S+)", _read(os.path.join(repo, "go.mod"), 100_000), re.MULTILINE)
    return match.group(1).strip('"') if match else None


def _read(path: str, limit: int = 1_000_000) -> str:
    return read_text(path, limit) or ""


def publish_command(repo: str, project: ProjectInfo) -> Optional[str]:
    """The ecosystem's publish command for a package the root publishes, or None.

    A manifest whose version was passed over (an internal crate at the root of a C project) is not
    the project's, so its registry is not where the project is published.
    """
    passed_over = {ignored.file.lower() for ignored in project.ignored}
    own = project_publish_command(repo)
    if own:  # the project's own way beats the ecosystem's generic command
        return own
    monorepo = monorepo_publish_command(repo) if "node" in project.ecosystems else None
    if monorepo:  # the root's own package.json is private (0.0.0 in jest): the members are published
        return monorepo
    if "node" in project.ecosystems and "package.json" not in passed_over:
        try:
            with open(os.path.join(repo, "package.json"), encoding="utf-8") as handle:
                package = json.load(handle)
        except (OSError, ValueError):
            package = None
        if isinstance(package, dict) and not package.get("private") and package.get("name"):
            return "npm publish"
        member = _member_package(repo, project)
        if member:  # a private workspace root: the member whose version was bumped is what is published
            if os.path.isfile(os.path.join(repo, "pnpm-lock.yaml")) or \
                    os.path.isfile(os.path.join(repo, "pnpm-workspace.yaml")):
                return f"cd {member} && pnpm publish"  # pnpm rewrites workspace: ranges as it packs
            return f"npm publish --workspace {member}"
    if "rust" in project.ecosystems and "cargo.toml" not in passed_over:
        try:
            with open(os.path.join(repo, "Cargo.toml"), encoding="utf-8", errors="replace") as handle:
                cargo = handle.read(500_000)
        except OSError:
            cargo = ""
        package = re.search(r"^\s*\[package\]([^\[]*)", cargo, re.MULTILINE)
        if package and not re.search(r"^\s*publish\s*=\s*false", package.group(1), re.MULTILINE):
            return "cargo publish"
        member = _member_crate(repo, project) if package is None and project.workspace else None
        if member:  # the workspace releases one crate (axum's tag, axum/Cargo.toml bumped): only that one
            return f"cargo publish -p {member}"
        if package is None and project.workspace:
            return "cargo publish --workspace"  # every member crate, in dependency order (cargo 1.90+)
    member = (project.version_file or "").replace(os.sep, "/")
    if "python" in project.ecosystems and project.name and member.endswith("/pyproject.toml") and project.workspace:
        return f"uv build --package {project.name} && uv publish"  # one member of a uv workspace
    if "python" in project.ecosystems and project.name and "pyproject.toml" not in passed_over:
        return "uv build && uv publish" if os.path.isfile(os.path.join(repo, "uv.lock")) else \
            "python3 -m build && twine upload dist/*"
    return _other_publish_command(repo, project)


# A publish target in the project's own build script: psake's `target publish {`, Cake's Task("Publish"),
# FAKE's Target.create "Publish", a Makefile's or justfile's `publish:` rule.
_SCRIPT_TARGETS = (
    ("build.ps1", "pwsh ./build.ps1 publish",
     re.compile(r"(?im)^\s*(?:target|task)\s+['\"]?publish['\"]?\b|^\s*function\s+publish\b")),
    ("build.sh", "./build.sh publish", re.compile(r"(?im)^\s*(?:publish\)|function\s+publish\b|publish\s*\(\)\s*\{)")),
    ("build.cake", "dotnet cake --target=Publish", re.compile(r"(?i)\bTask\(\s*\"publish\"\s*\)")),
    ("build.fsx", "dotnet fsi build.fsx -t Publish", re.compile(r"(?i)\bTarget\.create\s+\"publish\"")),
    ("justfile", "just publish", re.compile(r"(?m)^publish\b[^:=\n]*:(?!=)")),
    ("makefile", "make publish", re.compile(r"(?m)^publish\s*:(?!=)")),
)


def project_publish_command(repo: str) -> Optional[str]:
    """The project's own publish entry point at the root (a build script's publish target), or None."""
    names = {name.lower(): name for name in _listdir(repo)}
    for file_name, command, pattern in _SCRIPT_TARGETS:
        if file_name in names and pattern.search(_read(os.path.join(repo, names[file_name]), 500_000)):
            return command
    return None


def monorepo_publish_command(repo: str) -> Optional[str]:
    """A JS monorepo's publisher: lerna (the packages as already bumped: from-package), changesets or nx."""
    names = {name.lower() for name in _listdir(repo)}
    runner = "yarn" if "yarn.lock" in names else "pnpm" if "pnpm-lock.yaml" in names else "npx"
    if "lerna.json" in names:
        return f"{runner} lerna publish from-package"
    if os.path.isfile(os.path.join(repo, ".changeset", "config.json")):
        return f"{runner} changeset publish"
    if "nx.json" in names and re.search(r'"release"\s*:', _read(os.path.join(repo, "nx.json"), 500_000)):
        return f"{runner} nx release publish"  # nx release: the projects as already versioned
    return None


def _member_package(repo: str, project: ProjectInfo) -> Optional[str]:
    """The folder of the workspace member whose package.json holds the release's version, if it is published."""
    version_file = (project.version_file or "").replace(os.sep, "/")
    folder = os.path.dirname(version_file)
    if not project.workspace or os.path.basename(version_file).lower() != "package.json" or not folder:
        return None
    try:
        package = json.loads(_read(os.path.join(repo, version_file)))
    except ValueError:  # unreadable, cut at the size limit, or not JSON
        return None
    return folder if isinstance(package, dict) and package.get("name") and not package.get("private") else None


def _listdir(folder: str) -> List[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def _member_crate(repo: str, project: ProjectInfo) -> Optional[str]:
    """The name of the member crate whose Cargo.toml holds the release's version (axum/Cargo.toml), or None."""
    relative = (project.version_file or "").replace(os.sep, "/")
    if not relative.endswith("/Cargo.toml"):
        return None
    package = re.search(r"^\s*\[package\]([^\[]*)", _read(os.path.join(repo, relative), 500_000), re.MULTILINE)
    name = re.search(r"""^\s*name\s*=\s*["']([^"']+)["']""", package.group(1), re.MULTILINE) if package else None
    return name.group(1) if name else None


def _other_publish_command(repo: str, project: ProjectInfo) -> Optional[str]:
    """RubyGems, Hex, Hackage, pub.dev and NuGet: the command that uploads this release."""
    if "ruby" in project.ecosystems and project.name:
        return f"gem build {project.name}.gemspec && gem push {project.name}-{{version}}.gem"
    if "elixir" in project.ecosystems:
        return "mix hex.publish"
    if "haskell" in project.ecosystems and project.name:
        return f"cabal sdist && cabal upload --publish dist-newstyle/sdist/{project.name}-{{version}}.tar.gz"
    if "dart" in project.ecosystems or "flutter" in project.ecosystems:
        return ("flutter" if "flutter" in project.ecosystems else "dart") + " pub publish"
    if "dotnet" in project.ecosystems:
        return ("dotnet pack -c Release -o nupkg && "
                "dotnet nuget push 'nupkg/*.nupkg' --source https://api.nuget.org/v3/index.json")
    if "gradle" in project.ecosystems:
        return gradle_publish_command(repo)
    if "maven" in project.ecosystems:
        return maven_release_perform(repo) or maven_deploy(repo, final=True)
    return None


# Where a project runs the Maven Release Plugin's first half: its release script or its release documentation.
_MAVEN_RELEASE_PLACES = ("release.sh", "scripts/release.sh", "bin/release.sh", "RELEASING.md", "RELEASE.md",
                         "CONTRIBUTING.md", "README.md", "docs/RELEASING.md", "docs/release.md")


def maven_release_perform(repo: str) -> Optional[str]:
    """`./mvnw release:perform` when the project releases with the Maven Release Plugin (its release script or
    documentation runs `release:prepare`, which bumps, commits and tags): perform is the half that deploys the
    tagged release."""
    for relative in _MAVEN_RELEASE_PLACES:
        if re.search(r"\brelease:prepare\b", _read(os.path.join(repo, relative), 500_000)):
            runner = "./mvnw" if os.path.isfile(os.path.join(repo, "mvnw")) else "mvn"
            return f"{runner} release:perform"
    return None


# Gradle plugins that publish, and the task each one publishes (and releases) with.
_GRADLE_TASKS = (
    (re.compile(r"com\.vanniktech\.maven\.publish"), "publishAndReleaseToMavenCentral"),
    (re.compile(r"io\.github\.gradle-nexus\.publish-plugin|\bnexusPublishing\b"),
     "publishToSonatype closeAndReleaseSonatypeStagingRepository"),
    (re.compile(r"com\.gradle\.plugin-publish"), "publishPlugins"),
    (re.compile(r"[\"'`]maven-publish[\"'`]|\bmaven-publish\b|^\s*publishing\s*\{", re.MULTILINE), "publish"),
)
CONVENTION_FOLDERS = ("buildSrc", "build-logic")  # where multi-project builds apply maven-publish
MAX_GRADLE_FILES = 60


def _gradle_scripts(repo: str) -> str:
    """The root's build and settings scripts, each subproject's one level down, the convention plugins in
    buildSrc/ and build-logic/, and the version catalog (plugin ids are often declared there)."""
    paths: List[str] = [os.path.join(repo, "gradle", "libs.versions.toml")]
    for name in sorted(os.listdir(repo)) if os.path.isdir(repo) else []:
        folder = os.path.join(repo, name)
        if name.endswith((".gradle", ".gradle.kts")):
            paths.append(folder)
        elif os.path.isdir(folder) and not name.startswith(".") and name not in CONVENTION_FOLDERS:
            paths += [os.path.join(folder, script) for script in ("build.gradle", "build.gradle.kts")]
    for convention in CONVENTION_FOLDERS:
        for current, folders, files in os.walk(os.path.join(repo, convention)):
            folders[:] = sorted(name for name in folders if name not in ("build", ".gradle"))
            paths += [os.path.join(current, name) for name in sorted(files)
                      if name.endswith((".gradle", ".gradle.kts", ".kt", ".groovy"))]
    return "\n".join(_read(path, 300_000) for path in paths[:MAX_GRADLE_FILES] if os.path.isfile(path))


def gradle_publish_command(repo: str) -> Optional[str]:
    """./gradlew (or gradle) and the task of the publishing plugin the build applies, or None."""
    scripts = _gradle_scripts(repo)
    runner = "./gradlew" if os.path.isfile(os.path.join(repo, "gradlew")) else "gradle"
    for pattern, task in _GRADLE_TASKS:
        if pattern.search(scripts):
            return f"{runner} {task}"
    return None


def maven_deploy(repo: str, final: bool) -> Optional[str]:
    """`mvn deploy` (./mvnw, with the release profile when there is one) when the pom deploys somewhere.

    final: the deploy publishes (its own repository, or Central's plugins set to publish on their own); else
    the deploy that only stages the release (Central Portal without autoPublish, Nexus staging without
    autoReleaseAfterClose), or None."""
    pom = _read(os.path.join(repo, "pom.xml"))
    central = "central-publishing-maven-plugin" in pom or "nexus-staging-maven-plugin" in pom
    publishes = re.search(r"<(?:autoPublish|autoReleaseAfterClose)>\s*true\s*<", pom) is not None
    if not (central or "<distributionManagement>" in pom):
        return None
    if final != (publishes or not central):
        return None
    runner = "./mvnw" if os.path.isfile(os.path.join(repo, "mvnw")) else "mvn"
    profile = " -P release" if re.search(r"<profile>\s*<id>\s*release\s*</id>", pom) else ""
    return f"{runner}{profile} deploy"


def staged_upload(repo: str, project: ProjectInfo) -> Optional[Tuple[str, str]]:
    """(command, registry) for an upload that stages the release for publishing by hand on the registry."""
    if "maven" in project.ecosystems:
        command = maven_deploy(repo, final=False)
        if command:
            return command, "Maven Central"
    return None
