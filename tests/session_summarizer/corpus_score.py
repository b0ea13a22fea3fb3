"""Scores the local summarizer against the corpus: per-section recall of listed facts, and traps hit."""

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from corpus_loader import load_cases

SECTIONS = ("goal", "done", "files", "commands", "decisions", "errors", "open")


def section_items(summary: Any) -> Dict[str, List[str]]:
    """What a reader sees in each section of a LocalSummary."""
    files = []
    for check in summary.files:
        files.append(check.path + " — " + check.state)
    files += getattr(summary, "file_groups", [])
    return {
        "goal": [summary.goal],
        "done": list(summary.done.items),
        "files": files,
        "commands": list(summary.commands.items),
        "decisions": list(summary.findings.items),
        "errors": list(summary.errors.items),
        "open": list(summary.questions.items) + list(summary.next_steps.items),
    }


def _found(alternatives: Sequence[str], items: Sequence[str]) -> bool:
    lowered = [item.lower() for item in items]
    return any(alternative.lower() in item for alternative in alternatives for item in lowered)


def trap_hits(case: Dict[str, Any], summary: Any) -> List[str]:
    items = section_items(summary)
    hits = []
    for trap in case.get("traps", []):
        section = trap["section"]
        if section == "any":
            pool = [summary.markdown]
        elif section == "files_edited":
            pool = [check.path for check in summary.files if check.state not in ("exists", "mentioned", "read")]
        else:
            pool = items[section]
        if "text_exact" in trap:
            hit = any(item.strip().lower() == trap["text_exact"].lower() for item in pool)
        else:
            hit = _found([trap["text"]], pool)
        if hit:
            hits.append(case["id"] + ": " + section + " holds " + repr(trap.get("text", trap.get("text_exact")))
                        + " (" + trap["why"] + ")")
    return hits


def score(summarize: Callable[[Dict[str, Any]], Any],
          cases: Optional[List[Dict[str, Any]]] = None) -> Tuple[Dict[str, float], List[str], Dict[str, List[str]]]:
    """(recall per section and "mean", trap hits, missed facts per case) for `summarize(session_dict)`."""
    cases = cases if cases is not None else load_cases()
    found = {section: 0 for section in SECTIONS}
    total = {section: 0 for section in SECTIONS}
    traps: List[str] = []
    missed: Dict[str, List[str]] = {}
    for case in cases:
        summary = summarize(case["session"])
        items = section_items(summary)
        for section in SECTIONS:
            for alternatives in case["facts"].get(section, []):
                total[section] += 1
                if _found(alternatives, items[section]):
                    found[section] += 1
                else:
                    missed.setdefault(case["id"], []).append(section + ": " + alternatives[0])
        traps += trap_hits(case, summary)
    recall = {section: found[section] / total[section] for section in SECTIONS if total[section]}
    recall["mean"] = sum(recall.values()) / len(recall)
    return recall, traps, missed
