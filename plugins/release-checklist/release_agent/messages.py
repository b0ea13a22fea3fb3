"""Everything the agent says, in English, Japanese, Korean and Chinese (it answers in the prompt's language)."""
from __future__ import annotations

from typing import Dict

LANGUAGES = ("en", "ja", "ko", "zh")

_EN: Dict[str, str] = {
    "help": (
        "I run this repository's release checklist (RELEASE_CHECKLIST.md, or a default derived from the "
        "project) and stream every step here. Ask me:\n"
        "- `check` (or `check 1.4.0`): run the read-only checks\n"
        "- `release 1.4.0`: run every step; I ask before anything irreversible (tag, push)\n"
        "- `status`: where the release stands\n"
        "- `what's left?`: the steps still to do\n"
        "- `help`: this text\n"
        "Mode is **{mode}**; change it with the Mode option (Check only never tags or pushes)."
    ),
    "unknown": "I did not understand “{text}”.\n\n",
    "unsupported": "I read text only, so I ignored {what}.\n\n",
    "what_image": "an image",
    "what_audio": "an audio clip",
    "what_resource": "an attached file",
    "not_repo": (
        "{cwd} is not inside a git repository, so there is no release checklist here. "
        "Open the repository's folder and start a new session."
    ),
    "bad_checklist": "{path} has {count} problem(s); fix them and ask again:",
    "unreadable": "I could not read the checklist: {error}",
    "suggested_version": (
        "The project files name no version, so I used {version} (the next one after the last tag). "
        "Say `check 1.5.0` to choose another.\n"
    ),
    "opening_check": "Checking {version} ({tag}) with {source}: {count} check(s).\n\n",
    "opening_release": "Releasing {version} ({tag}) with {source}: {count} step(s) to go.\n\n",
    "source_default": "the default checklist (there is no RELEASE_CHECKLIST.md yet)",
    "checks_summary": "{version} ({tag}): {passed} of {total} checks passed.",
    "failed_list": "Failed: {items}.",
    "next_switch_mode": (
        "All checks pass. Switch the Mode option to Release and say `release {version}` to tag and push."
    ),
    "next_release": "All checks pass. Say `release {version}` to run the remaining steps.",
    "check_mode_skipped": (
        "Check only mode: I did not run {count} step(s) that change things ({titles}). "
        "Switch the Mode option to Release to run them."
    ),
    "release_done": "Release {version} ({tag}) is complete: all {total} steps are done.",
    "blocked": "I did not run “{step}” because earlier steps are not complete.",
    "declined": "You rejected “{step}”, so I stopped there; nothing after it ran.",
    "mode_changed": "The Mode option changed to Check only, so I stopped before “{step}”.",
    "not_yet": "Stopped at “{step}”: it is not done yet. Ask me again when it is.",
    "status": "{version} ({tag}): {complete} of {total} steps complete.",
    "status_nothing": "Nothing has run for {version} yet.",
    "left_none": "Nothing is left: {version} ({tag}) is complete.",
    "left": "Left for {version} ({count}):",
    "internal_error": "Something went wrong inside the agent ({error}); the details are in its log.",
    "state_passed": "passed",
    "state_failed": "failed",
    "state_stopped": "stopped",
    "state_skipped": "skipped",
    "state_done": "done",
    "state_sent": "sent, waiting for a tick",
    "state_running": "running",
    "state_interrupted": "interrupted",
    "state_unknown": "couldn't check",
    "unknown_list": "Couldn't check: {items}.",
    "state_pending": "to do",
    "plan_failed": "failed",
    "plan_not_in_mode": "not run in Check only mode",
    "plan_done_before": "done earlier",
    "out_stopped": "Stopped.",
    "out_rejected": "You rejected this step; it did not run.",
    # Other languages name the outcome; English shows the engine's own sentence ("timed out after 1 s").
    "why_exit": "exit code {code}",
    "why_timeout": "timed out",
    "why_stopped": "stopped",
    "out_no_output": "(no output)",
    "out_earlier_lines": "… {count} earlier line(s)",
    "opt_allow_once": "Allow once",
    "opt_allow_always": "Allow for this session",
    "opt_reject": "Reject",
    "opt_done": "Done",
    "opt_not_yet": "Not yet",
    "perm_irreversible": "{title} (cannot be undone)",
    "perm_manual": "{title}: is it done?",
    "manual_hint": "This step is for you: {hint}",
    "manual_no_hint": "This step is for you; tell me when it is done.",
    "agent_hint": "Ask your coding agent: {prompt}",
    "terminal_hint": "Run this in your terminal (it needs a shell): {command}",
}

