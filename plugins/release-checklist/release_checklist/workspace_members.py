"""Workspaces whose members tag their own releases: which member this release is, from its manifest and tags.

A Cargo, npm or uv workspace may release one member at a time under tags of the member's name
(`tracing-subscriber-0.3.23` next to `tracing-0.1.44`, `svelte@5.56.10`). The member being released is the
one whose manifest says a version newer than its own last tag, when exactly one member does so.
"""
from __future__ import annotations

import dataclasses
import glob
import json
import os
import re
from typing import Iterable, List, Optional, Tuple

from .project_files import ProjectInfo, changelog_candidates
from .repo_text import read_text
from .versions import format_of_tag, highest_tagged_version, is_final, version_from_tag, version_key

# The ways a member's name leads its tags: "name-1.2.3", "name@1.2.3", "name-v1.2.3", "name/v1.2.3", "name_v1.2.3".
_JOINERS = ("-", "@", "-v", "/v", "/", "_v", "_")
MAX_MEMBERS = 200


@dataclasses.dataclass(frozen=True)
class Member:
    """One package of a workspace: its name, the version its manifest says, and where (relative paths)."""

    name: str
    version: str
    manifest: str
    folder: str


@dataclasses.dataclass(frozen=True)
class MemberRelease:
    """The member a release is for, the tag format of its tags and its last release (tag, version)."""

    member: Member
    tag_format: str
    last: Tuple[str, str]
    changelog: Optional[str]
    project: Optional[ProjectInfo] = None  # the project as this member's release (see for_release)


def _read(path: str, limit: int = 500_000) -> str:
    return read_text(path, limit) or ""


def _expand(repo: str, patterns: Iterable[str]) -> List[str]:
    """Member folders (relative) from the workspace's member globs ("crates/*", "packages/*")."""
    folders: List[str] = []
    for pattern in patterns:
        # Never outside the repository: a negation, a parent folder or an absolute path is no member of it.
        if not pattern or pattern.startswith(("!", "/", "\\")) or ".." in pattern or os.path.isabs(pattern):
            continue
        for path in sorted(glob.glob(os.path.join(repo, pattern.rstrip("/")))):
            relative = os.path.relpath(path, repo).replace(os.sep, "/")
            if os.path.isdir(path) and relative not in folders and relative != ".":
                folders.append(relative)
    return folders[:MAX_MEMBERS]


def _cargo_members(repo: str) -> List[Member]:
    text = _read(os.path.join(repo, "Cargo.toml"))
    block = re.search(r"(?ms)^\s*\[workspace\][^\[]*?^\s*members\s*=\s*\[(.*?)\]", text)
    if not block:
        return []
    root_version = re.search(r'(?ms)^\s*\[workspace\.package\][^\[]*?^\s*version\s*=\s*"([^"]+)"', text)
    members: List[Member] = []
    for folder in _expand(repo, re.findall(r'"([^"]+)"', block.group(1))):
        manifest = _read(os.path.join(repo, folder, "Cargo.toml"))
        package = re.search(r"(?ms)^\s*\[package\](.*?)(?=^\s*\[|\Z)", manifest)
        if not package:
            continue
        name = re.search(r'(?m)^\s*name\s*=\s*"([^"]+)"', package.group(1))
        version = re.search(r'(?m)^\s*version\s*=\s*"([^"]+)"', package.group(1))
        inherited = re.search(r"(?m)^\s*version\s*(?:\.\s*workspace|=\s*\{\s*workspace)\s*=\s*true", package.group(1))
        value = version.group(1) if version else (root_version.group(1) if inherited and root_version else None)
        if name and value:
            members.append(Member(name.group(1), value, f"{folder}/Cargo.toml", folder))
    return members


def _npm_members(repo: str) -> List[Member]:
    patterns: List[str] = []
    try:
        package = json.loads(_read(os.path.join(repo, "package.json")) or "{}")
    except ValueError:
        package = {}
    workspaces = package.get("workspaces") if isinstance(package, dict) else None
    if isinstance(workspaces, dict):
        workspaces = workspaces.get("packages")
    if isinstance(workspaces, list):
        patterns += [entry for entry in workspaces if isinstance(entry, str)]
    pnpm = _read(os.path.join(repo, "pnpm-workspace.yaml"))
    listed = re.search(r"(?ms)^packages\s*:\s*\n((?:\s+-.*\n?|\s*#.*\n?|\s*\n)*)", pnpm)
    if listed:
        patterns += [item.strip().strip("'\"") for item in re.findall(r"(?m)^\s+-\s*(.+?)\s*$", listed.group(1))]
    members: List[Member] = []
    for folder in _expand(repo, patterns):
        try:
            data = json.loads(_read(os.path.join(repo, folder, "package.json")) or "{}")
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("name"), str) and isinstance(data.get("version"), str) \
                and not data.get("private"):
            members.append(Member(data["name"], data["version"], f"{folder}/package.json", folder))
    return members


