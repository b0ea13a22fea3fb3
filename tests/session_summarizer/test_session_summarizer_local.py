"""The offline summarizer on recorded-style sessions, with files checked against real git repositories."""

import subprocess

from session_summarizer.language import detect_language
from session_summarizer.local_summary import LIMITS, summarize
from session_summarizer.session import TURN_HEAD_CHARS, parse_session
from session_summarizer.worktree import check_files
from session_summarizer_fixtures import (
    bug_fix_session,
    commit_now,
    japanese_session,
    make_repo,
    refactor_session,
)


def _bug_fix_repo(tmp_path):
    repo = make_repo(tmp_path / "shop", {
        "src/export/csv_writer.py": "def write_row(r):\n    return ','.join(r)\n",
        "src/export/xlsx_writer.py": "pass\n",
        "tests/test_export.py": "def test_x():\n    pass\n",
        "CHANGELOG.md": "# Changes\n",
    })
    (repo / "src/export/csv_writer.py").write_text("import csv\n", encoding="utf-8")  # the agent's fix
    (repo / "CHANGELOG.md").write_text("# Changes\n- fix commas\n", encoding="utf-8")
    commit_now(repo, ["CHANGELOG.md"], "changelog")  # committed during the session: recent
    (repo / "tests/test_export.py").write_text("def test_comma():\n    pass\n", encoding="utf-8")
    return repo


def test_bug_fix_session_sections(tmp_path):
    repo = _bug_fix_repo(tmp_path)
    summary = summarize(parse_session(bug_fix_session(str(repo))))
    assert summary.language == "en"
    assert summary.goal.startswith("The CSV export crashes when a customer name contains a comma.")
    assert any("replaced the manual join with `csv.writer`" in item for item in summary.done.items)
    assert not any(item.endswith(":") for item in summary.done.items)
    states = {check.path: check.state for check in summary.files}
    assert states == {
        "src/export/csv_writer.py": "changed",
        "tests/test_export.py": "changed",
        "CHANGELOG.md": "committed",
        "src/export/xlsx_writer.py": "exists",
    }
    assert summary.commands.items == ["pytest tests/test_export.py -q", "pytest -q"]
    assert any("root cause" in item for item in summary.findings.items)
    assert any("ValueError: too many values to unpack" in item for item in summary.errors.items)
    assert summary.questions.items == ["Should I also backport this to the 1.x branch?"]
    assert summary.next_steps.items[0] == "Release a patch version with the fix"
    assert any("xlsx_writer.py" in item for item in summary.next_steps.items)
    markdown = summary.markdown
    for heading in ("## Goal", "## What was done", "## Files touched", "## Commands run",
                    "## Decisions and findings", "## Errors hit", "## Open questions", "## Next steps"):
        assert heading in markdown
    assert "- ✓ `src/export/csv_writer.py` — changed (git)" in markdown
    assert "- `src/export/xlsx_writer.py` — exists, unchanged" in markdown
    # Verified files are listed before files that are only present or mentioned.
    assert markdown.index("CHANGELOG.md") < markdown.index("xlsx_writer.py")


def test_refactor_session_outside_git(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "server.js").write_text("//", encoding="utf-8")
    summary = summarize(parse_session(refactor_session(str(tmp_path))))
    assert summary.goal.startswith("Please split the giant app/server.js")
    assert "Created app/routes/users.js, app/routes/orders.js, app/middleware.js and app/db.js." in summary.done.items
    assert any(item.startswith("Fixed the import path") for item in summary.done.items)
    assert any(item.startswith("Renamed getConn") for item in summary.done.items)
    states = {check.path: check.state for check in summary.files}
    assert states["app/server.js"] == "exists"
    assert states["app/db.js"] == "mentioned"
    assert "server.js" not in states  # the bare name is the same file as app/server.js
    assert summary.commands.items == ["npm test", "npm run lint"]
    assert any("decided to keep the Express app" in item for item in summary.findings.items)
    assert summary.errors.items == ["Error: Cannot find module './db'"]
    assert summary.questions.items == []
    assert any("README still describes the old layout" in item for item in summary.next_steps.items)


