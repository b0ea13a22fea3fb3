"""The classes behind round 5's misses (issue 26), each on a repository shaped like the convention: version
macros and build files of C/C++ projects, capital-V changelog titles, workflows that attach files to the
GitHub release, run a release tool's publish, write the changelog after the tag or make the tag from the
bumped files, a gemspec reading a VERSION file, setuptools' attr re-exported, and release documents kept in
templates, in a release tool's folder, as a single command, or as alternative procedures."""
from __future__ import annotations

import pytest
from release_checklist import StepKind
from release_checklist.project_files import changelog_mentions, top_changelog_version
from tagged_repos import released_session

_session = released_session


def _run(session, name):
    step = next(step for step in session.steps if (step.command or "").startswith("release-check " + name))
    return session.run_step(step.id)


def _builtin(session, name):
    return next((step for step in session.steps if (step.command or "").startswith("release-check " + name)), None)


# ----- changelog titles --------------------------------------------------------------------------------------

CAPITAL_V = "V{new} (Mar 2026)\n- a fix\n\nV1.6.2 (Jan 2026)\napi: a change\n\nv1.6.1 (Dec 2025)\n- older\n"


def test_capital_v_titles_are_entries(make_repo, with_remote, data_dir):
    text = CAPITAL_V.format(new="1.6.3")
    assert changelog_mentions(text, "1.6.3") == 1
    assert changelog_mentions(text, "1.6.2") == 4
    assert top_changelog_version(text, "1.6.2") == "1.6.3"
    session = _session(make_repo, with_remote, data_dir, {"VERSION": "1.6.2\n", "CHANGELOG": "x\n" + CAPITAL_V.format(
        new="1.6.2").split("\n", 3)[3]}, bumped={"VERSION": "1.6.3\n", "CHANGELOG": text})
    assert _run(session, "changelog-entry").state == "passed"


def test_bullet_titles_with_several_spaces_before_the_version():
    text = "-   2.1.0 (2026-03-01)\n    - a fix\n-   2.0.9 (2026-01-01)\n    - another\n"
    assert top_changelog_version(text, "2.0.9") == "2.1.0"
    assert changelog_mentions(text, "2.0.9") == 3


# ----- C/C++ versions ----------------------------------------------------------------------------------------

HEADER = ("#define TOOL_VERSION_MAJOR    1\n#define TOOL_VERSION_MINOR    6\n#define TOOL_VERSION_{part}  {n}\n"
          "#define TOOL_VERSION_NUMBER (TOOL_VERSION_MAJOR*10000 + TOOL_VERSION_MINOR*100)\n")


@pytest.mark.parametrize("part", ["RELEASE", "REVISION"])
def test_the_third_number_macro_may_be_called_release_or_revision(make_repo, with_remote, data_dir, part):
    session = _session(make_repo, with_remote, data_dir, {"lib/tool.h": HEADER.format(part=part, n=2)},
                       bumped={"lib/tool.h": HEADER.format(part=part, n=3)})
    assert (session.version, session.project.version_file) == ("1.6.3", "lib/tool.h")
    assert _run(session, "version-bumped").state == "passed"


@pytest.mark.parametrize("name, text", [
    ("CMakeLists.txt", "cmake_minimum_required(VERSION 3.16)\nproject(tool-distribution)\n"
                       "set(TOOL_VERSION {v})\nset(CMAKE_CXX_STANDARD 17)\n"),
    ("CMakeLists.txt", "cmake_minimum_required(VERSION 3.16)\nproject(tool\n  VERSION {v}\n  LANGUAGES C)\n"),
    ("meson.build", "project('tool', 'c',\n  version : '{v}',\n  license : 'MIT')\n"),
    ("MODULE.bazel", 'module(\n    name = "tool",\n    version = "{v}",\n)\n\n'
                     'bazel_dep(name = "x", version = "2.0.1")\n'),
])
def test_a_c_projects_build_file_gives_its_version(make_repo, with_remote, data_dir, name, text):
    session = _session(make_repo, with_remote, data_dir, {name: text.format(v="1.6.2"), "src/tool.c": "int x;\n"},
                       bumped={name: text.format(v="1.6.3")})
    assert (session.version, session.project.version_file) == ("1.6.3", name)
    assert _run(session, "version-bumped").state == "passed"


