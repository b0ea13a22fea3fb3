"""File names the summary lists whatever their extension or script, and the look-alikes it must not list."""

from session_summarizer import extraction as ex
from session_summarizer.local_summary import summarize
from session_summarizer.session import parse_session
from session_summarizer.worktree import check_files


def test_a_path_with_a_folder_is_a_file_whatever_its_extension():
    text = ("Updated entry/src/main/ets/pages/CartPage.ets, bridge/hledger-wasm.cabal and "
            ".cursor/rules/creating-tasks.mdc; a fraction like 1/2.5 is not one")
    assert ex.find_paths(text) == ["entry/src/main/ets/pages/CartPage.ets", "bridge/hledger-wasm.cabal",
                                   ".cursor/rules/creating-tasks.mdc"]


def test_hosts_member_accesses_and_build_outputs_are_not_files():
    text = ("Cloned github.com/acme/tool.git, see https://example.org/docs/page.aspx; read input/output.then "
            "window/obj.length; the build wrote build/src/threadx/tx_block.o, out/main.elf and shots/home.png")
    assert ex.find_paths(text) == []


def test_a_file_named_in_backticks_in_any_script_is_a_file():
    assert ex.find_paths("读取了 `易音.md` 和 `docs/完整对话记录.md`，然后修改了 src/app.py") == [
        "易音.md", "docs/完整对话记录.md", "src/app.py"]
    # In running Japanese or Chinese text without backticks, the words glued to a name stay out of it.
    assert ex.find_paths("易音.mdを更新しました") == []


def test_file_kinds_with_a_bare_name_are_files_and_the_summary_lists_them():
    assert ex.find_paths("Edit cabal.project? No: system-user.dtsi and Token.sol, then build.cmake") == [
        "system-user.dtsi", "Token.sol", "build.cmake"]
    session = {"paneId": 1, "agent": "cursor", "sessionId": "s", "title": "t", "cwd": "", "status": "idle",
               "turns": [{"role": "user", "text": "把订单页改成用后端返回的订单"},
                         {"role": "assistant",
                          "text": "已修改 entry/src/main/ets/pages/PaymentPage.ets 和 `易音.md`。"}]}
    summary = summarize(parse_session(session), file_checker=lambda paths, cwd: check_files(paths, ""))
    listed = [check.path for check in summary.files]
    assert "entry/src/main/ets/pages/PaymentPage.ets" in listed and "易音.md" in listed
