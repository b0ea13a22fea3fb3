"""Reads one turn as the agent printed it: prose apart from tool calls, tool output, edit records and thinking.

Claude Code (`⏺ Bash(…)`, `⎿` output), Codex (`• Ran …`, `└` output, `• Edited …`), aider (`> ` tool
lines, `Applied edit to …`, `Commit <hash> <message>`) and SpecStory exports (`Read file: …`,
`<think>`, `<details>`) each mark these differently; everything unknown stays prose.
"""

import json
import re
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from . import chat_edits, codex_app, json_exports
from .extraction import is_command_line, split_code
from .formats import EDIT, EXTERNAL, FAILED, READ, RUN, SEARCH, Call, external_name, tagged_calls


@dataclass
class TurnParts:
    prose: str = ""  # the agent's or user's own words, wrapped lines joined
    blocks: List[Tuple[str, str]] = field(default_factory=list)  # fenced code: (language, code)
    ran_blocks: List[Tuple[str, str]] = field(default_factory=list)  # shell blocks that were run, not shown
    output: List[str] = field(default_factory=list)  # lines a tool printed
    commands: List[str] = field(default_factory=list)  # commands a tool call ran
    records: List[str] = field(default_factory=list)  # the tool's own edit records ("Updated x with …")
    edited: List[str] = field(default_factory=list)  # paths a tool edited
    read: List[str] = field(default_factory=list)  # paths a tool only read
    undone: List[str] = field(default_factory=list)  # commit hashes taken back (aider /undo)
    commit_of: List[Tuple[str, str]] = field(default_factory=list)  # (hash, record) pairs
    calls: List["Call"] = field(default_factory=list)  # every tool call in order, with what it printed
    external: List[str] = field(default_factory=list)  # acting calls of other tools (MCP push_files, …)
    searched: int = 0  # search calls (grep, codebase search): evidence, never items
    made_changes: int = 0  # edits reported without a file ("Made changes.")
    written: List[str] = field(default_factory=list)  # files a chat export's blocks or report show were written
    _open_call: bool = False

    def call(self, kind: str, text: str) -> "Call":
        """Start a tool call; the output lines that follow belong to it until prose comes."""
        started = Call(kind, text)
        self.calls.append(started)
        self._open_call = True
        if kind == RUN:
            self.commands.append(text)
        elif kind == EDIT:
            self.edited.append(text)
        elif kind == READ:
            self.read.append(text)
        elif kind == EXTERNAL:
            self.external.append(text)
        elif kind == SEARCH:
            self.searched += 1
        return started

    def drop_call(self, kind: str) -> None:
        """The last call of `kind` never happened (refused, interrupted)."""
        for index in range(len(self.calls) - 1, -1, -1):
            if self.calls[index].kind == kind:
                del self.calls[index]
                break
        bucket = {RUN: self.commands, EDIT: self.edited, READ: self.read}.get(kind)
        if bucket:
            bucket.pop()

    def out(self, line: str) -> None:
        self.output.append(line)
        if self._open_call and self.calls:
            self.calls[-1].output.append(line)

    def close_call(self) -> None:
        self._open_call = False


# Hidden reasoning and collapsed search results are not what the agent told the user.
_HIDDEN = re.compile(
    r"<think(?:ing)?(?:-content-[0-9a-f]+)?>[\s\S]*?</think(?:ing)?(?:-content-[0-9a-f]+)?>"
    r"|<details>[\s\S]*?</details>",
    re.I,
)
_THINK = re.compile(r"<think(?:ing)?(?:-content-[0-9a-f]+)?>[\s\S]*?</think(?:ing)?(?:-content-[0-9a-f]+)?>", re.I)
_CLAUDE_MCP = re.compile(r"^[⏺●]\s*([\w.-]+) - ([\w.-]+) \(MCP\)\s*(?:\(.*\))?\s*…?\s*$")
_CODEX_CALLED = re.compile(r"^[•◦]\s*(?:Called|Calling)\s+([\w.-]+)\.([\w.-]+)\s*\(")
_SEARCH_TOOLS = frozenset(("Search", "Grep", "Glob", "LS", "List", "WebSearch", "WebFetch", "Fetch", "Task",
                           "Web Search", "Web Fetch"))
