"""Repositories shaped like real ones (a tox library, a Cargo workspace, an npm package, a Go module, a C
project with a stray crate, a hatch-vcs CalVer project, a repository with its own release document):
the derived steps, version, test command, changelog location and tag format, asserted exactly."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import pytest
from release_checklist import ChecklistParseError, ReleaseSession, StepKind
from release_checklist.text import TEXT
from release_checklist.view_release import version_line

GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.invalid", "GIT_CONFIG_NOSYSTEM": "1"}
EN = TEXT.for_language("en")


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=GIT_ENV, capture_output=True, text=True,
                          check=True).stdout.strip()


def build(root: Path, released: Dict[str, str], tags: Sequence[str], bump: Dict[str, str]) -> Path:
    """A repository at its last release (tagged), plus one commit with the next release's changes."""
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    for files, message in ((released, "released"), (bump, "next release")):
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")
        git(root, "add", "-A")
        git(root, "commit", "-q", "--allow-empty", "-m", message)
        if message == "released":
            for tag in tags:
                git(root, "tag", "-a", tag, "-m", tag)
    return root


def derived(session: ReleaseSession) -> List[Tuple[str, str, str]]:
    return [(step.id, step.kind, session.command_of(step) or "") for step in session.steps]


COMMON_START = [
    ("working-tree-is-clean", "check", "release-check clean-tree"),
    ("on-the-release-branch", "check", "release-check on-branch main"),
    ("in-sync-with-upstream", "check", "release-check in-sync"),
]


TWINE = ("publish", "terminal", "python3 -m build && twine upload dist/*")
MANUAL_PUBLISH = ("publish", "manual", "Publishing is manual: no publish command or release workflow was found for "
                  "this project.")


def common_end(version: str, tag: str, *publish: Tuple[str, str, str]) -> List[Tuple[str, str, str]]:
    return [
        ("tag-is-not-taken-yet", "check", f"release-check tag-free {tag}"),
        ("create-the-tag", "terminal", f'git tag -a {tag} -m "Release {version}"'),
        ("push-and-to-together", "terminal", f"git push --atomic origin main {tag}"),
        *publish,  # what follows the push (issue 26): CI, the publish command, or publishing by hand
    ]


def notes_step(version: str, previous: str) -> Tuple[str, str, str]:
    return ("release-notes-for", "agent",
            f"Draft the release notes for {version} from the commits since the last release tag {previous} "
            "(every commit if there is none): user-facing changes first, grouped as added, changed, fixed. "
            "Show them to me; do not commit, tag, push or publish anything.")


def open_release(path: Path, data_dir: str) -> ReleaseSession:
    return ReleaseSession(str(path), data_dir)


def test_python_library_with_tox_and_docs_changelog_rst(tmp_path, data_dir):
    repo = build(tmp_path / "lib", {
        "pyproject.toml": '[project]\nname = "lib"\nversion = "2.0.0"\n',
        "tox.ini": "[tox]\nenv_list = py3{9,12}\n", "tests/test_lib.py": "def test(): pass\n",
        "docs/changelog.rst": "Changelog\n=========\n\n2.0.0\n-----\n\n- First.\n",
        "src/lib/__init__.py": '__version__ = "0.0.1"\n',  # a stale copy: pyproject.toml comes first
    }, ["v1.9.0", "v2.0.0"], {
        "pyproject.toml": '[project]\nname = "lib"\nversion = "2.1.0"\n',
        "docs/changelog.rst": "Changelog\n=========\n\n2.1.0\n-----\n\n- Second.\n\n2.0.0\n-----\n\n- First.\n",
    })
    session = open_release(repo, data_dir)
    assert (session.version, session.version_source, session.project.version_file) == ("2.1.0", "project",
                                                                                         "pyproject.toml")
    assert (session.project.test_command, session.project.changelog_file) == ("tox", os.path.join("docs",
                                                                                                   "changelog.rst"))
    assert (session.loaded.tag_format, session.tag) == ("v{version}", "v2.1.0")
    assert derived(session) == [
        *COMMON_START,
        ("tests-pass", "check", "tox"),
        ("version-is-bumped-since-the-last-tag", "check", "release-check version-bumped 2.1.0 v2.1.0 v2.0.0"),
        ("changelog-has-an-entry-for", "check", "release-check changelog-entry 2.1.0 docs/changelog.rst"),
        *common_end("2.1.0", "v2.1.0", TWINE),
    ]
    results = session.run_checks()
    assert results["changelog-has-an-entry-for"].tail == ["docs/changelog.rst line 4 is the entry for 2.1.0."]
    assert results["version-is-bumped-since-the-last-tag"].state == "passed"


