"""The "Commands run" section: evidence that a chat-only block ran, steps of compound lines, long turns."""

from session_summarizer.command_list import bullets, least_important, pick, steps
from session_summarizer.local_summary import summarize
from session_summarizer.session import parse_session, thin_turn_text
from session_summarizer.transcript import read_turn
from session_summarizer.worktree import FileCheck


def _summary(turns, cwd=""):
    return summarize(parse_session({"agent": "chat", "cwd": cwd, "turns": turns}),
                     file_checker=lambda paths, folder: [FileCheck(path, "mentioned") for path in paths])


def test_a_chat_block_without_evidence_is_advice_and_an_install_at_the_end_is_left_to_the_user():
    summary = _summary([
        {"role": "user", "text": "组件报错 Module not found: @radix-ui/react-accordion"},
        {"role": "assistant", "text": "需要安装依赖：\n```bash\nnpm install @radix-ui/react-accordion\n```\n"
                                      "然后重新启动开发服务器。"}])
    assert summary.commands.items == []
    assert summary.next_steps.items == ["留给你运行（会话中只给出、没有运行）：`npm install @radix-ui/react-accordion`"]


def test_an_offer_the_user_accepts_ran_in_any_language():
    for answer in ("yes, go ahead", "はい、お願いします", "好的", "네 진행해 주세요", "да, давай", "sí, hazlo"):
        summary = _summary([
            {"role": "user", "text": "The SSL check fails."},
            {"role": "assistant", "text": "The fix is `pip install certifi` in your venv, then an SSL context. "
                                          "Want me to go ahead?"},
            {"role": "user", "text": answer},
            {"role": "assistant", "text": "Done: certifi is installed and llm_client.py uses it."}])
        assert summary.commands.items == ["pip install certifi"], answer


def test_a_refusal_or_a_new_question_is_not_acceptance():
    summary = _summary([
        {"role": "user", "text": "Deploy it."},
        {"role": "assistant", "text": "Run this:\n```bash\nvercel --prod\n```\nShall I?"},
        {"role": "user", "text": "No, wait. What does --prod change?"}])
    assert summary.commands.items == []


def test_steps_that_answer_the_users_question_stay_theirs_after_an_ok():
    for question in ("I'm on Manjaro, how do I install the gh app?", "bagaimana cara install gh di manjaro",
                     "ghはどうやって入れる？", "manjaro 上怎么安装 gh", "gh 는 어떻게 설치해?",
                     "is there anything to install? I use Manjaro"):
        summary = _summary([
            {"role": "user", "text": question},
            {"role": "assistant", "text": "Install it with:\n```bash\nsudo pacman -S github-cli\n```\n"
                                          "Then log in:\n```bash\ngh auth login\n```\n"},
            {"role": "user", "text": "OK, tag pushed"},
            {"role": "assistant", "text": "Release created."}])
        assert summary.commands.items == [], question
    # A yes to the offer such a reply ends on still runs what the offer names.
    summary = _summary([
        {"role": "user", "text": "Where is the hypothesis module missing from?"},
        {"role": "assistant", "text": "It is not in requirements-dev.txt. The fix is adding it and running "
                                      "`pip install -r requirements-dev.txt`. Want me to do that?"},
        {"role": "user", "text": "yes do it"},
        {"role": "assistant", "text": "Installed; 767 passed."}])
    assert summary.commands.items == ["pip install -r requirements-dev.txt"]


def test_commands_listed_under_a_line_that_says_they_passed_ran_in_any_language():
    for lead in ("Validações OK:", "All checks passed:", "✅ 通过的检查：", "検証 OK:", "통과한 검사:"):
        summary = _summary([
            {"role": "user", "text": "Implement the plan."},
            {"role": "assistant", "text": "Implemented.\n\n- Branch: `guard`\n\n" + lead + "\n"
                                          "- `npm run lint`\n- `npm test -- --runInBand` → 12 suites OK\n"}])
        assert summary.commands.items == ["npm run lint", "npm test -- --runInBand"], lead
    # Checks still to run are not a report that they ran.
    summary = _summary([
        {"role": "user", "text": "Implement the plan."},
        {"role": "assistant", "text": "Next, make sure these pass:\n- `npm run lint`\n- `npm test`\n"}])
    assert summary.commands.items == []


