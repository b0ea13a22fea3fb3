"""Builds the panel tree from the app's state (plain UI dicts; ids are "<area>.<name>")."""

import os
import time
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional

from agentty_plugin import pane_is_busy, relative_time, ui

from .llm_settings import ANTHROPIC, OPENAI, LLMSettings
from .notes import NoteSaveError, is_relative, resolve_folder
from .panel_text import TEXT

if TYPE_CHECKING:
    from .app import SummarizerApp

# The host cuts any text at 20,000 characters; we cut a little earlier and say so.
PANEL_TEXT_LIMIT = 19_000
HISTORY_ROWS = 15
Translate = Callable[..., str]


def build_panel(app: "SummarizerApp") -> Dict[str, Any]:
    language = app.plugin.language

    def t(key: str, **values: Any) -> str:
        return str(TEXT.get(language, key, **values))

    state = app.state
    children: List[Any] = [_session_section(app, t)]
    if state.message:
        style = {"error": "error", "success": "success"}.get(state.message_tone, "muted")
        children.append(ui.text(state.message, style))
        if state.fallback is not None and state.message_tone == "error" and not state.busy:
            children.append(ui.button("summary.useLocal", t("button.useLocal"), icon="file-text"))
    children.append(_summary_section(app, t))
    if state.shown is not None and not state.busy:
        children.append(_use_section(app, t))
        children.append(_insert_section(app, t))
    children.append(_history_section(app, t, language))
    children.append(_settings_section(app, t))
    return ui.column(children)


def _session_section(app: "SummarizerApp", t: Translate) -> Dict[str, Any]:
    context = app.plugin.context
    pane = context.pane if context else None
    if pane is None:
        info = ui.text(t("pane.none"), "muted")
    elif pane.kind not in ("claude", "codex"):
        info = ui.text(t("pane.shell"), "muted")
    else:
        info = ui.text(t("pane.info", agent=pane.title or pane.kind, status=pane.status or t("status.unknown")),
                       "small")
    busy = app.state.busy
    can_run = pane is not None and pane.kind in ("claude", "codex") and not busy
    buttons = ui.row([
        ui.button("session.summarize", t("button.summarize"), icon="sparkles", variant="primary",
                  disabled=not can_run),
        ui.button("session.summarizeLlm", t("button.summarizeLlm"), icon="bot", disabled=not can_run),
        busy and busy != "local" and busy != "reading" and ui.button("session.stop", t("button.stop"),
                                                                     icon="square", variant="danger"),
    ], gap="small", wrap=True)
    return ui.section(t("section.session"), [info, buttons, busy and ui.spinner(_busy_text(app, t))])


def _busy_text(app: "SummarizerApp", t: Translate) -> str:
    busy, progress = app.state.busy, app.state.progress
    if busy == "reading":
        return t("running.reading")
    if busy == "local":
        return t("running.local")
    if busy == "part":
        return t("running.part", index=progress.get("index", 1), total=progress.get("total", 1))
    if busy == "merge":
        return t("running.merge")
    return t("running.connect", model=progress.get("model", ""))


def _cut(text: str, t: Translate) -> str:
    if len(text) <= PANEL_TEXT_LIMIT:
        return text
    return text[:PANEL_TEXT_LIMIT].rstrip() + "\n" + t("summary.cut")


MARKDOWN_BLOCKS = 80


def markdown_nodes(markdown: str) -> List[Dict[str, Any]]:
    """The summary for the panel, which shows plain text: headings become title lines, each block one text.

    The saved note and the hand-off keep the Markdown itself.
    """
    nodes: List[Dict[str, Any]] = []
    block: List[str] = []

    def flush() -> None:
        text = "\n".join(block).strip()
        block.clear()
        if text:
            nodes.append(ui.text(text))

    for line in markdown.split("\n"):
        stripped = line.strip()
        if stripped.startswith("#") and stripped.lstrip("#").startswith(" ") and len(nodes) < MARKDOWN_BLOCKS:
            flush()
            level = len(stripped) - len(stripped.lstrip("#"))
            if level > 1:  # the H1 only repeats the section title
                nodes.append(ui.text(stripped.lstrip("#").strip(), "title"))
        elif stripped.startswith("_") and stripped.endswith("_") and len(stripped) > 2:
            flush()
            nodes.append(ui.text(stripped.strip("_"), "muted"))
        elif stripped.startswith(">"):
            flush()
            nodes.append(ui.text(stripped.lstrip("> ").strip(), "muted"))
        else:
            block.append("• " + stripped[2:] if stripped.startswith(("- ", "* ")) else line)
    flush()
    return nodes


