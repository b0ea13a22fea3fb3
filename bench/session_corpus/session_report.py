"""Runs a summarizer over one half of the real-session corpus and prints what a reviewer would count.

Each summarizer version runs in a fresh interpreter (its own copy of the plugin on sys.path), so two
versions never mix; the summaries come back as Markdown and are scored by session_scoring.py here.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from session_facts import load  # type: ignore[import-not-found]
from session_scoring import SECTIONS, SUMMARY_WORDS, score_session  # type: ignore[import-not-found]

ROOT = Path(__file__).resolve().parents[2]

_SUMMARIZE = """
import json, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
from session_summarizer.local_summary import summarize
from session_summarizer.session import parse_session
from session_summarizer.worktree import check_files
sessions = json.load(sys.stdin)
out = {}
for key, raw in sessions.items():
    summary = summarize(parse_session(raw), file_checker=lambda paths, cwd: check_files(paths, ""))
    out[key] = summary.markdown
json.dump(out, sys.stdout, ensure_ascii=False)
"""


def summaries(plugin_dir: Path, sessions: Dict[str, Dict[str, Any]]) -> Dict[str, str]:
    """{id: Markdown} of the local summarizer in `plugin_dir` for each `session/get` answer."""
    answer = subprocess.run([sys.executable, "-c", _SUMMARIZE, str(plugin_dir), str(ROOT / "shared")],
                            input=json.dumps(sessions, ensure_ascii=False), capture_output=True, text=True,
                            check=True)
    return dict(json.loads(answer.stdout))


def score_half(cases: List[Dict[str, Any]], markdown: Dict[str, str]) -> Dict[str, Any]:
    """Recall per section, per agent and overall; trap hits; summary lengths."""
    found = {section: 0 for section in SECTIONS}
    total = {section: 0 for section in SECTIONS}
    agents: Dict[str, Dict[str, int]] = {}
    per_session: Dict[str, Dict[str, Any]] = {}
    for case in cases:
        result = score_session(case, markdown[case["id"]])
        per_session[case["id"]] = result
        agent = agents.setdefault(case["agent"], {"sessions": 0, "found": 0, "total": 0, "traps": 0})
        agent["sessions"] += 1
        agent["traps"] += len(result["traps"])
        for section in SECTIONS:
            found[section] += result["found"][section]
            total[section] += result["total"][section]
            agent["found"] += result["found"][section]
            agent["total"] += result["total"][section]
    recall = {section: found[section] / total[section] for section in SECTIONS if total[section]}
    recall["mean"] = sum(recall.values()) / len(recall) if recall else float("nan")
    words = [result["words"] for result in per_session.values()]
    return {"recall": recall, "found": found, "total": total, "agents": agents, "sessions": per_session,
            "traps": sum(len(result["traps"]) for result in per_session.values()),
            "max_words": max(words) if words else 0, "median_words": statistics.median(words) if words else 0}


def _baseline_plugin(commit: str, folder: Path) -> Optional[Path]:
    archive = subprocess.run(["git", "archive", commit, "plugins/session-summarizer"], cwd=ROOT, capture_output=True,
                             check=False)
    if archive.returncode != 0:
        return None
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder / "plugins" / "session-summarizer"


def run(split: str, plugin_dir: Path, baseline: Optional[Tuple[str, Path]] = None) -> Dict[str, Any]:
    """Score the summarizer in `plugin_dir` (and optionally a baseline (label, plugin dir)) on `split`."""
    cases, skipped = load(split)
    raw = {case["id"]: case["session"] for case in cases}
    now = score_half(cases, summaries(plugin_dir, raw)) if cases else None
    before = score_half(cases, summaries(baseline[1], raw)) if cases and baseline else None
    return {"split": split, "cases": cases, "skipped": skipped, "now": now, "before": before,
            "baseline_label": baseline[0] if baseline else ""}


def _draw_of(case: Dict[str, Any]) -> str:
    """Which draw a session came in: the field `draw`, or "first" for sessions added before draws had names."""
    return str(case.get("draw") or "first")


def _by_draw(cases: List[Dict[str, Any]], now: Dict[str, Any], before: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """Recall of each draw on its own: {draw: sessions, facts, before, now, false claims, recall per section}."""
    rows: Dict[str, Any] = {}
    for case in cases:
        row = rows.setdefault(_draw_of(case), {"ids": []})
        row["ids"].append(case["id"])
    for row in rows.values():
        results = [now["sessions"][session_id] for session_id in row["ids"]]
        found = {section: sum(result["found"][section] for result in results) for section in SECTIONS}
        total = {section: sum(result["total"][section] for result in results) for section in SECTIONS}
        row.update(sessions=len(results), total=sum(total.values()), recall=_mean(found, total),
                   traps=sum(len(result["traps"]) for result in results),
                   sections=[found[section] / total[section] if total[section] else float("nan")
                             for section in SECTIONS])
        row["before"] = "—"
        if before:
            old = [before["sessions"][session_id] for session_id in row["ids"]]
            old_found = {section: sum(result["found"][section] for result in old) for section in SECTIONS}
            row["before"] = f"{_mean(old_found, total):.2f}"
    return rows


def _mean(found: Dict[str, int], total: Dict[str, int]) -> float:
    """The mean of the sections' recalls, as the section table's "mean" row is."""
    recalls = [found[section] / total[section] for section in SECTIONS if total[section]]
    return sum(recalls) / len(recalls) if recalls else float("nan")


def print_report(report: Dict[str, Any], show_misses: bool) -> None:
    cases, now, before = report["cases"], report["now"], report["before"]
    split = report["split"]
    name = {"heldout": "held-out half", "dev": "development half", "all": "whole corpus"}[split]
    turns = sorted(len(case["session"]["turns"]) for case in cases)
    languages = sorted({case["language"] for case in cases})
    print(f"Real sessions, {name}: {len(cases)} sessions ({turns[0] if turns else 0} to {turns[-1] if turns else 0} "
          f"turns; {', '.join(languages)}), facts written before the summarizer ran; deterministic, 1 run")
    reasons: Dict[str, List[str]] = {}
    for session_id, why in report["skipped"]:
        reasons.setdefault(why, []).append(session_id)
    for why, ids in reasons.items():
        print(f"  skipped {len(ids)}, {why}: {', '.join(ids)}")
    if any("materialize" in why for why in reasons):
        print("  materialize them: SUMMARIZER_BENCH_SESSIONS=/path/to/sources "
              "python bench/session_corpus/materialize.py")
    if now is None:
        print("  nothing to score")
        return
    label = report["baseline_label"]
    print("| {:<10} | {:>13} | {:>14} | {:>9} |".format("section", "facts listed", label or "before", "now"))
    print("|" + "-" * 12 + "|" + "-" * 15 + "|" + "-" * 16 + "|" + "-" * 11 + "|")
    for section in (*SECTIONS, "mean"):
        listed = sum(now["total"].values()) if section == "mean" else now["total"][section]
        old = before["recall"].get(section) if before else None
        print("| {:<10} | {:>13} | {:>14} | {:>9.2f} |".format(
            section, listed, "—" if old is None else f"{old:.2f}", now["recall"].get(section, float("nan"))))
    print()
    print("| {:<12} | {:>8} | {:>13} | {:>14} | {:>9} | {:>12} |".format(
        "agent", "sessions", "facts listed", label or "before", "now", "false claims"))
    print("|" + "-" * 14 + "|" + "-" * 10 + "|" + "-" * 15 + "|" + "-" * 16 + "|" + "-" * 11 + "|" + "-" * 14 + "|")
    for agent, row in sorted(now["agents"].items()):
        old_row = before["agents"].get(agent) if before else None
        old = f"{old_row['found'] / old_row['total']:.2f}" if old_row and old_row["total"] else "—"
        print("| {:<12} | {:>8} | {:>13} | {:>14} | {:>9.2f} | {:>12} |".format(
            agent, row["sessions"], row["total"], old, row["found"] / row["total"] if row["total"] else float("nan"),
            row["traps"]))
    draws = _by_draw(cases, now, before)
    if len(draws) > 1:  # each draw is its own yardstick: a draw whose misses were read moves to dev alone
        print()
        print("| {:<8} | {:>8} | {:>13} | {:>14} | {:>9} | {:>12} | {} |".format(
            "draw", "sessions", "facts listed", label or "before", "now", "false claims",
            " ".join(f"{section[:5]:>5}" for section in SECTIONS)))
        print("|" + "-" * 10 + "|" + "-" * 10 + "|" + "-" * 15 + "|" + "-" * 16 + "|" + "-" * 11 + "|"
              + "-" * 14 + "|" + "-" * (6 * len(SECTIONS) + 1) + "|")
        for draw, row in draws.items():
            print("| {:<8} | {:>8} | {:>13} | {:>14} | {:>9.2f} | {:>12} | {} |".format(
                draw, row["sessions"], row["total"], row["before"], row["recall"], row["traps"],
                " ".join(f"{value:>5.2f}" for value in row["sections"])))
    print()
    print(f"false claims (traps hit): {'before ' + str(before['traps']) + ', ' if before else ''}now {now['traps']}")
    print(f"summary length in words: max {now['max_words']}, median {now['median_words']:.0f}"
          + (f" (before: max {before['max_words']}, median {before['median_words']:.0f})" if before else ""))
    for session_id, result in sorted(now["sessions"].items()):
        if result["words"] > SUMMARY_WORDS:
            print(f"  over {SUMMARY_WORDS:,} words: {session_id} ({result['words']:,} words)")
    sections = [value for key, value in now["recall"].items() if key != "mean"]
    met = now["recall"]["mean"] >= 0.85 and min(sections) >= 0.70 and not now["traps"] and \
        now["max_words"] <= SUMMARY_WORDS
    print(f"target (issue 25): mean >= 0.85, every section >= 0.70, 0 false claims, every summary <= "
          f"{SUMMARY_WORDS:,} words -> {'meets' if met else 'MISSES'}")
    if show_misses:
        print()
        # A validation draw is development data whose misses nobody reads: its row says whether a rule
        # written on the read sessions carries over, which is what the held-out half will ask.
        hidden = {case["id"] for case in cases if case.get("misses_hidden")}
        if hidden:
            print(f"  misses of {len(hidden)} validation sessions are not printed (misses_hidden)")
        for session_id, result in sorted(now["sessions"].items()):
            if session_id in hidden:
                continue
            for section, fact in result["missed"]:
                print(f"  missed {session_id} [{section}]: {fact}")
            for why in result["traps"]:
                print(f"  FALSE CLAIM {session_id}: {why}")
