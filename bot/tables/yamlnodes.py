"""Reading a YAML file into plain Python values, remembering the line of every key path.

Why not ``yaml.safe_load``: it forgets where each value came from, and every message we give a
table author names a line. Why not ``yaml.compose`` either: it builds the whole node graph before
we can look at it, so a deeply nested document crashes the C composer (it recurses in C) and
an alias bomb is already a graph by the time we could refuse it. So we read the parser's
*events* (``yaml.parse``) and build the values ourselves with an explicit stack. That is
exactly as safe as ``safe_load`` - the same SafeLoader parser, the same implicit typing of
plain scalars, and no tag can ever construct a Python object: any tag beyond the plain YAML
types is refused - and it lets us refuse, before anything expands:

* files over :data:`MAX_FILE_BYTES`;
* nesting deeper than :data:`MAX_DEPTH`;
* aliases (``*name``) that would copy out more than :data:`MAX_ALIAS_VALUES` values in all;
* duplicate keys (``safe_load`` silently keeps the last one).

Keys are kept as the text the author typed: YAML 1.1 reads a bare ``on`` as ``True``, which
would turn a key named ``on`` or ``yes`` into nonsense. For the same reason the typed text
of every scalar YAML read as something other than a string is kept in :attr:`Document.raw`, so
``name: 1984`` or ``name: Yes`` still reads as the name the author wrote.
"""

from __future__ import annotations

import functools
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import ScalarNode

from bot.tables.problems import Key, KeyPath, TableFileError, format_path
from bot.writing import kind_of

MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 40
MAX_ALIAS_VALUES = 10_000

# The C parser (libyaml) when PyYAML was built with it; the pure-Python one gives the same events.
LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_YAML = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = (_YAML + t for t in ("str", "int", "float", "bool", "null"))
_SEQ, _MAP = _YAML + "seq", _YAML + "map"
_IMPLICIT = yaml.SafeLoader.yaml_implicit_resolvers
_CONSTRUCTOR = SafeConstructor()


@dataclass(frozen=True, slots=True)
class Document:
    """A file's content as plain values, with the line of every key path and list item."""

    file: str
    data: object
    lines: dict[KeyPath, int] = field(repr=False)
    raw: dict[KeyPath, str] = field(repr=False)

    def line(self, path: KeyPath) -> int:
        """The line of `path`, or of the nearest enclosing value that has one."""
        while path:
            line = self.lines.get(path)
            if line is not None:
                return line
            path = path[:-1]
        return self.lines.get((), 1)

    def error(self, path: KeyPath, message: str) -> TableFileError:
        """A problem at `path` in this file."""
        return TableFileError(self.file, self.line(path), format_path(path), message)


def read_document(path: Path, name: str | None = None) -> Document:
    """Read and parse one file; `name` is how messages call it (the path by default)."""
    shown = name or str(path)
    data = read_regular(path, shown, MAX_FILE_BYTES)
    if len(data) > MAX_FILE_BYTES:
        raise _too_big(shown, max(len(data), path.stat().st_size))
    return parse_document(data, shown)


def read_regular(path: Path, shown: str, limit: int) -> bytes:
    """At most `limit` + 1 bytes of a regular file (one more, so a caller sees it is too big);
    TableFileError naming `shown` for anything else.

    Only a regular file is read: a named pipe would wait for a writer forever, and a device
    such as /dev/zero never ends.
    """
    try:
        # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as error:  # ValueError: a NUL in the path
        reason = getattr(error, "strerror", None) or "not a path"
        raise TableFileError(shown, 1, "", f"can't read this file: {reason}") from None
    with os.fdopen(fd, "rb") as file:
        try:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise TableFileError(
                    shown, 1, "", f"can't read this file: it is {kind_of(mode)}, not a file"
                )
            return file.read(limit + 1)
        except OSError as error:
            raise TableFileError(shown, 1, "", f"can't read this file: {error.strerror}") from None


def parse_document(source: str | bytes, file: str) -> Document:
    """Parse YAML text (or UTF-8 bytes) that claims to come from `file`."""
    if isinstance(source, bytes):
        if len(source) > MAX_FILE_BYTES:
            raise _too_big(file, len(source))
        try:
            text = source.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            line = source[: error.start].count(b"\n") + 1
            raise TableFileError(file, line, "", "this file is not UTF-8 text") from None
    else:
        text = source
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > MAX_FILE_BYTES:
            raise _too_big(file, size)
    builder = _Builder(file)
    try:
        loader = LOADER(text)
        try:  # yaml.parse's loop, without a generator's step between events
            feed, more = builder.feed, loader.check_event
            event: Callable[[], yaml.Event] = loader.get_event
            while more():
                feed(event())
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as error:
        raise _syntax(file, error, text) from None
    except yaml.reader.ReaderError as error:
        line = text[: error.position].count("\n") + 1
        raise TableFileError(
            file, line, "", f"character #x{error.character:04x} is not allowed in a YAML file"
        ) from None
    except yaml.YAMLError as error:  # pragma: no cover - every parser error is one of the above
        raise TableFileError(file, 1, "", f"this is not valid YAML: {error}") from None
    return builder.document()


