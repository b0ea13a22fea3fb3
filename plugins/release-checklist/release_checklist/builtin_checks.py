"""The `release-check NAME` commands: small git/project checks run as their own subprocess.

Run as `python -m release_checklist.builtin_checks NAME ARGS...` (the runner does this when a step's
command starts with `release-check`). Each prints what it found in plain words and exits 0 (pass),
1 (fail) or 2 (wrong arguments), so it behaves exactly like any other check command.
"""
from __future__ import annotations

import dataclasses
import os
import re
import sys
from typing import Callable, Dict, List, Optional, Tuple

from . import git_repo
from .checklist_file import CHECKLIST_FILE_NAME, ChecklistParseError, parse_checklist
from .project_files import (
    changelog_mentions,
    detect_project,
    entry_heading_example,
    entry_in_folder,
    find_changelog,
)
from .versions import (
    format_of_tag,
    highest_tagged_version,
    may_be_release_tag,
    tag_for,
    version_from_tag,
    version_key,
)
from .workspace_members import member_of_tag

PASS, FAIL, USAGE, UNKNOWN = 0, 1, 2, 3  # UNKNOWN: could not find out (shown as "couldn't check")
BUILTIN_COMMAND = "release-check"


def say(line: str) -> None:
    """One line of the check's output (this is a subprocess: its stdout is the step's output)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


# Lines that name no cause: ssh's and git's chatter, and git's generic closing words, which follow the
# line that says what went wrong ("and the repository exists." was all a user was once shown).
_NOISE = re.compile(r"(?i)^(?:warning: permanently added|hint:|cloning into|enter passphrase)")
_GENERIC = re.compile(r"(?i)^(?:fatal: could not read from remote repository|fatal: the remote end hung up"
                      r"|please make sure you have the correct access rights|and the repository exists)")
_PREFIX = re.compile(r"(?i)^(?:fatal|error|remote):\s*")


def git_error_line(error: str) -> str:
    """git's first telling line ("ssh: connect to host … Connection refused", "'/x' does not appear to be
    a git repository"), without its "fatal:" prefix; the generic lines only when there is nothing else."""
    lines = [line.strip() for line in (error or "").splitlines() if line.strip()]
    lines = [line for line in lines if not _NOISE.match(line)]
    telling = [line for line in lines if not _GENERIC.match(line)] or lines
    return _PREFIX.sub("", telling[0]) or telling[0] if telling else "no answer"


def clean_tree(repo: str, args: List[str]) -> int:
    paths = git_repo.dirty_paths(repo)
    if paths is None:
        say("Could not read the working tree (is this a git repository?).")
        return UNKNOWN
    if not paths:
        say("The working tree is clean.")
        return PASS
    say(f"{len(paths)} uncommitted change(s); commit or stash them first:")
    for path in paths[:20]:
        say(f"  {path}")
    if len(paths) > 20:
        say(f"  … and {len(paths) - 20} more")
    return FAIL


def on_branch(repo: str, args: List[str]) -> int:
    wanted = args[0] if args and args[0] else git_repo.default_branch(repo)
    branch = git_repo.current_branch(repo)
    if branch is None:
        commit = git_repo.head_commit(repo) or "an unknown commit"
        say(f"HEAD is detached (at {commit}); check out {wanted or 'the release branch'} first.")
        return FAIL
    if wanted and branch != wanted:
        say(f"On branch {branch}, but releases are made from {wanted}.")
        return FAIL
    say(f"On the release branch {branch}.")
    return PASS


def in_sync(repo: str, args: List[str]) -> int:
    branch = git_repo.current_branch(repo)
    if branch is None:
        say("HEAD is detached, so there is no upstream to compare with.")
        return FAIL
    upstream = git_repo.upstream(repo)
    if upstream is None:
        say(f"Branch {branch} has no upstream. Set one with: git push -u origin {branch}")
        return FAIL
    remote = git_repo.upstream_remote(repo)
    if remote and "--no-fetch" not in args:
        fetched = git_repo.run_git(repo, "fetch", "--quiet", "--no-tags", remote, timeout=60)
        if not fetched.ok:
            say(f"Could not reach {remote}: {git_error_line(fetched.err)}")
            return UNKNOWN
    counts = git_repo.ahead_behind(repo, upstream)
    if counts is None:
        say(f"Could not compare {branch} with {upstream}.")
        return UNKNOWN
    ahead, behind = counts
    if behind:
        say(f"{branch} is {behind} commit(s) behind {upstream}; pull first.")
        return FAIL
    if ahead:
        say(f"Up to date with {upstream}; {ahead} local commit(s) will be pushed with the release.")
    else:
        say(f"In sync with {upstream}.")
    return PASS


