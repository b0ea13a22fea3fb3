"""Commands in a session that shows no tool calls: which ones ran, and which were only handed to the user.

A chat export (Copilot copied from VS Code, Cursor's chat, a Kiro export) prints commands in code
blocks whether the agent ran them or told the user to. Without a tool record, a block counts as run
only on evidence that holds in any language: the user accepted the offer in the next message ("yes,
do it", "はい", "好的", "네", "да", "sí"), the user's own terminal paste shows the command, or the
same reply says it ran (the line before the block: "I tested the API with:") or how it went (right
after the block: "Both pass."; or under a result heading). Everything else is advice: it is never
listed as run, and an installing or publishing step from the end of the session is a task left to
the user.
"""

import re
from typing import List, Optional, Sequence, Tuple

from . import ask_kinds, cues
from . import extraction as ex
from .asked_how import asks_how
from .formats import RUN
from .reported_checks import checks_that_passed
from .session import Turn
from .text_gates import gate, holds_any
from .transcript import TurnParts

# A terminal prompt the user pasted: "@me ➜ /repo (main) $ bundle exec rubocop", "PS C:\app> npm test".
_USER_PROMPT = re.compile(r"(?:^|[\s)\]])(?:\$|❯|%)\s+(\S.{1,300})$|^PS [A-Za-z]:\\[^>\n]*>\s*(\S.{1,300})$")
# The start of a reply that accepts what was offered, in the languages the rules read.
_ACCEPT_LATIN = re.compile(
    r"(?i)^\W*(?:yes|yeah|yep|yup|sure|ok(?:ay)?|go ahead|go for it|do it|please do|proceed|continue|sounds good"
    r"|looks good|lgtm|approved?|perfect|great|please (?:implement|apply|proceed|continue|go)|the plan looks good"
    r"|да|давай|ок|хорошо|продолжай|делай|sí|si|dale|adelante|hazlo|procede|sim|pode|prossiga|faça|claro|vai)\b")
_ACCEPT_WIDE = re.compile(r"^\W*(?:はい|お願い|進めて|やって|実行して|それで|好的?|可以|是的|继续|执行吧?|行"
                          r"|네|예|좋아|진행|해 ?줘|해 ?주세요)")
# A result heading after the blocks of the same reply: "### ✅ Upload complete", "## 完了", "**완료 결과**".
# A check mark alone is decoration ("### ✅ The full fix, in order"): the heading must say it is done.
_DONE_HEADING = re.compile(r"(?im)^\s*(?:#{1,4}\s*|\*\*).{0,40}"
                           r"(?:완료|完了|完成|成功|complete[d]?\b|done\b|succeeded|successful)")
# Steps a user must take for the work to hold: installing, migrating, publishing, pushing.
_TASK = re.compile(r"(?i)^(?:sudo\s+)?(?:npm (?:i|install|add)|pnpm (?:i|install|add)|yarn(?: add| install)?"
                   r"|bun (?:add|install)|pip3? install|uv (?:add|sync|pip install)|poetry (?:add|install)"
                   r"|gem install|bundle install|cargo (?:add|install)|go (?:get|install)|brew install"
                   r"|apt(?:-get)? install|composer (?:require|install)"
                   r"|dotnet add|npx prisma|alembic upgrade|(?:python3? )?manage\.py migrate|git push|docker compose up"
                   r"|supabase|vercel|netlify|wrangler)\b")
# The words right after a block that say how it went ("Both pass.", "成功しました"), not what to expect.
_OUTCOME = re.compile(
    r"(?i)^\W*(?:(?:both|all|it|they|tests?|everything|the build|build|which)\s+(?:now\s+)?)?(?:pass(?:es|ed)?\b"
    r"|succeed(?:s|ed)|work(?:s|ed)\b|finished|completed|(?:is |are )?green\b)"
    r"|^\W*(?:[^\n。]{0,20})(?:通りました|成功しました|パスしました|通过了|成功了|성공했|통과했|прошл|pasaron|passaram)")
# The line leading into a block says the agent ran it ("I tested the API with:", "実行した結果:").
_LEAD_RAN = re.compile(r"(?i)\b(?:I|we)(?:'ve| have)?\s+(?:just\s+|already\s+)?(?:ran|run|tested|tried|executed"
                       r"|checked|verified)\b|実行(?:しました|した結果)|运行了|执行了|실행했|실행한 결과"
                       r"|запустил|ejecuté|executei")
