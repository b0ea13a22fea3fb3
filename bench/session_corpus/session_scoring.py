"""Scores a written summary against a session's facts and traps: what a reader finds in each section.

The scorer reads the summary's Markdown, as the panel and the saved note show it, not the
summarizer's internals: it splits it at its `## ` headings (any of the four languages), takes each
bullet as one item, and looks for every fact in the items of its own section.

- A fact is a list of groups of alternatives: it is found when ONE item of its section holds, for
  every group, at least one alternative. Alternatives are matched as whole words for Latin text
  (case, width and `backticks` ignored; a word does not end before a hyphen) and as substrings for
  Chinese, Japanese and Korean.
- Only the first ITEM_WORDS words of an item are read, and nothing past the first SUMMARY_WORDS
  words of the summary: recall bought by pasting the transcript does not count.
- A trap is text that would be a false claim in a section (a command that was only suggested, a
  possible cause listed as an error...). One item matching it is one false claim.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Dict, Iterable, List, Sequence, Tuple

SECTIONS = ("goal", "done", "decisions", "errors", "commands", "open", "files")
ITEM_WORDS = 80
SUMMARY_WORDS = 1200

# The summarizer's heading keys, and the fact section each one feeds.
HEADING_SECTION = {"goal": "goal", "done": "done", "findings": "decisions", "decisions": "decisions",
                   "errors": "errors", "commands": "commands", "questions": "open", "next": "open", "open": "open",
                   "files": "files"}
# Scripts written without spaces between words (CJK, Thai, Lao, Khmer, Myanmar): a term is found inside text.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u0e00-\u0eff\u1000-\u109f"
                  r"\u1780-\u17ff]")
_HAN_KANA = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"\w+")


def normalize(text: str) -> str:
    """NFKC, lower case, no backticks or emphasis marks, Windows separators as `/`, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text).lower().replace("`", "").replace("**", "").replace("\\", "/")
    return " ".join(text.split())


def count_words(text: str) -> int:
    """Words as a reader counts them: Latin and Hangul words, plus one per two Chinese/Japanese characters."""
    words = 0
    for run in _WORD.findall(text):
        han = len(_HAN_KANA.findall(run))
        words += (han + 1) // 2 if han else 1
    return words


def first_words(text: str, limit: int) -> str:
    """`text` cut after its `limit`-th word (counted as count_words does)."""
    total = 0
    for found in _WORD.finditer(text):
        run = found.group(0)
        han = len(_HAN_KANA.findall(run))
        total += (han + 1) // 2 if han else 1
        if total >= limit:
            return text[:found.end()]
    return text


# A Latin word ends at any character that is not a letter or digit of a spaced script: Japanese, Chinese and
# Korean glue particles to names ("`lxc_shell.rs`에", "`app.py`を"), and that must not hide the name.
_LETTER = (r"[^\W\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u0e00-\u0eff\u1000-\u109f"
           r"\u1780-\u17ff]")


def _term_pattern(term: str) -> re.Pattern[str]:
    prefix = term.endswith("*")  # "validat*": the reviewer's stem, any word that starts with it
    term = normalize(term.rstrip("*"))
    body = r"\s*".join(re.escape(part) for part in term.split(" "))
    if _CJK.search(term):
        return re.compile(body)
    left = "(?<!" + _LETTER + ")" if re.match(r"\w", term) else ""
    # "--force" is not "--force-with-lease": a word does not end before a "-"
    right = "(?!" + _LETTER + "|-)" if re.search(r"\w$", term) and not prefix else ""
    return re.compile(left + body + right)


def item_matches(groups: Sequence[Sequence[str]], item: str) -> bool:
    """True when `item` holds, for every group, one of its alternatives."""
    text = normalize(item)
    return all(any(_term_pattern(term).search(text) for term in group) for group in groups)


# The headings and the "nothing" line the summarizer writes (en, ja, ko, zh) at the time this corpus was
# written; whatever the summarizer on sys.path writes now is added to them (_phrases), so a renamed
# heading still lands in its section.
_HEADINGS = {
    "goal": ("Goal", "目的", "목표", "目标"),
    "done": ("What was done", "実施したこと", "한 일", "已完成的工作"),
    "files": ("Files touched", "触れたファイル", "다룬 파일", "涉及的文件"),
    "commands": ("Commands run", "実行したコマンド", "실행한 명령", "运行的命令"),
    "findings": ("Decisions and findings", "決定事項と判明したこと", "결정 및 발견", "决定与发现"),
    "errors": ("Errors hit", "発生したエラー", "발생한 오류", "遇到的错误"),
    "questions": ("Open questions", "未解決の質問", "열린 질문", "未解决的问题"),
    "next": ("Next steps", "次のステップ", "다음 단계", "下一步"),
}
_NONE = ("None recorded.", "記録なし。", "기록 없음.", "无记录。")