def test_cargo_workspace_tests_every_member(tmp_path, data_dir):
    repo = build(tmp_path / "ws", {
        "Cargo.toml": '[workspace]\nmembers = ["crates/core", "crates/cli"]\n\n[workspace.package]\n'
                      'version = "0.3.0"\nedition = "2021"\n',
        "crates/core/Cargo.toml": '[package]\nname = "core"\nversion = "9.9.9"\n',  # a member: never the version
        "crates/cli/Cargo.toml": '[package]\nname = "cli"\nversion.workspace = true\n',
        "CHANGELOG.md": "# Changelog\n\n## 0.3.0\n- First.\n",
    }, ["v0.3.0"], {
        "Cargo.toml": '[workspace]\nmembers = ["crates/core", "crates/cli"]\n\n[workspace.package]\n'
                      'version = "0.4.0"\nedition = "2021"\n',
        "CHANGELOG.md": "# Changelog\n\n## [0.4.0] - 2026-12-01\n- Second.\n\n## 0.3.0\n- First.\n",
    })
    session = open_release(repo, data_dir)
    assert (session.version, session.project.version_file, session.project.workspace) == ("0.4.0", "Cargo.toml",
                                                                                          True)
    assert (session.project.test_command, session.project.changelog_file) == ("cargo test --workspace",
                                                                              "CHANGELOG.md")
    assert derived(session) == [
        *COMMON_START,
        ("tests-pass", "check", "cargo test --workspace"),
        ("version-is-bumped-since-the-last-tag", "check", "release-check version-bumped 0.4.0 v0.4.0 v0.3.0"),
        ("changelog-has-an-entry-for", "check", "release-check changelog-entry 0.4.0 CHANGELOG.md"),
        *common_end("0.4.0", "v0.4.0", ("publish", "terminal", "cargo publish --workspace")),
    ]


def test_npm_package_without_a_changelog_gets_a_release_notes_step(tmp_path, data_dir):
    package = {"name": "tiny", "version": "3.2.0", "scripts": {"test": "node --test"}}
    repo = build(tmp_path / "tiny", {"package.json": json.dumps(package), "package-lock.json": "{}",
                                     "index.js": "module.exports = 1;\n"},
                 ["v3.1.0", "v3.2.0"], {"package.json": json.dumps({**package, "version": "3.2.1"})})
    session = open_release(repo, data_dir)
    assert (session.version, session.project.version_file) == ("3.2.1", "package.json")
    assert (session.project.test_command, session.project.changelog_file) == ("npm test", None)
    assert (session.loaded.tag_format, session.tag) == ("v{version}", "v3.2.1")
    assert derived(session) == [
        *COMMON_START,
        ("tests-pass", "check", "npm test"),
        ("version-is-bumped-since-the-last-tag", "check", "release-check version-bumped 3.2.1 v3.2.1 v3.2.0"),
        notes_step("3.2.1", "v3.2.0"),
        *common_end("3.2.1", "v3.2.1", ("publish", "terminal", "npm publish")),
    ]


def test_go_module_versioned_by_its_tags(tmp_path, data_dir):
    repo = build(tmp_path / "gomod", {"go.mod": "module example.com/gomod\n\ngo 1.22\n",
                                      "main.go": "package main\n\nfunc main() {}\n"},
                 ["v1.4.0", "v1.4.1"], {"main.go": "package main\n\nfunc main() { println(1) }\n"})
    session = open_release(repo, data_dir)
    assert (session.version, session.version_source, session.project.version_from_tags) == ("1.4.2", "suggested",
                                                                                             "go")
    assert (session.project.test_command, session.project.changelog_file) == ("go test ./...", None)
    assert derived(session) == [
        *COMMON_START,
        ("tests-pass", "check", "go test ./..."),
        ("version-is-bumped-since-the-last-tag", "check", "release-check version-bumped 1.4.2 v1.4.2 v1.4.1"),
        notes_step("1.4.2", "v1.4.1"),
        *common_end("1.4.2", "v1.4.2"),
        # The tag is the release: asking the proxy for it after the push makes the proxy fetch it now.
        ("ask-the-go-proxy-for", "terminal", "go list -m example.com/gomod@v1.4.2"),
    ]
    assert version_line(session, EN) == "suggested: the next after v1.4.1 · go takes the version from the tag"