# Claude Code 2.x folds reads and searches into one line ("⏺ Searched for 2 patterns, read 3 files (ctrl+o to
# expand)"), and prints lines about itself (memories, plan mode, background tasks, skills): none is prose.
_CLAUDE_FOLDED = re.compile(r"^[⏺●]\s*((?:Read|Searched for|Listed|Found)\b[^()]*?)\s*\(ctrl\+o to expand\)\s*$")
_CLAUDE_SELF = re.compile(r"^[⏺●]\s*(?:(?:Recalled|Wrote|Saved|Updated) \d+ memor|(?:Entered|Exited) plan mode"
                          r"|Task \"|Agent \"|Task Output\b|Skill\(|Background command\b)")
_EXPAND_HINT = re.compile(r"^\s*(?:… \+\d+ lines? )?\(ctrl\+[or] to expand\)\s*$")
# "✻ Churned for 1m 12s", "✶ Puzzling… (esc to interrupt · 12s)": the agent's status line, not its words.
_CLAUDE_STATUS = re.compile(r"^[✻✽✢✶✳∗·*]\s*\S+(?: for (?:\d+h )?(?:\d+m )?\d+s|…?.*\(esc to interrupt\b.*)\s*$")
_CLAUDE_TOOL = re.compile(r"^[⏺●]\s*([A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)?)\((.*)\)\s*…?\s*$")
_CLAUDE_TODO = re.compile(r"^[⏺●]\s*(?:Update Todos|Read Todos|TodoWrite)\b")
_CLAUDE_BULLET = re.compile(r"^[⏺●]\s+")
_EDIT_TOOLS = frozenset(("Update", "Write", "Edit", "MultiEdit", "NotebookEdit", "Create"))
_READ_TOOLS = frozenset(("Read", "View", "NotebookRead"))
_RUN_TOOLS = frozenset(("Bash", "Shell", "Run", "PowerShell"))
_CODEX_RAN = re.compile(r"^[•◦]\s*(?:Ran|Running)\b\s*(.*)$")
_CODEX_EDIT = re.compile(r"^[•◦]\s*(Edited|Added|Deleted|Created|Updated|Wrote)\s+(\S+)(.*)$")
_CODEX_EXPLORED = re.compile(r"^[•◦]\s*(?:Explored|Exploring|Read|Searched|Listed)\b\s*(.*)$")
_CODEX_PLAN = re.compile(r"^[•◦]\s*(?:Updated Plan|Update plan|Plan)\s*$")
_CODEX_BULLET = re.compile(r"^[•◦]\s+")
_OUTPUT_MARK = re.compile(r"^\s*[⎿└]\s?")
_AIDER_APPLIED = re.compile(r"^Applied edit to (\S+)")
_AIDER_COMMIT = re.compile(r"^Commit ([0-9a-f]{7,40}) (.+)$")
_AIDER_REMOVED = re.compile(r"^Removed: ([0-9a-f]{7,40}) ")
_AIDER_RUNNING = re.compile(r"^(?:## )?Running:? (.+)$")
_SPECSTORY_READ = re.compile(r"^Read file: (\S+)")
_THINKING = re.compile(r"^[✻✽✢∴*]\s*Thinking\b")
# Claude Code's first answer line when a call did not happen: a refusal, an interruption, a failed edit.
_REFUSED = re.compile(r"(?i)^(?:user rejected|interrupted|error|failed|string to replace not found|no changes)")
# Of those, what says a command never ran at all; "FAILED tests/…" or "Error: …" is what it printed.
_NOT_RUN = re.compile(r"(?i)^(?:user rejected|interrupted|the user doesn't want)")
# Todo lists: Claude Code's ☐/☒, Codex's plan □/✔ (under `• Updated Plan`), Markdown checkboxes.
_TODO_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?:[☐☒✔✓□■▢◻◼✗]|\[[ xX✓]\])\s")
# In prose a ✓/✔ line reports work done ("✓ Fixed the parser"); only boxes mark a todo list there.
_PROSE_TODO = re.compile(r"^\s*(?:[-*•]\s*)?(?:[☐☒□▢◻◼]|\[[ xX✓]\])\s")
# "355 + # Enforce…", "140 - get_logger()": a numbered diff line as Claude Code and Codex print them.
# (A bare "- item" is a Markdown list, so only numbered lines count.)
_DIFF_LINE = re.compile(r"^\s*\d{1,6}\s{1,3}[+-](?:\s|$)")
_SHELL_WRAPPER = re.compile(
    r"^(?:pwsh(?:\.exe)?|powershell(?:\.exe)?|cmd(?:\.exe)?|bash|zsh|sh)\s+(?:-\w+\s+)*?"
    r"(?:-c|-lc|-Command|/c)\s+([\"'])(.*)\1\s*$", re.I)
