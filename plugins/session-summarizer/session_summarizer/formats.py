"""Tool calls of agents that mark them with tags, boxes or fixed lines, read into typed calls.

SpecStory (Cursor) `<tool-use>`/`<details>` blocks and bash-then-output block pairs, Cline's XML tools,
GitHub Copilot's chat export lines (`Ran terminal command:`, `Read [](file:///…)`, `Made changes.`),
Gemini CLI's boxed calls (`│ ✔  Shell npm test │`). Each call has a kind: run, edit, read, search or
external (MCP and other acting tools such as `push_files`), and keeps the lines its tool printed.
What is left is the agent's prose, read by transcript.read_turn.
"""

import json
import re
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import unquote

from .saved_problems import problems_after_save

RUN, EDIT, READ, SEARCH, EXTERNAL = "run", "edit", "read", "search", "external"
# The editor's own check of a file just saved (the problems Cline shows after a save): errors, never a command.
CHECK = "check"
# A call the tool did not carry out (refused, or failed before it acted): only its error line is kept.
FAILED = "failed"


class Call:
    """One tool call: its kind, what it acted on (command, path, tool name), and what it printed."""

    __slots__ = ("folder", "kind", "output", "text")

    def __init__(self, kind: str, text: str) -> None:
        self.kind = kind
        self.text = text
        self.output: List[str] = []
        # The folder a fresh shell ran this call in, when the agent says so (Gemini CLI's "[current working
        # directory …]"): a `cd` inside such a call does not carry over to the next one.
        self.folder = ""

    def __repr__(self) -> str:
        return "Call(" + self.kind + ", " + repr(self.text) + ", " + str(len(self.output)) + " lines)"


def external_name(name: str) -> str:
    """`mcp__github__push_files` / `mcp_github_push_files` → `push_files (github)`."""
    found = re.match(r"(?i)^mcp_{1,2}([A-Za-z0-9-]+?)_{1,2}([\w-]+)$", name)
    return found.group(2) + " (" + found.group(1) + ")" if found else name


def kind_of_tool(name: str) -> str:
    """A tool's kind from its name, as agents spell it (run_terminal_cmd, ReadFile, grep_search, …)."""
    lowered = name.lower().replace("-", "_")
    if lowered.startswith("mcp") or " mcp" in lowered:
        return EXTERNAL
    squashed = lowered.replace("_", "").replace(" ", "")
    if any(word in squashed for word in ("terminal", "shell", "command", "bash", "exec", "runcmd", "powershell")):
        return RUN
    if any(word in squashed for word in ("edit", "write", "replace", "patch", "create", "insert", "delete",
                                         "rename", "multiedit")):
        return EDIT
    if any(word in squashed for word in ("search", "grep", "glob", "find", "list", "ls", "fetch", "web")):
        return SEARCH
    if any(word in squashed for word in ("read", "view", "open", "cat")):
        return READ
    return EXTERNAL


# ----------------------------------------------------------------------------------------- SpecStory

# Older SpecStory exports name the tool on a line before the block ("Tool use: **mcp_x_search**").
_DETAILS = re.compile(r"(?:Tool use: \*\*([\w.-]+)\*\*\s*)?(?:<tool-use\b([^>]*)>\s*)?<details>\s*<summary>"
                      r"([\s\S]*?)</summary>([\s\S]*?)</details>(?:\s*</tool-use>)?", re.I)
# An MCP call's first parameter ("*Parameters*:\n  * query: …") says what it was for.
_FIRST_PARAMETER = re.compile(r"\*?Parameters\*?:\s*\n\s*\*\s*\w+:\s*([^\n]{1,200})")
_TOOL_NAME = re.compile(r"data-tool-name=\"([\w.-]+)\"|Tool use: \*\*([\w.-]+)\*\*|\*\*([\w.-]+)\*\*", re.I)
_FENCE = re.compile(r"^```([\w+-]*)[^\n]*\n([\s\S]*?)^```[ \t]*$", re.M)
_SUMMARY_PATH = re.compile(r"(?:Edit file|Read file|Write|Create|Delete)[^:]*:\s*`?([^`\n<]+?)`?\s*$", re.I)
_RUN_COMMAND = re.compile(r"(?i)Run command:\s*`?([^`\n<]+?)`?\s*$")
_SHELL_FENCE = re.compile(r"```(?:bash|sh|shell|zsh|console|powershell|ps1|cmd|terminal|fish)[ \t]*\n"
                          r"[^`]*?\n```[ \t]*\n\s*```[ \t]*\n")
_SHELL = frozenset(("bash", "sh", "shell", "zsh", "console", "powershell", "ps1", "cmd", "terminal", "fish"))


_TYPE_KIND = {"shell": RUN, "write": EDIT, "read": READ, "search": SEARCH, "mcp": EXTERNAL}
_INLINE_LINE = re.compile(r"^[ \t]*`([^`\n]{2,400})`[ \t]*$", re.M)
_BODY_PATH = re.compile(r"(?:The file|File created successfully at:?|File written:?|Wrote to|Updated)\s+`?([^\s`]+)`?")