def test_c_project_is_not_read_as_its_internal_crate(tmp_path, data_dir):
    crate = '[package]\nname = "helper"\nversion = "0.1.0"\nedition = "2021"\n'
    repo = build(tmp_path / "cproj", {
        "Makefile": "CFLAGS = -O2\nall:\n\tcc -o prog prog.c\n\ntest: all\n\t./run-tests.sh\n",
        "prog.c": "int main(void) { return 0; }\n", "Cargo.toml": crate, "contrib/tool/Cargo.toml": crate,
        "NEWS.md": "# 2.55.0\n\n- Things.\n",
    }, ["v2.54.0", "v2.55.0"], {"NEWS.md": "# 2.56.0 (unreleased)\n\n- More.\n\n# 2.55.0\n\n- Things.\n"})
    session = open_release(repo, data_dir)
    assert (session.version, session.version_source, session.tag) == ("2.55.1", "suggested", "v2.55.1")
    assert [(ignored.file, ignored.version) for ignored in session.project.ignored] == [("Cargo.toml", "0.1.0")]
    assert (session.project.test_command, session.project.changelog_file) == ("make test", "NEWS.md")
    assert derived(session) == [
        *COMMON_START,
        ("tests-pass", "check", "make test"),
        ("version-is-bumped-since-the-last-tag", "check", "release-check version-bumped 2.55.1 v2.55.1 v2.55.0"),
        ("changelog-has-an-entry-for", "check", "release-check changelog-entry 2.55.1 NEWS.md"),
        *common_end("2.55.1", "v2.55.1", MANUAL_PUBLISH),
    ]
    assert version_line(session, EN) == ("suggested: the next after v2.55.0 · Cargo.toml says 0.1.0, older than "
                                         "the last release 2.55.0: not used · no version file was read, so the version "
                                         "check cannot confirm a bump (set \"Version file\")")
    # 2.55.1 is only proposed (the crate's version was passed over): could not check, never passed.
    record = session.run_step("version-is-bumped-since-the-last-tag")
    assert record.state == "unknown" and "Cargo.toml 0.1.0 passed over" in " ".join(record.tail)


def test_hatch_vcs_calver_project_whose_changelog_is_ahead_of_its_tags(tmp_path, data_dir):
    pyproject = ('[build-system]\nrequires = ["hatchling", "hatch-vcs"]\nbuild-backend = "hatchling.build"\n\n'
                 '[project]\nname = "cal"\ndynamic = ["version"]\n\n[tool.hatch.version]\nsource = "vcs"\n\n'
                 '[tool.hatch.envs.hatch-test]\ndependencies = ["pytest"]\n')
    repo = build(tmp_path / "cal", {
        "pyproject.toml": pyproject, "src/cal/__init__.py": "",
        "CHANGELOG.md": "# Changelog\n\n## [26.1.0](https://example.invalid/26.1.0) - 2026-03-19\n- Older.\n",
    }, ["25.3.0", "25.4.0", "26.1.0"], {
        "CHANGELOG.md": "# Changelog\n\n<!-- towncrier release notes start -->\n\n"
                        "## [26.2.0](https://example.invalid/26.2.0) - 2026-12-01\n- New.\n\n"
                        "## [26.1.0](https://example.invalid/26.1.0) - 2026-03-19\n- Older.\n",
    })
    session = open_release(repo, data_dir)
    assert (session.version, session.version_source, session.project.version_from_tags) == (
        "26.2.0", "changelog", "hatch-vcs")
    assert (session.project.test_command, session.project.changelog_file) == ("hatch test", "CHANGELOG.md")
    assert (session.loaded.tag_format, session.tag) == ("{version}", "26.2.0")
    assert derived(session) == [
        *COMMON_START,
        ("tests-pass", "check", "hatch test"),
        ("version-is-bumped-since-the-last-tag", "check", "release-check version-bumped 26.2.0 26.2.0 26.1.0"),
        ("changelog-has-an-entry-for", "check", "release-check changelog-entry 26.2.0 CHANGELOG.md"),
        *common_end("26.2.0", "26.2.0", TWINE),
    ]
    assert version_line(session, EN) == ("from CHANGELOG.md: its top entry is newer than 26.1.0 · hatch-vcs takes "
                                         "the version from the tag")


