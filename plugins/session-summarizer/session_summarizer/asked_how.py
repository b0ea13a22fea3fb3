"""A user's ask that asks how to do something ("how do I install that?", "bagaimana penerapannya", "どうやって
入れる？", "怎么安装", "어떻게 설치해?"): the reply's commands are the answer, steps for the user to take, and a
later "ok" goes on with the conversation; it does not make those commands run."""

import re

# "how do/can/should I …", "how to …", "what command …" and the same asks in the languages the rules read.
_HOW = re.compile(
    r"(?i)\bhow (?:do|can|should|would|could) (?:i|we|you)\b|\bhow to\b|\bwhat (?:command|commands) (?:do|should)\b"
    r"|\b(?:bagaimana|gimana|caranya|cómo (?:hago|puedo|se)|como (?:faço|posso|se faz)|как (?:мне|это|сделать"
    r"|установить|запустить))\b|どうやって|どうすれば|どのように|怎么|如何|怎样|어떻게")
_HEAD_CHARS = 400


def asks_how(ask: str) -> bool:
    """Whether the ask (its opening) asks how to do something."""
    return bool(_HOW.search(ask[:_HEAD_CHARS]))