_EXPECTED = re.compile(r"(?i)\b(?:should|will|would|could|may|might|expect|once|if|when)\b")
_INLINE = re.compile(r"`([^`\n]{3,200})`")
_SHELL = ("bash", "sh", "shell", "zsh", "console", "powershell", "ps1", "cmd", "terminal", "fish", "")


def accepts(text: str) -> bool:
    """Whether a user's message starts by accepting what the assistant offered."""
    start = text.strip()[:80]
    return bool(_ACCEPT_LATIN.match(start) or _ACCEPT_WIDE.match(start))


def pasted_commands(text: str) -> List[str]:
    """Commands the user ran in their own terminal and pasted with the prompt in front."""
    found: List[str] = []
    for line in text.split("\n")[:400]:
        if "$" not in line and "❯" not in line and ">" not in line and "%" not in line and "#" not in line:
            continue
        match = _USER_PROMPT.search(line.rstrip())
        command = (match.group(1) or match.group(2) or "").strip() if match else ""
        if command and ex.is_command_line(command):
            found.append(command)
    return found


def _block_commands(parts: TurnParts) -> List[str]:
    blocks = [(language or "sh", code) for language, code in parts.blocks if language in _SHELL]
    return ex.find_commands("", blocks)


# What a terminal printed: a tool's own log prefix ("npm WARN", "yarn info"), a test runner's verdict,
# an installer's count. A block holding such lines next to a command is a capture of a run, not advice.
_PRINTED = re.compile(r"^\S+\s+(?:notice|WARN|warn|ERR!|info|http|verb|timing)\b|^(?:PASS|FAIL|ok|Ran \d|added \d"
                      r"|up to date|Done in|Compiled|Successfully|Collecting|Requirement already|\d+ passed|=+ \d+)")


def _captured(parts: TurnParts) -> bool:
    for language, code in parts.blocks:
        if language not in _SHELL:
            continue
        lines = [line.strip() for line in code.split("\n") if line.strip()]
        if any(_PRINTED.match(line) for line in lines) and any(ex.is_command_line(line) for line in lines):
            return True
    return False


def _outcome_follows(text: str, parts: TurnParts) -> bool:
    """Whether the reply says, right after one of its shell blocks, how running it went."""
    for language, code in parts.blocks:
        if language not in _SHELL or not code.strip():
            continue
        at = text.find(code)
        close = text.find("```", at + len(code)) if at >= 0 else -1
        if close < 0:
            continue
        lead = text[max(0, at - 200):at].rstrip().rsplit("\n", 2)
        if len(lead) >= 2 and _LEAD_RAN.search(lead[-2]):  # lead[-1] is the fence line itself
            return True
        after = text[close + 3:close + 163].strip()
        sentence = re.split(r"(?<=[.!?。！？])\s", after, maxsplit=1)[0]
        if _OUTCOME.search(sentence) and not _EXPECTED.search(sentence):
            return True
    return False


def _offered_inline(prose: str) -> List[str]:
    """Commands named as inline code in the reply's last paragraphs (what an offer asks to run)."""
    tail = prose.strip()[-600:]
    return [span.strip() for span in _INLINE.findall(tail) if " " in span.strip() and ex.is_command_line(span.strip())]


def _asks_question(text: str) -> bool:
    """A user turn that is a question ("is there anything to install?"): the reply's blocks answer it."""
    prose = ex.split_code(text)[0].strip()
    # A question mark that ends a clause, wherever it sits ("anything to install? I use Cloudflare Pages").
    return len(prose) <= _QUESTION_CHARS and bool(_ASKED.search(prose)) and not ask_kinds.requests_work(prose)


_QUESTION_CHARS = 300
_ASKED = re.compile(r"[?？](?:\s|$)")


def _bare(reply: str) -> bool:
    """A reply that only accepts ("ok", "yes, do it", "好的"), with nothing of the user's own after it."""
    text = reply.strip()
    return len(text) <= 24 and len(text.split()) <= 4


def _ends_on_offer(prose: str) -> bool:
    """Whether the reply's last lines ask the user something (an offer to go on, a choice)."""
    return any(mark in prose.strip()[-400:] for mark in ("?", "？"))


