"""Every panel string in English, Japanese, Korean and Chinese, plus the prompts handed to agents."""
from __future__ import annotations

from typing import Dict

from agentty_plugin import Translator

EN: Dict[str, str] = {
    "steps_hidden": "… {count} more steps are not shown.",
    "title": "Release {version}",
    "title_no_version": "Release",
    "refresh": "Reload",
    "no_pane": "Focus a terminal or agent pane inside a git repository to see its release checklist.",
    "not_repo": "{folder} is not inside a git repository.",
    "git_refused": "Git refused to read {folder}: the repository belongs to another user. If you trust it, "
                   "run `git config --global --add safe.directory <its folder>`, then press Reload.",
    "git_missing": "git is not installed (or cannot start), so {folder} cannot be read. Install git, "
                   "then press Reload.",
    "loading": "Reading the checklist…",
    "version": "Version",
    "version_apply": "Use version",
    "version_from": "from {file}",
    "version_suggested": "suggested: no version found in the project files",
    "version_given": "chosen by you",
    "version_bad": "\"{value}\" is not a version number such as 1.4.0.",
    "source_file": "Checklist: {file}",
    "source_default": "Default checklist (this repository has no RELEASE_CHECKLIST.md)",
    "write_default": "Write RELEASE_CHECKLIST.md",
    "reveal": "Show file",
    "written": "Wrote {file}. Edit it to fit your release and commit it.",
    "write_exists": "{file} already exists; nothing was overwritten.",
    "write_failed": "Could not write {file}. {problem}",
    "run_all": "Run all checks",
    "stop": "Stop",
    "reset": "Reset",
    "reset_confirm": "Forget every result of release {version}?",
    "yes_reset": "Yes, reset",
    "cancel": "Cancel",
    "enter_toggle": "Press Enter after typing a command",
    "steps": "Steps",
    "empty": "The checklist has no steps.",
    "state_pending": "Pending",
    "state_running": "Running… {seconds} s",
    "state_passed": "Passed",
    "state_failed": "Failed",
    "state_skipped": "Skipped: {reason}",
    "state_skipped_no_reason": "Skipped",
    "state_sent": "Sent: tick it when it is done",
    "state_done": "Done",
    "state_interrupted": "Interrupted: the plugin stopped while it ran",
    "state_stopped": "Stopped",
    "checks_stopped": "Stopped. Before that: {passed} passed, {failed} failed, {unknown} couldn't check.",
    "no_checks": "This checklist has no checks for the plugin to run.",
    "checks_done": "Every check has already passed.",
    "checks_done_skipped": "Every check has passed or was skipped ({skipped} skipped).",
    "steps_left": "{count} step(s) left, next: {title}.",
    "steps_left_none": "Nothing is left: the release is complete.",
    "confirm_title_local": "Confirm a release step",
    "confirm_run_local": "Run \"{title}\" now? It changes only this clone: nothing leaves this machine until you push.",
    "confirm_type_local": (
        "Type \"{title}\" into the terminal? It changes only this clone: nothing leaves this machine until you push."
    ),
    "confirm_hand_local": (
        "Hand \"{title}\" to an agent? It changes only this clone: nothing leaves this machine until you push."
    ),
    "push_branch": "Sends {commits} commit(s) on {branch} to {remote} ({url}).",
    "push_branch_new": "Sends {branch} (not on {remote} yet) to {remote} ({url}).",
    "push_tag_missing": "The tag {tag} is not created yet: create it first, or this push fails.",
    "kind_check": "check",
    "kind_terminal": "terminal",
    "kind_agent": "agent",
    "kind_manual": "manual",
    "irreversible": "irreversible",
    "outcome_failed": "exit code {code}",
    "outcome_timeout": "timed out after {seconds} s",
    "outcome_stopped": "stopped",
    "outcome_not_found": "command not found: {program}",
    "outcome_error": "could not start: {message}",
    "took": "{seconds} s",
    "action_run": "Run",
    "action_retry": "Retry",
    "action_type": "Type into terminal",
    "action_hand": "Hand to an agent",
    "action_done": "Mark done",
    "action_skip": "Skip",
    "action_undo": "Back to pending",
    "action_fix": "Ask the agent to fix it",
    "action_output": "Show output",
    "running_step": "Running: {title}",
    "output_of": "Output of \"{title}\"",
    "output_empty": "(no output)",
    "output_more": "… {count} earlier lines not shown",
    "confirm_title": "Confirm an irreversible step",
    "confirm_run": "Run \"{title}\" now? It cannot be undone.",
    "confirm_type": "Type \"{title}\" into the terminal? Once run it cannot be undone.",
    "confirm_hand": "Hand \"{title}\" to an agent? It cannot be undone.",
    "confirm_yes": "Yes, do it",
    "skip_title": "Skip \"{title}\"",
    "skip_reason": "Why is it skipped? (kept in the release record)",
    "skip_confirm": "Skip step",
    "skip_needs_reason": "Write a reason first.",
    "history": "Past releases",
    "history_empty": "No earlier releases recorded for this repository.",
    "history_line": "{complete}/{total} steps · {when}",
    "history_complete": "complete · {when}",
    "busy": "A step is running; stop it first.",
    "all_passed": "Every check passed.",
    "checks_failed": "{count} check(s) failed.",
    "push_no_remote": (
        "There is no remote named {remote}: add one (git remote add {remote} URL), "
        "or set the Remote line in {file}."
    ),
    "rerun_after_fix": "{pane} is idle again: running \"{title}\" again.",
    "version_unreadable": "no version could be read from {file} (the Version file setting)",
    "confirm_publishes": "Pushing {tag} starts {workflows}, which publishes the release.",
    "confirm_registry": "Pushing {tag} is the release: {registry} serves the tag as soon as it is pushed.",
    "publish_ci_tag": "Published by {workflows} when {tag} is pushed.",
    "publish_ci_release": "Published by {workflows} when the GitHub release for {tag} is published.",
    "publish_ci_dispatch": "Published by {workflows}, started by hand or by a branch push, not by the tag.",
    "publish_release_pr": (
        "Published when the release pull request of {workflows} (release-please) is merged; it creates {tag}."),
    "publish_ci_dispatch_tags": (
        "Start {workflows} with {version}: it bumps the version, publishes and creates {tag} itself."),
    "publish_ci_dispatch_tags_files": (
        "Published by {workflows}, started by hand or by merging the release: it creates {tag} from the version "
        "{version} in the files. Push only the branch."),
    "publish_command": "Published with {command} (a step after the push).",
    "publish_command_tags": "Published with {command} after the branch push; it creates and pushes {tag} itself.",
    "publish_registry": "The pushed tag {tag} is the release: {registry} serves it.",
    "publish_staged": "{command} only stages the release on {registry}: publishing it there is done by hand.",
    "publish_manual": "Publishing is manual: no publish command or release workflow was found.",
    "publish_document": "Published as {file} describes (its steps are in the checklist).",
    "changelog_not_kept": (
        "{file} stops at {version}, before the last release {last}: "
        "it is no longer kept, so it is not checked"
    ),
    "confirm_dirty": "The working tree has {count} uncommitted change(s) ({first}…); they are not part of the release.",
    "version_from_changelog": "from {file}: its top entry is newer than {tag}",
    "version_next": "suggested: the next after {tag}",
    "version_tags": "{tool} takes the version from the tag",
    "version_unchecked": "no version file was read, so the version check cannot confirm a bump (set \"Version file\")",
    "version_ignored": "{file} says {version}, older than the last release {last}: not used",
    "version_kept": "chosen by you",
    "source_settings": "Checklist: derived, with the settings of {file}",
    "source_adopted": "Checklist: {file}, this repository's own release document read as steps",
    "adopt": "Adopt as RELEASE_CHECKLIST.md",
    "outcome_not_installed_tests": "{program} is not installed: install it, or set the Tests line in {file}",
    "state_unknown": "Couldn't check",
    "checks_unknown": (
        "Checks: {passed} passed, {failed} failed, {unknown} couldn't check (the "
        "reason is on each step)."
    ),
    "outcome_not_installed": "{program} is not installed: install it, or set this step's command in {file}",
    "push_preview": (
        "Sends {commits} commit(s) on {branch} and the tag {tag} to "
        "{remote} ({url}) in one atomic push: both arrive or neither "
        "does."
    ),
    "push_preview_new": (
        "Sends {branch} (not on {remote} yet) and the tag {tag} to "
        "{remote} ({url}) in one atomic push."
    ),
    "push_tag_only": (
        "Sends only the tag {tag} to {remote} ({url}); no branch is "
        "pushed, so the tag's commit may be missing from {remote}'s "
        "branch."
    ),
    "push_not_atomic": "Without --atomic, the tag may arrive without the branch.",
    "confirm_busy": "{pane} is {status} in this repository: after you confirm, this waits until the agent is idle.",
    "waiting_title": "Waiting for the agent",
    "waiting_for": "{pane} is {status} in this repository. \"{title}\" starts when it is idle.",
    "waiting_settle": "The agents here look idle; making sure before \"{title}\" starts.",
    "waiting_resumed": "Kept from before Agentty restarted the plugin.",
    "wait_cancel": "Cancel (do not start it)",
    "wait_version_changed": "The wait for the agent was for version {version}: it ended, and nothing started.",
    "wait_cancelled": "\"{title}\" will not start: the wait was cancelled.",
    "wait_over": "The agents in this repository are idle: \"{title}\" starts now.",
    "wait_head_moved": "A commit was made while \"{title}\" waited: confirm it again with what it sends now.",
    "wait_already": "\"{title}\" is already waiting for the agent: cancel that first.",
    "wait_not_saved": "The wait is kept only until the plugin stops: {problem}",
    "pane_working": "working",
    "pane_thinking": "thinking",
    "pane_permission": "waiting for a permission",
    "pane_question": "waiting for an answer",
    "sent_terminal": "Typed into the terminal. Run it there, then tick the step.",
    "sent_agent": "Handed to the agent.",
    "asked_agent": "No idle agent pane: choose where to send it.",
    "no_terminal": "No idle terminal found for this repository; opened a new one.",
    "send_failed": "Could not send it: {error}",
    "problems_title": "{file} has problems",
    "problem_line": "Line {line}, column {column}: {message}",
    "read_failed": "The checklist could not be read. {error}",
    "not_saved": "Progress is not being saved. {problem}",
    "not_saved_stopped": "Stopped: progress could not be saved. {problem}",
    "run_where": "Running the checks",
    "state_damaged": "{file} could not be read and was kept as {kept}: results saved only in it are missing.",
    "state_damaged_left": "{file} could not be read (left in place): results saved only in it are missing.",
    "chosen_damaged": (
        "The versions you chose ({file}) could not be read and were kept as {kept}. Type the version again if the one "
        "shown is not right."
    ),
    "chosen_damaged_left": (
        "The versions you chose ({file}) could not be read. Type the version again if the one shown is not right."
    ),
    "chosen_not_saved": "The version is used until the plugin stops, but could not be saved. {problem}",
    "source_blank": "{file} is empty (perhaps a write that failed): the derived checklist is shown.",
    "write_again": "Write it again",
    # Checklist file problems, by code (see checklist_file.ChecklistProblem.code).
    "p_bad_task_marker": "This looks like a step but is not written as \"- [ ] title\".",
    "p_unclosed_code": "This code span has no closing backtick.",
    "p_unknown_tag": "Unknown tag #{tag}.",
    "p_unknown_tag_hint": "Unknown tag #{tag}. Did you mean #{suggestion}?",
    "p_two_kinds": "A step has one kind, but this one says #{first} and #{second}.",
    "p_needs_command": "A #{kind} step needs a command: write \"Title: `command`\".",
    "p_bad_timeout": "#timeout={value} is not a number of seconds (or 10m, 1h).",
    "p_unknown_placeholder": "Unknown placeholder {{{name}}}.",
    "p_shell_operator": "\"{operator}\" needs a shell; split the command into two steps or mark it #terminal.",
    "p_bad_quotes": "The quotes in this command are not balanced.",
    "p_bad_tag_format": ("The tag format must contain {{version}} (or {{major}}, {{minor}} and {{patch}}), for example "
                         "`v{{version}}` or `curl-{{major}}_{{minor}}_{{patch}}`."),
    "p_empty_title": "This step has no title.",
    "p_empty_setting": "This setting has no value.",
    "p_unclosed_fence": "A code block (```) is opened but never closed.",
    "p_no_steps": (
        "The file has no steps. Write each step as a list item, for example "
        "\"- [ ] Tests pass: `make test`\", \"* Update the changelog\" or \"1. Push the tag\"."
    ),
    # Prompts handed to agents.
    "prompt_fix": (
        "The release check \"{title}\" failed in {repo} (release {version}).\n"
        "Command: {command}\nResult: {result}\nLast lines of its output:\n```\n{output}\n```\n"
        "Find the cause and fix it in the repository, then tell me what you changed. "
        "Do not create tags, push or publish anything."
    ),
    "prompt_continue": (
        "Continue the release checklist of {repo} for version {version}.\n"
        "Step: {title}\n{instructions}\n\nSteps so far:\n{summary}\n"
        "Do only this step; do not create tags, push or publish unless the step says so."
    ),
}

