"""Writing a file a person named (`game export FILE`, `table export ID FILE`, `tables import -o
DIR`): only ever a regular file, and never half of one.

Opening a named pipe for writing waits for a reader, for ever: `game export` to a FIFO hung the
console. A device would swallow the text (``/dev/null``) or fail midway (``/dev/full``). So the
text goes into a new file beside the target, which can't be anything but ours, and replaces the
target only once it is whole. A target that exists and isn't a regular file is refused first.

Every file the bot writes for a person goes through :func:`write_regular`
(``tests/test_writing.py`` checks that no other code in ``bot/`` or ``cogs/`` writes files).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path


class NotAFileError(OSError):
    """The path names something that isn't a regular file; ``strerror`` says what it is."""


def kind_of(mode: int) -> str:
    """What a file of `mode` is, in words: "a named pipe (FIFO)", "a device", ..."""
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "something other than a file"


def write_regular(path: Path, text: str) -> None:
    """Write `text` (UTF-8) to `path`, a regular file or a new one.

    Raises OSError with a ``strerror`` to show: :class:`NotAFileError` when `path` is a pipe,
    a device, a folder or a socket; the system's error when the folder can't be written or the
    disk is full. Either way `path` is as it was.
    """
    target = Path(os.path.realpath(path))  # through a link: its target is what is written
    mode = None
    with contextlib.suppress(FileNotFoundError):
        mode = target.stat().st_mode
    if mode is not None and not stat.S_ISREG(mode):
        raise NotAFileError(0, f"it is {kind_of(mode)}, not a file")
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.part")
    # A new name, made here (O_EXCL): nothing else can be waiting at it. 0o666 less the umask,
    # as any new file; a replaced file keeps its own permissions.
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            if mode is not None:
                os.fchmod(file.fileno(), stat.S_IMODE(mode))
            file.write(text)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
