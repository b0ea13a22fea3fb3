"""git-status: the focused repository, its worktrees and who changed what, every workspace, and hand-offs to agents."""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
for _extra in (os.path.join(_HERE, "_vendor"), os.path.join(_HERE, "..", "..", "shared")):
    if os.path.isdir(_extra) and _extra not in sys.path:
        sys.path.insert(0, _extra)

import threading  # noqa: E402
import time  # noqa: E402
from typing import Any, Callable, Optional  # noqa: E402

from agentty_plugin import AgenttyError, Context, Plugin  # noqa: E402
from git_status import handoff  # noqa: E402
from git_status.focus import Session, reveal_target  # noqa: E402
from git_status.location import RepoLocation  # noqa: E402
from git_status.overview import OverviewReader  # noqa: E402
from git_status.poller import ChangePoller  # noqa: E402
from git_status.runner import GitError, GitRunner  # noqa: E402
from git_status.sessions import SessionReader  # noqa: E402
from git_status.snapshot import RepoSnapshot, take_snapshot  # noqa: E402
from git_status.team import TeamReport, read_team  # noqa: E402
from git_status.text import TRANSLATOR  # noqa: E402
from git_status.view import GROUPS, State, badge_text, render  # noqa: E402
from git_status.worktrees import WorktreeReader  # noqa: E402

plugin = Plugin()
runner = GitRunner()  # GitPython itself is imported on the first git call, after the first panel
overview_reader = OverviewReader(runner)
worktree_reader = WorktreeReader(runner)
session_reader = SessionReader(plugin)
view = State()
lock = threading.RLock()  # handlers run on several threads; the view changes under this lock
handing_off = threading.Lock()  # one hand-off at a time
session = Session()
FOCUS_DEBOUNCE_SECONDS = 0.25
# On reopen, the panel drawn at once would take the host's only redraw slot for the next 52 ms, and
# the fresh status (16-19 ms on a 100-file repository, bench_git_status "Refresh clicked" row) would wait for it.
# So a reopen first waits this long for the fresh status, and draws the previous one only if git is slower.
# GIT_STATUS_REOPEN_WAIT_MS overrides it (tests make it long, so a slow machine cannot change what they see).
REOPEN_WAIT_SECONDS = float(os.environ.get("GIT_STATUS_REOPEN_WAIT_MS") or 40) / 1000


def redraw() -> None:
    with lock:
        if session.panel_open:
            view.language, view.now = plugin.language, time.time()
            plugin.set_panel(render(view, TRANSLATOR.for_language(plugin.language)))


def shown_location() -> Optional[RepoLocation]:
    snapshot = view.snapshot
    return snapshot.location if snapshot is not None and snapshot.ok else None


def refresh(context: Optional[Context] = None, debounce: float = 0.0,
            drawn: Optional[threading.Event] = None) -> None:
    """Reads the repository, then its worktrees and agents (blocking: we are on a handler or poller
    thread); only the newest read draws. `drawn` is set once the status is drawn."""
    generation = plugin.latest("status")
    if debounce:
        time.sleep(debounce)
        if not generation.is_current:
            return
    folder = session.folder_for(context or plugin.context)
    with lock:
        if view.snapshot is not None and view.snapshot.folder != folder:
            view.snapshot = None  # another repository: a spinner, not the previous one's files
        view.loading = view.snapshot is None
        if view.loading:
            redraw()
    snapshot = take_snapshot(folder, runner)
    if not generation.is_current:
        return
    with lock:
        view.snapshot, view.loading = snapshot, False
        if view.team is not None and (snapshot.location is None or view.team.root != snapshot.location.root):
            view.team = None  # another repository's worktrees
    poller.refreshed(snapshot.seconds, snapshot.location if snapshot.ok else None)
    plugin.set_badge(badge_text(snapshot, view.team))
    redraw()
    if drawn is not None:
        drawn.set()
    team = update_team(snapshot, generation)
    if team is not None:
        poller.add_cost(team.seconds)


def update_team(snapshot: RepoSnapshot, generation: Any) -> Optional[TeamReport]:
    """Worktrees, panes and agent tags for the repository just read (the status is drawn already)."""
    if not snapshot.ok or snapshot.location is None:
        return None
    location = snapshot.location
    with lock:
        view.team_loading = True
    team = read_team(location, worktree_reader, session_reader.list_workspaces, session_reader.read,
                     {location.root: snapshot.status})
    if not generation.is_current:
        return team
    with lock:
        view.team, view.team_loading = team, False
    plugin.set_badge(badge_text(snapshot, team))
    redraw()
    return team


def poll_refresh(reason: str) -> None:
    try:
        refresh()
    except Exception as error:  # the poller thread must survive anything
        plugin.log("git-status: refresh after", reason, "failed:", repr(error))


poller = ChangePoller(shown_location, poll_refresh)


