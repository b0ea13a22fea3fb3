"""The empty query lists the notes about the focused pane's repository or folder first (front matter
cwd/project, then file name, title, folder or tags naming it), then the most recent; on both engines."""

import subprocess
from pathlib import Path

from notes_search_helpers import add_filler, write_note


def _repository(tmp_path: Path) -> Path:
    repo = tmp_path / "src" / "agentty-plugins"
    (repo / "plugins").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return repo


def test_related_notes_first_then_recent(tmp_path: Path, notes_root: Path, make_library):
    repo = _repository(tmp_path)
    add_filler(notes_root, 3)
    write_note(notes_root, "a/ctx.md", f"---\ncwd: {repo}\n---\n# Session summary\n\nDid things.\n", 2_000_001)
    write_note(notes_root, "a/proj.md", "---\nproject: agentty-plugins\n---\n# Planning\n\nx\n", 2_000_000)
    write_note(notes_root, "a/Agentty plugins roadmap.md", "What comes next.\n", 2_000_002)
    write_note(notes_root, "agentty-plugins/ideas.md", "# Ideas\n\ny\n", 2_000_003)
    write_note(notes_root, "a/tagged.md", "---\ntags: [agentty-plugins]\n---\n# Tagged\n\nz\n", 2_000_004)
    write_note(notes_root, "a/mention.md", "# Mention\n\nthe agentty-plugins repo is mentioned\n", 2_000_005)
    write_note(notes_root, "a/newest.md", "# Newest\n\nunrelated\n", 2_000_006)
    library = make_library(notes_root)
    library.refresh()
    order = [item.record.rel_path for item in library.search("", focus=str(repo / "plugins")).items]
    assert order[:7] == [
        "a/ctx.md",
        "a/proj.md",
        "a/tagged.md",
        "agentty-plugins/ideas.md",
        "a/Agentty plugins roadmap.md",
        "a/newest.md",
        "a/mention.md",
    ]
    recent = [item.record.rel_path for item in library.search("").items]
    assert recent[:3] == ["a/newest.md", "a/mention.md", "a/tagged.md"]
    # Filters keep the plain recent list; a pane outside any repository uses its folder's name.
    assert library.search("in:a/", focus=str(repo)).items[0].record.rel_path == "a/newest.md"
    elsewhere = tmp_path / "ideas"
    elsewhere.mkdir()
    assert library.search("", focus=str(elsewhere)).items[0].record.rel_path == "agentty-plugins/ideas.md"


def test_focus_keys_of_a_repository_and_of_front_matter():
    from notes_search.focus import context_keys, focus_of

    assert focus_of(None) is None and focus_of("relative/path") is None
    assert context_keys(["~/src/Agentty-Plugins/", "Agentty-Plugins"])[1:] == ["agentty-plugins"]
