"""Section rules over the typed calls and the prose of a session: commands, errors (fixed or open),
decisions, results and what is left open. local_summary assembles them.

Each rule reads events (a call's kind, its output, its status) and cue features (cues.py) rather
than any one transcript's wording, so it carries over to agents and languages it was not tuned on.
"""

import functools
import re
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

from . import cues, decision_cues, decision_intents, decision_rank
from . import extraction as ex
from .formats import CHECK, EDIT, EXTERNAL, FAILED, READ, RUN, Call
from .memo import SummaryMemo

__all__ = ["EDIT", "EXTERNAL", "READ", "RUN", "Call"]
from .transcript import TurnParts

# ------------------------------------------------------------------------------------------ commands

# Ids of tool calls (OpenAI `call_…`, Anthropic `toolu_…`): never a command.
_CALL_ID = re.compile(r"\b(?:call|toolu|fc|tool|chatcmpl|msg|run)_[A-Za-z0-9]{8,}\b")


def clean_command(command: str) -> str:
    """A command as shown: no call id, no prompt mark, one line."""
    command = _CALL_ID.sub("", command).strip()
    command = re.sub(r"^(?:\$|%|❯)\s+", "", command)
    return " ".join(command.split()) if "\n" not in command else command.split("\n", 1)[0].strip()


def is_id_only(command: str) -> bool:
    return not _CALL_ID.sub("", command).strip(" `'\"()[]{},:")


# ------------------------------------------------------------------------------------------ errors

# A refusal says more than the error line after it ("! [rejected] main -> main (non-fast-forward)").
_REFUSED = re.compile(r"(?i)\[rejected\]|\b(?:rejected by|denied by|not allowed by|refused by|blocked by"
                      r"|approval policy|sandbox (?:denied|blocked))\b")
# A run that failed without an error line: an exit status, a refusal, a time-out.
_FAILED_RUN = re.compile(
    r"(?i)\b(?:exit(?:ed)? (?:code|status|with)?:? ?[1-9]\d*|command failed|non-zero exit|returned non-zero"
    r"|rejected|denied|not allowed|refused|aborted|timed out|killed)\b")


# What names the error itself (a type and message, an errno, a compiler code), as opposed to the lines
# that only say something failed ("FAIL src/a.test.ts", "npm ERR! code 1", "error: 1 test failed").
_TELLING = re.compile(
    r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b(?!:?\s*$)|\bE[A-Z]{3,}[A-Z_]*\b|\berror\[?E?\d+\]?|fatal:"
    r"|panicked at|not (?:found|defined|a git repository|a function)|cannot |can't |could not |unable to"
    r"|no such |\b(?:undefined|unexpected|invalid|denied|refused|requires?|expected|mismatch|supported|missing)\b"
    r"|is not |failed to|\berror"
    r"|エラー|错误|오류|에러|例外|异常")
_GENERIC = re.compile(r"(?i)^(?:error:\s*)?(?:FAIL(?:ED)?\b|npm ERR! (?:code|errno|A complete log)|error: (?:\d+ "
                      r"|could not compile|process didn't exit successfully|Recipe|script)|exit (?:code|status))")


_JSON_ERROR = re.compile(r"\\?\"error\\?\"\s*:\s*\\?\"([^\"\\]{6,200})")
_EXIT = re.compile(r"(?i)^(?:error: )?exit (?:code|status):? ?[1-9]")
# "Error: <what went wrong>" names the error; "Error: Exit code 1" or "Error: Process completed with exit
# code 1" only says that something failed.
_ERROR_MESSAGE = re.compile(r"^(?:Error|ERROR|error)(?:\[\w-]+\])?:\s*[\w'\"`\[(]")
_ERROR_SAYS_NOTHING = re.compile(r"(?i)^error:\s*(?:exit (?:code|status)|process completed with exit code"
                                 r"|command failed|\d+ errors?\b|script )")
# Lines that only show where an error happened: stack frames, code excerpts ("12|   throw …", "   ^"),
# the test runner's headers ("stderr | a.spec.ts > …").
_NOT_THE_ERROR = re.compile(r"^(?:at\s|File \"|\d{1,6}\s*\||\|\s|\^|~+\^?$|❯\s|stderr \||stdout \||hint:"
                            # the source line a traceback quotes ("raise HTTPError(msg)"): where, not what
                            r"|raise [\w.]+\(|throw new \w)")
# A warning is the error of its run only when it names one ("WARNING: Retrying … NameResolutionError(…)");
# pip's "WARNING: The directory … is not writable" comes before the run's real failure.
_WARNING = re.compile(r"^(?:WARNING|WARN|warning)\b:?")
_NAMED_ERROR = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b")
# A line that names an error of its own (a type and message, an errno, a compiler code): a second error
# of the same run, where "error: failed to push some refs" after "! [rejected]" only echoes the first.
_DISTINCT = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception): \S|^Error: [\w'\"`\[(]|\bE[A-Z]{4,}\b|\berror TS\d+"
                       r"|\berror\[E\d+\]|^[✗×✘]\s")
# Commands that print a file or a diff: what they print is the file, so only their first line (cat's
# "No such file or directory") can be their error; an "error" inside the file is the file's text.
# `cat > f << EOF` writes a file and prints nothing of it: what follows is what the rest of the command printed.
_PRINTS_FILES = re.compile(r"^\s*(?:cat\b(?!\s*(?:>|<<))|(?:head|tail|less|more|bat|type|Get-Content|sed -n|awk|nl"
                           r"|git (?:show|diff|log|blame))\b)")
_DIAGNOSTIC = re.compile(r"^[\w./\\-]+\.[A-Za-z]{1,5}:\d+:\d+:\s+[a-z*]")
# A line of source that a runtime quotes above its error ("const fs = require('fs');"): where, not what.
_CODE_EXCERPT = re.compile(r"^(?:const|let|var|import|from|return|def|function|class|if|for)\b|[;{]$")
# A command-line tool's own failure mark before its message ("✖ Invalid config schema", "⨯ build failed",
# "❌ Deployment failed"): the line that says what went wrong, whatever the tool; "✖ 4 problems (0 errors,
# 4 warnings)" is not one.
_FAILURE_MARK = re.compile(r"^[✖❌⨯]\s*(?!.*\b0 (?:errors?|failed|failures?)\b)\S.{5,}")
# How many distinct errors one run's output may give: a test run can fail on several at once.
_PER_CALL = 3


