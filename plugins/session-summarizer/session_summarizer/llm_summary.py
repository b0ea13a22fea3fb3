"""LLM summary of a session: redacted transcript, chunks that fit the model's context, chunk notes merged."""

import math
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Sequence

from .llm_client import CUT, Cancellation, LLMError, StreamResult, stream_completion
from .llm_settings import LLMSettings
from .redaction import redact
from .session import Session, cap_turn_text
from .summary_text import SECTION_KEYS, headings, phrase
from .worktree import FileCheck

LANGUAGE_NAMES = {"en": "English", "ja": "Japanese (日本語)", "ko": "Korean (한국어)", "zh": "Chinese (中文)"}
# Room kept for the instructions around the transcript, on top of the answer's max tokens.
PROMPT_OVERHEAD_TOKENS = 700
TURN_CHAR_LIMIT = 8_000
MERGE_GROUP_LIMIT = 12

StreamFunction = Callable[..., StreamResult]


def estimate_tokens(text: str) -> int:
    """A cautious token estimate: ~4 ASCII characters per token, one per other character (CJK)."""
    non_ascii = sum(1 for char in text if ord(char) > 127) if not text.isascii() else 0
    return math.ceil((len(text) - non_ascii) / 4) + non_ascii


@dataclass
class Transcript:
    blocks: List[str]
    redactions: int


