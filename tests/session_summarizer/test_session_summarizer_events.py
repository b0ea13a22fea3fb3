"""Each agent's transcript read into typed calls, and each section rule, on held-out-style cases.

The cases are written here in the shapes the agents print (SpecStory for Cursor and Claude Code,
Cline, Copilot's chat copy, Gemini CLI, Codex, Claude Code, aider), with other projects and words
than the corpus sessions, so a rule that only matches one transcript's wording fails here.
"""

from session_summarizer.command_list import pick as pick_steps
from session_summarizer.local_summary import LIMITS, count_words, summarize
from session_summarizer.sections import call_errors, clean_command, is_decision, is_id_only
from session_summarizer.session import parse_session
from session_summarizer.transcript import read_turn
from session_summarizer.worktree import check_files


def _summary(turns, cwd=""):
    raw = {"agent": "claude", "cwd": cwd, "turns": [{"role": role, "text": text} for role, text in turns]}
    return summarize(parse_session(raw), file_checker=lambda paths, folder: check_files(paths, ""))


def _calls(text):
    return [(call.kind, call.text) for call in read_turn(text).calls]


# ------------------------------------------------------------------------------------------ formats

SPECSTORY_CLAUDE = """<tool-use data-tool-type="shell" data-tool-name="Bash"><details>
<summary>Tool use: **Bash**</summary>
Check the release config

`mkdocs build --strict`

```text
Exit code 1
INFO    -  Cleaning site directory
ERROR   -  Config value 'nav': page 'guide.md' does not exist
```
</details></tool-use>

<tool-use data-tool-type="write" data-tool-name="Edit"><details>
<summary>Tool use: **Edit**</summary>

```text
The file /home/ana/wiki/mkdocs.yml has been updated. Here's the result of running `cat -n`:
     3→nav:
```
</details></tool-use>"""

SPECSTORY_CURSOR = """<tool-use data-tool-type="shell" data-tool-name="run_terminal_cmd">
<details><summary>Tool use: **run_terminal_cmd** • Run command: cd /srv/shop && git push origin main</summary>

```bash
cd /srv/shop && git push origin main
```

```
To github.com:ana/shop.git
 ! [rejected]        main -> main (non-fast-forward)
error: failed to push some refs to 'github.com:ana/shop.git'
```
</details>
</tool-use>

<tool-use data-tool-type="mcp" data-tool-name="mcp_github_push_files">
<details>
          <summary>Tool use: **mcp_github_push_files**</summary>

```json
  "result": "{\\"error\\":\\"MCP error -32603: Not Found: branch does not exist\\"}"
```
</details>
</tool-use>"""

CLINE = """I'll install the dependency first.

<execute_command>
<command>pnpm add zod</command>
<requires_approval>false</requires_approval>
</execute_command>

<write_to_file>
<path>src/schema.ts</path>
<content>export {}</content>
</write_to_file>

<use_mcp_tool>
<server_name>github</server_name>
<tool_name>create_pull_request</tool_name>
<arguments>{}</arguments>
</use_mcp_tool>"""

COPILOT = """GitHub Copilot: I'll add the dependency and run the script.

Ran terminal command: uv add httpx

Read [](file:///c%3A/Users/kim/proj/fetcher.py#1-1), lines 1 to 40

Created [](file:///c%3A/Users/kim/proj/tests/test_fetcher.py)

Made changes.

Ran terminal command: uv run pytest -q"""

GEMINI = """╭──────────────────────────────────────────────────────────────╮
│ ✔  ReadFile src/server.ts                                    │
╰──────────────────────────────────────────────────────────────╯
╭──────────────────────────────────────────────────────────────╮
│ ✔  Shell npm run build (Build the server)                    │
│                                                              │
│    > server@1.0.0 build                                      │
│    src/server.ts(12,5): error TS2339: Property 'port' does    │
╰──────────────────────────────────────────────────────────────╯
✦ The build fails on a missing property; I'll add it to the config type."""

CODEX_MCP = """• Called github.push_files({"owner":"ana","repo":"shop","branch":"main"})
  └ Error: Resource not accessible by integration

• Ran git status --short
  └  M src/app.py"""

CLAUDE_MCP = """⏺ github - create_issue (MCP)(owner: "ana", repo: "shop", title: "Flaky test")
  ⎿  {"number": 12}

⏺ Bash(git commit -m "Fix the flaky clock test")
  ⎿  [main 1a2b3c4] Fix the flaky clock test"""


def test_specstory_claude_code_bash_and_edit_blocks():
    parts = read_turn(SPECSTORY_CLAUDE)
    assert _calls(SPECSTORY_CLAUDE) == [("run", "mkdocs build --strict"), ("edit", "/home/ana/wiki/mkdocs.yml")]
    hits = call_errors([parts])
    # "Exit code 1" only says that it failed; the line after it says what.
    assert [hit.line for hit in hits] == ["ERROR   -  Config value 'nav': page 'guide.md' does not exist"]


