"""Builds the panel tree from the panel state (pure: state in, UI tree out)."""

import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

from agentty_plugin import ui
from agentty_plugin.i18n import relative_time

from .library import SearchOutcome
from .safety import OpenedNote

PREVIEW_CHARS = 4000
Translate = Callable[..., str]


@dataclass
class PanelState:
    """Everything the panel shows. Changed only under the app's lock."""

    phase: str = "opening"  # opening | indexing | ready | failed
    # What we put in the search field. Agentty keeps the user's typing unless a tree carries a different
    # value, so this changes only on purpose (a command or link query), never to echo typing.
    field_value: str = ""
    query: str = ""
    outcome: Optional[SearchOutcome] = None
    preview: Optional[OpenedNote] = None
    progress: Tuple[int, int] = (0, 0)
    message: Optional[Tuple[str, str]] = None  # (style, text): error | success | muted
    roots: List[str] = field(default_factory=list)
    missing_roots: List[str] = field(default_factory=list)
    skipped: int = 0
    count: int = 0
    engine_name: str = ""
    engine_preference: str = "auto"
    folder_draft: str = ""  # the folder field's text, for the Add button (never sent back to the field)
    error: str = ""


def _home_short(path: str) -> str:
    home = os.path.expanduser("~")
    return "~" + path[len(home) :] if home and path.startswith(home + os.sep) else path


def _subtitle(record_folder: str, root: str, mtime: float, language: str) -> str:
    place = record_folder or os.path.basename(root.rstrip(os.sep)) or root
    return f"{place} · {relative_time(time.time() - mtime, language)}"


def _results(state: PanelState, t: Translate, language: str) -> List[Any]:
    outcome = state.outcome
    if outcome is None:
        return []
    header: List[Any] = []
    if outcome.corrections:
        header.append(ui.text(t("corrected", words=" ".join(new for _, new in outcome.corrections)), "muted"))
    if outcome.mode == "recent":
        header.append(ui.text(t("recent"), "small"))
        empty = t("no_notes") if state.roots else t("no_roots")
    else:
        header.append(ui.text(t("results", count=len(outcome.items), ms=round(outcome.elapsed_ms)), "small"))
        empty = t("no_results", query=state.query.strip())
    items = []
    for result in outcome.items:
        record = result.record
        actions = [ui.action("reveal", t("action_reveal"), "folder-open", t("tip_reveal"))]
        if not record.locked:
            actions = [
                ui.action("insert", t("action_insert"), "clipboard-paste", t("tip_insert")),
                ui.action("continue", t("action_continue"), "square-plus", t("tip_continue")),
                ui.action("preview", t("action_preview"), "eye", t("tip_preview")),
                *actions,
            ]
        items.append(
            ui.item(
                record.path,
                record.title,
                subtitle=_subtitle(record.folder, record.root, record.mtime, language),
                detail=result.snippet or None,
                icon="lock" if record.locked else "file-text",
                actions=actions,
            )
        )
    return [*header, ui.list("search.results", items, empty=empty)]


def _preview(note: OpenedNote, t: Translate, language: str) -> List[Any]:
    meta = note.meta
    body = note.body.rstrip()
    lines: List[Any] = [
        ui.row([ui.button("preview.back", t("back"), icon="arrow-left", variant="ghost")]),
        ui.text(meta.title, "title"),
        ui.text(_home_short(note.path), "small"),
    ]
    try:
        modified = relative_time(time.time() - os.path.getmtime(note.path), language)
        lines.append(ui.text(t("modified", when=modified), "muted"))
    except OSError:
        pass
    if meta.tags:
        lines.append(ui.text(t("tags", tags=", ".join("#" + tag for tag in meta.tags)), "muted"))
    lines.append(
        ui.row(
            [
                ui.button("preview.insert", t("action_insert"), icon="clipboard-paste", variant="primary"),
                ui.button("preview.continue", t("action_continue"), icon="square-plus"),
                ui.button("preview.reveal", t("action_reveal"), icon="folder-open", variant="ghost"),
            ],
            gap="small",
            wrap=True,
        )
    )
    lines.append(ui.divider())
    lines.append(ui.text(body[:PREVIEW_CHARS]))
    if len(body) > PREVIEW_CHARS:
        lines.append(ui.text(t("preview_cut", count=PREVIEW_CHARS), "muted"))
    return lines


def _settings(state: PanelState, t: Translate) -> Any:
    folder_items = [
        ui.item(
            root,
            _home_short(root),
            subtitle=t("missing_root", path=_home_short(root)) if root in state.missing_roots else None,
            icon="folder",
            tone="warning" if root in state.missing_roots else None,
            actions=[ui.action("remove", t("remove"), "trash-2", t("remove"))],
        )
        for root in state.roots
    ]
    engines = [ui.option(name, t("engine_" + name)) for name in ("auto", "sqlite", "whoosh")]
    return ui.section(
        t("folders"),
        [
            ui.list("folders.list", folder_items, empty=t("no_roots")),
            ui.row(
                [
                    # A constant value: the field keeps what the user types (a changed value would
                    # overwrite it, racing the keyboard).
                    ui.input("folders.path", t("folder_placeholder")),
                    ui.button("folders.add", t("add"), icon="folder-plus"),
                ],
                gap="small",
            ),
            ui.text(t("engine"), "small"),
            ui.choice("settings.engine", engines, state.engine_preference),
            ui.button("toolbar.rebuild", t("rebuild"), icon="rotate-cw", variant="ghost"),
        ],
    )


def build_panel(state: PanelState, t: Translate, language: str) -> Dict[str, Any]:
    """The whole panel: search field, status, results or preview, then folders and engine."""
    status: List[Any] = []
    if state.phase == "opening":
        status.append(ui.spinner(t("opening")))
    elif state.phase == "indexing":
        done, total = state.progress
        status.append(ui.spinner(t("indexing", done=done, total=total) if total else t("scanning")))
    if state.phase == "failed":
        status.append(ui.text(state.error, "error"))
    elif state.engine_name:
        status.append(ui.text(t("count", count=state.count, engine=state.engine_name), "small"))
    if state.skipped:
        status.append(ui.text(t("skipped", count=state.skipped), "muted"))
    if state.message is not None:
        status.append(ui.text(state.message[1], state.message[0]))
    body = _preview(state.preview, t, language) if state.preview is not None else _results(state, t, language)
    tree: Dict[str, Any] = ui.column(
        [
            ui.row(
                [
                    ui.input("search.query", t("search_placeholder"), state.field_value),
                    ui.button("toolbar.refresh", t("refresh"), icon="refresh-cw", variant="ghost"),
                ],
                gap="small",
            ),
            *status,
            *body,
            ui.divider(),
            _settings(state, t),
        ],
        gap="small",
    )
    return tree
