"""Loose ends a session's own output shows at its end: work git still lists as uncommitted or unpushed,
a failing test tally the reply reports, an agent cut off by its usage limit, and work the user put off.

These read what tools and agents print (git's status lines, a limit notice) or cue words that hold across
languages, never one transcript's wording.
"""

import re
from typing import List, Optional, Sequence, Set, Tuple

from . import extraction as ex
from . import user_answers
from .formats import EDIT, EXTERNAL, RUN
from .session import Turn
from .text_gates import gate, holds_any
from .transcript import TurnParts

# ---------------------------------------------------------------------------------------------- git state

# git's status lines (its messages are English whatever the session's language; aider quotes them after "> ").
_AHEAD = re.compile(r"Your branch is ahead of [`']([^`'\s]+)[`'] by (\d+) commits?"
                    r"|^## [^\s.]+\.\.\.(\S+) \[ahead (\d+)", re.M)
_SYNCED = re.compile(r"Your branch is up to date with|^## [^\s.]+\.\.\.\S+\s*$|Everything up-to-date"
                     r"|^\s*(?:[0-9a-f]{7,40}\.\.[0-9a-f]{7,40}|\* \[new branch\])\s+\S+\s+->\s+\S+", re.M)
_DIRTY_HEAD = re.compile(r"^(?:Changes not staged for commit|Untracked files|Changes to be committed):?\s*$")
_CLEAN = re.compile(r"nothing to commit,? \(?working (?:tree|directory) clean")
# A commit that went through: git's own line ("[main 0dc6ae4] message") or aider's ("Commit 5e08429 message").
_COMMITTED = re.compile(r"^\s*(?:>\s*)?(?:\[[\w./-]+(?: \(root-commit\))? [0-9a-f]{7,40}\]|Commit [0-9a-f]{7,40}) ",
                        re.M)
_FILE_STATE = re.compile(r"^(?:modified|new file|deleted|renamed|both modified):\s+(\S.*)$")
_SHORT_HEAD = re.compile(r"^## [^\s.]+\.\.\.[^\s.]\S*")
_SHORT_STATE = re.compile(r"^[MADRCU?!]{1,2} (\S.*)$")
# Substrings that must be in a turn for any of the above to matter (a cheap gate over long sessions).
_GATE = ("Your branch", "Untracked files", "Changes not staged", "Changes to be committed", "working tree clean",
         "working directory clean", "Everything up-to-date")
_GATE_WORDS = gate(_GATE)
# `git status -sb`'s first line ("## main...origin/main [ahead 1]"), anywhere in a turn: a Markdown heading is not one.
_SHORT_HEAD_ANYWHERE = re.compile(r"^[\s└│⎿>]*## [^\s.]+\.\.\.[^\s.]", re.M)


_PATH_LIKE = re.compile(r"^[\w.@~+/-][\w.@~+/-]*$")


def _bare(line: str) -> str:
    """A status line without the marks around tool output: aider's "> ", Codex's "└", quotes, tabs."""
    return line.strip().lstrip(">└│⎿ \t").strip().strip("'").strip()


def git_left(turns: Sequence[Turn]) -> Tuple[List[str], Optional[Tuple[str, int]]]:
    """(files the last `git status` listed as not committed, (upstream, commits) the branch was ahead of it),
    as they stand at the end: a later commit (or a clean tree) clears the first, a later push the second."""
    dirty: List[str] = []
    ahead: Optional[Tuple[str, int]] = None
    for turn in turns:
        text = turn.text
        if not (dirty or ahead) and not holds_any(text, _GATE_WORDS) and not (
                "## " in text and _SHORT_HEAD_ANYWHERE.search(text)):
            continue
        block: Optional[List[str]] = None  # the files of the status block being read
        short = False  # `git status -s`: " M file" / "?? file" lines
        elsewhere = False  # the last status command looked at another repository (`git -C ../other status`)
        for raw in text.split("\n"):
            line = _bare(raw)
            if "status" in line and re.search(r"\bgit\b.*\bstatus\b", line):
                elsewhere = bool(re.search(r"\bgit\s+-C\s", line))
            if elsewhere and block is None:
                continue
            if block is not None:
                if short:
                    state = _SHORT_STATE.match(raw.strip().lstrip("└│⎿>").strip())
                    if state:
                        block.append(state.group(1).strip())
                        continue
                    dirty, block, short = list(dict.fromkeys(block)), None, False
                elif not line or line.startswith("(use ") or _DIRTY_HEAD.match(line):
                    continue
                else:
                    state = _FILE_STATE.match(line)
                    if state or _PATH_LIKE.match(line):
                        block.append(state.group(1).strip() if state else line)
                        continue
                    if block:
                        dirty = list(dict.fromkeys(block))
                    block = None
            found = _AHEAD.search(line) if "ahead" in line else None
            if found:
                ahead = (found.group(1) or found.group(3), int(found.group(2) or found.group(4)))
            elif _SYNCED.search(line) or _SYNCED.search(raw.strip()):
                ahead = None
            if _DIRTY_HEAD.match(line):
                block = []
            elif line.startswith("## ") and _SHORT_HEAD.match(line):
                block, short = [], True
            elif _CLEAN.search(line):
                dirty = []
            elif (dirty or ahead) and _COMMITTED.match(line):
                dirty = []  # what the commit took is not shown: claim nothing about the rest
        if block:
            dirty = list(dict.fromkeys(block))
        elif block is not None and short:
            dirty = []
    return dirty, ahead


