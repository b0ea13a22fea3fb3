"""The classes behind round 7's misses (issue 26), each on a repository shaped like the convention: a Go package's
version constant, versions whose final releases carry a stage word (2.1.12-stable), platform build folders
holding copies of the version header, headers named for their owner's version, scikit-build-core's regex
version provider, MinVer referenced by the packed project, tag workflows that publish through a script of the
repository, YAML lists written at their key's indent, per-package tags named by the version tool's describe
pattern, notes folders kept per release line, and release procedures kept as a section of a contributor guide."""
from __future__ import annotations

import os

from release_checklist.guide_sections import release_section
from release_checklist.versions import is_final, next_version, version_key
from tagged_repos import released_session

_session = released_session


def _builtin(session, name):
    return next((step for step in session.steps if (step.command or "").startswith("release-check " + name)), None)


def _passes(session, name):
    return session.run_step(_builtin(session, name).id).state == "passed"


# ----- a Go package's version constant --------------------------------------------------------------------------

GO_MOD = "module example.com/demo\n\ngo 1.22\n"
VERSION_GO = 'package demo\n\nconst (\n\t// Version of Demo\n\tVersion = "{v}"\n)\n'


def test_a_go_version_constant_is_the_version_file(make_repo, with_remote, data_dir):
    files = {"go.mod": GO_MOD, "version.go": VERSION_GO.format(v="1.6.2")}
    session = _session(make_repo, with_remote, data_dir, files, bumped={"version.go": VERSION_GO.format(v="1.6.3")})
    assert (session.version, session.project.version_file) == ("1.6.3", "version.go")
    assert _passes(session, "version-bumped")


def test_a_go_version_constant_left_at_the_release_fails_the_version_check(make_repo, with_remote, data_dir):
    # the release commit itself: the constant still says the last release, so nothing was bumped
    files = {"go.mod": GO_MOD, "version.go": 'package demo\n\nconst Version = "v1.6.2"\n'}
    session = _session(make_repo, with_remote, data_dir, files)
    assert session.project.version_file == "version.go"
    assert not _passes(session, "version-bumped")


def test_a_go_release_line_constant_leaves_the_tag_as_the_version(make_repo, with_remote, data_dir):
    # fzf's `var version = "0.74"` names the release line, not a release
    files = {"go.mod": GO_MOD, "main.go": 'package main\n\nvar version = "0.74"\n\nfunc main() {}\n'}
    session = _session(make_repo, with_remote, data_dir, files, tag="v0.74.3")
    assert session.project.version_file is None and session.project.version_from_tags == "go"
    assert _passes(session, "version-bumped")


# ----- final releases that carry their stage ---------------------------------------------------------------------

def test_a_final_stage_word_is_a_final_release():
    assert is_final("2.1.12-stable") and is_final("4.1.100.Final") and not is_final("2.1.9-beta")
    assert version_key("2.1.13-stable") > version_key("2.1.12-stable") > version_key("2.1.12-rc")
    assert next_version("2.1.12-stable") == "2.1.13-stable"
    assert next_version("1.6rc2") == "1.6"


AC_INIT = "AC_INIT(demo,{v})\nAC_CONFIG_HEADERS([config.h])\n"
PLATFORM_HEADER = '#define DEMO_VERSION "{v}"\n#define DEMO_NUMERIC_VERSION 0x02010d00\n'
STAGED_LOG = "Changes in version {v} (05 Jul 2020)\n\n- A fix.\n\n"


