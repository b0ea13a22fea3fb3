"""Version strings and release tags: parse, compare, and map between a version and its tag."""
from __future__ import annotations

import re
from typing import Dict, Iterable, List, Optional, Tuple

_VERSION = re.compile(r"^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?(?:[-+.]?([0-9A-Za-z.+-]*))?$")

VersionKey = Tuple[Tuple[int, ...], int, Tuple[Tuple[int, object], ...]]
# Stage words that mark the final release of a version whose string always carries its stage (libevent's
# 2.1.12-stable after 2.1.12-rc, Netty's 4.1.100.Final, libsodium's 1.0.20-RELEASE): no pre-release.
FINAL_STAGES = frozenset(("stable", "final", "release", "ga"))


def version_key(version: str) -> Optional[VersionKey]:
    """A sort key for "1.2.3", "1.2", "1.2.3-rc.1" (pre-releases sort before the release); None if not a version."""
    # Build metadata never orders versions, and never makes one a pre-release: 1.2.3+build.5 is 1.2.3.
    match = _VERSION.match(version.strip().split("+", 1)[0])
    if not match:
        return None
    numbers = tuple(int(part) for part in match.groups()[:4] if part is not None)
    numbers = numbers + (0,) * (4 - len(numbers))
    suffix = match.group(5) or ""
    if not suffix or suffix.lower() in FINAL_STAGES:
        return numbers, 1, ()
    parts = tuple((0, int(piece)) if piece.isdigit() else (1, piece) for piece in re.split(r"[.-]", suffix) if piece)
    return numbers, 0, parts


def is_version(text: str) -> bool:
    return version_key(text) is not None


# Number placeholders of a tag format whose numbers are not joined by dots ("curl-{major}_{minor}_{patch}").
NUMBER_PARTS = ("major", "minor", "patch", "build")
_NUMBER_PLACEHOLDER = re.compile(r"\{(version|major|minor|patch|build)\}")
# "8_21_0", "2-8-3": numbers joined by one separator other than a dot.
_SEPARATED = re.compile(r"^(\d+)([_-])(\d+)(?:\2(\d+))?(?:\2(\d+))?$")


def is_tag_format(text: str) -> bool:
    """A tag format names the version whole ({version}) or its numbers ({major}, {minor}, {patch})."""
    return "{version}" in text or "{major}" in text


def is_final(version: str) -> bool:
    """A release (1.2.0, 24.3.0.post2), not a pre-release or dev marker (1.2.0rc1, 9.2.0.dev0, 2.0.0-0)."""
    key = version_key(version)
    if key is None:
        return False
    return key[1] == 1 or (bool(key[2]) and key[2][0][0] == 1 and str(key[2][0][1]).startswith("post"))


def tag_for(version: str, tag_format: str) -> str:
    """The tag a version gets: ("1.2.0", "v{version}") -> "v1.2.0", ("8.21.1", "curl-{major}_{minor}_{patch}")
    -> "curl-8_21_1"."""
    if "{version}" in tag_format:
        return tag_format.replace("{version}", version)
    numbers = re.match(r"^\d+(?:\.\d+)*", version)
    parts = (numbers.group(0) if numbers else version).split(".")
    values = {name: parts[index] if index < len(parts) else "0" for index, name in enumerate(NUMBER_PARTS)}
    return _NUMBER_PLACEHOLDER.sub(lambda match: values.get(match.group(1), match.group(0)), tag_format)


def _format_pattern(tag_format: str) -> re.Pattern[str]:
    pieces: List[str] = []
    position = 0
    for match in _NUMBER_PLACEHOLDER.finditer(tag_format):
        pieces.append(re.escape(tag_format[position:match.start()]))
        name = match.group(1)
        pieces.append(r"(?P<version>\d[0-9A-Za-z.+-]*)" if name == "version" else rf"(?P<{name}>\d+)")
        position = match.end()
    if "{version}" not in tag_format:
        pieces.append(re.escape(tag_format[position:]))
        # A pre-release after the numbers ("curl-8_22_0-rc1") is read, to be recognized as one.
        return re.compile("^" + "".join(pieces) + r"(?P<pre>[-._]?[A-Za-z][0-9A-Za-z.-]*)?$")
    pieces.append(re.escape(tag_format[position:]))
    return re.compile("^" + "".join(pieces) + "$")


def format_of_tag(tag: str, version: str) -> str:
    """The format a tag was written in, knowing its version.

    ("v1.2.0", "1.2.0") -> "v{version}"; ("curl-8_21_1", "8.21.1") -> "curl-{major}_{minor}_{patch}".
    """
    if version and version in tag:
        return tag.replace(version, "{version}", 1)
    split = _split_tag(tag)
    if split is not None and version_key(split[2]) == version_key(version):
        return split[1]
    return "v{version}"


def version_from_tag(tag: str, tag_format: str) -> Optional[str]:
    """The version inside a tag written in tag_format, or None if the tag does not follow it."""
    match = _format_pattern(tag_format).match(tag)
    if match is None:
        return None
    if "{version}" in tag_format:
        version = match.group("version")
    else:
        numbers = [match.group(name) for name in NUMBER_PARTS if name in match.groupdict() and match.group(name)]
        version = ".".join(numbers) + (match.group("pre") or "").replace("_", ".")
    return version if is_version(version) else None


# The usual release prefixes: "v1.2", "release-1.2", "rel/1.2", "REL_16_1" (PostgreSQL), "R_2_8_3" (expat).
_COMMON_PREFIX = re.compile(r"(?i)(?:v|(?:r|rel|release|version)[-_/]?v?)?")


