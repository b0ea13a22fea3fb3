"""Tool calls read from the exports of agents beyond the first five: each format's own marks, as typed calls.

Every case is invented in the shape the agent's export prints (Antigravity/Windsurf step lines, OpenCode's
`/export`, …), with projects and words of its own, so a rule that only fits one real session fails here.
"""

from session_summarizer import chat_edits
from session_summarizer.local_summary import summarize
from session_summarizer.sections import call_errors
from session_summarizer.session import parse_session
from session_summarizer.transcript import read_turn
from session_summarizer.worktree import FileCheck


def _calls(text):
    return [(call.kind, call.text) for call in read_turn(text).calls]


ANTIGRAVITY = """I'll look at the router first.

*Viewed [routes.py](file:///home/lin/bakery/app/routes.py) *

*Listed directory [app](file:///home/lin/bakery/app) *

*Grep searched codebase*

*Edited relevant file*

*User accepted the command `pytest -q tests/test_orders.py`*

*Checked command status*

*User rejected the command `git push --force`*

*Searched web for flask blueprint url_prefix*

*Read resource from file:///home/lin/bakery/README.md *

The order route now checks the quantity before saving."""


def test_antigravity_step_lines_are_calls_and_never_prose():
    parts = read_turn(ANTIGRAVITY)
    assert _calls(ANTIGRAVITY) == [
        ("read", "/home/lin/bakery/app/routes.py"), ("search", "Listed directory /home/lin/bakery/app"),
        ("search", "Grep searched codebase"), ("run", "pytest -q tests/test_orders.py"),
        ("failed", "git push --force"), ("search", "Searched web for flask blueprint url_prefix"),
        ("read", "/home/lin/bakery/README.md")]
    assert parts.made_changes == 1  # "Edited relevant file" names no file
    assert parts.commands == ["pytest -q tests/test_orders.py"]  # the rejected push never ran
    assert "*" not in parts.prose and "Checked command status" not in parts.prose
    assert " ".join(parts.prose.split()) == ("I'll look at the router first. The order route now checks the quantity"
                                             " before saving.")
    assert [hit.status for hit in call_errors([parts])] == ["refused"]


def test_antigravity_commands_over_several_lines_and_windows_file_links():
    text = ("*Viewed [Main.cs](file:///c:/Users/ana/Shop%20App/Main.cs) *\n\n"
            "*User accepted the command `python3 - <<'PY'\nprint('x')\nPY`*\n\nDone.")
    assert _calls(text) == [("read", "c:/Users/ana/Shop App/Main.cs"), ("run", "python3 - <<'PY'")]
    assert read_turn(text).prose.strip() == "Done."


OPENCODE = """_Thinking:_

The user wants the failing migration fixed. Let me look at the schema first.

**Tool: read**

**Input:**
```json
{
  "filePath": "/srv/ledger/db/schema.sql"
}
```

**Output:**
```
<path>/srv/ledger/db/schema.sql</path>
<content>
1: CREATE TABLE entries (id INTEGER, error_code TEXT);
</content>
```

**Tool: bash**

**Input:**
```json
{
  "command": "cd /srv/ledger && npm run migrate",
  "description": "Run the migrations"
}
```

**Output:**
```
> ledger@0.3.0 migrate
Error: relation "accounts" does not exist
```

**Tool: edit**

**Input:**
```json
{
  "filePath": "/srv/ledger/db/002_accounts.sql",
  "oldString": "a",
  "newString": "b"
}
```

**Error:**
```
oldString not found in content
```

**Tool: todowrite**

**Input:**
```json
{"todos": [{"content": "write the accounts table", "status": "pending"}]}
```

**Output:**
```
[]
```

**Tool: github_create_pull_request**

**Input:**
```json
{"title": "Create accounts before entries"}
```

**Output:**
```
{"number": 7}
```

The migration order was wrong: `accounts` must exist before `entries`."""


def test_opencode_calls_keep_their_output_and_reasoning_is_dropped():
    parts = read_turn(OPENCODE)
    assert _calls(OPENCODE) == [
        ("read", "/srv/ledger/db/schema.sql"), ("run", "cd /srv/ledger && npm run migrate"),
        ("failed", "/srv/ledger/db/002_accounts.sql"), ("external", "github_create_pull_request")]
    assert parts.calls[1].output == ["> ledger@0.3.0 migrate", 'Error: relation "accounts" does not exist']
    assert parts.calls[0].output == []  # a read prints the file, not what happened
    assert parts.calls[2].output == ["Error: oldString not found in content"]
    assert parts.prose.strip() == "The migration order was wrong: `accounts` must exist before `entries`."
    assert parts.blocks == []  # no input or output fence is left for the prose's code blocks
    lines = [hit.line for hit in call_errors([parts])]
    assert 'Error: relation "accounts" does not exist' in lines


