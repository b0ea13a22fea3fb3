"""The agent-shell splitter: `## User (time)` blocks are the person's asks; the agent's thoughts, replies and
`### Tool Call` blocks make one agent turn; a `## ` heading without a time (text the agent wrote) opens nothing."""

import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "bench" / "session_corpus"
if str(CORPUS) not in sys.path:
    sys.path.insert(0, str(CORPUS))

from session_formats import split_turns  # noqa: E402

TRANSCRIPT = """# Agent Shell Transcript

**Agent:** Claude Code

---

## User (2026-05-04 12:21:32)

Can Logic Pro be introspected?

## Agent's Thoughts (2026-05-04 12:21:34)

Let me check the memory file.

### Tool Call [failed]: Read /tmp/MEMORY.md

File does not exist.

## Agent (2026-05-04 12:22:00)

Use the Accessibility API.

## Key findings

- written into MEMORY.md, not a turn

## User (2026-05-04 12:23:00)

Thanks
"""


def test_agent_shell_turns():
    turns = split_turns(TRANSCRIPT, "agent-shell")
    assert [t["role"] for t in turns] == ["user", "assistant", "user"]
    assert turns[0]["text"] == "Can Logic Pro be introspected?"
    assert "### Tool Call [failed]: Read /tmp/MEMORY.md" in turns[1]["text"]
    assert "## Key findings" in turns[1]["text"]
    assert turns[2]["text"] == "Thanks"


def test_codex_screen_copied_from_inside_the_first_ask_keeps_that_ask():
    screen = " goal is in skill.md\n  keep the VM state\n\n• I will read skill.md first.\n\n› next ask\n\n• done\n"
    turns = split_turns(screen, "codex-tui-cut")
    assert [t["role"] for t in turns] == ["user", "assistant", "user", "assistant"]
    assert turns[0]["text"].startswith("goal is in skill.md")
