"""Version files beyond the language manifests: lerna.json, MSBuild properties, Gradle and C/C++ headers.

Each reader returns (version, relative path) or None. A monorepo's lerna.json, a .NET build's
<VersionPrefix>, Gradle's `version=` (a -SNAPSHOT suffix is the version still in the works) and a C
header's `#define NAME_VERSION "1.2.3"` are where these projects write the version they release.
"""
from __future__ import annotations

import json
import os
import re
from typing import Dict, List, Optional, Tuple

from .repo_text import read_text
from .versions import is_version

Found = Optional[Tuple[str, str]]

_MSBUILD = re.compile(r"<(VersionPrefix|Version)>\s*([0-9][^<\s]*)\s*</\1>")
# `version=` (Gradle's own) or `VERSION_NAME=` (the Maven publishing plugins' property).
_PROPERTIES = re.compile(r"^\s*(?:version|VERSION_NAME)\s*[=:]\s*([0-9][^\s#]*)\s*$", re.MULTILINE)
_GRADLE_SCRIPT = re.compile(r"""^\s*version\s*=?\s*["']([0-9][^"'\s]*)["']""", re.MULTILINE)
_SNAPSHOT = re.compile(r"(?i)[-.]SNAPSHOT$")
_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)\s+(.+?)\s*(?://.*|/\*.*)?$", re.MULTILINE)
_STRING_VERSION = re.compile(r'^"v?(\d+(?:\.\d+)+)')
HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".hxx", ".h.in")
# Folders that hold other people's code or build output, never the project's version header.
# single_include/ and amalgamated/ hold a generated copy of the headers, rewritten from the real ones at release.
# A platform's or compiler's own build folder (WIN32-Code/nmake, msvc, VisualC, vs2019, watcom) keeps a hand-written
# copy of the generated config header for builds without configure: the release writes the version elsewhere first.
_NOT_OURS = re.compile(r"(?i)^(?:\.|_)|^(?:node_modules|vendor|vendored|third[_-]?party|deps|external|contrib|"
                       r"examples?|fixtures?|samples?|build|dist|target|out|tests?|testdata|single_include|"
                       r"amalgamat\w*|win(?:32|64)(?:[-_]\w+)?|msvc\w*|visualc(?:[-_]\w+)?|vs20\d\d|vstudio|nmake|"
                       r"watcom)$")
MAX_HEADERS = 400
# What the third number's macro is called: PATCH (libuv), MICRO (glib), RELEASE (zstd, lz4), REVISION (zlib).
THIRD_PART = ("PATCH", "MICRO", "RELEASE", "REVISION")


def _read(path: str, limit: int = 500_000) -> Optional[str]:
    return read_text(path, limit)


def lerna_version(repo: str) -> Found:
    """The fixed version of a lerna (or lerna-lite) monorepo; "independent" versions are per package."""
    text = _read(os.path.join(repo, "lerna.json"))
    try:
        data = json.loads(text) if text else None
    except ValueError:
        return None
    version = data.get("version") if isinstance(data, dict) else None
    return (version, "lerna.json") if isinstance(version, str) and is_version(version) else None


def msbuild_version(repo: str, folders: Tuple[str, ...] = ("", "src", "source", "build")) -> Found:
    """<VersionPrefix> (or <Version>) of Directory.Build.props, then of a project file, at the root or in src/."""
    for pattern in ("directory.build.props", ".props", ".csproj", ".fsproj", ".vbproj"):
        for folder in folders:
            base = os.path.join(repo, folder) if folder else repo
            try:
                entries = sorted(os.listdir(base))
            except OSError:
                continue
            for entry in entries:
                lowered = entry.lower()
                if not (lowered == pattern if pattern.startswith("directory") else lowered.endswith(pattern)):
                    continue
                match = _MSBUILD.search(_read(os.path.join(base, entry)) or "")
                if match and is_version(match.group(2)):
                    return match.group(2), "/".join(part for part in (folder, entry) if part)
    return None


# A build script that hands MSBuild the version (`/p:VersionPrefix=$majorWithReleaseVersion`), and where that
# variable gets its value (`$majorWithReleaseVersion = "13.0.5"`).
_BUILD_SCRIPTS = ("build.ps1", "build.sh", "build.cake", "build/build.ps1", "Build/build.ps1", "build/build.sh",
                  "eng/build.ps1")
