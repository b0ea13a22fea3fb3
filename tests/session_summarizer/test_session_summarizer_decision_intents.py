"""Decisions the agent commits to with a reason in the same sentence, in four languages; what ranks them
(an option only offered, whoever chose in Chinese, Japanese and Korean, one choice told twice); pasted output
in the user's turn; and a choice repeated early that must not end the reading.

The projects and words here are made up; none comes from the real-session corpus.
"""

from session_summarizer.decision_intents import intends_with_reason
from session_summarizer.decision_rank import distinct, spread
from session_summarizer.local_summary import summarize
from session_summarizer.sections import decision_strength, is_decision
from session_summarizer.session import parse_session
from session_summarizer.transcript import read_turn
from session_summarizer.user_answers import answered_either, picked
from session_summarizer.worktree import check_files


def _summary(turns):
    raw = {"agent": "claude", "cwd": "", "turns": [{"role": role, "text": text} for role, text in turns]}
    return summarize(parse_session(raw), file_checker=lambda paths, folder: check_files(paths, ""))


def test_the_agent_committing_to_a_way_with_its_reason_is_a_decision():
    for sentence in (
        "I'll serve the demo with a small static server to avoid the browser's file:// module rules.",
        "The seed script is missing, so I'll write the fixtures by hand.",
        "We're going to keep the ledger in SQLite because the kiosk has no network.",
        "描画が不安定なため、既存のキャンバスは変更せずに新しいレイヤーを追加していきます。",
        "因为接口返回的时间带时区，我们将统一改为在服务端格式化。",
        "모델 응답만으로는 불안정하므로 사용자 입력에서 명령을 감지하는 폴백을 추가하겠습니다.",
    ):
        assert intends_with_reason(sentence), sentence
        assert is_decision(sentence), sentence


def test_looking_retrying_tool_use_and_fixing_the_error_just_hit_are_not_decisions():
    for sentence in (
        "I'll read the config to understand why the port is taken.",
        "I'll use the edit tool to add the header because the file is long.",
        "I'll change the import to fix the lint error in the parser.",
        "원인을 파악하기 위해 로그를 추가하겠습니다.",
        "設定が古いため、もう一度ビルドを実行します。",
        "因为缓存过期，我们将重新运行测试。",
        "I'll keep the fixtures?",
    ):
        assert not intends_with_reason(sentence), sentence


def test_an_option_only_offered_ranks_below_a_choice_made_with_its_reason():
    offered = "Option 1: rebuild the index nightly (recommended)"
    made = "We decided to keep the nightly rebuild because the index drifts."
    assert decision_strength(offered) == 1
    assert decision_strength(made) == 3
    # Whoever chose, in the languages that say it with a verb ending or a pronoun and a modal.
    assert decision_strength("缓存键忽略了区域设置，我们应该改用完整的请求路径，而不是只用主机名。") == 3
    assert decision_strength("キャッシュが壊れやすいので、ディスクではなくメモリに置くことにしました。") == 3


def test_one_choice_told_twice_is_listed_once():
    texts = ["The file is large, so I push it with the contents API.",
             "The file is large, so I push it with the contents API instead.",
             "We keep the ledger in SQLite because the kiosk is offline.",
             "ファイルが大きいため、APIで直接プッシュします。",
             "ファイルが大きいため、APIで直接プッシュします！"]
    assert distinct(texts, [0, 1, 2, 3, 4], 12) == [0, 2, 3]
    assert distinct(texts, [0, 1, 2, 3, 4], 2) == [0, 2]


def test_pasted_output_in_the_users_turn_is_not_the_users_choice():
    pasted = ("Error Message: Object literal must match a declared class instead of an inline type "
              "(no-untyped-literals) At File: pages/Pay.ets:41:13")
    summary = _summary([("assistant", "Built the payment page."), ("user", pasted)])
    assert not any("Object literal" in item for item in summary.findings.items), summary.findings.items


def test_a_choice_repeated_early_does_not_end_the_reading_while_new_choices_come():
    said = "We decided to keep the old name as an alias because plugins import it."
    new = {60: "I'll pin the schema version in the lockfile to avoid silent upgrades.",
           130: "I'll serve the demo from a static server to avoid the browser's file:// module rules."}
    turns = []
    for number in range(160):
        turns.append(("user", "Next step " + str(number) + ", please."))
        turns.append(("assistant", said))
        if number in new:  # a new choice now and then, between the repeats
            turns.append(("user", "And then?"))
            turns.append(("assistant", new[number]))
    items = _summary(turns).findings.items
    assert any("static server" in item for item in items), items


