"""Logic of the session-summarizer plugin: reading sessions, summarizing, redacting, saving (no JSON-RPC)."""
