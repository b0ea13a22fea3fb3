"""Finds paths, commands, actions, findings, errors, questions and next steps in the text of turns."""

import functools
import re
import string
from typing import Dict, Iterator, List, Tuple

from .memo import SummaryMemo
from .text_gates import gate, holds_any

# --------------------------------------------------------------------------- splitting text

_SENTENCE_END = re.compile(r"[.!?][ \t]+(?=[A-Z\"'(`*])|[。！？]")
_DECORATION = re.compile(r"^(?:[\s>*#\-+•⏺●◦▪✅✔✓☑]|\d{1,3}[.)]\s|\[[ xX]\]\s)+")
_BOLD = re.compile(r"\*\*|__")
_SPACES = re.compile(r"\s+")

MAX_ITEM_CHARS = 240


def _next_fence(text: str, position: int) -> Tuple[int, int, str]:
    """(start of the fence line, end of that line, fence) for the next ``` or ~~~ fence at a line start."""
    while True:
        found = [index for index in (text.find("```", position), text.find("~~~", position)) if index >= 0]
        if not found:
            return -1, -1, ""
        index = min(found)
        line_start = text.rfind("\n", 0, index) + 1
        if text[line_start:index].strip(" \t"):
            position = index + 3  # backticks inside a line are inline code, not a fence
            continue
        run_end = index
        while run_end < len(text) and text[run_end] == text[index]:
            run_end += 1
        line_end = text.find("\n", run_end)
        return line_start, (len(text) if line_end < 0 else line_end), text[index:run_end]


def split_code(text: str) -> Tuple[str, List[Tuple[str, str]]]:
    """Return (prose with code blocks removed, [(language, code)]) for one turn."""
    blocks: List[Tuple[str, str]] = []
    if ("`" not in text or "```" not in text) and ("~" not in text or "~~~" not in text):  # memchr first
        return text, blocks
    prose: List[str] = []
    position = 0
    while True:
        start, header_end, fence = _next_fence(text, position)
        if start < 0:
            prose.append(text[position:])
            break
        prose.append(text[position:start])
        header = text[start:header_end].strip()
        language = header[len(fence):].strip().split(" ", 1)[0].lower()
        body_start = min(len(text), header_end + 1)
        search_from = body_start
        while True:  # the closing fence: a line holding only the same fence (or longer)
            close_start, close_end, close_fence = _next_fence(text, search_from)
            if close_start < 0 or (close_fence.startswith(fence) and not text[close_start:close_end].strip()[
                    len(close_fence):].strip()):
                break
            search_from = close_end
        if close_start < 0:  # an unclosed block runs to the end of the turn
            blocks.append((language, text[body_start:]))
            prose.append("\n")
            break
        blocks.append((language, text[body_start:max(body_start, close_start - 1)]))
        prose.append("\n")
        position = close_end
    return "".join(prose), blocks


def clean_item(text: str) -> str:
    """One tidy line: list markers, bold marks and extra spaces removed, cut at MAX_ITEM_CHARS."""
    text = _BOLD.sub("", _DECORATION.sub("", text.strip()))
    text = _SPACES.sub(" ", text).strip()
    if len(text) > MAX_ITEM_CHARS:
        text = text[: MAX_ITEM_CHARS - 1].rstrip() + "…"
    return text


# Each text's sentences, split once per summary: the decision, error and done readers all read one reply.
_SPLIT: "SummaryMemo[str, Tuple[str, ...]]" = SummaryMemo(4096)


def sentences(prose: str) -> Iterator[str]:
    """Lines, then sentences within a line; empty ones skipped."""
    return iter(_SPLIT.of(prose, lambda text: tuple(_split(text))))


def _split(prose: str) -> Iterator[str]:
    for line in prose.split("\n"):
        line = line.strip()
        if not line:
            continue
        if len(line) < 24 or (". " not in line and "? " not in line and "! " not in line
                              and (line.isascii() or ("。" not in line and "？" not in line and "！" not in line))):
            yield line
            continue
        start = 0
        for boundary in _SENTENCE_END.finditer(line):
            part = line[start:boundary.start() + 1].strip()
            start = boundary.end()
            if part:
                yield part
        part = line[start:].strip()
        if part:
            yield part


# --------------------------------------------------------------------------- paths

