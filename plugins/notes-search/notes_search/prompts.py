"""Text handed to agents: a note inserted into a prompt, or a new session that continues from a note."""

from typing import Dict

from .safety import OpenedNote

# Agentty moves prompts over 60,000 bytes into a file; keep the note well under that.
MAX_PROMPT_CHARS = 40_000

_INSERT_INTRO: Dict[str, str] = {
    "en": "Note «{title}» ({path}):",
    "ja": "ノート「{title}」({path}):",
    "ko": "노트 «{title}» ({path}):",
    "zh": "笔记「{title}」({path}):",
}
_CONTINUE_INTRO: Dict[str, str] = {
    "en": "Continue working from this note. Read it, then tell me what you plan to do next.\nSource: {path}",
    "ja": "このノートの続きから作業してください。読んだうえで、次に何をするかを教えてください。\n出典: {path}",
    "ko": "이 노트에서 이어서 작업해 주세요. 읽은 뒤 다음에 무엇을 할지 알려 주세요.\n출처: {path}",
    "zh": "请从这条笔记继续工作。先阅读,然后告诉我你接下来打算做什么。\n来源: {path}",
}
_TRUNCATED: Dict[str, str] = {
    "en": "[… note shortened: {count} more characters in the file]",
    "ja": "[… ノートを短縮しました: ファイルには残り {count} 文字あります]",
    "ko": "[… 노트를 줄였습니다: 파일에 {count}자가 더 있습니다]",
    "zh": "[… 笔记已截短:文件中还有 {count} 个字符]",
}


def _body(note: OpenedNote, language: str) -> str:
    body = note.body.strip()
    if len(body) <= MAX_PROMPT_CHARS:
        return body
    rest = len(body) - MAX_PROMPT_CHARS
    return (
        body[:MAX_PROMPT_CHARS].rstrip()
        + "\n\n"
        + _TRUNCATED.get(language, _TRUNCATED["en"]).format(count=rest)
    )


def insert_prompt(note: OpenedNote, language: str) -> str:
    """The note as context for the focused agent: a header line, then the body (no front matter)."""
    intro = _INSERT_INTRO.get(language, _INSERT_INTRO["en"]).format(title=note.meta.title, path=note.path)
    return intro + "\n\n" + _body(note, language) + "\n"


def continue_prompt(note: OpenedNote, language: str) -> str:
    """The first prompt of a new agent session that picks up the work described in the note."""
    intro = _CONTINUE_INTRO.get(language, _CONTINUE_INTRO["en"]).format(path=note.path)
    return intro + "\n---\n# " + note.meta.title + "\n\n" + _body(note, language) + "\n"
