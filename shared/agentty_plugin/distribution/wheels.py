"""Pure-Python wheels: fetched once through pip into a cache, refused when platform-specific, unpacked into `_vendor/`.

A bundle is copied as is to macOS, Linux and Windows and run by whatever `python3` (3.9 to 3.13) the
user has, so it can only carry wheels tagged `py3-none-any` (or `py2.py3-none-any`): a compiled
wheel would work on the machine that built the bundle and crash with an ImportError everywhere else.
"""

from __future__ import annotations

import email.parser
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from typing import Dict, List, Optional, Sequence, Set, Tuple

from .markers import normalize_name, parse_requirement
from .requirements import Pin, WheelInfo
from .versions import InvalidVersion, SpecifierSet, Version

OLDEST_PYTHON = "3.9"

# Kept from a wheel's .dist-info: METADATA (importlib.metadata.version() reads it) and the licence
# texts (redistributing a package means shipping its licence). RECORD, WHEEL, INSTALLER and the like
# describe a pip installation that never happened here.
_KEPT_METADATA = re.compile(r"^(METADATA|entry_points\.txt|(LICEN[CS]E|COPYING|NOTICE|AUTHORS)[^/]*|licenses/.*)$",
                            re.IGNORECASE)
# Never needed at run time: compiled caches (Python writes its own), type stubs, test suites.
_SKIPPED_PARTS = {"__pycache__", "tests", "test"}
_SKIPPED_SUFFIXES = (".pyc", ".pyo", ".pyi")
_SKIPPED_NAMES = {"py.typed"}


class BundleError(Exception):
    """A bundle cannot be built; the message says what to change."""


def wheel_tags(filename: str) -> Tuple[str, str, str, str, str]:
    """(name, version, python tag, abi tag, platform tag) from a wheel's file name."""
    base = os.path.basename(filename)
    if not base.endswith(".whl"):
        raise BundleError(f"{base} is not a wheel")
    parts = base[:-4].split("-")
    if len(parts) not in (5, 6):
        raise BundleError(f"{base} is not a valid wheel file name")
    return parts[0], parts[1], parts[-3], parts[-2], parts[-1]


def is_pure(filename: str) -> bool:
    """True for a wheel any CPython 3 on any OS can import (`py3-none-any`, `py2.py3-none-any`, `py39-none-any`)."""
    _name, _version, python, abi, platform = wheel_tags(filename)
    pythons = python.split(".")
    return (abi == "none" and platform == "any"
            and all(p.startswith("py") for p in pythons) and any(p.startswith("py3") for p in pythons))


def require_pure(filename: str) -> None:
    """Raise BundleError naming the package when the wheel is not pure Python."""
    if is_pure(filename):
        return
    name, version, python, abi, platform = wheel_tags(filename)
    raise BundleError(
        f"{name} {version} is platform-specific: {os.path.basename(filename)} is built for "
        f"{python}-{abi}-{platform}, not py3-none-any. A bundle is copied as is to macOS, Linux and Windows "
        f"and run by Python 3.9-3.13, so it can only carry pure-Python wheels. Pin a version of {name} "
        f"that publishes a py3-none-any wheel, or drop the dependency."
    )


def cached_wheel(cache_dir: str, pin: Pin) -> Optional[str]:
    """The cached wheel file for exactly this pin, if there is one."""
    if not os.path.isdir(cache_dir):
        return None
    for entry in sorted(os.listdir(cache_dir)):
        if not entry.endswith(".whl"):
            continue
        try:
            name, version, _p, _a, _pl = wheel_tags(entry)
            if normalize_name(name) == pin.key and Version(version) == pin.version:
                return os.path.join(cache_dir, entry)
        except (BundleError, InvalidVersion):
            continue
    return None


def _pip(python: str, args: Sequence[str]) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    try:
        return subprocess.run([python, "-m", "pip", *args], stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, env=env, check=False)
    except OSError as error:
        raise BundleError(f"could not run pip with {python}: {error}") from None


def _pip_error(result: subprocess.CompletedProcess[str]) -> str:
    lines = [line.strip() for line in (result.stderr + result.stdout).splitlines()]
    useful = [line for line in lines if line.startswith("ERROR") or "Requires-Python" in line]
    return "\n    ".join(useful[-4:] or lines[-4:])


def _explain_missing(pin: Pin, python: str, pip_args: Sequence[str], pip_output: str) -> str:
    """Why pip found no pure wheel: only platform wheels exist, or no wheel at all."""
    with tempfile.TemporaryDirectory(prefix="agentty-wheel-probe-") as probe:
        # Same indexes, no platform restriction: if this finds a wheel, it is a compiled one.
        result = _pip(python, ["download", "--no-deps", "--only-binary=:all:", "--quiet", "-d", probe,
                               *pip_args, pin.spec])
        found = [f for f in os.listdir(probe) if f.endswith(".whl")]
        if result.returncode == 0 and found:
            try:
                require_pure(found[0])
            except BundleError as error:
                return str(error)
    return (f"no pure-Python wheel of {pin.spec} for Python {OLDEST_PYTHON}+ on the configured package indexes "
            f"(it may publish only platform-specific wheels or a source archive, need a newer Python, or not "
            f"exist). pip said:\n    {pip_output}")