_EXTENSIONS = (
    "py|pyi|ipynb|js|mjs|cjs|ts|tsx|jsx|json|jsonc|md|mdx|rst|txt|rs|go|java|kt|kts|rb|php|c|h|cc|cpp|hpp|cs"
    "|swift|m|mm|sh|bash|zsh|fish|ps1|yml|yaml|toml|ini|cfg|conf|env|lock|html|htm|css|scss|sass|less|sql"
    "|xml|gradle|vue|svelte|astro|ex|exs|erl|hs|lua|r|dart|scala|tf|proto|graphql|csv|tsv|svg|dockerfile"
    # Names a file has and a word or a member access rarely has: build files, editor rules, other languages.
    # (Images and office documents are left out: a session names dozens of screenshots it never touched.)
    "|mdc|sol|cabal|dts|dtsi|ets|zig|nim|jl|clj|cljs|elm|fsx|groovy"
    "|sbt|tex|bib|cu|cxx|hxx|hh|asm|cmake|bzl|nix|hcl|tfvars|j2|jinja|njk|hbs|ejs|pug|twig|erb|haml|plist"
    "|pbxproj|xib|storyboard|csproj|fsproj|vcxproj|sln|xaml|razor|cshtml|glsl|hlsl|wgsl|qml|json5|psm1|ino"
    "|webmanifest|gd|tscn|vale|bat"
)
# ASCII-only character classes on purpose: in Japanese or Chinese prose a path is glued to the
# words around it ("src/app.pyを修正"), and `\w` would swallow those words into the path.
_PATH = re.compile(
    r"(?<![A-Za-z0-9_./\-:@~])"
    r"((?:~/|\.{1,2}/|/)?(?:\.?[A-Za-z0-9_@+\-][A-Za-z0-9_.@+\-]*/)*"
    r"(?:\.?[A-Za-z0-9_@+\-][A-Za-z0-9_.@+\-]*\.(?:" + _EXTENSIONS + r")"
    r"|Makefile|Dockerfile|Rakefile|Gemfile|Procfile|Justfile|CMakeLists\.txt|\.gitignore|\.env(?:\.[a-z]+)?))"
    r"(?::\d+(?::\d+)?)?(?![A-Za-z0-9_\-/]|\.[A-Za-z0-9])"
)




def _by_first_letter(words: str) -> str:
    """The same alternation of plain words, grouped by their first letter ("c(?:|c|pp|s|…)|p(?:y|yi|…)"): at a
    "." that ends a sentence the pattern tries one group, not each of ~90 words. Which word of a group
    matches does not change the match: a longer extension goes on with a letter, which the lookahead after
    it refuses, so at most one word can end the match."""
    groups: Dict[str, List[str]] = {}
    for word in words.split("|"):
        groups.setdefault(word[0], []).append(word[1:])
    return "|".join(first + "(?:" + "|".join(rest) + ")" for first, rest in groups.items())


# Where a path can end: a known extension or a well-known file name. Finding these first with a
# cheap pattern and running the full path pattern only around them keeps 2,000 turns fast.
_PATH_HINT = re.compile(
    r"\.(?:" + _by_first_letter(_EXTENSIONS) + r")(?![A-Za-z0-9_\-])"
    r"|Makefile|Dockerfile|Rakefile|Gemfile|Procfile|Justfile|CMakeLists|\.gitignore|\.env"
)
_PATH_CHARS = string.ascii_letters + string.digits + "_.@+-/~"
_LONGEST_PATH = 160


def find_paths(text: str) -> List[str]:
    """File paths mentioned in `text`, in order, without line numbers; URLs are not paths."""
    return list(_paths_in(text))


@functools.lru_cache(maxsize=1024)  # one text is read for paths by several sections, and turns repeat
def _paths_in(text: str) -> Tuple[str, ...]:
    found = []
    covered = 0
    for hint in _PATH_HINT.finditer(text):
        if hint.start() < covered:
            continue
        floor = max(0, hint.start() - _LONGEST_PATH)
        before = text[floor:hint.start()]
        chunk = before.rsplit(None, 1)[-1] if before and not before[-1].isspace() else ""
        # What is left once the path's own characters are stripped from the end ends on the last other one.
        start = hint.start() - len(chunk) + len(chunk.rstrip(_PATH_CHARS))
        end = min(len(text), hint.end() + 16)
        match = _PATH.match(text, start, end) or _PATH.search(text, start, end)  # anchored first: cheaper
        if match is None or match.start() > hint.start():
            continue
        covered = match.end()
        path = match.group(1)
        # A URL's path never matches: the pattern refuses to start right after ":" or "/".
        if path.startswith("//") or path.count(".") > 6:
            continue
        found.append(path)
    if "/" in text or not text.isascii():
        return _with_other_shapes(text, found)
    return tuple(found)


