"""A commit a reply reports by its hash under a commit label ("**Commit**: `5a01806` - "Enforce uv run"",
"Commit hash: `fe6d2cc`", "Коммит: 63ca3b1 — feat: …", "コミット: a1b2c3d", "提交：9f8e7d6", "커밋: 0a1b2c3"):
the hash exists only once the commit was made, so it is a result even when the tool call is not shown."""

import re
from typing import List, Tuple

# The label starts the line (after list marks and bold); the hash follows it, alone or in backticks.
_LABELLED = re.compile(
    r"(?im)^[ \t]*(?:[-*•][ \t]+)?\**(?:commit(?:ted)?(?: (?:hash|id|sha|as))?|коммит|コミット(?:ハッシュ|ID)?"
    r"|提交(?:哈希|ID)?|커밋(?: 해시| ID)?)\**[ \t]*[:：]?[ \t]*\**[ \t]*`?([0-9a-f]{7,40})\b`?(.*)$")
_HINTS = ("ommit", "оммит", "コミット", "提交", "커밋")
# What follows the hash: a dash or a colon, then the subject, maybe quoted.
_SUBJECT = re.compile(r"^[ \t]*(?:[-—–:：(][ \t]*)?[\"'`«“]?([^\"'`»”\n]{4,100})")


def reported_commits(prose: str) -> List[Tuple[str, str]]:
    """(hash, subject or "") of each commit the reply reports under a commit label."""
    if not any(hint in prose for hint in _HINTS):  # substring checks first: most replies name no commit
        return []
    found = []
    for match in _LABELLED.finditer(prose):
        commit = match.group(1)
        if not any(char.isalpha() for char in commit) or not any(char.isdigit() for char in commit):
            continue  # "deadbeef"-like words and plain numbers are not a hash git printed
        subject = _SUBJECT.match(match.group(2))
        found.append((commit[:7], subject.group(1).strip(" .*`\"')）") if subject else ""))
    return found