def git_items(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]], phrase_of) -> List[str]:  # type: ignore[no-untyped-def]
    """The open items for git work left at the end, in the session's language (`phrase_of(key, **values)`)."""
    dirty, ahead = git_left(turns)
    items: List[str] = []
    if dirty:
        shown = ", ".join("`" + name.replace("`", "'") + "`" for name in dirty[:_FILES_SHOWN])
        if len(dirty) > _FILES_SHOWN:
            shown += " …"
        items.append(phrase_of("open.uncommitted", text=shown))
    if ahead and not _pushed_after_last_ahead(turns, parts):
        items.append(phrase_of("open.unpushed", upstream=ahead[0], count=ahead[1]))
    rejected = push_rejected(turns, parts)
    if rejected:
        items.append(phrase_of("open.push_rejected", text=rejected))
    return items


_FILES_SHOWN = 6


def _pushed_after_last_ahead(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]]) -> bool:
    """A `git push` call ran after the last "ahead of" line and printed no error (its output may be hidden)."""
    last = max((index for index, turn in enumerate(turns) if _AHEAD.search(turn.text)), default=-1)
    return last >= 0 and _pushed_after(parts, last - 1)  # the turn that printed "ahead" may push too


# A push git turned down: "! [rejected]  main -> main (non-fast-forward)", "error: failed to push some refs".
_PUSH_REJECTED = re.compile(r"!\s*\[(?:remote )?rejected\][^\n]*|error: failed to push some refs[^\n]*")
# A push that went through, as git prints it.
_PUSHED = re.compile(r"^\s*(?:\+ )?(?:[0-9a-f]{7,40}\.\.\.?[0-9a-f]{7,40}|\* \[new branch\])\s+\S+\s+->\s+\S+"
                     r"|Everything up-to-date", re.M)


def push_rejected(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]]) -> str:
    """git's line for the session's last rejected push, when no push went through after it."""
    line, at = "", -1
    for index, turn in enumerate(turns):
        text = turn.text.replace("-&gt;", "->") if "&" in turn.text else turn.text  # SpecStory escapes the arrow
        if "rejected" in text or "failed to push" in text:
            found = list(_PUSH_REJECTED.finditer(text))
            if found:
                line, at = found[0].group(0).strip(), index
                if _PUSHED.search(text[found[-1].end():]):
                    line, at = "", -1
                continue
        if at >= 0 and ("->" in text or "up-to-date" in text) and _PUSHED.search(text):
            line, at = "", -1
    if at >= 0 and _pushed_after(parts, at):
        return ""
    return " ".join(line.split())[:120]


def _pushed_after(parts: Sequence[Optional[TurnParts]], start: int) -> bool:
    """A `git push` call ran after turn `start` and printed no error (its output may be hidden)."""
    for turn_parts in parts[start + 1:]:
        if turn_parts is None:
            continue
        for call in turn_parts.calls:
            if call.kind == RUN and re.search(r"\bgit\s+push\b", call.text) and not any(
                    ex.is_error_line(line) or "rejected" in line for line in call.output[:20]):
                return True
    return False