def test_opencode_reasoning_that_runs_into_the_answer_keeps_the_answer():
    text = ("_Thinking:_\n\nThe tests pass now, so I can report.\n\nAll 12 tests pass after the fix to `parse()`.")
    assert read_turn(text).prose.strip() == "All 12 tests pass after the fix to `parse()`."
    heading = "_Thinking:_\n\nChecking what changed.\n\nStill checking.\n\n## Summary\n\n- `parse()` handles tabs"
    assert read_turn(heading).prose.strip().startswith("## Summary")


def test_opencode_patch_names_every_file_it_touches():
    text = ('**Tool: apply_patch**\n\n**Input:**\n```json\n{"patchText": "*** Begin Patch\\n'
            '*** Update File: src/a.ts\\n@@\\n-x\\n+y\\n*** Add File: src/b.ts\\n+z\\n*** End Patch"}\n```\n\n'
            '**Output:**\n```\nSuccess.\n```\n')
    assert _calls(text) == [("edit", "src/a.ts"), ("edit", "src/b.ts")]


CCTRACE = """I'll check the build and fix the config.

🔧 **Tool Use: Bash** (ID: toolu_01Abc)
```json
{
  "command": "cargo build --release",
  "description": "Build"
}
```

🔧 **Tool Use: TodoWrite** (ID: toolu_01Def)
```json
{"todos": []}
```

🔧 **Tool Use: Edit** (ID: toolu_01Ghi)
```json
{
  "file_path": "/work/kiln/Cargo.toml",
  "old_string": "edition = \\"2024\\"",
  "new_string": "edition = \\"2021\\""
}
```

📊 **Tool Result:**
```
Exit code 101
error: feature `edition2024` is required
```

📊 **Tool Result:**
```
Todos have been modified successfully.
```

📊 **Tool Result:**
```
<tool_use_error>String to replace not found in file.</tool_use_error>
```

<details>
<summary>💭 Internal Reasoning (click to expand)</summary>

```
Maybe the toolchain is too old.
```
</details>

🔧 **Tool Use: mcp__github__create_issue** (ID: toolu_01Jkl)
```json
{"title": "Toolchain too old"}
```

📊 **Tool Result:**
```
{"number": 4}
```

The toolchain is older than the 2024 edition needs."""


def test_cctrace_calls_get_their_results_in_order_and_refused_edits_fail():
    parts = read_turn(CCTRACE)
    assert _calls(CCTRACE) == [("run", "cargo build --release"), ("failed", "/work/kiln/Cargo.toml"),
                               ("external", "create_issue (github)")]
    assert parts.calls[0].output == ["Exit code 101", "error: feature `edition2024` is required"]
    assert parts.calls[1].output == ["Error: String to replace not found in file."]
    assert parts.edited == []  # the edit never happened
    assert parts.calls[2].output == ['{"number": 4}']
    assert " ".join(parts.prose.split()) == ("I'll check the build and fix the config. The toolchain is older than "
                                             "the 2024 edition needs.")
    assert "error: feature `edition2024` is required" in [hit.line for hit in call_errors([parts])]


CLINE_TURN = """<thinking>
The schema file is missing; I'll create it and run the tests.
</thinking>

<write_to_file>
<path>api/schema.sql</path>
<content>CREATE TABLE rooms (id INTEGER);</content>
</write_to_file>

[write_to_file for 'api/schema.sql'] Result:
The content was successfully saved to api/schema.sql.

<final_file_content path="api/schema.sql">
CREATE TABLE rooms (id INTEGER);
</final_file_content>

<execute_command>
<command>npm test</command>
<requires_approval>false</requires_approval>
</execute_command>

[execute_command for 'npm test'] Result:
Command executed in terminal within working directory '/srv/hotel'. Command execution was not successful, inspect
the cause and adjust as needed.
Exit code: 1
Output:
> hotel@1.0.0 test
Error: no such table: bookings

<execute_command>
<command>rm -rf node_modules</command>
</execute_command>

[execute_command for 'rm -rf node_modules'] Result:
The user denied this operation.

The bookings table is missing too, so I'll add it next."""


