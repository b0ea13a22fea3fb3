"""Release flows read from the project (issue 26, draw A): a dispatch workflow that bumps, publishes and tags
itself, one crate of a workspace published alone, and the tests step of a package with a JS companion."""
from __future__ import annotations

from release_checklist import ReleaseSession, StepKind
from release_checklist.project_files import detect_project

SELF_TAGGING = """name: Publish release
on:
  workflow_dispatch:
    inputs:
      version:
        description: 'The version number to tag and release'
        required: true
jobs:
  release:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: node build/sync-version.js ${{ inputs.version }}
      - run: |
          git commit -n -a -m "Bumped v${{ inputs.version }}"
          git push origin HEAD:${{ github.ref }}
      - run: npm publish --access public
      - run: gh release create v${{ inputs.version }} --generate-notes
"""
PACKAGE = '{"name": "demo", "version": "10.3.1", "scripts": {"test": "node test.js"}}\n'


def test_a_workflow_that_bumps_and_tags_itself_is_started_instead_of_tagging(make_repo, with_remote, data_dir):
    repo = make_repo(version=None, files={"package.json": PACKAGE,
                                          ".github/workflows/publish-release.yml": SELF_TAGGING})
    with_remote(repo)
    repo.git("tag", "-a", "v10.3.1", "-m", "v10.3.1")
    repo.write("lib.js", "module.exports = 1\n")
    repo.commit("fix")
    session = ReleaseSession(str(repo.path), data_dir)
    # package.json still says the last release: the workflow is given the next version and bumps it itself.
    assert (session.version, session.tag) == ("10.3.2", "v10.3.2")
    commands = [session.command_of(step) for step in session.steps if step.kind == StepKind.TERMINAL]
    assert commands == ["git push origin main"]  # never the tag: the workflow's own tag would collide
    assert not any((step.command or "").startswith("release-check version-bumped") for step in session.steps)
    start = session.step("start-the-release-workflow")
    said = session.command_of(start) or ""
    assert ".github/workflows/publish-release.yml with the version 10.3.2" in said and "v10.3.2" in said
    assert session.step("tag-is-not-taken-yet").kind == StepKind.CHECK
    # The same workflow without the tag (it only publishes what it is started on) keeps the maintainer's tag.
    other = make_repo(version=None, files={"package.json": PACKAGE, ".github/workflows/publish-release.yml":
                                           SELF_TAGGING.replace("      - run: gh release create v${{ inputs.version }}"
                                                                " --generate-notes\n", "")})
    kept = ReleaseSession(str(other.path), data_dir + "-other")
    assert any((step.command or "").startswith("git push --atomic") for step in kept.steps)


def test_one_crate_of_a_workspace_is_published_alone(make_repo, data_dir):
    repo = make_repo(version=None, files={
        "Cargo.toml": '[workspace]\nmembers = ["axum", "axum-core"]\n',
        "axum/Cargo.toml": '[package]\nname = "axum"\nversion = "0.8.10"\n',
        "axum-core/Cargo.toml": '[package]\nname = "axum-core"\nversion = "0.5.6"\n'})
    repo.path = repo.path.rename(repo.path.parent / "axum")
    session = ReleaseSession(str(repo.path), data_dir)
    assert session.publishing is not None and session.publishing.command == "cargo publish -p axum"
    plain = make_repo(version=None, files={"Cargo.toml": '[workspace]\nmembers = ["a", "b"]\n',
                                           "a/Cargo.toml": '[package]\nname = "a"\nversion = "1.0.0"\n'})
    assert ReleaseSession(str(plain.path), data_dir + "-plain").publishing.command == "cargo publish --workspace"


def test_the_tests_step_follows_the_primary_package_not_its_js_companion(make_repo):
    mix = 'defmodule Phoenix.MixProject do\n  use Mix.Project\n  @version "1.8.12"\nend\n'
    repo = make_repo(version=None, files={"mix.exs": mix, "package.json": PACKAGE.replace("10.3.1", "1.8.12")})
    project = detect_project(str(repo.path))
    assert (project.version_file, project.test_command) == ("mix.exs", "mix test")
    alone = make_repo(version=None, files={"package.json": PACKAGE})
    assert detect_project(str(alone.path)).test_command == "npm test"


def test_the_panel_says_the_workflow_is_started_with_the_version(make_repo, data_dir):
    from release_checklist.text import TEXT
    from release_checklist.view_release import publishing_line

    repo = make_repo(version=None, files={"package.json": PACKAGE,
                                          ".github/workflows/publish-release.yml": SELF_TAGGING})
    repo.git("tag", "-a", "v10.3.1", "-m", "v10.3.1")
    session = ReleaseSession(str(repo.path), data_dir)
    lines = {language: publishing_line(session, TEXT.for_language(language)) for language in ("en", "ja", "ko", "zh")}
    assert lines["en"] == ("Start .github/workflows/publish-release.yml with 10.3.2: it bumps the version, publishes "
                           "and creates v10.3.2 itself.")
    assert all("10.3.2" in line and "v10.3.2" in line and line != lines["en"] for language, line in lines.items()
               if language != "en")


def test_an_nx_release_monorepo_is_published_with_nx(make_repo, data_dir):
    repo = make_repo(version=None, files={
        "package.json": '{"name": "root", "private": true, "workspaces": ["packages/*"]}\n', "pnpm-lock.yaml": "\n",
        "nx.json": '{"release": {"projects": ["packages/*"]}}\n',
        "packages/core/package.json": '{"name": "@x/core", "version": "2.0.0"}\n'})
    session = ReleaseSession(str(repo.path), data_dir)
    assert session.publishing is not None and session.publishing.command == "pnpm nx release publish"


RELEASE_PLEASE = """name: release-please
on:
  push:
    branches: [main]
jobs:
  release-please:
    runs-on: ubuntu-latest
    steps:
      - uses: googleapis/release-please-action@v4
        id: release
      - run: npm publish
        if: ${{ steps.release.outputs.release_created }}
"""


def test_a_release_please_project_merges_its_release_pull_request(make_repo, data_dir):
    from release_checklist.text import TEXT
    from release_checklist.view_release import publishing_line

    repo = make_repo(version=None, files={"package.json": PACKAGE, ".github/workflows/release.yml": RELEASE_PLEASE})
    repo.git("tag", "-a", "v10.3.1", "-m", "v10.3.1")
    session = ReleaseSession(str(repo.path), data_dir)
    assert session.publishing is not None and session.publishing.release_pr
    assert not any((step.command or "").startswith(("git tag", "git push --atomic", "release-check version-bumped"))
                   for step in session.steps)
    assert "merging it bumps the version" in (session.command_of(session.step("merge-the-release-pull-request")) or "")
    lines = {language: publishing_line(session, TEXT.for_language(language)) for language in ("en", "ja", "ko", "zh")}
    assert all("v10.3.2" in line and "release-please" in line for line in lines.values())
