"""Project detection (version, test command, changelog), versions and tags, pane choice, panel limits."""
from __future__ import annotations

import json

import pytest
from agentty_plugin import Pane, Workspace, ui
from agentty_plugin.panes import idle_agent_pane
from release_checklist.app import SHELL_KINDS
from release_checklist.project_files import changelog_mentions, detect_project, read_toml_values
from release_checklist.versions import (
    guess_tag_format,
    highest_tagged_version,
    next_patch,
    sort_versions,
    version_from_tag,
    version_key,
)


@pytest.mark.parametrize(("files", "version", "version_file", "test_command"), [
    ({"pyproject.toml": '[project]\nname = "a"\nversion = "2.0.1"\n', "tests/t.py": ""}, "2.0.1", "pyproject.toml",
     "python3 -m pytest"),
    ({"pyproject.toml": '[tool.poetry]\nname = "a"\nversion = "0.3.0"  # bump me\n', "poetry.lock": "",
      "tests/t.py": ""}, "0.3.0", "pyproject.toml", "poetry run pytest"),
    ({"pyproject.toml": '[project]\nname = "pkg"\ndynamic = ["version"]\n',
      "src/pkg/__init__.py": '__version__ = "1.2.3"\n'}, "1.2.3", "src/pkg/__init__.py", None),
    ({"setup.cfg": "[metadata]\nname = a\nversion = 4.5.6\n", "setup.py": ""}, "4.5.6", "setup.cfg", None),
    ({"package.json": json.dumps({"name": "web", "version": "3.1.0", "scripts": {"test": "vitest"}}),
      "pnpm-lock.yaml": ""}, "3.1.0", "package.json", "pnpm test"),
    ({"package.json": json.dumps({"version": "1.0.0", "scripts": {"test": 'echo "Error: no test specified"'}})},
     "1.0.0", "package.json", None),
    ({"Cargo.toml": '[package]\nname = "c"\nversion.workspace = true\n\n[workspace.package]\nversion = "0.9.0"\n'},
     "0.9.0", "Cargo.toml", "cargo test"),
    ({"go.mod": "module example.com/x\n", "VERSION": "v-not\n"}, None, None, "go test ./..."),
    ({"VERSION": "5.0.0\n", "Makefile": "build:\n\ttrue\ntest:\n\ttrue\n"}, "5.0.0", "VERSION", "make test"),
])
def test_detect_project(tmp_path, files, version, version_file, test_command):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    info = detect_project(str(tmp_path), windows=False)
    assert (info.version, info.version_file, info.test_command) == (
        version, version_file.replace("/", __import__("os").sep) if version_file else None, test_command)


