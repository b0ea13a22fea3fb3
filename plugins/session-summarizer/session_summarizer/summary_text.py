"""Headings and fixed phrases of a written summary, in the session's language (en, ja, ko, zh)."""

from typing import Dict

SECTION_KEYS = ("goal", "done", "files", "commands", "findings", "errors", "questions", "next")

_TEXT: Dict[str, Dict[str, str]] = {
    "en": {
        "title": "Session summary",
        "goal": "Goal",
        "done": "What was done",
        "files": "Files touched",
        "commands": "Commands run",
        "findings": "Decisions and findings",
        "errors": "Errors hit",
        "questions": "Open questions",
        "next": "Next steps",
        "later_asks": "Later requests",
        "none": "None recorded.",
        "more": "… and {count} more",
        "more_uncounted": "… and more (not listed)",
        "file.changed": "changed (git)",
        "file.committed": "committed recently (git)",
        "file.exists": "exists, unchanged",
        "file.mentioned": "only mentioned",
        "file.deleted": "deleted (git)",
        "stats": "{turns} turns · {agent} · summarized locally",
        "stats.omitted": "the oldest {count} turns were not available",
        "reply_pending": "Waiting for a reply to: {text}",
        "handoff": "Continue the work from this earlier {agent} session (folder: {cwd}). Its summary:",
        "incomplete": "Incomplete: the summary was cut short ({reason}).",
    },
    "ja": {
        "title": "セッションの要約",
        "goal": "目的",
        "done": "実施したこと",
        "files": "触れたファイル",
        "commands": "実行したコマンド",
        "findings": "決定事項と判明したこと",
        "errors": "発生したエラー",
        "questions": "未解決の質問",
        "next": "次のステップ",
        "later_asks": "その後の依頼",
        "none": "記録なし。",
        "more": "… ほか {count} 件",
        "more_uncounted": "… ほかにもあり (省略)",
        "file.changed": "変更あり (git)",
        "file.committed": "最近コミット済み (git)",
        "file.exists": "存在、変更なし",
        "file.mentioned": "言及のみ",
        "file.deleted": "削除済み (git)",
        "stats": "{turns} ターン · {agent} · ローカルで要約",
        "stats.omitted": "古い {count} ターンは取得できませんでした",
        "reply_pending": "返答待ち: {text}",
        "handoff": "以前の {agent} セッション (フォルダ: {cwd}) の作業を続けてください。その要約:",
        "incomplete": "不完全: 要約は途中で途切れました ({reason})。",
    },
    "ko": {
        "title": "세션 요약",
        "goal": "목표",
        "done": "한 일",
        "files": "다룬 파일",
        "commands": "실행한 명령",
        "findings": "결정 및 발견",
        "errors": "발생한 오류",
        "questions": "열린 질문",
        "next": "다음 단계",
        "later_asks": "이후 요청",
        "none": "기록 없음.",
        "more": "… 외 {count}개",
        "more_uncounted": "… 그 외 더 있음 (생략)",
        "file.changed": "변경됨 (git)",
        "file.committed": "최근 커밋됨 (git)",
        "file.exists": "존재, 변경 없음",
        "file.mentioned": "언급만 됨",
        "file.deleted": "삭제됨 (git)",
        "stats": "{turns}개 턴 · {agent} · 로컬에서 요약",
        "stats.omitted": "가장 오래된 {count}개 턴은 가져올 수 없었습니다",
        "reply_pending": "답변 대기 중: {text}",
        "handoff": "이전 {agent} 세션(폴더: {cwd})의 작업을 이어서 진행해 주세요. 요약:",
        "incomplete": "불완전: 요약이 중간에 끊겼습니다 ({reason}).",
    },
    "zh": {
        "title": "会话摘要",
        "goal": "目标",
        "done": "已完成的工作",
        "files": "涉及的文件",
        "commands": "运行的命令",
        "findings": "决定与发现",
        "errors": "遇到的错误",
        "questions": "未解决的问题",
        "next": "下一步",
        "later_asks": "后续请求",
        "none": "无记录。",
        "more": "… 另有 {count} 项",
        "more_uncounted": "… 还有更多（未列出）",
        "file.changed": "已修改 (git)",
        "file.committed": "最近已提交 (git)",
        "file.exists": "存在，未修改",
        "file.mentioned": "仅被提及",
        "file.deleted": "已删除 (git)",
        "stats": "{turns} 轮 · {agent} · 本地摘要",
        "stats.omitted": "最早的 {count} 轮无法获取",
        "reply_pending": "等待回复：{text}",
        "handoff": "请继续之前 {agent} 会话（文件夹：{cwd}）中的工作。其摘要如下：",
        "incomplete": "不完整：摘要中途被截断（{reason}）。",
    },
}


def phrase(language: str, key: str, **values: object) -> str:
    """The phrase for `key` in `language` (English when missing), with {placeholders} filled."""
    table = _TEXT.get(language, _TEXT["en"])
    text = table.get(key) or _TEXT["en"][key]
    return text.format(**values) if values else text


def headings(language: str) -> Dict[str, str]:
    """Section key → heading, used by the local writer and given to the LLM so both look alike."""
    return {key: phrase(language, key) for key in SECTION_KEYS}
