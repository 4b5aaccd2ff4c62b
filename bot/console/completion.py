"""Tab completion for the console, read off the command grammar.

The words offered are the ones that fit where the cursor is: at the start of a line (or after
``as NAME:``) the commands' first words; after a group, its verbs (``turn`` → ``extra``,
``next``, ``reverse``, ``seats``, ``skip``); after a whole command, the words its usage line
spells in lowercase and that aren't typed yet (``turn next`` → ``override``, ``player away`` →
``next``). After a word that takes a value (``life`` in ``game start``) nothing is offered:
a number comes next. ``help`` offers the groups.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.commands import SPECS
from bot.commands.grammar import groups

_LITERAL = re.compile(r"[a-z]+")
_PLACEHOLDER = re.compile(r"[A-Z][A-Z,]*")


@dataclass(frozen=True)
class Usage:
    """What a command's usage line says may follow its name."""

    flags: frozenset[str]  # words that stand alone: `override`, `next`, `poison`
    valued: frozenset[str]  # words a value follows: `life N`, `seed S`, `tables A,B`
    groups: bool = False  # `help [GROUP]`


def usage_of(name: str) -> Usage:
    """The lowercase words of `name`'s usage line after the name itself."""
    tokens = SPECS[name].usage.split()[len(name.split()) :]
    flags: set[str] = set()
    valued: set[str] = set()
    for n, token in enumerate(tokens):
        for word in token.strip("[]").split("|"):
            if not _LITERAL.fullmatch(word):
                continue
            follows = tokens[n + 1].strip("[]") if n + 1 < len(tokens) else ""
            ends_here = token.endswith("]") or "|" in token
            if not ends_here and _PLACEHOLDER.fullmatch(follows):
                valued.add(word)
            else:
                flags.add(word)
    takes_group = any(token.strip("[]") == "GROUP" for token in tokens)
    return Usage(frozenset(flags), frozenset(valued), groups=takes_group)


def completions(before: str, text: str) -> list[str]:
    """The completions of `text`, the word being typed, after `before`, the rest of the line
    up to it; each with the space that ends it."""
    typed = _without_speaker(before).lower().split()
    wanted = text.lower()
    return [word + " " for word in next_words(typed) if word.startswith(wanted)]


def _without_speaker(line: str) -> str:
    """`line` after its ``as NAME:``, if it starts so."""
    head, colon, rest = line.partition(":")
    return rest if colon and head.lower().split()[:1] == ["as"] else line


def next_words(typed: list[str]) -> list[str]:
    """The words that may follow the words `typed`, sorted."""
    found: set[str] = set()
    for name in SPECS:
        words = name.split()
        if len(words) > len(typed) and words[: len(typed)] == typed:
            found.add(words[len(typed)])
        elif words == typed[: len(words)]:
            usage = usage_of(name)
            rest = typed[len(words) :]
            if rest and rest[-1] in usage.valued:
                continue  # a value comes next, not a word
            if usage.groups and not rest:
                found.update(groups())
            found.update((usage.flags | usage.valued) - set(rest))
    return sorted(found)