def test_calver_without_a_newer_changelog_entry_follows_the_minor_bump_habit(tmp_path, data_dir):
    pyproject = '[project]\nname = "cal"\ndynamic = ["version"]\n[tool.setuptools_scm]\n'
    repo = build(tmp_path / "cal", {"pyproject.toml": pyproject}, ["25.3.0", "25.4.0", "26.1.0"], {"x": "1"})
    session = open_release(repo, data_dir)
    assert (session.version, session.project.version_from_tags) == ("26.2.0", "setuptools-scm")


RELEASE_DOC = """# Release Checklist

* Ensure local `main` is up to date with respect to `origin/main`.
* Run `cargo update` and review dependency updates. Commit updated
  `Cargo.lock`.
* Update the CHANGELOG as appropriate.
    * crates/a
    * crates/b (bump minimal versions as necessary)
* Edit `Cargo.toml` to set the new version.
* Run `cargo publish`.
* Add TBD section to the top of the CHANGELOG:
  ```
  TBD
  ===
  ```

Note that the release is made from `main`.

1. Push the tag: `git push origin {VERSION}`
2) Announce it in {CHANNEL}
"""


def test_the_repositorys_own_release_checklist_is_adopted(tmp_path, data_dir):
    repo = build(tmp_path / "own", {"Cargo.toml": '[package]\nname = "own"\nversion = "1.0.0"\n',
                                    "RELEASE-CHECKLIST.md": RELEASE_DOC}, ["1.0.0"],
                 {"Cargo.toml": '[package]\nname = "own"\nversion = "1.1.0"\n'})
    session = open_release(repo, data_dir)
    assert (session.loaded.source, os.path.basename(session.loaded.path)) == ("adopted", "RELEASE-CHECKLIST.md")
    assert (session.version, session.tag) == ("1.1.0", "1.1.0")
    steps = [(step.id, step.kind, step.irreversible, session.title_of(step), session.command_of(step))
             for step in session.steps]
    document = [
        ("ensure-local-main-is-up-to-date-with-respect-to", StepKind.MANUAL, False,
         "Ensure local `main` is up to date with respect to `origin/main`", None),
        ("run-cargo-update-and-review-dependency-updates", StepKind.TERMINAL, False,
         "Run `cargo update` and review dependency updates", "cargo update"),
        ("update-the-changelog-as-appropriate", StepKind.MANUAL, False, "Update the CHANGELOG as appropriate",
         "Update the CHANGELOG as appropriate.\n* crates/a\n* crates/b (bump minimal versions as necessary)"),
        ("edit-cargo-toml-to-set-the-new-version", StepKind.MANUAL, False, "Edit `Cargo.toml` to set the new version",
         None),
        ("add-tbd-section-to-the-top-of-the-changelog", StepKind.MANUAL, False,
         "Add TBD section to the top of the CHANGELOG",
         "Add TBD section to the top of the CHANGELOG:\n```\nTBD\n===\n```"),
        ("run-cargo-publish", StepKind.TERMINAL, True, "Run `cargo publish`", "cargo publish"),
        ("announce-it-in", StepKind.MANUAL, False, "Announce it in {CHANNEL}", None),
    ]
    # The document's steps, in order, beside the derived checks (issue 26): its "Push the tag" is the derived
    # push, and its cargo publish replaces the derived one.
    assert [step for step in steps if step[0] in {entry[0] for entry in document}] == document
    ids = [step[0] for step in steps]
    assert ids[:3] == ["working-tree-is-clean", "on-the-release-branch", "in-sync-with-upstream"]
    assert "push-the-tag" not in ids and "publish" not in ids
    assert ids.index("tag-is-not-taken-yet") < ids.index("create-the-tag") < ids.index("push-and-to-together") \
        < ids.index("run-cargo-publish")


def test_adopting_writes_a_checklist_that_reads_back_with_the_same_steps(tmp_path, data_dir):
    from release_checklist.default_checklist import write_checklist_file

    repo = build(tmp_path / "own", {"RELEASING.md": RELEASE_DOC}, ["1.0.0"], {})
    session = open_release(repo, data_dir)
    write_checklist_file(session.repo, session.spec)
    adopted = open_release(repo, data_dir)
    assert adopted.loaded.source == "file"
    assert [(step.id, step.kind, step.irreversible) for step in adopted.steps] == [
        (step.id, step.kind, step.irreversible) for step in session.steps]
    assert adopted.title_of(adopted.step("announce-it-in")) == "Announce it in {CHANNEL}"