def test_another_projects_version_in_cmake_is_not_ours(make_repo, with_remote, data_dir):
    text = "cmake_minimum_required(VERSION 3.16)\nproject(tool)\nset(ZLIB_VERSION 2.0.1)\n"
    session = _session(make_repo, with_remote, data_dir, {"CMakeLists.txt": text})
    assert session.project.version_file is None


# ----- publishing workflows ----------------------------------------------------------------------------------

ASSETS_ON_RELEASE = """name: publish-release-artifacts
on:
  release:
    types:
      - published
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: make tarball
      - name: Publish
        uses: someone/github-action-publish-binaries@b9ca5643b2f1d7371a6cba7f35333f1461bbc703 # release-2.0
        with:
          args: artifacts/*
"""


@pytest.mark.parametrize("action", ["someone/github-action-publish-binaries", "svenstaro/upload-release-action",
                                    "actions/upload-release-asset"])
def test_attaching_files_to_the_published_release_is_publishing(make_repo, with_remote, data_dir, action):
    workflow = ASSETS_ON_RELEASE.replace("someone/github-action-publish-binaries", action)
    session = _session(make_repo, with_remote, data_dir, {"VERSION": "1.6.2\n",
                                                          ".github/workflows/artifacts.yml": workflow})
    assert (session.publishing.kind, session.publishing.workflows) == (
        "ci-release", (".github/workflows/artifacts.yml",))


TOOL_PUBLISH = """name: Release
on:
  push:
    tags: ["v*"]
jobs:
  npm-release:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: make prepublish
      - name: Publish to npm
        run: yarn release-tool publish --yes
"""
WRITES_CHANGELOG = """
  github-push:
    needs: npm-release
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: some/update-changelog@v2
        with:
          filename: CHANGELOG.md
      - name: Commit CHANGELOG.md
        run: |
          git add CHANGELOG.md
          git commit -m "Add ${{ github.ref_name }} to CHANGELOG.md"
      - run: git push origin HEAD:main
"""
MONOREPO = {"package.json": '{"name": "root", "private": true, "version": "1.6.2", "workspaces": ["packages/*"]}\n',
            "packages/core/package.json": '{"name": "@acme/core", "version": "1.6.1"}\n',
            "CHANGELOG.md": "# Changelog\n\n## v1.6.1 (2026-01-01)\n\n- a fix\n"}


def test_a_release_tools_publish_run_by_the_package_manager_publishes(make_repo, with_remote, data_dir):
    session = _session(make_repo, with_remote, data_dir, {**MONOREPO, ".github/workflows/release.yml": TOOL_PUBLISH},
                       bumped={"package.json": MONOREPO["package.json"].replace("1.6.2", "1.6.3")})
    assert (session.publishing.kind, session.publishing.runs) == ("ci-tag", ("npm",))
    assert session.publishing.writes_changelog is None
    assert _builtin(session, "changelog-entry") is not None  # the maintainer writes the entry


def test_a_changelog_the_tags_workflow_commits_is_not_due_before_tagging(make_repo, with_remote, data_dir):
    files = {**MONOREPO, ".github/workflows/release.yml": TOOL_PUBLISH + WRITES_CHANGELOG}
    session = _session(make_repo, with_remote, data_dir, files,
                       bumped={"package.json": MONOREPO["package.json"].replace("1.6.2", "1.6.3")})
    assert session.publishing.writes_changelog == "CHANGELOG.md"
    assert _builtin(session, "changelog-entry") is None
    note = next(step for step in session.steps if step.kind == StepKind.MANUAL and "CHANGELOG.md" in (
        session.command_of(step) or ""))
    assert "after the tag is pushed" in session.command_of(note)
    assert _run(session, "version-bumped").state == "passed"