def build_transcript(session: Session) -> Transcript:
    """One block per turn, redacted before anything else sees it, long turns cut in the middle."""
    blocks = []
    redactions = 0
    for number, turn in enumerate(session.turns, 1):
        if not turn.text.strip():
            continue
        cleaned = redact(cap_turn_text(turn.text, TURN_CHAR_LIMIT * 3 // 4, TURN_CHAR_LIMIT // 4))
        redactions += cleaned.count
        blocks.append("[" + str(number) + "] " + turn.role.upper() + ":\n" + cleaned.text.strip())
    return Transcript(blocks=blocks, redactions=redactions)


def chunk_blocks(blocks: Sequence[str], budget_tokens: int) -> List[str]:
    """Pack whole turns into chunks of at most `budget_tokens`; a turn larger than that is cut to fit."""
    budget_tokens = max(256, budget_tokens)
    chunks: List[str] = []
    current: List[str] = []
    used = 0
    for block in blocks:
        cost = estimate_tokens(block) + 2
        if cost > budget_tokens:
            keep = max(200, int(len(block) * budget_tokens / cost) - 40)
            block = cap_turn_text(block, keep * 3 // 4, keep // 4)
            cost = estimate_tokens(block) + 2
        if current and used + cost > budget_tokens:
            chunks.append("\n\n".join(current))
            current, used = [], 0
        current.append(block)
        used += cost
    if current:
        chunks.append("\n\n".join(current))
    return chunks


# What each section holds: the rules the local summarizer follows (issue 25), asked of the model too.
_SECTION_RULES = {
    "goal": "the first real ask, then later asks that changed it (not side questions)",
    "done": "results, grouped by what they achieved, naming files where it helps; edit records are not items",
    "files": "paths relative to the folder the session worked in; a copied file is not a moved one",
    "commands": "only commands and acting tool calls that ran (MCP calls, commits, pushes); never commands only "
                "suggested to the user, never tool-call ids",
    "findings": "each decision with its reason and the rejected alternative where there was one; findings",
    "errors": "each error's first telling line, and whether it was fixed or was still open at the end; never a "
              "list of possible causes",
    "questions": "questions left to the user that were not answered",
    "next": "errors still open, stubs left in place, tasks handed to the user, deferred work",
}


def _sections_outline(language: str) -> str:
    titles = headings(language)
    return "\n".join("## " + titles[key] + "  (" + _SECTION_RULES[key] + ")" for key in SECTION_KEYS)


def system_prompt(language: str) -> str:
    return (
        "You summarize a coding session between a user and an AI coding agent so that someone can pick the "
        "work up later. Be faithful: state only what the transcript shows; say when something is unclear. "
        "Secrets were replaced with [REDACTED:…] markers: keep the markers, never guess what they hid. "
        "Write Markdown in " + LANGUAGE_NAMES.get(language, "English") + ", the language of the session."
    )


def _facts(files: Sequence[FileCheck], language: str) -> str:
    if not files:
        return ""
    lines = ["- " + check.path + ": " + phrase(language, "file." + check.state) for check in files[:40]]
    return "Files mentioned in the session, as checked against the working tree with git:\n" + "\n".join(lines)


def final_prompt(transcript: str, language: str, files: Sequence[FileCheck]) -> str:
    facts = _facts(files, language)
    return (
        "Summarize this session with exactly these sections, in this order (bullet points, short, specific; "
        "write 'none' in the session's language when a section is empty; write each heading without the "
        "description in brackets; at most 1,200 words in all):\n\n" + _sections_outline(language)
        + "\n\nFor files touched, trust the git check below over the transcript." + ("\n\n" + facts if facts else "")
        + "\n\n<transcript>\n" + transcript + "\n</transcript>"
    )


def chunk_prompt(chunk: str, index: int, total: int) -> str:
    return (
        "This is part " + str(index) + " of " + str(total) + " of a long session. Write compact notes on this part "
        "only: the user's requests, what was done, files and commands, decisions and findings, errors, questions "
        "left open, and what was planned next. Bullet points; keep file paths and commands exact.\n\n"
        "<transcript part=\"" + str(index) + "/" + str(total) + "\">\n" + chunk + "\n</transcript>"
    )


def merge_prompt(notes: Sequence[str], language: str, files: Sequence[FileCheck]) -> str:
    joined = "\n\n".join("<notes part=\"" + str(i) + "\">\n" + note.strip() + "\n</notes>"
                         for i, note in enumerate(notes, 1))
    facts = _facts(files, language)
    return (
        "These are notes on consecutive parts of one long session, oldest first. Merge them into one summary "
        "with exactly these sections, in this order (headings without the description in brackets; at most "
        "1,200 words in all); later parts win where they disagree:\n\n"
        + _sections_outline(language) + ("\n\n" + facts if facts else "") + "\n\n" + joined
    )


@dataclass
class LLMSummary:
    markdown: str = ""
    complete: bool = False
    error: Optional[LLMError] = None
    redactions: int = 0
    parts: int = 1
    first_token_seconds: Optional[float] = None
    stages: List[str] = field(default_factory=list)


# Progress callback: (stage, index, total) with stage "part" or "merge"; text callback: streamed text so far.
ProgressFunction = Callable[[str, int, int], None]
TextFunction = Callable[[str], None]


def summarize_with_llm(session: Session, settings: LLMSettings, api_key: Optional[str], language: str,
                       files: Sequence[FileCheck] = (), on_progress: Optional[ProgressFunction] = None,
                       on_text: Optional[TextFunction] = None, cancellation: Optional[Cancellation] = None,
                       stream: StreamFunction = stream_completion) -> LLMSummary:
    """Run the whole LLM summary; on failure the text that arrived is kept and marked incomplete."""
    cancellation = cancellation or Cancellation()
    transcript = build_transcript(session)
    system = system_prompt(language)
    budget = settings.context_tokens - settings.max_output_tokens - PROMPT_OVERHEAD_TOKENS
    budget -= estimate_tokens(system) + estimate_tokens(_facts(files, language))
    chunks = chunk_blocks(transcript.blocks, budget)
    outcome = LLMSummary(redactions=transcript.redactions, parts=max(1, len(chunks)))

    def run(prompt: str, stage: str, index: int, total: int) -> StreamResult:
        outcome.stages.append(stage + " " + str(index) + "/" + str(total))
        if on_progress:
            on_progress(stage, index, total)
        arrived: List[str] = []

        def text_arrived(piece: str) -> None:
            arrived.append(piece)
            if on_text:
                on_text("".join(arrived))

        result = stream(settings, system, prompt, api_key, text_arrived, cancellation)
        if outcome.first_token_seconds is None and result.first_token_seconds is not None:
            outcome.first_token_seconds = result.first_token_seconds
        return result

    if len(chunks) <= 1:
        result = run(final_prompt(chunks[0] if chunks else "", language, files), "final", 1, 1)
        return _finish(outcome, result.text, result)

    notes: List[str] = []
    for index, chunk in enumerate(chunks, 1):
        result = run(chunk_prompt(chunk, index, len(chunks)), "part", index, len(chunks))
        if result.error or not result.complete:
            # Keep every finished part's notes plus what arrived of this one.
            partial = "\n\n".join(notes + ([result.text] if result.text.strip() else []))
            return _finish(outcome, partial, result)
        notes.append(result.text)
    # Notes of many parts may themselves exceed the context: merge them in groups until they fit.
    level = 0
    while estimate_tokens("\n\n".join(notes)) > budget and len(notes) > 1:
        level += 1
        grouped: List[str] = []
        groups = [notes[i:i + MERGE_GROUP_LIMIT] for i in range(0, len(notes), MERGE_GROUP_LIMIT)]
        if len(groups) == 1:
            groups = [notes[: len(notes) // 2], notes[len(notes) // 2:]]
        for index, group in enumerate(groups, 1):
            result = run(chunk_prompt("\n\n".join(group), index, len(groups)), "part", index, len(groups))
            if result.error or not result.complete:
                return _finish(outcome, "\n\n".join(grouped + notes), result)
            grouped.append(result.text)
        notes = grouped
        if level > 4:
            break
    result = run(merge_prompt(notes, language, files), "merge", 1, 1)
    if (result.error or not result.complete) and not result.text.strip():
        return _finish(outcome, "\n\n".join(notes), result)
    return _finish(outcome, result.text, result)


def _finish(outcome: LLMSummary, text: str, result: StreamResult) -> LLMSummary:
    outcome.markdown = redact(text).text.strip() + ("\n" if text.strip() else "")
    outcome.error = result.error
    if result.error is None and not result.complete:
        outcome.error = LLMError(CUT)
    outcome.complete = outcome.error is None
    return outcome
