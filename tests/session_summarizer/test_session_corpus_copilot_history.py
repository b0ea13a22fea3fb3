"""parse_copilot_chats.py's Copilot chat history: `**User Prompt** *[time]*` opens the person's turn, `### Assistant
Response [time]` the reply; the per-ask anchor heading and the back-to-contents link belong to nobody."""

import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "bench" / "session_corpus"
if str(CORPUS) not in sys.path:
    sys.path.insert(0, str(CORPUS))

from session_formats import split_turns  # noqa: E402

HISTORY = """# Copilot Chat History

## Table of Contents

1. **✨ Feature Request** [build an OS](#prompt-1-build-an-os) - *2025-09-03 02:14:18*

## <a id="prompt-1-build-an-os"></a>1. ✨ Feature Request: build an OS

[↑ Back to Table of Contents](#table-of-contents)

**User Prompt** *[2025-09-03 02:14:18]*

build an OS

## <a id="prompt-2-how-do-i-run-it"></a>2. ❓ Question: how do i run it

[↑ Back to Table of Contents](#table-of-contents)

**User Prompt** *[2025-09-03 02:25:05]*

how do i run it

### Assistant Response [2025-09-03 02:25:05]

## How to Run

Compile it first.

### Assistant Response [2025-09-03 02:26:00]

Then run it.
"""


def test_prompts_and_responses_split_without_navigation():
    turns = split_turns(HISTORY, "copilot-history-md")
    assert [t["role"] for t in turns] == ["user", "assistant"]
    assert turns[0]["text"] == "build an OS\n\nhow do i run it"
    assert "## How to Run" in turns[1]["text"]
    assert turns[1]["text"].endswith("Then run it.")
    assert "Back to Table of Contents" not in turns[0]["text"] + turns[1]["text"]
    assert "prompt-2" not in turns[0]["text"]