def test_a_release_document_without_a_list_keeps_the_derived_checklist(tmp_path, data_dir):
    repo = build(tmp_path / "prose", {"RELEASING.md": "# Releasing\n\nAsk Sam; she knows.\n",
                                      "VERSION": "1.0.0\n"}, ["v1.0.0"], {"VERSION": "1.1.0\n"})
    session = open_release(repo, data_dir)
    assert session.loaded.source == "default" and session.steps[0].id == "working-tree-is-clean"
    assert not session.checklist_changed()


def test_plain_bullets_are_steps_and_an_empty_file_says_what_is_expected(tmp_path, data_dir):
    repo = build(tmp_path / "own", {"RELEASE_CHECKLIST.md": "# Release\n\n* Tests: `make test`\n+ Announce it\n"},
                 [], {})
    session = open_release(repo, data_dir)
    assert [(step.id, step.kind, step.command) for step in session.steps] == [
        ("tests", StepKind.CHECK, "make test"), ("announce-it", StepKind.MANUAL, None)]
    (repo / "RELEASE_CHECKLIST.md").write_text("# Release\n\nWe release on Fridays.\n", encoding="utf-8")
    with pytest.raises(ChecklistParseError) as error:
        open_release(repo, data_dir)
    assert [(problem.line, problem.column, problem.message) for problem in error.value.problems] == [
        (1, 1, 'The file has no steps. Write each step as a list item, for example "- [ ] Tests pass: `make test`", '
               '"* Update the changelog" or "1. Push the tag".')]


def test_checklist_settings_tune_the_derived_steps(tmp_path, data_dir):
    settings = ("# Release checklist\n\nTag format: `release-{version}`\nRelease branch: `stable`\n"
                "Version file: `meta/VERSION.txt`\nTests: `just ci`\nChangelog: `none`\nRemote: `upstream`\n")
    repo = build(tmp_path / "set", {"RELEASE_CHECKLIST.md": settings, "meta/VERSION.txt": "4.0.0\n",
                                    "package.json": json.dumps({"version": "0.0.0"}), "CHANGELOG.md": "# x\n"},
                 ["release-3.9.0"], {"meta/VERSION.txt": "4.1.0\n"})
    session = open_release(repo, data_dir)
    assert session.loaded.source == "settings"
    assert (session.version, session.project.version_file, session.tag) == ("4.1.0", "meta/VERSION.txt",
                                                                            "release-4.1.0")
    assert [(step.id, session.command_of(step)) for step in session.steps] == [
        ("working-tree-is-clean", "release-check clean-tree"),
        ("on-the-release-branch", "release-check on-branch stable"),
        ("in-sync-with-upstream", "release-check in-sync"),
        ("tests-pass", "just ci"),
        ("version-is-bumped-since-the-last-tag", "release-check version-bumped 4.1.0 release-4.1.0 release-3.9.0"),
        ("release-notes-for", notes_step("4.1.0", "release-3.9.0")[2]),
        ("tag-is-not-taken-yet", "release-check tag-free release-4.1.0"),
        ("create-the-tag", 'git tag -a release-4.1.0 -m "Release 4.1.0"'),
        ("push-and-to-together", "git push --atomic upstream stable release-4.1.0"),
        MANUAL_PUBLISH[::2],
    ]


SECTIONED_DOC = """# Release

## Branch management

- Bug fixes go to the latest release branch
- Features go to main

## Cutting a release

1. Update the version:
   - Update `VERSION`
2. After merge, tag it:

   ```bash
   tag="v$(< VERSION)"
   git tag -s "${tag}" -m "${tag}"
   ```

3a. For release candidates: mark it as a pre-release
3b. For final releases: mark it as latest
4. Switch branch: `<yourname>/merge-back`

## Compatibility guarantees

- Methods may be added, but not removed
"""


