"""The "what was done" section on held-out-style replies: results, not activity.

The replies are invented here in the shapes agents print them (Claude Code and Codex tool lines, a Kiro-style
"summary of what changed" list, SpecStory exports with emoji placeholders, Korean, Japanese, Portuguese and
Chinese headings); none is copied from the corpus.
"""

from session_summarizer.local_summary import LIMITS, summarize
from session_summarizer.sections import result_lists
from session_summarizer.session import parse_session
from session_summarizer.worktree import check_files


def _summary(turns, agent="claude"):
    raw = {"agent": agent, "cwd": "", "turns": [{"role": role, "text": text} for role, text in turns]}
    return summarize(parse_session(raw), file_checker=lambda paths, folder: check_files(paths, ""))


def test_a_line_that_introduces_a_summary_of_changes_heads_a_results_list():
    reply = ("**120 passed, 0 failed.** Both failures are fixed.\n\nHere's a summary of what changed:\n\n"
             "- `src/dates.py` — parse ISO week numbers with `isocalendar()` instead of `strftime('%W')`\n"
             "- `tests/test_dates.py` — the year-end case now expects week 1")
    assert result_lists(reply) == [
        "`src/dates.py` — parse ISO week numbers with `isocalendar()` instead of `strftime('%W')`",
        "`tests/test_dates.py` — the year-end case now expects week 1"]


def test_a_results_section_holds_across_its_sub_paragraphs_until_a_section_of_what_is_left():
    reply = ("All green.\n\n## What landed\n\n### Client\n\nBuilds clean:\n\n- `api/client.go` — retries on 503\n"
             "- `api/client_test.go` — covers the retry\n\n**Server** — tsc clean:\n\n"
             "- `routes/upload.ts` — streams the body\n\n### Still to do\n\n- Wire the metrics\n\n"
             "## Notes\n\n- The staging key expires on Friday\n")
    assert result_lists(reply) == ["`api/client.go` — retries on 503", "`api/client_test.go` — covers the retry",
                                   "`routes/upload.ts` — streams the body"]


def test_results_headings_in_other_languages_and_with_exporter_placeholders():
    for heading in ("### [OK] O que foi feito:", "## ✅ 완료된 작업", "## 変更内容", "## 修改内容",
                    "**Cambios realizados:**", "### 🎉 Итог"):
        assert result_lists(heading + "\n\n1. **Cache**: keys now include the locale\n2. Removed the old flag\n") == [
            "**Cache**: keys now include the locale", "Removed the old flag"], heading


def test_advice_next_steps_checks_and_warnings_are_not_results():
    assert result_lists("To fix this, make sure:\n- the link points to a served file\n- the port is open") == []
    assert result_lists("## Next steps\n- Add retries\n- Ship it") == []
    assert result_lists("## Proposed changes\n- Split the module") == []
    checks = ("## Changes\n- Moved the config to the root\n- Tag triggers: Ensure tags still start the workflow\n"
              "- [WARN] Push blocked -> you need to choose\n- Final checks:\n- Verify the build")
    assert result_lists(checks) == ["Moved the config to the root"]


def test_short_label_value_items_are_one_bullet_and_short_results_stay_apart():
    fields = "## Upload result\n- Files: 12\n- Size: 3.1 MiB\n- Branch: main\n- Remote: origin"
    assert result_lists(fields) == ["Files: 12; Size: 3.1 MiB; Branch: main; Remote: origin"]
    results = "## Summary\n- A CSV importer\n- A dry-run mode\n- A README"
    assert result_lists(results) == ["A CSV importer", "A dry-run mode", "A README"]


def test_commits_and_pushes_that_tool_output_shows_are_results_and_a_rejected_push_is_not():
    reply = ("⏺ Bash(git commit -m \"fix: keep the search term on reload\")\n"
             "  ⎿  [main 4f2a9c1] fix: keep the search term on reload\n      1 file changed, 3 insertions(+)\n\n"
             "⏺ Bash(git push origin main)\n  ⎿  To github.com:acme/shop.git\n"
             "        9d8e7f6..4f2a9c1  main -> main\n\n"
             "⏺ Pushed.")
    done = _summary([("user", "Commit and push it."), ("assistant", reply)]).done.items
    assert "Committed 4f2a9c1 fix: keep the search term on reload" in done
    assert "Pushed main to github.com:acme/shop.git" in done
    rejected = ("⏺ Bash(git push origin main)\n  ⎿  To github.com:acme/shop.git\n"
                "      ! [rejected]        main -> main (non-fast-forward)\n"
                "     error: failed to push some refs to 'github.com:acme/shop.git'")
    done = _summary([("user", "Push it."), ("assistant", rejected)]).done.items
    assert not any("Pushed" in item for item in done)