# A shell prompt right before a command on the user's line ("root@board:~# dmesg", "$ ls", "PS C:\\app> dir"):
# the user typed it in their own terminal and pasted what it printed.
_PROMPT_BEFORE = re.compile(r"[#$%>❯]\s*$")


def _named_not_typed(command: str, later: str) -> bool:
    """The user's later words name the command ("please run `x`") other than as a line of their own terminal:
    after their prompt, or ending a line that what it printed follows at once ("make all" / "Building file…").
    A command the user ran themselves and pasted is theirs, not one the agent ran."""
    at = later.find(command)
    while at >= 0:
        line_start = later.rfind("\n", 0, at) + 1
        line_end = later.find("\n", at)
        line_end = len(later) if line_end < 0 else line_end
        next_end = later.find("\n", line_end + 1)
        ends_line = not later[at + len(command):line_end].strip(" \t`'\"”」&")
        printed_after = ends_line and bool(later[line_end + 1:next_end if next_end >= 0 else len(later)].strip())
        if not _PROMPT_BEFORE.search(later[line_start:at]) and not printed_after:
            return True
        at = later.find(command, at + 1)
    return False


def _reply_after(turns: Sequence[Turn], index: int) -> Optional[str]:
    for turn in turns[index + 1:index + 3]:
        if turn.role == "user" and turn.text.strip():
            return turn.text
    return None


def chat_commands(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]]) -> Tuple[List[str], List[str]]:
    """(commands that ran, in order; acting commands left for the user at the end of the session)."""
    ran: List[str] = []
    advised: List[Tuple[int, str]] = []
    user_text = [(index, turn.text) for index, turn in enumerate(turns) if turn.role == "user"]
    how = False  # the reply answers the user's "how do I …": its commands are the user's steps
    for index, (turn, turn_parts) in enumerate(zip(turns, parts)):
        if turn.role == "user":
            ran.extend(pasted_commands(turn.text))
            how = asks_how(turn.text) or _asks_question(turn.text) if turn.text.strip() else how
            continue
        if turn_parts is None:
            continue
        # Inline commands in prose are taken only where the sentence says they ran, or how it went.
        ran.extend(ex.find_commands(turn_parts.prose, []))
        ran.extend(reported_runs(turn_parts.prose))
        ran.extend(checks_that_passed(turn_parts.prose))
        shown = _block_commands(turn_parts)
        reply = _reply_after(turns, index)
        # "OK" alone accepts what was shown, and so does a yes to a reply that ends on an offer (a question);
        # "OK, I found the problem: …" after plain advice is the user going on with their own work.
        accepted = reply is not None and accepts(reply) and (_bare(reply) or _ends_on_offer(turn_parts.prose))
        offered = _offered_inline(turn_parts.prose) if accepted else []
        if accepted:
            shown += [command for command in offered if command not in shown]
        if not shown:
            continue
        if how:
            # The reply answered the user's question: a yes takes up the offer it ends on ("Want me to run
            # `pip install -r requirements-dev.txt`?"), not the steps it showed the user.
            accepted = False
            ran.extend(command for command in offered if command not in ran)
            shown = [command for command in shown if command not in offered]
        last_fence = turn.text.rfind("```")
        reported = last_fence >= 0 and (bool(_DONE_HEADING.search(turn.text[last_fence:]))
                                        or _outcome_follows(turn.text, turn_parts) or _captured(turn_parts))
        later = " ".join(text for at, text in user_text if at > index) if not (accepted or reported) else ""
        for command in shown:
            if accepted or reported or (later and _named_not_typed(command[:60], later)):
                ran.append(command)
            else:
                advised.append((index, command))
    closing = set([index for index, turn in enumerate(turns) if turn.role == "assistant"][-3:])
    ran_keys = {" ".join(command.split()).lower() for command in ran}
    # Only the closing replies' steps are still the user's to take; earlier advice was overtaken.
    left = [command for index, command in advised
            if index in closing and _TASK.match(command) and " ".join(command.split()).lower() not in ran_keys]
    # A package to install is not overtaken by later advice: it stays the user's step unless a later user turn
    # names the package (they installed it, or report on it).
    installs = [command for index, command in advised
                if index not in closing and _INSTALL.match(command) and not _global(command)
                and " ".join(command.split()).lower() not in ran_keys
                and not any(name in text for at, text in user_text if at > index
                            for name in _packages(command) + _imported_as(turns[index].text, _packages(command)))]
    return ran, list(dict.fromkeys(installs[-_INSTALLS_LEFT:] + left))


