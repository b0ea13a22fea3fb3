"""Commands: what counts as the agent's run in exports that hide or fold their tool calls."""

from session_summarizer import failure_statements
from session_summarizer.formats import EDIT, READ, RUN, SEARCH
from session_summarizer.local_summary import summarize
from session_summarizer.session import parse_session
from session_summarizer.transcript import read_turn
from session_summarizer.worktree import FileCheck


def _summary(turns):
    return summarize(parse_session({"agent": "chat", "cwd": "", "turns": turns}),
                     file_checker=lambda paths, folder: [FileCheck(path, "mentioned") for path in paths])


def test_a_command_the_user_typed_at_their_own_prompt_is_theirs_not_the_agents():
    summary = _summary([
        {"role": "user", "text": "remoteproc2 不存在"},
        {"role": "assistant",
         "text": "在板子上运行：\n\n```bash\nls -la /sys/class/remoteproc/\ndmesg | grep remoteproc\n```\n"},
        {"role": "user", "text": "输出：\nroot@petalinux:~#   ls -la /sys/class/remoteproc/\ntotal 0\n"
                                 "root@petalinux:~# dmesg | grep remoteproc\n[ 1.2] remoteproc0 is available"},
        {"role": "assistant", "text": "remoteproc0 存在。"}])
    assert summary.commands.items == []
    # A command pasted with what it printed right under it, without a prompt, is the user's run too.
    summary = _summary([
        {"role": "user", "text": "build fails"},
        {"role": "assistant", "text": "Rebuild it:\n\n```bash\nmake clean\nmake all\n```\n"},
        {"role": "user", "text": "now it says:\nmake all\nBuilding file: ../src/main.c\nld: cannot find -lopenamp"},
        {"role": "assistant", "text": "The library is called open_amp."}])
    assert summary.commands.items == []


def test_a_command_the_user_asks_the_agent_to_run_still_counts():
    summary = _summary([
        {"role": "user", "text": "デモユーザーを作りたい"},
        {"role": "assistant",
         "text": "スクリプトで作成できます。\n\n```bash\nnpx tsx scripts/create-user.ts demo a@b.jp pw1234\n```\n"},
        {"role": "user",
         "text": "ユーザー作成しました。\n\nnpx tsx scripts/create-user.ts demo a@b.jp pw1234\n\nを実行してください"},
        {"role": "assistant", "text": "環境変数が未設定のため、スクリプトは実行できません。"}])
    assert summary.commands.items == ["npx tsx scripts/create-user.ts demo a@b.jp pw1234"]


def test_a_history_read_back_is_not_commits_made():
    for listing in ("**最新提交记录**：\n- `d0ac25a` - 添加聊天记录\n- `411799a` - 添加完整对话记录\n"
                    "- `682eb02` - Initial commit: 理论框架",
                    "Recent commits:\n- `d0ac25a` — add the chat log\n- `682eb02` — Initial commit"):
        summary = _summary([
            {"role": "user", "text": "pull the latest changes"},
            {"role": "assistant", "text": "Already up to date.\n\n" + listing}])
        assert not any("commit" in item for item in summary.commands.items), listing
    # One commit reported with its hash is still a commit made.
    summary = _summary([
        {"role": "user", "text": "commit it"},
        {"role": "assistant", "text": "Committed `682eb02` - Initial commit."}])
    assert summary.commands.items == ["git commit (682eb02)"]


_CODEX_APP = """<details><summary>12 previous messages</summary>

> I'll look at the repo first.
>
> <details><summary>Explored a list, ran 2 commands</summary>
>
> - Ran `pwd`
>
> <details><summary>Explored a list</summary>
>
> - Listed files
>
> </details>
>
> - Ran `git status --short`
>
> </details>
>
> `rg` isn't installed here, so I'm falling back to plain file reads.
>
> <details><summary>Created 2 files</summary>
>
> - Wrote `./bridge/Main.hs` (+49 -0)
> - Read `./cabal.project`
>
> </details>
>
> Searched the web for `hledger releases`
</details>

Done. The bridge is in `bridge/Main.hs`."""