def _phrases() -> Tuple[Dict[str, str], List[str]]:
    """(normalized heading -> heading key, normalized "nothing recorded" lines)."""
    keys = {normalize(text): key for key, texts in _HEADINGS.items() for text in texts}
    nothing = [normalize(text) for text in _NONE]
    try:
        from session_summarizer.summary_text import _TEXT  # type: ignore[attr-defined]
    except ImportError:
        return keys, nothing
    for phrases in _TEXT.values():
        keys.update({normalize(phrases[key]): key for key in HEADING_SECTION if key in phrases})
        if "none" in phrases:
            nothing.append(normalize(phrases["none"]))
    return keys, nothing


def sections_of(markdown: str) -> Dict[str, List[str]]:
    """Items a reader sees in each fact section of a summary's Markdown (past SUMMARY_WORDS: not read)."""
    keys, nothing_lines = _phrases()
    nothing = set(nothing_lines)
    items: Dict[str, List[str]] = {section: [] for section in SECTIONS}
    current = ""
    for raw in first_words(markdown, SUMMARY_WORDS).split("\n"):
        line = raw.strip()
        if line.startswith("## "):
            current = HEADING_SECTION.get(keys.get(normalize(line[3:]), ""), "")
            continue
        if not current or not line or line.startswith("# "):
            continue
        line = re.sub(r"^[-*]\s+", "", line)
        line = re.sub(r"^✓\s*", "", line)
        if normalize(line) in nothing or (line.startswith("**") and line.endswith("**")):
            continue  # "None recorded." and the "Later requests" label say nothing
        items[current].append(first_words(line, ITEM_WORDS))
    return items


def score_session(case: Dict[str, Any], markdown: str) -> Dict[str, Any]:
    """{found: {section: n}, total: {section: n}, missed: [(section, fact)], traps: [text], words: n}."""
    items = sections_of(markdown)
    found = {section: 0 for section in SECTIONS}
    total = {section: 0 for section in SECTIONS}
    missed: List[Tuple[str, str]] = []
    for section in SECTIONS:
        for fact in case["facts"].get(section, []):
            total[section] += 1
            if any(item_matches(fact["match"], item) for item in items[section]):
                found[section] += 1
            else:
                missed.append((section, fact["fact"]))
    traps = [trap["why"] for trap in case.get("traps", []) if trap_hit(trap, items, markdown)]
    return {"found": found, "total": total, "missed": missed, "traps": traps, "words": count_words(markdown)}


# A file's state that claims nothing about the file: it was named, or code was shown for it. A path that
# does not exist, or sits at the wrong folder, is a false claim only when the bullet claims more.
_NO_CLAIM = ("only mentioned", "言及のみ", "언급만 됨", "仅被提及")


def _claims_nothing() -> List[str]:
    states = [normalize(text) for text in _NO_CLAIM]
    try:
        from session_summarizer.summary_text import _TEXT  # type: ignore[attr-defined]
    except ImportError:
        return states
    return states + [normalize(phrases[key]) for phrases in _TEXT.values()
                     for key in ("file.mentioned", "file.proposed") if key in phrases]


def trap_hit(trap: Dict[str, Any], items: Dict[str, List[str]], markdown: str) -> bool:
    pool: Iterable[str] = [markdown] if trap["section"] == "any" else items.get(trap["section"], [])
    if trap.get("whole"):  # the item, minus its state after " — ", is exactly this (a path at the wrong folder)
        wanted = {normalize(term) for group in trap["match"] for term in group}
        states = [normalize(state) for state in trap.get("states", [])]  # and, if given, claims one of these
        silent = _claims_nothing()
        return any(normalize(item.split(" — ")[0]) in wanted
                   and normalize(item.partition(" — ")[2]) not in silent
                   and (not states or any(state in normalize(item.partition(" — ")[2]) for state in states))
                   for item in pool)
    return any(item_matches(trap["match"], item) for item in pool)
