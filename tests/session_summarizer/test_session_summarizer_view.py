"""The panel is a pure function of a State snapshot, and the first panel loads none of the summarizing code."""

import os
import subprocess
import sys
from pathlib import Path

from agentty_plugin import Pane, ui
from session_summarizer import ids
from session_summarizer.text import TEXT
from session_summarizer.view import HistoryRow, NotesFolder, State, SummaryView, render

PLUGIN = Path(__file__).resolve().parents[2] / "plugins" / "session-summarizer"
SHARED = Path(__file__).resolve().parents[2] / "shared"
t = TEXT.for_language("en")

CLAUDE = Pane(id=11, kind="claude", title="claude · fix", status="idle")
CODEX_WORKING = Pane(id=12, kind="codex", title="codex · tests", status="working")
SHELL = Pane(id=13, kind="shell", title="zsh", status="idle")


def _rows(tree, list_id):
    return ui.find(tree, list_id)["items"]


def test_summarize_is_offered_for_agent_panes_only():
    assert ui.find(render(State(pane=CLAUDE), t), ids.SUMMARIZE).get("disabled") is False
    for pane in (SHELL, None):
        assert ui.find(render(State(pane=pane), t), ids.SUMMARIZE)["disabled"] is True
    assert ui.find(render(State(pane=CLAUDE, busy="reading"), t), ids.SUMMARIZE)["disabled"] is True
    assert ui.find(render(State(pane=CLAUDE, busy="connect"), t), ids.STOP) is not None


def test_a_summary_brings_save_handoff_and_the_insert_list_with_busy_panes_marked():
    summary = SummaryView("# S\n\n## Goal\n\nFix it.\n", "local", turns=4)
    tree = render(State(pane=CLAUDE, summary=summary, panes=(CLAUDE, CODEX_WORKING, SHELL),
                             notes=NotesFolder("notes", resolved="/home/u/notes")), t)
    assert ui.find(tree, ids.SAVE) is not None and ui.find(tree, ids.HANDOFF) is not None
    assert "Notes go to /home/u/notes" in " ".join(ui.texts(tree))
    rows = {row["id"]: row for row in _rows(tree, ids.INSERT_PANES)}
    assert rows["12"].get("tone") == "warning" and rows["11"].get("tone") is None
    assert rows["13"]["icon"] == "square-terminal" and rows["11"]["icon"] == "bot"
    assert [action["id"] for action in rows["11"]["actions"]] == [ids.ACTION_INSERT]
    assert ui.find(render(State(pane=CLAUDE), t), ids.SAVE) is None  # nothing to save yet


def test_history_rows_and_their_actions_come_from_the_snapshot():
    rows = (HistoryRow("a1", "Fix the parser", created=1000.0, summarizer="local"),
            HistoryRow("b2", "", created=400.0, summarizer="llama3.1", complete=False))
    tree = render(State(now=1060.0, history=rows), t)
    items = _rows(tree, ids.HISTORY)
    assert [item["id"] for item in items] == ["a1", "b2"]
    assert items[0]["subtitle"].startswith("1 minute ago") and items[1]["icon"] == "shield-alert"
    assert [action["id"] for action in items[0]["actions"]] == [ids.ACTION_SHOW, ids.ACTION_DELETE]
    assert ui.find(render(State(history=None), t), ids.HISTORY) is None  # no data folder: no list


def test_the_first_panel_loads_none_of_the_summarizing_code():
    # Start-up (bench/bench_runtime.py) depends on these loading only once a summary is asked for.
    deferred = ["dataclasses", "httpx", "subprocess"] + ["session_summarizer." + name for name in (
        "local_summary", "extraction", "transcript", "worktree", "redaction", "llm_client", "session")]
    script = (
        "import sys\n"
        "from session_summarizer.app import App\n"
        "from session_summarizer.view import State, render\n"
        "from session_summarizer.text import TEXT\n"
        "render(State(), TEXT.for_language('en'))\n"
        f"print([name for name in {deferred!r} if name in sys.modules])\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PLUGIN), str(SHARED)]))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_summary_in_the_panel_shows_no_raw_markdown():
    """Bold labels, code spans, links, nested lists and code blocks read as text (issue 27)."""
    from session_summarizer.view import markdown_nodes

    markdown = ("# Session summary\n\n_12 turns · claude_\n\n## Goal\n\nFix the **CSV export** in `src/csv.py`.\n\n"
                "**Later requests**\n\n- Add a [changelog entry](https://example.com/changes) for `1.2.0`\n"
                "  - keep *one* line per fix\n1. Run `pytest -q` again\n\n```bash\nnpm run build -- --prod\n```\n"
                "\n## Commands run\n\n- `git push origin main`\n- `a_b__c` stays as typed\n")
    nodes = markdown_nodes(markdown)
    shown = [(node["text"], node["style"]) for node in nodes]
    assert shown == [
        ("12 turns · claude", "muted"), ("Goal", "title"), ("Fix the CSV export in src/csv.py.", "body"),
        ("Later requests", "muted"),
        ("• Add a changelog entry (https://example.com/changes) for 1.2.0\n  ◦ keep one line per fix\n"
         "1. Run pytest -q again", "body"),
        ("npm run build -- --prod", "code"), ("Commands run", "title"),
        ("• git push origin main\n• a_b__c stays as typed", "body"),
    ]
    for text, _ in shown:
        assert "**" not in text and "`" not in text and "](" not in text
