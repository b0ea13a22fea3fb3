"""Set up the release-checklist proof corpus: each real project as its maintainer has it on release day.

For a project of bench/release_checklist_projects.json this makes, from a bare copy of its public
repository (the layout the `fetch` tool writes: <mirrors>/<owner>+<name>/repo):

- ``origin.git``: a local bare origin holding the release branch at the release tag's commit and the
  tags that existed then (tags created after the release tag are left out);
- ``repo``: a clone of it on the release branch, plus the maintainer's bump commit: the version edits
  and a changelog entry in the file's own heading style, copied from the previous entry's heading.

Nothing of the projects is stored in this repository: only names, commits and expected facts.
Run alone to set up every project: ``python bench/release_checklist_corpus.py [owner/name ...]``.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "release_checklist_projects.json"
MIRRORS_ENV = "RELEASE_BENCH_MIRRORS"  # where the bare repositories are (default /work/.mirror)
WORK_ENV = "RELEASE_BENCH_WORK"  # where the clones go (default bench/.data/release_checklist/projects)
BUMP_DATE = "2026-08-30T12:00:00+00:00"
GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "Maintainer", "GIT_AUTHOR_EMAIL": "maintainer@example.invalid",
           "GIT_COMMITTER_NAME": "Maintainer", "GIT_COMMITTER_EMAIL": "maintainer@example.invalid",
           "GIT_AUTHOR_DATE": BUMP_DATE, "GIT_COMMITTER_DATE": BUMP_DATE, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}


def load_corpus() -> List[Dict[str, Any]]:
    with open(CORPUS, encoding="utf-8") as handle:
        return list(json.load(handle)["projects"])


def mirrors_root() -> Path:
    return Path(os.environ.get(MIRRORS_ENV) or "/work/.mirror")


def work_root() -> Path:
    return Path(os.environ.get(WORK_ENV) or HERE / ".data" / "release_checklist" / "projects")


def mirror_of(project: Dict[str, Any]) -> Optional[Path]:
    """The bare repository holding the project's release commit, or None when it is not on this machine."""
    name = project["repo"].replace("/", "+")
    for candidate in (mirrors_root() / name / "repo", mirrors_root() / name, mirrors_root() / (name + ".git")):
        if candidate.is_dir() and _git(candidate, "cat-file", "-e", project["commit"] + "^{commit}", check=False):
            return candidate
    return None


def _git(where: Path, *args: str, check: bool = True, text: Optional[str] = None) -> bool:
    done = subprocess.run(["git", "-C", str(where), *args], env=GIT_ENV, capture_output=True,
                          input=text.encode() if text is not None else None)
    if check and done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} in {where}: {done.stderr.decode(errors='replace').strip()}")
    return done.returncode == 0


def _out(where: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(where), *args], env=GIT_ENV, capture_output=True,
                          check=True).stdout.decode("utf-8", "replace")


def _stamp(project: Dict[str, Any]) -> str:
    recipe = json.dumps([project["commit"], project["branch"], project["bump"]], sort_keys=True)
    return hashlib.sha256((recipe + Path(__file__).read_text(encoding="utf-8")).encode()).hexdigest()[:16]


def setup(project: Dict[str, Any]) -> Optional[Path]:
    """The project's clone with the bump commit (made once, reused while the recipe is unchanged), or None."""
    mirror = mirror_of(project)
    if mirror is None:
        return None
    base = work_root() / project["repo"].replace("/", "+")
    stamp = base / "stamp"
    if stamp.is_file() and stamp.read_text().strip() == _stamp(project):
        return base / project["repo"].split("/")[1]
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir(parents=True)
    origin = base / "origin.git"
    _make_origin(mirror, origin, project)
    repo = base / project["repo"].split("/")[1]  # named as its maintainers' clones are: the name is a clue
    subprocess.run(["git", "clone", "--quiet", "--no-checkout", "--branch", project["branch"], str(origin),
                    str(repo)], env=GIT_ENV, check=True, capture_output=True)
    missing = _missing_blobs(repo, project["commit"])
    if missing:  # a fetched copy may lack its largest files: leave them out of the work tree (sparse)
        _git(repo, "sparse-checkout", "set", "--no-cone", "/*", *(f"!/{path}" for path in missing))
    _git(repo, "checkout", "--quiet", project["branch"])
    _bump(repo, project)
    stamp.write_text(_stamp(project) + "\n")
    return repo


