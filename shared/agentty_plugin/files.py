"""Writing files so a failure never leaves an empty or half file, and OS errors told in the user's words."""

from __future__ import annotations

import errno
import os

from .i18n import Translator

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Optional

# Temp files start with this, so a listing (or an error message) makes clear they are ours and
# partial; a crash between write and rename leaves one behind, which `remove_stale_temps` clears.
TEMP_PREFIX = ".tmp-"
TEMP_SUFFIX = ".part"


def atomic_write_bytes(path: str, data: bytes, durable: bool = True) -> None:
    """Replace `path` with `data` through a temp file in the same folder and a rename.

    A failure at any point (full disk, no permission, read-only folder, a crash) leaves the old file
    exactly as it was and no temp file behind; the OSError is raised for the caller to explain
    (`describe_os_error`). `durable` fsyncs the file and the folder, so the new content survives a
    power loss too, not only a killed process.
    """
    import tempfile

    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()  # a full disk often shows only here, or only at fsync: both are inside the try
            if durable:
                os.fsync(handle.fileno())
        _keep_mode(path, temp)
        os.replace(temp, path)
    except BaseException as error:
        try:
            os.unlink(temp)
        except OSError:
            pass
        if isinstance(error, OSError) and error.filename in (None, temp):
            # Name the file the caller asked for, never our temp file: that is the one the user knows.
            error.filename = path
        raise
    if durable:
        _fsync_folder(folder)


def atomic_write_text(path: str, text: str, durable: bool = True) -> None:
    """`atomic_write_bytes` for text, in UTF-8 with `\\n` line ends on every platform."""
    atomic_write_bytes(path, text.encode("utf-8"), durable)


def _keep_mode(path: str, temp: str) -> None:
    # mkstemp makes the temp 0600; a file the user already had keeps its own mode (a note stays
    # readable by their other tools), a new one gets the usual mode for the user's umask.
    try:
        mode = os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        os.chmod(temp, mode)
    except OSError:
        pass


def _fsync_folder(folder: str) -> None:
    # Makes the rename itself durable; folders cannot be opened this way on Windows, which is fine.
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale_temps(folder: str) -> int:
    """Delete temp files a crash left in `folder` (ours only: by prefix and suffix); returns how many."""
    removed = 0
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    for name in names:
        if name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX):
            try:
                os.unlink(os.path.join(folder, name))
                removed += 1
            except OSError:
                pass
    return removed


# errno → the reason, in words. Several numbers share a reason: what matters to the user is what
# to do about it, and that is the same for EACCES and EPERM.
_REASONS = {
    errno.ENOSPC: "full",
    errno.EROFS: "read_only",
    errno.EACCES: "permission",
    errno.EPERM: "permission",
    errno.ENOTDIR: "not_folder",
    errno.EEXIST: "not_folder",
    errno.EISDIR: "is_folder",
    errno.ENOENT: "missing",
    errno.EIO: "io",
    errno.ENAMETOOLONG: "name_too_long",
    errno.EMFILE: "busy",
    errno.ENFILE: "busy",
}
if hasattr(errno, "EDQUOT"):
    _REASONS[errno.EDQUOT] = "quota"