def _summary_section(app: "SummarizerApp", t: Translate) -> Dict[str, Any]:
    state = app.state
    if state.busy and state.streaming:
        return ui.section(t("section.summary"), markdown_nodes(_cut(state.streaming, t)))
    shown = state.shown
    if shown is None:
        return ui.section(t("section.summary"), [ui.text(t("summary.none"), "muted")])
    if shown.from_history:
        meta = t("meta.history", when=relative_time(time.time() - shown.created, app.plugin.language))
    elif shown.source == "local":
        meta = t("meta.local", turns=shown.session.turn_count)
    else:
        meta = t("meta.llm", model=shown.source, turns=shown.session.turn_count)
        if shown.redactions:
            meta += " · " + t("meta.redacted", count=shown.redactions)
    return ui.section(t("section.summary"), [
        ui.text(meta, "small"),
        not shown.complete and ui.text(t("meta.incomplete"), "error"),
        *markdown_nodes(_cut(shown.markdown, t)),
    ])


def _folder_hint(typed: str, t: Translate) -> Optional[Dict[str, Any]]:
    """A relative folder is taken from the home folder: say where the notes will really go."""
    if not is_relative(typed) and not typed.strip().startswith("~"):
        return None
    try:
        return ui.text(t("save.resolved", path=resolve_folder(typed)), "muted")
    except NoteSaveError:
        return ui.text(t("save.relative", path=typed.strip()), "error")


def _use_section(app: "SummarizerApp", t: Translate) -> Dict[str, Any]:
    last = app.state.last_saved
    typed = str(app.settings.get("notes_folder") or "")
    return ui.section(t("section.use"), [
        ui.text(t("save.folder"), "small"),
        ui.input("notes.folder", t("save.placeholder"), typed),
        _folder_hint(typed, t),
        ui.row([
            ui.button("summary.save", t("button.save"), icon="save", variant="primary"),
            ui.button("summary.handoff", t("button.handoff"), icon="square-plus"),
        ], gap="small", wrap=True),
        last and ui.row([ui.text(t("save.last", path=_home_short(last)), "small"),
                         ui.button("notes.reveal", t("button.reveal"), icon="folder-open", variant="ghost")],
                        gap="small", wrap=True),
    ])


def _insert_section(app: "SummarizerApp", t: Translate) -> Dict[str, Any]:
    items = []
    for pane in app.state.panes[:40]:
        busy = pane_is_busy(pane.status)
        status = pane.status or t("status.unknown")
        items.append(ui.item(
            str(pane.id), pane.title or pane.kind,
            subtitle=t("insert.busyRow" if busy else "insert.idle", kind=pane.kind, status=status),
            icon="bot" if pane.kind in ("claude", "codex") else "square-terminal",
            tone="warning" if busy else None,
            actions=[ui.action("insert", t("insert.action"), icon="clipboard-paste")],
        ))
    return ui.section(t("section.insert"), [ui.list("insert.panes", items, empty=t("insert.none"))])


def _history_section(app: "SummarizerApp", t: Translate, language: str) -> Dict[str, Any]:
    if app.history is None:
        return ui.section(t("section.history"), [ui.text(t("history.empty"), "muted")])
    entries = app.history.entries(app.workspace_key())[:HISTORY_ROWS]
    now = time.time()
    items = [ui.item(
        entry.id, entry.title or "—",
        subtitle=t("history.row", when=relative_time(now - entry.created, language), source=entry.summarizer),
        icon="history" if entry.complete else "shield-alert",
        actions=[ui.action("show", t("history.show"), icon="eye"),
                 ui.action("delete", t("history.delete"), icon="trash-2")],
    ) for entry in entries]
    problem = app.history.problem
    return ui.section(t("section.history"), [
        problem and ui.text(t("history.problem", problem=problem), "error"),
        ui.list("history.list", items, empty=t("history.empty")),
    ])


def _settings_section(app: "SummarizerApp", t: Translate) -> Dict[str, Any]:
    llm = LLMSettings.from_dict(app.settings.get("llm"))
    key_line: Optional[str]
    if not llm.key_env:
        key_line = t("settings.keyNone")
    elif os.environ.get(llm.key_env):
        key_line = t("settings.keySet", env=llm.key_env)  # whether it is set, never what it is
    else:
        key_line = t("settings.keyUnset", env=llm.key_env)
    return ui.section(t("section.settings"), [
        ui.text(t("settings.provider"), "small"),
        ui.choice("llm.provider", [ui.option(OPENAI, t("settings.openai")),
                                   ui.option(ANTHROPIC, t("settings.anthropic"))], llm.provider),
        ui.text(t("settings.baseUrl"), "small"),
        ui.input("llm.baseUrl", "http://localhost:11434/v1", llm.base_url),
        ui.text(t("settings.model"), "small"),
        ui.input("llm.model", "llama3.1", llm.model),
        ui.text(t("settings.keyEnv"), "small"),
        ui.input("llm.keyEnv", "OPENAI_API_KEY", llm.key_env),
        ui.text(key_line, "muted"),
        ui.text(t("settings.context"), "small"),
        ui.input("llm.contextTokens", "8192", str(llm.context_tokens)),
    ])


def _home_short(path: str) -> str:
    home = os.path.expanduser("~")
    return "~" + path[len(home):] if home and home != "/" and path.startswith(home + os.sep) else path
