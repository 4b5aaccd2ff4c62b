"""Text from the shared renderer and the engine, as Discord shows it.

The renderer and the engine name commands as the console types them (`` `chaos roll` ``,
`` `game join NAME` ``); on Discord the same hints are slash commands (`` `/chaos roll` ``,
`` `/game join` ``: the name is the member's own there). Table and player text is escaped so a
``*`` or ``_`` in it prints as itself; the command hints are then put back as code.

The escaping is our own: discord.py's ``escape_markdown`` treats everything from a line's first
``[`` to its last ``)`` as one masked link and escapes only its first bracket, so a name with
two masked links (or bold, spoilers) between them still rendered as a link to a stranger's
site. Here every markdown character is escaped on its own (Discord hides the backslash before
punctuation; a masked link is broken at its ``](``), except inside plain URLs, which must stay
clickable as they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from bot.commands import SPECS
from bot.commands.steps import DRAW_LABEL

_GROUPS = sorted({spec.group for spec in SPECS.values()} - {"quit"}, key=len, reverse=True)
_WORD = r"[a-z](?:[a-z]|\\?_)*"  # `house chaos_from`: escaped as markdown, or not
# `chaos roll`, `game join NAME`, `turn next override`, `chaos roll extra`, `rules TOPIC`,
# escaped or not. `N` and `ID` are capitals like `NAME` and aren't listed again: read both
# ways, `turn ID ID ID ...` without its closing backtick took 2^n tries to fail.
# A hint's words may be split over two lines where text was wrapped (a rules topic).
_HINT = re.compile(
    r"\\?`(?P<name>(?:" + "|".join(_GROUPS) + rf")(?:\s{_WORD})?)"
    r"(?P<rest>(?:\s(?:[A-Z][A-Z_]*|\\?\[[A-Z_ ]+\\?\]|override|extra))*)\\?`"
)


# `chaos roll vortex` and `chaos decline vortex`: taking or declining an offered roll, with the
# list's id (escaped or not).
_ROLL_ON = re.compile(
    r"\\?`chaos\s(?P<verb>roll|decline)\s(?!extra\\?`)(?P<list>(?:[A-Za-z0-9-]|\\?_)+)\\?`"
)


# A deck game's chaos roll is a card drawn, and on Discord its button says so: "draw it with
# `chaos roll`" is "draw it with the Draw chaos card button" there.
_DRAW_WITH = re.compile(r"\b(draw (?:it first|one)) with \\?`chaos roll\\?`")


def slashed(text: str) -> str:
    """Console command hints in `text` as slash commands (other text is left alone)."""
    if "`" not in text:  # every hint is in backticks: most text has none to look for
        return text
    text = _DRAW_WITH.sub(rf"\1 with the **{DRAW_LABEL}** button", text)
    text = _ROLL_ON.sub(
        lambda m: f"`/chaos {m['verb']} list:{m['list'].replace(chr(92), '')}`", text
    )
    return _HINT.sub(_slash, text)


# Boards and answers show the same texts again and again (an entry's text, a player's name,
# an effect in play): each is worked out once. Bounded by count, and only for short texts, so
# the cache stays small (at most about CACHED * LONGEST characters).
CACHED = 4096
LONGEST = 1024


def plain(text: str) -> str:
    """Text that came from tables, players or the renderer, safe to show as markdown."""
    if len(text) > LONGEST:
        return slashed(escape(text))
    return _plain(text)


@lru_cache(maxsize=CACHED)
def _plain(text: str) -> str:
    return slashed(escape(text))


# Markdown anywhere (a masked link is its "](": brackets alone, as in dice faces "[3, 5]", are
# left as they are), and the line-start marks (quote, heading, list, subtext).
_MARK = re.compile(r"[\\*_~|`]|(?<=\])\(|^([ \t]*)([>#-]|\d+\.)", re.M)


def escape(text: str) -> str:
    """`text` with every markdown character escaped, so Discord shows it as typed."""
    if "<" not in text and "://" not in text:  # no URL to keep as it is
        return _escape(text)
    parts: list[str] = []
    at = 0
    for start, end in _urls(text):
        parts += [_escape(text[at:start]), text[start:end]]
        at = end
    parts.append(_escape(text[at:]))
    return "".join(parts)


def _urls(text: str) -> Iterator[tuple[int, int]]:
    """Where the URLs are, as Discord links them: ``<scheme:/…>``, or ``http(s)://…`` up to
    the last character that isn't closing punctuation (``.,:;"')]``).

    Not one pattern: that tried again from every ``<`` inside a long ``<a:/<a:/<a:/…`` without
    a ``>``, reading the rest of the text each time. Here the end of each part is found once.
    """
    scheme, path, link = (_Stop(text, stop) for stop in (_SCHEME_STOP, _PATH_STOP, _LINK_STOP))
    at = 0
    while found := _LINK_START.search(text, at):
        at, end = found.start(), 0
        if text[at] == "<":
            colon = scheme(at + 1)
            close = path(colon + 2) if colon > at + 1 and text.startswith(":/", colon) else 0
            if close > colon + 2 and close < len(text) and text[close] == ">":
                end = close + 1
        else:
            begin = found.end()
            last = link(begin) - 1
            while last > begin and text[last] in _CLOSING:
                last -= 1
            end = last + 1 if last > begin else 0
        if end:
            yield at, end
        at = end or at + 1


_LINK_START = re.compile(r"<|https?://")
_SCHEME_STOP = re.compile(r"[: >]")  # <scheme:
_PATH_STOP = re.compile(r"[ >]")  # :/path>
_LINK_STOP = re.compile(r"[\s<]")  # https://link
_CLOSING = frozenset(".,:;\"')]")  # a link's trailing punctuation: Discord leaves it out


class _Stop:
    """Where a run that starts at a position stops: the next character `stop` finds there, or
    the end. Asked at positions that never go back, it reads each stretch of text once."""

    def __init__(self, text: str, stop: re.Pattern[str]) -> None:
        self.text = text
        self.stop = stop
        self.found = -1

    def __call__(self, at: int) -> int:
        if self.found < at:
            match = self.stop.search(self.text, at)
            self.found = match.start() if match else len(self.text)
        return self.found


def _escape(text: str) -> str:
    return _MARK.sub(_escaped, text)


def _escaped(mark: re.Match[str]) -> str:
    if not mark[2]:
        return f"\\{mark[0]}"
    if mark[2].endswith("."):  # "1. ": the dot makes the list (a backslash before 1 would show)
        return f"{mark[1]}{mark[2][:-1]}\\."
    return f"{mark[1]}\\{mark[2]}"


def _slash(match: re.Match[str]) -> str:
    name = " ".join(match["name"].replace("\\", "").split())
    words = name.split()
    if len(words) == 2 and f"{words[0]} {words[1]}" not in SPECS and words[0] in SPECS:
        name = words[0]  # `rules nesting`: a single command with its argument
    elif len(words) == 2 and name not in SPECS:
        return match.group(0)  # not a command after all: leave it as it was
    if "override" in match["rest"]:
        name += " override:True"
    if "extra" in match["rest"]:
        name += " extra:True"
    return f"`/{name}`"