# ------------------------------------------------------------------------------------------ test tally

# The reply's own count of failures after a test run whose output the transcript cut: "Result: 7 failures out
# of 22 tests", "7件のテストが失敗", "7 个测试失败", "7개 테스트 실패".
_PROSE_TALLY = re.compile(
    r"(?i)\b[1-9]\d*\s+(?:failures?|failed|failing)\b"
    r"|\b[1-9]\d*\s+(?:of|out of)\s+\d+\s+(?:tests?\s+)?(?:fail|failed)\b"
    r"|[1-9]\d*\s*(?:件|个|個|개)?(?:の)?(?:テスト|测试|測試|테스트)?(?:が|가|이)?\s*(?:失敗|失败|失敗|실패)")
_FIXED = re.compile(r"(?i)\b(?:fixed|resolved|now pass(?:es|ing)?|all (?:\d+ )?(?:tests )?pass)\b"
                    r"|修正しました|修复了|已修复|수정했")
_TEST_RUN = re.compile(r"(?i)\b(?:test|tests|pytest|vitest|jest|mocha|rspec|unittest|spec|ctest|phpunit)\b")


def prose_tally(parts: Sequence[Optional[TurnParts]]) -> Optional[Tuple[str, str]]:
    """(the reply's tally sentence, the command) when the session's last test run printed no tally of its own
    (the transcript cut its output) and the same reply counts failures."""
    for turn_parts in reversed(parts):
        if turn_parts is None:
            continue
        for call in reversed(turn_parts.calls):
            if call.kind != RUN or not _TEST_RUN.search(call.text):
                continue
            if any(re.search(r"(?i)\b\d+\s+(?:passed|failed|failing|failures?)\b", line) for line in call.output[-40:]):
                return None  # the run printed its own tally: the caller reads that one
            # A reply's "• Ran npx vitest … Result: 7 failures out of 22 tests." can be read as the call itself.
            command = re.split(r"\s\(|\.\s", call.text, maxsplit=1)[0]
            for sentence in list(ex.sentences(call.text))[1:] + list(ex.sentences(turn_parts.prose)):
                if _PROSE_TALLY.search(sentence) and not _FIXED.search(sentence):
                    return " ".join(sentence.split())[:160], "`" + command.replace("`", "'")[:80] + "`"
            return None
    return None


# --------------------------------------------------------------------------------------- usage limit

# The agent's own notice that it stopped at a usage, session or context limit ("Session limit reached ∙
# resets 5pm", "Claude usage limit reached", "You've hit your usage limit", "Context window exceeded").
_LIMIT = re.compile(r"(?i)\b(?:session|usage|rate|message|token|context(?: window)?) limit (?:reached|exceeded|hit)\b"
                    r"|\byou(?:'ve| have) (?:hit|reached) (?:your|the) (?:\w+ )?limit\b"
                    r"|\b(?:context (?:window|length)|quota) (?:exceeded|is full)\b")


def stopped_at_limit(turns: Sequence[Turn]) -> str:
    """The agent's limit notice when it is the session's last word: the work underway was cut off."""
    for turn in reversed(turns):
        text = turn.text.strip()
        if not text:
            continue
        if turn.role != "assistant" or len(text) > 300:
            return ""
        found = _LIMIT.search(text)
        return " ".join(text.split("\n")[0].split())[:120] if found else ""
    return ""


# ------------------------------------------------------------------------------------- put off by the user

# The user puts a piece of work off: "ignore the two extra C files for now", "skip auth until later",
# "今はテストは不要", "暂时不用管登录", "일단 결제는 빼고". It names what is put off and when.
_USER_DEFERS = re.compile(
    r"(?i)\b(?:ignore|skip|leave(?: out)?|exclude|postpone|don'?t (?:worry about|bother with|touch|implement|add))\b"
    r"[^.?!\n]{2,80}?\b(?:for now|for the time being|until later|later|at the moment|in a later step)\b"
    r"|(?:今は|いったん|一旦|とりあえず)[^。\n]{0,30}(?:無視|不要|置いといて|置いておいて|後回し|しないで|やらないで)|後回し"
    r"|(?:暂时|先)(?:不(?:用|要|管|做)|忽略)[^。\n]{1,30}|[^。\n]{1,30}(?:以后|之后|后面)再(?:做|说|处理|实现|加)"
    r"|일단[^.\n]{0,30}(?:무시|빼고|제외|나중에)|[^.\n]{1,30}나중에 (?:하|추가|구현|처리)")
