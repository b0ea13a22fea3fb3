"""Recorded-style agent sessions (as `session/get` returns them) used by the session-summarizer tests."""

import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List

from session_summarizer.local_summary import summarize
from session_summarizer.session import parse_session
from session_summarizer.worktree import check_files


def _session(agent: str, turns: List[Dict[str, str]], cwd: str = "", session_id: str = "s-1") -> Dict[str, Any]:
    return {"paneId": 11, "agent": agent, "sessionId": session_id, "title": "session", "cwd": cwd,
            "status": "idle", "turnCount": len(turns), "turns": turns}


def bug_fix_session(cwd: str = "") -> Dict[str, Any]:
    return _session("claude", [
        {"role": "user", "text": "The CSV export crashes when a customer name contains a comma. "
                                 "Can you find out why and fix it? The code is in src/export/csv_writer.py."},
        {"role": "assistant", "text": "I'll reproduce it first.\n\n```bash\npytest tests/test_export.py -q\n```\n\n"
                                      "```\nFAILED tests/test_export.py::test_comma_in_name - "
                                      "ValueError: too many values to unpack (expected 3)\n1 failed, 12 passed\n```"},
        {"role": "assistant", "text": "The root cause is that `write_row` joins fields with `','.join(...)` "
                                      "instead of using the csv module, so commas inside values split the column.\n"
                                      "I replaced the manual join with `csv.writer` in src/export/csv_writer.py and "
                                      "added a regression test in tests/test_export.py."},
        {"role": "user", "text": "ok"},
        {"role": "assistant", "text": "Ran the suite again:\n\n```console\n$ pytest -q\n13 passed in 0.41s\n```\n\n"
                                      "All tests pass now. I also updated CHANGELOG.md.\n\n"
                                      "Next steps:\n- Release a patch version with the fix\n"
                                      "- Check the other exporters (src/export/xlsx_writer.py) for the same bug\n\n"
                                      "Should I also backport this to the 1.x branch?"},
    ], cwd=cwd, session_id="bugfix-42")


def refactor_session(cwd: str = "") -> Dict[str, Any]:
    return _session("codex", [
        {"role": "user", "text": "Please split the giant app/server.js into smaller modules: routes, "
                                 "middleware and the database layer. Keep behaviour identical."},
        {"role": "assistant", "text": "Plan:\n1. Move the route handlers into app/routes/users.js and "
                                      "app/routes/orders.js\n2. Move auth and logging into app/middleware.js\n"
                                      "3. Extract the pool into app/db.js"},
        {"role": "assistant", "text": "Created app/routes/users.js, app/routes/orders.js, app/middleware.js and "
                                      "app/db.js.\nMoved the handlers out of app/server.js, which is now 40 lines.\n"
                                      "We decided to keep the Express app object in server.js so that the tests "
                                      "can still import it.\n\n`npm test` output:\n```\n"
                                      "Error: Cannot find module './db'\n```"},
        {"role": "assistant", "text": "Fixed the import path in app/routes/orders.js (it needed ../db).\n"
                                      "```sh\nnpm test\nnpm run lint\n```\nBoth pass. Renamed getConn to "
                                      "getConnection everywhere.\n\nRemaining: the README still describes the old "
                                      "layout; you may want to update it."},
    ], cwd=cwd, session_id="refactor-7")


def japanese_session(cwd: str = "") -> Dict[str, Any]:
    return _session("claude", [
        {"role": "user", "text": "ログイン画面でパスワードを間違えると500エラーになります。"
                                 "原因を調べて修正してください。"},
        {"role": "assistant", "text": "再現しました。\n```\nTypeError: Cannot read properties of undefined "
                                      "(reading 'id')\n```\n原因は auth/login.ts で user が null の場合を"
                                      "考慮していないことでした。"},
        {"role": "assistant", "text": "auth/login.tsを修正しました。user が見つからない場合は 401 を返すように"
                                      "変更しました。\nテストを追加しました: tests/login.test.ts\n"
                                      "```bash\nnpm test -- login\n```\n次に、エラーメッセージの多言語化が必要です。\n"
                                      "ロックアウト機能も追加しますか？"},
    ], cwd=cwd, session_id="ja-session")