# Installing named packages ("npm install @radix-ui/react-accordion", "pip install httpx"): a bare `npm install`
# names nothing and is left to the closing replies' rule.
_INSTALL = re.compile(r"(?i)^(?:sudo\s+)?(?:npm (?:i|install|add)|pnpm (?:i|install|add)|yarn add|bun add"
                      r"|pip3? install|uv add|poetry add|gem install|cargo add|go get|composer require|dotnet add"
                      r"(?: package)?)(?:\s+-\S+)*\s+[^-\s]")
_INSTALLS_LEFT = 2
# What code imports a package as: `import UAParser from 'ua-parser-js'`, `import * as z from "zod"`,
# `const axios = require('axios')`, `from httpx import Client`.
_IMPORT = re.compile(r"import\s+(?:\*\s+as\s+)?\{?\s*([A-Za-z_$][\w$]*)[^\n]*?\bfrom\s+['\"]([^'\"]+)['\"]"
                     r"|\b([A-Za-z_$][\w$]*)\s*=\s*require\(\s*['\"]([^'\"]+)['\"]|^\s*from\s+([\w.]+)\s+import\s+(\w+)",
                     re.M)


def _imported_as(text: str, packages: List[str]) -> List[str]:
    """The names the reply's code imports those packages as: a user's later error that names one shows the
    package was installed (its types resolved)."""
    if "import" not in text and "require(" not in text:
        return []
    names: List[str] = []
    for found in _IMPORT.finditer(text):
        name, source = ((found.group(1), found.group(2)) if found.group(2) else
                        (found.group(3), found.group(4)) if found.group(4) else (found.group(6), found.group(5)))
        if source in packages and name and len(name) > 2:
            names.append(name)
    return names


def _packages(command: str) -> List[str]:
    """The packages an install step names (its arguments that are not options)."""
    words = command.split()
    start = 3 if len(words) > 2 and words[1] in ("add",) and words[0] == "dotnet" else 2
    return [word for word in words[start:] if not word.startswith("-") and len(word) > 2]


def _global(command: str) -> bool:
    """`npm install -g firebase-tools`: a tool for one way of doing it, offered as an option, not a dependency."""
    return bool(re.search(r"\s(?:-g|--global)\b", command))


def handed_to_user(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]], replies: int = 3) -> List[str]:
    """In a session whose tools ran commands: steps in the last replies' shell blocks that the agent hands to
    the user ("you need to set the token yourself: …") and that no tool call ran."""
    ran = {" ".join(call.text.split()) for turn_parts in parts if turn_parts is not None
           for call in turn_parts.calls if call.kind == RUN}
    last = [index for index, turn in enumerate(turns) if turn.role == "assistant"][-replies:]
    found: List[str] = []
    for index in last:
        turn_parts = parts[index]
        if turn_parts is None:
            continue
        text = turns[index].text
        for language, code in turn_parts.blocks:
            if language not in _SHELL or not code.strip():
                continue
            at = text.find(code)
            lead = [line.strip() for line in text[max(0, at - 300):max(0, at)].split("\n")
                    if line.strip() and not line.strip().startswith(("```", "~~~"))]
            if not lead or not cues.is_user_task(lead[-1]):  # "you need to log in yourself first:"
                continue
            for command in ex.find_commands("", [(language or "sh", code)])[:1]:  # the block's first step says it
                if not any(command in other for other in ran) and command not in found:
                    found.append(command)
    return found[-2:]


