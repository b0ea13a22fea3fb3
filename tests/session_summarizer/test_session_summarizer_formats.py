"""Tool calls read from the exports of agents beyond the first five: each format's own marks, as typed calls.

Every case is invented in the shape the agent's export prints (Antigravity/Windsurf step lines, OpenCode's
`/export`, …), with projects and words of its own, so a rule that only fits one real session fails here.
"""

from session_summarizer.sections import call_errors
from session_summarizer.transcript import read_turn


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
    assert _calls(CLINE_TURN) == [("edit", "api/schema.sql"), ("run", "npm test"), ("failed", "rm -rf node_modules")]
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