def _uv_members(repo: str) -> List[Member]:
    """uv workspace members ([tool.uv.workspace] members) with a static [project] version."""
    text = _read(os.path.join(repo, "pyproject.toml"))
    block = re.search(r"(?ms)^\s*\[tool\.uv\.workspace\][^\[]*?^\s*members\s*=\s*\[(.*?)\]", text)
    members: List[Member] = []
    for folder in _expand(repo, re.findall(r"""["']([^"']+)["']""", block.group(1)) if block else []):
        manifest = _read(os.path.join(repo, folder, "pyproject.toml"))
        project = re.search(r"(?ms)^\s*\[project\](.*?)(?=^\s*\[|\Z)", manifest)
        name = re.search(r"""(?m)^\s*name\s*=\s*["']([^"']+)["']""", project.group(1)) if project else None
        version = re.search(r"""(?m)^\s*version\s*=\s*["']([^"']+)["']""", project.group(1)) if project else None
        if name and version:
            members.append(Member(name.group(1), version.group(1), f"{folder}/pyproject.toml", folder))
    return members


def workspace_members(repo: str) -> List[Member]:
    """The Cargo, npm and uv workspace members that have a name and a version."""
    return _cargo_members(repo) + _npm_members(repo) + _uv_members(repo)


def _member_format(member: Member, tags: List[str]) -> Optional[str]:
    """The format of the member's own tags (newest final one decides), or None when it tags nothing."""
    lowered = member.name.lower()
    for tag in tags:  # newest first
        if not tag.lower().startswith(lowered):
            continue
        for joiner in _JOINERS:
            lead = lowered + joiner
            if not tag.lower().startswith(lead):
                continue
            rest = tag[len(lead):]
            if rest[:1].isdigit() and is_final(rest) and version_from_tag(tag, tag[:len(lead)] + "{version}"):
                return format_of_tag(tag, rest)
    return None


def _changelog_of(repo: str, folder: str) -> Optional[str]:
    found = changelog_candidates(os.path.join(repo, folder))
    return f"{folder}/{found[0]}".replace(os.sep, "/") if found else None


def released_member(repo: str, tags: List[str]) -> Optional[MemberRelease]:
    """The one member whose manifest is ahead of its own last tag, when exactly one is; else None."""
    ahead: List[MemberRelease] = []
    for member in workspace_members(repo):
        tag_format = _member_format(member, tags)
        last = highest_tagged_version(tags, tag_format) if tag_format else None
        key, last_key = version_key(member.version), version_key(last[1]) if last else None
        if tag_format and last and key is not None and last_key is not None and key > last_key:
            ahead.append(MemberRelease(member, tag_format, last, _changelog_of(repo, member.folder)))
    return ahead[0] if len(ahead) == 1 else None


def member_of_tag(repo: str, tag: str) -> Optional[Member]:
    """The workspace member a release tag is named after ("tracing-subscriber-0.3.24"), longest name first."""
    lowered = tag.lower()
    best: Optional[Member] = None
    for member in workspace_members(repo):
        name = member.name.lower()
        named = any(lowered.startswith(name + joiner) and lowered[len(name + joiner):][:1].isdigit()
                    for joiner in _JOINERS)
        if named and (best is None or len(member.name) > len(best.name)):
            best = member
    return best


def for_release(repo: str, project: ProjectInfo, tags: List[str],
                last: Optional[Tuple[str, str]]) -> Optional[MemberRelease]:
    """The member release to make instead of the project's own when the project's version is already released
    (or unknown) and exactly one member is ahead of its own tags: its version, manifest, changelog and tags."""
    own = version_key(project.version) if project.version else None
    if own is not None and (last is None or own > version_key(last[1])):  # type: ignore[operator]
        return None  # the project's own version is the one being released
    if project.version_file and "/" not in project.version_file.replace(os.sep, "/"):
        return None  # a root package (ripgrep's) is the product: its members' tags are side releases
    found = released_member(repo, tags)
    if found is None:
        return None
    member = found.member
    changed = dataclasses.replace(project, name=member.name, version=member.version, version_file=member.manifest,
                                  changelog_file=found.changelog or project.changelog_file,
                                  tag_format=found.tag_format, ignored=(), version_from_tags=None)
    return dataclasses.replace(found, project=changed)