def test_cline_results_go_on_their_calls_and_never_into_prose():
    parts = read_turn(CLINE_TURN)
    # The save's result is the editor's check of the file (no problems here: a check that passed).
    assert _calls(CLINE_TURN) == [("edit", "api/schema.sql"), ("run", "npm test"), ("failed", "rm -rf node_modules"),
                                  ("check", "api/schema.sql")]
    assert parts.calls[1].output == ["Exit code: 1", "> hotel@1.0.0 test", "Error: no such table: bookings"]
    assert parts.commands == ["npm test"]  # the user denied the other one: it never ran
    assert " ".join(parts.prose.split()) == "The bookings table is missing too, so I'll add it next."
    hits = call_errors([parts])
    assert "Error: no such table: bookings" in [hit.line for hit in hits]
    assert "refused" in [hit.status for hit in hits]


CLAUDE_TERMINAL_2 = """⏺ Task(Map the payment module)
  ⎿  Done (9 tool uses · 31.0k tokens · 40s)
  (ctrl+o to expand)

⏺ Searched for 3 patterns, read 2 files (ctrl+o to expand)

⏺ Web Search("stripe webhook signature tolerance")
  ⎿  Did 1 search in 2s

⏺ Recalled 1 memory (ctrl+o to expand)

⏺ Entered plan mode

  Claude is now exploring and designing an implementation approach.

⏺ Task Output(non-blocking) 4f1c2aa
  ⎿  > shop@2.1.0 dev
     … +12 lines (ctrl+o to expand)

⏺ Bash(npm test -- webhooks)
  ⎿  Error: 1 failed, 8 passed

✻ Simmered for 2m 3s

⏺ The signature check now allows five minutes of clock drift."""


def test_claude_code_2_folded_reads_web_searches_and_status_lines_are_not_prose():
    parts = read_turn(CLAUDE_TERMINAL_2)
    assert _calls(CLAUDE_TERMINAL_2) == [
        ("search", "Map the payment module"), ("search", "Searched for 3 patterns, read 2 files"),
        ("search", '"stripe webhook signature tolerance"'), ("run", "npm test -- webhooks")]
    assert parts.external == [] and parts.commands == ["npm test -- webhooks"]
    assert " ".join(parts.prose.split()) == (
        "The signature check now allows five minutes of clock drift.")


UNBOXED = """✦ The build is red; I'll look at the parser first.
✔  ReadFile src/parse.ts
Read lines 1-80 of 212 from src/parse.ts

✻ Thinking...

The tokenizer never resets its state. Maybe a fresh instance per call.

Let me check the tests.

x  Shell npm test -- parse
Command exited with code 1: 2 failed, 14 passed

✔  TodoWrite Update Todos
   ☐ reset the tokenizer
   ☐ rerun the tests

✔  Task Launch agent(explore): find other tokenizer users
```
   ✔  Glob  "**/*.ts" in src
      Found 40 files
```

✔  Edit src/parse.ts: this.state = ... => this.state = Sta...
Edit applied.

✔  Fixed the reset too.

✦ The tokenizer is now created per call.

The two failing tests pass."""


def test_gemini_forks_without_boxes_tool_lines_results_and_reasoning():
    parts = read_turn(UNBOXED)
    assert _calls(UNBOXED) == [("read", "src/parse.ts"), ("failed", "npm test -- parse"), ("edit", "src/parse.ts")]
    assert parts.calls[1].output == ["Error: Command exited with code 1: 2 failed, 14 passed"]
    prose = " ".join(parts.prose.split())
    assert prose == ("The build is red; I'll look at the parser first. ✔ Fixed the reset too. The tokenizer is now "
                     "created per call. The two failing tests pass.")


OPENCODE_FENCED = """Let me check the repository state.

```
Tool: bash

**Input:**
```json
{"command": "git push origin main", "description": "Push"}
```
**Output:**
```
To github.com:lin/bakery.git
 ! [rejected]        main -> main (fetch first)
```
```

```
Tool: read

**Input:**
```json
{"filePath": "/home/lin/bakery/NOTES.md"}
```
**Output:**
```
<file>
00001| # Notes
```
Some fenced example inside the file
```
</file>
```
```

The push was rejected: the remote has commits we do not have."""


