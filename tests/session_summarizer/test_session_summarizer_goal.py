"""The goal section on held-out-style asks: the first real ask and the later asks that changed it.

The asks are invented here in the shapes users type them into several agents (a question typed inside a
fence, Cursor's "we get this error:" with a pasted block and stash markers, a brief that opens with
context, a long run of short feedback), in several languages; none is copied from the corpus.
"""

from session_summarizer.local_summary import summarize
from session_summarizer.session import parse_session
from session_summarizer.worktree import check_files


def _summary(turns, agent="cursor"):
    raw = {"agent": agent, "cwd": "", "turns": [{"role": role, "text": text} for role, text in turns]}
    return summarize(parse_session(raw), file_checker=lambda paths, folder: check_files(paths, ""))


def test_an_ask_typed_inside_a_fence_is_the_goal():
    ask = ("```\nAuto-run terminal commands\nWhen enabled the agent runs commands without asking.\n"
           "ㄴ 이 설정은 무슨 뜻인가?\n```")
    summary = _summary([("user", ask), ("assistant", "이 설정은 명령을 자동으로 실행합니다.")])
    assert summary.goal.startswith("Auto-run terminal commands") and "무슨 뜻인가" in summary.goal


def test_code_in_a_source_language_is_not_read_as_the_ask():
    summary = _summary([("user", "```python\nprint('hi')\n```"), ("assistant", "It prints hi.")])
    assert "print" not in summary.goal


def test_a_sentence_ending_on_a_colon_brings_the_pasted_line_and_stash_markers_are_dropped():
    ask = ("For the code present, we get this error:\n<<<<<<< Updated upstream\n\n```\n"
           "Cannot find module '@/lib/chart' or its corresponding type declarations.\n```\n\n=======\n\n```\n"
           "Cannot find module '@/lib/chart' or its corresponding type declarations.\n```\n"
           "> > > > > > > Stashed changes\n\nHow can I resolve this? If you propose a fix, please make it concise.")
    summary = _summary([("user", ask), ("assistant", "Created src/lib/chart.ts.")])
    assert "Cannot find module '@/lib/chart'" in summary.goal
    assert "<<<<<<<" not in summary.goal and "=======" not in summary.goal


def test_a_request_after_context_sentences_is_part_of_the_opening():
    ask = ("The nightly export now reaches the real warehouse (the connection works). The run took four minutes."
           "\n\nFix these 2 issues:\n\n1. Dates are written in local time\n2. Empty rows are exported")
    summary = _summary([("user", "Write the nightly export job."), ("assistant", "Wrote export_job.py."),
                        ("user", ask), ("assistant", "Fixed both.")], agent="codex")
    later = " ".join(summary.later_asks.items)
    assert "Fix these 2 issues" in later and "Dates are written in local time" in later


def test_the_goal_keeps_the_request_that_follows_two_sentences_of_context():
    ask = ("Look at tools/sync_mirror.sh. It was copied from another repository. Make sure it works for this "
           "repository's layout. Also tidy the script.")
    summary = _summary([("user", ask), ("assistant", "Updated tools/sync_mirror.sh.")], agent="claude-code")
    assert "Make sure it works for this repository's layout" in summary.goal


def test_later_asks_that_bring_new_work_win_over_short_feedback_and_repeats():
    warmup = "create a page called hello.html with my name and serve it with a simple Python server."
    feedback = ["use another port", "i cannot see it", "looks good", "still blank", "try again please",
                "use another port", "bigger", "ok", "thanks"]
    turns = [("user", warmup), ("assistant", "Made changes.")]
    for text in feedback[:4]:
        turns += [("user", text), ("assistant", "Made changes.")]
    turns += [("user", "in index.html read recipes.json and build a searchable, filterable recipe browser"),
              ("assistant", "Made changes.")]
    for text in feedback[4:]:
        turns += [("user", text), ("assistant", "Made changes.")]
    turns += [("user", "group the recipes into cuisines shown in a dropdown next to the search box"),
              ("assistant", "Made changes.")]
    turns += [("user", warmup), ("assistant", "Made changes."), ("user", "ok now deploy it"),
              ("assistant", "Made changes.")]
    summary = _summary(turns, agent="copilot")
    later = summary.later_asks.items
    assert any("recipe browser" in item for item in later)
    assert any("cuisines" in item for item in later)
    assert later[-1] == "ok now deploy it"  # the newest ask that adds anything says where the session went
    assert not any(item == warmup for item in later)
    assert len(later) <= 6


def test_japanese_and_chinese_later_asks_are_ranked_by_what_they_add():
    turns = [("user", "地図アプリを作成してください。"), ("assistant", "作成しました。"),
             ("user", "もう一度"), ("assistant", "はい。"),
             ("user", "建物を3Dで表示して、影も付けてください。"), ("assistant", "追加しました。"),
             ("user", "给书签分组添加多选功能，所有分组显示在同一个卡片里"), ("assistant", "已添加。")]
    later = _summary(turns).later_asks.items
    assert any("建物" in item for item in later) and any("多选" in item for item in later)


def test_commands_typed_to_look_around_first_are_not_the_goal():
    turns = [("user", "cd dashboard"), ("assistant", "OK."),
             ("user", "I ran the following shell command:\n```sh\nls\n```\nThis produced the following result:\nsrc"),
             ("user", "Hola, el filtro de búsqueda trae publicaciones que no coinciden; corrígelo."),
             ("assistant", "Corregido.")]
    summary = _summary(turns, agent="claude-code")
    assert summary.goal.startswith("Hola, el filtro de búsqueda")
    assert _summary([("user", "git push"), ("assistant", "Pushed.")], agent="claude-code").goal == "git push"


