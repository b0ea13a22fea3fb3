"""`agentty-plugin check` knows the ids: every id the view emits has a handler, every handler's id is used."""

import json
import os
import subprocess
import sys
import textwrap

import pytest
from agentty_plugin.checks import check_plugin, inspect_plugin
from agentty_plugin.wiring import analyze

MAIN_HEAD = '''"""A fixture plugin."""
from agentty_plugin import Plugin
from demo import ids
from demo.app import App

plugin = Plugin()
app = App(plugin)
'''
MAIN_TAIL = '''
if __name__ == "__main__":
    plugin.run()
'''
APP = '''"""Controller."""


class App:
    def __init__(self, plugin):
        self.plugin = plugin

    def update(self, **changes):
        pass

    def open(self, *args):
        pass

    def go(self, *args):
        pass

    def any(self, event, context):
        pass
'''
IDS = '''"""Ids."""
GO = "panel.go"
QUERY = "panel.query"
CMD_OPEN = "demo.open"
'''
VIEW = '''"""View."""
from agentty_plugin import ui

from . import ids


def render(state, t):
    return ui.column([
        ui.button(ids.GO, "Go"),
        ui.input(ids.QUERY, "search"),
    ])
'''


def dedent(text):
    """Like textwrap.dedent, for a text whose first line (the docstring) starts at column 0."""
    first, _, rest = text.partition("\n")
    return first + "\n" + textwrap.dedent(rest)


STATE = '''

from typing import NamedTuple


class State(NamedTuple):
    query: str = ""
'''
TEXT = '''"""Words."""
TEXT = {"en": {"go": "Go"}}
'''


def write_plugin(root, wiring, view=VIEW, ids=IDS, extra=None):
    """A plugin folder `demo/` under `root`: main.py is MAIN_HEAD + `wiring` + MAIN_TAIL."""
    folder = root / "demo"
    (folder / "demo").mkdir(parents=True)
    manifest = {"id": "demo", "name": "Demo", "version": "0.1.0", "runtime": "python", "main": "main.py",
                "permissions": [], "contributes": {"panel": {"title": "Demo"},
                                                   "commands": [{"id": "demo.open", "title": "Open"}]}}
    (folder / "agentty-plugin.json").write_text(json.dumps(manifest))
    (folder / "main.py").write_text(MAIN_HEAD + textwrap.dedent(wiring) + MAIN_TAIL)
    # view.py gets the contract's State at its end (below every line a test looks for), text.py its TEXT.
    files = {"__init__.py": '"""Demo."""\n', "app.py": APP, "ids.py": ids, "view.py": dedent(view) + STATE,
             "text.py": TEXT, **(extra or {})}
    for name, text in files.items():
        (folder / "demo" / name).write_text(dedent(text))
    return str(folder)