# A path with a folder names a file whatever its extension (`entry/pages/Cart.ets`, `bridge/x.cabal`), unless
# the "extension" is a member name code uses (`window/obj.length`) or a build output's, or the first part is a
# host (`github.com/`).
_FOLDER_PATH = re.compile(
    r"(?<![A-Za-z0-9_./\-:@~])((?:\.{1,2}/|~/)?(?:[A-Za-z0-9_@+\-][A-Za-z0-9_.@+\-]*/)+"
    r"[A-Za-z0-9_@+\-][A-Za-z0-9_.@+\-]*\.([a-z][a-z0-9]{0,11}))(?![A-Za-z0-9_\-/]|\.[A-Za-z0-9])"
)
_LAST_STEP = re.compile(r"/[A-Za-z0-9_@+\-][A-Za-z0-9_.@+\-]*\.([a-z][a-z0-9]{0,11})(?![A-Za-z0-9_\-/]|\.[A-Za-z0-9])")
_KNOWN_EXTENSIONS = frozenset(_EXTENSIONS.split("|"))
_NOT_NAMED_FILES = frozenset((
    "length", "log", "map", "then", "push", "value", "name", "type", "data", "error", "get", "set", "call", "apply",
    "bind", "keys", "id", "js", "parse", "com", "org", "net", "io", "dev", "app", "exe", "so", "dll", "git", "x",
    "args", "props", "state", "current", "default", "prototype", "filter", "join", "split", "env", "body", "json",
    # images and office documents (see _EXTENSIONS), and what a build writes: a build log names hundreds
    "png", "jpg", "jpeg", "gif", "webp", "ico", "bmp", "pdf", "docx", "xlsx", "pptx",
    "o", "d", "obj", "a", "lo", "la", "pyc", "class", "elf", "bin", "hex", "lib", "dylib", "out", "tmp", "bak",
))
# A file named in backticks in any script (`易音.md`, `.specstory/history/…建物….md`): only inside backticks,
# because in Japanese or Chinese prose the words around a bare name are glued to it.
_TICKED_NAME = re.compile(r"`((?:[^`\s/]+/)*[^`\s/]*[^\x00-\x7f][^`\s/]*\.(?:" + _EXTENSIONS + r"))`")


def _with_other_shapes(text: str, found: List[str]) -> Tuple[str, ...]:
    """`found` plus paths of the shapes the known-extension pass cannot see, each once, in the order of the text."""
    known = set(found)
    extra: List[Tuple[int, str]] = []
    if "/" in text:
        covered = 0
        # The last folder step and the name are found first (a literal "/" the engine skips to); only a name
        # whose extension the first pass does not know is read back to the path's start.
        for hint in _LAST_STEP.finditer(text):
            extension = hint.group(1)
            if hint.start() < covered or extension in _KNOWN_EXTENSIONS or extension in _NOT_NAMED_FILES:
                continue
            floor = max(0, hint.start() - _LONGEST_PATH)
            match = _FOLDER_PATH.search(text, floor, hint.end())
            while match is not None and match.end() < hint.end():
                match = _FOLDER_PATH.search(text, match.end(), hint.end())
            if match is None or match.end() != hint.end():
                continue
            covered = match.end()
            path = match.group(1)
            first = path.lstrip("./~").split("/", 1)[0]
            if path in known or "." in first:
                continue
            known.add(path)
            extra.append((match.start(), path))
    if not text.isascii() and "`" in text:
        for match in _TICKED_NAME.finditer(text):
            if match.group(1) not in known:
                known.add(match.group(1))
                extra.append((match.start(), match.group(1)))
    if not extra:
        return tuple(found)
    placed = [(text.find(path), path) for path in found] + extra
    return tuple(path for _, path in sorted(placed, key=lambda pair: pair[0]))


# --------------------------------------------------------------------------- commands