_JA: Dict[str, str] = {
    "help": (
        "このリポジトリのリリースチェックリスト（RELEASE_CHECKLIST.md、なければプロジェクトから作る既定の"
        "リスト）を実行し、各ステップをここに表示します。話しかけ方:\n"
        "- `チェック`（`check 1.4.0`）: 読み取りだけのチェックを実行\n"
        "- `リリース 1.4.0`: 全ステップを実行。取り消せない操作（タグ、プッシュ）の前に確認します\n"
        "- `状態`: リリースの進み具合\n"
        "- `残りは？`: まだ終わっていないステップ\n"
        "- `ヘルプ`: この説明\n"
        "モードは **{mode}** です。Mode オプションで変えられます（チェックのみではタグもプッシュもしません）。"
    ),
    "unknown": "「{text}」は分かりませんでした。\n\n",
    "unsupported": "テキストしか読めないため、{what}は無視しました。\n\n",
    "what_image": "画像",
    "what_audio": "音声",
    "what_resource": "添付ファイル",
    "not_repo": (
        "{cwd} は git リポジトリの中ではないため、リリースチェックリストがありません。"
        "リポジトリのフォルダーを開いて新しいセッションを始めてください。"
    ),
    "bad_checklist": "{path} に {count} 件の問題があります。直してからもう一度どうぞ:",
    "unreadable": "チェックリストを読めませんでした: {error}",
    "suggested_version": (
        "プロジェクトのファイルにバージョンがないため、{version}（最後のタグの次）を使いました。"
        "別のバージョンは `check 1.5.0` のように指定してください。\n"
    ),
    "opening_check": "{source} で {version}（{tag}）をチェックします（{count} 件）。\n\n",
    "opening_release": "{source} で {version}（{tag}）をリリースします（残り {count} ステップ）。\n\n",
    "source_default": "既定のチェックリスト（RELEASE_CHECKLIST.md はまだありません）",
    "checks_summary": "{version}（{tag}）: チェック {total} 件中 {passed} 件が成功しました。",
    "failed_list": "失敗: {items}。",
    "next_switch_mode": (
        "すべてのチェックが通りました。Mode オプションをリリースに切り替えて `release {version}` と送ると"
        "タグを作成しプッシュします。"
    ),
    "next_release": "すべてのチェックが通りました。`release {version}` と送ると残りのステップを実行します。",
    "check_mode_skipped": (
        "チェックのみモードのため、変更を伴う {count} 件のステップ（{titles}）は実行していません。"
        "実行するには Mode オプションをリリースに切り替えてください。"
    ),
    "release_done": "リリース {version}（{tag}）が完了しました。{total} 件すべてのステップが終わっています。",
    "blocked": "前のステップが終わっていないため「{step}」は実行しませんでした。",
    "declined": "「{step}」が拒否されたため、そこで止めました。その後のステップは実行していません。",
    "mode_changed": "Mode オプションがチェックのみに変わったため、「{step}」の前で止めました。",
    "not_yet": "「{step}」がまだ終わっていないため止めました。終わったらもう一度どうぞ。",
    "status": "{version}（{tag}）: {total} 件中 {complete} 件のステップが完了しています。",
    "status_nothing": "{version} ではまだ何も実行していません。",
    "left_none": "残りはありません。{version}（{tag}）は完了しています。",
    "left": "{version} の残り（{count} 件）:",
    "internal_error": "エージェント内部でエラーが起きました（{error}）。詳細はログにあります。",
    "state_passed": "成功",
    "state_failed": "失敗",
    "state_stopped": "停止",
    "state_skipped": "スキップ",
    "state_done": "完了",
    "state_sent": "送信済み・確認待ち",
    "state_running": "実行中",
    "state_interrupted": "中断",
    "state_unknown": "確認できず",
    "unknown_list": "確認できず: {items}。",
    "state_pending": "未実施",
    "plan_failed": "失敗",
    "plan_not_in_mode": "チェックのみモードでは実行しません",
    "plan_done_before": "実施済み",
    "out_stopped": "停止しました。",
    "out_rejected": "拒否されたため、このステップは実行していません。",
    "why_exit": "終了コード {code}",
    "why_timeout": "時間切れ",
    "why_stopped": "停止",
    "out_no_output": "（出力なし）",
    "out_earlier_lines": "… それ以前の {count} 行",
    "opt_allow_once": "今回だけ許可",
    "opt_allow_always": "このセッションでは常に許可",
    "opt_reject": "拒否",
    "opt_done": "完了した",
    "opt_not_yet": "まだ",
    "perm_irreversible": "{title}（取り消せません）",
    "perm_manual": "{title}: 終わりましたか？",
    "manual_hint": "このステップはご自身で行ってください: {hint}",
    "manual_no_hint": "このステップはご自身で行い、終わったら教えてください。",
    "agent_hint": "コーディングエージェントに頼んでください: {prompt}",
    "terminal_hint": "ターミナルで実行してください（シェルが必要です）: {command}",
}