TAG_FROM_FILES = """name: Publish
on:
  pull_request:
    types: [closed]
    branches: [main]
  workflow_dispatch:
jobs:
  publish:
    if: github.event_name == 'workflow_dispatch' || github.event.pull_request.merged == true
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: get-npm-version
        id: package-version
        uses: someone/npm-get-version-action@main
      - name: "Push tag v${{ steps.package-version.outputs.current-version }}"
        uses: someone/action-create-tag@v1
        with:
          tag: "v${{ steps.package-version.outputs.current-version }}"
      - run: npm publish --access public
"""


SHELL_TAG = """name: Release
on:
  push:
    branches: [main]
jobs:
  release:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm publish
      - run: |
          git tag "v$(node -p "require('./package.json').version")"
          git push origin --tags
"""


@pytest.mark.parametrize("workflow", [TAG_FROM_FILES, SHELL_TAG])
def test_a_workflow_that_tags_the_bumped_version_gets_only_the_branch(make_repo, with_remote, data_dir, workflow):
    package = '{{"name": "tool", "version": "{}"}}\n'
    session = _session(make_repo, with_remote, data_dir, {"package.json": package.format("1.6.2"),
                                                          ".github/workflows/publish.yml": workflow},
                       bumped={"package.json": package.format("1.6.3")})
    assert (session.publishing.kind, session.publishing.tags_from_files) == ("ci-dispatch", True)
    assert session.version == "1.6.3" and _run(session, "version-bumped").state == "passed"
    pushes = [session.command_of(step) for step in session.steps if step.kind == StepKind.TERMINAL]
    assert pushes == ["git push origin main"]  # no tag made or pushed here: the workflow makes v1.6.3
    given = _session(make_repo, with_remote, data_dir + "2", {
        "package.json": package.format("1.6.2"), ".github/workflows/publish.yml": TAG_FROM_FILES.replace(
            "steps.package-version.outputs.current-version", "github.event.inputs.version")})
    assert not given.publishing.tags_from_files  # a version given by hand is another class (tags_itself)


# ----- version sources ---------------------------------------------------------------------------------------

GEMSPEC = ("version = File.read(File.expand_path('VERSION', __dir__)).strip\n\n"
           "Gem::Specification.new 'tool', version do |s|\n  s.summary = 'a tool'\nend\n")


def test_a_gemspec_reading_a_version_file_makes_it_the_source(make_repo, with_remote, data_dir):
    files = {"tool.gemspec": GEMSPEC, "VERSION": "1.6.2\n",
             "lib/tool/version.rb": "module Tool\n  VERSION = '1.6.2'\nend\n"}
    session = _session(make_repo, with_remote, data_dir, files, bumped={"VERSION": "1.6.3\n"})
    assert (session.version, session.project.version_file) == ("1.6.3", "VERSION")


@pytest.mark.parametrize("init", ["from tool._meta import __version__  # noqa\n",
                                  "from ._meta import __version__\n"])
def test_setuptools_attr_reexported_from_a_version_module(make_repo, with_remote, data_dir, init):
    pyproject = ('[project]\nname = "tool"\ndynamic = ["version"]\n\n[tool.setuptools.dynamic]\n'
                 'version = { attr = "tool.__version__" }\n')
    files = {"pyproject.toml": pyproject, "tool/__init__.py": "import os\n\n" + init,
             "tool/_meta.py": "# banner\n__version__ = \"1.6.2\"\n"}
    session = _session(make_repo, with_remote, data_dir, files,
                       bumped={"tool/_meta.py": "# banner\n__version__ = \"1.6.3\"\n"})
    assert (session.version, session.project.version_file) == ("1.6.3", "tool/_meta.py")
    assert _run(session, "version-bumped").state == "passed"


# ----- release documents -------------------------------------------------------------------------------------

PR_TEMPLATE = """* [ ]  See if all tests pass
* [ ]  Squash merge the release pull request with message "`Release <VERSION>`"
* [ ]  Tag with X.Y.Z, push tag on the main repository
  * ```
    export VERSION=<X.Y.Z>
    git tag -s -a "$VERSION" -m "Release: $VERSION"
    git push origin --tags
    ```
* [ ]  Ensure that all expected artifacts are added to the new GitHub release draft
* [ ]  Announce on social media
"""


