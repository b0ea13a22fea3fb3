"""Version strings and release tags: parse, compare, and map between a version and its tag."""
from __future__ import annotations

import re
from typing import Dict, Iterable, List, Optional, Tuple

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


_COMMON_PREFIXES = ("", "v", "V", "release-", "release/", "rel-", "version-")


def _split_tag(tag: str) -> Optional[Tuple[str, str]]:
    """("jq-", "1.8.2") from "jq-1.8.2": the text before the first digit, and a version after it."""
    match = re.search(r"\d", tag)
    if match is None or not is_version(tag[match.start():]):
        return None
    return tag[:match.start()], tag[match.start():]


def guess_tag_format(tags: Iterable[str], names: Iterable[str] = ()) -> str:
    """Follow the repository's habit: "v1.2.0" gives "v{version}", "1.2.0" gives "{version}", "jq-1.8.2" in
    the jq repository gives "jq-{version}".

    The usual prefixes, those naming the project, and one that most version tags share count: a
    workspace's member crates tag their own releases ("ignore-0.4.33" next to ripgrep's "15.2.0") and
    must not decide the project's format.
    """
    wanted = {name.lower() for name in names if name}
    counts: Dict[str, int] = {}
    for tag in tags:
        split = _split_tag(tag)
        if split is not None:
            counts[split[0]] = counts.get(split[0], 0) + 1
    total = sum(counts.values())

    def names_project(prefix: str) -> bool:  # "jq-", "mylib-v", "pkg@", "tool/v"
        lowered = prefix.lower()
        return any(lowered.startswith(name) and re.fullmatch(r"[-_/@]?v?[-_/@]?", lowered[len(name):])
                   for name in wanted)

    def allowed(prefix: str) -> bool:
        return prefix in _COMMON_PREFIXES or names_project(prefix) or counts[prefix] * 2 > total

    candidates = {prefix: count for prefix, count in counts.items() if allowed(prefix)}
    if not candidates:
        return "v{version}"
    best = max(candidates.items(), key=lambda item: (item[1], item[0] == "v"))[0]
    return best + "{version}"


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
    """1.2.3 -> 1.2.4, 24.1 -> 24.2, 2024.01.09 -> 2024.01.10 (CalVer keeps its zero padding); None otherwise."""
    match = re.match(r"^(\d+(?:\.\d+)*)\.(\d+)$", version)
    if not match:
        return None
    last = match.group(2)
    return f"{match.group(1)}.{str(int(last) + 1).zfill(len(last))}"


def next_version(previous: str, history: Iterable[str] = ()) -> Optional[str]:
    """The version after previous, in the project's habit: a project whose recent releases all end in .0
    (attrs: 25.2.0, 25.3.0, 25.4.0, 26.1.0) bumps the middle number; everyone else the last one."""
    recent = [version for version in history if re.match(r"^\d+(?:\.\d+)*$", version)][:6]  # final releases
    final = re.match(r"^(\d+(?:\.\d+)*)[-.]?[A-Za-z]", previous)
    if final:  # after 1.6rc2 comes 1.6 itself
        return final.group(1)
    parts = previous.split(".")
    if len(recent) >= 3 and len(parts) == 3 and all(re.match(r"^\d+\.\d+\.0$", version) for version in recent):
        return f"{parts[0]}.{int(parts[1]) + 1}.0" if parts[1].isdigit() else next_patch(previous)
    return next_patch(previous)


def sort_versions(versions: Iterable[str]) -> List[str]:
    """Newest first; strings that are not versions go last in their original order."""
    items = list(versions)
    keyed = [(version_key(item), index, item) for index, item in enumerate(items)]
    good = sorted((entry for entry in keyed if entry[0] is not None), key=lambda entry: entry[0], reverse=True)  # type: ignore[arg-type,return-value]
    bad = [entry for entry in keyed if entry[0] is None]
    return [entry[2] for entry in good] + [entry[2] for entry in bad]
