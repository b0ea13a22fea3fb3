"""Splits a real agent transcript into the user/assistant turns Agentty's `session/get` answers with.

The host hands the summarizer `[{role, text}]`; each agent (or exporter) writes a session differently,
so each format here only decides where a turn starts and whose it is. The text of a turn is kept as
the tool printed it (tool calls, outputs, diffs, banners and all): reading it is the summarizer's job.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Tuple

Turns = List[Dict[str, str]]


def _push(turns: Turns, role: str, lines: List[str]) -> None:
    """Append a turn; a turn of the same role as the last one is merged into it (one reply, many blocks)."""
    text = "\n".join(lines).strip()
    if not text:
        return
    if turns and turns[-1]["role"] == role:
        turns[-1]["text"] += "\n\n" + text
    else:
        turns.append({"role": role, "text": text})


def _marked(text: str, marks: Dict[str, re.Pattern[str]], drop: re.Pattern[str] | None = None,
            inside: Tuple[str, str] | None = None) -> Turns:
    """Turns of a transcript where a line matching marks[role] opens a turn of that role.

    `inside` names the lines that open and close an exporter's tool block: a mark inside one is text
    a tool printed (`cat` of a SpecStory file), not a new turn.
    """
    turns: Turns = []
    role, lines = "", []  # text before the first mark is a banner or a header: dropped
    depth = 0
    for line in text.split("\n"):
        opened = "" if depth else next((name for name, pattern in marks.items() if pattern.match(line)), "")
        if inside is not None:
            depth = max(0, depth + line.startswith(inside[0]) - (inside[1] in line))
        if opened:
            if role:
                _push(turns, role, lines)
            role, lines = opened, []
        elif role and not (drop is not None and drop.match(line)):
            lines.append(line)
    if role:
        _push(turns, role, lines)
    return turns


def aider_turns(text: str) -> Turns:
    """aider's .aider.chat.history.md: `#### ` lines are the user's; the rest is the reply and tool output."""
    turns: Turns = []
    role, lines = "", []
    for line in text.split("\n"):
        if line.startswith("# aider chat started at"):
            continue
        is_user = line.startswith("####")
        if is_user != (role == "user"):
            if role:
                _push(turns, role, lines)
            role, lines = ("user" if is_user else "assistant"), []
        lines.append(line[5:] if is_user else line)
    if role:
        _push(turns, role, lines)
    while turns and turns[0]["role"] != "user":  # aider's start-up lines
        turns.pop(0)
    return turns


# SpecStory (Cursor, Copilot, and its CLI for Claude Code, Codex and Gemini): `_**User**_`,
# `_**User (2026-01-16 16:48:38Z)**_`, `_**Assistant**_`, `_**Agent (claude-opus-4-5 2026-…)**_`.
_SPECSTORY = {
    "user": re.compile(r"^_\*\*User(?: \([^)]*\))?\*\*_\s*$"),
    "assistant": re.compile(r"^_\*\*(?:Assistant|Agent)(?: \([^)]*\))?\*\*_\s*$"),
}
_RULE = re.compile(r"^\s*---\s*$")


def specstory_turns(text: str) -> Turns:
    # SpecStory 2.x puts each tool call and its output in a <tool-use …> … </tool-use> block.
    return _marked(text, _SPECSTORY, drop=_RULE, inside=("<tool-use", "</tool-use>"))


# claude-code-production-patterns' exporter: `## 👤 User` / `## 🤖 Claude` headings, `---` between blocks.
_CLAUDE_MD = {"user": re.compile(r"^## 👤 User\s*$"), "assistant": re.compile(r"^## 🤖 Claude\s*$")}


def claude_md_turns(text: str) -> Turns:
    return _marked(text, _CLAUDE_MD, drop=_RULE)


def chat_export_turns(text: str) -> Turns:
    """claude-chat-manager's export: `👤 **USER:**`, then the ask as `> ` lines, then the reply's prose."""
    turns: Turns = []
    role, lines = "", []
    for line in text.split("\n"):
        if line.strip() == "👤 **USER:**":
            if role:
                _push(turns, role, lines)
            role, lines = "user", []
        elif role == "user" and (line.startswith(">") or (not line.strip() and not lines)):
            lines.append(line[1:].lstrip() if line.startswith(">") else line)
        elif role:
            if role == "user":
                _push(turns, role, lines)
                role, lines = "assistant", []
            if not _RULE.match(line):
                lines.append(line)
    if role:
        _push(turns, role, lines)
    return turns


def prompt_turns(text: str, prompt: str, first: str = "") -> Turns:
    """Terminal transcripts: a line starting with the prompt mark (Claude Code and Gemini CLI `> `,
    Codex `› `) is the user's; indented or blank lines right after it continue the same ask (the
    terminal wraps a long ask with an indent; a reply starts at the left edge with its own mark).

    `first` names the role of text before the first mark ("" drops it: a start-up banner).
    """
    turns: Turns = []
    role, lines = first, []
    for line in text.split("\n"):
        if line.startswith(prompt):
            if role != "user":
                if role:
                    _push(turns, role, lines)
                role, lines = "user", []
            lines.append(line[len(prompt):])
        elif role == "user" and (line.startswith(" ") or not line.strip()):
            lines.append(line.strip())
        else:
            if role != "assistant":
                if role:
                    _push(turns, role, lines)
                role, lines = "assistant", []
            lines.append(line)
    if role:
        _push(turns, role, lines)
    return turns


def copilot_copy_turns(text: str, user: str, assistant: str = "") -> Turns:
    """VS Code Copilot chat copied as text: `<login>: ask` and `GitHub Copilot: reply` paragraphs.

    `assistant` names another reply mark (a Markdown copy writes `# <login>: ask` and `**GitHub Copilot:**`,
    the reply starting on the same line or the next)."""
    # A student's notes put "CHAT: " before the first ask.
    marks = {"user": re.compile(r"^(?:CHAT: )?" + re.escape(user) + r": "),
             "assistant": re.compile(r"^" + re.escape(assistant) + r"(?: |$)" if assistant else r"^GitHub Copilot: ")}
    turns: Turns = []
    role, lines = "", []
    for line in text.split("\n"):
        opened = next((name for name, pattern in marks.items() if pattern.match(line)), "")
        if opened:
            if role:
                _push(turns, role, lines)
            role, lines = opened, [marks[opened].sub("", line, count=1)]
        elif role:
            lines.append(line)
    if role:
        _push(turns, role, lines)
    return turns


def labelled_turns(text: str, user: str, assistant: str) -> Turns:
    """A log that labels each side with a line of its own (e.g. `**사용자 질문:**` / `**AI 답변:**`)."""
    marks = {"user": re.compile(r"^\s*" + re.escape(user) + r"\s*$"),
             "assistant": re.compile(r"^\s*" + re.escape(assistant) + r"\s*$")}
    return _marked(text, marks, drop=_RULE)


# OpenCode's `/export` Markdown: `## User` and `## Assistant (Build · model · 3.3s)` headings, each after a
# `---` rule. A heading that does not follow a rule is text a tool printed (a Markdown file it read).
_OPENCODE = {"user": re.compile(r"^## User\s*$"), "assistant": re.compile(r"^## Assistant(?: \(.*\))?\s*$")}


def opencode_turns(text: str) -> Turns:
    turns: Turns = []
    role, lines = "", []  # the title and session header before the first heading are dropped
    previous = ""
    for line in text.split("\n"):
        opened = next((name for name, pattern in _OPENCODE.items() if pattern.match(line)), "")
        if opened and _RULE.match(previous):
            if role:
                _push(turns, role, lines)
            role, lines = opened, []
        elif role and not _RULE.match(line):
            lines.append(line)
        if line.strip():
            previous = line
    if role:
        _push(turns, role, lines)
    return turns


# Cline / Roo Code "Export task" Markdown: `**User:**` and `**Assistant:**` blocks between `---` rules. Cline
# sends tool results back as `**User:**` blocks; only the text inside <task>, <feedback>, <answer> or
# <user_message> is what the person typed. The rest of such a block is tool output the panel shows in the
# agent's reply, and <environment_details> is context Cline adds to every request (never shown).
_CLINE_MARK = re.compile(r"^\*\*(User|Assistant):\*\*\s*$")
_CLINE_ASK = re.compile(r"<(task|feedback|answer|user_message)>\n?(.*?)\n?</\1>", re.S)
_CLINE_CONTEXT = re.compile(r"<environment_details>.*?(?:</environment_details>|\Z)", re.S)


def cline_turns(text: str) -> Turns:
    turns: Turns = []
    blocks: List[Tuple[str, List[str]]] = []
    previous = "---"  # the export opens on `**User:**` with no rule before it
    for line in text.split("\n"):
        mark = _CLINE_MARK.match(line)
        if mark and _RULE.match(previous):
            blocks.append((mark.group(1), []))
        elif blocks:
            blocks[-1][1].append(line)
        if line.strip():
            previous = line
    for who, lines in blocks:
        while lines and (_RULE.match(lines[-1]) or not lines[-1].strip()):
            lines.pop()
        body = "\n".join(lines)
        if who == "Assistant":
            _push(turns, "assistant", [body])
            continue
        body = _CLINE_CONTEXT.sub("", body)
        asks = [match.group(2) for match in _CLINE_ASK.finditer(body)]
        _push(turns, "assistant", [_CLINE_ASK.sub("", body)])  # tool results belong to the reply
        _push(turns, "user", ["\n\n".join(asks)])
    return turns


# cctrace's Claude Code export: `### 👤 User` or `### 🤖 Assistant (model)` headings, tool calls and results
# in ``` fences.
_CCTRACE = {"user": re.compile(r"^### 👤 User\s*$"), "assistant": re.compile(r"^### 🤖 Assistant(?: \([^)]*\))?\s*$")}
_CCTRACE_STAMP = re.compile(r"^\*\*\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\]\*\*\s*$")


def cctrace_turns(text: str) -> Turns:
    """cctrace's export files a tool's result under User, as the API sends it; Agentty shows it in the
    agent's turn. A heading inside a tool result's fence is an export the tool printed (`cat` of an
    earlier export). Fences are counted in tool results only: an ask may paste a stray ``` of its own."""
    blocks: List[Tuple[str, List[str]]] = []
    role, lines, result, fenced = "", [], False, False
    for line in text.split("\n"):
        opened = "" if fenced else next((name for name, pattern in _CCTRACE.items() if pattern.match(line)), "")
        if opened:
            if role:
                blocks.append((role, lines))
            role, lines, result, fenced = opened, [], False, False
            continue
        result = result or line.startswith("📊 **Tool Result")
        fenced ^= result and line.startswith("```")
        if role and not (_RULE.match(line) or _CCTRACE_STAMP.match(line)):
            lines.append(line)
    if role:
        blocks.append((role, lines))
    turns: Turns = []
    for role, lines in blocks:
        tool_result = role == "user" and "\n".join(lines).strip().startswith("📊 **Tool Result")
        _push(turns, "assistant" if tool_result else role, lines)
    return turns


