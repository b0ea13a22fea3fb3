"""An OSError in the user's words: what is wrong with which folder (disk full, no permission, read-only) and what to do.

Stands in for the runtime's agentty_plugin.files.describe_os_error (same call) until that is on main;
the panel never shows a raw "[Errno 28] …: '/…/.tmp-x.part'" naming a temp file.
"""
from __future__ import annotations

import errno
from typing import Dict, Optional

_KINDS = {
    errno.ENOSPC: "full", errno.EDQUOT: "full", errno.EFBIG: "full",
    errno.EACCES: "denied", errno.EPERM: "denied",
    errno.EROFS: "read-only",
    errno.ENOTDIR: "not-folder", errno.EISDIR: "is-folder",
}

_WORDS: Dict[str, Dict[str, str]] = {
    "en": {
        "full": "The disk holding {path} is full. Free some space, then try again.",
        "denied": "No permission to write in {path}. Give your user write access to it, then try again.",
        "read-only": "{path} is on a read-only disk. Make it writable (or remount it), then try again.",
        "not-folder": "Part of {path} is a file, not a folder. Move that file away, then try again.",
        "is-folder": "{path} is a folder where a file was expected. Move it away, then try again.",
        "other": "{path}: {reason}. Check the folder, then try again.",
    },
    "ja": {
        "full": "{path} のあるディスクがいっぱいです。空き容量を作ってから、もう一度お試しください。",
        "denied": "{path} に書き込む権限がありません。書き込めるようにしてから、もう一度お試しください。",
        "read-only": (
            "{path} は読み取り専用のディスクにあります。書き込めるようにして（再マウントして）から、もう一度お試しくだ"
            "さい。"
        ),
        "not-folder": (
            "{path} の途中がフォルダーではなくファイルです。そのファイルを移動してから、もう一度お試しください。"
        ),
        "is-folder": "{path} はファイルのはずの場所にあるフォルダーです。移動してから、もう一度お試しください。",
        "other": "{path}: {reason}。フォルダーを確認してから、もう一度お試しください。",
    },
    "ko": {
        "full": "{path}이(가) 있는 디스크가 가득 찼습니다. 공간을 확보한 뒤 다시 시도하세요.",
        "denied": "{path}에 쓸 권한이 없습니다. 쓰기 권한을 준 뒤 다시 시도하세요.",
        "read-only": "{path}은(는) 읽기 전용 디스크에 있습니다. 쓸 수 있게(다시 마운트) 한 뒤 다시 시도하세요.",
        "not-folder": "{path}의 경로 중 일부가 폴더가 아니라 파일입니다. 그 파일을 옮긴 뒤 다시 시도하세요.",
        "is-folder": "{path}은(는) 파일이 있어야 할 자리에 있는 폴더입니다. 옮긴 뒤 다시 시도하세요.",
        "other": "{path}: {reason}. 폴더를 확인한 뒤 다시 시도하세요.",
    },
    "zh": {
        "full": "{path} 所在的磁盘已满。请腾出空间后重试。",
        "denied": "没有写入 {path} 的权限。请为当前用户开放写权限后重试。",
        "read-only": "{path} 位于只读磁盘上。请使其可写（或重新挂载）后重试。",
        "not-folder": "{path} 路径中的某一部分是文件而不是文件夹。请移走该文件后重试。",
        "is-folder": "{path} 是一个文件夹，但这里应当是文件。请移走它后重试。",
        "other": "{path}：{reason}。请检查该文件夹后重试。",
    },
}


def error_kind(error: OSError) -> str:
    """"full", "denied", "read-only", "not-folder", "is-folder" or "other"."""
    return _KINDS.get(error.errno or 0, "other")


def describe_os_error(error: OSError, language: str = "en", path: Optional[str] = None) -> str:
    """One sentence naming path (the folder the user knows, never a temp file) and the fix."""
    words = _WORDS.get((language or "en").split("-")[0].lower(), _WORDS["en"])
    reason = error.strerror or error.__class__.__name__
    return words[error_kind(error)].format(path=path or error.filename or "?", reason=reason)