def test_specstory_cursor_run_and_mcp_blocks():
    parts = read_turn(SPECSTORY_CURSOR)
    assert _calls(SPECSTORY_CURSOR) == [("run", "cd /srv/shop && git push origin main"),
                                        ("external", "push_files (github)")]
    lines = [hit.line for hit in call_errors([parts])]
    assert lines[0] == "! [rejected]        main -> main (non-fast-forward)"
    assert lines[1] == "MCP error -32603: Not Found: branch does not exist"


def test_cline_tools_and_its_results_in_the_users_role():
    assert _calls(CLINE) == [("run", "pnpm add zod"), ("edit", "src/schema.ts"),
                             ("external", "create_pull_request (github)")]
    summary = _summary([("user", "Validate the signup form with zod."), ("assistant", CLINE),
                        ("user", "[execute_command for 'pnpm add zod'] Result:\nCommand executed.\nOutput:\n"
                                 "ERR_PNPM_NO_MATCHING_VERSION No matching version found for zod@99"),
                        ("assistant", "The install failed; I pinned zod to 3.23 instead.")])
    assert summary.later_asks.items == []  # a tool result is not an ask
    assert "pnpm add zod" in summary.commands.items and "create_pull_request (github)" in summary.commands.items


def test_copilot_chat_copy_lines():
    parts = read_turn(COPILOT)
    assert _calls(COPILOT) == [("run", "uv add httpx"), ("read", "c:/Users/kim/proj/fetcher.py"),
                               ("edit", "c:/Users/kim/proj/tests/test_fetcher.py"), ("run", "uv run pytest -q")]
    assert parts.made_changes == 1
    assert "Ran terminal command" not in parts.prose and "Made changes" not in parts.prose


def test_gemini_cli_boxes():
    parts = read_turn(GEMINI)
    assert _calls(GEMINI) == [("read", "src/server.ts"), ("run", "npm run build")]
    assert [hit.line for hit in call_errors([parts])] == ["src/server.ts(12,5): error TS2339: Property 'port' does"]
    assert parts.prose.strip().startswith("The build fails on a missing property")


def test_codex_and_claude_code_mcp_calls():
    assert _calls(CODEX_MCP) == [("external", "push_files (github)"), ("run", "git status --short")]
    assert [hit.line for hit in call_errors([read_turn(CODEX_MCP)])] == [
        "Error: Resource not accessible by integration"]
    assert _calls(CLAUDE_MCP) == [("external", "create_issue (github)"),
                                  ("run", 'git commit -m "Fix the flaky clock test"')]


def test_aider_run_output_belongs_to_the_run():
    text = ("> ## Running: ./lint.sh app.py\n>\n> flake8......Failed\n> - exit code: 1\n>\n"
            "> app.py:3:1: F401 'os' imported but unused\n")
    hits = call_errors([read_turn(text)])
    assert [hit.line for hit in hits] == ["app.py:3:1: F401 'os' imported but unused"]


# ------------------------------------------------------------------------------------------ sections

def test_an_error_is_fixed_when_the_same_step_later_passes_and_open_when_it_is_the_last_try():
    fail = ("⏺ Bash(cd web && npm run build)\n  ⎿  Error: Type error: Property 'title' does not exist on "
            "type 'Post'.")
    passed = "⏺ Bash(npm run build)\n  ⎿  ✓ Compiled successfully"
    push = ("⏺ Bash(git push)\n  ⎿  fatal: could not read Username for 'https://github.com': "
            "terminal prompts disabled")
    summary = _summary([("user", "Fix the build of the blog."), ("assistant", fail),
                        ("assistant", "⏺ Update(web/types.ts)\n  ⎿  Updated web/types.ts with 1 addition"),
                        ("assistant", passed), ("assistant", push)])
    errors = summary.errors.items
    assert any("Property 'title' does not exist" in item and item.endswith("fixed later") for item in errors)
    assert any("could not read Username" in item and item.endswith("still open at the end") for item in errors)
    assert any("could not read Username" in item for item in summary.next_steps.items)


def test_a_list_of_possible_causes_is_not_an_error():
    summary = _summary([("user", "Why does the upload hang?"),
                        ("assistant", "Possible causes:\n- The proxy might drop the connection (a TimeoutError "
                                      "would show up then).\n- The file could be larger than the limit.\n\n"
                                      "Could you share the server log?")])
    assert summary.errors.items == []
    assert summary.questions.items == ["Could you share the server log?"]


def test_commands_offered_to_the_user_are_not_listed_and_ids_never_are():
    offered = ("⏺ Bash(pytest -q)\n  ⎿  12 passed\n\nTo try the endpoint yourself:\n\n```bash\n"
               "curl -X POST localhost:8000/items -d '{\"name\": \"a\"}'\n```\n\nThen run "
               "`git rebase --continue` once the conflict is resolved.")
    summary = _summary([("user", "Add the items endpoint."), ("assistant", offered)])
    assert summary.commands.items == ["pytest -q"]
    ran = ["call_lfNPq81Zx0aBcDeF", "npm test call_9xYzAbCdEfGh12", "npm test"]
    kept, _ = pick_steps([clean_command(command) for command in ran if not is_id_only(command)], 10)
    assert kept == ["npm test"]


