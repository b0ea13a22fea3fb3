"""Workspaces whose members tag their own releases, and a project's own publish script (issue 26, round 5):
the member ahead of its own tags is the release (its manifest, changelog and tag format), and a script that
publishes, tags and pushes beats a tag workflow that only writes the GitHub release page."""
from __future__ import annotations

import pytest
from release_checklist import ReleaseSession, StepKind
from release_checklist.release_view import release_of
from release_checklist.text import TEXT
from release_checklist.view_release import publishing_line

WORKSPACE = '[workspace]\nmembers = [\n    "kit",\n    "kit-extra",\n]\n'
CRATE = '[package]\nname = "{name}"\nversion = "{version}"\nedition = "2021"\n'
NOTES_WORKFLOW = """name: Release
on:
  push:
    tags:
      - kit-[0-9]+.*
      - kit-[a-z]+-[0-9]+.*
jobs:
  release:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: taiki-e/create-gh-release-action@v1
"""
PUBLISH_SCRIPT = """#!/usr/bin/env bash
set -euo pipefail
CRATE="$1"; VERSION="$2"; TAG="$CRATE-$VERSION"
if git tag -l | grep -Fxq "$TAG"; then echo "tag exists"; exit 1; fi
(cd "$CRATE" && cargo publish)
git tag "$TAG" && git push --tags
"""
CONTRIBUTING = """# Contributing

## Releasing

1. Check it first:

   ```bash
   bin/publish --dry-run <CRATE NAME> <CRATE VERSION>
   ```

2. Release the crate:

   ```bash
   bin/publish <NAME OF CRATE> <VERSION>
   ```
"""


def _workspace(make_repo, with_remote, extra_version="0.3.5", files=None):
    repo = make_repo(version=None, files={
        "Cargo.toml": WORKSPACE,
        "kit/Cargo.toml": CRATE.format(name="kit", version="0.1.44"),
        "kit/CHANGELOG.md": "# 0.1.44\n\n- Fixed.\n",
        "kit-extra/Cargo.toml": CRATE.format(name="kit-extra", version="0.3.4"),
        "kit-extra/CHANGELOG.md": "# 0.3.4\n\n- Fixed.\n",
        **(files or {})})
    repo.git("tag", "-a", "kit-extra-0.3.3", "-m", "old")
    repo.write("log.txt", "kit\n")
    repo.commit("release kit")
    repo.git("tag", "-a", "kit-0.1.44", "-m", "kit")
    repo.write("log.txt", "kit-extra\n")
    repo.commit("release kit-extra")
    repo.git("tag", "-a", "kit-extra-0.3.4", "-m", "kit-extra")
    repo.write("kit-extra/Cargo.toml", CRATE.format(name="kit-extra", version=extra_version))
    repo.write("kit-extra/CHANGELOG.md", f"# {extra_version}\n\n- Fixed again.\n\n# 0.3.4\n\n- Fixed.\n")
    repo.commit("bump kit-extra")
    with_remote(repo)
    return repo


def _run(session, name):
    step = next(step for step in session.steps if (step.command or "").startswith("release-check " + name))
    return session.run_step(step.id)


def test_the_member_ahead_of_its_own_tags_is_the_release(make_repo, with_remote, data_dir):
    session = ReleaseSession(str(_workspace(make_repo, with_remote)), data_dir)
    assert (session.version, session.project.version_file) == ("0.3.5", "kit-extra/Cargo.toml")
    values = session.placeholder_values()
    assert (values["tag"], values["previous_tag"]) == ("kit-extra-0.3.5", "kit-extra-0.3.4")
    assert session.project.changelog_file == "kit-extra/CHANGELOG.md"
    for name in ("version-bumped", "changelog-entry", "tag-free"):
        assert _run(session, name).state == "passed", name


def test_without_a_member_ahead_the_released_version_fails_as_before(make_repo, with_remote, data_dir):
    session = ReleaseSession(str(_workspace(make_repo, with_remote, extra_version="0.3.4")), data_dir)
    assert session.project.version_file != "kit-extra/Cargo.toml"  # every member's version is released
    assert _run(session, "version-bumped").state != "passed"


def test_a_publish_script_that_tags_itself_beats_a_notes_only_tag_workflow(make_repo, with_remote, data_dir):
    repo = _workspace(make_repo, with_remote, files={".github/workflows/release.yml": NOTES_WORKFLOW,
                                                     "bin/publish": PUBLISH_SCRIPT, "CONTRIBUTING.md": CONTRIBUTING})
    session = ReleaseSession(str(repo), data_dir)
    assert (session.publishing.kind, session.publishing.tags_itself) == ("command", True)
    terminal = [session.command_of(step) for step in session.steps if step.kind == StepKind.TERMINAL]
    # The script refuses a tag that exists: no tag is made before it, only the branch is pushed first.
    assert terminal == ["git push origin main", "bin/publish kit-extra 0.3.5"]


