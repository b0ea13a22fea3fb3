"""The open section (open questions, next steps) on held-out-style endings: git work left, a failing tally
the reply reports, an agent cut off by its limit, work the user put off, a fix the user is left to confirm.

The turns are invented here in the shapes agents print them (Claude Code tool results, aider's quoted
output, Codex `• Ran` lines and `git status -sb`), in English, Japanese, Chinese and Korean; none is
copied from the corpus.
"""

from session_summarizer import loose_ends
from session_summarizer.local_summary import summarize
from session_summarizer.session import Turn as _Turn
from session_summarizer.session import parse_session
from session_summarizer.transcript import read_turn
from session_summarizer.worktree import check_files


def Turn(role, text):
    return _Turn(role, text, len(text))


def _summary(turns, agent="claude"):
    raw = {"agent": agent, "cwd": "", "turns": [{"role": role, "text": text} for role, text in turns]}
    return summarize(parse_session(raw), file_checker=lambda paths, folder: check_files(paths, ""))


def _open(summary):
    return summary.questions.items + summary.next_steps.items


_STATUS = ("On branch main\nYour branch is ahead of 'origin/main' by 2 commits.\n"
           "  (use \"git push\" to publish your local commits)\n\nChanges not staged for commit:\n"
           "  (use \"git add <file>...\" to update what will be committed)\n\tmodified:   src/report.py\n\n"
           "Untracked files:\n  (use \"git add <file>...\" to include in what will be committed)\n\tnotes/draft.md\n\n"
           "no changes added to commit (use \"git add\" and/or \"git commit -a\")\n")


def test_git_status_at_the_end_leaves_files_uncommitted_and_commits_unpushed():
    reply = "```bash\ngit status\n```\n\n```\n" + _STATUS + "```\n列の順序を修正しました。"
    dirty, ahead = loose_ends.git_left([Turn("user", "レポートの列を直して"), Turn("assistant", reply)])
    assert dirty == ["src/report.py", "notes/draft.md"]
    assert ahead == ("origin/main", 2)
    items = " ".join(_open(_summary([("user", "レポートの列を直してください"), ("assistant", reply)])))
    assert "未コミット" in items and "src/report.py" in items
    assert "未プッシュ" in items and "origin/main" in items


def test_aider_quoted_status_and_a_later_commit_or_push_clear_what_they_settle():
    quoted = "\n".join("> " + line for line in _STATUS.split("\n"))
    assert loose_ends.git_left([Turn("assistant", quoted)])[0] == ["src/report.py", "notes/draft.md"]
    committed = quoted + "\n> Commit 3f9e2a1 fix: report columns\n"
    assert loose_ends.git_left([Turn("assistant", committed)]) == ([], ("origin/main", 2))
    pushed = committed + "To github.com:me/app.git\n   1a2b3c4..3f9e2a1  main -> main\n"
    assert loose_ends.git_left([Turn("assistant", pushed)]) == ([], None)
    clean = "On branch main\nYour branch is up to date with 'origin/main'.\n\nnothing to commit, working tree clean\n"
    assert loose_ends.git_left([Turn("assistant", quoted), Turn("assistant", clean)]) == ([], None)


def test_codex_short_status_and_another_repositorys_status():
    codex = ("• Ran git status -sb\n  └ ## main...origin/main [ahead 1]\n     M api/server.go\n"
             "    ?? api/cache.go\n\n• Done.")
    assert loose_ends.git_left([Turn("assistant", codex)]) == (["api/server.go", "api/cache.go"],
                                                                ("origin/main", 1))
    other = ("```bash\ngit -C ../fixtures status\n```\n\n```\nOn branch main\n\nUntracked files:\n"
             "        sample/history.md\n\nnothing added to commit but untracked files present\n```\n")
    assert loose_ends.git_left([Turn("assistant", other)]) == ([], None)


def test_a_push_call_after_the_status_means_nothing_is_left_to_push():
    text = ("⏺ Bash(git status)\n  ⎿  " + _STATUS.replace("\n", "\n     ")
            + "\n\n⏺ Bash(git push)\n  ⎿  (no output)\n")
    items = " ".join(_open(_summary([("user", "commit and push the report fix"), ("assistant", text)])))
    assert "Not pushed" not in items


