"""Version strings and release tags: parse, compare, and map between a version and its tag."""
from __future__ import annotations

import re
from typing import Iterable, List, Optional, Tuple

_VERSION = re.compile(r"^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?(?:[-+.]?([0-9A-Za-z.+-]*))?$")

VersionKey = Tuple[Tuple[int, ...], int, Tuple[Tuple[int, object], ...]]


def version_key(version: str) -> Optional[VersionKey]:
    """A sort key for "1.2.3", "1.2", "1.2.3-rc.1" (pre-releases sort before the release); None if not a version."""
    match = _VERSION.match(version.strip())
    if not match:
        return None
    numbers = tuple(int(part) for part in match.groups()[:4] if part is not None)
    numbers = numbers + (0,) * (4 - len(numbers))
    suffix = (match.group(5) or "").split("+", 1)[0]  # build metadata never orders versions
    if not suffix:
        return numbers, 1, ()
    parts = tuple((0, int(piece)) if piece.isdigit() else (1, piece) for piece in re.split(r"[.-]", suffix) if piece)
    return numbers, 0, parts


def is_version(text: str) -> bool:
    return version_key(text) is not None


def tag_for(version: str, tag_format: str) -> str:
    """The tag a version gets, e.g. ("1.2.0", "v{version}") -> "v1.2.0"."""
    return tag_format.replace("{version}", version)


def version_from_tag(tag: str, tag_format: str) -> Optional[str]:
    """The version inside a tag written in tag_format, or None if the tag does not follow it."""
    prefix, _, suffix = tag_format.partition("{version}")
    if not tag.startswith(prefix) or not tag.endswith(suffix) or len(tag) <= len(prefix) + len(suffix):
        return None
    version = tag[len(prefix):len(tag) - len(suffix)] if suffix else tag[len(prefix):]
    return version if is_version(version) else None


def guess_tag_format(tags: Iterable[str]) -> str:
    """Follow the repository's habit: "v1.2.0" tags give "v{version}", bare "1.2.0" tags give "{version}"."""
    prefixed = bare = 0
    for tag in tags:
        if tag.startswith("v") and is_version(tag[1:]):
            prefixed += 1
        elif is_version(tag):
            bare += 1
    return "{version}" if bare > prefixed else "v{version}"


def highest_tagged_version(tags: Iterable[str], tag_format: str) -> Optional[Tuple[str, str]]:
    """(tag, version) of the highest version among tags that follow tag_format, or None."""
    best: Optional[Tuple[VersionKey, str, str]] = None
    for tag in tags:
        version = version_from_tag(tag, tag_format)
        key = version_key(version) if version else None
        if version and key is not None and (best is None or key > best[0]):
            best = (key, tag, version)
    return (best[1], best[2]) if best else None


def next_patch(version: str) -> Optional[str]:
    """1.2.3 -> 1.2.4 (used to suggest a version when the project files name none)."""
    match = re.match(r"^(\d+)\.(\d+)\.(\d+)$", version)
    if not match:
        return None
    major, minor, patch = (int(part) for part in match.groups())
    return f"{major}.{minor}.{patch + 1}"


def sort_versions(versions: Iterable[str]) -> List[str]:
    """Newest first; strings that are not versions go last in their original order."""
    items = list(versions)
    keyed = [(version_key(item), index, item) for index, item in enumerate(items)]
    good = sorted((entry for entry in keyed if entry[0] is not None), key=lambda entry: entry[0], reverse=True)  # type: ignore[arg-type,return-value]
    bad = [entry for entry in keyed if entry[0] is None]
    return [entry[2] for entry in good] + [entry[2] for entry in bad]