# A commit the session shows: git's own line ("[main 63ca3b1] message"), aider's record ("Commit 634033b
# message"), or a report that names the hash next to the word for a commit in any language.
_COMMIT_LINE = re.compile(r"^\[[\w./-]+(?: \(root-commit\))? ([0-9a-f]{7,40})\] ")
_COMMIT_WORD = re.compile(r"(?i)\b(?:commit(?:ted)?|коммит\w*|confirmaci[oó]n|commitado)\b|コミット|提交|커밋|คอมมิต")
_LOG_ENTRY = re.compile(r"^[ \t]*(?:[-*•]|\d+[.)])?[ \t]*`?[0-9a-f]{7,12}`?[ \t]*[-–—:|][ \t]*\S", re.M)
_HASH = re.compile(r"(?<![0-9a-f])([0-9a-f]{7,12})(?![0-9a-f])")
_PUSH_WORD = re.compile(r"(?i)\b(?:push(?:ed)?|пуш\w*|отправлен\w*|enviad[oa])\b|プッシュ|推送|푸시|พุช")
_RANGE = re.compile(r"\b[0-9a-f]{7,12}(?:\.\.|\s*(?:→|->)\s*)[0-9a-f]{7,12}\b")
_COMMIT_HINTS = ("ommit", "OMMIT", "оммит", "ОММИТ", "onfirmaci", "コミット", "提交", "커밋", "คอมมิต")
_COMMIT_WORDS = gate(_COMMIT_HINTS)
_COMMIT_SCAN = re.compile(_COMMIT_WORD.pattern.replace("(?i)", "", 1)
                          + r"|^\s*\[[\w./-]+(?: \(root-commit\))? [0-9a-f]{7,40}\] ", re.I | re.M)


def _lines_with(pattern: "re.Pattern[str]", text: str) -> List[str]:
    """The lines of `text` that hold a match of `pattern`, each once (no pass over every line)."""
    lines: List[str] = []
    last = -1
    for found in pattern.finditer(text):
        begin = text.rfind("\n", 0, found.start()) + 1
        if begin == last:
            continue
        last = begin
        end = text.find("\n", found.end())
        lines.append(text[begin:end if end >= 0 else len(text)])
    return lines


def commits_shown(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]]) -> List[str]:
    """`git commit` and `git push` steps the session shows happened (their hashes), for sessions whose tool
    calls are hidden or whose commits a tool made without a shell command (aider's own commits)."""
    hashes: List[str] = []
    pushed = False
    for turn, turn_parts in zip(turns, parts):
        if turn.role != "assistant" or turn_parts is None:
            continue
        hashes.extend(commit for commit, _ in turn_parts.commit_of)
        text = turn.text
        if not holds_any(text, _COMMIT_WORDS):  # substring checks: far cheaper than the pattern
            continue
        lines = _lines_with(_COMMIT_SCAN, text)
        # Several lines that each open on a hash and its message are a history read back (`git log`), not commits made.
        history = len(_LOG_ENTRY.findall(text, 0, 20_000)) >= 2
        for line in lines:
            if history and _LOG_ENTRY.match(line):
                continue
            found = _COMMIT_LINE.match(line.strip())
            if found:
                hashes.append(found.group(1))
            elif _COMMIT_WORD.search(line) and not _EXPECTED.search(line):
                hashes.extend(hash_ for hash_ in _HASH.findall(line) if any(ch.isalpha() for ch in hash_))
        if not pushed and (".." in text or "→" in text or "->" in text) and _RANGE.search(text):
            pushed = any(_RANGE.search(line) for line in _lines_with(_PUSH_WORD, text))
    unique = list(dict.fromkeys(hashes))
    found_steps = []
    if unique:
        found_steps.append("git commit (" + ", ".join(unique[:6]) + (", …" if len(unique) > 6 else "") + ")")
    if pushed:
        found_steps.append("git push")
    return found_steps


# A report in prose that a command ran: the command as inline code, then what came of it on the same line
# ("`npm publish` → 404", "ran `npm test` and `npm run typecheck` — both pass (1,210 tests)").
_INLINE_OUTCOME = re.compile(
    r"(?i)(?:→|->|—|–|:)\s*\**\s*(?:\d{3}\b|\d[\d,]* (?:tests?|passed|passing|failed|files?)|pass(?:ed|es)?\b"
    r"|fail(?:ed|s)?\b|error|ok\b|✓|✅|❌|succeeded|success|exit (?:code )?\d)"
    r"|ผ่าน|成功|通过|通った|통과|прош[её]л|успешно|pas[oó]|passou")


def reported_runs(prose: str) -> List[str]:
    """Commands the reply reports running, with their outcome on the same line."""
    found: List[str] = []
    for line in prose.split("\n"):
        if "`" not in line:
            continue
        spans = [span.strip() for span in _INLINE.findall(line)]
        commands = [span for span in spans if " " in span and ex.is_command_line(span)]
        if not commands:
            continue
        after = line[line.rfind("`") + 1:]
        if _INLINE_OUTCOME.search(after) and not _EXPECTED.search(after):
            found.extend(commands)
    return found
