"""Errors the summary used to miss on sessions it was not written on: a message quoted inside the user's own
sentence (in any language around it), a Markdown export whose tool-call label puts the tool's name in
backticks or cuts its JSON short, a warning printed before a run's real failure, the source line a
traceback quotes, and two HTTP failures that differ only in their status. The cases are invented.
"""

from session_summarizer.error_signatures import message_in
from session_summarizer.local_summary import summarize
from session_summarizer.sections import call_errors, error_key
from session_summarizer.session import parse_session
from session_summarizer.transcript import read_turn
from session_summarizer.worktree import check_files


def _summary(turns):
    raw = {"agent": "agent", "cwd": "", "turns": [{"role": role, "text": text} for role, text in turns]}
    return summarize(parse_session(raw), file_checker=lambda paths, folder: check_files(paths, ""))


# ------------------------------------------------------------------------------- a message in a sentence

def test_the_message_starts_where_the_error_does_whatever_the_language_around_it():
    assert message_in('when I save it I get "cron_sync error: Invalid schedule given"') == \
        "cron_sync error: Invalid schedule given"
    assert message_in("结算时报错: ### Error updating database. Cause: java.sql.SQLException: Field 'qty' "
                      "doesn't have a default value ### The error may exist in OrderMapper.xml") == \
        "java.sql.SQLException: Field 'qty' doesn't have a default value"
    assert message_in("ao salvar o cliente Erro: SQLSTATE[23000]: Integrity constraint violation: 1062") == \
        "Erro: SQLSTATE[23000]: Integrity constraint violation: 1062"
    assert message_in("保存すると Uncaught TypeError: items.map is not a function が出ます") == \
        "Uncaught TypeError: items.map is not a function が出ます"
    assert message_in("Signup failed: Client error '409 Conflict' for url 'http://localhost:3000/users'") == \
        "Signup failed: Client error '409 Conflict' for url 'http://localhost:3000/users'"


def test_code_a_type_named_in_passing_and_a_bare_word_carry_no_message():
    assert message_in("Please handle the TimeoutError case too") == ""
    assert message_in('} catch (err) { console.error("Error saving order:", err); }') == ""
    assert message_in("The error handling: we need more of it") == ""
    assert message_in("Error: x") == ""


def test_a_message_quoted_in_the_users_turn_reaches_the_errors_section_once_per_status():
    summary = _summary([
        ("user", "Build the signup page."),
        ("assistant", "Added the signup page."),
        ("user", "Signup failed: Client error '404 Not Found' for url 'http://localhost:3000/api/users'"),
        ("assistant", "The route had the wrong prefix; fixed."),
        ("user", "Signup failed: Client error '422 Unprocessable Content' for url 'http://localhost:3000/users'"),
        ("assistant", "The form sent the wrong field names; fixed."),
    ])
    joined = "\n".join(summary.errors.items)
    assert "404 Not Found" in joined and "422 Unprocessable Content" in joined


def test_two_http_failures_that_differ_only_in_their_status_are_two_errors():
    assert error_key("Login failed: Client error '401 Unauthorized' for url 'http://a/login'") != \
        error_key("Login failed: Client error '403 Forbidden' for url 'http://a/login'")


# ---------------------------------------------------------------------------------- a labelled export

LABELLED = """I'll run the tests.

### Tool call: `exec_command`

```
{
  "cmd": "./venv/bin/python -m pytest",
  "workdir": "/home/kim/tides"
}
```

### Tool call: `exec_command`

```
{
  "cmd": "./venv/bin/python -m tides.fetch",
  "sandbox_permissions": "require_escalated",
… 3 lines of output omitted …
  ]
}
```

### Tool output

```
Chunk ID: 1a2b3c
Process exited with code 1
Output:
WARNING: The directory '/home/kim/.cache/pip' is not writable by the current user.
ModuleNotFoundError: No module named 'pytest'
```

### Tool output

```
Process exited with code 1
Output:
Traceback (most recent call last):
    raise HTTPError(http_error_msg, response=self)
requests.exceptions.HTTPError: 502 Server Error: Bad Gateway for url: https://tides.example/api
```
"""


def test_a_backticked_tool_label_and_a_cut_short_json_still_make_calls_with_their_own_results():
    parts = read_turn(LABELLED)
    assert [(call.kind, call.text) for call in parts.calls] == [
        ("run", "./venv/bin/python -m pytest"), ("run", "./venv/bin/python -m tides.fetch")]
    assert [hit.line for hit in call_errors([parts])] == [
        "ModuleNotFoundError: No module named 'pytest'",
        "requests.exceptions.HTTPError: 502 Server Error: Bad Gateway for url: https://tides.example/api"]


def test_the_tail_of_a_sentence_broken_over_lines_is_not_a_report_of_its_own():
    from session_summarizer import user_reports

    broken = "worked now, but (Category\n\nLink Item\n\nDelete) these buttons are still not working"
    assert user_reports.reports(broken) == []
    assert user_reports.reports("The Delete button is still not working on the orders page") != []


# ------------------------------------------------------------------------ failures the replies only state

def test_a_failure_stated_as_a_fact_is_one_in_any_language():
    from session_summarizer.failure_statements import states_failure

    assert states_failure("The worker is panicking because it calls `block_on` inside the async runtime.")
    assert states_failure("既存の parser_test.go にコンパイルエラーがあります。")
    assert states_failure("看起来有一个编译错误，OrderItemEntity类找不到。")
    assert states_failure("기존 cache_test.go에 컴파일 에러가 있습니다 (이번 변경과 무관).")


def test_a_plan_a_guess_a_fix_a_condition_or_a_review_finding_is_not_a_failure_met():
    from session_summarizer.failure_statements import states_failure

    assert not states_failure("If `fetch_rates` fails, the job retries three times.")
    assert not states_failure("The worker might be panicking because of `block_on`.")
    assert not states_failure("Fixed the `block_on` panic in the worker; it no longer crashes.")
    assert not states_failure("Jika token kosong, muncul error \"Token tidak valid\"")
    assert not states_failure("HIGH — an invalid `CERT_PATH` crashes init: agreed.")
    assert not states_failure("I can see the error!")


def test_a_failure_a_chat_export_only_states_reaches_the_errors_section():
    summary = _summary([
        ("user", "启动 report-service 服务"),
        ("assistant", "我来启动服务。\n\n看起来有一个编译错误，ReportRowEntity类找不到。让我检查一下这个文件。"),
        ("user", "继续"),
        ("assistant", "已改为 ReportRow，服务已启动。"),
    ])
    assert any("ReportRowEntity" in item for item in summary.errors.items)