def _split_tag(tag: str) -> Optional[Tuple[str, str, str]]:
    """(prefix, format, version): ("jq-", "jq-{version}", "1.8.2") from "jq-1.8.2", ("curl-",
    "curl-{major}_{minor}_{patch}", "8.21.0") from "curl-8_21_0", and ("pcre2-", "pcre2-{version}", "10.47")
    from "pcre2-10.47": a name may end in a digit, so the version starts at the first run of digits that
    reads as numbers joined by dots (or by one other separator); a lone number ("V20000512") comes last."""
    starts = [match.start() for match in re.finditer(r"(?<!\d)\d", tag)]
    for start in starts:
        prefix, rest = tag[:start], tag[start:]
        qualified = re.match(r"^(\d+(?:\.\d+)+)([.-](?:Final|FINAL|RELEASE|GA))$", rest)
        if qualified:  # "v6.4.0.Final": the qualifier is part of every release's tag, not of the version
            return prefix, prefix + "{version}" + qualified.group(2), qualified.group(1)
        if re.match(r"^\d+\.\d", rest) and is_version(rest):
            return prefix, prefix + "{version}", rest
        separated = _SEPARATED.match(rest)
        if separated:
            separator = separated.group(2)
            numbers = [group for group in separated.groups()[2:] if group is not None]
            names = NUMBER_PARTS[:len(numbers) + 1]
            style = prefix + separator.join("{" + name + "}" for name in names)
            return prefix, style, ".".join([separated.group(1), *numbers])
    for start in starts:
        prefix, rest = tag[:start], tag[start:]
        if is_version(rest):
            return prefix, prefix + "{version}", rest
    return None


def may_be_release_tag(tag: str) -> bool:
    """Whether a tag could name a release, read or not: a version after some prefix, or numbers joined by
    ".", "_" or "-" anywhere ("build2-r10.47x"). Only a repository without such tags has its first release."""
    split = _split_tag(tag)
    if split is not None and is_final(split[2]):
        return True
    return re.search(r"\d+[._-]\d+", tag) is not None


def _is_lone_number(version: str) -> bool:
    """A version without parts ("20000512" of the snapshot tag "V20000512", "4" of an action's moving "v4"):
    it ranks below any release with parts, or an old date stamp would outrank every release."""
    return version.isdigit()


def guess_tag_format(tags: Iterable[str], names: Iterable[str] = ()) -> str:
    """The format of the newest final release among the project's tags: "v1.2.0" gives "v{version}",
    "jq-1.8.2" in the jq repository "jq-{version}", "curl-8_21_0" "curl-{major}_{minor}_{patch}".

    The newest release decides, not the most numerous tags: a project that moved from "4.19.2" to
    "v5.0.0" tags "v5.2.2" next. Only the usual prefixes, those naming the project and one that most
    version tags share count: a workspace's member crates tag their own releases ("ignore-0.4.33" next
    to ripgrep's "15.2.0") and must not decide the project's format.
    """
    wanted = {name.lower() for name in names if name}
    splits = [split for split in (_split_tag(tag) for tag in tags) if split is not None]
    counts: Dict[str, int] = {}
    for prefix, _style, _version in splits:
        counts[prefix] = counts.get(prefix, 0) + 1
    total = sum(counts.values())

    def names_project(prefix: str) -> bool:  # "jq-", "mylib-v", "pkg@", "tool/v"
        lowered = prefix.lower()
        return any(lowered.startswith(name) and re.fullmatch(r"[-_/@]?v?[-_/@]?", lowered[len(name):])
                   for name in wanted)

    def allowed(prefix: str) -> bool:
        return _COMMON_PREFIX.fullmatch(prefix) is not None or names_project(prefix) or counts[prefix] * 2 > total

    best: Optional[Tuple[bool, VersionKey, int, str]] = None
    for index, (prefix, style, version) in enumerate(splits):
        key = version_key(version)
        if key is None or not allowed(prefix) or not is_final(version):
            continue
        # Highest version first, lone numbers below any release with parts; between equal versions the tag
        # created last (tags come newest first).
        rank = (not _is_lone_number(version), key, -index, style)
        if best is None or rank[:3] > best[:3]:
            best = rank
    if best is None:
        candidates = [style for prefix, style, _version in splits if allowed(prefix)]
        return candidates[0] if candidates else "v{version}"
    return best[3]


def highest_tagged_version(tags: Iterable[str], tag_format: str, final_only: bool = True) -> Optional[Tuple[str, str]]:
    """(tag, version) of the highest version among tags that follow tag_format, or None.

    Pre-releases and dev markers ("1.0.0.beta0", "9.2.0.dev0") are passed over unless final_only is False.
    """
    best: Optional[Tuple[VersionKey, str, str]] = None
    for tag in tags:
        version = version_from_tag(tag, tag_format)
        key = version_key(version) if version else None
        if not version or key is None or (final_only and not is_final(version)):
            continue
        if best is None or key > best[0]:
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
    previous = previous.split("+", 1)[0]  # build metadata (1.2.3+build.5) is no part of the next version
    recent = [version for version in history if re.match(r"^\d+(?:\.\d+)*$", version)][:6]  # final releases
    staged = re.match(r"^(\d+(?:\.\d+)*)([-.]?)([A-Za-z]+)$", previous)
    if staged and staged.group(3).lower() in FINAL_STAGES:  # 2.1.12-stable -> 2.1.13-stable: the stage stays
        following = next_version(staged.group(1), history)
        return following + staged.group(2) + staged.group(3) if following else None
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