# Antigravity's (and Windsurf's) chat export: `### User Input` and `### Planner Response` headings. The agent's
# own steps (`*Viewed [x]*`, `*Edited relevant file*`, `*User accepted the command `…``*) follow the ask with no
# heading of their own: the first of them ends the ask and starts the reply.
_ANTIGRAVITY = {"user": re.compile(r"^### User Input\s*$"), "assistant": re.compile(r"^### Planner Response\s*$")}
_ANTIGRAVITY_STEP = re.compile(r"^\*(?:Viewed|Edited|User accepted|User rejected|Grep searched|Listed directory|"
                               r"Analyzed|Checked command status|Searched|Read|Ran|Running|Opened|Created|Deleted|"
                               r"Generated)\b")


def antigravity_turns(text: str) -> Turns:
    turns: Turns = []
    role, lines = "", []  # the export's title and note come before the first heading
    for line in text.split("\n"):
        opened = next((name for name, pattern in _ANTIGRAVITY.items() if pattern.match(line)), "")
        if opened or (role == "user" and _ANTIGRAVITY_STEP.match(line)):
            if role:
                _push(turns, role, lines)
            role, lines = (opened or "assistant"), ([] if opened else [line])
        elif role:
            lines.append(line)
    if role:
        _push(turns, role, lines)
    return turns