_COMMAND_WORDS = frozenset((
    "git", "gh", "npm", "npx", "pnpm", "yarn", "bun", "node", "deno", "python", "python3", "pip", "pip3",
    "pipx", "uv", "poetry", "pytest", "tox", "nox", "make", "cmake", "cargo", "rustc", "rustup", "go", "gradle",
    "gradlew", "mvn", "java", "javac", "dotnet", "docker", "docker-compose", "podman", "kubectl", "helm",
    "terraform", "ls", "cd", "cat", "grep", "rg", "find", "fd", "sed", "awk", "curl", "wget", "ssh", "scp",
    "rsync", "mkdir", "rm", "rmdir", "mv", "cp", "ln", "chmod", "chown", "touch", "export", "source",
    "brew", "apt", "apt-get", "sudo", "ruff", "mypy", "black", "isort", "flake8", "pylint", "eslint",
    "prettier", "tsc", "jest", "vitest", "mocha", "playwright", "rails", "bundle", "rake", "gem", "php",
    "composer", "swift", "xcodebuild", "flutter", "dart", "psql", "mysql", "sqlite3", "redis-cli", "tar",
    "unzip", "zip", "head", "tail", "wc", "sort", "diff", "patch", "env", "which", "kill", "pkill", "ps",
    "lsof", "pre-commit", "alembic", "django-admin", "manage.py", "./manage.py", "hugo", "jekyll", "vercel",
    "netlify", "supabase", "firebase", "aws", "gcloud", "az", "kill", "bash", "sh", "zsh", "open", "xdg-open",
    "code", "just", "task", "bazel", "ninja", "meson", "clang", "gcc", "mvn", "mvnw", "./mvnw", "java", "dir",
    "Get-ChildItem", "Get-Content", "Set-Location", "Remove-Item", "New-Item", "Copy-Item", "Move-Item",
))
_SHELL_LANGS = frozenset(("bash", "sh", "shell", "console", "zsh", "terminal", "shell-session", "powershell",
                          "ps1", "cmd", "fish"))
_PROMPT = re.compile(r"^\s*(?:\$|%|❯|>|PS [^>]*>)\s+(.+)$")
_TOOL_CALL = re.compile(r"\b(?:Bash|Shell|shell|Run|exec_command|run_command)\((.+)\)\s*$")
_INLINE_CODE = re.compile(r"`([^`\n]{2,200})`")
# Past tense only: "before running the app, install it with `pip install flask`" is advice.
_RAN_WORDS = re.compile(r"(?i)\b(?:ran|re-?ran|executed|(?:after|by) running|i(?:'ve| have) run)\b"
                        r"|実行しました|运行了|执行了|실행했")


def _may_say_ran(line: str) -> bool:
    """Words every branch of _RAN_WORDS needs: ASCII text without "ran", "run" or "executed" says none."""
    if not line.isascii():
        return True
    lowered = line.lower()
    return "ran" in lowered or "run" in lowered or "executed" in lowered


# Output that starts with a command's name: npm's "npm notice …", "npm WARN …", "yarn info …".
_LOG_LINE = re.compile(r"^\S+\s+(?:notice|WARN|warn|ERR!|error|info|http|verb|timing|sill|WARNING|ERROR|INFO)\b")


_SHELL_EXPORT = re.compile(r"^export\s+(?:-\w+\s*)?(?:[A-Za-z_][A-Za-z0-9_]*(?:=\S*|\s*$)|$)")


def _is_command(line: str) -> bool:
    if _LOG_LINE.match(line):
        return False
    first = line.split(None, 1)[0] if line.split() else ""
    if first == "export" and not _SHELL_EXPORT.match(line):
        return False  # `export default function Page() {` is JavaScript, not the shell's export
    if "=" in first and first.split("=", 1)[0].isupper():  # `FOO=1 pytest`
        rest = line.split(None, 1)
        return len(rest) > 1 and _is_command(rest[1])
    return first in _COMMAND_WORDS or first.startswith("./")


def is_command_line(line: str) -> bool:
    """A line that starts with a known command (or a `$ ` prompt before one)."""
    prompted = _PROMPT.match(line)
    return _is_command(prompted.group(1) if prompted else line)


def find_commands(prose: str, blocks: List[Tuple[str, str]]) -> List[str]:
    """Shell commands: lines of shell code blocks, `$ `-prompted lines, Bash(...) calls, inline code."""
    commands: List[str] = []
    for language, code in blocks:
        for raw in code.split("\n")[:40]:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            prompted = _PROMPT.match(line)
            if prompted and _is_command(prompted.group(1)):
                commands.append(prompted.group(1).strip())
            elif _is_command(line) and (language in _SHELL_LANGS or (not language and len(line) < 200)):
                commands.append(line)
    for line in prose.split("\n"):
        tool = _TOOL_CALL.search(line) if "(" in line else None
        if tool:
            commands.append(tool.group(1).strip())
            continue
        prompted = _PROMPT.match(line) if line.lstrip().startswith("$") else None
        if prompted and _is_command(prompted.group(1)):
            commands.append(prompted.group(1).strip())
        # Inline code is advice ("install it with `pip install x`") unless the sentence says it ran.
        if "`" in line and _may_say_ran(line) and _RAN_WORDS.search(line):
            for sentence in sentences(line):
                if "`" in sentence and _RAN_WORDS.search(sentence):
                    for span in _INLINE_CODE.findall(sentence):
                        span = span.strip()
                        if " " in span and _is_command(span):
                            commands.append(span)
    return [command.rstrip("\\").strip() for command in commands if command.strip()]