_VERSION_PROPERTY = re.compile(r"[/-]p(?:roperty)?:(?:VersionPrefix|Version|PackageVersion)=[\"'`]?\$\{?(\w+)")


def build_script_version(repo: str) -> Found:
    """The version a .NET build script passes to MSBuild from a variable it assigns a version literal."""
    for relative in _BUILD_SCRIPTS:
        text = _read(os.path.join(repo, relative)) or ""
        for variable in _VERSION_PROPERTY.findall(text):
            assigned = re.search(rf"""^\s*\$?{re.escape(variable)}\s*=\s*["']([0-9][^"'\s]*)["']""", text,
                                 re.MULTILINE)
            if assigned and is_version(assigned.group(1)):
                return assigned.group(1), relative
    return None


def gradle_version(repo: str) -> Found:
    """`version=` in gradle.properties, else `version = "…"` in the root build script; a -SNAPSHOT suffix is
    dropped (1.11.1-SNAPSHOT is 1.11.1 in the works)."""
    for name, pattern in (("gradle.properties", _PROPERTIES), ("build.gradle.kts", _GRADLE_SCRIPT),
                          ("build.gradle", _GRADLE_SCRIPT)):
        match = pattern.search(_read(os.path.join(repo, name)) or "")
        if match:
            version = _SNAPSHOT.sub("", match.group(1))
            if is_version(version):
                return version, name
    return _convention_plugin_version(repo)


# Gradle's included builds for shared build logic: precompiled script plugins there ("convention plugins",
# okhttp.base-conventions.gradle.kts) are applied to every module, so one of them may set the version.
_BUILD_LOGIC = ("buildSrc", "build-logic", "gradle/build-logic", "build-conventions")
_PLUGIN_SOURCES = ("src/main/kotlin", "src/main/groovy")
MAX_CONVENTION_SCRIPTS = 40


def _convention_plugin_version(repo: str) -> Found:
    for logic in _BUILD_LOGIC:
        for sources in _PLUGIN_SOURCES:
            folder = os.path.join(repo, logic, sources)
            try:
                scripts = sorted(name for name in os.listdir(folder) if name.endswith((".gradle.kts", ".gradle")))
            except OSError:
                continue
            for name in scripts[:MAX_CONVENTION_SCRIPTS]:
                match = _GRADLE_SCRIPT.search(_read(os.path.join(folder, name)) or "")
                version = _SNAPSHOT.sub("", match.group(1)) if match else ""
                if version and is_version(version):
                    return version, f"{logic}/{sources}/{name}"
    return None


_POM_NOISE = re.compile(r"(?s)<(parent|dependencies|dependencyManagement|build|profiles|plugins|reporting)>.*?</\1>")


def maven_version(repo: str) -> Found:
    """The project's own <version> in pom.xml (not its parent's or a dependency's); -SNAPSHOT dropped."""
    text = _POM_NOISE.sub("", _read(os.path.join(repo, "pom.xml")) or "")
    match = re.search(r"<version>\s*([0-9][^<\s]*)\s*</version>", text)
    version = _SNAPSHOT.sub("", match.group(1)) if match else ""
    return (version, "pom.xml") if version and is_version(version) and "${" not in version else None


def _names_of(repo: str, names: List[str]) -> List[str]:
    """The project's names in macro spelling: NGINX for nginx, CURL and LIBCURL for curl."""
    found: List[str] = []
    for name in [os.path.basename(os.path.normpath(repo)), *names]:
        stem = re.sub(r"[^A-Za-z0-9]+", "_", name or "").strip("_").upper()
        for variant in (stem, stem[3:] if stem.startswith("LIB") else "LIB" + stem):
            if variant and variant not in found:
                found.append(variant)
    return found


def numeric_version(value: str, like: Optional[str] = None) -> Optional[str]:
    """A version packed in one number: 120201 is 12.2.1 (two digits a part, fmt's FMT_VERSION), 3045001 is
    3.45.1 (three, SQLITE_VERSION_NUMBER). like: the last release; the packing that reads as it (or as one
    bump after it) wins; without it two digits a part."""
    if not value.isdigit() or len(value) < 5 or value.startswith("0"):
        return None
    number = int(value)
    readings = [f"{number // width ** 2}.{number // width % width}.{number % width}" for width in (100, 1000)]
    if like:
        wanted = like.split(".")[:1]
        for reading in readings:
            if reading.split(".")[:1] == wanted or str(int(wanted[0]) + 1 if wanted[0].isdigit() else "") == \
                    reading.split(".")[0]:
                return reading
        return None
    return readings[0]


