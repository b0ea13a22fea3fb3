"""Where projects write their version (lerna.json, MSBuild, Gradle, Maven, C headers), and a version check
that passes only when that file was read and bumped: a proposed version never passes (issue 26, draw A)."""
from __future__ import annotations

from release_checklist import ReleaseSession, StepState
from release_checklist.project_files import detect_project

NGINX_H = ('#ifndef _NGINX_H_INCLUDED_\n#define _NGINX_H_INCLUDED_\n\n#define nginx_version      1031004\n'
           '#define NGINX_VERSION      "{version}"\n#define NGINX_VER          "nginx/" NGINX_VERSION\n\n#endif\n')
# Someone else's library, vendored: its version is never the project's.
VENDORED_H = '#define SQLITE_VERSION        "3.45.0"\n#define SQLITE_VERSION_NUMBER 3045000\n'


def _version_check(session):
    step = next(step for step in session.steps if (step.command or "").startswith("release-check version-bumped"))
    return session.run_step(step.id)


def _file(project):
    return project.version, project.version_file


def _released(make_repo, with_remote, files, tag, name=None):
    repo = make_repo(version=None, files=files)
    if name:  # cloned under the project's name, as its maintainers' clones are
        repo.path = repo.path.rename(repo.path.parent / name)
    with_remote(repo)
    repo.git("tag", "-a", tag, "-m", tag)
    repo.write("src/fix.c", "int fixed;\n")  # work after the release, nothing bumped yet
    repo.commit("fix")
    repo.git("push", "-q", "origin", "main")
    return repo


def test_a_c_header_defining_the_projects_version_is_the_version_file(make_repo, with_remote, data_dir, tmp_path):
    files = {"src/core/nginx.h": NGINX_H.format(version="1.31.4"), "src/sqlite/sqlite3.h": VENDORED_H,
             "auto/configure": "#!/bin/sh\n"}
    repo = _released(make_repo, with_remote, files, "release-1.31.4", "nginx")
    session = ReleaseSession(str(repo.path), data_dir)
    assert (session.version, session.version_source, session.project.version_file) == (
        "1.31.4", "project", "src/core/nginx.h")
    # Nothing bumped: the check fails instead of passing on a proposed 1.31.5.
    record = _version_check(session)
    assert record.state == StepState.FAILED and "already released" in record.tail[0]
    # Asked for 1.31.5 (typed in the panel) while the header still says 1.31.4: the header needs the bump.
    asked = ReleaseSession(str(repo.path), str(tmp_path / "asked"), version="1.31.5")
    record = _version_check(asked)
    assert record.state == StepState.FAILED and "src/core/nginx.h says 1.31.4, not 1.31.5" in record.tail[0]
    repo.write("src/core/nginx.h", NGINX_H.format(version="1.31.5"))
    repo.commit("bump")
    bumped = ReleaseSession(str(repo.path), str(tmp_path / "bumped"))
    record = _version_check(bumped)
    assert bumped.version == "1.31.5" and bumped.tag == "release-1.31.5"
    assert record.state == StepState.PASSED and "src/core/nginx.h says 1.31.5" in record.tail[0]


def test_version_macro_numbers_and_a_macro_named_by_the_checklist(make_repo, with_remote, data_dir):
    split = ("#define UV_VERSION_MAJOR 1\n#define UV_VERSION_MINOR 52\n#define UV_VERSION_PATCH 1\n"
             "#define UV_VERSION_IS_RELEASE 1\n")
    repo = make_repo(version=None, files={"include/uv/version.h": split})
    # Not cloned under its name: the header's folder (uv/) names the macros' owner (UV_).
    project = detect_project(str(repo.path))
    assert (project.version, project.version_file) == ("1.52.1", "include/uv/version.h")
    other = make_repo(version=None, files={"include/odd.h": '#define ODD_RELEASE_TEXT "v4.2.0 (stable)"\n',
                                           "RELEASE_CHECKLIST.md": "# R\nVersion macro: `ODD_RELEASE_TEXT`\n"})
    assert detect_project(str(other.path)).version is None  # not a <NAME>_VERSION macro: only by its name
    session = ReleaseSession(str(other.path), data_dir)
    assert (session.version, session.project.version_file) == ("4.2.0", "include/odd.h")


def test_a_proposed_version_never_passes_the_version_check(make_repo, with_remote, data_dir):
    repo = _released(make_repo, with_remote, {"Makefile": "all:\n\tcc -c src/fix.c\n"}, "v2.0.0")
    session = ReleaseSession(str(repo.path), data_dir)
    assert (session.version, session.version_source) == ("2.0.1", "suggested")
    record = _version_check(session)
    assert record.state == StepState.UNKNOWN
    said = " ".join(record.tail)
    assert "no version file was read" in said and "Version file" in said


