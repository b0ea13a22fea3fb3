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