_NAME = re.compile(r"`([^`]{2,40})`|\b([A-Za-z][A-Za-z0-9_.-]{2,})\b")
_COMMON = {"ignore", "skip", "leave", "out", "exclude", "postpone", "for", "now", "the", "time", "being", "until",
           "later", "moment", "worry", "about", "bother", "with", "touch", "implement", "add", "and", "this",
           "that", "these", "those", "don't", "dont", "just", "please", "step", "files", "file", "two", "extra"}


# Words one of _USER_DEFERS's branches always holds (its Latin branch lower-cased): an ask with none of them
# cannot match, so the pattern, slow on long asks, is not run on it.
_DEFER_HINTS = ("later", "for now", "time being", "moment", "今は", "いったん", "一旦", "とりあえず", "後回し", "暂时",
                "先", "以后", "之后", "后面", "일단", "나중에")
# Letters outside ASCII that the pattern's case-insensitive match folds onto ASCII ones (İ, ı, ſ, the Kelvin sign).
_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")


def _may_put_off(ask: str) -> bool:
    lowered = ask.lower()
    return any(hint in lowered for hint in _DEFER_HINTS) or (
        not ask.isascii() and any(letter in ask for letter in _FOLDS_TO_ASCII))


def put_off_by_user(asks: Sequence[str]) -> List[str]:
    """Sentences in which the user puts work off, unless a later ask names that work again (picked up)."""
    found: List[str] = []
    for position, ask in enumerate(asks):
        if not _may_put_off(ask):
            continue
        prose = ex.split_code(ask)[0]
        if not _USER_DEFERS.search(prose):
            continue
        for sentence in ex.sentences(prose):
            if not _USER_DEFERS.search(sentence):
                continue
            names = {(match.group(1) or match.group(2)).lower() for match in _NAME.finditer(sentence)} - _COMMON
            later = " ".join(asks[position + 1:]).lower()
            if names and any(name in later for name in names):
                continue
            found.append(" ".join(sentence.split())[:200])
    return found[-_PUT_OFF_ITEMS:]


_PUT_OFF_ITEMS = 2


# ------------------------------------------------------------------------------------- an option picked last

def picked_option(turns: Sequence[Turn]) -> str:
    """The option the user picked in the session's last turn, as the reply before it listed it ("(a) update
    spec.json …"), when nothing came after the pick: the chosen work was never shown done."""
    spoken = [turn for turn in turns if turn.text.strip()]
    if len(spoken) < 2 or spoken[-1].role != "user" or spoken[-2].role != "assistant":
        return ""
    picked = user_answers.picked_label(spoken[-1].text, spoken[-2].text)
    label = user_answers.label_of(spoken[-1].text)
    return "(" + label + ") " + " ".join(picked.split())[:200] if picked and label else ""


# ------------------------------------------------------------------------------------- a next-steps heading

# A heading (a Markdown "#", a bold line or a line ending on a colon) that opens on the words for what is left:
# "### **Next Steps Available:**", "Remaining for this slice:", "次のアクション", "下一步：部署", "Langkah
# selanjutnya:". The list under it is the reply's own list of what is still to do.
_NEXT_WORDS = re.compile(
    r"(?i)^(?:next (?:steps?|actions?|up|tasks?)|remaining\b|still to do|left to do|what'?s (?:left|next)"
    r"|to-?dos?\b(?!\s*(?:list|items?\b))|follow[- ]?ups?\b|pending\b|open (?:items|points|tasks)"
    r"|recommended next|suggested next"
    r"|次のステップ|次のアクション|次にやること|今後|残り|残タスク|未対応|下一步|后续|接下来|待办|待處理|下一步驟"
    r"|다음 단계|다음 작업|남은|향후|langkah (?:selanjutnya|berikutnya)|pr[oó]xim[oa]s? pas(?:s)?os|siguientes pasos"
    r"|следующие шаги|дальнейшие шаги|nächste schritte|prochaines étapes)")
_HEADING_MARKS = re.compile(r"^(?:#{1,6}\s*)?(?:[^\w\s(]{1,3}\s*)?(?:\*\*|__)?\s*(?:[^\w\s(]{1,3}\s*)?")


