"""Text handed to another agent: a one-line lead-in in the session's language, then the summary."""

from .redaction import redact_text
from .summary_text import phrase

# prompt/inject moves texts over 60,000 bytes into a file; a summary should never get near that.
HANDOFF_CHAR_LIMIT = 20_000


def handoff_prompt(markdown: str, language: str, agent: str, cwd: str) -> str:
    body = markdown.strip()
    if len(body) > HANDOFF_CHAR_LIMIT:
        body = body[:HANDOFF_CHAR_LIMIT].rstrip() + "\n…"
    lead = phrase(language, "handoff", agent=agent or "agent", cwd=cwd or "?")
    return redact_text(lead + "\n\n" + body + "\n")