_SHELL_LANGS = frozenset(("bash", "sh", "shell", "console", "zsh", "terminal", "shell-session", "powershell",
                          "ps1", "pwsh", "cmd", "fish", "bat", "batch"))
# What comes right before a code block that is shown, not run: advice and examples.
_SHOWN_CUE = re.compile(
    r"(?i)\b(?:you can|you could|you may|you might|you'll|you will|you need|you'd|if you|for example|e\.g\.|example"
    r"|to show|such as|like this|here's how|here is how|try running|install (?:it|the)|would|the following"
    r"|please run|run this|to do this)\b|^\s*\d{1,2}[.)]\s"
    r"|例如|比如|可以运行|可以执行|手順|例えば|예를 들어"
)
# ">>>>>>> Stashed changes" after a Markdown formatter: "> > > > > > > Stashed changes".
_CONFLICT_MARKER = re.compile(r"^(?:>[ \t]?){4,}(?:[ \t]*(?:Stashed changes|Updated upstream)\b)?")
_ECHO = re.compile(r"^\s*(?:echo|printf|Write-Host|Write-Output)\b", re.I)


def unwrap_shell(command: str) -> str:
    """`pwsh.exe -NoProfile -Command "git log"` is `git log`: the wrapper says nothing about the work."""
    found = _SHELL_WRAPPER.match(command.strip())
    return found.group(2).strip() if found else command.strip()


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


_SENTENCE_ENDS = ".!?:;。！？：；)]」』"


def join_wrapped(text: str) -> str:
    """Joins lines that a terminal or the agent wrapped in the middle of a sentence.

    A line goes on the one before when that one does not end a sentence (or a heading) and this one
    goes on in lower case.
    """
    if "\n" not in text:
        return text
    lines = text.split("\n")
    joined = [lines[0]]
    for line in lines[1:]:
        stripped = line.lstrip(" \t")
        previous = joined[-1].rstrip()
        if (stripped and (stripped[0].islower() or stripped[0] in "(,;&") and previous
                and previous[-1] not in _SENTENCE_ENDS and not previous.lstrip().startswith("#")):
            joined[-1] = previous + " " + stripped
        else:
            joined.append(line)
    return "\n".join(joined)


# Any of these at a line start means the turn holds tool calls, tool output, todo lists or diff lines.
_MARKERS = re.compile(
    r"(?m)^[ \t]*(?:[⏺●•◦⎿└>✻∴]|Read file:|\d{1,6}[ \t]{1,3}[+-](?:\s|$)|(?:[-*•][ \t]*)?(?:[☐☒✔✓□■▢◻◼✗]|\[[ xX✓]\])\s)"
)


def _may_hold_markers(prose: str) -> bool:
    """What ASCII text needs for a _MARKERS line: ">", "[", "Read file:", or a blank before "+"/"-" (a
    numbered diff line); the line-start scan is the costly part of reading a plain reply."""
    return (not prose.isascii() or ">" in prose or "[" in prose  # one-character tests first: memchr, cheap
            or ("-" in prose and (" -" in prose or "\t-" in prose))
            or ("+" in prose and (" +" in prose or "\t+" in prose))
            or ("R" in prose and "Read file:" in prose))


