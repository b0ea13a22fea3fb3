"""Steps the session's final reply leaves for the user: its shell blocks that no tool call ran, each with the
sentence that introduces it ("2. Build the WASM executable:", "Ahora necesito que actualices el Build Command:").

A command the closing reply only shows, and that no tool call ran, is the user's to run: nothing came after it.
This reads who spoke last and which commands ran, not the reply's wording.
"""

import re
from typing import Callable, List, Optional, Sequence

from . import extraction as ex
from .formats import RUN
from .session import Turn
from .transcript import TurnParts

_SHELL = ("bash", "sh", "shell", "zsh", "console", "powershell", "ps1", "cmd", "terminal", "fish", "")
_FENCE = ("```", "~~~")
# A block the reply offers as an extra, not as a step: "you can also …", "optionally", "if you want", "for example".
_OPTIONAL = re.compile(
    r"(?i)\b(?:(?:can|could|may) also|also (?:run|use|try)|optional(?:ly)?|if you (?:want|like|prefer|wish|need)"
    r"|for example|e\.g\.|también (?:puedes|podés|se puede)|si (?:quieres|prefieres)|também (?:pode|dá)|se quiser"
    r"|(?:vous )?pouvez aussi|можно также|при желании)\b"
    r"|必要(?:であれば|なら|に応じて)|お好みで|例えば|こともできます|也可以|如果(?:需要|你想|您想)|可选|例如|원하시면|필요하면"
    r"|선택적으로|예를 들어|수도 있습니다")


def _final_reply(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]],
                 ask_of: Callable[[str], str]) -> int:
    """The assistant's last turn with words when the session ends on it (no ask after it); else -1."""
    for index in range(len(turns) - 1, -1, -1):
        turn_parts = parts[index]
        if turn_parts is None:
            if ask_of(turns[index].text):
                return -1
            continue
        if turn_parts.prose.strip():
            return index
    return -1


def _runs(command: str) -> List[str]:
    """A command's steps, each reduced to its words ("a && b | c" is a, b, c)."""
    return [" ".join(step.split()) for step in re.split(r"&&|\|\||;|\|", command) if step.strip()]


def left_in_final_reply(turns: Sequence[Turn], parts: Sequence[Optional[TurnParts]],
                        ask_of: Callable[[str], str], ran_elsewhere: Sequence[str] = ()) -> List[str]:
    """"`command` — the sentence that introduces it" for each shell block of the final reply whose first command
    never ran (`ran_elsewhere`: the commands the session shows ran, however it shows them); at most _SHOWN.
    In a chat that shows no command running, only blocks the reply introduces as steps."""
    ran = [" ".join(call.text.split()) for turn_parts in parts if turn_parts is not None
           for call in turn_parts.calls if call.kind == RUN] + [" ".join(command.split()) for command in ran_elsewhere]
    # A chat whose agent shows no tool at work: a block may be what ran unseen ("added a test: …" over it), so
    # only a block the reply introduces as a step (its line ends on a colon: "How to use:", "1. Build it:") counts.
    chat = not ran and not any(turn_parts is not None and turn_parts.calls for turn_parts in parts)
    last = _final_reply(turns, parts, ask_of)
    if last < 0:
        return []
    text = turns[last].text
    found: List[str] = []
    for language, code in parts[last].blocks:  # type: ignore[union-attr]
        if language.strip().lower() not in _SHELL or not code.strip():
            continue
        # The block's first command that does something (a `cd` only says where the next one runs).
        commands = [command for command in ex.find_commands("", [(language.strip().lower(), code)])
                    if not re.match(r"^(?:cd|pushd|Set-Location)\b", command)][:1]
        if not commands and language.strip():
            # A block labelled as shell holds commands whatever program it names ("wasm32-wasi-cabal build").
            commands = [line.strip() for line in code.split("\n") if line.strip()
                        and not line.strip().startswith("#") and not re.match(r"^(?:cd|pushd)\b", line.strip())][:1]
        if not commands:
            continue
        command = commands[0]
        if all(any(step in done for done in ran) for step in _runs(command)):
            continue  # shown again after it ran (how to repeat it), not left to run
        at = text.rfind(code)  # the reply's own block, not the same text in its thinking before it
        lead = [line.strip() for line in text[max(0, at - _LEAD_CHARS):max(0, at)].split("\n")
                if line.strip() and not line.strip().startswith(_FENCE)]
        if chat and not (lead and lead[-1].rstrip("*_ ").endswith((":", "："))):
            continue
        # The sentence right before the block says what it is for ("2. Build the WASM executable:").
        said = " ".join(lead[-1].replace("**", "").split()) if lead else ""
        said = (list(ex.sentences(said)) or [said])[-1].rstrip(":： ") if said else ""
        if _OPTIONAL.search(said):
            continue  # "You can also tail it with:": an extra the user may run, not a step left undone
        item = "`" + command.replace("`", "'")[:_COMMAND_CHARS] + "`" + (" — " + said[:_LEAD_SHOWN] if said else "")
        if item not in found:
            found.append(item)
    return found[:_SHOWN]


_SHOWN = 3
_LEAD_CHARS = 300
_LEAD_SHOWN = 140
_COMMAND_CHARS = 120
