"""The classes behind round 6's misses (issue 26), each on a repository shaped like the convention: empty
placeholder changelogs, type-annotated `__version__`, release histories named like release documents,
versioning-policy pages named like release processes (with reStructuredText cross-references that look
like commands), and release documents kept in a tooling folder."""
from __future__ import annotations

import os

from release_checklist import StepKind
from release_checklist.release_docs import find_release_doc, is_changelog, is_procedure
from tagged_repos import released_session

_session = released_session


def _builtin(session, name):
    return next((step for step in session.steps if (step.command or "").startswith("release-check " + name)), None)


# ----- changelogs kept empty -----------------------------------------------------------------------------------

def test_empty_placeholder_changelogs_are_no_changelog(make_repo, with_remote, data_dir):
    # autotools projects keep NEWS and ChangeLog as empty files because `automake` wants them to exist
    files = {"configure.ac": "AC_INIT([codec], m4_esyscmd([./version.sh]))\n", "NEWS": "", "ChangeLog": "\n"}
    session = _session(make_repo, with_remote, data_dir, files)
    assert session.project.changelog_file is None
    assert _builtin(session, "changelog-entry") is None


def test_a_changelog_with_entries_next_to_an_empty_one_is_used(make_repo, with_remote, data_dir):
    files = {"NEWS": "", "ChangeLog": "1.6.2\n- older fix\n"}
    bumped = {"ChangeLog": "1.6.3\n- fix\n\n1.6.2\n- older\n"}
    session = _session(make_repo, with_remote, data_dir, files, bumped=bumped)
    assert session.project.changelog_file == "ChangeLog"


# ----- annotated __version__ ------------------------------------------------------------------------------------

FLIT = '[build-system]\nrequires = ["flit_core"]\nbuild-backend = "flit_core.buildapi"\n\n' \
       '[project]\nname = "demo"\ndynamic = ["version"]\n'


def test_an_annotated_dunder_version_is_read(make_repo, with_remote, data_dir):
    for annotation in (": Final", ": Final[str]", ": typing.Final"):
        module = f"from typing import Final\n\n__version__{annotation} = '{{v}}'\n"
        session = _session(make_repo, with_remote, data_dir,
                           {"pyproject.toml": FLIT, "demo/__init__.py": module.format(v="1.6.2")},
                           bumped={"demo/__init__.py": module.format(v="1.6.3")})
        assert session.version == "1.6.3", annotation
        assert session.project.version_file == os.path.join("demo", "__init__.py")


# ----- documents that are not procedures ------------------------------------------------------------------------

RELEASE_HISTORY = "".join(f"# Release demo 1.{minor}.0 (2026-0{minor}-01)\n\n- Run `cargo publish` fixed; tag the "
                          f"crate.\n- Bump MSRV.\n\n" for minor in range(6, 1, -1))


def test_a_release_history_named_releases_is_not_the_procedure(make_repo, with_remote, data_dir):
    assert is_changelog(RELEASE_HISTORY)
    assert is_procedure(RELEASE_HISTORY, True)  # it reads like steps; its headings say it is a history
    session = _session(make_repo, with_remote, data_dir, {"RELEASES.md": RELEASE_HISTORY})
    assert session.loaded.source == "default"


POLICY_RST = """=====================
Demo's release process
=====================

Versioning
----------

Demo follows :pep:`440`. See :exc:`python:DeprecationWarning` and :envvar:`python:PYTHONWARNINGS`.

Deprecating a feature
---------------------

Check the rendered page with ``make html`` before merging.
"""

CHECKLIST_RST = """Release checklist
=================

* Run ``python utils/bump_version.py 1.2.3``
* Commit and ``git tag v1.2.3``
* ``twine upload dist/*``
* ``git push origin main --tags``
"""


def test_a_versioning_policy_named_release_process_is_passed_over(make_repo):
    assert not is_procedure(POLICY_RST, named_for_it=True)
    repo = make_repo(files={"doc/internals/release-process.rst": POLICY_RST})
    assert find_release_doc(str(repo)) is None