def fetch_wheels(pins: Sequence[Pin], cache_dir: str, *, python: str = sys.executable,
                 pip_args: Sequence[str] = ()) -> Dict[str, str]:
    """Path of the wheel for every pin, downloading what the cache lacks through pip's configured indexes."""
    os.makedirs(cache_dir, exist_ok=True)
    found: Dict[str, str] = {}
    missing: List[Pin] = []
    for pin in pins:
        path = cached_wheel(cache_dir, pin)
        if path:
            found[pin.key] = path
        else:
            missing.append(pin)
    if missing:
        # Exact pins, no dependency resolution (requirements.txt is the whole closure), wheels only,
        # and only those any Python 3.9+ on any OS can use.
        result = _pip(python, [
            "download", "--no-deps", "--only-binary=:all:", "--platform", "any", "--implementation", "py",
            "--abi", "none", "--python-version", OLDEST_PYTHON, "--quiet", "-d", cache_dir, *pip_args,
            *[pin.spec for pin in missing],
        ])
        if result.returncode != 0 and "No module named pip" in result.stderr:
            raise BundleError(f"{python} has no pip; run `{python} -m ensurepip` or use the project venv")
        problems = []
        for pin in missing:
            path = cached_wheel(cache_dir, pin)
            if path:
                found[pin.key] = path
            else:
                problems.append(_explain_missing(pin, python, pip_args, _pip_error(result)))
        if problems:
            raise BundleError("\n".join(problems))
    for path in found.values():
        require_pure(path)  # the cache may hold a wheel someone put there by hand
    return found


def _dist_info(names: Sequence[str]) -> str:
    tops = sorted({n.split("/", 1)[0] for n in names if n.split("/", 1)[0].endswith(".dist-info")})
    if len(tops) != 1:
        raise BundleError(f"expected one .dist-info folder, found {tops or 'none'}")
    return tops[0]


def read_wheel_info(path: str) -> WheelInfo:
    """Name, version, Requires-Python and Requires-Dist from the wheel's METADATA."""
    try:
        with zipfile.ZipFile(path) as archive:
            info_dir = _dist_info(archive.namelist())
            text = archive.read(f"{info_dir}/METADATA").decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile, BundleError) as error:
        raise BundleError(f"{os.path.basename(path)}: cannot read its metadata ({error})") from None
    message = email.parser.HeaderParser().parsestr(text)
    try:
        return WheelInfo(
            name=str(message["Name"]),
            version=Version(str(message["Version"])),
            requires_python=SpecifierSet(str(message.get("Requires-Python") or "")),
            requires=[parse_requirement(str(line)) for line in message.get_all("Requires-Dist") or []],
        )
    except (ValueError, InvalidVersion) as error:
        raise BundleError(f"{os.path.basename(path)}: cannot read its metadata ({error})") from None


def _target_path(member: str, info_dir: str, data_dir: str) -> Optional[str]:
    """Where a wheel member goes inside _vendor, or None when the bundle does not need it."""
    parts = member.split("/")
    # Names come from a downloaded file: nothing may climb out of _vendor (absolute, "..", drive, backslash).
    if member.endswith("/") or "\\" in member or ":" in member or any(p in ("", ".", "..") for p in parts):
        return None
    if parts[0] == data_dir:
        # purelib/platlib hold importable code; scripts, headers and data are installation extras.
        if len(parts) < 3 or parts[1] not in ("purelib", "platlib"):
            return None
        parts = parts[2:]
    elif parts[0] == info_dir and not _KEPT_METADATA.match("/".join(parts[1:])):
        return None
    if any(p in _SKIPPED_PARTS for p in parts[:-1]) or parts[-1] in _SKIPPED_NAMES:
        return None
    if parts[-1].endswith(_SKIPPED_SUFFIXES):
        return None
    return "/".join(parts)


def unpack_wheel(path: str, vendor_dir: str, owners: Dict[str, str]) -> Set[str]:
    """Extract the run-time files of a pure wheel into `vendor_dir`; return the top-level names it added.

    `owners` maps each written path to the wheel that wrote it, so two wheels that ship the same
    file (which pip would silently let the second overwrite) are reported instead.
    """
    require_pure(path)
    wheel = os.path.basename(path)
    added: Set[str] = set()
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        info_dir = _dist_info(names)
        data_dir = info_dir[: -len(".dist-info")] + ".data"
        for member in names:
            target = _target_path(member, info_dir, data_dir)
            if target is None:
                continue
            if target in owners:
                raise BundleError(f"{wheel} and {owners[target]} both ship {target}; they cannot share one bundle")
            owners[target] = wheel
            destination = os.path.join(vendor_dir, *target.split("/"))
            os.makedirs(os.path.dirname(destination), exist_ok=True)
            with archive.open(member) as source, open(destination, "wb") as out:
                shutil.copyfileobj(source, out)
            added.add(target.split("/", 1)[0])
    return added
