"""Error messages inside a line of someone's own words: the signature an error prints, found wherever it sits.

A user pastes a console or an app's message into a sentence ("when I change the state I get "slurm_update
error: Invalid node state specified"", "系统运行异常: ### Error querying database. Cause: java.sql.
SQLSyntaxErrorException: Unknown column …", "Registration failed: Client error '404 Not Found' for url …").
What marks the message is its shape, not the language around it: a type with its message, a subject and
"error:" or "failed:" before the detail, a console's "Uncaught", an SQLSTATE or HTTP status. The message is
cut out from where it starts, so the item reads as the error and not as the sentence around it.
"""

import re
from typing import List

# Where an error message starts, most telling first.
_TYPED = re.compile(r"(?<![\w.])(?:[a-z_][\w]*\.)*[A-Z][A-Za-z0-9]*(?:Error|Exception)\b:[ \t]+\S")
_UNCAUGHT = re.compile(r"\bUncaught(?: \(in promise\))?[ \t]+\S")
# "Parse error: syntax error…", "slurm_update error: …", "Registration failed: …", "Erro: SQLSTATE[…]",
# "Login failed: 'access_token'": the word for the failure, then the detail after a colon; a lower-case
# "error"/"failed" takes the one word before it that names what failed.
_FAILED = re.compile(r"(?<![\w-])(?:(?:[Ee]rror|ERROR|[Ff]ailed|FAILED|[Ee]rro|[Ff]ehler|[Ee]rreur|[Ff]atal|[Ff]ailure)"
                     r"[ \t]*:[ \t]*['\"\w\[(])")
_SUBJECT = re.compile(r"(?:^|[ \t\"'“(])([A-Za-z][\w.-]*)[ \t]+$")
_CODES = re.compile(r"SQLSTATE\[\w+\]|\b[45]\d\d (?:Not Found|Bad Request|Unauthori[sz]ed|Forbidden|Unprocessable"
                    r"|Internal Server Error|Service Unavailable|Bad Gateway|Conflict|Method Not Allowed)")
# Code that names errors is not an error met: a catch block, a log call, a raise, a string being built.
_CODE = re.compile(r"\b(?:catch|except|raise|throw|console\.\w+|print|logger\.\w+|log\.\w+|new \w+Error)\s*\(|"
                   r"[{};]\s*$|=>|\$\{|^\s*(?:def|function|class|const|let|var|if|return)\b")
# Where a pasted message runs into the next one or into a log's separators.
_END = re.compile(r"[ \t]+###[ \t]|[ \t]+(?:at|@) [\w.<>$]+[ \t(]|\n")
MESSAGE_CHARS = 100


def message_in(line: str) -> str:
    """The error message inside `line`, from where it starts, or "" when the line carries none."""
    if len(line) < 8 or _CODE.search(line):
        return ""
    starts = [found.start() for found in (_TYPED.search(line), _UNCAUGHT.search(line))
              if found is not None]
    if not starts:  # no type named: a subject that failed, or a status code, carries the message
        found = _FAILED.search(line)
        if found is not None:
            subject = _SUBJECT.search(line[:found.start()]) if line[found.start()].islower() else None
            starts = [subject.start(1) if subject else found.start()]
        else:
            found = _CODES.search(line)
            if found is None:
                return ""
            starts = [found.start()]
    message = line[min(starts):]
    cut = _END.search(message)
    message = message[:cut.start()] if cut else message
    message = message.strip()
    if message[-1:] in "\"'”」" and message.count(message[-1]) % 2:
        message = message[:-1].rstrip()  # the quote the user opened before the message, closed after it
    if len(message) < 10 or len(message.split()) < 2:
        return ""  # "Error: x" says nothing a reader can use
    message = shorter_paths(message)
    return message if len(message) <= MESSAGE_CHARS else message[:MESSAGE_CHARS - 1].rstrip() + "…"


def messages_in(text: str) -> List[str]:
    """The error messages of `text`'s lines, in order, each once."""
    found: List[str] = []
    for line in text.split("\n"):
        message = message_in(line.strip())
        if message and message not in found:
            found.append(message)
    return found


# An absolute path in a message: its last parts say which file; the folders above it cost a reader's words.
_LONG_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[\\/][\w.@+-]+){4,}[\\/]?")
_KEPT_PARTS = 3


def shorter_paths(message: str) -> str:
    """`message` with each absolute path of more than three parts cut to its last three ("…/a/b/c.php")."""
    if "/" not in message and "\\" not in message:
        return message

    def cut(found: "re.Match[str]") -> str:
        text = found.group(0)
        if found.start() and not message[found.start() - 1].isspace() and message[found.start() - 1] not in "'\"`(":
            return text  # part of a URL or of a longer token: left whole
        parts = [part for part in re.split(r"[\\/]", text) if part]
        return text if len(parts) <= _KEPT_PARTS + 1 else "…/" + "/".join(parts[-_KEPT_PARTS:])

    return _LONG_PATH.sub(cut, message)
