"""Commands an export hid: the reply says it is about to run something, and the call itself left only a gap.

Cursor's own chat export and Claude's "Conversation Log" drop every tool call and keep the words around it:
"现在我来帮您推送代码到GitHub：" then two or more blank lines where the call was, then "看起来网络连接有问题…";
"`npm install @supabase/supabase-js` 명령어를 실행하여 …설치하겠습니다." then the gap, then "설치가 완료되었습니다".
A lead-in that announces an act, with the gap right after it, is the act having run. The command is the one
the lead-in or the report after the gap names as inline code; without one, the lead-in itself says what ran
when it names running, installing, committing or pushing. Advice to the user ("run this yourself:"), offers
and questions are not announcements.
"""

import re
from typing import List, Sequence, Tuple

from . import cues
from . import extraction as ex

# Two or more blank lines: where the export dropped a call (a paragraph break is one blank line); or a lead-in
# that ends on a colon with no list, code or table after it: what it led into was the call the export dropped.
_GAP = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+|(?<=[:：])[ \t]*\n[ \t]*\n(?![ \t]*(?:[-*+|>#]|\d+[.)]|```|~~~|\S*:\s*$))")
_FENCE = re.compile(r"^[ \t]*(?:```|~~~)", re.M)
_INLINE = re.compile(r"`([^`\n]{3,200})`")
# The agent says it acts now (first person, or an act announced with a colon), in the languages the rules read.
_ANNOUNCE = re.compile(
    r"(?i)\b(?:let me|let's|i'?ll|i will|i am going to|i'm going to|now (?:i|we)|next,? i)\b"
    r"|^(?:now|next|first),? (?:run|set up|install|build|push|commit|pull|deploy|start|restart|test)\b"
    r"|我来|让我|现在(?:我|来)|接下来|我将|我会|します[。：:]?$|しましょう|てみます"
    r"|겠습니다|해 ?보겠|하겠|해볼게|할게요")
# Where the export's gap is blank lines, the lead-in may also just end on a colon or state the act ("…설치합니다.").
_LEADS_IN = re.compile(r"[:：]\s*$|ます[。：:]$|니다[.:：]$")
# What an act that a reviewer lists as a command does: run, install, build, test, start, commit, push, pull, deploy.
_ACTS = re.compile(
    r"(?i)\b(?:run|running|execute|install|reinstall|build|rebuild|compile|test|start|restart|stop|kill|commit"
    r"|push|pull|clone|deploy|migrate|delete|remove)\b"
    r"|実行|インストール|ビルド|コンパイル|テスト|起動|再起動|停止|コミット|プッシュ|プル|デプロイ|削除"
    r"|运行|执行|安装|构建|编译|测试|启动|重启|停止|提交|推送|拉取|部署|删除"
    r"|실행|설치|빌드|컴파일|테스트|시작|재시작|종료|커밋|푸시|배포|삭제")
# An announced look, read or edit is a call too, but not a command a reviewer lists ("let me check whether there
# are new commits", "让我修改pom.xml"): its sentence names the act only as what it looks at or changes.
_NOT_A_RUN = re.compile(
    r"(?i)\b(?:check|checking|look|looking|read|reading|view|inspect|examine|verify|see|search|find|open|review"
    r"|fix|fixing|modify|update|updating|edit|editing|change|add|adding|write|writing|create|creating|rewrite"
    r"|summari[sz]e|explain|analy[sz]e|implement|improve|refactor)\b"
    r"|確認|見て|読|調べ|検索|修正|変更|追加|作成|編集|まとめ|説明|分析|実装|改善|配置"
    r"|检查|查看|看看|看一下|确认|阅读|读取|搜索|查找|修改|修复|更新|添加|创建|编写|总结|解释|分析|实现|改进"
    r"|확인|살펴|읽|검색|찾아|수정|변경|추가|작성|생성|정리|설명|분석|구현|개선")
# Where a line's last sentence starts: the announcement is the sentence right before the gap.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*")
_BULLET = re.compile(r"^(?:[-*+•]|\d{1,2}[.)])\s+")
_ANNOUNCE_CHARS = 100
_HIDDEN_LIMIT = 5
_HIDDEN_BESIDE = 2
# "Now let me", "好的，现在我来帮您": who acts and when; the act after it is the item.
_SPEAKER = re.compile(
    r"(?i)^(?:(?:ok(?:ay)?|good|great|alright|now|next|first|then|好的|好|现在|接下来|首先|然后|那么)[,，、!！]?\s*)*"
    r"(?:let me|let's|let us|i'll|i will|i'm going to|i am going to|我来帮您|我来帮你|我来|让我们|让我|我将|我会)\s*")
# A commit or push the session already shows (its hashes, its command) is not told again by its lead-in.
_COMMITS = re.compile(r"(?i)\b(?:commit|push)|提交|推送|コミット|プッシュ|커밋|푸시")


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.rstrip().split("\n") if line.strip()]
    return lines[-1] if lines else ""


def _first_line(text: str) -> str:
    lines = [line.strip() for line in text.lstrip().split("\n") if line.strip()]
    return lines[0] if lines else ""


def _outside_code(text: str) -> List[Tuple[int, int]]:
    """(start, end) of the stretches of `text` outside fenced code."""
    stretches = []
    start, inside = 0, False
    for fence in _FENCE.finditer(text):
        if not inside:
            stretches.append((start, fence.start()))
        else:
            start = fence.end()
        inside = not inside
    if not inside:
        stretches.append((start, len(text)))
    return stretches


def hidden_runs(replies: Sequence[str], known: Sequence[str] = ()) -> List[str]:
    """Commands (or the lead-ins that name them) that ran where each reply's export left a gap; `known`: the
    commands already found, whose commits and pushes the lead-ins need not tell again."""
    committed = any(command.startswith(("git commit", "git push")) for command in known)
    # Lead-ins are the weakest evidence and cost the summary's words: fewer where real commands were found.
    limit = _HIDDEN_LIMIT if len(known) < 2 else _HIDDEN_BESIDE
    found: List[str] = []
    for reply in replies:
        if ("\n\n\n" not in reply and "\n \n" not in reply and "\n\t\n" not in reply
                and ":\n\n" not in reply and "：\n\n" not in reply):
            continue  # a memchr-cheap test before the pattern: most replies hold no gap
        for begin, end in _outside_code(reply):
            for gap in _GAP.finditer(reply, begin, end):
                lead = _last_line(reply[max(begin, gap.start() - 600):gap.start()])
                report = _first_line(reply[gap.end():min(end, gap.end() + 600)])
                blank = gap.group(0).count("\n") >= 3
                step = _BULLET.match(lead)
                if step and not blank:
                    continue  # a list's item before a colon: a plan's step, not a call that left a gap
                lead = lead[step.end():] if step else lead
                pieces = [piece for piece in _SENTENCE_END.split(lead) if piece.strip()]
                lead = pieces[-1].strip() if pieces else ""
                if (not lead or not (_ANNOUNCE.search(lead) or (blank and _LEADS_IN.search(lead)))
                        or ex.is_question(lead) or cues.is_user_task(lead)):
                    continue
                named = [span.strip() for span in _INLINE.findall(lead) + _INLINE.findall(report)
                         if " " in span.strip() and ex.is_command_line(span.strip())]  # a bare name is a topic
                if named:
                    found.append(named[0])
                elif (_ACTS.search(lead) and not _NOT_A_RUN.search(lead) and not lead.startswith(("#", "|"))
                      and not (committed and _COMMITS.search(lead))
                      and sum(1 for item in found if " " in item and not ex.is_command_line(item)) < limit):
                    text = _SPEAKER.sub("", lead).rstrip(":：.。").strip() or lead
                    found.append(text if len(text) <= _ANNOUNCE_CHARS else text[:_ANNOUNCE_CHARS - 1] + "…")
    return list(dict.fromkeys(found))