# --------------------------------------------------------------------------- sentence kinds

# Sentence kinds. Each kind has an English pattern, run on the lower-cased sentence, and a CJK
# pattern, run only when the sentence has non-ASCII text. Cheap word-set gates decide first whether a
# pattern is worth running at all: that is what keeps a 2,000-turn session well under 150 ms.
_ACTION_VERBS = frozenset((
    "fixed", "added", "updated", "created", "removed", "deleted", "renamed", "refactored", "moved", "implemented",
    "changed", "replaced", "wrote", "rewrote", "extracted", "split", "merged", "installed", "upgraded", "bumped",
    "configured", "enabled", "disabled", "converted", "migrated", "simplified", "introduced", "adjusted",
    "corrected", "resolved", "committed", "pushed", "reverted", "restored", "inlined", "documented", "patched",
    "tightened", "handled", "guarded", "ran", "verified", "tested", "made", "edited", "modified", "deployed",
    "released", "built", "set", "cleaned",
))
_LEAD_WORDS = frozenset(("i", "we", "i've", "we've", "i'll", "we'll", "i'd", "have", "also", "then", "now", "just",
                         "finally", "and", "so", "first", "next"))
_ACTION_CJK = re.compile(
    r"(?:修正|追加|更新|作成|削除|変更|実装|リファクタ|移動|置き換え|置換|整理|インストール|設定|書き換え|分割|統合"
    r"|対応|コミット|実行|確認|導入|改善|修復)(?:しました|いたしました|を行いました|済み|が完了|完了しました)"
    r"|(?:수정|추가|업데이트|생성|삭제|변경|구현|리팩터링|리팩토링|이동|교체|설치|설정|커밋|실행|확인|개선|적용)"
    r"(?:했습니다|했어요|하였습니다|했다|완료|해 ?두었습니다|했고)"
    r"|(?:已|已经|我)(?:经)?(?:修复|添加|更新|创建|删除|修改|实现|重构|移动|替换|安装|配置|提交|运行|完成|调整|改进)"
    r"|(?:修复|添加|更新|创建|删除|修改|实现|重构|移动|替换|安装|配置|提交|运行|调整|改进)了"
    r"|^(?:已|已经|我已|我已经)[^。！？]{0,40}?(?:修复|添加|更新|创建|删除|修改|实现|重构|移动|替换|安装|配置|提交|调整|改进"
    r"|新增|移除|优化|完善|补充|编写|改为|改成|重写|拆分|合并|迁移|升级|引入|提取|修正|完成)"
)
def _with_punctuation(words: "tuple[str, ...]") -> "frozenset[str]":
    """The words as `split()` leaves them: bare or with one trailing punctuation mark."""
    return frozenset(word + mark for word in words for mark in ("", ",", ".", ":", ";", ")", "!", "?", "**"))


_FINDING_WORDS = _with_punctuation((
    "cause", "caused", "turns", "found", "problem", "issue", "bug", "culprit", "decided", "decision", "we'll",
    "will", "instead", "chose", "opted", "reason", "because", "means", "trade-off", "tradeoff", "conclusion",
    "rejected", "instead,", "find", "exist", "exist.", "defined", "defined.", "no", "by",
))
_FINDING_EN = re.compile(
    r"\b(?:root cause|the cause|caused by|turns out|found that|the (?:problem|issue|bug|culprit) (?:was|is)"
    r"|decided|decision|we(?:'ll| will) (?:use|go with|keep)|instead|chose|opted|the reason|because|rejected"
    r"|(?:couldn't|could not|can't|cannot) find|does(?:n't| not) exist|is(?:n't| not) defined|there is no"
    r"|by (?:using|creating|adding|replacing|switching to|moving|wrapping|caching|splitting|introducing|passing)"
    r"|this means|trade-?off|conclusion)\b"
)
_FINDING_CJK = re.compile(
    r"原因|判明|ことにしました|方針|決定|わかりました|分かりました|ためです|理由|結論|採用"
    r"|원인|결정|하기로|때문|밝혀|발견|결론|채택"
    r"|决定|发现|因为|由于|选择|结论|采用|改用"
)
_NEXT_WORDS = _with_punctuation((
    "next", "remaining", "still", "todo", "to-do", "do", "follow-up", "follow", "want", "should", "consider",
    "later", "yet",
))
_NEXT_EN = re.compile(
    r"\b(?:next(?: steps?)?|remaining|still (?:need|needs|to)|to ?do|follow[- ]up|left to do"
    r"|you (?:may|might|could|should) (?:want to|also)|we should|should also|consider|later|not yet)\b"
)
_NEXT_CJK = re.compile(
    r"次に|次は|残り|今後|必要があります|予定|べき|未対応|まだ"
    r"|다음|남은|추후|필요합니다|해야|예정|아직"
    r"|下一步|接下来|还需要|后续|待办|建议|应该|尚未"
)
# Literal pieces that every English error pattern below contains; a line without any of them is
# skipped. Plain substring tests are far faster than one alternation over the same text.
_ERROR_PIECES = ("rror", "xception", "ailed", "FAIL", "raceback", "anic", "atal:", "ERR!", "fault", "not found",
                 "such file", "denied", "exit ", "rash", "ncaught", "nhandled", "Could not")