def test_acting_tool_calls_are_named_once_with_their_count():
    reply = ("⏺ github - create_repository (MCP)(name: \"shop\")\n  ⎿  {\"full_name\": \"acme/shop\"}\n\n"
             "⏺ github - push_files (MCP)(repo: \"shop\")\n  ⎿  {\"sha\": \"4f2a9c1\"}\n\n"
             "⏺ github - push_files (MCP)(repo: \"shop\")\n  ⎿  {\"sha\": \"5e3b0d2\"}\n\n"
             "⏺ github - get_file_contents (MCP)(path: \"README.md\")\n  ⎿  {\"content\": \"…\"}\n\n⏺ Done.")
    done = _summary([("user", "Create the repository and push the code with the GitHub tools."),
                     ("assistant", reply)]).done.items
    assert any("create_repository (github)" in item and "push_files (github) ×2" in item for item in done)
    assert not any("get_file_contents" in item for item in done)


def test_announced_work_and_todo_records_are_not_results():
    reply = ("I'll set up the test harness and add the fixtures next.\nUpdated todo list\n"
             "Added the CSV export to reports.py.")
    done = _summary([("user", "Add a CSV export."), ("assistant", reply)], agent="copilot").done.items
    assert done[0] == "Added the CSV export to reports.py."
    assert not any("I'll set up" in item or "todo" in item.lower() for item in done)


def test_each_reply_s_headline_comes_first_and_the_reply_that_closes_a_phase_wins():
    first = ("Perfect! I've implemented virtual scrolling so only the visible rows render.\n\n## Changes\n"
             "- Row height: fixed at 32px\n- Buffer: 10 rows above and below\n- Scroll handler: throttled")
    working = "\n".join("Added helper number " + str(n) + " to grid.js." for n in range(12))
    closing = "Done: the header no longer overlaps the table. Fixed the z-index of the sticky header."
    turns = [("user", "The table is too slow with 20,000 rows."), ("assistant", first),
             ("user", "The header overlaps the table."), ("assistant", working), ("assistant", closing)]
    done = _summary(turns, agent="copilot").done.items
    assert "I've implemented virtual scrolling" in done[0]
    assert any("z-index of the sticky header" in item for item in done)
    # A phase that sums up in its last reply keeps that summary even when a later, busier phase fills the section.
    turns = [("user", "Add the import screen."), ("assistant", "Added the upload form to import.html."),
             ("assistant", "The import screen is done: upload, preview and a dry run.")]
    turns += [("user", "Now port the reports.")] + [("assistant", "Added report number " + str(n) + " to the Go port.")
                                                     for n in range(LIMITS["done"] + 2)]
    done = _summary(turns, agent="copilot").done.items
    assert any("The import screen is done" in item for item in done)
    assert sum("to the Go port" in item for item in done) < LIMITS["done"] + 2  # the busy phase gave way


def test_edited_files_are_evidence_when_results_do_not_say_where_and_never_a_json_fragment():
    edits = "\n".join("⏺ Update(app/views.py)\n  ⎿  Updated app/views.py with 2 additions" for _ in range(3))
    done = _summary([("user", "Add paging."), ("assistant", edits + "\n\n⏺ Added paging to the list view.")]).done
    assert done.items == ["Added paging to the list view.",
                          "Edited files (per the session's edit records): `app/views.py`"]
    three = "\n".join("- Added paging option number " + str(n) + " to the list view" for n in range(3))
    unnamed = _summary([("user", "Add paging."), ("assistant", edits + "\n\n## Summary\n" + three)]).done
    assert unnamed.items[-1].startswith("Edited files")  # results that never say where: the files are the evidence
    many = "\n".join("- Changed app/views.py to page list number " + str(n) for n in range(6))
    full = _summary([("user", "Add paging."), ("assistant", edits + "\n\n## Summary\n" + many)]).done
    assert not any(item.startswith("Edited files") for item in full.items)


def test_an_edit_call_whose_text_is_not_a_path_is_not_evidence():
    from session_summarizer.formats import EDIT
    from session_summarizer.sections import edited_evidence
    from session_summarizer.transcript import TurnParts

    parts = TurnParts()
    parts.call(EDIT, '{"instruction"')
    parts.call(EDIT, "src/app.py")
    assert edited_evidence([parts]) == ["src/app.py"]


