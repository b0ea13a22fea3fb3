"""Placeholders in release documents (issue 26): every way a document writes "the version being released" is
filled with the proposed version or tag, in the step's title, command and hint; what only describes the
scheme, counts down from the release or names two versions stays as written; the previous release by name
(<old-version>) and shapes counted up from the last release (YY.N.Z+1, YY.N+1) are filled."""
from __future__ import annotations

import pytest
from release_checklist import ReleaseSession
from release_checklist.doc_placeholders import fill_item

# Each line: how a document writes it -> what the step shows for release 1.0.1 (tag v1.0.1).
TAGS = ("v0.9.0", "v1.0.0")
FILLED = [
    ("Tag it: `git tag -a vX.Y.Z -m \"Release X.Y.Z\"`", "Tag it: `git tag -a v{version} -m \"Release {version}\"`"),
    ("Run `git tag -s v$VERSION`", "Run `git tag -s v{version}`"),
    ("Run `git tag ${tag}` then `git push origin $TAG`", "Run `git tag {tag}` then `git push origin {tag}`"),
    ("Run `./publish.sh <release version>`", "Run `./publish.sh {version}`"),
    ("Run `make bump V=<new-version>`", "Run `make bump V={version}`"),
    ("Commit `Preparing for release <version_to_release>`", "Commit `Preparing for release {version}`"),
    ("Run `just release {{ version }}`", "Run `just release {version}`"),
    ("Run `set VERSION=%VERSION%`", "Run `set VERSION={version}`"),
    ("Run `export RELEASE=x.x.x`", "Run `export RELEASE={version}`"),
    ("Run `./bump <x.y.z>`", "Run `./bump {version}`"),
    ("Create `release-MAJOR.MINOR.PATCH`", "Create `release-{version}`"),
    ("Run ``nox -s release -- YY.N``", "Run ``nox -s release -- {version}``"),
    ("Choose `Create new tag: YY.M.N on publish`", "Choose `Create new tag: {version} on publish`"),
    ("Commit: `git commit -am \"Prepare version X.Y.X\"`", "Commit: `git commit -am \"Prepare version {version}\"`"),
    # A real version written as the example: in a release position, or one of the project's own releases.
    ("Tag: `git tag -a 1.0.1 -m \"1.0.1\"`", "Tag: `git tag -a {version} -m \"{version}\"`"),
    ("Run `make tag VERSION=0.9.0`", "Run `make tag VERSION={version}`"),
    ("Run `./scripts/maketgz 0.9.0` to build", "Run `./scripts/maketgz {version}` to build"),
    ("Move `latest`: `git tag -f latest v2.1.0`", "Move `latest`: `git tag -f latest v{version}`"),
    ("Or run `./bump-version.sh new_version`", "Or run `./bump-version.sh {version}`"),
    ("Push: `git push origin master vA.B.C`", "Push: `git push origin master v{version}`"),
    ("Run `git push --tags [TAG_NAME]`", "Run `git push --tags {tag}`"),
    ("Click `Choose a tag` and select `v0.9.0`", "Click `Choose a tag` and select `v{version}`"),
    # The release before this one, by name; shapes counted up from the last release (v1.0.0 here).
    ("Search & replace `<old-version>` with the new one", "Search & replace `{previous_version}` with the new one"),
    ("Compare with `$PREVIOUS_TAG`", "Compare with `{previous_tag}`"),
    ("Create `release/YY.N.Z+1` off the `YY.N` tag", "Create `release/{version}` off the `1.0` tag"),
    ("Run ``nox -s prepare-release -- YY.N.Z+1``", "Run ``nox -s prepare-release -- {version}``"),
    ("Drop the news files (else they appear in the ``YY.N+1`` changelog)",
     "Drop the news files (else they appear in the ``1.1`` changelog)"),
]
KEPT = [
    "Black uses the `YY.M.N` format",  # describes the scheme
    "We follow Semantic Versioning (SemVer): MAJOR.MINOR.PATCH.",
    "Replace `X.Y.Z` with the version to be released",
    "Generate with `gh api -f tag_name=YY.N -f previous_tag_name=YY.(N-1)`",
    "Branch from `MAJOR.MINOR.x`",  # a series
    "Compare `git log v0.9.0..v1.0.0`",  # a range
    "Run `pip install tool==0.9.0`",  # a pin
    "Example: the first release of 2026 is `26.1.0`",  # a lone example value, not a command
    "Upgrade `python3.12` and YY.N in prose",
    "Run `cat VERSION` to see it",  # a file, not a placeholder
    "For example, select the tag `v0.9.0`",
    "See [Version] below",  # a Markdown link
    "Run `npm version <major|minor|patch>`",
    "Run `npm version patch # 1.1.1 -> 1.1.2`",  # an example of what it does
]


