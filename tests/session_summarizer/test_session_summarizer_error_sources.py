"""Where errors sit that the summary used to miss, on held-out-style cases: a program of the command (or the
shell) saying what went wrong in its own words, a background command's output read by a later call, a call
line the terminal wrapped, a script written with `cat > file << EOF` and run, and output the user pasted
after stopping a tool. The cases are invented, in several agents' shapes.
"""

from session_summarizer import command_list, prose_errors, user_reports
from session_summarizer.local_summary import summarize
from session_summarizer.sections import call_errors, error_key
from session_summarizer.session import parse_session
from session_summarizer.transcript import read_turn
from session_summarizer.worktree import check_files


def _summary(turns):
    raw = {"agent": "agent", "cwd": "", "turns": [{"role": role, "text": text} for role, text in turns]}
    return summarize(parse_session(raw), file_checker=lambda paths, folder: check_files(paths, ""))


def _lines(text):
    return [hit.line for hit in call_errors([read_turn(text)])]


# ------------------------------------------------------------------------- a program speaking for itself

def test_a_program_of_the_command_naming_its_failure_is_the_error():
    text = ("• Ran docker compose exec api ping -c 1 cache\n"
            "  └ ping: bad address 'cache'\n\n"
            "• Ran docker compose exec api sh -c \"wget -qO- http://search:9200/\"\n"
            "  └ wget: can't connect to remote host (10.1.0.7): Connection refused")
    assert _lines(text) == ["ping: bad address 'cache'",
                            "wget: can't connect to remote host (10.1.0.7): Connection refused"]


def test_the_shell_saying_a_program_is_missing_is_the_error():
    text = ("⏺ Bash(pnpm run dev)\n"
            "  ⎿  > shop@0.3.0 dev\n"
            "     > astro dev\n"
            "     sh: 1: astro: not found")
    assert _lines(text) == ["sh: 1: astro: not found"]


def test_a_place_in_a_file_or_a_name_the_command_did_not_run_is_not_a_program_speaking():
    text = ("• Ran echo '== handlers ==' && grep -n fallback src/handlers/orders.ts\n"
            "  └ == handlers ==\n"
            "    src/handlers/orders.ts:88: logger.warn(\"fallback failed, retrying\")\n"
            "    status: unknown until the worker starts")
    assert _lines(text) == []


# ------------------------------------------------------------------------- outputs that reach their call

def test_a_script_written_with_cat_and_run_keeps_its_runtime_error_not_the_quoted_source_line():
    text = ("⏺ Bash(cat > scripts/probe.js << 'EOF' && node scripts/probe.js)\n"
            "  ⎿  Error: Exit code 1\n"
            "     file:///srv/app/scripts/probe.js:1\n"
            "     const path = require('path');\n"
            "     ReferenceError: require is not defined in ES module scope, you can use import instead")
    assert _lines(text) == ["ReferenceError: require is not defined in ES module scope, you can use import instead"]


LONG_SCRIPT = "\\n".join(f"console.log('step {number}');" for number in range(120))

CCTRACE_BACKGROUND = """Starting the dev server for you.

🔧 **Tool Use: Bash** (ID: toolu_01Aa)
```json
{
  "command": "cd /srv/shop && npm run dev",
  "run_in_background": true
}
```

📊 **Tool Result:**
```
Command running in background with ID: b71c2
```

🔧 **Tool Use: BashOutput** (ID: toolu_01Bb)
```json
{
  "bash_id": "b71c2"
}
```

📊 **Tool Result:**
```
<status>failed</status>

<exit_code>127</exit_code>

<stdout>
> shop@1.0.0 dev
sh: 1: next: not found
</stdout>
```

🔧 **Tool Use: Bash** (ID: toolu_01Cc)
```json
{
  "command": "node -e \\"LONG_SCRIPT\\" && node scripts/seed.mjs"
}
```

📊 **Tool Result:**
```
Exit code 1
TypeError: Cannot read properties of undefined (reading 'rows')
```""".replace("LONG_SCRIPT", LONG_SCRIPT)


def test_a_background_commands_output_read_later_is_that_commands_output():
    parts = read_turn(CCTRACE_BACKGROUND)
    hits = {hit.source: hit.line for hit in call_errors([parts])}
    assert hits["npm run dev"] == "sh: 1: next: not found"


def test_a_call_whose_command_is_longer_than_the_read_limit_still_gets_its_result():
    hits = [hit.line for hit in call_errors([read_turn(CCTRACE_BACKGROUND)])]
    assert "TypeError: Cannot read properties of undefined (reading 'rows')" in hits


