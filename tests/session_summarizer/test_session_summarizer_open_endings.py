"""The open section on sessions that end badly or hand work over: replies the client cut off with a failed model
call (the asks they left unanswered, the work they stopped), and the shell steps the final reply leaves to the user.

The turns are invented in the shapes the agents print them (Claude Code's "API Error: 400 {…}", Gemini CLI's
"✕ [API Error: …]" and its `/quit` summary, Codex and OpenCode closing replies with shell blocks), in English,
Japanese, Chinese, Korean and Spanish; none is copied from the corpus.
"""

from session_summarizer import failed_replies, final_steps, placeholders, question_choices, uncommitted_edits
from session_summarizer.local_summary import ask_text
from session_summarizer.session import Turn as _Turn
from session_summarizer.transcript import read_turn
from session_summarizer_fixtures import open_items as _open
from session_summarizer_fixtures import summary_of_turns as _summary


def Turn(role, text):
    return _Turn(role, text, len(text))


_API_400 = ('API Error: 400 {"error":{"type":"invalid_request_error","message":"image exceeds the size limit '
            '(request id: req_7781)"},"type":"error"}')


def test_asks_whose_every_reply_failed_are_listed_once_each_with_the_notice():
    turns = [
        ("user", "配置ファイルを読み込んで設定を直してください"),
        ("assistant", "設定を直しました。`config.toml` のポート番号を 8080 に変更しました。"),
        ("user", "ログのスクリーンショットを見て、なぜ接続が切れるのか教えて"),
        ("assistant", _API_400),
        ("user", "スクショは無視して。ログのスクリーンショットを見て、なぜ接続が切れるのか教えて"),
        ("assistant", _API_400),
        ("user", "数日ぶりに戻りました。次に何をすればいいですか？デバッガで確認できますか？"),
        ("assistant", _API_400),
    ]
    asks = failed_replies.unanswered_asks([Turn(role, text) for role, text in turns], ask_text)
    assert len(asks) == 2  # the ask sent again is one ask
    assert "スクショは無視して" in asks[0] and "デバッガ" in asks[1]
    items = " ".join(_open(_summary(turns)))
    assert "回答なし" in items and "デバッガ" in items and "なぜ接続が切れるのか" not in items  # the newest ask
    assert "image exceeds the size limit" in items and "req_7781" not in items  # the message, not its ids
    # One answered reply at the end: nothing is left unanswered.
    answered = [*turns, ("user", "もう一度お願いします"), ("assistant", "タイムアウトが 5 秒だからです。")]
    assert not failed_replies.unanswered_asks([Turn(role, text) for role, text in answered], ask_text)
    assert "回答なし" not in " ".join(_open(_summary(answered)))


def test_a_failure_in_the_middle_of_the_session_leaves_nothing_open():
    turns = [("user", "修复登录页面的样式"), ("assistant", _API_400), ("user", "继续"),
             ("assistant", "已修复登录页面的样式：按钮对齐，颜色改为主题色。")]
    assert not failed_replies.unanswered_asks([Turn(role, text) for role, text in turns], ask_text)
    assert "未获回答" not in " ".join(_open(_summary(turns)))


_GEMINI_CUT = (
    "✦ The file src/board.ts has been reverted to its last committed state.\n\n"
    "  Now, let's re-implement the fade animation correctly, starting from this clean\n  slate.\n"
    "╭──────────────────────────────────────────────╮\n│ ✓  ReadFile src/board.ts                      │\n"
    "╰──────────────────────────────────────────────╯\n"
    "✕ [API Error: You exceeded your current quota, please check your plan and billing details.\n"
    "  Please retry in 59.9s.]\n")
_GEMINI_EXIT = ("╭────────────────────────────╮\n│  Agent powering down. Goodbye!  │\n│  Tool Calls: 12  │\n"
                "╰────────────────────────────╯\n")


def test_work_cut_off_by_a_failed_call_before_the_user_quit_is_left_open():
    turns = [("user", "the fade animation is broken, roll back and redo it"), ("assistant", _GEMINI_CUT),
             ("user", "/quit"), ("assistant", _GEMINI_EXIT)]
    cut = failed_replies.cut_off_work([Turn(role, text) for role, text in turns])
    assert cut is not None and "quota" in cut[0] and "re-implement the fade animation" in cut[1]
    items = " ".join(_open(_summary(turns, agent="gemini")))
    assert "Cut off by a failed model call" in items and "re-implement the fade animation" in items
    # The same reply without the notice: the session did not stop on a failure.
    whole = [("user", turns[0][1]), ("assistant", _GEMINI_CUT.split("✕")[0] + "✦ Done: the fade works again.")]
    assert failed_replies.cut_off_work([Turn(role, text) for role, text in whole]) is None