def _is_telling(line: str) -> bool:
    if _DISTINCT.search(line) and not _ERROR_SAYS_NOTHING.match(line):
        return True  # "FAILED tests/a.py::t - ValueError: …" names its error after the test
    if _ERROR_MESSAGE.match(line):
        return not _ERROR_SAYS_NOTHING.match(line)
    return bool(_TELLING.search(line)) and not _GENERIC.match(line)


@functools.lru_cache(maxsize=2048)  # the same error line comes back on every rerun of a failing step
def error_key(line: str) -> str:
    """Two error lines that differ only in file positions, quoted names or numbers are one error."""
    # Past its head an error line names ids, request numbers and paths: the head says which error it is.
    key = " ".join(_ERROR_NOISE.sub(" ", line.lower()).split())[:_KEY_CHARS]
    # "… '404 Not Found' …" and "… '422 Unprocessable Content' …" are two errors, though only the status differs.
    key += "".join(" " + status for status in _HTTP_STATUS.findall(line))
    if len(key.split()) < 3:  # "KeyError: 'date'" and "KeyError: 'name'": the quoted name is all that tells them apart
        key = " ".join(_NUMBERS.sub(" ", line.lower()).split())[:_KEY_CHARS]
    return key


_NUMBERS = re.compile(r"\d+")
_HTTP_STATUS = re.compile(r"\b[45]\d\d(?= [A-Z][a-z])")


def http_statuses(line: str) -> List[str]:
    """The HTTP failure statuses a line names with their reason ("404 Not Found" -> "404")."""
    return _HTTP_STATUS.findall(line)


_KEY_CHARS = 80


_ERROR_NOISE = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|\S+:\d+(?::\d+)?:?|(?=[0-9a-f-]*\d)[0-9a-f-]{6,}|\d+|'\S*$")


# A program a command ran, reporting its own failure on a line of its own ("ping: bad address 'db'",
# "wget: can't connect to remote host (10.0.0.4): Connection refused", "sh: 1: vite: not found"): the
# shell or the program names itself, then a colon, then what went wrong. Which programs ran is read
# from the command, so "name: text" lines of data (a YAML key, a log field) do not count.
_SHELLS = ("sh", "bash", "zsh", "dash", "ksh", "fish", "(eval)", "/bin/sh", "/bin/bash", "/bin/zsh")
_COMPLAINT = re.compile(
    r"(?i)\b(?:bad|can'?t|cannot|could not|couldn'?t|unable to|not found|no such|refused|denied|invalid|illegal"
    r"|unknown|unrecognized|unreachable|timed out|failed|failure|error|fatal|missing|not permitted|not allowed"
    r"|expired|unauthori[sz]ed|forbidden|is not|does not|did not|not a |too many|not installed)\b")
_SAYS_ITSELF = re.compile(r"^([\w./()+-]{1,40}?)(:\d+)?:\s+(?:(?:line )?\d+:\s+)?(\S.*)$")
_COMMAND_WORD = re.compile(r"[A-Za-z][\w.+-]*")


def programs_of(command: str) -> FrozenSet[str]:
    """The names a command may run under: each word's last path part ("./node_modules/.bin/vite" -> vite)."""
    return frozenset(word.lower() for token in command.replace("/", " ").split()[:60]
                     for word in _COMMAND_WORD.findall(token)[:1])


def program_complaint(line: str, programs: FrozenSet[str]) -> bool:
    """`line` is a program of the command (or the shell) saying what went wrong, in its own words."""
    found = _SAYS_ITSELF.match(line)
    if not found or len(line) > 300:
        return False
    name = found.group(1).lower()
    if name not in _SHELLS and (found.group(2) or name.rsplit("/", 1)[-1] not in programs):
        return False  # "a.ts:330: …" is a place in a file (a match, a finding), not a program speaking
    return bool(_COMPLAINT.search(found.group(3)))


# A step that fails is often run again and prints the same; several rules read a call's errors (the errors,
# commands and done sections): each call's answer is worked out once per summary.
_CALL_ERRORS: "SummaryMemo[Tuple[str, str, Tuple[str, ...], int], List[str]]" = SummaryMemo(4096)


def call_error_lines(call: Call, limit: int = _PER_CALL) -> List[str]:
    """The telling error lines of what a call printed (see _call_error_lines); a new list each time."""
    return list(_CALL_ERRORS.of((call.kind, call.text, tuple(call.output), limit),
                                lambda _: _call_error_lines(call, limit)))


def _call_error_lines(call: Call, limit: int) -> List[str]:
    """The telling error lines of what a call printed, in the order printed, each distinct error once.

    A line that names the error (a type and message, an errno, a refusal) beats the lines that only
    say something failed; without one, the first such line (or a failed exit status) is the error.
    """
    telling: Dict[str, str] = {}
    generic = tally = ""
    after_exit = False  # "Exit code 2" first, then what went wrong
    step = _PREFIX.sub("", call.text)
    output = call.output[:1] if call.kind == RUN and _PRINTS_FILES.match(step) else call.output
    # A build's or a checker's diagnostic says where and what ("a.go:83:29: cannot use …"); a search's
    # "path:line:col: text" is a match, not an error.
    positioned = call.kind == RUN and not LOOKING_STEP.match(step)
    programs = programs_of(step) if call.kind == RUN else frozenset()
    for line in output:
        stripped = line.strip().lstrip("└⎿│┃ ")
        if len(stripped) < 6 or stripped.startswith("Traceback") or _NOT_THE_ERROR.match(stripped):
            continue
        if _WARNING.match(stripped) and not _NAMED_ERROR.search(stripped):
            continue
        if positioned and not telling and _DIAGNOSTIC.match(stripped):
            telling.setdefault(error_key(stripped), stripped)
            continue
        if ex.is_failure_tally(stripped) and len(stripped) < 200:
            tally = stripped  # the run's last count ("Tests 3 failed | 9 passed" after "Test Files …")
            continue
        in_json = _JSON_ERROR.search(stripped) if '"error' in stripped else None
        if in_json:  # a tool's JSON result: {"error": "MCP error -32603: …"}
            telling.setdefault(error_key(in_json.group(1)), in_json.group(1))
        elif _EXIT.match(stripped):
            generic = generic or stripped
            after_exit = True
        elif (_REFUSED.search(stripped) or (not telling and programs and program_complaint(stripped, programs))
              or (not telling and call.kind == RUN and _FAILURE_MARK.match(stripped))):
            telling.setdefault(error_key(stripped), stripped)
        elif ex.is_error_line(stripped) or (after_exit and not telling and _TELLING.search(stripped)
                                           and len(stripped) < 300 and not _CODE_EXCERPT.search(stripped)):
            if telling and not (_DISTINCT.search(stripped) and not _ERROR_SAYS_NOTHING.match(stripped)):
                continue  # after the first error, only a line naming another error, not its echo
            if _is_telling(stripped) or (after_exit and not telling and not _GENERIC.match(stripped)):
                telling.setdefault(error_key(stripped), stripped)
            else:
                generic = generic or stripped
        if len(telling) >= limit:
            break
    found = list(telling.values())
    if tally and len(found) < limit:
        found.append(tally)
    if found:
        return found
    if generic:
        return [generic]
    for line in call.output[:8]:
        if _FAILED_RUN.search(line):
            return [line.strip()]
    return []


