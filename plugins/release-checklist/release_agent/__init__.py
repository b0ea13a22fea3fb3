"""The release checklist as an Agent Client Protocol agent for Devin Desktop and Zed (`python -m release_agent`).

It speaks ACP v1 over stdio (official `agent-client-protocol` library, Python 3.10+) and reuses the
release_checklist engine: the repository's RELEASE_CHECKLIST.md (or the default derived from the
project), step states saved per repository and version, each check in its own process tree.

Read first: agent.py (the ACP methods), turn.py (one prompt turn: plan, tool calls, permission,
cancel), requests.py (what "check" / "release 1.4.0" / "残りは？" mean), engine.py (the only module
that calls the engine).
"""

__version__ = "0.1.0"