_ERROR_GATE = gate(_ERROR_PIECES)
_ERROR = re.compile(
    r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b|Traceback|\bFAILED\b|\bfailed\b|\bFAIL\b|panic(?:ked)?:|fatal:"
    r"|(?i:\berror(?:\[E\d+\])?:)|ERR!|Segmentation fault|command not found|No such file or directory"
    r"|Permission denied|exit (?:code|status) [1-9]"
    r"|エラー|失敗|例外|오류|실패|에러|예외|错误|失败|报错|异常"
)
# In prose the bare words "error"/"エラー" are too common ("add error messages next"), so sentences
# need a phrase that reports an error that happened.
_PROSE_ERROR = re.compile(
    r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b|Traceback|\bFAILED\b|\bfailed\b|panic(?:ked)?:|fatal:"
    r"|(?i:\berror(?:\[E\d+\])?:)|ERR!|Segmentation fault|command not found|No such file or directory"
    r"|Permission denied|exit (?:code|status) [1-9]|(?i:\bcrash(?:es|ed)\b)"
    r"|エラーが(?:発生|出)|エラーになり|失敗しま|失敗した|例外が"
    r"|(?:오류|에러)가 (?:발생|났)|실패했|실패합니다|예외가"
    r"|出错|报错|失败了|(?:发生|出现)(?:了)?错误|抛出异常"
)
_NOT_AN_ERROR = re.compile(
    r"(?i)\b0 (?:failed|errors?)\b|\bno (?:errors?|failures?)\b|without (?:errors?|failing)|all tests pass"
    r"|エラーなし|エラーはありません|오류 없이|오류가 없|没有错误|无错误"
    # A docstring's list of what a function raises ("ValueError: If the content is empty"): documentation.
    r"|(?-i:\b[A-Z]\w*(?:Error|Exception|Exit):\s+(?:If|When|if|when|Raised|raised|Thrown|thrown|On|on)\b)"
)
_PUNCTUATION = ",.;:!?()[]{}\"'`*<>"
_CHEER = re.compile(r"^(?:[A-Z][a-z]{1,11}(?: [a-z]{1,8})?!+\s+)?(?:[^\w\s`'\"(\[{<*#>\-]+\s*)?(?=\S)")
_NEXT_HEADING = re.compile(
    r"(?i)^(?:#+\s*|\*\*)?(?:next steps?|todo|remaining(?: work)?|follow[- ]ups?|what's left|次のステップ|今後の作業"
    r"|残りの作業|다음 단계|남은 작업|下一步|后续步骤|待办事项)[:：]?\**\s*$"
)
_ACK = re.compile(
    r"(?i)^(?:y(?:es|ep|eah)?|ok(?:ay)?|sure|go(?: ahead)?|continue|thanks?(?: you)?|lgtm|do it|please do|proceed"
    r"|a(?:ll)?|n(?:o)?|s(?:kip(?: all)?)?|d(?:on'?t ask again)?"  # aider's y/n/all/skip prompt answers
    r"|はい|お願いします|続けて|ok です|네|좋아요|계속|好的|继续|可以)[\s.!。！]*$"
)


def has_finding_words(lowered: str) -> bool:
    """Cheap gate over a whole lower-cased turn: could any sentence in it be a finding?"""
    return not _FINDING_WORDS.isdisjoint(lowered.split())


def has_error_words(text: str) -> bool:
    return holds_any(text, _ERROR_GATE)  # asked of every turn