def first_error(call: Call) -> str:
    """The first telling line of what a call printed when it failed, else "" (see call_error_lines)."""
    lines = call_error_lines(call, 1)
    return lines[0] if lines else ""


_PREFIX = re.compile(r"^(?:\s*(?:cd|pushd|Set-Location)\s+[^&;|]+(?:&&|;)\s*|\s*[A-Z_][A-Z0-9_]*=\S*\s+)+")


def call_key(call: Call) -> str:
    """Calls with the same key are the same step tried again (`npm run build` after a fix); a leading
    `cd folder &&` or `VAR=1` says where or how, not which step."""
    if call.kind == RUN:
        words = _PREFIX.sub("", call.text).split()
        return " ".join(words[:3]).lower()
    return call.kind + ":" + call.text.lower()


FIXED, OPEN, REFUSED = "fixed", "open", "refused"
# A search or a listing that failed (a mistyped pattern, a folder that is not there): never a step left
# failing at the end, and the first error to give way when there are many.
LOOKING_STEP = re.compile(r"^(?:rg|grep|egrep|find|fd|bfs|ls|tree|cat|head|tail|wc|stat|file|which|type|where)\b")
# A tool call the user or a policy turned down: an error of its own kind, neither fixed nor open later.
_REFUSAL = re.compile(
    r"(?i)doesn'?t want to proceed|user rejected|rejected by the user|approval policy|not approved|declined by"
    r"|permission (?:to use \S+ )?(?:was )?denied by|sandbox (?:denied|blocked)|in plan mode")

_REFUSAL_STEMS = ("want to proceed", "rejected", "approval policy", "not approved", "declined by", "denied by",
                  "sandbox", "in plan mode")


def _may_refuse(line: str) -> bool:
    """A stem every branch of _REFUSAL needs (ASCII lines; the case-blind scan is the costly part)."""
    if not line.isascii():
        return True
    lowered = line.lower()
    return any(stem in lowered for stem in _REFUSAL_STEMS)


class ErrorHit:
    __slots__ = ("key", "line", "source", "status")

    def __init__(self, line: str, source: str, status: str, key: str) -> None:
        self.line = line
        self.source = source
        self.status = status
        self.key = key


def _refusal_line(line: str) -> str:
    """A refusal's first sentence: Claude Code's rejection note goes on about what the agent must do next."""
    first = re.split(r"(?<=[.!。])\s", line, maxsplit=1)[0]
    return first if len(first) >= 12 else line


def call_errors(parts: Sequence[Optional[TurnParts]]) -> List[ErrorHit]:
    """Errors from tool output, each with the call that hit it and whether it was fixed or still open.

    One run may print several distinct errors (a test run failing on three); each is a hit. Fixed: the
    same step ran again later without an error. Open: it is the last try of that step and it came in
    the last quarter of the session's calls. A refused call is marked refused. Otherwise the session
    does not say.
    """
    calls: List[Call] = [call for turn_parts in parts if turn_parts is not None for call in turn_parts.calls]
    last_ok: Dict[str, int] = {}
    last_seen: Dict[str, int] = {}
    failures: List[Tuple[int, List[str]]] = []
    for index, call in enumerate(calls):
        if call.kind not in (RUN, EXTERNAL, EDIT, FAILED, CHECK) and not call.output:
            continue
        key = call_key(call)
        last_seen[key] = index
        if call.kind in (RUN, EXTERNAL, CHECK):
            lines = call_error_lines(call) if call.output else []
        else:  # an edit's or a read's output is the file; only an error in its first line counts
            head = Call(call.kind, call.text)
            head.output = call.output[:1]
            lines = call_error_lines(head, 1) if call.output and (
                call.kind == FAILED or ex.is_error_line(call.output[0])) else []
        if lines:
            failures.append((index, lines))
        else:  # printed no error (or nothing: a quiet success)
            last_ok[key] = index
    hits: List[ErrorHit] = []
    for index, lines in failures:
        call = calls[index]
        key = call_key(call)
        for line in lines:
            if _may_refuse(line) and _REFUSAL.search(line):
                hits.append(ErrorHit(_refusal_line(line), call.text, REFUSED, key))
                continue
            if last_ok.get(key, -1) > index:
                status = FIXED
            elif last_seen.get(key) == index and index >= 0.75 * len(calls) and not LOOKING_STEP.match(key):
                status = OPEN
            else:
                status = ""
            hits.append(ErrorHit(line, _PREFIX.sub("", call.text) or call.text, status, key))
    return hits


_GUESS_HEADING = re.compile(
    r"(?i)\b(?:possible|potential|likely|probable|candidate)\s+(?:causes?|reasons?|culprits?|issues?|explanations?)"
    r"|\bcould be\b|\bmight be\b|原因の候補|考えられる原因|可能的原因|可能原因|가능한 원인|예상 원인")


def without_guess_lists(prose: str) -> str:
    """The prose without the list under a heading of possible causes: guesses, not errors that happened."""
    if not _GUESS_HEADING.search(prose):
        return prose
    kept: List[str] = []
    skipping = False
    for line in prose.split("\n"):
        stripped = line.strip()
        if _GUESS_HEADING.search(stripped) and not _LIST_ITEM.match(stripped):
            skipping = True
            continue
        if skipping and (not stripped or _LIST_ITEM.match(stripped) or line[:1].isspace()):
            continue
        skipping = False
        kept.append(line)
    return "\n".join(kept)


def is_possible_cause(sentence: str) -> bool:
    """"It might be the cache" lists a possible cause; it is not an error that happened."""
    return cues.is_hedged(sentence)


# ------------------------------------------------------------------------------------------ decisions

_NEGATED_CHOICE = re.compile(r"(?i)\b(?:should i|do you want|would you|shall we|if you)\b")


