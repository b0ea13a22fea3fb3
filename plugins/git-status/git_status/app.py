"""The controller: owns the panel's state and its locks, reads the repository, and alone calls the host."""

from __future__ import annotations

import os
import threading
import time
from typing import Any, Callable, Optional

from agentty_plugin import AgenttyError, CommandCall, Context, Plugin, UIEvent

from . import ids
from .focus import Session, reveal_target
from .text import TEXT
from .view import State, badge_text, render

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .handoff import HandOff
    from .location import RepoLocation
    from .readers import Readers
    from .snapshot import RepoSnapshot
    from .team import TeamReport

    MakeHandOff = Callable[[RepoSnapshot, RepoLocation], HandOff]

# The modules that read git (snapshot, team, handoff, readers) are imported inside the methods that
# use them, never at the top: the first panel ("Reading the repository…") must not wait for them.

FOCUS_DEBOUNCE_SECONDS = 0.25
# On reopen, the panel drawn at once would take the host's only redraw slot for the next 52 ms, and
# the fresh status (16-19 ms on a 100-file repository, bench_git_status "Refresh clicked" row) would wait for it.
# So a reopen first waits this long for the fresh status, and draws the previous one only if git is slower.
# GIT_STATUS_REOPEN_WAIT_MS overrides it (tests make it long, so a slow machine cannot change what they see).
REOPEN_WAIT_SECONDS = float(os.environ.get("GIT_STATUS_REOPEN_WAIT_MS") or 40) / 1000
# The badge is worth having before the panel is ever opened; it is read this long after activation,
# in the background, so activation (and a panel opened right away) never waits for git.
STARTUP_READ_SECONDS = 1.0