# Secrets planted the way they show up in real sessions: pasted .env files, curl lines, configs, keys.
PLANTED = {
    "openai": "sk-proj-Zq81mNpW3xLr7TyUv2sKd9QeBh4FjA6c",
    "anthropic": "sk-ant-api03-Hf7Kd9Lm2Np4Qr6St8Uv0Wx1Yz3Ab5Cd7Ef",
    "github": "ghp_4fT9kLm2Qx7Zr1Vb8Nw3Ys6Hd0Jp5Gc2Ea9",
    "aws_id": "AKIAZ7QW3ERT5YUI8OPA",
    "aws_secret": "q9Wm2Xr7Tz4Lp1Kv8Nb5Hc3Jd6Fs0Ga2Ye7Ui4",
    "slack": "xoxb-2043019938-5521098877-Qm3Lx9Tr2Vb7Nk1Pz8",
    "db_password": "Tr0ub4dor&3-horse",
    "bearer": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1rwW1gFWFOEjXk",
    "private_key_body": "MIIEowIBAAKCAQEA7bq9Xk2Lm3Nq4Pr5St6Uv7Wx8Yz9Ab0Cd1Ef2Gh3Ij4Kl5Mn6Op",
    "random": "Xk29fLq8ZmWp3RtY7vBn4HsJd6Gc1Ae5",
    "url_password": "s3cretPassw0rd",
    "yaml_password": "correct-horse-battery-staple",
}


def secrets_session(cwd: str = "") -> Dict[str, Any]:
    p = PLANTED
    return _session("claude", [
        {"role": "user", "text": "My deploy fails. Here is my .env:\n```\nOPENAI_API_KEY=" + p["openai"] + "\n"
                                 "ANTHROPIC_API_KEY=" + p["anthropic"] + "\nGITHUB_TOKEN=" + p["github"] + "\n"
                                 "AWS_ACCESS_KEY_ID=" + p["aws_id"] + "\nAWS_SECRET_ACCESS_KEY=" + p["aws_secret"]
                                 + "\nSLACK_BOT_TOKEN=" + p["slack"] + "\nDB_PASSWORD=\"" + p["db_password"]
                                 + "\"\n```"},
        {"role": "assistant", "text": "I tested the API with:\n```bash\ncurl -H \"Authorization: Bearer "
                                      + p["bearer"] + "\" https://api.example.com/v1/me\n"
                                      "psql postgres://deploy:" + p["url_password"] + "@db.internal:5432/app\n```\n"
                                      "Error: connection refused. The deploy key in deploy/id_rsa is:\n"
                                      "-----BEGIN RSA PRIVATE KEY-----\n" + p["private_key_body"] + "\n"
                                      "-----END RSA PRIVATE KEY-----\n"
                                      "Fixed the host name in config/deploy.yml. The session cookie was "
                                      + p["random"] + " and config/db.yml has\n  password: " + p["yaml_password"]},
        {"role": "assistant", "text": "Next steps: rotate every key above, they were pasted in plain text."},
    ], cwd=cwd, session_id="secrets-1")


def make_repo(root: Path, files: Dict[str, str]) -> Path:
    """A real git repository with `files` committed three days and more ago."""
    root.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, GIT_AUTHOR_DATE="2020-01-01T00:00:00", GIT_COMMITTER_DATE="2020-01-01T00:00:00",
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.com")
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "-m", "initial"], cwd=root, check=True, env=env)
    return root


def commit_now(root: Path, paths: List[str], message: str = "change") -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.com")
    subprocess.run(["git", "add", "--", *paths], cwd=root, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "-m", message], cwd=root, check=True, env=env)


def summary_of_turns(turns: List[Any], agent: str = "claude") -> Any:
    """The local summary of (role, text) turns, files checked on disk only."""
    raw = {"agent": agent, "cwd": "", "turns": [{"role": role, "text": text} for role, text in turns]}
    return summarize(parse_session(raw), file_checker=lambda paths, folder: check_files(paths, ""))


def open_items(summary: Any) -> List[str]:
    """What the summary leaves open: its questions, then its next steps."""
    return list(summary.questions.items) + list(summary.next_steps.items)
