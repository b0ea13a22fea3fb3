"""The classes behind round 4 draw A's misses (issue 26), each on a repository of its own kind: release titles
indented under a dated line, XML changelogs, JS monorepos published by lerna or changesets, a build script's
publish target, a release document that publishes another way than the ecosystem's command, and a
package.json that is another ecosystem's companion."""
from __future__ import annotations

import pytest
from release_checklist import StepKind
from release_checklist.project_files import changelog_mentions, top_changelog_version
from tagged_repos import released_session

DATED_TITLES = """Monday, March 2, 2026 / The Project Team
  Summary for 2.4.1 tool release
    Fixes:
      Handle an empty input without crashing.

Friday, January 9, 2026 / The Project Team
  Summary for 2.4.0 tool release
    Features:
      Read configuration from the environment.
      Bump version to 2.3.9 in the docs

"""


def test_release_titles_indented_under_a_dated_line_are_entries():
    assert changelog_mentions(DATED_TITLES, "2.4.1") == 2
    assert changelog_mentions(DATED_TITLES, "2.4.0") == 7
    assert top_changelog_version(DATED_TITLES, "2.4.0") == "2.4.1"
    assert changelog_mentions(DATED_TITLES, "2.3.9") is None  # a line of the notes, not a title


XML_CHANGES = """<?xml version="1.0" ?>
<change_log title="tool">

<changes ver="{new}" date="2026-08-30">
<change type="bugfix"><para>a crash was fixed.</para></change>
</changes>

<changes ver="1.6.2" date="2026-05-01">
<change type="feature"><para>a new directive.</para></change>
</changes>
</change_log>
"""


_session = released_session


def _run(session, name):
    step = next(step for step in session.steps if (step.command or "").startswith("release-check " + name))
    return session.run_step(step.id)


def test_an_xml_changelog_deep_in_docs_is_found_and_its_entry_checked(make_repo, with_remote, data_dir):
    files = {"VERSION": "1.6.2\n", "docs/xml/tool/changes.xml": XML_CHANGES.replace('<changes ver="{new}"', "<x")}
    session = _session(make_repo, with_remote, data_dir, files, tag="release-1.6.2",
                       bumped={"VERSION": "1.6.3\n", "docs/xml/tool/changes.xml": XML_CHANGES.format(new="1.6.3")})
    assert session.version == "1.6.3"
    assert session.project.changelog_file.replace("\\", "/") == "docs/xml/tool/changes.xml"
    assert _run(session, "changelog-entry").state == "passed"
    assert changelog_mentions('<?xml version="1.6.3" ?>', "1.6.3") is None  # the XML declaration is not an entry


@pytest.mark.parametrize("files, command", [
    ({"lerna.json": '{"version": "1.6.3", "npmClient": "yarn"}\n', "yarn.lock": "\n"},
     "yarn lerna publish from-package"),
    ({".changeset/config.json": "{}\n", "pnpm-lock.yaml": "lockfileVersion: 9\n"}, "pnpm changeset publish"),
])
def test_a_js_monorepo_is_published_by_its_monorepo_tool(make_repo, with_remote, data_dir, files, command):
    root = {"package.json": '{"name": "root", "private": true, "version": "0.0.0", "workspaces": ["packages/*"]}\n',
            "packages/core/package.json": '{"name": "@acme/core", "version": "1.6.2"}\n', **files}
    session = _session(make_repo, with_remote, data_dir, root)
    assert (session.publishing.kind, session.publishing.command) == ("command", command)
    assert any(step.kind == StepKind.TERMINAL and step.command == command and step.irreversible
               for step in session.steps)


@pytest.mark.parametrize("files, command", [
    ({"build.ps1": "param([string[]]$targets = 'default')\ntarget default -depends test\ntarget publish {\n"
                   "  exec { dotnet nuget push }\n}\n", "src/Lib/Lib.csproj": '<Project Sdk="Microsoft.NET.Sdk"/>\n'},
     "pwsh ./build.ps1 publish"),
    ({"Makefile": "all:\n\tcc -o tool tool.c\n\npublish: all\n\t./upload.sh\n", "configure.ac": "AC_INIT([t], [1])\n"},
     "make publish"),
    ({"justfile": "test:\n    cargo test\n\npublish version:\n    cargo publish\n",
      "Cargo.toml": '[package]\nname = "tool"\nversion = "1.6.2"\n'}, "just publish"),
])
def test_the_projects_own_publish_target_beats_the_generic_command(make_repo, with_remote, data_dir, files, command):
    session = _session(make_repo, with_remote, data_dir, files)
    assert (session.publishing.kind, session.publishing.command) == ("command", command)


def test_a_makefile_without_a_publish_target_is_not_a_publisher(make_repo, with_remote, data_dir):
    session = _session(make_repo, with_remote, data_dir, {"Makefile": "all:\n\tcc -o tool tool.c\n\nrelease_notes:\n"
                                                                      "\t./notes.sh\n", "configure.ac": "AC_INIT\n"})
    assert session.publishing.kind == "manual"


GRADLE = 'plugins {\n  `maven-publish`\n}\n'
CI_SERVER_PROCEDURE = """# Releasing

1. Bump the version in `gradle.properties` and commit it.
2. Tag the release: `git tag {version}` and push the tag.
3. On the CI server, run the deployment build and upload the deployment to the Central Portal.
4. Publish the deployment in the Central Portal once it is validated.
"""
GRADLE_PROCEDURE = """# Releasing

1. Bump the version in `gradle.properties` and commit it.
2. Tag the release: `git tag {version}` and push the tag.
3. Publish: `./gradlew publish`
"""


def test_a_release_document_that_publishes_another_way_replaces_the_generic_command(make_repo, with_remote, data_dir):
    session = _session(make_repo, with_remote, data_dir, {"build.gradle.kts": GRADLE,
                                                          "RELEASING.md": CI_SERVER_PROCEDURE})
    assert session.loaded.source == "adopted"
    assert (session.publishing.kind, session.publishing.document) == ("manual", "RELEASING.md")
    assert not any("gradlew publish" in (step.command or "") or "gradle publish" in (step.command or "")
                   for step in session.steps)
    same = _session(make_repo, with_remote, data_dir + "2", {"build.gradle.kts": GRADLE, "gradlew": "#!/bin/sh\n",
                                                              "RELEASING.md": GRADLE_PROCEDURE})
    assert (same.publishing.kind, same.publishing.command) == ("command", "./gradlew publish")


def test_a_package_json_beside_mix_exs_is_its_companion(make_repo, with_remote, data_dir):
    mix = 'defmodule Web.MixProject do\n  @version "{}"\n  def project, do: [app: :web, version: @version]\nend\n'
    package = '{{"name": "web", "version": "{}", "main": "./priv/static/web.js"}}\n'
    session = _session(make_repo, with_remote, data_dir, {"mix.exs": mix.format("1.6.2"),
                                                          "package.json": package.format("1.6.2")},
                       bumped={"mix.exs": mix.format("1.6.3"), "package.json": package.format("1.6.3")})
    assert (session.version, session.project.version_file) == ("1.6.3", "mix.exs")