def test_japanese_session_is_summarized_in_japanese(tmp_path):
    repo = make_repo(tmp_path / "web", {"auth/login.ts": "export {}\n"})
    (repo / "auth/login.ts").write_text("export const x = 1\n", encoding="utf-8")
    summary = summarize(parse_session(japanese_session(str(repo))))
    assert summary.language == "ja"
    markdown = summary.markdown
    for heading in ("# セッションの要約", "## 目的", "## 実施したこと", "## 触れたファイル", "## 実行したコマンド",
                    "## 決定事項と判明したこと", "## 発生したエラー", "## 未解決の質問", "## 次のステップ"):
        assert heading in markdown
    assert summary.goal.startswith("ログイン画面でパスワードを間違えると500エラーになります。")
    assert any(item.startswith("auth/login.tsを修正しました") for item in summary.done.items)
    assert not any("しますか" in item for item in summary.done.items)
    assert {c.path: c.state for c in summary.files} == {"auth/login.ts": "changed", "tests/login.test.ts": "mentioned"}
    assert "- ✓ `auth/login.ts` — 変更あり (git)" in markdown
    # A block after "added a test", with no tool record and no word on how it went, may be what the user
    # is to run: a chat-only session lists a command only on evidence that it ran (chat_commands.py).
    assert summary.commands.items == []
    assert any(item.startswith("原因は") for item in summary.findings.items)
    assert summary.errors.items == ["TypeError: Cannot read properties of undefined (reading 'id')"]
    assert summary.questions.items == ["ロックアウト機能も追加しますか？"]
    assert summary.next_steps.items == ["次に、エラーメッセージの多言語化が必要です。"]


def test_korean_and_chinese_headings():
    korean = parse_session({"agent": "claude", "turns": [
        {"role": "user", "text": "로그인 버그를 고쳐 주세요. 비밀번호가 틀리면 서버가 죽습니다."},
        {"role": "assistant", "text": "auth.py를 수정했습니다. 다음 단계로 테스트를 추가해야 합니다."}]})
    assert summarize(korean).markdown.startswith("# 세션 요약")
    chinese = parse_session({"agent": "codex", "turns": [
        {"role": "user", "text": "请修复登录页面的错误，密码错误时服务器会崩溃。"},
        {"role": "assistant", "text": "已修复 auth.py 中的问题。下一步需要添加测试。"}]})
    summary = summarize(chinese)
    assert summary.language == "zh"
    assert "## 目标" in summary.markdown and "## 下一步" in summary.markdown


def test_language_detection_ignores_code_and_handles_mixed_text():
    assert detect_language(["Fix the bug please", "```\nエラー\n```"]) == "en"
    assert detect_language(["このバグを直して。 see src/app.py and run `npm test`"]) == "ja"
    assert detect_language([]) == "en"
    assert detect_language(["", "   "], fallback="ko") == "ko"


def test_empty_and_odd_sessions_do_not_crash():
    for raw in (None, {}, {"turns": []}, {"turns": "nope"}, {"turns": [None, 3, {"role": "user"}]}):
        summary = summarize(parse_session(raw))
        assert summary.goal == ""
        assert "None recorded." in summary.markdown


def test_last_user_turn_without_reply_is_an_open_question():
    session = parse_session({"turns": [
        {"role": "user", "text": "Add a dark mode toggle to the settings page."},
        {"role": "assistant", "text": "Added the toggle in settings/page.tsx."},
        {"role": "user", "text": "Now make it remember the choice across reloads."}]})
    summary = summarize(session)
    assert summary.questions.items == ["Waiting for a reply to: Now make it remember the choice across reloads."]
    assert summary.later_asks.items == ["Now make it remember the choice across reloads."]


def test_megabyte_turn_is_capped_and_still_summarized():
    huge = "Traceback (most recent call last):\n" + ("  noise line\n" * 90_000) + "KeyError: 'id'\n"
    session = parse_session({"turns": [{"role": "user", "text": "Why does the import fail?\n```\n" + huge + "```"},
                                       {"role": "assistant", "text": "Fixed the lookup in importer.py."}]})
    assert len(huge) > 1_000_000
    assert session.turns[0].original_length > 1_000_000
    assert len(session.turns[0].text) < TURN_HEAD_CHARS + 5_000
    summary = summarize(session)
    assert "KeyError: 'id'" in summary.errors.items  # the tail of the cut turn is kept
    assert summary.done.items == ["Fixed the lookup in importer.py."]


