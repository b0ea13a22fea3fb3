"""A release document's publish step that the tag push's workflow does itself (issue 26, round 5: a RELEASE.md
that says `npm publish` beside an npm-publish.yml run on the tag) is one step, "CI publishes"; a publish step
for another registry than the workflow's stays the maintainer's."""
from __future__ import annotations

import pytest
from release_checklist import ReleaseSession

RELEASE = """# Release Instructions

1. Bump the version in `mix.exs` and `package.json`
2. Run tests: `mix test`
3. Commit, push code
4. Publish the packages and docs with `mix hex.publish`
5. Publish to `npm` with `npm publish`
6. Announce the release on the forum
"""
NPM_ON_TAG = """name: Publish to npm
on:
  push:
    tags:
      - 'v*'
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm publish --provenance
"""
MIX = 'defmodule Web.MixProject do\n  @version "{}"\n  def project, do: [app: :web, version: @version]\nend\n'
PACKAGE = '{{"name": "web", "version": "{}", "main": "./priv/static/web.js"}}\n'


@pytest.mark.parametrize("workflow, kept", [(NPM_ON_TAG, False), (NPM_ON_TAG.replace("npm publish", "gem push"), True),
                                            (None, True)])
def test_a_document_publish_step_the_tag_workflow_runs_is_not_offered_twice(make_repo, with_remote, data_dir,
                                                                            workflow, kept):
    files = {"RELEASE.md": RELEASE, "mix.exs": MIX.format("1.8.12"), "package.json": PACKAGE.format("1.8.12"),
             "CHANGELOG.md": "# Changelog\n\n## 1.8.12\n\n- x\n"}
    if workflow:
        files[".github/workflows/npm-publish.yml"] = workflow
    repo = make_repo(version=None, files=files)
    repo.git("tag", "-a", "v1.8.12", "-m", "v1.8.12")
    repo.write("mix.exs", MIX.format("1.8.13"))
    repo.write("package.json", PACKAGE.format("1.8.13"))
    repo.write("CHANGELOG.md", "# Changelog\n\n## 1.8.13\n\n- y\n\n## 1.8.12\n\n- x\n")
    repo.commit("bump")
    with_remote(repo)
    session = ReleaseSession(str(repo), data_dir)
    assert session.loaded.source == "adopted"
    titles = [session.title_of(step) for step in session.steps]
    assert any("mix hex.publish" in title for title in titles)  # hex is not what the workflow publishes to
    assert any("npm publish" in title for title in titles) == kept, titles
    if not kept:
        assert "CI publishes v1.8.13" in titles
