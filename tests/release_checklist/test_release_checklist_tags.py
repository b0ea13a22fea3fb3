"""The last release is the newest final release tag reachable from HEAD, in the format of the newest releases."""
from __future__ import annotations

import subprocess
import sys

from release_checklist import ReleaseSession, StepState, parse_checklist
from release_checklist.checklist_file import format_checklist
from release_checklist.versions import guess_tag_format, tag_for, version_from_tag


def _scm_repo(make_repo, with_remote):
    """A setuptools-scm project (no version in its files): the tags alone say where it is."""
    repo = make_repo(version=None, files={"pyproject.toml": '[project]\nname = "demo"\ndynamic = ["version"]\n'
                                          '[tool.setuptools_scm]\n'})
    with_remote(repo)
    return repo


def _version_check(session):
    step = next(step for step in session.steps if (step.command or "").startswith("release-check version-bumped"))
    return session.run_step(step.id)


def _proposes(repo, data_dir, last, version):
    """The session reads `last` as the last release, proposes `version`, and the version check passes."""
    session = ReleaseSession(str(repo), data_dir)
    assert session.loaded.last_release == last
    assert session.version == version
    assert _version_check(session).state == StepState.PASSED


def test_a_dev_marker_tag_on_another_branch_is_not_the_last_release(make_repo, with_remote, data_dir):
    repo = _scm_repo(make_repo, with_remote)
    repo.git("tag", "-a", "9.1.0", "-m", "9.1.0")
    repo.git("checkout", "-q", "-b", "next")
    repo.write("next.txt", "x\n")
    repo.commit("work for 9.2")
    repo.git("tag", "-a", "9.2.0.dev0", "-m", "dev marker")
    repo.git("checkout", "-q", "main")
    repo.write("fix.txt", "x\n")
    repo.commit("fix")
    repo.git("tag", "-a", "9.1.1", "-m", "9.1.1")
    repo.write("fix2.txt", "x\n")
    repo.commit("another fix")
    _proposes(repo, data_dir, last=("9.1.1", "9.1.1"), version="9.1.2")


def test_a_pre_release_ancestor_with_a_higher_number_is_not_the_last_release(make_repo, with_remote, data_dir):
    repo = _scm_repo(make_repo, with_remote)
    repo.git("tag", "-a", "1.0.0.beta0", "-m", "beta")
    for version in ("0.27.0", "0.28.0", "0.28.1"):
        repo.write("f.txt", version)
        repo.commit(version)
        repo.git("tag", "-a", version, "-m", version)
    repo.write("g.txt", "x")
    repo.commit("fix")
    _proposes(repo, data_dir, last=("0.28.1", "0.28.1"), version="0.28.2")


def test_the_tag_format_follows_the_newest_releases_not_the_most_numerous(make_repo, with_remote, data_dir):
    repo = make_repo(version=None, files={"package.json": '{"name": "web", "version": "5.2.1"}\n'})
    with_remote(repo)
    refs = "".join(f"create refs/tags/4.{minor}.{patch} HEAD\n" for minor in range(20) for patch in range(5))
    subprocess.run(["git", "update-ref", "--stdin"], cwd=repo.path, input=refs.encode(), check=True)
    repo.git("tag", "-a", "5.0.0-beta.2", "-m", "beta")
    for version in ("5.0.0", "5.1.0", "5.2.0", "5.2.1"):
        repo.git("tag", "-a", f"v{version}", "-m", version)
    repo.write("package.json", '{"name": "web", "version": "5.2.2"}\n')
    repo.commit("5.2.2")
    session = ReleaseSession(str(repo), data_dir)
    assert session.loaded.tag_format == "v{version}"
    assert session.loaded.last_release == ("v5.2.1", "5.2.1")
    assert session.tag == "v5.2.2"
    push = [session.command_of(step) for step in session.steps if "push" in (step.command or "")]
    assert any("v5.2.2" in command.split() for command in push)


def test_a_tag_style_with_underscores_is_read_written_and_settable():
    tags = ["rc-8_22_0-1", "curl-8_21_0", "curl-8_20_0", "curl-7_88_1"]
    assert guess_tag_format(tags, ["curl"]) == "curl-{major}_{minor}_{patch}"
    assert version_from_tag("curl-8_21_0", "curl-{major}_{minor}_{patch}") == "8.21.0"
    assert tag_for("8.21.1", "curl-{major}_{minor}_{patch}") == "curl-8_21_1"
    assert guess_tag_format(["R_2_8_3", "R_2_8_2"], ["libexpat"]) == "R_{major}_{minor}_{patch}"
    spec = parse_checklist("# R\nTag format: `curl-{major}_{minor}_{patch}`\n- [ ] Go: `true`\n")
    assert spec.tag_format == "curl-{major}_{minor}_{patch}"
    assert parse_checklist(format_checklist(spec)).tag_format == spec.tag_format


def test_an_underscore_tagged_project_is_not_a_first_release(make_repo, with_remote, data_dir):
    repo = make_repo(version=None, files={"configure.ac": "AC_INIT([curl], [-])\n"})
    with_remote(repo)
    for tag in ("curl-8_20_0", "curl-8_21_0"):
        repo.git("tag", "-a", tag, "-m", tag)
    repo.write("lib.c", "int x;\n")
    repo.commit("fix")
    session = ReleaseSession(str(repo.path), data_dir)
    assert session.loaded.last_release == ("curl-8_21_0", "8.21.0")
    assert (session.version, session.tag) == ("8.21.1", "curl-8_21_1")
    record = _version_check(session)
    # No version file: the proposed version is not a bump anyone made, so the check could not tell.
    assert record.state == StepState.UNKNOWN
    assert "first release" not in " ".join(record.tail) and "no version file was read" in " ".join(record.tail)


