"""The panel as a pure function of a state snapshot and a translator: no host calls, no I/O, no controller."""

import re
from types import MappingProxyType
from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Tuple

from agentty_plugin import Pane, relative_time, ui

from . import ids
from .llm_settings import ANTHROPIC, OPENAI

# The host cuts any text at 20,000 characters; we cut a little earlier and say so.
PANEL_TEXT_LIMIT = 19_000
HISTORY_ROWS = 15
INSERT_ROWS = 40
MARKDOWN_BLOCKS = 80
Translate = Callable[..., str]


# The snapshot is made of NamedTuples, not dataclasses: importing dataclasses is a large share of the
# first panel's time (bench/bench_runtime.py), and a snapshot is never changed, only replaced.


class SummaryView(NamedTuple):
    """The summary in the panel, as the panel shows it."""

    markdown: str
    source: str  # "local" or the model name
    turns: int
    complete: bool = True
    redactions: int = 0
    from_history: bool = False
    created: float = 0.0


class HistoryRow(NamedTuple):
    id: str
    title: str
    created: float
    summarizer: str
    complete: bool = True


class NotesFolder(NamedTuple):
    """The folder as typed, and where a relative or ~ path really goes ("" when typed absolute)."""

    typed: str = ""
    resolved: str = ""
    unresolvable: bool = False  # a ~name with no such user


class LLMView(NamedTuple):
    provider: str = OPENAI
    base_url: str = ""
    model: str = ""
    key_env: str = ""
    key_set: bool = False  # whether the key variable is set, never what it is
    context_tokens: int = 8192


class State(NamedTuple):
    """Everything the panel shows: an immutable snapshot. The controller (app.py) replaces it whole with
    App.update, so a render never sees half a change."""

    language: str = "en"
    now: float = 0.0  # for "3 minutes ago"
    pane: Optional[Pane] = None  # the focused pane
    busy: str = ""  # "", "reading", "local", "connect", "part", "merge"
    progress: Mapping[str, Any] = MappingProxyType({})
    streaming: str = ""
    summary: Optional[SummaryView] = None
    message: str = ""
    message_tone: str = "info"
    can_use_local: bool = False  # a local summary was made alongside a failed LLM run
    last_saved: str = ""  # for display (home shown as ~)
    panes: Tuple[Pane, ...] = ()  # the workspace's panes, for the insert list
    history: Optional[Tuple[HistoryRow, ...]] = None  # None until the data folder is known
    history_problem: str = ""
    notes: NotesFolder = NotesFolder()
    llm: LLMView = LLMView()


def render(state: State, t: Translate) -> Dict[str, Any]:
    children: List[Any] = [_session_section(state, t)]
    if state.message:
        style = {"error": "error", "success": "success"}.get(state.message_tone, "muted")
        children.append(ui.text(state.message, style))
        if state.can_use_local and state.message_tone == "error" and not state.busy:
            children.append(ui.button(ids.USE_LOCAL, t("button_use_local"), icon="file-text"))
    children.append(_summary_section(state, t))
    if state.summary is not None and not state.busy:
        children.append(_use_section(state, t))
        children.append(_insert_section(state, t))
    children.append(_history_section(state, t))
    children.append(_settings_section(state.llm, t))
    return ui.column(children)


def _session_section(state: State, t: Translate) -> Dict[str, Any]:
    pane = state.pane
    if pane is None:
        info = ui.text(t("pane_none"), "muted")
    elif not pane.is_agent:
        info = ui.text(t("pane_shell"), "muted")
    else:
        info = ui.text(t("pane_info", agent=pane.title or pane.kind, status=pane.status or t("status_unknown")),
                       "small")
    busy = state.busy
    can_run = pane is not None and pane.is_agent and not busy
    buttons = ui.row([
        ui.button(ids.SUMMARIZE, t("button_summarize"), icon="sparkles", variant="primary", disabled=not can_run),
        ui.button(ids.SUMMARIZE_LLM, t("button_summarize_llm"), icon="bot", disabled=not can_run),
        busy and busy != "local" and busy != "reading" and ui.button(ids.STOP, t("button_stop"), icon="square",
                                                                     variant="danger"),
    ], gap="small", wrap=True)
    return ui.section(t("section_session"), [info, buttons, busy and ui.spinner(_busy_text(state, t))])