def load_overview() -> None:
    generation = plugin.latest("overview")
    with lock:
        view.overview_loading, view.overview_error = True, None
    redraw()
    try:
        workspaces = plugin.list_workspaces()
    except AgenttyError as error:
        with lock:
            view.overview_loading, view.overview_error = False, str(error)
        redraw()
        return
    entries = [(str(w.id), w.name or str(w.id), w.cwd or next((p.cwd for p in w.panes if p.cwd), None))
               for w in workspaces]
    rows = overview_reader.read(entries)
    if generation.is_current:
        with lock:
            view.overview, view.overview_loading = rows, False
        redraw()


def notice(key: str, style: str = "muted", **values: Any) -> None:
    """A message in the panel (kept until the next action) and as a notification."""
    text = TRANSLATOR.get(plugin.language, key, **values)
    with lock:
        view.notice = (text, style)
    redraw()
    plugin.notify(text, "warning" if style == "error" else "info")


def hand_off(make: Callable[[RepoSnapshot, RepoLocation], handoff.HandOff]) -> None:
    """Builds a prompt from the shown repository and gives it to an idle agent, or lets the user choose."""
    if not handing_off.acquire(blocking=False):
        return
    try:
        send_prompt(make)
    finally:
        handing_off.release()


def send_prompt(make: Callable[[RepoSnapshot, RepoLocation], handoff.HandOff]) -> None:
    if shown_location() is None:
        refresh()
    snapshot = view.snapshot
    if snapshot is None or snapshot.location is None:
        return
    try:
        request = make(snapshot, snapshot.location)
    except handoff.NothingToSend as nothing:
        refresh()
        notice(nothing.key, **nothing.values)
        return
    except GitError as error:
        notice("handoff.failed", "error", error=str(error))
        return
    dispatch(request, snapshot.location.root, snapshot.status.branch.head or snapshot.location.name)


def dispatch(request: handoff.HandOff, root: str, name: str) -> None:
    """Never types into a busy agent: an idle agent pane in the worktree at `root`, else a new tab opened there."""
    if session.is_repeat(request.title):
        return  # a double click: the same prompt was just sent
    try:
        workspaces = session_reader.list_workspaces()
    except AgenttyError:
        workspaces = []
    team = view.team
    worktrees = team.worktrees if team is not None and team.worktrees.worktree_for(root) is not None else None
    target = handoff.choose_target(plugin.context.pane if plugin.context else None, workspaces, root, worktrees)
    try:
        key, values = handoff.deliver(plugin.inject_prompt, request, target, name)
    except AgenttyError as error:
        notice("handoff.failed", "error", error=str(error))
        return
    session.sent(request.title)
    notice(key, **values)


def reveal_file(path: str) -> None:
    location = shown_location()
    if location is None:
        return
    try:
        plugin.reveal_path(reveal_target(location.root, path))
    except AgenttyError as error:
        notice("reveal.failed", "error", path=path, error=str(error))


def startup_refresh() -> None:
    if view.snapshot is None:  # the panel may have been opened (and read) meanwhile
        poll_refresh("start-up")


@plugin.on_activate
def activated(info: Any) -> None:
    # The badge is worth having before the panel is ever opened; read a moment later, in the
    # background, so activation (and a panel opened right away) never waits for git.
    timer = threading.Timer(1.0, startup_refresh)
    timer.daemon = True
    timer.start()


def draw_unless(drawn: threading.Event) -> None:
    if not drawn.wait(REOPEN_WAIT_SECONDS):
        redraw()  # git is slow today: show the previous read meanwhile


@plugin.on_panel_open
def panel_opened(context: Context) -> None:
    session.panel_open = True
    poller.start()
    shown = view.snapshot
    if view.mode != "workspaces" and shown is not None and shown.folder == session.folder_for(context):
        drawn = threading.Event()
        threading.Thread(target=draw_unless, args=(drawn,), daemon=True).start()
        refresh(context, drawn=drawn)
        return
    redraw()  # at once, before any git call (and before GitPython is imported)
    if view.mode == "workspaces":
        load_overview()
    refresh(context)


@plugin.on_panel_close
def panel_closed(context: Context) -> None:
    session.panel_open = False
    poller.stop()


@plugin.on_context_change
def context_changed(context: Context) -> None:
    agent_stopped = session.agent_stopped(context)
    # A new folder, or an agent that just stopped working (it has probably changed files).
    if view.snapshot is None or view.snapshot.folder != session.folder_for(context) or agent_stopped:
        refresh(context, debounce=FOCUS_DEBOUNCE_SECONDS)
    else:
        redraw()  # the language may have changed


@plugin.on_event("toolbar.refresh")
def refresh_clicked(event: Any, context: Context) -> None:
    with lock:
        view.notice = None
    load_overview() if view.mode == "workspaces" else refresh(context)