def test_the_users_own_terminal_paste_is_a_command_that_ran():
    summary = _summary([
        {"role": "user", "text": "@me ➜ /workspaces/toolbox (fix-24) $ bundle exec rubocop\nInspecting 16 files\n"
                                 "16 files inspected, 171 offenses detected"},
        {"role": "assistant", "text": "Most are string literal offenses. Try:\n```bash\nbundle exec rubocop -a\n```"}])
    assert summary.commands.items == ["bundle exec rubocop"]


def test_a_block_the_reply_reports_on_ran():
    said_after = _summary([{"role": "user", "text": "Check it."},
                           {"role": "assistant", "text": "```sh\nnpm test\n```\nBoth pass."}])
    said_before = _summary([{"role": "user", "text": "Check it."},
                            {"role": "assistant", "text": "I tested the endpoint with:\n```bash\n"
                                                          "curl -s localhost:3000/health\n```"}])
    captured = _summary([{"role": "user", "text": "Build."},
                         {"role": "assistant", "text": "```\nnpm run build\nnpm WARN deprecated glob@7\n```"}])
    expected = _summary([{"role": "user", "text": "Check it."},
                         {"role": "assistant", "text": "```sh\nnpm test\n```\nIt should pass once you restart."}])
    assert said_after.commands.items == ["npm test"]
    assert said_before.commands.items == ["curl -s localhost:3000/health"]
    assert captured.commands.items == ["npm run build"]
    assert expected.commands.items == []


def test_a_decorated_heading_is_not_a_report_that_the_steps_ran():
    summary = _summary([{"role": "user", "text": "remote origin already exists 에러"},
                        {"role": "assistant", "text": "```bash\ngit remote remove origin\n```\n\n"
                                                      "### ✅ 완전한 해결 순서:\n1. 브랜치 이름 변경"}])
    assert summary.commands.items == []
    done = _summary([{"role": "user", "text": "올려 줘"},
                     {"role": "assistant", "text": "```bash\ngit push -u origin main\n```\n\n"
                                                   "### ✅ **업로드 완료 결과:**\n- 총 파일 수: 69개"}])
    assert done.commands.items == ["git push -u origin main"]


def test_javascript_exports_in_a_plain_block_are_not_shell_commands():
    summary = _summary([{"role": "user", "text": "Add the page."},
                        {"role": "assistant", "text": "```\nexport default function Page() {\n  return null\n}\n"
                                                      "```\nDone."}])
    assert summary.commands.items == []


def test_compound_lines_become_the_steps_a_reviewer_lists():
    assert steps('cd /repo/app && echo "== tsc ==" && npx tsc --noEmit 2>&1 | head -20; echo EXIT=$?') == [
        "npx tsc --noEmit"]
    assert steps("cd /repo && /repo/.venv/bin/ruff check /repo/src/a.py") == [".venv/bin/ruff check src/a.py"]
    assert steps('git commit -m "fix: a && b; c" && git push') == ['git commit -m "fix: a && b; c"', "git push"]
    assert steps("search_engine (brightdata): cursor ignore file") == ["search_engine (brightdata): cursor ignore file"]


def test_when_there_are_too_many_steps_acting_and_checking_ones_stay():
    ran = ["ls -la", "cat a.py", "git status", "grep -n x a.py", "go build ./...", "head -5 /tmp/out", "git push",
           "wc -l a.py", "go test ./..."]
    kept, left_out = pick(ran, 3)
    assert kept == ["go build ./...", "git push", "go test ./..."] and left_out == 6
    assert bullets(["go build ./...", "git add -A", "go test ./...", "git push"]) == [
        "`go build ./...` · `go test ./...`", "`git add -A` · `git push`"]