TEXT = Translator({
    "en": {
        "save": "Could not save to {folder}: {reason}",
        "read": "Could not read {folder}: {reason}",
        "full": "the disk is full. Free some space there, then try again.",
        "quota": "your disk quota is used up. Free some space, then try again.",
        "read_only": "the folder is read-only. Make it writable or choose another folder, then try again.",
        "permission": "no permission. Give your user write access to it, or choose another folder.",
        "not_folder": "a file is in the way where a folder should be. Move that file away, then try again.",
        "is_folder": "a folder is in the way where a file should be. Move that folder away, then try again.",
        "missing": "the folder does not exist (any more). Create it or choose another one.",
        "io": "the disk reported an input/output error. Check the disk, then try again.",
        "name_too_long": "the file name is too long for this disk.",
        "busy": "too many files are open. Close some programs, then try again.",
        "other": "{detail}. Try again; if it keeps happening, restart the plugin.",
    },
    "ja": {
        "save": "{folder} に保存できませんでした: {reason}",
        "read": "{folder} を読み込めませんでした: {reason}",
        "full": "ディスクがいっぱいです。空き容量を作ってから、もう一度お試しください。",
        "quota": "ディスクの割り当て容量を使い切りました。空き容量を作ってから、もう一度お試しください。",
        "read_only": "フォルダーが読み取り専用です。書き込めるようにするか別のフォルダーを選んで、"
                     "もう一度お試しください。",
        "permission": "権限がありません。このユーザーに書き込み権限を与えるか、別のフォルダーを選んでください。",
        "not_folder": "フォルダーがあるべき場所にファイルがあります。そのファイルを移動してから、"
                      "もう一度お試しください。",
        "is_folder": "ファイルがあるべき場所にフォルダーがあります。そのフォルダーを移動してから、"
                     "もう一度お試しください。",
        "missing": "フォルダーが存在しません。作成するか、別のフォルダーを選んでください。",
        "io": "ディスクが入出力エラーを報告しました。ディスクを確認してから、もう一度お試しください。",
        "name_too_long": "このディスクにはファイル名が長すぎます。",
        "busy": "開いているファイルが多すぎます。いくつかのプログラムを閉じてから、もう一度お試しください。",
        "other": "{detail}。もう一度お試しください。繰り返す場合はプラグインを再起動してください。",
    },
    "ko": {
        "save": "{folder}에 저장하지 못했습니다: {reason}",
        "read": "{folder}을(를) 읽지 못했습니다: {reason}",
        "full": "디스크가 가득 찼습니다. 공간을 확보한 뒤 다시 시도하세요.",
        "quota": "디스크 할당량을 모두 썼습니다. 공간을 확보한 뒤 다시 시도하세요.",
        "read_only": "폴더가 읽기 전용입니다. 쓰기 가능하게 하거나 다른 폴더를 고른 뒤 다시 시도하세요.",
        "permission": "권한이 없습니다. 사용자에게 쓰기 권한을 주거나 다른 폴더를 고르세요.",
        "not_folder": "폴더가 있어야 할 자리에 파일이 있습니다. 그 파일을 옮긴 뒤 다시 시도하세요.",
        "is_folder": "파일이 있어야 할 자리에 폴더가 있습니다. 그 폴더를 옮긴 뒤 다시 시도하세요.",
        "missing": "폴더가 없습니다. 만들거나 다른 폴더를 고르세요.",
        "io": "디스크에서 입출력 오류가 났습니다. 디스크를 확인한 뒤 다시 시도하세요.",
        "name_too_long": "이 디스크에서 쓰기에는 파일 이름이 너무 깁니다.",
        "busy": "열린 파일이 너무 많습니다. 프로그램 몇 개를 닫은 뒤 다시 시도하세요.",
        "other": "{detail}. 다시 시도하세요. 계속되면 플러그인을 다시 시작하세요.",
    },
    "zh": {
        "save": "无法保存到 {folder}：{reason}",
        "read": "无法读取 {folder}：{reason}",
        "full": "磁盘已满。请腾出空间后重试。",
        "quota": "磁盘配额已用完。请腾出空间后重试。",
        "read_only": "该文件夹是只读的。请将其设为可写或选择其他文件夹，然后重试。",
        "permission": "没有权限。请给当前用户写入权限，或选择其他文件夹。",
        "not_folder": "本应是文件夹的位置上有一个文件。请移走该文件后重试。",
        "is_folder": "本应是文件的位置上有一个文件夹。请移走该文件夹后重试。",
        "missing": "该文件夹不存在。请创建它或选择其他文件夹。",
        "io": "磁盘报告了输入/输出错误。请检查磁盘后重试。",
        "name_too_long": "文件名对这个磁盘来说太长了。",
        "busy": "打开的文件太多。请关闭一些程序后重试。",
        "other": "{detail}。请重试；如果一再发生，请重新启动插件。",
    },
})


def os_error_reason(error: BaseException) -> str:
    """The catalog key of why an OS call failed: full, quota, read_only, permission, not_folder, … or other."""
    number = getattr(error, "errno", None)
    return _REASONS.get(number, "other") if isinstance(number, int) else "other"


def describe_os_error(error: BaseException, language: str = "en", path: Optional[str] = None,
                      reading: bool = False) -> str:
    """One sentence for the panel: where, why in words, and what to do; never a temp file's name.

    `path` is the file or folder the user knows (a note, the data folder); without it the error's
    own file name is used, shortened to its folder. The home folder is shown as `~`.
    """
    t = TEXT.for_language(language)
    where = path or getattr(error, "filename", None) or ""
    where = str(where)
    if where and not os.path.isdir(where):
        name = os.path.basename(where)
        if name.startswith(TEMP_PREFIX) or path is None:
            where = os.path.dirname(where) or where
    reason_key = os_error_reason(error)
    if reason_key == "other":
        detail = getattr(error, "strerror", None) or str(error) or error.__class__.__name__
        reason = t("other", detail=str(detail).rstrip("."))
    else:
        reason = t(reason_key)
    return t("read" if reading else "save", folder=_home_relative(where) or "?", reason=reason)


def _home_relative(path: str) -> str:
    home = os.path.expanduser("~")
    if home and home != os.sep and (path == home or path.startswith(home + os.sep)):
        return "~" + path[len(home):]
    return path
