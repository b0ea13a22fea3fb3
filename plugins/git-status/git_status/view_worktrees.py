"""The view's worktree parts: the worktree list, collision flags, agent tags and the attribution hint; pure."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from agentty_plugin import ui
from agentty_plugin.context import AGENT_KINDS
from agentty_plugin.panes import display_path

from . import ids
from .text import key

TYPE_CHECKING = False
if TYPE_CHECKING:  # not imported at run time: the first panel must not wait for the readers' modules
    from .team import TeamReport
    from .worktrees import PaneTag, WorktreeState

Translate = Callable[..., str]
MAX_WORKTREE_ROWS = 60
MAX_COLLISION_ROWS = 60


# Pane kinds the catalog names ("Claude", "Codex", "Shell"); any other kind is shown as Agentty sent it.
NAMED_KINDS = AGENT_KINDS | {"shell"}


def pane_label(tag: PaneTag, t: Translate) -> str:
    """Localized "Claude · pane 12" (the runtime's `panes.pane_label` is English-only and needs a whole Pane)."""
    return t("pane_tag", agent=t(f"agent_{tag.kind}") if tag.kind in NAMED_KINDS else tag.kind, pane=tag.pane_id)


def shown_worktree(team: Optional[TeamReport], root: Optional[str]) -> Optional[WorktreeState]:
    return team.worktrees.worktree_for(root) if team is not None and root else None


def file_notes(team: Optional[TeamReport], worktree: Optional[WorktreeState], path: str, t: Translate) -> List[str]:
    """The collision flag and agent tags for one changed file of the shown worktree."""
    if team is None or worktree is None:
        return []
    notes: List[str] = []
    others = worktree.collisions.get(path)
    if others:
        notes.append(t("collision_also", names=", ".join(others)))
    tags = team.attribution.for_file(worktree.path, path)
    if tags:
        notes.append(t("attribution_tag", agents=", ".join(pane_label(tag, t) for tag in tags)))
    return notes


def attribution_hint(team: Optional[TeamReport], t: Translate) -> Optional[Dict[str, Any]]:
    """Says that tags are a hint, or why there are none (never silently missing)."""
    if team is None:
        return None
    state = team.attribution.state
    if state == "ok":
        return ui.text(t("attribution_hint"), "muted") if team.attribution.tags else None
    if state in ("refused", "timeout", "error"):
        return ui.text(t(key("attribution", state)), "muted")
    return None


def collision_section(team: TeamReport, worktree: Optional[WorktreeState], t: Translate) -> Optional[Dict[str, Any]]:
    """Files this worktree shares with others, including ones only committed on its branch (not in the list above)."""
    if worktree is None or not worktree.collisions:
        return None
    rows = [ui.item(path, path, subtitle=t("collision_also", names=", ".join(others)), icon="shield-alert",
                    tone="error", actions=[ui.action(ids.REVEAL, t("action_reveal"), "folder-open")])
            for path, others in sorted(worktree.collisions.items())[:MAX_COLLISION_ROWS]]
    children: List[Any] = [ui.list(ids.COLLISIONS, rows)]
    if len(worktree.collisions) > MAX_COLLISION_ROWS:
        children.append(ui.text(t("more", count=len(worktree.collisions) - MAX_COLLISION_ROWS), "muted"))
    children.append(ui.text(t("collision_hint"), "muted"))
    section: Dict[str, Any] = ui.section(t("collision_title", count=len(worktree.collisions)), children)
    return section


def _state_text(worktree: WorktreeState, t: Translate) -> str:
    entry = worktree.entry
    if worktree.state == "missing":
        if entry.locked is not None:
            return t("wt_missing_locked", reason=entry.locked or t("wt_no_reason"))
        return t("wt_missing")
    if worktree.state == "bare":
        return t("wt_bare")
    if worktree.state == "not-read":
        return t("wt_not_read")
    if worktree.state == "foreign":
        return t("wt_foreign")
    return t(key("state", worktree.state), folder=display_path(entry.path))


def _summary(worktree: WorktreeState, base: Optional[str], t: Translate) -> str:
    entry = worktree.entry
    bits: List[str] = []
    if entry.is_main and not entry.bare:
        bits.append(t("wt_main"))
    if entry.locked is not None:
        bits.append(t("wt_locked", reason=entry.locked) if entry.locked else t("wt_locked_plain"))
    if worktree.state != "ok":
        bits.append(_state_text(worktree, t))
        return " · ".join(bits)
    branch = worktree.branch
    if worktree.operation is not None:
        bits.append(t(key("op", worktree.operation.kind)))
    if entry.detached or (branch is not None and branch.detached):
        bits.append(t("branch_detached", sha=(entry.head or "")[:8]))
    if branch is not None and branch.ahead:
        bits.append(t("ahead", count=branch.ahead))
    if branch is not None and branch.behind:
        bits.append(t("behind", count=branch.behind))
    if base and worktree.base_ahead is not None and (worktree.base_ahead or worktree.base_behind) \
            and entry.branch != base.split("/")[-1]:
        bits.append(t("wt_base", ahead=worktree.base_ahead, behind=worktree.base_behind or 0, base=base))
    bits.append(t("overview_dirty", count=worktree.dirty) if worktree.dirty else t("overview_clean"))
    if worktree.conflicted:
        bits.append(t("overview_conflicts", count=worktree.conflicted))
    if worktree.collisions:
        bits.append(t("wt_collisions", count=len(worktree.collisions)))
    return " · ".join(bits)


def _panes(worktree: WorktreeState, t: Translate) -> str:
    return ", ".join(f"{pane_label(p, t)} ({t(key('status', p.status)) if p.status in _STATUSES else p.status})"
                     for p in worktree.panes)


_STATUSES = ("idle", "working", "thinking", "permission", "question", "finished", "interrupted", "exited")


def worktree_rows(team: TeamReport, t: Translate, can_hand_off: bool = True) -> List[Dict[str, Any]]:
    rows = []
    for worktree in team.worktrees.worktrees[:MAX_WORKTREE_ROWS]:
        entry = worktree.entry
        summary = _summary(worktree, team.worktrees.base, t)
        panes = _panes(worktree, t)
        if worktree.state != "ok":
            tone, icon = "neutral", ("unlink" if worktree.state == "missing" else "folder")
        elif worktree.conflicted or worktree.collisions:
            tone, icon = "error", "folder-git-2"
        else:
            tone, icon = ("warning" if worktree.dirty else "success"), "folder-git-2"
        title = t("wt_detached_title", name=worktree.name) if entry.detached else worktree.name
        review = can_hand_off and worktree.state == "ok" and team.worktrees.base is not None and (
            worktree.dirty or worktree.base_ahead)
        rows.append(ui.item(entry.path, title, subtitle=summary + (" · " + panes if panes else ""),
                            detail=display_path(entry.path), icon=icon, tone=tone,
                            actions=[ui.action(ids.REVIEW, t("action_review"), "sparkles")] if review else None))
    return rows


def worktrees_view(team: Optional[TeamReport], loading: bool, t: Translate) -> List[Any]:
    if team is None:
        return [ui.spinner(t("loading_worktrees"))]
    report = team.worktrees
    if report.state != "ok":
        return [ui.text(t("wt_failed", error=report.detail[:500]), "error")]
    parts: List[Any] = []
    children: List[Any] = [ui.list(ids.WORKTREES, worktree_rows(team, t), empty=t("wt_empty"))]
    if len(report.worktrees) > MAX_WORKTREE_ROWS:
        children.append(ui.text(t("more", count=len(report.worktrees) - MAX_WORKTREE_ROWS), "muted"))
    children.append(ui.text(t("wt_hint"), "muted"))
    if team.panes_state != "ok":
        children.append(ui.text(t("wt_no_panes"), "muted"))
    parts.append(ui.section(t("wt_title", count=len(report.worktrees)), children))
    shared: Dict[str, List[str]] = {}
    for worktree in report.worktrees:
        for path in worktree.collisions:
            names = shared.setdefault(path, [])
            if worktree.name not in names:
                names.append(worktree.name)
    if shared:
        rows = [ui.item(path, path, subtitle=t("collision_in", names=", ".join(sorted(names))), icon="shield-alert",
                        tone="error") for path, names in sorted(shared.items())[:MAX_COLLISION_ROWS]]
        parts.append(ui.section(t("collision_title", count=len(shared)),
                                [ui.list(ids.ALL_COLLISIONS, rows), ui.text(t("collision_hint"), "muted"),
                                 ui.text(t("collision_select"), "muted")]))
    parts.append(attribution_hint(team, t))
    if loading:
        parts.append(ui.spinner(t("loading_worktrees")))
    return parts
