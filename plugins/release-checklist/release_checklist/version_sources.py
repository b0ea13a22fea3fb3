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

from .versions import is_version

Found = Optional[Tuple[str, str]]

_MSBUILD = re.compile(r"<(VersionPrefix|Version)>\s*([0-9][^<\s]*)\s*</\1>")
_PROPERTIES = re.compile(r"^\s*version\s*[=:]\s*([0-9][^\s#]*)\s*$", re.MULTILINE)
_GRADLE_SCRIPT = re.compile(r"""^\s*version\s*=?\s*["']([0-9][^"'\s]*)["']""", re.MULTILINE)
_SNAPSHOT = re.compile(r"(?i)[-.]SNAPSHOT$")
_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)\s+(.+?)\s*(?://.*|/\*.*)?$", re.MULTILINE)
_STRING_VERSION = re.compile(r'^"v?(\d+(?:\.\d+)+)')
HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".hxx", ".h.in")
# Folders that hold other people's code or build output, never the project's version header.
_NOT_OURS = re.compile(r"(?i)^(?:\.|_)|^(?:node_modules|vendor|vendored|third[_-]?party|deps|external|contrib|"
                       r"examples?|fixtures?|samples?|build|dist|target|out|tests?|testdata)$")
MAX_HEADERS = 400


def _read(path: str, limit: int = 500_000) -> Optional[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(limit)
    except OSError:
        return None


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


def macro_version(text: str, macro: Optional[str] = None, prefixes: Tuple[str, ...] = ()) -> Optional[str]:
    """The version a header's #define lines give: the named macro; else a <NAME>_VERSION string macro
    whose NAME is the project's (any when prefixes is empty); else <NAME>_VERSION_MAJOR/MINOR/PATCH
    (or MICRO) numbers."""
    defines: Dict[str, str] = {name: value for name, value in _DEFINE.findall(text)}
    if macro:
        value = defines.get(macro, "").strip().strip('"')
        match = re.match(r"^v?(\d+(?:\.\d+)+)", value)
        return match.group(1) if match else None

    def ours(name: str, ending: str) -> bool:
        if not name.endswith(ending):
            return False
        owner = name[:-len(ending)].rstrip("_")
        return not prefixes or owner in prefixes or any(owner.startswith(prefix + "_") for prefix in prefixes)

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
            patch = defines.get(stem + part.format("PATCH"), defines.get(stem + part.format("MICRO"), ""))
            if minor.isdigit():
                return ".".join([value, minor] + ([patch] if patch.isdigit() else []))
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


def header_version(repo: str, names: List[str], macro: Optional[str] = None) -> Found:
    """A C/C++ project's version macro: the named macro in any header, else a header defining the project's
    own <NAME>_VERSION ("#define NGINX_VERSION \"1.31.4\"" in nginx, LIBCURL_VERSION in curl) or its
    <NAME>_VERSION_MAJOR/MINOR/PATCH numbers. Another library's macro (a vendored sqlite3.h) never counts."""
    prefixes = tuple(_names_of(repo, names))
    named_after_file: List[Tuple[str, str]] = []
    for relative in _headers(repo):
        text = _read(os.path.join(repo, relative), 300_000) or ""
        if ("VERSION" not in text and not macro) or (macro and macro not in text):
            continue
        version = macro_version(text, macro, prefixes)
        if version and is_version(version):
            return version, relative.replace(os.sep, "/")
        if not macro:
            # The header's own name or folder names the macro's owner (src/core/nginx.h defines NGINX_VERSION,
            # include/uv/version.h UV_VERSION_MAJOR): used when it is the only such header.
            words = {re.sub(r"[^a-z0-9]", "", part.lower().split(".")[0])
                     for part in relative.replace(os.sep, "/").split("/")}
            owners = tuple(owner for owner in (word.upper() for word in words) if owner and owner != "VERSION")
            version = macro_version(text, None, owners) if owners else None
            if version and is_version(version):
                named_after_file.append((version, relative.replace(os.sep, "/")))
    return named_after_file[0] if len(named_after_file) == 1 else None