JA: Dict[str, str] = {
    "steps_hidden": "… ほかに {count} 個のステップがあります（表示していません）。",
    "title": "リリース {version}",
    "title_no_version": "リリース",
    "refresh": "再読み込み",
    "no_pane": ("git リポジトリ内のターミナルかエージェントのペインにフォーカスすると、"
                "リリースチェックリストが表示されます。"),
    "not_repo": "{folder} は git リポジトリの中ではありません。",
    "git_refused": "Git が {folder} の読み込みを拒否しました: 別のユーザーが所有するリポジトリです。信頼できる場合は "
                   "`git config --global --add safe.directory <そのフォルダー>` を実行してから"
                   "「再読み込み」を押してください。",
    "git_missing": "git がインストールされていない（または起動できない）ため {folder} を読めません。git を入れてから"
                   "「再読み込み」を押してください。",
    "loading": "チェックリストを読み込み中…",
    "version": "バージョン",
    "version_apply": "このバージョンにする",
    "version_from": "{file} から",
    "version_suggested": "提案値: プロジェクトのファイルにバージョンがありません",
    "version_given": "手動で指定",
    "version_bad": "「{value}」は 1.4.0 のようなバージョン番号ではありません。",
    "source_file": "チェックリスト: {file}",
    "source_default": "既定のチェックリスト（このリポジトリに RELEASE_CHECKLIST.md はありません）",
    "write_default": "RELEASE_CHECKLIST.md を書き出す",
    "reveal": "ファイルを表示",
    "written": "{file} を書き出しました。リリースに合わせて編集し、コミットしてください。",
    "write_exists": "{file} はすでにあります。上書きしていません。",
    "write_failed": "{file} を書き出せませんでした。{problem}",
    "run_all": "すべてのチェックを実行",
    "stop": "停止",
    "reset": "リセット",
    "reset_confirm": "リリース {version} の結果をすべて消しますか？",
    "yes_reset": "はい、リセット",
    "cancel": "キャンセル",
    "enter_toggle": "コマンド入力後に Enter を押す",
    "steps": "ステップ",
    "empty": "チェックリストにステップがありません。",
    "state_pending": "未実行",
    "state_running": "実行中… {seconds} 秒",
    "state_passed": "成功",
    "state_failed": "失敗",
    "state_skipped": "スキップ: {reason}",
    "state_skipped_no_reason": "スキップ",
    "state_sent": "送信済み: 終わったらチェックしてください",
    "state_done": "完了",
    "state_interrupted": "中断: 実行中にプラグインが止まりました",
    "state_stopped": "停止",
    "checks_stopped": "停止しました。それまでの結果: 成功 {passed}、失敗 {failed}、確認できず {unknown}。",
    "no_checks": "このチェックリストには、プラグインが実行するチェックがありません。",
    "checks_done": "すべてのチェックに成功済みです。",
    "checks_done_skipped": "すべてのチェックは成功済みかスキップ済みです（スキップ {skipped} 件）。",
    "steps_left": "残り {count} ステップ。次は「{title}」です。",
    "steps_left_none": "残りはありません。リリースは完了です。",
    "confirm_title_local": "リリースのステップの確認",
    "confirm_run_local": (
        "「{title}」を今実行しますか？変わるのはこのクローンだけで、プッシュするまで何もこのマシンの外に出ません。"
    ),
    "confirm_type_local": (
        "「{title}」をターミナルに入力しますか？変わるのはこのクローンだけで、プッシュするまで何もこのマシンの外に出ま"
        "せん。"
    ),
    "confirm_hand_local": (
        "「{title}」をエージェントに渡しますか？変わるのはこのクローンだけで、プッシュするまで何もこのマシンの外に出ま"
        "せん。"
    ),
    "push_branch": "{branch} の {commits} 件のコミットを {remote}（{url}）に送ります。",
    "push_branch_new": "{branch}（{remote} にはまだありません）を {remote}（{url}）に送ります。",
    "push_tag_missing": "タグ {tag} はまだ作成されていません。先に作成してください。このままではプッシュが失敗します。",
    "kind_check": "チェック",
    "kind_terminal": "ターミナル",
    "kind_agent": "エージェント",
    "kind_manual": "手作業",
    "irreversible": "取り消し不可",
    "outcome_failed": "終了コード {code}",
    "outcome_timeout": "{seconds} 秒でタイムアウト",
    "outcome_stopped": "停止しました",
    "outcome_not_found": "コマンドが見つかりません: {program}",
    "outcome_error": "起動できません: {message}",
    "took": "{seconds} 秒",
    "action_run": "実行",
    "action_retry": "再実行",
    "action_type": "ターミナルに入力",
    "action_hand": "エージェントに渡す",
    "action_done": "完了にする",
    "action_skip": "スキップ",
    "action_undo": "未実行に戻す",
    "action_fix": "エージェントに修正を頼む",
    "action_output": "出力を表示",
    "running_step": "実行中: {title}",
    "output_of": "「{title}」の出力",
    "output_empty": "（出力なし）",
    "output_more": "… それ以前の {count} 行は省略",
    "confirm_title": "取り消せないステップの確認",
    "confirm_run": "「{title}」を今実行しますか？取り消せません。",
    "confirm_type": "「{title}」をターミナルに入力しますか？実行すると取り消せません。",
    "confirm_hand": "「{title}」をエージェントに渡しますか？取り消せません。",
    "confirm_yes": "はい、実行する",
    "skip_title": "「{title}」をスキップ",
    "skip_reason": "スキップする理由（リリースの記録に残ります）",
    "skip_confirm": "スキップする",
    "skip_needs_reason": "先に理由を書いてください。",
    "history": "過去のリリース",
    "history_empty": "このリポジトリのリリース記録はまだありません。",
    "history_line": "{complete}/{total} ステップ · {when}",
    "history_complete": "完了 · {when}",
    "busy": "ステップを実行中です。先に停止してください。",
    "all_passed": "すべてのチェックに成功しました。",
    "checks_failed": "{count} 件のチェックが失敗しました。",
    "push_no_remote": (
        "{remote} という名前のリモートはありません。追加する（git remote add {remote} "
        "URL）か、{file} の Remote 行を設定してください。"
    ),
    "rerun_after_fix": "{pane} がアイドルに戻りました。「{title}」をもう一度実行します。",
    "version_unreadable": "{file}（Version file の設定）からバージョンを読み取れませんでした",
    "confirm_publishes": "{tag} をプッシュすると {workflows} が動き、リリースを公開します。",
    "confirm_registry": (
        "{tag} のプッシュがそのままリリースです。プッシュした時点で {registry} がこのタグを配信します。"
    ),
    "publish_ci_tag": "{tag} をプッシュすると {workflows} が公開します。",
    "publish_ci_release": "{tag} の GitHub リリースを公開すると {workflows} が公開します。",
    "publish_ci_dispatch": "{workflows} が公開します。タグではなく、手動またはブランチへのプッシュで開始されます。",
    "publish_release_pr": (
        "{workflows}（release-please）のリリース PR をマージすると公開され、{tag} が作成されます。"),
    "publish_ci_dispatch_tags": (
        "{version} を指定して {workflows} を開始します。バージョン更新、公開、{tag} の作成まで行います。"),
    "publish_ci_dispatch_tags_files": (
        "{workflows} が公開します。手動またはリリースのマージで開始され、ファイル内のバージョン {version} から "
        "{tag} を作成します。プッシュするのはブランチだけです。"),
    "publish_command": "{command} で公開します（プッシュの後のステップ）。",
    "publish_command_tags": (
        "ブランチのプッシュ後に {command} で公開します。{tag} の作成とプッシュもこのコマンドが行います。"),
    "publish_registry": "プッシュしたタグ {tag} がそのままリリースです。{registry} が提供します。",
    "publish_staged": "{command} は {registry} にリリースを準備するだけです。公開はそこで手動で行います。",
    "publish_manual": "公開は手動です。公開コマンドもリリース用ワークフローも見つかりませんでした。",
    "publish_document": "{file} に書かれた手順で公開します（その手順はチェックリストにあります）。",
    "changelog_not_kept": (
        "{file} は {version} で止まっており、前回のリリース {last} より古いため、"
        "更新されていないものとしてチェックしません"
    ),
    "confirm_dirty": "作業ツリーに未コミットの変更が {count} 件あります（{first}…）。これらはリリースに含まれません。",
    "version_from_changelog": "{file} から（先頭の項目が {tag} より新しい）",
    "version_next": "提案: {tag} の次",
    "version_tags": "{tool} がタグからバージョンを決めます",
    "version_unchecked": "バージョンファイルを読めていないため、更新を確認できません（\"Version file\" を設定）",
    "version_ignored": "{file} は {version}（前回のリリース {last} より古いため不使用）",
    "version_kept": "あなたが選択",
    "source_settings": "チェックリスト: 自動作成（{file} の設定を使用）",
    "source_adopted": "チェックリスト: {file}（このリポジトリのリリース手順をステップとして読み込み）",
    "adopt": "RELEASE_CHECKLIST.md として採用",
    "outcome_not_installed_tests": (
        "{program} がインストールされていません。インストールするか、{file} の Tests "
        "行を設定してください"
    ),
    "state_unknown": "確認できませんでした",
    "checks_unknown": "チェック: 成功 {passed}、失敗 {failed}、確認できず {unknown}（理由は各ステップに表示）。",
    "outcome_not_installed": (
        "{program} がインストールされていません。インストールするか、{file} でこのステップのコマンド"
        "を設定してください"
    ),
    "push_preview": (
        "{branch} の {commits} 件のコミットとタグ {tag} を {remote}（{url}）へ 1 "
        "回のアトミックなプッシュで送ります。両方届くか、どちらも届かないかです。"
    ),
    "push_preview_new": (
        "{branch}（{remote} にはまだありません）とタグ {tag} を {remote}（{url}）"
        "へ 1 回のアトミックなプッシュで送ります。"
    ),
    "push_tag_only": (
        "タグ {tag} だけを {remote}（{url}）へ送ります。ブランチはプッシュされないため、"
        "タグのコミットが {remote} のブランチにない場合があります。"
    ),
    "push_not_atomic": "--atomic がないと、ブランチなしでタグだけが届くことがあります。",
    "confirm_busy": (
        "{pane} がこのリポジトリで{status}です。確定す"
        "ると、エージェントがアイドルになるまで待ってから実行します。"
    ),
    "waiting_title": "エージェントを待っています",
    "waiting_for": "{pane} がこのリポジトリで{status}です。アイドルになったら「{title}」を開始します。",
    "waiting_settle": "ここのエージェントはアイドルのようです。「{title}」を開始する前に確認しています。",
    "waiting_resumed": "Agentty がプラグインを再起動する前から続いている待機です。",
    "wait_cancel": "キャンセル（開始しない）",
    "wait_version_changed": "エージェントの待機はバージョン {version} のものでした。待機を終え、何も開始していません。",
    "wait_cancelled": "待機をキャンセルしたので「{title}」は開始しません。",
    "wait_over": "このリポジトリのエージェントがアイドルになりました。「{title}」を今開始します。",
    "wait_head_moved": (
        "「{title}」の待機中にコミットが作られました。"
        "今送られる内容を確認して、もう一度確定してください。"
    ),
    "wait_already": "「{title}」がすでにエージェントを待っています。先にそれをキャンセルしてください。",
    "wait_not_saved": "この待機はプラグインが止まるまでしか保持されません: {problem}",
    "pane_working": "作業中",
    "pane_thinking": "思考中",
    "pane_permission": "許可待ち",
    "pane_question": "回答待ち",
    "sent_terminal": "ターミナルに入力しました。そこで実行してから、ステップをチェックしてください。",
    "sent_agent": "エージェントに渡しました。",
    "asked_agent": "空いているエージェントのペインがありません。送り先を選んでください。",
    "no_terminal": "このリポジトリの空いているターミナルがないため、新しく開きました。",
    "send_failed": "送信できませんでした: {error}",
    "problems_title": "{file} に問題があります",
    "problem_line": "{line} 行 {column} 列: {message}",
    "read_failed": "チェックリストを読めませんでした。{error}",
    "not_saved": "進捗が保存されていません。{problem}",
    "not_saved_stopped": "停止しました: 進捗を保存できませんでした。{problem}",
    "run_where": "チェックの実行",
    "state_damaged": (
        "{file} を読めなかったため {kept} として保管しました。そこにだけ保存されていた結果は失われています。"
    ),
    "state_damaged_left": (
        "{file} を読めませんでした（そのまま残しています）。そこにだけ保存されていた結果は失われています。"
    ),
    "chosen_damaged": (
        "選んだバージョンの記録（{file}）を読めなかったため {kept} として保管しました。表示中のバージョンが違う場合はも"
        "う一度入力してください。"
    ),
    "chosen_damaged_left": (
        "選んだバージョンの記録（{file}）を読めませんでした。表示中のバージョンが違う場合はもう一度入力してください。"
    ),
    "chosen_not_saved": "このバージョンはプラグインが終了するまで使われますが、保存できませんでした。{problem}",
    "source_blank": "{file} は空です（書き込みに失敗した可能性があります）。自動作成のチェックリストを表示しています。",
    "write_again": "もう一度書き出す",
    "p_bad_task_marker": "ステップのようですが「- [ ] タイトル」の形になっていません。",
    "p_unclosed_code": "コードの閉じるバッククォートがありません。",
    "p_unknown_tag": "不明なタグ #{tag} です。",
    "p_unknown_tag_hint": "不明なタグ #{tag} です。#{suggestion} のことですか？",
    "p_two_kinds": "ステップの種類は一つだけですが、#{first} と #{second} が指定されています。",
    "p_needs_command": "#{kind} のステップにはコマンドが必要です:「タイトル: `コマンド`」と書いてください。",
    "p_bad_timeout": "#timeout={value} は秒数（または 10m、1h）ではありません。",
    "p_unknown_placeholder": "不明なプレースホルダー {{{name}}} です。",
    "p_shell_operator": "「{operator}」にはシェルが必要です。二つのステップに分けるか #terminal にしてください。",
    "p_bad_quotes": "このコマンドの引用符が閉じていません。",
    "p_bad_tag_format": ("タグの形式には {{version}}（または {{major}}、{{minor}}、{{patch}}）が必要です"
                         "（例: `v{{version}}`、`curl-{{major}}_{{minor}}_{{patch}}`）。"),
    "p_empty_title": "このステップにはタイトルがありません。",
    "p_empty_setting": "この設定には値がありません。",
    "p_unclosed_fence": "コードブロック（```）が閉じられていません。",
    "p_no_steps": (
        "ステップがありません。各ステップを箇条書きで書いてください。例: "
        "「- [ ] Tests pass: `make test`」「* Update the changelog」「1. Push the tag」"
    ),
    "prompt_fix": (
        "{repo} のリリースチェック「{title}」が失敗しました（リリース {version}）。\n"
        "コマンド: {command}\n結果: {result}\n出力の最後:\n```\n{output}\n```\n"
        "原因を見つけてリポジトリを修正し、何を変えたか教えてください。"
        "タグの作成、push、公開はしないでください。"
    ),
    "prompt_continue": (
        "{repo} のバージョン {version} のリリースチェックリストを続けてください。\n"
        "ステップ: {title}\n{instructions}\n\nここまでのステップ:\n{summary}\n"
        "このステップだけを行ってください。ステップに書かれていない限り、タグの作成、push、公開はしないでください。"
    ),
}

