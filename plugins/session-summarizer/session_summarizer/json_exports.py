"""Tool calls that Markdown exports print as a labelled JSON block, read into typed calls.

Codex's session JSONL rendered as Markdown puts each call under a heading (`### Tool Call: exec_command (…)`,
`## Tool call: exec_command · …`, the name as inline code in another renderer) with its arguments as JSON,
and each result under another heading
(`### Tool Output: call_…`, `## Tool result: call_…`, `### Command Result - …`) with what the tool printed
and its exit status. Gemini CLI's `/chat share` writes `**Tool Command**:` with `{"name", "args"}` and, in
the next message, `**Tool Response**:` with `{"name", "response": {"output" | "error"}}`. Results follow
their calls in order; a result goes to the first call still waiting for one (of the same tool, where the
result names it).
"""

import json
import re
from typing import Any, Dict, List, Optional, Tuple

from .formats import EDIT, EXTERNAL, READ, RUN, SEARCH, Call, _fail, external_name, kind_of_tool

# Calls that plan, wait, feed a running process or talk about the session itself (Gemini CLI's topic line,
# its todo list, its sub-agents and skills): not acts on the project.
_QUIET = frozenset(("update_plan", "write_stdin", "save_memory", "todowrite", "todo_write", "think", "task",
                    "exitplanmode", "view_image", "request_user_input", "update_topic", "write_todos",
                    "codebase_investigator", "delegate_to_agent", "activate_skill", "cli_help", "get_internal_docs",
                    "ask_user", "enter_plan_mode", "exit_plan_mode"))
_PATCH_FILE = re.compile(r"(?m)^\*\*\* (?:Update|Add|Delete) File: (\S+)")
_OPEN_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})[^\n]*\n")
# Between a label and its block: blank lines and the exporter's HTML comments.
_GAP = re.compile(r"(?:[ \t]*(?:<!--[^\n]*-->)?[ \t]*\n)*")
_COMMENT_LINE = re.compile(r"(?m)^[ \t]*<!--[^\n]*-->[ \t]*$")

_CODEX_LABEL = re.compile(
    r"(?m)^#{2,4}[ \t]+(?:Tool [Cc]all:[ \t]*`?([\w.:-]+)`?"
    r"|(Tool (?:[Oo]utput|[Rr]esult)|Command [Rr]esult|Function (?:[Oo]utput|[Rr]esult)))\b[^\n]*\n")
# The label may close the prose line it follows ("…the tech stack.**Tool Command**:") or the block before it.
_GEMINI_LABEL = re.compile(r"\*\*Tool (Command|Response)\*\*:?[ \t]*\n")
# What Codex adds around a command's output, and what Gemini CLI adds around a shell's.
_META = re.compile(r"^(?:Chunk ID|Wall time|Original token count|Process Group PGID|Background PIDs|Signal"
                   r"|Directory|Command|cwd|status|duration_ms):")
_EXIT_LINE = re.compile(r"^(?:Process exited with code|Exit Code:|exit_code:)\s*(-?\d+)")


def _fenced(text: str, position: int) -> Tuple[str, int]:
    """The block that opens right after `position` (past blank lines and comments): (content, end), else ("", -1)."""
    gap = _GAP.match(text, position)
    start = gap.end() if gap else position
    opening = _OPEN_FENCE.match(text, start)
    if opening is None:
        return "", -1
    fence = opening.group(1)
    # A closing fence ends its line, or runs straight into the next label ("```**Tool Command**:").
    close = re.compile(r"(?m)^[ \t]*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}(?=[ \t]*$|\*\*Tool )")
    closing = close.search(text, opening.end())
    if closing is None:
        return text[opening.end():], len(text)
    return text[opening.end():closing.start()], closing.end()


# A JSON string field of arguments the exporter cut short ("… 4 lines of output omitted …" inside the object).
_STRING_FIELD = re.compile(r'"(cmd|command|path|file_path)"\s*:\s*"((?:[^"\\\n]|\\.)*)"')


def _arguments(raw: str) -> Dict[str, Any]:
    try:
        data = json.loads(raw)
    except ValueError:
        # An object cut short by the exporter still names its command or path: the call is kept, so the results
        # after it still go to their own calls.
        fields = {key: json.loads('"' + value + '"') for key, value in _STRING_FIELD.findall(raw)
                  if raw.lstrip().startswith("{")}
        return dict(fields, input=raw) if fields else {"input": raw}  # else a custom tool's raw input (a patch)
    return data if isinstance(data, dict) else {"input": raw}


def _command(value: Any) -> str:
    """A shell call's command: a string, or an argv whose `bash -lc <script>` tail is the real command."""
    if isinstance(value, list):
        words = [str(word) for word in value]
        return words[-1] if len(words) >= 3 and words[-2] in ("-lc", "-c", "-Command") else " ".join(words)
    return value if isinstance(value, str) else ""


def _path(data: Dict[str, Any]) -> str:
    return next((str(data[key]) for key in ("file_path", "filePath", "absolute_path", "path", "target_file",
                                            "notebook_path") if isinstance(data.get(key), str)), "")