def test_decisions_are_a_choice_with_a_reason_or_an_alternative_in_four_languages():
    assert is_decision("We'll use SQLite instead of Postgres, since the app runs on one machine.")
    assert is_decision("I chose a fixed seed (42) so that every run of the simulation is reproducible.")
    assert is_decision("オフラインでも動くように、IndexedDB を採用することにしました。")
    assert is_decision("为了减少依赖，我们决定改用标准库的 json 模块，而不是 orjson。")
    assert is_decision("번들 크기를 줄이기 위해 moment 대신 date-fns를 사용하기로 결정했습니다.")
    assert not is_decision("Should I use SQLite instead of Postgres?")
    assert not is_decision("It might be faster to use a cache instead of recomputing.")
    assert not is_decision("I updated the README.")


def test_a_choice_and_its_reason_in_the_next_sentence_are_one_decision():
    reply = ("The log shows the cache directory is missing on CI.\n\n"
             "The simplest fix: vendor the `tzdata` package with the app. This keeps the build independent of "
             "whatever timezone files the runner image ships.\n\nI'll make that change now.")
    summary = _summary([("user", "The nightly build fails on timezone lookups."), ("assistant", reply)])
    assert any("vendor the `tzdata` package" in item and "This keeps the build independent" in item
               for item in summary.findings.items)
    ja = ("ビルドが Node 18 で失敗しています。\n\npnpm を使用します。これにより lockfile の差分が小さくなります。")
    zh = "构建在 Node 18 上失败。\n\n我们改用 pnpm。这样可以让锁文件的差异更小。"
    ko = "빌드가 Node 18에서 실패합니다.\n\npnpm을 사용하기로 했습니다. 이렇게 하면 lockfile 차이가 줄어듭니다."
    for reply, choice in ((ja, "pnpm を使用します"), (zh, "改用 pnpm"), (ko, "pnpm을 사용하기로")):
        summary = _summary([("user", "Fix the build."), ("assistant", reply)])
        assert any(choice in item and "pnpm" in item for item in summary.findings.items), summary.findings.items
    # Two unrelated sentences are not a decision; an offer followed by a reason is not one either.
    summary = _summary([("user", "Fix the build."),
                        ("assistant", "Should I use pnpm for this? It makes installs faster on CI.")])
    assert not any("pnpm" in item for item in summary.findings.items)


def test_an_order_of_preference_with_a_fallback_is_a_decision():
    assert is_decision("Read the proxy from HTTPS_PROXY first and only fall back to the system settings if "
                       "that is unset.")
    assert is_decision("まず環境変数のトークンを使い、失敗したら設定ファイルを読むようにしました。")
    assert is_decision("优先使用本地缓存，失败时回退到远程接口。")
    assert is_decision("먼저 로컬 캐시를 읽고, 실패하면 원격 API를 호출하도록 했습니다.")
    assert not is_decision("The request might fall back to HTTP first if TLS is unavailable.")


def test_the_option_the_user_picks_from_the_offered_ones_is_a_decision():
    offer = ("The import fails because the wheel is built for x86.\n\n"
             "**Option 1 — Pin numpy 1.26** so the existing wheel keeps working.\n\n"
             "**Option 2 — Build from source** with the ARM toolchain; slower CI, but current numpy.\n\n"
             "Which would you prefer?")
    summary = _summary([("user", "The import of numpy fails on the ARM runner."), ("assistant", offer),
                        ("user", "Let's go with option 2."), ("assistant", "Switching the CI job now.")])
    assert any("Option 2 — Build from source" in item for item in summary.findings.items), summary.findings.items
    assert not any("Option 1" in item for item in summary.findings.items)
    ja_offer = "対応案は2つあります。\n\n1. キャッシュを無効化する\n2. キャッシュのキーにバージョンを含める（推奨）"
    zh_offer = "有两个方案：\n\n方案一：关闭缓存\n方案二：在缓存键中加入版本号（推荐）"
    ko_offer = "두 가지 방법이 있습니다.\n\n1. 캐시를 끈다\n2. 캐시 키에 버전을 넣는다 (권장)"
    for ask, offer, pick, chosen in (("キャッシュを直して。", ja_offer, "2番でお願いします", "バージョンを含める"),
                                     ("请修复缓存的问题。", zh_offer, "用方案二吧", "加入版本号"),
                                     ("캐시 문제를 고쳐 주세요.", ko_offer, "2번으로 해주세요", "버전을 넣는다")):
        summary = _summary([("user", ask), ("assistant", offer), ("user", pick)])
        assert any(chosen in item and "1" not in item for item in summary.findings.items), (pick, summary.findings)
    # A pick with no options offered before it is not a decision.
    summary = _summary([("user", "Let's go with option 2."), ("assistant", "Done.")])
    assert not summary.findings.items


