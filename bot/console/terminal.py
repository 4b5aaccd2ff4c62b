"""Reading the console's input: a prompt with line editing and history on a terminal, plain
lines from a pipe or file. Lines longer than the grammar allows are cut off here, so a runaway
input can't fill the memory; the session refuses them with a message.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import TextIO

from bot.commands import MAX_LINE
from bot.console.completion import completions

HISTORY_LENGTH = 1000

Prompt = Callable[[], str]


def piped_lines(stream: TextIO) -> Iterator[str]:
    """Lines from a pipe or file, without their line ends.

    A line longer than the limit comes back as its first MAX_LINE + 1 characters (enough for
    the session to refuse it); the rest of it is skipped, not read as further lines.
    """
    while True:
        line = stream.readline(MAX_LINE + 2)
        if not line:
            return
        if not line.endswith("\n") and len(line) > MAX_LINE:
            while (more := stream.readline(64 * 1024)) and not more.endswith("\n"):
                pass
        yield line.rstrip("\r\n")


def prompted_lines(prompt: Prompt, history: Path | None) -> Iterator[str]:
    """Lines typed at a prompt, with readline editing, completion and history when available.

    Ctrl-C abandons the line being typed; Ctrl-D (end of input) ends the session.
    """
    readline = _readline(history)
    try:
        while True:
            try:
                line = input(prompt())
            except KeyboardInterrupt:
                print()
                continue
            except EOFError:
                print()
                return
            yield line[: MAX_LINE + 1]
    finally:
        if readline is not None and history is not None:
            with contextlib.suppress(OSError):
                readline.write_history_file(history)


def _readline(history: Path | None) -> ModuleType | None:
    """Set up GNU readline (or libedit) if this Python has it; None otherwise."""
    try:
        import readline
    except ImportError:  # pragma: no cover - Python built without readline (Windows)
        return None
    matches: list[str] = []

    def complete(text: str, state: int) -> str | None:
        # readline asks for state 0, 1, 2… until None: work the list out once, at 0, from the
        # words before the one being typed.
        if state == 0:
            matches[:] = completions(readline.get_line_buffer()[: readline.get_begidx()], text)
        return matches[state] if state < len(matches) else None

    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")
    readline.set_history_length(HISTORY_LENGTH)
    if history is not None:
        with contextlib.suppress(OSError):
            readline.read_history_file(history)
    return readline