def _missing_blobs(repo: Path, commit: str) -> List[str]:
    entries = [line.split("\t", 1) for line in _out(repo, "ls-tree", "-r", commit).splitlines()]
    blobs = [(info.split()[2], path) for info, path in entries if info.split()[1] == "blob"]
    answer = subprocess.run(["git", "-C", str(repo), "cat-file", "--batch-check"], env=GIT_ENV, capture_output=True,
                            input="".join(sha + "\n" for sha, _ in blobs).encode()).stdout.decode().splitlines()
    return [path for (_, path), line in zip(blobs, answer) if line.endswith(" missing")]


def _make_origin(mirror: Path, origin: Path, project: Dict[str, Any]) -> None:
    """A bare origin with the release branch at the tag and the tags that existed on release day."""
    subprocess.run(["git", "clone", "--quiet", "--bare", str(mirror), str(origin)], env=GIT_ENV, check=True,
                   capture_output=True)
    release_date = int(_out(origin, "for-each-ref", "--format=%(creatordate:unix)", f"refs/tags/{project['tag']}")
                       .strip())
    branch = f"refs/heads/{project['branch']}"
    commands = [f"delete {ref}" for ref in _out(origin, "for-each-ref", "--format=%(refname)", "refs/heads",
                                                 "refs/remotes", "refs/pull").split() if ref != branch]
    for line in _out(origin, "for-each-ref", "--format=%(creatordate:unix) %(refname)", "refs/tags").splitlines():
        created, ref = line.split(" ", 1)
        if int(created or 0) > release_date:
            commands.append(f"delete {ref}")
    commands.append(f"update {branch} {project['commit']}")
    _git(origin, "update-ref", "--stdin", text="\n".join(commands) + "\n")
    _git(origin, "symbolic-ref", "HEAD", branch)


def _bump(repo: Path, project: Dict[str, Any]) -> None:
    """The maintainer's bump commit: the version edits and one changelog entry per named file."""
    bump = project["bump"]
    for relative, old, new in bump["edits"]:
        path = repo / relative
        text = _read_as_is(path)
        if old not in text:
            raise RuntimeError(f"{project['repo']}: {old!r} is not in {relative}")
        _write_as_is(path, text.replace(old, new, 1))
    for relative, previous in bump["changelog"]:
        path = repo / relative
        _write_as_is(path, add_entry(_read_as_is(path), previous, bump["version"]))
    # Only the touched files: refreshing the whole tree (add -A) dies on a project's own .gitattributes naming an
    # encoding this machine's iconv lacks (sphinx: working-tree-encoding=iso-8859), as `git commit <paths>` would not.
    touched = sorted({relative for relative, _, _ in bump["edits"]} | {relative for relative, _ in bump["changelog"]})
    if touched:
        _git(repo, "add", "--", *touched)
    # Plumbing instead of `git commit`: a tree may name blobs the fetched copy lacks (--missing-ok).
    tree = _out(repo, "write-tree", "--missing-ok").strip()
    commit = _out(repo, "commit-tree", tree, "-p", "HEAD", "-m", f"Release {bump['version']}").strip()
    _git(repo, "update-ref", f"refs/heads/{project['branch']}", commit)


def _read_as_is(path: Path) -> str:
    """A file's text with its line endings as they are (a maintainer's editor keeps CRLF files CRLF)."""
    with open(path, encoding="utf-8", newline="") as handle:
        return handle.read()


def _write_as_is(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)


def add_entry(text: str, previous: str, version: str) -> str:
    """A new entry above the first heading naming previous, written in that heading's style."""
    lines = text.split("\n")
    pattern = re.compile(rf"(?<![\d.]){re.escape(previous)}(?![\d])")
    for number, line in enumerate(lines):
        if not pattern.search(line) or len(line) > 200:
            continue
        # The entry's lines end as the heading's line does (a CRLF file stays CRLF, a mixed one is not evened out).
        cr = "\r" if line.endswith("\r") else ""
        heading = pattern.sub(version, line[:len(line) - len(cr)])
        underline = lines[number + 1] if number + 1 < len(lines) else ""
        entry = [heading]
        if underline.strip() and len(set(underline.strip())) == 1 and underline.strip()[0] in "=-~^*":
            entry.append(underline.strip()[0] * len(heading))
        entry += ["", "- Fix a bug reported after the last release.", ""]
        return "\n".join(lines[:number] + [part + cr for part in entry] + lines[number:])
    raise RuntimeError(f"no heading names {previous}")


def main() -> int:
    wanted = set(sys.argv[1:])
    for project in load_corpus():
        if wanted and project["repo"] not in wanted:
            continue
        repo = setup(project)
        print(f"{project['repo']:<28} {'skipped (no mirror)' if repo is None else repo}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