def test_the_user_turning_down_one_way_and_naming_the_other_is_a_decision():
    asks = ("we don't need to support the v1 config files, just convert them once on startup",
            "旧形式の設定ファイルは不要なので、起動時に一度だけ変換してください",
            "不需要兼容旧的配置文件，直接在启动时转换一次",
            "구버전 설정 파일은 필요 없고, 시작할 때 한 번 변환해 주세요")
    for ask in asks:
        summary = _summary([("user", "Load the settings from config.toml."),
                            ("assistant", "Loading the settings from config.toml now."), ("user", ask)])
        assert any(ask in item for item in summary.findings.items), (ask, summary.findings.items)
    # The assistant's advice of the same shape is not the user's choice; a user's question is not one either.
    summary = _summary([("user", "Load the settings from config.toml."),
                        ("assistant", "You don't need to restart, just reload the page."),
                        ("user", "Don't we need to keep the v1 files, and just convert them?")])
    assert not summary.findings.items


def test_a_verdict_on_a_review_point_with_its_reason_is_a_decision():
    assert is_decision("**Skip point 2** — the retry wrapper already covers timeouts, so a second one adds nothing")
    assert is_decision("- Keep the cron trigger: only the two manual upload steps change")
    assert is_decision("No migration needed — the column is new and nothing reads it yet")
    assert is_decision("- 見送り：既存のキャッシュ層で十分に対応できている")
    assert is_decision("2. 跳过：这部分已有集成测试覆盖")
    assert is_decision("- 보류: 레거시 설정 파일이 더 이상 없음")
    # A plan's status column or a label without a reason is no verdict.
    assert not is_decision("SKIP/REVIEW: No file operation.")
    assert not is_decision("Skip this step")


def test_the_option_marked_recommended_among_those_offered_is_a_decision():
    for line in ("### Option 2: Pin the wheel to 1.26 (recommended)", "方案二：在缓存键中加入版本号（推荐）",
                 "Método 1: Modificar a lista global (Recomendado)", "옵션 2: URL만 변경 (권장)",
                 "案2：キャッシュキーにバージョンを含める（推奨）"):
        assert is_decision(line), line
    assert not is_decision("Which of these options would you recommend (recommended by the docs)?")
    assert not is_decision("### Option 1: Pin the wheel to 1.26")


def test_reasons_and_choices_said_the_chinese_and_japanese_way():
    assert is_decision("出于隐私考虑，我们改为只读取当前标签页的 history.length。")
    assert is_decision("地図はクライアント側でのみ動作するため、動的インポートを使用")
    assert not is_decision("出于隐私考虑，浏览器不允许读取其他网站的记录。")


def test_a_plan_to_fix_what_was_just_diagnosed_is_a_decision():
    assert is_decision("To fix this, I plan to accept both spellings in validation and send the canonical one.")
    assert is_decision("To work around the rate limit, we plan to batch the requests in groups of ten.")
    assert not is_decision("To fix this, you might need to restart the server.")
    assert not is_decision("I plan to look into it.")


def test_an_alternative_named_after_a_comma_counts_only_next_to_a_choice():
    assert is_decision("I set the page size to 500 rows, not 5,000, deliberately: the grid freezes past that.")
    assert is_decision("Just use the built-in GITHUB_TOKEN - no need for a separate deploy token here.")
    # Alone, ", not Y" and "no need" state facts, not choices.
    assert not is_decision("The binary lives in tools/node_modules, not the repository root.")
    assert not is_decision("No need to resend your message, the queue still has it.")


def test_descriptions_of_a_bug_tool_advice_and_regrets_are_not_decisions():
    assert not is_decision("The worker is writing to the old queue instead of the new one after a restart.")
    assert not is_decision("The handler returns the cached page rather than the fresh one.")
    assert not is_decision("src/io.rs:12:5: clippy: use `write!` instead of `push_str(&format!(..))`")
    assert not is_decision("I should have asked you first instead of editing the fixtures.")
    assert is_decision("We now read the queue name from the config instead of hard-coding it.")


def test_strong_decisions_are_kept_over_a_crowd_of_contrasts():
    turns = [("user", "Speed up the report.")]
    for number in range(30):
        turns.append(("assistant", f"Step {number} uses a row loop instead of one pass."))
    turns.append(("assistant", "We'll use SQLite instead of Postgres, because the tool runs on one laptop."))
    summary = _summary(turns)
    assert any("SQLite" in item for item in summary.findings.items), summary.findings.items


