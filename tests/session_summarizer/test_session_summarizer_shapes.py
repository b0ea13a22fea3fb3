"""Each transcript shape read as what it is: tool calls, edit records, output, thinking, asks."""

import time

from hypothesis import given, settings
from hypothesis import strategies as st
from session_summarizer.local_summary import ask_text, summarize
from session_summarizer.session import parse_session
from session_summarizer.transcript import read_turn, unwrap_shell
from session_summarizer_fixtures import commit_now, make_repo

CLAUDE = """⏺ Read(src/app.py)
  ⎿  Read 40 lines (ctrl+r to expand)

⏺ Update(src/app.py)
  ⎿  Updated src/app.py with 2 additions and 1 removal
       10 -  return x
       10 +  # Enforce the limit because callers pass untrusted sizes
       11 +  return min(x, LIMIT)

⏺ Bash(pytest -q tests/test_app.py)
  ⎿  Error: FAILED tests/test_app.py::test_limit - AssertionError: 5 != 4

⏺ Update Todos
  ⎿  ☒ Cap the size
     ☐ Decide on the default limit

⏺ The limit check works; the failing test expects the old default, so
  it needs a decision from you."""

CODEX = """• Ran pwsh.exe -NoProfile -Command "npm run build"
  └ > app@1.0.0 build
    > tsc -p .
    src/a.ts(3,1): error TS2304: Cannot find name 'x'.

• Edited src/a.ts (+1 -1)
    3 -  x
    3 +  const x = 1

• Explored
  └ Read package.json, tsconfig.json

• I fixed the missing declaration in src/a.ts, and the build now
  passes."""

AIDER = """I'll add the flag.

> Applied edit to cli.py
> Commit 1a2b3c4 aider: Added --dry-run flag to the CLI.
> Commit 5d6e7f8 style: Ran the linter.
> Add the output to the chat? (Y)es/(N)o [Yes]: y
> Removed: 9f9f9f9 aider: Something undone"""

SPECSTORY = """<think>
Maybe I should rewrite the whole module? No, the user asked for a small fix.
</think>

Read file: src/login.ts

<details>
            <summary>Searched codebase "login" • **2** results</summary>
| File |
|------|
| `src/other.ts` |
</details>

```bash
npm test
```

```
Tests: 3 passed
```

已修改 src/login.ts，修复了空指针。"""


def test_claude_code_tool_calls_records_output_and_todos():
    parts = read_turn(CLAUDE)
    assert parts.commands == ["pytest -q tests/test_app.py"]
    assert parts.edited == ["src/app.py"] and parts.read == ["src/app.py"]
    assert parts.records == ["Updated src/app.py with 2 additions and 1 removal"]
    assert "Error: FAILED tests/test_app.py::test_limit - AssertionError: 5 != 4" in parts.output
    # Diff lines and the todo list are neither prose nor output.
    assert "Enforce" not in parts.prose + " ".join(parts.output)
    assert "Decide on the default limit" not in parts.prose + " ".join(parts.output)
    assert "the failing test expects the old default, so it needs a decision from you." in parts.prose


def test_claude_code_thinking_is_not_prose():
    parts = read_turn("✻ Thinking…\n\n  Maybe I should drop the table because it is simpler.\n\n"
                      "⏺ I'll add a column instead, because dropping the table loses data.")
    assert "drop the table because it is simpler" not in parts.prose
    assert "I'll add a column instead, because dropping the table loses data." in parts.prose


def test_codex_ran_edited_explored_and_wrapped_prose():
    parts = read_turn(CODEX)
    assert parts.commands == ["npm run build"]
    assert parts.edited == ["src/a.ts"] and parts.records == ["Edited src/a.ts (+1 -1)"]
    assert parts.read == ["package.json", "tsconfig.json"]
    assert "src/a.ts(3,1): error TS2304: Cannot find name 'x'." in parts.output
    assert "I fixed the missing declaration in src/a.ts, and the build now passes." in parts.prose


def test_aider_edit_records_commits_prompts_and_undo():
    parts = read_turn(AIDER)
    assert parts.edited == ["cli.py"]
    assert parts.records == ["Added --dry-run flag to the CLI."]  # style commits say nothing about the work
    assert parts.undone == ["9f9f9f9"]
    assert parts.prose.strip() == "I'll add the flag."  # the y/n prompt is tool output, never a question


def test_specstory_thinking_searches_and_run_blocks():
    parts = read_turn(SPECSTORY)
    assert "rewrite the whole module" not in parts.prose
    assert "src/other.ts" not in parts.prose
    assert parts.read == ["src/login.ts"]
    # A bash block followed at once by a plain block is a command that ran, with what it printed.
    assert parts.commands == ["npm test"]
    assert [call.output for call in parts.calls if call.kind == "run"] == [["Tests: 3 passed"]]
    assert "已修改 src/login.ts，修复了空指针。" in parts.prose


