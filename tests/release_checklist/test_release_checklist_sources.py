"""Version and changelog sources real projects declare, and release-note headings in the forms they use."""
from __future__ import annotations

import pytest
from release_checklist import ReleaseSession, StepState
from release_checklist.project_files import changelog_mentions, detect_project, top_changelog_version


def _check(session, name):
    step = next(step for step in session.steps if (step.command or "").startswith(f"release-check {name}"))
    return session.run_step(step.id)


@pytest.mark.parametrize("text, version, line", [
    ("ChangeLog file for zlib\n\nChanges in 1.3.2 (30 Aug 2026)\n- Fix a bug\n", "1.3.2", 3),
    ("curl and libcurl 8.21.1\n\n Public curl releases:         275\n", "8.21.1", 1),
    ("2026.08.30, Version 1.52.2 (Stable)\n\nChanges since version 1.52.1:\n", "1.52.2", 1),
    ("NOTE: text\n\nRelease 2.8.4 Sun August 30 2026\n        Security fixes:\n", "2.8.4", 3),
    ("Compared to 10.45, this release has only a minimal code change to prevent a\nproblem.\n", "10.45", None),
    ("We fixed a crash\nthat came with 1.3.2 on Windows\n\n", "1.3.2", None),
])
def test_release_note_headings_in_real_forms(text, version, line):
    assert changelog_mentions(text, version) == line


def test_a_date_in_a_heading_is_not_the_version_unless_the_project_uses_dates():
    text = "2026.08.30, Version 1.52.2 (Stable)\n\nChanges since version 1.52.1:\n"
    assert top_changelog_version(text, "1.52.1") == "1.52.2"
    assert top_changelog_version("### 2026.08.30\n\n- new\n", "2026.08.19") == "2026.08.30"


def test_towncriers_output_file_is_the_changelog(make_repo, with_remote, data_dir):
    repo = make_repo(version=None, files={
        "pyproject.toml": ('[project]\nname = "runner"\ndynamic = ["version"]\n[tool.setuptools_scm]\n'
                           '[tool.towncrier]\npackage = "runner"\nfilename = "doc/en/changelog.rst"\n'
                           'directory = "changelog/"\ntitle_format = "runner {version} ({project_date})"\n'),
        "CHANGELOG.rst": "The changelog is in doc/en/changelog.rst.\n",
        "doc/en/changelog.rst": ("Changelog\n=========\n\n.. towncrier release notes start\n\n"
                                 "runner 9.1.2 (2026-08-30)\n=========================\n\n- fix\n\n"
                                 "runner 9.1.1 (2026-06-19)\n=========================\n\n- fix\n"),
    })
    repo.git("tag", "-a", "9.1.1", "-m", "9.1.1", "HEAD")
    repo.write("x.txt", "x")
    repo.commit("after")
    with_remote(repo)
    session = ReleaseSession(str(repo), data_dir)
    assert session.project.changelog_file == "doc/en/changelog.rst"
    assert session.version == "9.1.2"
    assert _check(session, "changelog-entry").state == StepState.PASSED


def test_curl_style_release_notes_give_the_version(make_repo, with_remote, data_dir):
    repo = make_repo(version=None, files={
        "configure.ac": "AC_INIT([curl], [-])\n", "CHANGES.md": "# Changelog\n\nSee the RELEASE-NOTES.\n",
        "RELEASE-NOTES": "curl and libcurl 8.21.0\n\n Public curl releases: 274\n\nThis release includes:\n",
    })
    repo.git("tag", "-a", "curl-8_21_0", "-m", "x")
    repo.write("RELEASE-NOTES", "curl and libcurl 8.21.1\n\n Public curl releases: 275\n\nThis release includes:\n")
    repo.commit("8.21.1")
    with_remote(repo)
    session = ReleaseSession(str(repo), data_dir)
    assert session.project.changelog_file == "RELEASE-NOTES"
    assert (session.version, session.version_source, session.tag) == ("8.21.1", "changelog", "curl-8_21_1")
    assert _check(session, "changelog-entry").state == StepState.PASSED


def test_release_notes_deeper_in_the_docs_and_in_the_projects_own_folder(make_repo):
    repo = make_repo(version=None, files={
        "pyproject.toml": '[project]\nname = "web"\nversion = "0.141.2"\n',
        "docs/en/docs/release-notes.md": "# Release Notes\n\n## 0.141.2 (2026-08-30)\n\n## 0.141.1 (2026-07-29)\n",
        "docs/en/docs/index.md": "# web\n",
    })
    assert detect_project(str(repo), last_release="0.141.1").changelog_file == "docs/en/docs/release-notes.md"
    c_lib = make_repo(version=None, files={
        "README.md": "lib\n", "expat/CMakeLists.txt": "project(expat VERSION 2.8.4)\n",
        "expat/Changes": "NOTE: text\n\nRelease 2.8.4 Sun August 30 2026\n        Bug fixes:\n\n"
                         "Release 2.8.3 Mon August 10 2026\n        Security fixes:\n",
        "testdata/changes.txt": "Release 2.8.3\n\n",
    })
    assert detect_project(str(c_lib), last_release="2.8.3").changelog_file == "expat/Changes"