def macro_version(text: str, macro: Optional[str] = None, prefixes: Tuple[str, ...] = (),
                  like: Optional[str] = None) -> Optional[str]:
    """The version a header's #define lines give: the named macro; else a <NAME>_VERSION string macro
    whose NAME is the project's (any when prefixes is empty; NLOHMANN_JSON is json's: a vendor before the
    name); else <NAME>_VERSION_MAJOR/MINOR/PATCH (see THIRD_PART) numbers; else the project's own
    <NAME>_VERSION packed in one number (FMT_VERSION 120201; like: the last release, see numeric_version)."""
    defines: Dict[str, str] = {name: value for name, value in _DEFINE.findall(text)}
    if macro:
        value = defines.get(macro, "").strip().strip('"')
        match = re.match(r"^v?(\d+(?:\.\d+)+)", value)
        return match.group(1) if match else numeric_version(value, like)

    def ours(name: str, ending: str) -> bool:
        if not name.endswith(ending):
            return False
        owner = name[:-len(ending)].rstrip("_")
        return not prefixes or owner in prefixes or any(
            owner.startswith(prefix + "_") or owner.endswith("_" + prefix) for prefix in prefixes)

    for ending in ("_VERSION", "_VERSION_STRING", "_VERSION_STR"):
        for name, value in defines.items():
            string = _STRING_VERSION.match(value)
            if string and ours(name, ending):
                return string.group(1)
    for name, value in defines.items():
        for major in ("_VERSION_MAJOR", "_MAJOR_VERSION", "_MAJOR"):
            if not (name.endswith(major) and value.isdigit() and ours(name, major)):
                continue
            stem = name[:-len(major)]
            part = major.replace("MAJOR", "{}")
            minor = defines.get(stem + part.format("MINOR"), "")
            patch = next((defines[stem + part.format(word)] for word in THIRD_PART
                          if stem + part.format(word) in defines), "")
            if minor.isdigit():
                return ".".join([value, minor] + ([patch] if patch.isdigit() else []))
    for name, value in defines.items():  # only the project's own name: FMT_GCC_VERSION 0 is no version
        owner = name[:-len("_VERSION")] if name.endswith("_VERSION") else None
        if owner and (owner in prefixes or not prefixes):
            packed = numeric_version(value.strip("()UuLl"), like)
            if packed:
                return packed
    return None


def _headers(repo: str, depth: int = 3) -> List[str]:
    """Header files up to depth folders below the root, outside other people's code, shallowest first."""
    found: List[Tuple[int, str]] = []
    for folder, folders, files in os.walk(repo):
        relative = os.path.relpath(folder, repo)
        level = 0 if relative == "." else relative.count(os.sep) + 1
        folders[:] = sorted(entry for entry in folders if not _NOT_OURS.search(entry)) if level < depth else []
        for entry in sorted(files):
            if entry.lower().endswith(HEADER_SUFFIXES):
                found.append((level, entry if level == 0 else os.path.join(relative, entry)))
        if len(found) > MAX_HEADERS:
            break
    return [path for _level, path in sorted(found)][:MAX_HEADERS]