def test_code_that_was_shown_is_not_a_command_run():
    shown = read_turn("1. Install it if you haven't already:\n\n```\npip install requests\n```\n\n"
                      "To check the secret:\n```bash\necho $NPM_TOKEN\n```\n"
                      "You can also install it using `pip install matplotlib`.")
    assert shown.ran_blocks == []
    session = parse_session({"turns": [{"role": "user", "text": "Set it up."},
                                       {"role": "assistant", "text": "You can also install it using "
                                                                     "`pip install matplotlib`. I ran `make test` "
                                                                     "afterwards."}]})
    assert summarize(session, file_checker=lambda p, c: []).commands.items == ["make test"]


def test_shell_wrappers_are_unwrapped():
    assert unwrap_shell('pwsh.exe -NoProfile -Command "git status --short"') == "git status --short"
    assert unwrap_shell("bash -lc 'cargo test -p core'") == "cargo test -p core"
    assert unwrap_shell("npm test") == "npm test"


def test_asks_that_are_not_the_goal():
    assert ask_text("/agent") == "" and ask_text("/undo") == "" and ask_text("/run pytest") == ""
    assert ask_text("/ask why does it fail?") == "why does it fail?"
    assert ask_text("────────────") == "" and ask_text("continue") == "" and ask_text("继续") == ""
    compacted = ("This session is being continued from a previous conversation that ran out of context.\n"
                 "Summary:\n1. Primary Request and Intent:\n   Make the importer skip blank rows.\n"
                 "2. Key Technical Concepts:\n   - csv")
    assert ask_text(compacted) == "Make the importer skip blank rows."
    assert ask_text("This session is being continued from a previous conversation.\nNo summary here.") == ""
    # What Claude Code, Codex and aider write into the user's turns themselves.
    assert ask_text("<command-name>/clear</command-name>\n<command-message>clear</command-message>\n"
                    "<command-args></command-args>") == ""
    assert ask_text("<command-name>/ask</command-name><command-args>why is it slow?</command-args>") == (
        "why is it slow?")
    assert ask_text("<local-command-stdout>(no content)</local-command-stdout>") == ""
    assert ask_text("Caveat: The messages below were generated by the user while running local commands.") == ""
    assert ask_text("[Request interrupted by user for tool use]") == ""
    assert ask_text("<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>") == ""
    assert ask_text("<system-reminder>be brief</system-reminder>\nAdd a --json flag.") == "Add a --json flag."
    assert ask_text("# Fix any errors below, if possible.\n\n## Running: ./lint.sh a.py") == ""
    assert ask_text("     1→import os\n     2→print(1)") == ""
    assert ask_text("<tool_use_error>File has not been read yet.</tool_use_error>") == ""


def test_only_read_files_are_listed_as_read_even_when_committed_recently(tmp_path):
    repo = make_repo(tmp_path / "r", {"src/a.py": "a\n", "docs/guide.md": "g\n"})
    (repo / "docs/guide.md").write_text("g2\n", encoding="utf-8")
    commit_now(repo, ["docs/guide.md"], "someone else's docs change")  # recent, but not this session's
    (repo / "src/a.py").write_text("b\n", encoding="utf-8")
    session = parse_session({"cwd": str(repo), "turns": [
        {"role": "user", "text": "Fix a.py"},
        {"role": "assistant", "text": "⏺ Read(docs/guide.md)\n  ⎿  Read 3 lines\n\n⏺ Update(src/a.py)\n"
                                      "  ⎿  Updated src/a.py with 1 addition"}]})
    states = {check.path: check.state for check in summarize(session).files}
    assert states == {"src/a.py": "changed", "docs/guide.md": "read"}


def test_a_commit_older_than_the_session_start_is_not_the_sessions(tmp_path):
    repo = make_repo(tmp_path / "r", {"a.py": "a\n", "b.py": "b\n"})
    # a.py stays as committed in 2020; b.py is committed now.
    (repo / "b.py").write_text("b2\n", encoding="utf-8")
    commit_now(repo, ["b.py"], "b now")
    turns = [{"role": "user", "text": "Look at a.py and b.py"}, {"role": "assistant", "text": "Updated b.py."}]
    before = summarize(parse_session({"cwd": str(repo), "turns": turns, "startedAt": time.time() - 3600}))
    assert {c.path: c.state for c in before.files} == {"a.py": "exists", "b.py": "committed"}
    after = summarize(parse_session({"cwd": str(repo), "turns": turns, "startedAt": time.time() + 3600}))
    assert {c.path: c.state for c in after.files} == {"a.py": "exists", "b.py": "exists"}


def test_a_wrapped_edit_record_and_checkmarked_reports():
    parts = read_turn("⏺ Update(docs/guide.md)\n  ⎿  Updated docs/guide.md with 176 additions and 3\n     removals\n"
                      "         1 -  old line\n\n⏺ Done. Summary of Changes\n\n  ✅ Cleaned Up\n\n"
                      "  ✅ Removed add-links.md (orphaned file)")
    assert parts.records == ["Updated docs/guide.md with 176 additions and 3 removals"]
    session = parse_session({"turns": [{"role": "user", "text": "Tidy the docs."},
                                       {"role": "assistant", "text": "⏺ Done.\n\n  ✅ Cleaned Up\n\n"
                                                                     "  ✅ Removed add-links.md (orphaned file)"}]})
    assert summarize(session, file_checker=lambda p, c: []).done.items == ["Removed add-links.md (orphaned file)"]