def test_a_rule_the_user_lays_down_is_a_decision_but_a_briefs_musts_are_not():
    rules = ("the importer should never call the network; it must always read the local dump",
             "インポーターは必ずローカルのダンプを読むようにして、ネットワークには接続しないで",
             "导入器不要访问网络，只用本地的导出文件",
             "임포터는 네트워크를 쓰지 말고 항상 로컬 덤프를 읽게 해 주세요",
             "импортёр никогда не должен ходить в сеть, только локальный дамп")
    for rule in rules:
        summary = _summary([("user", "Write an importer for the orders dump."),
                            ("assistant", "I've written importer.py; it downloads the dump first."), ("user", rule)])
        assert any(rule in item for item in summary.findings.items), (rule, summary.findings.items)
    # A rule typed inside a fence (some users fence every ask) is still the user's words.
    summary = _summary([("user", "Write an importer."), ("assistant", "Done."),
                        ("user", "```\nnever call the network in the importer\n```")])
    assert any("never call the network" in item for item in summary.findings.items), summary.findings.items
    # A long brief's "must"s are the task itself, not choices made along the way; a question is no rule.
    brief = "\n".join(f"{number}. The importer must handle field {number} of the dump format." for number in range(60))
    summary = _summary([("user", brief), ("assistant", "Starting with the field parser."),
                        ("user", "Should it always read the local dump?")])
    assert not summary.findings.items, summary.findings.items


def test_the_user_naming_the_way_over_another_is_a_decision():
    for ask in ("In lieu of the message queue, write the events to a plain log file.",
                "make the export take a folder path instead of a project name"):
        summary = _summary([("user", "Add an event observer."), ("assistant", "I've added observer.c."),
                            ("user", ask)])
        assert any(ask in item for item in summary.findings.items), (ask, summary.findings.items)


def test_the_user_keeping_one_copy_and_dropping_the_other_is_a_decision():
    asks = ("keep the oldest entry of each duplicate and delete the newer ones",
            "重複は古い方を残して新しい方を削除してください",
            "重复的条目保留最早的一条，删除后面的",
            "```\n중복된 항목은 먼저 저장된 것은 남겨두고\n나중에 저장된 것은 삭제해\n```")
    for ask in asks:
        summary = _summary([("user", "Find duplicate entries in notes.md."),
                            ("assistant", "Found 4 duplicated entries in notes.md."), ("user", ask)])
        assert any("삭제해" in item or "delete the newer" in item or "削除" in item or "删除" in item
                   for item in summary.findings.items), (ask, summary.findings.items)
    summary = _summary([("user", "Find duplicate entries in notes.md."),
                        ("assistant", "Found 4 duplicated entries in notes.md."),
                        ("user", "should I keep the oldest and delete the rest?")])
    assert not summary.findings.items, summary.findings.items


def test_a_report_after_a_cheer_and_an_emoji_is_a_result():
    reply = ("Perfect! ✅ I've added pagination to the orders table, 50 rows per page.\n\n"
             "Excellent! 🎉 I've implemented CSV export for the filtered orders!")
    summary = _summary([("user", "Add pagination and CSV export to the orders page."), ("assistant", reply)])
    joined = " ".join(summary.done.items)
    assert "pagination to the orders table" in joined and "CSV export for the filtered orders" in joined


def test_a_feature_built_early_is_not_crowded_out_by_the_last_replies_lists():
    turns = [("user", "Build a recipe browser."),
             ("assistant", "I've built the recipe browser with a search box and a Flask server serving recipes.json."),
             ("user", "Add offline support.")]
    turns.append(("assistant", "I've added a service worker that caches the recipes for offline use."))
    for round_number in range(3):
        items = "\n".join(f"- Restyled the {part} card border to {round_number * 10 + index}px"
                          for index, part in enumerate(["title", "image", "tag", "footer", "rating", "time",
                                                        "author", "header"]))
        turns += [("user", f"Polish the cards, round {round_number + 1}."),
                  ("assistant", "## Changes made\n\n" + items)]
    summary = _summary(turns)
    joined = " ".join(summary.done.items)
    assert "recipe browser with a search box" in joined and "service worker" in joined, summary.done.items
    assert len(summary.done.items) <= LIMITS["done"] + 1


def test_the_users_last_unanswered_report_keeps_the_error_it_pasted():
    for report in ("The build still fails, we get this error:\n\n```\nTS2339: Property 'quota' does not exist on "
                   "type 'StorageInfo'.\n```\n\nHow can I fix this?",
                   "まだビルドが失敗します。このエラーが出ます：\n\n```\nTS2339: Property 'quota' does not exist on "
                   "type 'StorageInfo'.\n```\n\n直し方を教えてください。"):
        summary = _summary([("user", "Show the storage quota on the info page."),
                            ("assistant", "I've added the quota card to the info page."), ("user", report)])
        assert any("Property 'quota' does not exist" in item for item in summary.questions.items), \
            summary.questions.items


