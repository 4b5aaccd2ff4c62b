"""Where the console's answers go: readable text, or one JSON object per line (``--json``).

Both outputs take the same calls, so the session never asks which one it has.
"""

from __future__ import annotations

import json
from typing import Protocol, TextIO

from bot.engine.events import Event
from bot.render import Names, render_events


class Output(Protocol):
    """What the console says, and to whom."""

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
    """One JSON object per line: events in the engine's shape, everything else typed too."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def _emit(self, data: object) -> None:
        self.stream.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")
        self.stream.flush()

    def events(self, events: list[Event], names: Names, *, log: bool = False) -> None:
        for event in events:
            self._emit(event)

    def reply(self, command: str, text: str) -> None:
        self._emit({"type": "reply", "command": command, "text": text})

    def raw(self, command: str, text: str) -> None:
        # An export is JSON Lines already: one event per line, passed on as it is.
        for line in text.splitlines():
            if line:
                self.stream.write(line + "\n")
        self.stream.flush()

    def info(self, text: str) -> None:
        self._emit({"type": "info", "message": text})

    def error(self, message: str, line: int) -> None:
        self._emit({"type": "error", "message": message, "line": line})

    def echo(self, line: str) -> None:
        pass
