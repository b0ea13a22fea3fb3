"""Versions, specifiers, markers and the completeness check of requirements.txt (checked against `packaging`)."""

from __future__ import annotations

import pytest
from agentty_plugin.distribution.markers import Marker, parse_requirement, target_environments
from agentty_plugin.distribution.requirements import (
    RequirementsError,
    WheelInfo,
    check_closure,
    parse_requirements,
)
from agentty_plugin.distribution.versions import SpecifierSet, Version
from hypothesis import given, settings
from hypothesis import strategies as st

packaging_version = pytest.importorskip("packaging.version")
packaging_specifiers = pytest.importorskip("packaging.specifiers")
packaging_markers = pytest.importorskip("packaging.markers")

VERSIONS = ["1.0", "1.0.0", "1.0.1", "1.0a1", "1.0b2", "1.0rc1", "1.0.dev3", "1.0.post1", "1.1", "2.0", "0.9",
            "1.0a1.dev1", "1.0.post1.dev2", "2026.10.19.post1", "4.0.12", "1!0.5", "1.0+local.7", "3.10.0.2"]
SPECS = ["", ">=1.0", "<2", "==1.*", "!=1.0.1", "~=1.0", "~=1.0.0", ">1.0", "<=1.0", "==1.0", ">=4.0.1,<5",
         "==1.0+local.7", "!=1.*", ">=1.0a1", "<1.0", ">1.0.post0", "===1.0"]


@pytest.mark.parametrize("left", VERSIONS)
@pytest.mark.parametrize("right", VERSIONS)
def test_version_order_matches_packaging(left, right):
    ours = (Version(left) < Version(right), Version(left) == Version(right))
    theirs = packaging_version.Version(left), packaging_version.Version(right)
    assert ours == (theirs[0] < theirs[1], theirs[0] == theirs[1])


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("candidate", VERSIONS)
def test_specifiers_match_packaging_with_prereleases_allowed(spec, candidate):
    expected = packaging_specifiers.SpecifierSet(spec).contains(candidate, prereleases=True)
    assert SpecifierSet(spec).contains(Version(candidate)) == expected


@settings(max_examples=200, deadline=None)
@given(st.tuples(st.integers(0, 3), st.integers(0, 12), st.integers(0, 3)),
       st.sampled_from(["<", "<=", ">", ">=", "==", "!=", "~="]),
       st.tuples(st.integers(0, 3), st.integers(0, 12)))
def test_release_specifiers_match_packaging_on_generated_versions(candidate, op, bound):
    version = ".".join(map(str, candidate))
    spec = op + ".".join(map(str, bound))
    expected = packaging_specifiers.SpecifierSet(spec).contains(version, prereleases=True)
    assert SpecifierSet(spec).contains(Version(version)) == expected


MARKERS = [
    'python_version < "3.11"',
    "python_version >= '3.9' and sys_platform != 'cygwin'",
    '(python_version >= "3.9" and sys_platform != "cygwin") and extra == "test"',
    'sys_platform == "win32" or platform_system == "Darwin"',
    "os_name == 'nt' and platform_machine == 'ARM64'",
    'platform_python_implementation != "CPython"',
    '"3.10" > python_version',
    'python_full_version >= "3.9.2"',
    "'linux' in sys_platform",
    "implementation_name == 'cpython' and python_version not in '3.9, 3.10'",
    'extra == "Socks"',
]


@pytest.mark.parametrize("text", MARKERS)
def test_markers_match_packaging_on_every_target(text):
    theirs = packaging_markers.Marker(text)
    ours = Marker(text)
    for env in target_environments():
        for extra in ("", "test", "socks"):
            full = {**env, "extra": extra}
            assert ours.evaluate(full) == theirs.evaluate(full), (text, full)


def test_requirement_lines_with_extras_parentheses_and_markers():
    requirement = parse_requirement('httpcore[asyncio] (<5.0,>=4.0) ; python_version < "3.11"')
    assert requirement.key == "httpcore" and requirement.extras == {"asyncio"}
    assert str(requirement.specifier) == "<5.0,>=4.0"
    with pytest.raises(ValueError, match="direct URL"):
        parse_requirement("thing @ https://example.invalid/thing.whl")


def test_requirements_file_accepts_only_exact_pins():
    pins = parse_requirements("# comment\nWhoosh_Reloaded==2.7.5   # why\n\nhttpx[http2]==0.28.1\n")
    assert [(p.key, str(p.version), sorted(p.extras)) for p in pins] == [
        ("whoosh-reloaded", "2.7.5", []), ("httpx", "0.28.1", ["http2"])]
    with pytest.raises(RequirementsError) as raised:
        parse_requirements("a>=1\nb==1.*\nc\n--index-url x\nd==1\nD==2\ne==1; python_version<'3.10'\n")
    assert [p.split(":")[1] for p in raised.value.problems] == ["1", "2", "3", "4", "6", "7"]


def _info(name, version, requires=(), requires_python=""):
    return WheelInfo(name, Version(version), SpecifierSet(requires_python), [parse_requirement(r) for r in requires])


def test_closure_reports_what_is_missing_where_and_what_is_pinned_wrong():
    pins = parse_requirements("anyio==4.12.1\nidna==2.0\ntyping_extensions==4.16.0\n")
    wheels = {
        "anyio": _info("anyio", "4.12.1", ['exceptiongroup>=1.0.2; python_version < "3.11"', "idna>=2.8",
                                           'typing_extensions>=4.5; python_version < "3.13"',
                                           'trio>=0.31.0; python_version < "3.10" and extra == "trio"']),
        "idna": _info("idna", "2.0"),
        "typing-extensions": _info("typing_extensions", "4.16.0", requires_python=">=3.9"),
    }
    problems = check_closure(pins, wheels, target_environments())
    assert len(problems) == 2
    assert "anyio 4.12.1 needs exceptiongroup>=1.0.2 on Python 3.9, 3.10, which requirements.txt does not pin" \
        in problems[0]
    assert "anyio 4.12.1 needs idna>=2.8 on Python 3.9, 3.10, 3.11, 3.12, 3.13, but requirements.txt pins " \
           "idna==2.0" in problems[1]


def test_closure_follows_extras_requested_by_dependents_and_platform_markers():
    pins = parse_requirements("app==1.0\nlib==1.0\n")
    wheels = {"app": _info("app", "1.0", ["lib[fast]>=1"]),
              "lib": _info("lib", "1.0", ['speedups; extra == "fast"', 'colorama; sys_platform == "win32"'])}
    problems = check_closure(pins, wheels, target_environments())
    assert any("lib 1.0 needs speedups on Python 3.9" in p for p in problems)
    assert any("needs colorama on Python 3.9, 3.10, 3.11, 3.12, 3.13 on Windows" in p for p in problems)


def test_closure_refuses_a_wheel_whose_requires_python_excludes_a_target():
    pins = parse_requirements("new==1.0\n")
    problems = check_closure(pins, {"new": _info("new", "1.0", requires_python=">=3.10,<3.13")},
                             target_environments())
    assert problems == ["new 1.0 does not support Python 3.9, 3.13 (Requires-Python >=3.10,<3.13); "
                        "pin a version that supports 3.9+"]