def test_work_put_off_in_the_middle_of_the_session_stays_open_unless_the_user_asked_for_it_again():
    deferrals = ("I've built the upload page. Email notifications will be implemented later, once uploads work.",
                 "アップロード画面を作成しました。メール通知は後で実装する予定です。",
                 "上传页面已完成。邮件通知以后再实现。",
                 "업로드 화면을 만들었습니다. 이메일 알림은 나중에 구현하겠습니다.")
    for deferral, marker in zip(deferrals, ("implemented later", "メール通知", "邮件通知", "이메일 알림")):
        turns = [("user", "Build the upload page."), ("assistant", deferral)]
        for number in range(8):
            turns += [("user", f"Tweak the upload button, step {number}."),
                      ("assistant", f"I've changed the upload button padding to {number}px.")]
        summary = _summary(turns)
        assert any(marker in item for item in summary.next_steps.items), (deferral, summary.next_steps.items)
    # Asked for again later: the work was picked up, so it is not listed as left.
    turns = [("user", "Build the upload page."), ("assistant", deferrals[0]),
             ("user", "Now add the Email notifications.")]
    for number in range(8):
        turns += [("assistant", f"I've changed the upload button padding to {number}px."),
                  ("user", f"Tweak the upload button, step {number}.")]
    turns.append(("assistant", "I've changed the upload button colour."))
    assert not any("implemented later" in item for item in _summary(turns).next_steps.items)


def test_work_announced_in_the_last_reply_and_never_shown_done_is_open():
    endings = ("The form needs a second step.\n\nI'll move the address fields to `src/steps/Address.vue`:",
               "表单需要第二步。\n\n让我来更新 `AddressStep` 组件：",
               "폼에 두 번째 단계가 필요합니다.\n\n이제 `AddressStep` 컴포넌트를 수정하겠습니다.")
    for ending, marker in zip(endings, ("src/steps/Address.vue", "AddressStep", "AddressStep")):
        summary = _summary([("user", "Split the signup form into two steps."), ("assistant", ending)])
        assert any(marker in item for item in summary.next_steps.items), (ending, summary.next_steps.items)
    # An offer to help further, or a reply that ends on what was done, announces nothing left.
    for ending in ("I've moved the address fields to the second step. Let me know if you want a third one.",
                   "The address fields are now on the second step."):
        summary = _summary([("user", "Split the signup form into two steps."), ("assistant", ending)])
        assert not summary.next_steps.items, summary.next_steps.items


def test_an_announcement_in_the_middle_of_the_work_is_not_a_next_step():
    reply = ("Three lint findings remain. Let me fix the remaining ones in the parser now.\n\n"
             "Fixed all three; the linter reports no issues.")
    summary = _summary([("user", "Fix the lint findings."), ("assistant", reply)])
    assert not any("Let me fix" in item for item in summary.next_steps.items), summary.next_steps.items


def test_a_fix_for_a_reported_error_that_nothing_confirmed_is_open():
    report = ("保存すると例外が出ます：\n\n```\nTypeError: Cannot read properties of null (reading 'save')\n```")
    fix = "`store` が null のまま呼ばれていました。次のように修正してください：\n\n```ts\nstore?.save(draft)\n```"
    summary = _summary([("user", "下書きを保存できるようにして。"), ("assistant", "保存ボタンを追加しました。"),
                        ("user", report), ("assistant", fix)])
    assert any("reading 'save'" in item for item in summary.next_steps.items), summary.next_steps.items
    # The same fix, then a test run in the same reply: the session saw whether it worked.
    ran = fix + "\n\n⏺ Bash(npm test -- draft)\n  ⎿  Tests: 4 passed, 4 total"
    summary = _summary([("user", "下書きを保存できるようにして。"), ("assistant", "保存ボタンを追加しました。"),
                        ("user", report), ("assistant", ran)])
    assert not any("reading 'save'" in item for item in summary.next_steps.items), summary.next_steps.items
    # A request that reports no problem (its pasted source even names an error type) leaves nothing unconfirmed.
    ask = ("Now add the export step:\n\n```python\ndef export(rows):\n"
           "    \"\"\"Raises: ValueError: if rows is empty.\"\"\"\n```")
    summary = _summary([("user", ask), ("assistant", "```python\ndef export(rows):\n    return list(rows)\n```")])
    assert not summary.next_steps.items, summary.next_steps.items


def test_tests_that_still_fail_in_the_last_run_are_open_and_a_later_green_run_closes_them():
    runs = ("⏺ Bash(npm test)\n  ⎿  Tests:       2 failed, 5 passed, 7 total\n\nTwo cart tests still fail.",
            "• Ran pytest -q\n  └ 3 failed, 10 passed in 0.52s\n\nThree tests fail on the rounding.",
            "• Ran cargo test\n  └ test result: FAILED. 8 passed; 1 failed; 0 ignored\n\nOne test fails.")
    for run, tally in zip(runs, ("2 failed, 5 passed", "3 failed, 10 passed", "8 passed; 1 failed")):
        summary = _summary([("user", "Fix the cart totals."), ("assistant", run)])
        assert any(tally in item for item in summary.next_steps.items), (run, summary.next_steps.items)
        green = run.replace("2 failed, 5 passed", "7 passed").replace("3 failed, 10 passed", "13 passed").replace(
            "FAILED. 8 passed; 1 failed", "ok. 9 passed; 0 failed")
        summary = _summary([("user", "Fix the cart totals."), ("assistant", run), ("assistant", green)])
        assert not any(tally in item for item in summary.next_steps.items), (green, summary.next_steps.items)