def test_one_reader_finds_the_option_a_short_answer_picks_by_number_label_words_or_yes():
    offer = ("Two ways:\n1. Keep the queue in memory\n2. Store the queue in SQLite so it survives restarts "
             "(recommended)\n\nWhich one should I take?")
    for answer in ("Option 2", "2番でお願いします", "2", "your recommendation", "OK"):
        assert "SQLite" in picked(answer, answer, offer, offer), answer
    assert "memory" in picked("option 1", "option 1", offer, offer)
    assert picked("Why SQLite?", "Why SQLite?", offer, offer) == ""


def test_the_codex_apps_folded_messages_are_read_as_the_agents_prose():
    reply = ("<details><summary>3 previous messages</summary>\n\n"
             "> I'll look at the layout first.\n>\n"
             "> <details><summary>Explored 2 files, ran a command</summary>\n>\n"
             "> <details><summary>Explored 2 files</summary>\n>\n> - Read `a.py`\n>\n> </details>\n>\n"
             "> - Ran `git status --short`\n>\n> </details>\n>\n"
             "> I'm going to pin the parser to the 1.4 release instead of the 2.0 preview line.\n\n"
             "</details>\n\nDone. The parser is pinned.")
    parts = read_turn(reply)
    assert "instead of the 2.0 preview line" in parts.prose
    assert "Explored" not in parts.prose and "</details>" not in parts.prose and "Ran `git" not in parts.prose
    assert "Done. The parser is pinned." in parts.prose
    items = _summary([("user", "Set up the parser."), ("assistant", reply)]).findings.items
    assert any("2.0 preview" in item for item in items), items


def test_the_users_own_answer_to_two_ways_offered_is_their_choice():
    offer = ("Both handlers log the same line when the socket closes.\n\nIf you prefer one line, we can either "
             "drop the second log or tag each line with the socket's direction.")
    assert answered_either("Safest to keep both lines but tag the direction", offer).startswith("Safest")
    assert answered_either("やはり方向を付けるのが安全", "片方を消しますか、それとも方向を付けますか？") != ""
    # A new request, a question back, a bare word or a reply that ignores the offer is no pick.
    for answer in ("give me a curl command to test the socket", "why does it close twice?", "different",
                   "The build on CI is red again", "Looks right. Now add a README."):
        assert answered_either(answer, offer) == "", answer
    assert answered_either("Safest to keep both lines but tag the direction", "Done, the socket closes once.") == ""
    summary = _summary([("user", "Why two lines?"), ("assistant", offer),
                        ("user", "Safest to keep both lines but tag the direction")])
    assert any("tag the direction" in item for item in summary.findings.items), summary.findings.items


def test_a_user_weighing_one_way_over_another_is_read_without_other_cues():
    summary = _summary([("user", "The API says 429 after many calls."),
                        ("assistant", "I added a one second delay between requests."),
                        ("user", "sorry, i think a local cache is a better solution - do that instead")])
    assert any("local cache" in item for item in summary.findings.items), summary.findings.items


def test_a_long_sessions_strong_choices_are_picked_over_the_whole_session():
    assert spread([0, 1, 2, 3, 4, 5, 6, 7], [3] * 8, 2) == [0, 4]  # a tier far over the room: spread
    assert spread([0, 1, 2], [3, 3, 3], 2) == [0, 1]  # a few more than fit: the first ones
    assert spread([5, 0, 1, 2, 3, 4], [2, 2, 2, 2, 2, 3], 3) == [5, 0, 2]
    assert spread([0, 1, 2, 3, 4, 5, 6, 7], [1] * 8, 2) == [0, 1]  # the weakest kind is not spread
    turns = []
    for number in range(40):
        turns.append(("user", "Next part " + str(number) + "."))
        turns.append(("assistant", "We decided to keep module " + str(number) + " in its own file because "
                                   "its tests run alone."))
    turns.append(("user", "And the cache?"))
    turns.append(("assistant", "We decided to keep the cache in Redis instead of memory because workers restart."))
    items = _summary(turns).findings.items
    assert any("Redis" in item for item in items), items
