"""Publishing is named: the CI workflow a tag push starts, the ecosystem's publish command, or by hand."""
from __future__ import annotations

from release_checklist import ReleaseSession, StepKind

PYPI_ON_TAG = """name: Publish
on:
  push:
    tags:
      - 'v*'   # releases only
jobs:
  pypi:
    runs-on: ubuntu-latest
    steps:
      - uses: pypa/gh-action-pypi-publish@release/v1
"""
ON_RELEASE = """on:
  release:
    types: [published]
jobs:
  upload:
    steps:
      - run: twine upload dist/*
"""
EVERY_PUSH = """on: [push, pull_request]
jobs:
  release:
    if: startsWith(github.ref, 'refs/tags/')
    steps:
      - uses: goreleaser/goreleaser-action@v6
"""
SEMVER_PATTERN = """on:
  push:
    tags:
      - "v[0-9]+.[0-9]+.[0-9]+"
jobs:
  build:
    steps:
      - uses: softprops/action-gh-release@v2
"""
OTHER_PACKAGES = """on:
  push:
    tags: ['plugin-*']
jobs:
  publish:
    steps:
      - run: npm publish
"""


def _open(make_repo, with_remote, data_dir, files, tag="v1.0.0", version="1.0.1"):
    repo = make_repo(version=None, files=files)
    repo.git("tag", "-a", tag, "-m", tag)
    for name, text in files.items():
        if name in ("package.json", "pyproject.toml"):
            repo.write(name, text.replace("1.0.0", version))
    repo.write("fix.txt", "fix\n")
    repo.commit("bump")
    with_remote(repo)
    return ReleaseSession(str(repo), data_dir)


def _after_push(session):
    titles = [session.title_of(step) for step in session.steps]
    push = next(index for index, step in enumerate(session.steps)
                if step.kind == StepKind.TERMINAL and (step.command or "").startswith("git push"))
    return session.steps[push + 1:], titles


PYPROJECT = '[project]\nname = "lib"\nversion = "1.0.0"\n'


def test_a_workflow_that_publishes_on_a_tag_push_is_named(make_repo, with_remote, data_dir):
    session = _open(make_repo, with_remote, data_dir, {"pyproject.toml": PYPROJECT,
                                                       ".github/workflows/publish.yml": PYPI_ON_TAG})
    assert (session.publishing.kind, session.publishing.workflows) == ("ci-tag", (".github/workflows/publish.yml",))
    after, _titles = _after_push(session)
    assert after and after[0].kind == StepKind.MANUAL
    assert ".github/workflows/publish.yml" in session.command_of(after[0])
    assert not any("twine" in (step.command or "") for step in session.steps)


def test_a_workflow_on_published_releases_and_one_on_every_push(make_repo, with_remote, data_dir):
    session = _open(make_repo, with_remote, data_dir, {"pyproject.toml": PYPROJECT,
                                                       ".github/workflows/upload.yaml": ON_RELEASE})
    assert (session.publishing.kind, session.publishing.workflows) == ("ci-release", (".github/workflows/upload.yaml",))
    go = _open(make_repo, with_remote, data_dir + "2", {"go.mod": "module example.com/tool\n",
                                                        ".github/workflows/ci.yml": EVERY_PUSH})
    assert (go.publishing.kind, go.publishing.workflows) == ("ci-tag", (".github/workflows/ci.yml",))
    # GitHub's filter patterns: [0-9] classes and + (one or more of the character before).
    semver = _open(make_repo, with_remote, data_dir + "3", {"go.mod": "module example.com/tool\n",
                                                            ".github/workflows/release.yml": SEMVER_PATTERN},
                   tag="v1.11.1")
    assert semver.publishing.kind == "ci-tag"


def test_without_a_release_workflow_the_ecosystem_command_is_a_terminal_step(make_repo, with_remote, data_dir):
    session = _open(make_repo, with_remote, data_dir, {
        "package.json": '{"name": "lib", "version": "1.0.0"}\n', ".github/workflows/pkg.yml": OTHER_PACKAGES})
    assert (session.publishing.kind, session.publishing.command) == ("command", "npm publish")
    after, _titles = _after_push(session)
    assert [(step.kind, step.command, step.irreversible) for step in after] == [
        (StepKind.TERMINAL, "npm publish", True)]


def test_a_go_module_and_a_c_library(make_repo, with_remote, data_dir):
    go = _open(make_repo, with_remote, data_dir, {"go.mod": "module example.com/tool\n"})
    assert go.publishing.kind == "go"
    c_lib = _open(make_repo, with_remote, data_dir + "2", {"configure.ac": "AC_INIT([lib], [1.0.0])\n"})
    assert c_lib.publishing.kind == "manual"
    after, _titles = _after_push(c_lib)
    assert [step.kind for step in after] == [StepKind.MANUAL]
    assert "manual" in (c_lib.command_of(after[0]) or "").lower()
