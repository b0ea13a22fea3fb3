"""Element, row-action, command and link ids as constants: the view, main.py's wiring and the tests name them here."""

# The search row: the query field and Refresh (index added, changed and deleted notes now).
QUERY = "search.query"
REFRESH = "toolbar.refresh"
REBUILD = "toolbar.rebuild"  # in the settings section: throw the index away and index again

# The results list; its rows' buttons arrive as `event.action` on RESULTS (the row's item is the note's path).
RESULTS = "search.results"
ACTION_INSERT = "insert"
ACTION_CONTINUE = "continue"
ACTION_PREVIEW = "preview"
ACTION_REVEAL = "reveal"

# The preview of one note: Back to the results, and the row's actions as buttons.
PREVIEW_BACK = "preview.back"
PREVIEW_INSERT = "preview.insert"
PREVIEW_CONTINUE = "preview.continue"
PREVIEW_REVEAL = "preview.reveal"

# Settings: the notes folders (a list whose rows have Remove), the folder field and Add, the engine choice.
FOLDERS = "folders.list"
ACTION_REMOVE = "remove"
FOLDER_PATH = "folders.path"
FOLDER_ADD = "folders.add"
ENGINE = "settings.engine"  # its options are settings.ENGINE_CHOICES

# Commands, declared in agentty-plugin.json (<plugin-id>.<verb>).
CMD_OPEN = "notes-search.open"
CMD_REINDEX = "notes-search.reindex"
CMD_REBUILD = "notes-search.rebuild"

# agentty://plugin/notes-search/<route>?path=… or ?q=…
LINK_OPEN = "open"
LINK_CONTINUE = "continue"