def test_monorepo_dotnet_gradle_and_maven_version_files(make_repo, with_remote, data_dir, tmp_path):
    lerna = make_repo(version=None, files={
        "package.json": '{"name": "root", "private": true, "version": "0.0.0", "workspaces": ["packages/*"]}\n',
        "lerna.json": '{"packages": ["packages/*"], "version": "30.4.2"}\n',
        "packages/core/package.json": '{"name": "@x/core", "version": "30.4.2"}\n'})
    assert _file(detect_project(str(lerna.path), last_release="30.4.2")) == ("30.4.2", "lerna.json")
    props = ("<Project>\n  <PropertyGroup>\n    <VersionPrefix>12.1.1</VersionPrefix>\n"
             "    <VersionSuffix></VersionSuffix>\n  </PropertyGroup>\n</Project>\n")
    dotnet = make_repo(version=None, files={"src/Directory.Build.props": props, "Lib.sln": "\n",
                                            "src/Lib/Lib.csproj": "<Project Sdk=\"Microsoft.NET.Sdk\"></Project>\n"})
    assert _file(detect_project(str(dotnet.path))) == ("12.1.1", "src/Directory.Build.props")
    gradle = make_repo(version=None, files={"gradle.properties": "group=org.x\nversion=1.11.0-SNAPSHOT\n",
                                            "settings.gradle.kts": "rootProject.name = \"x\"\n"})
    assert _file(detect_project(str(gradle.path))) == ("1.11.0", "gradle.properties")
    pom = ("<project>\n  <parent><groupId>p</groupId><version>9.9.9</version></parent>\n  <artifactId>x</artifactId>\n"
           "  <version>2.14.1-SNAPSHOT</version>\n  <dependencies><dependency><version>5.0.0</version></dependency>"
           "</dependencies>\n</project>\n")
    maven = make_repo(version=None, files={"pom.xml": pom})
    assert _file(detect_project(str(maven.path))) == ("2.14.1", "pom.xml")
    # On the release commit, with only the changelog bumped, the version check fails: lerna.json still says
    # the released version.
    with_remote(lerna)
    lerna.git("tag", "-a", "v30.4.2", "-m", "v30.4.2")
    lerna.write("CHANGELOG.md", "# Changelog\n\n## 30.4.3\n\n- fix\n\n## 30.4.2\n\n- old\n")
    lerna.commit("changelog only")
    session = ReleaseSession(str(lerna.path), data_dir)
    assert (session.version, session.project.version_file) == ("30.4.2", "lerna.json")
    assert _version_check(session).state == StepState.FAILED


def test_a_workspace_member_named_like_the_repository_holds_its_version(make_repo):
    root = '[workspace]\nmembers = ["axum", "axum-*"]\n\n[workspace.package]\nrust-version = "1.78"\n'
    repo = make_repo(version=None, files={
        "Cargo.toml": root, "axum/Cargo.toml": '[package]\nname = "axum"\nversion = "0.8.9"\n',
        "axum-core/Cargo.toml": '[package]\nname = "axum-core"\nversion = "0.5.6"\n'})
    repo.path = repo.path.rename(repo.path.parent / "axum")
    project = detect_project(str(repo.path))
    assert (project.version, project.version_file, project.workspace) == ("0.8.9", "axum/Cargo.toml", True)


def test_versions_that_are_the_tag_pass_without_a_file(make_repo, with_remote, data_dir, tmp_path):
    # hatch-vcs in dotted keys, Composer and SwiftPM without a version field: the tag is the version.
    pyproject = ('[build-system]\nrequires = ["hatchling", "hatch-vcs"]\n\n[project]\nname = "demo"\n'
                 'dynamic = [\n  "version",\n]\n\n[tool.hatch]\nversion.source = "vcs"\n')
    cases = (({"pyproject.toml": pyproject}, "hatch-vcs"),
             ({"composer.json": '{"name": "x/demo", "type": "library"}\n'}, "composer"),
             ({"Package.swift": "// swift-tools-version:5.9\n", "Sources/Demo/Demo.swift": "let x = 1\n"}, "swiftpm"))
    for index, (files, tool) in enumerate(cases):
        repo = _released(make_repo, with_remote, files, "1.2.0")
        session = ReleaseSession(str(repo.path), str(tmp_path / f"data{index}"))
        assert (session.version, session.project.version_from_tags) == ("1.2.1", tool)
        record = _version_check(session)
        assert record.state == StepState.PASSED and f"comes from the tag ({tool})" in record.tail[0]


def test_a_gem_in_a_folder_named_like_the_repository(make_repo):
    version_rb = "module Mustermann\n  VERSION = '4.0.0'\nend\n"
    repo = make_repo(version=None, files={
        "Gemfile": "source 'https://rubygems.org'\n", "mustermann/mustermann.gemspec": "Gem::Specification.new\n",
        "mustermann/lib/mustermann/version.rb": version_rb,
        "mustermann-contrib/mustermann-contrib.gemspec": "Gem::Specification.new\n",
        "mustermann-contrib/lib/mustermann/contrib/version.rb": version_rb.replace("4.0.0", "9.9.9")})
    repo.path = repo.path.rename(repo.path.parent / "mustermann")
    project = detect_project(str(repo.path))
    assert (project.version, project.version_file) == ("4.0.0", "mustermann/lib/mustermann/version.rb")
