"""Learn about a project from its files: version, where it is written, test command, changelog."""
from __future__ import annotations

import dataclasses
import json
import os
import re
from typing import Dict, List, Optional, Tuple

from .versions import is_version

CHANGELOG_NAMES = ("changelog.md", "changelog", "changelog.rst", "changelog.txt", "changes.md", "changes.rst",
                   "changes", "history.md", "history.rst", "news.md", "news", "releases.md")
_TOML_SECTION = re.compile(r"^\s*\[\s*([^\]\[]+?)\s*\]\s*(?:#.*)?$")
_TOML_STRING = re.compile(r"""^\s*([A-Za-z0-9_.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|(true|false))\s*(?:#.*)?$""")
_PY_VERSION = re.compile(r"""^__version__\s*(?::\s*str\s*)?=\s*['"]([^'"]+)['"]""", re.MULTILINE)
_NPM_PLACEHOLDER_TEST = "no test specified"


@dataclasses.dataclass(frozen=True)
class ProjectInfo:
    """What the project files say. Every field may be missing."""

    ecosystems: Tuple[str, ...]  # e.g. ("python",), ("node",), ("rust",)
    name: Optional[str] = None
    version: Optional[str] = None
    version_file: Optional[str] = None  # relative path of the file the version was read from
    test_command: Optional[str] = None
    changelog_file: Optional[str] = None  # relative path


def read_toml_values(text: str) -> Dict[str, Dict[str, str]]:
    """The string and boolean values of a TOML file by section (enough for versions; no tomllib on 3.9)."""
    sections: Dict[str, Dict[str, str]] = {"": {}}
    current = ""
    for line in text.splitlines():
        section = _TOML_SECTION.match(line)
        if section:
            current = section.group(1).replace('"', "").replace(" ", "")
            sections.setdefault(current, {})
            continue
        value = _TOML_STRING.match(line)
        if value:
            found = next(group for group in value.groups()[1:] if group is not None)
            sections[current][value.group(1)] = found
    return sections