def test_stage_suffixed_versions_and_tags_are_followed(make_repo, with_remote, data_dir):
    files = {"configure.ac": AC_INIT.format(v="1.6.2-stable"), "ChangeLog": STAGED_LOG.format(v="1.6.2-stable"),
             "WIN32-Code/nmake/demo_version.h": PLATFORM_HEADER.format(v="1.6.2-stable")}
    bumped = {"configure.ac": AC_INIT.format(v="1.6.3-stable"),
              "ChangeLog": STAGED_LOG.format(v="1.6.3-stable") + STAGED_LOG.format(v="1.6.2-stable"),
              "WIN32-Code/nmake/demo_version.h": PLATFORM_HEADER.format(v="1.6.3-stable")}
    session = _session(make_repo, with_remote, data_dir, files, bumped=bumped, tag="release-1.6.2-stable",
                       earlier=("release-1.6.1-stable", "release-1.6.2-rc"))
    values = session.placeholder_values()
    # the platform folder's header is a hand-kept copy for builds without configure; configure.ac is the source
    assert (session.version, session.project.version_file) == ("1.6.3-stable", "configure.ac")
    assert (values["tag"], values["previous_tag"]) == ("release-1.6.3-stable", "release-1.6.2-stable")
    assert _passes(session, "version-bumped") and _passes(session, "changelog-entry")


# ----- a header named for its owner's version --------------------------------------------------------------------

ARES_HEADER = ("#define ARES_VERSION_MAJOR 1\n#define ARES_VERSION_MINOR 6\n#define ARES_VERSION_PATCH {p}\n"
               '#define ARES_VERSION_STR "1.6.{p}"\n')


def test_a_header_named_for_its_owners_version_beats_configure(make_repo, with_remote, data_dir):
    files = {"include/ares_version.h": ARES_HEADER.format(p=2), "configure.ac": "AC_INIT([c-ares], [1.6.2])\n"}
    bumped = {"include/ares_version.h": ARES_HEADER.format(p=3), "configure.ac": "AC_INIT([c-ares], [1.6.3])\n"}
    session = _session(make_repo, with_remote, data_dir, files, bumped=bumped)
    assert (session.version, session.project.version_file) == ("1.6.3", "include/ares_version.h")


# ----- scikit-build-core's regex version provider ----------------------------------------------------------------

SCIKIT = """[build-system]
requires = ["scikit-build-core"]
build-backend = "scikit_build_core.build"

[project]
name = "demo"
dynamic = ["version"]

[tool.scikit-build.metadata.version]
provider = "scikit_build_core.metadata.regex"
input = "include/demo/detail/common.h"
regex = '''(?sx)
\\#define \\s+ DEMO_VERSION_MAJOR \\s+ (?P<major>\\d+) .*?
\\#define \\s+ DEMO_VERSION_MINOR \\s+ (?P<minor>\\d+) .*?
\\#define \\s+ DEMO_VERSION_PATCH \\s+ (?P<patch>\\S+)
'''
result = "{major}.{minor}.{patch}"
"""
COMMON_H = "#define DEMO_VERSION_MAJOR 1\n#define DEMO_VERSION_MINOR 6\n#define DEMO_VERSION_PATCH {p}\n"
# the package's _version.py fills a template at run time: no version is written in it
RUNTIME_VERSION = '__version__ = "{major}.{minor}.{patch}".format(**match.groupdict())\n'


def test_the_scikit_build_regex_provider_names_the_version_file(make_repo, with_remote, data_dir):
    files = {"pyproject.toml": SCIKIT, "include/demo/detail/common.h": COMMON_H.format(p=2),
             "demo/__init__.py": "", "demo/_version.py": RUNTIME_VERSION}
    session = _session(make_repo, with_remote, data_dir, files,
                       bumped={"include/demo/detail/common.h": COMMON_H.format(p=3)})
    assert (session.version, session.project.version_file) == ("1.6.3", "include/demo/detail/common.h")
    assert _passes(session, "version-bumped")


def test_a_version_template_filled_at_run_time_is_no_version(make_repo, with_remote, data_dir):
    # without the provider table the header is still found: the template in _version.py does not stand in its way
    pyproject = SCIKIT.split("[tool.scikit-build")[0]
    files = {"pyproject.toml": pyproject, "include/demo/detail/common.h": COMMON_H.format(p=2),
             "demo/__init__.py": "", "demo/_version.py": RUNTIME_VERSION}
    session = _session(make_repo, with_remote, data_dir, files,
                       bumped={"include/demo/detail/common.h": COMMON_H.format(p=3)})
    assert (session.version, session.project.version_file) == ("1.6.3", "include/demo/detail/common.h")