# A Markdown transcript rendered from Codex's session JSONL: `### User (time)`, `### Assistant [commentary]
# (time)`, `### Tool Call: exec_command (time)`, `### Tool Output: call_… (time)`.
_CODEX_JSONL_MD = {
    "user": re.compile(r"^### User \(\d{4}-\d\d-\d\dT[^)]*\)\s*$"),
    "assistant": re.compile(r"^### (?:Assistant \[\w+\]|Tool Call: \S+|Tool Output: \S+)"
                            r" \(\d{4}-\d\d-\d\dT[^)]*\)\s*$"),
}


def codex_jsonl_md_turns(text: str) -> Turns:
    """Calls and outputs are the agent's; consecutive blocks of one side make one turn."""
    return _marked(text, _CODEX_JSONL_MD)


def codex_app_turns(text: str) -> Turns:
    """The Codex app's Markdown copy of a task: each ask is a `> ` quote at the top level; the agent's progress
    notes are folded in `<details>` blocks (quoted inside), then its answer follows as plain text."""
    turns: Turns = []
    role, lines, depth = "", [], 0  # the task's `# title` comes before the first ask
    for line in text.split("\n"):
        asked = depth == 0 and line.startswith(">")
        if asked and role != "user":
            if role:
                _push(turns, role, lines)
            role, lines = "user", []
        elif not asked and line.strip() and role == "user":
            _push(turns, role, lines)
            role, lines = "assistant", []
        if asked:
            lines.append(line[2:] if line.startswith("> ") else line[1:])
        elif role:
            lines.append(line)
        depth = max(0, depth + line.startswith("<details") - line.startswith("</details>"))
    if role:
        _push(turns, role, lines)
    return turns