def is_action(sentence: str) -> bool:
    """A report of work done: "Fixed the parser.", "I've added tests", "修正しました"."""
    # "Ran the tests:" introduces output and "Shall I add X?" proposes; neither reports work done.
    if sentence.endswith((":", "：")) or is_question(sentence):
        return False
    sentence = _DECORATION.sub("", sentence)  # "- I added …" is a list item reporting work
    # "Perfect! ✅ I've fixed …", "Excellent! 🎉 I've added …": a cheer and an emoji before the report.
    sentence = _CHEER.sub("", sentence)
    for word in sentence[:48].lower().split(None, 5):
        word = word.strip(_PUNCTUATION)
        if word not in _LEAD_WORDS:
            if word in _ACTION_VERBS:
                return True
            break
    return not sentence.isascii() and bool(_ACTION_CJK.search(sentence[:120]))


def is_finding(sentence: str) -> bool:
    lowered = sentence.lower()
    if not _FINDING_WORDS.isdisjoint(lowered.split()) and _FINDING_EN.search(lowered):
        return True
    return not sentence.isascii() and bool(_FINDING_CJK.search(sentence))


def is_next_step(sentence: str) -> bool:
    lowered = sentence.lower()
    if not _NEXT_WORDS.isdisjoint(lowered.split()) and _NEXT_EN.search(lowered):
        return True
    return not sentence.isascii() and bool(_NEXT_CJK.search(sentence))


# A line of tool output reports an error when it starts with one ("TypeError: …", "npm ERR!", "FAIL …"),
# is a compiler or linter finding ("a.py:3:1: F821 …"), or names an errno ("ECONNREFUSED"). A word
# such as "error" in the middle of a line is usually code or a log message about something else.
# A log line that reports an error with its type, anywhere in the line: "[projector] auto-claim error
# ReplyError: NOGROUP …", "src.client - ERROR - Network error: [SSL: …]".
_LOGGED = re.compile(r"\b(?:error|ERROR|Error)\b[^:\n]{0,40}?(?:\b[A-Z][A-Za-z]*(?:Error|Exception)|\berror): [\[A-Z]")


def is_logged_error(line: str) -> bool:
    return ("rror" in line or "ERROR" in line) and bool(_LOGGED.search(line))


_ERROR_START = re.compile(
    r"^[\s>⎿└│●✗✘×•*\-]*(?:(?:[\w.]+\.)?[A-Z][A-Za-z]*(?:Error|Exception)\b|Error\b|ERROR\b|FAIL(?:ED)?\b"
    r"|(?:remote: )?(?:fatal:|(?i:error)(?:\[E?\d+\])?:)|panic(?:ked)?\b|npm ERR!|Traceback|Segmentation fault"
    r"|Uncaught\b|Unhandled\b|(?:\S+: )?\S+: command not found|exit (?:code|status) [1-9]|Could not resolve"
    # A tool's own failure line, after an optional `[service]` prefix: "Unable to commit: …",
    # "[db] failed to inspect service: Cannot connect to …".
    r"|(?:\[[\w.-]+\]\s*)?(?:Unable to|Cannot|Could not|[Ff]ailed to)\s\w+[^:,\n]{0,40}:\s)"
    r"|\[Errno \d+\]|\bPermission denied\b|\bNo such file or directory\b"  # an OSError anywhere in the line
    # A logged error anywhere in the line (the same as _LOGGED).
    r"|\b(?:error|ERROR|Error)\b[^:\n]{0,40}?(?:\b[A-Z][A-Za-z]*(?:Error|Exception)|\berror): [\[A-Z]"
    r"|\berror [A-Z]{2,}\d+:"  # tsc, MSBuild, C#: "a.ts(3,1): error TS2304: …"
    r"|^\S+:\d+:\d+:? (?:[A-Z]+\d+|error|warning: unused)\b"
    r"|\bE(?:CONN(?:REFUSED|RESET|ABORTED)|NETUNREACH|HOSTUNREACH|NOENT|ACCES|PERM|ADDRINUSE|TIMEDOUT|PIPE"
    r"|NOTFOUND|AI_AGAIN)\b"
    r"|エラー|失敗|例外|오류|실패|에러|예외|错误|失败|报错|异常"
)
SOURCE_LANGUAGES = frozenset((
    "python", "py", "javascript", "js", "jsx", "typescript", "ts", "tsx", "java", "kotlin", "go", "rust", "rs",
    "c", "cpp", "c++", "csharp", "cs", "ruby", "rb", "php", "swift", "scala", "html", "css", "scss", "vue",
    "svelte", "sql", "yaml", "yml", "json", "toml", "xml", "diff", "patch", "markdown", "md", "dart", "lua",
    "elixir", "haskell", "r", "julia", "perl", "graphql", "proto", "hcl", "terraform", "dockerfile", "makefile",
))