KO: Dict[str, str] = {
    "steps_hidden": "… 표시하지 않은 단계가 {count}개 더 있습니다.",
    "title": "릴리스 {version}",
    "title_no_version": "릴리스",
    "refresh": "다시 읽기",
    "no_pane": "git 저장소 안의 터미널이나 에이전트 창에 포커스를 두면 릴리스 체크리스트가 표시됩니다.",
    "not_repo": "{folder}은(는) git 저장소 안에 있지 않습니다.",
    "git_refused": "Git이 {folder} 읽기를 거부했습니다: 다른 사용자가 소유한 저장소입니다. 신뢰한다면 "
                   "`git config --global --add safe.directory <그 폴더>`를 실행한 뒤 다시 읽기를 누르세요.",
    "git_missing": "git이 설치되어 있지 않거나 시작할 수 없어 {folder}을(를) 읽을 수 없습니다. git을 설치한 뒤 "
                   "다시 읽기를 누르세요.",
    "loading": "체크리스트를 읽는 중…",
    "version": "버전",
    "version_apply": "이 버전 사용",
    "version_from": "{file}에서",
    "version_suggested": "제안: 프로젝트 파일에 버전이 없습니다",
    "version_given": "직접 지정함",
    "version_bad": "\"{value}\"은(는) 1.4.0 같은 버전 번호가 아닙니다.",
    "source_file": "체크리스트: {file}",
    "source_default": "기본 체크리스트 (이 저장소에는 RELEASE_CHECKLIST.md가 없습니다)",
    "write_default": "RELEASE_CHECKLIST.md 만들기",
    "reveal": "파일 보기",
    "written": "{file}을(를) 만들었습니다. 릴리스에 맞게 고친 뒤 커밋하세요.",
    "write_exists": "{file}이(가) 이미 있어 덮어쓰지 않았습니다.",
    "write_failed": "{file}을(를) 쓸 수 없습니다. {problem}",
    "run_all": "모든 검사 실행",
    "stop": "중지",
    "reset": "초기화",
    "reset_confirm": "릴리스 {version}의 결과를 모두 지울까요?",
    "yes_reset": "예, 초기화",
    "cancel": "취소",
    "enter_toggle": "명령을 입력한 뒤 Enter 누르기",
    "steps": "단계",
    "empty": "체크리스트에 단계가 없습니다.",
    "state_pending": "대기",
    "state_running": "실행 중… {seconds}초",
    "state_passed": "통과",
    "state_failed": "실패",
    "state_skipped": "건너뜀: {reason}",
    "state_skipped_no_reason": "건너뜀",
    "state_sent": "보냄: 끝나면 체크하세요",
    "state_done": "완료",
    "state_interrupted": "중단됨: 실행 중에 플러그인이 멈췄습니다",
    "state_stopped": "중지됨",
    "checks_stopped": "중지했습니다. 그 전까지: 통과 {passed}, 실패 {failed}, 확인 불가 {unknown}.",
    "no_checks": "이 체크리스트에는 플러그인이 실행할 검사가 없습니다.",
    "checks_done": "모든 검사를 이미 통과했습니다.",
    "checks_done_skipped": "모든 검사를 통과했거나 건너뛰었습니다(건너뜀 {skipped}개).",
    "steps_left": "남은 단계 {count}개, 다음: {title}.",
    "steps_left_none": "남은 단계가 없습니다. 릴리스가 완료되었습니다.",
    "confirm_title_local": "릴리스 단계 확인",
    "confirm_run_local": (
        "\"{title}\"을(를) 지금 실행할까요? 이 클론만 바뀌며, 푸시하기 전에는 아무것도 이 컴퓨터를 떠나지 않습니다."
    ),
    "confirm_type_local": (
        "\"{title}\"을(를) 터미널에 입력할까요? 이 클론만 바뀌며, 푸시하기 전에는 아무것도 이 컴퓨터를 떠나지 않습니다."
    ),
    "confirm_hand_local": (
        "\"{title}\"을(를) 에이전트에게 넘길까요? 이 클론만 바뀌며, 푸시하기 전에는 아무것도 이 컴퓨터를 떠나지 않습니"
        "다."
    ),
    "push_branch": "{branch}의 커밋 {commits}개를 {remote}({url})(으)로 보냅니다.",
    "push_branch_new": "{branch}({remote}에는 아직 없음)을(를) {remote}({url})(으)로 보냅니다.",
    "push_tag_missing": (
        "태그 {tag}이(가) 아직 만들어지지 않았습니다. 먼저 만드세요. 그렇지 않으면 이 푸시는 실패합니다."
    ),
    "kind_check": "검사",
    "kind_terminal": "터미널",
    "kind_agent": "에이전트",
    "kind_manual": "수동",
    "irreversible": "되돌릴 수 없음",
    "outcome_failed": "종료 코드 {code}",
    "outcome_timeout": "{seconds}초 후 시간 초과",
    "outcome_stopped": "중지됨",
    "outcome_not_found": "명령을 찾을 수 없음: {program}",
    "outcome_error": "시작할 수 없음: {message}",
    "took": "{seconds}초",
    "action_run": "실행",
    "action_retry": "다시 시도",
    "action_type": "터미널에 입력",
    "action_hand": "에이전트에게 넘기기",
    "action_done": "완료로 표시",
    "action_skip": "건너뛰기",
    "action_undo": "대기로 되돌리기",
    "action_fix": "에이전트에게 수정 요청",
    "action_output": "출력 보기",
    "running_step": "실행 중: {title}",
    "output_of": "\"{title}\"의 출력",
    "output_empty": "(출력 없음)",
    "output_more": "… 이전 {count}줄 생략",
    "confirm_title": "되돌릴 수 없는 단계 확인",
    "confirm_run": "\"{title}\"을(를) 지금 실행할까요? 되돌릴 수 없습니다.",
    "confirm_type": "\"{title}\"을(를) 터미널에 입력할까요? 실행하면 되돌릴 수 없습니다.",
    "confirm_hand": "\"{title}\"을(를) 에이전트에게 넘길까요? 되돌릴 수 없습니다.",
    "confirm_yes": "예, 실행",
    "skip_title": "\"{title}\" 건너뛰기",
    "skip_reason": "건너뛰는 이유 (릴리스 기록에 남습니다)",
    "skip_confirm": "건너뛰기",
    "skip_needs_reason": "먼저 이유를 적어 주세요.",
    "history": "지난 릴리스",
    "history_empty": "이 저장소의 릴리스 기록이 아직 없습니다.",
    "history_line": "{complete}/{total}단계 · {when}",
    "history_complete": "완료 · {when}",
    "busy": "단계가 실행 중입니다. 먼저 중지하세요.",
    "all_passed": "모든 검사를 통과했습니다.",
    "checks_failed": "검사 {count}개가 실패했습니다.",
    "push_no_remote": (
        "{remote}이라는 원격 저장소가 없습니다. 추가하거나(git remote add {remote} "
        "URL) {file}의 Remote 줄을 지정하세요."
    ),
    "rerun_after_fix": "{pane}이(가) 다시 유휴 상태입니다. \"{title}\"을(를) 다시 실행합니다.",
    "version_unreadable": "{file}(Version file 설정)에서 버전을 읽을 수 없습니다",
    "confirm_publishes": "{tag}을(를) 푸시하면 {workflows}이(가) 실행되어 릴리스를 게시합니다.",
    "confirm_registry": "{tag} 푸시가 곧 릴리스입니다. 푸시하는 즉시 {registry}이(가) 이 태그를 배포합니다.",
    "publish_ci_tag": "{tag}을(를) 푸시하면 {workflows}이(가) 배포합니다.",
    "publish_ci_release": "{tag}의 GitHub 릴리스를 게시하면 {workflows}이(가) 배포합니다.",
    "publish_ci_dispatch": "{workflows}이(가) 배포합니다. 태그가 아니라 수동 실행이나 브랜치 푸시로 시작됩니다.",
    "publish_release_pr": (
        "{workflows}(release-please)의 릴리스 PR을 병합하면 배포되고 {tag}가 만들어집니다."),
    "publish_ci_dispatch_tags": (
        "{version}(으)로 {workflows}을(를) 시작하세요. 버전 올리기, 배포, {tag} 생성을 직접 합니다."),
    "publish_ci_dispatch_tags_files": (
        "{workflows}이(가) 배포합니다. 수동 실행이나 릴리스 병합으로 시작되며, 파일의 버전 {version}(으)로 "
        "{tag}을(를) 만듭니다. 브랜치만 푸시하세요."),
    "publish_command": "{command}(으)로 배포합니다(푸시 다음 단계).",
    "publish_command_tags": "브랜치를 푸시한 뒤 {command}(으)로 배포합니다. {tag} 생성과 푸시도 이 명령이 합니다.",
    "publish_registry": "푸시한 태그 {tag}이(가) 곧 릴리스입니다. {registry}이(가) 제공합니다.",
    "publish_staged": "{command}은(는) {registry}에 릴리스를 준비만 합니다. 게시는 그곳에서 직접 해야 합니다.",
    "publish_manual": "배포는 수동입니다. 배포 명령도 릴리스 워크플로도 찾지 못했습니다.",
    "publish_document": "{file}에 적힌 방법으로 배포합니다(그 단계는 체크리스트에 있습니다).",
    "changelog_not_kept": (
        "{file}은(는) {version}에서 멈춰 있어 이전 릴리스 {last}보다 오래되었습니다. "
        "더 이상 관리되지 않으므로 확인하지 않습니다"
    ),
    "confirm_dirty": "작업 트리에 커밋되지 않은 변경이 {count}개 있습니다({first}…). 릴리스에 포함되지 않습니다.",
    "version_from_changelog": "{file}에서(맨 위 항목이 {tag}보다 새로움)",
    "version_next": "제안: {tag} 다음 버전",
    "version_tags": "{tool}이(가) 태그에서 버전을 가져옵니다",
    "version_unchecked": "버전 파일을 읽지 못해 버전을 올렸는지 확인할 수 없습니다(\"Version file\" 설정)",
    "version_ignored": "{file}은(는) {version}(이전 릴리스 {last}보다 오래되어 사용 안 함)",
    "version_kept": "직접 선택함",
    "source_settings": "체크리스트: 자동 생성({file}의 설정 사용)",
    "source_adopted": "체크리스트: {file}(이 저장소의 릴리스 문서를 단계로 읽음)",
    "adopt": "RELEASE_CHECKLIST.md로 채택",
    "outcome_not_installed_tests": "{program}이(가) 설치되어 있지 않습니다. 설치하거나 {file}의 Tests 줄을 지정하세요",
    "state_unknown": "확인할 수 없음",
    "checks_unknown": "검사: 통과 {passed}, 실패 {failed}, 확인 불가 {unknown}(이유는 각 단계에 표시).",
    "outcome_not_installed": (
        "{program}이(가) 설치되어 있지 않습니다. 설치하거나 {file}에서 이 단계의 "
        "명령을 지정하세요"
    ),
    "push_preview": (
        "{branch}의 커밋 {commits}개와 태그 {tag}를 {remote}({url})에 한 번의 원자적 "
        "푸시로 보냅니다. 둘 다 도착하거나 둘 다 도착하지 않습니다."
    ),
    "push_preview_new": (
        "{branch}({remote}에 아직 없음)와 태그 {tag}를 {remote}({url})에 한 번의 "
        "원자적 푸시로 보냅니다."
    ),
    "push_tag_only": (
        "태그 {tag}만 {remote}({url})에 보냅니다. 브랜치는 푸시되지 않으므로 태그의 "
        "커밋이 {remote} 브랜치에 없을 수 있습니다."
    ),
    "push_not_atomic": "--atomic이 없으면 브랜치 없이 태그만 도착할 수 있습니다.",
    "confirm_busy": (
        "{pane}이(가) 이 저장소에서 {status} 상태입니다. "
        "확인하면 에이전트가 유휴 상태가 될 때까지 기다렸다가 실행합니다."
    ),
    "waiting_title": "에이전트를 기다리는 중",
    "waiting_for": "{pane}이(가) 이 저장소에서 {status} 상태입니다. 유휴 상태가 되면 \"{title}\"을(를) 시작합니다.",
    "waiting_settle": "이곳의 에이전트가 유휴 상태로 보입니다. \"{title}\"을(를) 시작하기 전에 확인하는 중입니다.",
    "waiting_resumed": "Agentty가 플러그인을 다시 시작하기 전부터 이어진 대기입니다.",
    "wait_cancel": "취소(시작하지 않음)",
    "wait_version_changed": (
        "에이전트 대기는 버전 {version}의 것이었습니다. "
        "대기를 끝냈고 아무것도 시작하지 않았습니다."
    ),
    "wait_cancelled": "대기를 취소했으므로 \"{title}\"은(는) 시작하지 않습니다.",
    "wait_over": "이 저장소의 에이전트가 유휴 상태입니다. 지금 \"{title}\"을(를) 시작합니다.",
    "wait_head_moved": "\"{title}\"이(가) 기다리는 동안 커밋이 생겼습니다. 지금 보내질 내용을 보고 다시 확인하세요.",
    "wait_already": "\"{title}\"이(가) 이미 에이전트를 기다리고 있습니다. 먼저 그것을 취소하세요.",
    "wait_not_saved": "이 대기는 플러그인이 멈출 때까지만 유지됩니다: {problem}",
    "pane_working": "작업 중",
    "pane_thinking": "생각 중",
    "pane_permission": "권한 대기 중",
    "pane_question": "답변 대기 중",
    "sent_terminal": "터미널에 입력했습니다. 거기서 실행한 뒤 단계를 체크하세요.",
    "sent_agent": "에이전트에게 넘겼습니다.",
    "asked_agent": "쉬고 있는 에이전트 창이 없습니다. 보낼 곳을 고르세요.",
    "no_terminal": "이 저장소의 쉬고 있는 터미널이 없어 새로 열었습니다.",
    "send_failed": "보낼 수 없습니다: {error}",
    "problems_title": "{file}에 문제가 있습니다",
    "problem_line": "{line}행 {column}열: {message}",
    "read_failed": "체크리스트를 읽을 수 없습니다. {error}",
    "not_saved": "진행 상황이 저장되지 않고 있습니다. {problem}",
    "not_saved_stopped": "중지됨: 진행 상황을 저장할 수 없었습니다. {problem}",
    "run_where": "검사 실행",
    "state_damaged": "{file}을(를) 읽을 수 없어 {kept}(으)로 보관했습니다. 그 파일에만 저장된 결과는 빠져 있습니다.",
    "state_damaged_left": "{file}을(를) 읽을 수 없습니다(그대로 두었습니다). 그 파일에만 저장된 결과는 빠져 있습니다.",
    "chosen_damaged": (
        "선택한 버전 기록({file})을 읽을 수 없어 {kept}(으)로 보관했습니다. 표시된 버전이 맞지 않으면 다시 입력하세요."
    ),
    "chosen_damaged_left": "선택한 버전 기록({file})을 읽을 수 없습니다. 표시된 버전이 맞지 않으면 다시 입력하세요.",
    "chosen_not_saved": "이 버전은 플러그인이 멈출 때까지 사용되지만 저장할 수 없었습니다. {problem}",
    "source_blank": "{file}이(가) 비어 있습니다(쓰기가 실패했을 수 있습니다). 자동 생성된 체크리스트를 보여 줍니다.",
    "write_again": "다시 쓰기",
    "p_bad_task_marker": "단계처럼 보이지만 \"- [ ] 제목\" 형식이 아닙니다.",
    "p_unclosed_code": "코드를 닫는 백틱이 없습니다.",
    "p_unknown_tag": "알 수 없는 태그 #{tag}입니다.",
    "p_unknown_tag_hint": "알 수 없는 태그 #{tag}입니다. #{suggestion}을(를) 뜻했나요?",
    "p_two_kinds": "단계의 종류는 하나인데 #{first}와(과) #{second}가 함께 있습니다.",
    "p_needs_command": "#{kind} 단계에는 명령이 필요합니다: \"제목: `명령`\"으로 쓰세요.",
    "p_bad_timeout": "#timeout={value}은(는) 초 단위 숫자(또는 10m, 1h)가 아닙니다.",
    "p_unknown_placeholder": "알 수 없는 자리표시자 {{{name}}}입니다.",
    "p_shell_operator": "\"{operator}\"에는 셸이 필요합니다. 두 단계로 나누거나 #terminal로 표시하세요.",
    "p_bad_quotes": "이 명령의 따옴표가 짝이 맞지 않습니다.",
    "p_bad_tag_format": ("태그 형식에는 {{version}}(또는 {{major}}, {{minor}}, {{patch}})이 있어야 합니다 "
                         "(예: `v{{version}}`, `curl-{{major}}_{{minor}}_{{patch}}`)."),
    "p_empty_title": "이 단계에는 제목이 없습니다.",
    "p_empty_setting": "이 설정에는 값이 없습니다.",
    "p_unclosed_fence": "코드 블록(```)이 열렸지만 닫히지 않았습니다.",
    "p_no_steps": (
        "단계가 없습니다. 각 단계를 목록 항목으로 쓰세요. 예: "
        "\"- [ ] Tests pass: `make test`\", \"* Update the changelog\", \"1. Push the tag\""
    ),
    "prompt_fix": (
        "{repo}의 릴리스 검사 \"{title}\"이(가) 실패했습니다 (릴리스 {version}).\n"
        "명령: {command}\n결과: {result}\n출력의 마지막 부분:\n```\n{output}\n```\n"
        "원인을 찾아 저장소를 고치고 무엇을 바꿨는지 알려 주세요. "
        "태그 생성, push, 배포는 하지 마세요."
    ),
    "prompt_continue": (
        "{repo}의 버전 {version} 릴리스 체크리스트를 이어서 진행해 주세요.\n"
        "단계: {title}\n{instructions}\n\n지금까지의 단계:\n{summary}\n"
        "이 단계만 하세요. 단계에 적혀 있지 않다면 태그 생성, push, 배포는 하지 마세요."
    ),
}

