"""The "what was done" section reads a session by its asks: one result per accomplished ask first, and a short
sentence that announces a list ("Done.", "Готово.", "完了しました。") heads it like a heading would.

Every reply here is invented in the shapes agents print (Cursor/SpecStory replies, Claude Code summaries), in
several languages; none is copied from the corpus.
"""

from session_summarizer.done_commits import reported_commits
from session_summarizer.done_states import is_new_state
from session_summarizer.local_summary import LIMITS, count_words, summarize
from session_summarizer.sections import result_lists
from session_summarizer.session import parse_session
from session_summarizer.worktree import check_files


def _done(turns, agent="cursor"):
    raw = {"agent": agent, "cwd": "", "turns": [{"role": role, "text": text} for role, text in turns]}
    return summarize(parse_session(raw), file_checker=lambda paths, folder: check_files(paths, "")).done.items


def test_a_short_sentence_announcing_results_heads_the_list_under_it_in_several_languages():
    for lead in ("Done.", "Here's what I changed.", "Готово, вот что сделано.", "以下の変更を実装しました。",
                 "已完成以下修改。", "다음과 같이 변경했습니다."):
        reply = (lead + "\n\n- `cart.ts`: the total now rounds once, at checkout\n"
                 "- `cart.test.ts`: covers a 0.1 + 0.2 cart\n")
        assert result_lists(reply) == ["`cart.ts`: the total now rounds once, at checkout",
                                       "`cart.test.ts`: covers a 0.1 + 0.2 cart"], lead


def test_a_sentence_that_is_not_about_results_or_is_long_heads_nothing():
    for lead in ("Here are a few options.", "Next I will do this.",
                 ("I went through the module and the cart total was computed in two places, and both of them"
                 " changed to round once.")):
        assert result_lists(lead + "\n\n- round once at checkout\n- drop the second total\n") == [], lead


def test_a_lead_in_right_over_sub_headings_heads_every_part_until_a_part_about_what_is_left():
    reply = ("Сделано так:\n\n### Бэкенд\n- `ledger.py`: transfers post two legs with their own currency\n\n"
             "### Интерфейс\n- the transfer form shows both wallets' balances\n\n"
             "### Next steps\n- add a rate history\n")
    assert result_lists(reply) == ["`ledger.py`: transfers post two legs with their own currency",
                                   "the transfer form shows both wallets' balances"]
    # Without the lead-in the sub-headings are only topics.
    assert result_lists(reply.split("\n", 1)[1]) == []


def _many_asks(count, per_reply=5, words=""):
    turns = []
    for number in range(count):
        turns.append(("user", f"Please build feature {number} for the warehouse app now."))
        items = "\n".join(f"- Built feature{number} part {depth} with its own tests{words}"
                          for depth in range(per_reply))
        turns.append(("assistant", f"Working on it.\n\n## Summary\n{items}\n"))
    return turns


def test_each_accomplished_ask_of_a_long_session_gets_its_result_before_any_gets_a_second():
    # 18 asks of 5 results each: more than "done" reads (4 times its size) when it counts every result
    asks = LIMITS["done"] - 2
    done = _done(_many_asks(asks))
    for number in range(asks):
        assert any(f"feature{number} part 0" in item for item in done), number
    assert not any("part 2" in item for item in done)


def test_the_section_keeps_to_its_share_of_words_and_details_give_way_to_each_ask_s_result():
    detail = (", and it reads the stock levels from the warehouse feed every five minutes without blocking the UI,"
              " retrying twice when the feed is down")
    done = _done(_many_asks(4, words=detail))
    assert all(any(f"feature{number} part 0" in item for item in done) for number in range(4)), done
    assert sum(count_words(item) for item in done) <= 240
    assert all(len(item) <= 170 for item in done)  # a long result is cut at a word, its head kept


def test_a_phase_of_several_replies_leads_with_the_reply_that_closes_it():
    turns = [("user", "Add an invoice export to the admin page."),
             ("assistant", "## Changes\n- `export.ts`: a CSV writer for invoices\n- `export.ts`: dates in ISO"),
             ("assistant", "## Summary\n- Invoice export: a CSV button on the admin page\n- 31 tests pass"),
             ("user", "Now add a PDF version of the same export."),
             ("assistant", "## Summary\n- A PDF invoice export beside the CSV one")]
    done = _done(turns)
    first = [item for item in done if "export" in item.lower()]
    assert first[0].startswith("Invoice export: a CSV button"), done
    assert any("PDF invoice export" in item for item in done)


def test_a_statement_of_the_new_state_is_a_result_in_several_languages():
    for sentence in ("The chart now uses the high-contrast palette and a white background.",
                     "The file report.html has been created with the title at the top.",
                     "Legend entries are now sorted by the final standings.",
                     "保存ボタンを押すと一覧が更新されるようになりました。",
                     "다크 모드 토글이 설정 화면에 추가되었습니다.",
                     "이제 검색창에서 태그를 바로 필터링할 수 있습니다.",
                     "现在列表会按使用次数排序了。"):
        assert is_new_state(sentence), sentence


