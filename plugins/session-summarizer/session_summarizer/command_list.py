"""Which commands the "Commands run" section lists, and how: the steps that matter, grouped by program.

Agents wrap one real step in navigation and plumbing (`cd repo && echo "== tsc ==" && npx tsc
--noEmit 2>&1 | head -20`). A reviewer lists the step (`npx tsc --noEmit`), once, next to the other
steps of the same program. So a compound line is split at `&&`, `||`, `;` and pipes (outside
quotes), navigation and printing are dropped, and repeats merge. When there are more steps than
room, the ones that act (commits, pushes, installs, publishing, deleting) stay first, then builds,
tests and linters, then the rest; read-only looking (`ls`, `cat`, `grep`, `git status`) goes first.
"""

import re
from typing import Dict, List, Sequence, Tuple

# Steps that only move around or print: never what a reviewer lists.
_NOISE = frozenset(("cd", "pushd", "popd", "echo", "printf", "sleep", "true", "false", ":", "clear", "pwd", "set",
                    "source", ".", "exit", "wait", "time", "date"))
# Looking, not doing: listed only when there is room.
_LOOKING = frozenset(("ls", "cat", "grep", "rg", "find", "fd", "head", "tail", "wc", "tree", "file", "stat", "which",
                      "type", "less", "more", "sort", "uniq", "awk", "jq", "du", "df", "env", "printenv", "ps", "lsof",
                      "dir", "diff", "xxd", "od", "nl", "cut", "column", "basename", "dirname", "realpath", "readlink",
                      "test", "["))
_LOOKING_GIT = frozenset(("status", "diff", "log", "show", "branch", "remote", "ls-files", "rev-parse", "blame",
                          "config", "describe", "shortlog", "reflog", "check-ignore", "grep", "ls-tree", "cat-file"))
# Steps that change something beyond the files being edited: kept first.
_ACTING = re.compile(
    r"^(?:git (?:commit|push|merge|rebase|tag|init|clone|reset|revert|checkout|switch|restore|rm|add|stash|pull"
    r"|cherry-pick|am|apply|worktree (?:add|remove|prune)|branch -[dDmM])|gh |rm |mv |cp "
    r"|(?:npm|pnpm|yarn|bun) (?:publish|install|i|add|remove|uninstall)\b"
    r"|pip3? install|uv (?:add|sync|remove|pip|init|publish)|poetry (?:add|install|publish)|cargo (?:add|publish"
    r"|install)|go (?:get|install|mod tidy)|gem (?:install|push)|bundle (?:install|add)|composer (?:require|install)"
    r"|dotnet (?:add|nuget|publish)|docker |kubectl |helm |terraform |vercel|netlify|fly |wrangler |supabase "
    r"|alembic |prisma |npx prisma|twine |mix hex|brew install|apt(?:-get)? install|chmod |ln )")
# Builds, tests, linters and formatters: what shows the work holds.
_CHECKING = re.compile(
    r"(?:^|\s)(?:test|tests|pytest|jest|vitest|mocha|playwright|tox|nox|build|compile|tsc|lint|eslint|ruff|mypy"
    r"|pyright|flake8|pylint|black|isort|prettier|gofmt|vet|golangci-lint|clippy|fmt|check|typecheck|rubocop"
    r"|phpunit|rspec|ctest|make|cmake|ninja|gradle|gradlew|mvn|xcodebuild|swift|dotnet|cargo|go)(?:\s|$|:)")
_REDIRECT = re.compile(r"\s*(?:\d?>&\d|&>\s*\S+|\d?>>?\s*(?:/dev/null|\S+)|<\s*/dev/null)")
_PER_BULLET = 5
_SEPARATORS = re.compile(r"&&|\|\||;|\n")


def _is_tool_call(step: str) -> bool:
    """A tool call shown as `name(args)` or `name (server): …`, not a shell line: one step as it is."""
    return "(" in step and " " not in step.split("(", 1)[0].strip()