def test_a_japanese_fragment_that_only_reports_looking_is_not_a_result():
    reply = ("要件を確認しました。\n\n## 変更内容\n\n"
             "- `app/map.tsx` を動的インポートに変更し、SSR で Leaflet を読み込まないようにしました")
    done = _summary([("user", "SSRのエラーを直してください。"), ("assistant", reply)], agent="cursor").done.items
    assert done[0].startswith("`app/map.tsx` を動的インポートに変更")
    assert not any(item.startswith("要件を確認") for item in done)


def test_the_reply_that_closes_a_phase_says_where_the_work_ended_up_and_failures_left_are_not_that():
    turns = [("user", "Run the test suite and look at the failures."),
             ("assistant", "The suite ran: 410 passed, 3 failed. Two are path bugs, one is a stale fixture."),
             ("user", "Fix them all."),
             ("assistant", "Patched the path join in loader.py.\n\nThen: 412 passed, 1 failed.\n\n"
                           "413 passed, 0 failed. The stale fixture is regenerated.")]
    done = _summary(turns, agent="kiro").done.items
    assert any("413 passed, 0 failed" in item for item in done)
    assert not any("3 failed" in item or "1 failed" in item for item in done)
    korean = [("user", "대화를 chat.md에 저장해줘"),
              ("assistant", "✅ 대화 내용이 chat.md 파일에 성공적으로 저장되었음!"),
              ("user", "깃허브에 올려줘"), ("assistant", "업로드하겠습니다!")]
    done = _summary(korean, agent="cursor").done.items
    assert any("chat.md 파일에 성공적으로 저장" in item for item in done)
    assert not any("업로드하겠습니다" in item for item in done)


def test_pushes_through_tool_calls_say_so_and_calls_are_counted_by_tool_not_by_argument():
    reply = ("⏺ github - create_repository (MCP)(name: \"atlas\")\n  ⎿  {\"full_name\": \"ana/atlas\"}\n\n"
             "⏺ github - push_files (MCP)(branch: \"main\")\n  ⎿  {\"sha\": \"1\"}\n\n"
             "⏺ github - push_files (MCP)(branch: \"docs\")\n  ⎿  {\"sha\": \"2\"}\n\n⏺ Done.")
    done = _summary([("user", "Publish it with the GitHub tools."), ("assistant", reply)]).done.items
    pushed = [item for item in done if item.startswith("Pushed with tool calls:")]
    assert len(pushed) == 1 and pushed[0].count("push_files") == 1 and "×2" in pushed[0]


def test_a_japanese_report_that_names_no_object_is_a_fragment_and_a_chinese_change_list_is_results():
    reply = "ローカルでコミット済みです。\n\nデバッグログを削除済み。"
    done = _summary([("user", "コミットしてください。"), ("assistant", reply)], agent="cursor").done.items
    assert "デバッグログを削除済み。" in done and "ローカルでコミット済みです。" not in done
    listed = result_lists("这个修改：\n\n1. 添加了两个新的卡片组件：\n\n   - Cookie 信息卡片\n\n2. 使用了响应式布局")
    assert listed == ["添加了两个新的卡片组件：", "使用了响应式布局"]


def test_a_chinese_or_korean_closing_statement_is_where_a_fix_phase_ended_up():
    turns = [("user", "For the code present, we get this error:\n```\n找不到模块“@/lib/chart”\n```"),
             ("assistant", "这个错误表明找不到 chart 模块。让我们创建这个文件：\n\n"
                           "这样就解决了找不到 chart 模块的问题。"),
             ("user", "For the code present, we get this error:\n```\n参数“row”隐式具有“any”类型。\n```"),
             ("assistant", "我们需要定义类型：\n\n我们定义了 `TableRow` 接口并应用到 `row` 参数上。")]
    done = _summary(turns, agent="cursor").done.items
    assert any("解决了找不到 chart 模块" in item for item in done)
    assert any("TableRow" in item for item in done)
    korean = [("user", "빌드 오류를 고쳐줘"),
              ("assistant", "설정을 확인했습니다.\n\n이제 `npm run build`가 정상적으로 됩니다.")]
    assert any("npm run build" in item for item in _summary(korean, agent="cursor").done.items)


def test_a_feature_built_early_survives_a_long_tail_of_later_results():
    turns = [("user", "Build the order table."), ("assistant", "Implemented virtual scrolling for the order table.")]
    for n in range(12):
        turns += [("user", "Next tweak " + str(n) + "."),
                  ("assistant", "\n".join("Added tweak " + str(n) + " part " + str(part) + " to table.js."
                                          for part in range(3)))]
    done = _summary(turns, agent="copilot").done.items
    assert any("virtual scrolling" in item for item in done)
    assert any("tweak 11" in item for item in done)


