"""Decision shapes on held-out-style cases: a finding and the choice it led to, an option marked as chosen,
a user repeating the option they pick, emphasis inside a choice, and reasons in more languages.

The projects and words here are made up; none comes from the real-session corpus.
"""

from session_summarizer.decision_cues import draws_consequence, echoed_option, marks_chosen, states_limit
from session_summarizer.local_summary import summarize
from session_summarizer.sections import (
    decision_strength,
    is_consequence_pair,
    is_decision,
    is_user_choice,
    user_choice_strength,
)
from session_summarizer.session import parse_session
from session_summarizer.worktree import check_files


def _summary(turns):
    raw = {"agent": "claude", "cwd": "", "turns": [{"role": role, "text": text} for role, text in turns]}
    return summarize(parse_session(raw), file_checker=lambda paths, folder: check_files(paths, ""))


def test_a_finding_that_limits_the_work_and_the_choice_it_led_to_are_one_decision():
    cases = (
        ("en", "There is no `widgets/` folder in this checkout. So I'll put the new widget in `views/panel.py`."),
        ("ja", "このリポジトリには `widgets.py` が存在しません。そのため、変更は `panel.py` に入れます。"),
        ("zh", "当前代码里没有 `widgets.py` 文件。因此我将把改动放在 `panel.py` 中。"),
        ("ko", "이 저장소에는 `widgets.py` 파일이 없습니다. 따라서 변경 사항은 `panel.py`에 적용하겠습니다."),
        ("tr", "Projede `widgets.py` dosyası bulunmuyor. Bu nedenle değişiklikleri `panel.py` içinde yapacağım."),
    )
    for language, reply in cases:
        summary = _summary([("user", "Add a progress widget in widgets.py."), ("assistant", reply)])
        assert any("widgets" in item and "panel.py" in item for item in summary.findings.items), (
            language, summary.findings.items)
    assert is_consequence_pair("The sandbox has no network access.", "Therefore we keep the fixtures on disk.")
    # A consequence after a plain report, or one that commits to nothing, is not a decision.
    assert not is_consequence_pair("I read the three config files.", "So I'll run the tests next.")
    assert not is_consequence_pair("The sandbox has no network access.", "So that is the cause.")
    assert not is_consequence_pair("The sandbox might have no network access.", "So I'll keep the fixtures.")
    assert not draws_consequence("So should I keep the fixtures on disk?")
    assert not states_limit("Does the sandbox have no network?")


def test_an_option_marked_chosen_is_a_decision():
    for line in ("Options weighed: REST (not in this image), GraphQL (no schema), direct SQL (✅ chosen)",
                 "方案二：直接读取数据库（已采用）", "案2：データベースを直接読む（採用）",
                 "2안: 데이터베이스 직접 조회 (선택)"):
        assert marks_chosen(line), line
        assert is_decision(line), line
        assert decision_strength(line) == 3, line
    assert not marks_chosen("Options weighed: REST (not in this image), GraphQL (no schema), direct SQL")
    assert not is_decision("Which one should be chosen (chosen by default)?")


def test_the_user_repeating_an_offered_option_picks_it():
    offer = ("The feed has no per-article data, only one page link per topic.\n\n"
             "Would you like to:\n"
             "- Link each topic to its page on the news site?\n"
             "- Or give me a file that lists the articles of each topic?")
    summary = _summary([("user", "Show the articles of a topic when it is clicked."), ("assistant", offer),
                        ("user", "Link each topic to its page on the news site")])
    assert any("Link each topic to its page" in item for item in summary.findings.items), summary.findings.items
    zh_offer = "可以这样做：\n\n1. 给每个主题链接到新闻网站的页面\n2. 提供一个列出文章的文件"
    ko_offer = "두 가지 방법이 있습니다.\n\n1. 주제마다 뉴스 사이트 페이지로 연결\n2. 기사 목록 파일을 제공"
    assert "页面" in echoed_option("给每个主题链接到新闻网站的页面吧", zh_offer)
    assert "페이지" in echoed_option("주제마다 뉴스 사이트 페이지로 연결", ko_offer)
    # An ask of its own, or a single line with nothing to choose from, picks nothing.
    assert echoed_option("Make the topic list sortable by date", offer) == ""
    assert echoed_option("Link each topic to its page", "- Link each topic to its page on the news site") == ""


def test_emphasis_and_code_marks_do_not_hide_a_choice():
    assert is_decision("For the blend we use **Optuna** for the weight search, to maximize the validation score.")
    assert is_decision("Rates come from `exchangerate.host`, and we use `decimal` for the sums to avoid float drift.")
    assert is_decision("We'll keep `certifi` in the venv to avoid the system store's missing roots.")


def test_reasons_and_recommendations_said_in_more_ways():
    assert is_decision("Suggest removing the profiler from the build to avoid the slow start on every run.")
    assert is_decision("Önbelleği kaldırmayı tercih ettim çünkü her çalıştırmada bayat veri veriyordu.")
    assert is_decision("ผมตั้งให้เป็น opt-in (default off) เพราะไฟล์บันทึกจะโตเร็วมาก")
    assert is_user_choice("for the cache key, lets use org/project and the branch name")
    # A state described with "instead of" is how things are now, not a choice.
    assert not is_decision("The dropdown currently lists every member instead of only those present.")


def test_a_users_bare_rule_ranks_below_a_choice_with_its_reason():
    assert user_choice_strength("don't add placeholder values to the form") == 2
    assert user_choice_strength("never mock the database, because the tests must catch schema drift") == 3
    assert user_choice_strength("we don't need the v1 format, just convert the files once") == 3
