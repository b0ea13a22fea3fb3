"""Version numbers and version specifiers (the parts of PEP 440 that dependency metadata uses), standard library only.

Used to check that the pinned versions in a plugin's requirements.txt satisfy what each wheel's metadata
asks of its dependencies, and that every wheel's Requires-Python admits every Python a bundle targets.
"""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

_VERSION = re.compile(
    r"""^\s*v?
    (?:(?P<epoch>\d+)!)?
    (?P<release>\d+(?:\.\d+)*)
    (?:[-_.]?(?P<pre_l>alpha|beta|preview|pre|rc|a|b|c)[-_.]?(?P<pre_n>\d+)?)?
    (?:-(?P<post_n1>\d+)|[-_.]?(?P<post_l>post|rev|r)[-_.]?(?P<post_n2>\d+)?)?
    (?:[-_.]?(?P<dev_l>dev)[-_.]?(?P<dev_n>\d+)?)?
    (?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?
    \s*$""",
    re.VERBOSE | re.IGNORECASE,
)
_PRE_ORDER = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}

Key = Tuple[object, ...]


class InvalidVersion(ValueError):
    """Not a PEP 440 version."""


class Version:
    """A parsed PEP 440 version, ordered as pip orders it."""

    def __init__(self, text: str) -> None:
        match = _VERSION.match(text)
        if not match:
            raise InvalidVersion(f"{text!r} is not a valid version")
        self.text = text.strip()
        self.epoch = int(match.group("epoch") or 0)
        self.release: Tuple[int, ...] = tuple(int(part) for part in match.group("release").split("."))
        self.pre: Optional[Tuple[int, int]] = None
        if match.group("pre_l"):
            self.pre = (_PRE_ORDER[match.group("pre_l").lower()], int(match.group("pre_n") or 0))
        post = match.group("post_n1") or match.group("post_n2")
        self.post: Optional[int] = int(post) if post else (0 if match.group("post_l") else None)
        self.dev: Optional[int] = int(match.group("dev_n") or 0) if match.group("dev_l") else None
        self.local: Optional[str] = match.group("local")

    @property
    def is_prerelease(self) -> bool:
        return self.pre is not None or self.dev is not None

    @property
    def public(self) -> Version:
        return Version(self.text.split("+", 1)[0])

    @property
    def base(self) -> Tuple[int, Tuple[int, ...]]:
        return self.epoch, self.release

    def key(self) -> Key:
        release = list(self.release)
        while len(release) > 1 and release[-1] == 0:  # 1.0 == 1.0.0
            release.pop()
        # A dev release of a final version sorts before its pre-releases: 1.0.dev0 < 1.0a1 < 1.0.
        if self.pre is None and self.post is None and self.dev is not None:
            pre: Key = (-1,)
        elif self.pre is None:
            pre = (1,)
        else:
            pre = (0, *self.pre)
        post: Key = (-1,) if self.post is None else (0, self.post)
        dev: Key = (1,) if self.dev is None else (0, self.dev)
        local: Key = () if self.local is None else tuple(
            (1, int(part), "") if part.isdigit() else (0, 0, part.lower()) for part in re.split(r"[-_.]", self.local)
        )
        return self.epoch, tuple(release), pre, post, dev, local

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Version) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __lt__(self, other: Version) -> bool:
        return self.key() < other.key()

    def __le__(self, other: Version) -> bool:
        return self == other or self < other

    def __gt__(self, other: Version) -> bool:
        return other < self

    def __ge__(self, other: Version) -> bool:
        return self == other or other < self

    def __repr__(self) -> str:
        return f"Version({self.text!r})"

    def __str__(self) -> str:
        return self.text


_SPECIFIER = re.compile(r"^\s*(===|~=|==|!=|<=|>=|<|>)\s*([^\s,;]+)\s*$")


def _padded(release: Tuple[int, ...], length: int) -> Tuple[int, ...]:
    return release + (0,) * max(0, length - len(release))


class Specifier:
    """One clause such as `>=4.0.1`, `==1.*`, `~=2.2` or `!=1.4.3`."""

    def __init__(self, text: str) -> None:
        match = _SPECIFIER.match(text)
        if not match:
            raise InvalidVersion(f"{text!r} is not a version specifier")
        self.operator, self.version_text = match.group(1), match.group(2)
        self.prefix = self.operator in ("==", "!=") and self.version_text.endswith(".*")
        if self.operator != "===":
            self.version = Version(self.version_text[:-2] if self.prefix else self.version_text)
            if self.operator == "~=" and len(self.version.release) < 2:
                raise InvalidVersion(f"{text!r}: ~= needs at least two release numbers")

    def __str__(self) -> str:
        return f"{self.operator}{self.version_text}"

    def contains(self, candidate: Version) -> bool:
        """Whether `candidate` satisfies this clause (pre-releases allowed: a pin is a deliberate choice)."""
        op = self.operator
        if op == "===":
            return candidate.text.lower() == self.version_text.lower()
        spec = self.version
        if self.prefix:
            wanted = spec.release
            same = candidate.epoch == spec.epoch and _padded(candidate.release, len(wanted))[: len(wanted)] == wanted
            return same if op == "==" else not same
        if op in ("==", "!="):
            # A specifier without a local label matches any local build of that version.
            mine = candidate if spec.local is not None else candidate.public
            return (mine == spec) if op == "==" else (mine != spec)
        if op == "~=":
            stem = spec.release[:-1]
            return candidate >= spec and candidate.epoch == spec.epoch and \
                _padded(candidate.release, len(stem))[: len(stem)] == stem
        public = candidate.public
        if op == "<=":
            return public <= spec
        if op == ">=":
            return public >= spec
        if op == "<":
            # `<3` excludes 3.0a1: pre-releases of the bound itself are not below it, unless it is one.
            if not spec.is_prerelease and public.is_prerelease and public.base == spec.base:
                return False
            return public < spec
        # `>3` excludes 3.post1 unless the bound is itself a post-release.
        if spec.post is None and public.post is not None and public.base == spec.base and public.pre == spec.pre:
            return False
        return public > spec


class SpecifierSet:
    """Comma-separated clauses, all of which must hold; empty means any version."""

    def __init__(self, text: str = "") -> None:
        self.text = text.strip()
        self.clauses: List[Specifier] = [Specifier(part) for part in self.text.split(",") if part.strip()]

    def contains(self, candidate: Version) -> bool:
        return all(clause.contains(candidate) for clause in self.clauses)

    def __str__(self) -> str:
        return ",".join(str(clause) for clause in self.clauses)

    def __bool__(self) -> bool:
        return bool(self.clauses)
