"""Every panel string in English, Japanese, Korean and Chinese, plus the prompts handed to agents."""
from __future__ import annotations

from typing import Dict

from agentty_plugin import Translator

EN: Dict[str, str] = {
    "steps-hidden": "… {count} more steps are not shown.",
    "title": "Release {version}",
    "title-no-version": "Release",
    "refresh": "Reload",
    "no-pane": "Focus a terminal or agent pane inside a git repository to see its release checklist.",
    "not-repo": "{folder} is not inside a git repository.",
    "git-refused": "Git refused to read {folder}: the repository belongs to another user. If you trust it, "
                   "run `git config --global --add safe.directory <its folder>`, then press Reload.",
    "git-missing": "git is not installed (or cannot start), so {folder} cannot be read. Install git, "
                   "then press Reload.",
    "loading": "Reading the checklist…",
    "version": "Version",
    "version-apply": "Use version",
    "version-from": "from {file}",
    "version-suggested": "suggested: no version found in the project files",
    "version-given": "chosen by you",
    "version-bad": "\"{value}\" is not a version number such as 1.4.0.",
    "source-file": "Checklist: {file}",
    "source-default": "Default checklist (this repository has no RELEASE_CHECKLIST.md)",
    "write-default": "Write RELEASE_CHECKLIST.md",
    "reveal": "Show file",
    "written": "Wrote {file}. Edit it to fit your release and commit it.",
    "write-exists": "{file} already exists; nothing was overwritten.",
    "write-failed": "Could not write {file}. {problem}",
    "run-all": "Run all checks",
    "stop": "Stop",
    "reset": "Reset",
    "reset-confirm": "Forget every result of release {version}?",
    "yes-reset": "Yes, reset",
    "cancel": "Cancel",
    "enter-toggle": "Press Enter after typing a command",
    "steps": "Steps",
    "empty": "The checklist has no steps.",
    "state-pending": "Pending",
    "state-running": "Running… {seconds} s",
    "state-passed": "Passed",
    "state-failed": "Failed",
    "state-skipped": "Skipped: {reason}",
    "state-skipped-no-reason": "Skipped",
    "state-sent": "Sent: tick it when it is done",
    "state-done": "Done",
    "state-interrupted": "Interrupted: the plugin stopped while it ran",
    "state-stopped": "Stopped",
    "checks-stopped": "Stopped. Before that: {passed} passed, {failed} failed, {unknown} couldn't check.",
    "no-checks": "This checklist has no checks for the plugin to run.",
    "checks-done": "Every check has already passed.",
    "checks-done-skipped": "Every check has passed or was skipped ({skipped} skipped).",
    "steps-left": "{count} step(s) left, next: {title}.",
    "steps-left-none": "Nothing is left: the release is complete.",
    "confirm-title-local": "Confirm a release step",
    "confirm-run-local": "Run \"{title}\" now? It changes only this clone: nothing leaves this machine until you push.",
    "confirm-type-local": (
        "Type \"{title}\" into the terminal? It changes only this clone: nothing leaves this machine until you push."
    ),
    "confirm-hand-local": (
        "Hand \"{title}\" to an agent? It changes only this clone: nothing leaves this machine until you push."
    ),
    "push-branch": "Sends {commits} commit(s) on {branch} to {remote} ({url}).",
    "push-branch-new": "Sends {branch} (not on {remote} yet) to {remote} ({url}).",
    "push-tag-missing": "The tag {tag} is not created yet: create it first, or this push fails.",
    "kind-check": "check",
    "kind-terminal": "terminal",
    "kind-agent": "agent",
    "kind-manual": "manual",
    "irreversible": "irreversible",
    "outcome-failed": "exit code {code}",
    "outcome-timeout": "timed out after {seconds} s",
    "outcome-stopped": "stopped",
    "outcome-not-found": "command not found: {program}",
    "outcome-error": "could not start: {message}",
    "took": "{seconds} s",
    "action-run": "Run",
    "action-retry": "Retry",
    "action-type": "Type into terminal",
    "action-hand": "Hand to an agent",
    "action-done": "Mark done",
    "action-skip": "Skip",
    "action-undo": "Back to pending",
    "action-fix": "Ask the agent to fix it",
    "action-output": "Show output",
    "running-step": "Running: {title}",
    "output-of": "Output of \"{title}\"",
    "output-empty": "(no output)",
    "output-more": "… {count} earlier lines not shown",
    "confirm-title": "Confirm an irreversible step",
    "confirm-run": "Run \"{title}\" now? It cannot be undone.",
    "confirm-type": "Type \"{title}\" into the terminal? Once run it cannot be undone.",
    "confirm-hand": "Hand \"{title}\" to an agent? It cannot be undone.",
    "confirm-yes": "Yes, do it",
    "skip-title": "Skip \"{title}\"",
    "skip-reason": "Why is it skipped? (kept in the release record)",
    "skip-confirm": "Skip step",
    "skip-needs-reason": "Write a reason first.",
    "history": "Past releases",
    "history-empty": "No earlier releases recorded for this repository.",
    "history-line": "{complete}/{total} steps · {when}",
    "history-complete": "complete · {when}",
    "busy": "A step is running; stop it first.",
    "all-passed": "Every check passed.",
    "checks-failed": "{count} check(s) failed.",
    "push-no-remote": (
        "There is no remote named {remote}: add one (git remote add {remote} URL), "
        "or set the Remote line in {file}."
    ),
    "rerun-after-fix": "{pane} is idle again: running \"{title}\" again.",
    "version-unreadable": "no version could be read from {file} (the Version file setting)",
    "confirm-publishes": "Pushing {tag} starts {workflows}, which publishes the release.",
    "confirm-dirty": "The working tree has {count} uncommitted change(s) ({first}…); they are not part of the release.",
    "version-from-changelog": "from {file}: its top entry is newer than {tag}",
    "version-next": "suggested: the next after {tag}",
    "version-tags": "{tool} takes the version from the tag",
    "version-ignored": "{file} says {version}, older than the last release {last}: not used",
    "version-kept": "chosen by you",
    "source-settings": "Checklist: derived, with the settings of {file}",
    "source-adopted": "Checklist: {file}, this repository's own release document read as steps",
    "adopt": "Adopt as RELEASE_CHECKLIST.md",
    "outcome-not-installed-tests": "{program} is not installed: install it, or set the Tests line in {file}",
    "state-unknown": "Couldn't check",
    "checks-unknown": (
        "Checks: {passed} passed, {failed} failed, {unknown} couldn't check (the "
        "reason is on each step)."
    ),
    "outcome-not-installed": "{program} is not installed: install it, or set this step's command in {file}",
    "push-preview": (
        "Sends {commits} commit(s) on {branch} and the tag {tag} to "
        "{remote} ({url}) in one atomic push: both arrive or neither "
        "does."
    ),
    "push-preview-new": (
        "Sends {branch} (not on {remote} yet) and the tag {tag} to "
        "{remote} ({url}) in one atomic push."
    ),
    "push-tag-only": (
        "Sends only the tag {tag} to {remote} ({url}); no branch is "
        "pushed, so the tag's commit may be missing from {remote}'s "
        "branch."
    ),
    "push-not-atomic": "Without --atomic, the tag may arrive without the branch.",
    "agent-busy": (
        "{pane} is {status} in this repository, so \"{title}\" did not start: it would publish the agent's unfinished "
        "work. Press it again once the agent is idle."
    ),
    "pane-working": "working",
    "pane-thinking": "thinking",
    "pane-permission": "waiting for a permission",
    "pane-question": "waiting for an answer",
    "sent-terminal": "Typed into the terminal. Run it there, then tick the step.",
    "sent-agent": "Handed to the agent.",
    "asked-agent": "No idle agent pane: choose where to send it.",
    "no-terminal": "No idle terminal found for this repository; opened a new one.",
    "send-failed": "Could not send it: {error}",
    "problems-title": "{file} has problems",
    "problem-line": "Line {line}, column {column}: {message}",
    "read-failed": "The checklist could not be read. {error}",
    "not-saved": "Progress is not being saved. {problem}",
    "not-saved-stopped": "Stopped: progress could not be saved. {problem}",
    "run-where": "Running the checks",
    "state-damaged": "{file} could not be read and was kept as {kept}: results saved only in it are missing.",
    "state-damaged-left": "{file} could not be read (left in place): results saved only in it are missing.",
    "chosen-damaged": (
        "The versions you chose ({file}) could not be read and were kept as {kept}. Type the version again if the one "
        "shown is not right."
    ),
    "chosen-damaged-left": (
        "The versions you chose ({file}) could not be read. Type the version again if the one shown is not right."
    ),
    "chosen-not-saved": "The version is used until the plugin stops, but could not be saved. {problem}",
    "source-blank": "{file} is empty (perhaps a write that failed): the derived checklist is shown.",
    "write-again": "Write it again",
    # Checklist file problems, by code (see checklist_file.ChecklistProblem.code).
    "p-bad-task-marker": "This looks like a step but is not written as \"- [ ] title\".",
    "p-unclosed-code": "This code span has no closing backtick.",
    "p-unknown-tag": "Unknown tag #{tag}.",
    "p-unknown-tag-hint": "Unknown tag #{tag}. Did you mean #{suggestion}?",
    "p-two-kinds": "A step has one kind, but this one says #{first} and #{second}.",
    "p-needs-command": "A #{kind} step needs a command: write \"Title: `command`\".",
    "p-bad-timeout": "#timeout={value} is not a number of seconds (or 10m, 1h).",
    "p-unknown-placeholder": "Unknown placeholder {{{name}}}.",
    "p-shell-operator": "\"{operator}\" needs a shell; split the command into two steps or mark it #terminal.",
    "p-bad-quotes": "The quotes in this command are not balanced.",
    "p-bad-tag-format": ("The tag format must contain {{version}} (or {{major}}, {{minor}} and {{patch}}), for example "
                         "`v{{version}}` or `curl-{{major}}_{{minor}}_{{patch}}`."),
    "p-empty-title": "This step has no title.",
    "p-empty-setting": "This setting has no value.",
    "p-unclosed-fence": "A code block (```) is opened but never closed.",
    "p-no-steps": (
        "The file has no steps. Write each step as a list item, for example "
        "\"- [ ] Tests pass: `make test`\", \"* Update the changelog\" or \"1. Push the tag\"."
    ),
    # Prompts handed to agents.
    "prompt-fix": (
        "The release check \"{title}\" failed in {repo} (release {version}).\n"
        "Command: {command}\nResult: {result}\nLast lines of its output:\n```\n{output}\n```\n"
        "Find the cause and fix it in the repository, then tell me what you changed. "
        "Do not create tags, push or publish anything."
    ),
    "prompt-continue": (
        "Continue the release checklist of {repo} for version {version}.\n"
        "Step: {title}\n{instructions}\n\nSteps so far:\n{summary}\n"
        "Do only this step; do not create tags, push or publish unless the step says so."
    ),
}

