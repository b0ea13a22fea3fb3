"""An OSError told in the user's words (what happened to which folder, and what to do), in en/ja/ko/zh.

The runtime is getting `agentty_plugin.files.describe_os_error` with this signature; until it lands this
small mapping stands in, so no panel or toast ever shows a raw `[Errno …]` or a temp file's name.
"""

import errno
from typing import Any, Dict

_KINDS = {
    errno.ENOSPC: "full", errno.EDQUOT: "full", errno.EFBIG: "full",
    errno.EACCES: "permission", errno.EPERM: "permission",
    errno.EROFS: "readonly",
    errno.ENOTDIR: "not_folder", errno.EEXIST: "not_folder",
    errno.ENOENT: "missing",
}

_WORDS: Dict[str, Dict[str, str]] = {
    "en": {
        "full": "The disk holding {path} is full. Free some space, or choose a folder on another disk.",
        "permission": "You have no permission to write in {path}. Choose another folder, or allow writing there.",
        "readonly": "{path} is on a read-only disk. Choose another folder.",
        "not_folder": "{path} is not a folder (part of its path is a file). Choose another folder.",
        "missing": "{path} does not exist. Create it or choose another folder.",
        "other": "{path} could not be used ({detail}). Try again, or choose another folder.",
    },
    "ja": {
        "full": "{path} のあるディスクがいっぱいです。空き容量を増やすか、別のディスクのフォルダを選んでください。",
        "permission": "{path} に書き込む権限がありません。別のフォルダを選ぶか、書き込みを許可してください。",
        "readonly": "{path} は読み取り専用のディスクにあります。別のフォルダを選んでください。",
        "not_folder": "{path} はフォルダではありません (パスの一部がファイルです)。別のフォルダを選んでください。",
        "missing": "{path} がありません。作成するか、別のフォルダを選んでください。",
        "other": "{path} を使えませんでした ({detail})。もう一度試すか、別のフォルダを選んでください。",
    },
    "ko": {
        "full": "{path}가 있는 디스크가 가득 찼습니다. 공간을 비우거나 다른 디스크의 폴더를 고르세요.",
        "permission": "{path}에 쓸 권한이 없습니다. 다른 폴더를 고르거나 쓰기를 허용하세요.",
        "readonly": "{path}는 읽기 전용 디스크에 있습니다. 다른 폴더를 고르세요.",
        "not_folder": "{path}는 폴더가 아닙니다(경로의 일부가 파일입니다). 다른 폴더를 고르세요.",
        "missing": "{path}가 없습니다. 만들거나 다른 폴더를 고르세요.",
        "other": "{path}를 사용할 수 없습니다({detail}). 다시 시도하거나 다른 폴더를 고르세요.",
    },
    "zh": {
        "full": "{path} 所在的磁盘已满。请释放空间，或选择其他磁盘上的文件夹。",
        "permission": "没有写入 {path} 的权限。请选择其他文件夹，或允许写入该文件夹。",
        "readonly": "{path} 位于只读磁盘上。请选择其他文件夹。",
        "not_folder": "{path} 不是文件夹（路径中有一部分是文件）。请选择其他文件夹。",
        "missing": "{path} 不存在。请创建它或选择其他文件夹。",
        "other": "无法使用 {path}（{detail}）。请重试，或选择其他文件夹。",
    },
}


def error_kind(error: OSError) -> str:
    """full, permission, readonly, not_folder, missing or other."""
    return _KINDS.get(error.errno or 0, "other")


def _local_describe(error: OSError, language: Any, path: str) -> str:
    words = _WORDS.get(str(language or "en").split("-")[0].lower(), _WORDS["en"])
    # strerror has no errno number and no file name (the temp file's name must never be shown).
    detail = error.strerror or error.__class__.__name__
    return words[error_kind(error)].format(path=path, detail=detail)


try:  # the runtime's own wording once it ships it
    from agentty_plugin.files import describe_os_error as _runtime_describe
except ImportError:
    _runtime_describe = None


def describe_os_error(error: OSError, language: Any, path: str) -> str:
    if _runtime_describe is not None:
        return str(_runtime_describe(error, language, path))
    return _local_describe(error, language, path)