def _read(path: str, limit: int = 2_000_000) -> Optional[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(limit)
    except OSError:
        return None


def _listing(folder: str) -> Dict[str, str]:
    """Lower-case name -> real name of the entries in folder."""
    try:
        return {name.lower(): name for name in os.listdir(folder)}
    except OSError:
        return {}


def find_changelog(repo: str) -> Optional[str]:
    names = _listing(repo)
    for candidate in CHANGELOG_NAMES:
        if candidate in names and os.path.isfile(os.path.join(repo, names[candidate])):
            return names[candidate]
    return None


def _python_version_file(repo: str, package_name: Optional[str]) -> Optional[Tuple[str, str]]:
    """Find `__version__ = "x"` in the usual places of a Python package."""
    folders: List[str] = []
    for base in ("src", ""):
        base_path = os.path.join(repo, base) if base else repo
        for name in sorted(_listing(base_path).values()):
            if os.path.isfile(os.path.join(base_path, name, "__init__.py")):
                folders.append(os.path.join(base, name) if base else name)
    if package_name:
        wanted = package_name.replace("-", "_").lower()
        folders.sort(key=lambda folder: os.path.basename(folder).lower() != wanted)
    for folder in folders[:12]:
        for file_name in ("__init__.py", "_version.py", "version.py", "__about__.py"):
            relative = os.path.join(folder, file_name)
            text = _read(os.path.join(repo, relative), 200_000)
            match = _PY_VERSION.search(text or "")
            if match:
                return match.group(1), relative
    return None


def _has_make_target(repo: str, target: str) -> bool:
    text = _read(os.path.join(repo, "Makefile")) or _read(os.path.join(repo, "makefile")) or ""
    return re.search(rf"^{re.escape(target)}\s*:", text, re.MULTILINE) is not None


def detect_project(repo: str, windows: Optional[bool] = None) -> ProjectInfo:
    """Read pyproject.toml, setup.cfg, package.json, Cargo.toml, go.mod, VERSION… in repo (no subprocess)."""
    windows = os.name == "nt" if windows is None else windows
    names = _listing(repo)
    ecosystems: List[str] = []
    name: Optional[str] = None
    version: Optional[str] = None
    version_file: Optional[str] = None
    test_command: Optional[str] = None

    def take(found_version: Optional[str], file_name: str) -> None:
        nonlocal version, version_file
        if found_version and version is None:
            version, version_file = found_version.strip(), file_name

    if "package.json" in names:
        ecosystems.append("node")
        try:
            package = json.loads(_read(os.path.join(repo, names["package.json"])) or "{}")
        except ValueError:
            package = {}
        if isinstance(package, dict):
            name = package.get("name") if isinstance(package.get("name"), str) else None
            take(package.get("version") if isinstance(package.get("version"), str) else None, names["package.json"])
            scripts = package.get("scripts")
            test_script = scripts.get("test") if isinstance(scripts, dict) else None
            if isinstance(test_script, str) and _NPM_PLACEHOLDER_TEST not in test_script:
                runner = ("pnpm" if "pnpm-lock.yaml" in names else "yarn" if "yarn.lock" in names
                          else "bun" if "bun.lockb" in names or "bun.lock" in names else "npm")
                test_command = f"{runner} test"
    if "cargo.toml" in names:
        ecosystems.append("rust")
        cargo = read_toml_values(_read(os.path.join(repo, names["cargo.toml"])) or "")
        package_section = cargo.get("package", {})
        name = name or package_section.get("name")
        take(package_section.get("version") or cargo.get("workspace.package", {}).get("version"), names["cargo.toml"])
        test_command = test_command or "cargo test"
    if "pyproject.toml" in names or "setup.cfg" in names or "setup.py" in names:
        ecosystems.append("python")
        pyproject = read_toml_values(_read(os.path.join(repo, names.get("pyproject.toml", "pyproject.toml"))) or "")
        project = pyproject.get("project", {})
        poetry = pyproject.get("tool.poetry", {})
        name = name or project.get("name") or poetry.get("name")
        take(project.get("version") or poetry.get("version"), names.get("pyproject.toml", "pyproject.toml"))
        if version is None and "setup.cfg" in names:
            setup_cfg = _read(os.path.join(repo, names["setup.cfg"])) or ""
            match = re.search(r"^\[metadata\][^\[]*?^version\s*=\s*([^\s#]+)", setup_cfg, re.MULTILINE | re.DOTALL)
            if match and not match.group(1).startswith(("attr:", "file:")):
                take(match.group(1), names["setup.cfg"])
        if version is None:
            found = _python_version_file(repo, name)
            if found:
                take(found[0], found[1])
        if test_command is None:
            python = "python" if windows else "python3"
            runner = ("uv run pytest" if "uv.lock" in names else "poetry run pytest" if "poetry.lock" in names
                      else f"{python} -m pytest")
            has_tests = any(folder in names for folder in ("tests", "test")) or "pytest.ini" in names \
                or any(key.startswith("tool.pytest") for key in pyproject)
            test_command = runner if has_tests else None
    if "go.mod" in names:
        ecosystems.append("go")
        test_command = test_command or "go test ./..."
    for file_name in ("version", "version.txt"):
        if file_name in names:
            first_line = ((_read(os.path.join(repo, names[file_name]), 200) or "").strip().splitlines() or [""])[0]
            take(first_line if is_version(first_line) else None, names[file_name])
    # A Makefile test target is what the project's own people type, so it wins over a guess.
    if _has_make_target(repo, "test") and (test_command is None or test_command.endswith("-m pytest")):
        test_command = "make test"
    return ProjectInfo(tuple(ecosystems), name, version, version_file, test_command, find_changelog(repo))


_VERSION_HEADING_PREFIX = re.compile(r"^\s{0,3}(?:#{1,6}\s*|\[|v(?=\d)|\d)")


def changelog_mentions(text: str, version: str) -> Optional[int]:
    """The 1-based line of a heading-like line naming version ("## [1.2.0] - …", "1.2.0 (date)"), or None."""
    # "1.2.0" must not match inside "11.2.0", "1.2.0-rc.1" or "1.2.0.1"; a leading "v" is fine.
    pattern = re.compile(rf"(?<![\w.])v?{re.escape(version)}(?![\w-]|\.\d)")
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        if not pattern.search(line):
            continue
        if _VERSION_HEADING_PREFIX.match(line):
            return number
        underline = lines[number] if number < len(lines) else ""
        if underline and set(underline.strip()) <= set("=-~^") and len(underline.strip()) >= 3:
            return number
    return None