def _split_outside_quotes(line: str) -> List[str]:
    """The simple commands of a compound line; a pipe keeps only its first stage."""
    if "'" not in line and '"' not in line:  # most lines: no quotes to respect, so no walk char by char
        return [piece.split("|", 1)[0].strip() for piece in _SEPARATORS.split(line) if piece.split("|", 1)[0].strip()]
    pieces: List[str] = []
    current: List[str] = []
    quote = ""
    skip_pipe = False
    index = 0
    while index < len(line):
        char = line[index]
        pair = line[index:index + 2]
        if quote:
            if char == quote:
                quote = ""
            if not skip_pipe:
                current.append(char)
        elif char in "\"'":
            quote = char
            if not skip_pipe:
                current.append(char)
        elif pair in ("&&", "||") or char == ";" or char == "\n":
            pieces.append("".join(current))
            current, skip_pipe = [], False
            index += 2 if pair in ("&&", "||") else 1
            continue
        elif char == "|":
            skip_pipe = True
        elif not skip_pipe:
            current.append(char)
        index += 1
    pieces.append("".join(current))
    return [piece.strip() for piece in pieces if piece.strip()]


def _head(command: str) -> Tuple[str, str]:
    words = command.split()
    while words and "=" in words[0] and not words[0].startswith("-"):  # `FOO=1 cmd`: the program is cmd
        words = words[1:]
    if words and words[0] in ("sudo", "command", "exec", "nohup"):
        words = words[1:]
    program = words[0].rsplit("/", 1)[-1] if words else ""
    sub = words[1] if len(words) > 1 else ""
    return program, sub


def steps(command: str) -> List[str]:
    """The steps of one command line worth listing (navigation and printing dropped, redirections cut)."""
    if _is_tool_call(command):
        return [command]  # a tool call shown as `name(args)` or `name (server): …`: one step as it is
    found = []
    folder = ""
    for piece in _split_outside_quotes(command):
        piece = _REDIRECT.sub("", piece).strip()
        program, sub = _head(piece)
        if program == "cd" and sub.startswith("/"):
            folder = sub.strip("\"'").rstrip("/") + "/"  # after `cd /repo &&`, `/repo/src/a.py` is `src/a.py`
        if not program or program in _NOISE or (program == "export" and "=" in sub):
            continue
        found.append(" ".join((piece.replace(folder, "") if folder else piece).split()))
    return found


# Subcommands that only look, whatever the program: `gh repo list`, `docker ps`, `kubectl get` (`whoami` is kept:
# which account a deploy or a push uses is often the point).
_LOOKING_SUB = frozenset(("list", "ls", "view", "status", "show", "get", "describe", "logs", "inspect", "ps",
                          "info", "version", "--version", "help", "--help", "search", "outdated", "audit"))


def _only_looks(step: str) -> bool:
    """A step whose first or second subcommand only looks (`gh auth status`, `vercel projects list`)."""
    words = [word for word in step.split()[1:4] if not word.startswith("-") or word in ("--version", "--help")]
    return any(word in _LOOKING_SUB for word in words[:2])


def _rank(step: str) -> int:
    program, sub = _head(step)
    if program == "docker" and sub == "exec":  # `docker exec web ls -la`: ranked by what it runs inside
        inner = [word for word in step.split()[2:] if not word.startswith("-")][1:]
        if inner:
            return _rank(" ".join(inner))
    if program != "git" and _only_looks(step[step.find(program):] if program else step):
        return 3
    if _ACTING.match(step[step.find(program):] if program else step):
        return 0
    if program in _LOOKING or (program == "git" and sub in _LOOKING_GIT) or (program == "sed" and "-i" not in step):
        return 3
    if _CHECKING.search(" " + step):
        return 1
    return 2


# Programs whose second word names the real step: `npm run build`, `docker exec web gsh.sh`, `uv run pytest`.
_RUNNERS = frozenset(("run", "exec", "-m", "x", "dlx", "compose"))
_VARIANTS = 2  # ways of calling the same step that are shown (`curl -I …` and `curl -X PUT …`)
_LONG_QUOTE = re.compile(r"([\"'])([^\"'\n]{28,})\1")
_STEP_WORDS = 14
_SUBCOMMAND = re.compile(r"^[a-z][a-z0-9_-]{1,20}$")


def _looks_like_a_place(word: str) -> bool:
    return "/" in word or "\\" in word or "." in word.strip(".") or ":" in word or word.startswith("$")


