"""Builds the panel from the panel state: render(state, t) -> UI tree (pure: no host, no I/O, no controller)."""

import os
from typing import TYPE_CHECKING, Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from agentty_plugin import ui
from agentty_plugin.i18n import relative_time
from agentty_plugin.panes import display_path

from . import ids
from .settings import ENGINE_CHOICES

if TYPE_CHECKING:  # the search and note types: importing them (dataclasses and all) would slow the first panel
    from .library import SearchOutcome
    from .safety import OpenedNote

PREVIEW_CHARS = 4000
Translate = Callable[..., str]


class State(NamedTuple):
    """Everything the panel shows: an immutable snapshot. The controller (app.py) replaces it whole
    (App.update), so a render never sees half a change. A NamedTuple: it costs nothing at start-up."""

    phase: str = "opening"  # opening | indexing | ready | failed
    # What we put in the search field. Agentty keeps the user's typing unless a tree carries a different
    # value, so this changes only on purpose (a command or link query), never to echo typing.
    field_value: str = ""
    outcome: "Optional[SearchOutcome]" = None
    preview: "Optional[OpenedNote]" = None
    preview_mtime: Optional[float] = None  # the previewed note's modification time, read when it opened
    progress: Tuple[int, int] = (0, 0)
    message: Optional[Tuple[str, str]] = None  # (style, text): error | success | muted
    roots: Tuple[str, ...] = ()
    missing_roots: Tuple[str, ...] = ()
    skipped: int = 0
    note_count: int = 0  # (not `count`: a NamedTuple has a count() method)
    engine_name: str = ""
    engine_preference: str = "auto"
    folder_draft: str = ""  # the folder field's text, for the Add button (never sent back to the field)
    error: str = ""
    language: str = "en"  # for relative times ("3 minutes ago"); the catalog comes as `t`
    now: float = 0.0  # the time notes' ages are counted from (the controller sets it on each draw)


def _subtitle(record_folder: str, root: str, mtime: float, state: State) -> str:
    place = record_folder or os.path.basename(root.rstrip(os.sep)) or root
    return f"{place} · {relative_time(state.now - mtime, state.language)}"


def _results(state: State, t: Translate) -> List[Any]:
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
        # Both name the query these results answer: typing runs ahead of the results.
        shown = outcome.query.text.strip()
        line = t("results", count=len(outcome.items), query=shown, ms=round(outcome.elapsed_ms))
        header.append(ui.text(line, "small"))
        empty = t("no_results", query=shown)
    items = []
    for result in outcome.items:
        record = result.record
        actions = [ui.action(ids.ACTION_REVEAL, t("action_reveal"), "folder-open", t("tip_reveal"))]
        if not record.locked:
            actions = [
                ui.action(ids.ACTION_INSERT, t("action_insert"), "clipboard-paste", t("tip_insert")),
                ui.action(ids.ACTION_CONTINUE, t("action_continue"), "square-plus", t("tip_continue")),
                ui.action(ids.ACTION_PREVIEW, t("action_preview"), "eye", t("tip_preview")),
                *actions,
            ]
        items.append(
            ui.item(
                record.path,
                record.title,
                subtitle=_subtitle(record.folder, record.root, record.mtime, state),
                detail=result.snippet or None,
                icon="lock" if record.locked else "file-text",
                actions=actions,
            )
        )
    # The "nothing matches" line only with no results: a list never shows it beside a result.
    return [*header, ui.list(ids.RESULTS, items, empty=None if items else empty)]


def _preview(state: State, note: "OpenedNote", t: Translate) -> List[Any]:
    meta = note.meta
    body = note.body.rstrip()
    lines: List[Any] = [
        ui.row([ui.button(ids.PREVIEW_BACK, t("back"), icon="arrow-left", variant="ghost")]),
        ui.text(meta.title, "title"),
        ui.text(display_path(note.path), "small"),
    ]
    if state.preview_mtime is not None:  # None: the note's time could not be read
        modified = relative_time(state.now - state.preview_mtime, state.language)
        lines.append(ui.text(t("modified", when=modified), "muted"))
    if meta.tags:
        lines.append(ui.text(t("tags", tags=", ".join("#" + tag for tag in meta.tags)), "muted"))
    lines.append(
        ui.row(
            [
                ui.button(ids.PREVIEW_INSERT, t("action_insert"), icon="clipboard-paste", variant="primary"),
                ui.button(ids.PREVIEW_CONTINUE, t("action_continue"), icon="square-plus"),
                ui.button(ids.PREVIEW_REVEAL, t("action_reveal"), icon="folder-open", variant="ghost"),
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


def _settings(state: State, t: Translate) -> Any:
    folder_items = [
        ui.item(
            root,
            display_path(root),
            subtitle=t("missing_root", path=display_path(root)) if root in state.missing_roots else None,
            icon="folder",
            tone="warning" if root in state.missing_roots else None,
            actions=[ui.action(ids.ACTION_REMOVE, t("remove"), "trash-2", t("remove"))],
        )
        for root in state.roots
    ]
    engines = [ui.option(name, t("engine_" + name)) for name in ENGINE_CHOICES]
    return ui.section(
        t("folders"),
        [
            ui.list(ids.FOLDERS, folder_items, empty=t("no_roots")),
            ui.row(
                [
                    # A constant value: the field keeps what the user types (a changed value would
                    # overwrite it, racing the keyboard).
                    ui.input(ids.FOLDER_PATH, t("folder_placeholder")),
                    ui.button(ids.FOLDER_ADD, t("add"), icon="folder-plus"),
                ],
                gap="small",
            ),
            ui.text(t("engine"), "small"),
            ui.choice(ids.ENGINE, engines, state.engine_preference),
            ui.button(ids.REBUILD, t("rebuild"), icon="rotate-cw", variant="ghost"),
        ],
    )


def render(state: State, t: Translate) -> Dict[str, Any]:
    """The whole panel: search field, status, results or preview, then folders and engine."""
    status: List[Any] = []
    if state.phase == "opening":
        status.append(ui.spinner(t("opening")))
    elif state.phase == "indexing":
        done, total = state.progress
        status.append(ui.spinner(t("indexing", done=done, total=total) if total else t("scanning")))
    if state.phase == "failed":
        status.append(ui.text(state.error, "error"))
    elif state.engine_name and not (state.phase == "indexing" and state.progress[1]):
        # While notes are written the progress line counts them: the count beside it would be the
        # count before the refresh ("0 notes" beside "Indexing 17,500 / 20,000").
        status.append(ui.text(t("count", count=state.note_count, engine=state.engine_name), "small"))
    if state.skipped:
        status.append(ui.text(t("skipped", count=state.skipped), "muted"))
    if state.message is not None:
        status.append(ui.text(state.message[1], state.message[0]))
    body = _preview(state, state.preview, t) if state.preview is not None else _results(state, t)
    tree: Dict[str, Any] = ui.column(
        [
            ui.row(
                [
                    ui.input(ids.QUERY, t("search_placeholder"), state.field_value),
                    ui.button(ids.REFRESH, t("refresh"), icon="refresh-cw", variant="ghost"),
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