# A test run's tally with failures in it, as runners print it and agents repeat it: "7 failed, 835
# passed", "Tests  12 failed | 10 passed (22)", "20 pass, 13 fail, 8 errors", "3件失敗", "2个失败", "1개 실패".
_TALLY = re.compile(
    r"(?i)\b[1-9]\d*\s+(?:tests?\s+)?(?:failed|failing|failures?|fail)\b[^.\n]{0,60}?\b\d+\s+(?:tests?\s+)?"
    r"(?:passed|passing|pass)\b|\b\d+\s+(?:tests?\s+)?(?:passed|passing|pass)\b[^.\n]{0,60}?\b[1-9]\d*\s+"
    r"(?:tests?\s+)?(?:failed|failing|failures?|fail)\b|[1-9]\d*\s*(?:件|个|個|개|項目)?(?:の)?(?:テスト)?(?:が)?\s*(?:失敗|失败|실패)"
    # A linter's or a type checker's count: "171 offenses detected", "Found 3 errors in 2 files", "✖ 12 problems".
    r"|\b[1-9]\d*\s+(?:offenses?|problems?|errors?|issues?)\s+(?:detected|found)\b"
    r"|\bFound [1-9]\d* (?:errors?|problems?|issues?)\b|✖ [1-9]\d* problems? \([1-9]")


def is_failure_tally(text: str) -> bool:
    """A test run's counts that include failures: an error the run hit, whatever else it printed."""
    return ("ail" in text or "ffense" in text or "ound" in text or "✖" in text or not text.isascii()) and bool(
        _TALLY.search(text))


def is_error_line(line: str) -> bool:
    """For lines a tool printed: the line starts with an error, is a linter finding or names an errno."""
    if line.isascii() and not has_error_words(line) and "E" not in line and ":" not in line:
        return False
    return bool(_ERROR_START.search(line)) and not _NOT_AN_ERROR.search(line)


# "This should resolve the SyntaxError" names an error in order to say it is gone.
_FIXES_AN_ERROR = re.compile(
    r"(?i)\b(?:resolve|fix|prevent|avoid|handle|catch|suppress)\w*\b[^.]{0,40}(?:error|exception)\b")


def is_error_sentence(sentence: str) -> bool:
    """For prose, where an error must be reported, not just named."""
    if sentence.isascii() and not has_error_words(sentence):
        return False
    return (bool(_PROSE_ERROR.search(sentence)) and not _NOT_AN_ERROR.search(sentence)
            and not _FIXES_AN_ERROR.search(sentence))


def is_next_heading(line: str) -> bool:
    return bool(_NEXT_HEADING.match(line.strip()))


# A tool asking for permission is not the agent asking the user: "Do you want to proceed?",
# "Run shell command?", "Create new file?", "Add these files to the chat?".
_TOOL_PROMPT = re.compile(
    r"(?i)^(?:do you want to (?:proceed|make this edit|create|run|allow|overwrite|apply)|run (?:shell )?commands?\b"
    r"|create new file|allow (?:creation|edits?|this)|add .{0,80} to the chat|apply (?:this|these) (?:edit|change)"
    r"|proceed\b|continue\?|overwrite\b|commit before the chat proceeds|open (?:url|documentation))"
)


_CLOSERS = ")\"'」』）"


def is_question(sentence: str) -> bool:
    # "?", then spaces, closing marks and spaces to the end: read from the right (no regex scan per sentence).
    return sentence.rstrip().rstrip(_CLOSERS).rstrip().endswith(("?", "？"))


def is_open_question(sentence: str) -> bool:
    """A question left to the user: not a tool's permission prompt, not a row of a quoted table."""
    stripped = sentence.strip()
    return (is_question(stripped) and not stripped.startswith("|")
            and not _TOOL_PROMPT.match(_DECORATION.sub("", stripped)))


def is_acknowledgement(text: str) -> bool:
    return len(text.strip()) < 4 or bool(_ACK.match(text.strip()))


def first_sentences(text: str, limit_chars: int = 300) -> str:
    """The opening of a user ask: its first sentence or two, without code."""
    prose, _ = split_code(text)
    picked: List[str] = []
    size = 0
    for sentence in sentences(prose):
        picked.append(sentence)
        size += len(sentence)
        if size >= 80 or len(picked) >= 2:
            break
    joined = _SPACES.sub(" ", " ".join(picked)).strip()
    if len(joined) > limit_chars:
        joined = joined[: limit_chars - 1].rstrip() + "…"
    return clean_item(joined) if len(joined) <= MAX_ITEM_CHARS else joined