# A tool's report line ("a.go:96:4: QF1012: Use X instead of Y (staticcheck)"): the tool's advice, not a choice.
_REPORT_LINE = re.compile(r"\S\.\w{1,6}:\d+(?::\d+)?:|^\s*\S+:\d+:\d+\b")
# Looking back on a mistake ("I should have asked instead of …") is not a choice the session made.
_REGRET = re.compile(
    r"(?i)\b(?:should have|should've|shouldn't have|i (?:mistakenly|wrongly|incorrectly|assumed)|what i did wrong"
    r"|i got distracted)\b|べきでした|べきだった|本应|本来应该|했어야")
# "X is doing A instead of B", "the code returns A rather than B": how something behaves (a finding about
# a bug), not something chosen; "the issue is that …" too.
_BEHAVES = re.compile(
    r"(?i)\b(?:(?:is|are|was|were|keeps?)\s+(?:\w+ly\s+)?\w+ing|gets?|got|returns?|returned|shows?|showed|contains?"
    r"|treats?|treated|produces?|exits?|exited|currently)\b[^.;:]{0,80}\b(?:instead of|rather than)\b"
    r"|\b(?:the (?:issue|problem|error|bug|cause|failure)|root cause)\b")


_WE = re.compile(r"(?i)\b(?:i|we|i'll|we'll|let's)\b")
_YOU = re.compile(r"(?i)\byou\b")
# Two ways still open ("the imports should be X, or we should use Y") are not a choice made.
_EITHER = re.compile(r"(?i)\bor (?:we|i|it|they) (?:should|could|can|might)\b|\beither\b")
# Emphasis and code marks split the words the cues read ("use **Optuna** to", "keep `certifi` for").
_MARKS = re.compile(r"\*\*|__|`")


def _plain(sentence: str) -> str:
    return _MARKS.sub("", sentence) if ("*" in sentence or "`" in sentence or "__" in sentence) else sentence


def is_decision(sentence: str) -> bool:
    """A choice with its reason, or anything chosen over an alternative ("X instead of Y"), in any of the
    cue languages. A guess, an offer, a regret, a tool's advice line or a description of how a bug behaves
    ("it returns A instead of B") is not a decision."""
    if len(sentence) < 16:
        return False
    sentence = _plain(sentence)
    # The cue checks are gated and cheap; the question and offer tests run only for the few that pass.
    if (cues.gives_verdict(sentence) or cues.marks_recommended(sentence) or decision_cues.marks_chosen(sentence)
            or decision_cues.holds_consequence_pair(sentence)):
        found = True
    elif cues.has_contrast(sentence) or cues.has_fallback_order(sentence):
        found = not (_BEHAVES.search(sentence) and not cues.has_choice(sentence))
    elif cues.has_choice(sentence):
        found = cues.has_reason(sentence) or (cues.names_alternative(sentence) and not _BEHAVES.search(sentence))
    elif decision_cues.keeps_unchanged(sentence):
        found = True  # a scope choice: what is deliberately left as it is
    elif decision_intents.intends_with_reason(sentence):
        found = True  # the agent commits to a way and says why
    elif ((cues.has_reason(sentence) or decision_cues.warns_of_failure(sentence))
          and (cues.names_alternative(sentence) or cues.states_rule(sentence))):
        # "since the links are relative, we don't need the prefix"; "the server must ship first, or old ones fail"
        found = (bool(_WE.search(sentence) or cues.states_rule(sentence)) and not cues.is_user_task(sentence)
                 and not _YOU.search(sentence) and not _EITHER.search(sentence))
    else:
        return False
    if not found or ex.is_question(sentence) or _NEGATED_CHOICE.search(sentence):
        return False
    # The exclusions are read only for the few sentences that look like a decision.
    return not (cues.is_hedged(sentence) or _REPORT_LINE.search(sentence) or _REGRET.search(sentence))


# Who chooses: the agent or the team ("I'll use", "we keep", "let's"), or a state the work is now in ("now uses").
_CHOOSER = re.compile(r"(?i)^(?:[-*•]\s*)?(?:\*\*[^*]{1,60}\*\*:?\s*)?(?:i|we|let'?s|i'?ll|we'?ll|i'?m|we'?re|i'?ve"
                      r"|we'?ve)\b|\bnow (?:use|uses|using|keeps?|returns?|reads?|writes?|has|is)\b|\bdeliberately\b"
                      r"|\bintentionally\b|\bon purpose\b")


def decision_strength(sentence: str) -> int:
    """How surely a decision sentence records a choice: 3 a choice with its reason and alternative, or said
    by whoever chose; 2 a choice with a reason or an alternative; 1 only an alternative or an order."""
    sentence = _plain(sentence)
    if decision_rank.offered_only(sentence):
        return 1
    if cues.gives_verdict(sentence) or decision_cues.marks_chosen(sentence):
        return 3
    choice = cues.has_choice(sentence)
    backed = (cues.has_reason(sentence) or cues.has_contrast(sentence) or cues.has_fallback_order(sentence)
              or cues.names_alternative(sentence))
    chooser = bool(_CHOOSER.search(sentence)) or decision_rank.chooser_wide(sentence)
    if choice and backed and (chooser or (cues.has_reason(sentence) and cues.has_contrast(sentence))):
        return 3
    if (choice and backed) or chooser:
        return 2
    return 1


def is_user_choice(sentence: str) -> bool:
    """A choice the user states: a decision by the usual cues, one way turned down and the other named
    ("we don't need backward compatibility, just migrate the records"), or a rule for the work ("it should
    always create the thread", "the only thing mocked is the LLM", "不要使用外部网络请求")."""
    if ex.is_question(sentence) or len(sentence) < 16 or len(sentence) > 300:
        return False
    return is_decision(sentence) or ((cues.rejects_and_replaces(sentence) or cues.states_rule(sentence)
                                      or decision_cues.user_picks(sentence)
                                      or decision_cues.states_preference(sentence))
                                     and not cues.is_hedged(sentence))


def user_choice_strength(sentence: str) -> int:
    """How surely a user's sentence records a choice: 3 with a reason or a way turned down, 2 a bare rule
    ("don't use placeholders"): a long session's user sets many rules, and its choices with reasons rank first."""
    if (is_decision(sentence) or cues.rejects_and_replaces(sentence) or cues.has_reason(sentence)
            or decision_cues.states_preference(sentence)):
        return 3
    return 2