def test_opencode_older_export_with_each_call_in_a_fence_of_its_own():
    parts = read_turn(OPENCODE_FENCED)
    assert _calls(OPENCODE_FENCED) == [("run", "git push origin main"), ("read", "/home/lin/bakery/NOTES.md")]
    assert parts.calls[0].output == ["To github.com:lin/bakery.git", "! [rejected]        main -> main (fetch first)"]
    assert " ".join(parts.prose.split()) == ("Let me check the repository state. The push was rejected: the remote has "
                                             "commits we do not have.")
    assert parts.blocks == []


def test_cctrace_results_of_calls_made_together_find_their_call_by_their_shape():
    text = ('🔧 **Tool Use: Bash** (ID: toolu_1)\n```json\n{"command": "ls -la"}\n```\n\n'
            '🔧 **Tool Use: Glob** (ID: toolu_2)\n```json\n{"pattern": "vercel.json"}\n```\n\n'
            '📊 **Tool Result:**\n```\nNo files found\n```\n\n'
            '📊 **Tool Result:**\n```\ntotal 12\ndrwxr-xr-x  4 ana ana 4096 .\n```\n')
    parts = read_turn(text)
    assert _calls(text) == [("run", "ls -la"), ("search", "Glob vercel.json")]
    assert parts.calls[0].output == ["total 12", "drwxr-xr-x  4 ana ana 4096 ."]


# Codex's session JSONL rendered as Markdown: three exporters' headings, one shape (a call heading and its JSON
# arguments, then a result heading and what the tool printed with its exit status).
CODEX_MD_ROLLOUT = """I'll run the migrations first.

### Tool Call: exec_command (2026-03-04T09:10:11Z)

```json
{"cmd": "alembic upgrade head", "workdir": "/srv/tide"}
```

### Tool Output: call_Q1w2E3r4 (2026-03-04T09:10:13Z)

```
Chunk ID: 4f2a
Wall time: 1.2 seconds
Process exited with code 1
Original token count: 40
Output:
sqlalchemy.exc.OperationalError: no such table: tides
```

### Tool Call: apply_patch (2026-03-04T09:11:00Z)

```text
*** Begin Patch
*** Update File: migrations/env.py
@@
-target_metadata = None
+target_metadata = Base.metadata
*** End Patch
```

### Tool Output: call_T5y6U7i8 (2026-03-04T09:11:01Z)

```
Success. Updated the following files:
M migrations/env.py
```

### Tool Call: update_plan (2026-03-04T09:11:02Z)

```json
{"plan": [{"step": "fix env", "status": "completed"}]}
```

The metadata was never wired into Alembic; it is now."""

CODEX_MD_ACTIVITY = """### Tool Call: exec_command - 2026-02-01T08:00:00Z

```json
{"cmd": ["bash", "-lc", "cargo build --release"], "yield_time_ms": 1000}
```

### Command Result - 2026-02-01T08:00:09Z

```text
cwd: ~/code/ferry
status: failed
exit_code: 101

$ /bin/bash -lc 'cargo build --release'
error[E0432]: unresolved import `ferry::wire`
```
"""

CODEX_MD_EVENTS = """<!-- codex-event:{"kind":"tool-call","phase":null} -->
## Tool call: exec_command · 2026-07-01T10:00:00.000Z

```json
{
  "cmd": "git push origin HEAD",
  "workdir": "/Users/kim/orchard"
}
```

<!-- /codex-event -->

<!-- codex-event:{"kind":"tool-result","phase":null} -->
## Tool result: call_Zx9 · 2026-07-01T10:00:02.000Z

````text
Process exited with code 0
Output:
To github.com:kim/orchard.git
   1a2b3c4..5d6e7f8  HEAD -> main
````

<!-- /codex-event -->

Pushed."""


def test_codex_markdown_export_calls_get_their_results_and_exit_status():
    parts = read_turn(CODEX_MD_ROLLOUT)
    assert _calls(CODEX_MD_ROLLOUT) == [("run", "alembic upgrade head"), ("edit", "migrations/env.py")]
    assert parts.calls[0].output == ["Exit code 1", "sqlalchemy.exc.OperationalError: no such table: tides"]
    assert parts.calls[1].output == []  # an edit's report is not what went wrong
    assert [hit.status for hit in call_errors([parts])] != []
    assert " ".join(parts.prose.split()) == ("I'll run the migrations first. The metadata was never wired into "
                                             "Alembic; it is now.")
    assert parts.blocks == []


