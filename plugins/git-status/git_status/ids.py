"""Element, action and command ids as constants: the view, the wiring in main.py and the tests name them here."""

# The toolbar: which view (VIEW's options are the MODE_* values), Refresh, and "Follow focus" when pinned.
VIEW = "toolbar.view"
REFRESH = "toolbar.refresh"
FOLLOW = "toolbar.follow"
MODE_REPO = "repo"
MODE_WORKTREES = "worktrees"
MODE_WORKSPACES = "workspaces"
MODES = (MODE_REPO, MODE_WORKTREES, MODE_WORKSPACES)

# One list per group of changed files, in the order the panel shows them.
FILES_CONFLICTED = "files.conflicted"
FILES_STAGED = "files.staged"
FILES_CHANGED = "files.changed"
FILES_UNTRACKED = "files.untracked"
FILES = {"conflicted": FILES_CONFLICTED, "staged": FILES_STAGED, "changed": FILES_CHANGED,
         "untracked": FILES_UNTRACKED}  # group (a field of porcelain.StatusReport) -> its list
GROUP_OF = {element: group for group, element in FILES.items()}

COMMITS = "commits.recent"
COMMIT_MESSAGE = "handoff.commit-message"
EXPLAIN_BRANCH = "handoff.explain-branch"
COLLISIONS = "collisions.list"  # files the shown worktree shares with others
ALL_COLLISIONS = "collisions.all"  # the Worktrees view: every shared file
WORKTREES = "worktrees.list"
WORKSPACES = "workspaces.list"

# Row actions (ui.action): they arrive as `event.action` on their list's element.
REVIEW = "review"
RESOLVE = "resolve"
REVEAL = "reveal"
SUMMARIZE = "summarize"

# Commands, declared in agentty-plugin.json.
CMD_OPEN = "git-status.open"
CMD_REFRESH = "git-status.refresh"
CMD_OVERVIEW = "git-status.overview"
CMD_COMMIT_MESSAGE = "git-status.commit-message"
CMD_EXPLAIN_BRANCH = "git-status.explain-branch"