def header_version(repo: str, names: List[str], macro: Optional[str] = None, like: Optional[str] = None) -> Found:
    """A C/C++ project's version macro: the named macro in any header, else a header defining the project's
    own <NAME>_VERSION ("#define NGINX_VERSION \"1.31.4\"" in nginx, LIBCURL_VERSION in curl) or its
    <NAME>_VERSION_MAJOR/MINOR/PATCH numbers. Another library's macro (a vendored sqlite3.h) never counts."""
    prefixes = tuple(_names_of(repo, names))
    named_after_file: List[Tuple[str, str]] = []
    for relative in _headers(repo):
        text = _read(os.path.join(repo, relative), 300_000) or ""
        if ("VERSION" not in text and not macro) or (macro and macro not in text):
            continue
        version = macro_version(text, macro, prefixes, like)
        if version and is_version(version):
            return version, relative.replace(os.sep, "/")
        if not macro:
            # The header's own name or folder names the macro's owner (src/core/nginx.h defines NGINX_VERSION,
            # include/uv/version.h UV_VERSION_MAJOR): used when it is the only such header. A header named
            # after the project (expat.h in libexpat) may give its numbers any prefix (XML_MAJOR_VERSION).
            # A header named for its owner's version (ares_version.h, hb-version.h, curlver.h) names that owner.
            parts = [part.lower().split(".")[0] for part in relative.replace(os.sep, "/").split("/")]
            words = {re.sub(r"[^a-z0-9]", "", word) for part in parts
                     for word in (part, re.sub(r"[-_]?ver(?:sion)?$", "", part))}
            owners = tuple(owner for owner in (word.upper() for word in words) if owner and owner != "VERSION")
            stem = re.sub(r"[^A-Za-z0-9]", "_", os.path.basename(relative).split(".")[0]).upper()
            version = macro_version(text, None, owners) if owners else None
            if not version and stem in prefixes:
                version = _split_numbers(text)
            if version and is_version(version):
                named_after_file.append((version, relative.replace(os.sep, "/")))
    return named_after_file[0] if len(named_after_file) == 1 else None


def _split_numbers(text: str) -> Optional[str]:
    """MAJOR/MINOR/PATCH (see THIRD_PART) macros of one prefix, whatever it is, when the header has one such set."""
    defines: Dict[str, str] = {name: value for name, value in _DEFINE.findall(text)}
    found = set()
    for name, value in defines.items():
        minor = defines.get(name.replace("MAJOR", "MINOR"), "") if "MAJOR" in name and value.isdigit() else ""
        if minor.isdigit():
            patch = next((defines[name.replace("MAJOR", word)] for word in THIRD_PART
                          if name.replace("MAJOR", word) in defines), "")
            found.add(".".join([value, minor] + ([patch] if patch.isdigit() else [])))
    return found.pop() if len(found) == 1 else None


# Build files of C/C++ projects that write the release's version: CMake's project(… VERSION 1.2.3) or a
# set(<NAME>_VERSION 1.2.3) the project reads back, meson's project(…, version: '1.2.3'), Bazel's module(…).
_CMAKE_PROJECT = re.compile(r"^\s*project\s*\(([^)]*)\)", re.MULTILINE | re.IGNORECASE)
_CMAKE_SET = re.compile(r"^\s*set\s*\(\s*(\w+?)_VERSION(_MAJOR|_MINOR|_PATCH)?\s+\"?(\d+(?:\.\d+)*)\"?\s*\)",
                        re.MULTILINE | re.IGNORECASE)
_MESON_PROJECT = re.compile(r"^\s*project\s*\(((?:[^()]|\([^()]*\))*)\)", re.MULTILINE)
_BAZEL_MODULE = re.compile(r"^\s*module\s*\(((?:[^()]|\([^()]*\))*)\)", re.MULTILINE)
BUILD_FILES = ("CMakeLists.txt", "meson.build", "MODULE.bazel")


def build_file_version(repo: str, names: List[str], relative: Optional[str] = None) -> Found:
    """The version a C/C++ project's root build file declares (CMakeLists.txt, meson.build, MODULE.bazel, in
    that order; relative: only that file): CMake's project(… VERSION x) or the project's own
    set(<NAME>_VERSION x) (or its _MAJOR/_MINOR/_PATCH parts), meson's version:, Bazel's module(version =)."""
    prefixes = tuple(_names_of(repo, names))
    for name in (relative,) if relative else BUILD_FILES:
        text = _read(os.path.join(repo, name), 300_000)
        if text is None:
            continue
        version = None
        lowered = os.path.basename(name).lower()
        if lowered == "cmakelists.txt":
            version = _cmake_version(text, prefixes)
        elif lowered == "meson.build":
            call = _MESON_PROJECT.search(text)
            found = re.search(r"\bversion\s*:\s*'(\d[^']*)'", call.group(1)) if call else None
            version = found.group(1) if found else None
        elif lowered == "module.bazel":
            call = _BAZEL_MODULE.search(text)
            found = re.search(r"\bversion\s*=\s*[\"'](\d[^\"']*)[\"']", call.group(1)) if call else None
            version = found.group(1) if found else None
        if version and is_version(version):
            return version, name
    return None


