"""Worktrees, collisions and agent tags read from real repositories (no plugin process)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Dict, List

from agentty_plugin import Pane, Workspace, ui
from git_status.attribution import SessionResult, attribute, edited_mentions
from git_status.handoff import choose_target
from git_status.location import locate
from git_status.team import TeamReport, place_panes
from git_status.text import TEXT
from git_status.view import State, render
from git_status.worktrees import WorktreeReader, WorktreeReport, parse_worktree_list
from git_status_support import commit_all, git, write

LANGUAGES = ("en", "ja", "ko", "zh")


def read(folder: Path, runner) -> WorktreeReport:  # type: ignore[no-untyped-def]
    return WorktreeReader(runner).read(locate(str(folder), runner))


def by_name(report: WorktreeReport) -> Dict[str, Any]:
    return {w.name: w for w in report.worktrees}


def test_every_worktree_with_its_state(team_repo: Dict[str, Path], runner) -> None:  # type: ignore[no-untyped-def]
    report = read(team_repo["feature-a"], runner)  # asked from a linked worktree: the same list
    assert report.state == "ok" and report.base == "main"
    assert [w.name for w in report.worktrees] == ["main", "feature-a", "feature-b", "clean-c", "gone-d"]
    worktrees = by_name(report)
    assert worktrees["main"].entry.is_main and worktrees["main"].state == "ok" and worktrees["main"].dirty == 0
    assert (worktrees["feature-a"].dirty, worktrees["feature-a"].base_ahead) == (1, 0)
    assert worktrees["feature-a"].uncommitted == {"src/app.py"}
    b = worktrees["feature-b"]
    assert (b.dirty, b.base_ahead, b.base_behind, b.committed, b.uncommitted) == (1, 1, 0, {"src/app.py"}, {"docs.md"})
    assert worktrees["clean-c"].dirty == 0 and worktrees["clean-c"].changed_paths == frozenset()
    gone = worktrees["gone-d"]
    assert gone.state == "missing" and gone.entry.prunable is not None and gone.branch is None


def test_a_file_changed_in_two_worktrees_is_flagged_on_both(team_repo: Dict[str, Path],
                                                           runner) -> None:  # type: ignore[no-untyped-def]
    report = read(team_repo["main"], runner)
    worktrees = by_name(report)
    # feature-a's edit is uncommitted, feature-b's is committed on its branch: both count.
    assert worktrees["feature-a"].collisions == {"src/app.py": ["feature-b"]}
    assert worktrees["feature-b"].collisions == {"src/app.py": ["feature-a"]}
    assert worktrees["main"].collisions == {} and worktrees["clean-c"].collisions == {}
    assert report.collision_count == 1


def test_one_commit_two_branches_share_is_not_a_collision(team_repo: Dict[str, Path], tmp_path: Path,
                                                         runner) -> None:  # type: ignore[no-untyped-def]
    # feature-b2 branched off feature-b: it carries b's commit to src/app.py, the same content.
    git(team_repo["main"], "worktree", "add", "-q", "-b", "feature-b2", str(tmp_path / "wt-b2"), "feature-b")
    worktrees = by_name(read(team_repo["main"], runner))
    assert worktrees["feature-b2"].committed == {"src/app.py"}
    assert worktrees["feature-b"].collisions == {"src/app.py": ["feature-a"]}
    assert worktrees["feature-b2"].collisions == {"src/app.py": ["feature-a"]}
    assert worktrees["feature-a"].collisions == {"src/app.py": ["feature-b", "feature-b2"]}
    # Once b2 edits the file further, the two branches disagree about it: flagged.
    write(tmp_path / "wt-b2" / "src" / "app.py", "print('agent b2')\n")
    commit_all(tmp_path / "wt-b2", "b2 edits")
    assert by_name(read(team_repo["main"], runner))["feature-b"].collisions["src/app.py"] == ["feature-a", "feature-b2"]


def test_a_change_the_base_branch_made_is_not_the_branch_s_own(team_repo: Dict[str, Path],
                                                              runner) -> None:  # type: ignore[no-untyped-def]
    # main moves on and changes docs.md too: feature-b did not commit docs.md, so the merge-base
    # diff leaves it out, while its uncommitted docs.md edit still collides with main's own edit.
    write(team_repo["main"] / "README.md", "# demo, moved on\n")
    commit_all(team_repo["main"], "main moves on")
    worktrees = by_name(read(team_repo["main"], runner))
    b = worktrees["feature-b"]
    assert (b.base_ahead, b.base_behind, b.committed) == (1, 1, {"src/app.py"})
    assert "README.md" not in b.collisions


def test_bare_main_repository_detached_and_mid_rebase(repo: Path, tmp_path: Path,
                                                      runner) -> None:  # type: ignore[no-untyped-def]
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    git(bare, "worktree", "add", "-q", "-b", "topic", str(tmp_path / "topic"))
    git(bare, "worktree", "add", "-q", "--detach", str(tmp_path / "loose"), "main")
    rebasing = tmp_path / "rebasing"
    git(bare, "worktree", "add", "-q", "-b", "rb", str(rebasing), "main")
    write(rebasing / "README.md", "# rebasing side\n")
    commit_all(rebasing, "rb side")
    write(tmp_path / "topic" / "README.md", "# topic side\n")
    commit_all(tmp_path / "topic", "topic side")
    git(rebasing, "rebase", "topic", check=False)  # stops on the conflict in README.md
    git(bare, "worktree", "lock", "--reason", "on a USB disk", str(tmp_path / "loose"))
    report = read(tmp_path / "topic", runner)
    worktrees = {w.path: w for w in report.worktrees}
    assert worktrees[str(bare)].state == "bare" and worktrees[str(bare)].entry.is_main
    loose = worktrees[str(tmp_path / "loose")]
    assert loose.state == "ok" and loose.entry.detached and loose.entry.locked == "on a USB disk"
    stuck = worktrees[str(rebasing)]
    assert stuck.state == "ok" and stuck.operation is not None and stuck.operation.kind == "rebase"
    assert stuck.conflicted == 1 and stuck.entry.detached and stuck.name == "rb"  # the branch being rebased
    # A locked worktree whose disk is unplugged: git does not call it prunable, but it is missing.
    shutil.rmtree(tmp_path / "loose")
    loose = {w.path: w for w in read(tmp_path / "topic", runner).worktrees}[str(tmp_path / "loose")]
    assert loose.state == "missing" and loose.entry.prunable is None
    tree = render(State(mode="worktrees", team=TeamReport(str(tmp_path / "topic"), report)),
                  TEXT.for_language("en"))
    ui.validate(tree)
    text = " ".join(ui.texts(tree))
    assert "bare repository: no working tree" in text and "locked: on a USB disk" in text
    assert "Rebase in progress" in text and "1 conflicted" in text


def test_twenty_worktrees(repo: Path, tmp_path: Path, runner) -> None:  # type: ignore[no-untyped-def]
    for n in range(20):
        git(repo, "worktree", "add", "-q", "-b", f"agent-{n:02}", str(tmp_path / f"w{n:02}"))
        write(tmp_path / f"w{n:02}" / "shared.txt", f"agent {n}\n")
    report = read(repo, runner)
    assert len(report.worktrees) == 21 and all(w.state == "ok" for w in report.worktrees)
    assert by_name(report)["agent-07"].collisions["shared.txt"] == [f"agent-{n:02}" for n in range(20) if n != 7]
    for language in LANGUAGES:
        tree = render(State(mode="worktrees", team=TeamReport(str(repo), report)),
                      TEXT.for_language(language))
        ui.validate(tree)
        assert len(ui.find(tree, "worktrees.list")["items"]) == 21  # type: ignore[index]


def test_parse_handles_both_forms_and_odd_paths() -> None:
    nul = b"worktree /r\0HEAD " + b"a" * 40 + b"\0branch refs/heads/main\0\0worktree /r/with space\nand newline\0" \
          b"HEAD " + b"b" * 40 + b"\0detached\0locked\0\0worktree /gone\0HEAD " + b"c" * 40 + \
          b"\0branch refs/heads/x\0prunable gitdir file points to non-existent location\0\0"
    entries = parse_worktree_list(nul, nul=True)
    assert [e.path for e in entries] == ["/r", "/r/with space\nand newline", "/gone"]
    assert entries[1].detached and entries[1].locked == "" and entries[1].branch is None
    assert entries[2].prunable == "gitdir file points to non-existent location"
    lines = parse_worktree_list(b"worktree /bare\nbare\n\nworktree /w\nHEAD " + b"d" * 40 + b"\nbranch refs/heads/t\n",
                                nul=False)
    assert lines[0].bare and lines[0].is_main and lines[1].branch == "t"


def turns(*texts: str, role: str = "assistant") -> List[Dict[str, str]]:
    return [{"role": role, "text": text} for text in texts]


def test_edited_mentions_need_an_edit_word() -> None:
    found = edited_mentions(turns(
        "⏺ Update(src/app.py)\n⏺ Read(src/util.py)\n",
        "*** Update File: lib/x.py\nI looked at docs/guide.md",
        "auth/login.tsを修正しました。",
        "Fixed the import path in app/routes/orders.js:12 (see `a/b.py`).",
        "• Edited web/a.ts (+1 -1)\n• Explored\n  └ Read package.json, web/tsconfig.json",
        "> Applied edit to cli.py",
        "已修改 src/login.ts，修复了空指针。",
        "The fixture in tests/conftest.py and the address in net/addresses.py are fine.",
    ) + turns("please edit user/asked.py", role="user"))
    assert "src/app.py" in found and "lib/x.py" in found and "auth/login.ts" in found
    assert "app/routes/orders.js" in found and "web/a.ts" in found and "cli.py" in found
    assert "src/login.ts" in found
    assert "web/tsconfig.json" not in found and "package.json" not in found
    assert "tests/conftest.py" not in found and "net/addresses.py" not in found  # "fixture", "address": no edit
    assert "src/util.py" not in found and "docs/guide.md" not in found and "user/asked.py" not in found


def session(pane_id: int, kind: str, cwd: Path, *texts: str) -> SessionResult:
    return SessionResult(pane_id, kind, "ok", str(cwd), turns(*texts))


def test_tags_come_from_sessions_and_git_has_the_last_word(team_repo: Dict[str, Path],
                                                           runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    report = read(team_repo["main"], runner)
    a, b = team_repo["feature-a"], team_repo["feature-b"]
    outside = tmp_path / "elsewhere" / "notes.py"
    sessions = [
        session(12, "claude", a / "src", "⏺ Update(app.py)", f"Edited {outside}", "Wrote README.md"),
        session(13, "codex", b, f"*** Update File: {b / 'src' / 'app.py'}", "updated docs.md and ../x/y.py"),
        session(14, "claude", team_repo["clean-c"], "I edited src/app.py"),  # clean there: git says no
        SessionResult(15, "claude", "timeout"),
    ]
    result = attribute(report, sessions)
    assert [t.pane_id for t in result.for_file(str(a), "src/app.py")] == [12]
    assert [t.pane_id for t in result.for_file(str(b), "src/app.py")] == [13]
    assert [t.pane_id for t in result.for_file(str(b), "docs.md")] == [13]
    assert result.for_file(str(team_repo["clean-c"]), "src/app.py") == []
    assert result.for_file(str(a), "README.md") == []  # not changed in feature-a
    assert result.ignored_outside == 1 and result.state == "timeout"
    assert len(result.tags) == 3


def test_panes_are_placed_in_the_deepest_worktree(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    nested = repo / ".worktrees" / "inner"
    git(repo, "worktree", "add", "-q", "-b", "inner", str(nested))
    report = read(repo, runner)
    panes = [Pane(id=1, kind="claude", status="idle", cwd=str(nested / "src")),
             Pane(id=2, kind="codex", status="working", cwd=str(repo / "src")),
             Pane(id=3, kind="claude", status="idle", cwd="/somewhere/else")]
    placed = place_panes(report, [Workspace(id=1, panes=panes)])
    assert [p.pane_id for p, _ in placed] == [1, 2]
    assert [p.pane_id for p in by_name(report)["inner"].panes] == [1]
    assert [p.pane_id for p in by_name(report)["main"].panes] == [2]


def test_worktree_view_texts_in_every_language(team_repo: Dict[str, Path], runner) -> None:  # type: ignore[no-untyped-def]
    report = read(team_repo["main"], runner)
    for language in LANGUAGES:
        t = TEXT.for_language(language)
        tree = render(State(mode="worktrees", team=TeamReport(str(team_repo["main"]), report)),
                      TEXT.for_language(language))
        ui.validate(tree)
        text = " ".join(ui.texts(tree))
        assert t("wt_missing") in text and t("collision_title", count=1) in text
        assert t("wt_title", count=5) in text


def test_worktrees_view_outside_a_repository_says_why() -> None:
    from git_status.snapshot import RepoSnapshot

    tree = render(State(mode="worktrees", snapshot=RepoSnapshot("not-repo", "/plain")),
                  TEXT.for_language("en"))
    assert "/plain is not inside a git repository." in ui.texts(tree)
    assert not any(node.get("type") == "spinner" for node in tree["children"])


def test_reading_every_worktree_never_rewrites_an_index(team_repo: Dict[str, Path],
                                                        runner) -> None:  # type: ignore[no-untyped-def]
    common = team_repo["main"] / ".git"
    indexes = [common / "index", *sorted((common / "worktrees").glob("*/index"))]
    for folder in (team_repo["feature-a"], team_repo["feature-b"], team_repo["clean-c"]):
        write(folder / "racy.txt", "written in the same second as the index\n")
    before = [(p, p.stat().st_mtime_ns, p.stat().st_size) for p in indexes]
    assert len(before) == 5  # main, a, b, c, and gone-d's record (its folder went, git's record stays)
    read(team_repo["main"], runner)
    read(team_repo["feature-b"], runner)
    assert [(p, p.stat().st_mtime_ns, p.stat().st_size) for p in indexes] == before


def test_hand_off_target_tells_nested_worktrees_apart(repo: Path, runner) -> None:  # type: ignore[no-untyped-def]
    # An agent's worktree inside the main one's folder (repo/.worktrees/agent, a common layout): its
    # idle pane is "in" that worktree only, so a hand-off about the main worktree opens a new tab.
    nested = repo / ".worktrees" / "agent"
    git(repo, "worktree", "add", "-q", "-b", "agent", str(nested))
    report = read(repo, runner)
    idle = Pane(id=7, kind="claude", status="idle", cwd=str(nested / "src"), running=True)
    workspaces = [Workspace(id=1, cwd=str(repo), panes=[idle])]
    main_target = choose_target(idle, workspaces, str(repo), report)
    assert (main_target.target, main_target.reason, main_target.cwd) == ("newTab", "no-agent", str(repo))
    assert choose_target(idle, workspaces, str(nested), report).pane_id == 7
    busy = Pane(id=8, kind="codex", status="working", cwd=str(nested), running=True)
    target = choose_target(None, [Workspace(id=1, cwd=str(repo), panes=[busy])], str(nested), report)
    assert (target.target, target.reason, target.agent) == ("newTab", "busy", "codex")
    # Without the worktree list, a folder test alone would count the nested pane as the main one's.
    assert choose_target(idle, workspaces, str(repo)).pane_id == 7