@plugin.on_event("toolbar.view")
def view_changed(event: Any, context: Context) -> None:
    with lock:
        view.mode, view.notice = (event.value if event.value in ("workspaces", "worktrees") else "repo"), None
    redraw()
    load_overview() if view.mode == "workspaces" else refresh(context)


@plugin.on_event("toolbar.follow")
def follow_focus(event: Any, context: Context) -> None:
    with lock:
        session.pinned_folder, view.pinned_name, view.pinned_kind = None, None, "workspace"
    refresh(context)


@plugin.on_event("collisions.list")
def collision_event(event: Any, context: Context) -> None:
    if event.event == "action" and event.action == "reveal" and event.item:
        reveal_file(event.item)


@plugin.on_event("collisions.all")
def collision_selected(event: Any, context: Context) -> None:
    team = view.team
    first = next((w for w in (team.worktrees.worktrees if team else []) if event.item in w.collisions), None)
    if first is not None:
        show_worktree(first.path, context)


@plugin.on_event("worktrees.list")
def worktree_event(event: Any, context: Context) -> None:
    if event.event == "action" and event.action == "review" and event.item:
        review_worktree(event.item)
    elif event.event == "select":
        show_worktree(event.item, context)


def review_worktree(path: str) -> None:
    team = view.team
    chosen = next((w for w in (team.worktrees.worktrees if team else []) if w.path == path), None)
    if team is None or chosen is None or not handing_off.acquire(blocking=False):
        return
    try:
        request = handoff.review_worktree(chosen, team.worktrees.base, runner, plugin.language)
        dispatch(request, chosen.path, chosen.name)
    except handoff.NothingToSend as nothing:
        notice(nothing.key, **nothing.values)
    except GitError as error:
        notice("handoff.failed", "error", error=str(error))
    finally:
        handing_off.release()


def show_worktree(path: Optional[str], context: Optional[Context] = None) -> None:
    team = view.team
    chosen = next((w for w in (team.worktrees.worktrees if team else []) if w.path == path), None)
    if chosen is None or chosen.state != "ok":
        return  # a missing or bare worktree has no status to show; its row says why
    with lock:
        session.pinned_folder, view.pinned_name, view.pinned_kind = chosen.path, chosen.name, "worktree"
        view.mode, view.notice = "repo", None
    refresh(context)


@plugin.on_event("workspaces.list")
def workspace_selected(event: Any, context: Context) -> None:
    row = next((r for r in view.overview or [] if r.workspace_id == event.item), None)
    if row is not None:
        with lock:
            session.pinned_folder, view.pinned_name, view.pinned_kind = row.folder, row.name, "workspace"
            view.mode, view.notice = "repo", None
        refresh(context)


def file_event(group: str) -> Callable[[Any, Context], None]:
    def handle(event: Any, context: Context) -> None:
        if event.event == "action" and event.action == "review" and event.item:
            hand_off(lambda s, where: handoff.review_file(s, where, runner, group, event.item, plugin.language))
        elif event.event == "action" and event.action == "resolve" and event.item:
            hand_off(lambda s, where: handoff.resolve_conflict(s, where, runner, event.item, plugin.language))
        elif event.event == "action" and event.action == "reveal" and event.item:
            reveal_file(event.item)
    return handle


for _group in GROUPS:
    plugin.on_event(f"files.{_group}")(file_event(_group))


@plugin.on_event("commits.recent")
def commit_event(event: Any, context: Context) -> None:
    if event.event == "action" and event.action == "summarize" and event.item:
        hand_off(lambda s, where: handoff.summarize_commit(s, where, runner, event.item, plugin.language))


def commit_message(snapshot: RepoSnapshot, where: RepoLocation) -> handoff.HandOff:
    return handoff.commit_message(snapshot, where, runner, plugin.language)


def explain_branch(snapshot: RepoSnapshot, where: RepoLocation) -> handoff.HandOff:
    return handoff.explain_branch(snapshot, where, runner, plugin.language)


@plugin.on_event("handoff.commit-message")
def commit_message_clicked(event: Any, context: Context) -> None:
    hand_off(commit_message)


@plugin.on_event("handoff.explain-branch")
def explain_branch_clicked(event: Any, context: Context) -> None:
    hand_off(explain_branch)


@plugin.command("git-status.open")
def open_command(call: Any) -> None:
    plugin.show_panel()


@plugin.command("git-status.refresh")
def refresh_command(call: Any) -> None:
    refresh(call.context)


@plugin.command("git-status.overview")
def overview_command(call: Any) -> None:
    with lock:
        view.mode = "workspaces"
    plugin.show_panel()
    load_overview()


@plugin.command("git-status.commit-message")
def commit_message_command(call: Any) -> None:
    refresh(call.context)
    hand_off(commit_message)


@plugin.command("git-status.explain-branch")
def explain_branch_command(call: Any) -> None:
    refresh(call.context)
    hand_off(explain_branch)


@plugin.on_shutdown
def stop() -> None:
    poller.stop()


if __name__ == "__main__":
    plugin.run()