def test_a_commit_message_written_out_for_the_user_is_a_result():
    conventional = "```\nfix: keep the locale in cache keys\n\n- key includes the locale\n```"
    shown = ("Here's the commit message:\n\n```bash\ngit add -A && git commit -m \"Tidy the importer and its tests\n\n"
             "- split parse()\"\n```")
    plain = "コミットメッセージの案です：\n\n```\n地図の初期表示を東京駅に変更\n```"
    steps = "커밋 메시지는 아래 순서로 정리했습니다:\n\n```\n1. 사용자 질문 → 답변\n```"
    for reply, subject in ((conventional, "fix: keep the locale in cache keys"),
                           (shown, "Tidy the importer and its tests"), (plain, "地図の初期表示を東京駅に変更")):
        done = _summary([("user", "suggest a commit message"), ("assistant", reply)], agent="kiro").done.items
        assert any(item.endswith(subject) for item in done), reply
    done = _summary([("user", "커밋 메시지 정리해줘"), ("assistant", steps)], agent="cursor").done.items
    assert not any("사용자 질문" in item for item in done)


def test_a_results_table_gives_its_rows_and_all_checks_passing_is_an_outcome():
    reply = ("Build succeeded. Now the full dry run.\n\nAll three checks passed:\n\n| Step | Result |\n|---|---|\n"
             "| `make lint` | clean |\n| `make dist` | 3 wheels built |\n\nThe release pipeline is ready.")
    done = _summary([("user", "Try the release steps one by one."), ("assistant", reply)]).done.items
    assert "`make dist` — 3 wheels built" in done and "`make lint` — clean" in done
    assert not any(item.startswith("Step") for item in done)
    assert any("release pipeline is ready" in item for item in done)
    assert result_lists("Options:\n\n| Option | Cost |\n|---|---|\n| A | low |") == []


def test_pushes_through_tool_calls_lead_the_section_even_in_a_long_session():
    turns = [("user", "Create the repository and push."),
             ("assistant", "⏺ github - push_files (MCP)(branch: \"main\")\n  ⎿  {\"sha\": \"1\"}\n\n⏺ Pushed.")]
    for n in range(40):
        turns += [("user", "Next " + str(n) + "."),
                  ("assistant", "\n".join("Added piece " + str(n) + "." + str(part) + " to app.js."
                                          for part in range(3)))]
    done = _summary(turns).done
    assert done.items[0].startswith("Pushed with tool calls: push_files (github)")
    assert len(done.items) <= LIMITS["done"] + 1


def test_a_chat_whose_replies_say_only_made_changes_lists_the_asks_its_edits_answered():
    turns = []
    for ask in ("tambahkan tombol mode gelap di halaman utama", "make the search box filter the recipes as you type",
                "bigger", "move the footer links into a dropdown menu"):
        turns += [("user", ask), ("assistant", "Made changes.")]
    turns += [("user", "why is the page blank?"), ("assistant", "The script tag points at the old file name.")]
    done = _summary(turns, agent="copilot").done.items
    assert "Edited for the ask: tambahkan tombol mode gelap di halaman utama" in done
    assert "Edited for the ask: move the footer links into a dropdown menu" in done
    assert not any(item.endswith(": bigger") for item in done)  # feedback, not an ask for work
    assert not any("blank" in item for item in done)  # a question answered without an edit
    # A session whose replies report their results does not list its asks.
    reported = [*turns[:2], ("user", "add a print button"), ("assistant", "Added a print button to index.html."),
                ("user", "add paging"), ("assistant", "Added paging to the list."),
                ("user", "add sorting"), ("assistant", "Added sorting by date.")]
    assert not any(item.startswith("Edited for the ask") for item in _summary(reported, agent="copilot").done.items)


def test_a_reply_an_exporter_wrapped_whole_in_a_fence_is_read_as_words_and_code_is_not():
    wrapped = ("```\nForwarding now retries `send()` until every byte is written (`proxy.c:91`). "
               "I didn't run the tests here.\n- Added `tests/run.py` with five scenarios for dropped links.\n```")
    done = _summary([("user", "fix the proxy"), ("assistant", wrapped)], agent="codex").done.items
    assert any("Added `tests/run.py` with five scenarios" in item for item in done)
    code = "```\nint main(void) {\n    return send_all(fd, buf, len);\n}\n```"
    assert not any("send_all" in item for item in _summary([("user", "fix it"), ("assistant", code)]).done.items)