def test_a_reply_that_counts_failures_after_a_cut_test_output_leaves_tests_failing():
    codex = ("• Ran pytest tests/api\n  └ ============ test session starts ============\n    … +4210 lines\n\n"
             "• I ran the API suite after dropping the fakes. Result: 5 failures out of 31 tests; the upload cases "
             "now hit the real store.")
    items = " ".join(_open(_summary([("user", "remove the fake store from the API tests"), ("assistant", codex)],
                                    agent="codex")))
    assert "5 failures out of 31 tests" in items and "pytest tests/api" in items
    chinese = ("• Ran npm test\n  └ > app@1.0.0 test\n    … +900 lines\n\n"
               "• 运行了全部测试，结果有 3 个测试失败，都是超时。")
    assert "3 个测试失败" in " ".join(_open(_summary([("user", "去掉测试里的假数据"), ("assistant", chinese)],
                                                   agent="codex")))
    fixed = ("• Ran npm test\n  └ > app@1.0.0 test\n    … +900 lines\n\n• The 3 failing tests are fixed now.")
    assert not any("fail" in item.lower() for item in _open(_summary([("user", "fix the tests"),
                                                                      ("assistant", fixed)], agent="codex")))


def test_the_agents_limit_notice_as_the_last_word_leaves_the_work_cut_off():
    turns = [("user", "add a button that loads only the new posts"),
             ("assistant", "I'll add the incremental fetch to the timeline view."),
             ("assistant", "Claude usage limit reached. Your limit will reset at 5pm.")]
    items = " ".join(_open(_summary(turns)))
    assert "usage limit reached" in items
    words = [("user", "이 버튼을 추가해 주세요"),
             ("assistant", "The limit on message length was reached, so I split it.")]
    assert not any("limit" in item for item in _open(_summary(words)))


def test_work_the_user_puts_off_is_left_open_unless_a_later_ask_picks_it_up():
    asks = ["Port the build to CMake. Ignore the benchmark sources for now.", "Now add a test target."]
    assert loose_ends.put_off_by_user(asks) == ["Ignore the benchmark sources for now."]
    assert loose_ends.put_off_by_user([*asks, "OK, add the benchmark sources too."]) == []
    for ask in ("登录功能暂时不用管，先把列表页做完。", "認証は今は不要です。一覧画面を作ってください。",
                "결제는 일단 빼고 목록 화면부터 만들어 주세요."):
        assert loose_ends.put_off_by_user([ask]) == [ask]
    assert loose_ends.put_off_by_user(["Fix the login bug now, it blocks everyone."]) == []
    items = " ".join(_open(_summary([("user", "Port the build to CMake. Ignore the benchmark sources for now."),
                                     ("assistant", "Ported the build to CMake; `cmake --build build` passes.")])))
    assert "Put off by the user: Ignore the benchmark sources for now." in items


def test_a_fix_the_user_is_told_should_now_complete_is_left_to_confirm():
    turns = [("user", "the audit takes minutes, make it fast"),
             ("assistant", "Email checks no longer do DNS lookups. If you rerun the audit, it should complete in "
                           "under a second.")]
    assert any("rerun the audit" in item for item in _open(_summary(turns)))


_REJECTED = ("To https://github.com/me/app.git\n ! [rejected]        main -> main (non-fast-forward)\n"
             "error: failed to push some refs to 'https://github.com/me/app.git'\n"
             "hint: Updates were rejected because the tip of your current branch is behind\n")


def test_a_rejected_push_with_no_push_through_after_it_is_left_open():
    pasted = [("user", "推送失败了：\n```\n" + _REJECTED + "```"),
              ("assistant", "远程有你本地没有的提交。先执行 `git pull origin main --rebase`，再推送。")]
    items = " ".join(_open(_summary(pasted)))
    assert "推送被拒绝" in items and "[rejected] main -> main (non-fast-forward)" in items
    escaped = _REJECTED.replace("->", "-&gt;")
    later = escaped + "\n$ git pull --rebase\n$ git push\n   c3c7e64..c40cdf0  main -&gt; main\n"
    assert loose_ends.push_rejected([Turn("assistant", escaped)], [None]).startswith("! [rejected]")
    assert loose_ends.push_rejected([Turn("assistant", later)], [None]) == ""
    assert loose_ends.push_rejected([Turn("assistant", escaped), Turn("assistant", "Everything up-to-date")],
                                    [None, None]) == ""