def test_the_scikit_build_default_regex_reads_a_python_file(make_repo, with_remote, data_dir):
    pyproject = SCIKIT.split("regex =")[0].replace("include/demo/detail/common.h", "src/demo/__init__.py")
    files = {"pyproject.toml": pyproject, "src/demo/__init__.py": '__version__ = "1.6.2"\n'}
    session = _session(make_repo, with_remote, data_dir, files,
                       bumped={"src/demo/__init__.py": '__version__ = "1.6.3"\n'})
    assert (session.version, session.project.version_file) == ("1.6.3", "src/demo/__init__.py")


# ----- .NET: MinVer in the packed project, publishing through a script -----------------------------------------

CSPROJ = ('<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <MinVerTagPrefix>v</MinVerTagPrefix>\n'
          '  </PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include="MinVer" Version="6.0.0" />\n'
          '  </ItemGroup>\n</Project>\n')
RELEASE_YML = """name: Release

on:
  push:
    tags:
    - '*.*.*'
jobs:
  build:
    runs-on: windows-latest
    steps:
    - uses: actions/checkout@v4
    - name: Build
      run: ./Build.ps1
      shell: pwsh
    - name: Push to NuGet
      run: ./Push.ps1
      shell: pwsh
"""
PUSH_PS1 = 'Get-ChildItem ./artifacts -Filter "*.nupkg" | ForEach-Object { dotnet nuget push $_ --source $Env:URL }\n'


def test_minver_in_the_project_file_and_a_workflow_publishing_through_a_script(make_repo, with_remote, data_dir):
    files = {"Demo.sln": "", "src/Demo/Demo.csproj": CSPROJ, ".github/workflows/release.yml": RELEASE_YML,
             "Push.ps1": PUSH_PS1, "Build.ps1": "dotnet pack -c Release -o artifacts\n"}
    session = _session(make_repo, with_remote, data_dir, files, tag="v14.0.0")
    assert session.project.version_from_tags == "MinVer"
    assert _passes(session, "version-bumped")  # the tag is the version: no file to bump
    assert (session.publishing.kind, session.publishing.workflows) == ("ci-tag", (".github/workflows/release.yml",))


def test_a_script_that_does_not_publish_makes_no_publishing_workflow(make_repo, with_remote, data_dir):
    files = {"Demo.sln": "", "src/Demo/Demo.csproj": CSPROJ, ".github/workflows/release.yml": RELEASE_YML,
             "Push.ps1": "Write-Host 'nothing to push'\n", "Build.ps1": "dotnet pack\n"}
    session = _session(make_repo, with_remote, data_dir, files, tag="v14.0.0")
    assert session.publishing.kind != "ci-tag"


# ----- several packages tagging their own releases ---------------------------------------------------------------

HATCH_VCS = """[build-system]
requires = ["hatchling", "hatch-vcs"]
build-backend = "hatchling.build"

[project]
name = "demo"
dynamic = ["version"]

[tool.hatch.version]
source = "vcs"

[tool.hatch.version.raw-options]
git_describe_command = ["git", "describe", "--dirty", "--tags", "--long", "--match", "demo-v*"]
"""
WORKFLOW = "on:\n  push:\n    tags:\n    - {pattern}\njobs:\n  publish:\n    steps:\n    - run: uv publish\n"