def _specstory_block(attributes: str, summary: str, body: str, parts: Any) -> str:
    """One `<details>` block as a call; the text that stays in the turn (nothing, or a question's words)."""
    named = _TOOL_NAME.search(attributes + " " + summary)
    name = next((group for group in named.groups() if group), "") if named else ""
    typed = re.search(r'data-tool-type="(\w+)"', attributes)
    summary_text = re.sub(r"<[^>]+>|\*\*", "", summary).strip()
    kind = _TYPE_KIND.get(typed.group(1), "") if typed else ""
    kind = kind or (kind_of_tool(name) if name else "")
    if name.lower() in ("todowrite", "todo_write", "task", "taskcreate", "exitplanmode", "askuserquestion"):
        return "\n"  # plans and sub-agents: not acts on the project
    if not kind:
        lowered = summary_text.lower()
        if lowered.startswith(("searched", "grep", "listed", "found")):
            kind = SEARCH
        elif lowered.startswith("read file"):
            kind = READ
        elif lowered.startswith(("edit", "create", "write")):
            kind = EDIT
        else:
            return "\n"  # collapsed reasoning or search results: not what the agent told the user
    fences = [(language.lower(), code) for language, code in _FENCE.findall(body)]
    if kind == RUN:
        command = _RUN_COMMAND.search(summary_text)
        text = command.group(1) if command else ""
        rest = fences
        if not text and fences and fences[0][0] in _SHELL:
            text, rest = fences[0][1].strip(), fences[1:]
        elif text and fences and fences[0][0] in _SHELL:
            rest = fences[1:]
        if not text:  # Claude Code through SpecStory: the command as a line of inline code
            inline = _INLINE_LINE.search(body.split("```", 1)[0])
            text = inline.group(1) if inline else ""
        if text:
            parts.call(RUN, " ".join(line.strip() for line in text.strip().split("\n")[:1]))
            for _, code in rest:
                for line in code.split("\n"):
                    if line.strip():
                        parts.out(line.strip())
            parts.close_call()
            return "\n"
    path_found = _SUMMARY_PATH.search(summary_text)
    path = path_found.group(1).strip() if path_found else ""
    if not path and kind in (EDIT, READ):
        inline = _INLINE_LINE.search(body.split("```", 1)[0])
        in_body = _BODY_PATH.search(body[:600])
        path = (inline.group(1) if inline else "") or (in_body.group(1).rstrip(".:,") if in_body else "")
    refused = _TOOL_ERROR.search(body)
    if kind in (EDIT, READ) and path:
        parts.call(kind, path.strip())
    elif kind == SEARCH:
        parts.call(SEARCH, summary_text[:120])
    elif kind == EXTERNAL and name:
        parameter = _FIRST_PARAMETER.search(body)
        parts.call(EXTERNAL, external_name(name) + (": " + parameter.group(1).strip()[:100] if parameter else ""))
        # Its result, where an error shows; the parameters and the approval data above it are not output.
        result = _RESULT_LABEL.split(body, 1)
        for _, code in _FENCE.findall(result[1]) if len(result) > 1 else (fences if "Parameters:" not in body else ()):
            for line in code.split("\n")[:40]:
                if line.strip():
                    parts.out(line.strip())
    if refused:  # the tool said it did not do it: the call failed, whatever its kind
        if kind in (EDIT, READ) and path:
            parts.drop_call(kind)
        if kind in (EDIT, READ) or not parts.calls:
            parts.call(FAILED, path.strip() or name or kind)
        first = refused.group(1).strip().split("\n", 1)[0]
        parts.out(first if re.match(r"(?i)error\b", first) else "Error: " + first)
    parts.close_call()
    return "\n"


# Claude Code's tool error, as SpecStory keeps it: the tool did not do what was asked.
_TOOL_ERROR = re.compile(r"<tool_use_error>([\s\S]*?)(?:</tool_use_error>|$)")
_RESULT_LABEL = re.compile(r"(?m)^Result:[ \t]*$")


def _run_output_pairs(text: str, parts: Any) -> str:
    """A shell block followed at once by a plain block is a command that ran, then what it printed."""
    pieces: List[str] = []
    position = 0
    matches = list(_FENCE.finditer(text))
    index = 0
    while index < len(matches) - 1:
        first, second = matches[index], matches[index + 1]
        between = text[first.end():second.start()]
        if (first.group(1).lower() in _SHELL and not second.group(1) and not between.strip()
                and first.group(2).strip()):
            lines = [line.strip() for line in first.group(2).split("\n") if line.strip()]
            pieces.append(text[position:first.start()])
            for command in lines[:-1]:
                parts.call(RUN, command.lstrip("$ ").strip())
            parts.call(RUN, lines[-1].lstrip("$ ").strip())
            for line in second.group(2).split("\n"):
                if line.strip():
                    parts.out(line.strip())
            parts.close_call()
            position = second.end()
            index += 2
            continue
        index += 1
    if not pieces:
        return text
    pieces.append(text[position:])
    return "".join(pieces)


