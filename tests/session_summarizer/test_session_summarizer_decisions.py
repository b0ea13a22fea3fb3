"""Decision shapes on held-out-style cases: a finding and the choice it led to, an option marked as chosen,
a user repeating or weighing options, switches, rules with what breaks otherwise, labelled decisions, limits met,
scope left unchanged, emphasis inside a choice, reasons in more languages, and bullets kept short.

The projects and words here are made up; none comes from the real-session corpus.
"""

from session_summarizer.decision_cues import (
    draws_consequence,
    echoed_option,
    labeled_decisions,
    marks_chosen,
    shortened,
    states_limit,
)
from session_summarizer.local_summary import summarize
from session_summarizer.sections import (
    decision_strength,
    is_consequence_pair,
    is_decision,
    is_limit_finding,
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


def test_the_user_weighing_one_way_over_another_is_a_decision():
    for ask in ("ok, a local cache is the better solution here - do that",
                "Readability is more important than the colours.",
                "今回は表示速度よりも読みやすさのほうが重要です",
                "我觉得可读性比颜色更重要，就按这个来",
                "이번에는 색상보다 가독성이 더 중요해요"):
        assert is_user_choice(ask), ask
        assert user_choice_strength(ask) == 3, ask
    assert not is_user_choice("Is a local cache the better solution here?")


def test_what_the_agent_deliberately_leaves_as_it_is_is_a_decision():
    for line in ("The mentions of the old brand in the docs are left unchanged.",
                 "The user's own helper in utils.js stays as he wrote it.",
                 "ドキュメント内の旧社名の表記は変更しません。",
                 "文档和说明中的旧品牌名称全部保持不变。",
                 "문서의 예전 회사명은 그대로 둡니다."):
        assert is_decision(line), line
    # The user told what they need not do, or a tool's quoted message, is no choice of the session.
    assert not is_decision("You don't need to change the docs, they are generated.")
    assert not is_decision('The formatter printed "no changes needed" and exited.')


def test_a_labelled_decision_is_the_choice_under_its_label():
    reply = ("The Siamese net keeps diverging on this subset.\n\n**Decision:**\nI tried three learning rates.\n"
             "I will ship the gradient-boosting model alone for now. It is stable across seeds.")
    assert labeled_decisions(reply) == ["I will ship the gradient-boosting model alone for now. It is stable across "
                                        "seeds."]
    assert labeled_decisions("## Key decisions\n- SQLite for the cache\n- Fixed seed 7 for the simulation") == [
        "SQLite for the cache", "Fixed seed 7 for the simulation"]
    assert labeled_decisions("決定事項：キャッシュは SQLite に保存する") == ["キャッシュは SQLite に保存する"]
    assert labeled_decisions("设计决策：\n1. 使用 SQLite 作为缓存") == ["使用 SQLite 作为缓存"]
    # A file named decisions.md, or a label over nothing the agent commits to, is no decision.
    assert labeled_decisions("- decisions.md (empty, for the coder to fill in)") == []
    assert labeled_decisions("**Decision:**\nThe master folder is functional.") == []
    summary = _summary([("user", "Pick a model."), ("assistant", reply)])
    assert any("gradient-boosting model" in item for item in summary.findings.items), summary.findings.items


def test_a_limit_met_with_its_reason_is_a_finding_after_the_others():
    assert is_limit_finding("For privacy reasons the browser does not expose the full history, only its length.")
    assert is_limit_finding("For licensing reasons the package cannot ship the original fonts.")
    assert is_limit_finding("出于隐私考虑，浏览器不允许读取其他网站的 Cookie。")
    assert is_limit_finding("セキュリティのため、ブラウザは他のサイトのデータを読むことができません。")
    assert not is_limit_finding("If the port is already taken because of a stale server, restart it.")
    assert not is_limit_finding("You need to create .env.local yourself because git does not include it.")
    reply = ("The cache hits went down after the change.\n\n"
             "Because of browser privacy rules, the page cannot read other sites' cookies.")
    summary = _summary([("user", "Show the visitor's cookies."), ("assistant", reply)])
    assert any("cannot read other sites' cookies" in item for item in summary.findings.items), summary.findings.items


def test_reasons_and_choices_said_in_more_ways_in_chinese_and_english():
    assert is_decision("保存时以所选账户的币种为准，避免和币种下拉不一致。")
    assert is_decision("We'll use a high-contrast palette on white, ensuring every line stays legible.")
    assert not is_decision("The nightly run failed at the lint step, ensuring nothing was deployed.")


def test_a_switch_names_the_way_taken_and_the_way_left():
    for line in ("We switched the queue from Redis lists to Postgres LISTEN, so one service fewer runs.",
                 "The parser replaced the hand-written tokenizer with the stdlib shlex module.",
                 "アイコンを文字ロゴからシンプルな「K」マークに変更しました。",
                 "我建议将 `count` 改为 `visitCount`，以更准确地表达含义。",
                 "상태 관리를 단일 값에서 배열로 변경했습니다."):
        assert is_decision(line), line
    # Telling the user what to replace is advice, not a switch the session made.
    assert not is_decision("Replace USERNAME with your account name in the remote URL.")
    assert not is_decision("Change the port from 8000 to 8080 if it is taken.")


def test_a_rule_with_what_breaks_otherwise_and_a_way_not_needed_are_decisions():
    assert is_decision("The API must ship before the new client, or old servers can't read the compressed body.")
    assert is_decision("Since the links are relative to the index, we don't need the docs/ prefix.")
    assert is_decision("这个修改使用 `setAttribute` 来设置属性，避免了类型错误。")
    # Said to the user, or without a way turned down, these are not choices of the session.
    assert not is_decision("Every bet must be placed as you see it listed, or the totals fail.")
    assert not is_decision("Since the links are relative, the page loads fine.")
    assert not is_decision("Since the files sit in proto/, the imports should say proto/, or we should pass -I proto.")


def test_a_long_decision_keeps_its_first_sentences_within_the_bullet_size():
    choice = "We keep SQLite for the local cache because the tool runs on one laptop and needs no server."
    account = (" Earlier I tried Postgres in a container, then DuckDB, and both needed more setup than the"
               " team wanted for a tool that only one person runs at a time on a single machine.")
    short = shortened(choice + account)
    # Cut at a clause end within the bullet size, the choice and its reason whole.
    assert short.startswith(choice) and len(short) <= 185 and short.endswith(("DuckDB …", "server.")), short
    assert len(shortened("word " * 80)) <= 200
    assert shortened(choice) == choice
