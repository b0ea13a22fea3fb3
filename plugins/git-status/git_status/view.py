"""The panel as a pure function of the state and a translator (host UI v1 elements only): no host, no git, no I/O."""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from agentty_plugin import ui
from agentty_plugin.i18n import relative_time
from agentty_plugin.panes import display_path

from . import ids
from .text import key
from .view_worktrees import attribution_hint, collision_section, file_notes, shown_worktree, worktrees_view

TYPE_CHECKING = False
if TYPE_CHECKING:  # the readers' types: importing them (dataclasses and all) would slow the first panel
    from .overview import WorkspaceRow
    from .porcelain import BranchInfo, FileChange
    from .snapshot import RepoSnapshot
    from .team import TeamReport
    from .worktrees import WorktreeState

# Rows shown per group before "and N more": 4 groups x 60 rows x 3 elements stays far below the
# host's 2,000-element limit, whatever the repository holds.
MAX_ROWS_PER_GROUP = 60
GROUPS = tuple(ids.FILES)  # conflicted, staged, changed, untracked
_GROUP_STYLE = {"conflicted": ("error", "circle-x"), "staged": ("success", "circle-check"),
                "changed": ("warning", "pencil"), "untracked": ("info", "file-plus")}

Translate = Callable[..., str]


class State(NamedTuple):
    """Everything the panel shows: an immutable snapshot. The controller (app.py) replaces it whole, under
    its lock, with `update(**changes)`; a NamedTuple because a dataclass costs the first panel ~10 ms."""

    mode: str = ids.MODE_REPO  # one of ids.MODES
    snapshot: Optional[RepoSnapshot] = None
    loading: bool = False
    pinned_name: Optional[str] = None  # a workspace or worktree chosen instead of following focus
    pinned_kind: str = "workspace"  # workspace | worktree: what was chosen
    team: Optional[TeamReport] = None  # worktrees, panes and agent tags of the shown repository
    team_loading: bool = False
    overview: Optional[List[WorkspaceRow]] = None
    overview_loading: bool = False
    overview_error: Optional[str] = None
    notice: Optional[Tuple[str, str]] = None  # (text, text style) shown under the toolbar
    can_hand_off: bool = True
    language: str = "en"  # for relative times ("3 minutes ago"); the catalog comes as `t`
    now: float = 0.0  # the time commits' ages are counted from (set for each draw)


def badge_text(snapshot: Optional[RepoSnapshot], team: Optional[TeamReport] = None) -> str:
    """The changed-file count, then "⚠n" files shared with another worktree, at most 8 characters;
    empty (cleared) when clean and collision-free, or not a repository."""
    if snapshot is None or not snapshot.ok:
        return ""
    shown = shown_worktree(team, snapshot.location.root if snapshot.location else None)
    collisions = len(shown.collisions) if shown is not None else 0
    count = snapshot.status.dirty_count
    text = (str(count) if count < 10_000_000 else "9999999+") if count else ""
    if collisions:
        flag = f"⚠{collisions}" if collisions < 100_000 else "⚠99999+"
        joined = f"{text} {flag}" if text else flag
        text = joined if len(joined) <= 8 else flag
    return text


def group_files(snapshot: RepoSnapshot, group: str) -> List[FileChange]:
    return list(getattr(snapshot.status, group))


def _describe(change: FileChange, group: str, t: Translate) -> str:
    if change.submodule and change.submodule_notes:
        return t("submodule", notes=", ".join(t(f"submodule_{n}") for n in change.submodule_notes))
    if group == "conflicted":
        return t(key("conflict", change.conflict)) if change.conflict else t("letter_u")
    if group == "untracked":
        return t("untracked_folder" if change.display.endswith("/") else "untracked_file")
    letter = change.index if group == "staged" else change.worktree
    words = t(key("letter", letter)) if letter not in ".?" else t("letter_untracked")
    if group == "staged" and change.worktree != ".":
        words += " · " + t("staged_and_changed")
    return words