def next_heading(line: str) -> bool:
    """A short heading line that opens the reply's list of what is still to do."""
    stripped = line.strip()
    if not stripped or len(stripped) > 80 or re.match(r"^(?:[-*•]|\d{1,2}[.)])\s", stripped):
        return False
    heading = stripped.startswith(("#", "**", "__")) or stripped.rstrip("*_ ").endswith((":", "：")) or len(
        stripped) <= 30
    return heading and bool(_NEXT_WORDS.match(_HEADING_MARKS.sub("", stripped, count=1)))


def next_list(prose: str, after: Sequence[Turn], words_of) -> List[str]:  # type: ignore[no-untyped-def]
    """The items listed under the reply's next-steps headings, unless a later user turn takes one up (it shares
    a content word, `words_of(text)`, with the heading or its items): then the user went on with that list."""
    if not prose:
        return []
    found: List[str] = []
    heading = ""
    items: List[str] = []
    lines = [*prose.split("\n"), ""]  # the empty line closes a list that ends the reply
    for line in lines:
        stripped = line.strip()
        if heading and re.match(r"^(?:[-*•]|\d{1,2}[.)）])\s*\S", stripped):
            items.append(stripped)
            continue
        if heading and not stripped and not items:
            continue
        if heading and items:
            later: Set[str] = set()
            for turn in after:
                if turn.role == "user":
                    later |= words_of(turn.text[:2000])
            # What the heading names besides "next steps" ("…: deploy on Vercel") taken up later: the user
            # followed the list. Otherwise each item the user did not take up is still open.
            topic = _NEXT_WORDS.sub("", _HEADING_MARKS.sub("", heading, count=1), count=1)
            choices = any(re.match(r"^(?:[-*•]\s*)?\(?[A-Za-z]\)", item) for item in items)
            if not choices and not (words_of(topic) & later):  # "(a) … (b) …" are choices, not steps
                found.extend(item for item in items if not (words_of(item) & later))
        heading, items = (stripped, []) if next_heading(stripped) else ("", [])
    return found[:_NEXT_LISTED]


_NEXT_LISTED = 6


# ------------------------------------------------------------------------------------- a reply cut off

# The chat's own mark that the user stopped the reply ("Cancelled" under a Cursor reply, "[Request interrupted
# by user]"): what the reply began is not done, and the ask it answered is still waiting.
_CANCELLED = re.compile(r"(?i)\n\s*(?:cancell?ed|\[?request (?:interrupted|cancell?ed)(?: by user)?\]?)\s*\Z")


def reply_cancelled(text: str) -> bool:
    """Whether a reply ends on the mark that the user cancelled it."""
    return bool(_CANCELLED.search(text[-80:]))


# A terminal's own lines copied under the reply: rules, the input prompt, the status line ("⏵⏵ accept edits on",
# "Context left until auto-compact: 0%", "? for shortcuts") and a tool call still being drawn ("Bash(cargo check)").
_CHROME = re.compile(r"^(?:[─━═❯›>⏵⏸▶·•\s]+|.*(?:accept edits|auto-compact|shift\+tab|for shortcuts|context left)"
                     r".*|[A-Z]\w+\([^\n]*\)(?:\s+timeout:[^\n]*)?)$", re.I)


def is_chrome(line: str) -> bool:
    """A terminal's frame or status line, not something the agent said."""
    return bool(_CHROME.match(line.strip()))


# ------------------------------------------------------------------------------------- changes left untested

_UNTESTED_SHOWN = 4


def untested_at_end(parts: Sequence[Optional[TurnParts]], start: int, last: int) -> List[str]:
    """The files the replies from `start` (after the user's last ask) to `last` (the session's final reply)
    changed, when nothing ran after the last change: no test, no build, no command, and the session ends on
    the reply, so no word from the user either. Empty when nothing was changed or something ran after it."""
    changed: List[str] = []
    ran_after = False
    for turn_parts in parts[start:last + 1]:
        if turn_parts is None:
            continue
        for call in turn_parts.calls:
            if call.kind == EDIT:
                changed.append(call.text)
                ran_after = False
            elif call.kind in (RUN, EXTERNAL):
                ran_after = True
        if turn_parts.ran_blocks:
            ran_after = True
        if turn_parts.written or (turn_parts.made_changes and not turn_parts.calls):
            changed.extend(turn_parts.written or ["…"])
            ran_after = False
    # Notes and docs are read, not run: only a change to code or configuration is left to test.
    if ran_after or not any(not name.lower().endswith(_PROSE_FILES) for name in changed):
        return []
    return list(dict.fromkeys("/".join(name.replace("\\", "/").split("/")[-2:]) for name in changed))