def test_a_long_turn_keeps_the_calls_and_words_in_its_middle():
    box = "\n".join("│ {:>4} const x{} = {};{}│".format(n, n, n, " " * 40) if n != 1500 else
                    "│ TypeError: Cannot read properties of undefined (reading 'id') │" for n in range(3000))
    turn = ("✦ I'll fix the worker first.\n╭────────╮\n" + box + "\n│ ✓  Shell cd app && npx vitest run "
            "[current working directory /repo]{}│\n".format(" " * 20) + box + "\n╰────────╯\n"
            "✦ The worker now re-creates its group on NOGROUP.\n" + box)
    assert len(turn) > 300_000
    thinned = thin_turn_text(turn)
    assert len(thinned) < 20_000
    assert "npx vitest run" in thinned and "re-creates its group on NOGROUP" in thinned
    assert "TypeError: Cannot read properties of undefined" in thinned  # an error line deep in a run stays
    parts = read_turn(thinned)
    assert [(call.kind, call.text, call.folder) for call in parts.calls] == [
        ("run", "cd app && npx vitest run", "/repo")]


def test_a_fresh_shell_in_a_named_folder_does_not_carry_its_cd_to_the_next_call():
    turn = ("╭────────╮\n│ ✓  Shell cd app && npm test [current working directory /repo]  │\n╰────────╯\n"
            "╭────────╮\n│ ✓  Shell cd app && npm run lint [current working directory /repo]  │\n╰────────╯\n"
            "╭────────╮\n│ ✓  Edit app/src/a.ts: x => y  │\n╰────────╯\n")
    summary = _summary([{"role": "user", "text": "Fix the lint."}, {"role": "assistant", "text": turn}], cwd="/repo")
    assert summary.commands.items == ["npm test", "npm run lint"]
    assert [check.path for check in summary.files] == ["app/src/a.ts"]


def test_an_older_specstory_mcp_call_is_read_with_its_first_parameter():
    parts = read_turn("Vou pesquisar.\n\nTool use: **mcp_brightdata_search_engine**\n\n<details>\n"
                      "          <summary>MCP tool call</summary>\n\n*Called tool*: brightdata - search_engine\n\n"
                      "*Parameters*:\n  * query: cursor globalcursorignore\n  * engine: google\n\n*Result*:\nok\n"
                      "</details>\n")
    assert [(call.kind, call.text) for call in parts.calls] == [
        ("external", "search_engine (brightdata): cursor globalcursorignore")]


def test_a_file_a_reply_wrote_a_code_block_for_is_listed_as_proposed_not_edited():
    summary = _summary([{"role": "user", "text": "修复 Module not found 错误"},
                        {"role": "assistant", "text": "创建组件：\n```typescript:src/components/ui/accordion.tsx\n"
                                                      "export const Accordion = () => null\n```\n"}])
    assert [(check.path, check.state) for check in summary.files] == [("src/components/ui/accordion.tsx", "proposed")]
    assert "src/components/ui/accordion.tsx` — 回复中给出了代码（是否已应用不得而知）" in summary.markdown


def test_a_step_the_agent_hands_to_the_user_after_its_own_tool_runs_is_left_for_them():
    summary = _summary([
        {"role": "user", "text": "Publish the worker."},
        {"role": "assistant", "text": "⏺ Bash(npx wrangler deploy)\n  ⎿  Error: not logged in\n\n"
                                      "The deploy needs your account. You need to log in yourself first:\n"
                                      "```bash\nnpx wrangler login\n```\nThen I can deploy again."}])
    assert summary.commands.items == ["npx wrangler deploy"]
    assert "Left for you to run (shown, not run in the session): `npx wrangler login`" in summary.next_steps.items
    shown_as_example = _summary([
        {"role": "user", "text": "Publish the worker."},
        {"role": "assistant", "text": "⏺ Bash(npx wrangler deploy)\n  ⎿  Deployed.\n\nYou can also tail it with:\n"
                                      "```bash\nnpx wrangler tail\n```"}])
    assert not any("wrangler tail" in item for item in shown_as_example.next_steps.items)


def test_commits_a_chat_export_reports_by_hash_are_commands_that_ran():
    summary = _summary([
        {"role": "user", "text": "Закоммить и запушь."},
        {"role": "assistant", "text": "**Коммит:** `63ca3b1` — `feat: Smartup в UI`\n**Пуш:** `origin/main` — "
                                      "`70309db..63ca3b1`."}])
    assert summary.commands.items == ["git commit (63ca3b1)", "git push"]
    aider = _summary([{"role": "user", "text": "add the parser"},
                      {"role": "assistant", "text": "Applied edit to lsfl/parser.py\nCommit 634033b feat: Add parser"}])
    assert aider.commands.items == ["git commit (634033b)"]
    offered = _summary([{"role": "user", "text": "commit it"},
                        {"role": "assistant", "text": "You could commit it as 1a2b3c4d later, once tests pass."}])
    assert offered.commands.items == []


