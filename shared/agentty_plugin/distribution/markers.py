"""Dependency lines (PEP 508: `name[extras] specifiers; marker`) and their markers, evaluated for every target.

A bundle is built once and must run on Python 3.9 through 3.13 on macOS, Linux and Windows, so a
dependency counts as needed when its marker is true for ANY of those targets — not just for the
Python that happens to run the bundler (pip's own `--python-version` does not change how markers
are evaluated, which is how `exceptiongroup`, needed by anyio below 3.11, goes missing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple, Union

from .versions import InvalidVersion, SpecifierSet, Version

SUPPORTED_PYTHONS = ("3.9", "3.10", "3.11", "3.12", "3.13")
# (sys_platform, platform_system, os_name, platform_machine) for the machines Agentty runs on.
PLATFORMS = (
    ("darwin", "Darwin", "posix", "arm64"),
    ("darwin", "Darwin", "posix", "x86_64"),
    ("linux", "Linux", "posix", "x86_64"),
    ("linux", "Linux", "posix", "aarch64"),
    ("win32", "Windows", "nt", "AMD64"),
    ("win32", "Windows", "nt", "ARM64"),
)


def normalize_name(name: str) -> str:
    """The comparable form of a distribution name: `Whoosh_Reloaded` and `whoosh-reloaded` are one."""
    return re.sub(r"[-_.]+", "-", name).lower()


Environment = Dict[str, str]


def target_environments(pythons: Sequence[str] = SUPPORTED_PYTHONS) -> List[Environment]:
    """Every (Python, platform) pair a bundle must run on, as marker variables."""
    envs = []
    for python in pythons:
        for sys_platform, system, os_name, machine in PLATFORMS:
            envs.append({
                "python_version": python,
                "python_full_version": python + ".0",
                "implementation_name": "cpython",
                "implementation_version": python + ".0",
                "platform_python_implementation": "CPython",
                "sys_platform": sys_platform,
                "platform_system": system,
                "os_name": os_name,
                "platform_machine": machine,
                "platform_release": "",
                "platform_version": "",
                "extra": "",
            })
    return envs


class MarkerError(ValueError):
    """A marker this module cannot read."""


_TOKEN = re.compile(
    r"""\s*(?:
      (?P<string>'[^']*'|"[^"]*")
    | (?P<op>===|==|!=|<=|>=|~=|<|>|not\s+in\b|in\b)
    | (?P<paren>[()])
    | (?P<word>[A-Za-z_][A-Za-z0-9_.]*)
    )""",
    re.VERBOSE,
)

@dataclass(frozen=True)
class _Compare:
    left: str  # a variable name, or a literal marked by a leading quote
    op: str
    right: str


@dataclass(frozen=True)
class _Join:
    op: str  # "and" | "or"
    first: Node
    second: Node


Node = Union[_Compare, _Join]


def _tokens(text: str) -> List[Tuple[str, str]]:
    found: List[Tuple[str, str]] = []
    position = 0
    text = text.strip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match or match.end() == position:
            raise MarkerError(f"cannot read marker {text!r} at {text[position:]!r}")
        kind = match.lastgroup or ""
        value = match.group(kind)
        if kind == "word" and value in ("and", "or"):
            kind = value
        if kind == "op":
            value = re.sub(r"\s+", " ", value)
        found.append((kind, value))
        position = match.end()
    return found


class Marker:
    """A parsed environment marker such as `python_version < "3.11" and sys_platform != "win32"`."""

    def __init__(self, text: str) -> None:
        self.text = text.strip()
        self._tokens = _tokens(self.text)
        self._at = 0
        self.tree = self._or()
        if self._at != len(self._tokens):
            raise MarkerError(f"cannot read marker {self.text!r}: unexpected {self._tokens[self._at][1]!r}")

    def _peek(self) -> Tuple[str, str]:
        return self._tokens[self._at] if self._at < len(self._tokens) else ("end", "")

    def _take(self, kind: str) -> str:
        token_kind, value = self._peek()
        if token_kind != kind:
            raise MarkerError(f"cannot read marker {self.text!r}: expected {kind}, found {value or 'the end'!r}")
        self._at += 1
        return value

    def _or(self) -> Node:
        node = self._and()
        while self._peek()[0] == "or":
            self._at += 1
            node = _Join("or", node, self._and())
        return node

    def _and(self) -> Node:
        node = self._atom()
        while self._peek()[0] == "and":
            self._at += 1
            node = _Join("and", node, self._atom())
        return node

    def _atom(self) -> Node:
        if self._peek() == ("paren", "("):
            self._at += 1
            node = self._or()
            if self._take("paren") != ")":
                raise MarkerError(f"cannot read marker {self.text!r}: unbalanced parentheses")
            return node
        left = self._value()
        op = self._take("op")
        right = self._value()
        return _Compare(left, op, right)

    def _value(self) -> str:
        kind, value = self._peek()
        if kind == "string":
            self._at += 1
            return "'" + value[1:-1]  # a leading quote marks a literal
        if kind == "word":
            self._at += 1
            return value
        raise MarkerError(f"cannot read marker {self.text!r}: expected a value, found {value or 'the end'!r}")

    def evaluate(self, env: Environment) -> bool:
        return self._evaluate(self.tree, env)

    def _evaluate(self, node: Node, env: Environment) -> bool:
        if isinstance(node, _Compare):
            is_extra = "extra" in (node.left, node.right)
            return _compare(_resolve(node.left, env), node.op, _resolve(node.right, env), is_extra)
        if node.op == "and":
            return self._evaluate(node.first, env) and self._evaluate(node.second, env)
        return self._evaluate(node.first, env) or self._evaluate(node.second, env)


def _resolve(value: str, env: Environment) -> str:
    if value.startswith("'"):
        return value[1:]
    if value not in env:
        raise MarkerError(f"unknown marker variable {value!r}")
    return env[value]


def _compare(left: str, op: str, right: str, is_extra: bool) -> bool:
    if is_extra:
        left, right = normalize_name(left), normalize_name(right)
    if op == "in":
        return left in right
    if op == "not in":
        return left not in right
    try:
        return SpecifierSet(op + right).contains(Version(left))
    except InvalidVersion:
        pass
    if op == "==":
        return left == right
    if op == "!=":
        return left != right
    if op == "===":
        return left == right
    if op == "~=":
        raise MarkerError(f"cannot compare {left!r} ~= {right!r}: they are not versions")
    # Not versions: PEP 508 falls back to plain string comparison.
    return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right}[op]


_REQUIREMENT = re.compile(
    r"""^\s*(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)
    \s*(?:\[(?P<extras>[^\]]*)\])?
    \s*(?P<rest>[^;]*?)
    \s*(?:;(?P<marker>.*))?$""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Requirement:
    """One dependency line from wheel metadata (`Requires-Dist`) or a requirements file."""

    name: str
    extras: FrozenSet[str]
    specifier: SpecifierSet
    marker: Optional[Marker]
    text: str

    @property
    def key(self) -> str:
        return normalize_name(self.name)

    def applies(self, env: Environment, extras: FrozenSet[str] = frozenset()) -> bool:
        """True when this dependency is needed in `env` with the given extras of its parent requested."""
        if self.marker is None:
            return True
        return any(self.marker.evaluate({**env, "extra": extra}) for extra in ("", *sorted(extras)))