# ----------------------------------------------------------------------------------------- Cline

_CLINE = re.compile(
    r"<(execute_command|write_to_file|replace_in_file|apply_diff|insert_content|read_file|search_files|list_files"
    r"|list_code_definition_names|use_mcp_tool|access_mcp_resource|attempt_completion|ask_followup_question"
    r"|browser_action|new_task|plan_mode_respond)>([\s\S]*?)</\1>")
_CLINE_FIELD = re.compile(r"<(command|path|server_name|tool_name|result|question|response|regex)>([\s\S]*?)</\1>")


def _cline_tool(found: "re.Match[str]", parts: Any) -> str:
    tool, body = found.group(1), found.group(2)
    fields = {name: value.strip() for name, value in _CLINE_FIELD.findall(body)}
    if tool == "execute_command" and fields.get("command"):
        parts.call(RUN, fields["command"])
    elif tool in ("write_to_file", "replace_in_file", "apply_diff", "insert_content") and fields.get("path"):
        parts.call(EDIT, fields["path"])
    elif tool == "read_file" and fields.get("path"):
        parts.call(READ, fields["path"])
    elif tool in ("use_mcp_tool", "access_mcp_resource"):
        parts.call(EXTERNAL, fields.get("tool_name", "mcp") + " (" + fields.get("server_name", "mcp") + ")")
    elif tool in ("search_files", "list_files", "list_code_definition_names", "browser_action"):
        parts.call(SEARCH, fields.get("regex") or fields.get("path") or tool)
    else:  # the agent's words to the user: a result, a question, a plan
        parts.close_call()
        # Marked, so that a tool result before it (read next, by _cline_results) ends where these words start.
        return "\n" + _SAID + (fields.get("result") or fields.get("question") or fields.get("response") or "") + "\n"
    parts.close_call()
    return "\n"


# Cline's (and Roo Code's) tool results: `[execute_command for 'npm test'] Result:` and what the tool said,
# handed back as the next request. An export keeps them between the replies; a result runs until the next
# reply's reasoning, tool call or result.
_CLINE_RESULT = re.compile(r"(?m)^\[([\w-]+)(?: for '([^\n]*?)')?\] Result:[ \t]*(?:\n|$)")
# (Every tool of Cline's and Roo Code's has a "_" in its name: execute_command, read_file, apply_diff, …)
_SAID = "\x1e"  # where the agent's own words (a completion, a question) start, until the results are read
_CLINE_REPLY = re.compile(r"(?m)^[ \t]*(?:<thinking>|\x1e|<[a-z]+_[a-z_]+>|\[[\w-]+(?: for '[^\n]*?')?\] Result:)")
_CLINE_FILE = re.compile(r"<final_file_content[^>]*>[\s\S]*?(?:</final_file_content>|\Z)|<environment_details>[\s\S]*?"
                         r"(?:</environment_details>|\Z)")
_CLINE_DENIED = re.compile(r"(?i)[ \t]*the user denied this operation")
_CLINE_FAILED = re.compile(r"(?i)command execution was not successful|exit code: [1-9]")


def _cline_results(text: str, parts: Any) -> str:
    """Take Cline's tool results out of a turn; a command's output goes on its call, a refusal fails it."""
    pieces: List[str] = []
    position = 0
    for found in _CLINE_RESULT.finditer(text):
        if found.start() < position:
            continue
        end = _CLINE_REPLY.search(text, found.end())
        stop = end.start() if end else len(text)
        denied = _CLINE_DENIED.match(text, found.end())
        if denied:  # a refusal is one line (and the user's feedback the export took out): what follows is the reply
            paragraph = text.find("\n\n", denied.end())
            stop = min(stop, paragraph if paragraph >= 0 else len(text))
        pieces.append(text[position:found.start()])
        position = stop
        tool, target = found.group(1), (found.group(2) or "").strip()
        body = _CLINE_FILE.sub("", text[found.end():stop])
        kind = RUN if tool == "execute_command" else EDIT if tool in (
            "write_to_file", "replace_in_file", "apply_diff", "insert_content", "search_and_replace") else ""
        if not kind or not target:
            continue
        call = next((call for call in reversed(parts.calls) if call.kind == kind and call.text == target), None)
        if call is None:
            call = parts.call(kind, target)
        if denied or _CLINE_DENIED.search(body):
            _fail(call, parts) if kind == EDIT else setattr(call, "kind", FAILED)
            if kind == RUN and target in parts.commands:
                parts.commands.remove(target)
            call.output.append("Rejected by the user: the user denied this operation.")
            continue
        if kind != RUN:
            # What the editor reported right after the save is a check that ran on it (error lines or none).
            if "New problems" in body or "saved" in body or "applied" in body:
                parts.call(CHECK, target).output.extend(problems_after_save(body))
            parts.close_call()
            continue
        lines = [line.strip() for line in body.split("\n") if line.strip()]
        output = lines[lines.index("Output:") + 1:] if "Output:" in lines else [
            line for line in lines if _CLINE_FAILED.search(line)]
        if _CLINE_FAILED.search(body[:400]):
            output = [line for line in lines[:3] if re.match(r"(?i)exit code", line)] + output
        call.output.extend(output[:200])
        parts.output.extend(output[:200])
    parts.close_call()
    if not pieces:
        return text
    pieces.append(text[position:])
    return "".join(pieces)