class App:
    """One per plugin process: main.py registers its methods as the handlers of ids.py's elements and commands."""

    def __init__(self, plugin: Plugin) -> None:
        self.plugin = plugin
        self.lock = threading.RLock()  # handlers run on several threads; the state changes under this lock
        self.handing_off = threading.Lock()  # one hand-off at a time; the next one waits for it
        self.state = State()
        self.session = Session()
        self._readers: Optional[Readers] = None
        self._readers_lock = threading.Lock()  # not `lock`: importing them must not hold up a redraw

    # -- the panel -----------------------------------------------------------------------------------

    def readers(self) -> Readers:
        """The git, worktree and session readers, imported and built on first use (after the first panel)."""
        with self._readers_lock:
            if self._readers is None:
                from .readers import Readers

                self._readers = Readers(self.plugin, self.shown_location, self.poll_refresh)
            return self._readers

    def update(self, **changes: Any) -> None:
        """The only way the state changes: the next snapshot under the lock, then a redraw of it. A change
        that leaves every field as it was draws nothing (a reopen's refresh waits for git; see open())."""
        with self.lock:
            state = self.state
            if all(getattr(state, name) is value for name, value in changes.items()):
                return
            self.state = state._replace(**changes)
            self.redraw()

    def redraw(self) -> None:
        """Draw the current snapshot, with the language and the clock of this moment."""
        with self.lock:
            if self.session.panel_open:
                language = self.plugin.language
                shown = self.state._replace(language=language, now=time.time())
                self.plugin.set_panel(render(shown, TEXT.for_language(language)))

    def shown_location(self) -> Optional[RepoLocation]:
        snapshot = self.state.snapshot
        return snapshot.location if snapshot is not None and snapshot.ok else None

    def notice(self, key: str, style: str = "muted", **values: Any) -> None:
        """A message in the panel (kept until the next action) and as a notification."""
        text = TEXT.get(self.plugin.language, key, **values)
        self.update(notice=(text, style))
        self.plugin.notify(text, "warning" if style == "error" else "info")

    def activate(self, info: Any) -> None:
        timer = threading.Timer(STARTUP_READ_SECONDS, self._startup_refresh)
        timer.daemon = True
        timer.start()

    def _startup_refresh(self) -> None:
        if self.state.snapshot is None:  # the panel may have been opened (and read) meanwhile
            self.poll_refresh("start-up")

    def open(self, context: Context) -> None:
        self.session.panel_open = True
        shown = self.state.snapshot
        if self.state.mode != ids.MODE_WORKSPACES and shown is not None \
                and shown.folder == self.session.folder_for(context):
            self.readers().poller.start()
            drawn = threading.Event()
            threading.Thread(target=self._draw_unless, args=(drawn,), daemon=True).start()
            self.refresh(context, drawn=drawn)
            return
        self.redraw()  # at once, before any git module is imported
        self.readers().poller.start()
        if self.state.mode == ids.MODE_WORKSPACES:
            self.load_overview()
        self.refresh(context)

    def _draw_unless(self, drawn: threading.Event) -> None:
        if not drawn.wait(REOPEN_WAIT_SECONDS):
            self.redraw()  # git is slow today: show the previous read meanwhile

    def close(self, context: Context) -> None:
        self.session.panel_open = False
        if self._readers is not None:
            self._readers.poller.stop()

    def stop(self) -> None:
        if self._readers is not None:
            self._readers.poller.stop()

    def context_changed(self, context: Context) -> None:
        agent_stopped = self.session.agent_stopped(context)
        snapshot = self.state.snapshot
        # A new folder, or an agent that just stopped working (it has probably changed files).
        if snapshot is None or snapshot.folder != self.session.folder_for(context) or agent_stopped:
            self.refresh(context, debounce=FOCUS_DEBOUNCE_SECONDS)
        else:
            self.redraw()  # the language may have changed

    # -- reading -------------------------------------------------------------------------------------

    def refresh(self, context: Optional[Context] = None, debounce: float = 0.0,
                drawn: Optional[threading.Event] = None) -> None:
        """Reads the repository, then its worktrees and agents (blocking: we are on a handler or poller
        thread); only the newest read draws. `drawn` is set once the status is drawn."""
        from .snapshot import take_snapshot

        generation = self.plugin.latest("status")
        if debounce:
            time.sleep(debounce)
            if not generation.is_current:
                return
        folder = self.session.folder_for(context or self.plugin.context)
        with self.lock:
            shown = self.state.snapshot
            if shown is not None and shown.folder != folder:
                shown = None  # another repository: a spinner, not the previous one's files
            self.update(snapshot=shown, loading=shown is None)  # the same repository: nothing to draw yet
        readers = self.readers()
        snapshot = take_snapshot(folder, readers.runner)
        if not generation.is_current:
            return
        readers.poller.refreshed(snapshot.seconds, snapshot.location if snapshot.ok else None)
        with self.lock:
            team = self.state.team
            if team is not None and (snapshot.location is None or team.root != snapshot.location.root):
                team = None  # another repository's worktrees
            self.plugin.set_badge(badge_text(snapshot, team))  # the badge first, then the panel, as always
            self.update(snapshot=snapshot, loading=False, team=team)
        if drawn is not None:
            drawn.set()
        team = self._update_team(snapshot, generation)
        if team is not None:
            readers.poller.add_cost(team.seconds)

    def _update_team(self, snapshot: RepoSnapshot, generation: Any) -> Optional[TeamReport]:
        """Worktrees, panes and agent tags for the repository just read (the status is drawn already)."""
        from .team import read_team

        if not snapshot.ok or snapshot.location is None:
            return None
        location, readers = snapshot.location, self.readers()
        self.update(team_loading=True)
        team = read_team(location, readers.worktrees, readers.sessions.list_workspaces, readers.sessions.read,
                         {location.root: snapshot.status})
        if not generation.is_current:
            return team
        with self.lock:
            self.plugin.set_badge(badge_text(snapshot, team))
            self.update(team=team, team_loading=False)
        return team

    def poll_refresh(self, reason: str) -> None:
        try:
            self.refresh()
        except Exception as error:  # the poller thread must survive anything
            self.plugin.log("git-status: refresh after", reason, "failed:", repr(error))

    def load_overview(self) -> None:
        generation = self.plugin.latest("overview")
        self.update(overview_loading=True, overview_error=None)
        try:
            workspaces = self.plugin.list_workspaces()
        except AgenttyError as error:
            self.update(overview_loading=False, overview_error=str(error))
            return
        entries = [(str(w.id), w.name or str(w.id), w.cwd or next((p.cwd for p in w.panes if p.cwd), None))
                   for w in workspaces]
        rows = self.readers().overview.read(entries)
        if generation.is_current:
            self.update(overview=rows, overview_loading=False)

    # -- the toolbar and the lists -------------------------------------------------------------------

    def refresh_clicked(self, event: UIEvent, context: Context) -> None:
        self.update(notice=None)
        self.load_overview() if self.state.mode == ids.MODE_WORKSPACES else self.refresh(context)

    def view_chosen(self, event: UIEvent, context: Context) -> None:
        self.update(mode=event.value if event.value in ids.MODES else ids.MODE_REPO, notice=None)
        self.load_overview() if self.state.mode == ids.MODE_WORKSPACES else self.refresh(context)

    def follow_focus(self, event: UIEvent, context: Context) -> None:
        with self.lock:
            self.session.pinned_folder = None
            self.update(pinned_name=None, pinned_kind="workspace")
        self.refresh(context)

    def _pin(self, folder: Optional[str], name: str, kind: str, context: Optional[Context]) -> None:
        with self.lock:
            self.session.pinned_folder = folder
            self.update(pinned_name=name, pinned_kind=kind, mode=ids.MODE_REPO, notice=None)
        self.refresh(context)

    def workspace_chosen(self, event: UIEvent, context: Context) -> None:
        row = next((r for r in self.state.overview or [] if r.workspace_id == event.item), None)
        if row is not None:
            self._pin(row.folder, row.name, "workspace", context)

    def worktree_event(self, event: UIEvent, context: Context) -> None:
        if event.event == "action" and event.action == ids.REVIEW and event.item:
            self.review_worktree(event.item)
        elif event.event == "select":
            self.show_worktree(event.item, context)

    def show_worktree(self, path: Optional[str], context: Optional[Context] = None) -> None:
        team = self.state.team
        chosen = next((w for w in (team.worktrees.worktrees if team else []) if w.path == path), None)
        if chosen is None or chosen.state != "ok":
            return  # a missing or bare worktree has no status to show; its row says why
        self._pin(chosen.path, chosen.name, "worktree", context)

    def collision_event(self, event: UIEvent, context: Context) -> None:
        if event.event == "action" and event.action == ids.REVEAL and event.item:
            self.reveal_file(event.item)

    def collision_chosen(self, event: UIEvent, context: Context) -> None:
        team = self.state.team
        first = next((w for w in (team.worktrees.worktrees if team else []) if event.item in w.collisions), None)
        if first is not None:
            self.show_worktree(first.path, context)

    def file_event(self, event: UIEvent, context: Context) -> None:
        """A row action on one of the four file lists (ids.FILES); the list says which group the file is in."""
        from . import handoff

        group, path, language = ids.GROUP_OF.get(event.element), event.item, self.plugin.language
        if event.event != "action" or not path or group is None:
            return
        runner = self.readers().runner
        if event.action == ids.REVIEW:
            self.hand_off(lambda s, where: handoff.review_file(s, where, runner, group, path, language))
        elif event.action == ids.RESOLVE:
            self.hand_off(lambda s, where: handoff.resolve_conflict(s, where, runner, path, language))
        elif event.action == ids.REVEAL:
            self.reveal_file(path)

    def commit_event(self, event: UIEvent, context: Context) -> None:
        from . import handoff

        sha, language = event.item, self.plugin.language
        if event.event == "action" and event.action == ids.SUMMARIZE and sha:
            runner = self.readers().runner
            self.hand_off(lambda s, where: handoff.summarize_commit(s, where, runner, sha, language))

    def reveal_file(self, path: str) -> None:
        location = self.shown_location()
        if location is None:
            return
        try:
            self.plugin.reveal_path(reveal_target(location.root, path))
        except AgenttyError as error:
            self.notice("reveal_failed", "error", path=path, error=str(error))

    # -- hand-offs -----------------------------------------------------------------------------------

    def commit_message_clicked(self, event: UIEvent, context: Context) -> None:
        self.hand_off(self._commit_message)

    def explain_branch_clicked(self, event: UIEvent, context: Context) -> None:
        self.hand_off(self._explain_branch)

    def _commit_message(self, snapshot: RepoSnapshot, where: RepoLocation) -> HandOff:
        from . import handoff

        return handoff.commit_message(snapshot, where, self.readers().runner, self.plugin.language)

    def _explain_branch(self, snapshot: RepoSnapshot, where: RepoLocation) -> HandOff:
        from . import handoff

        return handoff.explain_branch(snapshot, where, self.readers().runner, self.plugin.language)

    def hand_off(self, make: MakeHandOff) -> None:
        """Builds a prompt from the shown repository and gives it to an idle agent, or lets the user choose."""
        # A second hand-off waits its turn instead of being dropped: a click made while the first prompt is
        # still on its way (a slow host, a busy machine) is the user's next request, not a double click
        # (those are caught by the repeat guard in _dispatch). Handlers run on the runtime's worker pool.
        with self.handing_off:
            self._send_prompt(make)

    def _send_prompt(self, make: MakeHandOff) -> None:
        from .handoff import NothingToSend
        from .runner import GitError

        if self.shown_location() is None:
            self.refresh()
        snapshot = self.state.snapshot
        if snapshot is None or snapshot.location is None:
            return
        try:
            request = make(snapshot, snapshot.location)
        except NothingToSend as nothing:
            self.refresh()
            self.notice(nothing.key, **nothing.values)
            return
        except GitError as error:
            self.notice("handoff_failed", "error", error=str(error))
            return
        self._dispatch(request, snapshot.location.root, snapshot.status.branch.head or snapshot.location.name)

    def review_worktree(self, path: str) -> None:
        from .handoff import NothingToSend, review_worktree
        from .runner import GitError

        team = self.state.team
        chosen = next((w for w in (team.worktrees.worktrees if team else []) if w.path == path), None)
        if team is None or chosen is None:
            return
        self.handing_off.acquire()  # waits its turn, as hand_off does
        try:
            request = review_worktree(chosen, team.worktrees.base, self.readers().runner, self.plugin.language)
            self._dispatch(request, chosen.path, chosen.name)
        except NothingToSend as nothing:
            self.notice(nothing.key, **nothing.values)
        except GitError as error:
            self.notice("handoff_failed", "error", error=str(error))
        finally:
            self.handing_off.release()

    def _dispatch(self, request: HandOff, root: str, name: str) -> None:
        """Never types into a busy agent: an idle agent pane in the worktree at `root`, else a new tab opened there."""
        from .handoff import choose_target, deliver

        if self.session.is_repeat(request.title):
            return  # a double click: the same prompt was just sent
        try:
            workspaces = self.readers().sessions.list_workspaces()
        except AgenttyError:
            workspaces = []
        team = self.state.team
        worktrees = team.worktrees if team is not None and team.worktrees.worktree_for(root) is not None else None
        focused = self.plugin.context.pane if self.plugin.context else None
        target = choose_target(focused, workspaces, root, worktrees)
        try:
            key, values = deliver(self.plugin.inject_prompt, request, target, name)
        except AgenttyError as error:
            self.notice("handoff_failed", "error", error=str(error))
            return
        self.session.sent(request.title)
        self.notice(key, **values)

    # -- commands ------------------------------------------------------------------------------------

    def open_command(self, call: CommandCall) -> None:
        self.plugin.show_panel()

    def refresh_command(self, call: CommandCall) -> None:
        self.refresh(call.context)

    def overview_command(self, call: CommandCall) -> None:
        self.update(mode=ids.MODE_WORKSPACES)
        self.plugin.show_panel()
        self.load_overview()

    def commit_message_command(self, call: CommandCall) -> None:
        self.refresh(call.context)
        self.hand_off(self._commit_message)

    def explain_branch_command(self, call: CommandCall) -> None:
        self.refresh(call.context)
        self.hand_off(self._explain_branch)