def test_windows_uses_python_not_python3(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nversion = "1.0.0"\n[tool.pytest.ini_options]\n')
    assert detect_project(str(tmp_path), windows=True).test_command == "python -m pytest"


def test_toml_reader_ignores_what_it_does_not_need():
    values = read_toml_values('title = "x"\n[a . "b"]\nkey = \'lit\'\narr = [\n 1,\n]\nflag = true\n')
    assert values["a.b"] == {"key": "lit", "flag": "true"} and values[""] == {"title": "x"}


@pytest.mark.parametrize(("text", "version", "line"), [
    ("# Changelog\n\n## [1.2.0] - 2026-01-01\n", "1.2.0", 3),
    ("Release 1.2.0 is great\n\n1.2.0 (2026)\n============\n", "1.2.0", 3),
    ("## v1.2.0\n", "1.2.0", 1),
    ("## 1.2.0-rc.1\n", "1.2.0", None),
    ("## 11.2.0\n", "1.2.0", None),
    ("- fixed 1.2.0 bug\n", "1.2.0", None),
])
def test_changelog_mentions(text, version, line):
    assert changelog_mentions(text, version) == line


def test_versions_and_tags():
    assert version_key("1.10.0") > version_key("1.9.9") > version_key("1.9.9-rc.2") > version_key("1.9.9-rc.1")
    assert version_key("1.2") == version_key("1.2.0") and version_key("v1") is None
    assert version_from_tag("release-1.2.0", "release-{version}") == "1.2.0"
    assert version_from_tag("v1.2.0", "{version}") is None
    assert guess_tag_format(["1.0.0", "0.9.0", "v0.1.0"]) == "{version}"
    assert guess_tag_format([]) == "v{version}"
    tags = ["v1.9.0", "v1.10.0", "v2.0.0-rc.1", "junk"]
    # A pre-release is never the last release (issue 26); it is still found when asked for.
    assert highest_tagged_version(tags, "v{version}") == ("v1.10.0", "1.10.0")
    assert highest_tagged_version(tags, "v{version}", final_only=False) == ("v2.0.0-rc.1", "2.0.0-rc.1")
    assert next_patch("1.2.9") == "1.2.10" and next_patch("1.2") == "1.3" and next_patch("1") is None
    assert next_patch("2024.01.09") == "2024.01.10" and next_patch("1.2.3-rc.1") is None
    assert sort_versions(["1.0.0", "x", "2.0.0"]) == ["2.0.0", "1.0.0", "x"]


def _pane(pane_id, kind, status, cwd):
    return Pane(id=pane_id, kind=kind, status=status, cwd=cwd)


def test_choose_pane_never_picks_a_busy_one(tmp_path):
    repo, elsewhere = str(tmp_path / "repo"), str(tmp_path / "other")
    (tmp_path / "repo" / "sub").mkdir(parents=True)
    (tmp_path / "other").mkdir()
    busy = _pane(1, "claude", "working", repo)
    asking = _pane(2, "codex", "permission", repo)
    other_repo = _pane(3, "claude", "idle", elsewhere)
    idle = _pane(4, "claude", "idle", repo + "/sub")
    shell = _pane(5, "shell", "idle", repo)
    workspaces = [Workspace(id=1, cwd=repo, panes=[busy, asking, other_repo, idle, shell])]
    # The runtime's policy, as app.py calls it for a prompt (agents) and for a terminal step (shells).
    assert idle_agent_pane(repo, busy, workspaces) is idle
    assert idle_agent_pane(repo, busy, workspaces, kinds=SHELL_KINDS) is shell
    assert idle_agent_pane(repo, None, [Workspace(id=1, cwd=repo, panes=[busy, asking, other_repo])]) is None


def test_panel_stays_within_host_limits(make_repo, data_dir):
    from release_checklist import ReleaseSession
    from release_checklist.release_view import release_of
    from release_checklist.text import TEXT
    from release_checklist.view import State, render

    repo = make_repo()
    repo.write("RELEASE_CHECKLIST.md", "\n".join(f"- [ ] Step {n}: `true` #timeout=5" for n in range(700)) + "\n")
    view = State(folder=str(repo), release=release_of(ReleaseSession(str(repo), data_dir)))
    for language in ("en", "ja", "ko", "zh"):
        tree = render(view._replace(language=language), TEXT.for_language(language))
        ui.validate(tree)
        assert ui.count_elements(tree) <= 2000


_PY = '[project]\nname = "p"\nversion = "1.0.0"\n'


@pytest.mark.parametrize(("files", "test_command"), [
    ({"Makefile": "test:\n\ttrue\n", "pyproject.toml": _PY, "tox.ini": "[tox]\n"}, "make test"),
    ({"Makefile": "check:\n\truff .\n", "pyproject.toml": _PY, "tox.ini": "[tox]\n"}, "tox"),
    ({"Makefile": "all:\n\tcc x.c\ncheck: all\n\t./t\n"}, "make check"),
    ({"justfile": "test:\n    cargo nextest run\n", "Cargo.toml": '[package]\nversion = "1.0.0"\n'}, "just test"),
    ({"noxfile.py": "", "package.json": json.dumps({"scripts": {"test": "jest"}}), "pyproject.toml": _PY}, "nox"),
    ({"package.json": json.dumps({"scripts": {"test": "jest"}}), "yarn.lock": "",
      "Cargo.toml": "[workspace]\nmembers = []\n"}, "yarn test"),
    ({"Cargo.toml": '[workspace]\nmembers = ["a"]\n', "go.mod": "module x\n"}, "cargo test --workspace"),
    ({"pyproject.toml": _PY + '[tool.hatch.envs.default.scripts]\ntest = "pytest"\n'}, "hatch run test"),
    ({"pyproject.toml": _PY, "uv.lock": "", "tests/test_x.py": ""}, "uv run pytest"),
    ({"pyproject.toml": _PY + "[tool.tox]\nrequires = []\n"}, "tox"),
    ({"go.mod": "module x\n", "pyproject.toml": _PY, "tests/t.py": ""}, "go test ./..."),
])
def test_the_test_command_follows_the_projects_intent(tmp_path, files, test_command):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert detect_project(str(tmp_path), windows=False).test_command == test_command


def test_tag_formats_follow_the_project_not_its_members():
    ripgrep_like = ["15.2.0", "15.1.0", "14.1.1", "ignore-0.4.33", "ignore-0.4.32", "globset-0.4.20",
                    "grep-searcher-0.1.17", "ignore-0.4.31", "ignore-0.4.30"]
    assert guess_tag_format(ripgrep_like, ["ripgrep"]) == "{version}"
    assert guess_tag_format(["jq-1.8.2", "jq-1.8.1", "jq-1.7", "1.6rc2"], []) == "jq-{version}"
    assert guess_tag_format(["mylib-v2.0.0", "other-1.0.0"], ["mylib"]) == "mylib-v{version}"
    assert guess_tag_format(["v1.2.0", "1.1.0"]) == "v{version}"
    assert guess_tag_format(["dev-1.0.0", "dev-1.1.0", "x-1.0.0", "y-1.0.0", "z-1.0.0"], ["dev"]) == "dev-{version}"


def test_a_folder_outside_git_is_named_home_relative():
    import os

    from release_checklist.text import TEXT
    from release_checklist.view import State, render

    state = State(folder=os.path.join(os.path.expanduser("~"), "scratch"), not_repo=True)
    texts = [child.get("text") for child in render(state, TEXT.for_language("en"))["children"]]
    assert os.path.join("~", "scratch") + " is not inside a git repository." in texts
