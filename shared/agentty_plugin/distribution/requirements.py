"""A plugin's `requirements.txt`: the pinned third-party packages it bundles, and the check that they are complete.

The file lists the whole dependency closure (direct and transitive) as `name==version` lines, so
every bundle of a given version carries exactly the same code. The bundler does not resolve on
its own; it proves the list is complete instead: each wheel's `Requires-Dist`, evaluated for every
Python 3.9-3.13 on macOS, Linux and Windows, must be met by a pinned line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Sequence, Set, Tuple

from .markers import Environment, Requirement, describe_environments, normalize_name, parse_requirement
from .versions import SpecifierSet, Version

REQUIREMENTS_FILE = "requirements.txt"


class RequirementsError(ValueError):
    """requirements.txt cannot be used as it is; `problems` says why, line by line."""

    def __init__(self, problems: List[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Pin:
    """One `name==version` line."""

    name: str
    version: Version
    extras: FrozenSet[str] = frozenset()
    requirement: str = ""

    @property
    def key(self) -> str:
        return normalize_name(self.name)

    @property
    def spec(self) -> str:
        """What pip is asked for: exactly this version, nothing else."""
        return f"{self.name}=={self.version}"


@dataclass
class WheelInfo:
    """What a wheel's METADATA says about a distribution."""

    name: str
    version: Version
    requires_python: SpecifierSet = field(default_factory=SpecifierSet)
    requires: List[Requirement] = field(default_factory=list)

    @property
    def key(self) -> str:
        return normalize_name(self.name)


def parse_requirements(text: str, source: str = REQUIREMENTS_FILE) -> List[Pin]:
    """Read pinned lines; raise RequirementsError naming every line that is not exactly `name==version`."""
    pins: List[Pin] = []
    problems: List[str] = []
    seen: Dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split(" #", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        where = f"{source}:{number}"
        if line.startswith("-"):
            problems.append(f"{where}: options such as {line.split()[0]!r} are not supported; list name==version lines")
            continue
        try:
            requirement = parse_requirement(line)
        except ValueError as error:
            problems.append(f"{where}: {error}")
            continue
        clauses = requirement.specifier.clauses
        if len(clauses) != 1 or clauses[0].operator != "==" or clauses[0].prefix:
            problems.append(f"{where}: {line!r} must pin one exact version, e.g. {requirement.name}==1.2.3")
            continue
        if requirement.marker is not None:
            problems.append(f"{where}: drop the marker from {line!r}: a bundle serves every Python and platform, "
                            "so every listed package is vendored")
            continue
        key = normalize_name(requirement.name)
        if key in seen:
            problems.append(f"{where}: {requirement.name} is already pinned on line {seen[key]}")
            continue
        seen[key] = number
        pins.append(Pin(requirement.name, clauses[0].version, requirement.extras, line))
    if problems:
        raise RequirementsError(problems)
    return pins


def read_requirements(plugin_dir: str) -> List[Pin]:
    """The pins of a plugin folder; no requirements.txt means no third-party packages."""
    path = os.path.join(plugin_dir, REQUIREMENTS_FILE)
    if not os.path.isfile(path):
        return []
    with open(path, encoding="utf-8") as handle:
        return parse_requirements(handle.read(), path)


def check_closure(pins: Sequence[Pin], wheels: Dict[str, WheelInfo], envs: Sequence[Environment]) -> List[str]:
    """Every problem with the pinned set: a dependency missing or pinned at a version its dependent refuses,
    or a Python a bundle must run on that a wheel's Requires-Python excludes. Empty means complete."""
    pinned = {pin.key: pin for pin in pins}
    problems: List[str] = []
    pythons = sorted({env["python_version"] for env in envs}, key=lambda v: tuple(int(p) for p in v.split(".")))
    for pin in pins:
        info = wheels[pin.key]
        refused = [p for p in pythons if not info.requires_python.contains(Version(p + ".0"))]
        if refused:
            problems.append(f"{pin.name} {pin.version} does not support Python {', '.join(refused)} "
                            f"(Requires-Python {info.requires_python}); pin a version that supports 3.9+")
    # Extras asked of each package: its own line's, plus those its dependents request (to a fixed point).
    extras: Dict[str, Set[str]] = {pin.key: set(pin.extras) for pin in pins}
    missing: Dict[Tuple[str, str], Tuple[Requirement, List[Environment]]] = {}
    changed = True
    while changed:
        changed = False
        missing.clear()
        for pin in pins:
            for requirement in wheels[pin.key].requires:
                where = [env for env in envs if requirement.applies(env, frozenset(extras[pin.key]))]
                if not where:
                    continue
                target = pinned.get(requirement.key)
                if target is None or not requirement.specifier.contains(target.version):
                    missing.setdefault((pin.key, requirement.text), (requirement, []))[1].extend(where)
                elif not requirement.extras <= extras[target.key]:
                    extras[target.key] |= requirement.extras
                    changed = True
    for (parent_key, _text), (needed, where) in missing.items():
        parent = pinned[parent_key]
        target = pinned.get(needed.key)
        wanted = f"{needed.name}{needed.specifier}" if needed.specifier else needed.name
        if target is None:
            problems.append(
                f"{parent.name} {parent.version} needs {wanted} on {describe_environments(where)}, "
                f"which requirements.txt does not pin: add a line `{needed.name}==<version>` with a version "
                f"{'matching ' + str(needed.specifier) + ' ' if needed.specifier else ''}that supports Python 3.9"
            )
        else:
            problems.append(
                f"{parent.name} {parent.version} needs {wanted} on {describe_environments(where)}, "
                f"but requirements.txt pins {target.name}=={target.version}"
            )
    return sorted(problems)