def test_codex_markdown_export_with_results_apart_and_as_events():
    activity = read_turn(CODEX_MD_ACTIVITY)
    assert _calls(CODEX_MD_ACTIVITY) == [("run", "cargo build --release")]
    assert activity.calls[0].output == ["Exit code 101", "error[E0432]: unresolved import `ferry::wire`"]
    events = read_turn(CODEX_MD_EVENTS)
    assert _calls(CODEX_MD_EVENTS) == [("run", "git push origin HEAD")]
    assert events.calls[0].output[0] == "To github.com:kim/orchard.git"  # exit 0: no failure line
    assert "codex-event" not in events.prose and events.prose.strip().endswith("Pushed.")


# Another Codex Markdown renderer writes the tool's name as inline code and its result as a plain block.
CODEX_MD_TICKED = """I'll install the test runner into the venv.

### Tool call: `exec_command`

```
{
  "cmd": "./venv/bin/python -m pip install pytest",
  "workdir": "/Users/lee/monitor"
}
```

### Tool result

```
Process exited with code 1
ERROR: No matching distribution found for pytest
```

The install failed: the sandbox cannot reach PyPI."""


def test_codex_markdown_export_with_the_tool_name_as_inline_code():
    parts = read_turn(CODEX_MD_TICKED)
    assert _calls(CODEX_MD_TICKED) == [("run", "./venv/bin/python -m pip install pytest")]
    assert parts.calls[0].output[-1] == "ERROR: No matching distribution found for pytest"
    assert "exec_command" not in parts.prose and parts.blocks == []


# Gemini CLI's `/chat share`: the call as {name, args} under **Tool Command**, its result in the next message.
GEMINI_SHARE = """I'll check why the certificate is still provisioning.

**Tool Command**:
```json
{
  "name": "update_topic",
  "args": {"title": "Certificate provisioning", "summary": "Looking at the ingress and the certificate."}
}
```

**Tool Command**:
```json
{
  "name": "run_shell_command",
  "args": {
    "description": "Show the certificate status.",
    "command": "kubectl describe managedcertificate shop-certs -n shop"
  }
}
```

**Tool Command**:
```json
{
  "name": "replace",
  "args": {
    "file_path": "/home/ria/shop/k8s/ingress.yaml",
    "old_string": "name: shop-api",
    "new_string": "name: shop-api-service"
  }
}
```

**Tool Response**:
```json
{
  "id": "replace_17_1",
  "name": "replace",
  "response": {
    "output": "Successfully modified file: /home/ria/shop/k8s/ingress.yaml (1 replacements)."
  }
}
```

**Tool Response**:
```json
{
  "id": "run_shell_command_17_0",
  "name": "run_shell_command",
  "response": {
    "output": "Command: kubectl describe managedcertificate shop-certs -n shop\\nDirectory: (root)\\n\
Output: Warning  Translate  could not find service \\"shop/shop-api\\"\\nError: (none)\\nExit Code: 1\\n\
Signal: (none)\\nProcess Group PGID: 4242"
  }
}
```

**Tool Command**:
```json
{
  "name": "read_file",
  "args": {"absolute_path": "/home/ria/shop/k8s/missing.yaml"}
}
```

**Tool Response**:
```json
{
  "id": "read_file_17_2",
  "name": "read_file",
  "response": {"error": "File not found: /home/ria/shop/k8s/missing.yaml"}
}
```

The ingress pointed at a service name that does not exist."""


def test_gemini_share_calls_find_their_responses_by_tool_name():
    parts = read_turn(GEMINI_SHARE)
    assert _calls(GEMINI_SHARE) == [("run", "kubectl describe managedcertificate shop-certs -n shop"),
                                    ("edit", "/home/ria/shop/k8s/ingress.yaml"),
                                    ("failed", "/home/ria/shop/k8s/missing.yaml")]
    assert parts.calls[0].output == ["Exit code 1", 'Warning  Translate  could not find service "shop/shop-api"']
    assert parts.calls[2].output == ["Error: File not found: /home/ria/shop/k8s/missing.yaml"]
    assert parts.edited == ["/home/ria/shop/k8s/ingress.yaml"] and parts.read == []  # the failed read is gone
    assert " ".join(parts.prose.split()) == ("I'll check why the certificate is still provisioning. The ingress "
                                             "pointed at a service name that does not exist.")


