"""What a user's turn asks, by its shape: a retry ("try again", a chat button's "@agent Try Again") asks for
nothing new, a shell-mode report is the user looking around (the ask, if any, follows it), and a question
that asks the agent to do something ("Can you mask it instead?") is a request, not a side question.
"""

import re

# A retry: the same work again, nothing new asked ("Do this again please", "@agent Try Again", "もう一度お願いします",
# "再试一次", "다시 해 주세요", "еще раз", "otra vez"). A chat button's own text ("@agent Pause: …") is no ask either.
_RETRY = re.compile(
    r"(?i)^(?:@\w+\s+)?(?:(?:please\s+)?(?:try|do (?:it|this|that)|run (?:it|this|that))\s+again(?:\s+please)?"
    r"|retry|again|one more time|pause:.*|continue to iterate\??"
    r"|もう一度(?:お願いします|やって(?:ください)?|試して(?:ください)?)?|再(?:试|来|做)一次|重试|请重试"
    r"|다시 (?:해 ?(?:줘|주세요)|시도(?:해 ?(?:줘|주세요))?)|(?:попробуй )?(?:ещ[её] раз|снова)"
    r"|(?:inténtalo |hazlo )?otra vez|de novo|tente novamente)[\s.!。！]*$")
# Gemini CLI's shell mode writes what the user ran into the user's turn: "I ran the following shell command:"
# with the command and "This produced the following result:" with its output, each in a fenced block.
_SHELL_REPORT = re.compile(
    r"I ran the following shell command:\s*```[^\n]*\n[\s\S]*?```\s*"
    r"(?:This produced the following result:\s*(?:```[^\n]*\n[\s\S]*?```|.*(?:\n.+)*)\s*)?")
# A question that asks the agent to act: "can you mask it instead?", "could you add …?", "能不能把…改成…？",
# "…してもらえますか？", "…해 줄 수 있어요?". Asking it to explain, tell or show is still a side question.
_REQUEST_LATIN = re.compile(
    r"(?i)(?<!how )(?<!why )(?<!what )(?<!where )(?<!when )\b(?:(?:can|could|would|will) you (?:please )?"
    r"(?!explain|tell|show me|clarify|describe|confirm|check|see|help me understand|give me an? (?:overview|summary))"
    r"|(?:can|could) we (?!talk|discuss))\w+|\bhow about (?:adding|making|using|changing)\b")
_REQUEST_WIDE = re.compile(r"(?:て|で)(?:もらえ|くれ|いただけ)(?:ます|ません)?か"
                           r"|能不能(?:帮|把|改|加|给)|可以(?:帮我|把)|能帮我"
                           r"|[어아여려워해] ?(?:줄|주실) 수 (?:있|없)|[어아여려워해] ?(?:줄래|주실래|주시겠)")


def is_retry(text: str) -> bool:
    """A turn that only asks for the same work again."""
    stripped = text.strip()
    return len(stripped) <= 60 and bool(_RETRY.match(stripped))


def without_shell_reports(text: str) -> str:
    """The turn without the shell-mode reports the agent wrote into it: what the user typed themselves."""
    if "I ran the following shell command:" not in text:
        return text
    return _SHELL_REPORT.sub("\n", text).strip()


def requests_work(question: str) -> bool:
    """A question that asks the agent to do something ("Can you mask it instead?")."""
    return bool(_REQUEST_LATIN.search(question) if question.isascii() else
                _REQUEST_WIDE.search(question) or _REQUEST_LATIN.search(question))