JA: Dict[str, str] = {
    "steps-hidden": "… ほかに {count} 個のステップがあります（表示していません）。",
    "title": "リリース {version}",
    "title-no-version": "リリース",
    "refresh": "再読み込み",
    "no-pane": ("git リポジトリ内のターミナルかエージェントのペインにフォーカスすると、"
                "リリースチェックリストが表示されます。"),
    "not-repo": "{folder} は git リポジトリの中ではありません。",
    "git-refused": "Git が {folder} の読み込みを拒否しました: 別のユーザーが所有するリポジトリです。信頼できる場合は "
                   "`git config --global --add safe.directory <そのフォルダー>` を実行してから"
                   "「再読み込み」を押してください。",
    "git-missing": "git がインストールされていない（または起動できない）ため {folder} を読めません。git を入れてから"
                   "「再読み込み」を押してください。",
    "loading": "チェックリストを読み込み中…",
    "version": "バージョン",
    "version-apply": "このバージョンにする",
    "version-from": "{file} から",
    "version-suggested": "提案値: プロジェクトのファイルにバージョンがありません",
    "version-given": "手動で指定",
    "version-bad": "「{value}」は 1.4.0 のようなバージョン番号ではありません。",
    "source-file": "チェックリスト: {file}",
    "source-default": "既定のチェックリスト（このリポジトリに RELEASE_CHECKLIST.md はありません）",
    "write-default": "RELEASE_CHECKLIST.md を書き出す",
    "reveal": "ファイルを表示",
    "written": "{file} を書き出しました。リリースに合わせて編集し、コミットしてください。",
    "write-exists": "{file} はすでにあります。上書きしていません。",
    "write-failed": "{file} を書き出せませんでした。{problem}",
    "run-all": "すべてのチェックを実行",
    "stop": "停止",
    "reset": "リセット",
    "reset-confirm": "リリース {version} の結果をすべて消しますか？",
    "yes-reset": "はい、リセット",
    "cancel": "キャンセル",
    "enter-toggle": "コマンド入力後に Enter を押す",
    "steps": "ステップ",
    "empty": "チェックリストにステップがありません。",
    "state-pending": "未実行",
    "state-running": "実行中… {seconds} 秒",
    "state-passed": "成功",
    "state-failed": "失敗",
    "state-skipped": "スキップ: {reason}",
    "state-skipped-no-reason": "スキップ",
    "state-sent": "送信済み: 終わったらチェックしてください",
    "state-done": "完了",
    "state-interrupted": "中断: 実行中にプラグインが止まりました",
    "state-stopped": "停止",
    "checks-stopped": "停止しました。それまでの結果: 成功 {passed}、失敗 {failed}、確認できず {unknown}。",
    "no-checks": "このチェックリストには、プラグインが実行するチェックがありません。",
    "checks-done": "すべてのチェックに成功済みです。",
    "checks-done-skipped": "すべてのチェックは成功済みかスキップ済みです（スキップ {skipped} 件）。",
    "steps-left": "残り {count} ステップ。次は「{title}」です。",
    "steps-left-none": "残りはありません。リリースは完了です。",
    "confirm-title-local": "リリースのステップの確認",
    "confirm-run-local": (
        "「{title}」を今実行しますか？変わるのはこのクローンだけで、プッシュするまで何もこのマシンの外に出ません。"
    ),
    "confirm-type-local": (
        "「{title}」をターミナルに入力しますか？変わるのはこのクローンだけで、プッシュするまで何もこのマシンの外に出ま"
        "せん。"
    ),
    "confirm-hand-local": (
        "「{title}」をエージェントに渡しますか？変わるのはこのクローンだけで、プッシュするまで何もこのマシンの外に出ま"
        "せん。"
    ),
    "push-branch": "{branch} の {commits} 件のコミットを {remote}（{url}）に送ります。",
    "push-branch-new": "{branch}（{remote} にはまだありません）を {remote}（{url}）に送ります。",
    "push-tag-missing": "タグ {tag} はまだ作成されていません。先に作成してください。このままではプッシュが失敗します。",
    "kind-check": "チェック",
    "kind-terminal": "ターミナル",
    "kind-agent": "エージェント",
    "kind-manual": "手作業",
    "irreversible": "取り消し不可",
    "outcome-failed": "終了コード {code}",
    "outcome-timeout": "{seconds} 秒でタイムアウト",
    "outcome-stopped": "停止しました",
    "outcome-not-found": "コマンドが見つかりません: {program}",
    "outcome-error": "起動できません: {message}",
    "took": "{seconds} 秒",
    "action-run": "実行",
    "action-retry": "再実行",
    "action-type": "ターミナルに入力",
    "action-hand": "エージェントに渡す",
    "action-done": "完了にする",
    "action-skip": "スキップ",
    "action-undo": "未実行に戻す",
    "action-fix": "エージェントに修正を頼む",
    "action-output": "出力を表示",
    "running-step": "実行中: {title}",
    "output-of": "「{title}」の出力",
    "output-empty": "（出力なし）",
    "output-more": "… それ以前の {count} 行は省略",
    "confirm-title": "取り消せないステップの確認",
    "confirm-run": "「{title}」を今実行しますか？取り消せません。",
    "confirm-type": "「{title}」をターミナルに入力しますか？実行すると取り消せません。",
    "confirm-hand": "「{title}」をエージェントに渡しますか？取り消せません。",
    "confirm-yes": "はい、実行する",
    "skip-title": "「{title}」をスキップ",
    "skip-reason": "スキップする理由（リリースの記録に残ります）",
    "skip-confirm": "スキップする",
    "skip-needs-reason": "先に理由を書いてください。",
    "history": "過去のリリース",
    "history-empty": "このリポジトリのリリース記録はまだありません。",
    "history-line": "{complete}/{total} ステップ · {when}",
    "history-complete": "完了 · {when}",
    "busy": "ステップを実行中です。先に停止してください。",
    "all-passed": "すべてのチェックに成功しました。",
    "checks-failed": "{count} 件のチェックが失敗しました。",
    "push-no-remote": (
        "{remote} という名前のリモートはありません。追加する（git remote add {remote} "
        "URL）か、{file} の Remote 行を設定してください。"
    ),
    "rerun-after-fix": "{pane} がアイドルに戻りました。「{title}」をもう一度実行します。",
    "version-unreadable": "{file}（Version file の設定）からバージョンを読み取れませんでした",
    "confirm-publishes": "{tag} をプッシュすると {workflows} が動き、リリースを公開します。",
    "confirm-dirty": "作業ツリーに未コミットの変更が {count} 件あります（{first}…）。これらはリリースに含まれません。",
    "version-from-changelog": "{file} から（先頭の項目が {tag} より新しい）",
    "version-next": "提案: {tag} の次",
    "version-tags": "{tool} がタグからバージョンを決めます",
    "version-ignored": "{file} は {version}（前回のリリース {last} より古いため不使用）",
    "version-kept": "あなたが選択",
    "source-settings": "チェックリスト: 自動作成（{file} の設定を使用）",
    "source-adopted": "チェックリスト: {file}（このリポジトリのリリース手順をステップとして読み込み）",
    "adopt": "RELEASE_CHECKLIST.md として採用",
    "outcome-not-installed-tests": (
        "{program} がインストールされていません。インストールするか、{file} の Tests "
        "行を設定してください"
    ),
    "state-unknown": "確認できませんでした",
    "checks-unknown": "チェック: 成功 {passed}、失敗 {failed}、確認できず {unknown}（理由は各ステップに表示）。",
    "outcome-not-installed": (
        "{program} がインストールされていません。インストールするか、{file} でこのステップのコマンド"
        "を設定してください"
    ),
    "push-preview": (
        "{branch} の {commits} 件のコミットとタグ {tag} を {remote}（{url}）へ 1 "
        "回のアトミックなプッシュで送ります。両方届くか、どちらも届かないかです。"
    ),
    "push-preview-new": (
        "{branch}（{remote} にはまだありません）とタグ {tag} を {remote}（{url}）"
        "へ 1 回のアトミックなプッシュで送ります。"
    ),
    "push-tag-only": (
        "タグ {tag} だけを {remote}（{url}）へ送ります。ブランチはプッシュされないため、"
        "タグのコミットが {remote} のブランチにない場合があります。"
    ),
    "push-not-atomic": "--atomic がないと、ブランチなしでタグだけが届くことがあります。",
    "agent-busy": (
        "{pane} がこのリポジトリで{status}のため、「{title}」は開始しませんでした。エージェントの作業途中の内容が公開さ"
        "れてしまいます。エージェントがアイドルになってから、もう一度押してください。"
    ),
    "pane-working": "作業中",
    "pane-thinking": "思考中",
    "pane-permission": "許可待ち",
    "pane-question": "回答待ち",
    "sent-terminal": "ターミナルに入力しました。そこで実行してから、ステップをチェックしてください。",
    "sent-agent": "エージェントに渡しました。",
    "asked-agent": "空いているエージェントのペインがありません。送り先を選んでください。",
    "no-terminal": "このリポジトリの空いているターミナルがないため、新しく開きました。",
    "send-failed": "送信できませんでした: {error}",
    "problems-title": "{file} に問題があります",
    "problem-line": "{line} 行 {column} 列: {message}",
    "read-failed": "チェックリストを読めませんでした。{error}",
    "not-saved": "進捗が保存されていません。{problem}",
    "not-saved-stopped": "停止しました: 進捗を保存できませんでした。{problem}",
    "run-where": "チェックの実行",
    "state-damaged": (
        "{file} を読めなかったため {kept} として保管しました。そこにだけ保存されていた結果は失われています。"
    ),
    "state-damaged-left": (
        "{file} を読めませんでした（そのまま残しています）。そこにだけ保存されていた結果は失われています。"
    ),
    "chosen-damaged": (
        "選んだバージョンの記録（{file}）を読めなかったため {kept} として保管しました。表示中のバージョンが違う場合はも"
        "う一度入力してください。"
    ),
    "chosen-damaged-left": (
        "選んだバージョンの記録（{file}）を読めませんでした。表示中のバージョンが違う場合はもう一度入力してください。"
    ),
    "chosen-not-saved": "このバージョンはプラグインが終了するまで使われますが、保存できませんでした。{problem}",
    "source-blank": "{file} は空です（書き込みに失敗した可能性があります）。自動作成のチェックリストを表示しています。",
    "write-again": "もう一度書き出す",
    "p-bad-task-marker": "ステップのようですが「- [ ] タイトル」の形になっていません。",
    "p-unclosed-code": "コードの閉じるバッククォートがありません。",
    "p-unknown-tag": "不明なタグ #{tag} です。",
    "p-unknown-tag-hint": "不明なタグ #{tag} です。#{suggestion} のことですか？",
    "p-two-kinds": "ステップの種類は一つだけですが、#{first} と #{second} が指定されています。",
    "p-needs-command": "#{kind} のステップにはコマンドが必要です:「タイトル: `コマンド`」と書いてください。",
    "p-bad-timeout": "#timeout={value} は秒数（または 10m、1h）ではありません。",
    "p-unknown-placeholder": "不明なプレースホルダー {{{name}}} です。",
    "p-shell-operator": "「{operator}」にはシェルが必要です。二つのステップに分けるか #terminal にしてください。",
    "p-bad-quotes": "このコマンドの引用符が閉じていません。",
    "p-bad-tag-format": ("タグの形式には {{version}}（または {{major}}、{{minor}}、{{patch}}）が必要です"
                         "（例: `v{{version}}`、`curl-{{major}}_{{minor}}_{{patch}}`）。"),
    "p-empty-title": "このステップにはタイトルがありません。",
    "p-empty-setting": "この設定には値がありません。",
    "p-unclosed-fence": "コードブロック（```）が閉じられていません。",
    "p-no-steps": (
        "ステップがありません。各ステップを箇条書きで書いてください。例: "
        "「- [ ] Tests pass: `make test`」「* Update the changelog」「1. Push the tag」"
    ),
    "prompt-fix": (
        "{repo} のリリースチェック「{title}」が失敗しました（リリース {version}）。\n"
        "コマンド: {command}\n結果: {result}\n出力の最後:\n```\n{output}\n```\n"
        "原因を見つけてリポジトリを修正し、何を変えたか教えてください。"
        "タグの作成、push、公開はしないでください。"
    ),
    "prompt-continue": (
        "{repo} のバージョン {version} のリリースチェックリストを続けてください。\n"
        "ステップ: {title}\n{instructions}\n\nここまでのステップ:\n{summary}\n"
        "このステップだけを行ってください。ステップに書かれていない限り、タグの作成、push、公開はしないでください。"
    ),
}