# ----------------------------------------------------------------------------------------- Copilot

_COPILOT = re.compile(
    r"(?m)^[ \t]*(?:(Ran terminal command|Run terminal command):[ \t]*(.+)"
    r"|Ran `([\w.-]+)`[^\n]*"
    r"|(Read|Checked|Created|Edited|Updated|Deleted) \[[^\]]*\]\(([^)\s]+)\)[^\n]*"
    r"|(Searched|Search complete)[^\n]*"
    r"|(Made changes\.)"
    r"|Using \"([^\"\n]+)\"[^\n]*"
    r"|Completed with input:[^\n]*(?:\n[ \t]*[{}\[\]\"].*)*)[ \t]*$")


def _file_url_path(url: str) -> str:
    path = unquote(url.split("#", 1)[0])
    path = re.sub(r"^(?:file|vscode-file|vscode-remote)://[^/]*", "", path)
    if re.match(r"^/[A-Za-z]:/", path):  # /c:/Users/… on Windows
        path = path[1:]
    return path


def _copilot_line(found: "re.Match[str]", parts: Any) -> str:
    if found.group(2):
        parts.call(RUN, found.group(2).strip().strip("`").strip())
    elif found.group(3):
        parts.call(EXTERNAL, found.group(3))
    elif found.group(4):
        kind = READ if found.group(4) in ("Read", "Checked") else EDIT
        parts.call(kind, _file_url_path(found.group(5)))
    elif found.group(6):
        parts.call(SEARCH, found.group(0).strip()[:120])
    elif found.group(7) or (found.group(8) and kind_of_tool(found.group(8)) == EDIT):
        parts.made_changes += 1
    parts.close_call()
    return "\n"


# ----------------------------------------------------------------------------------------- Gemini CLI

_BOX_LINE = re.compile(r"^[ \t]*[│┃|][ \t]?(.*?)[ \t]*[│┃|][ \t]*$")
_BOX_EDGE = re.compile(r"^[ \t]*[╭╰┌└][─━-]{3,}[╮╯┐┘]?[ \t]*$")
_GEMINI_TOOL = re.compile(r"^([✔✓✗✖x?⊶o-])[ \t]+([A-Z]\w*(?: [A-Z]\w*)?|[\w.-]+ \([\w .-]+MCP Server\))"
                          r"(?:[ \t]+(.*))?$")


_WORKING_DIRECTORY = re.compile(r"\s*\[(?:current )?working directory:? ([^\]]+)\]\s*")


def _gemini_boxes(text: str, parts: Any) -> str:
    kept: List[str] = []
    in_call = first_failed = False
    for line in text.split("\n"):
        if _BOX_EDGE.match(line):
            in_call = False
            parts.close_call()
            continue
        inner = _BOX_LINE.match(line)
        if not inner:
            kept.append(re.sub(r"^[ \t]*✦[ \t]*", "", line))
            continue
        body = inner.group(1).strip()
        tool = _GEMINI_TOOL.match(body)
        if tool and not tool.group(2).endswith("MCP Server)") and kind_of_tool(tool.group(2)) == EXTERNAL:
            tool = None  # "- Expected" / "+ Received" of a test's diff: output, not a tool of Gemini's
        if tool:
            name, argument = tool.group(2), (tool.group(3) or "").strip()
            server = re.match(r"([\w.-]+) \(([\w .-]+?) ?MCP Server\)", name)
            if server:
                parts.call(EXTERNAL, server.group(1) + " (" + server.group(2).strip() + ")")
            else:
                kind = kind_of_tool(name)
                folder = ""
                if kind == RUN:
                    at = _WORKING_DIRECTORY.search(argument)
                    if at:
                        folder, argument = at.group(1).strip(), argument[:at.start()].rstrip()
                    argument = re.sub(r"\s*\([^()]*\)\s*$", "", argument)  # the description after the command
                elif kind in (EDIT, READ):
                    in_json = _JSON_PATH.search(argument)
                    argument = in_json.group(1) if in_json else re.sub(
                        r"^(?:Writing to|Reading)\s+", "", argument).split(":", 1)[0].strip()
                failed = tool.group(1) in "x✗✖" and kind in (EDIT, READ, SEARCH)
                # Gemini marks a call it could not carry out with an x: the edit or read did not happen.
                parts.call(FAILED if failed else kind, argument or name).folder = folder
                first_failed = failed
            in_call = True
            continue
        if in_call and body:
            if first_failed and not re.match(r"(?i)error\b", body):
                body = "Error: " + body  # the tool's own mark says it failed, whatever the words
            first_failed = False
            parts.out(body)
    return "\n".join(kept)