def _too_big(file: str, size: int) -> TableFileError:
    return TableFileError(
        file,
        1,
        "",
        f"this file is {size:,} bytes; a table file may be at most {MAX_FILE_BYTES:,} bytes"
        " (split it into several lists)",
    )


def _syntax(file: str, error: yaml.MarkedYAMLError, text: str) -> TableFileError:
    mark = error.problem_mark or error.context_mark
    line = mark.line + 1 if mark is not None else 1
    message = f"this is not valid YAML: {error.problem or 'it can not be read'}"
    if error.context:
        message += f" ({error.context})"
    source = text.splitlines()[line - 1 : line]
    if source and "\t" in source[0][: len(source[0]) - len(source[0].lstrip())]:
        message += "; indent with spaces, not tabs"
    return TableFileError(file, line, "", message)


class _Frame:
    """A mapping or list being filled in."""

    __slots__ = ("anchor", "key", "path", "size", "value")

    def __init__(self, value: dict[str, object] | list[object], path: KeyPath, anchor: str | None):
        self.value = value
        self.path = path
        self.anchor = anchor
        self.key: str | None = None  # a mapping's key waiting for its value
        self.size = 1  # values inside, counting what aliases copy in


class _Builder:
    """Turns parser events into plain values, recording lines as it goes."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.stack: list[_Frame] = []
        self.root: object = None
        self.documents = 0
        self.lines: dict[KeyPath, int] = {}
        self.raw: dict[KeyPath, str] = {}
        self.anchors: dict[str, tuple[object, int, str | None]] = {}
        self.copied = 0

    def document(self) -> Document:
        return Document(self.file, self.root, self.lines, self.raw)

    def fail(self, line: int, path: KeyPath, message: str) -> TableFileError:
        return TableFileError(self.file, line, format_path(path), message)

    def feed(self, event: yaml.Event) -> None:
        if type(event) is yaml.ScalarEvent:  # three events in four: tested first, and alone
            self.scalar(event)
            return
        kind = type(event)
        if kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            assert isinstance(event, yaml.CollectionStartEvent)
            self.open(event, kind is yaml.MappingStartEvent)
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            self.close()
        elif kind is yaml.AliasEvent:
            assert isinstance(event, yaml.AliasEvent)
            self.alias(event)
        elif kind is yaml.DocumentStartEvent:
            self.documents += 1
            if self.documents > 1:
                line = _line(event)
                raise self.fail(line, (), "a table file holds one YAML document; remove the '---'")

    def place(self, line: int) -> KeyPath | None:
        """Where the next value goes; None when it is a mapping key."""
        if not self.stack:
            self.lines[()] = line
            return ()
        top = self.stack[-1]
        if isinstance(top.value, list):
            path = (*top.path, len(top.value))
            self.lines[path] = line
            return path
        if top.key is None:
            return None
        return (*top.path, top.key)

    def attach(self, value: object, size: int) -> None:
        if not self.stack:
            self.root = value
            return
        top = self.stack[-1]
        top.size += size
        if isinstance(top.value, list):
            top.value.append(value)
        else:
            assert top.key is not None
            top.value[top.key] = value
            top.key = None

    def scalar(self, event: yaml.ScalarEvent) -> None:
        # The commonest event by far, so `place` and `attach` are written out here.
        mark = event.start_mark
        line = mark.line + 1 if mark is not None else 1
        if not self.stack:  # the whole document is this one value
            self.lines[()] = line
            self.root = self._value(event, line, ())
            return
        top = self.stack[-1]
        into = top.value
        if type(into) is list:
            path = (*top.path, len(into))
            self.lines[path] = line
            into.append(self._value(event, line, path))
        elif top.key is None:  # a mapping key: keep the text as typed
            self.key(event.value, line)
            if event.anchor is not None:
                self.anchors[event.anchor] = (event.value, 1, None)
            return
        else:
            assert isinstance(into, dict)
            into[top.key] = self._value(event, line, (*top.path, top.key))
            top.key = None
        top.size += 1

    def _value(self, event: yaml.ScalarEvent, line: int, path: KeyPath) -> object:
        """A scalar's value; its anchor, and the text typed if YAML read it as other than text,
        are noted on the way."""
        value = _scalar_value(event)
        raw = None
        if type(value) is not str:
            if isinstance(value, TypeError):
                raise self.fail(line, path, str(value))
            raw = self.raw[path] = event.value
        if event.anchor is not None:
            self.anchors[event.anchor] = (value, 1, raw)
        return value

    def key(self, text: str, line: int) -> None:
        top = self.stack[-1]
        assert isinstance(top.value, dict)
        path = (*top.path, text)
        if text in top.value:
            first = self.lines.get(path, line)
            raise self.fail(line, path, f"the key {text!r} appears twice (also on line {first})")
        self.lines[path] = line
        top.key = text

    def open(self, event: yaml.CollectionStartEvent, mapping: bool) -> None:
        line = _line(event)
        path = self.place(line)
        if path is None:
            raise self.fail(line, self.stack[-1].path, "a key must be a plain word, not a list")
        if event.tag not in (None, "!", _MAP if mapping else _SEQ):
            raise self.fail(line, path, f"the YAML tag {event.tag} is not allowed here")
        if len(self.stack) >= MAX_DEPTH:
            raise self.fail(line, path, f"values are nested more than {MAX_DEPTH} levels deep")
        value: dict[str, object] | list[object] = {} if mapping else []
        self.stack.append(_Frame(value, path, event.anchor))

    def close(self) -> None:
        frame = self.stack.pop()
        if frame.anchor is not None:
            self.anchors[frame.anchor] = (frame.value, frame.size, None)
        self.attach(frame.value, frame.size)

    def alias(self, event: yaml.AliasEvent) -> None:
        line = _line(event)
        path = self.place(line)
        where = self.stack[-1].path if path is None else path
        anchor = event.anchor or ""
        if anchor not in self.anchors:
            raise self.fail(line, where, f"the alias *{anchor} refers to no anchor &{anchor} above")
        value, size, raw = self.anchors[anchor]
        if path is None:
            if not isinstance(value, str):
                raise self.fail(line, where, "a key must be a plain word")
            self.key(value, line)
            return
        self.copied += size
        if self.copied > MAX_ALIAS_VALUES:
            raise self.fail(
                line,
                path,
                f"aliases (*{anchor}) would copy out more than {MAX_ALIAS_VALUES:,} values;"
                " write the values out instead",
            )
        if raw is not None:
            self.raw[path] = raw
        self.attach(value, size)


def _scalar_value(event: yaml.ScalarEvent) -> object:
    """A scalar's value as ``safe_load`` reads it, or a TypeError saying why it can't be."""
    text, tag = event.value, event.tag
    if tag is None or tag == "!":
        if not event.implicit[0]:  # quoted, or a block scalar: always a string
            return text
        tag = _plain_tag(text)
    if tag == _STR:
        return text
    try:
        if tag == _INT:
            if text.isdigit() and (text[0] != "0" or len(text) == 1):
                return int(text)
            return _CONSTRUCTOR.construct_yaml_int(ScalarNode(tag, text))
        if tag == _FLOAT:
            return _CONSTRUCTOR.construct_yaml_float(ScalarNode(tag, text))
        if tag == _BOOL:
            return _CONSTRUCTOR.bool_values[text.lower()]
    except (ValueError, KeyError):
        if len(text) > 40:
            return TypeError(f"the number {text[:20]}... has {len(text):,} characters: too long")
        kind = {_INT: "whole number", _FLOAT: "number"}.get(tag, "true or false")
        return TypeError(f"can't read {text!r} as a {kind}")
    if tag == _NULL:
        return None if text in ("", "~") or text.lower() == "null" else text
    if tag.startswith(_YAML) and tag.removeprefix(_YAML) in ("timestamp", "merge", "value"):
        return text  # a date is just text to us; "<<" and "=" are ordinary words
    return TypeError(f"the YAML tag {tag} is not allowed; write a plain value")


def _line(event: yaml.Event) -> int:
    mark = event.start_mark
    return mark.line + 1 if mark is not None else 1


@functools.cache
def _resolvers(first: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple(_IMPLICIT.get(first, [])) + tuple(_IMPLICIT.get(None, []))


def _plain_tag(text: str) -> str:
    """The tag YAML 1.1 gives a plain scalar (the same table SafeLoader uses)."""
    for tag, pattern in _resolvers(text[:1]):
        if pattern.match(text):
            return tag
    return _STR


__all__ = ["MAX_ALIAS_VALUES", "MAX_DEPTH", "MAX_FILE_BYTES", "Document", "Key", "read_document"]
