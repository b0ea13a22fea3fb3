"""The user's short answers to what the agent put to them, and choices said in Traditional Chinese or with
their reason as a purpose clause, on held-out-style cases. The projects and words are made up."""

from session_summarizer.cues import states_rule
from session_summarizer.hant import simplified
from session_summarizer.local_summary import summarize
from session_summarizer.sections import is_decision
from session_summarizer.session import parse_session
from session_summarizer.user_answers import picked_label, took_recommendation, with_own_words
from session_summarizer.worktree import check_files


def _decisions(turns):
    raw = {"agent": "claude", "cwd": "", "turns": [{"role": role, "text": text} for role, text in turns]}
    return summarize(parse_session(raw), file_checker=lambda paths, folder: check_files(paths, "")).findings.items


_OPTIONS = ("The review left two small points. How should we go on?\n\n"
            "- (a) Fix both points now, then start the second round\n"
            "- (b) Record both points in notes.md and start the second round\n"
            "- (c) Skip them and start the second round\n")


def test_a_bare_option_label_picks_that_option():
    for answer in ("(b)", "b", "B", "（ｂ）", "b案", "option b", "b で"):
        assert picked_label(answer, _OPTIONS).startswith("Record both points in notes.md"), answer
    items = _decisions([("user", "Review the plan."), ("assistant", _OPTIONS), ("user", "（ｂ）")])
    assert any("notes.md" in item for item in items), items
    # Without options under labels, or with an answer that says more than a label, nothing is picked.
    assert picked_label("b", "Should I record the points in notes.md?") == ""
    assert picked_label("b is wrong, why?", _OPTIONS) == ""
    assert picked_label("(b)", "- (b) Record both points in notes.md\n") == ""


def test_a_numbered_list_picked_by_its_number_in_korean_and_japanese():
    offer = "어떻게 할까요?\n\n1. 웹훅으로 연동\n2. 주기적으로 폴링\n"
    assert picked_label("2번", offer) == "주기적으로 폴링"
    assert picked_label("２番で", offer.replace("어떻게 할까요?", "どうしますか？")) == "주기적으로 폴링"


def test_a_yes_to_a_reply_that_recommended_one_option_takes_it():
    offer = ("Option 1: keep the cache in memory\nOption 2: store it in SQLite\n\n"
             "**Recommended**\nOption 2, because the cache must survive restarts.\n\nShall I go ahead with option 2?")
    for answer in ("OK", "yes, go ahead", "はい、お願いします", "好的", "네 진행해 주세요", "sim"):
        assert "survive restarts" in took_recommendation(answer, offer), answer
    # A yes that asks something, a reply that recommends nothing, or one that asks nothing: no pick.
    assert took_recommendation("yes, but do we need a migration?", offer) == ""
    assert took_recommendation("OK", "Option 1: memory\nOption 2: SQLite\n\nShall I go ahead?") == ""
    assert took_recommendation("OK", offer.replace("Shall I go ahead with option 2?", "Done.")) == ""


def test_the_users_words_beside_the_pick_stay_with_it():
    chosen = "2. Poll the repository: no public endpoint needed"
    assert with_own_words(chosen, "2 but run it as a watcher inside the daemon").endswith(
        "— 2 but run it as a watcher inside the daemon")
    assert with_own_words(chosen, "(b)") == chosen
    assert with_own_words(chosen, "OK") == chosen


def test_a_user_turning_a_thing_down_is_a_rule_for_the_work():
    for sentence in ("デモボタンはいりません。", "明らかに不利な候補は提案しなくて良い。", "这个页面不需要登录按钮。",
                     "데모 버튼은 필요 없어요."):
        assert states_rule(sentence), sentence


def test_traditional_chinese_choices_and_reasons_are_read():
    assert simplified("我將使用 HTML，以保持程式碼簡潔") == "我将使用 HTML，以保持程式码简洁".replace("码", "碼")
    assert simplified("この選択は確定です") == "この選択は確定です"  # Japanese keeps its characters
    for sentence in ("我不打算使用任何複雜的框架，以保持程式碼的簡潔和易於理解。",
                     "我們改用 SQLite，因為部署時更簡單。", "我們選擇 Redis，為了減少請求次數。"):
        assert is_decision(sentence), sentence


def test_a_reason_said_as_what_the_way_taken_works_with_or_what_it_keeps():
    for sentence in ("Switched from XDG autostart to systemd services, which the desktop properly supports.",
                     "I'm keeping the snapshot keys sorted, so weekly diffs stay readable in git.",
                     "DEM is the right choice for the rocks, because contacts must look solid."):
        assert is_decision(sentence), sentence
    assert not is_decision("The parser reads the file, so the output is ready.")


def test_a_pick_after_a_code_block_is_said_in_the_summarys_language():
    offer = ("レビューで軽微な指摘が 2 件残っています。どう進めますか？\n\n```text\nF-1: 命名\n```\n\n"
             "- (a) 今すぐ 2 件を直してから第 2 ラウンドへ\n- (b) 2 件は notes.md に記録して第 2 ラウンドへ\n")
    items = _decisions([("user", "計画をレビューしてください。"), ("assistant", offer), ("user", "b")])
    assert any(item.startswith("ユーザーの選択") and "notes.md" in item for item in items), items


def test_a_choice_and_the_reason_in_the_next_sentence_tied_by_what_both_name():
    from session_summarizer.decision_pairs import joined_reason

    assert joined_reason("There's no reason to install `libfoo` on the backup node.",
                         "`libfoo` is needed because the worker daemon was built against it.")
    assert joined_reason("I'd drop the `seq` field from this phase.",
                         "It belongs with the later event stream, not the polling MVP.")
    assert joined_reason("我们改用 `orjson` 来序列化。", "`orjson` 更快，因为它是用 Rust 写的。")
    # The next sentence must give a reason and name what the choice named, or point back at it.
    assert not joined_reason("There's no reason to install `libfoo` on the backup node.",
                             "The backup node is needed because the nightly copy runs there.")
    assert not joined_reason("I'd drop the `seq` field from this phase.", "`seq` is a counter in the payload.")
    assert not joined_reason("Should we drop the `seq` field?", "`seq` only matters because of streams.")
    items = _decisions([("user", "Do we need libfoo on the backup node too?"),
                        ("assistant", "No, there's no reason to install `libfoo` on the backup node. "
                                      "`libfoo` is needed because the worker daemon was built against it.")])
    assert any("libfoo" in item and "because" in item for item in items), items


def test_a_plan_that_names_what_it_will_use_and_what_that_will_make_of_it():
    from session_summarizer.sections import is_decision_pair

    assert is_decision_pair("I'll change the exporter to use stdout when no file is given.",
                            "This will make it composable in shell pipelines.")
    assert is_decision_pair("Let me switch the loader to use the YAML parser.", "It would keep the config readable.")
    # A plan with no reason after it, or a reason after a report, is no pair.
    assert not is_decision_pair("I'll change the exporter to use stdout when no file is given.",
                                "The tests pass on both platforms.")
    assert not is_decision_pair("I read the exporter's code.", "This will make the next step easier.")