def test_a_release_pull_request_template_is_the_procedure(make_repo, with_remote, data_dir):
    session = _session(make_repo, with_remote, data_dir, {
        "VERSION": "1.6.2\n", ".github/PULL_REQUEST_TEMPLATE/release.md": PR_TEMPLATE,
        ".github/ISSUE_TEMPLATE/bug_report.md": "* Steps to reproduce\n* Git tag used\n"}, tag="1.6.2",
        bumped={"VERSION": "1.6.3\n"})
    assert session.loaded.source == "adopted"
    assert session.loaded.path.replace("\\", "/").endswith(".github/PULL_REQUEST_TEMPLATE/release.md")
    titles = [session.title_of(step) for step in session.steps]
    # the code block opened on a sub-item's own line stays inside that item: the steps after it are read
    assert "Announce on social media" in titles and "Ensure that all expected artifacts are added to the new " \
        "GitHub release draft" in titles
    assert all(_builtin(session, name) for name in ("clean-tree", "version-bumped", "tag-free"))


@pytest.mark.parametrize("where", ["release/README.md", "scripts/release/README.md"])
def test_a_release_tools_readme_is_the_procedure(make_repo, with_remote, data_dir, where):
    readme = ("# Release script\n\n## Usage\n\n```sh\nnode ./scripts/release/release.js\n```\n\n## Flags\n\n"
              "| Flag | Description |\n| --- | --- |\n| `--dry` | Dry run |\n")
    package = '{{"name": "tool", "version": "{}"}}\n'
    session = _session(make_repo, with_remote, data_dir, {"package.json": package.format("1.6.2"), where: readme,
                                                          "scripts/release/release.js": "run();\n"},
                       bumped={"package.json": package.format("1.6.3")})
    assert session.loaded.source == "adopted"
    assert any(step.kind == StepKind.TERMINAL and step.command == "node ./scripts/release/release.js"
               for step in session.steps)
    assert all(_builtin(session, name) for name in ("clean-tree", "version-bumped", "tag-free"))


def test_a_readme_of_another_folder_is_no_procedure(make_repo, with_remote, data_dir):
    readme = "# Scripts\n\n```sh\nnode ./scripts/build.js\n```\n"
    session = _session(make_repo, with_remote, data_dir, {"VERSION": "1.6.2\n", "scripts/README.md": readme})
    assert session.loaded.source == "default"


@pytest.mark.parametrize("name, text, command", [
    ("RELEASING.md", "# Releasing Tool\n\nTo create a new release:\n\n```\npipenv run invoke release.release\n```\n",
     "pipenv run invoke release.release"),
    ("RELEASING.md", "# Releasing\n\nFrom a clean main:\n\n```\nbundle exec rake release\n```\n",
     "bundle exec rake release"),
    ("RELEASING.md", "# Releasing\n\n1. Update `CHANGELOG.md`\n1. Update `VERSION` file with target version\n"
                     "1. Run `rake release:commit_version`\n1. Push tag to upstream\n"
                     "1. Run `rake release:watch` and watch GitHub Actions push to RubyGems.org\n",
     "rake release:commit_version"),
])
def test_a_document_named_for_releasing_with_its_commands_is_adopted(make_repo, with_remote, data_dir, name, text,
                                                                     command):
    session = _session(make_repo, with_remote, data_dir, {"VERSION": "1.6.2\n", name: text},
                       bumped={"VERSION": "1.6.3\n"})
    assert session.loaded.source == "adopted"
    assert any(step.kind == StepKind.TERMINAL and step.command == command for step in session.steps)


def test_a_releases_page_with_a_command_is_still_no_procedure(make_repo, with_remote, data_dir):
    policy = "# Releases\n\nWe support the last two minor versions.\n\n```\npython -m pip install tool==1.6\n```\n"
    session = _session(make_repo, with_remote, data_dir, {"VERSION": "1.6.2\n", "docs/releases.md": policy})
    assert session.loaded.source == "default"


