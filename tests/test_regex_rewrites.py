"""The patterns the regex guard (tests/test_regex_guard.py) made us rewrite read just what they did.

Each old pattern is kept here as the oracle and run on short texts made of the pieces it
cares about, where its backtracking is still cheap; the code that replaced it must give the
same answer on every one. Long texts are the guard's business.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.client.wording import _urls, slashed
from bot.commands.grammar import _speaker
from bot.engine.dice import _BRACES
from bot.notation import _advantage, _explode
from bot.tables.dealpete_entries import _DICE_BRACES
from bot.tables.entries import _DIE


def texts(*pieces: str, most: int = 12) -> st.SearchStrategy[str]:
    """Texts of up to `most` pieces, each one of `pieces` or any character."""
    piece = st.one_of(st.sampled_from(pieces), st.characters(codec="utf-8"))
    return st.lists(piece, max_size=most).map("".join)


OLD_EXPLODE = re.compile(r"(\d*d(\d+)(?:(?:kh|kl|ph|pl|k|p|rr|ro|ra|e|mi|ma)[lh<>]?\d+)*)!(?!!)")
OPERATIONS = ["kh", "kl", "ph", "pl", "k", "p", "rr", "ro", "ra", "e", "mi", "ma", "h", "l"]


@settings(max_examples=3000, deadline=None)
@given(texts("d", "1", "6", "20", "!", "!!", "<", ">", "(", " ", "+", *OPERATIONS))
def test_exploding_dice_are_found_as_the_pattern_found_them(text: str) -> None:
    expected = OLD_EXPLODE.sub(lambda m: f"{m.group(1)}e{m.group(2)}", text)
    assert _explode(text) == expected


OLD_ADVANTAGE = re.compile(r"\s+(adv|advantage|dis|disadvantage)$")


@settings(max_examples=2000, deadline=None)
@given(texts("adv", "advantage", "dis", "disadvantage", "1d20", " ", "  ", "\t", "+5", "x"))
def test_advantage_is_read_as_the_pattern_read_it(typed: str) -> None:
    text = " ".join(typed.split())  # as the notation has it by then
    old = OLD_ADVANTAGE.search(text)
    word, rest = (old[1], text[: old.start()].strip()) if old else ("", text)
    advantage, left = _advantage(text)
    assert left == rest
    assert advantage.name == {"": "NONE", "adv": "ADV", "advantage": "ADV"}.get(word, "DIS")


OLD_URL = re.compile(r"<[^: >]+:/[^ >]+>|https?://[^\s<]+[^<.,:;\"')\]\s]")


@settings(max_examples=3000, deadline=None)
@given(texts("<", ">", ":", "/", ":/", "http", "https", "://", "s", "a", ".", ",", " ", "\t"))
def test_links_are_found_where_the_pattern_found_them(text: str) -> None:
    assert list(_urls(text)) == [m.span() for m in OLD_URL.finditer(text)]


OLD_HINT_REST = r"(?:\s(?:[A-Z][A-Z_]*|\\?\[[A-Z_ ]+\\?\]|override|extra|N|ID))*"


@settings(max_examples=1000, deadline=None)
@given(texts("`", "\\`", "chaos", "roll", "turn", "next", " ", "ID", "N", "NAME", "[X]", "extra"))
def test_command_hints_become_the_same_slash_commands(text: str) -> None:
    from bot.client import wording

    old = re.compile(
        wording._HINT.pattern.replace(
            r"(?:\s(?:[A-Z][A-Z_]*|\\?\[[A-Z_ ]+\\?\]|override|extra))*", OLD_HINT_REST
        )
    )
    assert old.pattern != wording._HINT.pattern
    assert slashed(text) == old.sub(
        wording._slash,
        wording._ROLL_ON.sub(
            lambda m: f"`/chaos roll list:{m['list'].replace(chr(92), '')}`", text
        ),
    )


OLD_AS = re.compile(r"\s*as\s+([^:]+?)\s*:\s*(.*)", re.IGNORECASE | re.DOTALL)


@settings(max_examples=3000, deadline=None)
@given(texts("as", "AS", "aſ", "a", "s", " ", "  ", "\t", "\u2003", ":", "Ann", "roll"))
def test_speakers_are_read_as_the_pattern_read_them(text: str) -> None:
    old = OLD_AS.fullmatch(text)
    assert _speaker(text) == (old and (old[1], old[2]))


OLD_DIE = re.compile(r"\s*([0-9]{0,6})\s*[dD]\s*([0-9]{1,6})\s*")


@settings(max_examples=2000, deadline=None)
@given(texts("d", "D", "1", "20", "1234567", " ", "\t", "x", most=8))
def test_table_dice_are_read_as_the_pattern_read_them(text: str) -> None:
    old, new = OLD_DIE.fullmatch(text), _DIE.fullmatch(text)
    assert (old is None) == (new is None)
    if old and new:
        assert (old[1] or None, old[2]) == (new[1], new[2])


OLD_BRACES = re.compile(r"\{([^{}]*[dD][^{}]*)\}")


@pytest.mark.parametrize("pattern", [_BRACES, _DICE_BRACES], ids=["engine", "dealpete"])
@settings(max_examples=1000, deadline=None)
@given(text=texts("{", "}", "d", "D", "1", "6", "+", " ", "W"))
def test_inline_dice_are_split_as_the_pattern_split_them(
    pattern: re.Pattern[str], text: str
) -> None:
    assert pattern.split(text) == OLD_BRACES.split(text)