def line_of(path, text):
    """The 1-based line of `path` that contains `text` (so tests never hard-code line numbers)."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if text in line:
                return number
    raise AssertionError(f"{text!r} is not in {path}")


FULL_WIRING = '''
plugin.on_panel_open(app.open)
plugin.on_event(ids.GO)(app.go)
plugin.on_event(ids.QUERY)(app.go)
plugin.command(ids.CMD_OPEN)(app.open)
'''


def test_ids_through_constants_are_resolved_and_a_complete_plugin_is_clean(tmp_path):
    folder = write_plugin(tmp_path, FULL_WIRING)
    result = inspect_plugin(folder)
    assert result.problems == []
    assert result.warnings == []
    wiring = analyze(folder)
    assert {v for use in wiring.elements for v in use.values} == {"panel.go", "panel.query"}
    assert {v for use in wiring.handlers for v in use.values} == {"panel.go", "panel.query"}
    assert {v for use in wiring.commands for v in use.values} == {"demo.open"}


def test_a_missing_handler_is_reported_at_the_view_line_and_the_ids_line(tmp_path):
    folder = write_plugin(tmp_path, FULL_WIRING.replace("plugin.on_event(ids.QUERY)(app.go)\n", ""))
    _id, problems = check_plugin(folder)
    view_line = line_of(os.path.join(folder, "demo", "view.py"), "ids.QUERY")
    ids_line = line_of(os.path.join(folder, "demo", "ids.py"), "QUERY =")
    assert f"demo/view.py:{view_line}: ui.input id 'panel.query' has no handler" in "\n".join(problems)
    assert f"demo/ids.py:{ids_line}: QUERY = 'panel.query' in ids.py has no handler" in "\n".join(problems)
    assert len(problems) == 2, problems


def test_a_handler_for_an_id_no_view_emits_is_reported_at_its_line(tmp_path):
    folder = write_plugin(tmp_path, FULL_WIRING + 'plugin.on_event("panel.gone")(app.go)\n')
    _id, problems = check_plugin(folder)
    line = line_of(os.path.join(folder, "main.py"), "panel.gone")
    assert problems == [f"main.py:{line}: plugin.on_event('panel.gone') handles an id that no view emits"]


def test_a_command_registered_through_ids_counts_and_an_undeclared_one_is_named(tmp_path):
    folder = write_plugin(tmp_path, FULL_WIRING.replace("ids.CMD_OPEN", '"demo.other"'))
    _id, problems = check_plugin(folder)
    line = line_of(os.path.join(folder, "main.py"), "demo.other")
    assert "command 'demo.open' is declared in the manifest but has no handler (plugin.command('demo.open'))" \
        in problems
    assert f"main.py:{line}: handles command 'demo.other', which the manifest does not declare" in problems


def test_relative_and_from_imports_of_constants_resolve(tmp_path):
    view = '''"""View."""
    from agentty_plugin import ui as widgets
    from agentty_plugin.ui import input as text_field

    from .ids import GO as GO_ID, QUERY


    def render(state, t):
        return widgets.column([widgets.button(GO_ID, "Go"), text_field(id=QUERY)])
    '''
    folder = write_plugin(tmp_path, FULL_WIRING, view=view)
    assert check_plugin(folder)[1] == []
    broken = write_plugin(tmp_path / "b", FULL_WIRING.replace("plugin.on_event(ids.GO)(app.go)\n", ""), view=view)
    assert any("ui.button id 'panel.go' has no handler" in p for p in check_plugin(broken)[1])


def test_an_id_built_at_run_time_is_a_warning_with_its_line_not_a_failure(tmp_path):
    view = VIEW.replace("ui.input(ids.QUERY, \"search\")", "ui.input(f\"panel.{state}\", \"search\")")
    wiring = FULL_WIRING.replace("plugin.on_event(ids.QUERY)(app.go)\n", "")
    folder = write_plugin(tmp_path, wiring, view=view, ids=IDS.replace('QUERY = "panel.query"\n', ""))
    result = inspect_plugin(folder)
    line = line_of(os.path.join(folder, "demo", "view.py"), 'f"panel.')
    assert result.problems == []
    assert result.warnings == [f"id built at run time, cannot be checked: demo/view.py:{line}"]


def test_a_handler_registered_with_an_f_string_covers_the_ids_it_can_match(tmp_path):
    view = VIEW.replace("ui.input(ids.QUERY, \"search\")", "ui.input(\"files.staged\"), ui.input(\"other.x\")")
    wiring = FULL_WIRING.replace("plugin.on_event(ids.QUERY)(app.go)\n",
                                 'for group in GROUPS:\n    plugin.on_event(f"files.{group}")(app.go)\n')
    folder = write_plugin(tmp_path, "GROUPS = ('staged',)\n" + wiring, view=view,
                          ids=IDS.replace('QUERY = "panel.query"\n', ""))
    result = inspect_plugin(folder)
    assert [p.split(": ", 1)[1] for p in result.problems] == [
        "ui.input id 'other.x' has no handler (add plugin.on_event('other.x'), or compare event.element with it "
        "in an on_any_event handler)"]
    assert len(result.warnings) == 1 and "main.py:" in result.warnings[0]


def test_handlers_registered_in_a_loop_over_constants_are_resolved(tmp_path):
    wiring = '''
    plugin.on_panel_open(app.open)
    for element in (ids.GO, ids.QUERY):
        plugin.on_event(element)(app.go)
    plugin.command(ids.CMD_OPEN)(app.open)
    '''
    folder = write_plugin(tmp_path, wiring)
    assert inspect_plugin(folder).problems == []
    assert inspect_plugin(folder).warnings == []
    broken = write_plugin(tmp_path / "b", wiring.replace("(ids.GO, ids.QUERY)", "(ids.GO,)"))
    assert any("'panel.query' has no handler" in p for p in check_plugin(broken)[1])


def test_an_on_any_event_handler_covers_the_ids_it_compares_and_only_those(tmp_path):
    app = APP.replace("    def any(self, event, context):\n        pass\n",
                      "    def any(self, event, context):\n        if event.element == ids.GO:\n            pass\n")
    app = app.replace('"""Controller."""\n', '"""Controller."""\nfrom . import ids\n')
    wiring = "plugin.on_panel_open(app.open)\nplugin.on_any_event(app.any)\nplugin.command(ids.CMD_OPEN)(app.open)\n"
    folder = write_plugin(tmp_path, wiring, extra={"app.py": app})
    problems = check_plugin(folder)[1]
    assert [p for p in problems if "panel.go" in p] == []
    assert any("ui.input id 'panel.query' has no handler" in p for p in problems)
    routed = write_plugin(tmp_path / "b", wiring, extra={"app.py": app.replace(
        "event.element == ids.GO", "event.element in (ids.GO, ids.QUERY)")})
    assert check_plugin(routed)[1] == []


def test_a_row_action_needs_a_list_handler_or_a_comparison(tmp_path):
    view = '''"""View."""
    from agentty_plugin import ui


    def render(state, t):
        rows = [ui.item("a", "A", actions=[ui.action("reveal", "Reveal")])]
        return ui.column([ui.list("files.list", rows)])
    '''
    no_handler = write_plugin(tmp_path, "plugin.command(ids.CMD_OPEN)(app.open)\n", view=view, ids='"""Ids."""\n'
                              'CMD_OPEN = "demo.open"\n')
    problems = check_plugin(no_handler)[1]
    line = line_of(os.path.join(no_handler, "demo", "view.py"), "ui.action")
    assert problems == [f"demo/view.py:{line}: row action 'reveal' is never handled (no list has a handler, "
                        f"and nothing compares event.action with it)"]
    assert any("ui.list 'files.list' has no handler" in w for w in inspect_plugin(no_handler).warnings)
    app = APP.replace("    def go(self, *args):\n        pass\n",
                      "    def go(self, event, context):\n        if event.action == \"reveal\":\n            pass\n")
    handled = write_plugin(tmp_path / "b", 'plugin.on_event("files.list")(app.go)\nplugin.command(ids.CMD_OPEN)'
                           '(app.open)\n', view=view, ids='"""Ids."""\nCMD_OPEN = "demo.open"\n', extra={"app.py": app})
    assert inspect_plugin(handled).problems == []
    assert inspect_plugin(handled).warnings == []


def test_a_panel_written_as_plain_dicts_is_read_too(tmp_path):
    view = '''"""View."""


    def render(state, t):
        return {"type": "column", "children": [{"type": "button", "id": "panel.raw", "label": "Raw"}]}
    '''
    folder = write_plugin(tmp_path, "plugin.command(ids.CMD_OPEN)(app.open)\n", view=view,
                          ids='"""Ids."""\nCMD_OPEN = "demo.open"\n')
    assert any("ui.button id 'panel.raw' has no handler" in p for p in check_plugin(folder)[1])


def test_the_command_line_fails_with_file_and_line_and_passes_with_warnings(tmp_path):
    broken = write_plugin(tmp_path, FULL_WIRING.replace("plugin.on_event(ids.GO)(app.go)\n", ""))
    run = subprocess.run([sys.executable, "-m", "agentty_plugin", "check", broken], capture_output=True, text=True)
    assert run.returncode == 1
    assert "✗ demo" in run.stderr and "demo/view.py:" in run.stderr and "'panel.go' has no handler" in run.stderr
    view = VIEW.replace("ui.button(ids.GO, \"Go\")", "ui.button(\"panel.\" + state, \"Go\")")
    warned = write_plugin(tmp_path / "w", FULL_WIRING, view=view)
    run = subprocess.run([sys.executable, "-m", "agentty_plugin", "check", warned], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "✓ demo" in run.stderr and "warning: id built at run time, cannot be checked: demo/view.py:" in run.stderr


def test_a_syntax_error_in_a_module_is_a_problem_not_a_pass(tmp_path):
    folder = write_plugin(tmp_path, FULL_WIRING, extra={"broken.py": "def oops(:\n"})
    assert any(p.startswith("demo/broken.py:1: syntax error") for p in check_plugin(folder)[1])


@pytest.mark.parametrize("name", sorted(
    n for n in os.listdir(os.path.join(os.path.dirname(__file__), "..", "..", "plugins"))
    if os.path.isfile(os.path.join(os.path.dirname(__file__), "..", "..", "plugins", n, "agentty-plugin.json"))))
def test_every_plugin_in_the_repo_has_its_ids_wired(name):
    folder = os.path.join(os.path.dirname(__file__), "..", "..", "plugins", name)
    result = inspect_plugin(folder)
    assert result.problems == []
    assert analyze(folder).elements, "the analysis found no element ids at all: it is not reading this plugin"


def test_ids_from_a_table_and_handlers_from_its_items_are_resolved(tmp_path):
    ids = IDS + 'FILES = {"staged": "files.staged", "changed": "files.changed"}\n'
    view = '''"""View."""
    from agentty_plugin import ui

    from . import ids


    def render(state, t):
        return ui.column([ui.button(ids.GO, "Go"), ui.input(ids.QUERY)] +
                         [ui.list(ids.FILES[group], []) for group in ("staged", "changed")])
    '''
    wiring = FULL_WIRING + 'for _group, _element in ids.FILES.items():\n    plugin.on_event(_element)(app.go)\n'
    assert inspect_plugin(write_plugin(tmp_path, wiring, view=view, ids=ids)).warnings == []
    assert check_plugin(write_plugin(tmp_path / "a", wiring, view=view, ids=ids))[1] == []
    # .items() binds the key, not the value: handlers registered by key are for ids nothing emits
    by_key = FULL_WIRING + 'for _group in ids.FILES:\n    plugin.on_event(_group)(app.go)\n'
    problems = check_plugin(write_plugin(tmp_path / "b", by_key, view=view, ids=ids))[1]
    assert any("plugin.on_event('staged') handles an id that no view emits" in p for p in problems), problems


def test_a_package_imported_whole_resolves_through_its_dotted_name(tmp_path):
    wiring = FULL_WIRING.replace("ids.GO", "demo.ids.GO")
    folder = write_plugin(tmp_path, "import demo.ids\n" + wiring)
    assert check_plugin(folder)[1] == []
    assert {v for use in analyze(folder).handlers for v in use.values} == {"panel.go", "panel.query"}


def test_ids_py_may_hold_option_values_and_link_paths_that_code_uses(tmp_path):
    ids = IDS + 'MODE = "panel.mode"\nMODE_REPO = "repo"\nLINK_OPEN = "open"\nUNUSED = "panel.unused"\n'
    choice = '\n        ui.choice(ids.MODE, [ui.option(ids.MODE_REPO, "Repo")]),'
    view = VIEW.replace('ui.input(ids.QUERY, "search"),', 'ui.input(ids.QUERY, "search"),' + choice)
    app = APP.replace("    def go(self, *args):\n        pass\n",
                      "    def go(self, event=None, context=None):\n        return event.value == ids.MODE_REPO\n")
    app = app.replace('"""Controller."""\n', '"""Controller."""\nfrom . import ids\n')
    wiring = FULL_WIRING + "plugin.on_event(ids.MODE)(app.go)\nplugin.on_url(ids.LINK_OPEN)(app.open)\n"
    folder = write_plugin(tmp_path, wiring, view=view, ids=ids, extra={"app.py": app})
    line = line_of(os.path.join(folder, "demo", "ids.py"), "UNUSED =")
    assert check_plugin(folder)[1] == [
        f"demo/ids.py:{line}: UNUSED = 'panel.unused' in ids.py has no handler (no plugin.on_event, plugin.command "
        f"or dispatch uses it)"]