def is_limit_finding(sentence: str) -> bool:
    """A limit the work ran into, with its reason: "the browser does not expose the history, for privacy",
    "出于隐私考虑，浏览器不允许读取其他网站的记录"; it steers what is built."""
    if "\\n" in sentence or _CONDITIONAL.match(sentence):  # a tool's escaped text; "if I can't …" is no limit met
        return False
    return (cues.has_reason(sentence) and decision_cues.states_limit(sentence) and not ex.is_question(sentence)
            and not cues.is_user_task(sentence) and not _WEIGHING.search(sentence))


_CONDITIONAL = re.compile(r"(?i)^\W*(?:if|unless|when|once|whether)\b|^\W*(?:如果|もし|만약)")
_WEIGHING = re.compile(r"(?i)\b(?:considering|thinking about|wondering)\b")


def is_consequence_pair(finding: str, choice: str) -> bool:
    """A finding that limits the work and the choice drawn from it in the next sentence: "graphics_items.py
    does not exist. So I'll make the changes in canvas.py." Neither may be a question, an offer or a guess."""
    if not decision_cues.draws_consequence(choice) or not decision_cues.states_limit(finding):
        return False
    return not any(ex.is_question(part) or _NEGATED_CHOICE.search(part) or cues.is_hedged(part)
                   for part in (finding, choice))


def is_decision_pair(choice: str, reason: str) -> bool:
    """A choice in one sentence and its reason in the next, in the same reply: "Install certifi in the venv.
    This makes the project self-contained." Neither may be a question, an offer or a guess."""
    if not cues.gives_reason_for_previous(reason) or not cues.has_choice(choice):
        return False
    return not any(ex.is_question(part) or _NEGATED_CHOICE.search(part) or cues.is_hedged(part)
                   for part in (choice, reason))


# ------------------------------------------------------------------------------------------ results

# Headings over a list of results: each item is a result ("## Summary", "Changes made:", "What landed",
# "Here's a summary of what changed:", "O que foi feito:", "変更内容", "완료된 작업"). Searched in the heading
# without its marks, emoji and exporters' emoji placeholders ("[OK]", "[EMOJI]").
_RESULT_CUE = re.compile(
    r"(?i)\b(?:summary|changes?(?: made)?|changed|what (?:i|we) (?:did|built|fixed|added)|what (?:was|got) done"
    r"|landed|shipped|done|completed?|implemented|implementation|fixes (?:applied|made)|fixed|results?|deliverables"
    r"|accomplished|created|added|updated|modified|resolved|new files|verified|passed|succeeded"
    r"|итог\w*|изменени\w*|сделано|выполнено|resumen|cambios|realizad\w*|hecho|resumo|altera\w*|feito|conclu\w*)\b"
    r"|\bthis change\b|变更|修改|完成|实现|总结|修复|変更|実装|完了|まとめ|対応内容|修正内容|作成した"
    r"|변경|구현|완료|수정 사항|작업 내용|요약")
# A heading over what is still to come is not over results ("Next steps", "Proposed changes", "Plan").
_AHEAD_CUE = re.compile(
    r"(?i)\b(?:next|remaining|todo|to do|plan(?:ned|s)?|propos\w*|suggest\w*|options?|recommend\w*|should|will"
    r"|would|could|needed|need|required|steps to|how to|before|unchanged|not (?:done|changed|implemented)"
    r"|make sure|ensure|try|check|if|you|to (?:fix|resolve|solve)|possible|potential|may|might)\b"
    r"|次の|予定|提案|今後|下一步|计划|建议|待|다음(?!과)|계획|제안|남은|следующ\w*|próximos?|siguientes?")
_HEADING_MARKS = re.compile(r"\[[A-Z]{2,8}\]|[\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d]|[\U0001F000-\U0001FAFF]")
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+(.+)$")
# Reports of looking, not of a result: "I checked the requirements", "確認しました".
_LOOKING = re.compile(r"(?i)^(?:i |we )?(?:checked|verified|confirmed|reviewed|read|looked|inspected|examined)\b"
                      r"|^[^。]{0,14}(?:を)?(?:確認|チェック|检查|查看|확인)(?:しました|了|했습니다)")


def _heading(line: str) -> Tuple[int, str]:
    """(level, words) of a heading: `#` headings by their depth, a bold line or a short line that ends on a
    colon as 9 (it heads only the list under it); (0, "") for any other line."""
    stripped = line.strip()
    if stripped.startswith("#"):
        level = len(stripped) - len(stripped.lstrip("#"))
        text = stripped[level:]
    elif len(stripped) <= 100 and not _LIST_ITEM.match(stripped) and (
            stripped.endswith((":", "：")) or (stripped.startswith("**") and stripped.rstrip(":：").endswith("**"))):
        level, text = 9, stripped
    elif _lead_in(stripped):
        level, text = 9, stripped.rstrip(".!。！")
    else:
        return 0, ""
    return level, " ".join(_HEADING_MARKS.sub(" ", text).replace("*", " ").strip(" :：").split())


# A short sentence that announces the list under it ("Done.", "Here's what I changed.", "Готово.", "以下の修正を
#行いました。", "已完成以下修改。"): it heads that list as a line ending on a colon would.
_LEAD_IN_END = re.compile(r"[.!。！]$")
_LEAD_IN_WORDS = 12
_LEAD_IN_CHARS = 40


def _lead_in(line: str) -> bool:
    if not _LEAD_IN_END.search(line) or _LIST_ITEM.match(line):
        return False
    short = len(line.split()) <= _LEAD_IN_WORDS if line.isascii() else len(line) <= _LEAD_IN_CHARS
    return short and _heads_results(" ".join(_HEADING_MARKS.sub(" ", line).replace("*", " ").split()))


def _heads_results(words: str) -> bool:
    return bool(words) and bool(_RESULT_CUE.search(words)) and not _AHEAD_CUE.search(words)