# A Claude Code log kept by hand in Markdown: each ask pasted as a `##### ❯ …` heading (or as the screen's own
# `❯ …` line inside a fence), the replies as the `⏺` screen text in ``` or ~~~ fences.
_LOGGED_ASK = re.compile(r"^(?:#{1,6}\s*)?❯\s?")


def claude_log_md_turns(text: str) -> Turns:
    """Like prompt_turns, with the ask mark optionally behind a heading; the log's title comes before the
    first ask and is dropped."""
    turns: Turns = []
    role, lines = "", []
    for line in text.split("\n"):
        mark = _LOGGED_ASK.match(line)
        if mark:
            if role != "user":
                if role:
                    _push(turns, role, lines)
                role, lines = "user", []
            lines.append(line[mark.end():])
        elif role == "user" and (line.startswith(" ") or not line.strip()):
            lines.append(line.strip())
        elif role:
            if role != "assistant":
                _push(turns, role, lines)
                role, lines = "assistant", []
            lines.append(line)
    if role:
        _push(turns, role, lines)
    return turns


# A transcript Codex wrote of its own session when asked to: `## Conversation Transcript`, then numbered
# items `3. **User**: "ask"` / `4. **Assistant**:` with the reply in a fence below. The system and developer
# messages it copied above that heading are the harness's, not the session's.
_NUMBERED = re.compile(r"^\d+\.\s+\*\*(User|Assistant)\*\*:\s?")