def test_a_notice_quoted_inside_code_is_no_failure():
    reply = "I added a handler that logs the response:\n\n```js\nconsole.error('API Error:', err)\n```\nIt is in place."
    assert not failed_replies.only_failure(reply)
    assert failed_replies.ends_on_failure(reply) == ("", "")


def _steps(turns):
    session = [Turn(role, text) for role, text in turns]
    parts = [read_turn(turn.text) if turn.role == "assistant" else None for turn in session]
    return final_steps.left_in_final_reply(session, parts, ask_text)


_CLOSING = ("The bridge is in place. Use it like this:\n\n1. Build the WASM module:\n\n```bash\n"
            "wasm-pack build --target web\n```\n\n2. Serve the folder:\n\n```bash\npython3 -m http.server 8000\n```\n")


def test_shell_blocks_of_the_final_reply_that_never_ran_are_left_to_the_user():
    turns = [("user", "build a browser bridge for the parser"), ("assistant", _CLOSING)]
    steps = _steps(turns)
    assert steps[0].startswith("`wasm-pack build --target web`") and "Build the WASM module" in steps[0]
    assert "python3 -m http.server 8000" in steps[1]
    assert "wasm-pack build" in " ".join(_open(_summary(turns)))
    # An ask after the reply: the user took it from there.
    assert not _steps([*turns, ("user", "done, it builds. now add a CLI")])


def test_a_step_shown_again_after_it_ran_is_not_left():
    ran = "● Bash(python3 -m http.server 8000)\n  ⎿  Serving HTTP on 0.0.0.0 port 8000\n\nServer started."
    turns = [("user", "serve the site"), ("assistant", ran), ("user", "how do I start it again?"),
             ("assistant", "Run this in the project folder:\n\n```bash\npython3 -m http.server 8000\n```\n")]
    assert not _steps(turns)


def test_a_task_handed_over_in_spanish_keeps_its_lead_sentence():
    reply = ("Ya cambié el modelo en `pipeline.py`. Ahora necesito que actualices el **Build Command** en tu panel:\n\n"
             "```\npip install -r requirements.txt && python -m spacy download es_core_news_md\n```\n\n"
             "Luego haz Manual Deploy.")
    steps = _steps([("user", "el deploy falla por memoria"), ("assistant", reply)])
    assert len(steps) == 1 and "es_core_news_md" in steps[0] and "Build Command en tu panel" in steps[0]
    assert "Ya cambié" not in steps[0]


def _placeholders(turns):
    session = [Turn(role, text) for role, text in turns]
    parts = [read_turn(turn.text) if turn.role == "assistant" else None for turn in session]
    return placeholders.left_in_files(session, parts)


_CLINE_WRITE = ("Now, let's create the `LICENSE` file:\n\n```tool_use\n<write_to_file>\n<path>LICENSE</path>\n"
                "<content>\nMIT License\n\nCopyright (c) 2025 Your Name\n\nPermission is hereby granted\n"
                "</content>\n</write_to_file>\n```\n")
_CLAUDE_WRITE = ("I'll add the client config.\n\n● Write(src/mqtt.ts)\n  ⎿  Wrote 3 lines to src/mqtt.ts\n"
                 "     const options = { username: 'kayak', password: 'YOUR_PASSWORD_HERE' };\n"
                 "     export default options;\n\nThe client now authenticates.")


def test_placeholders_an_edit_wrote_are_left_open_until_the_user_names_them():
    assert _placeholders([("user", "add an MIT license"), ("assistant", _CLINE_WRITE)]) == [("Your Name", "LICENSE")]
    found = _placeholders([("user", "MQTT にパスワード認証を追加して"), ("assistant", _CLAUDE_WRITE)])
    assert found == [("YOUR_PASSWORD_HERE", "src/mqtt.ts")]
    items = " ".join(_open(_summary([("user", "MQTT 에 비밀번호 인증을 추가해 주세요"), ("assistant", _CLAUDE_WRITE)])))
    assert "자리표시자" in items and "YOUR_PASSWORD_HERE" in items
    # The user gives the value: nothing is left.
    assert not _placeholders([("user", "add an MIT license"), ("assistant", _CLINE_WRITE),
                              ("user", "replace Your Name with Ana Ruiz"), ("assistant", "Done: LICENSE names her.")])