def test_a_release_document_in_a_tooling_folder_is_adopted(make_repo, with_remote, data_dir):
    files = {"doc/internals/release-process.rst": POLICY_RST, "utils/release-checklist.rst": CHECKLIST_RST}
    session = _session(make_repo, with_remote, data_dir, files, version="1.6.2", bumped={
        "pyproject.toml": '[project]\nname = "demo"\nversion = "1.6.3"\n'})
    assert session.loaded.source == "adopted"
    assert os.path.relpath(session.loaded.path, session.repo).replace(os.sep, "/") == "utils/release-checklist.rst"


# ----- publishing by hand ---------------------------------------------------------------------------------------

SETUP_CFG = "[metadata]\nname = demo-server\nversion = {v}\n\n[options]\npackages = find:\n"
RELEASING_TXT = """Releasing
=========

- Run the tests: ``tox -r``.
- Write the CHANGES.txt heading for the release.
- Change the version in setup.cfg.
- Make sure the tag is pushed: ``git tag v1.2.3 && git push origin main --tags``.
- Build: ``python -m build``.
- Upload: ``twine upload dist/demo-server-1.2.3*``.
"""


def test_setuptools_declarative_metadata_is_uploaded_with_twine(make_repo, with_remote, data_dir):
    session = _session(make_repo, with_remote, data_dir, {"setup.cfg": SETUP_CFG.format(v="1.6.2")},
                       bumped={"setup.cfg": SETUP_CFG.format(v="1.6.3")})
    assert session.project.name == "demo-server"
    assert session.publishing.kind == "command"
    assert "twine upload" in session.publishing.command


def test_a_release_document_that_uploads_with_twine_keeps_the_chained_command(make_repo, with_remote, data_dir):
    files = {"setup.cfg": SETUP_CFG.format(v="1.6.2"), "RELEASING.txt": RELEASING_TXT}
    session = _session(make_repo, with_remote, data_dir, files, bumped={"setup.cfg": SETUP_CFG.format(v="1.6.3")})
    assert session.loaded.source == "adopted"
    assert session.publishing.kind == "command"
    assert "twine upload" in session.publishing.command


def _pnpm_workspace(make_repo, with_remote, data_dir, lock="pnpm-lock.yaml"):
    root = '{"name": "@demo/root", "private": true, "workspaces": ["packages/*"]}\n'
    member = '{{"name": "demo-store", "version": "{v}"}}\n'
    files = {"package.json": root, lock: "lockfileVersion: '9.0'\n" if lock.endswith("yaml") else "{}\n",
             "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
             "packages/demo-store/package.json": member.format(v="2.2.4"),
             "packages/demo-store/CHANGELOG.md": "## 2.2.4\n\n- a fix\n"}
    if not lock.endswith("yaml"):
        del files["pnpm-workspace.yaml"]
    return _session(make_repo, with_remote, data_dir, files, tag="demo-store@2.2.4", bumped={
        "packages/demo-store/package.json": member.format(v="2.2.5"),
        "packages/demo-store/CHANGELOG.md": "## 2.2.5\n\n- another\n\n## 2.2.4\n\n- a fix\n"})


def test_a_private_workspace_root_publishes_the_bumped_member(make_repo, with_remote, data_dir):
    session = _pnpm_workspace(make_repo, with_remote, data_dir)
    assert session.version == "2.2.5"
    assert session.publishing.kind == "command"
    assert session.publishing.command == "cd packages/demo-store && pnpm publish"


def test_an_npm_workspace_member_is_published_with_npm(make_repo, with_remote, data_dir):
    session = _pnpm_workspace(make_repo, with_remote, data_dir, lock="package-lock.json")
    assert session.publishing.command == "npm publish --workspace packages/demo-store"


