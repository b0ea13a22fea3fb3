"""An adopted release document's own flow (issue 26, draw A): policies and "you're done" are no steps, its
signed tag is kept, release notes GitHub generates are not drafted, raw <br> never reaches a title, and a
tag created on GitHub's release page is not made and pushed locally first."""
from __future__ import annotations

from release_checklist import ReleaseSession, StepKind

SIGNED_AND_GENERATED = """# Releasing demo

## Process

- Release versions follow [semantic versioning](https://semver.org/)
- Releases are associated with **signed, annotated git tags**[^1].
- Release notes are **automatically generated**[^2].

For example, the next version after a fix should be `v2.4.8`:

```sh
git tag -a -s -m 'Release 2.4.8' v2.4.8
git push origin v2.4.8
```

- Open the [the new release page](https://github.com/o/demo/releases/new)
- At the top of the form, click on the `Choose a tag` select control and select `v2.4.8`
- In the `Write` tab below, click the `Auto-generate release notes` button
- At the bottom of the form, click the `Publish release` button
- :white_check_mark: you're done!

[^1]: Older tags are lightweight.
[^2]: By GitHub.
"""

TAG_ON_THE_PAGE = """# Release

1. Create the branch for this release:<br>
   `git checkout -b version-<version>`
2. Commit the updated files to the new version branch:<br>
   `git commit -a -m "Version <version>"`
3. Merge the new version branch into `master`:<br>
   `git checkout master`<br>
   `git merge --ff-only version-<version>`<br>
   `git push`
4. In [GitHub](https://github.com/o/demo) interface:
   * Create a release named `<version>`, creating the `<version>` tag.
   * Cut & paste lines from [`CHANGES.md`](CHANGES.md) into description.
"""


def _released(make_repo, with_remote, files):
    repo = make_repo(version="1.3.0", files=files, changelog="# Changes\n\n## 1.3.0\n\n- x\n\n## 1.2.0\n\n- y\n")
    with_remote(repo)
    repo.git("tag", "-a", "v1.2.0", "-m", "v1.2.0")
    return repo


def test_policies_and_done_are_no_steps_and_the_signed_tag_is_kept(make_repo, with_remote, data_dir):
    repo = _released(make_repo, with_remote, {"docs/RELEASING.md": SIGNED_AND_GENERATED})
    session = ReleaseSession(str(repo.path), data_dir)
    assert session.loaded.source == "adopted"
    titles = [session.title_of(step) for step in session.steps]
    assert not any("semantic versioning" in title or "associated with" in title or "automatically generated" in title
                   or "done" in title for title in titles)
    assert any("Publish release" in title for title in titles)
    tag = session.step("create-the-tag")
    assert session.command_of(tag) == 'git tag -s -a v1.3.0 -m "Release 1.3.0"'
    # GitHub writes the notes ("Auto-generate release notes"): no agent step drafts them.
    assert not any(step.kind == StepKind.AGENT for step in session.steps)


def test_a_tag_made_on_the_release_page_is_not_made_locally(make_repo, with_remote, data_dir):
    repo = _released(make_repo, with_remote, {"RELEASE.md": TAG_ON_THE_PAGE})
    session = ReleaseSession(str(repo.path), data_dir)
    titles = [session.title_of(step) for step in session.steps]
    assert not any("<br" in title for title in titles)
    assert "Create the branch for this release: `git checkout -b version-1.3.0`" in titles
    commands = [session.command_of(step) or "" for step in session.steps if step.kind == StepKind.TERMINAL]
    assert not any("v1.3.0" in command.split() for command in commands)
    assert "Tag v1.3.0 is created on the GitHub release page" in titles
    # Without the page tag, the derived tag and atomic push stay.
    other = _released(make_repo, with_remote, {"RELEASE.md": TAG_ON_THE_PAGE.replace(", creating the `<version>` tag",
                                                                                     "")})
    kept = ReleaseSession(str(other.path), data_dir + "-kept")
    assert any((step.command or "").startswith("git push --atomic") for step in kept.steps)


def test_a_tag_made_locally_that_github_actions_deploys_stays_local(make_repo, with_remote, data_dir):
    # "Create a tag and push it … via GitHub Actions", then "create the new release" on the page: the tag is
    # the document's own local one, so the derived tag and atomic push stay.
    doc = ("# Release checklist\n\n- [ ] Create a tag and push it: `git tag vX.Y.Z; git push origin tag vX.Y.Z`. "
           "This will trigger the deployment via GitHub Actions.\n- [ ] Go to https://github.com/o/demo/releases/new "
           "to create the new release. Select the new tag and also use it as the release title.\n")
    repo = _released(make_repo, with_remote, {"doc/release-checklist.md": doc})
    session = ReleaseSession(str(repo.path), data_dir)
    assert session.loaded.source == "adopted"
    assert any(session.command_of(step) == "git push --atomic origin main v1.3.0" for step in session.steps)
    assert not any("release page" in session.title_of(step) for step in session.steps)