def test_first_release_only_when_there_is_no_release_tag_at_all(make_repo, with_remote, tmp_path):
    bare = make_repo(version="0.1.0")
    with_remote(bare)
    done = subprocess.run([sys.executable, "-m", "release_checklist.builtin_checks", "version-bumped", "0.1.0",
                           "v0.1.0"], cwd=bare.path, capture_output=True, text=True)
    assert done.returncode == 0 and "first release" in done.stdout
    other = make_repo(version="8.21.1")
    other.git("tag", "-a", "curl-8_21_0", "-m", "x")
    done = subprocess.run([sys.executable, "-m", "release_checklist.builtin_checks", "version-bumped", "8.21.1",
                           "v8.21.1"], cwd=other.path, capture_output=True, text=True)
    assert done.returncode != 0 and "first release" not in done.stdout
    assert "curl-8_21_0" in done.stdout


def test_a_project_name_ending_in_a_digit_is_part_of_the_tag_prefix(make_repo, with_remote, data_dir):
    # "pcre2-10.47", "log4j2-2.1", "python3-3.12.1": the digit belongs to the name, the version follows the "-".
    repo = make_repo(version=None, files={"configure.ac": "AC_INIT([demo], [-])\n"})
    with_remote(repo)
    for tag in ("pcre2-10.46", "pcre2-10.47-RC1", "pcre2-10.47"):
        repo.git("tag", "-a", tag, "-m", tag)
    repo.write("lib.c", "int x;\n")
    repo.commit("fix")
    assert guess_tag_format(["pcre2-10.47", "pcre2-10.47-RC1", "pcre2-10.46"], ["pcre2"]) == "pcre2-{version}"
    session = ReleaseSession(str(repo.path), data_dir)
    assert session.loaded.last_release == ("pcre2-10.47", "10.47")
    assert (session.version, session.tag) == ("10.48", "pcre2-10.48")
    record = _version_check(session)
    # No version file: the proposed version is not a bump anyone made, so the check could not tell.
    assert record.state == StepState.UNKNOWN
    assert "first release" not in " ".join(record.tail) and "no version file was read" in " ".join(record.tail)


def test_a_lone_number_tag_is_not_the_newest_release(make_repo, with_remote, data_dir):
    # Old snapshot tags named by a date ("V20000512", mistyped "V1990307") are not higher release numbers.
    repo = make_repo(version=None, files={"configure.ac": "AC_INIT([demo], [-])\n"})
    with_remote(repo)
    for tag in ("V1990307", "V20000512", "R_2_8_2", "R_2_8_3"):
        repo.git("tag", "-a", tag, "-m", tag)
    repo.write("lib.c", "int x;\n")
    repo.commit("fix")
    session = ReleaseSession(str(repo.path), data_dir)
    assert session.loaded.tag_format == "R_{major}_{minor}_{patch}"
    assert session.loaded.last_release == ("R_2_8_3", "2.8.3")
    assert (session.version, session.tag) == ("2.8.4", "R_2_8_4")
    assert _version_check(session).state == StepState.UNKNOWN  # a proposal, with no version file to confirm it
    assert guess_tag_format(["v4", "v4.1.0", "v3"]) == "v{version}"  # an action's moving major tag
    assert guess_tag_format(["v255", "v254"]) == "v{version}"  # lone numbers alone are still read


def test_tags_that_look_like_releases_in_an_unread_style_are_never_a_first_release(make_repo, tmp_path):
    # Whatever the parser makes of a tag, numbers joined by . _ or - mean releases exist: could not check.
    repo = make_repo(version="3.0.1")
    for tag in ("build2-r10.47x", "rel2/3.0.0+final"):
        repo.git("tag", "-a", tag, "-m", tag)
    done = subprocess.run([sys.executable, "-m", "release_checklist.builtin_checks", "version-bumped", "3.0.1",
                           "v3.0.1"], cwd=repo.path, capture_output=True, text=True)
    assert "first release" not in done.stdout
    assert done.returncode != 0


def test_a_final_qualifier_is_part_of_the_tag_and_build_metadata_no_pre_release(make_repo, with_remote, data_dir):
    """Hibernate's 6.4.0.Final and Spring's 5.3.0.RELEASE name final releases (a CR1 or M1 beside them does not),
    and 1.2.3+build.5 is the release 1.2.3 (SemVer build metadata), never a pre-release passed over."""
    assert guess_tag_format(["v6.4.1.CR1", "v6.4.0.Final", "v6.3.9.Final"]) == "v{version}.Final"
    assert guess_tag_format(["5.3.1.M1", "5.3.0.RELEASE"]) == "{version}.RELEASE"
    assert version_from_tag("v6.4.0.Final", "v{version}.Final") == "6.4.0"
    repo = make_repo(version="6.4.1", tags=("v6.3.9.Final", "v6.4.0.Final"))
    repo.write("VERSION", "x\n")
    repo.commit("more")
    repo.git("tag", "-a", "v6.4.1.CR1", "-m", "candidate")
    with_remote(repo)
    session = ReleaseSession(str(repo), data_dir)
    assert session.loaded.last_release == ("v6.4.0.Final", "6.4.0")
    assert session.tag == "v6.4.1.Final" and _version_check(session).state == StepState.PASSED
    built = make_repo(version=None, files={"pyproject.toml": '[project]\nname = "demo"\ndynamic = ["version"]\n'
                                           '[tool.setuptools_scm]\n'}, tags=("v1.2.2", "v1.2.3+build.5"))
    with_remote(built)
    _proposes(built, data_dir + "-built", ("v1.2.3+build.5", "1.2.3+build.5"), "1.2.4")
