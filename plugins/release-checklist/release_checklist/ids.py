"""Element, row-action and command ids as constants: the view, the wiring in main.py and the tests name them here."""

# The header and the release's controls.
REFRESH = "release.refresh"
VERSION = "release.version"  # the version input: typed text is kept, Enter uses it
VERSION_APPLY = "release.version-apply"
RUN_ALL = "release.run-all"
STOP = "release.stop"
RESET = "release.reset"  # asks first (RESET_YES / RESET_NO)
STEPS = "release.steps"  # the checklist: a row click shows its output, row buttons are the ACT_* actions
ENTER = "release.enter"  # toggle: press Enter after typing a terminal step
HISTORY = "release.history"  # earlier releases of this repository: a click opens that version

# The confirmation shown before an irreversible step, and before resetting the release.
CONFIRM_YES = "confirm.yes"
CONFIRM_NO = "confirm.no"
WAIT_CANCEL = "wait.cancel"  # stop waiting for the agents: the held step does not start
RESET_YES = "reset.yes"
RESET_NO = "reset.no"

# Skipping a step: a reason is required.
SKIP_REASON = "skip.reason"
SKIP_CONFIRM = "skip.confirm"
SKIP_CANCEL = "skip.cancel"

# The buttons under a failed check's output; they act on the step whose output is shown.
OUTPUT_RETRY = "output.retry"
OUTPUT_FIX = "output.fix"
OUTPUT_SKIP = "output.skip"

# The checklist file: problems found in it (a click shows the file), write the derived one, show it.
PROBLEMS = "checklist.problems"
WRITE = "checklist.write"
REVEAL = "checklist.reveal"

# Row actions (ui.action) of STEPS: they arrive as `event.action`.
ACT_RUN = "run"
ACT_RETRY = "retry"
ACT_FIX = "fix"
ACT_TYPE = "type"
ACT_HAND = "hand"
ACT_DONE = "done"
ACT_UNDO = "undo"
ACT_SKIP = "skip"
ACT_OUTPUT = "output"
STARTS_WORK = (ACT_RUN, ACT_RETRY, ACT_TYPE, ACT_HAND)  # an irreversible step asks before these

# Commands, declared in agentty-plugin.json.
CMD_OPEN = "release-checklist.open"
CMD_RUN_CHECKS = "release-checklist.run-checks"
CMD_STOP = "release-checklist.stop"
CMD_WRITE_DEFAULT = "release-checklist.write-default"