def _record_path(text: str) -> Optional[str]:
    path = text.strip().strip("`'\"")
    return path or None


# Exporters that print a tool call as its name and its JSON input ("🔧 Using tool: Bash" / "Input: {…}",
# "Tool: readFile" / "Args: {…}").
_JSON_TOOL = re.compile(
    r"(?m)^[ \t]*(?:🔧[ \t]*)?(?:\*\*)?(?:Using tool|Tool call|Tool|Calling tool)[ \t]*:[ \t]*`?([\w.-]+)`?[^\n]*\n")
# Tool names compared without case, "_" or "-": edit_file, EditFile and editfile are one tool.
_JSON_EDIT = frozenset(("edit", "write", "multiedit", "notebookedit", "strreplaceeditor", "strreplacebasededittool",
                        "applypatch", "editfile", "writefile", "createfile", "replaceinfile"))
_JSON_READ = frozenset(("read", "readfile", "view", "notebookread", "viewfile"))
_JSON_RUN = frozenset(("bash", "shell", "runcommand", "execcommand", "terminal", "runterminalcmd", "powershell",
                       "localshell"))
# Tools that only look (or plan): not an acting call when their name is not known otherwise.
_JSON_QUIET = frozenset(("grep", "glob", "ls", "search", "websearch", "webfetch", "todowrite", "todoread", "task",
                         "listdir", "listfiles", "codebasesearch", "grepsearch", "filesearch", "think", "updateplan",
                         "exitplanmode"))
_MAX_TOOL_INPUT = 20_000


def _json_object(text: str, start: int) -> Tuple[int, int]:
    """(start, end) of the JSON object that opens at or after `start` (within a few lines), else (-1, -1)."""
    opening = text.find("{", start, start + 200)
    if opening < 0:
        return -1, -1
    depth, in_string, escaped = 0, False, False
    for index in range(opening, min(len(text), opening + _MAX_TOOL_INPUT)):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return opening, index + 1
    return -1, -1


def _json_tool_calls(text: str, parts: TurnParts) -> str:
    """Take tool calls printed as a name and JSON input out of `text`; what they did goes into `parts`."""
    pieces: List[str] = []
    position = 0
    for found in _JSON_TOOL.finditer(text):
        if found.start() < position:
            continue
        start, end = _json_object(text, found.end())
        if start < 0:
            continue
        try:
            data = json.loads(text[start:end])
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        pieces.append(text[position:found.start()])
        position = end
        name = found.group(1).lower().replace("_", "").replace("-", "").replace(".", "")
        path = next((data[key] for key in ("file_path", "filePath", "path", "notebook_path", "target_file")
                     if isinstance(data.get(key), str)), None)
        command = data.get("command", data.get("cmd"))
        if isinstance(command, list):  # ["bash", "-lc", "cargo test"]
            words = [str(word) for word in command]
            command = words[-1] if len(words) >= 3 and words[-2] in ("-lc", "-c", "-Command") else " ".join(words)
        if name in _JSON_RUN and isinstance(command, str) and command.strip():
            parts.call(RUN, unwrap_shell(command))
        elif name in _JSON_EDIT and path:
            parts.call(EDIT, path)
            parts.records.append("Edited " + path)
        elif name in _JSON_READ and path:
            parts.call(READ, path)
        elif name.startswith("mcp") or name not in _JSON_QUIET:
            parts.call(EXTERNAL, external_name(found.group(1)))
    if not pieces:
        return text
    pieces.append(text[position:])
    return "".join(pieces)


# A Claude Code call line the terminal wrapped: `⏺ Bash(docker exec app sh -c "wget … | head` and, indented on
# the next lines, the rest up to the closing `)`. Joined, it is one call again, and its `⎿` output is its own.
_CALL_OPENED = re.compile(r"^\s*[⏺●]\s*([A-Z][A-Za-z]*)\([^()]*$")
_WRAPPED_LINES = 4
# The terminal adds the call's time-out after the command where it fits ("… --timeout=10  timeout: 15s").
_SHOWN_TIMEOUT = re.compile(r"\s{2,}timeout: \d+[smh]$")


