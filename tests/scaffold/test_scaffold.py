"""`agentty-plugin new`: the folder it writes has the house shape, runs on a bare python3, and tests itself."""

import json
import os
import shutil
import subprocess
import sys
import sysconfig

import pytest
from agentty_plugin.checks import inspect_plugin
from agentty_plugin.manifest import load_manifest
from agentty_plugin.scaffold import ScaffoldError, new_plugin
from agentty_plugin.testing import PaneSpec, PluginHost, WorkspaceSpec, World

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VENV_BIN = os.path.dirname(sys.executable)

EXPECTED_FILES = {
    "agentty-plugin.json", "main.py", "README.md", "CHANGELOG.md",
    "word_count/__init__.py", "word_count/ids.py", "word_count/app.py", "word_count/view.py", "word_count/text.py",
    "tests/conftest.py", "tests/test_word_count.py", "tests/run.py",
}


def own_files(folder):
    """Every file in the folder outside `_vendor/`, as relative paths with forward slashes."""
    found = set()
    for root, folders, files in os.walk(folder):
        folders[:] = [d for d in folders if d not in ("_vendor", "__pycache__", ".pytest_cache")]
        found.update(os.path.relpath(os.path.join(root, f), folder).replace(os.sep, "/") for f in files)
    return found


def bare_pytest(folder):
    """pytest in `folder` on an interpreter that cannot see the installed runtime: -S skips site-packages'
    .pth files (the editable install of agentty_plugin is one); pytest itself comes in through PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = sysconfig.get_paths()["purelib"]
    return subprocess.run([sys.executable, "-S", "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=folder,
                          env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """One plugin made by `new`, outside any checkout (so ../../shared does not exist next to it)."""
    return new_plugin("word-count", str(tmp_path_factory.mktemp("new")))


def test_new_writes_the_house_shape_and_passes_check(made):
    assert os.path.basename(made) == "word-count"
    assert own_files(made) == EXPECTED_FILES
    manifest = load_manifest(made)
    assert (manifest.id, manifest.name, manifest.runtime, manifest.main) == ("word-count", "Word Count", "python",
                                                                           "main.py")
    assert sorted(manifest.permissions) == ["prompt.inject", "workspace.read"]
    assert manifest.panel is not None and [c.id for c in manifest.commands] == ["word-count.ask"]
    result = inspect_plugin(made)
    assert result.problems == [] and result.warnings == []
    with open(os.path.join(made, "main.py"), encoding="utf-8") as handle:
        main = handle.read()
    assert "{{" not in main and "from word_count.app import App" in main and "plugin.on_event(ids.ASK)" in main


def test_the_plugin_code_stays_small(made):
    files = ["main.py"] + [f for f in EXPECTED_FILES if f.startswith("word_count/")]
    lines = 0
    for name in files:
        with open(os.path.join(made, name), encoding="utf-8") as handle:
            lines += sum(1 for line in handle if line.strip())
    assert 40 <= lines <= 175, lines  # 20 of them: main.py answering Agentty when the runtime is missing


def test_the_runtime_is_vendored_without_caches(made):
    vendored = os.path.join(made, "_vendor", "agentty_plugin")
    names = {os.path.relpath(os.path.join(r, f), vendored) for r, _d, fs in os.walk(vendored) for f in fs}
    assert {"__init__.py", "plugin.py", "ui.py", "panes.py", "testing.py"} <= names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert os.path.isfile(os.path.join(made, "_vendor", "VENDORED.txt"))


def test_its_own_tests_pass_with_only_the_vendored_runtime(made):
    run = bare_pytest(made)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "4 passed" in run.stdout


def stock_python3(folder, *arguments):
    """`python3 tests/run.py` as on a machine with nothing installed: -S hides site-packages (pytest, the
    editable runtime), -E any PYTHON* variable."""
    return subprocess.run([sys.executable, "-S", "-E", os.path.join("tests", "run.py"), *arguments], cwd=folder,
                          capture_output=True, text=True, timeout=300)


def test_its_own_tests_pass_on_a_stock_python3_without_pytest(made):
    assert bare_pytest(made).returncode == 0
    no_pytest = subprocess.run([sys.executable, "-S", "-E", "-c", "import pytest"], capture_output=True)
    assert no_pytest.returncode != 0  # the interpreter below really has no pytest
    run = stock_python3(made)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1].startswith("4 passed in ")
    one = stock_python3(made, os.path.join("tests", "test_word_count.py"))
    assert one.returncode == 0 and "4 passed" in one.stdout


def test_the_bare_runner_reports_a_failing_test_and_a_fixture_it_lacks(tmp_path):
    folder = new_plugin("word-count", str(tmp_path))
    with open(os.path.join(folder, "tests", "test_extra.py"), "w", encoding="utf-8") as handle:
        handle.write("def test_fails():\n    assert 1 == 2\n\n\ndef test_needs(monkeypatch):\n    pass\n")
    run = stock_python3(folder)
    assert run.returncode == 1
    assert "FAILED tests/test_extra.py::test_fails" in run.stdout and "assert 1 == 2" in run.stdout
    assert "FAILED tests/test_extra.py::test_needs" in run.stdout and "install pytest" in run.stdout
    assert "2 failed, 4 passed in " in run.stdout
    empty = stock_python3(folder, os.path.join("tests", "conftest.py"))
    assert empty.returncode == 5 and "no tests found" in empty.stdout


def test_without_the_vendored_runtime_its_tests_cannot_import_it(tmp_path):
    folder = new_plugin("word-count", str(tmp_path), vendor=False)
    run = bare_pytest(folder)
    assert run.returncode != 0
    assert "No module named 'agentty_plugin'" in run.stdout + run.stderr


def test_its_own_test_catches_a_prompt_typed_into_a_busy_agent(tmp_path):
    folder = new_plugin("word-count", str(tmp_path))
    app = os.path.join(folder, "word_count", "app.py")
    with open(app, encoding="utf-8") as handle:
        source = handle.read()
    careless = "pane = context.pane  # the focused pane, busy or not"
    source = source.replace("pane = idle_agent_pane(folder, context.pane, self.plugin.list_workspaces())", careless)
    assert careless in source
    with open(app, "w", encoding="utf-8") as handle:
        handle.write(source)
    run = bare_pytest(folder)
    assert run.returncode != 0
    assert "test_a_busy_agent_is_never_typed_into" in run.stdout
    run = stock_python3(folder)
    assert run.returncode == 1 and "FAILED tests/test_word_count.py::test_a_busy_agent_is_never_typed_into" \
        in run.stdout


def test_main_py_runs_on_a_bare_interpreter_in_the_users_language(made, tmp_path):
    world = World(workspaces=[WorkspaceSpec(id=1, cwd=str(tmp_path), panes=[
        PaneSpec(id=1, kind="claude", status="thinking", cwd=str(tmp_path)),
        PaneSpec(id=2, kind="codex", status="idle", cwd=str(tmp_path))])], focused_pane=1, language="ja")
    with PluginHost(made, world=world, python_args=["-S", "-E"]) as host:
        host.open_panel()
        host.wait_for_text("フォルダー")
        host.click("agent.ask")
        call = host.wait_for_call("prompt/inject")
        assert call.params["target"] == "pane" and call.params["paneId"] == 2  # the idle one, not the focused
        host.wait_for_text("codex (pane 2) に送りました。")
        assert world.pane(1).typed == [] and host.violations == []


def test_a_folder_outside_every_window_gets_a_notice_not_a_prompt(made):
    with PluginHost(made, world=World(), python_args=["-S", "-E"]) as host:
        host.open_panel()
        panel = host.wait_for_panel(lambda tree: host.find(tree, "agent.ask"))
        assert host.find(panel, "agent.ask")["disabled"] is True
        host.run_command("word-count.ask")
        host.wait_for(lambda: host.notifications, what="a notification")
        assert host.notifications == [("Focus a pane that works in a folder.", "warning")]
        assert host.calls_of("prompt/inject") == []


def test_a_refused_prompt_is_explained_in_the_panel(made, tmp_path):
    world = World(workspaces=[WorkspaceSpec(id=1, cwd=str(tmp_path), panes=[
        PaneSpec(id=1, kind="claude", status="idle", cwd=str(tmp_path))])], focused_pane=1, window_open=False)
    with PluginHost(made, world=world) as host:
        host.open_panel()
        host.wait_for_panel(lambda tree: host.find(tree, "agent.ask"))
        host.click("agent.ask")
        host.wait_for_text("Could not hand the prompt over: no Agentty window is open")


@pytest.mark.parametrize(("plugin_id", "reason"), [
    ("Word_Count", "kebab-case"),
    ("-word", "kebab-case"),
    ("w", "kebab-case"),
    ("a" * 41, "kebab-case"),
    ("word count", "kebab-case"),
    ("2fa-codes", "start the id with a letter"),
    ("class", "Python keywords"),
    ("json", "would hide Python's or the runtime's own module"),
    ("agentty-plugin", "would hide Python's or the runtime's own module"),
    ("main", "would hide"),
])
def test_bad_ids_are_refused_and_nothing_is_written(tmp_path, plugin_id, reason):
    with pytest.raises(ScaffoldError, match=reason):
        new_plugin(plugin_id, str(tmp_path))
    assert os.listdir(tmp_path) == []


def test_an_existing_folder_with_files_is_refused_and_left_alone(tmp_path):
    folder = tmp_path / "word-count"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    with pytest.raises(ScaffoldError, match="already exists and is not an empty folder"):
        new_plugin("word-count", str(tmp_path))
    assert os.listdir(folder) == ["notes.txt"] and (folder / "notes.txt").read_text() == "mine"
    assert os.listdir(tmp_path) == ["word-count"]  # no staging folder left behind
    (tmp_path / "other-one").write_text("a file where the folder would go")
    with pytest.raises(ScaffoldError, match="already exists"):
        new_plugin("other-one", str(tmp_path))


def test_an_existing_empty_folder_is_filled(tmp_path):
    (tmp_path / "word-count").mkdir()
    folder = new_plugin("word-count", str(tmp_path))
    assert own_files(folder) == EXPECTED_FILES


def test_the_command_line_writes_the_folder_or_says_why_not(tmp_path):
    run = subprocess.run([sys.executable, "-m", "agentty_plugin", "new", "word-count", "--dest", str(tmp_path)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert f"✓ word-count: wrote {tmp_path / 'word-count'}" in run.stdout and "python3 tests/run.py" in run.stdout
    again = subprocess.run([sys.executable, "-m", "agentty_plugin", "new", "word-count", "--dest", str(tmp_path)],
                           capture_output=True, text=True)
    assert again.returncode == 1 and "✗" in again.stderr and "already exists" in again.stderr
    bad = subprocess.run([sys.executable, "-m", "agentty_plugin", "new", "Bad_Id"], capture_output=True, text=True,
                         cwd=tmp_path)
    assert bad.returncode == 1 and "is not a plugin id" in bad.stderr
    check = subprocess.run([sys.executable, "-m", "agentty_plugin", "check", "."], capture_output=True, text=True,
                           cwd=tmp_path / "word-count")
    assert check.returncode == 0 and "✓ word-count" in check.stderr, check.stderr


def test_new_at_the_checkout_root_writes_nothing_and_says_where_to(tmp_path):
    before = sorted(os.listdir(REPO))
    run = subprocess.run([sys.executable, "-m", "agentty_plugin", "new", "word-count"], capture_output=True,
                         text=True, cwd=REPO)
    assert run.returncode == 1 and "--dest plugins" in run.stderr and "make new PLUGIN=word-count" in run.stderr
    assert sorted(os.listdir(REPO)) == before
    assert new_plugin("word-count", os.path.join(str(tmp_path), "plugins"))  # plugins/ of a checkout is fine


def test_make_test_collects_a_new_plugins_tests(tmp_path):
    """`make test` is pytest at the checkout root: its testpaths reach plugins/<id>/tests/, not _vendor/."""
    shutil.copy(os.path.join(REPO, "pyproject.toml"), tmp_path / "pyproject.toml")
    os.symlink(os.path.join(REPO, "shared"), tmp_path / "shared")
    (tmp_path / "tests").mkdir()
    new_plugin("word-count", str(tmp_path / "plugins"))
    os.makedirs(tmp_path / "plugins" / "word-count" / "_vendor" / "some_package" / "tests")
    (tmp_path / "plugins" / "word-count" / "_vendor" / "some_package" / "tests" / "test_theirs.py").write_text(
        "def test_not_ours():\n    pass\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-o", "addopts=", "--collect-only", "-q"], cwd=tmp_path,
                         capture_output=True, text=True)
    collected = [line for line in run.stdout.splitlines() if "::" in line]
    assert len(collected) == 4 and all(line.startswith("plugins/word-count/tests/test_word_count.py::")
                                       for line in collected), run.stdout


def test_inside_a_checkout_it_is_lint_and_type_clean(tmp_path):
    """Made under plugins/ of a checkout-shaped folder, it passes `make lint` and `make typecheck`'s commands."""
    shutil.copy(os.path.join(REPO, "pyproject.toml"), tmp_path / "pyproject.toml")
    os.symlink(os.path.join(REPO, "shared"), tmp_path / "shared")
    folder = new_plugin("word-count", str(tmp_path / "plugins"))
    ruff = subprocess.run([os.path.join(VENV_BIN, "ruff"), "check", "--extend-exclude", "_vendor", "plugins"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert ruff.returncode == 0, ruff.stdout + ruff.stderr
    mypy = subprocess.run([os.path.join(VENV_BIN, "mypy"), "--config-file", "../../pyproject.toml", "--exclude",
                           "(^|/)_vendor/", "--no-incremental", "."], cwd=folder, capture_output=True, text=True)
    assert mypy.returncode == 0, mypy.stdout + mypy.stderr


def test_make_bundle_builds_a_folder_that_runs_on_a_bare_interpreter(made, tmp_path):
    from agentty_plugin.distribution.bundle import bundle_plugin

    result = bundle_plugin(made, str(tmp_path / "dist"), make_zip=False, vermin=False)
    assert not os.path.exists(os.path.join(result.folder, "tests"))
    with open(os.path.join(result.folder, "_vendor", "VENDORED.txt"), encoding="utf-8") as handle:
        assert "written by `agentty-plugin bundle`" in handle.read()  # the bundle's own runtime, not new's copy
    with PluginHost(result.folder, world=World(), python_args=["-S", "-E"]) as host:
        host.open_panel()
        host.wait_for_panel(lambda tree: host.find(tree, "agent.ask"))
        assert host.violations == []


def test_the_template_is_shipped_as_package_data():
    with open(os.path.join(REPO, "pyproject.toml"), encoding="utf-8") as handle:
        text = handle.read()
    template = os.path.join(REPO, "shared", "agentty_plugin", "template")
    folders = {os.path.relpath(r, os.path.dirname(template)).replace(os.sep, "/")
               for r, _d, files in os.walk(template) if any(f.endswith(".tmpl") for f in files)}
    for folder in folders:
        package = "agentty_plugin." + folder.replace("/", ".")
        assert json.dumps(package) + ' = ["*.tmpl"]' in text and json.dumps(package) in text, folder
