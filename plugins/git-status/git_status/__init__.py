"""Reads a git repository's state safely (no JSON-RPC here): status, diffs, prompts and the overview."""