_KO: Dict[str, str] = {
    "help": (
        "이 저장소의 릴리스 체크리스트(RELEASE_CHECKLIST.md, 없으면 프로젝트에서 만든 기본 목록)를 실행하고 "
        "각 단계를 여기에 보여 줍니다. 이렇게 말해 보세요:\n"
        "- `check`(또는 `check 1.4.0`): 읽기 전용 검사 실행\n"
        "- `release 1.4.0`: 모든 단계 실행, 되돌릴 수 없는 작업(태그, 푸시) 전에는 확인을 받습니다\n"
        "- `status`: 릴리스 진행 상황\n"
        "- `what's left?`: 남은 단계\n"
        "- `help`: 이 설명\n"
        "모드는 **{mode}** 입니다. Mode 옵션으로 바꿀 수 있습니다(검사만 모드는 태그나 푸시를 하지 않습니다)."
    ),
    "unknown": "“{text}”을(를) 이해하지 못했습니다.\n\n",
    "unsupported": "텍스트만 읽을 수 있어서 {what}은(는) 무시했습니다.\n\n",
    "what_image": "이미지",
    "what_audio": "오디오",
    "what_resource": "첨부 파일",
    "not_repo": (
        "{cwd} 은(는) git 저장소 안이 아니어서 릴리스 체크리스트가 없습니다. 저장소 폴더를 열고 새 세션을 시작하세요."
    ),
    "bad_checklist": "{path} 에 문제가 {count}개 있습니다. 고친 뒤 다시 요청하세요:",
    "unreadable": "체크리스트를 읽지 못했습니다: {error}",
    "suggested_version": (
        "프로젝트 파일에 버전이 없어 {version}(마지막 태그 다음 버전)을 사용했습니다. "
        "다른 버전은 `check 1.5.0`처럼 지정하세요.\n"
    ),
    "opening_check": "{source}(으)로 {version} ({tag})을(를) 검사합니다: {count}개.\n\n",
    "opening_release": "{source}(으)로 {version} ({tag}) 릴리스를 진행합니다: 남은 단계 {count}개.\n\n",
    "source_default": "기본 체크리스트(아직 RELEASE_CHECKLIST.md 없음)",
    "checks_summary": "{version} ({tag}): 검사 {total}개 중 {passed}개 통과.",
    "failed_list": "실패: {items}.",
    "next_switch_mode": (
        "모든 검사를 통과했습니다. Mode 옵션을 릴리스로 바꾸고 `release {version}`이라고 하면 "
        "태그를 만들고 푸시합니다."
    ),
    "next_release": "모든 검사를 통과했습니다. `release {version}`이라고 하면 남은 단계를 실행합니다.",
    "check_mode_skipped": (
        "검사만 모드라서 변경을 일으키는 단계 {count}개({titles})는 실행하지 않았습니다. "
        "실행하려면 Mode 옵션을 릴리스로 바꾸세요."
    ),
    "release_done": "릴리스 {version} ({tag}) 완료: {total}개 단계가 모두 끝났습니다.",
    "blocked": "앞 단계가 끝나지 않아 “{step}”은(는) 실행하지 않았습니다.",
    "declined": "“{step}”이(가) 거부되어 거기서 멈췄습니다. 그 뒤 단계는 실행하지 않았습니다.",
    "mode_changed": "Mode 옵션이 검사만으로 바뀌어 “{step}” 전에 멈췄습니다.",
    "not_yet": "“{step}”이(가) 아직 끝나지 않아 멈췄습니다. 끝나면 다시 요청하세요.",
    "status": "{version} ({tag}): {total}개 단계 중 {complete}개 완료.",
    "status_nothing": "{version}에서는 아직 아무것도 실행하지 않았습니다.",
    "left_none": "남은 단계가 없습니다. {version} ({tag}) 완료.",
    "left": "{version}에 남은 단계 ({count}개):",
    "internal_error": "에이전트 내부 오류가 발생했습니다({error}). 자세한 내용은 로그에 있습니다.",
    "state_passed": "통과",
    "state_failed": "실패",
    "state_stopped": "중지됨",
    "state_skipped": "건너뜀",
    "state_done": "완료",
    "state_sent": "보냄, 확인 대기",
    "state_running": "실행 중",
    "state_interrupted": "중단됨",
    "state_unknown": "확인 불가",
    "unknown_list": "확인 불가: {items}.",
    "state_pending": "할 일",
    "plan_failed": "실패",
    "plan_not_in_mode": "검사만 모드에서는 실행 안 함",
    "plan_done_before": "이미 완료",
    "out_stopped": "중지했습니다.",
    "out_rejected": "거부되어 이 단계는 실행하지 않았습니다.",
    "why_exit": "종료 코드 {code}",
    "why_timeout": "시간 초과",
    "why_stopped": "중지됨",
    "out_no_output": "(출력 없음)",
    "out_earlier_lines": "… 이전 {count}줄",
    "opt_allow_once": "이번만 허용",
    "opt_allow_always": "이 세션에서 항상 허용",
    "opt_reject": "거부",
    "opt_done": "완료함",
    "opt_not_yet": "아직",
    "perm_irreversible": "{title} (되돌릴 수 없음)",
    "perm_manual": "{title}: 끝났나요?",
    "manual_hint": "이 단계는 직접 하세요: {hint}",
    "manual_no_hint": "이 단계는 직접 하고 끝나면 알려 주세요.",
    "agent_hint": "코딩 에이전트에게 요청하세요: {prompt}",
    "terminal_hint": "터미널에서 실행하세요(셸이 필요합니다): {command}",
}