def test_a_reply_that_is_only_a_block_answers_the_ask():
    summary = _summary([("user", "Fix the date parser."), ("assistant", "Fixed `parse_date` for ISO weeks."),
                        ("user", "suggest commit message"),
                        ("assistant", "```\nfix: parse ISO week dates\n\n- accept 2024-W05-3\n```")])
    assert not summary.questions.items, summary.questions.items


def test_a_bold_question_at_the_end_is_open_and_a_question_heading_is_not():
    last = ("### **Por que o app ignora o `.env`?**\n\nO arquivo está na lista global.\n\n"
            "**Quer que eu aplique o método 1?** Posso criar os arquivos para você.")
    summary = _summary([("user", "Libere o .env para o app."), ("assistant", last)])
    assert any("aplique o método 1" in item for item in summary.questions.items), summary.questions.items
    assert not any("Por que" in item for item in summary.questions.items), summary.questions.items


def test_a_todo_list_work_done_now_and_no_need_for_the_user_are_not_left_open():
    replies = ("Let me start by creating a todo list.", "Let's update our todo list to mark the tests as done:",
               "Let me clean up the awkward placeholder parameter in `record_task`:",
               "You don't need to upload the build folder manually; CI builds it.",
               "ビルドフォルダは手動でアップロードする必要がありません。")
    for reply in replies:
        turns = [("user", "Add the SQS queue setup."), ("assistant", reply)]
        turns += [("assistant", f"Updated the queue config, step {number}.") for number in range(2)]
        summary = _summary(turns)
        assert not summary.next_steps.items, (reply, summary.next_steps.items)
    # Put off, or handed to the user, it stays open.
    for reply in ("I'll leave the retry policy as a stub for now.", "You'll need to set QUEUE_URL yourself."):
        summary = _summary([("user", "Add the SQS queue setup."), ("assistant", reply)])
        assert summary.next_steps.items, reply


def test_open_holds_stubs_tasks_for_the_user_and_deferred_work():
    last = ("The export works end to end. The PDF renderer is still a stub that returns an empty page.\n"
            "You'll need to set GITHUB_TOKEN in the repository secrets yourself.\n"
            "Email notifications are left for a later release.")
    summary = _summary([("user", "Build the report export."), ("assistant", "Created export.py."),
                        ("assistant", last)])
    joined = " ".join(summary.next_steps.items)
    assert "still a stub" in joined and "GITHUB_TOKEN" in joined and "later release" in joined


def test_the_goal_is_the_bug_not_a_side_question_and_side_questions_do_not_change_it():
    summary = _summary([("user", "What does this script do?"),
                        ("user", "It crashes with KeyError: 'user' when the config has no user section. Fix it."),
                        ("assistant", "Fixed the lookup in config.py."),
                        ("user", "What is a KeyError?"), ("user", "Also add a default user section.")])
    assert summary.goal.startswith("It crashes with KeyError")
    assert summary.later_asks.items == ["Also add a default user section."]


def test_files_are_shown_from_where_the_session_worked_after_a_cd():
    turns = [("user", "Fix the lint errors in the CLI."),
             ("assistant", "⏺ Bash(cd /work/repo/cli && ruff check .)\n  ⎿  src/main.py:3:1: F401 'os' imported "
                           "but unused"),
             ("assistant", "⏺ Update(/work/repo/cli/src/main.py)\n  ⎿  Updated /work/repo/cli/src/main.py with "
                           "1 removal")]
    summary = _summary(turns, cwd="/work/repo")
    paths = [check.path for check in summary.files]
    assert "cli/src/main.py" in paths and "src/main.py" not in paths


def test_results_are_items_and_edit_records_are_evidence():
    records = "\n".join("⏺ Update(sim.py)\n  ⎿  Updated sim.py with " + str(n) + " additions" for n in range(6))
    summary = _summary([("user", "Build a stock simulator."), ("assistant", records),
                        ("assistant", "## Summary\n- A stock simulator with tests\n- A 100-run mode that plots "
                                      "every run\n- A README with usage")])
    # The results come first, each once; the six edit records are not items: the file they name is given once
    # as evidence, since no result says where the work went.
    assert summary.done.items == ["A stock simulator with tests", "A 100-run mode that plots every run",
                                  "A README with usage", "Edited files (per the session's edit records): `sim.py`"]
    records_only = _summary([("user", "Build a stock simulator."), ("assistant", records)])
    # Edits and no word about them: the ask they answered stands for the result, the file is its evidence.
    assert records_only.done.items == ["Edited for the ask: Build a stock simulator.",
                                       "Edited files (per the session's edit records): `sim.py`"]