def test_the_codex_apps_folded_progress_notes_are_calls_and_prose():
    parts = read_turn(_CODEX_APP)
    assert [(call.kind, call.text) for call in parts.calls] == [
        (RUN, "pwd"), (SEARCH, "Listed files"), (RUN, "git status --short"), (EDIT, "./bridge/Main.hs"),
        (READ, "./cabal.project"), (SEARCH, "Searched the web for `hledger releases`")]
    assert "`rg` isn't installed here" in parts.prose and "Done. The bridge" in parts.prose
    assert "<details>" not in parts.prose and "Ran `pwd`" not in parts.prose


def test_checks_a_reply_says_passed_are_runs_beside_other_calls():
    summary = _summary([
        {"role": "user", "text": "Implement the plan."},
        {"role": "assistant",
         "text": _CODEX_APP + "\n\nValidações OK:\n- `npm run build`\n- `npm test -- --runInBand`"}])
    assert "npm run build" in " ".join(summary.commands.items)


def test_a_tool_said_missing_with_a_contraction_is_a_failure():
    assert failure_statements.states_failure("`rg` isn’t installed here, so I’m falling back to plain reads.")
    assert failure_statements.states_failure("`wasm32-wasi-cabal` isn't available in this sandbox.")
    assert not failure_statements.states_failure("If `rg` isn't installed, use grep.")


def test_an_announced_run_that_left_the_exports_gap_ran_in_any_language():
    for reply, expected in (
            ("好的，现在我来帮您推送代码到GitHub：\n\n\n看起来网络连接有问题。", "推送代码到GitHub"),
            ("キャッシュの可能性があるため、開発サーバーを再起動します。\n\n\n再起動しました。",
             "開発サーバーを再起動します"),
            ("이제 명령어를 실행하여 의존성을 새로 설치합니다.\n\n\n설치가 완료되었습니다.", "새로 설치합니다"),
            ("Build passes clean. Now set up git and push to GitHub:\n\nPushed: the repo is live.", "push to GitHub"),
            ("Let me install it:\n\n\n`npm install @supabase/supabase-js` finished.",
             "npm install @supabase/supabase-js")):
        summary = _summary([{"role": "user", "text": "go on"}, {"role": "assistant", "text": reply}])
        assert any(expected in item for item in summary.commands.items), (reply, summary.commands.items)


def test_a_look_a_plan_step_or_advice_before_a_gap_is_not_a_command():
    for reply in ("让我再检查一下是否有任何新的提交或更新：\n\n\n很好！",
                  "Next steps:\n\n- run the tests",
                  "If you want, you can run the build yourself:\n\n\nThat is all.",
                  "Shall I push it to GitHub?\n\n\nOK.",
                  "1. Commit the change:\n\nThe plan has three steps."):
        summary = _summary([{"role": "user", "text": "go on"}, {"role": "assistant", "text": reply}])
        assert summary.commands.items == [], (reply, summary.commands.items)


def test_the_problems_cline_shows_after_a_save_are_errors_with_their_file_and_status():
    saved = ("[write_to_file for 'backend/routes/models.py'] Result:\n"
             "The content was successfully saved to backend/routes/models.py.\n\n"
             "New problems detected after saving the file:\nbackend/routes/chats.py\n"
             "- [Pylint Error] Line 40: class already defined line 23\n- [Pylint Warning] Line 3: unused import\n")
    clean = ("[write_to_file for 'backend/routes/models.py'] Result:\n"
             "The content was successfully saved to backend/routes/models.py.\n")
    write = "<write_to_file>\n<path>backend/routes/models.py</path>\n<content>x</content>\n</write_to_file>\n\n"
    turns = [{"role": "user", "text": "Port the schema."},
             {"role": "assistant", "text": write + saved + "\nI'll fix the duplicate class."},
             {"role": "assistant", "text": write + clean + "\nDone."}]
    summary = _summary(turns)
    assert len(summary.errors.items) == 1
    item = summary.errors.items[0]
    assert "class already defined" in item and "chats.py" in item and "fixed" in item
    assert "unused import" not in " ".join(summary.errors.items)
    assert summary.commands.items == []