def test_two_thousand_turns_keep_the_newest_actions_and_report_overflow():
    turns = []
    for number in range(1000):
        turns.append({"role": "user", "text": "Step " + str(number) + ": please continue with module_" + str(number)})
        turns.append({"role": "assistant", "text": "Updated lib/module_" + str(number) + ".py to use the new API."})
    session = parse_session({"agent": "claude", "turnCount": 2400, "turns": turns})
    summary = summarize(session, file_checker=lambda paths, cwd: check_files(paths, ""))
    assert summary.turn_count == 2400 and summary.omitted_turns == 400
    # The newest work is listed, in order; older work is summed up as "more" rather than counted.
    assert summary.done.items[-1] == "Updated lib/module_999.py to use the new API."
    assert summary.done.items[0] == "Updated lib/module_" + str(1000 - LIMITS["done"]) + ".py to use the new API."
    assert len(summary.done.items) == LIMITS["done"] and summary.done.overflow == -1
    assert summary.files_overflow == 1000 - 30
    assert "the oldest 400 turns were not available" in summary.markdown
    assert "… and more (not listed)" in summary.markdown
    # Files past the limit are grouped by folder with a count, never cut silently.
    assert "- 970 more, by folder:" in summary.markdown
    assert summary.file_groups == ["`lib/` (970): module_30.py, module_31.py, module_32.py, module_33.py, "
                                   "module_34.py, module_35.py, …"]


def test_bare_file_name_is_matched_to_the_single_changed_file(tmp_path):
    repo = make_repo(tmp_path / "r", {"pkg/deep/util.py": "x = 1\n", "README.md": "r\n"})
    (repo / "pkg/deep/util.py").write_text("x = 2\n", encoding="utf-8")
    (repo / "new_file.py").write_text("y\n", encoding="utf-8")
    (repo / "README.md").unlink()
    checks = {c.path: c.state for c in check_files(["util.py", "new_file.py", "README.md", "/etc/passwd"], str(repo))}
    assert checks == {"pkg/deep/util.py": "changed", "new_file.py": "changed", "README.md": "deleted",
                      "/etc/passwd": "mentioned"}


def test_subfolder_cwd_resolves_paths_from_the_pane_folder(tmp_path):
    repo = make_repo(tmp_path / "mono", {"packages/api/server.py": "a\n"})
    (repo / "packages/api/server.py").write_text("b\n", encoding="utf-8")
    checks = check_files(["server.py", "./server.py"], str(repo / "packages" / "api"))
    assert [(c.path, c.state) for c in checks] == [("packages/api/server.py", "changed")]


def test_a_repository_filter_is_never_run(tmp_path):
    """A cloned repository can name any program as a clean filter; reading its status must not run it."""
    repo = make_repo(tmp_path / "evil", {"data.txt": "a\n", ".gitattributes": "*.txt filter=pwn\n"})
    marker = tmp_path / "filter-ran"
    program = tmp_path / "filter.sh"
    program.write_text("#!/bin/sh\ntouch '" + str(marker) + "'\ncat\n", encoding="utf-8")
    program.chmod(0o755)
    with open(repo / ".git" / "config", "a", encoding="utf-8") as handle:
        handle.write('[filter "pwn"]\n\tclean = ' + str(program) + '\n\trequired = true\n')
    # Same size, new content: git must hash the file, which is when it would run the filter.
    (repo / "data.txt").write_text("b\n", encoding="utf-8")
    checks = check_files(["data.txt"], str(repo))
    assert [(c.path, c.state) for c in checks] == [("data.txt", "changed")]
    assert not marker.exists()
    # The same status without our options does run it: the test above is not vacuous.
    subprocess.run(["git", "status", "--porcelain"], cwd=repo, check=False, capture_output=True)
    assert marker.exists()


def test_chinese_reports_decisions_and_offers():
    session = parse_session({"agent": "codex", "turns": [
        {"role": "user", "text": "导出 CSV 时中文乱码，请修复。"},
        {"role": "assistant", "text": "原因是文件没有写入 BOM，Excel 按 GBK 打开。我决定改用 utf-8-sig 编码。\n"
                                      "我已将 export.py 的编码改为 utf-8-sig。\n已新增测试 tests/test_export.py。\n"
                                      "如果需要，我可以再加一个导出选项。"}]})
    summary = summarize(session, file_checker=lambda paths, cwd: [])
    assert summary.language == "zh"
    assert summary.done.items == ["我已将 export.py 的编码改为 utf-8-sig。", "已新增测试 tests/test_export.py。"]
    assert any(item.startswith("原因是文件没有写入 BOM") for item in summary.findings.items)
    assert summary.questions.items == ["如果需要，我可以再加一个导出选项。"]