def _unwrapped_calls(lines: List[str]) -> List[str]:
    joined: List[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        opened = _CALL_OPENED.match(line) if line.lstrip()[:1] in ("⏺", "●") else None
        if opened:
            tail = lines[index + 1:index + 1 + _WRAPPED_LINES]
            end = next((at for at, more in enumerate(tail) if more.rstrip().endswith(")")), -1)
            if end >= 0 and all(more[:1] in (" ", "\t") and more.strip() and not _OUTPUT_MARK.match(more)
                                for more in tail[:end + 1]):
                whole = _SHOWN_TIMEOUT.sub("", line.rstrip())
                for more in tail[:end + 1]:
                    piece = more.strip()
                    # A path is cut anywhere (it holds no space); a command is wrapped at a space.
                    glue = " " if opened.group(1) in _RUN_TOOLS else ""
                    whole += glue + _SHOWN_TIMEOUT.sub("", piece)
                joined.append(whole)
                index += end + 2
                continue
        joined.append(line)
        index += 1
    return joined


def read_turn(text: str) -> TurnParts:
    """Split one turn into the agent's prose and what its tools did."""
    parts = _read(text)
    if parts.made_changes and not any(call.kind == EDIT for call in parts.calls):
        chat_edits.written_in_report(parts.prose, parts)  # "Made changes.": the report names the files
    return parts


# A terminal copy pasted whole into a Markdown log: the reply is one fence without a language whose lines carry
# the agent's own bullets (Claude Code's ⏺ or ●). It is the reply itself, not a block the reply wrote.
_FENCED_REPLY = re.compile(r"\A\s*```[ \t]*\n((?:(?!```)[\s\S])*?)\n[ \t]*```\s*\Z")
_AGENT_BULLET = re.compile(r"(?m)^[ \t]*[⏺●] \S")


def _unfenced(text: str) -> str:
    fenced = _FENCED_REPLY.match(text) if text.lstrip().startswith("```") else None
    return fenced.group(1) if fenced and _AGENT_BULLET.search(fenced.group(1)) else text


def _read(text: str) -> TurnParts:
    parts = TurnParts()
    text = _unfenced(text)
    # A marker is looked for only when one of its characters is in the turn (a memchr, see tagged_calls).
    if "<" in text and "<think" in text:
        text = _THINK.sub("\n", text)
    if "ool Call:" in text or "ool call:" in text:
        text = json_exports.codex_markdown_calls(text, parts)
    if "*" in text and ("**Tool Command**" in text or "**Tool Response**" in text):
        text = json_exports.gemini_share_calls(text, parts)
    if "<" in text and codex_app.holds_progress(text):
        text = codex_app.progress_calls(text, parts)
    text = tagged_calls(text, parts)
    if "<" in text and "<details" in text:
        text = _HIDDEN.sub("\n", text)
    if "ool" in text and _JSON_TOOL.search(text):
        text = _json_tool_calls(text, parts)
    prose_text, blocks = split_code(text)
    parts.blocks = blocks
    if blocks:
        parts.ran_blocks = _ran_blocks(text, blocks)
    if not (_may_hold_markers(prose_text) and _MARKERS.search(prose_text)):  # plain prose: most turns
        parts.prose = join_wrapped(prose_text)
        return parts
    prose: List[str] = []
    mode = ""  # "", "output", "todo", "thinking", "command"
    record_open = False  # the last edit record may go on on the next line
    first_output = False  # the next ⎿ line is the first answer to a Claude Code tool call
    tool = ""
    command_indent = 0
    pending_command: List[str] = []

    def finish_command() -> None:
        if pending_command:
            parts.call(RUN, unwrap_shell(" ".join(piece.strip() for piece in pending_command)))
            pending_command.clear()

    lines = prose_text.split("\n")
    if "⏺" in prose_text or "●" in prose_text:
        lines = _unwrapped_calls(lines)
    for line in lines:
        stripped = line.strip()
        if not stripped:
            if mode == "command":
                finish_command()
                mode = "output"
            prose.append("")
            continue
        indent = _indent(line)
        if mode == "command":
            if indent > command_indent and not _OUTPUT_MARK.match(line):
                pending_command.append(stripped)
                continue
            finish_command()
            mode = "output"
        if mode == "thinking" and indent >= 1:
            continue
        if mode in ("output", "todo") and indent >= 4 and not _OUTPUT_MARK.match(line):
            if mode == "output" and record_open and stripped[0].islower():
                parts.records[-1] += " " + stripped  # "Updated x with 176 additions and 3" / "removals"
                continue
            record_open = False
            if mode == "output" and not _DIFF_LINE.match(line):
                parts.out(stripped)
            continue
        record_open = False
        output_mark = _OUTPUT_MARK.match(line)
        if output_mark:
            body = line[output_mark.end():].strip()
            if mode == "todo" or (tool not in _RUN_TOOLS and _TODO_LINE.match(body + " ")):
                mode = "todo"
                continue
            if tool == "ran-empty":
                pending_command.append(body)
                command_indent = indent + 1
                tool, mode = "ran", "command"
                continue
            if tool == "explored":
                _explored(body, parts)
                mode = "output"
                continue
            if first_output and _REFUSED.match(body):
                # The user said no, or the tool failed: the edit never happened, the command never ran.
                # The call stays as a failed one, so its error line is kept with what it tried.
                dropped = ""
                if tool in _EDIT_TOOLS and parts.edited:
                    dropped = parts.edited[-1]
                    parts.drop_call(EDIT)
                elif tool in _RUN_TOOLS and parts.commands and _NOT_RUN.match(body):
                    dropped = parts.commands[-1]
                    parts.drop_call(RUN)
                if dropped:
                    parts.call(FAILED, dropped)
                first_output = False
                parts.out(body)
                mode = "output"
                continue
            first_output = False
            if tool in _EDIT_TOOLS and re.match(r"(?:Updated|Wrote|Created|Added|Applied)\b", body):
                parts.records.append(body)
                record_open = True
            elif not _DIFF_LINE.match(body):
                parts.out(body)
            mode = "output"
            continue
        mode, tool = "", ""
        if stripped.startswith(">") and not stripped.startswith(">>>"):
            marker = _CONFLICT_MARKER.match(stripped)
            if marker:  # a merge's conflict marker that a Markdown formatter spread out: not tool output
                if stripped[marker.end():].strip():
                    prose.append(stripped[marker.end():].strip())
                continue
            _aider_line(stripped[1:].strip(), parts)  # aider's tool lines: output goes on to its run
            continue
        parts.close_call()
        if _PROSE_TODO.match(line) or _DIFF_LINE.match(line) or _EXPAND_HINT.match(line):
            continue
        if stripped[0] in "✻✽✢✶✳∗·*" and _CLAUDE_STATUS.match(stripped):
            continue
        if _THINKING.match(stripped):  # Claude Code's "✻ Thinking…": what follows, indented, is reasoning
            mode = "thinking"
            continue
        if stripped[0] in "⏺●":
            if _CLAUDE_TODO.match(stripped):
                mode = "todo"
                continue
            folded = _CLAUDE_FOLDED.match(stripped)
            if folded:
                parts.call(SEARCH, folded.group(1))
                continue
            if _CLAUDE_SELF.match(stripped):
                mode = "thinking"  # and its indented lines
                continue
            mcp = _CLAUDE_MCP.match(stripped)
            if mcp:
                parts.call(EXTERNAL, mcp.group(2) + " (" + mcp.group(1) + ")")
                tool, first_output, mode = "mcp", True, "output"
                continue
            call = _CLAUDE_TOOL.match(stripped)
            if call:
                tool, argument = call.group(1), call.group(2).strip()
                first_output = True
                if tool in _RUN_TOOLS:
                    parts.call(RUN, unwrap_shell(argument))
                elif tool in _EDIT_TOOLS:
                    path = _record_path(argument)
                    if path:
                        parts.call(EDIT, path)
                elif tool in _READ_TOOLS:
                    path = _record_path(argument.split(",", 1)[0])
                    if path:
                        parts.call(READ, path)
                elif tool in _SEARCH_TOOLS:
                    parts.call(SEARCH, argument)
                else:
                    parts.call(EXTERNAL, tool)
                mode = "output"
                continue
            prose.append(_CLAUDE_BULLET.sub("", stripped))
            continue
        if stripped[0] in "•◦":
            if _CODEX_PLAN.match(stripped):
                mode = "todo"
                continue
            called = _CODEX_CALLED.match(stripped)
            if called:
                parts.call(EXTERNAL, called.group(2) + " (" + called.group(1) + ")")
                tool, mode = "called", "output"
                continue
            ran = _CODEX_RAN.match(stripped)
            if ran:
                if ran.group(1).strip():
                    parts.call(RUN, unwrap_shell(ran.group(1)))
                    tool, mode = "ran", "output"
                else:
                    tool, mode = "ran-empty", "output"
                continue
            edit = _CODEX_EDIT.match(stripped)
            if edit and ("/" in edit.group(2) or "." in edit.group(2)):
                path = _record_path(edit.group(2))
                if path:
                    parts.call(EDIT, path)
                    parts.records.append(stripped.lstrip("•◦ ").strip())
                mode = "output"  # the diff lines under it
                continue
            explored = _CODEX_EXPLORED.match(stripped)
            if explored:
                if explored.group(1).strip():
                    _explored(explored.group(1), parts)
                tool, mode = "explored", "output"
                continue
            prose.append(_CODEX_BULLET.sub("", stripped) if indent == 0 else line)
            continue
        read = _SPECSTORY_READ.match(stripped)
        if read:
            parts.call(READ, read.group(1))
            continue
        prose.append(line)
    finish_command()
    parts.prose = join_wrapped("\n".join(prose))
    return parts


def _explored(body: str, parts: TurnParts) -> None:
    """Codex's exploration lines: `Read a.py, b.py`, `List src`, `Search foo in src`."""
    words = body.split(None, 1)
    if len(words) == 2 and words[0] == "Read":
        parts.read.extend(name.strip() for name in words[1].split(",") if name.strip())


def _aider_line(body: str, parts: TurnParts) -> None:
    applied = _AIDER_APPLIED.match(body)
    if applied:
        parts.call(EDIT, applied.group(1))
        return
    commit = _AIDER_COMMIT.match(body)
    if commit:
        message = re.sub(r"^aider:\s*", "", commit.group(2).strip())
        if not message.lower().startswith("style:"):  # formatting commits say nothing about the work
            parts.records.append(message)
            parts.commit_of.append((commit.group(1), message))
        return
    removed = _AIDER_REMOVED.match(body)
    if removed:
        parts.undone.append(removed.group(1))
        return
    running = _AIDER_RUNNING.match(body)
    if running and ("/" in running.group(1) or " " in running.group(1)):
        parts.call(RUN, running.group(1).strip())
        return
    parts.out(body)


def _ran_blocks(text: str, blocks: List[Tuple[str, str]]) -> List[Tuple[str, str]]:
    """Shell blocks the agent ran: not introduced as advice or an example, and not just an echo."""
    ran: List[Tuple[str, str]] = []
    position = 0
    for language, code in blocks:
        if language and language not in _SHELL_LANGS:
            position = max(position, text.find(code, position))
            continue
        at = text.find(code, position) if code else -1
        before = text[max(0, at - 400):at] if at >= 0 else ""
        position = max(position, at)
        # The prose line that leads into the block (the fence line itself is skipped).
        lead = [line.strip() for line in before.split("\n")[:-2] if line.strip() and not line.strip().startswith("```")]
        cue = lead[-1] if lead else ""
        if cue and _SHOWN_CUE.search(cue):
            continue
        lines = [line for line in code.split("\n") if line.strip() and not _ECHO.match(line)]
        # A block without a language is as often output as commands: it counts when it holds a command.
        if lines and (language or any(is_command_line(line.strip()) for line in lines)):
            ran.append((language or "sh", "\n".join(lines)))
    return ran
