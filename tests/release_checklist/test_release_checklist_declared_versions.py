"""Version sources projects declare beyond the manifests (issue 26, round 5), each on a real repository released
once and then bumped: a version packed in one number (FMT_VERSION 120201), MAJOR/MINOR numbers in the header
named after the project whatever their prefix, a vendor-prefixed macro with its generated single-header copy
left alone, configure.ac's AC_INIT (written out, from m4 parts, or computed by git describe), Gradle's
VERSION_NAME, incremental's Version(...), a .NET build script's /p:VersionPrefix, and GitVersion. The version
check passes after the bump and fails on the release commit itself. A documentation site's change log page
(<site>/change-log/index.md) is the changelog."""
from __future__ import annotations

import os

import pytest
from release_checklist import ReleaseSession


def _released(make_repo, with_remote, files, tag):
    repo = make_repo(version=None, files={"CHANGELOG.md": "# {}\n\n- First.\n".format(tag.split("-")[-1]),
                                          **files(None)})
    repo.git("tag", "-a", tag, "-m", tag)
    return repo


def _bump(repo, files, version):
    for name, text in files(repo).items():
        repo.write(name, text)
    old = (repo.path / "CHANGELOG.md").read_text()
    repo.write("CHANGELOG.md", f"# {version}\n\n- Fixed.\n\n" + old)
    repo.commit("bump")


def _check(session, name="version-bumped"):
    step = next(step for step in session.steps if (step.command or "").startswith("release-check " + name))
    return session.run_step(step.id)


def _name(repo):
    return os.path.basename(str(repo)) if repo is not None else "repo1"


