"""The report that closes asked-for work counts as results whatever words its heading uses: the first list under a
heading-shaped line in the last reply of a phase whose ask asked for work and whose replies show work done.

Replies are invented in the shapes agents print (an OpenCode export's "**Tool: edit**" records, a Codex app's
folded steps), in several languages; none is copied from the corpus.
"""

from session_summarizer.done_reports import report_items
from session_summarizer.local_summary import summarize
from session_summarizer.session import parse_session
from session_summarizer.worktree import check_files


def _done(turns, agent="opencode"):
    raw = {"agent": agent, "cwd": "", "turns": [{"role": role, "text": text} for role, text in turns]}
    return summarize(parse_session(raw), file_checker=lambda paths, folder: check_files(paths, "")).done.items


def _report(heading):
    return ("**Tool: edit**\n\n**Tool: write**\n\n" + heading + "\n\n"
            "1. **Kasir** (`server/kasir.py`)\n   - struk dicetak per transaksi\n"
            "2. `server/stok.py` mengurangi stok setiap penjualan\n\n"
            "Langkah selanjutnya:\n1. Jalankan server lalu coba login\n")


def test_the_closing_report_is_read_under_a_heading_in_any_language():
    for heading in ("## ✅ Selesai", "Yang berubah:", "Implementado.", "**Perubahan**", "수정 내역:", "สิ่งที่ทำ:"):
        done = _done([("user", "Tambahkan fitur kasir dan pengurangan stok di folder server"),
                      ("assistant", _report(heading))])
        text = " | ".join(done)
        assert "Kasir (`server/kasir.py`): struk dicetak per transaksi" in text, heading
        assert "`server/stok.py` mengurangi stok setiap penjualan" in text, heading
        assert "Jalankan server" not in text, heading  # the second list is what the user is to do next


def test_an_answer_to_a_question_or_a_reply_without_work_is_no_report():
    question = _done([("user", "Bagaimana cara menambahkan fitur kasir di folder server?"),
                      ("assistant", _report("Yang berubah:"))])
    assert not any("kasir.py" in item for item in question)
    told = _report("Yang berubah:").replace("**Tool: edit**", "").replace("**Tool: write**", "")
    no_work = _done([("user", "Tambahkan fitur kasir dan pengurangan stok di folder server"), ("assistant", told)])
    assert not any("kasir.py" in item for item in no_work)


def test_a_list_of_what_could_not_be_done_or_what_is_next_is_not_the_report():
    assert report_items("无法获取：\n\n- 用户的完整浏览历史\n- 其他标签页的历史记录\n") == []
    assert report_items("## Next steps\n\nDone:\n- deploy the worker\n") == []
    for steps in ("To preview it:", "Please do the following:", "確認するには：", "확인하려면:", "请按以下步骤操作："):
        assert report_items(steps + "\n1. Open a terminal in the app folder\n2. Start the server\n") == [], steps
    assert report_items("Cambios:\n\n- `a.py` valida la entrada\n- `b.py` registra errores\n") == [
        "`a.py` valida la entrada", "`b.py` registra errores"]
