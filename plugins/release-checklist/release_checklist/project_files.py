"""Learn about a project from its root files: version and where it is written, test command, changelog.

Only the repository's root (the declared workspace root) counts: a nested crate, a vendored package
or a test fixture has its own version and is never the project's.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
from typing import Dict, FrozenSet, Iterable, Iterator, List, Optional, Set, Tuple

from .repo_text import read_text
from .version_sources import (
    BUILD_FILES,
    THIRD_PART,
    autoconf_version,
    build_file_version,
    build_script_version,
    go_version,
    gradle_version,
    header_version,
    lerna_version,
    macro_version,
    maven_version,
    msbuild_version,
)
from .versions import is_version, version_key

CHANGELOG_STEMS = ("changelog", "changes", "history", "news", "release-notes", "release_notes", "releases",
                   "versions")
CHANGELOG_SUFFIXES = (".md", ".rst", "", ".txt", ".markdown", ".adoc", ".xml")  # .xml: nginx's, Maven's changes.xml
CHANGELOG_FOLDERS = ("", "docs", "doc")
# Folders of one file per release (docs/releases/1.2.0.md) or of fragments compiled at release time.
NOTES_FOLDERS = ("release-notes", "release_notes", "releasenotes", "docs/release-notes", "docs/releases",
                 "doc/release-notes", "changelog.d", "changes", "newsfragments", "changelog")
_TOML_SECTION = re.compile(r"^\s*\[\[?\s*([^\]\[]+?)\s*\]\]?\s*(?:#.*)?$")
_TOML_STRING = re.compile(r"""^\s*([A-Za-z0-9_.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|(true|false))\s*(?:#.*)?$""")
# The assignment may carry a type annotation (`__version__: str = …`, `__version__: Final = …`, `: Final[str]`).
_PY_VERSION = re.compile(r"""^__version__\s*(?::\s*[\w.]+(?:\[[\w.]+\])?\s*)?=\s*['"]([^'"]+)['"]""", re.MULTILINE)
# incremental's form (hatch `source = "incremental"`): __version__ = Version("Twisted", 24, 10, 0)
_INCREMENTAL = re.compile(r"""^__version__\s*=\s*Version\(\s*['"][^'"]+['"]\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)""",
                          re.MULTILINE)
_NPM_PLACEHOLDER_TEST = "no test specified"
_DYNAMIC_VERSION = re.compile(r"""^\s*dynamic\s*=\s*\[[^\]]*["']version["']""", re.MULTILINE)
_SCM_TOOLS = (("hatch-vcs", re.compile(r"^\s*\[tool\.hatch\.version\][^\[]*?^\s*source\s*=\s*[\"']vcs[\"']|"
                                       r"^\s*version\.source\s*=\s*[\"']vcs[\"']", re.MULTILINE | re.DOTALL)),
              ("setuptools-scm", re.compile(r"^\s*\[tool\.setuptools_scm\]|setuptools[-_]scm", re.MULTILINE)),
              ("pdm-backend", re.compile(r"^\s*\[tool\.pdm\.version\][^\[]*?source\s*=\s*[\"']scm[\"']",
                                         re.MULTILINE | re.DOTALL)),
              ("poetry-dynamic-versioning", re.compile(r"^\s*\[tool\.poetry-dynamic-versioning\]", re.MULTILINE)))
_MAKE_TARGET = r"^{target}\s*:(?!=)"


@dataclasses.dataclass(frozen=True)
class IgnoredVersion:
    """A root manifest whose version was not used, and why (shown in the panel)."""

    file: str
    version: str
    reason: str  # "older-than-tag", or "unreadable" for a Version file setting naming no readable version


@dataclasses.dataclass(frozen=True)
class ProjectInfo:
    """What the project files say. Every field may be missing."""

    ecosystems: Tuple[str, ...]  # e.g. ("python",), ("node",), ("rust",)
    name: Optional[str] = None
    version: Optional[str] = None
    version_file: Optional[str] = None  # relative path of the file the version was read from
    test_command: Optional[str] = None
    changelog_file: Optional[str] = None  # relative path of a changelog file, or of a release-notes folder
    version_from_tags: Optional[str] = None  # "hatch-vcs", "setuptools-scm", "go", "tags": the tag is the version
    ignored: Tuple[IgnoredVersion, ...] = ()
    test_tool: Optional[str] = None  # the program the test command needs (to name it when it is missing)
    workspace: bool = False  # a Cargo/npm workspace root: test every member
    # A changelog the project stopped keeping: (file, its newest entry's version). It is not required.
    changelog_stopped: Optional[Tuple[str, str]] = None
    # The tag format of the workspace member this release is for ("tracing-subscriber-{version}"), when the
    # members tag their own releases (workspace_members.py); None: the tags' habit decides.
    tag_format: Optional[str] = None


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
    return read_text(path, limit)


def _listing(folder: str) -> Dict[str, str]:
    """Lower-case name -> real name of the entries in folder."""
    try:
        return {name.lower(): name for name in os.listdir(folder)}
    except OSError:
        return {}


def changelog_candidates(repo: str) -> List[str]:
    """Changelog files at the root, then in docs/ and doc/, in the order the names are usually meant."""
    found: List[str] = []
    for folder in CHANGELOG_FOLDERS:
        names = _listing(os.path.join(repo, folder) if folder else repo)
        for stem in CHANGELOG_STEMS:
            for suffix in CHANGELOG_SUFFIXES:
                real = names.get(stem + suffix)
                path = os.path.join(folder, real) if folder and real else real
                if real and os.path.isfile(os.path.join(repo, path or "")) and path not in found \
                        and not _empty_file(os.path.join(repo, path or real)):
                    found.append(path or real)
    return found


def _empty_file(path: str) -> bool:
    """A changelog kept as an empty placeholder (autotools wants NEWS and ChangeLog to exist) holds no entries,
    so it is not where the release's entry goes."""
    return not (_read(path, 4096) or "").strip()


def notes_folder(repo: str) -> Optional[str]:
    for relative in NOTES_FOLDERS:
        if os.path.isdir(os.path.join(repo, relative)):
            return relative
    return None


def find_changelog(repo: str, versions: Iterable[str] = (), declared: Optional[str] = None,
                   name: Optional[str] = None) -> Optional[str]:
    """The changelog file (or release-notes folder): the one the project's configuration names (towncrier's
    filename), else the first candidate that names one of versions (the last release, the one being made),
    at the root, in docs/ and doc/, then deeper (docs/en/docs/release-notes.md, a project folder's Changes),
    else the first candidate, else a release-notes folder."""
    if declared and os.path.isfile(os.path.join(repo, declared)):
        return declared
    candidates = changelog_candidates(repo)
    wanted = [version for version in versions if version]
    if wanted:
        for candidate in candidates + [path for path in _deeper_candidates(repo) if path not in candidates]:
            text = _read(os.path.join(repo, candidate), 2_000_000) or ""
            if any(changelog_mentions(text, version) for version in wanted) or _ahead_of(text, wanted):
                return candidate
        page = _changelog_page(repo, wanted, name)
        if page:
            return page
    if candidates:
        return candidates[0]
    folder = notes_folder(repo)
    return (_series_notes(repo, folder, wanted) if folder and wanted else None) or folder


def _series_notes(repo: str, folder: str, versions: List[str]) -> Optional[str]:
    """The one file of a notes folder that heads the releases, when the folder keeps a file per release line
    (jackson's release-notes/VERSION-2.x beside CREDITS-2.x) rather than one per release: no file is named
    for a version, and exactly one names one of versions in a heading."""
    path = os.path.join(repo, folder)
    entries = sorted(entry for entry in _listing(path).values() if os.path.isfile(os.path.join(path, entry)))
    if any(re.search(rf"(?<![\w.])[vV]?{re.escape(version)}(?![\w-]|\.\d)", entry) for entry in entries
           for version in versions):
        return None
    heading = [entry for entry in entries[:50]
               if any(changelog_mentions(_read(os.path.join(path, entry), 2_000_000) or "", version)
                      for version in versions)]
    if not heading:  # (jackson-annotations heads only its .0 releases: the one file with release headings)
        heading = [entry for entry in entries[:50]
                   if top_changelog_version((_read(os.path.join(path, entry), 2_000_000) or "")[:200_000])]
    return os.path.join(folder, heading[0]) if len(heading) == 1 else None


# A documentation site's change log page: <site>/change-log/index.md (CsvHelper's website source).
_PAGE_FOLDERS = frozenset(("changelog", "change-log", "change_log", "changes", "release-notes", "release_notes",
                           "releasenotes", "history", "news"))
_PAGE_NAMES = ("index.md", "index.rst", "readme.md", "_index.md")


def _changelog_page(repo: str, versions: List[str], name: Optional[str] = None, depth: int = 5,
                    limit: int = 600) -> Optional[str]:
    """The index page of a folder named like a change log, up to depth folders deep, that heads an entry
    for one of versions, or its page named after the package (docs/history/hatch.md beside hatchling.md: a
    repository of several packages keeps one history each); None when there is none."""
    pages = _PAGE_NAMES + tuple(f"{name.lower()}{suffix}" for suffix in (".md", ".rst") if name)
    for folder, relative, level, files in _project_folders(repo, depth, limit):
        if level == 0 or os.path.basename(folder).lower() not in _PAGE_FOLDERS:
            continue
        for entry in sorted(files):
            if entry.lower() in pages:
                text = _read(os.path.join(folder, entry), 2_000_000) or ""
                if any(changelog_mentions(text, version) for version in versions):
                    return os.path.join(relative, entry)
    return None


def _ahead_of(text: str, versions: List[str]) -> bool:
    """The file's top entry is at least one of versions: release notes rewritten for each release (curl's
    RELEASE-NOTES names only the coming one)."""
    keys = [key for key in (version_key(version) for version in versions) if key is not None]
    top = top_changelog_version(text[:200_000], versions[-1]) if keys else None
    top_key = version_key(top) if top else None
    return top_key is not None and top_key >= min(keys)


# Folders whose changelogs are never the project's: dependencies, fixtures and examples.
_NOT_THE_PROJECT = re.compile(r"(?i)^(?:\.|_)|^(?:node_modules|vendor|vendored|third[_-]?party|_vendor|deps|external|"
                              r"examples?|fixtures?|samples?|benchmarks?|build|dist|target)$|^tests?|^testdata")


def _project_folders(repo: str, depth: int, limit: int) -> Iterator[Tuple[str, str, int, List[str]]]:
    """(folder, its path from the root, its depth, its files) of the project's own folders, sorted, up to
    depth folders deep and at most limit folders: a huge tree is not walked to its end."""
    for seen, (folder, folders, files) in enumerate(os.walk(repo), start=1):
        if seen > limit:
            return
        relative = os.path.relpath(folder, repo)
        level = 0 if relative == "." else relative.count(os.sep) + 1
        folders[:] = sorted(entry for entry in folders if not _NOT_THE_PROJECT.search(entry)) if level < depth else []
        yield folder, relative, level, files


def _deeper_candidates(repo: str, depth: int = 3, limit: int = 400) -> List[str]:
    """Changelog-named files below the root (up to depth folders deep), those in folders named after the
    repository first, then the shallowest."""
    found: List[Tuple[int, int, str]] = []
    name = os.path.basename(os.path.normpath(repo)).lower()
    for _folder, relative, level, files in _project_folders(repo, depth, limit):
        if level == 0:
            continue
        for entry in files:
            stem, suffix = os.path.splitext(entry.lower())
            if stem in CHANGELOG_STEMS and suffix in CHANGELOG_SUFFIXES:
                path = os.path.join(relative, entry)
                named = any(part.lower() in (name, name.replace("lib", "", 1)) for part in relative.split(os.sep))
                found.append((0 if named else 1, level, path))
    return [path for _named, _level, path in sorted(found)]


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
        for file_name in ("__init__.py", "_version.py", "version.py", "__about__.py", "__version__.py"):
            relative = os.path.join(folder, file_name)
            found = _python_version(_read(os.path.join(repo, relative), 200_000) or "")
            if found:
                return found, relative
    return None


def _python_version(text: str) -> Optional[str]:
    """`__version__ = "1.2.3"`, or incremental's `__version__ = Version("Name", 1, 2, 3)`."""
    match = _PY_VERSION.search(text)
    if match and is_version(match.group(1)):  # not a template filled at run time ("{major}.{minor}".format)
        return match.group(1)
    packed = _INCREMENTAL.search(text)
    return ".".join(packed.groups()) if packed else None


def make_target(repo: str, *targets: str) -> Optional[str]:
    """The first of targets that the root Makefile or justfile defines, as the command that runs it."""
    names = _listing(repo)
    for file_name, program in (("makefile", "make"), ("gnumakefile", "make"), ("justfile", "just"),
                               (".justfile", "just")):
        if file_name not in names:
            continue
        text = _read(os.path.join(repo, names[file_name])) or ""
        for target in targets:
            if re.search(_MAKE_TARGET.format(target=re.escape(target)), text, re.MULTILINE):
                return f"{program} {target}"
    return None


def read_version_file(repo: str, relative: str, macro: Optional[str] = None) -> Optional[str]:
    """The version written in any file a checklist names: TOML/JSON `version`, `__version__`, a C/C++ macro
    (`#define LIBCURL_VERSION "8.21.1"`, the one named by macro, or MAJOR/MINOR/PATCH macros), or a bare line."""
    text = _read(os.path.join(repo, relative), 500_000)
    if text is None:
        return None
    if os.path.basename(relative).lower() in (name.lower() for name in BUILD_FILES):
        found = build_file_version(repo, [], relative)
        return found[0] if found else None
    if macro or relative.endswith((".h", ".hpp", ".hh", ".hxx", ".h.in", ".c", ".cpp")):
        return _macro_version(text, macro)
    if relative.endswith(".json"):
        try:
            data = json.loads(text)
        except ValueError:
            return None
        version = data.get("version") if isinstance(data, dict) else None
        return version if isinstance(version, str) and is_version(version) else None
    python = _python_version(text)
    if python:
        return python
    for section in ("package", "project", "tool.poetry", "workspace.package", ""):
        value = read_toml_values(text).get(section, {}).get("version") if relative.endswith(".toml") else None
        if value:
            return value
    assignment = re.search(r"""^\s*version\s*[:=]\s*['"]?([0-9][^'"\s,]*)""", text, re.MULTILINE | re.IGNORECASE)
    if assignment and is_version(assignment.group(1)):
        return assignment.group(1)
    first = (text.strip().splitlines() or [""])[0].strip()
    return first if is_version(first) else None


def _macro_version(text: str, macro: Optional[str]) -> Optional[str]:
    """A version from C/C++ #define lines: the named macro's string, else the first *VERSION* string macro,
    else PREFIX_VERSION_MAJOR/MINOR/PATCH (or MICRO) numbers."""
    defines: Dict[str, str] = {name: value for name, value in
                               re.findall(r"^\s*#\s*define\s+(\w+)\s+(.+?)\s*(?://.*|/\*.*)?$", text, re.MULTILINE)}
    if macro:
        return macro_version(text, macro)
    for name, value in defines.items():
        string = re.match(r'^"(\d+(?:\.\d+)+)', value)
        if "VERSION" in name and string:
            return string.group(1)
    for name, value in defines.items():
        if name.endswith("_MAJOR") and value.isdigit():
            stem = name[:-len("MAJOR")]
            minor = defines.get(stem + "MINOR", "")
            patch = next((defines[stem + word] for word in THIRD_PART if stem + word in defines), "")
            if minor.isdigit():
                return ".".join([value, minor] + ([patch] if patch.isdigit() else []))
    return None


def _python_tests(names: Dict[str, str], pyproject: Dict[str, Dict[str, str]], raw_pyproject: str) -> bool:
    return (any(folder in names for folder in ("tests", "test", "testing")) or "pytest.ini" in names
            or "conftest.py" in names or any(key.startswith("tool.pytest") for key in pyproject)
            or "[tool.pytest" in raw_pyproject)


def _python_test_command(repo: str, names: Dict[str, str], raw: str, pyproject: Dict[str, Dict[str, str]],
                         python: str) -> Optional[str]:
    """tox, nox, hatch, uv, poetry or pytest: what the project's own configuration says it tests with."""
    setup_cfg = _read(os.path.join(repo, names["setup.cfg"])) if "setup.cfg" in names else ""
    if "tox.ini" in names or "[tool.tox" in raw or "legacy_tox_ini" in raw or "[tox:tox]" in (setup_cfg or ""):
        return "tox"
    if "noxfile.py" in names:
        return "nox"
    if "hatch.toml" in names or "[tool.hatch.envs" in raw:
        hatch = raw + (_read(os.path.join(repo, names["hatch.toml"])) or "" if "hatch.toml" in names else "")
        if re.search(r"^\s*\[(?:tool\.hatch\.)?envs\.hatch-test", hatch, re.MULTILINE):
            return "hatch test"
        if re.search(r"^\s*\[(?:tool\.hatch\.)?envs\.default\.scripts\][^\[]*?^\s*test\s*=", hatch,
                     re.MULTILINE | re.DOTALL):
            return "hatch run test"
    if not _python_tests(names, pyproject, raw):
        return None
    if "uv.lock" in names:
        return "uv run pytest"
    if "poetry.lock" in names:
        return "poetry run pytest"
    if "pdm.lock" in names:
        return "pdm run pytest"
    return f"{python} -m pytest"


def _node_test_command(names: Dict[str, str], package: Dict[str, object]) -> Optional[str]:
    scripts = package.get("scripts")
    test_script = scripts.get("test") if isinstance(scripts, dict) else None
    if not isinstance(test_script, str) or _NPM_PLACEHOLDER_TEST in test_script:
        return None
    runner = ("pnpm" if "pnpm-lock.yaml" in names else "yarn" if "yarn.lock" in names
              else "bun" if "bun.lockb" in names or "bun.lock" in names else "npm")
    return f"{runner} test"


_INLINE = r"""\{{[^}}]*\b{key}\s*=\s*["']([^"']+)["'][^}}]*\}}"""


def _declared_version_file(repo: str, names: Dict[str, str], raw: str,
                           pyproject: Dict[str, Dict[str, str]]) -> Optional[Tuple[str, str]]:
    """(version, file) from the file the build configuration reads it from: hatch's [tool.hatch.version]
    path (and pattern), pdm's source = "file", setuptools' attr: / file:, in pyproject.toml or setup.cfg."""
    scikit = _scikit_build_version(repo, raw)
    if scikit:
        return scikit
    hatch = pyproject.get("tool.hatch.version", {})
    if hatch.get("path") and hatch.get("source", "regex") == "regex":
        return _version_in(repo, hatch["path"], hatch.get("pattern"))
    pdm = pyproject.get("tool.pdm.version", {})
    if pdm.get("source") == "file" and pdm.get("path"):
        return _version_in(repo, pdm["path"], None)
    inline_pdm = re.search(r"^\s*\[tool\.pdm\][^\[]*?^\s*version\s*=\s*(\{[^}]*\})", raw, re.MULTILINE | re.DOTALL)
    if inline_pdm and re.search(_INLINE.format(key="source").replace("([^\"']+)", "(file)"), inline_pdm.group(1)):
        path = re.search(_INLINE.format(key="path"), inline_pdm.group(1))
        if path:
            return _version_in(repo, path.group(1), None)
    dynamic = re.search(r"^\s*\[tool\.setuptools\.dynamic\][^\[]*?^\s*version\s*=\s*(\{[^}]*\})", raw,
                        re.MULTILINE | re.DOTALL)
    attr = re.search(_INLINE.format(key="attr"), dynamic.group(1)) if dynamic else None
    file = re.search(_INLINE.format(key="file"), dynamic.group(1)) if dynamic else None
    if "setup.cfg" in names and not (attr or file):
        setup_cfg = _read(os.path.join(repo, names["setup.cfg"])) or ""
        match = re.search(r"^\[metadata\][^\[]*?^version\s*=\s*(attr|file)\s*:\s*([^\s#]+)", setup_cfg,
                          re.MULTILINE | re.DOTALL)
        if match:
            attr, file = (match, None) if match.group(1) == "attr" else (None, match)
            if attr:
                return _version_of_attr(repo, match.group(2))
            return _version_in(repo, match.group(2), None)
    if attr:
        return _version_of_attr(repo, attr.group(1))
    if file:
        return _version_in(repo, file.group(1).split(",")[0].strip(), None)
    return None


# scikit-build-core's regex provider: [tool.scikit-build.metadata.version] (or a [[tool.dynamic-metadata]] table
# with field = "version") names the input file, a regex (default: a Python `__version__ = "…"` line) and how its
# groups make the version (result = "{major}.{minor}.{patch}": pybind11's macros in a C++ header).
_SCIKIT_TABLE = re.compile(r"^\s*\[\s*tool\.scikit-build\.metadata\.version\s*\]\s*$|"
                           r"^\s*\[\[\s*tool\.dynamic-metadata\s*\]\]\s*$", re.MULTILINE)
_SCIKIT_DEFAULT = r"""(?i)^(__version__|VERSION)(?: ?\: ?str)? *= *(['"])v?(?P<value>.+?)\2"""
_TOML_ANY_STRING = (r"""^\s*{key}\s*=\s*(?:'''\n?(.*?)'''|\"\"\"\n?(.*?)\"\"\"|'([^'\n]*)'|"((?:[^"\\\n]|\\.)*)")""")


def _toml_string(table: str, key: str) -> Optional[str]:
    """A string value of one TOML table's text, multi-line ones too (regexes are written in them)."""
    match = re.search(_TOML_ANY_STRING.format(key=re.escape(key)), table, re.MULTILINE | re.DOTALL)
    if not match:
        return None
    literal, basic, single, double = match.groups()
    if double is not None:
        return re.sub(r"\\(.)", r"\1", double)
    return next(value for value in (literal, basic, single) if value is not None)


def _scikit_build_version(repo: str, raw: str) -> Optional[Tuple[str, str]]:
    """(version, input file) of scikit-build-core's regex version provider, when the project declares one."""
    for start in _SCIKIT_TABLE.finditer(raw):
        following = re.search(r"^\s*\[", raw[start.end():], re.MULTILINE)
        table = raw[start.end():start.end() + following.start()] if following else raw[start.end():]
        provider = _toml_string(table, "provider") or ""
        field = _toml_string(table, "field")
        relative = _toml_string(table, "input")
        if not provider.endswith("metadata.regex") or (field is not None and field != "version") or not relative:
            continue
        text = _read(os.path.join(repo, relative), 500_000) or ""
        try:
            match = re.search(_toml_string(table, "regex") or _SCIKIT_DEFAULT, text, re.MULTILINE)
        except re.error:
            match = None
        groups = {name: value for name, value in match.groupdict().items() if value is not None} if match else {}
        try:
            version = (_toml_string(table, "result") or "{value}").format(**groups) if groups else ""
        except (KeyError, IndexError, ValueError):
            version = ""
        return (version, relative.replace("\\", "/")) if is_version(version) else None
    return None


# hatch-vcs / setuptools-scm's describe command in a repository of several packages, each tagging its own
# releases: `git_describe_command = ["git", "describe", …, "--match", "hatch-v*"]` names this package's tags.
_DESCRIBE_MATCH = re.compile(r"""describe_command\b[^\n]*?--match["']?\s*[,=]?\s*["']?([^"'\s,\]]+)""")


def _described_tag_format(build: str) -> Optional[str]:
    """The tag format ("hatch-v{version}") the version tool's describe pattern ("hatch-v*") selects, or None."""
    match = _DESCRIBE_MATCH.search(build)
    if not match or "*" not in match.group(1):
        return None
    prefix = re.split(r"[*\[?]", match.group(1), maxsplit=1)[0]
    return prefix + "{version}" if re.fullmatch(r"[\w./@-]*", prefix) else None


def _version_of_attr(repo: str, attr: str, hops: int = 2) -> Optional[Tuple[str, str]]:
    """setuptools' attr: "pkg.__version__" is in pkg/__init__.py, "pkg.mod.__version__" in pkg/mod.py; a module
    that only imports it (`from pkg.__version__ import __version__`, `from ._version import version`) is
    followed to the module that assigns it (hops: how many such imports are followed)."""
    module, _, variable = attr.rpartition(".")
    parts = module.split(".")
    for base in ("", "src"):
        for relative in (os.path.join(*parts) + ".py", os.path.join(*parts, "__init__.py")):
            path = os.path.join(base, relative) if base else relative
            if os.path.isfile(os.path.join(repo, path)):
                text = _read(os.path.join(repo, path), 500_000) or ""
                match = re.search(rf"""^{re.escape(variable)}\s*(?::\s*str\s*)?=\s*['"]([^'"]+)['"]""", text,
                                  re.MULTILINE)
                if match:
                    return match.group(1), path.replace(os.sep, "/")
                imported = re.search(rf"^from\s+(\.*)([\w.]*)\s+import\s+[^\n]*\b{re.escape(variable)}\b", text,
                                     re.MULTILINE)
                if imported and hops > 0:
                    dots, name = imported.groups()
                    # from .mod import x (relative to this package), from pkg.mod import x (absolute)
                    package = parts if relative.endswith("__init__.py") else parts[:-1]
                    origin = (package[:len(package) - len(dots) + 1] if dots else []) + \
                        [part for part in name.split(".") if part]
                    if origin and origin != parts:
                        return _version_of_attr(repo, ".".join([*origin, variable]), hops - 1)
    return None


def _version_in(repo: str, relative: str, pattern: Optional[str]) -> Optional[Tuple[str, str]]:
    relative = relative.replace("\\", "/")
    text = _read(os.path.join(repo, relative), 500_000)
    if text is None:
        return None
    if pattern:
        try:
            match = re.search(pattern, text, re.MULTILINE)
        except re.error:
            match = None
        if match:
            found = match.groupdict().get("version") or (match.group(1) if match.groups() else None)
            return (found, relative) if found else None
    version = read_version_file(repo, relative)
    return (version, relative) if version else None


def _towncrier_file(repo: str, names: Dict[str, str], pyproject: Dict[str, Dict[str, str]]) -> Optional[str]:
    """The file towncrier writes the release notes into (its `filename`, NEWS.rst by default)."""
    config = pyproject.get("tool.towncrier")
    if config is None and "towncrier.toml" in names:
        config = read_toml_values(_read(os.path.join(repo, names["towncrier.toml"])) or "").get("tool.towncrier")
    if config is None:
        return None
    filename = config.get("filename", "NEWS.rst").strip().replace("\\", "/")
    return os.path.normpath(filename) if filename else None


def _main_workspace_package(repo: str) -> Optional[Tuple[str, str]]:
    """(version, package.json) of the member a private monorepo root releases: the one named like the
    repository's folder (packages/vite in vite's repository), scope aside."""
    wanted = os.path.basename(os.path.normpath(repo)).lower()
    for folder in ("packages", "libs", "apps", ""):
        base = os.path.join(repo, folder) if folder else repo
        for entry in sorted(_listing(base).values()):
            manifest = os.path.join(base, entry, "package.json")
            if not os.path.isfile(manifest):
                continue
            try:
                data = json.loads(_read(manifest, 500_000) or "{}")
            except ValueError:
                continue
            name = data.get("name") if isinstance(data, dict) else None
            version = data.get("version") if isinstance(data, dict) else None
            if isinstance(name, str) and isinstance(version, str) and name.split("/")[-1].lower() == wanted:
                return version, "/".join(part for part in (folder, entry, "package.json") if part)
    return None


def _main_workspace_crate(repo: str, root: Dict[str, Dict[str, str]]) -> Optional[Tuple[str, str]]:
    """(version, <folder>/Cargo.toml) of the member crate named like the repository (axum in axum's, tokio in
    tokio's workspace); a `version.workspace = true` member has the workspace's version."""
    wanted = os.path.basename(os.path.normpath(repo)).lower()
    folder = _listing(repo).get(wanted)
    text = _read(os.path.join(repo, folder, "Cargo.toml"), 500_000) if folder else None
    if not text:
        return None
    package = read_toml_values(text).get("package", {})
    version = package.get("version")
    if version is None and re.search(r"^\s*version\s*(?:\.\s*workspace|=\s*\{\s*workspace)\s*=\s*true", text,
                                     re.MULTILINE):
        version = root.get("workspace.package", {}).get("version")
    return (version, f"{folder}/Cargo.toml") if version and package.get("name", wanted).lower() == wanted else None


def _older_than(version: str, last_release: Optional[str]) -> bool:
    key, last = version_key(version), version_key(last_release) if last_release else None
    return key is not None and last is not None and key < last


def detect_project(repo: str, windows: Optional[bool] = None, last_release: Optional[str] = None,
                   version_file: Optional[str] = None, version_macro: Optional[str] = None) -> ProjectInfo:
    """Read the root's pyproject.toml, setup.cfg, package.json, Cargo.toml, go.mod, VERSION… (no subprocess).

    last_release: the newest released version (from the tags); a manifest that is older than it is not
    the project's version (an internal crate's Cargo.toml at the root of a C project, for example).
    version_file: the checklist's "Version file" setting, which wins over every guess.
    """
    windows = os.name == "nt" if windows is None else windows
    python = "python" if windows else "python3"
    names = _listing(repo)
    ecosystems: List[str] = []
    name: Optional[str] = None
    candidates: List[Tuple[str, str]] = []  # (version, file) in the order of preference
    from_tags: Optional[str] = None
    tests: Dict[str, str] = {}  # ecosystem -> its test command
    workspace = False
    declared_changelog: Optional[str] = None
    described: Optional[str] = None  # the tag format the version tool's `git describe --match` names

    package_json: object = None
    if "package.json" in names:
        try:
            package_json = json.loads(_read(os.path.join(repo, names["package.json"])) or "{}")
        except ValueError:
            package_json = {}
    if "package.json" in names and not _other_package_manager(package_json):
        ecosystems.append("node")
        package = package_json
        if isinstance(package, dict):
            name = package.get("name") if isinstance(package.get("name"), str) else None
            if isinstance(package.get("version"), str):
                candidates.append((package["version"], names["package.json"]))
            command = _node_test_command(names, package)
            if command:
                tests["node"] = command
            workspace = workspace or bool(package.get("workspaces")) or "pnpm-workspace.yaml" in names
            lerna = lerna_version(repo) if "lerna.json" in names else None
            if lerna:  # a lerna monorepo's fixed version; a private root's own "0.0.0" is not a release
                candidates.insert(0, lerna) if package.get("private") else candidates.append(lerna)
            if package.get("private") and not isinstance(package.get("version"), str) and workspace:
                member = _main_workspace_package(repo)
                if member:
                    candidates.append(member)
    if "cargo.toml" in names:
        ecosystems.append("rust")
        raw_cargo = _read(os.path.join(repo, names["cargo.toml"])) or ""
        cargo = read_toml_values(raw_cargo)
        package_section = cargo.get("package", {})
        name = name or package_section.get("name")
        cargo_version = package_section.get("version") or cargo.get("workspace.package", {}).get("version")
        if cargo_version:
            candidates.append((cargo_version, names["cargo.toml"]))
        is_workspace = "workspace" in cargo or re.search(r"^\s*\[workspace\]", raw_cargo, re.MULTILINE) is not None
        member = _main_workspace_crate(repo, cargo) if is_workspace and not cargo_version else None
        if member:  # axum/Cargo.toml in axum's workspace: the crate the repository releases
            candidates.append(member)
            name = name or os.path.basename(os.path.dirname(member[1]))
        workspace = workspace or is_workspace
        tests["rust"] = "cargo test --workspace" if is_workspace else "cargo test"
    if "pyproject.toml" in names or "setup.cfg" in names or "setup.py" in names:
        ecosystems.append("python")
        raw = _read(os.path.join(repo, names["pyproject.toml"])) or "" if "pyproject.toml" in names else ""
        pyproject = read_toml_values(raw)
        project = pyproject.get("project", {})
        poetry = pyproject.get("tool.poetry", {})
        name = name or project.get("name") or poetry.get("name")
        static = project.get("version") or poetry.get("version")
        if static:
            candidates.append((static, names.get("pyproject.toml", "pyproject.toml")))
        if "setup.cfg" in names:
            setup_cfg = _read(os.path.join(repo, names["setup.cfg"])) or ""
            match = re.search(r"^\[metadata\][^\[]*?^version\s*=\s*([^\s#]+)", setup_cfg, re.MULTILINE | re.DOTALL)
            if match and not match.group(1).startswith(("attr:", "file:")):
                candidates.append((match.group(1), names["setup.cfg"]))
            # setuptools' declarative metadata names the package (what is uploaded to PyPI)
            named = re.search(r"^\[metadata\][^\[]*?^name\s*=\s*([^\s#]+)", setup_cfg, re.MULTILINE | re.DOTALL)
            name = name or (named.group(1) if named else None)
        declared = _declared_version_file(repo, names, raw, pyproject)
        if declared:
            candidates.insert(0, declared)  # the build configuration names it: it wins over every guess
        found = _python_version_file(repo, name)
        if found and found != declared:
            candidates.append(found)
        if not static and (_DYNAMIC_VERSION.search(raw) or "setup.py" in names):
            build = raw + (_read(os.path.join(repo, names["setup.py"])) or "" if "setup.py" in names else "")
            from_tags = next((tool for tool, pattern in _SCM_TOOLS if pattern.search(build)), None)
            described = _described_tag_format(build) if from_tags else None
        declared_changelog = _towncrier_file(repo, names, pyproject)
        workspace = workspace or "tool.uv.workspace" in pyproject  # members may be released one by one
        command = _python_test_command(repo, names, raw, pyproject, python)
        if command:
            tests["python"] = command
    if "go.mod" in names:
        ecosystems.append("go")
        tests["go"] = "go test ./..."
        constant = go_version(repo) if not candidates else None
        # A version constant the release commit bumps (gin's, echo's version.go) is checked like a manifest;
        # one left behind the last release is stale, and the tag stays the version.
        if constant and not _older_than(constant[0], last_release):
            candidates.append(constant)
        if not candidates:
            from_tags = from_tags or "go"  # a Go module's version is its tag
    name = _other_ecosystems(repo, names, ecosystems, candidates) or name
    if "dotnet" in ecosystems and not candidates and from_tags is None and (
            "gitversion.yml" in names or "gitversion.yaml" in names):
        from_tags = "GitVersion"  # the package version is computed from the tags
    if "dotnet" in ecosystems and not candidates and from_tags is None and _uses_minver(repo, names):
        from_tags = "MinVer"  # MinVer computes the package version from the newest tag at build time
    # A package.json beside another ecosystem's manifest is its companion (phoenix's JS client next to
    # mix.exs, a Python project's front end): that manifest is the project's version file.
    companion = [found for found in candidates if os.path.basename(found[1]).lower() == "package.json"]
    if companion and any(ecosystem in ecosystems for ecosystem in _PRIMARY_OVER_NODE) and \
            len(candidates) > len(companion):
        candidates[:] = [found for found in candidates if found not in companion] + companion
    for file_name in ("version", "version.txt"):
        if file_name in names:
            first_line = ((_read(os.path.join(repo, names[file_name]), 200) or "").strip().splitlines() or [""])[0]
            if is_version(first_line.strip()):
                candidates.append((first_line.strip(), names[file_name]))

    if version_macro and not version_file:  # "Version macro: NGINX_VERSION" alone: the header defining it
        version_file = (header_version(repo, [name or ""], version_macro) or (None, None))[1]
    elif not candidates and from_tags is None and not version_file:
        # A C/C++ project: a header defining the project's own <NAME>_VERSION.
        found = header_version(repo, [name or ""], like=last_release)
        if found:
            candidates.append(found)
        autoconf = autoconf_version(repo) if not found and "configure.ac" in names else None
        if autoconf and autoconf[0] == "tags":
            from_tags = "git describe"  # AC_INIT's version is computed from the tag (jq's scripts/version)
        elif autoconf:
            candidates.append(autoconf)
        built = build_file_version(repo, [name or ""]) if not found and not autoconf else None
        if built:  # CMake's project(… VERSION), set(<NAME>_VERSION …), meson's or Bazel's module version
            candidates.append(built)
    if not candidates and from_tags is None:
        # Packagist and SwiftPM read the version from the pushed tag when the manifest names none.
        from_tags = "composer" if "php" in ecosystems else "swiftpm" if "swift" in ecosystems else None
    version, chosen_file, ignored = _choose_version(repo, candidates, last_release, version_file, version_macro)
    chosen_file = chosen_file if version is not None else None
    if version is not None:
        from_tags = None
    elif from_tags is None and ignored:
        from_tags = "tags"
    # The project's own intent first: a Makefile/justfile target is what its people type.
    # `make check` is last: in many projects it only lints, while autotools projects (jq) test with it.
    for ecosystem, command in _OTHER_TESTS:
        if ecosystem in ecosystems:
            tests.setdefault(ecosystem, command)
    # A package.json beside the project's own manifest (phoenix's JS client next to mix.exs) is a companion:
    # the tests step follows the primary ecosystem.
    companion_node = "node" in ecosystems and any(ecosystem in ecosystems for ecosystem in _PRIMARY_OVER_NODE)
    test_command = (make_target(repo, "test", "tests")
                    or next((tests[eco] for eco in _test_order(tests, companion_node)), None)
                    or make_target(repo, "check"))
    changelog = find_changelog(repo, [version or "", last_release or ""], declared_changelog, name)
    stopped: Optional[Tuple[str, str]] = None
    top = (changelog_stopped_at(repo, changelog, last_release)
           if changelog and changelog != declared_changelog and last_release else None)
    if changelog and top:
        stopped = (changelog.replace(os.sep, "/"), top)
        changelog = None
    return ProjectInfo(tuple(ecosystems), name, version, chosen_file, test_command, changelog, from_tags,
                       tuple(ignored), _tool_of(test_command), workspace, stopped,
                       described if from_tags and version is None else None)


# Where the newer notes went instead: "newer than 2.10 is available only on the GitHub Releases page".
_NOTES_ELSEWHERE = re.compile(r"(?is)\b(?:newer|later|after|since|subsequent|future|now|no longer|moved|only)\b"
                              r".{0,200}?(?:github\.com/[^\s)]+/releases|releases? page|github releases)")


def changelog_stopped_at(repo: str, changelog: str, last_release: str) -> Optional[str]:
    """The newest entry's version of a changelog the project no longer keeps, else None.

    Not kept: its newest entry is older than the last release, it never names the last release, and either
    it says newer notes are elsewhere (GitHub Releases) or it is a whole minor version or more behind.
    A changelog that missed only the last patch release is still kept: its missing entry is a real failure.
    """
    path = os.path.join(repo, changelog)
    if not os.path.isfile(path):
        return None
    text = _read(path, 2_000_000) or ""
    top = top_changelog_version(text[:200_000], last_release)
    top_key, last_key = (version_key(top) if top else None), version_key(last_release)
    if top is None or top_key is None or last_key is None or top_key >= last_key:
        return None
    if changelog_mentions(text, last_release):
        return None
    if _NOTES_ELSEWHERE.search(text[:2000]) or top_key[0][:2] < last_key[0][:2]:
        return top
    return None


# MSBuild files shared by every project of a .NET build, where a package reference applies to all of them.
_MSBUILD_SHARED = ("directory.build.props", "directory.build.targets", "directory.packages.props")


def _uses_minver(repo: str, names: Dict[str, str]) -> bool:
    """The build references the MinVer package: in the shared MSBuild files, those they import from eng/, or the
    packed project's own file (src/AutoMapper/AutoMapper.csproj, Respawn/Respawn.csproj)."""
    paths = [names[name] for name in _MSBUILD_SHARED if name in names] + _project_files(repo, names)
    eng = names.get("eng") or names.get("build")
    if eng:
        try:
            paths += sorted(os.path.join(eng, entry) for entry in os.listdir(os.path.join(repo, eng))
                            if entry.lower().endswith((".props", ".targets")))[:20]
        except OSError:
            pass
    return any(re.search(r"""Include\s*=\s*["']MinVer["']""", _read(os.path.join(repo, path), 500_000) or "")
               for path in paths)


MAX_PROJECT_FILES = 40


def _project_files(repo: str, names: Dict[str, str]) -> List[str]:
    """.NET project files at the root, one folder down (Respawn/Respawn.csproj) and in src/<Project>/."""
    found = [real for lower, real in sorted(names.items()) if lower.endswith((".csproj", ".fsproj"))]
    folders = [real for real in sorted(names.values()) if not real.startswith(".")
               and os.path.isdir(os.path.join(repo, real))]
    source = names.get("src")
    if source:
        folders += [os.path.join(source, entry) for entry in sorted(_listing(os.path.join(repo, source)).values())]
    for folder in folders[:200]:
        found += [os.path.join(folder, entry) for lower, entry in sorted(_listing(os.path.join(repo, folder)).items())
                  if lower.endswith((".csproj", ".fsproj"))]
        if len(found) >= MAX_PROJECT_FILES:
            break
    return found[:MAX_PROJECT_FILES]


# What only an npm package.json has (an entry point, scripts, dependencies, files to pack).
_NPM_FIELDS = ("main", "module", "exports", "bin", "types", "typings", "scripts", "dependencies",
               "devDependencies", "peerDependencies", "files", "workspaces", "private", "type", "browser")


def _other_package_manager(package: object) -> bool:
    """A package.json written for another package manager: clib's manifest of a C library ("repo", "src" or
    "install", none of npm's fields). npm is not where such a project is released, and its version is a copy."""
    return isinstance(package, dict) and "repo" in package and any(key in package for key in ("src", "install")) \
        and not any(key in package for key in _NPM_FIELDS)


# Manifests of other ecosystems: (ecosystem, file name pattern at the root).
_RUBY_VERSION = re.compile(r"""^\s*VERSION\s*(?:\|\|)?=\s*['"]([^'"]+)['"]""", re.MULTILINE)
# A gemspec reading its version from a file: File.read(File.expand_path('VERSION', __dir__)).strip
_GEMSPEC_READS = re.compile(r"""\b(?:File|IO)\.read(?:lines)?\s*\(?[^\n]*?['"]([\w./-]*VERSION(?:\.txt)?)['"]""")
# A gemspec naming the constant that holds its version: `s.version = Puma::Const::PUMA_VERSION`.
_GEMSPEC_CONSTANT = re.compile(r"^\s*\w+\.version\s*=\s*(?:::)?((?:[A-Z]\w*::)*([A-Z]\w*))\s*$", re.MULTILINE)
MAX_GEM_FILES = 40


def _gemspec_constant(repo: str, gemspec: str, name: str) -> Optional[Tuple[str, str]]:
    """(version, file) of the constant a gemspec takes its version from, found among lib/<name>/'s files
    (`PUMA_VERSION = VERSION = "8.0.3"` in lib/puma/const.rb)."""
    match = _GEMSPEC_CONSTANT.search(_read(os.path.join(repo, gemspec), 200_000) or "")
    if not match:
        return None
    assigned = re.compile(rf"""^\s*(?:\w+\s*=\s*)*{re.escape(match.group(2))}\s*=\s*(?:\w+\s*=\s*)*['"]([^'"]+)['"]""",
                          re.MULTILINE)
    for folder in (f"lib/{name}", f"lib/{name.replace('-', '/')}", f"lib/{name.replace('-', '_')}", "lib"):
        try:
            files = sorted(entry for entry in os.listdir(os.path.join(repo, folder)) if entry.endswith(".rb"))
        except OSError:
            continue
        for entry in files[:MAX_GEM_FILES]:
            found = assigned.search(_read(os.path.join(repo, folder, entry), 500_000) or "")
            if found and is_version(found.group(1)):
                return found.group(1), f"{folder}/{entry}"
    return None


_MIX_VERSION = re.compile(r'^\s*@version\s+"([^"]+)"|^\s*version:\s*"([^"]+)"', re.MULTILINE)
_FIELD_VERSION = re.compile(r"^version\s*:\s*([^\s#]+)", re.MULTILINE | re.IGNORECASE)  # cabal, pubspec.yaml
DOTNET_FOLDERS = ("", "src", "source")


_PRIMARY_OVER_NODE = ("python", "ruby", "php", "elixir", "haskell", "dart", "flutter")


def _other_ecosystems(repo: str, names: Dict[str, str], ecosystems: List[str],
                      candidates: List[Tuple[str, str]]) -> Optional[str]:
    """RubyGems, Composer, SwiftPM, Hex, Hackage, pub and NuGet: add the ecosystem and its version (if the
    manifest has one); return the package name when the manifest names it."""
    name: Optional[str] = None
    gemspecs = sorted(real for lower, real in names.items() if lower.endswith(".gemspec"))
    folder = names.get(os.path.basename(os.path.normpath(repo)).lower())
    if not gemspecs and folder and os.path.isfile(os.path.join(repo, folder, folder + ".gemspec")):
        # Several gems in one repository (mustermann/ and mustermann-contrib/): the one named like it is the
        # project's, its version in <name>/lib/<name>/version.rb.
        match = _RUBY_VERSION.search(_read(os.path.join(repo, folder, "lib", folder, "version.rb"), 200_000) or "")
        if match:
            candidates.append((match.group(1), f"{folder}/lib/{folder}/version.rb"))
    if gemspecs:
        ecosystems.append("ruby")
        name = gemspecs[0][:-len(".gemspec")]
        read = _GEMSPEC_READS.search(_read(os.path.join(repo, gemspecs[0]), 200_000) or "")
        version_file = read.group(1).lstrip("./") if read else None
        if version_file and os.path.isfile(os.path.join(repo, version_file)):
            # The gemspec takes its version from a file (sinatra's VERSION): that file is the version's
            # source, the version.rb files are copies of it.
            first = ((_read(os.path.join(repo, version_file), 200) or "").strip().splitlines() or [""])[0].strip()
            if is_version(first):
                candidates.append((first, version_file))
        for folder in (name, name.replace("-", "/"), name.replace("-", "_")):
            relative = f"lib/{folder}/version.rb"
            match = _RUBY_VERSION.search(_read(os.path.join(repo, relative), 200_000) or "")
            if match:
                candidates.append((match.group(1), relative))
                break
        else:
            constant = _gemspec_constant(repo, gemspecs[0], name)
            if constant:
                candidates.append(constant)
    if "composer.json" in names:
        try:
            composer = json.loads(_read(os.path.join(repo, names["composer.json"])) or "{}")
        except ValueError:
            composer = {}
        if isinstance(composer, dict):
            ecosystems.append("php" if composer.get("type", "library") != "project" else "php-app")
            name = name or (composer.get("name") if isinstance(composer.get("name"), str) else None)
            if isinstance(composer.get("version"), str):
                candidates.append((composer["version"], names["composer.json"]))
    if "package.swift" in names and "sources" in names:
        # A Swift package of its own (SwiftPM's Sources/): a C++ library's Package.swift that only wraps
        # its headers for Swift users does not make SwiftPM the project's release channel.
        ecosystems.append("swift")
    if "mix.exs" in names:
        ecosystems.append("elixir")
        match = _MIX_VERSION.search(_read(os.path.join(repo, names["mix.exs"]), 200_000) or "")
        if match:
            candidates.append((match.group(1) or match.group(2), names["mix.exs"]))
    cabals = sorted(real for lower, real in names.items() if lower.endswith(".cabal"))
    if cabals:
        ecosystems.append("haskell")
        name = name or cabals[0][:-len(".cabal")]
        match = _FIELD_VERSION.search(_read(os.path.join(repo, cabals[0]), 500_000) or "")
        if match:
            candidates.append((match.group(1), cabals[0]))
    if "pubspec.yaml" in names:
        text = _read(os.path.join(repo, names["pubspec.yaml"]), 200_000) or ""
        ecosystems.append("flutter" if re.search(r"^\s+sdk:\s*flutter\b", text, re.MULTILINE) else "dart")
        match = _FIELD_VERSION.search(text)
        if match:
            candidates.append((match.group(1).split("+", 1)[0].strip("'\""), names["pubspec.yaml"]))
    if dotnet_project(repo):
        ecosystems.append("dotnet")
        found = msbuild_version(repo) or build_script_version(repo)
        if found:
            candidates.append(found)
    if any(file_name in names for file_name in ("build.gradle", "build.gradle.kts", "settings.gradle",
                                                   "settings.gradle.kts")):
        ecosystems.append("gradle")
        found = gradle_version(repo)
        if found:
            candidates.append(found)
    elif "pom.xml" in names:
        ecosystems.append("maven")
        found = maven_version(repo)
        if found:
            candidates.append(found)
    return name


def dotnet_project(repo: str) -> bool:
    """A .sln or .csproj/.fsproj at the root or in src/ (one folder deeper for src/<Project>/)."""
    root = _listing(repo)
    for folder in DOTNET_FOLDERS:
        if folder and folder not in root:
            continue
        names = _listing(os.path.join(repo, root[folder])) if folder else root
        if any(lower.endswith((".sln", ".slnx", ".csproj", ".fsproj")) for lower in names):
            return True
    return False


_OTHER_TESTS = (("elixir", "mix test"), ("haskell", "cabal test"), ("dart", "dart test"), ("flutter", "flutter test"))


def _test_order(tests: Dict[str, str], companion_node: bool) -> List[str]:
    """The ecosystems whose test command runs, first one first (see _runs_first)."""
    first = [eco for eco in ("python", "node", "rust", "go") if eco in tests and _runs_first(eco, tests)]
    if companion_node:
        primary = [eco for eco in ("python", "elixir", "haskell", "dart", "flutter") if eco in tests]
        return primary + [eco for eco in first if eco not in primary and eco != "node"] + \
            [eco for eco in first if eco == "node"]
    return first + [eco for eco, _command in _OTHER_TESTS if eco in tests]


def _runs_first(ecosystem: str, tests: Dict[str, str]) -> bool:
    """tox/nox/hatch/uv configuration, then package.json scripts, then cargo, go, and plain pytest last."""
    python = tests.get("python", "")
    order = (["python"] if python and not python.endswith("-m pytest") else []) + ["node", "rust", "go", "python"]
    return next(eco for eco in order if eco in tests) == ecosystem


def _choose_version(repo: str, candidates: List[Tuple[str, str]], last_release: Optional[str],
                    version_file: Optional[str], version_macro: Optional[str] = None,
                    ) -> Tuple[Optional[str], Optional[str], List[IgnoredVersion]]:
    if version_file:
        found = read_version_file(repo, version_file, version_macro)
        return found, version_file, [] if found else [IgnoredVersion(version_file, "", "unreadable")]
    ignored: List[IgnoredVersion] = []
    for version, file_name in candidates:
        version = version.strip()
        if not is_version(version):
            continue
        if _older_than(version, last_release):
            ignored.append(IgnoredVersion(file_name, version, "older-than-tag"))
            continue
        return version, file_name, ignored
    return None, None, ignored


def _tool_of(command: Optional[str]) -> Optional[str]:
    return command.split()[0] if command else None


_VERSION_HEADING_PREFIX = re.compile(r"^\s{0,3}(?:#{1,6}\s*|\[|[vV](?=\d)|\d|=+\s|\*\*)")
_ANY_VERSION = re.compile(r"(?<![\w.])[vV]?(\d+(?:\.\d+){1,3}(?:[-.]?(?:a|b|rc|alpha|beta|dev|pre)[.-]?\d*)?)"
                          r"(?![\w-]|\.\d)")


# Structured change logs: an XML entry element with a version attribute (nginx's <changes ver="1.31.4" …>) and
# a Debian-style header ("pkg (1.2.3-1) unstable; urgency=medium"; its "-1" is the packaging revision).
_XML_ENTRY = re.compile(r"""^\s*<[A-Za-z][\w:.-]*\s[^>]*?\bver(?:sion)?\s*=\s*["']v?([^"']+)["']""")
_LINK_REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s")
_DEBIAN_ENTRY = re.compile(r"^[a-z0-9][a-z0-9.+-]*\s+\((?:\d+:)?([^)\s]+?)(?:-[0-9][\w.+~]*)?\)\s+[^;]*;\s*urgency=")


def changelog_mentions(text: str, version: str) -> Optional[int]:
    """The 1-based line of a heading-like line naming version ("## [1.2.0] - …", "1.2.0 (date)", "  Summary
    for 1.2.0 release", <changes ver="1.2.0">, "pkg (1.2.0-1) unstable; urgency=low"), or None."""
    # "1.2.0" must not match inside "11.2.0", "1.2.0-rc.1" or "1.2.0.1"; a leading "v" is fine.
    pattern = re.compile(rf"(?<![\w.])[vV]?{re.escape(version)}(?![\w-]|\.\d)")
    lines = text.splitlines()
    shape: Optional[Tuple[bool, FrozenSet[str]]] = None
    for number, line in enumerate(lines, start=1):
        debian = _DEBIAN_ENTRY.match(line)
        if debian and debian.group(1) == version:
            return number
        if not pattern.search(line):
            continue
        if shape is None:
            shape = _plain_titles(lines), _heading_templates(lines)
        if _is_heading(lines, number, *shape):
            return number
    return None


def _plain_titles(lines: List[str]) -> bool:
    """True when the file marks no version heading up ("# 1.2.0", an underline): its entries are then
    headed by plain lines of their own ("Changes in 1.3.1 (22 Jan 2024)", "curl and libcurl 8.21.1")."""
    for number, line in enumerate(lines[:4000], start=1):
        if _ANY_VERSION.search(line) and (re.match(r"^\s{0,3}#{1,6}\s", line) or _underlined(lines, number)):
            return False
    return True


# A top-level list item that is only a version and maybe its date ("* 1.2.3 (2024-01-02)", "- v2.0 / 2024"):
# in a file where that shape recurs, it heads the release's nested items (a change line says more).
_BULLET_TITLE = re.compile(r"^[-*+]\s+[vV]?\d+(?:\.\d+){1,3}(?:[-.]?(?:a|b|rc|alpha|beta|dev|pre)[.-]?\d*)?"
                           r"(?:\s*(?:[(/:-]|\u2014|\u2013)\s*[\w ,./:-]{0,40}\)?)?\s*$")


_DIGIT_OR_V = frozenset("0123456789vV")


def _template(line: str) -> Optional[str]:
    """A line naming a version, as its shape: the version replaced, other numbers (dates) zeroed; None for a
    line that is no heading whatever it repeats (a list item, a sentence, a link, a long line)."""
    stripped = line.strip()
    # "* 1.2.3 (2024-01-02)" heading its release's nested items (the regex only for a bullet before a number).
    if line[:1] in "-*+" and line[1:].lstrip()[:1] in _DIGIT_OR_V and _BULLET_TITLE.match(line):
        return re.sub(r"\d+", "0", _ANY_VERSION.sub("{v}", line.rstrip(), count=1))
    if not stripped or len(stripped) > 100 or stripped[:2] in ("- ", "* ", "+ ", "> ") or "://" in stripped:
        return None
    if stripped.endswith((".", ",", ";", ":")) or re.match(r"^\[[^\]]+\]:\s", stripped):
        return None
    shaped, count = _ANY_VERSION.subn("{v}", line.rstrip())
    return re.sub(r"\d+", "0", shaped) if count else None


def _heading_templates(lines: List[str], limit: int = 20_000) -> FrozenSet[str]:
    """The shapes that head the file's entries, found by recurring: a short line whose shape comes back for
    other versions ("  Summary for {v} libpcap release" under each date line of libpcap's CHANGES)."""
    versions: Dict[str, Set[str]] = {}
    for line in lines[:limit]:
        shaped = _template(line)
        if shaped is not None:
            found = _ANY_VERSION.search(line)
            versions.setdefault(shaped, set()).add(found.group(1) if found else "")
    return frozenset(shaped for shaped, seen in versions.items() if len(seen) >= 2)


def _underlined(lines: List[str], number: int) -> bool:
    underline = lines[number].strip() if number < len(lines) else ""
    return bool(underline) and set(underline) <= set("=-~^*+#") and len(underline) >= 3


def _is_heading(lines: List[str], number: int, titles: bool = False,
                templates: FrozenSet[str] = frozenset()) -> bool:
    line = lines[number - 1]
    if _LINK_REFERENCE.match(line):  # "[1.2.0]: https://…/compare/v1.1.0...v1.2.0" names an entry, is none
        return False
    if _VERSION_HEADING_PREFIX.match(line) and not line.lstrip().startswith(("- ", "* ")):
        return True
    if _underlined(lines, number) or _XML_ENTRY.match(line) or _DEBIAN_ENTRY.match(line):
        return True
    if templates and _template(line) in templates:
        return True
    following = lines[number] if number < len(lines) else ""
    return titles and (_is_title_line(line, lines[number - 2] if number > 1 else "", following)
                       or _is_release_title(line, following))


# "  Summary for 1.10.6 libpcap release" under a dated line, "Version 2.1 (2024-01-02)": a release's own title,
# indented or not, with its notes below it (indented deeper) or after a blank line.
_RELEASE_WORDS = re.compile(r"(?i)\b(?:release|version|summary\s+for|changes\s+(?:in|for))\b")


def _is_release_title(line: str, following: str) -> bool:
    stripped = line.strip()
    indent = len(line) - len(line.lstrip())
    if not stripped or len(stripped) > 80 or stripped[:2] in ("- ", "* ", "+ ", "> ") or indent > 4:
        return False
    if stripped.endswith((".", ",", ";")) or stripped.startswith("<") or not _RELEASE_WORDS.search(stripped):
        return False  # (markup such as <?xml version="1.0"?> is never a title: XML entries are _XML_ENTRY's)
    below = len(following) - len(following.lstrip())
    return (not following.strip() and indent <= 2) or (bool(following.strip()) and below > indent)


def _is_title_line(line: str, previous: str, following: str) -> bool:
    """A short line standing on its own, not a sentence. Prose that wraps onto the next line is not one."""
    stripped = line.strip()
    if line[:1].isspace() or not stripped or len(stripped) > 80 or stripped[:2] in ("- ", "* ", "+ ", "> ") or \
            stripped.startswith("<"):
        return False
    if stripped.endswith((".", ",", ";", ":")) or (previous.strip() and not set(previous.strip()) <= set("=-~*#")):
        return False
    return not following.strip() or following[:1].isspace() or following.lstrip()[:2] in ("- ", "* ", "+ ")


def _date_like(version: str) -> bool:
    return re.match(r"^(?:19|20)\d\d[.-]\d\d?[.-]\d\d?$", version) is not None


def top_changelog_version(text: str, like: Optional[str] = None) -> Optional[str]:
    """The version of the changelog's first entry ("Unreleased"/"TBD" headings are passed over).

    like: the last release; a date in a heading ("2026.03.06, Version 1.52.1") is its version only when
    the project's versions are dates too.
    """
    dates = bool(like) and _date_like(like or "")
    lines = text.splitlines()
    titles, templates = _plain_titles(lines), _heading_templates(lines)
    for number, line in enumerate(lines[:4000], start=1):
        structured = _XML_ENTRY.match(line) or _DEBIAN_ENTRY.match(line)
        if structured and is_version(structured.group(1)):
            return structured.group(1)
        match = next((found for found in _ANY_VERSION.finditer(line) if dates or not _date_like(found.group(1))),
                     None)
        if match and _is_heading(lines, number, titles, templates):
            # "## Version 8.5.0" followed by "Unreleased" is still to come, not the top entry's version.
            following = " ".join(lines[number:number + 3])
            if not re.search(r"(?i)unreleased|not (?:yet )?released|\bTBD\b", line + " " + following):
                return match.group(1)
    return None


def entry_heading_example(name: str, text: str, version: str) -> str:
    """How an entry for version is headed in this file: its top entry's heading with the version swapped
    ("  Summary for 1.10.7 libpcap release", <changes ver="1.31.5" …>), else the usual heading of its kind."""
    top = top_changelog_version(text[:200_000])
    line = changelog_mentions(text, top) if top else None
    if top and line:
        heading = text.splitlines()[line - 1].rstrip()
        return re.sub(rf"(?<![\w.])([vV]?){re.escape(top)}(?![\w]|\.\d)", lambda found: found.group(1) + version,
                      heading, count=1)
    lowered = name.lower()
    if lowered.endswith((".md", ".markdown")):
        return f"## {version}"
    if lowered.endswith(".xml"):
        return f'<changes ver="{version}">'
    return version


def changelog_version(repo: str, changelog: Optional[str], like: Optional[str] = None) -> Optional[str]:
    """The top entry's version of a changelog file, or the newest version named in a release-notes folder."""
    if not changelog:
        return None
    path = os.path.join(repo, changelog)
    if os.path.isfile(path):
        return top_changelog_version(_read(path, 2_000_000) or "", like)
    best: Optional[str] = None
    for entry in _listing(path).values():
        match = _ANY_VERSION.search(os.path.splitext(entry)[0])
        key = version_key(match.group(1)) if match else None
        if match and key is not None and (best is None or key > version_key(best)):  # type: ignore[operator]
            best = match.group(1)
    return best


def entry_in_folder(repo: str, folder: str, version: str) -> Optional[Tuple[str, int]]:
    """(file, line) of version's notes in a release-notes folder: a file named for it, or a heading in one."""
    path = os.path.join(repo, folder)
    entries = sorted(_listing(path).values())
    pattern = re.compile(rf"(?<![\w.])[vV]?{re.escape(version)}(?![\w-]|\.\d)")
    for entry in entries:
        if pattern.search(os.path.splitext(entry)[0]) and os.path.isfile(os.path.join(path, entry)):
            return os.path.join(folder, entry), 1
    for entry in entries[:500]:
        text = _read(os.path.join(path, entry), 1_000_000) if os.path.isfile(os.path.join(path, entry)) else None
        line = changelog_mentions(text or "", version)
        if line:
            return os.path.join(folder, entry), line
    return None
