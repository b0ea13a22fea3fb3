"""What a `git push` step will send: commits on the branch, the tag, the remote and its URL (read-only git)."""
from __future__ import annotations

import dataclasses
from typing import List, Optional, Sequence, Tuple

from . import git_repo


@dataclasses.dataclass(frozen=True)
class PushPreview:
    remote: str
    url: str
    branches: List[str]
    tags: List[str]
    atomic: bool
    commits: Optional[int]  # commits on the (first) branch that the remote lacks; None: new branch there
    remote_exists: bool = True
    missing_tags: Tuple[str, ...] = ()  # tags the push names that are not created yet (it would fail)


def preview_push(repo: str, argv: List[str], release_tags: Sequence[str] = ()) -> Optional[PushPreview]:
    """Read `git push [--atomic] REMOTE REF...`; None when the command is not a push the plugin understands.

    release_tags: the tags this release creates; a ref naming one is a tag even before it exists.
    """
    if len(argv) < 2 or argv[0] != "git" or argv[1] != "push":
        return None
    options = [part for part in argv[2:] if part.startswith("-")]
    names = [part for part in argv[2:] if not part.startswith("-")]
    if not names:
        return None
    remote, refs = names[0], names[1:]
    known_tags = set(git_repo.tags(repo))
    tags = [ref for ref in refs if ref in known_tags or ref in release_tags or ref.startswith("refs/tags/")]
    branches = [ref for ref in refs if ref not in tags]
    missing = tuple(tag for tag in tags if tag.split(":", 1)[0].replace("refs/tags/", "", 1) not in known_tags)
    url = git_repo.run_git(repo, "remote", "get-url", remote)
    commits: Optional[int] = None
    if branches:
        local = branches[0].split(":", 1)[0]
        remote_ref = f"refs/remotes/{remote}/{branches[0].split(':', 1)[-1]}"
        if git_repo.run_git(repo, "rev-parse", "--quiet", "--verify", remote_ref).ok:
            counted = git_repo.run_git(repo, "rev-list", "--count", f"{remote_ref}..{local}")
            commits = int(counted.out.strip()) if counted.ok and counted.out.strip().isdigit() else None
    return PushPreview(remote, url.out.strip() if url.ok else remote, branches, tags,
                       "--atomic" in options, commits, remote in git_repo.remotes(repo), missing)