def test_a_long_session_stays_under_the_word_budget():
    turns = [("user", "Port the whole app to TypeScript.")]
    for number in range(400):
        turns.append(("assistant", "⏺ Bash(npx tsc --noEmit -p packages/module_" + str(number) + ")\n  ⎿  "
                      "src/module_" + str(number) + ".ts(1,1): error TS2307: Cannot find module 'lib_"
                      + str(number) + "'\n\nI decided to keep module_" + str(number) + " in JavaScript for now "
                      "because its tests mock require() calls that TypeScript would break."))
    summary = _summary(turns)
    assert count_words(summary.markdown) <= 1200


def test_a_moved_file_is_listed_at_its_new_place_and_a_copied_one_at_both():
    turns = [("user", "Tidy the docs folder."),
             ("assistant", "⏺ Read(docs/old/guide.md)\n  ⎿  Read 20 lines\n\n⏺ Bash(git mv docs/old/guide.md "
                           "docs/guide.md)\n  ⎿  (No content)\n\n⏺ Bash(cp docs/api.md docs/api-v2.md)\n"
                           "  ⎿  (No content)\n\nMoved docs/old/guide.md to docs/guide.md and copied docs/api.md.")]
    paths = [check.path for check in _summary(turns).files]
    assert "docs/guide.md" in paths and "docs/old/guide.md" not in paths
    assert "docs/api.md" in paths and "docs/api-v2.md" in paths


def test_errors_under_a_heading_of_possible_causes_are_guesses():
    reply = ("Possible causes:\n- ECONNREFUSED: the database container is not running\n"
             "- ModuleNotFoundError: No module named 'psycopg2' in the worker image\n\n"
             "The test run itself printed no error.")
    summary = _summary([("user", "The worker fails on start."), ("assistant", reply)])
    assert summary.errors.items == []


def test_a_long_pasted_stack_trace_under_one_line_is_an_error_report_not_a_brief():
    frames = "\n".join(f"    at render{number} (file:///home/ana/shop/node_modules/vue/dist/vue.cjs.js:{number}:"
                       f"{number * 7})" for number in range(1, 60))
    ask = "画面を開くと次のエラーになります。直してください。\n\nTypeError: Cannot read properties of undefined " \
          "(reading 'items')\n" + frames
    summary = _summary([("user", "Add a cart page to the shop."), ("assistant", "Added CartPage.vue."),
                        ("user", ask), ("assistant", "The store was read before it was created; fixed.")])
    assert any("Cannot read properties of undefined" in item for item in summary.errors.items)
    # A brief is still a brief: a long spec listing known failures is where the work starts.
    spec = "Port the shop to Vue 3. " * 120 + "\nToday it fails with TypeError: cart is undefined on checkout."
    summary = _summary([("user", spec), ("assistant", "Ported the store and the pages.")])
    assert not any("cart is undefined" in item for item in summary.errors.items)


def test_a_tools_own_failure_lines_are_errors_hit():
    # aider prints its own failures (no error type, no "error:") as quoted lines of its reply.
    text = ("I'll add the fixtures.\n\n"
            "> /home/li/budget/fixtures: unable to read: [Errno 13] Permission denied: '/home/li/budget/fixtures'\n"
            "> Unable to commit: Cmd('git') failed due to: exit code(128)\n"
            "> Cannot find the fixtures, so they were created: budget/fixtures/a.json\n")
    summary = _summary([("user", "Add test fixtures for the budget report."), ("assistant", text)])
    errors = " | ".join(summary.errors.items)
    assert "[Errno 13] Permission denied" in errors and "Unable to commit:" in errors
    assert "Cannot find the fixtures" not in errors  # a sentence with a comma is prose, not a failure line


def test_done_takes_a_results_list_s_own_items_not_their_details():
    reply = ("## Summary of changes\n\n"
             "1. **Sticky header**: the toolbar stays on top while the table scrolls\n"
             "2. **Column widths**: fixed widths for every column:\n"
             "   - **Name**: 240px\n"
             "   - **Price**: 90px\n"
             "3. **Empty state**: a message when no product matches the filter\n")
    summary = _summary([("user", "Polish the product table."), ("assistant", reply)])
    done = " | ".join(summary.done.items)
    assert "Sticky header" in done and "Column widths" in done and "Empty state" in done
    assert "240px" not in done and "90px" not in done


def test_a_fix_the_session_expects_to_work_but_never_saw_work_is_left_open():
    for last, expected in (("Bumped the deploy action to v4. Tag a release and the upload should work now.",
                            "should work now"),
                           ("設定を修正しました。再起動すれば表示されるはずです。", "表示されるはず"),
                           ("已经修改了路由配置，刷新后应该可以正常显示了。", "应该可以正常显示")):
        summary = _summary([("user", "The release upload fails."), ("assistant", "Found the cause."),
                            ("assistant", last)])
        assert any(expected in item for item in summary.next_steps.items), (last, summary.next_steps.items)
    summary = _summary([("user", "The release upload fails."),
                        ("assistant", "Bumped the deploy action to v4 and re-ran it: the upload passed.")])
    assert summary.next_steps.items == []