def numbered_turns(text: str) -> Turns:
    """Turns open at a numbered `**User**:` / `**Assistant**:` item; the rest of its line starts the turn."""
    turns: Turns = []
    role, lines = "", []  # the title, system and developer messages come before the first item
    for line in text.split("\n"):
        mark = _NUMBERED.match(line)
        if mark:
            if role:
                _push(turns, role, lines)
            role, lines = mark.group(1).lower(), [line[mark.end():]]
        elif role:
            lines.append(line)
    if role:
        _push(turns, role, lines)
    return turns


# Gemini CLI's `/chat share` Markdown: `## USER 🧑‍💻` and `## MODEL ✨` headings, each after a `---` rule. The CLI
# sends tool results back as USER blocks made of `**Tool Response**:` items; the person sees them in the model's
# reply. The first USER block is the setup context the CLI writes itself (date, folder tree), never typed.
_GEMINI_SHARE = re.compile(r"^## (USER|MODEL)\b")
_GEMINI_SETUP = re.compile(r"^(?:<session_context>\s*)?This is the Gemini CLI\. We are setting up the context")


def gemini_share_turns(text: str) -> Turns:
    turns: Turns = []
    blocks: List[Tuple[str, List[str]]] = []
    previous = "---"  # the share opens on its first heading with no rule before it
    for line in text.split("\n"):
        mark = _GEMINI_SHARE.match(line)
        if mark and _RULE.match(previous):
            blocks.append((mark.group(1), []))
        elif blocks:
            blocks[-1][1].append(line)
        if line.strip():
            previous = line
    for who, lines in blocks:
        while lines and (_RULE.match(lines[-1]) or not lines[-1].strip()):
            lines.pop()
        body = "\n".join(lines).strip()
        if who == "MODEL" or body.startswith("**Tool Response**"):
            _push(turns, "assistant", [body])
        elif not (not turns and _GEMINI_SETUP.match(body)):
            _push(turns, "user", [body])
    return turns


# session-record-extractor's Markdown of a Codex or Claude Code session log, headings in Japanese:
# `## 利用者（time）` for the person, `## アシスタント（time）`, `## ツール（time）` and `## ツール結果（time）` for
# the agent's replies, calls and their output. Codex's first user block is the harness's AGENTS.md and
# environment context, never typed (it comes back in the middle of a session too).
_RECORD_JA = {
    "user": re.compile(r"^## 利用者（\d{4}-\d\d-\d\dT[^）]*）\s*$"),
    "assistant": re.compile(r"^## (?:アシスタント|ツール|ツール結果)（\d{4}-\d\d-\d\dT[^）]*）\s*$"),
}
_RECORD_HARNESS = re.compile(r"^(?:# AGENTS\.md instructions for |<environment_context>)")


def record_ja_turns(text: str) -> Turns:
    """Calls and results are the agent's; a user block the harness wrote (AGENTS.md, environment) is dropped."""
    turns: Turns = []
    role, lines = "", []  # the extractor's front matter and session comments come before the first heading
    for line in [*text.split("\n"), "## 利用者（0000-00-00T）"]:  # a last heading flushes the last block
        opened = next((name for name, pattern in _RECORD_JA.items() if pattern.match(line)), "")
        if opened:
            body = "\n".join(lines).strip()
            if role and not (role == "user" and _RECORD_HARNESS.match(body)):
                _push(turns, role, [body])
            role, lines = opened, []
        elif role:
            lines.append(line)
    return turns


# agent-shell's (Emacs) Markdown transcript of a Claude Code session: `## User (date time)`, the agent's
# `## Agent's Thoughts (date time)` and `## Agent (date time)`, its tool calls as `### Tool Call [status]: …`
# blocks inside the agent's part. The `# Agent Shell Transcript` header comes before the first mark.
_AGENT_SHELL = {
    "user": re.compile(r"^## User \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\)\s*$"),
    "assistant": re.compile(r"^## Agent(?:'s Thoughts)? \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\)\s*$"),
}


def agent_shell_turns(text: str) -> Turns:
    """Thoughts, replies and tool calls are the agent's; consecutive blocks of one side make one turn."""
    return _marked(text, _AGENT_SHELL)