_JSON_PATH = re.compile(r'"(?:file_path|absolute_path|path)"\s*:\s*"([^"]+)"')


# Gemini CLI's forks without boxes (Qwen Code, iFlow CLI): `✔  ReadFile src/a.ts`, `x  Shell npm test` at the
# line start, the tool's result on the lines below it, replies after `✦`, reasoning after `✻ Thinking` /
# `✻ 思考中` up to the next reply or call. Only the tools these CLIs have are calls: a "✔  Fixed it" is prose.
_GEMINI_TOOLS = frozenset((
    "ReadFile", "Read File", "ReadManyFiles", "ReadFolder", "WriteFile", "Write File", "Edit", "Shell", "Search",
    "SearchText", "SearchFileContent", "FindFiles", "Glob", "Grep", "Fetch", "WebFetch", "Web Fetch", "WebSearch",
    "Web Search", "GoogleSearch", "Google Search", "ListFiles", "List Directory", "ReadManyFile", "Replace"))
_GEMINI_QUIET = frozenset(("TodoWrite", "WriteTodos", "Task", "SaveMemory", "Save Memory", "ExitPlanMode", "Skill"))
_UNBOXED = re.compile(r"^([✔✓x✗✖?⊶])[ \t]{2,}([A-Z]\w*(?: [A-Z]\w*)?)(?:[ \t]+(.*))?$")
_UNBOXED_THINKING = re.compile(r"^[✻✽]\s*(?:Thinking|思考中|思考|생각 중)")


def _indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _unboxed_calls(text: str, parts: Any) -> str:
    kept: List[str] = []
    mode = ""  # "", "call" (result lines follow), "quiet" (a plan's or sub-agent's lines), "thinking"
    fenced = False
    for line in text.split("\n"):
        stripped = line.strip()
        if mode == "quiet" and stripped.startswith("```"):
            fenced = not fenced  # a sub-agent's report, with its own calls, in a fence
            continue
        if fenced:
            continue
        # Calls at the left edge only: an indented one is a sub-agent's, inside its report.
        tool = _UNBOXED.match(stripped) if stripped[:1] in "✔✓x✗✖?⊶" and _indent_of(line) <= 2 else None
        name = tool.group(2) if tool else ""
        if tool and (name in _GEMINI_TOOLS or name in _GEMINI_QUIET or name.split(" ")[0] in _GEMINI_QUIET):
            parts.close_call()
            mode = "call"
            if name in _GEMINI_TOOLS:
                kind = kind_of_tool(name)
                argument = (tool.group(3) or "").strip()
                if kind in (EDIT, READ):  # "src/a.ts: old => new", "a.ts, 50, 100"
                    argument = re.split(r":\s|,", argument, maxsplit=1)[0].strip()
                call = parts.call(FAILED if tool.group(1) in "x✗✖" else kind, argument or name)
                if tool.group(1) in "x✗✖":  # the tool failed: its first result line says why
                    call.output.append("Error:")
            else:
                parts.close_call()
                mode = "quiet"
            continue
        if _UNBOXED_THINKING.match(stripped):
            parts.close_call()
            mode = "thinking"
            continue
        if stripped.startswith("✦"):
            parts.close_call()
            mode = ""
            kept.append(re.sub(r"^[ \t]*✦[ \t]*", "", line))
            continue
        if mode == "quiet" and not stripped:
            mode = ""
        if mode in ("thinking", "quiet"):
            continue
        if mode == "call":
            if stripped:
                call = parts.calls[-1]
                if call.output == ["Error:"]:
                    call.output[0] = "Error: " + stripped
                elif call.kind in (RUN, FAILED):
                    parts.out(stripped)
                continue
            mode = ""
            parts.close_call()
        kept.append(line)
    parts.close_call()
    return "\n".join(kept)


# ----------------------------------------------------------------------------------------- Antigravity

# Antigravity's (and Windsurf Cascade's) chat export prints each step as an italic line of its own:
# `*Viewed [a.py](file:///…/a.py) *`, `*Edited relevant file*`, `*User accepted the command `npm test`*`,
# `*Grep searched codebase*`. The export keeps no tool output: only what each step was.
_STEP = re.compile(
    r"(?m)^[ \t]*\*(?:User (accepted|rejected) the command `([\s\S]{1,4000}?)`"
    r"|(Viewed|Analyzed|Edited|Created|Deleted|Listed directory|Searched|Grep searched|Semantic searched"
    r"|Read URL content|Read page|Read resource from|Read terminal output|Checked command status|Updated todo list"
    r"|Running MCP tool|MCP Tool|Called MCP tool)\b([^*\n]*))\*[ \t]*$")