def test_a_command_reported_with_its_outcome_on_the_line_ran():
    summary = _summary([
        {"role": "user", "text": "ปล่อยเวอร์ชันใหม่"},
        {"role": "assistant", "text": "รัน **`npm run typecheck`** และ **`npm test`** แล้ว — **ผ่านทั้งคู่** (1,210 tests)\n"
                                      "- `npm publish` → **404** (token ไม่มีสิทธิ์)\n"
                                      "- ถ้าต้องการ ลอง `npm whoami` ดูก่อน"}])
    assert summary.commands.items == ["npm run typecheck", "npm test", "npm publish"]


def test_an_ok_after_plain_advice_does_not_make_its_commands_run():
    advice = ("Here is a request you can use to check the feed:\n\n```sh\ncurl \"https://feeds.example.org/v2/tides\"\n"
              "```\n\nReplace the station id with yours.")
    offer = advice + "\n\nShall I run it against the staging feed?"
    later = {"role": "assistant", "text": "Done."}
    plain = _summary([{"role": "user", "text": "give me a curl command to test the tide feed"},
                      {"role": "assistant", "text": advice},
                      {"role": "user", "text": "OK, I found the problem: the station id was wrong"}, later])
    assert plain.commands.items == []
    offered = _summary([{"role": "user", "text": "give me a curl command to test the tide feed"},
                        {"role": "assistant", "text": offer},
                        {"role": "user", "text": "yes, and use the station id from the README"}, later])
    assert any("curl" in item for item in offered.commands.items)
    bare = _summary([{"role": "user", "text": "give me a curl command to test the tide feed"},
                     {"role": "assistant", "text": advice}, {"role": "user", "text": "ok"}, later])
    assert any("curl" in item for item in bare.commands.items)


def test_subcommands_that_only_look_give_way_to_steps_that_act_whatever_the_program():
    commands = (["gh repo list --limit 50", "gh repo view me/app --json url", "gh auth status", "vercel projects list",
                 "docker ps", "kubectl get pods"] + ["npm run build:" + str(number) for number in range(4)]
                + ["vercel link --project=app", "git checkout main", "npx wrangler whoami"])
    items, left_out = pick(commands, 7)
    assert "vercel link --project=app" in items and "git checkout main" in items
    assert "npx wrangler whoami" in items  # which account acts is no mere look
    assert not any(item.startswith(("gh repo list", "gh auth status", "docker ps", "kubectl get")) for item in items)
    assert left_out > 0


def test_a_command_list_that_must_shrink_gives_up_looking_before_acting():
    items = ["rg -n todo src", "git checkout -- tests/a.spec.ts", "npx vitest run", "rm tests/mock-tools.ts",
             "git status -sb"]
    assert items[least_important(items)] == "git status -sb"
    assert items[least_important(items[:-1])] == "rg -n todo src"
    assert least_important(["npx vitest run", "rm tests/mock-tools.ts"]) == 0


def test_a_command_the_user_tells_the_agent_to_run_in_a_chat_export_ran_when_the_reply_answers():
    def turns(ask, reply):
        return [{"role": "user", "text": "Build a chart of the season's standings."},
                {"role": "assistant", "text": "Created main.py.\n\nMade changes."},
                {"role": "user", "text": ask}, {"role": "assistant", "text": reply}]
    ran = _summary(turns('It crashes. Start by running "uv run app.py" and then look at the error.',
                         "The error is a KeyError: 'date' in the sessions list."))
    assert ran.commands.items == ["uv run app.py"]
    bare = _summary(turns("uv add plotly is the way to add plotly", "Plotly is installed and the chart uses it."))
    assert bare.commands.items == ["uv add plotly"]
    for ask in ("`npm test` を実行して結果を見てください", "运行 `npm test` 看看结果",
                "`npm test` 실행해서 결과 알려줘"):
        assert _summary(turns(ask, "2 failed, 10 passed.")).commands.items == ["npm test"], ask
    handed = _summary(turns('Run "uv run app.py" please', "You need to run `uv run app.py` yourself in your terminal."))
    assert handed.commands.items == []
    refused = _summary(turns('Run "uv run app.py" please', "I can't run commands here; paste the output."))
    assert refused.commands.items == []
    negated = _summary(turns("don't run 'npm run build' yet, just fix the types", "Fixed the two type errors."))
    assert negated.commands.items == []
    pasted = _summary(turns("the push failed:\nhint: use 'git pull' before pushing again.", "Pull first, then push."))
    assert pasted.commands.items == []


