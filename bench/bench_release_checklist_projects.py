"""release-checklist on real projects (issue 26): right or wrong on version, tag, changelog, push, publish and
release document, plus false passes and false fails of the built-in checks; held-out projects by default.

Each project of bench/release_checklist_projects.json is cloned at its release tag with a local origin and the
maintainer's bump commit (bench/release_checklist_corpus.py), then opened as the panel and the ACP agent open
it (ReleaseSession). Expected facts were written from the projects' own files before the plugin ran on them.

- after the bump every built-in check (clean tree, branch, upstream, version, changelog, tag free) should pass:
  one that fails is a false fail; one that says it could not check is counted apart ("couldnt");
- on the release commit itself (before the bump) the version check and the changelog check must not both pass,
  the version check must not pass when the project keeps its version in a file (nothing in it was bumped, with
  or without a changelog step), and "first release" is never right for these projects: each is a false pass;
- the version is right only when it was read from the file the expectation names (when it names one).

Bare copies of the projects come from RELEASE_BENCH_MIRRORS (default /work/.mirror, as the fetch tool writes
them); clones go to RELEASE_BENCH_WORK. Projects whose copy is absent are listed as skipped.
RELEASE_BENCH_SPLIT=dev|heldout|all picks the projects (default heldout). The held-out half prints its totals only
(no per-project rows, no misses) unless RELEASE_BENCH_DETAILS=1.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "plugins" / "release-checklist"))

import release_checklist_corpus as corpus  # noqa: E402
from release_checklist import ReleaseSession, StepKind, StepState  # noqa: E402

COLUMNS = ("version", "tag", "changelog", "push", "publish", "doc")
BUILTIN = "release-check "
DERIVED = ("clean-tree", "version-bumped", "tag-free")


def _builtin(session: ReleaseSession, name: str) -> Optional[Any]:
    for step in session.steps:
        if step.kind == StepKind.CHECK and (step.command or "").startswith(BUILTIN + name):
            return step
    return None


def _run(session: ReleaseSession, step: Any) -> Tuple[bool, str]:
    record = session.run_step(step.id)
    text = " ".join(record.tail[-3:]) if record.tail else record.message
    return record.state == StepState.PASSED, text


def _git(repo: Path, *args: str) -> None:
    corpus._git(repo, *args)


def judge(project: Dict[str, Any], repo: Path, data_dir: str) -> Dict[str, Any]:
    """Per column True/False, the false passes and fails, and what the plugin said where it was wrong."""
    expect = project["expect"]
    branch = project["branch"]
    _git(repo, "checkout", "--quiet", branch)
    session = ReleaseSession(str(repo), os.path.join(data_dir, "after"))
    values = session.placeholder_values()
    found: Dict[str, Any] = {}
    right: Dict[str, bool] = {}
    notes: List[str] = []

    version_file = session.project.version_file
    found["version"] = f"{session.version} ({session.version_source}, {version_file})"
    # A version the expectation reads from a file is right only when that file was read (not a proposal
    # or the changelog's top entry that happens to agree).
    right["version"] = session.version == expect["version"] and (
        expect["version_file"] is None or (version_file is not None and version_file.replace(os.sep, "/") ==
                                           expect["version_file"]))

    found["tag"] = f"{values['tag']} after {values['previous_tag'] or '-'}"
    right["tag"] = values["tag"] == expect["tag"] and values["previous_tag"] == expect["last_tag"]

    false_fail = couldnt = 0
    results: Dict[str, Tuple[bool, str]] = {}
    for name in ("clean-tree", "on-branch", "in-sync", "version-bumped", "changelog-entry", "tag-free"):
        step = _builtin(session, name)
        if step is not None:
            results[name] = _run(session, step)
            if not results[name][0] and session.status(step.id).state == StepState.UNKNOWN:
                couldnt += 1  # said it could not check (no version file read): not a pass, not a false fail
                notes.append(f"{name} couldn't check: {results[name][1][:160]}")
            elif not results[name][0]:
                false_fail += 1
                notes.append(f"{name} failed: {results[name][1][:160]}")
    first_release = "first release" in results.get("version-bumped", (False, ""))[1]

    changelog_step = _builtin(session, "changelog-entry")
    named = session.command_of(changelog_step).split(" ", 3)[-1].strip("'\"") if changelog_step else None
    found["changelog"] = named or "-"
    if expect["changelog"]:
        right["changelog"] = named in expect["changelog"] and results["changelog-entry"][0]
    else:
        right["changelog"] = changelog_step is None

    push = [session.command_of(step) or "" for step in session.steps
            if step.kind == StepKind.TERMINAL and "push" in (step.command or "")]
    found["push"] = push[0] if push else "-"
    if expect.get("push") == "branch":  # a release workflow makes the tag itself: only the branch is pushed
        right["push"] = bool(push) and all(expect["tag"] not in command.split() for command in push) and any(
            "origin" in command.split() and branch in command.split() for command in push)
    elif expect.get("push") == "release-page":  # the release document makes the tag on GitHub's release page
        right["push"] = all(expect["tag"] not in command.split() for command in push) and any(
            expect["tag"] in session.title_of(step) and "release page" in session.title_of(step)
            for step in session.steps)
    else:
        right["push"] = any(expect["tag"] in command.split() and "origin" in command.split()
                            and branch in command.split() for command in push)

    publishing = getattr(session, "publishing", None)
    found["publish"] = (f"{publishing.kind} {' '.join(publishing.workflows) or publishing.command or ''}".strip()
                        if publishing is not None else "-")
    wanted = expect["publish"]
    right["publish"] = publishing is not None and publishing.kind == wanted["kind"] and (
        not wanted.get("workflows") or bool(set(publishing.workflows) & set(wanted["workflows"]))) and (
        wanted["kind"] != "command" or any(wanted["command"] in (session.command_of(step) or "")
                                           for step in session.steps if step.kind == StepKind.TERMINAL))

    adopted = session.loaded.source == "adopted"
    doc = os.path.relpath(session.loaded.path, repo).replace(os.sep, "/") if adopted and session.loaded.path else None
    found["doc"] = doc or "-"
    if expect["release_doc"]:
        right["doc"] = doc == expect["release_doc"] and all(_builtin(session, name) for name in DERIVED)
    else:
        right["doc"] = doc is None

    # Before the bump: the release commit itself, as it was tagged.
    false_pass = 1 if first_release else 0
    _git(repo, "checkout", "--quiet", "--detach", f"{branch}~1")
    try:
        before = ReleaseSession(str(repo), os.path.join(data_dir, "before"))
        version_step, entry_step = _builtin(before, "version-bumped"), _builtin(before, "changelog-entry")
        bumped = _run(before, version_step) if version_step else (False, "")
        entry = _run(before, entry_step) if entry_step else (False, "")
        if "first release" in bumped[1]:
            false_pass += 1
        if bumped[0] and entry[0]:
            false_pass += 1
            notes.append(f"before the bump, {before.version} passed version and changelog")
        elif bumped[0] and expect["version_file"] is not None:
            # Nothing was bumped in the file the project keeps its version in, yet the check passed
            # (with or without a changelog step to catch it).
            false_pass += 1
            notes.append(f"before the bump, {before.version} passed the version check")
    finally:
        _git(repo, "checkout", "--quiet", branch)
    if first_release:
        notes.append("said first release")
    return {"right": right, "found": found, "false_fail": false_fail, "false_pass": false_pass, "couldnt": couldnt,
            "notes": notes}


def main() -> None:
    split = os.environ.get("RELEASE_BENCH_SPLIT", "heldout")
    # The held-out half prints totals only: a project's own right/WRONG row, once read, is a miss to tune on.
    show_rows = os.environ.get("RELEASE_BENCH_DETAILS", "1" if split != "heldout" else "0") == "1"
    projects = [project for project in corpus.load_corpus() if split == "all" or project["split"] == split]
    print(f"release-checklist on real projects: {split} ({len(projects)} projects; "
          f"mirrors {corpus.mirrors_root()}, clones {corpus.work_root()})")
    header = (f"{'project':<24}" + "".join(f"{name:>10}" for name in COLUMNS) + f"{'false pass':>11}{'false fail':>11}"
              f"{'couldnt':>9}")
    print(header)
    totals = {name: 0 for name in COLUMNS}
    false_pass = false_fail = couldnt = measured = fully = 0
    skipped: List[str] = []
    details: List[str] = []
    for project in projects:
        try:
            repo = corpus.setup(project)
        except (RuntimeError, OSError) as error:
            skipped.append(f"{project['repo']} ({error})")
            continue
        if repo is None:
            skipped.append(project["repo"])
            continue
        with tempfile.TemporaryDirectory() as data_dir:
            result = judge(project, repo, data_dir)
        measured += 1
        for name in COLUMNS:
            totals[name] += result["right"][name]
        false_pass += result["false_pass"]
        false_fail += result["false_fail"]
        couldnt += result["couldnt"]
        fully += all(result["right"].values()) and not result["false_pass"] and not result["false_fail"]
        marks = "".join(f"{'right' if result['right'][name] else 'WRONG':>10}" for name in COLUMNS)
        if show_rows:
            print(f"{project['repo'].split('/')[1][:23]:<24}{marks}{result['false_pass']:>11}"
                  f"{result['false_fail']:>11}{result['couldnt']:>9}", flush=True)
        wrong = [f"{name}: {result['found'][name]!r}" for name in COLUMNS if not result["right"][name]]
        if wrong or result["notes"]:
            details.append(f"  {project['repo']}: " + "; ".join(wrong + result["notes"]))
    print(f"{'right (of ' + str(measured) + ')':<24}" + "".join(f"{totals[name]:>10}" for name in COLUMNS)
          + f"{false_pass:>11}{false_fail:>11}{couldnt:>9}")
    print(f"fully right (every column, no false pass or fail): {fully} of {measured}")
    if skipped:
        print("skipped (not on this machine): " + ", ".join(skipped))
    if details and show_rows:
        print("where it was wrong:")
        print("\n".join(details))


if __name__ == "__main__":
    main()