@pytest.mark.parametrize("written, shown", FILLED)
def test_each_way_of_writing_the_release_version_is_filled(written, shown):
    assert fill_item(written, [], TAGS)[0] == shown


@pytest.mark.parametrize("written", KEPT)
def test_what_does_not_stand_for_the_release_is_kept(written):
    assert fill_item(written, [], TAGS)[0] == written


def test_a_fenced_command_under_an_item_is_filled_with_the_item():
    _body, detail = fill_item("Sign and push the tag.", ["```sh", "make tag VERSION=0.9.0", "```",
                                                        "It checks that 0.9.0 appears in the man page."], TAGS)
    assert detail == ["```sh", "make tag VERSION={version}", "```", "It checks that {version} appears in the man page."]


def test_the_tag_of_an_earlier_release_in_its_own_format_becomes_the_tag():
    assert fill_item("Run `git tag -s curl-7_34_0`", [], ("curl-7_34_0", "curl-7_33_0"))[0] == "Run `git tag -s {tag}`"


DOC = """# Releasing

1. Update the version with `make bump VERSION=<version>`.
2. Build: `./scripts/maketgz 1.0.0`
3. Create the release branch `release-MAJOR.MINOR.PATCH`.
4. Publish the release notes for vX.Y.Z on the website.
   ```sh
   ./upload.sh v$VERSION
   ```
5. Tag it: `git tag -s v1.0.0 -m "Release 1.0.0"`
6. Push it: `git push origin v1.0.0`
"""


def test_the_panel_shows_the_proposed_version_in_titles_commands_and_hints(make_repo, with_remote, data_dir):
    repo = make_repo(version="1.0.0", changelog="# Changelog\n\n## 1.0.0\n- first\n", files={"RELEASING.md": DOC},
                     tags=("v0.9.0", "v1.0.0"))
    repo.write("pyproject.toml", '[project]\nname = "lib"\nversion = "1.0.1"\n')
    repo.write("CHANGELOG.md", "# Changelog\n\n## 1.0.1\n- fix\n\n## 1.0.0\n- first\n")
    repo.commit("bump")
    with_remote(repo)
    session = ReleaseSession(str(repo), data_dir)
    assert session.loaded.source == "adopted"
    shown = {session.title_of(step): session.command_of(step) for step in session.steps}
    assert shown["Build"] == "./scripts/maketgz 1.0.1"
    assert "Update the version with `make bump VERSION=1.0.1`" in shown
    assert "Create the release branch `release-1.0.1`" in shown
    assert "./upload.sh v1.0.1" in shown["Publish the release notes for v1.0.1 on the website"]
    # Every step but the built-in checks (the version check names the last release's tag, v1.0.0, on purpose).
    adopted = [step for step in session.steps if not (step.command or "").startswith("release-check")]
    everything = " ".join(f"{session.title_of(step)} {session.command_of(step) or ''}" for step in adopted)
    for leftover in ("X.Y.Z", "MAJOR", "$VERSION", "<version>", "1.0.0"):
        assert leftover not in everything


BUGFIX_DOC = """# Release process

1. Run `make test`.
2. Search & replace `<old-version>` with the new version in `docs/install.md`.
3. Tag the release and push the tag.
4. Publish it: `twine upload dist/*`

## Creating a bug-fix release

1. Create a new ``release/YY.N.Z+1`` branch off of the ``YY.N`` tag using the command
   ``git checkout -b release/YY.N.Z+1 YY.N``.
2. Run ``nox -s prepare-release -- YY.N.Z+1``.
3. Drop the news files included in your release (else they appear in the ``YY.N+1`` changelog).
"""


def test_a_bug_fix_section_counts_from_the_last_release(make_repo, with_remote, data_dir):
    repo = make_repo(version="26.2.1", changelog="# Changelog\n\n## 26.2.1\n- x\n", files={"RELEASING.md": BUGFIX_DOC},
                     tags=("26.2", "26.2.1"))
    repo.write("pyproject.toml", '[project]\nname = "lib"\nversion = "26.2.2"\n')
    repo.write("CHANGELOG.md", "# Changelog\n\n## 26.2.2\n- fix\n\n## 26.2.1\n- x\n")
    repo.commit("bump")
    with_remote(repo)
    session = ReleaseSession(str(repo), data_dir)
    assert session.loaded.source == "adopted"
    shown = " | ".join(f"{session.title_of(step)} {session.command_of(step) or ''}" for step in session.steps)
    assert "Search & replace `26.2.1` with the new version" in shown
    assert "``git checkout -b release/26.2.2 26.2``" in shown and "off of the ``26.2`` tag" in shown
    assert "nox -s prepare-release -- 26.2.2" in shown and "the ``26.3`` changelog" in shown
    for leftover in ("YY.", "<old-version>", "{"):
        assert leftover not in shown