def test_the_describe_pattern_names_the_packages_tags(make_repo, with_remote, data_dir):
    # the backend in the same repository tags more often, and higher: its tags are not this package's
    entry = "## [1.6.3] - 2026-08-30\n\n- Fix.\n\n"
    history = "# Demo history\n\n## Unreleased\n\n" + entry + "## [1.6.2] - 2026-08-01\n\n- Fix.\n"
    files = {"pyproject.toml": HATCH_VCS, "docs/history/demo.md": history.replace(entry, ""),
             "docs/history/demo-backend.md": "# Backend history\n\n## [1.9.0] - 2026-08-01\n\n- New.\n",
             ".github/workflows/build-demo.yml": WORKFLOW.format(pattern="demo-v*"),
             ".github/workflows/build-backend.yml": WORKFLOW.format(pattern="demo-backend-v*")}
    session = _session(make_repo, with_remote, data_dir, files, bumped={"docs/history/demo.md": history},
                       tag="demo-v1.6.2", earlier=("demo-backend-v1.8.0", "demo-v1.6.1", "demo-backend-v1.9.0"))
    values = session.placeholder_values()
    assert (values["tag"], values["previous_tag"]) == ("demo-v1.6.3", "demo-v1.6.2")
    assert session.project.changelog_file == os.path.join("docs", "history", "demo.md")
    assert session.publishing.workflows == (".github/workflows/build-demo.yml",)  # not the backend's
    assert _passes(session, "changelog-entry")


# ----- release notes kept per release line -----------------------------------------------------------------------

SERIES = ("Project: demo\n\n=== Releases ===\n\n{top}1.6.2 (13-Jun-2025)\n\n#12: a fix\n\n"
          "1.6.1 (01-May-2025)\n\n#10: x\n")


def test_a_notes_folder_kept_per_release_line_names_its_file(make_repo, with_remote, data_dir):
    files = {"release-notes/VERSION-1.x": SERIES.format(top=""),
             "release-notes/CREDITS-1.x": "Credits for 1.x\n\nJane (1.5)\n"}
    bumped = {"release-notes/VERSION-1.x": SERIES.format(top="1.6.3 (30-Aug-2025)\n\n- Fix.\n\n")}
    session = _session(make_repo, with_remote, data_dir, files, bumped=bumped, tag="1.6.2")
    assert session.project.changelog_file == os.path.join("release-notes", "VERSION-1.x")
    assert _passes(session, "changelog-entry")


def test_a_folder_of_one_file_per_release_stays_a_folder(make_repo, with_remote, data_dir):
    files = {"release-notes/1.6.2.md": "# 1.6.2\n\n- Fix.\n", "release-notes/1.6.1.md": "# 1.6.1\n\n- Fix.\n"}
    session = _session(make_repo, with_remote, data_dir, files, tag="1.6.2")
    assert session.project.changelog_file == "release-notes"


# ----- a release procedure kept in a contributor guide -----------------------------------------------------------

GUIDE = """Contributing
============

Running the tests
-----------------

#. Install tox.
#. Run ``tox -e py``.

Making a new release
--------------------

A checklist for a new version.

#. Update :file:`docs/changelog.rst`

   .. code-block:: bash

      tox -e changelog -- --version $VERSION

#. Create a new git tag for the version

   .. code-block:: bash

      git tag -m "Release v$VERSION" $VERSION

#. Push to start the release

   .. code-block:: bash

      git push upstream $VERSION

Future development
------------------

#. See the open issues.
#. Join the chat.
"""


def test_a_guides_release_section_is_the_procedure(make_repo, with_remote, data_dir):
    section = release_section(GUIDE) or ""
    assert section.startswith("Making a new release") and "Future development" not in section
    session = _session(make_repo, with_remote, data_dir, {"docs/contributing.rst": GUIDE}, tag="1.6.2")
    assert session.loaded.source == "adopted"
    assert os.path.relpath(session.loaded.path, str(session.repo)) == os.path.join("docs", "contributing.rst")
    titles = [session.title_of(step) for step in session.steps]
    assert "Update :file:`docs/changelog.rst`" in titles  # the directive below it is its detail, not its title
    assert not any("tox" in title or "open issues" in title for title in titles)  # other sections are no steps
    assert _builtin(session, "clean-tree") and _builtin(session, "version-bumped") and _builtin(session, "tag-free")


