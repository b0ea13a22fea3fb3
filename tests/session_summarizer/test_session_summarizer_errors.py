"""The "Errors hit" section on held-out-style cases: errors that tool output printed (each distinct one,
by its telling line), tool errors of any call kind, refusals, and errors the user pasted under a
lead-in line. The cases are invented, in several agents' shapes and languages.
"""

from session_summarizer.local_summary import summarize
from session_summarizer.sections import call_errors
from session_summarizer.session import parse_session
from session_summarizer.transcript import read_turn
from session_summarizer.worktree import check_files


def _summary(turns):
    raw = {"agent": "agent", "cwd": "", "turns": [{"role": role, "text": text} for role, text in turns]}
    return summarize(parse_session(raw), file_checker=lambda paths, folder: check_files(paths, ""))


# ------------------------------------------------------------------------------ what one run printed

GEMINI_TEST_RUN = """╭──────────────────────────────────────────────────────────────╮
│ ✓  Shell npx jest tests/api                                  │
│                                                              │
│  FAIL  tests/api/orders.test.ts                              │
│ stderr | tests/api/orders.test.ts > creates an order          │
│ [queue] consume error ReplyError: WRONGTYPE Operation against │
│ TypeError: Cannot read properties of undefined (reading 'id') │
│    12|   expect(order.id).toBe(3)                            │
│        |                ^                                    │
│ Error: Timeout - Async callback was not invoked within 5000ms │
│  Tests  3 failed | 9 passed (12)                             │
╰──────────────────────────────────────────────────────────────╯
✦ Three tests fail; I'll look at the order fixture first."""


def test_a_run_that_fails_on_several_errors_gives_each_distinct_one():
    lines = [hit.line for hit in call_errors([read_turn(GEMINI_TEST_RUN)])]
    assert "TypeError: Cannot read properties of undefined (reading 'id')" in lines
    assert "Error: Timeout - Async callback was not invoked within 5000ms" in lines
    assert not any(line.startswith(("FAIL", "stderr", "12|")) for line in lines)  # where, not what


def test_one_error_told_in_several_lines_is_one_error():
    text = ("• Ran git push origin feature/login\n"
            "  └ To github.com:kim/shop.git\n"
            "     ! [rejected]        feature/login -> feature/login (fetch first)\n"
            "    error: failed to push some refs to 'github.com:kim/shop.git'\n"
            "    hint: Updates were rejected because the remote contains work that you do not have")
    assert [hit.line for hit in call_errors([read_turn(text)])] == [
        "! [rejected]        feature/login -> feature/login (fetch first)"]


def test_a_bare_error_message_beats_the_line_that_only_says_a_file_failed():
    text = ("⏺ Bash(pnpm vitest run)\n"
            "  ⎿  FAIL  src/cart.test.ts [ src/cart.test.ts ]\n"
            "     Error: STRIPE_KEY must be set before the client is created\n"
            "      ❯ src/payments.ts:4:9")
    assert [hit.line for hit in call_errors([read_turn(text)])] == [
        "Error: STRIPE_KEY must be set before the client is created"]


# ------------------------------------------------------------------------------ tool errors, refusals

SPECSTORY_TOOL_ERRORS = """_**Agent (claude-sonnet-4 2026-03-02 10:12:00Z)**_

<tool-use data-tool-type="read" data-tool-name="Read"><details>
<summary>Tool use: **Read**</summary>
 `./src/billing/invoice.py`

```text
<tool_use_error>File does not exist.</tool_use_error>
```
</details></tool-use>

<tool-use data-tool-type="write" data-tool-name="Edit"><details>
<summary>Tool use: **Edit**</summary>

```text
<tool_use_error>String to replace not found in file.
String:     total = sum(lines)</tool_use_error>
```
</details></tool-use>
"""


def test_a_tool_error_of_a_read_or_an_edit_is_an_error_and_the_path_was_not_read():
    parts = read_turn(SPECSTORY_TOOL_ERRORS)
    assert "./src/billing/invoice.py" not in parts.read
    lines = [hit.line for hit in call_errors([parts])]
    assert lines == ["Error: File does not exist.", "Error: String to replace not found in file."]
    summary = _summary([("user", "Fix the invoice totals."), ("assistant", SPECSTORY_TOOL_ERRORS)])
    assert any("File does not exist" in item and "invoice.py" in item for item in summary.errors.items)