ZH: Dict[str, str] = {
    "steps_hidden": "… 还有 {count} 个步骤未显示。",
    "title": "发布 {version}",
    "title_no_version": "发布",
    "refresh": "重新读取",
    "no_pane": "聚焦到 git 仓库中的终端或智能体窗格，即可看到它的发布检查清单。",
    "not_repo": "{folder} 不在 git 仓库中。",
    "git_refused": "Git 拒绝读取 {folder}：该仓库属于另一个用户。如果你信任它，请运行 "
                   "`git config --global --add safe.directory <该文件夹>`，然后点击“重新读取”。",
    "git_missing": "未安装 git（或无法启动），因此无法读取 {folder}。请安装 git 后点击“重新读取”。",
    "loading": "正在读取检查清单…",
    "version": "版本",
    "version_apply": "使用此版本",
    "version_from": "来自 {file}",
    "version_suggested": "建议值：项目文件中没有版本号",
    "version_given": "由你指定",
    "version_bad": "“{value}”不是 1.4.0 这样的版本号。",
    "source_file": "检查清单：{file}",
    "source_default": "默认检查清单（此仓库没有 RELEASE_CHECKLIST.md）",
    "write_default": "写入 RELEASE_CHECKLIST.md",
    "reveal": "显示文件",
    "written": "已写入 {file}。请按你的发布流程修改并提交。",
    "write_exists": "{file} 已存在，未覆盖任何内容。",
    "write_failed": "无法写入 {file}。{problem}",
    "run_all": "运行全部检查",
    "stop": "停止",
    "reset": "重置",
    "reset_confirm": "清除发布 {version} 的全部结果？",
    "yes_reset": "是，重置",
    "cancel": "取消",
    "enter_toggle": "输入命令后按 Enter",
    "steps": "步骤",
    "empty": "检查清单中没有步骤。",
    "state_pending": "待处理",
    "state_running": "运行中… {seconds} 秒",
    "state_passed": "通过",
    "state_failed": "失败",
    "state_skipped": "已跳过：{reason}",
    "state_skipped_no_reason": "已跳过",
    "state_sent": "已发送：完成后请勾选",
    "state_done": "完成",
    "state_interrupted": "已中断：运行时插件停止了",
    "state_stopped": "已停止",
    "checks_stopped": "已停止。在此之前：{passed} 项通过，{failed} 项失败，{unknown} 项无法检查。",
    "no_checks": "此检查清单中没有由插件运行的检查。",
    "checks_done": "所有检查都已通过。",
    "checks_done_skipped": "所有检查都已通过或被跳过（跳过 {skipped} 项）。",
    "steps_left": "还剩 {count} 个步骤，下一步：{title}。",
    "steps_left_none": "没有剩余步骤：此次发布已完成。",
    "confirm_title_local": "确认发布步骤",
    "confirm_run_local": "现在运行“{title}”？它只改变这个克隆：在你推送之前，什么都不会离开这台机器。",
    "confirm_type_local": "将“{title}”输入到终端？它只改变这个克隆：在你推送之前，什么都不会离开这台机器。",
    "confirm_hand_local": "将“{title}”交给智能体？它只改变这个克隆：在你推送之前，什么都不会离开这台机器。",
    "push_branch": "将 {branch} 上的 {commits} 个提交发送到 {remote}（{url}）。",
    "push_branch_new": "将 {branch}（{remote} 上尚无）发送到 {remote}（{url}）。",
    "push_tag_missing": "标签 {tag} 尚未创建：请先创建，否则此次推送会失败。",
    "kind_check": "检查",
    "kind_terminal": "终端",
    "kind_agent": "智能体",
    "kind_manual": "手动",
    "irreversible": "不可撤销",
    "outcome_failed": "退出码 {code}",
    "outcome_timeout": "{seconds} 秒后超时",
    "outcome_stopped": "已停止",
    "outcome_not_found": "找不到命令：{program}",
    "outcome_error": "无法启动：{message}",
    "took": "{seconds} 秒",
    "action_run": "运行",
    "action_retry": "重试",
    "action_type": "输入到终端",
    "action_hand": "交给智能体",
    "action_done": "标记完成",
    "action_skip": "跳过",
    "action_undo": "恢复为待处理",
    "action_fix": "请智能体修复",
    "action_output": "查看输出",
    "running_step": "正在运行：{title}",
    "output_of": "“{title}”的输出",
    "output_empty": "（无输出）",
    "output_more": "… 省略了之前的 {count} 行",
    "confirm_title": "确认不可撤销的步骤",
    "confirm_run": "现在运行“{title}”？此操作无法撤销。",
    "confirm_type": "将“{title}”输入到终端？运行后无法撤销。",
    "confirm_hand": "将“{title}”交给智能体？此操作无法撤销。",
    "confirm_yes": "是，执行",
    "skip_title": "跳过“{title}”",
    "skip_reason": "跳过的原因（会记录在发布记录中）",
    "skip_confirm": "跳过步骤",
    "skip_needs_reason": "请先填写原因。",
    "history": "以往发布",
    "history_empty": "此仓库还没有发布记录。",
    "history_line": "{complete}/{total} 步 · {when}",
    "history_complete": "已完成 · {when}",
    "busy": "有步骤正在运行，请先停止。",
    "all_passed": "所有检查均已通过。",
    "checks_failed": "{count} 项检查失败。",
    "push_no_remote": (
        "没有名为 {remote} 的远程仓库：请添加一个（git remote add {remote} URL）"
        "，或在 {file} 中设置 Remote 行。"
    ),
    "rerun_after_fix": "{pane} 已再次空闲：重新运行“{title}”。",
    "version_unreadable": "无法从 {file}（Version file 设置）读取版本",
    "confirm_publishes": "推送 {tag} 会启动 {workflows}，由它发布此版本。",
    "confirm_registry": "推送 {tag} 即是发布：推送后 {registry} 会立即提供这个标签。",
    "publish_ci_tag": "推送 {tag} 后由 {workflows} 发布。",
    "publish_ci_release": "发布 {tag} 的 GitHub Release 后由 {workflows} 发布。",
    "publish_ci_dispatch": "由 {workflows} 发布：手动或推送分支时启动，而不是由标签启动。",
    "publish_release_pr": (
        "合并 {workflows}（release-please）的发布 PR 即发布，并创建 {tag}。"),
    "publish_ci_dispatch_tags": "以版本 {version} 启动 {workflows}：它会自行更新版本、发布并创建 {tag}。",
    "publish_ci_dispatch_tags_files": (
        "由 {workflows} 发布：手动或合并发布时启动，按文件中的版本 {version} 创建 {tag}。只推送分支。"),
    "publish_command": "用 {command} 发布（推送之后的步骤）。",
    "publish_command_tags": "推送分支后用 {command} 发布；它会自行创建并推送 {tag}。",
    "publish_registry": "推送的标签 {tag} 即是发布：由 {registry} 提供。",
    "publish_staged": "{command} 只在 {registry} 上暂存该版本：需要在那里手动发布。",
    "publish_manual": "发布需手动进行：未找到发布命令或发布工作流。",
    "publish_document": "按 {file} 所述发布（其步骤已在清单中）。",
    "changelog_not_kept": "{file} 停在 {version}，早于上次发布的 {last}：已不再维护，因此不检查",
    "confirm_dirty": "工作树有 {count} 处未提交的更改（{first}…）；它们不属于此次发布。",
    "version_from_changelog": "来自 {file}：其首条目比 {tag} 更新",
    "version_next": "建议：{tag} 的下一个版本",
    "version_tags": "{tool} 从标签获取版本",
    "version_unchecked": "未读取到版本文件，无法确认版本是否已更新（请设置 \"Version file\"）",
    "version_ignored": "{file} 写的是 {version}，比上次发布的 {last} 旧：未使用",
    "version_kept": "由你选择",
    "source_settings": "清单：自动生成（使用 {file} 的设置）",
    "source_adopted": "清单：{file}（本仓库自己的发布文档，按步骤读取）",
    "adopt": "采用为 RELEASE_CHECKLIST.md",
    "outcome_not_installed_tests": "未安装 {program}：请安装它，或在 {file} 中设置 Tests 行",
    "state_unknown": "无法检查",
    "checks_unknown": "检查：{passed} 项通过，{failed} 项失败，{unknown} 项无法检查（原因见各步骤）。",
    "outcome_not_installed": "未安装 {program}：请安装它，或在 {file} 中设置此步骤的命令",
    "push_preview": (
        "以一次原子推送将 {branch} 上的 {commits} 个提交和标签 {tag} 发送到 {remote}（{url}）"
        "：要么都到达，要么都不到达。"
    ),
    "push_preview_new": "以一次原子推送将 {branch}（{remote} 上尚无）和标签 {tag} 发送到 {remote}（{url}）。",
    "push_tag_only": (
        "只将标签 {tag} 发送到 {remote}（{url}）；不推送分支，因此 {remote} 的分支上可能没有该标签的"
        "提交。"
    ),
    "push_not_atomic": "没有 --atomic 时，标签可能在没有分支的情况下到达。",
    "confirm_busy": "{pane} 正在此仓库中{status}：确认后，会等到智能体空闲再执行。",
    "waiting_title": "正在等待智能体",
    "waiting_for": "{pane} 正在此仓库中{status}。它空闲后将开始“{title}”。",
    "waiting_settle": "这里的智能体似乎已空闲；开始“{title}”前再确认一次。",
    "waiting_resumed": "这是 Agentty 重启插件之前就在进行的等待。",
    "wait_cancel": "取消（不开始）",
    "wait_version_changed": "对智能体的等待属于版本 {version}：等待已结束，没有开始任何操作。",
    "wait_cancelled": "已取消等待，“{title}”不会开始。",
    "wait_over": "此仓库的智能体已空闲：现在开始“{title}”。",
    "wait_head_moved": "“{title}”等待期间产生了新的提交：请查看现在要发送的内容后再次确认。",
    "wait_already": "“{title}”已在等待智能体：请先取消它。",
    "wait_not_saved": "此等待只保留到插件停止：{problem}",
    "pane_working": "工作",
    "pane_thinking": "思考",
    "pane_permission": "等待授权",
    "pane_question": "等待回答",
    "sent_terminal": "已输入到终端。请在那里运行，然后勾选该步骤。",
    "sent_agent": "已交给智能体。",
    "asked_agent": "没有空闲的智能体窗格，请选择发送位置。",
    "no_terminal": "此仓库没有空闲的终端，已打开一个新终端。",
    "send_failed": "无法发送：{error}",
    "problems_title": "{file} 有问题",
    "problem_line": "第 {line} 行第 {column} 列：{message}",
    "read_failed": "无法读取检查清单。{error}",
    "not_saved": "进度未能保存。{problem}",
    "not_saved_stopped": "已停止：无法保存进度。{problem}",
    "run_where": "运行检查",
    "state_damaged": "无法读取 {file}，已保存为 {kept}：只保存在其中的结果已缺失。",
    "state_damaged_left": "无法读取 {file}（保留原处）：只保存在其中的结果已缺失。",
    "chosen_damaged": "无法读取你选定的版本记录（{file}），已保存为 {kept}。如果显示的版本不对，请重新输入。",
    "chosen_damaged_left": "无法读取你选定的版本记录（{file}）。如果显示的版本不对，请重新输入。",
    "chosen_not_saved": "该版本会一直使用到插件停止，但无法保存。{problem}",
    "source_blank": "{file} 是空的（可能是一次失败的写入）：显示的是自动生成的检查清单。",
    "write_again": "重新写入",
    "p_bad_task_marker": "这看起来像一个步骤，但没有写成“- [ ] 标题”。",
    "p_unclosed_code": "此代码缺少结束的反引号。",
    "p_unknown_tag": "未知标签 #{tag}。",
    "p_unknown_tag_hint": "未知标签 #{tag}。你是想写 #{suggestion} 吗？",
    "p_two_kinds": "一个步骤只能有一种类型，但这里同时写了 #{first} 和 #{second}。",
    "p_needs_command": "#{kind} 步骤需要命令：请写成“标题: `命令`”。",
    "p_bad_timeout": "#timeout={value} 不是秒数（或 10m、1h）。",
    "p_unknown_placeholder": "未知占位符 {{{name}}}。",
    "p_shell_operator": "“{operator}”需要 shell；请拆成两个步骤，或标记为 #terminal。",
    "p_bad_quotes": "此命令中的引号不成对。",
    "p_bad_tag_format": ("标签格式必须包含 {{version}}（或 {{major}}、{{minor}}、{{patch}}），例如 `v{{version}}` 或 "
                         "`curl-{{major}}_{{minor}}_{{patch}}`。"),
    "p_empty_title": "此步骤没有标题。",
    "p_empty_setting": "此设置没有值。",
    "p_unclosed_fence": "代码块（```）没有闭合。",
    "p_no_steps": (
        "文件中没有步骤。请把每个步骤写成列表项，例如"
        "“- [ ] Tests pass: `make test`”、“* Update the changelog”或“1. Push the tag”。"
    ),
    "prompt_fix": (
        "{repo} 的发布检查“{title}”失败了（发布 {version}）。\n"
        "命令：{command}\n结果：{result}\n输出的最后几行：\n```\n{output}\n```\n"
        "请找到原因并在仓库中修复，然后告诉我你改了什么。不要创建标签、推送或发布任何内容。"
    ),
    "prompt_continue": (
        "请继续 {repo} 版本 {version} 的发布检查清单。\n"
        "步骤：{title}\n{instructions}\n\n目前的步骤：\n{summary}\n"
        "只做这一步；除非步骤要求，否则不要创建标签、推送或发布。"
    ),
}

TEXT = Translator({"en": EN, "ja": JA, "ko": KO, "zh": ZH})