CLAUDE_WRAPPED = """⏺ Bash(docker exec shop-web-1 sh -c "curl -s --max-time 5 http://inventory:8080/health 2>&1 | head
      -5")
  ⎿  curl: (6) Could not resolve host: inventory

⏺ Read(src/main/java/com/acme/shop/config/InventoryClientConfigur
      ation.java)
  ⎿  Read 42 lines (ctrl+r to expand)

⏺ The web container cannot resolve the inventory service name."""


def test_a_call_line_the_terminal_wrapped_is_one_call_with_its_own_output():
    parts = read_turn(CLAUDE_WRAPPED)
    assert parts.calls[-1].text == "src/main/java/com/acme/shop/config/InventoryClientConfiguration.java"
    assert parts.calls[0].text.endswith("| head -5\"")
    assert _lines(CLAUDE_WRAPPED) == ["curl: (6) Could not resolve host: inventory"]
    assert "inventory:8080" not in parts.prose


# ------------------------------------------------------------------------- what the user pasted

def test_output_pasted_after_stopping_a_tool_is_an_error_even_when_a_log_line_ends_in_a_question():
    summary = _summary([
        ("user", "Start the stack and check the sync endpoint."),
        ("assistant", "⏺ Bash(npm run dev)\n  ⎿  Running…"),
        ("user", "[Request interrupted by user for tool use]\n\n"
                 "~/code/sync $ npx wrangler dev\n"
                 "sh: wrangler: command not found"),
        ("assistant", "wrangler is not installed here; it lives in the worker's node_modules."),
        ("user", "now the stack:\n\n"
                 "[db] > supabase start\n"
                 "[db] failed to inspect service: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. "
                 "Is the docker daemon running?\n"
                 "[db] Docker Desktop is a prerequisite for local development."),
        ("assistant", "Docker is not running; start Docker Desktop first."),
    ])
    assert any("wrangler: command not found" in item for item in summary.errors.items)
    assert any("Cannot connect to the Docker daemon" in item for item in summary.errors.items)


# ------------------------------------------------------------------------- commands shown

def test_a_command_run_inside_a_container_ranks_by_what_it_runs():
    looking = command_list._rank("docker exec web-1 ls -la /srv/app")
    acting = command_list._rank("docker exec web-1 /opt/app/bin/migrate.sh")
    assert looking > acting


# ------------------------------------------------------------------------- symptoms the user reports

def test_a_symptom_the_user_reports_in_their_own_words_is_an_error_in_any_language():
    summary = _summary([
        ("user", "Build a settings page for the billing app."),
        ("assistant", "• Edited src/settings.tsx (+40 -0)\n\nThe settings page is in place."),
        ("user", "When I click Save the dialog opens but immediately closes, so nothing is stored."),
        ("assistant", "• Edited src/settings.tsx (+2 -1)\n\nThe click handler ran twice; it runs once now."),
    ])
    assert any("immediately closes" in item for item in summary.errors.items)


def test_symptoms_in_japanese_chinese_and_korean_are_reports():
    for report in ("保存ボタンを押しても設定が反映されません。", "侧边栏里还是没有出现二级菜单",
                   "로그인 버튼이 작동하지 않아요"):
        assert user_reports.reports(report) == [report]


def test_requests_rules_conditions_and_lead_ins_are_not_reports():
    asks = ["Fix the dialog so it does not close by itself.",
            "Make sure the export doesn't crash on empty rows.",
            "If the upload fails, retry it once.",
            "For archived invoices the Edit button should no longer work.",
            "We are working on new lint rules for the team.",
            "設定画面にボタンを追加してください。",
            "중복된 로그가 있는지 알려줘",
            "For the code present, we get this error:",
            "why does the chart not load?"]
    assert [user_reports.reports(ask) for ask in asks] == [[] for _ in asks]


# ------------------------------------------------------------------------- failures the agent's prose tells

def test_a_failure_told_as_an_event_is_an_error_and_a_plan_or_guess_is_not():
    told = ["The deploy failed because the registry token had expired.",
            "Copilot failed to load the workspace index.",
            "The first commit did not go through; the pre-commit hook rejected it.",
            "I cannot push while in read-only mode.",
            "デプロイはトークンの期限切れで失敗しました。"]
    not_told = ["If the deploy fails because of the token, rotate it.",
                "It might have failed to load because of the cache.",
                "Retry the upload if it failed to finish.",
                "I'll check why the job fails on Windows next."]
    assert [prose_errors.reports_failure(sentence) for sentence in told] == [True] * len(told)
    assert [prose_errors.reports_failure(sentence) for sentence in not_told] == [False] * len(not_told)