def _cmake_version(text: str, prefixes: Tuple[str, ...]) -> Optional[str]:
    project = _CMAKE_PROJECT.search(text)
    found = re.search(r"\bVERSION\s+\"?(\d+(?:\.\d+)+)", project.group(1)) if project else None
    if found:
        return str(found.group(1))
    owners = set(prefixes)
    if project:  # project(tool) and project(tool-distribution) both name TOOL
        declared = re.sub(r"\W", "_", (project.group(1).split() or [""])[0]).upper()
        owners.update((declared, declared.split("_")[0]))
    parts: Dict[str, str] = {}
    for owner, part, value in _CMAKE_SET.findall(text):
        if owner.upper() not in owners:
            continue  # CMAKE_…, another library's, a minimum required
        if not part and "." in value:
            return str(value)
        parts.setdefault(part.upper(), value)
    if parts.get("_MAJOR") and parts.get("_MINOR"):
        return ".".join(parts[key] for key in ("_MAJOR", "_MINOR", "_PATCH") if parts.get(key))
    return None


_AC_INIT = re.compile(r"AC_INIT\(\s*\[?[^],]*\]?\s*,\s*(\[[^\]]*\]|[^,)]+)")
_M4_DEFINE = re.compile(r"m4_define\(\s*\[?(\w+)\]?\s*,\s*\[([^\]]*)\]\s*\)")


def autoconf_version(repo: str) -> Optional[Tuple[str, str]]:
    """configure.ac's AC_INIT version: written out ([1.52.1]), or put together from m4_define'd parts
    (pcre2_major.pcre2_minor[]pcre2_prerelease); ("tags", …) when a command computes it (git describe:
    the tag is the version); None when AC_INIT names no version."""
    text = _read(os.path.join(repo, "configure.ac"), 300_000) or ""
    match = _AC_INIT.search(text)
    if not match:
        return None
    said = match.group(1).strip()
    said = said[1:-1].strip() if said.startswith("[") and said.endswith("]") else said
    parts = dict(_M4_DEFINE.findall(text))
    spelled = re.sub(r"\b[A-Za-z_]\w*\b", lambda name: parts.get(name.group(0), name.group(0)), said)
    spelled = spelled.replace("[]", "").replace("[", "").replace("]", "")
    if is_version(spelled):
        return spelled, "configure.ac"
    defined = re.search(rf"m4_define\(\s*\[?{re.escape(said)}\]?\s*,((?:(?!m4_define)[\s\S]){{0,400}})", text)
    command = re.search(r"esyscmd(?:_s)?\(\s*\[?([^\]\)]+)", said + " " + (defined.group(1) if defined else ""))
    if command and _runs_git_describe(repo, command.group(1)):
        return "tags", "configure.ac"
    return None


def _runs_git_describe(repo: str, command: str) -> bool:
    """The command (or the script it runs, scripts/version) asks git for the tag."""
    if re.search(r"\bgit\b", command):
        return True
    script = command.split()[0] if command.split() else ""
    inside = bool(script) and not os.path.isabs(script) and ".." not in script  # only the project's own script
    text = _read(os.path.join(repo, script), 100_000) if inside else None
    return re.search(r"\bgit\s+describe\b", text or "") is not None


# A Go package's version constant: `const Version = "v1.12.1"` (gin) or `Version = "5.3.2"` inside a const
# block (echo). Only a whole version counts: fzf's `version = "0.74"` names a release line, not a release.
_GO_VERSION = re.compile(r"""^\s*(?:(?:const|var)\s+)?[Vv]ersion\s*(?:string\s*)?=\s*"v?(\d+\.\d+\.\d+[^"]*)"\s*(?://.*)?$""",
                         re.MULTILINE)
MAX_GO_FILES = 200


def go_version(repo: str) -> Found:
    """(version, file) of the version constant the module's root package declares (version.go first), when
    one is written out; the tag stays the version of a Go module that keeps none."""
    try:
        files = sorted(entry for entry in os.listdir(repo)
                       if entry.endswith(".go") and not entry.endswith("_test.go"))[:MAX_GO_FILES]
    except OSError:
        return None
    files.sort(key=lambda entry: entry != "version.go")
    for entry in files:
        match = _GO_VERSION.search(_read(os.path.join(repo, entry), 300_000) or "")
        if match and is_version(match.group(1)):
            return match.group(1), entry
    return None