def version_bumped(repo: str, args: List[str]) -> int:
    """version-bumped VERSION [TAG [LAST_TAG]]: the version is newer than the last release.

    LAST_TAG, when given (even empty), is the last release as the panel found it; without it the
    newest final release tag reachable from HEAD in TAG's format is looked up here.
    """
    if not args or not args[0] or version_key(args[0]) is None:
        say("The version being released is unknown; set it in the panel or in the project file.")
        return FAIL
    version = args[0]
    tag = args[1] if len(args) > 1 and args[1] else f"v{version}"
    tag_format = format_of_tag(tag, version)
    tags = git_repo.release_tags(repo)
    if len(args) > 2:
        previous_version = version_from_tag(args[2], tag_format) if args[2] else None
        previous = (args[2], previous_version) if args[2] and previous_version else None
    else:
        previous = highest_tagged_version(tags, tag_format)
    if previous is None and git_repo.run_git(repo, "rev-parse", "--is-shallow-repository").out.strip() == "true":
        say("This is a shallow clone, so earlier release tags may be missing; "
            "run git fetch --unshallow --tags, then check again.")
        return UNKNOWN
    if previous is None:
        others = [tag for tag in tags if may_be_release_tag(tag)]
        if others:
            # Release tags in another style: not a first release, and we cannot compare.
            say(f"No release tag like {tag_for('1.2.3', tag_format)} before {tag}, but the repository has release "
                f"tags such as {', '.join(others[:3])}; set \"Tag format\" in RELEASE_CHECKLIST.md to match them.")
            return UNKNOWN
        return _bumped_in_files(repo, version, None, None, tag)
    previous_tag, previous_version = previous
    if version_key(version) > version_key(previous_version):  # type: ignore[operator]
        named = f" ({previous_tag})" if previous_tag != previous_version else ""
        return _bumped_in_files(repo, version, f"the last release {previous_version}{named}", previous_version,
                                tag)
    if version_key(version) == version_key(previous_version):
        say(f"{version} is already released as {previous_tag}; bump the version first.")
    else:
        say(f"{version} is older than the last release {previous_version} ({previous_tag}); bump the version.")
    return FAIL




@dataclasses.dataclass(frozen=True)
class VersionSource:
    file: Optional[str]  # the file the version was read from
    version: Optional[str]  # what it says
    from_tags: Optional[str]  # "go", "hatch-vcs", …: the tag is the version
    passed_over: Tuple[str, ...]  # manifests whose version was not used (older than the last release)


def read_version_source(repo: str, last_version: Optional[str], version: Optional[str] = None,
                        tag: Optional[str] = None) -> VersionSource:
    """Where this project keeps its version and what it says now, with RELEASE_CHECKLIST.md's "Version file"
    and "Version macro" settings (wherever the panel reads that file from). A tag named after a workspace
    member ("tracing-subscriber-0.3.24") whose manifest says version is that member's release."""
    version_file = version_macro = None
    for relative in (CHECKLIST_FILE_NAME, os.path.join(".github", CHECKLIST_FILE_NAME),
                     os.path.join("docs", CHECKLIST_FILE_NAME)):
        path = os.path.join(repo, relative)
        if os.path.isfile(path):
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    spec = parse_checklist(handle.read(1_000_000), path)
                version_file, version_macro = spec.version_file, spec.version_macro
            except (OSError, ChecklistParseError):
                pass
            break
    project = detect_project(repo, last_release=last_version, version_file=version_file,
                             version_macro=version_macro)
    member = member_of_tag(repo, tag) if tag and version and not version_file else None
    if member is not None and version and project.version != version and \
            version_key(member.version) == version_key(version):
        return VersionSource(member.manifest, member.version, None, ())
    return VersionSource(project.version_file.replace(os.sep, "/") if project.version_file else None,
                         project.version, project.version_from_tags,
                         tuple(f"{ignored.file} {ignored.version}".strip() for ignored in project.ignored))