def test_plans_guesses_failures_and_lead_ins_are_not_a_new_state():
    for sentence in ("The build should now pass on CI.", "Now I'll update the tests for the chart.",
                     "The page now fails to load after the change.", "If you run it now, the chart uses names.",
                     "Looks like the server is now running from the old folder.",
                     "The model is now trained and saved in these files:",
                     "エラーが表示されました。", "설치가 되지 않았습니다。", "现在还是失败了。"):
        assert not is_new_state(sentence), sentence


def test_the_reply_that_closes_an_ask_reports_its_result_as_a_new_state():
    turns = [("user", "Switch the chart to plotly express."),
             ("assistant", "The chart now uses plotly express with hover labels for each driver. "
                           "The legend is now sorted by points as well. Let me know if you want more!"),
             ("user", "Add a flag emoji to each race."),
             ("assistant", "Ich habe nichts gefunden.\n\nFlag emoji are now shown before each race name on the axis.")]
    done = _done(turns, agent="copilot")
    assert any(item.startswith("The chart now uses plotly express") for item in done), done
    assert not any("legend is now sorted" in item for item in done)  # the reply's first statement heads it
    assert any(item.startswith("Flag emoji are now shown") for item in done), done


def test_a_commit_reported_under_a_commit_label_is_a_result_with_its_hash_in_several_languages():
    for reply, expected in (
            ('All set.\n\n**Commit**: `5b0c1d2` - "Enforce uv run for the dev tools"',
             "5b0c1d2 Enforce uv run for the dev tools"),
            ("Готово.\n\n- **Коммит:** `7e3f9a1` — `feat: счета по валютам`", "7e3f9a1 feat: счета по валютам"),
            ("完了しました。\n\nコミット: 3c4d5e6 (fix: 一覧の並び順)", "3c4d5e6 fix: 一覧の並び順"),
            ("已推送。\n\n提交：9f8e7d6 修复登录页", "9f8e7d6 修复登录页"),
            ("푸시했습니다.\n\n- 커밋: `0a1b2c3`", "0a1b2c3")):
        assert reported_commits(reply)[0] == (expected.split(" ", 1)[0], expected.partition(" ")[2]), reply
        done = _done([("user", "Commit and push the change."), ("assistant", reply)])
        assert any(expected.split(" ", 1)[0] in item and item.rstrip().endswith(expected.partition(" ")[2])
                   for item in done), done


def test_a_hash_that_is_not_under_a_commit_label_is_not_a_commit():
    for reply in ("This is based on 5b0c1d2 from main.", "I reverted commit 5b0c1d2 because it broke the build.",
                  "**Commit**: `deadbeef`", "Commit: 1234567 rows were imported."):
        assert reported_commits(reply) == [], reply


def test_aider_commits_show_their_hash_and_a_commit_made_again_is_one_result():
    reply = ("> Applied edit to graph.py\n> Commit a774d48 feat: add the indexing graph\n\n"
             "> Applied edit to graph.py\n> Commit b885e59 feat: add the indexing graph")
    done = _done([("user", "Add the indexing graph to the processor."), ("assistant", reply)], agent="aider")
    assert sum("feat: add the indexing graph" in item for item in done) == 1, done
    assert any("a774d48" in item for item in done), done


def _run(command, output):
    return "⏺ Bash(" + command + ")\n  ⎿  " + "\n     ".join(output.split("\n")) + "\n"


def test_the_newest_test_tally_of_a_phase_is_reported_with_its_failures():
    for output, tally in (("Test Files  1 failed (3)\n      Tests  2 failed | 10 passed (12)",
                           "2 failed | 10 passed (12)"),
                          ("==== 3 failed, 42 passed in 1.20s ====", "3 failed, 42 passed"),
                          ("Tests:       1 failed, 9 passed, 10 total", "1 failed, 9 passed, 10 total"),
                          ("test result: ok. 12 passed; 0 failed; 0 ignored", "12 passed; 0 failed; 0 ignored")):
        older = _run("npm test", "Tests  7 failed | 5 passed (12)") + "\nSeven fail; fixing the fixtures."
        reply = "Fixed the fixtures.\n\n" + _run("npm test", output)
        done = _done([("user", "Make the service suite pass."), ("assistant", older), ("assistant", reply)],
                     agent="claude")
        assert "Test run: " + tally in done, (output, done)
        assert not any("7 failed" in item for item in done)  # only the newest tally of the phase


def test_a_line_that_only_mentions_passing_is_not_a_tally():
    reply = _run("cat notes.md", "The review passed yesterday.\nSee 3 passed items below") + "\nRead the notes."
    assert not any(item.startswith("Test run") for item in _done([("user", "Read the notes."), ("assistant", reply)],
                                                                  agent="claude"))