_STEP_LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
_QUIET_STEPS = frozenset(("Checked command status", "Updated todo list", "Read terminal output"))


def _antigravity_step(found: "re.Match[str]", parts: Any) -> str:
    if found.group(1):
        command = found.group(2).strip().split("\n", 1)[0].strip()  # a heredoc's script is not the command
        if found.group(1) == "accepted":
            parts.call(RUN, command)
        else:  # the user said no: the command never ran
            parts.call(FAILED, command).output.append("User rejected the command")
        parts.close_call()
        return ""
    step, rest = found.group(3), found.group(4).strip()
    if step in _QUIET_STEPS:
        return ""
    link = _STEP_LINK.search(rest)
    url = link.group(1) if link else (re.search(r"\bfile://\S+", rest) or [""])[0]
    path = _file_url_path(url) if "://" in url else ""
    if step in ("Viewed", "Analyzed", "Read resource from") and path:
        parts.call(READ, path)
    elif step in ("Edited", "Created", "Deleted"):
        if path:
            parts.call(EDIT, path)
        else:  # "Edited relevant file": an edit, without saying which file
            parts.made_changes += 1
    elif step in ("Running MCP tool", "MCP Tool", "Called MCP tool"):
        parts.call(EXTERNAL, rest.strip(" :") or "MCP tool")
    elif step not in ("Viewed", "Analyzed", "Read resource from"):
        parts.call(SEARCH, (step + " " + (path or rest)).strip()[:120])
    parts.close_call()
    return ""


# ----------------------------------------------------------------------------------------- OpenCode

# OpenCode's `/export`: each call is `**Tool: bash**`, then `**Input:**` and its JSON in a fence, then
# `**Output:**` or `**Error:**` and what the tool printed in a fence. Reasoning, when exported, is a
# `_Thinking:_` line followed by its paragraphs.
_OPENCODE_TOOL = re.compile(
    r"(?m)^\*\*Tool: ([\w.-]+)\*\*[ \t]*\n\s*\*\*Input:\*\*[ \t]*\n\s*(`{3,})[\w-]*[ \t]*\n([\s\S]*?)\n\2[ \t]*$"
    r"(?:\s*^\*\*(Output|Error):\*\*[ \t]*\n\s*(`{3,})[^\n]*\n([\s\S]*?)\n?\5[ \t]*$)?")
# Plans, questions and sub-agents: not acts on the project.
_QUIET_TOOLS = frozenset(("todowrite", "todoread", "task", "question", "skill", "plan", "think", "batch", "invalid",
                          "exitplanmode", "enterplanmode", "askuserquestion", "slashcommand", "bashoutput",
                          "killshell", "killbash", "taskoutput"))
_PATCH_FILE = re.compile(r"(?m)^\*\*\* (?:Update|Add|Delete) File: (\S+)")
_OPENCODE_THINKING = re.compile(r"(?m)^_Thinking:_[ \t]*\n")
# Where exported reasoning stops: the next call, the next reasoning, a heading or a rule (the answer).
_THINKING_END = re.compile(r"(?m)^(?:\*\*Tool: |_Thinking:_|#{1,6} |---+[ \t]*$|```)")


def _json_field(text: str, *names: str) -> str:
    """A string field of a tool's JSON input, read even when the JSON is cut or does not parse."""
    for name in names:
        # A long value (a heredoc script) is read up to its first 2,000 characters: its head says what ran.
        found = re.search(r'"' + name + r'"\s*:\s*"((?:[^"\\]|\\.){0,2000})', text)
        if found:
            try:
                return str(json.loads('"' + found.group(1) + '"'))
            except ValueError:
                return found.group(1)
    return ""


def _json_call(name: str, arguments: str, parts: Any) -> Optional[Call]:
    """A call from a tool's name and its JSON input, as exporters print them; None for plans and sub-agents."""
    lowered = name.lower().replace("-", "_")
    if lowered in _QUIET_TOOLS:
        return None
    kind = EXTERNAL if lowered.startswith("mcp") or lowered.count("_") >= 2 else kind_of_tool(lowered)
    path = _json_field(arguments, "filePath", "file_path", "notebook_path", "path")
    patched: List[str] = []
    if kind == RUN:
        text = _json_field(arguments, "command", "cmd").strip().split("\n", 1)[0]
    elif kind == EDIT:
        patched = [] if path else _PATCH_FILE.findall(_json_field(arguments, "patchText", "patch", "input"))
        text = path or (patched[0] if patched else "")
    elif kind == READ:
        text = path
    elif kind == SEARCH:
        text = (name + " " + (_json_field(arguments, "pattern", "query", "url") or path)).strip()
    else:
        text = external_name(name)
    if not text.strip():
        return None
    call: Call = parts.call(kind, text.strip())
    for other in patched[1:]:
        parts.call(EDIT, other)
    return call