KO: Dict[str, str] = {
    "steps-hidden": "… 표시하지 않은 단계가 {count}개 더 있습니다.",
    "title": "릴리스 {version}",
    "title-no-version": "릴리스",
    "refresh": "다시 읽기",
    "no-pane": "git 저장소 안의 터미널이나 에이전트 창에 포커스를 두면 릴리스 체크리스트가 표시됩니다.",
    "not-repo": "{folder}은(는) git 저장소 안에 있지 않습니다.",
    "git-refused": "Git이 {folder} 읽기를 거부했습니다: 다른 사용자가 소유한 저장소입니다. 신뢰한다면 "
                   "`git config --global --add safe.directory <그 폴더>`를 실행한 뒤 다시 읽기를 누르세요.",
    "git-missing": "git이 설치되어 있지 않거나 시작할 수 없어 {folder}을(를) 읽을 수 없습니다. git을 설치한 뒤 "
                   "다시 읽기를 누르세요.",
    "loading": "체크리스트를 읽는 중…",
    "version": "버전",
    "version-apply": "이 버전 사용",
    "version-from": "{file}에서",
    "version-suggested": "제안: 프로젝트 파일에 버전이 없습니다",
    "version-given": "직접 지정함",
    "version-bad": "\"{value}\"은(는) 1.4.0 같은 버전 번호가 아닙니다.",
    "source-file": "체크리스트: {file}",
    "source-default": "기본 체크리스트 (이 저장소에는 RELEASE_CHECKLIST.md가 없습니다)",
    "write-default": "RELEASE_CHECKLIST.md 만들기",
    "reveal": "파일 보기",
    "written": "{file}을(를) 만들었습니다. 릴리스에 맞게 고친 뒤 커밋하세요.",
    "write-exists": "{file}이(가) 이미 있어 덮어쓰지 않았습니다.",
    "write-failed": "{file}을(를) 쓸 수 없습니다. {problem}",
    "run-all": "모든 검사 실행",
    "stop": "중지",
    "reset": "초기화",
    "reset-confirm": "릴리스 {version}의 결과를 모두 지울까요?",
    "yes-reset": "예, 초기화",
    "cancel": "취소",
    "enter-toggle": "명령을 입력한 뒤 Enter 누르기",
    "steps": "단계",
    "empty": "체크리스트에 단계가 없습니다.",
    "state-pending": "대기",
    "state-running": "실행 중… {seconds}초",
    "state-passed": "통과",
    "state-failed": "실패",
    "state-skipped": "건너뜀: {reason}",
    "state-skipped-no-reason": "건너뜀",
    "state-sent": "보냄: 끝나면 체크하세요",
    "state-done": "완료",
    "state-interrupted": "중단됨: 실행 중에 플러그인이 멈췄습니다",
    "state-stopped": "중지됨",
    "checks-stopped": "중지했습니다. 그 전까지: 통과 {passed}, 실패 {failed}, 확인 불가 {unknown}.",
    "no-checks": "이 체크리스트에는 플러그인이 실행할 검사가 없습니다.",
    "checks-done": "모든 검사를 이미 통과했습니다.",
    "checks-done-skipped": "모든 검사를 통과했거나 건너뛰었습니다(건너뜀 {skipped}개).",
    "steps-left": "남은 단계 {count}개, 다음: {title}.",
    "steps-left-none": "남은 단계가 없습니다. 릴리스가 완료되었습니다.",
    "confirm-title-local": "릴리스 단계 확인",
    "confirm-run-local": (
        "\"{title}\"을(를) 지금 실행할까요? 이 클론만 바뀌며, 푸시하기 전에는 아무것도 이 컴퓨터를 떠나지 않습니다."
    ),
    "confirm-type-local": (
        "\"{title}\"을(를) 터미널에 입력할까요? 이 클론만 바뀌며, 푸시하기 전에는 아무것도 이 컴퓨터를 떠나지 않습니다."
    ),
    "confirm-hand-local": (
        "\"{title}\"을(를) 에이전트에게 넘길까요? 이 클론만 바뀌며, 푸시하기 전에는 아무것도 이 컴퓨터를 떠나지 않습니"
        "다."
    ),
    "push-branch": "{branch}의 커밋 {commits}개를 {remote}({url})(으)로 보냅니다.",
    "push-branch-new": "{branch}({remote}에는 아직 없음)을(를) {remote}({url})(으)로 보냅니다.",
    "push-tag-missing": (
        "태그 {tag}이(가) 아직 만들어지지 않았습니다. 먼저 만드세요. 그렇지 않으면 이 푸시는 실패합니다."
    ),
    "kind-check": "검사",
    "kind-terminal": "터미널",
    "kind-agent": "에이전트",
    "kind-manual": "수동",
    "irreversible": "되돌릴 수 없음",
    "outcome-failed": "종료 코드 {code}",
    "outcome-timeout": "{seconds}초 후 시간 초과",
    "outcome-stopped": "중지됨",
    "outcome-not-found": "명령을 찾을 수 없음: {program}",
    "outcome-error": "시작할 수 없음: {message}",
    "took": "{seconds}초",
    "action-run": "실행",
    "action-retry": "다시 시도",
    "action-type": "터미널에 입력",
    "action-hand": "에이전트에게 넘기기",
    "action-done": "완료로 표시",
    "action-skip": "건너뛰기",
    "action-undo": "대기로 되돌리기",
    "action-fix": "에이전트에게 수정 요청",
    "action-output": "출력 보기",
    "running-step": "실행 중: {title}",
    "output-of": "\"{title}\"의 출력",
    "output-empty": "(출력 없음)",
    "output-more": "… 이전 {count}줄 생략",
    "confirm-title": "되돌릴 수 없는 단계 확인",
    "confirm-run": "\"{title}\"을(를) 지금 실행할까요? 되돌릴 수 없습니다.",
    "confirm-type": "\"{title}\"을(를) 터미널에 입력할까요? 실행하면 되돌릴 수 없습니다.",
    "confirm-hand": "\"{title}\"을(를) 에이전트에게 넘길까요? 되돌릴 수 없습니다.",
    "confirm-yes": "예, 실행",
    "skip-title": "\"{title}\" 건너뛰기",
    "skip-reason": "건너뛰는 이유 (릴리스 기록에 남습니다)",
    "skip-confirm": "건너뛰기",
    "skip-needs-reason": "먼저 이유를 적어 주세요.",
    "history": "지난 릴리스",
    "history-empty": "이 저장소의 릴리스 기록이 아직 없습니다.",
    "history-line": "{complete}/{total}단계 · {when}",
    "history-complete": "완료 · {when}",
    "busy": "단계가 실행 중입니다. 먼저 중지하세요.",
    "all-passed": "모든 검사를 통과했습니다.",
    "checks-failed": "검사 {count}개가 실패했습니다.",
    "push-no-remote": (
        "{remote}이라는 원격 저장소가 없습니다. 추가하거나(git remote add {remote} "
        "URL) {file}의 Remote 줄을 지정하세요."
    ),
    "rerun-after-fix": "{pane}이(가) 다시 유휴 상태입니다. \"{title}\"을(를) 다시 실행합니다.",
    "version-unreadable": "{file}(Version file 설정)에서 버전을 읽을 수 없습니다",
    "confirm-publishes": "{tag}을(를) 푸시하면 {workflows}이(가) 실행되어 릴리스를 게시합니다.",
    "confirm-dirty": "작업 트리에 커밋되지 않은 변경이 {count}개 있습니다({first}…). 릴리스에 포함되지 않습니다.",
    "version-from-changelog": "{file}에서(맨 위 항목이 {tag}보다 새로움)",
    "version-next": "제안: {tag} 다음 버전",
    "version-tags": "{tool}이(가) 태그에서 버전을 가져옵니다",
    "version-ignored": "{file}은(는) {version}(이전 릴리스 {last}보다 오래되어 사용 안 함)",
    "version-kept": "직접 선택함",
    "source-settings": "체크리스트: 자동 생성({file}의 설정 사용)",
    "source-adopted": "체크리스트: {file}(이 저장소의 릴리스 문서를 단계로 읽음)",
    "adopt": "RELEASE_CHECKLIST.md로 채택",
    "outcome-not-installed-tests": "{program}이(가) 설치되어 있지 않습니다. 설치하거나 {file}의 Tests 줄을 지정하세요",
    "state-unknown": "확인할 수 없음",
    "checks-unknown": "검사: 통과 {passed}, 실패 {failed}, 확인 불가 {unknown}(이유는 각 단계에 표시).",
    "outcome-not-installed": (
        "{program}이(가) 설치되어 있지 않습니다. 설치하거나 {file}에서 이 단계의 "
        "명령을 지정하세요"
    ),
    "push-preview": (
        "{branch}의 커밋 {commits}개와 태그 {tag}를 {remote}({url})에 한 번의 원자적 "
        "푸시로 보냅니다. 둘 다 도착하거나 둘 다 도착하지 않습니다."
    ),
    "push-preview-new": (
        "{branch}({remote}에 아직 없음)와 태그 {tag}를 {remote}({url})에 한 번의 "
        "원자적 푸시로 보냅니다."
    ),
    "push-tag-only": (
        "태그 {tag}만 {remote}({url})에 보냅니다. 브랜치는 푸시되지 않으므로 태그의 "
        "커밋이 {remote} 브랜치에 없을 수 있습니다."
    ),
    "push-not-atomic": "--atomic이 없으면 브랜치 없이 태그만 도착할 수 있습니다.",
    "agent-busy": (
        "{pane}이(가) 이 저장소에서 {status} 상태라 \"{title}\"을(를) 시작하지 않았습니다. 에이전트가 끝내지 않은 작업"
        "이 공개됩니다. 에이전트가 유휴 상태가 되면 다시 누르세요."
    ),
    "pane-working": "작업 중",
    "pane-thinking": "생각 중",
    "pane-permission": "권한 대기 중",
    "pane-question": "답변 대기 중",
    "sent-terminal": "터미널에 입력했습니다. 거기서 실행한 뒤 단계를 체크하세요.",
    "sent-agent": "에이전트에게 넘겼습니다.",
    "asked-agent": "쉬고 있는 에이전트 창이 없습니다. 보낼 곳을 고르세요.",
    "no-terminal": "이 저장소의 쉬고 있는 터미널이 없어 새로 열었습니다.",
    "send-failed": "보낼 수 없습니다: {error}",
    "problems-title": "{file}에 문제가 있습니다",
    "problem-line": "{line}행 {column}열: {message}",
    "read-failed": "체크리스트를 읽을 수 없습니다. {error}",
    "not-saved": "진행 상황이 저장되지 않고 있습니다. {problem}",
    "not-saved-stopped": "중지됨: 진행 상황을 저장할 수 없었습니다. {problem}",
    "run-where": "검사 실행",
    "state-damaged": "{file}을(를) 읽을 수 없어 {kept}(으)로 보관했습니다. 그 파일에만 저장된 결과는 빠져 있습니다.",
    "state-damaged-left": "{file}을(를) 읽을 수 없습니다(그대로 두었습니다). 그 파일에만 저장된 결과는 빠져 있습니다.",
    "chosen-damaged": (
        "선택한 버전 기록({file})을 읽을 수 없어 {kept}(으)로 보관했습니다. 표시된 버전이 맞지 않으면 다시 입력하세요."
    ),
    "chosen-damaged-left": "선택한 버전 기록({file})을 읽을 수 없습니다. 표시된 버전이 맞지 않으면 다시 입력하세요.",
    "chosen-not-saved": "이 버전은 플러그인이 멈출 때까지 사용되지만 저장할 수 없었습니다. {problem}",
    "source-blank": "{file}이(가) 비어 있습니다(쓰기가 실패했을 수 있습니다). 자동 생성된 체크리스트를 보여 줍니다.",
    "write-again": "다시 쓰기",
    "p-bad-task-marker": "단계처럼 보이지만 \"- [ ] 제목\" 형식이 아닙니다.",
    "p-unclosed-code": "코드를 닫는 백틱이 없습니다.",
    "p-unknown-tag": "알 수 없는 태그 #{tag}입니다.",
    "p-unknown-tag-hint": "알 수 없는 태그 #{tag}입니다. #{suggestion}을(를) 뜻했나요?",
    "p-two-kinds": "단계의 종류는 하나인데 #{first}와(과) #{second}가 함께 있습니다.",
    "p-needs-command": "#{kind} 단계에는 명령이 필요합니다: \"제목: `명령`\"으로 쓰세요.",
    "p-bad-timeout": "#timeout={value}은(는) 초 단위 숫자(또는 10m, 1h)가 아닙니다.",
    "p-unknown-placeholder": "알 수 없는 자리표시자 {{{name}}}입니다.",
    "p-shell-operator": "\"{operator}\"에는 셸이 필요합니다. 두 단계로 나누거나 #terminal로 표시하세요.",
    "p-bad-quotes": "이 명령의 따옴표가 짝이 맞지 않습니다.",
    "p-bad-tag-format": ("태그 형식에는 {{version}}(또는 {{major}}, {{minor}}, {{patch}})이 있어야 합니다 "
                         "(예: `v{{version}}`, `curl-{{major}}_{{minor}}_{{patch}}`)."),
    "p-empty-title": "이 단계에는 제목이 없습니다.",
    "p-empty-setting": "이 설정에는 값이 없습니다.",
    "p-unclosed-fence": "코드 블록(```)이 열렸지만 닫히지 않았습니다.",
    "p-no-steps": (
        "단계가 없습니다. 각 단계를 목록 항목으로 쓰세요. 예: "
        "\"- [ ] Tests pass: `make test`\", \"* Update the changelog\", \"1. Push the tag\""
    ),
    "prompt-fix": (
        "{repo}의 릴리스 검사 \"{title}\"이(가) 실패했습니다 (릴리스 {version}).\n"
        "명령: {command}\n결과: {result}\n출력의 마지막 부분:\n```\n{output}\n```\n"
        "원인을 찾아 저장소를 고치고 무엇을 바꿨는지 알려 주세요. "
        "태그 생성, push, 배포는 하지 마세요."
    ),
    "prompt-continue": (
        "{repo}의 버전 {version} 릴리스 체크리스트를 이어서 진행해 주세요.\n"
        "단계: {title}\n{instructions}\n\n지금까지의 단계:\n{summary}\n"
        "이 단계만 하세요. 단계에 적혀 있지 않다면 태그 생성, push, 배포는 하지 마세요."
    ),
}