def _busy_text(state: State, t: Translate) -> str:
    busy, progress = state.busy, state.progress
    if busy == "reading":
        return t("running_reading")
    if busy == "local":
        return t("running_local")
    if busy == "part":
        return t("running_part", index=progress.get("index", 1), total=progress.get("total", 1))
    if busy == "merge":
        return t("running_merge")
    return t("running_connect", model=progress.get("model", ""))


def _cut(text: str, t: Translate) -> str:
    if len(text) <= PANEL_TEXT_LIMIT:
        return text
    return text[:PANEL_TEXT_LIMIT].rstrip() + "\n" + t("summary_cut")


_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)([^*\n]+?)\*(?![\w*])|(?<![\w_])_(?!\s)([^_\n]+?)_(?![\w_])")
_CODE = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"!?\[([^\]\n]*)\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_LIST = re.compile(r"^(\s*)(?:[-*+]|(\d{1,3}[.)]))\s+(.*)$")


def _link(found: "re.Match[str]") -> str:
    label, url = found.group(1).strip(), found.group(2)
    return url if not label or label == url else label + " (" + url + ")"


def inline_text(text: str) -> str:
    """A line of Markdown as the plain text the panel shows: no `**`, backticks or link syntax left.

    Code spans keep their text as it is (nothing inside them is read as emphasis)."""
    if not any(mark in text for mark in "*_`["):
        return text
    pieces = _CODE.split(text)  # even: prose, odd: code
    for index in range(0, len(pieces), 2):
        piece = _LINK.sub(_link, pieces[index])
        piece = _BOLD.sub(lambda found: found.group(1) or found.group(2), piece)
        pieces[index] = _ITALIC.sub(lambda found: found.group(1) or found.group(2), piece)
    return "".join(pieces)


def markdown_nodes(markdown: str) -> List[Dict[str, Any]]:
    """The summary for the panel, which shows plain text: headings become title lines, a line in bold a
    label, lists bullets (nested ones indented), code blocks code text, and inline Markdown (bold, code
    spans, links, emphasis) its plain words. The saved note and the hand-off keep the Markdown itself.
    """
    nodes: List[Dict[str, Any]] = []
    block: List[str] = []
    code: List[str] = []
    in_code = False

    def flush() -> None:
        text = "\n".join(block).strip()
        block.clear()
        if text:
            nodes.append(ui.text(text))

    for line in markdown.split("\n"):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            if in_code:
                nodes.append(ui.text("\n".join(code).rstrip(), "code"))
                code.clear()
            else:
                flush()
            in_code = not in_code
            continue
        if in_code:
            code.append(line)
            continue
        if stripped.startswith("#") and stripped.lstrip("#").startswith(" ") and len(nodes) < MARKDOWN_BLOCKS:
            flush()
            level = len(stripped) - len(stripped.lstrip("#"))
            if level > 1:  # the H1 only repeats the section title
                nodes.append(ui.text(inline_text(stripped.lstrip("#").strip()), "title"))
        elif len(stripped) > 4 and stripped.startswith("**") and stripped.endswith(("**", "**:")) \
                and stripped.count("**") == 2:
            flush()  # a label over what follows ("Later requests")
            nodes.append(ui.text(stripped.strip("*:").strip(), "muted"))
        elif stripped.startswith("_") and stripped.endswith("_") and len(stripped) > 2:
            flush()
            nodes.append(ui.text(inline_text(stripped[1:-1]), "muted"))
        elif stripped.startswith(">"):
            flush()
            nodes.append(ui.text(inline_text(stripped.lstrip("> ").strip()), "muted"))
        else:
            item = _LIST.match(line)
            if item:
                depth = len(item.group(1).replace("\t", "  ")) // 2
                mark = item.group(2) or ("•" if depth == 0 else "◦")
                block.append("  " * depth + mark + " " + inline_text(item.group(3)))
            else:
                block.append(inline_text(line))
    if in_code and code:
        nodes.append(ui.text("\n".join(code).rstrip(), "code"))
    flush()
    return nodes


def _summary_section(state: State, t: Translate) -> Dict[str, Any]:
    if state.busy and state.streaming:
        return ui.section(t("section_summary"), markdown_nodes(_cut(state.streaming, t)))
    summary = state.summary
    if summary is None:
        return ui.section(t("section_summary"), [ui.text(t("summary_none"), "muted")])
    if summary.from_history:
        meta = t("meta_history", when=relative_time(state.now - summary.created, state.language))
    elif summary.source == "local":
        meta = t("meta_local", turns=summary.turns)
    else:
        meta = t("meta_llm", model=summary.source, turns=summary.turns)
        if summary.redactions:
            meta += " · " + t("meta_redacted", count=summary.redactions)
    return ui.section(t("section_summary"), [
        ui.text(meta, "small"),
        not summary.complete and ui.text(t("meta_incomplete"), "error"),
        *markdown_nodes(_cut(summary.markdown, t)),
    ])