def _fail(call: Call, parts: Any) -> None:
    """An edit or read the tool refused: it did not happen, so only its error stays (as a failed call)."""
    bucket = {EDIT: parts.edited, READ: parts.read}.get(call.kind)
    if bucket and call.text in bucket:
        del bucket[len(bucket) - 1 - bucket[::-1].index(call.text)]
    call.kind = FAILED


def _printed(call: Call, printed: str, failed: bool) -> None:
    """A result's lines on its call: a run's or an acting tool's output, or any tool's error."""
    # What a read printed is the file, and an edit's output is its diff: neither is what happened.
    if call.kind not in (RUN, EXTERNAL, FAILED) and not failed:
        return
    lines = [line.strip() for line in printed.split("\n") if line.strip()]
    if failed and lines and not re.match(r"(?i)error\b", lines[0]):
        lines[0] = "Error: " + lines[0]
    call.output.extend(lines[:200])


def _opencode_result(name: str, arguments: str, label: str, printed: str, parts: Any) -> None:
    failed = label == "Error"
    call = _json_call(name, arguments, parts)
    if call is not None:
        if failed and call.kind in (EDIT, READ):
            _fail(call, parts)
        _printed(call, printed, failed)
        parts.output.extend(call.output)
    parts.close_call()


def _opencode_call(found: "re.Match[str]", parts: Any) -> str:
    _opencode_result(found.group(1), found.group(3), found.group(4) or "", found.group(6) or "", parts)
    return "\n"


# Older OpenCode exports put each call in a fence of its own: "```", "Tool: read", "**Input:**" and its fenced
# JSON, "**Output:**" and its fence, then the outer fence closes right after the output's.
_OPENCODE_FENCED = re.compile(r"(?m)^```[ \t]*\nTool: ([\w.-]+)[ \t]*\n\s*\*\*Input:\*\*[ \t]*\n\s*```[\w-]*[ \t]*\n")
_OPENCODE_LABEL = re.compile(r"[ \t]*\n\s*\*\*(Output|Error):\*\*[ \t]*\n\s*```[^\n]*\n")
_TWO_FENCES = re.compile(r"\n```[ \t]*\n```[ \t]*(?=\n|$)")
_ONE_FENCE = re.compile(r"[ \t]*\n```[ \t]*(?=\n|$)")


def _opencode_fenced_calls(text: str, parts: Any) -> str:
    pieces: List[str] = []
    position = 0
    for found in _OPENCODE_FENCED.finditer(text):
        if found.start() < position:
            continue
        input_end = text.find("\n```", found.end())
        if input_end < 0:
            continue
        rest = input_end + 4
        label = _OPENCODE_LABEL.match(text, rest)
        printed = ""
        if label:
            close = _TWO_FENCES.search(text, label.end())
            printed = text[label.end():close.start() if close else len(text)]
            end = close.end() if close else len(text)
        else:
            close = _ONE_FENCE.match(text, rest)
            end = close.end() if close else rest
        pieces.append(text[position:found.start()])
        position = end
        _opencode_result(found.group(1), text[found.end():input_end], label.group(1) if label else "", printed, parts)
    if not pieces:
        return text
    pieces.append(text[position:])
    return "".join(pieces)


# ----------------------------------------------------------------------------------------- cctrace

# cctrace's Claude Code export: `🔧 **Tool Use: Bash** (ID: toolu_…)` and the input as JSON in a fence; each
# result comes later as `📊 **Tool Result:**` and a fence, in the order of the calls, without their ids.
_CCTRACE_PART = re.compile(
    r"(?m)^[ \t]*🔧 \*\*Tool Use: ([\w.-]+)\*\*[^\n]*\n[ \t]*```json[ \t]*\n([\s\S]*?)\n[ \t]*```[ \t]*$"
    r"|^[ \t]*📊 \*\*Tool Result:\*\*[ \t]*\n[ \t]*```[^\n]*\n([\s\S]*?)\n?^```[ \t]*$")
_TODO_RESULT = re.compile(r"\s*Todos have been modified")
_SEARCH_RESULT = re.compile(r"\s*(?:No files found|No matches found|Found \d+ (?:files?|lines?|matches))\b")
_TOOL_USE_ERROR = re.compile(r"^\s*<tool_use_error>([\s\S]*?)(?:</tool_use_error>|$)")


# A command sent to the background answers with its shell's id; a later call that reads that shell's output
# (`BashOutput {"bash_id": …}`) prints what the command printed, so its result belongs to that command.
_BACKGROUND = re.compile(r"(?i)running in (?:the )?background with ID:\s*([\w-]+)")