def test_tool_prompts_and_npm_banners_are_neither_questions_nor_commands():
    session = parse_session({"turns": [
        {"role": "user", "text": "Upgrade the build."},
        {"role": "assistant", "text": "```\nnpm notice New major version of npm available\nnpm WARN deprecated x@1\n"
                                      "npm run build\n```\n\n| Name | Why? |\n|---|---|\n\n"
                                      "Do you want to make this edit to package.json?\n❯ 1. Yes\n  2. No\n\n"
                                      "Should I also bump the lockfile?"}]})
    summary = summarize(session, file_checker=lambda p, c: [])
    assert summary.commands.items == ["npm run build"]
    assert summary.questions.items == ["Should I also bump the lockfile?"]


def test_a_refused_edit_or_command_is_not_claimed():
    parts = read_turn("⏺ Update(src/a.py)\n  ⎿  User rejected update to src/a.py\n\n"
                      "⏺ Update(src/b.py)\n  ⎿  Error: String to replace not found in file.\n\n"
                      "⏺ Bash(rm -rf build)\n  ⎿  Interrupted by user\n\n"
                      "⏺ Bash(make test)\n  ⎿  Error: make: *** [test] Error 2\n\n"
                      "⏺ Update(src/c.py)\n  ⎿  Updated src/c.py with 1 addition")
    assert parts.edited == ["src/c.py"]
    assert parts.commands == ["make test"]  # it ran, and failed
    assert parts.records == ["Updated src/c.py with 1 addition"]


def test_tool_calls_printed_as_json_input():
    parts = read_turn('Let me look.\n\n🔧 Using tool: Bash\nInput: {\n  "command": "ls -la docs/",\n'
                      '  "description": "because it lists the folder"\n}\n\n🔧 Using tool: Read\nInput: {\n'
                      '  "file_path": "/repo/docs/ASSIGNMENT.md"\n}\n\n🔧 Tool: edit_file\n'
                      '   Args: {"path": "README.md", "content": "x {y}"}\n\n'
                      '🔧 Tool: shell\nArgs: {"command": ["bash", "-lc", "cargo test"]}\n\nDone.')
    assert parts.commands == ["ls -la docs/", "cargo test"]
    assert parts.read == ["/repo/docs/ASSIGNMENT.md"] and parts.edited == ["README.md"]
    assert "because it lists" not in parts.prose and "Let me look." in parts.prose and "Done." in parts.prose


def test_a_recent_commit_of_a_file_only_talked_about_is_not_claimed(tmp_path):
    repo = make_repo(tmp_path / "r", {"notes.md": "a\n", "app.py": "a\n"})
    (repo / "notes.md").write_text("b\n", encoding="utf-8")
    (repo / "app.py").write_text("b\n", encoding="utf-8")
    commit_now(repo, ["notes.md", "app.py"], "someone's commit this morning")
    session = parse_session({"cwd": str(repo), "turns": [
        {"role": "user", "text": "Should we keep notes.md?"},
        {"role": "assistant", "text": "Yes, notes.md is fine as it is. I also updated app.py to log less."}]})
    assert {c.path: c.state for c in summarize(session).files} == {"notes.md": "exists", "app.py": "committed"}


MARKS = ["⏺ ", "⎿ ", "• Ran ", "• Edited ", "└ ", "> ", "Read file: ", "```", "```bash\n", "<think>", "</think>",
         "<details>", "Commit abc1234 ", "Applied edit to ", "🔧 Using tool: Bash\nInput: {", "}", "\n", "  ",
         "/run ", "☐ ", "12 + ", "Update(", ")", "Bash(", "Error: ", "?", "。", "已修改 "]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(MARKS) | st.text(max_size=12), max_size=30), min_size=1, max_size=8))
def test_any_mix_of_shapes_is_read_without_failing(pieces):
    turns = [{"role": "user" if index % 2 == 0 else "assistant", "text": "".join(parts)}
             for index, parts in enumerate(pieces)]
    for turn in turns:
        read_turn(turn["text"])
    summary = summarize(parse_session({"turns": turns}), file_checker=lambda paths, cwd: [])
    assert summary.markdown.startswith("# ")


def test_a_prompt_after_a_tool_commands_result_in_a_terminal_copy_is_the_ask():
    # Claude Code's screen: a local command, its "⎿" result, then the next prompt, all in one user turn.
    turn = "/clear                                   \n⎿ \xa0(no content)\n\nWhat should I test on the platform first?"
    assert ask_text(turn) == "What should I test on the platform first?"
    assert ask_text("/clear\n⎿ \xa0(no content)") == ""
    # Without the result marker the lines after a command are its own output (aider's /add), not an ask.
    assert ask_text("/add app.py\nAdded app.py to the chat\n\nnow fix it") == ""