ZH: Dict[str, str] = {
    "steps-hidden": "… 还有 {count} 个步骤未显示。",
    "title": "发布 {version}",
    "title-no-version": "发布",
    "refresh": "重新读取",
    "no-pane": "聚焦到 git 仓库中的终端或智能体窗格，即可看到它的发布检查清单。",
    "not-repo": "{folder} 不在 git 仓库中。",
    "git-refused": "Git 拒绝读取 {folder}：该仓库属于另一个用户。如果你信任它，请运行 "
                   "`git config --global --add safe.directory <该文件夹>`，然后点击“重新读取”。",
    "git-missing": "未安装 git（或无法启动），因此无法读取 {folder}。请安装 git 后点击“重新读取”。",
    "loading": "正在读取检查清单…",
    "version": "版本",
    "version-apply": "使用此版本",
    "version-from": "来自 {file}",
    "version-suggested": "建议值：项目文件中没有版本号",
    "version-given": "由你指定",
    "version-bad": "“{value}”不是 1.4.0 这样的版本号。",
    "source-file": "检查清单：{file}",
    "source-default": "默认检查清单（此仓库没有 RELEASE_CHECKLIST.md）",
    "write-default": "写入 RELEASE_CHECKLIST.md",
    "reveal": "显示文件",
    "written": "已写入 {file}。请按你的发布流程修改并提交。",
    "write-exists": "{file} 已存在，未覆盖任何内容。",
    "write-failed": "无法写入 {file}。{problem}",
    "run-all": "运行全部检查",
    "stop": "停止",
    "reset": "重置",
    "reset-confirm": "清除发布 {version} 的全部结果？",
    "yes-reset": "是，重置",
    "cancel": "取消",
    "enter-toggle": "输入命令后按 Enter",
    "steps": "步骤",
    "empty": "检查清单中没有步骤。",
    "state-pending": "待处理",
    "state-running": "运行中… {seconds} 秒",
    "state-passed": "通过",
    "state-failed": "失败",
    "state-skipped": "已跳过：{reason}",
    "state-skipped-no-reason": "已跳过",
    "state-sent": "已发送：完成后请勾选",
    "state-done": "完成",
    "state-interrupted": "已中断：运行时插件停止了",
    "state-stopped": "已停止",
    "checks-stopped": "已停止。在此之前：{passed} 项通过，{failed} 项失败，{unknown} 项无法检查。",
    "no-checks": "此检查清单中没有由插件运行的检查。",
    "checks-done": "所有检查都已通过。",
    "checks-done-skipped": "所有检查都已通过或被跳过（跳过 {skipped} 项）。",
    "steps-left": "还剩 {count} 个步骤，下一步：{title}。",
    "steps-left-none": "没有剩余步骤：此次发布已完成。",
    "confirm-title-local": "确认发布步骤",
    "confirm-run-local": "现在运行“{title}”？它只改变这个克隆：在你推送之前，什么都不会离开这台机器。",
    "confirm-type-local": "将“{title}”输入到终端？它只改变这个克隆：在你推送之前，什么都不会离开这台机器。",
    "confirm-hand-local": "将“{title}”交给智能体？它只改变这个克隆：在你推送之前，什么都不会离开这台机器。",
    "push-branch": "将 {branch} 上的 {commits} 个提交发送到 {remote}（{url}）。",
    "push-branch-new": "将 {branch}（{remote} 上尚无）发送到 {remote}（{url}）。",
    "push-tag-missing": "标签 {tag} 尚未创建：请先创建，否则此次推送会失败。",
    "kind-check": "检查",
    "kind-terminal": "终端",
    "kind-agent": "智能体",
    "kind-manual": "手动",
    "irreversible": "不可撤销",
    "outcome-failed": "退出码 {code}",
    "outcome-timeout": "{seconds} 秒后超时",
    "outcome-stopped": "已停止",
    "outcome-not-found": "找不到命令：{program}",
    "outcome-error": "无法启动：{message}",
    "took": "{seconds} 秒",
    "action-run": "运行",
    "action-retry": "重试",
    "action-type": "输入到终端",
    "action-hand": "交给智能体",
    "action-done": "标记完成",
    "action-skip": "跳过",
    "action-undo": "恢复为待处理",
    "action-fix": "请智能体修复",
    "action-output": "查看输出",
    "running-step": "正在运行：{title}",
    "output-of": "“{title}”的输出",
    "output-empty": "（无输出）",
    "output-more": "… 省略了之前的 {count} 行",
    "confirm-title": "确认不可撤销的步骤",
    "confirm-run": "现在运行“{title}”？此操作无法撤销。",
    "confirm-type": "将“{title}”输入到终端？运行后无法撤销。",
    "confirm-hand": "将“{title}”交给智能体？此操作无法撤销。",
    "confirm-yes": "是，执行",
    "skip-title": "跳过“{title}”",
    "skip-reason": "跳过的原因（会记录在发布记录中）",
    "skip-confirm": "跳过步骤",
    "skip-needs-reason": "请先填写原因。",
    "history": "以往发布",
    "history-empty": "此仓库还没有发布记录。",
    "history-line": "{complete}/{total} 步 · {when}",
    "history-complete": "已完成 · {when}",
    "busy": "有步骤正在运行，请先停止。",
    "all-passed": "所有检查均已通过。",
    "checks-failed": "{count} 项检查失败。",
    "push-no-remote": (
        "没有名为 {remote} 的远程仓库：请添加一个（git remote add {remote} URL）"
        "，或在 {file} 中设置 Remote 行。"
    ),
    "rerun-after-fix": "{pane} 已再次空闲：重新运行“{title}”。",
    "version-unreadable": "无法从 {file}（Version file 设置）读取版本",
    "confirm-publishes": "推送 {tag} 会启动 {workflows}，由它发布此版本。",
    "confirm-dirty": "工作树有 {count} 处未提交的更改（{first}…）；它们不属于此次发布。",
    "version-from-changelog": "来自 {file}：其首条目比 {tag} 更新",
    "version-next": "建议：{tag} 的下一个版本",
    "version-tags": "{tool} 从标签获取版本",
    "version-ignored": "{file} 写的是 {version}，比上次发布的 {last} 旧：未使用",
    "version-kept": "由你选择",
    "source-settings": "清单：自动生成（使用 {file} 的设置）",
    "source-adopted": "清单：{file}（本仓库自己的发布文档，按步骤读取）",
    "adopt": "采用为 RELEASE_CHECKLIST.md",
    "outcome-not-installed-tests": "未安装 {program}：请安装它，或在 {file} 中设置 Tests 行",
    "state-unknown": "无法检查",
    "checks-unknown": "检查：{passed} 项通过，{failed} 项失败，{unknown} 项无法检查（原因见各步骤）。",
    "outcome-not-installed": "未安装 {program}：请安装它，或在 {file} 中设置此步骤的命令",
    "push-preview": (
        "以一次原子推送将 {branch} 上的 {commits} 个提交和标签 {tag} 发送到 {remote}（{url}）"
        "：要么都到达，要么都不到达。"
    ),
    "push-preview-new": "以一次原子推送将 {branch}（{remote} 上尚无）和标签 {tag} 发送到 {remote}（{url}）。",
    "push-tag-only": (
        "只将标签 {tag} 发送到 {remote}（{url}）；不推送分支，因此 {remote} 的分支上可能没有该标签的"
        "提交。"
    ),
    "push-not-atomic": "没有 --atomic 时，标签可能在没有分支的情况下到达。",
    "agent-busy": (
        "{pane} 正在此仓库中{status}，所以“{title}”没有开始：它会把智能体尚未完成的工作发布出去。请等智能体空闲后再按一"
        "次。"
    ),
    "pane-working": "工作",
    "pane-thinking": "思考",
    "pane-permission": "等待授权",
    "pane-question": "等待回答",
    "sent-terminal": "已输入到终端。请在那里运行，然后勾选该步骤。",
    "sent-agent": "已交给智能体。",
    "asked-agent": "没有空闲的智能体窗格，请选择发送位置。",
    "no-terminal": "此仓库没有空闲的终端，已打开一个新终端。",
    "send-failed": "无法发送：{error}",
    "problems-title": "{file} 有问题",
    "problem-line": "第 {line} 行第 {column} 列：{message}",
    "read-failed": "无法读取检查清单。{error}",
    "not-saved": "进度未能保存。{problem}",
    "not-saved-stopped": "已停止：无法保存进度。{problem}",
    "run-where": "运行检查",
    "state-damaged": "无法读取 {file}，已保存为 {kept}：只保存在其中的结果已缺失。",
    "state-damaged-left": "无法读取 {file}（保留原处）：只保存在其中的结果已缺失。",
    "chosen-damaged": "无法读取你选定的版本记录（{file}），已保存为 {kept}。如果显示的版本不对，请重新输入。",
    "chosen-damaged-left": "无法读取你选定的版本记录（{file}）。如果显示的版本不对，请重新输入。",
    "chosen-not-saved": "该版本会一直使用到插件停止，但无法保存。{problem}",
    "source-blank": "{file} 是空的（可能是一次失败的写入）：显示的是自动生成的检查清单。",
    "write-again": "重新写入",
    "p-bad-task-marker": "这看起来像一个步骤，但没有写成“- [ ] 标题”。",
    "p-unclosed-code": "此代码缺少结束的反引号。",
    "p-unknown-tag": "未知标签 #{tag}。",
    "p-unknown-tag-hint": "未知标签 #{tag}。你是想写 #{suggestion} 吗？",
    "p-two-kinds": "一个步骤只能有一种类型，但这里同时写了 #{first} 和 #{second}。",
    "p-needs-command": "#{kind} 步骤需要命令：请写成“标题: `命令`”。",
    "p-bad-timeout": "#timeout={value} 不是秒数（或 10m、1h）。",
    "p-unknown-placeholder": "未知占位符 {{{name}}}。",
    "p-shell-operator": "“{operator}”需要 shell；请拆成两个步骤，或标记为 #terminal。",
    "p-bad-quotes": "此命令中的引号不成对。",
    "p-bad-tag-format": ("标签格式必须包含 {{version}}（或 {{major}}、{{minor}}、{{patch}}），例如 `v{{version}}` 或 "
                         "`curl-{{major}}_{{minor}}_{{patch}}`。"),
    "p-empty-title": "此步骤没有标题。",
    "p-empty-setting": "此设置没有值。",
    "p-unclosed-fence": "代码块（```）没有闭合。",
    "p-no-steps": (
        "文件中没有步骤。请把每个步骤写成列表项，例如"
        "“- [ ] Tests pass: `make test`”、“* Update the changelog”或“1. Push the tag”。"
    ),
    "prompt-fix": (
        "{repo} 的发布检查“{title}”失败了（发布 {version}）。\n"
        "命令：{command}\n结果：{result}\n输出的最后几行：\n```\n{output}\n```\n"
        "请找到原因并在仓库中修复，然后告诉我你改了什么。不要创建标签、推送或发布任何内容。"
    ),
    "prompt-continue": (
        "请继续 {repo} 版本 {version} 的发布检查清单。\n"
        "步骤：{title}\n{instructions}\n\n目前的步骤：\n{summary}\n"
        "只做这一步；除非步骤要求，否则不要创建标签、推送或发布。"
    ),
}

TRANSLATOR = Translator({"en": EN, "ja": JA, "ko": KO, "zh": ZH})