TWO_WAYS = """Release Process
===============

Creating a new release
----------------------

#. Create a new ``release/YY.N`` branch off ``main``.
#. Run ``nox -s prepare-release -- YY.N``.
#. Submit the branch as a pull request and merge it.
#. Push the tag created by ``prepare-release``.
#. Approve the publishing step of the release workflow.
#. Regenerate the installer script and commit it.

Creating a bug-fix release
--------------------------

#. Create a new ``release/YY.N.Z+1`` branch off of the ``YY.N`` tag.
#. Cherry pick the fixed commits off of the ``main`` branch.
#. Run ``nox -s prepare-release -- YY.N.Z+1``.
#. Once tests run, merge the branch into ``main``, and follow the above release process starting with step 5.
"""


@pytest.mark.parametrize("bumped, wanted, unwanted", [
    ("1.6.3", "Cherry pick the fixed commits off of the ``main`` branch", "Submit the branch as a pull request"),
    ("1.7.0", "Submit the branch as a pull request and merge it", "Cherry pick the fixed commits"),
])
def test_of_alternative_procedures_the_releases_kind_picks_one(make_repo, with_remote, data_dir, bumped, wanted,
                                                                unwanted):
    session = _session(make_repo, with_remote, data_dir, {"VERSION": "1.6.2\n", "docs/release-process.rst": TWO_WAYS},
                       bumped={"VERSION": bumped + "\n"})
    titles = [session.title_of(step) for step in session.steps]
    assert session.loaded.source == "adopted" and wanted in titles
    assert not any(title.startswith(unwanted) for title in titles)
    # the bug-fix procedure goes on with the other's steps from step 5: approving and the installer script
    assert "Approve the publishing step of the release workflow" in titles
    assert "Regenerate the installer script and commit it" in titles


SEMI_AND_MANUAL = """# Release Instructions

## Semi-automated Release Process

1. Run `uv run release/prepare.py {VERSION}` from the root of the repository.
2. Curate the changes in HISTORY.md.
3. Run `uv run release/push.py` from the root of the repository.
4. Publish the release and wait for the CI to finish building and publishing the new version.

## Manual Release Process

1. Edit `tool/version.py` to set the new version number.
2. Add a new section to HISTORY.md with the version and the date.
3. Once the pull request is merged, create a new release on GitHub with the tag `v{VERSION}`.
"""


def test_of_an_automated_and_a_manual_procedure_the_automated_one_is_followed(make_repo, with_remote, data_dir):
    session = _session(make_repo, with_remote, data_dir, {"VERSION": "1.6.2\n", "release/README.md": SEMI_AND_MANUAL},
                       bumped={"VERSION": "1.6.3\n"})
    titles = [session.title_of(step) for step in session.steps]
    assert session.loaded.source == "adopted"
    assert any("release/prepare.py 1.6.3" in title for title in titles)
    assert not any(title.startswith("Edit `tool/version.py`") for title in titles)


def test_a_version_module_named_dunder_version_is_found(make_repo, with_remote, data_dir):
    files = {"setup.py": "from setuptools import setup\nsetup(name='tool')\n", "tool/__init__.py": "\n",
             "tool/__version__.py": "__title__ = 'tool'\n__version__ = '1.6.2'\n"}
    session = _session(make_repo, with_remote, data_dir, files,
                       bumped={"tool/__version__.py": "__title__ = 'tool'\n__version__ = '1.6.3'\n"})
    assert (session.version, session.project.version_file) == ("1.6.3", "tool/__version__.py")


def test_two_parts_of_one_procedure_are_no_alternatives(make_repo, with_remote, data_dir):
    parts = ("# Releasing\n\n## Prepare a new release\n\n1. Bump the version in `VERSION`.\n2. Run `make test`.\n\n"
             "## Publish the final release\n\n1. Create the tag with `git tag v{VERSION}`.\n"
             "2. Upload the tarball to the release page.\n")
    session = _session(make_repo, with_remote, data_dir, {"VERSION": "1.6.2\n", "RELEASING.md": parts},
                       bumped={"VERSION": "1.6.3\n"})
    titles = [session.title_of(step) for step in session.steps]
    assert "Bump the version in `VERSION`" in titles and "Upload the tarball to the release page" in titles