_PROSE_FILES = (".md", ".mdx", ".txt", ".rst", ".adoc", ".org")


# ------------------------------------------------------------------------------------- a publish handed over

# A step that acts outside the machine: a push, a publish, a deploy. In a session whose agent runs commands
# itself, one shown in a reply's shell block and never run by a tool call is the user's to take.
_PUBLISHES = re.compile(r"^(?:git push|gh (?:repo create|release create|pr create)|npm publish|pnpm publish"
                        r"|yarn (?:npm )?publish|cargo publish|twine upload|docker push|vercel\b|netlify deploy"
                        r"|wrangler (?:deploy|publish|pages deploy)|firebase deploy|fly deploy|supabase db push)")


def publish_handed_over(parts: Sequence[Optional[TurnParts]]) -> List[str]:
    """Pushes, publishes and deploys the replies show in shell blocks that no tool call ran, in a session whose
    tools ran commands (a chat export's blocks are read by chat_commands instead)."""
    shown: List[str] = []
    for turn_parts in parts:
        if turn_parts is None or not turn_parts.blocks:
            continue
        blocks = [(language or "sh", code) for language, code in turn_parts.blocks
                  if language in ("", "bash", "sh", "shell", "zsh", "console", "powershell", "cmd")
                  and any(word in code for word in _PUBLISH_HINTS)]
        for command in ex.find_commands("", blocks) if blocks else []:
            if _PUBLISHES.match(command) and command not in shown:
                shown.append(command)
    if not shown:
        return []
    ran = {_verb(step) for turn_parts in parts if turn_parts is not None
           for call in turn_parts.calls if call.kind == RUN for step in re.split(r"&&|\|\||;|\|", call.text)}
    return [command for command in shown if ran and _verb(command) not in ran][-2:]


# Words one of _PUBLISHES's commands holds: a block with none of them is not read.
_PUBLISH_HINTS = ("push", "publish", "deploy", "upload", "vercel", "gh ")


def _verb(command: str) -> str:
    """A command's program and subcommand without its flags and values ("vercel --token=… --yes" is "vercel"):
    the same step run with the user's real token is the step shown with a placeholder."""
    words = [word for word in command.split() if not word.startswith("-")]
    return " ".join(words[:2]) if len(words) > 1 and re.match(r"^[a-z][\w-]*$", words[1]) else " ".join(words[:1])


# A user's line that opens a list of things put off: "Three small notes for future improvement (not blocking):",
# "後で直したい点:", "以后再做的：", "나중에 할 것:". The items under it are left for later, not asked for now.
_LATER_LEAD = re.compile(
    r"(?i)\b(?:later|future|not (?:now|yet|blocking|required|needed|urgent)|nice[- ]to[- ]have|someday|eventually"
    r"|down the road|for now)\b|後で|今後|将来|いずれ|以后|之后|后续|將來|以後|之後|後續|나중에|추후|향후|언젠가")
_LIST_ITEM = re.compile(r"^(?:[-*•]|\d{1,2}[.)])\s+(\S.*)$")


def listed_for_later(asks: Sequence[str]) -> List[str]:
    """The items of the lists the user opens with a put-off lead, newest last (the first sentence of each)."""
    found: List[str] = []
    for ask in asks:
        if not (":" in ask or "：" in ask) or not _LATER_LEAD.search(ask):
            continue
        lines = [line.strip() for line in ex.split_code(ask)[0].split("\n")]
        lead = False
        for line in lines:
            item = _LIST_ITEM.match(line) if lead else None
            if item:
                first = next(iter(ex.sentences(item.group(1))), item.group(1))
                found.append(" ".join(first.split())[:120])
                continue
            if line:
                lead = line.endswith((":", "：")) and bool(_LATER_LEAD.search(line))
    return found[-_LATER_ITEMS:]


_LATER_ITEMS = 4