def _typed(name: str, data: Dict[str, Any]) -> List[Tuple[str, str]]:
    """(kind, what it acted on) for a tool's name and arguments; nothing for calls that do not act."""
    from .transcript import unwrap_shell  # transcript imports this module: imported when first used

    lowered = name.lower()
    if lowered in _QUIET:
        return []
    if lowered.startswith("mcp") or "." in name:  # `mcp__github__push_files`, `github.push_files`
        return [(EXTERNAL, external_name(name.replace(".", "__") if "." in name else name))]
    kind = kind_of_tool(lowered)
    if kind == RUN:
        command = _command(data.get("cmd", data.get("command"))).strip()
        return [(RUN, unwrap_shell(command.split("\n", 1)[0]))] if command else []
    if kind == EDIT:
        paths = [_path(data)] if _path(data) else _PATCH_FILE.findall(str(data.get("input", data.get("patch", ""))))
        return [(EDIT, path) for path in paths if path]
    if kind == READ:
        path = _path(data)
        if not path and isinstance(data.get("paths"), list) and data["paths"]:
            path = str(data["paths"][0])
        return [(READ, path)] if path else []
    if kind == SEARCH:
        what = next((str(data[key]) for key in ("pattern", "query", "url", "dir_path", "path") if data.get(key)), "")
        return [(SEARCH, (name + " " + what).strip()[:120])]
    return [(EXTERNAL, external_name(name))]


def _call(name: str, data: Dict[str, Any], parts: Any) -> Optional[Call]:
    """The calls a tool's name and arguments make (a patch may touch several files); the first, or None."""
    made: List[Call] = [parts.call(kind, text) for kind, text in _typed(name, data)]
    return made[0] if made else None


def _result_lines(printed: str) -> Tuple[List[str], int]:
    """What a tool printed, without the exporter's bookkeeping, and its exit code (0 when none is shown)."""
    lines: List[str] = []
    code = 0
    for raw in printed.split("\n"):
        line = raw.strip()
        if not line or _META.match(line) or line in ("Output:", "Error: (none)", "(empty)"):
            continue
        exit_line = _EXIT_LINE.match(line)
        if exit_line:
            code = int(exit_line.group(1))
            continue
        if line.startswith("Output: "):
            line = line[len("Output: "):].strip()
        if line.startswith("$ ") and not lines:
            continue  # the command echoed above its output
        lines.append(line)
    return lines, code


def _record(call: Call, printed: str, failed: bool, parts: Any) -> None:
    """A result's lines on its call: a run's output (led by its failing exit code), or an edit's refusal."""
    lines, code = _result_lines(printed)
    if call.kind in (EDIT, READ):
        failed = failed or bool(lines and re.match(r"(?i)(?:error|failed|apply_patch verification failed)\b",
                                                   lines[0]))
        if not failed:
            return  # a read prints the file and an edit its diff: neither is what happened
        _fail(call, parts)
        lines = lines[:1]
        if lines and not re.match(r"(?i)error\b", lines[0]):
            lines[0] = "Error: " + lines[0]
    elif code:
        lines.insert(0, "Exit code " + str(code))
    elif failed and lines and not re.match(r"(?i)error\b", lines[0]):
        lines[0] = "Error: " + lines[0]
    call.output.extend(lines[:200])
    parts.output.extend(lines[:200])


def codex_markdown_calls(text: str, parts: Any) -> str:
    """Take Codex's Markdown-rendered calls and results out of `text` into `parts`; return the rest."""
    pieces: List[str] = []
    position = 0
    waiting: List[Call] = []
    for found in _CODEX_LABEL.finditer(text):
        if found.start() < position:
            continue
        body, end = _fenced(text, found.end())
        if end < 0:
            continue
        pieces.append(text[position:found.start()])
        position = end
        if found.group(1):
            call = _call(found.group(1), _arguments(body), parts)
            parts.close_call()
            if call is not None:
                waiting.append(call)
        elif waiting:
            _record(waiting.pop(0), body, False, parts)
    if not pieces:
        return text
    pieces.append(text[position:])
    return _COMMENT_LINE.sub("", "".join(pieces))


def gemini_share_calls(text: str, parts: Any) -> str:
    """Take Gemini CLI's shared `**Tool Command**` / `**Tool Response**` blocks out of `text` into `parts`."""
    pieces: List[str] = []
    position = 0
    waiting: List[Tuple[str, str, Call]] = []  # (call id, tool, call)
    for found in _GEMINI_LABEL.finditer(text):
        if found.start() < position:
            continue
        body, end = _fenced(text, found.end())
        if end < 0:
            continue
        pieces.append(text[position:found.start()])
        position = end
        data = _arguments(body)
        name = str(data.get("name") or "")
        if found.group(1) == "Command":
            arguments = data.get("args")
            call = _call(name, arguments if isinstance(arguments, dict) else {}, parts) if name else None
            parts.close_call()
            if call is not None:
                waiting.append((str(data.get("id") or ""), name, call))
            continue
        if not waiting:
            continue
        # A response names its call's id (when the command showed one) and always its tool.
        answered = str(data.get("id") or "")
        at = next((index for index, (call_id, _, _) in enumerate(waiting) if answered and call_id == answered),
                  next((index for index, (_, tool, _) in enumerate(waiting) if tool == name), 0))
        call = waiting.pop(at)[2]
        response = data.get("response")
        response = response if isinstance(response, dict) else {}
        error = response.get("error")
        if isinstance(error, str) and error.strip():
            _record(call, error, True, parts)
        else:
            _record(call, str(response.get("output") or ""), False, parts)
    if not pieces:
        return text
    pieces.append(text[position:])
    return "".join(pieces)