def test_the_option_the_user_picked_last_is_still_to_be_done():
    reply = ("Round 6 is complete.\n\nNext actions:\n\n- (a) set approved = true in spec.json\n"
             "- (b) review the changed requirements once more\n\nWhich one?")
    items = " ".join(_open(_summary([("user", "review the spec"), ("assistant", reply), ("user", "a")])))
    assert "set approved = true in spec.json" in items and "review the changed requirements" not in items
    ja = "次のアクション:\n\n1. コミットしてから承認する\n2. 別セッションで承認する\n\nどれで進めますか?"
    assert loose_ends.picked_option([Turn("user", "確認して"), Turn("assistant", ja), Turn("user", "2")]) == (
        "(2) 別セッションで承認する")
    # Answered: the reply after the pick closes it; a word that is not a label is no pick.
    assert loose_ends.picked_option([Turn("assistant", reply), Turn("user", "a"), Turn("assistant", "Done.")]) == ""
    assert loose_ends.picked_option([Turn("assistant", reply), Turn("user", "ok")]) == ""


def test_a_terminal_copy_fenced_whole_in_a_markdown_log_is_the_reply():
    fenced = ("```\n⏺ 第 2 ラウンドの修正が完了した。\n\n  次のアクション:\n\n  - brief.md に持ち越した 3 件は"
              "設計フェーズで確定する予定\n```")
    parts = read_turn(fenced)
    assert "修正が完了した" in parts.prose and not parts.blocks
    commit_message = "```\nfix: retry the upload on a timeout\n```"
    assert read_turn(commit_message).blocks and "retry the upload" not in read_turn(commit_message).prose


def test_a_next_steps_list_stays_open_unless_a_later_ask_takes_it_up():
    words = lambda text: {word.lower() for word in text.replace("`", " ").split() if len(word) > 3}  # noqa: E731
    reply = ("The feature is in place.\n\n### **Next Steps Available:**\n1. **Apply Database Schema** - run the "
             "migration on your database\n2. **Admin Panel** - review verification requests\n\nAnything else?")
    later = [Turn("user", "add a verification badge to the header")]
    assert loose_ends.next_list(reply, later, words) == ["1. **Apply Database Schema** - run the migration on your "
                                                          "database"]
    zh = "改好了。\n\n### 下一步：部署到 Vercel\n1）注册 Vercel\n2）导入 GitHub 仓库\n"
    assert loose_ends.next_list(zh, [], words) == ["1）注册 Vercel", "2）导入 GitHub 仓库"]
    assert loose_ends.next_list(zh, [Turn("user", "部署到 Vercel 以后保存失败")], lambda text: set(text)) == []
    assert not loose_ends.next_heading("Todo list updated:") and loose_ends.next_heading("Langkah selanjutnya:")
    items = " ".join(_open(_summary([("user", "add the analytics page"), ("assistant", reply),
                                     ("user", "add a verification badge to the header"), ("assistant", "Added.")])))
    assert "Apply Database Schema" in items and "Admin Panel" not in items


def test_a_cancelled_reply_leaves_its_ask_waiting_and_terminal_chrome_hides_no_announcement():
    cancelled = "I'll keep each file's mode and only chmod when it differs. Here's the change:\n\n\nCancelled"
    items = " ".join(_open(_summary([("user", "write the packer"), ("assistant", "Done."),
                                     ("user", "preserve file permissions from the input"),
                                     ("assistant", cancelled)], agent="cursor")))
    assert "preserve file permissions" in items
    framed = ("⏺ Shader simplified. Let me try to compile to see what else needs fixing:\n\n"
              "  Bash(cargo check -p game 2>&1 | tail -100) timeout: 3m 0s\n\n" + "─" * 40 + "\n❯ \n" + "─" * 40
              + "\n  ⏵⏵ accept edits on (shift+tab to cycle)      Context left until auto-compact: 0%\n")
    items = " ".join(_open(_summary([("user", "simplify the sediment shader"), ("assistant", framed)])))
    assert "Let me try to compile" in items