def test_a_retry_asks_for_nothing_new_and_a_question_that_asks_for_a_change_is_a_later_ask():
    turns = [("user", "Build a flashcard quiz app from the API spec in api.json with React and Vite."),
             ("assistant", "Created the app."), ("user", "Do this again please"), ("assistant", "Recreated it."),
             ("user", "@agent Try Again"), ("assistant", "Done."),
             ("user", "The scientist's name shows up in the clues, which gives the answer away. Can you hide it?"),
             ("assistant", "Names are masked now."), ("user", "もう一度お願いします"), ("assistant", "はい。")]
    later = _summary(turns, agent="copilot").later_asks.items
    assert later == ["The scientist's name shows up in the clues, which gives the answer away. Can you hide it?"]
    for question in ("能不能把名字隐藏起来？", "名前を隠してもらえますか？", "이름을 가려 줄 수 있어요?"):
        asks = _summary([("user", "Build a quiz app from api.json with React."), ("assistant", "Done."),
                         ("user", question), ("assistant", "OK.")]).later_asks.items
        assert asks == [question], question
    side = _summary([("user", "Build a quiz app from api.json with React."), ("assistant", "Done."),
                     ("user", "Can you explain what the useQuiz hook returns?"), ("assistant", "It returns …")])
    assert side.later_asks.items == []


def test_an_opening_that_only_sets_the_scene_brings_the_sentence_that_asks():
    long_scene = ("I don't like that the full name of the scientist is printed in every accomplishment card of the "
                  "quiz, because anybody can read the answer off the screen before choosing an option. ")
    turns = [("user", "Build a quiz app from api.json with React."), ("assistant", "Done."),
             ("user", long_scene + "Could you mask the names in those cards? Thanks."), ("assistant", "Masked.")]
    assert "Could you mask the names in those cards?" in _summary(turns).later_asks.items[0]


def test_a_shell_mode_report_is_looking_around_and_the_ask_typed_after_it_is_the_ask():
    report = ("I ran the following shell command:\n```sh\nls\n```\n\nThis produced the following result:\n```\n"
              "docs  src  README.md\n```\n\nlist the git commands from our cheatsheet")
    summary = _summary([("user", report), ("assistant", "Here they are: git init, git add …"),
                        ("user", "Now suggest ten prompt keywords."), ("assistant", "Task, Role, …")],
                       agent="gemini")
    assert summary.goal == "list the git commands from our cheatsheet"


def test_what_the_harness_writes_into_the_users_turn_is_not_the_ask():
    agents_md = ("# AGENTS.md instructions for /home/me/shop\n\n<INSTRUCTIONS>\n# Follow the style guide\n"
                 "Run the linter before every commit.\n</INSTRUCTIONS>\n\nadd a coupon field to the checkout form")
    skill = ("investigate the flaky login test. /trace-tree\n\nBase directory for this skill: /home/me/.claude/skills/"
             "trace-tree\n\n# Trace Tree\n\nAdd debug prints to every function on the path.")
    notice = ("<task-notification>\n<task-id>b1x</task-id>\n<status>completed</status>\n<summary>Background command "
              "\"Run the suite\" completed (exit code 0)</summary>\n</task-notification>")
    mention = "[@game-kit](plugin://game-kit@curated) 스프라이트 형식을 SVG 로 바꿔 주세요"
    summary = _summary([("user", agents_md), ("assistant", "Adding it."), ("user", notice),
                        ("assistant", "The suite passed."), ("user", skill), ("assistant", "Tracing."),
                        ("user", mention), ("assistant", "바꿨습니다.")], agent="codex")
    assert summary.goal.startswith("add a coupon field")
    later = " ".join(summary.later_asks.items)
    assert "flaky login test" in later and "스프라이트" in later
    for injected in ("INSTRUCTIONS", "AGENTS.md", "task-notification", "Background command", "Base directory",
                     "debug prints", "plugin://"):
        assert injected not in summary.goal + later


def test_a_compacted_summary_after_the_users_words_is_not_their_ask():
    glued = ("now review the code for edge cases that need tests\n\n\nThis session is being continued from a previous "
             "conversation that ran out of context. Summary:\n1. Primary Request and Intent: build a tray icon\n")
    summary = _summary([("user", "write the wallpaper fetcher"), ("assistant", "Written."), ("user", glued),
                        ("assistant", "Reviewing.")], agent="claude")
    later = " ".join(summary.later_asks.items)
    assert "review the code for edge cases" in later and "tray icon" not in later
    alone = ("This session is being continued from a previous conversation that ran out of context. Summary:\n"
             "1. Primary Request and Intent: build a tray icon for the wallpaper app\n")
    assert "tray icon" in _summary([("user", alone), ("assistant", "Continuing.")], agent="claude").goal


def test_a_first_ask_that_pastes_a_spec_before_it_asks_keeps_the_request():
    spec = ("The project has a README and a licence file (PASS/FAIL)\n    There was a release within the last year "
            "(yes/no)\n    The number of active contributors in the last 12 months is measured (below/above 3)\n"
            "    The number of commits per month is measured (below/above 2)\n    The number of open issues is "
            "measured (not used yet)\n\n---\n\nI want to check these metrics with the GraphQL API. Please write the "
            "curl requests that fetch them.")
    goal = _summary([("user", spec), ("assistant", "Here are the requests.")]).goal
    assert goal.startswith("The project has a README") and "GraphQL API" in goal
    plain = _summary([("user", "The tests are flaky on CI. Make them deterministic."), ("assistant", "Done.")]).goal
    assert plain == "The tests are flaky on CI. Make them deterministic."