def result_lists(prose: str) -> List[str]:
    """Items of lists under a results heading (the agent's own account of what it achieved).

    A `#` results heading holds until the next heading of its depth or higher, across the sub-headings
    and paragraphs inside it (a heading of what is still to come inside it stops it); a bold line or a
    line that ends on a colon heads only the list right under it. Only a list's own items are taken:
    deeper items are details of the item above them.
    """
    lists: List[List[str]] = []  # each list's own items, in order
    section = 0  # the depth of the `#` results heading being read, 0 outside one
    under = False  # reading a list under a results heading
    top = -1  # the indent of the list's own items
    header_seen = False  # a table's first row (its column names) was read
    lead = False  # the line before was a lead-in over results ("Done:", "Here's what changed.")
    for line in prose.split("\n"):
        stripped = line.strip()
        if not stripped:
            continue
        item = _LIST_ITEM.match(stripped)
        if item is None and stripped.startswith("|") and (under or section):
            # A table under a results heading: each row is a result, its cells joined ("check — passed").
            cells = [cell.strip() for cell in stripped.strip("|").split("|")]
            if any(cell.strip("-: ") for cell in cells) and not header_seen:
                header_seen = True  # the first row names the columns
            elif any(cell.strip("-: ") for cell in cells):
                lists.append([" — ".join(cell for cell in cells if cell)])
            continue
        header_seen = False
        if item is None:
            level, words = _heading(stripped)
            if level:
                if level < 9 and section and level <= section:
                    section = 0  # a heading of the same depth or higher ends the results section
                results = _heads_results(words)
                if level < 9 and results and not section:
                    section = level
                elif level < 9 and lead and not section and not _AHEAD_CUE.search(words):
                    # "Done:" right over "### Backend", "### UI": the lead-in heads every part under it.
                    section = level - 1 if level > 1 else level
                lead = level == 9 and results
                under = results or (bool(section) and not _AHEAD_CUE.search(words))
                if section and level < 9 and _AHEAD_CUE.search(words):
                    section, under = 0, False
                top = -1
            elif not section:
                under = False
            if not level:
                lead = False
            continue
        if under or section:
            indent = len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())
            if top < 0 or indent < top:
                top = indent
                lists.append([])
            if indent <= top and _is_result_item(item.group(1)):
                lists[-1].append(item.group(1))
        lead = False
    return [item for items in lists for item in _dense(items)]


# A list item that warns or reports a failure ("[WARN] Push blocked", "❌ Deploy failed") is not a result.
_NOT_DONE_MARK = re.compile(r"^(?:\*\*)?(?:\[(?:WARN|WARNING|ERRO|ERROR|FAIL|FAILED|TODO|X)\]|⚠|❌|✗|🚧|⏳)")


# An item that tells the reader what to do ("Verify the build", "Tag triggers: Ensure tags still fire") is a
# check left to someone, not a result; a short label before a colon does not change that.
_INSTRUCTION = re.compile(r"(?i)^(?:[^:]{1,40}:\s*)?(?:verify|ensure|check|make sure|confirm|consider|try|review"
                          r"|remember|don't forget|you (?:can|should|need|must))\b")


def _is_result_item(item: str) -> bool:
    stripped = item.strip().replace("**", "")
    # "Final checks:" only heads the items under it; "Column widths: fixed for every column:" says something.
    short = len(stripped.split()) <= 4 if stripped.isascii() else len(stripped) <= 16
    label = short and stripped.endswith((":", "：")) and not ex.is_action(stripped.rstrip(":：") + ".")
    return not label and not _NOT_DONE_MARK.match(stripped) and not _INSTRUCTION.match(stripped)


_FIELD = re.compile(r"^[^:：=]{1,30}[:：=]\s*\S")
# Items this short are fields of one result ("File: a.md", "Size: 226 MiB"): they are read as one bullet.
_FIELD_WORDS = 7
_DENSE_WORDS = 60


def _dense(items: List[str]) -> List[str]:
    """A list's items, with runs of three or more short items joined into one bullet ("File: a.md; Size: 2 MB;
    Pushed: yes"): one result told in fields is one item, and it leaves room for the session's other results."""
    def words(item: str) -> int:
        field = _FIELD.match(item)
        value = item[field.end() - 1:] if field else ""
        if not field or (len(value.split()) > 4 if value.isascii() else len(value) > 14):
            return _FIELD_WORDS + 1  # a sentence is a result of its own; only "label: short value" is a field
        return len(item.split()) if item.isascii() else (len(item) + 2) // 3

    out: List[str] = []
    run: List[str] = []
    for item in [*items, None]:
        if item is not None and words(item) <= _FIELD_WORDS and sum(words(part) for part in run) < _DENSE_WORDS:
            run.append(item.strip())
            continue
        if len(run) >= 3:
            out.append("; ".join(part.rstrip(".;。") for part in run))
        else:
            out.extend(run)
        run = []
        if item is not None:
            if words(item) <= _FIELD_WORDS:
                run.append(item.strip())
            else:
                out.append(item)
    return out


# Work announced, not done: "I'll set up the suite", "Let me add", "Now I'm going to fix", "次に…します".
_INTENT = re.compile(r"(?i)^(?:(?:now|next|first|then|so),? )?(?:i'll|i will|we'll|we will|let me|let's|i'm going to"
                     r"|i am going to|we're going to|i need to|we need to|going to)\b|(?:します|しましょう)。?$"
                     r"|(?:하겠습니다|하겠음|할게요|하겠어요|겠습니다)[.!~ ]*\W*$|^(?:我将|我会|接下来|下面我|让我)")
# "7 failed", "1 new failure": where the work stands with failures left is not where it ended up done.
_FAILURES_LEFT = re.compile(r"(?i)\b[1-9]\d* (?:new )?(?:failed|failures?|failing|errors?)\b|^(?:if|once|when|after)\b"
                            r"|\b(?:let me|i'll|i will|we'll|but)\b")


# A to-do tool's own record ("Updated todo list", "Created 3 todos") tracks the work; it is not a result.
_TODO_RECORD = re.compile(r"(?i)^(?:updated|created|added|completed|marked)\b.{0,20}"
                          r"\b(?:todos?|to-dos?|todo list|task list)\b")


# A short Japanese report without a case particle names no object: a fragment, not a result.
_KANA = re.compile(r"[\u3040-\u30ff]")
_JA_OBJECT = re.compile(r"[をがはにへ]|[A-Za-z0-9_./-]{3,}")


def is_result(sentence: str) -> bool:
    """A reported action that says what it achieved; not "I checked …", not a two-word fragment."""
    cleaned = ex.clean_item(sentence)
    if _LOOKING.search(cleaned) or _INTENT.search(cleaned) or _TODO_RECORD.search(cleaned):
        return False
    if cleaned.isascii():
        return len(cleaned.split()) > 2
    if len(cleaned) < 20 and _KANA.search(cleaned) and not _JA_OBJECT.search(cleaned) and "`" not in cleaned:
        return False  # "ローカルでコミット済みです。": done, but to what is not said
    return len(cleaned) >= 12