_ZH: Dict[str, str] = {
    "help": (
        "我运行此仓库的发布检查清单（RELEASE_CHECKLIST.md，没有时使用根据项目生成的默认清单），并在这里显示每一步。"
        "可以这样说：\n"
        "- `check`（或 `check 1.4.0`）：运行只读检查\n"
        "- `release 1.4.0`：运行所有步骤，不可撤销的操作（打标签、推送）之前会先询问\n"
        "- `status`：发布进度\n"
        "- `what's left?`：尚未完成的步骤\n"
        "- `help`：本说明\n"
        "当前模式为 **{mode}**，可通过 Mode 选项更改（仅检查模式从不打标签或推送）。"
    ),
    "unknown": "没有理解“{text}”。\n\n",
    "unsupported": "我只能读取文本，因此忽略了{what}。\n\n",
    "what_image": "图片",
    "what_audio": "音频",
    "what_resource": "附件",
    "not_repo": "{cwd} 不在 git 仓库中，因此没有发布检查清单。请打开仓库文件夹并新建会话。",
    "bad_checklist": "{path} 有 {count} 个问题，请修正后再试：",
    "unreadable": "无法读取检查清单：{error}",
    "suggested_version": (
        "项目文件中没有版本号，因此使用了 {version}（最后一个标签的下一个版本）。可用 `check 1.5.0` 指定其他版本。\n"
    ),
    "opening_check": "使用{source}检查 {version}（{tag}）：{count} 项。\n\n",
    "opening_release": "使用{source}发布 {version}（{tag}）：还有 {count} 个步骤。\n\n",
    "source_default": "默认检查清单（尚无 RELEASE_CHECKLIST.md）",
    "checks_summary": "{version}（{tag}）：{total} 项检查中 {passed} 项通过。",
    "failed_list": "失败：{items}。",
    "next_switch_mode": "所有检查均已通过。将 Mode 选项切换为发布并输入 `release {version}` 即可打标签并推送。",
    "next_release": "所有检查均已通过。输入 `release {version}` 运行剩余步骤。",
    "check_mode_skipped": (
        "仅检查模式：没有运行 {count} 个会产生更改的步骤（{titles}）。要运行它们，请将 Mode 选项切换为发布。"
    ),
    "release_done": "发布 {version}（{tag}）已完成：全部 {total} 个步骤都已完成。",
    "blocked": "前面的步骤尚未完成，因此没有运行“{step}”。",
    "declined": "“{step}”被拒绝，已在此停止，之后的步骤都没有运行。",
    "mode_changed": "Mode 选项已改为仅检查，因此在“{step}”之前停止。",
    "not_yet": "“{step}”尚未完成，已停止。完成后请再告诉我。",
    "status": "{version}（{tag}）：{total} 个步骤中已完成 {complete} 个。",
    "status_nothing": "{version} 还没有运行过任何步骤。",
    "left_none": "没有剩余步骤：{version}（{tag}）已完成。",
    "left": "{version} 剩余步骤（{count} 个）：",
    "internal_error": "代理内部出错（{error}），详情见日志。",
    "state_passed": "通过",
    "state_failed": "失败",
    "state_stopped": "已停止",
    "state_skipped": "已跳过",
    "state_done": "已完成",
    "state_sent": "已发送，等待确认",
    "state_running": "运行中",
    "state_interrupted": "已中断",
    "state_unknown": "无法检查",
    "unknown_list": "无法检查：{items}。",
    "state_pending": "待办",
    "plan_failed": "失败",
    "plan_not_in_mode": "仅检查模式下不运行",
    "plan_done_before": "之前已完成",
    "out_stopped": "已停止。",
    "out_rejected": "已拒绝，此步骤没有运行。",
    "why_exit": "退出码 {code}",
    "why_timeout": "超时",
    "why_stopped": "已停止",
    "out_no_output": "（无输出）",
    "out_earlier_lines": "… 之前的 {count} 行",
    "opt_allow_once": "允许一次",
    "opt_allow_always": "本会话中始终允许",
    "opt_reject": "拒绝",
    "opt_done": "已完成",
    "opt_not_yet": "还没有",
    "perm_irreversible": "{title}（无法撤销）",
    "perm_manual": "{title}：完成了吗？",
    "manual_hint": "此步骤需要您亲自完成：{hint}",
    "manual_no_hint": "此步骤需要您亲自完成，完成后请告诉我。",
    "agent_hint": "请让您的编码代理执行：{prompt}",
    "terminal_hint": "请在终端中运行（需要 shell）：{command}",
}

CATALOG: Dict[str, Dict[str, str]] = {"en": _EN, "ja": _JA, "ko": _KO, "zh": _ZH}

# The Mode option's names as the user sees them in the help text (the option itself is English,
# because the session exists before we know the user's language).
MODE_NAMES: Dict[str, Dict[str, str]] = {
    "en": {"check": "Check only", "release": "Release"},
    "ja": {"check": "チェックのみ", "release": "リリース"},
    "ko": {"check": "검사만", "release": "릴리스"},
    "zh": {"check": "仅检查", "release": "发布"},
}


def say(language: str, key: str, **values: object) -> str:
    """The text for key in language (English if missing), with {placeholders} filled."""
    table = CATALOG.get(language, _EN)
    template = table.get(key) or _EN[key]
    return template.format(**values) if values else template


def mode_name(language: str, mode: str) -> str:
    return MODE_NAMES.get(language, MODE_NAMES["en"]).get(mode, mode)
