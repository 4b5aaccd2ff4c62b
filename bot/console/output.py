"""Where the console's answers go: readable text, or one JSON object per line (``--json``).

Both outputs take the same calls, so the session never asks which one it has.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Protocol, TextIO

from bot.engine.events import Event
from bot.render import Names, render_events


class Output(Protocol):
    """What the console says, and to whom."""

    def begin(self, line: int) -> None:
        """What follows answers input line `line` (1 is the first)."""

    def end(self) -> None:
        """The answer to the line begun last is complete."""

    def events(self, events: list[Event], names: Names, *, log: bool = False) -> None:
        """What an action caused (or, with `log`, a stretch of the game's log)."""

    def reply(self, command: str, text: str) -> None:
        """The answer to a query: status, rules, help, a table, dice..."""

    def raw(self, command: str, text: str) -> None:
        """Text that is already in its final form (an export: JSON Lines)."""

    def info(self, text: str) -> None:
        """A note from the console itself: resuming, how to start, saved on exit."""

    def error(self, message: str, line: int) -> None:
        """Input line `line` was refused, and why."""

    def echo(self, line: str) -> None:
        """A command read from a file or pipe, so the output reads as a transcript."""


class TextOutput:
    """Text for people; errors start with ``!`` so they stand out in a transcript."""

    def __init__(self, stream: TextIO, *, echo: bool) -> None:
        self.stream = stream
        self._echo = echo

    def _print(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    def begin(self, line: int) -> None:
        pass

    def end(self) -> None:
        pass

    def events(self, events: list[Event], names: Names, *, log: bool = False) -> None:
        text = render_events(events, names, actions=log)
        self._print(text or ("The log is empty." if log else "Done."))

    def reply(self, command: str, text: str) -> None:
        self._print(text)

    def raw(self, command: str, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()

    def info(self, text: str) -> None:
        self._print(text)

    def error(self, message: str, line: int) -> None:
        self._print(f"! {message}")

    def echo(self, line: str) -> None:
        if self._echo:
            self._print(f"> {line}")


class JsonOutput:
    """One JSON object per line: events in the engine's shape, everything else typed too.

    Every object carries ``line``, the number of the input line it answers (0 for what the
    session says before reading any: starting or resuming a game), and every input line gets
    at least one: a line with nothing else to say (blank, a comment, ``quit``) gets
    ``{"type": "ok"}``. So a script can tell which answers belong to which of its lines, and
    that none was lost. The output is ASCII (other characters as ``\\u`` escapes), so no
    locale or terminal can garble it.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._line = 0
        self._said = 0

    def begin(self, line: int) -> None:
        self._line, self._said = line, 0

    def end(self) -> None:
        if not self._said:
            self._emit({"type": "ok"})

    def _emit(self, data: Mapping[str, object]) -> None:
        self._said += 1
        tagged = {**data}
        tagged.setdefault("line", self._line)
        self.stream.write(json.dumps(tagged, ensure_ascii=True, separators=(",", ":")) + "\n")
        self.stream.flush()

    def events(self, events: list[Event], names: Names, *, log: bool = False) -> None:
        for event in events:
            self._emit(event)

    def reply(self, command: str, text: str) -> None:
        self._emit({"type": "reply", "command": command, "text": text})

    def raw(self, command: str, text: str) -> None:
        # An export is JSON Lines already: one event per line, tagged like every other answer.
        for line in text.splitlines():
            if line:
                self._emit(json.loads(line))

    def info(self, text: str) -> None:
        self._emit({"type": "info", "message": text})

    def error(self, message: str, line: int) -> None:
        self._emit({"type": "error", "message": message, "line": line})

    def echo(self, line: str) -> None:
        pass
