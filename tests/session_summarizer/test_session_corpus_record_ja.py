"""The session-record-extractor splitter (record-ja): the person's blocks are user turns, replies, calls and
their results are one agent turn, and the harness's AGENTS.md / environment blocks are no one's ask."""

import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "bench" / "session_corpus"
if str(CORPUS) not in sys.path:
    sys.path.insert(0, str(CORPUS))

from session_formats import split_turns  # noqa: E402

RECORD = """---
generated_by: session-record-extractor
---
<!-- cwd: ~/repo -->

## 利用者（2026-06-04T06:07:42.999Z）

# AGENTS.md instructions for ~/repo

<INSTRUCTIONS>常に日本語で会話する</INSTRUCTIONS>

## 利用者（2026-06-04T06:07:43.002Z）

TODO_NEXT_SESSION.mdを読む

## アシスタント（2026-06-04T06:07:50.000Z）

読みます。

## ツール（2026-06-04T06:07:51.000Z）

[ツール: exec_command]

## ツール結果（2026-06-04T06:07:52.000Z）

Process exited with code 0

## アシスタント（2026-06-04T06:07:53.000Z）

読みました。

## 利用者（2026-06-04T06:08:00.000Z）

<environment_context>
  <current_date>2026-06-04</current_date>
</environment_context>

## 利用者（2026-06-04T06:08:01.000Z）

コミット
"""


def test_record_ja_keeps_asks_and_folds_calls_into_the_reply():
    turns = split_turns(RECORD, "record-ja")
    assert [t["role"] for t in turns] == ["user", "assistant", "user"]
    assert turns[0]["text"] == "TODO_NEXT_SESSION.mdを読む"
    assert "Process exited with code 0" in turns[1]["text"]
    assert turns[1]["text"].startswith("読みます。") and turns[1]["text"].endswith("読みました。")
    assert turns[2]["text"] == "コミット"