RELEASING_PROSE = """Releasing
=========

- Run the tests with ``tox -r``.
- Change the version in setup.cfg and tag the release.
- Make sure your Python has ``build`` and ``twine`` installed. Then build
  and release to PyPI::

  $ python -m build
  $ twine upload dist/demo-server-X.X-*

- Announce it on the mailing list.
"""


def test_a_publish_command_shown_in_a_manual_steps_notes_keeps_the_runnable_step(make_repo, with_remote, data_dir):
    files = {"setup.cfg": SETUP_CFG.format(v="1.6.2"), "RELEASING.txt": RELEASING_PROSE}
    session = _session(make_repo, with_remote, data_dir, files, bumped={"setup.cfg": SETUP_CFG.format(v="1.6.3")})
    assert session.loaded.source == "adopted"
    runnable = [step for step in session.steps if step.kind == StepKind.TERMINAL
                and "twine upload" in (session.command_of(step) or "")]
    assert runnable, [(step.kind, step.title) for step in session.steps]


# ----- a gem's version held by a named constant -----------------------------------------------------------------

GEMSPEC = 'require_relative "lib/demo_server/const"\n\nGem::Specification.new do |s|\n  s.name = "demo_server"\n' \
          '  s.version = DemoServer::Const::SERVER_VERSION\n  s.files = Dir["lib/**/*.rb"]\nend\n'
CONST_RB = 'module DemoServer\n  class Const\n    SERVER_VERSION = VERSION = "{v}"\n    CODENAME = "Fast"\n' \
           '  end\nend\n'


def test_a_gemspec_version_constant_is_read_from_its_file(make_repo, with_remote, data_dir):
    files = {"demo_server.gemspec": GEMSPEC, "lib/demo_server/const.rb": CONST_RB.format(v="1.6.2"),
             "lib/demo_server/binder.rb": 'module DemoServer\n  RACK_VERSION = "1.6"\nend\n'}
    session = _session(make_repo, with_remote, data_dir, files,
                       bumped={"lib/demo_server/const.rb": CONST_RB.format(v="1.6.3")})
    assert session.version == "1.6.3"
    assert session.project.version_file.replace(os.sep, "/") == "lib/demo_server/const.rb"
    step = _builtin(session, "version-bumped")
    assert session.run_step(step.id).state == "passed"


# ----- a Gradle version set by a convention plugin ---------------------------------------------------------------

CONVENTIONS = 'plugins {{\n  id("java-library")\n}}\n\ngroup = "com.example.demo"\nversion = "{v}"\n'


def test_a_gradle_convention_plugin_sets_the_version(make_repo, with_remote, data_dir):
    files = {"settings.gradle.kts": 'includeBuild("build-logic")\ninclude(":demo")\n',
             "build.gradle.kts": 'plugins {\n  id("demo.base-conventions")\n}\n',
             "build-logic/settings.gradle.kts": 'rootProject.name = "build-logic"\n',
             "build-logic/src/main/kotlin/demo.base-conventions.gradle.kts": CONVENTIONS.format(v="1.6.3-SNAPSHOT")}
    session = _session(make_repo, with_remote, data_dir, files, bumped={
        "build-logic/src/main/kotlin/demo.base-conventions.gradle.kts": CONVENTIONS.format(v="1.6.3")})
    assert session.version == "1.6.3"
    assert session.project.version_file.replace(os.sep, "/") == \
        "build-logic/src/main/kotlin/demo.base-conventions.gradle.kts"


# ----- a C library's clib manifest ------------------------------------------------------------------------------

CLIB = '{{\n  "name": "libdemo",\n  "version": "{v}",\n  "repo": "example/libdemo",\n' \
       '  "install": "mkdir build && cd build && cmake .. && cmake --build ."\n}}\n'
HEADER_H = '#ifndef DEMO_VERSION_H\n#define LIBDEMO_VERSION "{v}"\n#endif\n'