def _cctrace_calls(text: str, parts: Any) -> str:
    pending: List[Tuple[str, Optional[Call]]] = []  # (what its result looks like, the call) in call order
    background: Dict[str, Call] = {}
    pieces: List[str] = []
    position = 0
    for found in _CCTRACE_PART.finditer(text):
        pieces.append(text[position:found.start()] + "\n")
        position = found.end()
        if found.group(1):
            call = _json_call(found.group(1), found.group(2), parts)
            if call is None:
                call = background.get(_json_field(found.group(2), "bash_id", "shell_id"))
            name = found.group(1).lower()
            shape = "todo" if name.startswith("todo") else SEARCH if (
                call is not None and call.kind == SEARCH) else "other"
            pending.append((shape, call))
            parts.close_call()
            continue
        printed = found.group(3)
        # Calls made together may finish in any order, and the export gives results no ids: a result in a
        # search's or a plan's own words goes to the first such call waiting, any other to the first other one.
        shape = "todo" if _TODO_RESULT.match(printed) else SEARCH if _SEARCH_RESULT.match(printed) else "other"
        index = next((at for at, (kind, _) in enumerate(pending) if kind == shape), 0)
        call = pending.pop(index)[1] if pending else None
        if call is None:
            continue
        started = _BACKGROUND.search(printed[:200])
        if started and call.kind == RUN:
            background[started.group(1)] = call
        refused = _TOOL_USE_ERROR.match(printed)
        failed = bool(refused) or printed.startswith("Error:")
        if refused:
            printed = refused.group(1)
        if failed and call.kind in (EDIT, READ):
            _fail(call, parts)
        _printed(call, printed, failed)
        parts.output.extend(call.output)
    if not pieces:
        return text
    pieces.append(text[position:])
    return "".join(pieces)


def _opencode_thinking(text: str) -> str:
    """Exported reasoning, dropped up to the call, heading or rule that ends it (else its first paragraph)."""
    kept: List[str] = []
    position = 0
    for found in _OPENCODE_THINKING.finditer(text):
        if found.start() < position:
            continue
        kept.append(text[position:found.start()])
        end = _THINKING_END.search(text, found.end())
        if end:
            position = end.start()
        else:
            paragraph = re.search(r"\S[\s\S]*?(?:\n[ \t]*\n|\Z)", text[found.end():])
            position = found.end() + (paragraph.end() if paragraph else 0)
    kept.append(text[position:])
    return "".join(kept)


# ----------------------------------------------------------------------------------------- entry

def tagged_calls(text: str, parts: Any) -> str:
    """Take every tagged, boxed or fixed-line tool call out of `text` into `parts`; return the rest."""
    # Each marker is looked for only when one of its characters is in the turn: a one-character test is a
    # memchr, many times cheaper than a search for the whole marker, and most turns hold no "<", "*" or "]".
    if "<" in text and ("<details" in text or "<tool-use" in text):
        text = _DETAILS.sub(lambda found: _specstory_block(
            (found.group(2) or "") + (' data-tool-name="' + found.group(1) + '"' if found.group(1) else ""),
            found.group(3), found.group(4), parts), text)
    if "<" in text and "</" in text and _CLINE.search(text):
        text = _CLINE.sub(lambda found: _cline_tool(found, parts), text)
    if "]" in text and "] Result:" in text:
        text = _cline_results(text, parts)
    if _SAID in text:
        text = text.replace(_SAID, "")
    if (("R" in text and ("Ran terminal" in text or "Ran `" in text or "Run terminal" in text))
            or ("[" in text and "[](" in text) or ("M" in text and "Made changes" in text)
            or ('"' in text and "Using \"" in text) or ("S" in text and "\nSearched" in text)
            or ("C" in text and "Completed with input" in text)):
        text = _COPILOT.sub(lambda found: _copilot_line(found, parts), text)
    if ("│" in text or "┃" in text) and "╭" in text:
        text = _gemini_boxes(text, parts)
    elif "✦" in text and "⏺" not in text:
        text = _unboxed_calls(text, parts)
    if "_" in text and "_Thinking:_" in text:
        text = _opencode_thinking(text)
    if "*" in text and "**Tool Use: " in text:
        text = _cctrace_calls(text, parts)
    if "*" in text and "**Tool: " in text and "**Input:**" in text:
        text = _OPENCODE_TOOL.sub(lambda found: _opencode_call(found, parts), text)
    if "*" in text and "\nTool: " in text and "**Input:**" in text:
        text = _opencode_fenced_calls(text, parts)
    # Step lines start a line with "*".
    if "*" in text and ("\n*" in text or text.startswith("*")) and _STEP.search(text):
        text = _STEP.sub(lambda found: _antigravity_step(found, parts), text)
    if "`" in text and "```" in text and _SHELL_FENCE.search(text):
        text = _run_output_pairs(text, parts)
    return text


def cline_result(text: str) -> Optional[Tuple[str, List[str]]]:
    """A tool's result handed back in the user's role by Cline: (command or tool, output lines)."""
    found = re.match(r"^\[(\w+) for '([^\n]*?)'\] Result:\s*", text)
    if not found:
        return None
    lines = [line.strip() for line in text[found.end():].split("\n") if line.strip()]
    return (found.group(2) if found.group(1) == "execute_command" else found.group(1)), lines