def test_a_guides_pointer_to_a_release_script_is_no_procedure(make_repo, with_remote, data_dir):
    guide = ("# Contributing\n\n## Releasing\n\nIf you can publish to npm, you can cut a release.\n\n"
             "Run the release script:\n\n```sh\nnpm run release -- --local false\n```\n")
    session = _session(make_repo, with_remote, data_dir, {"CONTRIBUTING.md": guide}, tag="1.6.2")
    assert session.loaded.source == "default"


# ----- workflows that publish nothing real -----------------------------------------------------------------------

REHEARSAL = """on: [push]
jobs:
  # publish-pypi:
  #   if: startsWith(github.ref, 'refs/tags/')
  #   steps:
  #     - uses: pypa/gh-action-pypi-publish@release/v1
  publish-testpypi:
    name: Publish the package to test.pypi.org
    if: startsWith(github.ref, 'refs/tags/')
    steps:
      - uses: pypa/gh-action-pypi-publish@release/v1
        with:
          repository-url: https://test.pypi.org/legacy/
  github-release:
    needs: [publish-testpypi]
    steps:
      - run: gh release create '${{ github.ref_name }}'
      - run: gh release upload '${{ github.ref_name }}' dist/**
"""
FLIT_STATIC = '[build-system]\nrequires = ["flit_core"]\nbuild-backend = "flit_core.buildapi"\n\n' \
              '[project]\nname = "demo"\nversion = "{v}"\n'


def test_a_testpypi_rehearsal_and_a_commented_out_job_do_not_publish(make_repo, with_remote, data_dir):
    files = {"pyproject.toml": FLIT_STATIC.format(v="1.6.2"), ".github/workflows/release.yml": REHEARSAL}
    session = _session(make_repo, with_remote, data_dir, files,
                       bumped={"pyproject.toml": FLIT_STATIC.format(v="1.6.3")}, tag="1.6.2")
    assert session.publishing.kind == "command" and "twine upload" in session.publishing.command


def test_the_real_upload_beside_a_testpypi_one_publishes(make_repo, with_remote, data_dir):
    real = REHEARSAL.replace("  # publish-pypi:\n  #   if: startsWith(github.ref, 'refs/tags/')\n  #   steps:\n"
                             "  #     - uses: pypa/gh-action-pypi-publish@release/v1\n",
                             "  publish-pypi:\n    steps:\n      - uses: pypa/gh-action-pypi-publish@release/v1\n")
    files = {"pyproject.toml": FLIT_STATIC.format(v="1.6.2"), ".github/workflows/release.yml": real}
    session = _session(make_repo, with_remote, data_dir, files,
                       bumped={"pyproject.toml": FLIT_STATIC.format(v="1.6.3")}, tag="1.6.2")
    assert (session.publishing.kind, session.publishing.workflows) == ("ci-tag", (".github/workflows/release.yml",))


# ----- the Maven Release Plugin ---------------------------------------------------------------------------------

POM = ('<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>org.example</groupId>\n'
       '  <artifactId>demo</artifactId>\n  <version>{v}</version>\n</project>\n')


def test_a_maven_release_plugin_project_publishes_with_release_perform(make_repo, with_remote, data_dir):
    files = {"pom.xml": POM.format(v="1.6.2"), "mvnw": "#!/bin/sh\n",
             "release.sh": "#!/bin/bash\n./mvnw release:clean release:prepare -DpushChanges=false\n"}
    session = _session(make_repo, with_remote, data_dir, files, bumped={"pom.xml": POM.format(v="1.6.3")},
                       tag="demo-1.6.2")
    assert (session.publishing.kind, session.publishing.command) == ("command", "./mvnw release:perform")
    assert any(step.command == "./mvnw release:perform" for step in session.steps)


def test_a_maven_project_without_the_release_plugin_is_not_offered_release_perform(make_repo, with_remote,
                                                                                   data_dir):
    files = {"pom.xml": POM.format(v="1.6.2"), "mvnw": "#!/bin/sh\n"}
    session = _session(make_repo, with_remote, data_dir, files, bumped={"pom.xml": POM.format(v="1.6.3")},
                       tag="demo-1.6.2")
    assert "release:perform" not in (session.publishing.command or "")