# A sentence that states where the work ended up: done, passing, working ("The import screen is done",
# "842 passed, 0 failed", "✅ chat_0805.md에 저장되었음", "ビルドが成功しました", "已完成").
_OUTCOME_LATIN = re.compile(
    r"(?i)\b(?:is|are|was|were|now|all) (?:now )?(?:done|complete|completed|finished|fixed|working|resolved|in place"
    r"|live|green|passing|clean|ready)\b"
    r"|\ball (?:\w+ )?(?:of the )?(?:tests?|checks?|steps?|failures?) (?:now )?(?:pass\w*|fixed|succeeded)\b"
    r"|\b\d+ (?:tests? )?passed\b|\b0 (?:failed|failures|errors|issues|offenses)\b|\bsuccessfully\b|\bsucceeded\b"
    r"|\b(?:готово|успешно|completad[oa]|exitosamente|conclu[íi]d[oa]|com sucesso|funcionando|resolvid[oa])\b")
_OUTCOME_WIDE = re.compile(
    r"完了しました|完成しました|成功しました|できました|解決しました|通りました|完了です|これで.{0,30}(?:解決|できます|なります)"
    r"|已完成|完成了|成功|解决了|已解决|通过了|全部通过|(?:这样|现在)就?(?:可以|能够?|解决)|(?:我们|我)已?经?[\u4e00-\u9fff]{1,4}了"
    r"|완료되었|완료했|완료됨|성공적으로|성공했|해결되었|해결됩니다|통과|이제 .{0,40}(?:됩니다|수 있습니다)")
_OUTCOME_MARK = re.compile(r"^\W{0,3}(?:✅|✔|☑|\[OK\])")
_OUTCOME_GATE = re.compile(
    r"done|complet|finish|fixed|working|resolved|in place|live|green|pass|clean|succe|ready|0 |\[ok\]")


def is_outcome(sentence: str) -> bool:
    """A statement of where the work ended up (done, passing, working); not a guess, a question or a hope
    ("should work now" is left open, not done)."""
    if sentence.isascii():
        lowered = sentence.lower()
        if not _OUTCOME_GATE.search(lowered):
            return False  # the cheap test first: most sentences state no outcome at all
        if not (_OUTCOME_LATIN.search(sentence) or _OUTCOME_MARK.match(sentence.strip())):
            return False
    elif not (_OUTCOME_WIDE.search(sentence) or _OUTCOME_LATIN.search(sentence)
              or _OUTCOME_MARK.match(sentence.strip())):
        return False
    cleaned = ex.clean_item(sentence)
    if len(cleaned) < 12 or _INTENT.search(cleaned) or _FAILURES_LEFT.search(cleaned):
        return False
    return not (ex.is_question(sentence) or cues.is_hedged(sentence) or cues.expects_unverified(sentence))


# An edit call's text that is a path (not a JSON fragment a transcript left where the path should be).
_PATH_LIKE = re.compile(r"^[^\s{}\[\]\"'<>|]+$")


def edited_evidence(parts: Sequence[Optional[TurnParts]]) -> List[str]:
    """Files the session's tools edited, in order, once each."""
    seen: Dict[str, None] = {}
    for turn_parts in parts:
        if turn_parts is not None:
            for call in turn_parts.calls:
                if call.kind == EDIT and call.text and _PATH_LIKE.match(call.text):
                    seen.setdefault(call.text, None)
    return list(seen)


def group_by_folder(paths: Sequence[str], limit: int = 6) -> str:
    """A few files by their paths; many as `src/` a.py, b.py, c.py; `tests/` test_a.py."""
    if len(paths) <= 8:
        return ", ".join("`" + path + "`" for path in paths)
    folders: Dict[str, List[str]] = {}
    for path in paths:
        folder, _, name = path.replace("\\", "/").rpartition("/")
        folders.setdefault(folder, []).append(name)
    pieces = []
    for folder, names in folders.items():
        listed = ", ".join(names[:limit]) + (", …" if len(names) > limit else "")
        pieces.append(("`" + folder + "/` " if folder else "") + listed)
    return "; ".join(pieces)


# What a call's own output shows it did: a commit git made ("[main 5a01806] fix: …"), a ref a push moved
# ("   ff6065a..65d6cf6  master -> master", "* [new branch] feat -> feat"), the remote it went to.
_COMMITTED = re.compile(r"^\[([\w./-]+)(?: \(root-commit\))? ([0-9a-f]{7,40})\] (.+)$")
_PUSHED = re.compile(r"^\s*[+*]?\s*(?:[0-9a-f]{7,40}\.{2,3}[0-9a-f]{7,40}|\[new (?:branch|tag)\])\s+\S+\s+->\s+(\S+)")
_PUSHED_TO = re.compile(r"^To (\S+)")
# Tool calls that change something outside the session (MCP pushes, repositories, pull requests, releases).
_ACTING_TOOL = re.compile(r"(?i)push|create_(?:repository|pull_request|branch|or_update_file|release)|merge|deploy"
                          r"|publish|commit|upload")


def acted(call: Call) -> Tuple[str, str, str]:
    """("committed", commit and message, "") or ("pushed", ref, remote) when the call's own output shows it,
    ("acted", tool name, "") for an acting tool call that printed no error; ("", "", "") otherwise."""
    if call.kind == RUN and "git" in call.text and call.output:
        if "commit" in call.text:
            for line in call.output[:8]:
                committed = _COMMITTED.match(line.strip())
                if committed:
                    return "committed", committed.group(2)[:7] + " " + committed.group(3).strip(), ""
        if "push" in call.text and not first_error(call):
            remote = ""
            for line in call.output[:60]:
                to = _PUSHED_TO.match(line.strip())
                remote = to.group(1) if to else remote
                pushed = _PUSHED.match(line)
                if pushed:
                    return "pushed", pushed.group(1), remote or "origin"
    elif call.kind == EXTERNAL and _ACTING_TOOL.search(call.text) and not first_error(call):
        return "acted", call.text, ""
    return "", "", ""


# A commit message the agent wrote out for the user: a block whose first line is a conventional subject
# ("fix: resolve 7 failing tests") or a `git commit -m "…"` line shown (not run), or any short first line
# of a plain block in a reply that speaks of a commit message.
_COMMIT_SUBJECT = re.compile(
    r"^(?:feat|fix|chore|docs|refactor|test|tests|style|perf|build|ci|revert)(?:\([^)]*\))?!?: \S.{3,}")
_COMMIT_COMMAND = re.compile(r"\bgit\s+commit\b[^\n]*?-m\s+[\"']([^\"'\n]{6,})")
_COMMIT_WORDS = re.compile(r"(?i)commit message|コミットメッセージ|提交信息|提交消息|커밋 메시지")
_PLAIN_BLOCK = frozenset(("", "text", "txt", "git", "commit", "gitcommit", "plaintext"))


