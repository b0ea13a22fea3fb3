"""A test repository released once (or several times) and then bumped, with an origin: what most release-checklist
tests start from."""
from __future__ import annotations

from release_checklist import ReleaseSession


def released_session(make_repo, with_remote, data_dir, files, bumped=None, tag="v1.6.2", version=None, earlier=()):
    """A ReleaseSession on a repository holding `files`, tagged `earlier` then `tag` (annotated, one commit
    each), then one commit that writes `bumped`, pushed to a local origin."""
    repo = make_repo(version=version, files=files)
    for name in (*earlier, tag):
        repo.write("log.txt", name + "\n")
        repo.commit(name)
        repo.git("tag", "-a", name, "-m", name)
    for name, text in (bumped or {}).items():
        repo.write(name, text)
    repo.write("fix.txt", "fix\n")
    repo.commit("bump")
    with_remote(repo)
    return ReleaseSession(str(repo), data_dir)
