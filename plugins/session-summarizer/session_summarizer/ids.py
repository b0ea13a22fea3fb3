"""Element, row-action and command ids as constants: the view, main.py's wiring and the tests name them from here."""

# Buttons (element ids are <area>.<name>)
SUMMARIZE = "session.summarize"
SUMMARIZE_LLM = "session.summarizeLlm"
STOP = "session.stop"
USE_LOCAL = "summary.useLocal"
SAVE = "summary.save"
HANDOFF = "summary.handoff"
REVEAL = "notes.reveal"

# Lists and the buttons on their rows (a row action arrives as `event.action` on the list's element)
INSERT_PANES = "insert.panes"
ACTION_INSERT = "insert"
HISTORY = "history.list"
ACTION_SHOW = "show"
ACTION_DELETE = "delete"

# Settings inputs: each reports its changes and Enter, and the value is stored
NOTES_FOLDER = "notes.folder"
LLM_PROVIDER = "llm.provider"
LLM_BASE_URL = "llm.baseUrl"
LLM_MODEL = "llm.model"
LLM_KEY_ENV = "llm.keyEnv"
LLM_CONTEXT_TOKENS = "llm.contextTokens"

# Commands, declared in agentty-plugin.json (<plugin-id>.<verb>)
CMD_SUMMARIZE = "session-summarizer.summarize"
CMD_SUMMARIZE_LLM = "session-summarizer.summarize-llm"
CMD_OPEN = "session-summarizer.open"