def test_an_error_message_quoted_in_the_reply_is_the_error_itself():
    assert prose_errors.quoted_error(
        "- 이전의 `fatal: pathspec 'docs/' did not match any files` 오류는 폴더가 비어 있어서 발생했습니다.") == (
        "fatal: pathspec 'docs/' did not match any files")
    assert prose_errors.quoted_error('TC-07: expected success, got error "spawn l ENOENT" from the tool.') == (
        "spawn l ENOENT")
    assert prose_errors.quoted_error("It should catch `ModuleNotFoundError` here.") == ""  # a type, no message
    assert prose_errors.quoted_error('The banner now reads "Save your changes before leaving" on every page.') == ""
    assert prose_errors.quoted_error("If you see `Error: EACCES: permission denied`, run it with sudo.") == ""


def test_a_failure_told_twice_in_other_words_is_one_error_without_its_link_targets():
    summary = _summary([
        ("user", "Set up the React client."),
        ("assistant", "The [setup script](cci:7://file:///d:/app/setup.ps1:0:0-0:0) failed due to a dependency "
                      "conflict between React 19 and packages that need React 18."),
        ("user", "try again"),
        ("assistant", "The React setup is still failing due to the dependency conflict between React 19 and "
                      "packages that need React 18, even with legacy peer deps."),
    ])
    assert summary.errors.items == ["The setup script failed due to a dependency conflict between React 19 and "
                                    "packages that need React 18."]


def test_the_quoted_message_reaches_the_errors_section():
    summary = _summary([
        ("user", "Why did the last push not work?"),
        ("assistant", "The earlier `fatal: refusing to merge unrelated histories` message came from the first pull; "
                      "the histories are joined now."),
    ])
    assert "fatal: refusing to merge unrelated histories" in summary.errors.items


# ------------------------------------------------------------------------- one error, one item

def test_errors_that_differ_only_in_a_quoted_name_stay_apart_when_the_name_is_all_they_say():
    assert error_key("KeyError: 'date'") != error_key("KeyError: 'meeting_name'")
    assert error_key("Error: connect ECONNREFUSED 127.0.0.1:5432 to 'db'") == error_key(
        "Error: connect ECONNREFUSED 127.0.0.1:6379 to 'cache'")


def test_a_reply_quoting_the_message_gives_the_message_and_a_retelling_adds_nothing():
    summary = _summary([
        ("user", "Chart the standings."),
        ("assistant", "This results in a `KeyError: 'date'` on the sessions."),
        ("user", "go on"),
        ("assistant", "Now the code fails with a `KeyError: 'meeting_name'` when building the race names."),
        ("user", "again"),
        ("assistant", "It failed with the same error even after the fallback."),
        ("user", "and the export?"),
        ("assistant", "The export failed because it couldn't find `data/standings.csv`."),
        ("user", "still?"),
        ("assistant", "Yes: `Error: data/standings.csv not found.` was printed by the second export too."),
    ])
    assert summary.errors.items == ["KeyError: 'date'", "KeyError: 'meeting_name'",
                                    "The export failed because it couldn't find `data/standings.csv`."]


def test_a_report_that_names_nothing_that_broke_is_not_an_item():
    assert user_reports.reports("It still doesn't work.") == []
    assert user_reports.reports("The CSV export is not working.") == ["The CSV export is not working."]


def test_a_retelling_reads_the_same_in_other_languages_unless_it_names_the_error():
    assert all(prose_errors.repeats_earlier(text) for text in ("同样的错误还是出现了。", "同じエラーがまだ出ます。",
                                                                 "같은 오류가 다시 발생했습니다."))
    assert not prose_errors.repeats_earlier("The same `TypeError: x is undefined` came back.")


def test_an_apology_is_not_a_failure_and_a_retold_printed_error_is_not_a_second_item():
    assert not prose_errors.reports_failure("I failed to grasp how strict the no-mocks rule is.")
    summary = _summary([
        ("user", "Run the e2e suite."),
        ("assistant", "• Ran npx vitest run tests/e2e\n"
                      "  └ Error: Cannot find module './fake-clock.js' imported from '/srv/app/tests/e2e/setup.ts'\n\n"
                      "This is why it failed with Cannot find module './fake-clock.js' after the rename."),
    ])
    assert len(summary.errors.items) == 1 and summary.errors.items[0].startswith("Error: Cannot find module")


def test_a_tools_own_failure_mark_names_the_error():
    text = ("• Ran bundlepack --config pack.json\n"
            "  └ 📦 Bundlepack v1.4.0\n"
            "    ✖ Invalid config schema\n"
            "    [output] Expected object, received string\n"
            "    Please check the config file and try again.")
    assert _lines(text) == ["✖ Invalid config schema"]