def _file_row(change: FileChange, group: str, t: Translate, can_hand_off: bool, notes: List[str]) -> Dict[str, Any]:
    tone, icon = _GROUP_STYLE[group]
    letter = change.index if group == "staged" else change.worktree
    if change.submodule:
        icon = "folder-git-2"
    elif letter == "D":
        icon = "trash-2"
    title = f"{change.orig_display} → {change.display}" if change.orig_display and group == "staged" else change.display
    actions = [ui.action(ids.REVIEW, t("action_review"), "sparkles") if can_hand_off else None,
               ui.action(ids.RESOLVE, t("action_resolve"), "wrench") if can_hand_off and group == "conflicted"
               else None,
               ui.action(ids.REVEAL, t("action_reveal"), "folder-open")]
    if notes and tone != "error":
        tone = "error" if any(n.startswith("⚠") for n in notes) else tone
    row: Dict[str, Any] = ui.item(
        change.display, title, subtitle=" · ".join([_describe(change, group, t), *notes]),
        detail=(change.score or letter) if group == "staged" else (letter if letter not in ".?" else "?"),
        icon=icon, tone=tone, actions=[a for a in actions if a])
    return row


def _file_group(snapshot: RepoSnapshot, group: str, t: Translate, view: State,
                worktree: Optional[WorktreeState]) -> Optional[Dict[str, Any]]:
    files = group_files(snapshot, group)
    if not files:
        return None
    shown = files[:MAX_ROWS_PER_GROUP]
    children: List[Any] = [ui.list(ids.FILES[group], [
        _file_row(f, group, t, view.can_hand_off, file_notes(view.team, worktree, f.path, t)) for f in shown])]
    if len(files) > len(shown):
        children.append(ui.text(t("more", count=len(files) - len(shown)), "muted"))
    if group == "staged" and view.can_hand_off:
        children.append(ui.button(ids.COMMIT_MESSAGE, t("handoff_commit"), "sparkles", "primary"))
    section: Dict[str, Any] = ui.section(t(f"group_{group}", count=len(files)), children)
    return section


def _branch_header(branch: BranchInfo, t: Translate) -> List[Any]:
    if branch.unborn:
        title = t("branch_unborn", branch=branch.head or "HEAD")
    elif branch.detached:
        title = t("branch_detached", sha=(branch.oid or "")[:8])
    else:
        title = branch.head or "HEAD"
    parts: List[Any] = [ui.text(title, "title")]
    if branch.ahead:
        parts.append(ui.badge(t("ahead", count=branch.ahead), "info"))
    if branch.behind:
        parts.append(ui.badge(t("behind", count=branch.behind), "warning"))
    return parts


def _where(snapshot: RepoSnapshot, t: Translate) -> str:
    location = snapshot.location
    assert location is not None
    branch = snapshot.status.branch
    bits = [display_path(location.root)]
    if branch.upstream:
        bits.append(t("branch_upstream_gone" if branch.upstream_gone else "branch_upstream", upstream=branch.upstream))
    elif not branch.unborn and not branch.detached:
        bits.append(t("branch_no_upstream"))
    if location.is_linked_worktree:
        bits.append(t("where_worktree"))
    if location.superproject:
        bits.append(t("where_submodule", parent=os.path.basename(location.superproject)))
    if snapshot.stashes:
        bits.append(t("stashes", count=snapshot.stashes))
    return " · ".join(bits)


def _operation(snapshot: RepoSnapshot, t: Translate) -> Optional[Dict[str, Any]]:
    operation = snapshot.operation
    if operation is None:
        return None
    lines = []
    if operation.kind == "rebase" and operation.step and operation.total:
        lines.append(ui.text(t("op_rebase_step", branch=operation.onto or "HEAD", step=operation.step,
                               total=operation.total)))
    lines.append(ui.text(t(key("op", operation.kind, "next")), "muted"))
    section: Dict[str, Any] = ui.section(t(key("op", operation.kind)), lines)
    return section