# A Gemini CLI screen copied with the terminal's left margin: the ask's `> ` and the reply's `✦` sit up to three
# spaces in. An indented line right after an ask continues it (the terminal wraps a long ask) unless it opens the
# reply: a `✦` line, a tool line (`✓`, `✗`, `-` for a rejected call) or a tool box.
_MARGIN_ASK = re.compile(r"^ {0,3}> ")
_MARGIN_REPLY = re.compile(r"^\s*(?:✦|[✓✗] |- |[╭│╰])")


def gemini_margin_turns(text: str) -> Turns:
    turns: Turns = []
    role, lines = "", []  # a start-up banner before the first ask is dropped
    for line in text.split("\n"):
        if _MARGIN_ASK.match(line):
            if role != "user":
                if role:
                    _push(turns, role, lines)
                role, lines = "user", []
            lines.append(line.lstrip()[2:])
        elif role == "user" and (not line.strip() or (line.startswith(" ") and not _MARGIN_REPLY.match(line))):
            lines.append(line.strip())
        elif role:
            if role != "assistant":
                if role:
                    _push(turns, role, lines)
                role, lines = "assistant", []
            lines.append(line)
    if role:
        _push(turns, role, lines)
    return turns


# parse_copilot_chats.py's "Copilot Chat History" Markdown: a table of contents, then per ask a `## <a id="prompt-…">`
# heading and a `**User Prompt** *[time]*` line, each reply under `### Assistant Response [time]`.
_COPILOT_HISTORY = {"user": re.compile(r"^\*\*User Prompt\*\*(?: \*\[[^\]]*\]\*)?\s*$"),
                    "assistant": re.compile(r"^### Assistant Response(?: \[[^\]]*\])?\s*$")}
# The anchor heading repeats the ask's first line and the back-link is navigation: neither is said by anyone.
_COPILOT_HISTORY_NAV = re.compile(r'^(?:## <a id="prompt-|\[↑ Back to Table of Contents\])')


def copilot_history_turns(text: str) -> Turns:
    return _marked(text, _COPILOT_HISTORY, drop=_COPILOT_HISTORY_NAV)


PARSERS: Dict[str, Callable[..., Turns]] = {
    "aider": aider_turns,
    "specstory": specstory_turns,
    "claude-md": claude_md_turns,
    "chat-export": chat_export_turns,
    "claude-tui": lambda text: prompt_turns(text, "> "),
    # Claude Code 2.x marks the ask with `❯ ` (and still wraps a long ask with an indent).
    "claude-tui-chevron": lambda text: prompt_turns(text, "❯ "),
    # A saved Gemini CLI screen starts with the tail of whatever was on it: an ask, or the agent's work.
    "gemini-tui": lambda text, first="user": prompt_turns(text, "> ", first=first),
    "gemini-tui-margin": gemini_margin_turns,
    "codex-tui": lambda text: prompt_turns(text, "› "),
    # A Codex screen copied from the middle of the first ask: the text before the first `› ` is that ask's tail.
    "codex-tui-cut": lambda text: prompt_turns(text, "› ", first="user"),
    "cctrace": cctrace_turns,
    "codex-jsonl-md": codex_jsonl_md_turns,
    "codex-app": codex_app_turns,
    "claude-log-md": claude_log_md_turns,
    "copilot-copy": copilot_copy_turns,
    "copilot-history-md": copilot_history_turns,
    "labelled": labelled_turns,
    "opencode": opencode_turns,
    "cline": cline_turns,
    "antigravity": antigravity_turns,
    "numbered": numbered_turns,
    "gemini-share": gemini_share_turns,
    "record-ja": record_ja_turns,
    "agent-shell": agent_shell_turns,
}


def split_turns(text: str, fmt: str, **options: str) -> Turns:
    """The turns of `text` written in format `fmt` (a key of PARSERS)."""
    return PARSERS[fmt](text.replace("\r\n", "\n"), **options)