def test_a_tag_workflow_that_uploads_stays_the_publisher(make_repo, with_remote, data_dir):
    uploads = NOTES_WORKFLOW + "      - run: cargo publish\n"
    repo = _workspace(make_repo, with_remote, files={".github/workflows/release.yml": uploads,
                                                     "bin/publish": PUBLISH_SCRIPT, "CONTRIBUTING.md": CONTRIBUTING})
    session = ReleaseSession(str(repo), data_dir)
    assert session.publishing.kind == "ci-tag"
    assert any(session.command_of(step) == "git push --atomic origin main kit-extra-0.3.5" for step in session.steps)


@pytest.mark.parametrize("language", ["en", "ja", "ko", "zh"])
def test_the_panel_says_the_script_makes_the_tag(make_repo, with_remote, data_dir, language):
    repo = _workspace(make_repo, with_remote, files={".github/workflows/release.yml": NOTES_WORKFLOW,
                                                     "bin/publish": PUBLISH_SCRIPT, "CONTRIBUTING.md": CONTRIBUTING})
    t = TEXT.for_language(language)
    line = publishing_line(release_of(ReleaseSession(str(repo), data_dir)), t)
    assert "bin/publish kit-extra 0.3.5" in line and "kit-extra-0.3.5" in line
    assert line == t("publish_command_tags", command="bin/publish kit-extra 0.3.5", tag="kit-extra-0.3.5")
    if language != "en":
        assert line != TEXT.for_language("en")("publish_command_tags", command="bin/publish kit-extra 0.3.5",
                                               tag="kit-extra-0.3.5")


def test_a_root_package_stays_the_release_when_a_member_is_ahead_of_its_tags(make_repo, with_remote, data_dir):
    """ripgrep's shape: the root crate is the product (tags 15.2.0); a member's own unreleased bump
    (ignore 0.4.34 after ignore-0.4.33) does not turn the panel into that member's release."""
    root = '[package]\nname = "tool"\nversion = "15.2.0"\n\n[workspace]\nmembers = ["crates/ignore"]\n'
    repo = make_repo(version=None, files={"Cargo.toml": root,
                                          "crates/ignore/Cargo.toml": CRATE.format(name="ignore", version="0.4.33")},
                     tags=("ignore-0.4.33", "15.2.0"))
    repo.write("crates/ignore/Cargo.toml", CRATE.format(name="ignore", version="0.4.34"))
    repo.commit("bump ignore")
    with_remote(repo)
    session = ReleaseSession(str(repo), data_dir)
    assert session.project.version_file == "Cargo.toml" and session.tag != "ignore-0.4.34"
    assert _run(session, "version-bumped").state == "failed"  # 15.2.0 is released: bump it first


def test_a_uv_workspace_member_ahead_of_its_own_tags_is_the_release(make_repo, with_remote, data_dir):
    member = '[project]\nname = "{name}"\nversion = "{version}"\n'
    repo = make_repo(version=None, files={
        "pyproject.toml": '[tool.uv.workspace]\nmembers = ["packages/*"]\n',  # a virtual root
        "packages/core/pyproject.toml": member.format(name="suite-core", version="2.1.0"),
        "packages/cli/pyproject.toml": member.format(name="suite-cli", version="0.9.0"),
        "packages/core/CHANGELOG.md": "# 2.1.0\n\n- x\n"}, tags=("suite-core-v2.1.0", "suite-cli-v0.9.0"))
    repo.write("packages/core/pyproject.toml", member.format(name="suite-core", version="2.1.1"))
    repo.write("packages/core/CHANGELOG.md", "# 2.1.1\n\n- y\n\n# 2.1.0\n\n- x\n")
    repo.commit("bump core")
    with_remote(repo)
    session = ReleaseSession(str(repo), data_dir)
    assert (session.version, session.project.version_file) == ("2.1.1", "packages/core/pyproject.toml")
    assert session.tag == "suite-core-v2.1.1" and session.project.changelog_file == "packages/core/CHANGELOG.md"
    for name in ("version-bumped", "changelog-entry"):
        assert _run(session, name).state == "passed", name
    assert session.publishing.command == "uv build --package suite-core && uv publish"  # that member only


def test_members_are_never_read_outside_the_repository(make_repo, tmp_path):
    from release_checklist.workspace_members import workspace_members

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "Cargo.toml").write_text(CRATE.format(name="stranger", version="9.9.9"))
    repo = make_repo(version=None, files={
        "Cargo.toml": f'[workspace]\nmembers = ["{outside}", "../elsewhere", "kit"]\n',
        "kit/Cargo.toml": CRATE.format(name="kit", version="0.1.0")})
    assert [member.name for member in workspace_members(str(repo))] == ["kit"]