def test_placeholders_in_advice_reads_and_template_files_are_not_left_work():
    advice = ("Set the token and run it:\n\n```bash\nexport GITHUB_TOKEN=YOUR_TOKEN_HERE\n./check.sh\n```\n"
              "● Write(check.sh)\n  ⎿  Wrote 2 lines to check.sh\n     curl -H \"Authorization: $GITHUB_TOKEN\" api\n")
    assert not _placeholders([("user", "write a metrics script"), ("assistant", advice)])
    read = ("● Read(.env)\n  ⎿  API_KEY=YOUR_API_KEY\n\n● Update(app.py)\n  ⎿  Updated app.py with 1 addition\n"
            "The app reads the key from .env.")
    assert not _placeholders([("user", "wire the key"), ("assistant", read)])
    template = "● Write(.env.example)\n  ⎿  Wrote 1 lines to .env.example\n     API_KEY=YOUR_API_KEY\n\nA template."
    assert not _placeholders([("user", "add an env template"), ("assistant", template)])
    variable = ("● Write(login.py)\n  ⎿  Wrote 2 lines to login.py\n     your_password = input('Password: ')\n\nDone.")
    assert not _placeholders([("user", "ask for the password"), ("assistant", variable)])


def test_a_block_offered_as_an_extra_is_not_a_step_left():
    reply = ("デプロイしました。必要であれば、ログは次のコマンドで確認できます:\n\n```bash\nnpx wrangler tail\n```\n")
    assert not _steps([("user", "ワーカーをデプロイして"), ("assistant", reply)])
    assert _steps([("user", "ワーカーをデプロイして"), ("assistant", reply.replace("必要であれば、", ""))])


def test_in_a_chat_without_tools_only_a_block_introduced_as_a_step_is_left():
    reported = "テストを追加しました: tests/login.test.ts\n```bash\nnpm test -- login\n```\n"
    assert not _steps([("user", "ログインを直して"), ("assistant", reported)])
    how_to = "Selesai.\n\nCara pakai:\n\n```bash\ncd server\nuvicorn main:app --reload\n```\n"
    steps = _steps([("user", "tambahkan halaman approval"), ("assistant", how_to)])
    assert steps == ["`uvicorn main:app --reload` — Cara pakai"]


def _uncommitted(replies):
    parts = [read_turn(text) for text in replies]
    return uncommitted_edits.left_uncommitted(parts)


_COMMIT = "● Bash(git commit -am \"feat: board\")\n  ⎿  [main 4f2a9c1] feat: board\n      2 files changed\n"


def test_files_changed_after_the_last_commit_are_left_uncommitted():
    edits = "● Update(src/engine.ts)\n  ⎿  Updated src/engine.ts with 3 additions\n\n" \
            "● Update(src/worker.ts)\n  ⎿  Updated src/worker.ts with 1 addition\n"
    assert _uncommitted([_COMMIT, edits]) == ["src/engine.ts", "src/worker.ts"]
    assert _uncommitted([edits, _COMMIT]) == []  # committed after the edits
    assert _uncommitted([edits]) == []  # a session that never commits says nothing about commits
    reverted = "● Bash(git checkout -- src/worker.ts)\n  ⎿  (no output)\n"
    assert _uncommitted([_COMMIT, edits, reverted]) == ["src/engine.ts"]
    status = "● Bash(git status --short)\n  ⎿   M src/engine.ts\n"
    assert _uncommitted([_COMMIT, edits, status]) == []  # git's own status is read instead (loose_ends)
    items = " ".join(_open(_summary([("user", "棋盘引擎改成双缓冲"), ("assistant", _COMMIT), ("assistant", edits)])))
    assert "仍未提交" in items and "src/engine.ts" in items


def test_a_closing_question_keeps_the_choices_listed_under_it():
    reply = ("分析が終わりました。\n\nどこから実装を始めますか？\n- 設定ファイル (`rules.yml`)\n"
             "- ドメインモデル (`judge.py`)\n- フィルタリングサービス\n")
    summary = _summary([("user", "アルゴリズムを分析して、実装の計画を立てて"), ("assistant", reply)])
    asked = [item for item in summary.questions.items if "どこから実装を始めますか" in item]
    assert len(asked) == 1 and "rules.yml" in asked[0] and "judge.py" in asked[0]
    assert not any(item.startswith("ドメインモデル") for item in _open(summary))
    # A list under a statement is no set of choices.
    assert not question_choices.asked_with_choices("Done:\n- added rules.yml\n- added judge.py\n")


def test_a_reply_that_speaks_of_errors_is_not_cut_off():
    prose = ("The endpoint now retries.\n\nAPI Error: 500 responses are retried three times with backoff.\n\n"
             "Overloaded servers answer 529, which is retried too.\nDone.")
    assert failed_replies.ends_on_failure(prose) == ("", "")
    assert failed_replies.before_notice(prose) == prose
    assert failed_replies.notice_line("✕ [Overloaded]") and not failed_replies.notice_line("Overloaded servers answer")