def test_changes_the_session_ends_on_without_a_run_are_left_to_test():
    edited = ("⏺ Update(src/routes/search.py)\n  ⎿  Updated src/routes/search.py with 4 additions\n\n"
              "⏺ The search route now matches the TypeScript interface.")
    items = " ".join(_open(_summary([("user", "match the search route to the TypeScript one"), ("assistant", edited)])))
    assert "Not tested" in items and "routes/search.py" in items
    tested = edited + "\n\n⏺ Bash(pytest -q tests/test_search.py)\n  ⎿  3 passed in 0.4s\n\n⏺ All three pass."
    items = " ".join(_open(_summary([("user", "match the search route to the TypeScript one"), ("assistant", tested)])))
    assert "Not tested" not in items
    notes = "⏺ Update(docs/NEXT.md)\n  ⎿  Updated docs/NEXT.md with 2 additions\n\n⏺ NEXT.md lists the queue."
    items = " ".join(_open(_summary([("user", "write the work queue down"), ("assistant", notes)])))
    assert "Not tested" not in items  # a note is read, not run
    zh = _summary([("user", "把 pom.xml 改成 Java 8"), ("assistant", "⏺ Update(pom.xml)\n  ⎿  Updated pom.xml with 1 "
                                                                    "addition\n\n⏺ 已改为 Java 8。")])
    assert any(item.startswith("未测试") and "pom.xml" in item for item in _open(zh))


def test_a_cline_completion_after_tool_results_is_the_reply():
    turn = ("<read_file>\n<path>src/routes/videos.ts</path>\n</read_file>\n\n[read_file for 'src/routes/videos.ts'] "
            "Result:\nexport const router = express.Router();\n\n<write_to_file>\n<path>backend/routes/videos.py</path>"
            "\n<content>\nrouter = APIRouter()\n</content>\n</write_to_file>\n\n<attempt_completion>\n<result>\n"
            "The videos route now returns the same JSON as the TypeScript one.\n</result>\n</attempt_completion>")
    parts = read_turn(turn)
    assert "returns the same JSON" in parts.prose and "express.Router" not in parts.prose
    assert [call.kind for call in parts.calls] == ["read", "edit"]


def test_a_push_or_deploy_shown_but_never_run_by_the_agents_tools_is_the_users():
    ran = "⏺ Bash(pytest -q)\n  ⎿  12 passed in 0.8s\n\n⏺ All tests pass."
    shown = ("⏺ The package is ready.\n\n### To upload to GitHub:\n\n```bash\ngit init\ngit add .\n"
             "git remote add origin https://github.com/me/tool.git\ngit push -u origin main\n```")
    parts = [None, read_turn(ran), None, read_turn(shown)]
    assert loose_ends.publish_handed_over(parts) == ["git push -u origin main"]
    # Run later by a tool, with the real token or inside a chain: not the user's.
    deploy = read_turn("⏺ Run it yourself or give me the token:\n\n```bash\nvercel --token=YOUR_TOKEN --yes\n```")
    later = read_turn("⏺ Bash(cd web && vercel --token=abc123 --yes)\n  ⎿  Production: https://web.vercel.app")
    assert loose_ends.publish_handed_over([read_turn(ran), deploy, later]) == []
    assert loose_ends.publish_handed_over([read_turn(shown)]) == []  # no tool ran anything: a chat export
    items = " ".join(_open(_summary([("user", "package it"), ("assistant", ran), ("user", "and for GitHub?"),
                                     ("assistant", shown)])))
    assert "git push -u origin main" in items


def test_traditional_chinese_hands_a_task_to_the_user():
    from session_summarizer import cues
    assert cues.is_user_task("如果您想嘗試，請直接按照上面 GitHub Pages 的步驟操作即可。")
    assert cues.is_user_task("您只需要在您自己的終端機中執行幾個簡單的指令即可。")


def test_a_list_the_user_opens_as_for_later_is_put_off():
    en = ("Looks good. Three notes for future improvement (not blocking):\n\n1. No retry on a failed fetch. It "
          "aborts the run.\n2. No progress output.\n\nApproved, go on with the report.")
    ja = "いいですね。後で直したい点:\n- ログの色分け\n- 設定画面のヘルプ\n\n次はエクスポートをお願いします。"
    zh = "可以。以后再做的：\n- 导出 CSV\n\n现在先修复登录。"
    ko = "좋아요. 나중에 할 것:\n1. 다크 모드\n\n지금은 저장 버튼만 고쳐 주세요."
    assert loose_ends.listed_for_later([en]) == ["No retry on a failed fetch.", "No progress output."]
    assert loose_ends.listed_for_later([ja]) == ["ログの色分け", "設定画面のヘルプ"]
    assert loose_ends.listed_for_later([zh]) == ["导出 CSV"] and loose_ends.listed_for_later([ko]) == ["다크 모드"]
    assert loose_ends.listed_for_later(["Please fix these:\n1. the login\n2. the logout"]) == []
    items = " ".join(_open(_summary([("user", "build the weekly report"), ("assistant", "Built."), ("user", en),
                                     ("assistant", "The report is done.")])))
    assert "No progress output" in items
