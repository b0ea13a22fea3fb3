"""Trapped repositories for the tests of every plugin: config that names programs git would run by itself.

Each trap is a small shell script that leaves a marker file named after the trap and passes its
input through. A repository is planted through one route (its own config, an `[include]`, an
`[includeIf "gitdir:…"]`, a worktree config), with a committed `.gitattributes` that sends every
file through the planted filter and diff driver, and a changed file so that status and diff must
read contents. `plain_git_fires` is the control: plain git on the same repository runs the traps,
which proves they are live.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional

ROUTES = ("direct", "include", "includeif", "worktree")


def git(folder: Path, *args: str, env: Optional[Dict[str, str]] = None) -> str:
    done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, check=True,
                          env=env)
    return done.stdout


def isolated_environment(home: Path) -> Dict[str, str]:
    """A HOME of the test's own with an empty global config: the user's real config never leaks in."""
    home.mkdir(parents=True, exist_ok=True)
    (home / ".gitconfig").write_text("[user]\n\tname = Test\n\temail = test@example.com\n"
                                     "[init]\n\tdefaultBranch = main\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update({"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "GIT_CONFIG_NOSYSTEM": "1"})
    return env


def use_isolated_git(monkeypatch: Any, home: Path) -> Dict[str, str]:
    """`isolated_environment` applied to this process too (pytest's monkeypatch undoes it), so the
    runtime's git and the plugins the harness starts see the same HOME and no GIT_* variable."""
    environment = isolated_environment(home)
    for name in [n for n in os.environ if n.startswith("GIT_")]:
        monkeypatch.delenv(name)
    for name in ("HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_NOSYSTEM"):
        monkeypatch.setenv(name, environment[name])
    return environment


def users_own_program(folder: Path, markers: Path) -> Path:
    """A program of the user's own (their git-lfs, say): it leaves `own-<arg>` markers."""
    program = folder / "own.sh"
    program.write_text(f'#!/bin/sh\ntouch "{markers}/own-$1"\ncat\n')
    program.chmod(0o755)
    return program


def trap_program(folder: Path, markers: Path) -> Path:
    script = folder / "trap.sh"
    script.write_text(f'#!/bin/sh\ntouch "{markers}/$1"\ncat\n')
    script.chmod(0o755)
    return script


def trap_config(program: Path) -> str:
    """Every program-valued key we know of, each pointing at the trap with its own name."""
    p = str(program)
    return (
        f"[core]\n\tfsmonitor = {p} fsmonitor\n\tpager = {p} pager\n\thooksPath = {program.parent}/hooks\n"
        f"\tsshCommand = {p} ssh\n\taskPass = {p} askpass\n\tgitProxy = {p} proxy\n"
        f"[filter \"evil\"]\n\tclean = {p} clean\n\tsmudge = {p} smudge\n\trequired = true\n"
        f"[diff \"evil\"]\n\ttextconv = {p} textconv\n\tcommand = {p} diffcommand\n"
        f"[diff]\n\texternal = {p} external\n"
        f"[pager]\n\tstatus = {p} pagerstatus\n\tlog = {p} pagerlog\n"
        f"[credential]\n\thelper = !{p} credential\n"
        f"[gpg]\n\tprogram = {p} gpg\n[log]\n\tshowSignature = true\n"
        f"[remote \"origin\"]\n\turl = {program.parent}/upstream.git\n\tuploadpack = {p} uploadpack\n"
        f"\treceivepack = {p} receivepack\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
    )


def make_trapped_repository(root: Path, route: str, env: Dict[str, str], markers: Path) -> Path:
    """A repository under `root` whose config reaches every trap through `route`.

    The trap program (`root/trap.sh`) writes into `markers`: give each repository its own `root`.
    """
    repo = root / f"repo-{route}"
    repo.mkdir(parents=True)
    program = trap_program(root, markers)
    hooks = root / "hooks"
    hooks.mkdir(exist_ok=True)
    for hook in ("post-index-change", "pre-commit", "post-checkout", "reference-transaction", "pre-auto-gc"):
        (hooks / hook).write_text(f'#!/bin/sh\ntouch "{markers}/hook-{hook}"\n')
        (hooks / hook).chmod(0o755)
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
    subprocess.run(["git", "init", "-q", "--bare", str(root / "upstream.git")], check=True, env=env)
    (repo / "app.py").write_text("print('one')\n")
    (repo / ".gitattributes").write_text("* filter=evil diff=evil\n")
    git(repo, "add", "-A", env=env)
    git(repo, "commit", "-qm", "first", env=env)
    (repo / "app.py").write_text("print('two')\n")  # a changed file: status and diff must read it
    config = trap_config(program)
    git_dir = repo / ".git"
    if route == "direct":
        with open(git_dir / "config", "a", encoding="utf-8") as handle:
            handle.write(config)
    elif route == "include":
        (root / "included.inc").write_text(config)
        with open(git_dir / "config", "a", encoding="utf-8") as handle:
            handle.write(f"[include]\n\tpath = {root / 'included.inc'}\n")
    elif route == "includeif":
        (git_dir / "conditional.inc").write_text(config)
        with open(git_dir / "config", "a", encoding="utf-8") as handle:
            handle.write(f"[includeIf \"gitdir:{repo}/\"]\n\tpath = conditional.inc\n")
    elif route == "worktree":
        git(repo, "config", "extensions.worktreeConfig", "true", env=env)
        (git_dir / "config.worktree").write_text(config)
    else:
        raise ValueError(route)
    return repo


def fired(markers: Path) -> List[str]:
    return sorted(os.listdir(markers))


def plain_git_fires(repo: Path, env: Dict[str, str], markers: Path) -> List[str]:
    """The control: what plain git runs on the repository (then the markers are cleared again)."""
    for args in (["status"], ["diff"], ["log", "-1", "-p"]):
        subprocess.run(["git", "-C", str(repo), *args], capture_output=True, env=env, check=False)
    found = fired(markers)
    for name in found:
        os.unlink(markers / name)
    return found