def signature(step: str) -> str:
    """What a step does, without its arguments: `git commit`, `npm run build`, `docker exec … gsh.sh`."""
    if _is_tool_call(step):
        return step.split(":", 1)[0].strip()  # a tool call: `push_files (github): …`
    words = step.split()
    while words and (("=" in words[0] and not words[0].startswith("-")) or words[0] in ("sudo", "command", "nohup")):
        words = words[1:]
    if not words:
        return step
    program = words[0].rsplit("/", 1)[-1]
    rest = [word for word in words[1:] if not word.startswith("-") or word == "-m"]
    sub = rest[0] if rest and not _looks_like_a_place(rest[0]) else ""
    if sub and len(rest) > 1 and _SUBCOMMAND.match(sub) and _SUBCOMMAND.match(rest[1]) and sub not in _RUNNERS:
        sub += " " + rest[1]  # `docker network connect`, `gh repo create`, `git remote add`
    if program in ("npx", "bunx", "pnpx") or sub in _RUNNERS:
        inner = [word for word in rest[1:] if not word.startswith("-")]
        if program == "docker" and sub == "exec" and len(inner) > 1:  # docker exec <container> <program>
            return "docker exec " + inner[1].rsplit("/", 1)[-1]
        return " ".join([program, sub, *inner[:1]]).replace("  ", " ").strip()
    return (program + " " + sub).strip()


def _compact(step: str) -> str:
    """A step short enough to read: long quoted arguments (commit messages, scripts) and long tails cut."""
    step = _LONG_QUOTE.sub(lambda found: found.group(1) + found.group(2)[:24].rstrip() + "…" + found.group(1), step)
    words = step.split(" ")
    return step if len(words) <= _STEP_WORDS else " ".join(words[:_STEP_WORDS]) + " …"


def pick(commands: Sequence[str], limit: int) -> Tuple[List[str], int]:
    """The distinct steps of `commands`, at most `limit` (each step shown in at most two ways of calling it),
    in the order they first ran, and how many steps were left out."""
    shown: Dict[str, List[str]] = {}
    for command in dict.fromkeys(commands):  # a command run again adds nothing
        for step in steps(command):
            if len(step) < 2:
                continue
            key = signature(step).lower()
            variants = shown.setdefault(key, [])
            if len(variants) < _VARIANTS and _compact(step) not in variants:
                variants.append(_compact(step))
    keys = list(shown)
    order = sorted(range(len(keys)), key=lambda index: (_rank(shown[keys[index]][0]), index))
    room, kept = limit, set()
    for index in order:
        if room <= 0:
            break
        kept.add(index)
        room -= len(shown[keys[index]])
    items: List[str] = []
    for index, key in enumerate(keys):
        if index not in kept:
            continue
        items.extend(shown[key])
    return items, len(keys) - len(kept)


def least_important(items: Sequence[str]) -> int:
    """The position of the item to give up first when the section must shrink: the newest of those that do
    least (looking before running before checking before acting)."""
    ranks = [(_rank(item.split(" · ", 1)[0]), position) for position, item in enumerate(items)]
    worst = max(rank for rank, _ in ranks)
    return max(position for rank, position in ranks if rank == worst)


def program_of(step: str) -> str:
    """What a step is grouped under: the program, or `npx <tool>` / `python -m <module>` / a tool's server."""
    if _is_tool_call(step):
        return step.split("(", 1)[0].strip()
    program, sub = _head(step)
    if program in ("npx", "bunx", "pnpx") or (program.startswith("python") and sub == "-m"):
        words = step.split()
        return " ".join(words[:3] if sub == "-m" else words[:2])
    return program


def bullets(items: Sequence[str]) -> List[str]:
    """The steps as bullet texts: those of one program together, in the order each program first ran."""
    groups: Dict[str, List[str]] = {}
    for item in items:
        groups.setdefault(program_of(item), []).append(item)
    lines = []
    for steps_of_program in groups.values():
        for start in range(0, len(steps_of_program), _PER_BULLET):
            chunk = steps_of_program[start:start + _PER_BULLET]
            lines.append(" · ".join("`" + step.replace("`", "'") + "`" for step in chunk))
    return lines