def _bumped_in_files(repo: str, version: str, last: Optional[str], last_version: Optional[str],
                     tag: Optional[str] = None) -> int:
    """Pass only when the file the project keeps its version in was read and says version; a version that
    is only proposed (read from no file) is never a bump. A project whose tag is its version (a Go module,
    hatch-vcs, setuptools-scm) has nothing to bump."""
    newer = f"{version} is newer than {last}" if last else f"{version} is the first release (no earlier release tag)"
    source = read_version_source(repo, last_version, version, tag)
    if source.file and source.version:
        if version_key(source.version) != version_key(version):
            said = source.version if version_key(source.version) is not None else repr(source.version)
            say(f"{source.file} says {said}, not {version}; bump it to {version}.")
            return FAIL
        say(f"{newer}, and {source.file} says {version}.")
        return PASS
    if source.from_tags and source.from_tags != "tags":
        say(f"{newer}; the version comes from the tag ({source.from_tags}), so no file needs a bump.")
        return PASS
    passed_over = f" ({', '.join(source.passed_over)} passed over)" if source.passed_over else ""
    say(f"{newer}, but no version file was read{passed_over}, so whether the version was bumped could not be "
        "checked. Name the file as \"Version file\" in RELEASE_CHECKLIST.md (and \"Version macro\" for a C "
        "header), or check it by hand.")
    return UNKNOWN


def changelog_entry(repo: str, args: List[str]) -> int:
    if not args or not args[0]:
        say("The version being released is unknown.")
        return FAIL
    version = args[0]
    name = args[1] if len(args) > 1 and args[1] else find_changelog(repo, [version])
    if name is None:
        say("No changelog found (CHANGELOG, CHANGES, HISTORY, NEWS or RELEASE-NOTES, at the root or in docs/).")
        return FAIL
    if os.path.isdir(os.path.join(repo, name)):  # a release-notes folder: a file for the version, or a heading
        found = entry_in_folder(repo, name, version)
        if found is None:
            say(f"{name}/ has no notes for {version}; add a file or a heading named {version}.")
            return FAIL
        say(f"{found[0]} line {found[1]} is the entry for {version}.")
        return PASS
    try:
        with open(os.path.join(repo, name), encoding="utf-8", errors="replace") as handle:
            text = handle.read(5_000_000)
    except OSError as error:
        say(f"Could not read {name}: {error.strerror}")
        return FAIL
    line = changelog_mentions(text, version)
    if line is None:
        say(f"{name} has no entry for {version}; add one headed like \"{entry_heading_example(name, text, version)}\".")
        return FAIL
    say(f"{name} line {line} is the entry for {version}.")
    return PASS


def tag_free(repo: str, args: List[str]) -> int:
    if not args or not args[0] or "{" in args[0]:
        say("The tag to create is unknown (no version).")
        return FAIL
    tag = args[0]
    if git_repo.tag_exists(repo, tag):
        say(f"Tag {tag} already exists here.")
        return FAIL
    remote = git_repo.upstream_remote(repo) or ("origin" if "origin" in git_repo.remotes(repo) else None)
    if remote:
        remote_tags = git_repo.run_git(repo, "ls-remote", "--tags", remote, f"refs/tags/{tag}", timeout=30)
        if remote_tags.ok and remote_tags.out.strip():
            say(f"Tag {tag} already exists on {remote}.")
            return FAIL
        if not remote_tags.ok:
            say(f"Tag {tag} is free here; could not ask {remote}: {git_error_line(remote_tags.err)}")
            return UNKNOWN
        say(f"Tag {tag} is free here and on {remote}.")
        return PASS
    say(f"Tag {tag} is free.")
    return PASS


CHECKS: Dict[str, Callable[[str, List[str]], int]] = {
    "clean-tree": clean_tree,
    "on-branch": on_branch,
    "in-sync": in_sync,
    "version-bumped": version_bumped,
    "changelog-entry": changelog_entry,
    "tag-free": tag_free,
}


def main(argv: Optional[List[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in CHECKS:
        say(f"Usage: {BUILTIN_COMMAND} {{{'|'.join(CHECKS)}}} [arguments]")
        return USAGE
    return CHECKS[args[0]](os.getcwd(), args[1:])


if __name__ == "__main__":
    sys.exit(main())