def test_a_rejected_call_is_a_refusal_on_one_line_not_an_error_fixed_later():
    rejected = ("⏺ Update(config/deploy.yml)\n"
                "  ⎿  User rejected update to config/deploy.yml\n")
    retried = "⏺ Update(config/deploy.yml)\n  ⎿  Updated config/deploy.yml with 2 additions\n"
    summary = _summary([("user", "デプロイ設定を直して"), ("assistant", rejected), ("assistant", retried)])
    assert summary.errors.items == ["User rejected update to config/deploy.yml; 拒否され実行されず"]
    specstory = ("<tool-use data-tool-type=\"shell\" data-tool-name=\"Bash\"><details>\n"
                 "<summary>Tool use: **Bash**</summary>\n\n`git push --force`\n\n```text\n"
                 "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a "
                 "file edit, the new_string was NOT written to the file). STOP what you are doing.\n```\n"
                 "</details></tool-use>")
    summary = _summary([("user", "Push it."), ("assistant", specstory)])
    assert summary.errors.items == [
        "The user doesn't want to proceed with this tool use. — `git push --force`; refused, not run"]


def test_an_mcp_calls_parameters_are_not_its_output():
    text = """<tool-use data-tool-type="unknown" data-tool-name="mcp_gitlab_create_commit">
<details>
<summary>Tool use: **mcp_gitlab_create_commit**</summary>

Parameters:

```json
{"project": "kim/shop", "message": "Add the checkout page", "branch": "main"}
```
Result:

```json
{"result": "{\\"error\\":\\"MCP error -32602: branch main is protected\\"}"}
```
</details>
</tool-use>"""
    assert [hit.line for hit in call_errors([read_turn(text)])] == ["MCP error -32602: branch main is protected"]


# ------------------------------------------------------------------------------ pasted by the user

def test_the_block_under_a_lead_in_is_the_error_and_the_lead_in_is_not():
    turns = [("user", "Fix the sidebar."), ("assistant", "I added the sidebar."),
             ("user", "For the code present, we get this error:\n```\n"
                      "属性“collapsed”在类型“SidebarProps”上不存在。\n```\nHow can I resolve this?"),
             ("assistant", "在 `SidebarProps` 中添加 `collapsed`。"),
             ("user", "빌드하면 이런 오류가 납니다:\n\n<<<<<<< Updated upstream\n```\n"
                      "Module not found: Can't resolve '@/lib/icons'\n```\n"),
             ("assistant", "`@/lib/icons` 파일을 만들었습니다.")]
    errors = _summary(turns).errors.items
    assert "属性“collapsed”在类型“SidebarProps”上不存在。" in errors
    assert "Module not found: Can't resolve '@/lib/icons'" in errors
    assert not any("we get this error" in item or "오류가 납니다" in item for item in errors)


def test_a_conflict_marker_spread_by_a_formatter_is_not_tool_output():
    text = ("> > > > > > > Stashed changes\n"
            "> > > > > > > 这个错误是因为类型定义缺少属性。我们来修改接口：\n\n```ts\ninterface A { b: string }\n```")
    parts = read_turn(text)
    assert parts.output == [] and "这个错误是因为类型定义缺少属性" in parts.prose


# ------------------------------------------------------------------------------ long agent runs

def test_an_error_in_the_cut_middle_of_a_long_run_is_still_seen():
    filler = "".join(f"• Ran cat notes/{index}.txt\n  └ line {index} of the notes, nothing wrong here\n\n"
                     f"• I'm reading note {index}; the wrapped line of my prose below names an error\n"
                     f"  that Failed: only as a word in my prose.\n\n"
                     for index in range(400))
    middle = ("• Ran pnpm prisma migrate deploy\n"
              "  └ Error: P1001: Can't reach database server at `localhost:5432`\n\n")
    run = filler + middle + filler
    assert len(run) > 40_000
    summary = _summary([("user", "Ponle migraciones a la base de datos."), ("assistant", run)])
    assert any("P1001" in item and "prisma migrate deploy" in item for item in summary.errors.items)
    assert not any("only as a word" in item for item in summary.errors.items)  # prose is not put back


def test_a_test_diff_in_a_gemini_box_is_output_not_a_tool_call():
    text = ("╭──────────────────────────────────────────╮\n"
            "│ ✓  Shell npx vitest run                  │\n"
            "│                                          │\n"
            "│ AssertionError: expected 2 to be 3       │\n"
            "│                                          │\n"
            "│ - Expected                               │\n"
            "│ + Received                               │\n"
            "╰──────────────────────────────────────────╯")
    parts = read_turn(text)
    assert [(call.kind, call.text) for call in parts.calls] == [("run", "npx vitest run")]
    assert [hit.line for hit in call_errors([parts])] == ["AssertionError: expected 2 to be 3"]


# ------------------------------------------------------------------------------ tallies, file dumps, the host

