"""Release documents read for what they are: procedures (.md, .rst, .txt) are adopted whole, beside the derived
checks; policy pages are not; placeholders such as vX.Y.Z, ${tag} and <version> are filled in."""
from __future__ import annotations

from release_checklist import ReleaseSession, StepKind

POLICY_PAGE = """# Releases

## Release Cycle

We release a new minor version every two months. Patch releases ship when needed.

## Supported Versions

- The latest minor receives regular patches
- The previous major receives security fixes for six months

## Pre Releases

- Betas are published to the `beta` dist-tag
"""

PROCEDURE_WITH_POLICY = """# lib release procedure

## in the source code repo

- edit `RELEASE-NOTES` to be accurate
- run `./scripts/maketgz <version>` to build the release tarballs
- push the git commits and the new tag
- upload the resulting files to the download directory

## on the website

- edit `Makefile` (version number and date)
- commit all local changes

## Release Cycle

- During the first 10 days after a release, we only merge bug fixes
- During the following 3 weeks we allow new features

## Coming dates

- June 24, 2026
- September 2, 2026
"""

RST_PROCEDURE = """Release procedure
=================

Preparing
---------

#. Bump the version in ``lib/__init__.py``.
#. Update ``CHANGES.rst`` with the notes for the release.

Publishing
----------

#. Run ``git tag -s vX.Y.Z -m "vX.Y.Z"``.
#. Run ``git push origin vX.Y.Z``.
#. Run ``twine upload dist/lib-${version}.tar.gz``.
#. Announce the release on the mailing list.
"""


def _repo(make_repo, with_remote, files, tags=("v1.0.0",)):
    repo = make_repo(version="1.0.0", changelog="# Changelog\n\n## 1.0.0\n- first\n", files=files, tags=tags)
    repo.write("pyproject.toml", '[project]\nname = "lib"\nversion = "1.0.1"\n')
    repo.write("CHANGELOG.md", "# Changelog\n\n## 1.0.1\n- fix\n\n## 1.0.0\n- first\n")
    repo.commit("bump")
    with_remote(repo)
    return repo


def _derived_checks_present(session):
    ids = [step.id for step in session.steps]
    return all(step_id in ids for step_id in ("working-tree-is-clean", "version-is-bumped-since-the-last-tag",
                                                "changelog-has-an-entry-for", "tag-is-not-taken-yet",
                                                "create-the-tag", "push-and-to-together"))


def test_a_policy_page_is_not_a_procedure(make_repo, with_remote, data_dir):
    repo = _repo(make_repo, with_remote, {"docs/releases.md": POLICY_PAGE})
    session = ReleaseSession(str(repo), data_dir)
    assert session.loaded.source == "default"
    assert _derived_checks_present(session)


def test_every_procedure_section_is_read_and_policy_sections_are_not(make_repo, with_remote, data_dir):
    repo = _repo(make_repo, with_remote, {"docs/RELEASE-PROCEDURE.md": PROCEDURE_WITH_POLICY})
    session = ReleaseSession(str(repo), data_dir)
    assert session.loaded.source == "adopted" and session.loaded.path.endswith("RELEASE-PROCEDURE.md")
    titles = [session.title_of(step) for step in session.steps]
    assert "edit `RELEASE-NOTES` to be accurate" in titles and "commit all local changes" in titles
    assert not any("During" in title or "2026" in title for title in titles)
    assert _derived_checks_present(session)
    # The document's tag push is the derived push (one push, with this release's tag), not a second step.
    assert not any("new tag" in title for title in titles)
    build = next(step for step in session.steps if "maketgz" in (step.command or ""))
    assert session.command_of(build) == "./scripts/maketgz 1.0.1"
    assert titles.index("Create the tag v1.0.1") < titles.index("upload the resulting files to the download directory")


def test_an_rst_procedure_is_adopted_with_its_placeholders_filled(make_repo, with_remote, data_dir):
    repo = _repo(make_repo, with_remote, {"RELEASING.rst": RST_PROCEDURE})
    session = ReleaseSession(str(repo), data_dir)
    assert session.loaded.source == "adopted" and session.loaded.path.endswith("RELEASING.rst")
    commands = [session.command_of(step) for step in session.steps if step.kind == StepKind.TERMINAL]
    assert "twine upload dist/lib-1.0.1.tar.gz" in commands
    assert not any("X.Y.Z" in (command or "") for command in commands)
    titles = [session.title_of(step) for step in session.steps]
    assert titles[:3] == ["Working tree is clean", "On the release branch main", "In sync with upstream"]
    assert "Bump the version in ``lib/__init__.py``" in titles and "Announce the release on the mailing list" in titles
    assert sum(1 for command in commands if command and command.startswith("git push")) == 1
    assert not any(step.id == "publish" for step in session.steps)  # the document's twine upload publishes
    assert _derived_checks_present(session)


def test_a_txt_procedure_is_read_too(make_repo, with_remote, data_dir):
    text = "How to release\n\n1. Update the version with `make bump VERSION=<version>`\n" \
           "2. Tag it: `git tag v<version>`\n3. Push: `git push --tags`\n4. Publish: `npm publish`\n"
    repo = _repo(make_repo, with_remote, {"RELEASE.txt": text})
    session = ReleaseSession(str(repo), data_dir)
    assert session.loaded.source == "adopted"
    assert "Update the version with `make bump VERSION=1.0.1`" in [session.title_of(step) for step in session.steps]