# Cursor's own chat export keeps no tool calls: an edit is a block of old text, "->", new text; a file written
# whole follows the agent's announcement that names it.
CURSOR_EXPORT = """Now let me update `deploy/run.sh` to read the port from the environment:


```shellscript
PORT=8080

->

PORT="${PORT:-8080}"
```

Let me create the `.env.example` file:


```plaintext
PORT=8080
```

Create a `.env` file like this if you want to override it:


```plaintext
PORT=9000
```

The script now reads the port from the environment."""


def _exported(*texts):
    parts = [read_turn(text) for text in texts]
    chat_edits.exported_writes(list(texts), parts)
    return parts


def test_cursor_export_replace_blocks_and_announced_files_are_writes():
    parts = _exported(CURSOR_EXPORT)[0]
    assert parts.written == ["deploy/run.sh", ".env.example"]  # the `.env` block is advice to the user
    assert parts.made_changes == 1
    assert parts.commands == [] and parts.calls == []


def test_cursor_export_announcement_in_other_languages_and_without_a_file():
    text = ("让我更新 `src/store/cart.ts`：\n\n```typescript\nexport const total = 0\n```\n\n"
            "Let me create a helper for this:\n\n```python\ndef helper():\n    pass\n```\n")
    assert _exported(text)[0].written == ["src/store/cart.ts"]


def test_announced_blocks_are_not_writes_where_tools_keep_their_own_records():
    # aider applies an edit only when it says so ("Applied edit to …"); SpecStory keeps each edit call.
    tool_turn = "Running the tests.\n\n> Running pytest -q\n> 2 passed"
    parts = _exported(CURSOR_EXPORT, tool_turn)
    assert parts[0].written == [] and parts[0].made_changes == 0


# GitHub Copilot's export: each edit is "Made changes."; only the report names the file.
COPILOT_MADE_CHANGES = """````

````


Made changes.

server.py is now updated to close the pool on shutdown, using the helper from pool_utils.py.
A regression test was added in tests/test_shutdown.py.
You can delete legacy_pool.py if you no longer need it."""


def test_copilot_made_changes_takes_the_files_its_report_says_changed():
    parts = read_turn(COPILOT_MADE_CHANGES)
    assert parts.made_changes == 1
    assert parts.written == ["server.py", "tests/test_shutdown.py"]  # pool_utils.py was used, legacy_pool.py offered


def test_copilot_made_changes_files_are_shown_as_edited():
    turns = [{"role": "user", "text": "close the db pool when the server stops"},
             {"role": "assistant", "text": COPILOT_MADE_CHANGES}]
    summary = summarize(parse_session({"agent": "copilot", "cwd": "", "turns": turns}),
                        file_checker=lambda paths, cwd: [FileCheck(path, "mentioned") for path in paths])
    states = {check.path: check.state for check in summary.files}
    assert states["server.py"] == "edited" and states["tests/test_shutdown.py"] == "edited"
    assert states["legacy_pool.py"] == "mentioned"


def test_gemini_share_labels_glued_to_prose_and_responses_found_by_call_id():
    text = ('Let me build both targets.**Tool Command**:\n```json\n{\n  "id": "call_a",\n'
            '  "name": "run_shell_command",\n  "args": {"command": "make kiln"}\n}\n```'
            '**Tool Command**:\n```json\n{\n  "id": "call_b",\n'
            '  "name": "run_shell_command",\n  "args": {"command": "make glaze"}\n}\n```\n\n'
            '**Tool Response**:\n```json\n{"id": "call_b", "name": "run_shell_command", "response": {"output": '
            '"Output: glaze built\\nExit Code: 0"}}\n```\n\n'
            '**Tool Response**:\n```json\n{"id": "call_a", "name": "run_shell_command", "response": {"output": '
            '"Output: make: *** No rule to make target \'kiln\'.  Stop.\\nExit Code: 2"}}\n```\n'
            'There is no kiln target.')
    parts = read_turn(text)
    assert _calls(text) == [("run", "make kiln"), ("run", "make glaze")]
    assert parts.calls[0].output == ["Exit code 2", "make: *** No rule to make target 'kiln'.  Stop."]
    assert parts.calls[1].output == ["glaze built"]
    assert " ".join(parts.prose.split()) == "Let me build both targets. There is no kiln target."