def test_a_failure_tally_is_an_error_after_what_failed_in_output_and_in_prose():
    run = ("⏺ Bash(python -m pytest -q)\n"
           "  ⎿  FAILED tests/test_money.py::test_round - AssertionError: assert 0.3 == 0.30000000000000004\n"
           "     2 failed, 48 passed in 1.92s")
    assert [hit.line for hit in call_errors([read_turn(run)])] == [
        "FAILED tests/test_money.py::test_round - AssertionError: assert 0.3 == 0.30000000000000004",
        "2 failed, 48 passed in 1.92s"]
    summary = _summary([("user", "全部のテストを流して"),
                        ("assistant", "Here is where it stands: **48 passed, 2 failed** across the suite."),
                        ("assistant", "테스트 결과: 3개 실패, 나머지는 통과했습니다.")])
    assert any("48 passed, 2 failed" in item for item in summary.errors.items)
    assert any("3개 실패" in item for item in summary.errors.items)
    clean = _summary([("user", "Run the tests."), ("assistant", "All 50 passed, 0 failed.")])
    assert clean.errors.items == []


def test_an_error_word_inside_a_printed_file_is_the_files_text():
    text = ("• Ran cat docs/requirements.md | head -40\n"
            "  └ # 要件\n"
            "    - エラー発生時はSentryに送る\n"
            "    - TypeError: の扱いは未定\n\n"
            "• Ran cat docs/missing.md\n"
            "  └ cat: docs/missing.md: No such file or directory")
    assert [hit.line for hit in call_errors([read_turn(text)])] == [
        "cat: docs/missing.md: No such file or directory"]


def test_the_agents_host_failing_is_an_error():
    turns = [("user", "Sigue con la migración."),
             ("assistant", "✦ Continuing with the schema changes.\n✕ [API Error: request to the model timed out]")]
    assert any("API Error" in item for item in _summary(turns).errors.items)


def test_code_under_a_lead_in_is_code_and_a_failed_search_is_not_left_open():
    turns = [("user", "Add the test. It should expect an error:\n```typescript\n"
                      "test('rejects late events', () => {})\n```"),
             ("assistant", "".join(f"⏺ Update(tests/stream{index}.test.ts)\n  ⎿  Updated tests/stream{index}.test.ts "
                                   "with 4 additions\n\n" for index in range(3))
                           + "⏺ Bash(rg -n \"lateEvents\" src/stream)\n"
                           "  ⎿  rg: src/stream: No such file or directory (os error 2)")]
    summary = _summary(turns)
    assert not any("rejects late events" in item for item in summary.errors.items)
    assert any("rg: src/stream" in item and "still open" not in item for item in summary.errors.items)
    assert not any("rg: src/stream" in item for item in summary.next_steps.items)


def test_a_users_one_line_paste_and_a_remotes_refusal_are_errors_but_a_users_ask_is_not():
    push = ("⏺ Bash(git push origin main)\n"
            "  ⎿  remote: error: GH013: Repository rule violations found for refs/heads/main.\n"
            "     error: failed to push some refs to 'github.com:lena/notes.git'")
    turns = [("user", "npm ERR! Missing script: \"start\""), ("assistant", push),
             ("user", "以下のエラーが出るので原因を解析して修正してください。"),
             ("assistant", "`package.json` に start を追加しました。")]
    errors = _summary(turns).errors.items
    assert 'npm ERR! Missing script: "start"' in errors
    assert any(item.startswith("remote: error: GH013") for item in errors)
    assert not any("failed to push some refs" in item or "解析して" in item for item in errors)


def test_a_builds_positioned_diagnostic_is_an_error_and_a_searchs_match_is_not():
    build = ("• Ran go build ./...\n"
             "  └ # example.com/shop/cart\n"
             "    cart/total.go:41:9: undefined: roundCents\n\n"
             "• Ran rg --vimgrep \"roundCents\" cart\n"
             "  └ cart/total.go:41:9: return roundCents(sum)")
    assert [(hit.source, hit.line) for hit in call_errors([read_turn(build)])] == [
        ("go build ./...", "cart/total.go:41:9: undefined: roundCents")]


def test_documentation_and_shown_code_are_not_errors():
    turns = [("user", "Document the loader."),
             ("assistant", "```\nRaises:\n    ValueError: If the manifest is empty\n"
                           "    KeyError: when a field is missing\n```\nThe old handler reads:\n\n"
                           "  88   throw new Error(`Upload failed with status ${res.status}`)\n\n"
                           "Writing it: {\"content\": \"def load():\\n    raise TypeError: bad\\n\"}"),
             ("assistant", "```\nTypeError: load() missing 1 required positional argument: 'path'\n```")]
    errors = _summary(turns).errors.items
    assert errors == ["TypeError: load() missing 1 required positional argument: 'path'"]


