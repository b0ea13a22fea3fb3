"""`agentty-plugin check`: icons Agentty has, and the controller contract, each breach named by file and line."""

import json
import os
import re
import subprocess
import sys

import pytest
from agentty_plugin import contract
from agentty_plugin.checks import inspect_plugin
from agentty_plugin.icons import ICONS, NEWER_ICONS, code_icons
from agentty_plugin.scaffold import new_plugin

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def edit(folder, path, old, new):
    full = os.path.join(folder, path)
    with open(full, encoding="utf-8") as handle:
        text = handle.read()
    assert old in text, (path, old)
    with open(full, "w", encoding="utf-8") as handle:
        handle.write(text.replace(old, new))


def line_of(folder, path, needle):
    with open(os.path.join(folder, path), encoding="utf-8") as handle:
        return next(number for number, line in enumerate(handle, 1) if needle in line)


@pytest.fixture
def made(tmp_path):
    return new_plugin("word-count", str(tmp_path), vendor=False)


def test_the_template_passes_both_rules(made):
    result = inspect_plugin(made)
    assert result.problems == [] and result.warnings == []


def test_an_icon_agentty_lacks_is_named_with_its_file_and_line(made):
    edit(made, "agentty-plugin.json", '"panel": { "title": "Word Count", "icon": "sparkles"',
         '"panel": { "title": "Word Count", "icon": "list-todo"')
    edit(made, "word_count/view.py", 'icon="sparkles"', 'icon="triangle-alert"')
    edit(made, "word_count/view.py", "def render(",
         'LOOK = {"a": ("check", "success"), "b": ("eye-off", "muted")}\n\n\n'
         "def tone_icon(key: str) -> Any:\n    icon, _tone = LOOK.get(key, (\"circle-help\", \"neutral\"))\n"
         "    return ui.action(\"x\", icon=icon)\n\n\ndef render(")
    problems = [p for p in inspect_plugin(made).problems if "icon" in p]
    panel_line = line_of(made, "agentty-plugin.json", "list-todo")
    assert any(p.startswith(f"agentty-plugin.json:{panel_line}: icon 'list-todo' is not in Agentty's icon set")
               for p in problems), problems
    for name in ("triangle-alert", "eye-off", "circle-help"):
        line = line_of(made, "word_count/view.py", name)
        assert any(p.startswith(f"word_count/view.py:{line}: icon {name!r}") for p in problems), (name, problems)
    assert len(problems) == 4 and not any("'check'" in p for p in problems)
    assert "near: shield-alert" in next(p for p in problems if "triangle-alert" in p)


def test_the_command_line_fails_on_an_unknown_icon(made):
    edit(made, "word_count/view.py", 'icon="sparkles"', 'icon="git-merge"')
    run = subprocess.run([sys.executable, "-m", "agentty_plugin", "check", "."], cwd=made, capture_output=True,
                         text=True)
    assert run.returncode == 1 and "word_count/view.py:" in run.stderr and "'git-merge'" in run.stderr


def test_icons_the_check_can_and_cannot_see(tmp_path):
    path = tmp_path / "view.py"
    path.write_text(
        "from agentty_plugin import ui\n"
        "STYLE = {'staged': ('success', 'check'), 'conflicted': ('error', 'x')}\n"
        "def row(group, missing, chosen):\n"
        "    tone, icon = STYLE[group]\n"
        "    if missing:\n"
        "        icon = 'trash-2'\n"
        "    other = 'lock' if missing else 'file-text'\n"
        "    return [ui.item('a', 'b', None, None, icon), ui.button('b', 'c', other), ui.action('c', icon=chosen),\n"
        "            ui.action('d', 'e', missing and 'eye'), ui.item('e', 'f', icon=None)]\n")
    found, unseen = code_icons(str(path))
    assert sorted(name for _line, name in found) == ["check", "eye", "file-text", "lock", "trash-2", "x"]
    assert (2, "check") in found and (6, "trash-2") in found  # the literal's own line
    assert unseen == [8]  # icon=chosen: a parameter, decided by the caller


def test_a_newer_hosts_icon_is_a_warning_not_a_failure(made):
    edit(made, "word_count/view.py", 'icon="sparkles"', 'icon="lock-open"')
    result = inspect_plugin(made)
    assert result.problems == [] and any("'lock-open' exists only in newer Agentty" in w for w in result.warnings)


def test_the_dev_host_draws_every_icon_it_knows_from_the_set():
    with open(os.path.join(REPO, "shared", "agentty_devhost", "static", "icons.js"), encoding="utf-8") as handle:
        drawn = set(re.findall(r'"([a-z0-9-]+)":', handle.read()))
    assert drawn <= ICONS | NEWER_ICONS
    assert len(ICONS) == 116 and len(NEWER_ICONS) == 10 and not ICONS & NEWER_ICONS


@pytest.mark.parametrize(("path", "old", "new", "breach"), [
    ("word_count/view.py", "from agentty_plugin import ui\n", "from agentty_plugin import Plugin, ui\n",
     "the view imports Plugin"),
    ("word_count/view.py", "from . import ids\n", "from . import ids\nfrom .app import App\n",
     "the view imports .app"),
    ("word_count/view.py", "class State(NamedTuple):", "@dataclass(frozen=True)\nclass State:",
     "State is a dataclass; make it a typing.NamedTuple"),
    ("word_count/app.py", "class App:", "class WordCountApp:", "defines no controller class App (it has WordCountApp)"),
    ("word_count/app.py", "def __init__(self, plugin: Plugin)", "def __init__(self, host: Plugin)",
     "App's __init__ takes the plugin as `plugin`"),
    ("word_count/app.py", "def update(self", "def _change(self", "App has no update(**changes)"),
    ("word_count/text.py", "TEXT = Translator", "TRANSLATOR = Translator", "defines no catalog TEXT"),
    ("word_count/text.py", '"no_folder": "Focus', '"no-folder": "Focus', "catalog key 'no-folder' is not snake_case"),
])
def test_each_contract_rule_fails_a_migrated_plugin(made, path, old, new, breach):
    edit(made, path, old, new)
    result = inspect_plugin(made)
    assert any(path in p and breach in p for p in result.problems), result.problems


def test_a_plugin_not_migrated_yet_gets_warnings(made, monkeypatch):
    edit(made, "word_count/app.py", "class App:", "class WordCountApp:")
    monkeypatch.setattr("agentty_plugin.checks.CONTRACT_PENDING", frozenset({"word-count"}))
    result = inspect_plugin(made)
    assert result.problems == []
    assert any(w.startswith("contract (not enforced yet for word-count): word_count/app.py") for w in result.warnings)


def test_a_plugin_with_main_py_alone_has_no_package_to_check(made):
    for name in os.listdir(os.path.join(made, "word_count")):
        os.remove(os.path.join(made, "word_count", name))
    os.rmdir(os.path.join(made, "word_count"))
    assert contract.contract_breaches(made, "word-count") == []


def test_every_plugin_here_uses_only_agenttys_icons():
    for plugin in sorted(os.listdir(os.path.join(REPO, "plugins"))):
        folder = os.path.join(REPO, "plugins", plugin)
        if os.path.isfile(os.path.join(folder, "agentty-plugin.json")):
            result = inspect_plugin(folder)
            assert not [p for p in result.problems if "icon" in p], (plugin, result.problems)
            with open(os.path.join(folder, "agentty-plugin.json"), encoding="utf-8") as handle:
                assert json.load(handle)["icon"] in ICONS