def test_a_clib_manifest_is_not_an_npm_package(make_repo, with_remote, data_dir):
    files = {"CMakeLists.txt": 'project(libdemo VERSION "1.6.2" LANGUAGES C)\n', "package.json": CLIB.format(v="1.6.2"),
             "include/demo/version.h": HEADER_H.format(v="1.6.2")}
    session = _session(make_repo, with_remote, data_dir, files, bumped={
        "CMakeLists.txt": 'project(libdemo VERSION "1.6.3" LANGUAGES C)\n', "package.json": CLIB.format(v="1.6.3"),
        "include/demo/version.h": HEADER_H.format(v="1.6.3")})
    assert "node" not in session.project.ecosystems
    assert session.version == "1.6.3"
    assert session.project.version_file.replace(os.sep, "/") != "package.json"
    assert session.publishing.kind == "manual"


def test_an_npm_package_naming_its_repo_is_still_npm(make_repo, with_remote, data_dir):
    package = '{{"name": "demo", "version": "{v}", "repo": "example/demo", "install": "npm i", "main": "index.js"}}\n'
    session = _session(make_repo, with_remote, data_dir, {"package.json": package.format(v="1.6.2")},
                       bumped={"package.json": package.format(v="1.6.3")})
    assert "node" in session.project.ecosystems
    assert session.publishing.command == "npm publish"


# ----- a .NET version computed from the tag ---------------------------------------------------------------------

CSPROJ = '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n' \
         '    <PackageId>Demo</PackageId>\n  </PropertyGroup>\n</Project>\n'
MINVER_PROPS = '<Project>\n  <ItemGroup>\n    <PackageReference Include="MinVer" PrivateAssets="All" />\n' \
               '  </ItemGroup>\n</Project>\n'


def test_a_minver_build_takes_its_version_from_the_tag(make_repo, with_remote, data_dir):
    files = {"src/Demo.csproj": CSPROJ, "eng/Common.props": MINVER_PROPS,
             "Directory.Build.props": '<Project>\n  <Import Project="eng/Common.props" />\n</Project>\n'}
    session = _session(make_repo, with_remote, data_dir, files, tag="1.6.2")
    step = _builtin(session, "version-bumped")
    assert session.run_step(step.id).state == "passed"
    assert "MinVer" in " ".join(session.status(step.id).tail)


# ----- a procedure written as one heading per step --------------------------------------------------------------

HEADED_PROCEDURE = """# How to release

This document describes how a new version of Demo is released.

## Incrementing version number

Run the bump script from `tools/` with the part of the version to increment.

## Release notes

Write the release notes into `docs/release-notes.md`.

## Commit and push

Commit the changes and push them to GitHub.

## Release on GitHub

Create a signed tag with `git tag -s <VERSION>` and attach the built files to the GitHub release.
"""


def test_a_procedure_of_headed_sections_is_adopted_as_steps(make_repo, with_remote, data_dir):
    files = {"docs/release-process.md": HEADED_PROCEDURE}
    session = _session(make_repo, with_remote, data_dir, files, version="1.6.2", bumped={
        "pyproject.toml": '[project]\nname = "demo"\nversion = "1.6.3"\n'})
    assert session.loaded.source == "adopted"
    titles = [step.title for step in session.steps]
    assert "Release notes" in titles and "Commit and push" in titles
    assert _builtin(session, "tag-free") is not None


KINDS_OF_RELEASES = """Release Process and Rules
=========================

Major Releases
--------------

A major release will include breaking changes and is announced ahead of time.

Minor Releases
--------------

A minor release will not include breaking changes but may include new features.

Hotfix Releases
---------------

A hotfix release only fixes bugs, and you should `git push` them quickly.
"""


def test_sections_about_kinds_of_releases_are_not_steps(make_repo, with_remote, data_dir):
    files = {"docs/release-process.rst": KINDS_OF_RELEASES}
    session = _session(make_repo, with_remote, data_dir, files, version="1.6.2", bumped={
        "pyproject.toml": '[project]\nname = "demo"\nversion = "1.6.3"\n'})
    assert session.loaded.source == "default"