CASES = {
    "packed number": (lambda version: lambda repo: {
        "include/tool/base.h": f"#define TOOL_GCC_VERSION 0\n#define {_name(repo).upper()}_VERSION {version}\n"},
        "120200", "120201", "12.2.0", "12.2.1", "include/tool/base.h"),
    "header named after the project": (lambda micro: lambda repo: {
        f"lib/src/{_name(repo)}.h": f"#  define XML_MAJOR_VERSION 2\n#  define XML_MINOR_VERSION 8\n"
                                    f"#  define XML_MICRO_VERSION {micro}\n"},
        "3", "4", "R_2_8_3", "2.8.4", None),
    "vendor-prefixed macro": (lambda patch: lambda repo: {
        "include/lib/detail/macros.hpp": f"#define ACME_{_name(repo).upper()}_VERSION_MAJOR 3\n"
                                          f"#define ACME_{_name(repo).upper()}_VERSION_MINOR 11\n"
                                          f"#define ACME_{_name(repo).upper()}_VERSION_PATCH {patch}\n",
        # the generated one-file copy is rewritten at release time: never the version source
        "single_include/acme/all.hpp": f"#define ACME_{_name(repo).upper()}_VERSION_MAJOR 3\n"
                                       f"#define ACME_{_name(repo).upper()}_VERSION_MINOR 11\n"
                                       f"#define ACME_{_name(repo).upper()}_VERSION_PATCH 3\n"},
        "3", "4", "v3.11.3", "3.11.4", "include/lib/detail/macros.hpp"),
    "configure.ac m4 parts": (lambda minor: lambda repo: {
        "configure.ac": f"m4_define(tool_major, [10])\nm4_define(tool_minor, [{minor}])\n"
                        "m4_define(tool_prerelease, [])\nAC_INIT([TOOL],tool_major.tool_minor[]tool_prerelease,[],"
                        "[tool])\n"},
        "47", "48", "tool-10.47", "10.48", "configure.ac"),
    "configure.ac written out": (lambda version: lambda repo: {
        "configure.ac": f"AC_INIT([tool], [{version}], [https://example.invalid/issues])\n"},
        "1.52.0", "1.52.1", "v1.52.0", "1.52.1", "configure.ac"),
    "gradle VERSION_NAME": (lambda version: lambda repo: {
        "settings.gradle": "include ':lib'\n", "gradle.properties": f"GROUP=com.example\nVERSION_NAME={version}\n"},
        "2.11.0", "2.11.1", "2.11.0", "2.11.1", "gradle.properties"),
    "incremental Version()": (lambda minor: lambda repo: {
        "pyproject.toml": '[project]\nname = "tool"\ndynamic = ["version"]\n[tool.hatch.version]\n'
                          'source = "incremental"\n',
        "src/tool/__init__.py": "", "src/tool/_version.py":
            f'from incremental import Version\n\n__version__ = Version("Tool", 24, {minor}, 0)\n'},
        "7", "10", "tool-24.7.0", "24.10.0", "src/tool/_version.py"),
    "a .NET build script's VersionPrefix": (lambda version: lambda repo: {
        "Tool.sln": "\n",
        "Build/build.ps1": f'properties {{\n  $majorVersion = "13.0"\n  $releaseVersion = "{version}"\n}}\n'
                           'task Build {\n  exec { dotnet build "/p:VersionPrefix=$releaseVersion" '
                           '"/p:AssemblyVersion=$majorVersion" }\n}\n'},
        "13.0.4", "13.0.5", "13.0.4", "13.0.5", "Build/build.ps1"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_declared_version_source_is_read_and_checked(make_repo, with_remote, data_dir, case):
    files, old, new, tag, version, version_file = CASES[case]
    repo = _released(make_repo, with_remote, files(old), tag)
    with_remote(repo)
    before = ReleaseSession(str(repo), data_dir + "-before")
    assert _check(before).state != "passed"  # nothing bumped yet
    _bump(repo, files(new), version)
    session = ReleaseSession(str(repo), data_dir)
    assert session.version == version
    if version_file:
        assert (session.project.version_file or "").replace(os.sep, "/") == version_file
    assert _check(session).state == "passed", session.status(
        next(step.id for step in session.steps if "version-bumped" in (step.command or ""))).tail
    assert session.placeholder_values()["previous_tag"] == tag


GIT_DESCRIBE = {"configure.ac": "m4_define([tool_version], m4_esyscmd_s([scripts/version])))\n"
                                "AC_INIT([tool],[tool_version],[https://example.invalid/issues])\n",
                "scripts/version": "#!/bin/sh\ngit describe --tags --match 'tool-*' | sed 's/^tool-//'\n"}


@pytest.mark.parametrize("files, tag", [
    (GIT_DESCRIBE, "tool-1.8.2"),
    ({"GitVersion.yml": "mode: ContinuousDelivery\n", "Tool.sln": "\n"},
     "33.1.0"),
])
def test_a_version_computed_from_the_tag_needs_no_bump(make_repo, with_remote, data_dir, files, tag):
    repo = _released(make_repo, with_remote, lambda _repo: files, tag)
    repo.write("CHANGELOG.md", "# " + tag.split("-")[-1][:-1] + "3\n\n- Fixed.\n\n" + (repo.path / "CHANGELOG.md")
               .read_text())
    repo.commit("notes")
    with_remote(repo)
    session = ReleaseSession(str(repo), data_dir)
    assert session.project.version_from_tags is not None
    record = _check(session)
    assert record.state == "passed" and "comes from the tag" in " ".join(record.tail)


def test_a_documentation_sites_change_log_page_is_the_changelog(make_repo, with_remote, data_dir):
    page = "src/Tool.Website/input/change-log/index.md"
    repo = make_repo(version="33.1.0", files={page: "# Change Log\n\n### 33.1.0\n\n- Added.\n\n### 33.0.0\n\n- Big.\n",
                                              "src/Tool.Website/input/index.md": "# Tool 33.1.0\n"})
    repo.git("tag", "-a", "33.1.0", "-m", "33.1.0")
    repo.write("pyproject.toml", '[project]\nname = "demo"\nversion = "33.1.1"\n')
    repo.write(page, (repo.path / page).read_text().replace("### 33.1.0", "### 33.1.1\n\n- Fixed.\n\n### 33.1.0"))
    repo.commit("bump")
    with_remote(repo)
    session = ReleaseSession(str(repo), data_dir)
    assert (session.project.changelog_file or "").replace(os.sep, "/") == page
    assert _check(session, "changelog-entry").state == "passed"


def test_a_script_outside_the_repository_is_never_read_for_git_describe(make_repo, tmp_path):
    from release_checklist.version_sources import autoconf_version

    outside = tmp_path / "version.sh"
    outside.write_text("#!/bin/sh\ngit describe --tags\n")
    repo = make_repo(version=None, files={"configure.ac": f"m4_define([v], m4_esyscmd_s([{outside}]))\n"
                                                          "AC_INIT([tool],[v])\n"})
    assert autoconf_version(str(repo)) is None
    repo.write("scripts/version", "#!/bin/sh\ngit describe --tags\n")
    repo.write("configure.ac", "m4_define([v], m4_esyscmd_s([scripts/version]))\nAC_INIT([tool],[v])\n")
    assert autoconf_version(str(repo)) == ("tags", "configure.ac")
