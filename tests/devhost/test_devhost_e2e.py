"""End to end in real headless Chromium: the dev host page drives real plugin processes; we assert on the page.

Skipped (with the reason) when no Chromium or Playwright is installed, or when a plugin folder is not there.
"""

import json
import os
import struct

import pytest
from agentty_devhost.background import BackgroundDevHost
from agentty_devhost.browser import find_chromium, launch
from agentty_devhost.sample_data import demo_focus, demo_world

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')")
if find_chromium() is None:
    pytest.skip("no Chromium on this machine (apt-get install chromium, or set AGENTTY_CHROMIUM)",
                allow_module_level=True)

PLUGIN_IDS = ("notes-search", "git-status", "session-summarizer", "release-checklist")
TIMEOUT_MS = 15000


def plugin_ready(repo_root, plugin_id):
    folder = os.path.join(repo_root, "plugins", plugin_id)
    return all(os.path.isfile(os.path.join(folder, name)) for name in ("agentty-plugin.json", "main.py"))


@pytest.fixture(scope="module")
def dev_url(repo_root, probe_folder, sample_data):
    ids = [i for i in PLUGIN_IDS if plugin_ready(repo_root, i)]
    folders = [probe_folder] + [os.path.join(repo_root, "plugins", i) for i in ids]
    host = BackgroundDevHost(folders, demo_world(sample_data), sample_data.plugin_data, focus_hints=demo_focus(ids))
    url = host.start()
    yield url
    host.stop()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def shared_page(browser, dev_url):
    """One page for the module (as a user keeps one tab): tests switch plugins with the tab bar."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{dev_url}?plugin=probe")
    page.wait_for_selector('body[data-ready="true"]')
    yield page
    page.close()


@pytest.fixture
def page(shared_page):
    yield shared_page
    shared_page.evaluate("() => closePalette()")  # a failed test must not leave a dialog over the next one
    assert not shared_page.errors, f"the page raised: {shared_page.errors}"


def open_plugin(page, url, key):
    """Pick a plugin in the tab bar, as a user does, and return its panel."""
    page.locator(f'.plugin-tab[data-plugin="{key}"]').click()
    page.wait_for_selector(f'#panel-frame[data-plugin="{key}"]')
    return page.locator("#panel")


def need(repo_root, plugin_id):
    if not plugin_ready(repo_root, plugin_id):
        pytest.skip(f"plugins/{plugin_id} has no main.py and manifest yet")


def test_typing_sends_one_change_after_the_pause_keeps_the_text_and_enter_submits(page, dev_url):
    panel = open_plugin(page, dev_url, "probe")
    field = panel.locator('[data-element="probe.input"]')
    # Three keystrokes well inside one pause (dispatched together, so a slow machine cannot stretch them).
    field.evaluate("""(input) => { for (const text of ["a", "ab", "abc"]) {
        input.value = text; input.dispatchEvent(new Event("input", { bubbles: true })); } }""")
    sync_api.expect(panel).to_contain_text("any probe.input=abc")
    page.wait_for_timeout(400)  # room for a stray second change to arrive, if the page sent one
    seen = panel.inner_text()
    assert '"change", "a"]' not in seen and '"change", "ab"]' not in seen  # one change, after the pause
    assert field.input_value() == "abc"  # the redraw (value "") did not wipe what was typed
    field.press("End")
    field.press_sequentially("d", delay=20)  # real typing, then Enter before the pause ends
    field.press("Enter")
    sync_api.expect(panel).to_contain_text('"probe.input", "submit", "abcd"')
    page.wait_for_timeout(400)
    assert '"change", "abcd"]' not in panel.inner_text()  # Enter replaced the pending change


def test_row_action_and_select(page, dev_url):
    panel = open_plugin(page, dev_url, "probe")
    panel.locator('[data-item="r1"] [data-action="open"]').click()
    sync_api.expect(panel).to_contain_text("row r1 open")
    panel.locator('[data-item="r1"]').click()
    sync_api.expect(panel).to_contain_text("row r1 None")
    sync_api.expect(panel.locator('[data-item="r1"]')).to_have_class("ui-list-row selected")


def test_palette_command_shows_toast_and_badge(page, dev_url):
    open_plugin(page, dev_url, "probe")
    page.keyboard.press("Control+Shift+P")
    page.locator("#palette-filter").fill("probe hello")
    page.keyboard.press("Enter")
    sync_api.expect(page.locator(".toast").filter(has_text="hello None")).to_be_visible()
    sync_api.expect(page.locator('.plugin-tab[data-plugin="probe"] .tab-badge')).to_have_text("1/2")


def test_focusing_a_pane_sends_context_changed(page, dev_url):
    panel = open_plugin(page, dev_url, "probe")
    page.locator('.pane[data-pane="12"]').click()
    sync_api.expect(panel).to_contain_text("context shell")
    page.locator('.pane[data-pane="11"]').click()
    sync_api.expect(panel).to_contain_text("context idle")


def test_a_panes_session_can_be_edited(page, dev_url):
    open_plugin(page, dev_url, "probe")
    pane = page.locator('.pane[data-pane="12"]')
    pane.locator(".edit-pane").click()
    editor = pane.locator(".pane-editor")
    editor.locator("textarea").fill("{not json")
    editor.locator('button[type="submit"]').click()
    sync_api.expect(editor.locator(".form-result")).to_contain_text("not valid JSON")
    session = {"sessionId": "s-9", "title": "Edited", "turns": [{"role": "user", "text": "hi"}]}
    editor.locator("textarea").fill(json.dumps(session))
    editor.locator('button[type="submit"]').click()
    sync_api.expect(pane.locator(".pane-session")).to_have_text("session: Edited (1 turns)")


def test_notes_search_finds_notes_as_you_type(page, dev_url, repo_root):
    need(repo_root, "notes-search")
    panel = open_plugin(page, dev_url, "notes-search")
    query = panel.locator('[data-element="search.query"]')
    query.press_sequentially("discount", delay=30)
    sync_api.expect(panel.locator(".ui-list-row").filter(has_text="Discount rules")).to_be_visible()
    query.fill("")
    query.press_sequentially("決済", delay=30)
    sync_api.expect(panel.locator(".ui-list-row").filter(has_text="決済フローの設計")).to_be_visible()


def test_git_status_review_action_injects_a_prompt(page, dev_url, repo_root):
    need(repo_root, "git-status")
    panel = open_plugin(page, dev_url, "git-status")
    row = panel.locator('[data-item="src/cart.py"]').first
    sync_api.expect(row).to_be_visible()
    row.locator('[data-action="review"]').click()
    entry = page.locator('#log .log-entry[data-method="prompt/inject"]').last
    sync_api.expect(entry).to_be_visible()
    sync_api.expect(entry).to_contain_text("src/cart.py")


def test_release_checklist_step_can_be_ticked_and_unticked(page, dev_url, repo_root):
    need(repo_root, "release-checklist")
    panel = open_plugin(page, dev_url, "release-checklist")
    step = panel.locator(".ui-list-row").filter(has_text="Announce the release")
    sync_api.expect(step).to_contain_text("Pending")
    step.locator('[data-action="done"]').click()
    sync_api.expect(step).to_contain_text("Done")
    sync_api.expect(step.locator('[data-action="undo"]')).to_be_visible()
    step.locator('[data-action="undo"]').click()
    sync_api.expect(step).to_contain_text("Pending")
    sync_api.expect(step.locator('[data-action="done"]')).to_be_visible()


def test_screenshot_of_a_panel_is_a_360_px_png(tmp_path, probe_folder, sample_data, browser):
    from agentty_devhost.screenshots import take

    written = take([probe_folder], sample_data.root, str(tmp_path), browser=browser)
    with open(written[0], "rb") as handle:
        header = handle.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", header[16:24])
    assert width == 720 and height > 200  # 360 CSS px at device scale 2