def _folder_hint(notes: NotesFolder, t: Translate) -> Optional[Dict[str, Any]]:
    """A relative folder is taken from the home folder: say where the notes will really go."""
    if notes.unresolvable:
        return ui.text(t("save_relative", path=notes.typed.strip()), "error")
    if notes.resolved:
        return ui.text(t("save_resolved", path=notes.resolved), "muted")
    return None


def _use_section(state: State, t: Translate) -> Dict[str, Any]:
    last = state.last_saved
    return ui.section(t("section_use"), [
        ui.text(t("save_folder"), "small"),
        ui.input(ids.NOTES_FOLDER, t("save_placeholder"), state.notes.typed),
        _folder_hint(state.notes, t),
        ui.row([
            ui.button(ids.SAVE, t("button_save"), icon="save", variant="primary"),
            ui.button(ids.HANDOFF, t("button_handoff"), icon="square-plus"),
        ], gap="small", wrap=True),
        last and ui.row([ui.text(t("save_last", path=last), "small"),
                         ui.button(ids.REVEAL, t("button_reveal"), icon="folder-open", variant="ghost")],
                        gap="small", wrap=True),
    ])


def _insert_section(state: State, t: Translate) -> Dict[str, Any]:
    items = []
    for pane in state.panes[:INSERT_ROWS]:
        status = pane.status or t("status_unknown")
        items.append(ui.item(
            str(pane.id), pane.title or pane.kind,
            subtitle=t("insert_busy_row" if pane.is_busy else "insert_idle", kind=pane.kind, status=status),
            icon="bot" if pane.is_agent else "square-terminal",
            tone="warning" if pane.is_busy else None,
            actions=[ui.action(ids.ACTION_INSERT, t("insert_action"), icon="clipboard-paste")],
        ))
    return ui.section(t("section_insert"), [ui.list(ids.INSERT_PANES, items, empty=t("insert_none"))])


def _history_section(state: State, t: Translate) -> Dict[str, Any]:
    if state.history is None:
        return ui.section(t("section_history"), [ui.text(t("history_empty"), "muted")])
    items = [ui.item(
        row.id, row.title or "—",
        subtitle=t("history_row", when=relative_time(state.now - row.created, state.language), source=row.summarizer),
        icon="history" if row.complete else "shield-alert",
        actions=[ui.action(ids.ACTION_SHOW, t("history_show"), icon="eye"),
                 ui.action(ids.ACTION_DELETE, t("history_delete"), icon="trash-2")],
    ) for row in state.history[:HISTORY_ROWS]]
    return ui.section(t("section_history"), [
        state.history_problem and ui.text(t("history_problem", problem=state.history_problem), "error"),
        ui.list(ids.HISTORY, items, empty=t("history_empty")),
    ])


def _settings_section(llm: LLMView, t: Translate) -> Dict[str, Any]:
    if not llm.key_env:
        key_line = t("settings_key_none")
    elif llm.key_set:
        key_line = t("settings_key_set", env=llm.key_env)
    else:
        key_line = t("settings_key_unset", env=llm.key_env)
    return ui.section(t("section_settings"), [
        ui.text(t("settings_provider"), "small"),
        ui.choice(ids.LLM_PROVIDER, [ui.option(OPENAI, t("settings_openai")),
                                     ui.option(ANTHROPIC, t("settings_anthropic"))], llm.provider),
        ui.text(t("settings_base_url"), "small"),
        ui.input(ids.LLM_BASE_URL, "http://localhost:11434/v1", llm.base_url),
        ui.text(t("settings_model"), "small"),
        ui.input(ids.LLM_MODEL, "llama3.1", llm.model),
        ui.text(t("settings_key_env"), "small"),
        ui.input(ids.LLM_KEY_ENV, "OPENAI_API_KEY", llm.key_env),
        ui.text(key_line, "muted"),
        ui.text(t("settings_context"), "small"),
        ui.input(ids.LLM_CONTEXT_TOKENS, "8192", str(llm.context_tokens)),
    ])
