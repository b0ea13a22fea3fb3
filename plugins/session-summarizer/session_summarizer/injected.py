"""What an agent's harness writes into the user's turn, cut away so the user's own ask is left.

Claude Code reports a background task's end as a `<task-notification>` turn and pastes a skill's document
after "Base directory for this skill:"; Codex puts the project's AGENTS.md inside `<INSTRUCTIONS>` under an
"AGENTS.md instructions for <folder>" heading, and a plugin mention as a `[@name](plugin://…)` link; a compacted
session's summary can land after the user's own words in the same turn. None of these is something the user
asked; each is recognised by its markup or the harness's fixed notice, never by the user's wording.
"""

import re

_BLOCKS = re.compile(r"<(task-notification|INSTRUCTIONS)>[\s\S]*?(?:</\1>|\Z)", re.I)
_AGENTS_HEADING = re.compile(r"(?im)^#*\s*AGENTS\.md instructions for [^\n]*$")
# A skill's document runs from its base-directory line to the end of the turn.
_SKILL_DOCUMENT = re.compile(r"(?m)^Base directory for this skill:[\s\S]*\Z")
_PLUGIN_MENTION = re.compile(r"\[@[\w.-]+\]\(plugin://[^)\s]*\)")
# Claude Code's notice that opens a compacted session's summary; after the user's words it is not their ask.
_COMPACTED_AFTER = re.compile(r"\n\s*This session is being continued from a previous conversation[\s\S]*\Z")


def without_injected(text: str) -> str:
    """`text` without the harness's notices, instructions, skill documents and plugin mentions."""
    if "<" in text and ("task-notification" in text or "INSTRUCTIONS" in text):
        text = _BLOCKS.sub("", text)
    if "AGENTS.md" in text:
        text = _AGENTS_HEADING.sub("", text)
    if "Base directory for this skill:" in text:
        text = _SKILL_DOCUMENT.sub("", text)
    if "plugin://" in text:
        text = _PLUGIN_MENTION.sub("", text)
    if "continued from a previous conversation" in text:
        cut = _COMPACTED_AFTER.sub("", text)
        text = cut if cut.strip() else text  # a turn that is only the summary: its primary request is the ask
    return text