def commit_message(text: str, blocks: Sequence[Tuple[str, str]]) -> str:
    """The subject line of a commit message a reply wrote out, or ""."""
    spoken = bool(_COMMIT_WORDS.search(text))
    for language, code in blocks:
        first = next((line.strip() for line in code.split("\n") if line.strip()), "")
        command = _COMMIT_COMMAND.search(first)
        subject = command.group(1).strip() if command else first
        if _COMMIT_SUBJECT.match(subject) or (spoken and (command or language.lower() in _PLAIN_BLOCK)
                                               and 6 <= len(subject) <= 100 and not subject.startswith(("$", "#"))
                                               and not (subject.isascii() and _PATH_LIKE.match(subject))  # one token
                                               and not _LIST_ITEM.match(subject) and not _FIELD.match(subject)
                                               and not _OUTCOME_MARK.match(subject)):
            return subject
    return ""


# ------------------------------------------------------------------------------------------ open

# "You don't need to upload it manually", "手動でアップロードする必要がない": the opposite of a task for the user.
_NO_NEED = re.compile(r"(?i)\b(?:no need|(?:do not|don'?t|won'?t) (?:need|have) to|not (?:need|required))\b"
                      r"|必要(?:が|は)?(?:ない|ありません)|不(?:需要|必)|필요(?:가|는)? 없|필요하지 않")


def open_kind(sentence: str) -> str:
    """What a sentence near the end leaves open: "stub", "user_task", "deferred", "unverified", or ""."""
    if cues.expects_unverified(sentence):  # "Push and re-run should work now": nobody saw it work
        return "unverified"
    if ex.is_action(sentence) and not cues.mentions_stub(sentence):
        return ""
    if cues.mentions_stub(sentence) and not re.search(r"(?i)\bno (?:stubs?|todos?|placeholders?)\b", sentence):
        return "stub"
    if cues.is_user_task(sentence) and not _NO_NEED.search(sentence):
        return "user_task"
    if cues.has_deferral(sentence):
        return "deferred"
    return ""


# ------------------------------------------------------------------------------------------ files

_CD = re.compile(r"^\s*(?:cd|Set-Location|pushd)\s+(?:-\w+\s+)?(['\"]?)([^'\"&;|]+?)\1\s*(?:$|&&|;|\|)")


def project_root(parts: Sequence[Optional[TurnParts]]) -> str:
    """The folder to show paths from when the host does not say where the session worked: the parent of
    the folder that every absolute path the tools touched (and every folder they `cd`ed into) shares, so
    a path keeps its project folder's name (`specstory-cli/pkg/a.go`) and is never shown as if it sat at
    a root it does not."""
    import posixpath

    absolute: List[str] = []
    for turn_parts in parts:
        if turn_parts is None:
            continue
        for call in turn_parts.calls:
            if call.kind == RUN:
                moved = _CD.match(call.text)
                target = moved.group(2).strip().replace("\\", "/").rstrip("/") if moved else ""
                if target.startswith("/"):
                    absolute.append(target + "/")
            elif call.kind in (EDIT, READ) and call.text.startswith("/"):
                absolute.append(call.text)
    if not absolute:
        return ""
    common = posixpath.commonpath(absolute) if len(absolute) > 1 else posixpath.dirname(absolute[0].rstrip("/"))
    if absolute[0].endswith("/") and len(set(absolute)) == 1:
        common = absolute[0].rstrip("/")
    parent = posixpath.dirname(common)
    return parent if parent.count("/") >= 2 else ""


def working_folders(parts: Sequence[Optional[TurnParts]], cwd: str) -> Dict[int, str]:
    """For each call (numbered across the session), the folder it ran in relative to `cwd`, after `cd`s."""
    import posixpath

    base = cwd.replace("\\", "/").rstrip("/")
    current = ""
    where: Dict[int, str] = {}
    number = 0
    for turn_parts in parts:
        if turn_parts is None:
            continue
        for call in turn_parts.calls:
            where[number] = current
            number += 1
            if call.kind != RUN:
                continue
            moved = _CD.match(call.text)
            if call.folder:  # a fresh shell in a named folder: its `cd` is its own, the next call starts over
                here = call.folder.replace("\\", "/").rstrip("/")
                here = here[len(base):].lstrip("/") if base and (here == base or here.startswith(base + "/")) else ""
                if moved and not moved.group(2).strip().startswith(("/", "~")):
                    here = posixpath.normpath(posixpath.join(here, moved.group(2).strip())).lstrip("./")
                where[number - 1] = "" if here == "." else here
                continue
            if not moved:
                continue
            target = moved.group(2).strip().replace("\\", "/").rstrip("/")
            if target.startswith("/"):
                if base and (target == base or target.startswith(base + "/")):
                    current = target[len(base):].lstrip("/")
                else:
                    current = ""  # outside the session's folder: paths stay as written
            elif target and not target.startswith("~"):
                current = posixpath.normpath(posixpath.join(current, target)).lstrip("./")
                if current == ".":
                    current = ""
            if call.text.strip().startswith(moved.group(0).strip()) and "&&" in call.text:
                where[number - 1] = current  # `cd sub && npm test` runs in sub
    return where


def relative_to(path: str, folder: str, cwd: str) -> str:
    """A tool's path as seen from the session's folder: inside `folder` when relative, trimmed when absolute."""
    path = path.strip().strip("`'\"").replace("\\", "/")
    base = cwd.replace("\\", "/").rstrip("/")
    if base and path.startswith(base + "/"):
        return path[len(base) + 1:]
    if path.startswith(("/", "~")) or re.match(r"^[A-Za-z]:/", path) or not folder:
        return path
    while path.startswith("./"):
        path = path[2:]
    if path.startswith(folder + "/"):
        return path
    return folder + "/" + path


_COPY = re.compile(r"^\s*(cp|copy|Copy-Item|mv|move|Move-Item|git mv)\s+(?:-\w+\s+)*(\S+)\s+(\S+)\s*$")


def copies_and_moves(commands: Sequence[str]) -> Dict[str, Tuple[str, str]]:
    """target path → ("copied" or "moved", source) for `cp`/`mv` commands that ran."""
    found: Dict[str, Tuple[str, str]] = {}
    for command in commands:
        for piece in command.split("&&"):
            move = _COPY.match(piece)
            if move:
                verb = "moved" if move.group(1).lower() in ("mv", "move", "move-item", "git mv") else "copied"
                found[move.group(3).strip("'\"")] = (verb, move.group(2).strip("'\""))
    return found