def test_a_package_to_install_named_early_stays_the_users_step_unless_a_later_ask_shows_it_installed():
    def session(later_ask):
        reply = ("依存関係を追加します：\n```bash\nnpm install ua-parser-js\n```\n\n```ts\n"
                 "import UAParser from 'ua-parser-js'\n```\nブラウザ名を表示しました。")
        turns = [{"role": "user", "text": "ブラウザ名を表示してください"}, {"role": "assistant", "text": reply}]
        for ask in (later_ask, "ボタンの色を青にして", "余白を広げて"):
            turns += [{"role": "user", "text": ask}, {"role": "assistant", "text": "変更しました。"}]
        return _summary(turns).next_steps.items
    assert any("npm install ua-parser-js" in item for item in session("フッターの文言を変えて"))
    assert not any("ua-parser" in item for item in session("ua-parser-js のバージョンを上げて"))
    error = "エラー: 型 typeof UAParser にはコンストラクト シグネチャがありません"
    assert not any("ua-parser" in item for item in session(error))
    assert not any("install" in item for item in _summary([
        {"role": "user", "text": "how do I deploy this?"},
        {"role": "assistant",
         "text": "With Firebase:\n```bash\nnpm install -g firebase-tools\n```\nOr use GitHub Pages."},
        *[{"role": role, "text": text} for _ in range(3)
          for role, text in (("user", "make the header bigger"), ("assistant", "Done."))]]).next_steps.items)


def test_the_word_cap_takes_looking_commands_before_acting_ones():
    from session_summarizer.local_summary import WORD_BUDGET, LocalSummary, Section, _fit_words

    looking = ["rg -n " + " ".join(f"pattern{number}_{word}" for word in range(40)) + " src"
               for number in range(40)]
    acting = [f"git checkout -- tests/case_{number}.spec.ts" for number in range(5)]
    summary = LocalSummary(language="en", agent="codex", turn_count=90, omitted_turns=0, goal="Fix the tests.",
                           later_asks=Section(), done=Section(), files=[], files_overflow=0,
                           commands=Section(items=looking + acting), findings=Section(), errors=Section(),
                           questions=Section(), next_steps=Section())
    _fit_words(summary)
    assert len(summary.commands.items) < len(looking) + len(acting)  # the cap did cut
    assert summary.commands.items[-len(acting):] == acting and summary.commands.overflow > 0
    assert WORD_BUDGET > 0


def test_the_word_cap_holds_when_every_section_is_down_to_one_very_long_item():
    from session_summarizer.local_summary import (
        WORD_BUDGET,
        LocalSummary,
        Section,
        _fit_words,
        count_words,
        render_markdown,
    )

    def wall(word: str, count: int) -> str:
        return " ".join(f"{word}{number}" for number in range(count))

    korean = " ".join("요청사항" + str(number) for number in range(400))  # a wall of Hangul words, no sentence end
    summary = LocalSummary(language="ko", agent="copilot", turn_count=274, omitted_turns=0, goal=korean,
                           later_asks=Section(items=[wall("later", 300)]), done=Section(items=[wall("done", 500)]),
                           files=[], files_overflow=0, commands=Section(items=[wall("cmd", 200)]),
                           findings=Section(items=[wall("finding", 300)]), errors=Section(items=[wall("error", 400)]),
                           questions=Section(items=[wall("question", 200)]), next_steps=Section(items=[wall("n", 300)]))
    _fit_words(summary)
    assert count_words(render_markdown(summary)) <= WORD_BUDGET
    assert summary.done.items[0].startswith("done0 done1") and summary.done.items[0].endswith(" …")
    assert summary.goal.startswith("요청사항0 요청사항1")