OWN_TAGGING = """# Releasing

1. Update `CHANGELOG.md`
1. Update `VERSION` file with target version
1. Run `{command}`
1. Push tag to upstream
1. Run `rake release:watch` and watch GitHub Actions push to RubyGems.org
"""


def test_the_projects_own_tagging_command_stands_for_the_derived_tag(make_repo, with_remote, data_dir):
    session = _session(make_repo, with_remote, data_dir, {"VERSION": "1.6.2\n", "RELEASING.md": OWN_TAGGING.format(
        command="rake release:tag_version")}, bumped={"VERSION": "1.6.3\n"})
    commands = [session.command_of(step) for step in session.steps]
    assert not any((command or "").startswith("git tag") for command in commands)
    tagging = commands.index("rake release:tag_version")
    assert commands.index("release-check tag-free v1.6.3") < tagging < commands.index(
        "git push --atomic origin main v1.6.3") < commands.index("rake release:watch")
    ctags = _session(make_repo, with_remote, data_dir + "2", {"VERSION": "1.6.2\n", "RELEASING.md": OWN_TAGGING.format(
        command="make tags")}, bumped={"VERSION": "1.6.3\n"})
    assert 'git tag -a v1.6.3 -m "Release 1.6.3"' in [ctags.command_of(step) for step in ctags.steps]


NOTES_ON_TAG = """name: changelog
on:
  push:
    tags: ["v*"]
jobs:
  notes:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: softprops/action-gh-release@v2
        with:
          body_path: notes.md
          draft: true
"""
UPLOAD_ON_TAG = """name: upload
on:
  push:
    tags: ["v[0-9]+.[0-9]+.*"]
jobs:
  pypi:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: python -m build
      - uses: pypa/gh-action-pypi-publish@release/v1
"""


@pytest.mark.parametrize("files_input, wanted", [
    ("", (".github/workflows/pypi_upload.yml",)),
    ("          files: dist/*\n", (".github/workflows/changelog.yml", ".github/workflows/pypi_upload.yml")),
])
def test_a_tag_workflow_that_only_drafts_notes_is_not_the_publisher(make_repo, with_remote, data_dir, files_input,
                                                                     wanted):
    session = _session(make_repo, with_remote, data_dir, {
        ".github/workflows/changelog.yml": NOTES_ON_TAG + files_input,
        ".github/workflows/pypi_upload.yml": UPLOAD_ON_TAG},
        version="1.6.2", bumped={"pyproject.toml": '[project]\nname = "demo"\nversion = "1.6.3"\n'})
    assert (session.publishing.kind, session.publishing.workflows) == ("ci-tag", wanted)


def test_a_documents_note_that_the_tag_starts_ci_is_the_ci_publishes_step(make_repo, with_remote, data_dir):
    doc = ("* [ ]  Tag with X.Y.Z and push the tag\n  * ```\n    git tag -s -a X.Y.Z -m X.Y.Z\n"
           "    git push origin --tags\n    ```\n"
           "* [ ]  The tag will trigger the `publish` GitHub workflow. This requires a review from a maintainer.\n"
           "* [ ]  Announce on social media\n")
    session = _session(make_repo, with_remote, data_dir, {".github/PULL_REQUEST_TEMPLATE/release.md": doc,
                                                          ".github/workflows/publish.yml": UPLOAD_ON_TAG},
                       version="1.6.2", bumped={"pyproject.toml": '[project]\nname = "demo"\nversion = "1.6.3"\n'})
    titles = [session.title_of(step) for step in session.steps]
    assert session.loaded.source == "adopted"
    assert not any(title.startswith("The tag will trigger") for title in titles)
    ci = next(step for step in session.steps if step.id == "ci-publishes")
    assert session.command_of(ci).endswith("This requires a review from a maintainer.")
    assert "Announce on social media" in titles