def _repository(snapshot: RepoSnapshot, view: State, t: Translate) -> List[Any]:
    if not snapshot.ok:
        folder = display_path(snapshot.folder or "")
        body = [ui.text(t(key("state", snapshot.state), folder=folder), "error")]
        if snapshot.detail and snapshot.state not in ("no-folder", "gone"):
            body.append(ui.text(snapshot.detail[:2000], "muted"))
        return body
    parts: List[Any] = [ui.row(_branch_header(snapshot.status.branch, t), gap="small", wrap=True),
                        ui.text(_where(snapshot, t), "muted"), _operation(snapshot, t)]
    worktree = shown_worktree(view.team, snapshot.location.root if snapshot.location else None)
    groups = [_file_group(snapshot, group, t, view, worktree) for group in GROUPS]
    parts.extend(groups)
    if not any(groups):
        parts.append(ui.text(t("clean"), "success"))
    if view.team is not None:
        parts.append(collision_section(view.team, worktree, t))
        parts.append(attribution_hint(view.team, t))
    if snapshot.commits:
        rows = [ui.item(c.sha, c.subject or c.short, subtitle=t("commit_subtitle", sha=c.short, author=c.author,
                                                                   when=relative_time(view.now - c.timestamp,
                                                                                      view.language)),
                        icon="git-commit-horizontal",
                        actions=[ui.action(ids.SUMMARIZE, t("action_summarize"), "sparkles")])
                for c in snapshot.commits]
        explain = ui.button(ids.EXPLAIN_BRANCH, t("handoff_explain"), "git-branch") if view.can_hand_off else None
        parts.append(ui.section(t("commits"), [ui.list(ids.COMMITS, rows), explain]))
    return parts


def _overview(view: State, t: Translate) -> List[Any]:
    if view.overview_error:
        return [ui.text(t("overview_failed", error=view.overview_error), "error")]
    if view.overview is None:
        return [ui.spinner(t("loading_overview"))]
    rows = []
    for row in view.overview:
        if row.state != "ok" or row.branch is None:
            folder = display_path(row.folder or "")
            rows.append(ui.item(row.workspace_id, row.name, subtitle=t(key("state", row.state), folder=folder),
                                icon="folder", tone="neutral"))
            continue
        branch = row.branch
        bits = [branch.head or (branch.oid or "")[:8] or "HEAD"]
        if branch.ahead:
            bits.append(t("ahead", count=branch.ahead))
        if branch.behind:
            bits.append(t("behind", count=branch.behind))
        bits.append(t("overview_dirty", count=row.dirty) if row.dirty else t("overview_clean"))
        if row.conflicted:
            bits.append(t("overview_conflicts", count=row.conflicted))
        tone = "error" if row.conflicted else "warning" if row.dirty else "success"
        rows.append(ui.item(row.workspace_id, row.name, subtitle=" · ".join(bits),
                            detail=display_path(row.root or ""), icon="folder-git-2", tone=tone))
    return [ui.section(t("overview_title"), [
        ui.list(ids.WORKSPACES, rows[:MAX_ROWS_PER_GROUP * 4], empty=t("overview_empty")),
        ui.text(t("overview_hint"), "muted"),
        ui.spinner(t("loading_overview")) if view.overview_loading else None,
    ])]


def render(view: State, t: Translate) -> Dict[str, Any]:
    toolbar = ui.row([
        ui.choice(ids.VIEW, [ui.option(ids.MODE_REPO, t("view_repo")),
                             ui.option(ids.MODE_WORKTREES, t("view_worktrees")),
                             ui.option(ids.MODE_WORKSPACES, t("view_workspaces"))], view.mode),
        ui.button(ids.REFRESH, t("refresh"), "refresh-cw", "ghost"),
    ], gap="small")
    children: List[Any] = [toolbar]
    if view.mode == ids.MODE_REPO and view.pinned_name is not None:
        pinned = t("pinned_worktree" if view.pinned_kind == "worktree" else "pinned", name=view.pinned_name)
        children.append(ui.row([ui.text(pinned, "muted"),
                                ui.button(ids.FOLLOW, t("follow"), "arrow-left", "ghost")], gap="small"))
    if view.notice:
        children.append(ui.text(view.notice[0], view.notice[1]))
    if view.mode == ids.MODE_WORKSPACES:
        children.extend(_overview(view, t))
    elif view.mode == ids.MODE_WORKTREES and view.snapshot is not None and not view.snapshot.ok:
        children.extend(_repository(view.snapshot, view, t))  # no repository: say why, as "This repo" does
    elif view.mode == ids.MODE_WORKTREES:
        children.extend(worktrees_view(view.team, view.team_loading, t))
    elif view.snapshot is None:
        children.append(ui.spinner(t("loading")))
    else:
        if view.loading:
            children.append(ui.spinner(t("loading")))
        children.extend(_repository(view.snapshot, view, t))
    tree: Dict[str, Any] = ui.column(children, gap="medium")
    return tree