@pytest.mark.parametrize("files, version, where", [
    ({"pyproject.toml": '[project]\nname = "web"\ndynamic = ["version"]\n[tool.hatch.version]\n'
                        'path = "web/__version__.py"\n',
      "web/__version__.py": '__title__ = "web"\n__version__ = "0.28.2"\n'}, "0.28.2", "web/__version__.py"),
    ({"pyproject.toml": '[project]\nname = "dl"\ndynamic = ["version"]\n[tool.hatch.version]\npath = "dl/version.py"\n'
                        "pattern = \"_pkg_version = '(?P<version>[^']+)'\"\n",
      "dl/version.py": "__version__ = '2026.08.19'\n_pkg_version = '2026.08.30'\n"}, "2026.08.30", "dl/version.py"),
    ({"pyproject.toml": '[project]\nname = "api"\ndynamic = ["version"]\n[tool.pdm]\n'
                        'version = { source = "file", path = "api/__init__.py" }\n',
      "api/__init__.py": '"""api"""\n\n__version__ = "0.141.2"\n'}, "0.141.2", "api/__init__.py"),
    ({"pyproject.toml": '[project]\nname = "http"\ndynamic = ["version"]\n[tool.setuptools.dynamic]\n'
                        'version = {attr = "http.__version__.__version__"}\n',
      "src/http/__version__.py": '__version__ = "2.34.3"\n', "src/http/__init__.py": ""}, "2.34.3",
     "src/http/__version__.py"),
    ({"setup.cfg": "[metadata]\nname = cfg\nversion = attr: cfg.VERSION\n", "setup.py": "",
      "cfg/__init__.py": 'VERSION = "3.1.4"\n'}, "3.1.4", "cfg/__init__.py"),
])
def test_version_files_a_build_configuration_names(make_repo, files, version, where):
    repo = make_repo(version=None, files=files)
    project = detect_project(str(repo))
    assert (project.version, project.version_file) == (version, where)


def test_a_c_version_macro_named_in_the_checklist_settings(make_repo, with_remote, data_dir):
    header = ('#define LIBCURL_COPYRIGHT "Daniel"\n#define LIBCURL_VERSION "8.21.1-DEV"\n'
              "#define LIBCURL_VERSION_MAJOR 8\n")
    repo = make_repo(version=None, files={"include/curl/curlver.h": header, "configure.ac": "AC_INIT\n",
                                          "RELEASE_CHECKLIST.md": "# Release\nVersion file: `include/curl/curlver.h`\n"
                                                                  "Version macro: `LIBCURL_VERSION`\n"})
    repo.git("tag", "-a", "curl-8_21_0", "-m", "x")
    repo.write("include/curl/curlver.h", header.replace("8.21.1-DEV", "8.21.1"))
    repo.commit("8.21.1")
    with_remote(repo)
    session = ReleaseSession(str(repo), data_dir)
    assert (session.version, session.project.version_file) == ("8.21.1", "include/curl/curlver.h")
    assert _check(session, "version-bumped").state == StepState.PASSED
    split = make_repo(version=None, files={"include/uv/version.h": "#define UV_VERSION_MAJOR 1\n"
                                           "#define UV_VERSION_MINOR 52\n#define UV_VERSION_PATCH 2\n"})
    assert detect_project(str(split), version_file="include/uv/version.h").version == "1.52.2"


def test_a_js_monorepo_releases_the_package_named_like_the_repository(tmp_path, make_repo):
    repo = make_repo(version=None, files={
        "package.json": '{"name": "@tool/monorepo", "private": true, "workspaces": ["packages/*"]}\n',
        "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
        "packages/create-tool/package.json": '{"name": "create-tool", "version": "9.1.2"}\n',
        "packages/tool/package.json": '{"name": "tool", "version": "8.2.3"}\n',
        "packages/tool/CHANGELOG.md": "## 8.2.3 (2026-08-30)\n\n## 8.2.2 (2026-08-20)\n",
        "packages/create-tool/CHANGELOG.md": "## 9.1.2\n\n## 8.2.2\n",
    })
    named = tmp_path / "tool"
    repo.path.rename(named)
    project = detect_project(str(named), last_release="8.2.2")
    assert (project.version, project.version_file) == ("8.2.3", "packages/tool/package.json")
    assert project.changelog_file == "packages/tool/CHANGELOG.md"