def parse_requirement(text: str) -> Requirement:
    """Parse `name[extra] (>=1,<2); python_version < "3.11"`; URL requirements are refused."""
    match = _REQUIREMENT.match(text)
    if not match:
        raise ValueError(f"cannot read the requirement {text!r}")
    rest = match.group("rest").strip()
    if rest.startswith("@"):
        raise ValueError(f"{text!r}: a direct URL cannot be bundled reproducibly; pin a version from an index")
    if rest.startswith("(") and rest.endswith(")"):
        rest = rest[1:-1]
    extras = frozenset(normalize_name(e) for e in (match.group("extras") or "").split(",") if e.strip())
    try:
        specifier = SpecifierSet(rest)
    except InvalidVersion as error:
        raise ValueError(f"{text!r}: {error}") from None
    marker_text = (match.group("marker") or "").strip()
    return Requirement(
        name=match.group("name"), extras=extras, specifier=specifier,
        marker=Marker(marker_text) if marker_text else None, text=text.strip(),
    )


def describe_environments(envs: Sequence[Environment]) -> str:
    """A short human description of where a dependency is needed, e.g. `Python 3.9, 3.10`."""
    pythons = sorted({e["python_version"] for e in envs}, key=lambda v: tuple(int(p) for p in v.split(".")))
    systems = sorted({e["platform_system"] for e in envs})
    where = "Python " + ", ".join(pythons)
    if len(systems) < len({p[1] for p in PLATFORMS}):
        where += " on " + "/".join(systems)
    return where