def test_a_logged_error_with_its_type_is_an_error_once_whatever_ids_it_names():
    run = ("⏺ Bash(npm test)\n"
           "  ⎿  [worker] claim error ReplyError: NOGROUP No such key 'jobs:5f2c9a1e-77b0-4c1e-9d2a-0b6e1f3c8d41'\n"
           "     [worker] claim error ReplyError: NOGROUP No such key 'jobs:a9e31b07-2c4d-4f6a-8e19-7d5c0b2a6f38'\n"
           "     2024-05-01 10:00:00 - api.client - ERROR - Network error: [SSL: CERTIFICATE_VERIFY_FAILED] failed")
    lines = [hit.line for hit in call_errors([read_turn(run)])]
    assert len(lines) == 2 and lines[0].startswith("[worker] claim error ReplyError: NOGROUP")
    assert "CERTIFICATE_VERIFY_FAILED" in lines[1]


def test_a_long_terminal_log_the_user_pastes_is_output_not_a_brief():
    log = "\n".join(f"[web] compiled module {second} of 90 in 12 ms, watching the source folder for changes"
                    for second in range(60))
    log += ("\n[db] failed to inspect service: Cannot connect to the Docker daemon at unix:///var/run/docker.sock\n"
            "[db] npm run dev:db exited with code 1\n"
            "[web] Error: Failed to start the dev proxy, see the error details below:\n"
            "[web] npm error Lifecycle script `dev` failed with error:\n")
    assert len(log) > 2500
    turns = [("user", "Start the dev stack."), ("assistant", "Run `npm run dev` and paste what it prints."),
             ("user", log)]
    errors = _summary(turns).errors.items
    assert any("Cannot connect to the Docker daemon" in item for item in errors)
    assert not any("Lifecycle script" in item for item in errors)  # an echo of the failure above it


def test_a_linters_count_a_terminal_paste_and_an_exported_tool_failure_are_errors():
    paste = ("kim@devbox:~/shop$ npx eslint src\n" + "".join(
        f"src/page{index}.tsx\n  {index}:1  error  'x' is assigned a value but never used  no-unused-vars\n"
        for index in range(120)) + "\n✖ 120 problems (120 errors, 0 warnings)\n")
    assert len(paste) > 2500
    reply = ("Let me write the config.\n\n---\n\nUnable to write file '/home/kim/shop/.eslintrc.json' "
             "(Error: EACCES: permission denied)\n\n---\n\nI'll fix the permissions first.")
    errors = _summary([("user", "Fix the lint."), ("assistant", reply), ("user", paste)]).errors.items
    assert any("120 problems" in item for item in errors)
    assert any(item.startswith("Unable to write file") for item in errors)
    warnings_only = "• Ran npx eslint src\n  └ ✖ 4 problems (0 errors, 4 warnings)"
    assert call_errors([read_turn(warnings_only)]) == []


def test_a_users_sentence_that_names_an_exception_is_not_pasted_output():
    turns = [("user", "Lütfen pass veya NotImplementedError bırakma. Kural: ValueError fırlatan yerleri düzelt."),
             ("assistant", "Tamam, hepsini uyguladım.")]
    assert _summary(turns).errors.items == []


def test_a_gemini_call_marked_failed_is_an_error_with_its_file():
    text = ("╭──────────────────────────────────────────────────────────────╮\n"
            "│ x  ReadFile {\"absolute_path\":\"/srv/app/src/routes/users.ts\"}  │\n"
            "│                                                              │\n"
            "│ File not found: /srv/app/src/routes/users.ts                 │\n"
            "╰──────────────────────────────────────────────────────────────╯\n"
            "╭──────────────────────────────────────────────────────────────╮\n"
            "│ ✓  Shell ./gradlew build                                     │\n"
            "│                                                              │\n"
            "│ Error: ============================                          │\n"
            "│ error: cannot find symbol: class OrderRepository             │\n"
            "╰──────────────────────────────────────────────────────────────╯")
    parts = read_turn(text)
    assert "/srv/app/src/routes/users.ts" not in parts.read
    hits = call_errors([parts])
    assert (hits[0].source, hits[0].line) == ("/srv/app/src/routes/users.ts",
                                              "Error: File not found: /srv/app/src/routes/users.ts")
    # Claude Code's and Gemini's "Error:" before a cut output says only that it failed; a named error wins.
    assert [hit.line for hit in hits[1:]] == ["error: cannot find symbol: class OrderRepository"]