def test_a_sectioned_release_document_keeps_its_procedure_only(tmp_path, data_dir):
    """Shaped like a Go library's RELEASE.md: policy lists around numbered steps, shell variables in code."""
    repo = build(tmp_path / "golib", {"go.mod": "module example.com/golib\n", "VERSION": "1.2.0\n",
                                      "RELEASE.md": SECTIONED_DOC}, ["v1.2.0"], {"VERSION": "1.3.0\n"})
    session = open_release(repo, data_dir)
    assert session.loaded.source == "adopted" and session.version == "1.3.0"
    document = [
        ("update-the-version", StepKind.MANUAL), ("after-merge-tag-it", StepKind.MANUAL),
        ("for-release-candidates-mark-it-as-a-pre-release", StepKind.MANUAL),
        ("for-final-releases-mark-it-as-latest", StepKind.MANUAL),
        ("switch-branch-yourname-merge-back", StepKind.MANUAL)]  # a code span that is no command line stays text
    names = {step_id for step_id, _kind in document}
    assert [(step.id, step.kind) for step in session.steps if step.id in names] == document
    assert not any(step.id.startswith(("bug-fixes", "methods-may")) for step in session.steps)  # policy sections
    assert session.steps[0].id == "working-tree-is-clean"
    hint = session.command_of(session.step("after-merge-tag-it"))
    assert 'git tag -s "v1.3.0" -m "v1.3.0"' in hint  # ${tag} filled in with this release's tag (issue 26)


def test_a_missing_test_tool_is_named_with_the_fix(tmp_path, data_dir):
    from release_checklist import clean_env
    from release_checklist.view_release import state_text

    repo = build(tmp_path / "lib", {"pyproject.toml": '[project]\nname = "lib"\nversion = "1.0.0"\n',
                                    "tox.ini": "[tox]\n"}, [], {})
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    session = ReleaseSession(str(repo), data_dir, env=clean_env(path=str(empty)))  # no tox on this PATH
    record = session.run_step("tests-pass")
    assert record.state == "unknown"
    assert state_text(record, EN, session.step("tests-pass")).startswith(
        "Couldn't check · tox is not installed: install it, or set the Tests line in RELEASE_CHECKLIST.md · ")


def test_a_test_script_whose_tools_are_not_installed_is_couldnt_check(tmp_path, data_dir):
    """np's `npm test` in a fresh clone runs `xo && ava` before `npm install`: the shell says "not found"."""
    import sys

    script = tmp_path / "fake-npm-test"
    script.write_text(f"#!{sys.executable}\nimport sys\nprint('sh: 1: xo: not found')\nsys.exit(127)\n",
                      encoding="utf-8")
    script.chmod(0o755)
    repo = build(tmp_path / "pkg", {"RELEASE_CHECKLIST.md": f"Tests: `{script}`\n"}, [], {})
    session = open_release(repo, data_dir)
    record = session.run_step("tests-pass")
    assert (record.state, record.outcome) == ("unknown", "unknown")
    assert record.message == "sh: 1: xo: not found (exit code 127: a program it needs is not installed)"


def test_a_make_target_whose_tool_is_missing_is_couldnt_check(tmp_path, data_dir):
    """cobra's `make test` without Go installed: make itself fails with "Error 127"."""
    makefile = "test:\n\tno-such-go-xyz test ./...\n"
    repo = build(tmp_path / "gomod", {"go.mod": "module x\n", "Makefile": makefile}, [], {})
    session = open_release(repo, data_dir)
    record = session.run_step("tests-pass")
    assert (session.command_of(session.step("tests-pass")), record.state) == ("make test", "unknown")
    assert record.message.endswith("(exit code 127: a program it needs is not installed)")
    assert "no-such-go-xyz" in record.message


def test_tests_that_could_not_download_their_dependencies_are_couldnt_check(tmp_path, data_dir):
    """ripgrep's `cargo test --workspace` offline: cargo cannot reach its index, nothing is tested."""
    import sys

    script = tmp_path / "fake-cargo"
    script.write_text(f"#!{sys.executable}\nimport sys\nprint('error: failed to download')\n"
                      "print('  [6] Could not resolve hostname (Could not resolve host: index.crates.io)')\n"
                      "sys.exit(101)\n", encoding="utf-8")
    script.chmod(0o755)
    repo = build(tmp_path / "ws", {"RELEASE_CHECKLIST.md": f"Tests: `{script} test --workspace`\n"}, [], {})
    record = open_release(repo, data_dir).run_step("tests-pass")
    assert (record.state, record.message) == (
        "unknown", "no network: [6] Could not resolve hostname (Could not resolve host: index.crates.io)")
