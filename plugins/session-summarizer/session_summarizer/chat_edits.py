"""Files a chat export shows were written, when the export keeps no tool call that names them.

Cursor's own chat export prints an edit as a code block of the old text, a line `->`, and the new text,
and a file written whole as a block right after the agent announces it ("Now let me create the
`requirements.txt` file:", "让我更新 `src/app.ts`："). GitHub Copilot's export replaces each edit with
"Made changes." and names the file only in the reply's report ("main.py is now updated to …",
"A test suite was added in test_main.py"). These rules take the file from those words; a sentence that
hands work to the user ("you can delete old.py") names nothing written.
"""

import re
from typing import Any, List, Optional, Sequence, Tuple

from . import cues
from . import extraction as ex

# Cursor's record of a search-and-replace: the old text, a line "->" alone, the new text.
_REPLACED = re.compile(r"\n[ \t]*\n->[ \t]*\n[ \t]*\n")
# The verbs of writing a file, as an announcement says them in the languages the rules read.
_WRITE_VERB = re.compile(
    r"(?i)\b(?:creat\w*|writ\w*|updat\w*|add\w*|modif\w*|edit\w*|fix\w*|chang\w*|replac\w*|rewrit\w*|refactor\w*"
    r"|implement\w*|generat\w*|set up|crear|actualiz\w*|añad\w*|criar|atualiz\w*|adicion\w*"
    r"|созда\w*|обнов\w*|измен\w*|добав\w*|исправ\w*|перепиш\w*)\b"
    r"|作成|更新|修正|追加|変更|書き|作り|创建|新建|修改|添加|编写|写入|实现|생성|작성|수정|추가|변경|업데이트")
# A report that a named file changed: "x.py is now updated", "was added in x.py", "x.py now builds …".
_CHANGED = re.compile(
    r"(?i)\b(?:is|are|was|were|has been|have been)\s+(?:now\s+)?(?:\w+ly\s+)?(?:updated|created|added|modified"
    r"|changed|refactored|fixed|rewritten|integrated|moved|simplified|extended|removed)\b"
    r"|\bnow\s+(?:uses|supports|includes|has|builds|provides|shows|contains|handles|sorts|loads|explains"
    r"|reads|writes|stores|returns|defines|imports|runs|calls|caches|documents)\b"
    r"|已(?:经)?(?:更新|修改|创建|添加|重写)|(?:更新|修正|作成|追加|変更)(?:しました|済み)"
    r"|(?:수정|추가|생성|업데이트|변경)(?:했|됐|되었|하였)")
# Words that hand the step to the user or only offer it: nothing was written.
_OFFERED = re.compile(r"(?i)\b(?:you can|you could|you may|you might|you should|you need|if you|would you like"
                      r"|let me know|should i|shall i|want me to)\b|[?？]")


def _lead(text: str, code: str, position: int) -> Tuple[str, int]:
    """The prose line right before the block holding `code` (its fence skipped), and where the block ends."""
    at = text.find(code, position) if code else -1
    if at < 0:
        return "", position
    before = text[max(0, at - 400):at].split("\n")[:-1]  # the last piece is the fence line itself
    lines = [line.strip() for line in before if line.strip() and not line.strip().startswith(("```", "~~~"))]
    return (lines[-1] if lines else ""), at + len(code)


def _one_path(text: str) -> str:
    paths = list(dict.fromkeys(ex.find_paths(text)))
    return paths[0] if len(paths) == 1 else ""


def exported_writes(texts: Sequence[str], parts: Sequence[Optional[Any]]) -> None:
    """In a session that keeps no tool record at all (a chat export), the writes its replies' blocks show."""
    if any(turn_parts is not None and (turn_parts.calls or turn_parts.output) for turn_parts in parts):
        return  # the tools' own records say what was written; a block there is shown, not applied
    for text, turn_parts in zip(texts, parts):
        if turn_parts is not None and turn_parts.blocks:
            written_in_blocks(text, turn_parts.blocks, turn_parts)


def written_in_blocks(text: str, blocks: Sequence[Tuple[str, str]], parts: Any) -> None:
    """Edits that a chat export shows as code blocks: replace records, and files written after an announcement."""
    position = 0
    for language, code in blocks:
        lead, position = _lead(text, code, position)
        named = language.split(":", 1)[1].strip() if ":" in language else ""
        if _REPLACED.search(code):
            parts.made_changes += 1
            path = named or _one_path(lead)
            if path:
                parts.written.append(path)
        elif lead.endswith((":", "：")) and cues.announces_work(lead) and _WRITE_VERB.search(lead):
            path = _one_path(lead)
            if path:
                parts.written.append(path)


def written_in_report(prose: str, parts: Any) -> None:
    """In a reply whose edits name no file ("Made changes."), the files its report says changed."""
    found: List[str] = []
    for sentence in re.split(r"(?<=[.!。！])\s+|\n", prose):
        changed = _CHANGED.search(sentence) if "." in sentence else None
        if changed is None or _OFFERED.search(sentence):
            continue
        # The file the report is about: the subject ("x.py is now updated"), else where the change went
        # ("was added in x.py"); a file named along the way ("… from y.py") was only used.
        before = ex.find_paths(sentence[:changed.start()])
        after = ex.find_paths(sentence[changed.end():])
        found.extend(before[:1] or after[:1])
    parts.written.extend(dict.fromkeys(found))
